//! HPCC++ pseudo-code lines 4-5 for one hop, the feed-forward front of the CC module: from a
//! hop's new and previous telemetry records, its normalized inflight `u'` and its `tau`, in the
//! fixed point of docs/fixed-point.md (golden model `sim::cc_hpcc::hop_utilization`).
//!
//! Nothing here depends on per-flow state other than the previous record, so the unit is a
//! plain pipeline: one hop per clock, latency `LATENCY` cycles. The CC module runs five of them
//! side by side, one per hop slot.
//!
//! ```text
//! D   decode both records, dt, dtx, min(qlen) x 80, look up 1/(B T) and 1/B by rate code
//! M1  qlen x inv_bt            (mul_pipe 24 x 32, 4 cycles)
//! DIV txRate = dtx x 2^23 / dt  (div_pipe 42 / 23 -> 24 bits, 25 cycles)
//! M2  txRate x inv_b            (mul_pipe 24 x 32, 4 cycles)
//! O   u' = min(q_term + r_term, 2^24 - 1), tau
//! ```

use crate::div_pipe::DivPipe;
use crate::layout::{HopDivTagFields, HopDivTagFields67, HopM1TagFields, HpccCandFields, IntHopFields};
use crate::mul_pipe::MulPipe;
use rust_hdl::prelude::*;
use sim::layout::{HopDivTagLayout, HopM1TagLayout, HpccCandLayout, INT_HOP};

/// The pipeline's tags (sim::layout): M1's, the divider's, M2's (the divider's below `inv_b`).
const M1_TAG: usize = HopM1TagLayout::WIDTH;
const DIV_TAG: usize = HopDivTagLayout::WIDTH;
const M2_TAG: usize = 67;
const _: () = assert!(sim::layout::HOP_DIV_TAG.inv_b.lo == M2_TAG);
/// A candidate as cc_hpcc's SEL ranks it (`HPCC_CAND`).
const CAND: usize = HpccCandLayout::WIDTH;
/// Line-rate codes: `cfg_inv_bt` and `cfg_inv_b` hold one 32-bit word per code.
const RATE_CODES: usize = 1 << INT_HOP.rate.width;

/// Cycles from `in_valid` to `out_valid`.
pub const LATENCY: usize = 1 + 4 + 25 + 4 + 1;

/// One hop's u' and tau, one hop per clock.
#[derive(LogicBlock, Default)]
pub struct CcHopUtil {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bits.
    pub reset: Signal<In, bool>,
    /// Per rate code c, bits `[32c+31:32c]`: round(2^40 / (B T)), 0 for a code without a rate.
    pub cfg_inv_bt: Signal<In, Bits<256>>,
    /// Per rate code c, bits `[32c+31:32c]`: round(2^24 / B), B in bytes/ns.
    pub cfg_inv_b: Signal<In, Bits<256>>,
    /// A hop enters this cycle.
    pub in_valid: Signal<In, bool>,
    /// The hop's new record (`INT_HOP`): rate code, ts, txBytes, qlen.
    pub in_now: Signal<In, Bits<64>>,
    /// The same hop's previous record (L[i]).
    pub in_last: Signal<In, Bits<64>>,
    /// Caller's context, carried to `out_tag`.
    pub in_tag: Signal<In, Bits<16>>,
    /// The hop that entered `LATENCY` cycles ago is on the outputs.
    pub out_valid: Signal<Out, bool>,
    /// The hop's rate code has a rate (`inv_bt != 0`); if not, `out_u` and `out_tau` are
    /// meaningless and the hop is no candidate for the maximum.
    pub out_usable: Signal<Out, bool>,
    /// u', UQ8.16, saturated at 2^24 - 1.
    pub out_u: Signal<Out, Bits<24>>,
    /// ts difference in ns when it is a forward one (0 < dt < 2^23), else 0.
    pub out_tau: Signal<Out, Bits<24>>,
    /// `in_tag` of the same hop.
    pub out_tag: Signal<Out, Bits<16>>,
    /// The hop as cc_hpcc's SEL ranks it (`HPCC_CAND`): a candidate if `out_valid` and
    /// `out_usable`, `out_u`, `out_tau`.
    pub out_cand: Signal<Out, Bits<CAND>>,
    m1: MulPipe<24, 32, 56, 4, M1_TAG>,
    div: DivPipe<42, 23, 24, DIV_TAG>,
    m2: MulPipe<24, 32, 56, 4, M2_TAG>,
    d_valid: DFF<bool>,
    d_tag: DFF<Bits<16>>,
    d_qbytes: DFF<Bits<24>>,
    d_inv_bt: DFF<Bits<32>>,
    d_inv_b: DFF<Bits<32>>,
    d_dt: DFF<Bits<24>>,
    d_dtx: DFF<Bits<19>>,
    d_usable: DFF<Bits<1>>,
    d_fwd: DFF<Bits<1>>,
    d_rate_ok: DFF<Bits<1>>,
    o_valid: DFF<bool>,
    o_usable: DFF<bool>,
    o_u: DFF<Bits<24>>,
    o_tau: DFF<Bits<24>>,
    o_tag: DFF<Bits<16>>,
    code: Signal<Local, Bits<3>>,
    dt: Signal<Local, Bits<24>>,
    dtx: Signal<Local, Bits<20>>,
    qmin: Signal<Local, Bits<24>>,
    inv_bt: Signal<Local, Bits<32>>,
    inv_b: Signal<Local, Bits<32>>,
    dt_m1: Signal<Local, Bits<24>>,
    q_term: Signal<Local, Bits<32>>,
    q_sat: Signal<Local, Bits<25>>,
    sum: Signal<Local, Bits<33>>,
}

impl Logic for CcHopUtil {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, d_valid, d_tag, d_qbytes, d_inv_bt, d_inv_b, d_dt, d_dtx, d_usable, d_fwd,
            d_rate_ok, o_valid, o_usable, o_u, o_tau, o_tag
        );
        self.m1.clock.next = self.clock.val();
        self.div.clock.next = self.clock.val();
        self.m2.clock.next = self.clock.val();
        self.m1.reset.next = self.reset.val();
        self.div.reset.next = self.reset.val();
        self.m2.reset.next = self.reset.val();

        // ---- D: decode. Differences wrap at the field widths.
        self.code.next = self.in_now.val().get_value_rate();
        self.dt.next = self.in_now.val().get_value_ts() - self.in_last.val().get_value_ts();
        self.dtx.next = self.in_now.val().get_value_tx_bytes() - self.in_last.val().get_value_tx_bytes();
        self.qmin.next = bit_cast::<24, 17>(self.in_now.val().get_value_qlen());
        if self.in_last.val().get_value_qlen() < self.in_now.val().get_value_qlen() {
            self.qmin.next = bit_cast::<24, 17>(self.in_last.val().get_value_qlen());
        }
        // 1/(B T) and 1/B of the rate code: word c of each table.
        self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(0);
        self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(0);
        for c in 1..RATE_CODES {
            if self.code.val() == c.to_bits() {
                self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(32 * c);
                self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(32 * c);
            }
        }
        self.d_valid.d.next = self.in_valid.val() & !self.reset.val();
        self.d_tag.d.next = self.in_tag.val();
        // qlen x 80 = qlen x 64 + qlen x 16
        self.d_qbytes.d.next = (self.qmin.val() << 6) + (self.qmin.val() << 4);
        self.d_inv_bt.d.next = self.inv_bt.val();
        self.d_inv_b.d.next = self.inv_b.val();
        self.d_dt.d.next = self.dt.val();
        self.d_dtx.d.next = self.dtx.val().get_bits::<19>(0);
        self.d_usable.d.next = 0.into();
        if self.inv_bt.val() != 0 {
            self.d_usable.d.next = 1.into();
        }
        self.d_fwd.d.next = 0.into();
        self.d_rate_ok.d.next = 0.into();
        if (self.dt.val() != 0) & !self.dt.val().get_bit(23) {
            self.d_fwd.d.next = 1.into();
            if !self.dtx.val().get_bit(19) {
                self.d_rate_ok.d.next = 1.into();
            }
        }

        // ---- M1: qlen x inv_bt; its tag is sim::layout::HOP_M1_TAG.
        self.m1.in_valid.next = self.d_valid.q.val();
        self.m1.in_a.next = self.d_qbytes.q.val();
        self.m1.in_b.next = self.d_inv_bt.q.val();
        self.m1.in_tag.next = 0.into();
        self.m1.in_tag.next.set_value_tag(self.d_tag.q.val());
        self.m1.in_tag.next.set_value_usable_bits(self.d_usable.q.val());
        self.m1.in_tag.next.set_value_fwd_bits(self.d_fwd.q.val());
        self.m1.in_tag.next.set_value_rate_ok_bits(self.d_rate_ok.q.val());
        self.m1.in_tag.next.set_value_dt(self.d_dt.q.val());
        self.m1.in_tag.next.set_value_dtx(self.d_dtx.q.val());
        self.m1.in_tag.next.set_value_inv_b(self.d_inv_b.q.val());

        // ---- DIV: txRate = dtx x 128 x 2^16 / dt when both differences are forward, else
        // 0 / 1. q_term = qlen x inv_bt >> 24, kept to 25 bits (2^24 already saturates u').
        // Its tag is sim::layout::HOP_DIV_TAG.
        self.q_term.next = self.m1.out_prod.val().get_bits::<32>(24);
        self.q_sat.next = self.q_term.val().get_bits::<25>(0);
        if self.q_term.val().get_bits::<8>(24) != 0 {
            self.q_sat.next = 16777216.into();
        }
        self.dt_m1.next = self.m1.out_tag.val().get_value_dt();
        self.div.in_valid.next = self.m1.out_valid.val();
        self.div.in_num.next = 0.into();
        self.div.in_den.next = 1.into();
        if self.m1.out_tag.val().get_value_rate_ok() {
            self.div.in_num.next = bit_cast::<42, 19>(self.m1.out_tag.val().get_value_dtx()) << 23;
            self.div.in_den.next = self.dt_m1.val().get_bits::<23>(0);
        }
        self.div.in_tag.next = 0.into();
        self.div.in_tag.next.set_value_tag(self.m1.out_tag.val().get_value_tag());
        self.div.in_tag.next.set_value_usable(self.m1.out_tag.val().get_value_usable());
        self.div.in_tag.next.set_value_fwd(self.m1.out_tag.val().get_value_fwd());
        self.div.in_tag.next.set_value_dt(self.m1.out_tag.val().get_value_dt());
        self.div.in_tag.next.set_value_q_sat(self.q_sat.val());
        self.div.in_tag.next.set_value_inv_b(self.m1.out_tag.val().get_value_inv_b());

        // ---- M2: txRate x inv_b. Tag: the divider's below inv_b.
        self.m2.in_valid.next = self.div.out_valid.val();
        self.m2.in_a.next = self.div.out_quo.val();
        self.m2.in_b.next = self.div.out_tag.val().get_value_inv_b();
        self.m2.in_tag.next = self.div.out_tag.val().get_bits::<M2_TAG>(0);

        // ---- O: u' = q_term + r_term, saturated; tau = dt if forward.
        self.sum.next = bit_cast::<33, 32>(self.m2.out_prod.val().get_bits::<32>(24))
            + bit_cast::<33, 25>(self.m2.out_tag.val().get_value_q_sat());
        self.o_valid.d.next = self.m2.out_valid.val() & !self.reset.val();
        self.o_usable.d.next = self.m2.out_tag.val().get_value_usable();
        self.o_tag.d.next = self.m2.out_tag.val().get_value_tag();
        self.o_u.d.next = self.sum.val().get_bits::<24>(0);
        if self.sum.val().get_bits::<9>(24) != 0 {
            self.o_u.d.next = 16777215.into();
        }
        self.o_tau.d.next = 0.into();
        if self.m2.out_tag.val().get_value_fwd() {
            self.o_tau.d.next = self.m2.out_tag.val().get_value_dt();
        }
        self.out_valid.next = self.o_valid.q.val();
        self.out_usable.next = self.o_usable.q.val();
        self.out_u.next = self.o_u.q.val();
        self.out_tau.next = self.o_tau.q.val();
        self.out_tag.next = self.o_tag.q.val();
        self.out_cand.next = 0.into();
        self.out_cand.next.set_value_valid(self.o_valid.q.val() & self.o_usable.q.val());
        self.out_cand.next.set_value_u(self.o_u.q.val());
        self.out_cand.next.set_value_tau(self.o_tau.q.val());
    }
}
