//! The PCIe shim (draft-00 figure 4): the core's DMA streams and register port on one side, the
//! UltraScale+ PCIe hard block's four AXI-Stream interfaces (Gen3 x16, 512 bits, 250 MHz,
//! DWORD-aligned, straddling off) on the other. It is its three engines and the RQ mux:
//!
//! - `pcie_rd`: DMA read requests -> read TLPs on RQ; completions from RC, reordered by tag,
//!   -> the read data stream, in request order;
//! - `pcie_wr`: DMA write commands and payloads -> write TLPs on RQ;
//! - `pcie_rq_mux`: the two engines' TLPs onto RQ, whole TLPs, round robin;
//! - `pcie_axil`: BAR0 requests from CQ -> AXI4-Lite accesses of the core's registers, read
//!   completions on CC.
//!
//! Nothing else happens here: the shim adds no latency of its own and no state but the mux's.
//! Port names on the hard block's side are the hard block's with the direction seen from here
//! (its `s_axis_rq_*` is our `m_axis_rq_*`), so a board top connects them one to one
//! (docs/modules/pcie_shim.md).

use crate::axis::{AxisBeatsIn, AxisBeatsOut, AxisWordIn};
use crate::axil_slave::AxilMaster;
use crate::pcie_axil::PcieAxil;
use crate::pcie_ports::{PcieCcOut, PcieCqIn, PcieRcIn, PcieRqOut};
use crate::pcie_rd::PcieRd;
use crate::pcie_rq_mux::PcieRqMux;
use crate::pcie_wr::PcieWr;
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieShim {
    /// The hard block's `user_clk` (250 MHz); everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (the hard block's `user_reset`, or the link down): every engine
    /// forgets what it holds and its counters.
    pub reset: Signal<In, bool>,
    /// The hard block's `cfg_max_payload` (0: 128 bytes .. 3: 1024): write TLPs are split at
    /// its multiples; sampled per write.
    pub cfg_max_payload: Signal<In, Bits<2>>,
    /// The hard block's `cfg_max_read_req` (0: 128 bytes .. 5: 4096): read TLPs are split at
    /// multiples of min(it, 512); sampled per request.
    pub cfg_max_read_req: Signal<In, Bits<3>>,

    /// RQ, to the hard block's `s_axis_rq_*` (`PcieRqOut`).
    pub m_axis_rq: PcieRqOut,
    /// RC, from the hard block's `m_axis_rc_*` (`PcieRcIn`; tready always high).
    pub s_axis_rc: PcieRcIn,
    /// CQ, from the hard block's `m_axis_cq_*` (`PcieCqIn`).
    pub s_axis_cq: PcieCqIn,
    /// The hard block's `pcie_cq_np_req`: always 1 (non-posted requests may come).
    pub pcie_cq_np_req: Signal<Out, Bits<2>>,
    /// CC, to the hard block's `s_axis_cc_*` (`PcieCcOut`).
    pub m_axis_cc: PcieCcOut,

    /// The core's DMA read requests (`sim::layout::DMA_RD`: address, length 1..16383, flow).
    pub s_axis_dma_rd: AxisWordIn<128>,
    /// Their data, one packet per request in request order, lane-0 aligned.
    pub m_axis_dma_rd_data: AxisBeatsOut,
    /// The core's DMA write commands (`sim::layout::DMA_WR`: address, length 1..9216, flow).
    pub s_axis_dma_wr_cmd: AxisWordIn<128>,
    /// Their payloads, one packet per command, lane-0 aligned.
    pub s_axis_dma_wr: AxisBeatsIn,
    /// AXI4-Lite master to the core's register port (`AxilMaster`, ports `m_axil_*`; 4 KiB of
    /// byte addresses).
    pub m_axil: AxilMaster<12>,

    /// pcie_rd's counters (docs/modules/pcie_rd.md): requests taken, requests of length 0,
    /// read TLPs, completions, error completions, unexpected completions (each wraps).
    pub stat_rd_requests: Signal<Out, Bits<32>>,
    pub stat_rd_bad_requests: Signal<Out, Bits<32>>,
    pub stat_rd_tlps: Signal<Out, Bits<32>>,
    pub stat_rd_cpls: Signal<Out, Bits<32>>,
    pub stat_rd_cpl_errors: Signal<Out, Bits<32>>,
    pub stat_rd_cpl_unexpected: Signal<Out, Bits<32>>,
    /// pcie_wr's: writes sent, write TLPs, writes dropped for their length.
    pub stat_wr_writes: Signal<Out, Bits<32>>,
    pub stat_wr_tlps: Signal<Out, Bits<32>>,
    pub stat_wr_len_errors: Signal<Out, Bits<32>>,
    /// pcie_axil's: register writes and reads, requests not served, AXI4-Lite errors.
    pub stat_axil_writes: Signal<Out, Bits<32>>,
    pub stat_axil_reads: Signal<Out, Bits<32>>,
    pub stat_axil_unsupported: Signal<Out, Bits<32>>,
    pub stat_axil_errors: Signal<Out, Bits<32>>,

    rd: PcieRd,
    wr: PcieWr,
    mux: PcieRqMux,
    axil: PcieAxil,
}

impl Logic for PcieShim {
    #[hdl_gen]
    fn update(&mut self) {
        self.rd.clock.next = self.clock.val();
        self.wr.clock.next = self.clock.val();
        self.mux.clock.next = self.clock.val();
        self.axil.clock.next = self.clock.val();
        self.rd.reset.next = self.reset.val();
        self.wr.reset.next = self.reset.val();
        self.mux.reset.next = self.reset.val();
        self.axil.reset.next = self.reset.val();
        self.rd.cfg_max_read_req.next = self.cfg_max_read_req.val();
        self.wr.cfg_max_payload.next = self.cfg_max_payload.val();

        // The core's side.
        self.rd.s_axis_req_tdata.next = self.s_axis_dma_rd.tdata.val();
        self.rd.s_axis_req_tvalid.next = self.s_axis_dma_rd.tvalid.val();
        self.s_axis_dma_rd.tready.next = self.rd.s_axis_req_tready.val();
        self.m_axis_dma_rd_data.tdata.next = self.rd.m_axis_data_tdata.val();
        self.m_axis_dma_rd_data.tkeep.next = self.rd.m_axis_data_tkeep.val();
        self.m_axis_dma_rd_data.tvalid.next = self.rd.m_axis_data_tvalid.val();
        self.m_axis_dma_rd_data.tlast.next = self.rd.m_axis_data_tlast.val();
        self.rd.m_axis_data_tready.next = self.m_axis_dma_rd_data.tready.val();
        self.wr.s_axis_cmd_tdata.next = self.s_axis_dma_wr_cmd.tdata.val();
        self.wr.s_axis_cmd_tvalid.next = self.s_axis_dma_wr_cmd.tvalid.val();
        self.s_axis_dma_wr_cmd.tready.next = self.wr.s_axis_cmd_tready.val();
        self.wr.s_axis_data_tdata.next = self.s_axis_dma_wr.tdata.val();
        self.wr.s_axis_data_tkeep.next = self.s_axis_dma_wr.tkeep.val();
        self.wr.s_axis_data_tvalid.next = self.s_axis_dma_wr.tvalid.val();
        self.wr.s_axis_data_tlast.next = self.s_axis_dma_wr.tlast.val();
        self.s_axis_dma_wr.tready.next = self.wr.s_axis_data_tready.val();

        // RQ: both engines through the mux.
        self.mux.s_axis_rd_tdata.next = self.rd.m_axis_rq_tdata.val();
        self.mux.s_axis_rd_tkeep.next = self.rd.m_axis_rq_tkeep.val();
        self.mux.s_axis_rd_tvalid.next = self.rd.m_axis_rq_tvalid.val();
        self.mux.s_axis_rd_tlast.next = self.rd.m_axis_rq_tlast.val();
        self.mux.s_axis_rd_tuser.next = self.rd.m_axis_rq_tuser.val();
        self.rd.m_axis_rq_tready.next = self.mux.s_axis_rd_tready.val();
        self.mux.s_axis_wr_tdata.next = self.wr.m_axis_rq_tdata.val();
        self.mux.s_axis_wr_tkeep.next = self.wr.m_axis_rq_tkeep.val();
        self.mux.s_axis_wr_tvalid.next = self.wr.m_axis_rq_tvalid.val();
        self.mux.s_axis_wr_tlast.next = self.wr.m_axis_rq_tlast.val();
        self.mux.s_axis_wr_tuser.next = self.wr.m_axis_rq_tuser.val();
        self.wr.m_axis_rq_tready.next = self.mux.s_axis_wr_tready.val();
        self.m_axis_rq.tdata.next = self.mux.m_axis_rq_tdata.val();
        self.m_axis_rq.tkeep.next = self.mux.m_axis_rq_tkeep.val();
        self.m_axis_rq.tvalid.next = self.mux.m_axis_rq_tvalid.val();
        self.m_axis_rq.tlast.next = self.mux.m_axis_rq_tlast.val();
        self.m_axis_rq.tuser.next = self.mux.m_axis_rq_tuser.val();
        self.mux.m_axis_rq_tready.next = self.m_axis_rq.tready.val();

        // RC.
        self.rd.s_axis_rc_tdata.next = self.s_axis_rc.tdata.val();
        self.rd.s_axis_rc_tkeep.next = self.s_axis_rc.tkeep.val();
        self.rd.s_axis_rc_tvalid.next = self.s_axis_rc.tvalid.val();
        self.rd.s_axis_rc_tlast.next = self.s_axis_rc.tlast.val();
        self.rd.s_axis_rc_tuser.next = self.s_axis_rc.tuser.val();
        self.s_axis_rc.tready.next = self.rd.s_axis_rc_tready.val();

        // CQ, CC and the register port.
        self.axil.s_axis_cq_tdata.next = self.s_axis_cq.tdata.val();
        self.axil.s_axis_cq_tkeep.next = self.s_axis_cq.tkeep.val();
        self.axil.s_axis_cq_tvalid.next = self.s_axis_cq.tvalid.val();
        self.axil.s_axis_cq_tlast.next = self.s_axis_cq.tlast.val();
        self.axil.s_axis_cq_tuser.next = self.s_axis_cq.tuser.val();
        self.s_axis_cq.tready.next = self.axil.s_axis_cq_tready.val();
        self.pcie_cq_np_req.next = self.axil.pcie_cq_np_req.val();
        self.m_axis_cc.tdata.next = self.axil.m_axis_cc_tdata.val();
        self.m_axis_cc.tkeep.next = self.axil.m_axis_cc_tkeep.val();
        self.m_axis_cc.tvalid.next = self.axil.m_axis_cc_tvalid.val();
        self.m_axis_cc.tlast.next = self.axil.m_axis_cc_tlast.val();
        self.m_axis_cc.tuser.next = self.axil.m_axis_cc_tuser.val();
        self.axil.m_axis_cc_tready.next = self.m_axis_cc.tready.val();
        self.m_axil.awaddr.next = self.axil.m_axil_awaddr.val();
        self.m_axil.awvalid.next = self.axil.m_axil_awvalid.val();
        self.axil.m_axil_awready.next = self.m_axil.awready.val();
        self.m_axil.wdata.next = self.axil.m_axil_wdata.val();
        self.m_axil.wstrb.next = self.axil.m_axil_wstrb.val();
        self.m_axil.wvalid.next = self.axil.m_axil_wvalid.val();
        self.axil.m_axil_wready.next = self.m_axil.wready.val();
        self.axil.m_axil_bresp.next = self.m_axil.bresp.val();
        self.axil.m_axil_bvalid.next = self.m_axil.bvalid.val();
        self.m_axil.bready.next = self.axil.m_axil_bready.val();
        self.m_axil.araddr.next = self.axil.m_axil_araddr.val();
        self.m_axil.arvalid.next = self.axil.m_axil_arvalid.val();
        self.axil.m_axil_arready.next = self.m_axil.arready.val();
        self.axil.m_axil_rdata.next = self.m_axil.rdata.val();
        self.axil.m_axil_rresp.next = self.m_axil.rresp.val();
        self.axil.m_axil_rvalid.next = self.m_axil.rvalid.val();
        self.m_axil.rready.next = self.axil.m_axil_rready.val();

        self.stat_rd_requests.next = self.rd.stat_requests.val();
        self.stat_rd_bad_requests.next = self.rd.stat_bad_requests.val();
        self.stat_rd_tlps.next = self.rd.stat_tlps.val();
        self.stat_rd_cpls.next = self.rd.stat_cpls.val();
        self.stat_rd_cpl_errors.next = self.rd.stat_cpl_errors.val();
        self.stat_rd_cpl_unexpected.next = self.rd.stat_cpl_unexpected.val();
        self.stat_wr_writes.next = self.wr.stat_writes.val();
        self.stat_wr_tlps.next = self.wr.stat_tlps.val();
        self.stat_wr_len_errors.next = self.wr.stat_len_errors.val();
        self.stat_axil_writes.next = self.axil.stat_writes.val();
        self.stat_axil_reads.next = self.axil.stat_reads.val();
        self.stat_axil_unsupported.next = self.axil.stat_unsupported.val();
        self.stat_axil_errors.next = self.axil.stat_axil_errors.val();
    }
}
