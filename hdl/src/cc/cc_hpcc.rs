//! HPCC++ sender (pseudo-code lines 1-27) and Rx-HPCC (lines 28-34) for `2^F` flows, bit-exact
//! with `sim::cc_hpcc` (docs/fixed-point.md). The first datapath of the CC module
//! (docs/modules/cc_module.md).
//!
//! ```text
//! IN   accept an event, read the front state RAM (L, lastUpdateSeq/Time)
//! F1   admission (0 or > 5 hops: ignore; new hop count: record), commit decision, L := hops
//! HOP  5 x cc_hop_util: u', tau per hop (35 cycles)
//! SEL  first usable hop with the largest u' (2 cycles)
//! WT   weight = min(tau, T) x inv_t >> 24 (mul_pipe, 3 cycles)
//! U    U += (u - U) x weight >> 16, floored (U RAM read-modify-write, 4 cycles)
//! R    r = eta x 2^24 / U (div_pipe 41/24 -> 40 bits, 41 cycles)
//! W    W = clamp(Wc x r >> 24 + W_ai) or clamp(Wc + W_ai); Wc, incStage (W RAM, 4 cycles)
//! RT   R = (W x rate_mul + 2^31) >> 32, at most the line rate (mul_pipe, 3 cycles)
//! OUT  one result per event, in event order
//! ```
//!
//! Per-flow state lives in three RAMs, each read and written by one stage with a
//! read-modify-write window of at most 4 cycles. The input holds an event whose flow had an
//! event accepted in the previous `HAZARD - 1` cycles, so a window never sees two events of a
//! flow and no bypass network is needed: one event per clock across flows, one per `HAZARD`
//! cycles for a single flow.

use crate::cc_hop_util::CcHopUtil;
use crate::cc_codes::{ACT_IGNORED, ACT_RECORDED, ACT_W, ACT_WC};
use crate::layout::{
    HpccCtxFields, HpccEventFields, HpccFrontFields, HpccRTagFields, HpccResultFields, HpccRtTagFields,
    HpccUTagFields, HpccWFields, HpccWbFields, HpccWtTagFields,
};
use sim::layout::{
    HpccCtxLayout, HpccRTagLayout, HpccRtTagLayout, HpccUTagLayout, HpccWLayout, HpccWbLayout,
    HpccWtTagLayout, HPCC_CTX, HPCC_EVENT, HPCC_FRONT, HPCC_R_TAG, HPCC_U_TAG, HPCC_WT_TAG,
};
use sim::packet::MAX_HOPS;
use crate::div_pipe::DivPipe;
use crate::mul_pipe::MulPipe;
use crate::result_fifo::ResultFifo;
use rust_hdl::prelude::*;

// The hop records are read as `get_bits::<64>(160 + 64k)` of the event and `(64k)` of the front.
const _: () = assert!(HPCC_EVENT.hops.lo == 160 && HPCC_EVENT.hops.width == 320);
const _: () = assert!(HPCC_FRONT.last.lo == 0 && HPCC_FRONT.last.width == 320);
const _: () = assert!(MAX_HOPS * 64 == 320);
// The RAM addresses are the flow's low F bits read from bit 0 of a tag: its context comes
// first, and the context's flow first in it.
const _: () = assert!(HPCC_CTX.flow.lo == 0 && HPCC_WT_TAG.ctx.lo == 0 && HPCC_U_TAG.ctx.lo == 0);
const _: () = assert!(HPCC_R_TAG.ctx.lo == 0);

/// The pipeline's words (sim::layout): the event's context, the tags of the weight and U
/// multipliers and of the divider, the W RAM word, the W stage's word, the rate multiplier's tag.
const CTX: usize = HpccCtxLayout::WIDTH;
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
    /// u' and tau of hop record k (lines 4-5); slot 0 also carries the event's context.
    hop: [CcHopUtil; MAX_HOPS],
    wt_mul: MulPipe<24, 32, 56, 3, WT_TAG>,
    u_mul: MulPipe<24, 17, 41, 2, U_TAG>,
    r_div: DivPipe<41, 24, 40, R_TAG>,
    w_mul: MulPipe<32, 40, 72, 2, 1>,
    rt_mul: MulPipe<32, 32, 64, 2, RT_TAG>,
    init_busy: DFF<bool>,
    init_addr: DFF<Bits<F>>,
    hist1: DFF<Bits<17>>,
    hist2: DFF<Bits<17>>,
    hist3: DFF<Bits<17>>,
    bad_flow: DFF<Bits<32>>,
    f0_valid: DFF<bool>,
    f0_data: DFF<Bits<480>>,
    s1_best01: DFF<Bits<49>>,
    s1_best23: DFF<Bits<49>>,
    s1_h4: DFF<Bits<49>>,
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
    fire: Signal<Local, bool>,
    in_flow: Signal<Local, Bits<16>>,
    in_flow_ok: Signal<Local, bool>,
    hazard: Signal<Local, bool>,
    front: Signal<Local, Bits<420>>,
    count: Signal<Local, Bits<3>>,
    lus: Signal<Local, Bits<32>>,
    lut: Signal<Local, Bits<64>>,
    seq_d: Signal<Local, Bits<32>>,
    now_d: Signal<Local, Bits<64>>,
    ignore: Signal<Local, bool>,
    record: Signal<Local, bool>,
    measure: Signal<Local, bool>,
    commit: Signal<Local, bool>,
    new_front: Signal<Local, Bits<420>>,
    ctx: Signal<Local, Bits<CTX>>,
    c: [Signal<Local, Bits<49>>; MAX_HOPS],
    b01: Signal<Local, Bits<49>>,
    b23: Signal<Local, Bits<49>>,
    b03: Signal<Local, Bits<49>>,
    best: Signal<Local, Bits<49>>,
    tau_c: Signal<Local, Bits<24>>,
    wt: Signal<Local, Bits<32>>,
    u_old: Signal<Local, Bits<24>>,
    upd_u: Signal<Local, bool>,
    mag: Signal<Local, Bits<24>>,
    neg: Signal<Local, bool>,
    u_up: Signal<Local, Bits<25>>,
    u_dn: Signal<Local, Bits<25>>,
    u_new: Signal<Local, Bits<24>>,
    w_old: Signal<Local, Bits<W_WORD>>,
    branch: Signal<Local, bool>,
    wctx: Signal<Local, Bits<CTX>>,
    u_ctx: Signal<Local, Bits<CTX>>,
    rt_ctx: Signal<Local, Bits<CTX>>,
    wb_w: Signal<Local, Bits<W_WORD>>,
    w_word: Signal<Local, Bits<W_WORD>>,
    w_init: Signal<Local, Bits<W_WORD>>,
    rt_w: Signal<Local, Bits<W_WORD>>,
    wsum: Signal<Local, Bits<49>>,
    w_new: Signal<Local, Bits<32>>,
    wc_new: Signal<Local, Bits<32>>,
    inc_new: Signal<Local, Bits<8>>,
    rate: Signal<Local, Bits<33>>,
    act: Signal<Local, Bits<2>>,
    fbit: Signal<Local, Bit>,
    init: Signal<Local, bool>,
}

impl<const F: usize> Logic for CcHpcc<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, init_busy, init_addr, hist1, hist2, hist3, bad_flow, f0_valid, f0_data,
            s1_best01, s1_best23, s1_h4, s1_ctx, s1_valid, ua_valid, ua_ctx, ua_any, ua_u,
            ua_weight, uc_valid, uc_ctx, uc_u, wa_valid, wa_ctx, wa_u, wa_r, wb1, wb2, wb1_valid,
            wb2_valid, out_valid, out_data
        );
        clock!(self, clock, results, wt_mul, u_mul, r_div, w_mul, rt_mul);
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
        self.wt_mul.reset.next = self.reset.val();
        self.u_mul.reset.next = self.reset.val();
        self.r_div.reset.next = self.reset.val();
        self.w_mul.reset.next = self.reset.val();
        self.rt_mul.reset.next = self.reset.val();

        // ---- Reset: every flow to its initial state, one per cycle.
        if self.init_busy.q.val() {
            self.init_addr.d.next = self.init_addr.q.val() + 1;
            if self.init_addr.q.val().all() {
                self.init_busy.d.next = false;
            }
        }
        if self.reset.val() {
            self.init_busy.d.next = true;
            self.init_addr.d.next = 0.into();
        }

        // ---- IN: accept unless the flow had an event in the last HAZARD - 1 cycles.
        self.in_flow.next = self.s_axis_event_tdata.val().get_value_flow();
        self.in_flow_ok.next =
            bit_cast::<16, F>(self.in_flow.val().get_bits::<F>(0)) == self.in_flow.val();
        self.hazard.next = (self.hist1.q.val().get_bit(16)
            & (self.hist1.q.val().get_bits::<16>(0) == self.in_flow.val()))
            | (self.hist2.q.val().get_bit(16)
                & (self.hist2.q.val().get_bits::<16>(0) == self.in_flow.val()))
            | (self.hist3.q.val().get_bit(16)
                & (self.hist3.q.val().get_bits::<16>(0) == self.in_flow.val()));
        // owed = events accepted whose results have not been read: at most 2^FIFO_BITS.
        self.s_axis_event_tready.next = !self.reset.val()
            & !self.init_busy.q.val()
            & !self.hazard.val()
            & self.results.credit.val();
        self.fire.next = self.s_axis_event_tvalid.val() & self.s_axis_event_tready.val();
        self.hist1.d.next = bit_cast::<17, 16>(self.in_flow.val());
        if self.fire.val() & self.in_flow_ok.val() {
            self.hist1.d.next = bit_cast::<17, 16>(self.in_flow.val()) | 65536;
        }
        if self.reset.val() {
            self.hist1.d.next = 0.into();
        }
        self.hist2.d.next = self.hist1.q.val();
        self.hist3.d.next = self.hist2.q.val();
        if self.fire.val() & !self.in_flow_ok.val() {
            self.bad_flow.d.next = self.bad_flow.q.val() + 1;
        }
        if self.reset.val() {
            self.bad_flow.d.next = 0.into();
        }
        self.stat_bad_flow.next = self.bad_flow.q.val();
        self.front_ram.read_address.next = self.in_flow.val().get_bits::<F>(0);
        self.f0_valid.d.next = self.fire.val() & self.in_flow_ok.val() & !self.reset.val();
        self.f0_data.d.next = self.s_axis_event_tdata.val();

        // ---- F1: admission, commit decision (lines 22 and 29), L := hops.
        self.front.next = self.front_ram.read_data.val();
        self.count.next = self.f0_data.q.val().get_value_count();
        // (Re)initialize the flow (on flow creation): nothing else happens.
        self.init.next = self.f0_data.q.val().get_value_init();
        self.ignore.next =
            (self.count.val() == 0) | (self.count.val() > 5) | self.init.val();
        self.record.next =
            !self.ignore.val() & (self.count.val() != self.front.val().get_value_count());
        self.measure.next = !self.ignore.val() & !self.record.val();
        self.lus.next = self.front.val().get_value_lus();
        self.lut.next = self.front.val().get_value_lut();
        self.seq_d.next = self.f0_data.q.val().get_value_seq() - self.lus.val();
        self.now_d.next = self.f0_data.q.val().get_value_now() - self.lut.val();
        if self.f0_data.q.val().get_value_rx() {
            // 29: now > lastUpdateTime + T, or never updated.
            self.commit.next = self.measure.val()
                & (!self.front.val().get_value_updated()
                    | ((self.f0_data.q.val().get_value_now() > self.lut.val())
                        & (self.now_d.val() > bit_cast::<64, 32>(self.cfg.t_ns.val()))));
        } else {
            // 22: seq after lastUpdateSeq (serial numbers).
            self.commit.next = self.measure.val()
                & (self.seq_d.val() != 0)
                & !self.seq_d.val().get_bit(31);
        }
        // L := hops (lines 26 and 34); a committed update moves lastUpdateSeq (23, sender) or
        // lastUpdateTime (33, receiver).
        self.new_front.next = 0.into();
        self.new_front.next.set_value_last(self.f0_data.q.val().get_value_hops());
        self.new_front.next.set_value_count(self.count.val());
        self.new_front.next.set_value_lus(self.lus.val());
        self.new_front.next.set_value_lut(self.lut.val());
        self.new_front.next.set_value_updated(self.front.val().get_value_updated());
        if self.commit.val() & !self.f0_data.q.val().get_value_rx() {
            self.new_front.next.set_value_lus(self.f0_data.q.val().get_value_snd_nxt());
        }
        if self.commit.val() & self.f0_data.q.val().get_value_rx() {
            self.new_front.next.set_value_lut(self.f0_data.q.val().get_value_now());
            self.new_front.next.set_value_updated(true);
        }
        self.front_ram.write_address.next = self.f0_data.q.val().get_bits::<F>(0);
        self.front_ram.write_data.next = self.new_front.val();
        if self.init.val() {
            self.front_ram.write_data.next = 0.into();
        }
        self.front_ram.write_enable.next =
            self.f0_valid.q.val() & (!self.ignore.val() | self.init.val());
        // Context (sim::layout::HPCC_CTX): the flow, the result's action, init, kind.
        // (rust-hdl's simulator cannot settle `x.next = x.val() | ...`: every value below is
        // assigned whole, never built from its own previous value.)
        self.act.next = ACT_IGNORED.into();
        if self.record.val() {
            self.act.next = ACT_RECORDED.into();
        }
        if self.measure.val() {
            self.act.next = ACT_W.into();
        }
        if self.commit.val() {
            self.act.next = ACT_WC.into();
        }
        self.ctx.next = 0.into();
        self.ctx.next.set_value_flow(bit_cast::<12, F>(self.f0_data.q.val().get_bits::<F>(0)));
        self.ctx.next.set_value_action(self.act.val());
        self.ctx.next.set_value_init(self.f0_data.q.val().get_value_init());
        self.ctx.next.set_value_rx(self.f0_data.q.val().get_value_rx());

        // ---- HOP: lines 4-5 for every hop slot; slot 0 also carries every event's context.
        // Hop record k is bits 64k of the event's `hops` and of the front's `last` (offsets
        // tied to sim::layout below: hdl_gen takes only literal offsets).
        for k in 0..MAX_HOPS {
            self.hop[k].in_valid.next = self.f0_valid.q.val() & self.measure.val() & (self.count.val() > k.to_bits());
            self.hop[k].in_now.next = self.f0_data.q.val().get_bits::<64>(160 + 64 * k);
            self.hop[k].in_last.next = self.front.val().get_bits::<64>(64 * k);
            self.hop[k].in_tag.next = 0.into();
        }
        // Slot 0 runs for every event, to carry its context to SEL.
        self.hop[0].in_valid.next = self.f0_valid.q.val();
        self.hop[0].in_tag.next = self.ctx.val();

        // ---- SEL: candidates valid[0] u[24:1] tau[48:25]; the first largest u' wins (6-7).
        for k in 0..MAX_HOPS {
            self.c[k].next = self.hop[k].out_cand.val();
        }
        // Slot 0 is valid for every event but a candidate only if the event measures (its
        // context's action is ACT_W or ACT_WC); the other slots are valid only then. Bit 0 cleared.
        if self.hop[0].out_tag.val().get_value_action() < ACT_W {
            self.c[0].next = (self.hop[0].out_cand.val() >> 1) << 1;
        }
        self.b01.next = self.c[0].val();
        if self.c[1].val().get_bit(0)
            & (!self.c[0].val().get_bit(0)
                | (self.c[1].val().get_bits::<24>(1) > self.c[0].val().get_bits::<24>(1)))
        {
            self.b01.next = self.c[1].val();
        }
        self.b23.next = self.c[2].val();
        if self.c[3].val().get_bit(0)
            & (!self.c[2].val().get_bit(0)
                | (self.c[3].val().get_bits::<24>(1) > self.c[2].val().get_bits::<24>(1)))
        {
            self.b23.next = self.c[3].val();
        }
        self.s1_best01.d.next = self.b01.val();
        self.s1_best23.d.next = self.b23.val();
        self.s1_h4.d.next = self.c[4].val();
        self.s1_ctx.d.next = self.hop[0].out_tag.val();
        self.s1_valid.d.next = self.hop[0].out_valid.val() & !self.reset.val();
        self.b03.next = self.s1_best01.q.val();
        if self.s1_best23.q.val().get_bit(0)
            & (!self.s1_best01.q.val().get_bit(0)
                | (self.s1_best23.q.val().get_bits::<24>(1) > self.s1_best01.q.val().get_bits::<24>(1)))
        {
            self.b03.next = self.s1_best23.q.val();
        }
        self.best.next = self.b03.val();
        if self.s1_h4.q.val().get_bit(0)
            & (!self.b03.val().get_bit(0)
                | (self.s1_h4.q.val().get_bits::<24>(1) > self.b03.val().get_bits::<24>(1)))
        {
            self.best.next = self.s1_h4.q.val();
        }

        // ---- WT: weight = min(tau, T) x inv_t >> 24, at most 1.0 (line 8-9).
        self.tau_c.next = self.best.val().get_bits::<24>(25);
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
        self.wt_mul.in_tag.next.set_value_any(self.best.val().get_bit(0));
        self.wt_mul.in_tag.next.set_value_u(self.best.val().get_bits::<24>(1));
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

        // ---- U: U += (u - U) x weight >> 16 with a floor, as a magnitude and a sign (line 9).
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
        self.u_ctx.next = self.u_mul.out_tag.val().get_value_ctx();
        self.u_up.next = bit_cast::<25, 24>(self.u_mul.out_tag.val().get_value_u_old())
            + bit_cast::<25, 25>(self.u_mul.out_prod.val().get_bits::<25>(16));
        self.u_dn.next = bit_cast::<25, 24>(self.u_mul.out_tag.val().get_value_u_old())
            - bit_cast::<25, 25>(self.u_mul.out_prod.val().get_bits::<25>(16));
        if self.u_mul.out_prod.val().get_bits::<16>(0) != 0 {
            self.u_dn.next = bit_cast::<25, 24>(self.u_mul.out_tag.val().get_value_u_old())
                - bit_cast::<25, 25>(self.u_mul.out_prod.val().get_bits::<25>(16))
                - 1;
        }
        self.u_new.next = self.u_mul.out_tag.val().get_value_u_old();
        if self.u_mul.out_tag.val().get_value_update() {
            self.u_new.next = self.u_up.val().get_bits::<24>(0);
            if self.u_mul.out_tag.val().get_value_neg() {
                self.u_new.next = self.u_dn.val().get_bits::<24>(0);
            }
        }
        if self.u_ctx.val().get_value_init() {
            self.u_new.next = self.cfg.u_init_q16.val();
        }
        self.u_ram.write_address.next = self.u_mul.out_tag.val().get_bits::<F>(0);
        self.u_ram.write_data.next = self.u_new.val();
        self.u_ram.write_enable.next = self.u_mul.out_valid.val()
            & (self.u_mul.out_tag.val().get_value_update() | self.u_ctx.val().get_value_init());
        self.uc_valid.d.next = self.u_mul.out_valid.val() & !self.reset.val();
        self.uc_ctx.d.next = self.u_ctx.val();
        self.uc_u.d.next = self.u_new.val();

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

        // ---- W: lines 12-19. The W RAM word is sim::layout::HPCC_W, wb1/wb2 HPCC_WB.
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
        self.wctx.next = self.wb2.q.val().get_value_ctx();
        self.wb_w.next = self.wb2.q.val().get_value_w_old();
        self.wsum.next = bit_cast::<49, 32>(self.wb_w.val().get_value_wc())
            + bit_cast::<49, 32>(self.cfg.w_ai_q8.val());
        if self.wb2.q.val().get_value_branch() {
            self.wsum.next = bit_cast::<49, 48>(self.w_mul.out_prod.val().get_bits::<48>(24))
                + bit_cast::<49, 32>(self.cfg.w_ai_q8.val());
        }
        self.w_new.next = self.wsum.val().get_bits::<32>(0);
        if self.wsum.val() < bit_cast::<49, 32>(self.cfg.w_min_q8.val()) {
            self.w_new.next = self.cfg.w_min_q8.val();
        }
        if self.wsum.val() > bit_cast::<49, 32>(self.cfg.w_max_q8.val()) {
            self.w_new.next = self.cfg.w_max_q8.val();
        }
        self.wc_new.next = self.wb_w.val().get_value_wc();
        self.inc_new.next = self.wb_w.val().get_value_inc_stage();
        if self.wctx.val().get_value_action() == ACT_WC {
            self.wc_new.next = self.w_new.val();
            self.inc_new.next = self.wb_w.val().get_value_inc_stage() + 1;
            if self.wb2.q.val().get_value_branch() {
                self.inc_new.next = 0.into();
            }
        }
        if self.wctx.val().get_value_action() < ACT_W {
            self.w_new.next = self.wb_w.val().get_value_w();
        }
        if self.wctx.val().get_value_init() {
            self.w_new.next = self.cfg.w_max_q8.val();
            self.wc_new.next = self.cfg.w_max_q8.val();
            self.inc_new.next = 0.into();
        }
        self.w_ram.write_address.next = self.wctx.val().get_bits::<F>(0);
        self.w_word.next = 0.into();
        self.w_word.next.set_value_w(self.w_new.val());
        self.w_word.next.set_value_wc(self.wc_new.val());
        self.w_word.next.set_value_inc_stage(self.inc_new.val());
        self.w_ram.write_data.next = self.w_word.val();
        self.w_ram.write_enable.next = self.wb2_valid.q.val()
            & ((self.wctx.val().get_value_action() >= ACT_W) | self.wctx.val().get_value_init());

        // ---- RT: R = (W x rate_mul + 2^31) >> 32, at most the line rate (line 27).
        // Its tag is sim::layout::HPCC_RT_TAG.
        self.rt_mul.in_valid.next = self.wb2_valid.q.val();
        self.rt_mul.in_a.next = self.w_new.val();
        self.rt_mul.in_b.next = self.cfg.rate_mul.val();
        self.rt_mul.in_tag.next = 0.into();
        self.rt_mul.in_tag.next.set_value_ctx(self.wctx.val());
        self.rt_mul.in_tag.next.set_value_u(self.wb2.q.val().get_value_u());
        self.rt_mul.in_tag.next.set_value_w_new(self.w_word.val());
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
        self.results.issue.next = self.fire.val() & self.in_flow_ok.val();
        self.results.in_valid.next = self.out_valid.q.val();
        self.results.in_data.next = self.out_data.q.val();
        self.m_axis_result_tdata.next = self.results.m_axis_tdata.val();
        self.m_axis_result_tvalid.next = self.results.m_axis_tvalid.val();
        self.results.m_axis_tready.next = self.m_axis_result_tready.val();

        // ---- Initialization writes: W = Wc = W_max, incStage 0 (HpccState::new).
        self.w_init.next = 0.into();
        self.w_init.next.set_value_w(self.cfg.w_max_q8.val());
        self.w_init.next.set_value_wc(self.cfg.w_max_q8.val());
        if self.init_busy.q.val() {
            self.front_ram.write_address.next = self.init_addr.q.val();
            self.front_ram.write_data.next = 0.into();
            self.front_ram.write_enable.next = true;
            self.u_ram.write_address.next = self.init_addr.q.val();
            self.u_ram.write_data.next = self.cfg.u_init_q16.val();
            self.u_ram.write_enable.next = true;
            self.w_ram.write_address.next = self.init_addr.q.val();
            self.w_ram.write_data.next = self.w_init.val();
            self.w_ram.write_enable.next = true;
        }
    }
}
