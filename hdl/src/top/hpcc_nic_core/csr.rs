//! hpcc_nic_core's register map: `sim::csr` (one map for the RTL, the core's cycle model and
//! the test benches), and its completion codes as the RTL names them.

pub use sim::csr::*;

codes! {
    /// Completion status (`m_axis_cpl_tdata`, sim::layout::CPL's `status`).
    CPL_STATUS;
    /// The message completed.
    CPL_OK = sim::csr::CPL_OK,
    /// Retransmission limit reached (`sim::csr::CPL_RETRY_EXCEEDED`).
    CPL_RETRY_EXCEEDED = sim::csr::CPL_RETRY_EXCEEDED,
    /// The responder answered with an error NAK (later).
    CPL_REMOTE_ERROR = sim::csr::CPL_REMOTE_ERROR,
    /// A post from the post port was refused (`sim::csr::CPL_REFUSED`).
    CPL_REFUSED = sim::csr::CPL_REFUSED,
}
