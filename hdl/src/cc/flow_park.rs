//! Input stage for CC datapaths whose per-flow read-modify-write window is long (cc_ldcp):
//! issues events to the datapath so that two events of one flow are at least HAZARD = D + 1
//! cycles apart, and lets other flows' events overtake one that must wait.
//!
//! With only an in-order hold (hold the input while its flow is in the window), an event whose flow is in the window blocks every
//! event behind it: with random flows over 1024 and a 53-cycle window, half the cycles are lost.
//! Here every event enters one of P slots together with its wait (from where its flow sits in the
//! window of the last D issued flows), and each cycle the lowest slot whose wait has run out is
//! issued. A second event of a flow that has a slot enters too, chained behind it: it waits
//! until that slot issues, then D more cycles. A third waits at the input. So a flow's events
//! keep their order; different flows' events may pass each other.
//!
//! ```text
//! input   in_drop events (bad flow ids) are taken and not stored; otherwise taken when a slot
//!         is free and at most one slot holds the flow, with no event chained behind it yet:
//!         no slot of the flow: wait = D - i - 1 for the newest window entry i (issued i + 1
//!         cycles ago) of the same flow, else 0; one slot k: chained to k (or wait = D if k
//!         issues this very cycle)
//! slots   P x (valid, chained, chained-to slot, wait, event); waits count down every cycle;
//!         when slot k issues, the slot chained to it gets wait = D
//! issue   lowest valid, unchained slot with wait 0 -> m_valid / m_data; taken on m_ready,
//!         and its flow enters the window
//! ```
//!
//! Latency one cycle (input register = slot). Cost: D x W flip-flops and comparators for the
//! window, P x (DW + 11) flip-flops, a P:1 mux of DW bits on the issue path.

use rust_hdl::prelude::*;

/// Flows are the low W bits of a DW-bit event; P slots (a power of two, 2..=16); D cycles of
/// issued flows remembered (2..=127).
#[derive(LogicBlock, Default)]
pub struct FlowPark<const W: usize, const DW: usize, const P: usize, const D: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the slots and the window.
    pub reset: Signal<In, bool>,
    /// Event; its flow is `[W-1:0]`.
    pub s_axis_tdata: Signal<In, Bits<DW>>,
    /// Event valid.
    pub s_axis_tvalid: Signal<In, bool>,
    /// Event taken: always when `in_drop`, else when a slot is free and no slot holds its flow.
    pub s_axis_tready: Signal<Out, bool>,
    /// The offered event is to be taken and discarded (the caller counts it).
    pub in_drop: Signal<In, bool>,
    /// An event is ready for the datapath.
    pub m_valid: Signal<Out, bool>,
    /// The event.
    pub m_data: Signal<Out, Bits<DW>>,
    /// The datapath takes `m_data` this cycle.
    pub m_ready: Signal<In, bool>,
    /// The simulation model (rust-hdl's simulator): `sim::flow_park`, made at the first update.
    _park: Option<Park<DW>>,
}

type Park<const DW: usize> = sim::flow_park::FlowPark<Bits<DW>>;

impl<const W: usize, const DW: usize, const P: usize, const D: usize> FlowPark<W, DW, P, D> {
    fn flow(d: &Bits<DW>) -> u64 {
        d.get_bits::<W>(0).to_u64()
    }
}

impl<const W: usize, const DW: usize, const P: usize, const D: usize> Logic
    for FlowPark<W, DW, P, D>
{
    fn update(&mut self) {
        assert!(W <= 64 && D >= 2 && P.is_power_of_two() && (2..=16).contains(&P) && D < 128);
        let park = self._park.get_or_insert_with(|| Park::new(P, D));
        let flow = Self::flow(&self.s_axis_tdata.val());
        if self.clock.pos_edge() {
            let take = self.s_axis_tvalid.val() && !self.in_drop.val() && park.ready(flow);
            park.step(take.then(|| (flow, self.s_axis_tdata.val())), self.m_ready.val());
            if self.reset.val() {
                park.reset();
            }
        }
        self.s_axis_tready.next = self.in_drop.val() || park.ready(flow);
        match park.head() {
            Some(d) => {
                self.m_valid.next = true;
                self.m_data.next = *d;
            }
            None => {
                self.m_valid.next = false;
                self.m_data.next = Bits::<DW>::default();
            }
        }
    }

    fn connect(&mut self) {
        self.s_axis_tready.connect();
        self.m_valid.connect();
        self.m_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(verilog_body(W, DW, P, D))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "flow_park".into(),
            clock: "clock".into(),
            inputs: vec![
                "reset".into(),
                "s_axis_tdata".into(),
                "s_axis_tvalid".into(),
                "in_drop".into(),
                "m_ready".into(),
            ],
            outputs: vec!["s_axis_tready".into(), "m_valid".into(), "m_data".into()],
        }]
    }
}

/// The Verilog body. Window entry i (0 = issued one cycle ago) is `win_v[i]`,
/// `win_f[i * W +: W]`; slot k is `slot_v[k]`, `slot_c[k]` (chained) to `slot_k[k * KB +: KB]`,
/// `slot_w[k * 7 +: 7]`, `slot_d[k * DW +: DW]`. Every choice is a one-hot vector (the lowest
/// set bit of x is `x & -x`, a carry chain) and every read an AND-OR over it: no variable
/// part-selects, which synthesize into shifters, and no priority chains D deep.
pub fn verilog_body(w: usize, dw: usize, p: usize, d: usize) -> String {
    let kb = (usize::BITS - (p - 1).max(1).leading_zeros()) as usize;
    format!(
        "\
reg [{d}-1:0] win_v;
reg [{d}*{w}-1:0] win_f;
reg [{p}-1:0] slot_v;
reg [{p}-1:0] slot_c;
reg [{p}*{kb}-1:0] slot_k;
reg [{p}*7-1:0] slot_w;
reg [{p}*{dw}-1:0] slot_d;
wire [{w}-1:0] in_flow = s_axis_tdata[{w}-1:0];
wire [{d}-1:0] win_hit;
wire [{p}-1:0] slot_hit;
wire [{p}-1:0] slot_go;
wire [{p}-1:0] has_chain;
// One-hot: newest window entry of the offered flow (lowest set bit, without a {d}-bit carry
// chain), lowest free slot, lowest slot to issue.
wire [{d}-1:0] newest;
wire [{p}-1:0] free_1h = ~slot_v & (slot_v + {p}'d1);
wire [{p}-1:0] go_1h = slot_go & (~slot_go + {p}'d1);
wire one_hit = (slot_hit & (slot_hit - {p}'d1)) == {p}'d0;
wire issue = m_valid && m_ready;
wire take = s_axis_tvalid && s_axis_tready && !in_drop;
reg [6:0] wait_in;
reg [{kb}-1:0] hit_k;
reg [{kb}-1:0] go_k;
reg chain_full;
integer i;

genvar g, j;
generate
    for (g = 0; g < {d}; g = g + 1) begin : window
        assign win_hit[g] = win_v[g] && (win_f[g * {w} +: {w}] == in_flow);
        // Set when entry g hits, no lower entry of its group of 8 does (one LUT), and no entry
        // of a lower group does (a NOR, next to it rather than after it).
        if (g == 0) begin : first
            assign newest[g] = win_hit[g];
        end else if (g < 8) begin : group0
            assign newest[g] = win_hit[g] && win_hit[g - 1:0] == 0;
        end else if (g % 8 == 0) begin : lead
            assign newest[g] = win_hit[g] && win_hit[g - 1:0] == 0;
        end else begin : rest
            assign newest[g] = win_hit[g] && win_hit[g - 1:g - g % 8] == 0
                && win_hit[g - g % 8 - 1:0] == 0;
        end
    end
    for (g = 0; g < {p}; g = g + 1) begin : slot
        wire [{p}-1:0] chained_here;
        for (j = 0; j < {p}; j = j + 1) begin : dep
            assign chained_here[j] = slot_v[j] && slot_c[j] && (slot_k[j * {kb} +: {kb}] == g);
        end
        assign has_chain[g] = |chained_here;
        assign slot_hit[g] = slot_v[g] && (slot_d[g * {dw} +: {w}] == in_flow);
        assign slot_go[g] = slot_v[g] && !slot_c[g] && (slot_w[g * 7 +: 7] == 7'd0);
        wire released = issue && slot_c[g] && (slot_k[g * {kb} +: {kb}] == go_k);
        always @(posedge clock) begin
            if (released) begin
                slot_c[g] <= 1'b0;
                slot_w[g * 7 +: 7] <= 7'd{d};
            end else if (slot_w[g * 7 +: 7] != 7'd0) begin
                slot_w[g * 7 +: 7] <= slot_w[g * 7 +: 7] - 7'd1;
            end
            if (issue && go_1h[g]) slot_v[g] <= 1'b0;
            if (take && free_1h[g]) begin
                slot_v[g] <= 1'b1;
                slot_d[g * {dw} +: {dw}] <= s_axis_tdata;
                slot_k[g * {kb} +: {kb}] <= hit_k;
                if (slot_hit == {p}'d0) begin
                    slot_c[g] <= 1'b0;
                    slot_w[g * 7 +: 7] <= wait_in;
                end else if (issue && go_k == hit_k) begin
                    slot_c[g] <= 1'b0;
                    slot_w[g * 7 +: 7] <= 7'd{d};
                end else begin
                    slot_c[g] <= 1'b1;
                    slot_w[g * 7 +: 7] <= 7'd0;
                end
            end
            if (reset) slot_v[g] <= 1'b0;
        end
    end
endgenerate

// Indices as OR-reductions over one-hot vectors; the issued event as an AND-OR.
always @(*) begin
    wait_in = 7'd0;
    for (i = 0; i < {d}; i = i + 1) begin
        wait_in = wait_in | ({{7{{newest[i]}}}} & (7'd{dm1} - i[6:0]));
    end
    hit_k = {kb}'d0;
    go_k = {kb}'d0;
    chain_full = 1'b0;
    m_data = {dw}'d0;
    for (i = 0; i < {p}; i = i + 1) begin
        hit_k = hit_k | ({{{kb}{{slot_hit[i]}}}} & i[{kb}-1:0]);
        go_k = go_k | ({{{kb}{{go_1h[i]}}}} & i[{kb}-1:0]);
        chain_full = chain_full | (slot_hit[i] & has_chain[i]);
        m_data = m_data | ({{{dw}{{go_1h[i]}}}} & slot_d[i * {dw} +: {dw}]);
    end
    s_axis_tready = in_drop || ((free_1h != {p}'d0) && (slot_hit == {p}'d0 || (one_hit && !chain_full)));
    m_valid = slot_go != {p}'d0;
end

always @(posedge clock) begin
    win_v <= reset ? {d}'d0 : {{win_v[{d}-2:0], issue}};
    win_f <= {{win_f[({d}-1)*{w}-1:0], m_data[{w}-1:0]}};
end",
        dm1 = d - 1,
    )
}
