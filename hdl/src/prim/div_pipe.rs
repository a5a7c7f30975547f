//! Pipelined unsigned divider: `quo = min(floor(num / den), 2^QW - 1)`, and `2^QW - 1` when
//! `den = 0`. This is `sim::cc_fixed::div_floor` with `max = 2^QW - 1`, the contract of every
//! division by a state or packet value in docs/fixed-point.md.
//!
//! Restoring division, one quotient bit per stage, so the only logic between registers is one
//! (DW + 1)-bit compare-and-subtract: it holds 250 MHz for any width the CC module uses. An
//! input register finds the overflow case first (`num >> QW >= den`, which also covers
//! `den = 0`), so the stages never see a quotient wider than QW bits.
//!
//! Latency QW + 1 cycles, one division per clock, no backpressure: `in_valid` is taken every
//! cycle and `out_valid` follows it exactly QW + 1 cycles later with the quotient and the
//! caller's `in_tag`. rust-hdl has no divider, so the body is Verilog written here; `update`
//! is the same pipeline for rust-hdl simulations.

use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// Divides NW-bit numerators by DW-bit divisors into QW-bit saturated quotients, carrying a
/// TW-bit tag alongside. Operands up to 64 bits, tags up to 128 (the simulation model uses
/// u64 and u128).
#[derive(LogicBlock, Default)]
pub struct DivPipe<const NW: usize, const DW: usize, const QW: usize, const TW: usize> {
    /// Clock; everything is sampled on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bits of every stage (data is not reset).
    pub reset: Signal<In, bool>,
    /// A division enters this cycle.
    pub in_valid: Signal<In, bool>,
    /// Numerator.
    pub in_num: Signal<In, Bits<NW>>,
    /// Divisor; 0 gives the saturated quotient.
    pub in_den: Signal<In, Bits<DW>>,
    /// Carried unchanged to `out_tag`, for the caller's context.
    pub in_tag: Signal<In, Bits<TW>>,
    /// The division that entered QW + 1 cycles ago is on `out_quo`.
    pub out_valid: Signal<Out, bool>,
    /// `min(floor(num / den), 2^QW - 1)`.
    pub out_quo: Signal<Out, Bits<QW>>,
    /// `in_tag` of the same division.
    pub out_tag: Signal<Out, Bits<TW>>,
    _pipe: VecDeque<(bool, u128, u128)>,
}

impl<const NW: usize, const DW: usize, const QW: usize, const TW: usize> DivPipe<NW, DW, QW, TW> {
    /// Cycles from `in_valid` to `out_valid`.
    pub const LATENCY: usize = QW + 1;

    /// The quotient the hardware produces.
    pub fn quotient(num: u64, den: u64) -> u64 {
        let max = if QW >= 64 { u64::MAX } else { (1u64 << QW) - 1 };
        if den == 0 {
            max
        } else {
            (num / den).min(max)
        }
    }
}

/// The rust-hdl simulation of a fixed-latency primitive (div_pipe, mul_pipe): at a rising edge
/// `entry` (valid, value, tag) enters and every stage moves on; reset clears the valid bits.
/// Returns the last stage, which drives the outputs.
pub(crate) fn clock_pipe(
    pipe: &mut VecDeque<(bool, u128, u128)>,
    latency: usize,
    edge: bool,
    entry: (bool, u128, u128),
    reset: bool,
) -> (bool, u128, u128) {
    if pipe.len() != latency {
        *pipe = VecDeque::from(vec![(false, 0, 0); latency]);
    }
    if edge {
        pipe.push_back((entry.0 && !reset, entry.1, entry.2));
        pipe.pop_front();
        if reset {
            pipe.iter_mut().for_each(|s| s.0 = false);
        }
    }
    pipe[0]
}

/// `Bits<N>` from a u128 (rust-hdl converts only from u64).
pub fn bits_from_u128<const N: usize>(v: u128) -> Bits<N> {
    let lo: Bits<N> = (v as u64).into();
    if N <= 64 {
        lo
    } else {
        let hi: Bits<N> = ((v >> 64) as u64).into();
        (hi << 64) | lo
    }
}

impl<const NW: usize, const DW: usize, const QW: usize, const TW: usize> Logic
    for DivPipe<NW, DW, QW, TW>
{
    fn update(&mut self) {
        assert!(NW <= 64 && DW <= 64 && QW <= 64 && TW <= 128 && QW >= 2 && DW >= 1);
        let quo = Self::quotient(self.in_num.val().to_u64(), self.in_den.val().to_u64());
        let entry = (
            self.in_valid.val(),
            quo as u128,
            self.in_tag.val().to_u128(),
        );
        let (valid, quo, tag) = clock_pipe(
            &mut self._pipe,
            Self::LATENCY,
            self.clock.pos_edge(),
            entry,
            self.reset.val(),
        );
        self.out_valid.next = valid;
        self.out_quo.next = (quo as u64).into();
        self.out_tag.next = bits_from_u128(tag);
    }

    fn connect(&mut self) {
        self.out_valid.connect();
        self.out_quo.connect();
        self.out_tag.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body(NW, DW, QW, TW))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "div_pipe".into(),
            clock: "clock".into(),
            inputs: vec![
                "reset".into(),
                "in_valid".into(),
                "in_num".into(),
                "in_den".into(),
                "in_tag".into(),
            ],
            outputs: vec!["out_valid".into(), "out_quo".into(), "out_tag".into()],
        }]
    }
}

/// The Verilog body. Stage s (0..=QW) holds the partial remainder `rem` (< den), the divisor,
/// and `nq`: the numerator bits not yet consumed above the quotient bits found so far (each
/// stage shifts one numerator bit out of the top of `nq` and one quotient bit in at the bottom).
pub fn verilog_body(nw: usize, dw: usize, qw: usize, tw: usize) -> String {
    // Numerator bits above the quotient: compared with den for overflow, then the first
    // partial remainder. With nw <= qw there are none and the quotient always fits.
    let high = nw.saturating_sub(qw);
    let (overflow, rem0) = if high == 0 {
        ("(in_den == 0)".to_string(), format!("{dw}'d0"))
    } else {
        let hi = format!("in_num[{}:{qw}]", nw - 1);
        let rem0 = if high >= dw {
            format!("in_num[{}:{qw}]", qw + dw - 1)
        } else {
            format!("{{{}'d0, {hi}}}", dw - high)
        };
        let cmp = if high > dw {
            format!("({{{}'d0, in_den}} <= {hi})", high - dw)
        } else if high < dw {
            format!("(in_den <= {{{}'d0, {hi}}})", dw - high)
        } else {
            format!("(in_den <= {hi})")
        };
        (format!("(in_den == 0) || {cmp}"), rem0)
    };
    let nq0 = if nw >= qw {
        format!("in_num[{}:0]", qw - 1)
    } else {
        format!("{{{}'d0, in_num}}", qw - nw)
    };
    format!(
        "\
// Stage 0 is the input register; stage s = 1..{qw} finds quotient bit {qw} - s. Stage s of
// each field is the slice [s * width +: width] of one packed vector (no memories: every
// stage is plain flip-flops or shift registers for the synthesizer).
reg [{qw}:0] valid_q;
reg [{qw}:0] ovf_q;
reg [{qw}*{dw}-1:0] rem_q;
reg [{qw}*{dw}-1:0] den_q;
reg [{stages}*{qw}-1:0] nq_q;
reg [{stages}*{tw}-1:0] tag_q;

always @(posedge clock) begin
    valid_q[0] <= in_valid && !reset;
    ovf_q[0] <= {overflow};
    rem_q[0 +: {dw}] <= {rem0};
    den_q[0 +: {dw}] <= in_den;
    nq_q[0 +: {qw}] <= {nq0};
    tag_q[0 +: {tw}] <= in_tag;
end

genvar s;
generate
    for (s = 1; s <= {qw}; s = s + 1) begin : stage
        wire [{dm}:0] rem = rem_q[(s - 1) * {dw} +: {dw}];
        wire [{dm}:0] den = den_q[(s - 1) * {dw} +: {dw}];
        wire [{qm}:0] nq = nq_q[(s - 1) * {qw} +: {qw}];
        // Shift the next numerator bit into the remainder, subtract den if it fits.
        wire [{dw}:0] trial = {{rem, nq[{qm}]}};
        wire fits = trial >= {{1'b0, den}};
        always @(posedge clock) begin
            valid_q[s] <= valid_q[s - 1] && !reset;
            ovf_q[s] <= ovf_q[s - 1];
            tag_q[s * {tw} +: {tw}] <= tag_q[(s - 1) * {tw} +: {tw}];
            nq_q[s * {qw} +: {qw}] <= {{nq[{qm2}:0], fits}};
        end
        // The last stage only needs the quotient bit.
        if (s < {qw}) begin : carry
            wire [{dm}:0] diff = trial[{dm}:0] - den;
            always @(posedge clock) begin
                den_q[s * {dw} +: {dw}] <= den;
                rem_q[s * {dw} +: {dw}] <= fits ? diff : trial[{dm}:0];
            end
        end
    end
endgenerate

always @(*) begin
    out_valid = valid_q[{qw}];
    out_quo = ovf_q[{qw}] ? {{{qw}{{1'b1}}}} : nq_q[{qw} * {qw} +: {qw}];
    out_tag = tag_q[{qw} * {tw} +: {tw}];
end",
        stages = qw + 1,
        dm = dw - 1,
        qm = qw - 1,
        qm2 = qw - 2,
    )
}
