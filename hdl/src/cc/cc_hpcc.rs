//! HPCC++ sender (pseudo-code lines 1-27) and Rx-HPCC (lines 28-34) for `2^F` flows, bit-exact
//! with `sim::cc_hpcc` (docs/fixed-point.md). The first datapath of the CC module
//! (docs/modules/cc_module.md).
//!
//! ```text
//! IN   accept an event, read the front state RAM (L, lastUpdateSeq/Time)  (cc_hpcc_intake)
//! F1   admission (0 or > 5 hops: ignore; new hop count: record), commit decision, L := hops
//!      (cc_hpcc_admit)
//! HOP  5 x cc_hop_util: u', tau per hop (35 cycles)
//! SEL  first usable hop with the largest u' (2 cycles; 4 x cc_hpcc_pick)
//! WT   weight = min(tau, T) x inv_t >> 24 (mul_pipe, 3 cycles)
//! U    U += (u - U) x weight >> 16, floored (U RAM read-modify-write, 4 cycles; cc_hpcc_u)
//! R    r = eta x 2^24 / U (div_pipe 41/24 -> 40 bits, 41 cycles)
//! W    W = clamp(Wc x r >> 24 + W_ai) or clamp(Wc + W_ai); Wc, incStage (W RAM, 4 cycles;
//!      cc_hpcc_window)
//! RT   R = (W x rate_mul + 2^31) >> 32, at most the line rate (mul_pipe, 3 cycles)
//! OUT  one result per event, in event order
//! ```
//!
//! Per-flow state lives in three RAMs, each read and written by one stage with a
//! read-modify-write window of at most 4 cycles. The input holds an event whose flow had an
//! event accepted in the previous `HAZARD - 1` cycles, so a window never sees two events of a
//! flow and no bypass network is needed: one event per clock across flows, one per `HAZARD`
//! cycles for a single flow.

use crate::cc_codes::{ACT_W, ACT_WC};
use crate::cc_hop_util::CcHopUtil;
use crate::cc_hpcc_admit::CcHpccAdmit;
use crate::cc_hpcc_intake::CcHpccIntake;
use crate::cc_hpcc_pick::CcHpccPick;
use crate::cc_hpcc_u::CcHpccU;
use crate::cc_hpcc_window::CcHpccWindow;
use crate::div_pipe::DivPipe;
use crate::layout::{
    HpccCandFields, HpccCtxFields, HpccEventFields, HpccRTagFields, HpccResultFields,
    HpccRtTagFields, HpccUTagFields, HpccWFields, HpccWbFields, HpccWtTagFields,
};
use crate::mul_pipe::MulPipe;
use crate::result_fifo::ResultFifo;
use sim::layout::{
    HpccCandLayout, HpccCtxLayout, HpccRTagLayout, HpccRtTagLayout, HpccUTagLayout, HpccWLayout,
    HpccWbLayout, HpccWtTagLayout, HPCC_CTX, HPCC_EVENT, HPCC_FRONT, HPCC_R_TAG, HPCC_U_TAG,
    HPCC_WT_TAG,
};
use sim::packet::MAX_HOPS;
use rust_hdl::prelude::*;

// The hop records are read as `get_bits::<64>(160 + 64k)` of the event and `(64k)` of the front.
const _: () = assert!(HPCC_EVENT.hops.lo == 160 && HPCC_EVENT.hops.width == 320);
const _: () = assert!(HPCC_FRONT.last.lo == 0 && HPCC_FRONT.last.width == 320);
const _: () = assert!(MAX_HOPS * 64 == 320);
// The RAM addresses are the flow's low F bits read from bit 0 of a tag: its context comes
// first, and the context's flow first in it.
const _: () = assert!(HPCC_CTX.flow.lo == 0 && HPCC_WT_TAG.ctx.lo == 0 && HPCC_U_TAG.ctx.lo == 0);
const _: () = assert!(HPCC_R_TAG.ctx.lo == 0);

/// The pipeline's words (sim::layout): the event's context, a hop's candidate, the tags of the
/// weight and U multipliers and of the divider, the W RAM word, the W stage's word, the rate
/// multiplier's tag.
pub const CTX: usize = HpccCtxLayout::WIDTH;
const CAND: usize = HpccCandLayout::WIDTH;
const WT_TAG: usize = HpccWtTagLayout::WIDTH;
const U_TAG: usize = HpccUTagLayout::WIDTH;
const R_TAG: usize = HpccRTagLayout::WIDTH;
const W_WORD: usize = HpccWLayout::WIDTH;
const WB: usize = HpccWbLayout::WIDTH;
const RT_TAG: usize = HpccRtTagLayout::WIDTH;

/// Cycles between two accepted events of the same flow, at least.
pub const HAZARD: usize = 4;
/// Result FIFO depth (log2). Events in flight plus results waiting never exceed it: the input
/// takes an event only while a slot is free, so the pipeline itself never stalls.
pub const FIFO_BITS: usize = crate::result_fifo::DEPTH_BITS;
/// Cycles from the accepting clock edge to the result on `m_axis_result_*` (with the FIFO
/// empty and `tready` high).
pub const LATENCY: usize = 1 + 35 + 1 + 3 + 1 + 2 + 1 + 41 + 1 + 2 + 2 + 1 + 1;

/// cc_hpcc's configuration: its ports `cfg_*`, cc_module's `cfg_hpcc_*`, set from the
/// register block's CC words (hpcc_nic_core's `CC_CFG`, csr::CC_FIELDS). One definition for
/// the three: cc_module links its port group to cc_hpcc's, hpcc_nic_core joins the register
/// block's `HpccCfgOut` to cc_module's.
#[derive(LogicInterface, Default)]
#[join = "HpccCfgOut"]
pub struct HpccCfg {
    /// T, ns.
    pub t_ns: Signal<In, Bits<32>>,
    /// eta, UQ0.16 (<= 65536).
    pub eta_q16: Signal<In, Bits<17>>,
    /// maxStage.
    pub max_stage: Signal<In, Bits<8>>,
    /// W_ai, UQ24.8 bytes.
    pub w_ai_q8: Signal<In, Bits<32>>,
    /// W_min, UQ24.8 bytes (>= 256 bytes).
    pub w_min_q8: Signal<In, Bits<32>>,
    /// W_max = BDP, UQ24.8 bytes: the initial W and Wc.
    pub w_max_q8: Signal<In, Bits<32>>,
    /// Initial U, UQ8.16.
    pub u_init_q16: Signal<In, Bits<24>>,
    /// Per rate code c, `[32c+31:32c]` = round(2^40 / (B T)); 0 = no rate.
    pub inv_bt: Signal<In, Bits<256>>,
    /// Per rate code c, `[32c+31:32c]` = round(2^24 / B).
    pub inv_b: Signal<In, Bits<256>>,
    /// round(2^40 / T).
    pub inv_t: Signal<In, Bits<32>>,
    /// round(2^40 x cycle / T).
    pub rate_mul: Signal<In, Bits<32>>,
    /// Line rate, UQ16.16 bytes/cycle.
    pub line_q16: Signal<In, Bits<32>>,
}

/// `HpccCfg` as its source drives it (the register block); the fields are documented there.
#[derive(LogicInterface, Default)]
#[join = "HpccCfg"]
pub struct HpccCfgOut {
    pub t_ns: Signal<Out, Bits<32>>,
    pub eta_q16: Signal<Out, Bits<17>>,
    pub max_stage: Signal<Out, Bits<8>>,
    pub w_ai_q8: Signal<Out, Bits<32>>,
    pub w_min_q8: Signal<Out, Bits<32>>,
    pub w_max_q8: Signal<Out, Bits<32>>,
    pub u_init_q16: Signal<Out, Bits<24>>,
    pub inv_bt: Signal<Out, Bits<256>>,
    pub inv_b: Signal<Out, Bits<256>>,
    pub inv_t: Signal<Out, Bits<32>>,
    pub rate_mul: Signal<Out, Bits<32>>,
    pub line_q16: Signal<Out, Bits<32>>,
}

/// HPCC++ / Rx-HPCC for `2^F` flows (F <= 12).
#[derive(LogicBlock, Default)]
pub struct CcHpcc<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset. Afterwards every flow is set to its initial state in `2^F` cycles
    /// (from the `cfg_*` values then), during which `s_axis_event_tready` is low.
    pub reset: Signal<In, bool>,
    /// The configuration: ports `cfg_*` (`HpccCfg`).
    pub cfg: HpccCfg,
    /// Event: `[15:0]` flow, `[16]` 0 = ACK or telemetry response (lines 21-27), 1 = a data
    /// packet's telemetry at the receiver (lines 28-34), `[26:24]` hop count, `[63:32]` seq,
    /// `[17]` 1 = (re)initialize the flow's state instead (on flow creation; the result shows
    /// the initial state with action 0), `[95:64]` snd_nxt, `[159:96]` receive time in ns,
    /// `[479:160]` five 64-bit hop records
    /// (slot i at `[160+64i +: 64]`). Other bits are reserved. A flow >= 2^F is dropped and
    /// counted in `stat_bad_flow`.
    pub s_axis_event_tdata: Signal<In, Bits<480>>,
    /// Event valid.
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// Event ready: low during reset and initialization, while the offered event's flow had
    /// an event accepted in the previous `HAZARD - 1` cycles, and while all `2^FIFO_BITS`
    /// result slots are taken by events in flight and results not yet read.
    pub s_axis_event_tready: Signal<Out, bool>,
    /// Result, one per accepted in-range event, in order: `[15:0]` flow, `[17:16]` action
    /// (0 ignored, 1 L recorded, 2 W updated, 3 W and Wc updated), `[18]` Rx-HPCC sends W
    /// (line 31), `[19]` the event's kind bit, `[55:24]` W, `[87:56]` Wc, `[111:88]` U,
    /// `[119:112]` incStage, `[151:120]` R (UQ16.16 bytes/cycle).
    pub m_axis_result_tdata: Signal<Out, Bits<152>>,
    /// Result valid.
    pub m_axis_result_tvalid: Signal<Out, bool>,
    /// Result ready (backpressure: results wait in a 2^FIFO_BITS-entry FIFO).
    pub m_axis_result_tready: Signal<In, bool>,
    /// Events dropped for a flow id >= 2^F (since reset).
    pub stat_bad_flow: Signal<Out, Bits<32>>,
    front_ram: RAM<Bits<420>, F>,
    u_ram: RAM<Bits<24>, F>,
    w_ram: RAM<Bits<W_WORD>, F>,
    /// IN: the input handshake, the reset sweep, the bad-flow counter.
    intake: CcHpccIntake<F>,
    /// F1: admission, commit decision, the front word and the context.
    admit: CcHpccAdmit<F>,
    /// u' and tau of hop record k (lines 4-5); slot 0 also carries the event's context.
    hop: [CcHopUtil; MAX_HOPS],
    /// SEL: hops 0 v 1 and 2 v 3, then (0, 1) v (2, 3), then that v 4.
    pick: [CcHpccPick; 4],
    wt_mul: MulPipe<24, 32, 56, 3, WT_TAG>,
    u_mul: MulPipe<24, 17, 41, 2, U_TAG>,
    /// U: line 9.
    u: CcHpccU,
    r_div: DivPipe<41, 24, 40, R_TAG>,
    w_mul: MulPipe<32, 40, 72, 2, 1>,
    /// W: lines 12-19.
    window: CcHpccWindow,
    rt_mul: MulPipe<32, 32, 64, 2, RT_TAG>,
    f0_valid: DFF<bool>,
    f0_data: DFF<Bits<480>>,
    s1_best01: DFF<Bits<CAND>>,
    s1_best23: DFF<Bits<CAND>>,
    s1_h4: DFF<Bits<CAND>>,
    s1_ctx: DFF<Bits<CTX>>,
    s1_valid: DFF<bool>,
    ua_valid: DFF<bool>,
    ua_ctx: DFF<Bits<CTX>>,
    ua_any: DFF<bool>,
    ua_u: DFF<Bits<24>>,
    ua_weight: DFF<Bits<17>>,
    uc_valid: DFF<bool>,
    uc_ctx: DFF<Bits<CTX>>,
    uc_u: DFF<Bits<24>>,
    wa_valid: DFF<bool>,
    wa_ctx: DFF<Bits<CTX>>,
    wa_u: DFF<Bits<24>>,
    wa_r: DFF<Bits<40>>,
    wb1: DFF<Bits<WB>>,
    wb2: DFF<Bits<WB>>,
    wb1_valid: DFF<bool>,
    wb2_valid: DFF<bool>,
    out_valid: DFF<bool>,
    out_data: DFF<Bits<152>>,
    results: ResultFifo<152>,
    c0: Signal<Local, Bits<CAND>>,
    tau_c: Signal<Local, Bits<24>>,
    wt: Signal<Local, Bits<32>>,
    u_old: Signal<Local, Bits<24>>,
    upd_u: Signal<Local, bool>,
    mag: Signal<Local, Bits<24>>,
    neg: Signal<Local, bool>,
    w_old: Signal<Local, Bits<W_WORD>>,
    branch: Signal<Local, bool>,
    wctx: Signal<Local, Bits<CTX>>,
    rt_ctx: Signal<Local, Bits<CTX>>,
    w_init: Signal<Local, Bits<W_WORD>>,
    rt_w: Signal<Local, Bits<W_WORD>>,
    rate: Signal<Local, Bits<33>>,
    fbit: Signal<Local, Bit>,
}

impl<const F: usize> Logic for CcHpcc<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, f0_valid, f0_data, s1_best01, s1_best23, s1_h4, s1_ctx, s1_valid,
            ua_valid, ua_ctx, ua_any, ua_u, ua_weight, uc_valid, uc_ctx, uc_u, wa_valid, wa_ctx,
            wa_u, wa_r, wb1, wb2, wb1_valid, wb2_valid, out_valid, out_data
        );
        clock!(self, clock, intake, results, wt_mul, u_mul, r_div, w_mul, rt_mul);
        self.front_ram.read_clock.next = self.clock.val();
        self.front_ram.write_clock.next = self.clock.val();
        self.u_ram.read_clock.next = self.clock.val();
        self.u_ram.write_clock.next = self.clock.val();
        self.w_ram.read_clock.next = self.clock.val();
        self.w_ram.write_clock.next = self.clock.val();
        for k in 0..MAX_HOPS {
            self.hop[k].clock.next = self.clock.val();
            self.hop[k].reset.next = self.reset.val();
            self.hop[k].cfg_inv_bt.next = self.cfg.inv_bt.val();
            self.hop[k].cfg_inv_b.next = self.cfg.inv_b.val();
        }
        self.intake.reset.next = self.reset.val();
        self.wt_mul.reset.next = self.reset.val();
        self.u_mul.reset.next = self.reset.val();
        self.r_div.reset.next = self.reset.val();
        self.w_mul.reset.next = self.reset.val();
        self.rt_mul.reset.next = self.reset.val();

        // ---- IN: the handshake, the reset sweep and bad flows (cc_hpcc_intake).
        self.intake.in_flow.next = self.s_axis_event_tdata.val().get_value_flow();
        self.intake.s_axis_event_tvalid.next = self.s_axis_event_tvalid.val();
        self.intake.credit.next = self.results.credit.val();
        self.s_axis_event_tready.next = self.intake.s_axis_event_tready.val();
        self.stat_bad_flow.next = self.intake.stat_bad_flow.val();
        self.front_ram.read_address.next = self.s_axis_event_tdata.val().get_bits::<F>(0);
        self.f0_valid.d.next = self.intake.issue.val() & !self.reset.val();
        self.f0_data.d.next = self.s_axis_event_tdata.val();

        // ---- F1: admission, commit decision, L := hops, the context (cc_hpcc_admit).
        self.admit.cfg_t_ns.next = self.cfg.t_ns.val();
        self.admit.evt.next = self.f0_data.q.val();
        self.admit.front.next = self.front_ram.read_data.val();
        self.front_ram.write_address.next = self.f0_data.q.val().get_bits::<F>(0);
        self.front_ram.write_data.next = self.admit.new_front.val();
        self.front_ram.write_enable.next = self.f0_valid.q.val() & self.admit.write.val();

        // ---- HOP: lines 4-5 for every hop slot; slot 0 also carries every event's context.
        // Hop record k is bits 64k of the event's `hops` and of the front's `last` (offsets
        // tied to sim::layout above: hdl_gen takes only literal offsets).
        for k in 0..MAX_HOPS {
            self.hop[k].in_valid.next = self.f0_valid.q.val()
                & self.admit.measure.val()
                & (self.f0_data.q.val().get_value_count() > k.to_bits());
            self.hop[k].in_now.next = self.f0_data.q.val().get_bits::<64>(160 + 64 * k);
            self.hop[k].in_last.next = self.front_ram.read_data.val().get_bits::<64>(64 * k);
            self.hop[k].in_tag.next = 0.into();
        }
        // Slot 0 runs for every event, to carry its context to SEL.
        self.hop[0].in_valid.next = self.f0_valid.q.val();
        self.hop[0].in_tag.next = self.admit.ctx.val();

        // ---- SEL: the first hop with the largest u' (lines 6-7), cc_hpcc_pick in two levels.
        // Slot 0 is valid for every event but a candidate only if the event measures (its
        // context's action is ACT_W or ACT_WC); the other slots are valid only then.
        self.c0.next = self.hop[0].out_cand.val();
        if self.hop[0].out_tag.val().get_value_action() < ACT_W {
            self.c0.next.set_value_valid(false);
        }
        self.pick[0].first.next = self.c0.val();
        self.pick[0].second.next = self.hop[1].out_cand.val();
        self.pick[1].first.next = self.hop[2].out_cand.val();
        self.pick[1].second.next = self.hop[3].out_cand.val();
        self.s1_best01.d.next = self.pick[0].best.val();
        self.s1_best23.d.next = self.pick[1].best.val();
        self.s1_h4.d.next = self.hop[4].out_cand.val();
        self.s1_ctx.d.next = self.hop[0].out_tag.val();
        self.s1_valid.d.next = self.hop[0].out_valid.val() & !self.reset.val();
        self.pick[2].first.next = self.s1_best01.q.val();
        self.pick[2].second.next = self.s1_best23.q.val();
        self.pick[3].first.next = self.pick[2].best.val();
        self.pick[3].second.next = self.s1_h4.q.val();

        // ---- WT: weight = min(tau, T) x inv_t >> 24, at most 1.0 (line 8-9).
        self.tau_c.next = self.pick[3].best.val().get_value_tau();
        if (self.cfg.t_ns.val().get_bits::<8>(24) == 0)
            & (self.cfg.t_ns.val().get_bits::<24>(0) < self.tau_c.val())
        {
            self.tau_c.next = self.cfg.t_ns.val().get_bits::<24>(0);
        }
        self.wt_mul.in_valid.next = self.s1_valid.q.val();
        self.wt_mul.in_a.next = self.tau_c.val();
        self.wt_mul.in_b.next = self.cfg.inv_t.val();
        self.wt_mul.in_tag.next = 0.into();
        self.wt_mul.in_tag.next.set_value_ctx(self.s1_ctx.q.val());
        self.wt_mul.in_tag.next.set_value_any(self.pick[3].best.val().get_value_valid());
        self.wt_mul.in_tag.next.set_value_u(self.pick[3].best.val().get_value_u());
        self.wt.next = self.wt_mul.out_prod.val().get_bits::<32>(24);
        self.ua_weight.d.next = self.wt.val().get_bits::<17>(0);
        if self.wt.val() > 65536 {
            self.ua_weight.d.next = 65536.into();
        }
        self.ua_valid.d.next = self.wt_mul.out_valid.val() & !self.reset.val();
        self.ua_ctx.d.next = self.wt_mul.out_tag.val().get_value_ctx();
        self.ua_any.d.next = self.wt_mul.out_tag.val().get_value_any();
        self.ua_u.d.next = self.wt_mul.out_tag.val().get_value_u();
        self.u_ram.read_address.next = self.wt_mul.out_tag.val().get_bits::<F>(0);

        // ---- U: U += (u - U) x weight >> 16 with a floor, as a magnitude and a sign (line 9;
        // cc_hpcc_u after the multiplier).
        self.u_old.next = self.u_ram.read_data.val();
        self.upd_u.next =
            self.ua_valid.q.val() & (self.ua_ctx.q.val().get_value_action() >= ACT_W) & self.ua_any.q.val();
        self.neg.next = self.ua_u.q.val() < self.u_old.val();
        self.mag.next = self.ua_u.q.val() - self.u_old.val();
        if self.neg.val() {
            self.mag.next = self.u_old.val() - self.ua_u.q.val();
        }
        self.u_mul.in_valid.next = self.ua_valid.q.val();
        self.u_mul.in_a.next = self.mag.val();
        self.u_mul.in_b.next = self.ua_weight.q.val();
        self.u_mul.in_tag.next = 0.into();
        self.u_mul.in_tag.next.set_value_ctx(self.ua_ctx.q.val());
        self.u_mul.in_tag.next.set_value_update(self.upd_u.val());
        self.u_mul.in_tag.next.set_value_neg(self.upd_u.val() & self.neg.val());
        self.u_mul.in_tag.next.set_value_u_old(self.u_old.val());
        self.u.cfg_u_init_q16.next = self.cfg.u_init_q16.val();
        self.u.tag.next = self.u_mul.out_tag.val();
        self.u.prod.next = self.u_mul.out_prod.val();
        self.u_ram.write_address.next = self.u_mul.out_tag.val().get_bits::<F>(0);
        self.u_ram.write_data.next = self.u.u_new.val();
        self.u_ram.write_enable.next = self.u_mul.out_valid.val() & self.u.write.val();
        self.uc_valid.d.next = self.u_mul.out_valid.val() & !self.reset.val();
        self.uc_ctx.d.next = self.u_mul.out_tag.val().get_value_ctx();
        self.uc_u.d.next = self.u.u_new.val();

        // ---- R: r = eta x 2^24 / U (line 13's quotient).
        self.r_div.in_valid.next = self.uc_valid.q.val();
        self.r_div.in_num.next = bit_cast::<41, 17>(self.cfg.eta_q16.val()) << 24;
        self.r_div.in_den.next = self.uc_u.q.val();
        self.r_div.in_tag.next = 0.into();
        self.r_div.in_tag.next.set_value_ctx(self.uc_ctx.q.val());
        self.r_div.in_tag.next.set_value_u(self.uc_u.q.val());
        self.w_ram.read_address.next = self.r_div.out_tag.val().get_bits::<F>(0);
        self.wa_valid.d.next = self.r_div.out_valid.val() & !self.reset.val();
        self.wa_ctx.d.next = self.r_div.out_tag.val().get_value_ctx();
        self.wa_u.d.next = self.r_div.out_tag.val().get_value_u();
        self.wa_r.d.next = self.r_div.out_quo.val();

        // ---- W: lines 12-19 (cc_hpcc_window after the multiplier). The W RAM word is
        // sim::layout::HPCC_W, wb1/wb2 HPCC_WB.
        self.w_old.next = self.w_ram.read_data.val();
        self.branch.next = (self.wa_u.q.val() >= bit_cast::<24, 17>(self.cfg.eta_q16.val()))
            | (self.w_old.val().get_value_inc_stage() >= self.cfg.max_stage.val());
        self.w_mul.in_valid.next = self.wa_valid.q.val();
        self.w_mul.in_a.next = self.w_old.val().get_value_wc();
        self.w_mul.in_b.next = self.wa_r.q.val();
        self.w_mul.in_tag.next = 0.into();
        self.wb1.d.next = 0.into();
        self.wb1.d.next.set_value_ctx(self.wa_ctx.q.val());
        self.wb1.d.next.set_value_branch(self.branch.val());
        self.wb1.d.next.set_value_u(self.wa_u.q.val());
        self.wb1.d.next.set_value_w_old(self.w_old.val());
        self.wb1_valid.d.next = self.wa_valid.q.val() & !self.reset.val();
        self.wb2.d.next = self.wb1.q.val();
        self.wb2_valid.d.next = self.wb1_valid.q.val() & !self.reset.val();
        self.window.cfg_w_ai_q8.next = self.cfg.w_ai_q8.val();
        self.window.cfg_w_min_q8.next = self.cfg.w_min_q8.val();
        self.window.cfg_w_max_q8.next = self.cfg.w_max_q8.val();
        self.window.wb.next = self.wb2.q.val();
        self.window.prod.next = self.w_mul.out_prod.val();
        self.wctx.next = self.wb2.q.val().get_value_ctx();
        self.w_ram.write_address.next = self.wctx.val().get_bits::<F>(0);
        self.w_ram.write_data.next = self.window.word.val();
        self.w_ram.write_enable.next = self.wb2_valid.q.val()
            & ((self.wctx.val().get_value_action() >= ACT_W) | self.wctx.val().get_value_init());

        // ---- RT: R = (W x rate_mul + 2^31) >> 32, at most the line rate (line 27).
        // Its tag is sim::layout::HPCC_RT_TAG.
        self.rt_mul.in_valid.next = self.wb2_valid.q.val();
        self.rt_mul.in_a.next = self.window.word.val().get_value_w();
        self.rt_mul.in_b.next = self.cfg.rate_mul.val();
        self.rt_mul.in_tag.next = 0.into();
        self.rt_mul.in_tag.next.set_value_ctx(self.wctx.val());
        self.rt_mul.in_tag.next.set_value_u(self.wb2.q.val().get_value_u());
        self.rt_mul.in_tag.next.set_value_w_new(self.window.word.val());
        self.rate.next = (bit_cast::<33, 32>(self.rt_mul.out_prod.val().get_bits::<32>(32)))
            + bit_cast::<33, 1>(self.rt_mul.out_prod.val().get_bits::<1>(31));
        if self.rate.val() > bit_cast::<33, 32>(self.cfg.line_q16.val()) {
            self.rate.next = bit_cast::<33, 32>(self.cfg.line_q16.val());
        }

        // ---- OUT
        self.out_valid.d.next = self.rt_mul.out_valid.val() & !self.reset.val();
        self.rt_ctx.next = self.rt_mul.out_tag.val().get_value_ctx();
        self.rt_w.next = self.rt_mul.out_tag.val().get_value_w_new();
        self.fbit.next = false;
        if self.rt_ctx.val().get_value_rx() & (self.rt_ctx.val().get_value_action() == ACT_WC) {
            self.fbit.next = true;
        }
        self.out_data.d.next = 0.into();
        self.out_data.d.next.set_value_flow(bit_cast::<16, 12>(self.rt_ctx.val().get_value_flow()));
        self.out_data.d.next.set_value_action(self.rt_ctx.val().get_value_action());
        self.out_data.d.next.set_value_feedback(self.fbit.val());
        self.out_data.d.next.set_value_rx(self.rt_ctx.val().get_value_rx());
        self.out_data.d.next.set_value_w(self.rt_w.val().get_value_w());
        self.out_data.d.next.set_value_wc(self.rt_w.val().get_value_wc());
        self.out_data.d.next.set_value_u(self.rt_mul.out_tag.val().get_value_u());
        self.out_data.d.next.set_value_inc_stage(self.rt_w.val().get_value_inc_stage());
        self.out_data.d.next.set_value_rate(self.rate.val().get_bits::<32>(0));
        // ---- Result FIFO, credit counted from issue to read.
        self.results.reset.next = self.reset.val();
        self.results.issue.next = self.intake.issue.val();
        self.results.in_valid.next = self.out_valid.q.val();
        self.results.in_data.next = self.out_data.q.val();
        self.m_axis_result_tdata.next = self.results.m_axis_tdata.val();
        self.m_axis_result_tvalid.next = self.results.m_axis_tvalid.val();
        self.results.m_axis_tready.next = self.m_axis_result_tready.val();

        // ---- Initialization writes: W = Wc = W_max, incStage 0 (HpccState::new).
        self.w_init.next = 0.into();
        self.w_init.next.set_value_w(self.cfg.w_max_q8.val());
        self.w_init.next.set_value_wc(self.cfg.w_max_q8.val());
        if self.intake.init_busy.val() {
            self.front_ram.write_address.next = self.intake.init_addr.val();
            self.front_ram.write_data.next = 0.into();
            self.front_ram.write_enable.next = true;
            self.u_ram.write_address.next = self.intake.init_addr.val();
            self.u_ram.write_data.next = self.cfg.u_init_q16.val();
            self.u_ram.write_enable.next = true;
            self.w_ram.write_address.next = self.intake.init_addr.val();
            self.w_ram.write_data.next = self.w_init.val();
            self.w_ram.write_enable.next = true;
        }
    }
}
