//! The input side shared by the CC datapaths whose per-flow loop is long (cc_ldcp, cc_dcqcn):
//! the reset-time sweep over every flow, the drop and count of flow ids out of range, and
//! flow_park, which issues a flow's events at least D + 1 cycles apart while other flows'
//! events pass one that waits. The datapath takes `issue_data` whenever `issue` is high.

use crate::flow_park::FlowPark;
use rust_hdl::prelude::*;

/// flow_park slots: events waiting for their flow's window while others pass.
pub const PARK_SLOTS: usize = 8;

/// For 2^F flows and a D-cycle read-modify-write window (flow_park's D).
#[derive(LogicBlock, Default)]
pub struct CcIntake<const F: usize, const D: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the park, clears `stat_bad_flow` and starts the sweep.
    pub reset: Signal<In, bool>,
    /// The datapath's event input: `[15:0]` flow, the rest the datapath's.
    pub s_axis_event_tdata: Signal<In, Bits<128>>,
    /// Event valid.
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// Event ready: low during reset and the sweep, while the flow already has two events in
    /// the park (one waiting, one chained), and while all `PARK_SLOTS` slots are taken. Events
    /// with a bad flow id are always taken (and dropped).
    pub s_axis_event_tready: Signal<Out, bool>,
    /// The datapath can take an event (a result slot is free).
    pub credit: Signal<In, bool>,
    /// The sweep runs: the datapath writes its initial state at `init_addr`.
    pub init_busy: Signal<Out, bool>,
    /// The flow the sweep is at.
    pub init_addr: Signal<Out, Bits<F>>,
    /// An event is issued to the datapath this cycle.
    pub issue: Signal<Out, bool>,
    /// The issued event.
    pub issue_data: Signal<Out, Bits<128>>,
    /// Events dropped for a flow id >= 2^F (since reset).
    pub stat_bad_flow: Signal<Out, Bits<32>>,
    park: FlowPark<16, 128, PARK_SLOTS, D>,
    sweep: DFF<bool>,
    sweep_addr: DFF<Bits<F>>,
    bad_count: DFF<Bits<32>>,
    in_flow: Signal<Local, Bits<16>>,
    in_flow_ok: Signal<Local, bool>,
    fire: Signal<Local, bool>,
}

impl<const F: usize, const D: usize> Logic for CcIntake<F, D> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sweep, sweep_addr, bad_count);
        clock!(self, clock, park);
        self.park.reset.next = self.reset.val();

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

        // ---- Input: into flow_park (bad flow ids are taken and counted, never parked).
        self.in_flow.next = self.s_axis_event_tdata.val().get_bits::<16>(0);
        self.in_flow_ok.next =
            bit_cast::<16, F>(self.in_flow.val().get_bits::<F>(0)) == self.in_flow.val();
        self.park.s_axis_tdata.next = self.s_axis_event_tdata.val();
        self.park.in_drop.next = !self.in_flow_ok.val();
        self.park.s_axis_tvalid.next =
            self.s_axis_event_tvalid.val() & !self.reset.val() & !self.sweep.q.val();
        self.s_axis_event_tready.next =
            self.park.s_axis_tready.val() & !self.reset.val() & !self.sweep.q.val();
        self.fire.next = self.s_axis_event_tvalid.val() & self.s_axis_event_tready.val();
        if self.fire.val() & !self.in_flow_ok.val() {
            self.bad_count.d.next = self.bad_count.q.val() + 1;
        }
        if self.reset.val() {
            self.bad_count.d.next = 0.into();
        }
        self.stat_bad_flow.next = self.bad_count.q.val();

        // ---- Issue from the park while the datapath has credit.
        self.park.m_ready.next = !self.reset.val() & !self.sweep.q.val() & self.credit.val();
        self.issue.next = self.park.m_valid.val() & self.park.m_ready.val();
        self.issue_data.next = self.park.m_data.val();
    }
}
