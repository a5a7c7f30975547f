//! cc_dcqcn, stages 1-4 (docs/modules/cc_module.md): one event against its flow's clock,
//! timer and byte counter. The state as read (or the initial state for an init), the flow's
//! clock moved to max(now, state.now), the timer's and the byte counter's expiries and their
//! counters, and the cut decision: a CNP cuts unless the flow is active and was cut less than
//! `min_cut_interval` ago. Out comes the state with every field but Rc, Rt and alpha (and the
//! last stage, which stage 5 decides) as it is after the event, what stage 5 needs to choose
//! the increases, and the time since the last CNP that alpha decays over. Four registered
//! stages, as the model's arithmetic is: 64-bit adds and compares, one per stage.

use crate::cc_codes::*;
use crate::layout::{DcqcnEventFields, DcqcnEventFields18, DcqcnStateFields};
use rust_hdl::prelude::*;
use sim::layout::DcqcnStateLayout;

const STATE: usize = DcqcnStateLayout::WIDTH;

/// Stages 1-4 of cc_dcqcn.
#[derive(LogicBlock, Default)]
pub struct CcDcqcnTimers {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bits.
    pub reset: Signal<In, bool>,
    /// T, the rate-increase period, ns (cc_dcqcn's `cfg_rate_increase_timer_ns`).
    pub cfg_rate_increase_timer_ns: Signal<In, Bits<32>>,
    /// B, bytes per byte-counter expiry; 0 disables the byte counter.
    pub cfg_byte_counter_bytes: Signal<In, Bits<32>>,
    /// Minimum time between two cuts, ns.
    pub cfg_min_cut_interval_ns: Signal<In, Bits<32>>,
    /// An event enters (issued one cycle before, its state read from the RAM now).
    pub in_valid: Signal<In, bool>,
    /// The event (`DCQCN_EVENT`).
    pub in_event: Signal<In, Bits<128>>,
    /// The flow's state (`DCQCN_STATE`) as the RAM reads it.
    pub in_state: Signal<In, Bits<STATE>>,
    /// The state a flow starts in (an init event's).
    pub init_state: Signal<In, Bits<STATE>>,
    /// The event that entered four cycles ago is on the outputs.
    pub out_valid: Signal<Out, bool>,
    /// Its state after the event, but for Rc, Rt, alpha and the last stage.
    pub out_state: Signal<Out, Bits<STATE>>,
    /// Its flow and kind (`DCQCN_EVENT`'s bits [17:0]).
    pub out_ev: Signal<Out, Bits<18>>,
    /// The event cuts the rate.
    pub out_cut: Signal<Out, bool>,
    /// Timer expiries since the last cut after the event (before a cut clears it).
    pub out_t1: Signal<Out, Bits<32>>,
    /// Byte-counter expiries since the last cut before the event.
    pub out_bc: Signal<Out, Bits<32>>,
    /// Byte-counter expiries after the event (before a cut clears it).
    pub out_bc1: Signal<Out, Bits<32>>,
    /// The timer expired: the timer increase applies.
    pub out_fire: Signal<Out, bool>,
    /// The byte counter expired: the byte-counter increase applies.
    pub out_bcfire: Signal<Out, bool>,
    /// ns since the last CNP at an active flow's CNP, saturated to 2^32 - 1; else 0.
    pub out_elapsed: Signal<Out, Bits<32>>,
    a_v: DFF<bool>,
    a_s: DFF<Bits<STATE>>,
    a_ev: DFF<Bits<128>>,
    a_gt: DFF<bool>,
    b_v: DFF<bool>,
    b_s: DFF<Bits<STATE>>,
    b_ev: DFF<Bits<18>>,
    b_now: DFF<Bits<64>>,
    b_tinc: DFF<Bits<32>>,
    b_bcinc: DFF<Bits<32>>,
    b_nextp: DFF<Bits<64>>,
    b_bsum: DFF<Bits<64>>,
    c_v: DFF<bool>,
    c_s: DFF<Bits<STATE>>,
    c_ev: DFF<Bits<18>>,
    c_now: DFF<Bits<64>>,
    c_tinc: DFF<Bits<32>>,
    c_bcinc: DFF<Bits<32>>,
    c_nextp: DFF<Bits<64>>,
    c_bsum: DFF<Bits<64>>,
    c_fire: DFF<bool>,
    c_elapsed: DFF<Bits<64>>,
    c_gap: DFF<Bits<64>>,
    c_txgo: DFF<bool>,
    c_bcfire: DFF<bool>,
    c_bsub: DFF<Bits<64>>,
    c_nowp: DFF<Bits<64>>,
    d_v: DFF<bool>,
    d_s: DFF<Bits<STATE>>,
    d_ev: DFF<Bits<18>>,
    d_cut: DFF<bool>,
    d_t1: DFF<Bits<32>>,
    d_bc: DFF<Bits<32>>,
    d_bc1: DFF<Bits<32>>,
    d_fire: DFF<bool>,
    d_bcfire: DFF<bool>,
    d_elapsed: DFF<Bits<32>>,
    zero64: Signal<Local, Bits<64>>,
    ones64: Signal<Local, Bits<64>>,
    sum65a: Signal<Local, Bits<65>>,
    sum65b: Signal<Local, Bits<65>>,
    sum65c: Signal<Local, Bits<65>>,
    kind3: Signal<Local, Bits<2>>,
    active3: Signal<Local, bool>,
    now4: Signal<Local, Bits<64>>,
    kind4: Signal<Local, Bits<2>>,
    active4: Signal<Local, bool>,
    cut4: Signal<Local, bool>,
    t1: Signal<Local, Bits<32>>,
    bc1: Signal<Local, Bits<32>>,
    bytes1: Signal<Local, Bits<64>>,
    next1: Signal<Local, Bits<64>>,
    lcnp1: Signal<Local, Bits<64>>,
}

impl Logic for CcDcqcnTimers {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_v, a_s, a_ev, a_gt, b_v, b_s, b_ev, b_now, b_tinc, b_bcinc, b_nextp,
            b_bsum, c_v, c_s, c_ev, c_now, c_tinc, c_bcinc, c_nextp, c_bsum, c_fire, c_elapsed,
            c_gap, c_txgo, c_bcfire, c_bsub, c_nowp, d_v, d_s, d_ev, d_cut, d_t1, d_bc, d_bc1,
            d_fire, d_bcfire, d_elapsed
        );
        self.zero64.next = 0.into();
        self.ones64.next = !self.zero64.val();

        // ---- 1: the state (initial state for kind 3); event time > state time.
        self.a_v.d.next = self.in_valid.val() & !self.reset.val();
        self.a_ev.d.next = self.in_event.val();
        self.a_s.d.next = self.in_state.val();
        self.a_gt.d.next = self.in_event.val().get_value_now() > self.in_state.val().get_value_now();
        if self.in_event.val().get_value_kind() == DCQCN_INIT {
            self.a_s.d.next = self.init_state.val();
            self.a_gt.d.next = false;
        }

        // ---- 2: now' = max(now, state.now); saturating t+1, bc+1, next + T, bytes + tx.
        self.b_v.d.next = self.a_v.q.val() & !self.reset.val();
        self.b_s.d.next = self.a_s.q.val();
        self.b_ev.d.next = self.a_ev.q.val().get_bits::<18>(0);
        self.b_now.d.next = self.a_s.q.val().get_value_now();
        if self.a_gt.q.val() {
            self.b_now.d.next = self.a_ev.q.val().get_value_now();
        }
        self.b_tinc.d.next = self.a_s.q.val().get_value_t_count() + 1;
        if self.a_s.q.val().get_value_t_count().all() {
            self.b_tinc.d.next = self.a_s.q.val().get_value_t_count();
        }
        self.b_bcinc.d.next = self.a_s.q.val().get_value_bc_count() + 1;
        if self.a_s.q.val().get_value_bc_count().all() {
            self.b_bcinc.d.next = self.a_s.q.val().get_value_bc_count();
        }
        self.sum65a.next = bit_cast::<65, 64>(self.a_s.q.val().get_value_next_increase())
            + bit_cast::<65, 32>(self.cfg_rate_increase_timer_ns.val());
        self.b_nextp.d.next = self.sum65a.val().get_bits::<64>(0);
        if self.sum65a.val().get_bit(64) {
            self.b_nextp.d.next = self.ones64.val();
        }
        self.sum65b.next = bit_cast::<65, 64>(self.a_s.q.val().get_value_bytes())
            + bit_cast::<65, 32>(self.a_ev.q.val().get_value_bytes());
        self.b_bsum.d.next = self.sum65b.val().get_bits::<64>(0);
        if self.sum65b.val().get_bit(64) {
            self.b_bsum.d.next = self.ones64.val();
        }

        // ---- 3: timer expiry, elapsed since the last CNP, time since the last cut, byte
        // counter expiry, now' + T.
        self.kind3.next = self.b_ev.q.val().get_value_kind();
        self.active3.next = self.b_s.q.val().get_value_active();
        self.c_v.d.next = self.b_v.q.val() & !self.reset.val();
        self.c_s.d.next = self.b_s.q.val();
        self.c_ev.d.next = self.b_ev.q.val();
        self.c_now.d.next = self.b_now.q.val();
        self.c_tinc.d.next = self.b_tinc.q.val();
        self.c_bcinc.d.next = self.b_bcinc.q.val();
        self.c_nextp.d.next = self.b_nextp.q.val();
        self.c_bsum.d.next = self.b_bsum.q.val();
        self.c_fire.d.next = self.active3.val()
            & (self.kind3.val() != DCQCN_INIT)
            & (self.b_now.q.val() >= self.b_s.q.val().get_value_next_increase());
        self.c_elapsed.d.next = 0.into();
        if self.b_now.q.val() >= self.b_s.q.val().get_value_last_cnp() {
            self.c_elapsed.d.next = self.b_now.q.val() - self.b_s.q.val().get_value_last_cnp();
        }
        self.c_gap.d.next = self.b_now.q.val() - self.b_s.q.val().get_value_last_cut();
        self.c_txgo.d.next = (self.kind3.val() == DCQCN_TX)
            & self.active3.val()
            & self.cfg_byte_counter_bytes.val().any();
        self.c_bcfire.d.next = (self.kind3.val() == DCQCN_TX)
            & self.active3.val()
            & self.cfg_byte_counter_bytes.val().any()
            & (self.b_bsum.q.val() >= bit_cast::<64, 32>(self.cfg_byte_counter_bytes.val()));
        self.c_bsub.d.next =
            self.b_bsum.q.val() - bit_cast::<64, 32>(self.cfg_byte_counter_bytes.val());
        self.sum65c.next = bit_cast::<65, 64>(self.b_now.q.val())
            + bit_cast::<65, 32>(self.cfg_rate_increase_timer_ns.val());
        self.c_nowp.d.next = self.sum65c.val().get_bits::<64>(0);
        if self.sum65c.val().get_bit(64) {
            self.c_nowp.d.next = self.ones64.val();
        }

        // ---- 4: counters, next, bytes, lastCut, lastCNP, active after the event. A CNP cuts
        // unless the flow is active and cut less than min_cut_interval ago.
        self.kind4.next = self.c_ev.q.val().get_value_kind();
        self.active4.next = self.c_s.q.val().get_value_active();
        self.now4.next = self.c_now.q.val();
        self.cut4.next = (self.kind4.val() == DCQCN_CNP)
            & !(self.active4.val()
                & (self.c_gap.q.val() < bit_cast::<64, 32>(self.cfg_min_cut_interval_ns.val())));
        self.t1.next = self.c_s.q.val().get_value_t_count();
        self.next1.next = self.c_s.q.val().get_value_next_increase();
        if self.c_fire.q.val() {
            self.t1.next = self.c_tinc.q.val();
            self.next1.next = self.c_nextp.q.val();
        }
        self.bc1.next = self.c_s.q.val().get_value_bc_count();
        self.bytes1.next = self.c_s.q.val().get_value_bytes();
        if self.c_txgo.q.val() {
            self.bytes1.next = self.c_bsum.q.val();
        }
        if self.c_bcfire.q.val() {
            self.bc1.next = self.c_bcinc.q.val();
            self.bytes1.next = self.c_bsub.q.val();
        }
        self.lcnp1.next = self.c_s.q.val().get_value_last_cnp();
        if self.kind4.val() == DCQCN_CNP {
            self.lcnp1.next = self.now4.val();
        }
        self.d_v.d.next = self.c_v.q.val() & !self.reset.val();
        self.d_ev.d.next = self.c_ev.q.val();
        self.d_t1.d.next = self.t1.val();
        self.d_bc.d.next = self.c_s.q.val().get_value_bc_count();
        self.d_bc1.d.next = self.bc1.val();
        self.d_fire.d.next = self.c_fire.q.val();
        self.d_bcfire.d.next = self.c_bcfire.q.val();
        self.d_cut.d.next = false;
        self.d_s.d.next = self.c_s.q.val();
        self.d_s.d.next.set_value_t_count(self.t1.val());
        self.d_s.d.next.set_value_bc_count(self.bc1.val());
        self.d_s.d.next.set_value_bytes(self.bytes1.val());
        self.d_s.d.next.set_value_now(self.now4.val());
        self.d_s.d.next.set_value_last_cnp(self.lcnp1.val());
        self.d_s.d.next.set_value_next_increase(self.next1.val());
        if self.cut4.val() {
            // Cut: active, lastCut = now', counters and bytes 0, next increase = now' + T.
            self.d_cut.d.next = true;
            self.d_s.d.next.set_value_active(true);
            self.d_s.d.next.set_value_t_count(0.into());
            self.d_s.d.next.set_value_bc_count(0.into());
            self.d_s.d.next.set_value_bytes(0.into());
            self.d_s.d.next.set_value_last_cut(self.now4.val());
            self.d_s.d.next.set_value_last_cnp(self.now4.val());
            self.d_s.d.next.set_value_next_increase(self.c_nowp.q.val());
        }
        // alpha decays only at an active flow's CNP; n = min(elapsed, 2^32 - 1) / K.
        self.d_elapsed.d.next = 0.into();
        if (self.kind4.val() == DCQCN_CNP) & self.active4.val() {
            self.d_elapsed.d.next = self.c_elapsed.q.val().get_bits::<32>(0);
            if self.c_elapsed.q.val().get_bits::<32>(32).any() {
                self.d_elapsed.d.next = self.ones64.val().get_bits::<32>(0);
            }
        }
        self.out_valid.next = self.d_v.q.val();
        self.out_state.next = self.d_s.q.val();
        self.out_ev.next = self.d_ev.q.val();
        self.out_cut.next = self.d_cut.q.val();
        self.out_t1.next = self.d_t1.q.val();
        self.out_bc.next = self.d_bc.q.val();
        self.out_bc1.next = self.d_bc1.q.val();
        self.out_fire.next = self.d_fire.q.val();
        self.out_bcfire.next = self.d_bcfire.q.val();
        self.out_elapsed.next = self.d_elapsed.q.val();
    }
}
