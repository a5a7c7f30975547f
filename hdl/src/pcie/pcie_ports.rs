//! The UltraScale+ PCIe hard block's four AXI-Stream interfaces (Gen3 x16, 512 bits,
//! DWORD-aligned, straddling off) as port groups, each seen from our side: the shim's, and the
//! NIC top's that links its own to the shim's in one line. A group `m_axis_rq` exports as the
//! ports `m_axis_rq_tdata`, `m_axis_rq_tkeep`, ...: the hard block's names with the direction
//! seen from here (its `s_axis_rq_*` is our `m_axis_rq_*`), so a board top connects them one to
//! one. tkeep has one bit per dword.

use rust_hdl::prelude::*;

/// Requester request (RQ), to the hard block's `s_axis_rq_*` (`sim::layout::PCIE_RQ_DESC` /
/// `PCIE_RQ_USER`).
#[derive(LogicInterface, Default)]
pub struct PcieRqOut {
    pub tdata: Signal<Out, Bits<512>>,
    pub tkeep: Signal<Out, Bits<16>>,
    pub tvalid: Signal<Out, bool>,
    /// The hard block's `s_axis_rq_tready[0]` (its four bits are equal).
    pub tready: Signal<In, bool>,
    pub tlast: Signal<Out, bool>,
    pub tuser: Signal<Out, Bits<137>>,
}

/// Requester completion (RC), from the hard block's `m_axis_rc_*` (`sim::layout::PCIE_RC_DESC`
/// / `PCIE_RC_USER`).
#[derive(LogicInterface, Default)]
pub struct PcieRcIn {
    pub tdata: Signal<In, Bits<512>>,
    pub tkeep: Signal<In, Bits<16>>,
    pub tvalid: Signal<In, bool>,
    /// Always high: completions are never held (the hard block's `m_axis_rc_tready`, all 22
    /// bits from this one).
    pub tready: Signal<Out, bool>,
    pub tlast: Signal<In, bool>,
    pub tuser: Signal<In, Bits<161>>,
}

/// Completer request (CQ), from the hard block's `m_axis_cq_*` (`sim::layout::PCIE_CQ_DESC` /
/// `PCIE_CQ_USER`).
#[derive(LogicInterface, Default)]
pub struct PcieCqIn {
    pub tdata: Signal<In, Bits<512>>,
    pub tkeep: Signal<In, Bits<16>>,
    pub tvalid: Signal<In, bool>,
    /// The hard block's `m_axis_cq_tready` (all 22 bits from this one).
    pub tready: Signal<Out, bool>,
    pub tlast: Signal<In, bool>,
    pub tuser: Signal<In, Bits<183>>,
}

/// Completer completion (CC), to the hard block's `s_axis_cc_*` (`sim::layout::PCIE_CC_DESC` /
/// `PCIE_CC_USER`).
#[derive(LogicInterface, Default)]
pub struct PcieCcOut {
    pub tdata: Signal<Out, Bits<512>>,
    pub tkeep: Signal<Out, Bits<16>>,
    pub tvalid: Signal<Out, bool>,
    /// The hard block's `s_axis_cc_tready[0]`.
    pub tready: Signal<In, bool>,
    pub tlast: Signal<Out, bool>,
    pub tuser: Signal<Out, Bits<81>>,
}
