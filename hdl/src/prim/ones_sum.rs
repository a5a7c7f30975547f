//! Sum of the 32 16-bit words of a 512-bit beat, bytes masked by lane: the per-beat half of
//! the UDP checksum in rx_pipe. Word w is lanes 2w (low byte) and 2w + 1 (high byte), each
//! taken only where its `in_mask` bit is set. The plain (not one's-complement) 21-bit sum comes
//! out; the caller accumulates and folds.
//!
//! rust-hdl's generator has no loop that builds a sum term by term (a signal may not be
//! assigned from its own value), so the body is Verilog: the beat and mask registered, then an
//! adder tree in three register stages (eight sums of 4 words, two of 4, the total) for
//! 250 MHz. `update` is the same pipeline for rust-hdl. Fixed latency 4, one beat per clock, a
//! 2-bit tag alongside.

use crate::div_pipe::clock_pipe;
use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// Cycles from `in_valid` to `out_valid`.
pub const LATENCY: usize = 4;

/// 64 lanes, 32 words.
#[derive(LogicBlock, Default)]
pub struct OnesSum {
    /// Clock; everything is sampled on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bits.
    pub reset: Signal<In, bool>,
    /// A beat enters this cycle.
    pub in_valid: Signal<In, bool>,
    /// The beat, lane i at [8i+7:8i].
    pub in_data: Signal<In, Bits<512>>,
    /// Lane i counts when bit i is set.
    pub in_mask: Signal<In, Bits<64>>,
    /// Carried unchanged to `out_tag`.
    pub in_tag: Signal<In, Bits<2>>,
    /// The sum of the beat that entered `LATENCY` cycles ago is on `out_sum`.
    pub out_valid: Signal<Out, bool>,
    /// Sum of the masked words.
    pub out_sum: Signal<Out, Bits<21>>,
    /// `in_tag` of the same beat.
    pub out_tag: Signal<Out, Bits<2>>,
    _pipe: VecDeque<(bool, u128, u128)>,
}

/// The masked word sum of one beat, as the block computes it.
pub fn beat_sum(data: &Bits<512>, mask: u64) -> u64 {
    (0..64)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| data.get_bits::<8>(8 * i).to_u64() << (8 * (i % 2)))
        .sum()
}

impl Logic for OnesSum {
    fn update(&mut self) {
        let sum = beat_sum(&self.in_data.val(), self.in_mask.val().to_u64());
        let entry = (
            self.in_valid.val(),
            sum as u128,
            self.in_tag.val().to_u64() as u128,
        );
        let (valid, sum, tag) = clock_pipe(
            &mut self._pipe,
            LATENCY,
            self.clock.pos_edge(),
            entry,
            self.reset.val(),
        );
        self.out_valid.next = valid;
        self.out_sum.next = (sum as u64).into();
        self.out_tag.next = (tag as u64).into();
    }

    fn connect(&mut self) {
        self.out_valid.connect();
        self.out_sum.connect();
        self.out_tag.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(VERILOG_BODY.into())
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "ones_sum".into(),
            clock: "clock".into(),
            inputs: vec![
                "reset".into(),
                "in_valid".into(),
                "in_data".into(),
                "in_mask".into(),
                "in_tag".into(),
            ],
            outputs: vec!["out_valid".into(), "out_sum".into(), "out_tag".into()],
        }]
    }
}

const VERILOG_BODY: &str = "\
reg [511:0] data_q;
reg [63:0] mask_q;
reg [8*18-1:0] quad_q;
reg [2*20-1:0] half_q;
reg [20:0] sum_q;
reg [3:0] valid_q;
reg [7:0] tag_q;
wire [511:0] masked;

genvar l;
generate
    for (l = 0; l < 64; l = l + 1) begin : lane
        assign masked[8*l +: 8] = mask_q[l] ? data_q[8*l +: 8] : 8'h00;
    end
endgenerate

integer g, w;
reg [8*18-1:0] quad;
always @(*) begin
    quad = {8*18{1'b0}};
    for (g = 0; g < 8; g = g + 1)
        for (w = 0; w < 4; w = w + 1)
            quad[18*g +: 18] = quad[18*g +: 18] + {2'b00, masked[64*g + 16*w +: 16]};
end

always @(posedge clock) begin
    valid_q <= reset ? 4'b0000 : {valid_q[2:0], in_valid};
    tag_q <= {tag_q[5:0], in_tag};
    data_q <= in_data;
    mask_q <= in_mask;
    quad_q <= quad;
    half_q[0 +: 20] <= {2'b00, quad_q[0 +: 18]} + {2'b00, quad_q[18 +: 18]}
        + {2'b00, quad_q[36 +: 18]} + {2'b00, quad_q[54 +: 18]};
    half_q[20 +: 20] <= {2'b00, quad_q[72 +: 18]} + {2'b00, quad_q[90 +: 18]}
        + {2'b00, quad_q[108 +: 18]} + {2'b00, quad_q[126 +: 18]};
    sum_q <= {1'b0, half_q[0 +: 20]} + {1'b0, half_q[20 +: 20]};
end

always @(*) begin
    out_valid = valid_q[3];
    out_sum = sum_q;
    out_tag = tag_q[7:6];
end";
