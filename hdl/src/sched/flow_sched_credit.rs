//! flow_sched's stage S3: the visit's credit and window room, each as a packet count. Credit
//! = the flow's credit + rate x elapsed (S2's two products), capped at `cfg_max_burst`
//! packets; window room = window - bytes in flight, rounded up to packets (a flow may send
//! while in flight < window, as the HPCC reference simulator does). Also an idle op's returned
//! bytes. Combinational, fed only by flow_sched's S3 and last-write registers.

use crate::layout::FlowPaceNamed;
use rust_hdl::prelude::*;

/// S3 of `flow_sched<F>`; `F`: log2 of the flow count.
#[derive(LogicBlock, Default)]
pub struct FlowSchedCredit<const F: usize> {
    /// The op's flow and state as S2 passed it (`sim::layout::FLOW_PACE`).
    pub op_flow: Signal<In, Bits<F>>,
    pub op_pace: Signal<In, Bits<119>>,
    /// The last state written, merged if it is this flow's.
    pub lw_valid: Signal<In, bool>,
    pub lw_flow: Signal<In, Bits<F>>,
    pub lw_pace: Signal<In, Bits<119>>,
    /// rate x elapsed as S2's two 16 x 16 products: the rate's high and low halves.
    pub p_hi: Signal<In, Bits<32>>,
    pub p_lo: Signal<In, Bits<32>>,
    /// Bytes in flight (sent - acked, 0 if negative) and the window, in bytes.
    pub inflight: Signal<In, Bits<32>>,
    pub window: Signal<In, Bits<32>>,
    /// log2 packet bytes, and it + 16 (the credit's packet shift).
    pub shift: Signal<In, Bits<4>>,
    pub st: Signal<In, Bits<6>>,
    /// The credit cap: `cfg_max_burst` packets, UQ32.16 bytes.
    pub cap: Signal<In, Bits<48>>,
    /// The state merged with the last write (what S4 starts from).
    pub pace: Signal<Out, Bits<119>>,
    /// The new credit, capped, and its whole packets (fits 12 bits: credit <= cap).
    pub c1: Signal<Out, Bits<48>>,
    pub n_c: Signal<Out, Bits<12>>,
    /// Window room in packets, rounded up (0 when in flight >= window, 0xFFF at most).
    pub n_w: Signal<Out, Bits<12>>,
    /// An idle op returns a packet, at most what is in flight (sent never passes acked).
    pub ret: Signal<Out, Bits<32>>,

    sum: Signal<Local, Bits<49>>,
    pkt: Signal<Local, Bits<32>>,
    room: Signal<Local, Bits<33>>,
    room_up: Signal<Local, Bits<33>>,
    n_w_full: Signal<Local, Bits<33>>,
}

impl<const F: usize> Logic for FlowSchedCredit<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pace.next = self.op_pace.val();
        if self.lw_valid.val() & (self.lw_flow.val() == self.op_flow.val()) {
            self.pace.next = self.lw_pace.val();
        }
        // The credit as read, not merged: no create or remove lands between a visit's read and
        // its write (no pop meanwhile), and idle and wake ops do not change the credit.
        self.sum.next = bit_cast::<49, 48>(self.op_pace.val().get_value_flow_pace_credit())
            + (bit_cast::<49, 32>(self.p_hi.val()) << 16)
            + bit_cast::<49, 32>(self.p_lo.val());
        self.c1.next = self.sum.val().get_bits::<48>(0);
        if self.sum.val() > bit_cast::<49, 48>(self.cap.val()) {
            self.c1.next = self.cap.val();
        }
        self.n_c.next = self.c1.val().get_bits::<12>(self.st.val().index());
        // Window room in packets, rounded up: a window below one packet still lets one packet
        // out when nothing is in flight.
        self.pkt.next = bit_cast::<32, 1>(1.into()) << self.shift.val();
        self.room.next = bit_cast::<33, 32>(self.window.val()) - bit_cast::<33, 32>(self.inflight.val());
        self.room_up.next = bit_cast::<33, 32>(self.room.val().get_bits::<32>(0)) + bit_cast::<33, 32>(self.pkt.val() - 1);
        self.n_w_full.next = self.room_up.val() >> self.shift.val();
        self.n_w.next = self.n_w_full.val().get_bits::<12>(0);
        if self.n_w_full.val().get_bits::<21>(12) != 0 {
            self.n_w.next = 0xFFF.into();
        }
        if self.room.val().get_bit(32) {
            self.n_w.next = 0.into();
        }
        self.ret.next = self.pkt.val();
        if self.inflight.val() < self.pkt.val() {
            self.ret.next = self.inflight.val();
        }
    }
}
