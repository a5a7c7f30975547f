//! Fixed delay of a wide word: `out_data` is `in_data` of N clock edges ago.
//!
//! Context that must wait alongside a long primitive chain (cc_dcqcn's state beside its alpha
//! decay) is wider than the 128-bit tags of div_pipe and mul_pipe. A plain shift register
//! without reset or enable: synthesis maps every bit onto SRL shift-register LUTs (one SRLC32E
//! per 32 stages of a bit) instead of N flip-flops. No valid bit: the caller keeps its valid
//! bits in the reset-cleared chains of the primitives it waits for.

use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// W bits delayed by N >= 2 cycles.
#[derive(LogicBlock, Default)]
pub struct DelayLine<const W: usize, const N: usize> {
    /// Clock; the line moves on every rising edge.
    pub clock: Signal<In, Clock>,
    /// Word entering the line at this clock edge.
    pub in_data: Signal<In, Bits<W>>,
    /// The word that entered N edges ago (unknown until N edges have passed).
    pub out_data: Signal<Out, Bits<W>>,
    _line: VecDeque<Bits<W>>,
}

impl<const W: usize, const N: usize> Logic for DelayLine<W, N> {
    fn update(&mut self) {
        assert!(N >= 2);
        if self._line.len() != N {
            self._line = VecDeque::from(vec![Bits::<W>::default(); N]);
        }
        if self.clock.pos_edge() {
            self._line.push_back(self.in_data.val());
            self._line.pop_front();
        }
        self.out_data.next = self._line[0];
    }

    fn connect(&mut self) {
        self.out_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body(W, N))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "delay_line".into(),
            clock: "clock".into(),
            inputs: vec!["in_data".into()],
            outputs: vec!["out_data".into()],
        }]
    }
}

/// The Verilog body: stage s (0 = newest) is `line_q[s * W +: W]`.
pub fn verilog_body(w: usize, n: usize) -> String {
    format!(
        "\
reg [{n}*{w}-1:0] line_q;

always @(posedge clock) begin
    line_q <= {{line_q[({n}-1)*{w}-1:0], in_data}};
end

always @(*) begin
    out_data = line_q[({n}-1)*{w} +: {w}];
end"
    )
}
