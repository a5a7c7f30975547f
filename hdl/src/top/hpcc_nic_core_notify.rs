//! The Notify stage, a block of hpcc_nic_core (docs/modules/hpcc_nic_core.md): rx_ctx counts
//! the packets a flow's ACK acknowledges, flow_sched wants bytes, so each notify's count is
//! shifted left by the flow's log2 MTU (flow_sched's packet size for the flow). Both words
//! are `sim::layout::NOTIFY`.
//!
//! One register between the streams. The per-flow log2 MTU is a copy of the flow table's
//! field, written with it; the RAM reads the flow as the register takes it and keeps
//! reading it while the register holds, so the shift has its MTU the cycle after.

use crate::layout::NotifyFields;
use rust_hdl::prelude::*;

/// The Notify stage for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreNotify<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the register empty (the MTU copy is cleared by the core's sweep).
    pub reset: Signal<In, bool>,
    /// Notifies from nic_datapath (packets acknowledged).
    pub s_axis_notify_tdata: Signal<In, Bits<48>>,
    /// A notify is offered.
    pub s_axis_notify_tvalid: Signal<In, bool>,
    /// The register takes it.
    pub s_axis_notify_tready: Signal<Out, bool>,
    /// Notifies to flow_sched (bytes acknowledged).
    pub m_axis_notify_tdata: Signal<Out, Bits<48>>,
    /// The register holds a notify.
    pub m_axis_notify_tvalid: Signal<Out, bool>,
    /// flow_sched takes it.
    pub m_axis_notify_tready: Signal<In, bool>,
    /// The flow table's write (hpcc_nic_core_tracker's): write flow `mtu_flow`'s log2 MTU.
    pub mtu_we: Signal<In, bool>,
    /// The flow.
    pub mtu_flow: Signal<In, Bits<F>>,
    /// Its log2 MTU (the entry's `mtu_log`).
    pub mtu_log: Signal<In, Bits<4>>,
    /// The core clears its per-flow tables after reset: this cycle, flow `sweep_addr`.
    pub sweep: Signal<In, bool>,
    /// The flow cleared.
    pub sweep_addr: Signal<In, Bits<F>>,
    /// Per flow: log2 MTU.
    shifts: RAM<Bits<4>, F>,
    nt_valid: DFF<bool>,
    nt_flow: DFF<Bits<16>>,
    nt_pkts: DFF<Bits<32>>,
    take: Signal<Local, bool>,
    in_flow: Signal<Local, Bits<16>>,
    bytes: Signal<Local, Bits<32>>,
}

impl<const F: usize> Logic for HpccNicCoreNotify<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, nt_valid, nt_flow, nt_pkts);
        self.shifts.read_clock.next = self.clock.val();
        self.shifts.write_clock.next = self.clock.val();
        self.s_axis_notify_tready.next = !self.nt_valid.q.val() | self.m_axis_notify_tready.val();
        self.take.next = self.s_axis_notify_tvalid.val() & self.s_axis_notify_tready.val();
        self.in_flow.next = self.s_axis_notify_tdata.val().get_value_flow();
        self.shifts.read_address.next = self.nt_flow.q.val().get_bits::<F>(0);
        if self.take.val() {
            self.shifts.read_address.next = self.in_flow.val().get_bits::<F>(0);
            self.nt_valid.d.next = true;
            self.nt_flow.d.next = self.in_flow.val();
            self.nt_pkts.d.next = self.s_axis_notify_tdata.val().get_value_bytes();
        } else if self.m_axis_notify_tready.val() {
            self.nt_valid.d.next = false;
        }
        self.m_axis_notify_tvalid.next = self.nt_valid.q.val();
        self.bytes.next = self.nt_pkts.q.val() << self.shifts.read_data.val();
        self.m_axis_notify_tdata.next = 0.into();
        self.m_axis_notify_tdata.next.set_value_bytes(self.bytes.val());
        self.m_axis_notify_tdata.next.set_value_flow(self.nt_flow.q.val());
        // The MTU copy: the flow table's write, or the sweep's.
        self.shifts.write_enable.next = self.mtu_we.val();
        self.shifts.write_address.next = self.mtu_flow.val();
        self.shifts.write_data.next = self.mtu_log.val();
        if self.sweep.val() {
            self.shifts.write_enable.next = true;
            self.shifts.write_address.next = self.sweep_addr.val();
            self.shifts.write_data.next = 0.into();
        }
        if self.reset.val() {
            self.nt_valid.d.next = false;
        }
    }
}
