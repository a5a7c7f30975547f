//! Two DMA writers on one write engine (pcie_wr): writer 0 is the core (rx_dma's payloads),
//! writer 1 the host queue engine (completion entries). pcie_wr pairs commands and payloads
//! by order, so a write's command and its payload must both come from the same writer: the
//! mux gives the write engine to one writer for one whole write, its command and its payload
//! packet (to `tlast`), in whichever order they come, and alternates between writers when both
//! wait (round robin). A writer is chosen when its command or its payload's first beat is
//! offered, so neither order of the two can hold the mux.
//!
//! The choice is combinational (a writer offering on a cycle with the mux free goes through on
//! that cycle), so back-to-back writes of one writer lose no cycle.

use crate::axis::{AxisBeatsIn, AxisBeatsOut, AxisWordIn, AxisWordOut};
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct DmaWrMux {
    /// The 250 MHz clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no write in progress.
    pub reset: Signal<In, bool>,
    /// The core's write commands (`sim::layout::DMA_WR`) and payloads.
    pub s_axis_cmd0: AxisWordIn<128>,
    pub s_axis_data0: AxisBeatsIn,
    /// The host queue engine's.
    pub s_axis_cmd1: AxisWordIn<128>,
    pub s_axis_data1: AxisBeatsIn,
    /// To the write engine.
    pub m_axis_cmd: AxisWordOut<128>,
    pub m_axis_data: AxisBeatsOut,

    /// A write is in progress (its command or part of its payload has gone, not both).
    busy: DFF<bool>,
    /// Its writer (true: the queue engine).
    owner1: DFF<bool>,
    /// Its command has gone; its payload's last beat has gone.
    cmd_done: DFF<bool>,
    data_done: DFF<bool>,
    /// The last write was the queue engine's.
    last1: DFF<bool>,
    want0: Signal<Local, bool>,
    want1: Signal<Local, bool>,
    own1: Signal<Local, bool>,
    active: Signal<Local, bool>,
    c_done: Signal<Local, bool>,
    d_done: Signal<Local, bool>,
    cmd_fire: Signal<Local, bool>,
    last_fire: Signal<Local, bool>,
}

impl Logic for DmaWrMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, owner1, cmd_done, data_done, last1);
        // ---- The writer: the one in progress, else a waiting one (round robin).
        self.want0.next = self.s_axis_cmd0.tvalid.val() | self.s_axis_data0.tvalid.val();
        self.want1.next = self.s_axis_cmd1.tvalid.val() | self.s_axis_data1.tvalid.val();
        self.own1.next = self.want1.val() & (!self.want0.val() | !self.last1.q.val());
        self.c_done.next = false;
        self.d_done.next = false;
        if self.busy.q.val() {
            self.own1.next = self.owner1.q.val();
            self.c_done.next = self.cmd_done.q.val();
            self.d_done.next = self.data_done.q.val();
        }
        self.active.next = self.busy.q.val() | self.want0.val() | self.want1.val();
        // ---- Its command and payload, each until it has gone.
        self.m_axis_cmd.tdata.next = self.s_axis_cmd0.tdata.val();
        self.m_axis_cmd.tvalid.next = self.active.val() & !self.c_done.val() & self.s_axis_cmd0.tvalid.val();
        self.m_axis_data.tdata.next = self.s_axis_data0.tdata.val();
        self.m_axis_data.tkeep.next = self.s_axis_data0.tkeep.val();
        self.m_axis_data.tlast.next = self.s_axis_data0.tlast.val();
        self.m_axis_data.tvalid.next = self.active.val() & !self.d_done.val() & self.s_axis_data0.tvalid.val();
        if self.own1.val() {
            self.m_axis_cmd.tdata.next = self.s_axis_cmd1.tdata.val();
            self.m_axis_cmd.tvalid.next = self.active.val() & !self.c_done.val() & self.s_axis_cmd1.tvalid.val();
            self.m_axis_data.tdata.next = self.s_axis_data1.tdata.val();
            self.m_axis_data.tkeep.next = self.s_axis_data1.tkeep.val();
            self.m_axis_data.tlast.next = self.s_axis_data1.tlast.val();
            self.m_axis_data.tvalid.next = self.active.val() & !self.d_done.val() & self.s_axis_data1.tvalid.val();
        }
        self.s_axis_cmd0.tready.next = self.m_axis_cmd.tready.val() & self.active.val() & !self.c_done.val() & !self.own1.val();
        self.s_axis_cmd1.tready.next = self.m_axis_cmd.tready.val() & self.active.val() & !self.c_done.val() & self.own1.val();
        self.s_axis_data0.tready.next = self.m_axis_data.tready.val() & self.active.val() & !self.d_done.val() & !self.own1.val();
        self.s_axis_data1.tready.next = self.m_axis_data.tready.val() & self.active.val() & !self.d_done.val() & self.own1.val();
        // ---- The write ends when both have gone.
        self.cmd_fire.next = self.m_axis_cmd.tvalid.val() & self.m_axis_cmd.tready.val();
        self.last_fire.next = self.m_axis_data.tvalid.val() & self.m_axis_data.tready.val() & self.m_axis_data.tlast.val();
        if self.active.val() {
            self.owner1.d.next = self.own1.val();
            self.cmd_done.d.next = self.c_done.val() | self.cmd_fire.val();
            self.data_done.d.next = self.d_done.val() | self.last_fire.val();
            self.busy.d.next = true;
            if (self.c_done.val() | self.cmd_fire.val()) & (self.d_done.val() | self.last_fire.val()) {
                self.busy.d.next = false;
                self.last1.d.next = self.own1.val();
            }
        }
        if self.reset.val() {
            self.busy.d.next = false;
            self.last1.d.next = false;
        }
    }
}
