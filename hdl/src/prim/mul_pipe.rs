//! Pipelined unsigned multiplier: `prod = a * b`, full width, `LAT` cycles after the operands.
//!
//! rust-hdl multiplies only 16 x 16 bits; the CC module needs products up to 40 x 32 bits
//! (docs/fixed-point.md). The body is the plain `*` followed by a register chain, the shape
//! vendor tools map onto DSP48E2 cascades and then retime: with LAT >= 3, Vivado and yosys
//! can fill the A/B input, M and P registers of every DSP slice of the product, so no fabric
//! adder tree sits between two registers. `update` is the same pipeline for rust-hdl.
//!
//! Fixed latency, one product per clock, no backpressure; a TW-bit tag travels alongside.

use crate::div_pipe::{bits_from_u128, clock_pipe};
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// AW x BW -> PW-bit product (PW = AW + BW, given explicitly because rust-hdl's const generics
/// cannot add), LAT >= 2 cycles, TW-bit tag. Operands up to 64 bits, product and tag up to 128.
#[derive(LogicBlock, Default)]
pub struct MulPipe<
    const AW: usize,
    const BW: usize,
    const PW: usize,
    const LAT: usize,
    const TW: usize,
> {
    /// Clock; everything is sampled on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bits (data is not reset).
    pub reset: Signal<In, bool>,
    /// A product enters this cycle.
    pub in_valid: Signal<In, bool>,
    /// Multiplicand.
    pub in_a: Signal<In, Bits<AW>>,
    /// Multiplier.
    pub in_b: Signal<In, Bits<BW>>,
    /// Carried unchanged to `out_tag`.
    pub in_tag: Signal<In, Bits<TW>>,
    /// The product that entered LAT cycles ago is on `out_prod`.
    pub out_valid: Signal<Out, bool>,
    /// `a * b`.
    pub out_prod: Signal<Out, Bits<PW>>,
    /// `in_tag` of the same product.
    pub out_tag: Signal<Out, Bits<TW>>,
    _pipe: VecDeque<(bool, u128, u128)>,
}

impl<const AW: usize, const BW: usize, const PW: usize, const LAT: usize, const TW: usize> Logic
    for MulPipe<AW, BW, PW, LAT, TW>
{
    fn update(&mut self) {
        assert!(AW <= 64 && BW <= 64 && PW == AW + BW && LAT >= 2 && TW <= 128);
        let prod = self.in_a.val().to_u64() as u128 * self.in_b.val().to_u64() as u128;
        let entry = (self.in_valid.val(), prod, self.in_tag.val().to_u128());
        let (valid, prod, tag) = clock_pipe(
            &mut self._pipe,
            LAT,
            self.clock.pos_edge(),
            entry,
            self.reset.val(),
        );
        self.out_valid.next = valid;
        self.out_prod.next = bits_from_u128(prod);
        self.out_tag.next = bits_from_u128(tag);
    }

    fn connect(&mut self) {
        self.out_valid.connect();
        self.out_prod.connect();
        self.out_tag.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body(AW, BW, LAT, TW))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "mul_pipe".into(),
            clock: "clock".into(),
            inputs: vec![
                "reset".into(),
                "in_valid".into(),
                "in_a".into(),
                "in_b".into(),
                "in_tag".into(),
            ],
            outputs: vec!["out_valid".into(), "out_prod".into(), "out_tag".into()],
        }]
    }
}

/// The Verilog body: operand registers, the product, then LAT - 1 product registers (stage s
/// of the packed `prod_q` is `[s * PW +: PW]`).
pub fn verilog_body(aw: usize, bw: usize, lat: usize, tw: usize) -> String {
    let pw = aw + bw;
    format!(
        "\
reg [{am}:0] a_q;
reg [{bm}:0] b_q;
reg [{lm}:0] valid_q;
reg [{lat}*{tw}-1:0] tag_q;
reg [{stages}*{pw}-1:0] prod_q;
wire [{pm}:0] prod = a_q * b_q;

always @(posedge clock) begin
    a_q <= in_a;
    b_q <= in_b;
    valid_q[0] <= in_valid && !reset;
    tag_q[0 +: {tw}] <= in_tag;
    prod_q[0 +: {pw}] <= prod;
end

genvar s;
generate
    for (s = 1; s < {lat}; s = s + 1) begin : stage
        always @(posedge clock) begin
            valid_q[s] <= valid_q[s - 1] && !reset;
            tag_q[s * {tw} +: {tw}] <= tag_q[(s - 1) * {tw} +: {tw}];
        end
    end
    for (s = 1; s < {stages}; s = s + 1) begin : pstage
        always @(posedge clock) begin
            prod_q[s * {pw} +: {pw}] <= prod_q[(s - 1) * {pw} +: {pw}];
        end
    end
endgenerate

always @(*) begin
    out_valid = valid_q[{lm}];
    out_prod = prod_q[{ps} * {pw} +: {pw}];
    out_tag = tag_q[{lm} * {tw} +: {tw}];
end",
        am = aw - 1,
        bm = bw - 1,
        pm = pw - 1,
        lm = lat - 1,
        stages = lat - 1,
        ps = lat - 2,
    )
}
