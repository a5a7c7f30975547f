//! The PCIe shim (draft-00 figure 4, "PCIe shim"; issue 16, item 2): between the core's DMA
//! streams and the UltraScale+ PCIe hard block's AXI-Stream user interface (Gen3 x16, 512
//! bits, 250 MHz, DWORD-aligned, straddling off). `pcie_rd` is its DMA read engine: read
//! requests on RQ, completions from RC reordered by tag; `pcie_rd_rc` is that engine's
//! completion intake. `pcie_wr` is its DMA write engine (memory writes on RQ), with
//! `pcie_wr_tlp`, the next TLP of a write. `pcie_axil` is its completer: BAR0 accesses (CQ)
//! to the core's AXI4-Lite registers, read data back on CC. `pcie_be`: a request's dword
//! count and byte enables, for both engines. `pcie_rq_mux` puts both engines' TLPs on RQ, whole
//! TLPs, round robin; `pcie_ports` names the hard block's four interfaces as port groups; `pcie_shim` is the shim itself: the three engines and the mux, with the
//! hard block's port names.

pub mod pcie_axil;
pub mod pcie_be;
pub mod pcie_rd;
pub mod pcie_rd_rc;
pub mod pcie_ports;
pub mod pcie_rq_mux;
pub mod pcie_shim;
pub mod pcie_wr;
pub mod pcie_wr_tlp;
