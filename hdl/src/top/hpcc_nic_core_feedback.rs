//! Rx-HPCC feedback at the sender, a block of hpcc_nic_core (docs/modules/hpcc_nic_core.md):
//! an Rx pipe event carrying the receiver's W (`sim::layout::CC_EVENT`'s `feedback`, W in
//! hop record 0's low word) becomes an Update of the flow's rate and window, if the flow is
//! Rx-HPCC here; else it is counted and ignored.
//!
//! R = min((W x rate_mul + 2^31) >> 32, line): cc_hpcc's line 27 with the sender's own T,
//! and the window is W's integer bytes (W >> 8). Four stages, one event at a time per stage:
//!
//! ```text
//! F1  the event taken; the flow's Rx-HPCC bit read
//! F2  four 16 x 16 partial products of W x rate_mul
//! F3  their sum + 2^31
//! FU  the Update, offered until flow_sched takes it
//! ```
//!
//! The core holds the Rx pipe's events while `busy` (one feedback per RTT per flow: draft 004
//! line 31), so no event can find a stage full.

use crate::cc_codes::ALG_RX_HPCC;
use crate::layout::UpdateFields;
use crate::hpcc_nic_core::AlgWrite;
use rust_hdl::prelude::*;

/// The feedback unit for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreFeedback<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the stages empty, the counters 0 (the Rx-HPCC bits are cleared by
    /// the core's sweep).
    pub reset: Signal<In, bool>,
    /// The core takes an Rx pipe event this cycle.
    pub ev_take: Signal<In, bool>,
    /// The event carries feedback.
    pub ev_feedback: Signal<In, bool>,
    /// The event's flow.
    pub ev_flow: Signal<In, Bits<16>>,
    /// The event's W (bytes, UQ24.8).
    pub ev_w: Signal<In, Bits<32>>,
    /// cc_hpcc's rate_mul (`cfg_hpcc_rate_mul`), read in F2.
    pub rate_mul: Signal<In, Bits<32>>,
    /// The line rate (`cfg_hpcc_line_q16`), the most R can be, read in F3.
    pub line: Signal<In, Bits<32>>,
    /// The flow's algorithm, from the sequencer.
    pub alg_wr: AlgWrite<F>,
    /// The core clears its per-flow tables after reset: this cycle, flow `sweep_addr`.
    pub sweep: Signal<In, bool>,
    /// The flow cleared.
    pub sweep_addr: Signal<In, Bits<F>>,
    /// The Update (`sim::layout::UPDATE`).
    pub m_axis_update_tdata: Signal<Out, Bits<80>>,
    /// An Update is offered.
    pub m_axis_update_tvalid: Signal<Out, bool>,
    /// flow_sched takes it.
    pub m_axis_update_tready: Signal<In, bool>,
    /// A feedback is in a stage: the core holds its events.
    pub busy: Signal<Out, bool>,
    /// Feedbacks that became an Update (wraps).
    pub stat_applied: Signal<Out, Bits<32>>,
    /// Feedbacks for a flow that is not Rx-HPCC, ignored (wraps).
    pub stat_ignored: Signal<Out, Bits<32>>,
    /// Per flow: 1 = Rx-HPCC.
    rxh: RAM<Bits<1>, F>,
    f1_valid: DFF<bool>,
    f1_flow: DFF<Bits<16>>,
    f1_w: DFF<Bits<32>>,
    f2_valid: DFF<bool>,
    f2_flow: DFF<Bits<16>>,
    f2_w: DFF<Bits<32>>,
    f2_ll: DFF<Bits<32>>,
    f2_lh: DFF<Bits<32>>,
    f2_hl: DFF<Bits<32>>,
    f2_hh: DFF<Bits<32>>,
    f3_valid: DFF<bool>,
    f3_flow: DFF<Bits<16>>,
    f3_w: DFF<Bits<32>>,
    f3_sum: DFF<Bits<65>>,
    fu_valid: DFF<bool>,
    fu_data: DFF<Bits<80>>,
    applied: DFF<Bits<32>>,
    ignored: DFF<Bits<32>>,
    /// W and rate_mul in 16-bit halves (low, high).
    w_lo: Signal<Local, Bits<16>>,
    w_hi: Signal<Local, Bits<16>>,
    m_lo: Signal<Local, Bits<16>>,
    m_hi: Signal<Local, Bits<16>>,
    /// R, clamped to the line rate.
    rate: Signal<Local, Bits<33>>,
}

impl<const F: usize> Logic for HpccNicCoreFeedback<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, f1_valid, f1_flow, f1_w, f2_valid, f2_flow, f2_w, f2_ll, f2_lh, f2_hl, f2_hh,
            f3_valid, f3_flow, f3_w, f3_sum, fu_valid, fu_data, applied, ignored
        );
        self.rxh.read_clock.next = self.clock.val();
        self.rxh.write_clock.next = self.clock.val();
        // ---- F1: the event; its flow's bit read (the RAM reads every event's flow).
        self.rxh.read_address.next = self.ev_flow.val().get_bits::<F>(0);
        self.f1_valid.d.next = self.ev_take.val() & self.ev_feedback.val();
        self.f1_flow.d.next = self.ev_flow.val();
        self.f1_w.d.next = self.ev_w.val();
        // ---- F2: W x rate_mul as four 16 x 16 products (DSP-sized).
        self.w_lo.next = self.f1_w.q.val().get_bits::<16>(0);
        self.w_hi.next = self.f1_w.q.val().get_bits::<16>(16);
        self.m_lo.next = self.rate_mul.val().get_bits::<16>(0);
        self.m_hi.next = self.rate_mul.val().get_bits::<16>(16);
        self.f2_valid.d.next = self.f1_valid.q.val() & self.rxh.read_data.val().any();
        if self.f1_valid.q.val() & !self.rxh.read_data.val().any() {
            self.ignored.d.next = self.ignored.q.val() + 1;
        }
        self.f2_flow.d.next = self.f1_flow.q.val();
        self.f2_w.d.next = self.f1_w.q.val();
        self.f2_ll.d.next = self.w_lo.val() * self.m_lo.val();
        self.f2_lh.d.next = self.w_lo.val() * self.m_hi.val();
        self.f2_hl.d.next = self.w_hi.val() * self.m_lo.val();
        self.f2_hh.d.next = self.w_hi.val() * self.m_hi.val();
        // ---- F3: the sum, rounded at bit 31.
        self.f3_valid.d.next = self.f2_valid.q.val();
        self.f3_flow.d.next = self.f2_flow.q.val();
        self.f3_w.d.next = self.f2_w.q.val();
        self.f3_sum.d.next = bit_cast::<65, 32>(self.f2_ll.q.val())
            + (bit_cast::<65, 32>(self.f2_lh.q.val()) << 16)
            + (bit_cast::<65, 32>(self.f2_hl.q.val()) << 16)
            + (bit_cast::<65, 32>(self.f2_hh.q.val()) << 32)
            + (bits::<65>(1) << 31);
        // ---- FU: the Update (rate, window = W's integer bytes, flow) until taken.
        self.rate.next = self.f3_sum.q.val().get_bits::<33>(32);
        if self.rate.val() > bit_cast::<33, 32>(self.line.val()) {
            self.rate.next = bit_cast::<33, 32>(self.line.val());
        }
        if self.fu_valid.q.val() & self.m_axis_update_tready.val() {
            self.fu_valid.d.next = false;
        }
        if self.f3_valid.q.val() {
            self.fu_valid.d.next = true;
            self.fu_data.d.next = 0.into();
            self.fu_data.d.next.set_value_rate(self.rate.val().get_bits::<32>(0));
            self.fu_data.d.next.set_value_window(bit_cast::<32, 24>(self.f3_w.q.val().get_bits::<24>(8)));
            self.fu_data.d.next.set_value_flow(self.f3_flow.q.val());
            self.applied.d.next = self.applied.q.val() + 1;
        }
        self.m_axis_update_tvalid.next = self.fu_valid.q.val();
        self.m_axis_update_tdata.next = self.fu_data.q.val();
        self.busy.next = self.f1_valid.q.val() | self.f2_valid.q.val() | self.f3_valid.q.val() | self.fu_valid.q.val();
        self.stat_applied.next = self.applied.q.val();
        self.stat_ignored.next = self.ignored.q.val();
        // ---- The Rx-HPCC bit: set by a create of an Rx-HPCC flow, cleared by anything else.
        self.rxh.write_enable.next = self.alg_wr.we.val();
        self.rxh.write_address.next = self.alg_wr.flow.val();
        self.rxh.write_data.next = 0.into();
        if self.alg_wr.create.val() & (self.alg_wr.alg.val() == ALG_RX_HPCC) {
            self.rxh.write_data.next = 1.into();
        }
        if self.sweep.val() {
            self.rxh.write_enable.next = true;
            self.rxh.write_address.next = self.sweep_addr.val();
            self.rxh.write_data.next = 0.into();
        }
        if self.reset.val() {
            self.f1_valid.d.next = false;
            self.f2_valid.d.next = false;
            self.f3_valid.d.next = false;
            self.fu_valid.d.next = false;
            self.applied.d.next = 0.into();
            self.ignored.d.next = 0.into();
        }
    }
}
