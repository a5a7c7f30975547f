//! LDCP (seed 002: per-ACK ECN AIMD, sub-packet windows, zero-RTT fast start) for `2^F`
//! flows, bit-exact with `sim::cc_ldcp` (docs/fixed-point.md). A datapath of the CC
//! module (docs/modules/cc_module.md).
//!
//! ```text
//! A    accept an event, read the flow's state (one RAM, 178 bits)
//! B    now := max(now, event time); fast start (IW counting, transition 2, loss); timer due
//!      (the block cc_ldcp_fast)
//! C1   sub-packet: k = ceil((1 - cw) / gamma), cw >> n floored at gamma
//! C2   steps = min(n, k), n -= steps
//! C3   cw += steps x gamma; eq. 2 applies?  n x (ECE ? beta : alpha) (mul_pipe, 2)
//! E1   eq. 2 decrease cw - n beta (saturating)
//! E2   clamp; one divider, shared: eq. 2 increase n alpha 2^16 / cw, or the sub-packet timer
//!      period ceil(RTT 2^16 / cw) (div_pipe 49/32 -> 43 bits, 44 cycles)
//! F1   cw + increase; now + period
//! F2   clamp; timer arm / grant; state RAM write (the block cc_ldcp_write)
//! O    window = cw x MSS >> 16, rate = cw x rate_mul >> 32 (two mul_pipes, 3); result
//! ```
//!
//! The divider is shared because the two quotients are never both needed: an eq. 2 increase
//! leaves cw >= 1 packet, where the sub-packet timer is off. The state is read at A and written
//! at F2, so an event must not enter while its flow is in that window: `flow_park` (8 slots)
//! issues a flow's events at least `HAZARD` cycles apart and lets other flows' events pass one
//! that waits. One event per clock across flows; one per `HAZARD` cycles for a single flow.
//! Results of different flows may therefore come out in another order than their events; a
//! flow's results keep its events' order.

use crate::delay_line::DelayLine;
use crate::div_pipe::DivPipe;
use crate::cc_intake::CcIntake;
use crate::cc_ldcp_fast::CcLdcpFast;
use crate::cc_ldcp_write::CcLdcpWrite;
use crate::mul_pipe::MulPipe;
use crate::result_fifo::ResultFifo;
use crate::layout::{LdcpCtxFields, LdcpCtxFields218, LdcpCtxFields251, LdcpOFields, LdcpResultFields};
use rust_hdl::prelude::*;
use sim::layout::{LdcpCtxLayout, LdcpOLayout, LdcpResultLayout, LdcpStateLayout, LDCP_CTX};

/// Cycles from issuing an event (A) to its state write (F2); the next event of the same flow
/// is issued at least this many cycles later.
pub const HAZARD: usize = 1 + 1 + 1 + 1 + 2 + 1 + 44 + 1 + 1;
/// Result FIFO depth (log2), as in cc_hpcc: the input takes an event only while a slot is free.
pub const FIFO_BITS: usize = crate::result_fifo::DEPTH_BITS;
/// Cycles from the accepting clock edge to the result on `m_axis_result_*` (FIFO empty,
/// `tready` high, no wait in flow_park): the park's slot, A..F2, the output products (3), the
/// result register.
pub const LATENCY: usize = 1 + HAZARD + 3 + 1;
/// flow_park slots: events waiting for their flow's window while others pass.
pub const PARK_SLOTS: usize = crate::cc_intake::PARK_SLOTS;

/// The per-flow state word (`sim::layout::LDCP_STATE`) and the result word (`LDCP_RESULT`).
pub const STATE: usize = LdcpStateLayout::WIDTH;
const RESULT: usize = LdcpResultLayout::WIDTH;
/// The O stage's word (`LDCP_O`), carried in `d3` beside the output products.
pub const O_WORD: usize = LdcpOLayout::WIDTH;
/// The context word carried from B on (`sim::layout::LDCP_CTX`), as wide as B builds it; C3
/// widens it to `CTX_C3` bits and E2 to `CTX_E2`, the layout's full width.
pub const CTX: usize = LDCP_CTX.cw_mid.lo;
const CTX_C3: usize = LDCP_CTX.cw_s.lo;
pub const CTX_E2: usize = LdcpCtxLayout::WIDTH;
const _: () = assert!(CTX == 218 && CTX_C3 == 251 && CTX_E2 == 283);
// The state write's address is the context's flow field read as F bits from bit 0.
const _: () = assert!(LDCP_CTX.flow.lo == 0);

/// cc_ldcp's configuration: its ports `cfg_*`, cc_module's `cfg_ldcp_*`, set from the
/// register block's CC words (hpcc_nic_core's `CC_CFG`, csr::CC_FIELDS). One definition for
/// the three: cc_module links its port group to cc_ldcp's, hpcc_nic_core joins the register
/// block's `LdcpCfgOut` to cc_module's.
#[derive(LogicInterface, Default)]
#[join = "LdcpCfgOut"]
pub struct LdcpCfg {
    /// Base RTT, ns (> 0).
    pub rtt_ns: Signal<In, Bits<32>>,
    /// MSS, bytes: the unit of cw.
    pub mss: Signal<In, Bits<32>>,
    /// alpha, UQ0.16 (1 ..= 65536).
    pub alpha_q16: Signal<In, Bits<17>>,
    /// beta, UQ0.16 (1 ..= 65536).
    pub beta_q16: Signal<In, Bits<17>>,
    /// gamma = 2^-gamma_shift (0 ..= 10).
    pub gamma_shift: Signal<In, Bits<4>>,
    /// Initial window, packets (1 ..= 65535).
    pub iw: Signal<In, Bits<16>>,
    /// Window clamp, UQ16.16 packets (>= 1 packet).
    pub max_cw_q16: Signal<In, Bits<32>>,
    /// Flows start in the zero-RTT fast start.
    pub fast_start: Signal<In, bool>,
    /// round(2^32 x MSS x cycle / RTT) (< 2^48): R = (cw x rate_mul + 2^31) >> 32.
    pub rate_mul: Signal<In, Bits<48>>,
    /// Line rate, UQ16.16 bytes/cycle: the rate clamp.
    pub line_q16: Signal<In, Bits<32>>,
}

/// `LdcpCfg` as its source drives it (the register block); the fields are documented there.
#[derive(LogicInterface, Default)]
#[join = "LdcpCfg"]
pub struct LdcpCfgOut {
    pub rtt_ns: Signal<Out, Bits<32>>,
    pub mss: Signal<Out, Bits<32>>,
    pub alpha_q16: Signal<Out, Bits<17>>,
    pub beta_q16: Signal<Out, Bits<17>>,
    pub gamma_shift: Signal<Out, Bits<4>>,
    pub iw: Signal<Out, Bits<16>>,
    pub max_cw_q16: Signal<Out, Bits<32>>,
    pub fast_start: Signal<Out, bool>,
    pub rate_mul: Signal<Out, Bits<48>>,
    pub line_q16: Signal<Out, Bits<32>>,
}

/// LDCP for `2^F` flows (F <= 12).
#[derive(LogicBlock, Default)]
pub struct CcLdcp<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset. Afterwards every flow is set to its initial state in `2^F` cycles
    /// (from the `cfg_*` values then), during which `s_axis_event_tready` is low.
    pub reset: Signal<In, bool>,
    /// The configuration: ports `cfg_*` (`LdcpCfg`).
    pub cfg: LdcpCfg,
    /// Event: `[15:0]` flow, `[17:16]` kind (0 ACK, 1 loss, 2 sub-packet timer, 3
    /// (re)initialize the flow), `[18]` ECN-Echo, `[63:32]` packets acknowledged (saturated to
    /// 65535), `[127:64]` time, ns. Other bits are reserved. A flow >= 2^F is dropped and
    /// counted in `stat_bad_flow`.
    pub s_axis_event_tdata: Signal<In, Bits<128>>,
    /// Event valid.
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// Event ready: low during reset and initialization, while the offered event's flow
    /// already has two events in the park (one waiting, one chained behind it), and while all
    /// `PARK_SLOTS` slots are taken (they drain one per clock unless all `2^FIFO_BITS` result
    /// slots are owed). Events with a bad flow id are always taken (and dropped).
    pub s_axis_event_tready: Signal<Out, bool>,
    /// Result, one per accepted in-range event, in event order per flow: `[15:0]` flow, `[17:16]` kind,
    /// `[18]` the timer grants one packet, `[19]` fast start, `[20]` timer armed, `[47:32]`
    /// packets acknowledged in the fast start, `[95:64]` cw (UQ16.16 packets), `[127:96]`
    /// window (bytes), `[159:128]` rate (UQ16.16 bytes/cycle), `[223:160]` next timer expiry
    /// (ns; 0 when not armed).
    pub m_axis_result_tdata: Signal<Out, Bits<RESULT>>,
    /// Result valid.
    pub m_axis_result_tvalid: Signal<Out, bool>,
    /// Result ready (results wait in a 2^FIFO_BITS-entry FIFO).
    pub m_axis_result_tready: Signal<In, bool>,
    /// Events dropped for a flow id >= 2^F (since reset).
    pub stat_bad_flow: Signal<Out, Bits<32>>,
    ram: RAM<Bits<STATE>, F>,
    intake: CcIntake<F, { HAZARD - 1 }>,
    fast: CcLdcpFast,
    write: CcLdcpWrite,
    ab_mul: MulPipe<16, 17, 33, 2, 1>,
    d1: DelayLine<CTX_C3, 2>,
    div: DivPipe<49, 32, 43, 1>,
    d2: DelayLine<CTX_E2, 44>,
    win_mul: MulPipe<32, 32, 64, 3, 1>,
    rate_mul: MulPipe<32, 48, 80, 3, 1>,
    d3: DelayLine<O_WORD, 3>,
    e0_valid: DFF<bool>,
    e0: DFF<Bits<128>>,
    b_valid: DFF<bool>,
    bs: DFF<Bits<CTX>>,
    c1_valid: DFF<bool>,
    c1: DFF<Bits<CTX>>,
    c1_sub: DFF<bool>,
    c1_k: DFF<Bits<17>>,
    c1_cwa: DFF<Bits<32>>,
    c2_valid: DFF<bool>,
    c2: DFF<Bits<CTX>>,
    c2_sub: DFF<bool>,
    c2_steps: DFF<Bits<16>>,
    c2_n2: DFF<Bits<16>>,
    c2_cwa: DFF<Bits<32>>,
    e1_valid: DFF<bool>,
    e1: DFF<Bits<CTX_C3>>,
    e1_prod: DFF<Bits<33>>,
    e1_cwpre: DFF<Bits<32>>,
    f1_valid: DFF<bool>,
    f1: DFF<Bits<CTX_E2>>,
    f1_sum: DFF<Bits<33>>,
    f1_tsum: DFF<Bits<64>>,
    f1_per: DFF<bool>,
    out_valid: DFF<bool>,
    out_data: DFF<Bits<RESULT>>,
    results: ResultFifo<RESULT>,
    n1: Signal<Local, Bits<16>>,
    cw1: Signal<Local, Bits<32>>,
    sh: Signal<Local, Bits<5>>,
    cw_shift: Signal<Local, Bits<32>>,
    kt: Signal<Local, Bits<17>>,
    steps: Signal<Local, Bits<16>>,
    cw_mid: Signal<Local, Bits<32>>,
    eq2: Signal<Local, Bits<1>>,
    ece3: Signal<Local, bool>,
    dec: Signal<Local, Bits<34>>,
    cw_s: Signal<Local, Bits<32>>,
    eq2inc: Signal<Local, bool>,
    q_sat: Signal<Local, Bits<32>>,
    p: Signal<Local, Bits<64>>,
    tsum: Signal<Local, Bits<65>>,
    gbits: Signal<Local, Bits<5>>,
    c16: Signal<Local, Bits<5>>,
    ones17: Signal<Local, Bits<17>>,
    cw_m1: Signal<Local, Bits<16>>,
    win: Signal<Local, Bits<32>>,
    rate: Signal<Local, Bits<49>>,
}

impl<const F: usize> Logic for CcLdcp<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, e0_valid, e0, b_valid, bs, c1_valid, c1,
            c1_sub, c1_k, c1_cwa, c2_valid, c2, c2_sub, c2_steps, c2_n2, c2_cwa, e1_valid, e1,
            e1_prod, e1_cwpre, f1_valid, f1, f1_sum, f1_tsum, f1_per, out_valid,
            out_data
        );
        clock!(self, clock, results, intake, ab_mul, d1, div, d2, win_mul, rate_mul, d3);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.intake.reset.next = self.reset.val();
        self.ab_mul.reset.next = self.reset.val();
        self.div.reset.next = self.reset.val();
        self.win_mul.reset.next = self.reset.val();
        self.rate_mul.reset.next = self.reset.val();

        // gamma = 2^gbits in UQ16.16 (cc_ldcp_fast makes gamma; the stages read it there).
        self.ones17.next = 65535.into();
        self.c16.next = 16.into();
        self.gbits.next = self.c16.val() - bit_cast::<5, 4>(self.cfg.gamma_shift.val());

        // ---- Input, reset sweep and issue: cc_intake (flow_park inside).
        self.intake.s_axis_event_tdata.next = self.s_axis_event_tdata.val();
        self.intake.s_axis_event_tvalid.next = self.s_axis_event_tvalid.val();
        self.s_axis_event_tready.next = self.intake.s_axis_event_tready.val();
        self.stat_bad_flow.next = self.intake.stat_bad_flow.val();
        self.intake.credit.next = self.results.credit.val();
        self.ram.read_address.next = self.intake.issue_data.val().get_bits::<F>(0);
        self.e0_valid.d.next = self.intake.issue.val() & !self.reset.val();
        self.e0.d.next = self.intake.issue_data.val();

        // ---- B: the event against the flow's state word: cc_ldcp_fast.
        self.fast.cfg_gamma_shift.next = self.cfg.gamma_shift.val();
        self.fast.cfg_iw.next = self.cfg.iw.val();
        self.fast.cfg_max_cw_q16.next = self.cfg.max_cw_q16.val();
        self.fast.cfg_fast_start.next = self.cfg.fast_start.val();
        self.fast.evt.next = self.e0.q.val();
        self.fast.state.next = self.ram.read_data.val();
        self.bs.d.next = self.fast.ctx.val();
        self.b_valid.d.next = self.e0_valid.q.val() & !self.reset.val();

        // ---- C1: sub-packet window (cw < 1 packet): k = ceil((1 - cw) / gamma), cw >> n.
        self.n1.next = self.bs.q.val().get_value_n();
        self.cw1.next = self.bs.q.val().get_value_cw();
        self.c1_sub.d.next = self.bs.q.val().get_value_stable() & (self.cw1.val() < 65536);
        self.kt.next = (self.ones17.val() + self.fast.gamma.val().get_bits::<17>(0))
            - self.cw1.val().get_bits::<17>(0);
        self.c1_k.d.next = self.kt.val() >> self.gbits.val();
        self.sh.next = self.n1.val().get_bits::<5>(0);
        if self.n1.val() > 31 {
            self.sh.next = 31.into();
        }
        self.cw_shift.next = self.cw1.val() >> self.sh.val();
        self.c1_cwa.d.next = self.cw_shift.val();
        if self.cw_shift.val() < self.fast.gamma.val() {
            self.c1_cwa.d.next = self.fast.gamma.val();
        }
        self.c1.d.next = self.bs.q.val();
        self.c1_valid.d.next = self.b_valid.q.val() & !self.reset.val();

        // ---- C2: unmarked: steps = min(n, k) packets of gamma; marked: all n used.
        self.steps.next = self.c1.q.val().get_value_n();
        if bit_cast::<17, 16>(self.c1.q.val().get_value_n()) > self.c1_k.q.val() {
            self.steps.next = self.c1_k.q.val().get_bits::<16>(0);
        }
        self.c2_steps.d.next = self.steps.val();
        self.c2_n2.d.next = self.c1.q.val().get_value_n();
        if self.c1_sub.q.val() {
            self.c2_n2.d.next = self.c1.q.val().get_value_n() - self.steps.val();
            if self.c1.q.val().get_value_ece() {
                self.c2_n2.d.next = 0.into();
            }
        }
        self.c2_sub.d.next = self.c1_sub.q.val();
        self.c2_cwa.d.next = self.c1_cwa.q.val();
        self.c2.d.next = self.c1.q.val();
        self.c2_valid.d.next = self.c1_valid.q.val() & !self.reset.val();

        // ---- C3: cw after the sub-packet steps; eq. 2's n x (alpha or beta).
        self.ece3.next = self.c2.q.val().get_value_ece();
        self.cw_mid.next = self.c2.q.val().get_value_cw();
        if self.c2_sub.q.val() {
            self.cw_mid.next = self.c2.q.val().get_value_cw()
                + ((bit_cast::<32, 16>(self.c2_steps.q.val()) << 16) >> self.cfg.gamma_shift.val());
            if self.ece3.val() {
                self.cw_mid.next = self.c2_cwa.q.val();
            }
        }
        self.eq2.next = 0.into();
        if self.c2.q.val().get_value_stable() & (self.c2_n2.q.val() != 0) & (self.cw_mid.val() >= 65536) {
            self.eq2.next = 1.into();
        }
        self.ab_mul.in_valid.next = self.c2_valid.q.val();
        self.ab_mul.in_a.next = self.c2_n2.q.val();
        self.ab_mul.in_b.next = self.cfg.alpha_q16.val();
        if self.ece3.val() {
            self.ab_mul.in_b.next = self.cfg.beta_q16.val();
        }
        self.ab_mul.in_tag.next = 0.into();
        self.d1.in_data.next = bit_cast::<CTX_C3, CTX>(self.c2.q.val());
        self.d1.in_data.next.set_value_cw_mid(self.cw_mid.val());
        self.d1.in_data.next.set_value_eq2_bits(self.eq2.val());

        // ---- E1: eq. 2 decrease, saturating at 0.
        self.dec.next = bit_cast::<34, 32>(self.d1.out_data.val().get_value_cw_mid())
            - bit_cast::<34, 33>(self.ab_mul.out_prod.val());
        self.e1_cwpre.d.next = self.d1.out_data.val().get_value_cw_mid();
        if self.d1.out_data.val().get_value_eq2() & self.d1.out_data.val().get_value_ece() {
            self.e1_cwpre.d.next = self.dec.val().get_bits::<32>(0);
            if self.dec.val().get_bits::<2>(32) != 0 {
                self.e1_cwpre.d.next = 0.into();
            }
        }
        self.e1.d.next = self.d1.out_data.val();
        self.e1_prod.d.next = self.ab_mul.out_prod.val();
        self.e1_valid.d.next = self.ab_mul.out_valid.val() & !self.reset.val();

        // ---- E2: clamp after a stable update; the divider takes eq. 2's increase or the
        // sub-packet period's ceil(RTT 2^16 / cw) = floor((RTT 2^16 + cw - 1) / cw), whose
        // numerator needs no carry into RTT while cw <= 1 packet (the only case it is used).
        self.cw_s.next = self.e1_cwpre.q.val();
        if self.e1.q.val().get_value_stable() {
            if self.e1_cwpre.q.val() > self.cfg.max_cw_q16.val() {
                self.cw_s.next = self.cfg.max_cw_q16.val();
            }
            if self.e1_cwpre.q.val() < self.fast.gamma.val() {
                self.cw_s.next = self.fast.gamma.val();
            }
        }
        self.cw_m1.next = self.cw_s.val().get_bits::<16>(0) - 1;
        self.eq2inc.next = self.e1.q.val().get_value_eq2() & !self.e1.q.val().get_value_ece();
        self.div.in_valid.next = self.e1_valid.q.val();
        self.div.in_num.next = (bit_cast::<49, 32>(self.cfg.rtt_ns.val()) << 16)
            | bit_cast::<49, 16>(self.cw_m1.val());
        self.div.in_den.next = self.cw_s.val();
        if self.eq2inc.val() {
            self.div.in_num.next = bit_cast::<49, 33>(self.e1_prod.q.val()) << 16;
            self.div.in_den.next = self.e1.q.val().get_value_cw_mid();
        }
        self.div.in_tag.next = 0.into();
        self.d2.in_data.next = bit_cast::<CTX_E2, CTX_C3>(self.e1.q.val());
        self.d2.in_data.next.set_value_cw_s(self.cw_s.val());

        // ---- F1: cw + increase (saturating); now + period (saturating); the period runs.
        self.q_sat.next = self.div.out_quo.val().get_bits::<32>(0);
        if self.div.out_quo.val().get_bits::<11>(32) != 0 {
            self.q_sat.next = 0xFFFF_FFFF_u64.into();
        }
        self.f1_sum.d.next = bit_cast::<33, 32>(self.d2.out_data.val().get_value_cw_mid())
            + bit_cast::<33, 32>(self.q_sat.val());
        self.p.next = bit_cast::<64, 43>(self.div.out_quo.val());
        if !self.div.out_quo.val().any() {
            self.p.next = 1.into();
        }
        self.tsum.next = bit_cast::<65, 64>(self.d2.out_data.val().get_value_now())
            + bit_cast::<65, 64>(self.p.val());
        self.f1_tsum.d.next = self.tsum.val().get_bits::<64>(0);
        if self.tsum.val().get_bit(64) {
            self.f1_tsum.d.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();
        }
        self.f1_per.d.next = !(self.d2.out_data.val().get_value_eq2() & !self.d2.out_data.val().get_value_ece())
            & !self.d2.out_data.val().get_value_fast_start()
            & (self.d2.out_data.val().get_value_cw_s() < 65536);
        self.f1.d.next = self.d2.out_data.val();
        self.f1_valid.d.next = self.div.out_valid.val() & !self.reset.val();

        // ---- F2: final cw, timer arm or grant, state write: cc_ldcp_write.
        self.write.cfg_max_cw_q16.next = self.cfg.max_cw_q16.val();
        self.write.gamma.next = self.fast.gamma.val();
        self.write.ctx.next = self.f1.q.val();
        self.write.sum.next = self.f1_sum.q.val();
        self.write.tsum.next = self.f1_tsum.q.val();
        self.write.per.next = self.f1_per.q.val();
        self.ram.write_address.next = self.f1.q.val().get_bits::<F>(0);
        self.ram.write_data.next = self.write.state.val();
        self.ram.write_enable.next = self.f1_valid.q.val();

        // ---- O: window and rate of the new cw; d3 carries the rest of the result (LDCP_O).
        self.win_mul.in_valid.next = self.f1_valid.q.val();
        self.win_mul.in_a.next = self.write.o_word.val().get_value_cw();
        self.win_mul.in_b.next = self.cfg.mss.val();
        self.win_mul.in_tag.next = 0.into();
        self.rate_mul.in_valid.next = self.f1_valid.q.val();
        self.rate_mul.in_a.next = self.write.o_word.val().get_value_cw();
        self.rate_mul.in_b.next = self.cfg.rate_mul.val();
        self.rate_mul.in_tag.next = 0.into();
        self.d3.in_data.next = self.write.o_word.val();
        self.win.next = self.win_mul.out_prod.val().get_bits::<32>(16);
        if self.win_mul.out_prod.val().get_bits::<16>(48) != 0 {
            self.win.next = 0xFFFF_FFFF_u64.into();
        }
        self.rate.next = bit_cast::<49, 48>(self.rate_mul.out_prod.val().get_bits::<48>(32))
            + bit_cast::<49, 1>(self.rate_mul.out_prod.val().get_bits::<1>(31));
        if self.rate.val() > bit_cast::<49, 32>(self.cfg.line_q16.val()) {
            self.rate.next = bit_cast::<49, 32>(self.cfg.line_q16.val());
        }
        self.out_valid.d.next = self.win_mul.out_valid.val() & !self.reset.val();
        self.out_data.d.next = 0.into();
        self.out_data.d.next.set_value_flow(self.d3.out_data.val().get_value_flow());
        self.out_data.d.next.set_value_kind(self.d3.out_data.val().get_value_kind());
        self.out_data.d.next.set_value_grant(self.d3.out_data.val().get_value_grant());
        self.out_data.d.next.set_value_fast_start(self.d3.out_data.val().get_value_fast_start());
        self.out_data.d.next.set_value_armed(self.d3.out_data.val().get_value_armed());
        self.out_data.d.next.set_value_fs_acked(self.d3.out_data.val().get_value_fs_acked());
        self.out_data.d.next.set_value_cw(self.d3.out_data.val().get_value_cw());
        self.out_data.d.next.set_value_window(self.win.val());
        self.out_data.d.next.set_value_rate(self.rate.val().get_bits::<32>(0));
        self.out_data.d.next.set_value_tick(self.d3.out_data.val().get_value_tick());

        // ---- Result FIFO, credit counted from issue to read.
        self.results.reset.next = self.reset.val();
        self.results.issue.next = self.intake.issue.val();
        self.results.in_valid.next = self.out_valid.q.val();
        self.results.in_data.next = self.out_data.q.val();
        self.m_axis_result_tdata.next = self.results.m_axis_tdata.val();
        self.m_axis_result_tvalid.next = self.results.m_axis_tvalid.val();
        self.results.m_axis_tready.next = self.m_axis_result_tready.val();

        // ---- Initialization writes: LdcpState::new.
        if self.intake.init_busy.val() {
            self.ram.write_address.next = self.intake.init_addr.val();
            self.ram.write_data.next = self.fast.init_state.val();
            self.ram.write_enable.next = true;
        }
    }
}
