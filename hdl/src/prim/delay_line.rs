//! Fixed delay of a data word by N cycles, without reset, so vendor tools map it onto shift-
//! register LUTs (SRL16/SRL32: one LUT per bit per 32 cycles instead of N flip-flops). CC
//! datapaths carry an event's context beside a divider or multiplier with it; the valid bit
//! travels in the primitive (which is reset), never here.

use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// W-bit words, N >= 1 cycles.
#[derive(LogicBlock, Default)]
pub struct DelayLine<const W: usize, const N: usize> {
    /// Clock; the line moves on every rising edge.
    pub clock: Signal<In, Clock>,
    /// The word entering at this clock edge.
    pub in_data: Signal<In, Bits<W>>,
    /// The word that entered N clock edges ago (undefined until N edges have passed).
    pub out_data: Signal<Out, Bits<W>>,
    _line: VecDeque<Bits<W>>,
}

impl<const W: usize, const N: usize> Logic for DelayLine<W, N> {
    fn update(&mut self) {
        assert!(N >= 1);
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
    let shift = if n == 1 {
        "line_q <= in_data;".to_string()
    } else {
        format!("line_q <= {{line_q[({n}-1)*{w}-1:0], in_data}};")
    };
    format!(
        "\
reg [{n}*{w}-1:0] line_q;

always @(posedge clock) begin
    {shift}
end

always @(*) begin
    out_data = line_q[({n}-1)*{w} +: {w}];
end"
    )
}
