//! The PCIe shim's completer: the host's BAR0 accesses, as memory requests on the hard block's
//! completer request interface (CQ), become AXI4-Lite reads and writes of the core's registers;
//! a read's data goes back as a completion on the completer completion interface (CC). Golden
//! model `sim::pcie_axil` (docs/modules/pcie_axil.md).
//!
//! One request at a time (register accesses are a driver's, one or a few per message): CQ is
//! ready only while nothing is in progress. A one-dword memory write to BAR0 is one AXI4-Lite
//! write (its byte enables the strobes; the response is awaited and its errors counted); a
//! one-dword memory read is one AXI4-Lite read and a completion with its data (status
//! successful; an AXI4-Lite error is counted and answered as a completer abort). Anything else
//! (longer requests, other BARs, I/O, atomics) is not served: a non-posted one is answered
//! with an unsupported request completion, a posted one dropped; both are counted.
//! The BAR is 4 KiB: the register offset is the address's low 12 bits.

use crate::layout::{PcieCcDescNamed, PcieCcUserNamed, PcieCqDescNamed, PcieCqUserNamed};
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieAxil {
    /// The hard block's `user_clk` (250 MHz).
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forgets the request in progress and the counters.
    pub reset: Signal<In, bool>,
    /// CQ beat: the request's descriptor (`sim::layout::PCIE_CQ_DESC`) in dwords 0-3, a
    /// write's data from dword 4.
    pub s_axis_cq_tdata: Signal<In, Bits<512>>,
    /// Not used (the descriptor's dword count).
    pub s_axis_cq_tkeep: Signal<In, Bits<16>>,
    pub s_axis_cq_tvalid: Signal<In, bool>,
    /// High while no request is in progress (and through a request's later beats).
    pub s_axis_cq_tready: Signal<Out, bool>,
    pub s_axis_cq_tlast: Signal<In, bool>,
    /// `sim::layout::PCIE_CQ_USER`: the first dword byte enables and discontinue are used.
    pub s_axis_cq_tuser: Signal<In, Bits<183>>,
    /// Always 1: the hard block may hand over non-posted requests (`pcie_cq_np_req`).
    pub pcie_cq_np_req: Signal<Out, Bits<2>>,
    /// CC beat: the completion's descriptor (`sim::layout::PCIE_CC_DESC`) in dwords 0-2, a
    /// read's data in dword 3.
    pub m_axis_cc_tdata: Signal<Out, Bits<512>>,
    pub m_axis_cc_tkeep: Signal<Out, Bits<16>>,
    pub m_axis_cc_tvalid: Signal<Out, bool>,
    pub m_axis_cc_tready: Signal<In, bool>,
    /// Always 1: a completion is one beat.
    pub m_axis_cc_tlast: Signal<Out, bool>,
    /// `sim::layout::PCIE_CC_USER`: is_sop, is_eop and its pointer.
    pub m_axis_cc_tuser: Signal<Out, Bits<81>>,
    /// AXI4-Lite master to the core's register port (byte addresses, 4 KiB).
    pub m_axil_awaddr: Signal<Out, Bits<12>>,
    pub m_axil_awvalid: Signal<Out, bool>,
    pub m_axil_awready: Signal<In, bool>,
    pub m_axil_wdata: Signal<Out, Bits<32>>,
    pub m_axil_wstrb: Signal<Out, Bits<4>>,
    pub m_axil_wvalid: Signal<Out, bool>,
    pub m_axil_wready: Signal<In, bool>,
    pub m_axil_bresp: Signal<In, Bits<2>>,
    pub m_axil_bvalid: Signal<In, bool>,
    pub m_axil_bready: Signal<Out, bool>,
    pub m_axil_araddr: Signal<Out, Bits<12>>,
    pub m_axil_arvalid: Signal<Out, bool>,
    pub m_axil_arready: Signal<In, bool>,
    pub m_axil_rdata: Signal<In, Bits<32>>,
    pub m_axil_rresp: Signal<In, Bits<2>>,
    pub m_axil_rvalid: Signal<In, bool>,
    pub m_axil_rready: Signal<Out, bool>,
    /// Register writes and reads done (wraps).
    pub stat_writes: Signal<Out, Bits<32>>,
    pub stat_reads: Signal<Out, Bits<32>>,
    /// Requests not served (see the module doc) (wraps).
    pub stat_unsupported: Signal<Out, Bits<32>>,
    /// AXI4-Lite error responses (SLVERR, DECERR) (wraps).
    pub stat_axil_errors: Signal<Out, Bits<32>>,

    /// 0 idle, 1 a request's later beats (dropped), 2 write: address and data out, 3 write:
    /// response, 4 read: address out, 5 read: data, 6 completion out.
    state: DFF<Bits<3>>,
    addr: DFF<Bits<12>>,
    wdata: DFF<Bits<32>>,
    be: DFF<Bits<4>>,
    aw_done: DFF<bool>,
    w_done: DFF<bool>,
    cc_desc: DFF<Bits<96>>,
    cc_data: DFF<Bits<32>>,
    cc_has_data: DFF<bool>,
    /// The request in progress is non-posted (it gets a completion).
    np: DFF<bool>,
    n_writes: DFF<Bits<32>>,
    n_reads: DFF<Bits<32>>,
    n_unsup: DFF<Bits<32>>,
    n_axil_err: DFF<Bits<32>>,

    take: Signal<Local, bool>,
    desc: Signal<Local, Bits<128>>,
    req_type: Signal<Local, Bits<4>>,
    one_dw: Signal<Local, bool>,
    served: Signal<Local, bool>,
    is_read: Signal<Local, bool>,
    is_write: Signal<Local, bool>,
    posted: Signal<Local, bool>,
    a62: Signal<Local, Bits<62>>,
    fbe8: Signal<Local, Bits<8>>,
    first_be: Signal<Local, Bits<4>>,
    lo_byte: Signal<Local, Bits<2>>,
    hi_byte: Signal<Local, Bits<2>>,
    count: Signal<Local, Bits<13>>,
    cpl: Signal<Local, Bits<96>>,
    user: Signal<Local, Bits<81>>,
}

impl Logic for PcieAxil {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, addr, wdata, be, aw_done, w_done, cc_desc, cc_data, cc_has_data, np, n_writes, n_reads,
            n_unsup, n_axil_err
        );
        self.pcie_cq_np_req.next = 1.into();

        // ---- A request's first beat: decode it and its completion's descriptor.
        self.s_axis_cq_tready.next = (self.state.q.val() == 0) | (self.state.q.val() == 1);
        self.take.next = self.s_axis_cq_tvalid.val() & (self.state.q.val() == 0);
        self.desc.next = self.s_axis_cq_tdata.val().get_bits::<128>(0);
        self.req_type.next = self.desc.val().get_value_pcie_cq_desc_req_type();
        self.a62.next = self.desc.val().get_value_pcie_cq_desc_addr();
        self.fbe8.next = self.s_axis_cq_tuser.val().get_value_pcie_cq_user_first_be();
        self.first_be.next = self.fbe8.val().get_bits::<4>(0);
        self.one_dw.next = (self.desc.val().get_value_pcie_cq_desc_dwords() == 1)
            & (self.desc.val().get_value_pcie_cq_desc_bar_id() == 0)
            & !self.s_axis_cq_tuser.val().get_value_pcie_cq_user_discontinue();
        self.is_read.next = self.req_type.val() == 0;
        self.is_write.next = self.req_type.val() == 1;
        // Posted: memory writes and messages (request types 12-14).
        self.posted.next = self.is_write.val() | (self.req_type.val() >= 12);
        self.served.next = self.one_dw.val() & (self.is_read.val() | self.is_write.val());
        // A one-dword read's completion: the first enabled byte's address and the span of
        // the enabled bytes (1 when none is).
        self.lo_byte.next = 0.into();
        if !self.first_be.val().get_bit(0) & self.first_be.val().get_bit(1) {
            self.lo_byte.next = 1.into();
        }
        if !self.first_be.val().get_bit(0) & !self.first_be.val().get_bit(1) & self.first_be.val().get_bit(2) {
            self.lo_byte.next = 2.into();
        }
        if self.first_be.val() == 8 {
            self.lo_byte.next = 3.into();
        }
        self.hi_byte.next = 0.into();
        if self.first_be.val().get_bit(1) {
            self.hi_byte.next = 1.into();
        }
        if self.first_be.val().get_bit(2) {
            self.hi_byte.next = 2.into();
        }
        if self.first_be.val().get_bit(3) {
            self.hi_byte.next = 3.into();
        }
        self.count.next = bit_cast::<13, 2>(self.hi_byte.val()) - bit_cast::<13, 2>(self.lo_byte.val()) + 1;
        if !self.served.val() {
            // Unsupported: the request's length in bytes, from its dword count.
            self.count.next = bit_cast::<13, 11>(self.desc.val().get_value_pcie_cq_desc_dwords()) << 2;
        }
        self.cpl.next = 0.into();
        self.cpl.next.set_value_pcie_cc_desc_lower_addr(
            (bit_cast::<7, 5>(self.a62.val().get_bits::<5>(0)) << 2)
                | bit_cast::<7, 2>(self.lo_byte.val()),
        );
        self.cpl.next.set_value_pcie_cc_desc_at(self.desc.val().get_value_pcie_cq_desc_at());
        self.cpl.next.set_value_pcie_cc_desc_byte_count(self.count.val());
        self.cpl.next.set_value_pcie_cc_desc_requester_id(self.desc.val().get_value_pcie_cq_desc_requester_id());
        self.cpl.next.set_value_pcie_cc_desc_tag(self.desc.val().get_value_pcie_cq_desc_tag());
        self.cpl.next.set_value_pcie_cc_desc_tc(self.desc.val().get_value_pcie_cq_desc_tc());
        self.cpl.next.set_value_pcie_cc_desc_attr(self.desc.val().get_value_pcie_cq_desc_attr());
        if self.served.val() {
            self.cpl.next.set_value_pcie_cc_desc_dwords(1.into());
        } else {
            self.cpl.next.set_value_pcie_cc_desc_status(1.into());
        }
        if self.take.val() {
            self.addr.d.next = bit_cast::<12, 10>(self.a62.val().get_bits::<10>(0)) << 2;
            self.wdata.d.next = self.s_axis_cq_tdata.val().get_bits::<32>(128);
            self.be.d.next = self.first_be.val();
            self.cc_desc.d.next = self.cpl.val();
            self.cc_has_data.d.next = self.served.val();
            self.aw_done.d.next = false;
            self.w_done.d.next = false;
            self.np.d.next = !self.posted.val();
            if self.served.val() & self.is_write.val() {
                self.state.d.next = 2.into();
            } else if self.served.val() {
                self.state.d.next = 4.into();
            } else {
                // Not served: a non-posted request (I/O, atomics included) still gets a
                // completion, a posted one is dropped.
                self.n_unsup.d.next = self.n_unsup.q.val() + 1;
                self.state.d.next = 0.into();
                if !self.posted.val() {
                    self.state.d.next = 6.into();
                }
            }
            if !self.s_axis_cq_tlast.val() {
                // Only requests not served span beats: drop the rest first.
                self.state.d.next = 1.into();
            }
        }
        if (self.state.q.val() == 1) & self.s_axis_cq_tvalid.val() & self.s_axis_cq_tlast.val() {
            self.state.d.next = 0.into();
            if self.np.q.val() {
                self.state.d.next = 6.into();
            }
        }

        // ---- AXI4-Lite write: address and data (each until taken), then the response.
        self.m_axil_awaddr.next = self.addr.q.val();
        self.m_axil_araddr.next = self.addr.q.val();
        self.m_axil_wdata.next = self.wdata.q.val();
        self.m_axil_wstrb.next = self.be.q.val();
        self.m_axil_awvalid.next = (self.state.q.val() == 2) & !self.aw_done.q.val();
        self.m_axil_wvalid.next = (self.state.q.val() == 2) & !self.w_done.q.val();
        if self.m_axil_awvalid.val() & self.m_axil_awready.val() {
            self.aw_done.d.next = true;
        }
        if self.m_axil_wvalid.val() & self.m_axil_wready.val() {
            self.w_done.d.next = true;
        }
        if (self.state.q.val() == 2)
            & (self.aw_done.q.val() | self.m_axil_awready.val())
            & (self.w_done.q.val() | self.m_axil_wready.val())
        {
            self.state.d.next = 3.into();
        }
        self.m_axil_bready.next = self.state.q.val() == 3;
        if (self.state.q.val() == 3) & self.m_axil_bvalid.val() {
            self.state.d.next = 0.into();
            self.n_writes.d.next = self.n_writes.q.val() + 1;
            if self.m_axil_bresp.val() != 0 {
                self.n_axil_err.d.next = self.n_axil_err.q.val() + 1;
            }
        }

        // ---- AXI4-Lite read, then the completion with its data.
        self.m_axil_arvalid.next = self.state.q.val() == 4;
        if (self.state.q.val() == 4) & self.m_axil_arready.val() {
            self.state.d.next = 5.into();
        }
        self.m_axil_rready.next = self.state.q.val() == 5;
        if (self.state.q.val() == 5) & self.m_axil_rvalid.val() {
            self.state.d.next = 6.into();
            self.cc_data.d.next = self.m_axil_rdata.val();
            self.n_reads.d.next = self.n_reads.q.val() + 1;
            if self.m_axil_rresp.val() != 0 {
                // The register port refused the read: a completer abort, no data.
                self.n_axil_err.d.next = self.n_axil_err.q.val() + 1;
                self.cc_has_data.d.next = false;
                self.cc_desc.d.next.set_value_pcie_cc_desc_status(4.into());
                self.cc_desc.d.next.set_value_pcie_cc_desc_dwords(0.into());
            }
        }
        self.m_axis_cc_tvalid.next = self.state.q.val() == 6;
        self.m_axis_cc_tdata.next = bit_cast::<512, 96>(self.cc_desc.q.val());
        self.m_axis_cc_tkeep.next = 7.into();
        self.user.next = 0.into();
        self.user.next.set_value_pcie_cc_user_is_sop(1.into());
        self.user.next.set_value_pcie_cc_user_is_eop(1.into());
        self.user.next.set_value_pcie_cc_user_is_eop0_ptr(2.into());
        if self.cc_has_data.q.val() {
            self.m_axis_cc_tdata.next =
                bit_cast::<512, 96>(self.cc_desc.q.val()) | (bit_cast::<512, 32>(self.cc_data.q.val()) << 96);
            self.m_axis_cc_tkeep.next = 15.into();
            self.user.next.set_value_pcie_cc_user_is_eop0_ptr(3.into());
        }
        self.m_axis_cc_tlast.next = true;
        self.m_axis_cc_tuser.next = self.user.val();
        if (self.state.q.val() == 6) & self.m_axis_cc_tready.val() {
            self.state.d.next = 0.into();
        }

        self.stat_writes.next = self.n_writes.q.val();
        self.stat_reads.next = self.n_reads.q.val();
        self.stat_unsupported.next = self.n_unsup.q.val();
        self.stat_axil_errors.next = self.n_axil_err.q.val();
        if self.reset.val() {
            self.state.d.next = 0.into();
            self.n_writes.d.next = 0.into();
            self.n_reads.d.next = 0.into();
            self.n_unsup.d.next = 0.into();
            self.n_axil_err.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_axil_is_checked_and_generates() {
        let mut uut = PcieAxil::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        assert!(generate_verilog(&uut).contains("module top"));
    }
}
