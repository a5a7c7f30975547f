//! flow_sched's stage S4: the op against the flow's state. A visit grants n = min(credit
//! packets, window packets) and writes back the credit left, the clock and `sent`; a create,
//! remove, idle or wake changes the state as its kind says. Out: the state word to write, the
//! burst and whether the flow goes (back) into the ring. Combinational, fed only by
//! flow_sched's S4 and last-write registers.

use crate::flow_sched::{OP_CREATE, OP_IDLE, OP_REMOVE, OP_VISIT};
use crate::layout::FlowPaceNamed;
use rust_hdl::prelude::*;

/// S4 of `flow_sched<F>`; `F`: log2 of the flow count.
#[derive(LogicBlock, Default)]
pub struct FlowSchedGrant<const F: usize> {
    /// An op is in S4; its kind (`OP_*`) and flow.
    pub op_valid: Signal<In, bool>,
    pub op_kind: Signal<In, Bits<3>>,
    pub op_flow: Signal<In, Bits<F>>,
    /// The flow's state as S3 passed it (`sim::layout::FLOW_PACE`).
    pub op_pace: Signal<In, Bits<119>>,
    /// The last state written, merged if it is this flow's (it may have landed after S3).
    pub lw_valid: Signal<In, bool>,
    pub lw_flow: Signal<In, Bits<F>>,
    pub lw_pace: Signal<In, Bits<119>>,
    /// Acked bytes sampled at S0 (a create starts with nothing in flight: sent = acked).
    pub acked: Signal<In, Bits<32>>,
    /// S3's credit, capped (UQ32.16 bytes), and its packet count; the window's packet count.
    pub c1: Signal<In, Bits<48>>,
    pub n_c: Signal<In, Bits<12>>,
    pub n_w: Signal<In, Bits<12>>,
    /// The op's clock (the visit's new t_last).
    pub now: Signal<In, Bits<32>>,
    /// log2 packet bytes, and it + 16 (the credit's packet shift).
    pub shift: Signal<In, Bits<4>>,
    pub st: Signal<In, Bits<6>>,
    /// An idle op's returned bytes (a packet, at most what is in flight).
    pub ret: Signal<In, Bits<32>>,
    /// A create's own log2 packet bytes (0: the configured one).
    pub cshift: Signal<In, Bits<4>>,
    /// The state word to write back (written whenever an op is in S4).
    pub new_pace: Signal<Out, Bits<119>>,
    /// The visit's burst (0 when nothing is granted).
    pub n: Signal<Out, Bits<12>>,
    /// The flow goes into the ring; the burst goes into the burst FIFO.
    pub ring_push: Signal<Out, bool>,
    pub burst_push: Signal<Out, bool>,

    pace: Signal<Local, Bits<119>>,
    c2: Signal<Local, Bits<48>>,
    sent2: Signal<Local, Bits<32>>,
    sent3: Signal<Local, Bits<32>>,
    woke: Signal<Local, Bits<119>>,
}

impl<const F: usize> Logic for FlowSchedGrant<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.pace.next = self.op_pace.val();
        if self.lw_valid.val() & (self.lw_flow.val() == self.op_flow.val()) {
            self.pace.next = self.lw_pace.val();
        }
        self.n.next = self.n_c.val();
        if self.n_w.val() < self.n_c.val() {
            self.n.next = self.n_w.val();
        }
        // Narrow locals: inside one 119-bit expression Verilog would subtract at 119 bits.
        self.c2.next = self.c1.val() - (bit_cast::<48, 12>(self.n.val()) << self.st.val());
        self.sent2.next = self.pace.val().get_value_flow_pace_sent() + (bit_cast::<32, 12>(self.n.val()) << self.shift.val());
        self.sent3.next = self.pace.val().get_value_flow_pace_sent() - self.ret.val();
        self.woke.next = self.pace.val();
        self.woke.next.set_value_flow_pace_asleep(false);
        self.ring_push.next = false;
        self.burst_push.next = false;
        self.new_pace.next = self.pace.val();
        if self.op_kind.val() == OP_VISIT {
            if self.pace.val().get_value_flow_pace_active() & !self.pace.val().get_value_flow_pace_asleep() {
                // Visit with a grant: new credit and clock, `sent +=` the burst, back in the ring.
                self.new_pace.next = 0.into();
                self.new_pace.next.set_value_flow_pace_credit(self.c2.val());
                self.new_pace.next.set_value_flow_pace_t_last(self.now.val());
                self.new_pace.next.set_value_flow_pace_sent(self.sent2.val());
                self.new_pace.next.set_value_flow_pace_active(true);
                self.new_pace.next.set_value_flow_pace_in_ring(true);
                self.new_pace.next.set_value_flow_pace_shift(self.pace.val().get_value_flow_pace_shift());
                self.ring_push.next = self.op_valid.val();
                self.burst_push.next = self.op_valid.val() & (self.n.val() != 0);
            } else {
                // Removed or asleep while queued: leave the ring (a wake brings it back).
                self.new_pace.next.set_value_flow_pace_in_ring(false);
            }
        } else if self.op_kind.val() == OP_CREATE {
            // Create: no credit, clock now, nothing in flight, in the ring.
            self.new_pace.next = 0.into();
            self.new_pace.next.set_value_flow_pace_t_last(self.now.val());
            self.new_pace.next.set_value_flow_pace_sent(self.acked.val());
            self.new_pace.next.set_value_flow_pace_active(true);
            self.new_pace.next.set_value_flow_pace_in_ring(true);
            self.new_pace.next.set_value_flow_pace_shift(self.cshift.val());
            self.ring_push.next = self.op_valid.val() & !self.pace.val().get_value_flow_pace_in_ring();
        } else if self.op_kind.val() == OP_REMOVE {
            self.new_pace.next.set_value_flow_pace_active(false);
        } else if self.op_kind.val() == OP_IDLE {
            // Idle: the packet returned, asleep.
            self.new_pace.next.set_value_flow_pace_sent(self.sent3.val());
            self.new_pace.next.set_value_flow_pace_asleep(true);
        } else {
            // Wake: back in the ring if it is active and not already there (or on its way).
            self.new_pace.next = self.woke.val();
            if self.pace.val().get_value_flow_pace_active() & !self.pace.val().get_value_flow_pace_in_ring() {
                self.new_pace.next.set_value_flow_pace_in_ring(true);
                self.ring_push.next = self.op_valid.val();
            }
        }
    }
}
