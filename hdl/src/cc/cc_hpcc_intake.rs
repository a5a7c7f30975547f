//! cc_hpcc, stage IN (docs/modules/cc_module.md): which event the datapath takes this cycle.
//! The reset sweep over every flow, the drop and count of flow ids out of range, and the
//! hazard hold: an event waits while its flow had an event taken in the previous
//! `HAZARD - 1` cycles, so the per-flow RAMs' read-modify-write windows (at most 4 cycles)
//! never hold two events of a flow and need no bypass. cc_ldcp and cc_dcqcn, whose windows
//! are tens of cycles long, let other flows pass a waiting event instead (cc_intake's
//! flow_park); for cc_hpcc's short window holding the input costs little.

use crate::cc_hpcc::HAZARD;
use rust_hdl::prelude::*;

/// The input handshake, the sweep and the bad-flow counter of cc_hpcc for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct CcHpccIntake<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the history and `stat_bad_flow`, starts the sweep.
    pub reset: Signal<In, bool>,
    /// The offered event's flow (`HPCC_EVENT`'s `flow`).
    pub in_flow: Signal<In, Bits<16>>,
    /// An event is offered (cc_hpcc's `s_axis_event_tvalid`).
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// cc_hpcc's `s_axis_event_tready`: low during reset and the sweep, while the offered
    /// flow had an event taken in the previous `HAZARD - 1` cycles, and while no result slot
    /// is free.
    pub s_axis_event_tready: Signal<Out, bool>,
    /// A result slot is free (result_fifo's `credit`).
    pub credit: Signal<In, bool>,
    /// An event whose flow is in range is taken this cycle (it enters F0).
    pub issue: Signal<Out, bool>,
    /// The sweep runs: cc_hpcc writes every flow's initial state at `init_addr`.
    pub init_busy: Signal<Out, bool>,
    /// The flow the sweep is at.
    pub init_addr: Signal<Out, Bits<F>>,
    /// Events dropped for a flow id >= 2^F (since reset).
    pub stat_bad_flow: Signal<Out, Bits<32>>,
    sweep: DFF<bool>,
    sweep_addr: DFF<Bits<F>>,
    bad_count: DFF<Bits<32>>,
    /// The flows of the last `HAZARD - 1` cycles, newest first, and whether an event of
    /// that flow was taken then.
    hist_flow: [DFF<Bits<16>>; HAZARD - 1],
    hist_taken: [DFF<bool>; HAZARD - 1],
    flow_ok: Signal<Local, bool>,
    hazard: Signal<Local, bool>,
    fire: Signal<Local, bool>,
}

impl<const F: usize> Logic for CcHpccIntake<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sweep, sweep_addr, bad_count);
        for i in 0..(HAZARD - 1) {
            self.hist_flow[i].clock.next = self.clock.val();
            self.hist_taken[i].clock.next = self.clock.val();
        }

        // ---- Reset: every flow to its initial state, one per cycle.
        if self.sweep.q.val() {
            self.sweep_addr.d.next = self.sweep_addr.q.val() + 1;
            if self.sweep_addr.q.val().all() {
                self.sweep.d.next = false;
            }
        }
        if self.reset.val() {
            self.sweep.d.next = true;
            self.sweep_addr.d.next = 0.into();
        }
        self.init_busy.next = self.sweep.q.val();
        self.init_addr.next = self.sweep_addr.q.val();

        // ---- Take unless the flow had an event in the last HAZARD - 1 cycles.
        self.flow_ok.next =
            bit_cast::<16, F>(self.in_flow.val().get_bits::<F>(0)) == self.in_flow.val();
        self.hazard.next = false;
        for i in 0..(HAZARD - 1) {
            if self.hist_taken[i].q.val() & (self.hist_flow[i].q.val() == self.in_flow.val()) {
                self.hazard.next = true;
            }
        }
        self.s_axis_event_tready.next =
            !self.reset.val() & !self.sweep.q.val() & !self.hazard.val() & self.credit.val();
        self.fire.next = self.s_axis_event_tvalid.val() & self.s_axis_event_tready.val();
        self.issue.next = self.fire.val() & self.flow_ok.val();
        self.hist_flow[0].d.next = self.in_flow.val();
        self.hist_taken[0].d.next = self.issue.val() & !self.reset.val();
        for i in 1..(HAZARD - 1) {
            self.hist_flow[i].d.next = self.hist_flow[i - 1].q.val();
            self.hist_taken[i].d.next = self.hist_taken[i - 1].q.val();
        }
        if self.fire.val() & !self.flow_ok.val() {
            self.bad_count.d.next = self.bad_count.q.val() + 1;
        }
        if self.reset.val() {
            self.bad_count.d.next = 0.into();
        }
        self.stat_bad_flow.next = self.bad_count.q.val();
    }
}
