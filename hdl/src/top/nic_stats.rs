//! The NIC's counters as registers (docs/modules/hpcc_nic.md#counters): BAR0 words
//! `csr::NIC_STAT_*` (0x300 on), read-only, the PCIe shim's thirteen and the MAC shim's six,
//! all already on the core's clock. A write anywhere, or a read of a word past the last
//! counter, is answered SLVERR.

use crate::axil_slave::{AxilPort, AxilSlave};
use rust_hdl::prelude::*;
use sim::csr;

codes! {
    /// The counters' word addresses (csr.rs `NIC_STAT_*`), as the read mux uses them.
    NIC_STAT_ADDRS: usize;
    NS_RD_REQUESTS = csr::NIC_STAT_RD_REQUESTS,
    NS_RD_BAD_REQUESTS = csr::NIC_STAT_RD_BAD_REQUESTS,
    NS_RD_TLPS = csr::NIC_STAT_RD_TLPS,
    NS_RD_CPLS = csr::NIC_STAT_RD_CPLS,
    NS_RD_CPL_ERRORS = csr::NIC_STAT_RD_CPL_ERRORS,
    NS_RD_CPL_UNEXPECTED = csr::NIC_STAT_RD_CPL_UNEXPECTED,
    NS_WR_WRITES = csr::NIC_STAT_WR_WRITES,
    NS_WR_TLPS = csr::NIC_STAT_WR_TLPS,
    NS_WR_LEN_ERRORS = csr::NIC_STAT_WR_LEN_ERRORS,
    NS_AXIL_WRITES = csr::NIC_STAT_AXIL_WRITES,
    NS_AXIL_READS = csr::NIC_STAT_AXIL_READS,
    NS_AXIL_UNSUPPORTED = csr::NIC_STAT_AXIL_UNSUPPORTED,
    NS_AXIL_ERRORS = csr::NIC_STAT_AXIL_ERRORS,
    NS_MAC_TX_FRAMES = csr::NIC_STAT_MAC_TX_FRAMES,
    NS_MAC_TX_BAD = csr::NIC_STAT_MAC_TX_BAD,
    NS_MAC_TX_TOO_LONG = csr::NIC_STAT_MAC_TX_TOO_LONG,
    NS_MAC_RX_FRAMES = csr::NIC_STAT_MAC_RX_FRAMES,
    NS_MAC_RX_BAD = csr::NIC_STAT_MAC_RX_BAD,
    NS_MAC_RX_OVERFLOW = csr::NIC_STAT_MAC_RX_OVERFLOW,
}

/// See the module doc. The inputs are pcie_shim's and mac_shim's `stat_*` ports of the same
/// names.
#[derive(LogicBlock, Default)]
pub struct NicStats {
    /// The 250 MHz clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no response owed.
    pub reset: Signal<In, bool>,
    /// The register port (byte addresses; the counters at words 0x300-0x312).
    pub s_axil: AxilPort<12>,
    pub stat_rd_requests: Signal<In, Bits<32>>,
    pub stat_rd_bad_requests: Signal<In, Bits<32>>,
    pub stat_rd_tlps: Signal<In, Bits<32>>,
    pub stat_rd_cpls: Signal<In, Bits<32>>,
    pub stat_rd_cpl_errors: Signal<In, Bits<32>>,
    pub stat_rd_cpl_unexpected: Signal<In, Bits<32>>,
    pub stat_wr_writes: Signal<In, Bits<32>>,
    pub stat_wr_tlps: Signal<In, Bits<32>>,
    pub stat_wr_len_errors: Signal<In, Bits<32>>,
    pub stat_axil_writes: Signal<In, Bits<32>>,
    pub stat_axil_reads: Signal<In, Bits<32>>,
    pub stat_axil_unsupported: Signal<In, Bits<32>>,
    pub stat_axil_errors: Signal<In, Bits<32>>,
    pub stat_tx_frames: Signal<In, Bits<32>>,
    pub stat_tx_bad: Signal<In, Bits<32>>,
    pub stat_tx_too_long: Signal<In, Bits<32>>,
    pub stat_rx_frames: Signal<In, Bits<32>>,
    pub stat_rx_bad: Signal<In, Bits<32>>,
    pub stat_rx_overflow: Signal<In, Bits<32>>,
    axil: AxilSlave<12>,
}

impl Logic for NicStats {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, axil);
        self.axil.reset.next = self.reset.val();
        AxilPort::<12>::link(&mut self.s_axil, &mut self.axil.s_axil);
        // Read-only: every write is refused.
        self.axil.wr_err.next = true;
        self.axil.rd_err.next = false;
        self.axil.rd_data.next = 0.into();
        match self.axil.rd_addr.val().index() {
            NS_RD_REQUESTS => self.axil.rd_data.next = self.stat_rd_requests.val(),
            NS_RD_BAD_REQUESTS => self.axil.rd_data.next = self.stat_rd_bad_requests.val(),
            NS_RD_TLPS => self.axil.rd_data.next = self.stat_rd_tlps.val(),
            NS_RD_CPLS => self.axil.rd_data.next = self.stat_rd_cpls.val(),
            NS_RD_CPL_ERRORS => self.axil.rd_data.next = self.stat_rd_cpl_errors.val(),
            NS_RD_CPL_UNEXPECTED => self.axil.rd_data.next = self.stat_rd_cpl_unexpected.val(),
            NS_WR_WRITES => self.axil.rd_data.next = self.stat_wr_writes.val(),
            NS_WR_TLPS => self.axil.rd_data.next = self.stat_wr_tlps.val(),
            NS_WR_LEN_ERRORS => self.axil.rd_data.next = self.stat_wr_len_errors.val(),
            NS_AXIL_WRITES => self.axil.rd_data.next = self.stat_axil_writes.val(),
            NS_AXIL_READS => self.axil.rd_data.next = self.stat_axil_reads.val(),
            NS_AXIL_UNSUPPORTED => self.axil.rd_data.next = self.stat_axil_unsupported.val(),
            NS_AXIL_ERRORS => self.axil.rd_data.next = self.stat_axil_errors.val(),
            NS_MAC_TX_FRAMES => self.axil.rd_data.next = self.stat_tx_frames.val(),
            NS_MAC_TX_BAD => self.axil.rd_data.next = self.stat_tx_bad.val(),
            NS_MAC_TX_TOO_LONG => self.axil.rd_data.next = self.stat_tx_too_long.val(),
            NS_MAC_RX_FRAMES => self.axil.rd_data.next = self.stat_rx_frames.val(),
            NS_MAC_RX_BAD => self.axil.rd_data.next = self.stat_rx_bad.val(),
            NS_MAC_RX_OVERFLOW => self.axil.rd_data.next = self.stat_rx_overflow.val(),
            _ => self.axil.rd_err.next = true,
        }
    }
}
