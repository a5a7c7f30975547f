//! Same-flow hazard check for CC datapaths whose per-flow read-modify-write window is long
//! (cc_ldcp, cc_dcqcn): remembers the flows accepted in the last D cycles and says whether
//! the offered flow is among them.
//!
//! A shift register of D (valid, flow) entries with one equality compare per entry: D x W
//! flip-flops, about D x (W / 3 + 1) LUTs, and an OR of D match bits (log6 D LUT levels)
//! between `in_flow` and `out_hit`. The caller holds an offered event while `out_hit` is high,
//! so two events of one flow enter at least D + 1 cycles apart. A per-flow busy bit in RAM
//! would need a read before the accept decision; a window of at most ~100 entries is cheaper
//! than the extra input stage.

use rust_hdl::prelude::*;
use std::collections::VecDeque;

/// Flows are W bits wide; D cycles are remembered (D >= 2).
#[derive(LogicBlock, Default)]
pub struct FlowWindow<const W: usize, const D: usize> {
    /// Clock; the window moves on every rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forgets every entry.
    pub reset: Signal<In, bool>,
    /// The offered flow (compared now) and, with `in_push`, the flow entering the window.
    pub in_flow: Signal<In, Bits<W>>,
    /// `in_flow` is accepted this cycle and enters the window at the clock edge.
    pub in_push: Signal<In, bool>,
    /// `in_flow` was pushed in one of the last D cycles (combinational from `in_flow`).
    pub out_hit: Signal<Out, bool>,
    _window: VecDeque<Option<u64>>,
}

impl<const W: usize, const D: usize> Logic for FlowWindow<W, D> {
    fn update(&mut self) {
        assert!(W <= 64 && D >= 2);
        if self._window.len() != D {
            self._window = VecDeque::from(vec![None; D]);
        }
        if self.clock.pos_edge() {
            let entry = self.in_push.val().then(|| self.in_flow.val().to_u64());
            self._window.push_front(entry);
            self._window.pop_back();
            if self.reset.val() {
                self._window.iter_mut().for_each(|e| *e = None);
            }
        }
        let flow = self.in_flow.val().to_u64();
        self.out_hit.next = self._window.iter().any(|e| *e == Some(flow));
    }

    fn connect(&mut self) {
        self.out_hit.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body(W, D))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "flow_window".into(),
            clock: "clock".into(),
            inputs: vec!["reset".into(), "in_flow".into(), "in_push".into()],
            outputs: vec!["out_hit".into()],
        }]
    }
}

/// The Verilog body: entry i (0 = newest) is `valid_q[i]` and `flow_q[i * W +: W]`.
pub fn verilog_body(w: usize, d: usize) -> String {
    format!(
        "\
reg [{d}-1:0] valid_q;
reg [{d}*{w}-1:0] flow_q;
wire [{d}-1:0] match_w;

always @(posedge clock) begin
    valid_q <= reset ? {d}'d0 : {{valid_q[{d}-2:0], in_push}};
    flow_q <= {{flow_q[({d}-1)*{w}-1:0], in_flow}};
end

genvar i;
generate
    for (i = 0; i < {d}; i = i + 1) begin : entry
        assign match_w[i] = valid_q[i] && (flow_q[i * {w} +: {w}] == in_flow);
    end
endgenerate

always @(*) begin
    out_hit = |match_w;
end"
    )
}
