//! The hard block has one requester request interface (RQ) and the shim has two engines that
//! send on it: pcie_rd's read TLPs (one beat each) and pcie_wr's write TLPs (one to nine
//! beats). This mux gives RQ to one engine for a whole TLP, from its first beat to its
//! `tlast`, and between TLPs alternates when both wait (round robin), so neither engine can
//! starve the other: a read TLP waits for at most one write TLP.
//!
//! The chosen engine's beat goes to RQ unchanged (combinational, one 2:1 mux level), and RQ's
//! ready goes back to it alone. The choice depends only on registers and the two `tvalid`s, so
//! it is made before RQ's ready is looked at (AXI-Stream: a master may not wait for `tready`).

use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieRqMux {
    /// The hard block's `user_clk`.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no TLP in progress, the read engine first.
    pub reset: Signal<In, bool>,
    /// The read engine's RQ beats (pcie_rd's `m_axis_rq_*`).
    pub s_axis_rd_tdata: Signal<In, Bits<512>>,
    pub s_axis_rd_tkeep: Signal<In, Bits<16>>,
    pub s_axis_rd_tvalid: Signal<In, bool>,
    pub s_axis_rd_tready: Signal<Out, bool>,
    pub s_axis_rd_tlast: Signal<In, bool>,
    pub s_axis_rd_tuser: Signal<In, Bits<137>>,
    /// The write engine's RQ beats (pcie_wr's `m_axis_rq_*`).
    pub s_axis_wr_tdata: Signal<In, Bits<512>>,
    pub s_axis_wr_tkeep: Signal<In, Bits<16>>,
    pub s_axis_wr_tvalid: Signal<In, bool>,
    pub s_axis_wr_tready: Signal<Out, bool>,
    pub s_axis_wr_tlast: Signal<In, bool>,
    pub s_axis_wr_tuser: Signal<In, Bits<137>>,
    /// To the hard block's RQ (`s_axis_rq_*` there): whole TLPs, one engine's at a time.
    pub m_axis_rq_tdata: Signal<Out, Bits<512>>,
    pub m_axis_rq_tkeep: Signal<Out, Bits<16>>,
    pub m_axis_rq_tvalid: Signal<Out, bool>,
    pub m_axis_rq_tready: Signal<In, bool>,
    pub m_axis_rq_tlast: Signal<Out, bool>,
    pub m_axis_rq_tuser: Signal<Out, Bits<137>>,

    /// A TLP's first beat has gone and its last has not: RQ stays with `owner_wr`'s engine.
    busy: DFF<bool>,
    /// The engine the TLP in progress is from (true: the write engine).
    owner_wr: DFF<bool>,
    /// The last TLP was the write engine's: the read engine goes first next time both wait.
    last_wr: DFF<bool>,
    /// This beat's engine.
    pick_wr: Signal<Local, bool>,
}

impl Logic for PcieRqMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy, owner_wr, last_wr);
        self.pick_wr.next = self.s_axis_wr_tvalid.val() && (!self.s_axis_rd_tvalid.val() || !self.last_wr.q.val());
        if self.busy.q.val() {
            self.pick_wr.next = self.owner_wr.q.val();
        }
        self.m_axis_rq_tdata.next = self.s_axis_rd_tdata.val();
        self.m_axis_rq_tkeep.next = self.s_axis_rd_tkeep.val();
        self.m_axis_rq_tvalid.next = self.s_axis_rd_tvalid.val();
        self.m_axis_rq_tlast.next = self.s_axis_rd_tlast.val();
        self.m_axis_rq_tuser.next = self.s_axis_rd_tuser.val();
        if self.pick_wr.val() {
            self.m_axis_rq_tdata.next = self.s_axis_wr_tdata.val();
            self.m_axis_rq_tkeep.next = self.s_axis_wr_tkeep.val();
            self.m_axis_rq_tvalid.next = self.s_axis_wr_tvalid.val();
            self.m_axis_rq_tlast.next = self.s_axis_wr_tlast.val();
            self.m_axis_rq_tuser.next = self.s_axis_wr_tuser.val();
        }
        self.s_axis_rd_tready.next = self.m_axis_rq_tready.val() && !self.pick_wr.val();
        self.s_axis_wr_tready.next = self.m_axis_rq_tready.val() && self.pick_wr.val();
        if self.m_axis_rq_tready.val() && self.m_axis_rq_tvalid.val() {
            self.busy.d.next = !self.m_axis_rq_tlast.val();
            self.owner_wr.d.next = self.pick_wr.val();
            self.last_wr.d.next = self.pick_wr.val();
        }
        if self.reset.val() {
            self.busy.d.next = false;
            self.owner_wr.d.next = false;
            self.last_wr.d.next = false;
        }
    }
}

