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
use crate::mul_pipe::MulPipe;
use rust_hdl::prelude::*;

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
    /// The hop's new record: rate[63:61] ts[60:37] txBytes[36:17] qlen[16:0].
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
    /// The hop as cc_hpcc's SEL ranks it: `[0]` a candidate (`out_valid` and `out_usable`),
    /// `[24:1]` `out_u`, `[48:25]` `out_tau`.
    pub out_cand: Signal<Out, Bits<49>>,
    m1: MulPipe<24, 32, 56, 4, 94>,
    div: DivPipe<42, 23, 24, 99>,
    m2: MulPipe<24, 32, 56, 4, 67>,
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
    q_term: Signal<Local, Bits<32>>,
    q_sat: Signal<Local, Bits<25>>,
    sum: Signal<Local, Bits<33>>,
    cand: Signal<Local, Bits<49>>,
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
        self.code.next = self.in_now.val().get_bits::<3>(61);
        self.dt.next = self.in_now.val().get_bits::<24>(37) - self.in_last.val().get_bits::<24>(37);
        self.dtx.next =
            self.in_now.val().get_bits::<20>(17) - self.in_last.val().get_bits::<20>(17);
        self.qmin.next = bit_cast::<24, 17>(self.in_now.val().get_bits::<17>(0));
        if self.in_last.val().get_bits::<17>(0) < self.in_now.val().get_bits::<17>(0) {
            self.qmin.next = bit_cast::<24, 17>(self.in_last.val().get_bits::<17>(0));
        }
        self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(0);
        self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(0);
        if self.code.val() == 1 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(32);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(32);
        }
        if self.code.val() == 2 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(64);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(64);
        }
        if self.code.val() == 3 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(96);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(96);
        }
        if self.code.val() == 4 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(128);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(128);
        }
        if self.code.val() == 5 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(160);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(160);
        }
        if self.code.val() == 6 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(192);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(192);
        }
        if self.code.val() == 7 {
            self.inv_bt.next = self.cfg_inv_bt.val().get_bits::<32>(224);
            self.inv_b.next = self.cfg_inv_b.val().get_bits::<32>(224);
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

        // ---- M1: qlen x inv_bt. Tag: tag[15:0] usable[16] fwd[17] rate_ok[18] dt[42:19]
        // dtx[61:43] inv_b[93:62].
        self.m1.in_valid.next = self.d_valid.q.val();
        self.m1.in_a.next = self.d_qbytes.q.val();
        self.m1.in_b.next = self.d_inv_bt.q.val();
        self.m1.in_tag.next = bit_cast::<94, 16>(self.d_tag.q.val())
            | (bit_cast::<94, 1>(self.d_usable.q.val()) << 16)
            | (bit_cast::<94, 1>(self.d_fwd.q.val()) << 17)
            | (bit_cast::<94, 1>(self.d_rate_ok.q.val()) << 18)
            | (bit_cast::<94, 24>(self.d_dt.q.val()) << 19)
            | (bit_cast::<94, 19>(self.d_dtx.q.val()) << 43)
            | (bit_cast::<94, 32>(self.d_inv_b.q.val()) << 62);

        // ---- DIV: txRate = dtx x 128 x 2^16 / dt when both differences are forward, else
        // 0 / 1. q_term = qlen x inv_bt >> 24, kept to 25 bits (2^24 already saturates u').
        self.q_term.next = self.m1.out_prod.val().get_bits::<32>(24);
        self.q_sat.next = self.q_term.val().get_bits::<25>(0);
        if self.q_term.val().get_bits::<8>(24) != 0 {
            self.q_sat.next = 16777216.into();
        }
        self.div.in_valid.next = self.m1.out_valid.val();
        self.div.in_num.next = 0.into();
        self.div.in_den.next = 1.into();
        if self.m1.out_tag.val().get_bit(18) {
            self.div.in_num.next =
                bit_cast::<42, 19>(self.m1.out_tag.val().get_bits::<19>(43)) << 23;
            self.div.in_den.next = self.m1.out_tag.val().get_bits::<23>(19);
        }
        // Tag: tag[15:0] usable[16] fwd[17] dt[41:18] q_sat[66:42] inv_b[98:67].
        self.div.in_tag.next = bit_cast::<99, 18>(self.m1.out_tag.val().get_bits::<18>(0))
            | (bit_cast::<99, 24>(self.m1.out_tag.val().get_bits::<24>(19)) << 18)
            | (bit_cast::<99, 25>(self.q_sat.val()) << 42)
            | (bit_cast::<99, 32>(self.m1.out_tag.val().get_bits::<32>(62)) << 67);

        // ---- M2: txRate x inv_b. Tag: the low 67 bits of DIV's.
        self.m2.in_valid.next = self.div.out_valid.val();
        self.m2.in_a.next = self.div.out_quo.val();
        self.m2.in_b.next = self.div.out_tag.val().get_bits::<32>(67);
        self.m2.in_tag.next = self.div.out_tag.val().get_bits::<67>(0);

        // ---- O: u' = q_term + r_term, saturated; tau = dt if forward.
        self.sum.next = bit_cast::<33, 32>(self.m2.out_prod.val().get_bits::<32>(24))
            + bit_cast::<33, 25>(self.m2.out_tag.val().get_bits::<25>(42));
        self.o_valid.d.next = self.m2.out_valid.val() & !self.reset.val();
        self.o_usable.d.next = self.m2.out_tag.val().get_bit(16);
        self.o_tag.d.next = self.m2.out_tag.val().get_bits::<16>(0);
        self.o_u.d.next = self.sum.val().get_bits::<24>(0);
        if self.sum.val().get_bits::<9>(24) != 0 {
            self.o_u.d.next = 16777215.into();
        }
        self.o_tau.d.next = 0.into();
        if self.m2.out_tag.val().get_bit(17) {
            self.o_tau.d.next = self.m2.out_tag.val().get_bits::<24>(18);
        }
        self.out_valid.next = self.o_valid.q.val();
        self.out_usable.next = self.o_usable.q.val();
        self.out_u.next = self.o_u.q.val();
        self.out_tau.next = self.o_tau.q.val();
        self.out_tag.next = self.o_tag.q.val();
        self.cand.next = (bit_cast::<49, 24>(self.o_u.q.val()) << 1) | (bit_cast::<49, 24>(self.o_tau.q.val()) << 25);
        self.out_cand.next = self.cand.val();
        if self.o_valid.q.val() & self.o_usable.q.val() {
            self.out_cand.next = self.cand.val() | 1;
        }
    }
}
