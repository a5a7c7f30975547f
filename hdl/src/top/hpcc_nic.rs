//! The NIC (draft-00 section 7.2, figure 4; docs/modules/hpcc_nic.md): the PCIe shim, the host
//! queue engine, the NIC core and the MAC shim, wired. What a board top instantiates between
//! the UltraScale+ PCIe hard block and the 100G CMAC.
//!
//! ```text
//!  PCIe hard block            hpcc_nic (clock: the hard block's user_clk, 250 MHz)          CMAC
//!  RQ/RC <-> pcie_shim <-> dma_rd_mux / dma_wr_mux <-> 0: hpcc_nic_core <-> mac_shim <-> tx/rx
//!                                                  <-> 1: host_queues -- post --^  |
//!                                                         ^-- completions ---------+
//!  CQ/CC <-> pcie_shim (completer) -> axil_split -> core (bytes 0x000-0x7FF)
//!                                               -> host_queues (0x800-0xBFF)
//!                                               -> nic_stats (0xC00-0xFFF)
//! ```
//!
//! Everything but the CMAC side of the MAC shim is on `clock`. Every completion of the core
//! becomes a completion entry in host memory (host_queues); the core's DMA and the engine's
//! share the shim's read and write engines (requester 0 the core, 1 the engine).

use crate::axil_slave::AxilMaster;
use crate::axis::{AxisBeatsOut, AxisFramesIn, AxisFramesOut, AxisWordOut};
use crate::axil_split::AxilSplit;
use crate::dma_rd_mux::DmaRdMux;
use crate::dma_wr_mux::DmaWrMux;
use crate::host_queues::HostQueues;
use crate::hpcc_nic_core::HpccNicCore;
use crate::mac_shim::MacShim;
use crate::nic_stats::NicStats;
use crate::pcie_ports::{PcieCcOut, PcieCqIn, PcieRcIn, PcieRqOut};
use crate::pcie_shim::PcieShim;
use rust_hdl::prelude::*;

/// The NIC for `2^F` flows; `B`: rx_dma's log2 beats per bank.
#[derive(LogicBlock)]
pub struct HpccNic<const F: usize, const B: usize> {
    /// The hard block's `user_clk` (250 MHz): the core's clock and the shim's.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset on `clock` (the hard block's `user_reset`, or its link down): every
    /// block on `clock`; the core and the engine then clear their per-flow RAMs for 2^F cycles.
    pub reset: Signal<In, bool>,
    /// The hard block's `cfg_max_payload` (0: 128 bytes .. 3: 1024): DMA writes are split at it.
    pub cfg_max_payload: Signal<In, Bits<2>>,
    /// The hard block's `cfg_max_read_req` (0: 128 bytes .. 5: 4096).
    pub cfg_max_read_req: Signal<In, Bits<3>>,
    /// The hard block's four interfaces (`pcie_ports`; ports `m_axis_rq_*`, ...).
    pub m_axis_rq: PcieRqOut,
    pub s_axis_rc: PcieRcIn,
    pub s_axis_cq: PcieCqIn,
    /// The hard block's `pcie_cq_np_req`: always 1.
    pub pcie_cq_np_req: Signal<Out, Bits<2>>,
    pub m_axis_cc: PcieCcOut,
    /// The CMAC's TX user clock (322.266 MHz at 100G) and a synchronous reset on it.
    pub tx_clock: Signal<In, Clock>,
    pub tx_reset: Signal<In, bool>,
    /// To the CMAC's `tx_axis_*` (mac_shim's `m_axis_cmac_tx`).
    pub m_axis_cmac_tx: AxisFramesOut,
    /// The CMAC's RX user clock and a synchronous reset on it.
    pub rx_clock: Signal<In, Clock>,
    pub rx_reset: Signal<In, bool>,
    /// From the CMAC's `rx_axis_*` (tready always high: leave it unconnected).
    pub s_axis_cmac_rx: AxisFramesIn,

    shim: PcieShim,
    split: AxilSplit,
    rd_mux: DmaRdMux,
    wr_mux: DmaWrMux,
    queues: HostQueues<F>,
    core: HpccNicCore<F, B>,
    stats: NicStats,
    mac: MacShim,
}

impl<const F: usize, const B: usize> HpccNic<F, B> {
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_max_payload: Default::default(),
            cfg_max_read_req: Default::default(),
            m_axis_rq: Default::default(),
            s_axis_rc: Default::default(),
            s_axis_cq: Default::default(),
            pcie_cq_np_req: Default::default(),
            m_axis_cc: Default::default(),
            tx_clock: Default::default(),
            tx_reset: Default::default(),
            m_axis_cmac_tx: Default::default(),
            rx_clock: Default::default(),
            rx_reset: Default::default(),
            s_axis_cmac_rx: Default::default(),
            shim: Default::default(),
            split: Default::default(),
            rd_mux: Default::default(),
            wr_mux: Default::default(),
            queues: HostQueues::new(),
            core: HpccNicCore::new(),
            stats: Default::default(),
            mac: Default::default(),
        }
    }
}

impl<const F: usize, const B: usize> Default for HpccNic<F, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const F: usize, const B: usize> Logic for HpccNic<F, B> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, shim, split, rd_mux, wr_mux, queues, core, stats);
        self.shim.reset.next = self.reset.val();
        self.split.reset.next = self.reset.val();
        self.rd_mux.reset.next = self.reset.val();
        self.wr_mux.reset.next = self.reset.val();
        self.queues.reset.next = self.reset.val();
        self.core.reset.next = self.reset.val();
        self.stats.reset.next = self.reset.val();
        self.mac.clock.next = self.clock.val();
        self.mac.reset.next = self.reset.val();
        self.mac.tx_clock.next = self.tx_clock.val();
        self.mac.tx_reset.next = self.tx_reset.val();
        self.mac.rx_clock.next = self.rx_clock.val();
        self.mac.rx_reset.next = self.rx_reset.val();

        // The hard block's side.
        self.shim.cfg_max_payload.next = self.cfg_max_payload.val();
        self.shim.cfg_max_read_req.next = self.cfg_max_read_req.val();
        PcieRqOut::link(&mut self.m_axis_rq, &mut self.shim.m_axis_rq);
        PcieRcIn::link(&mut self.s_axis_rc, &mut self.shim.s_axis_rc);
        PcieCqIn::link(&mut self.s_axis_cq, &mut self.shim.s_axis_cq);
        PcieCcOut::link(&mut self.m_axis_cc, &mut self.shim.m_axis_cc);
        self.pcie_cq_np_req.next = self.shim.pcie_cq_np_req.val();

        // BAR0: the core, the engine, the counters.
        AxilMaster::<12>::join(&mut self.shim.m_axil, &mut self.split.s_axil);
        AxilMaster::<12>::join(&mut self.split.m_axil_core, &mut self.core.s_axil);
        AxilMaster::<12>::join(&mut self.split.m_axil_queues, &mut self.queues.s_axil);
        AxilMaster::<12>::join(&mut self.split.m_axil_stats, &mut self.stats.s_axil);

        // DMA reads: requester 0 the core, 1 the engine.
        AxisWordOut::<128>::join(&mut self.core.m_axis_dma_rd, &mut self.rd_mux.s_axis_req0);
        AxisWordOut::<128>::join(&mut self.queues.m_axis_rd_req, &mut self.rd_mux.s_axis_req1);
        AxisWordOut::<128>::join(&mut self.rd_mux.m_axis_req, &mut self.shim.s_axis_dma_rd);
        AxisBeatsOut::join(&mut self.shim.m_axis_dma_rd_data, &mut self.rd_mux.s_axis_data);
        AxisBeatsOut::join(&mut self.rd_mux.m_axis_data0, &mut self.core.s_axis_dma_rd_data);
        AxisBeatsOut::join(&mut self.rd_mux.m_axis_data1, &mut self.queues.s_axis_rd_data);
        // DMA writes: the same.
        AxisWordOut::<128>::join(&mut self.core.m_axis_dma_wr_cmd, &mut self.wr_mux.s_axis_cmd0);
        AxisBeatsOut::join(&mut self.core.m_axis_dma_wr, &mut self.wr_mux.s_axis_data0);
        AxisWordOut::<128>::join(&mut self.queues.m_axis_wr_cmd, &mut self.wr_mux.s_axis_cmd1);
        AxisBeatsOut::join(&mut self.queues.m_axis_wr, &mut self.wr_mux.s_axis_data1);
        AxisWordOut::<128>::join(&mut self.wr_mux.m_axis_cmd, &mut self.shim.s_axis_dma_wr_cmd);
        AxisBeatsOut::join(&mut self.wr_mux.m_axis_data, &mut self.shim.s_axis_dma_wr);

        // The engine's posts to the core, the core's completions to the engine.
        AxisWordOut::<432>::join(&mut self.queues.m_axis_post, &mut self.core.s_axis_post);
        self.queues.s_axis_cpl.tdata.next = self.core.m_axis_cpl_tdata.val();
        self.queues.s_axis_cpl.tvalid.next = self.core.m_axis_cpl_tvalid.val();
        self.core.m_axis_cpl_tready.next = self.queues.s_axis_cpl.tready.val();

        // Frames through the MAC shim.
        AxisFramesOut::join(&mut self.core.m_axis_tx, &mut self.mac.s_axis_tx);
        AxisFramesOut::join(&mut self.mac.m_axis_rx, &mut self.core.s_axis_rx);
        AxisFramesOut::link(&mut self.m_axis_cmac_tx, &mut self.mac.m_axis_cmac_tx);
        AxisFramesIn::link(&mut self.s_axis_cmac_rx, &mut self.mac.s_axis_cmac_rx);

        // The counters.
        self.stats.stat_rd_requests.next = self.shim.stat_rd_requests.val();
        self.stats.stat_rd_bad_requests.next = self.shim.stat_rd_bad_requests.val();
        self.stats.stat_rd_tlps.next = self.shim.stat_rd_tlps.val();
        self.stats.stat_rd_cpls.next = self.shim.stat_rd_cpls.val();
        self.stats.stat_rd_cpl_errors.next = self.shim.stat_rd_cpl_errors.val();
        self.stats.stat_rd_cpl_unexpected.next = self.shim.stat_rd_cpl_unexpected.val();
        self.stats.stat_wr_writes.next = self.shim.stat_wr_writes.val();
        self.stats.stat_wr_tlps.next = self.shim.stat_wr_tlps.val();
        self.stats.stat_wr_len_errors.next = self.shim.stat_wr_len_errors.val();
        self.stats.stat_axil_writes.next = self.shim.stat_axil_writes.val();
        self.stats.stat_axil_reads.next = self.shim.stat_axil_reads.val();
        self.stats.stat_axil_unsupported.next = self.shim.stat_axil_unsupported.val();
        self.stats.stat_axil_errors.next = self.shim.stat_axil_errors.val();
        self.stats.stat_tx_frames.next = self.mac.stat_tx_frames.val();
        self.stats.stat_tx_bad.next = self.mac.stat_tx_bad.val();
        self.stats.stat_tx_too_long.next = self.mac.stat_tx_too_long.val();
        self.stats.stat_rx_frames.next = self.mac.stat_rx_frames.val();
        self.stats.stat_rx_bad.next = self.mac.stat_rx_bad.val();
        self.stats.stat_rx_overflow.next = self.mac.stat_rx_overflow.val();
    }
}
