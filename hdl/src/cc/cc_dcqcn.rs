//! DCQCN reaction point for `2^F` flows, bit-exact with `sim::cc_dcqcn`
//! (docs/fixed-point.md, docs/modules/cc_module.md). Events: CNP, timer, tx, (re)initialize.
//!
//! Per-flow state (492 bits, `STATE_BITS`) lives in one RAM and is read, updated and written
//! back in one read-modify-write window of `HAZARD` cycles; `flow_park` (8 slots) issues a
//! flow's events at least `HAZARD` cycles apart and lets other flows' events pass one that
//! waits, so the window never holds two events of a flow. Everything else is a fixed-latency
//! pipeline: one event per clock across flows. Results of different flows may come out in
//! another order than their events; a flow's results keep its events' order.
//!
//! ```text
//! park         flow_park slot (1 cycle, or the flow's wait)
//! cycle 0      issue; read the state RAM
//! 1            state (or the initial state for kind 3); now > state.now
//! 2            now' = max(now, state.now); t+1, bc+1, next + T, bytes + tx (saturating)
//! 3            timer expiry (now' >= next); elapsed = now' - lastCNP; now' - lastCut;
//!              byte-counter expiry (bytes' >= B), bytes' - B; now' + T
//! 4            counters, next, bytes, lastCut, lastCNP, active after the event; CNP coalesced?
//!              elapsed clamped to 2^32 - 1 (0 unless an active flow's CNP)
//! 5            stages of the two possible increases, their steps; n = elapsed / K enters
//!              div_pipe (18 cycles)
//! 6..9         timer increase: Rt = clamp(Rt + step), Rc = clamp((Rt + Rc) >> 1)  (4 cycles)
//! 10..13       byte-counter increase, the same                                      (4 cycles)
//! 14           Rt = Rc on a cut; context waits in a delay line for alpha
//! 23..54       alpha x decay[i] >> 24 for each set bit i of n: 16 cc_dcqcn_decay steps,
//!              a mul_pipe of 2 cycles each
//! 55           alpha (0 when n >= 2^16); cut = Rc x alpha >> 25 enters a mul_pipe
//! 56..57       alpha >> g, alpha - (alpha >> g); Rc - cut
//! 58           alpha + (1 >> g), clamp(Rc - cut); the state after the event
//! 59           state RAM write (end of the window); window bytes = Rc x win_mul >> 40
//! 61..62       result register, result FIFO
//! ```

use crate::cc_dcqcn_decay::{CcDcqcnDecay, DECAY_BITS, DECAY_STEPS};
use crate::cc_dcqcn_stage::CcDcqcnStage;
use crate::cc_dcqcn_timers::CcDcqcnTimers;
use crate::cc_intake::CcIntake;
use crate::delay_line::DelayLine;
use crate::div_pipe::DivPipe;
use crate::layout::{
    DcqcnEventFields18, DcqcnHoldBFields, DcqcnHoldCFields, DcqcnHoldFields, DcqcnIncTagFields,
    DcqcnResultFields, DcqcnStateFields,
};
use crate::mul_pipe::MulPipe;
use crate::result_fifo::ResultFifo;
use rust_hdl::prelude::*;
use sim::layout::{
    DcqcnHoldBLayout, DcqcnHoldCLayout, DcqcnHoldLayout, DcqcnIncTagLayout, DcqcnResultLayout,
    DcqcnStateLayout, DCQCN_HOLD, DCQCN_STATE,
};

/// Bits of one flow's state in the RAM and in results (`sim::layout::DCQCN_STATE`).
pub const STATE_BITS: usize = DcqcnStateLayout::WIDTH;
// The delay lines carry the state from `active` up (bits 491:105, `get_bits::<387>(105)`) as
// `DCQCN_HOLD`'s `upper`, beside Rc, Rt and alpha below it: those must stay the bottom of the
// word, in this order, and the rate is read as Rc's bits 39:8.
const _: () = assert!(DCQCN_STATE.active.lo == 105 && DCQCN_HOLD.upper.width == STATE_BITS - 105);
const _: () = assert!(DCQCN_STATE.rc.lo == 0 && DCQCN_STATE.rt.lo == 40 && DCQCN_STATE.alpha.lo == 80);
/// The pipeline's words (sim::layout): what the delay lines dl_a, dl_b, dl_c hold, and the
/// increase blocks' tag.
const HOLD: usize = DcqcnHoldLayout::WIDTH;
const HOLD_B: usize = DcqcnHoldBLayout::WIDTH;
const HOLD_C: usize = DcqcnHoldCLayout::WIDTH;
const INC_TAG: usize = DcqcnIncTagLayout::WIDTH;
/// Cycle (after the issuing edge) whose edge writes the state back.
pub const WRITE_CYCLE: usize = 59;
/// Cycles between two issued events of the same flow, at least: the read-modify-write
/// window, from the issuing edge to the write edge.
pub const HAZARD: usize = WRITE_CYCLE + 1;
/// Result FIFO depth (log2); events in flight plus results waiting never exceed it.
pub const FIFO_BITS: usize = crate::result_fifo::DEPTH_BITS;
/// Cycles from the accepting clock edge to the result on `m_axis_result_*` (FIFO empty,
/// `tready` high, no wait in the park): the park's slot, write cycle, window multiply (2),
/// result register, FIFO write.
pub const LATENCY: usize = 1 + WRITE_CYCLE + 2 + 1 + 1;
/// flow_park slots: events waiting for their flow's window while others pass.
pub const PARK_SLOTS: usize = crate::cc_intake::PARK_SLOTS;
/// Result width (`sim::layout::DCQCN_RESULT`).
pub const RESULT_BITS: usize = DcqcnResultLayout::WIDTH;

/// One increase step, `Rt = clamp(Rt + step)`, `Rc = clamp((Rt + Rc) >> 1)`, when `in_fire`
/// (else both pass unchanged), in 4 cycles of one add or one clamp each.
#[derive(LogicBlock, Default)]
pub struct DcqcnIncrease {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Lower clamp, UQ16.24.
    pub cfg_min: Signal<In, Bits<40>>,
    /// Upper clamp (line rate), UQ16.24.
    pub cfg_line: Signal<In, Bits<40>>,
    /// Rt before the step.
    pub in_rt: Signal<In, Bits<40>>,
    /// Rc before the step.
    pub in_rc: Signal<In, Bits<40>>,
    /// Step of Rt (0, R_AI or R_HAI).
    pub in_step: Signal<In, Bits<40>>,
    /// Apply the step; otherwise Rt and Rc pass unchanged.
    pub in_fire: Signal<In, bool>,
    /// Carried unchanged to `out_tag`.
    pub in_tag: Signal<In, Bits<INC_TAG>>,
    /// Rt after the step, 4 cycles after the inputs.
    pub out_rt: Signal<Out, Bits<40>>,
    /// Rc after the step.
    pub out_rc: Signal<Out, Bits<40>>,
    /// `in_tag` of the same step.
    pub out_tag: Signal<Out, Bits<INC_TAG>>,
    s1_sum: DFF<Bits<41>>,
    s1_rt: DFF<Bits<40>>,
    s1_rc: DFF<Bits<40>>,
    s1_fire: DFF<bool>,
    s1_tag: DFF<Bits<INC_TAG>>,
    s2_rt: DFF<Bits<40>>,
    s2_rc: DFF<Bits<40>>,
    s2_fire: DFF<bool>,
    s2_tag: DFF<Bits<INC_TAG>>,
    s3_sum: DFF<Bits<41>>,
    s3_rt: DFF<Bits<40>>,
    s3_rc: DFF<Bits<40>>,
    s3_fire: DFF<bool>,
    s3_tag: DFF<Bits<INC_TAG>>,
    s4_rt: DFF<Bits<40>>,
    s4_rc: DFF<Bits<40>>,
    s4_tag: DFF<Bits<INC_TAG>>,
    avg: Signal<Local, Bits<40>>,
}

impl Logic for DcqcnIncrease {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s1_sum, s1_rt, s1_rc, s1_fire, s1_tag, s2_rt, s2_rc, s2_fire, s2_tag,
            s3_sum, s3_rt, s3_rc, s3_fire, s3_tag, s4_rt, s4_rc, s4_tag
        );
        // 1: Rt + step.
        self.s1_sum.d.next =
            bit_cast::<41, 40>(self.in_rt.val()) + bit_cast::<41, 40>(self.in_step.val());
        self.s1_rt.d.next = self.in_rt.val();
        self.s1_rc.d.next = self.in_rc.val();
        self.s1_fire.d.next = self.in_fire.val();
        self.s1_tag.d.next = self.in_tag.val();
        // 2: Rt = clamp(Rt + step).
        self.s2_rt.d.next = self.s1_rt.q.val();
        if self.s1_fire.q.val() {
            self.s2_rt.d.next = self.s1_sum.q.val().get_bits::<40>(0);
            if self.s1_sum.q.val() > bit_cast::<41, 40>(self.cfg_line.val()) {
                self.s2_rt.d.next = self.cfg_line.val();
            }
            if self.s1_sum.q.val() < bit_cast::<41, 40>(self.cfg_min.val()) {
                self.s2_rt.d.next = self.cfg_min.val();
            }
        }
        self.s2_rc.d.next = self.s1_rc.q.val();
        self.s2_fire.d.next = self.s1_fire.q.val();
        self.s2_tag.d.next = self.s1_tag.q.val();
        // 3: Rt + Rc.
        self.s3_sum.d.next =
            bit_cast::<41, 40>(self.s2_rt.q.val()) + bit_cast::<41, 40>(self.s2_rc.q.val());
        self.s3_rt.d.next = self.s2_rt.q.val();
        self.s3_rc.d.next = self.s2_rc.q.val();
        self.s3_fire.d.next = self.s2_fire.q.val();
        self.s3_tag.d.next = self.s2_tag.q.val();
        // 4: Rc = clamp((Rt + Rc) >> 1).
        self.avg.next = self.s3_sum.q.val().get_bits::<40>(1);
        self.s4_rc.d.next = self.s3_rc.q.val();
        if self.s3_fire.q.val() {
            self.s4_rc.d.next = self.avg.val();
            if self.avg.val() > self.cfg_line.val() {
                self.s4_rc.d.next = self.cfg_line.val();
            }
            if self.avg.val() < self.cfg_min.val() {
                self.s4_rc.d.next = self.cfg_min.val();
            }
        }
        self.s4_rt.d.next = self.s3_rt.q.val();
        self.s4_tag.d.next = self.s3_tag.q.val();
        self.out_rt.next = self.s4_rt.q.val();
        self.out_rc.next = self.s4_rc.q.val();
        self.out_tag.next = self.s4_tag.q.val();
    }
}

/// cc_dcqcn's configuration: its ports `cfg_*`, cc_module's `cfg_dcqcn_*`, set from the
/// register block's CC words (hpcc_nic_core's `CC_CFG`, csr::CC_FIELDS). One definition for
/// the three: cc_module links its port group to cc_dcqcn's, hpcc_nic_core joins the register
/// block's `DcqcnCfgOut` to cc_module's.
#[derive(LogicInterface, Default)]
#[join = "DcqcnCfgOut"]
pub struct DcqcnCfg {
    /// Line rate, UQ16.24 bytes/cycle: the upper clamp and the initial Rc and Rt.
    pub line_q24: Signal<In, Bits<40>>,
    /// Minimum rate, UQ16.24 bytes/cycle (<= the line rate): the lower clamp.
    pub min_q24: Signal<In, Bits<40>>,
    /// R_AI, UQ16.24 bytes/cycle.
    pub ai_q24: Signal<In, Bits<40>>,
    /// R_HAI, UQ16.24 bytes/cycle.
    pub hai_q24: Signal<In, Bits<40>>,
    /// g = 2^-g_shift (0..=24).
    pub g_shift: Signal<In, Bits<5>>,
    /// alpha before the first CNP, UQ1.24 (<= 2^24).
    pub initial_alpha_q24: Signal<In, Bits<25>>,
    /// K, the alpha timer, ns (> 0).
    pub alpha_timer_ns: Signal<In, Bits<32>>,
    /// `[24i+23:24i]` = round((1 - g)^(2^i) x 2^24), i = 0..15 (each < 2^24).
    pub decay: Signal<In, Bits<384>>,
    /// Minimum time between two cuts, ns.
    pub min_cut_interval_ns: Signal<In, Bits<32>>,
    /// T, the rate-increase period, ns.
    pub rate_increase_timer_ns: Signal<In, Bits<32>>,
    /// B, bytes per byte-counter expiry; 0 disables the byte counter.
    pub byte_counter_bytes: Signal<In, Bits<32>>,
    /// F, fast-recovery steps.
    pub fast_recovery_times: Signal<In, Bits<8>>,
    /// round(2^16 x base RTT / cycle): window bytes = Rc x win_mul >> 40.
    pub win_mul: Signal<In, Bits<32>>,
}

/// `DcqcnCfg` as its source drives it (the register block); the fields are documented there.
#[derive(LogicInterface, Default)]
#[join = "DcqcnCfg"]
pub struct DcqcnCfgOut {
    pub line_q24: Signal<Out, Bits<40>>,
    pub min_q24: Signal<Out, Bits<40>>,
    pub ai_q24: Signal<Out, Bits<40>>,
    pub hai_q24: Signal<Out, Bits<40>>,
    pub g_shift: Signal<Out, Bits<5>>,
    pub initial_alpha_q24: Signal<Out, Bits<25>>,
    pub alpha_timer_ns: Signal<Out, Bits<32>>,
    pub decay: Signal<Out, Bits<384>>,
    pub min_cut_interval_ns: Signal<Out, Bits<32>>,
    pub rate_increase_timer_ns: Signal<Out, Bits<32>>,
    pub byte_counter_bytes: Signal<Out, Bits<32>>,
    pub fast_recovery_times: Signal<Out, Bits<8>>,
    pub win_mul: Signal<Out, Bits<32>>,
}

/// DCQCN reaction point for `2^F` flows (F <= 12).
#[derive(LogicBlock, Default)]
pub struct CcDcqcn<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset. Afterwards every flow is set to its initial state
    /// (`DcqcnState::new`, from the `cfg_*` values then) in `2^F` cycles, during which
    /// `s_axis_event_tready` is low.
    pub reset: Signal<In, bool>,
    /// The configuration: ports `cfg_*` (`DcqcnCfg`).
    pub cfg: DcqcnCfg,
    /// Event: `[15:0]` flow, `[17:16]` kind (0 CNP, 1 timer, 2 tx, 3 (re)initialize the flow to
    /// its initial state), `[63:32]` bytes sent (tx), `[127:64]` time, ns. Other bits are
    /// reserved. A flow >= 2^F is dropped and counted in `stat_bad_flow`.
    pub s_axis_event_tdata: Signal<In, Bits<128>>,
    /// Event valid.
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// Event ready: low during reset and initialization, while the offered event's flow
    /// already has two events in the park (one waiting, one chained behind it), and while all
    /// `PARK_SLOTS` slots are taken (they drain one per clock unless all `2^FIFO_BITS` result
    /// slots are owed). Events with a bad flow id are always taken (and dropped).
    pub s_axis_event_tready: Signal<Out, bool>,
    /// Result, one per accepted in-range event, in event order per flow: `[15:0]` flow, `[17:16]` kind,
    /// `[63:32]` Rc as UQ16.16 bytes/cycle (`rate_q16`), `[95:64]` window bytes
    /// (`window_bytes`), `[587:96]` the flow's whole state after the event (`STATE_BITS`).
    pub m_axis_result_tdata: Signal<Out, Bits<588>>,
    /// Result valid.
    pub m_axis_result_tvalid: Signal<Out, bool>,
    /// Result ready (backpressure: results wait in a 2^FIFO_BITS-entry FIFO).
    pub m_axis_result_tready: Signal<In, bool>,
    /// Events dropped for a flow id >= 2^F.
    pub stat_bad_flow: Signal<Out, Bits<32>>,
    ram: RAM<Bits<STATE_BITS>, F>,
    intake: CcIntake<F, WRITE_CYCLE>,
    /// Stages 1-4: the flow's clock, timer, byte counter and the cut decision.
    timers: CcDcqcnTimers,
    /// Stage 5: the increases' stages and steps.
    stage: CcDcqcnStage,
    div: DivPipe<32, 32, 17, 25>,
    /// The alpha decay chain (stages 23..55): one step per bit of n.
    decay: [CcDcqcnDecay; DECAY_STEPS],
    inc1: DcqcnIncrease,
    inc2: DcqcnIncrease,
    cut_mul: MulPipe<40, 25, 65, 2, 40>,
    win_mul: MulPipe<40, 32, 72, 2, 18>,
    dl_a: DelayLine<HOLD, 9>,
    dl_b: DelayLine<HOLD_B, 41>,
    dl_c: DelayLine<HOLD_C, 3>,
    dl_d: DelayLine<STATE_BITS, 2>,
    f0_valid: DFF<bool>,
    f0_data: DFF<Bits<128>>,
    e_tag2: DFF<Bits<INC_TAG>>,
    e_rt: DFF<Bits<40>>,
    e_rc: DFF<Bits<40>>,
    e_step1: DFF<Bits<40>>,
    e_fire: DFF<bool>,
    q56_alpha: DFF<Bits<25>>,
    q57_alpha: DFF<Bits<25>>,
    q57_ash: DFF<Bits<25>>,
    q58_v: DFF<bool>,
    q58_alpha: DFF<Bits<25>>,
    q58_au: DFF<Bits<25>>,
    q58_rcsub: DFF<Bits<40>>,
    q58_rct: DFF<Bits<40>>,
    q59_v: DFF<bool>,
    q59_state: DFF<Bits<STATE_BITS>>,
    q59_fk: DFF<Bits<18>>,
    onesh: DFF<Bits<25>>,
    out_valid: DFF<bool>,
    out_data: DFF<Bits<RESULT_BITS>>,
    results: ResultFifo<RESULT_BITS>,
    zero64: Signal<Local, Bits<64>>,
    ones64: Signal<Local, Bits<64>>,
    one25: Signal<Local, Bits<25>>,
    new_state: Signal<Local, Bits<STATE_BITS>>,
    s5: Signal<Local, Bits<STATE_BITS>>,
    hold: Signal<Local, Bits<HOLD>>,
    rt3: Signal<Local, Bits<40>>,
    hold_b: Signal<Local, Bits<HOLD_B>>,
    alpha_valid: Signal<Local, bool>,
    alpha_dec: Signal<Local, Bits<25>>,
    hold_c: Signal<Local, Bits<HOLD_C>>,
    hold58: Signal<Local, Bits<HOLD>>,
    alpha_f: Signal<Local, Bits<25>>,
    rc_f: Signal<Local, Bits<40>>,
}

impl<const F: usize> Logic for CcDcqcn<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, f0_valid, f0_data, e_rt, e_rc, e_step1, e_fire, e_tag2, q56_alpha,
            q57_alpha, q57_ash, q58_v, q58_alpha, q58_au, q58_rcsub, q58_rct, q59_v, q59_state,
            q59_fk, onesh, out_valid, out_data
        );
        clock!(
            self, clock, results, intake, timers, div, inc1, inc2, cut_mul, win_mul, dl_a, dl_b,
            dl_c, dl_d
        );
        for i in 0..DECAY_STEPS {
            self.decay[i].clock.next = self.clock.val();
        }
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.intake.reset.next = self.reset.val();
        self.timers.reset.next = self.reset.val();
        self.div.reset.next = self.reset.val();
        self.cut_mul.reset.next = self.reset.val();
        self.win_mul.reset.next = self.reset.val();
        self.inc1.cfg_min.next = self.cfg.min_q24.val();
        self.inc1.cfg_line.next = self.cfg.line_q24.val();
        self.inc2.cfg_min.next = self.cfg.min_q24.val();
        self.inc2.cfg_line.next = self.cfg.line_q24.val();
        self.zero64.next = 0.into();
        self.ones64.next = !self.zero64.val();
        self.one25.next = 16777216.into();
        self.onesh.d.next = self.one25.val() >> self.cfg.g_shift.val();
        // The initial state (DcqcnState::new): Rc = Rt = line, alpha = initial alpha, next
        // increase = 2^64 - 1, everything else 0.
        self.new_state.next = 0.into();
        self.new_state.next.set_value_rc(self.cfg.line_q24.val());
        self.new_state.next.set_value_rt(self.cfg.line_q24.val());
        self.new_state.next.set_value_alpha(self.cfg.initial_alpha_q24.val());
        self.new_state.next.set_value_next_increase(self.ones64.val());

        // ---- Input, reset sweep and issue: cc_intake (flow_park inside).
        self.intake.s_axis_event_tdata.next = self.s_axis_event_tdata.val();
        self.intake.s_axis_event_tvalid.next = self.s_axis_event_tvalid.val();
        self.s_axis_event_tready.next = self.intake.s_axis_event_tready.val();
        self.stat_bad_flow.next = self.intake.stat_bad_flow.val();
        self.intake.credit.next = self.results.credit.val();
        self.ram.read_address.next = self.intake.issue_data.val().get_bits::<F>(0);
        self.f0_valid.d.next = self.intake.issue.val() & !self.reset.val();
        self.f0_data.d.next = self.intake.issue_data.val();

        // ---- 1..4: the event against the flow's clock, timer and byte counter, the cut
        // decision (cc_dcqcn_timers).
        self.timers.cfg_rate_increase_timer_ns.next = self.cfg.rate_increase_timer_ns.val();
        self.timers.cfg_byte_counter_bytes.next = self.cfg.byte_counter_bytes.val();
        self.timers.cfg_min_cut_interval_ns.next = self.cfg.min_cut_interval_ns.val();
        self.timers.in_valid.next = self.f0_valid.q.val();
        self.timers.in_event.next = self.f0_data.q.val();
        self.timers.in_state.next = self.ram.read_data.val();
        self.timers.init_state.next = self.new_state.val();

        // ---- 5: the increases' stages and steps (cc_dcqcn_stage); n = elapsed / K starts.
        self.stage.cfg_fast_recovery_times.next = self.cfg.fast_recovery_times.val();
        self.stage.cfg_byte_counter_bytes.next = self.cfg.byte_counter_bytes.val();
        self.stage.cfg_ai_q24.next = self.cfg.ai_q24.val();
        self.stage.cfg_hai_q24.next = self.cfg.hai_q24.val();
        self.stage.t1.next = self.timers.out_t1.val();
        self.stage.bc.next = self.timers.out_bc.val();
        self.stage.bc1.next = self.timers.out_bc1.val();
        self.stage.fire.next = self.timers.out_fire.val();
        self.stage.bcfire.next = self.timers.out_bcfire.val();
        self.stage.last_stage.next = self.timers.out_state.val().get_value_last_stage();
        // dl_a holds `DCQCN_HOLD`: the state from `active` up with the new last stage, the
        // cut, flow and kind. Rc and Rt go through the increase blocks, alpha through the
        // decay chain.
        self.s5.next = self.timers.out_state.val();
        self.s5.next.set_value_last_stage(self.stage.new_stage.val());
        self.hold.next = 0.into();
        self.hold.next.set_value_upper(self.s5.val().get_bits::<387>(105));
        self.hold.next.set_value_cut(self.timers.out_cut.val());
        self.hold.next.set_value_ev(self.timers.out_ev.val());
        self.dl_a.in_data.next = self.hold.val();
        self.e_rt.d.next = self.timers.out_state.val().get_value_rt();
        self.e_rc.d.next = self.timers.out_state.val().get_value_rc();
        self.e_step1.d.next = self.stage.step1.val();
        self.e_fire.d.next = self.timers.out_fire.val();
        self.e_tag2.d.next = 0.into();
        self.e_tag2.d.next.set_value_step(self.stage.step2.val());
        self.e_tag2.d.next.set_value_fire(self.timers.out_bcfire.val());
        self.div.in_valid.next = self.timers.out_valid.val();
        self.div.in_num.next = self.timers.out_elapsed.val();
        self.div.in_den.next = self.cfg.alpha_timer_ns.val();
        self.div.in_tag.next = self.timers.out_state.val().get_value_alpha();

        // ---- 6..13: timer increase, then byte-counter increase (its step and fire in the tag).
        self.inc1.in_rt.next = self.e_rt.q.val();
        self.inc1.in_rc.next = self.e_rc.q.val();
        self.inc1.in_step.next = self.e_step1.q.val();
        self.inc1.in_fire.next = self.e_fire.q.val();
        self.inc1.in_tag.next = self.e_tag2.q.val();
        self.inc2.in_rt.next = self.inc1.out_rt.val();
        self.inc2.in_rc.next = self.inc1.out_rc.val();
        self.inc2.in_step.next = self.inc1.out_tag.val().get_value_step();
        self.inc2.in_fire.next = self.inc1.out_tag.val().get_value_fire();
        self.inc2.in_tag.next = self.inc1.out_tag.val();

        // ---- 14: Rt = Rc on a cut; dl_b holds `DCQCN_HOLD_B` while alpha decays.
        self.rt3.next = self.inc2.out_rt.val();
        if self.dl_a.out_data.val().get_value_cut() {
            self.rt3.next = self.inc2.out_rc.val();
        }
        self.hold_b.next = 0.into();
        self.hold_b.next.set_value_rc(self.inc2.out_rc.val());
        self.hold_b.next.set_value_rt(self.rt3.val());
        self.hold_b.next.set_value_hold(self.dl_a.out_data.val());
        self.dl_b.in_data.next = self.hold_b.val();

        // ---- 23..55: alpha x decay[i] >> 24 for every set bit i of n: step i of the chain
        // (cc_dcqcn_decay) sees n >> i; the divider's tag is alpha.
        self.decay[0].in_valid.next = self.div.out_valid.val();
        self.decay[0].in_n.next = self.div.out_quo.val();
        self.decay[0].in_alpha.next = self.div.out_tag.val();
        for i in 1..DECAY_STEPS {
            self.decay[i].in_valid.next = self.decay[i - 1].out_valid.val();
            self.decay[i].in_n.next = self.decay[i - 1].out_n.val();
            self.decay[i].in_alpha.next = self.decay[i - 1].out_alpha.val();
        }
        for i in 0..DECAY_STEPS {
            self.decay[i].reset.next = self.reset.val();
            self.decay[i].in_decay.next = self.cfg.decay.val().get_bits::<DECAY_BITS>(DECAY_BITS * i);
        }
        // The last step's output (a loop of one: rust-hdl evaluates an array index only from
        // loop variables). n >= 2^16 (its bit 16, bit 0 after the chain) decays alpha to 0.
        for last in (DECAY_STEPS - 1)..DECAY_STEPS {
            self.alpha_valid.next = self.decay[last].out_valid.val();
            self.alpha_dec.next = self.decay[last].out_alpha.val();
            if self.decay[last].out_n.val().get_bit(0) {
                self.alpha_dec.next = 0.into();
            }
        }

        // ---- 55..58: the cut Rc x alpha >> 25 and the alpha update; dl_c holds
        // `DCQCN_HOLD_C` (Rc goes through cut_mul's tag).
        self.cut_mul.in_valid.next = self.alpha_valid.val();
        self.cut_mul.in_a.next = self.dl_b.out_data.val().get_value_rc();
        self.cut_mul.in_b.next = self.alpha_dec.val();
        self.cut_mul.in_tag.next = self.dl_b.out_data.val().get_value_rc();
        self.hold_c.next = 0.into();
        self.hold_c.next.set_value_rt(self.dl_b.out_data.val().get_value_rt());
        self.hold_c.next.set_value_hold(self.dl_b.out_data.val().get_value_hold());
        self.dl_c.in_data.next = self.hold_c.val();
        self.q56_alpha.d.next = self.alpha_dec.val();
        self.q57_alpha.d.next = self.q56_alpha.q.val();
        self.q57_ash.d.next = self.q56_alpha.q.val() >> self.cfg.g_shift.val();
        self.q58_v.d.next = self.cut_mul.out_valid.val() & !self.reset.val();
        self.q58_alpha.d.next = self.q57_alpha.q.val();
        self.q58_au.d.next = self.q57_alpha.q.val() - self.q57_ash.q.val();
        self.q58_rct.d.next = self.cut_mul.out_tag.val();
        self.q58_rcsub.d.next =
            self.cut_mul.out_tag.val() - self.cut_mul.out_prod.val().get_bits::<40>(25);
        self.hold58.next = self.dl_c.out_data.val().get_value_hold();
        self.alpha_f.next = self.q58_alpha.q.val();
        self.rc_f.next = self.q58_rct.q.val();
        if self.hold58.val().get_value_cut() {
            self.alpha_f.next = self.q58_au.q.val() + self.onesh.q.val();
            self.rc_f.next = self.q58_rcsub.q.val();
            if self.q58_rcsub.q.val() > self.cfg.line_q24.val() {
                self.rc_f.next = self.cfg.line_q24.val();
            }
            if self.q58_rcsub.q.val() < self.cfg.min_q24.val() {
                self.rc_f.next = self.cfg.min_q24.val();
            }
        }
        self.q59_v.d.next = self.q58_v.q.val() & !self.reset.val();
        self.q59_fk.d.next = self.hold58.val().get_value_ev();
        self.q59_state.d.next = bit_cast::<STATE_BITS, 387>(self.hold58.val().get_value_upper()) << 105;
        self.q59_state.d.next.set_value_alpha(self.alpha_f.val());
        self.q59_state.d.next.set_value_rt(self.dl_c.out_data.val().get_value_rt());
        self.q59_state.d.next.set_value_rc(self.rc_f.val());

        // ---- 59: write back (the end of the read-modify-write window); window bytes.
        self.ram.write_address.next = self.q59_fk.q.val().get_bits::<F>(0);
        self.ram.write_data.next = self.q59_state.q.val();
        self.ram.write_enable.next = self.q59_v.q.val();
        self.win_mul.in_valid.next = self.q59_v.q.val();
        self.win_mul.in_a.next = self.q59_state.q.val().get_value_rc();
        self.win_mul.in_b.next = self.cfg.win_mul.val();
        self.win_mul.in_tag.next = self.q59_fk.q.val();
        self.dl_d.in_data.next = self.q59_state.q.val();

        // ---- 61: result.
        self.out_valid.d.next = self.win_mul.out_valid.val() & !self.reset.val();
        // rate_q16 is Rc >> 8: bits 39:8 of the state (Rc is its lowest field).
        self.out_data.d.next = 0.into();
        self.out_data.d.next.set_value_flow(self.win_mul.out_tag.val().get_value_flow());
        self.out_data.d.next.set_value_kind(self.win_mul.out_tag.val().get_value_kind());
        self.out_data.d.next.set_value_rate(self.dl_d.out_data.val().get_bits::<32>(8));
        self.out_data.d.next.set_value_window(self.win_mul.out_prod.val().get_bits::<32>(40));
        self.out_data.d.next.set_value_state(self.dl_d.out_data.val());

        // ---- Result FIFO, credit counted from issue to read.
        self.results.reset.next = self.reset.val();
        self.results.issue.next = self.intake.issue.val();
        self.results.in_valid.next = self.out_valid.q.val();
        self.results.in_data.next = self.out_data.q.val();
        self.m_axis_result_tdata.next = self.results.m_axis_tdata.val();
        self.m_axis_result_tvalid.next = self.results.m_axis_tvalid.val();
        self.results.m_axis_tready.next = self.m_axis_result_tready.val();

        // ---- Initialization writes.
        if self.intake.init_busy.val() {
            self.ram.write_address.next = self.intake.init_addr.val();
            self.ram.write_data.next = self.new_state.val();
            self.ram.write_enable.next = true;
        }
    }
}
