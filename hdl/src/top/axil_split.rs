//! One AXI4-Lite master to BAR0's three register slaves (docs/modules/axil_split.md): the NIC
//! top's split of the PCIe shim's register port between the core (words below
//! `csr::BAR0_QUEUES`), the host queue engine (to `csr::BAR0_STATS`) and the counters (from
//! there). It decodes byte address bits [11:10]: 0x and 1x the core, 10 the engine, 11 the
//! counters.
//!
//! ```text
//! AW + W -> (both valid, no write owed) -> the slave of awaddr[11:10]  -> its B
//! AR     -> (no read owed)              -> the slave of araddr[11:10]  -> its R
//! ```
//!
//! One write and one read in flight at a time, each answered by the slave that took it (the
//! PCIe shim's completer issues one access at a time, so this costs it nothing). A write goes
//! to a slave with AW and W together, as axil_slave takes them; the slaves see the whole
//! address. No cycle is added: requests and responses pass through combinationally.

use crate::axil_slave::{AxilMaster, AxilPort};
use rust_hdl::prelude::*;
use sim::csr;

// The decode is of address bits [11:10]: the parts must start where they change.
const _: () = assert!(csr::BAR0_QUEUES * 4 == 0x800 && csr::BAR0_STATS * 4 == 0xC00);

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct AxilSplit {
    /// The 250 MHz clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in flight (reset the slaves with it).
    pub reset: Signal<In, bool>,
    /// From the PCIe shim's completer (byte addresses, 4 KiB).
    pub s_axil: AxilPort<12>,
    /// To the core (bytes 0x000-0x7FF).
    pub m_axil_core: AxilMaster<12>,
    /// To the host queue engine (bytes 0x800-0xBFF).
    pub m_axil_queues: AxilMaster<12>,
    /// To the counters (bytes 0xC00-0xFFF).
    pub m_axil_stats: AxilMaster<12>,

    /// A write was taken and its response has not been: from whom (`w_to`).
    w_busy: DFF<bool>,
    w_to: DFF<Bits<2>>,
    /// The same for a read.
    r_busy: DFF<bool>,
    r_to: DFF<Bits<2>>,
    /// The slave each new request is for: 0 the core, 2 the engine, 3 the counters (1 is
    /// folded into 0).
    w_sel: Signal<Local, Bits<2>>,
    r_sel: Signal<Local, Bits<2>>,
    /// A write and a read are offered to their slave this cycle.
    w_offer: Signal<Local, bool>,
    r_offer: Signal<Local, bool>,
}

impl Logic for AxilSplit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, w_busy, w_to, r_busy, r_to);
        // The part of each offered address.
        self.w_sel.next = 0.into();
        if self.s_axil.awaddr.val().get_bit(11) {
            self.w_sel.next = 2.into();
            if self.s_axil.awaddr.val().get_bit(10) {
                self.w_sel.next = 3.into();
            }
        }
        self.r_sel.next = 0.into();
        if self.s_axil.araddr.val().get_bit(11) {
            self.r_sel.next = 2.into();
            if self.s_axil.araddr.val().get_bit(10) {
                self.r_sel.next = 3.into();
            }
        }
        self.w_offer.next = self.s_axil.awvalid.val() & self.s_axil.wvalid.val() & !self.w_busy.q.val();
        self.r_offer.next = self.s_axil.arvalid.val() & !self.r_busy.q.val();

        // Requests: the address, data and strobes to all three, valid to one.
        self.m_axil_core.awaddr.next = self.s_axil.awaddr.val();
        self.m_axil_queues.awaddr.next = self.s_axil.awaddr.val();
        self.m_axil_stats.awaddr.next = self.s_axil.awaddr.val();
        self.m_axil_core.wdata.next = self.s_axil.wdata.val();
        self.m_axil_queues.wdata.next = self.s_axil.wdata.val();
        self.m_axil_stats.wdata.next = self.s_axil.wdata.val();
        self.m_axil_core.wstrb.next = self.s_axil.wstrb.val();
        self.m_axil_queues.wstrb.next = self.s_axil.wstrb.val();
        self.m_axil_stats.wstrb.next = self.s_axil.wstrb.val();
        self.m_axil_core.araddr.next = self.s_axil.araddr.val();
        self.m_axil_queues.araddr.next = self.s_axil.araddr.val();
        self.m_axil_stats.araddr.next = self.s_axil.araddr.val();
        self.m_axil_core.awvalid.next = self.w_offer.val() & (self.w_sel.val() == 0);
        self.m_axil_core.wvalid.next = self.w_offer.val() & (self.w_sel.val() == 0);
        self.m_axil_queues.awvalid.next = self.w_offer.val() & (self.w_sel.val() == 2);
        self.m_axil_queues.wvalid.next = self.w_offer.val() & (self.w_sel.val() == 2);
        self.m_axil_stats.awvalid.next = self.w_offer.val() & (self.w_sel.val() == 3);
        self.m_axil_stats.wvalid.next = self.w_offer.val() & (self.w_sel.val() == 3);
        self.m_axil_core.arvalid.next = self.r_offer.val() & (self.r_sel.val() == 0);
        self.m_axil_queues.arvalid.next = self.r_offer.val() & (self.r_sel.val() == 2);
        self.m_axil_stats.arvalid.next = self.r_offer.val() & (self.r_sel.val() == 3);

        // Taken: the chosen slave's readies.
        self.s_axil.awready.next = self.w_offer.val() & self.m_axil_core.awready.val() & self.m_axil_core.wready.val();
        self.s_axil.wready.next = self.w_offer.val() & self.m_axil_core.awready.val() & self.m_axil_core.wready.val();
        if self.w_sel.val() == 2 {
            self.s_axil.awready.next = self.w_offer.val() & self.m_axil_queues.awready.val() & self.m_axil_queues.wready.val();
            self.s_axil.wready.next = self.w_offer.val() & self.m_axil_queues.awready.val() & self.m_axil_queues.wready.val();
        }
        if self.w_sel.val() == 3 {
            self.s_axil.awready.next = self.w_offer.val() & self.m_axil_stats.awready.val() & self.m_axil_stats.wready.val();
            self.s_axil.wready.next = self.w_offer.val() & self.m_axil_stats.awready.val() & self.m_axil_stats.wready.val();
        }
        self.s_axil.arready.next = self.r_offer.val() & self.m_axil_core.arready.val();
        if self.r_sel.val() == 2 {
            self.s_axil.arready.next = self.r_offer.val() & self.m_axil_queues.arready.val();
        }
        if self.r_sel.val() == 3 {
            self.s_axil.arready.next = self.r_offer.val() & self.m_axil_stats.arready.val();
        }

        // Responses: from the slave that took the request.
        self.s_axil.bvalid.next = self.w_busy.q.val() & self.m_axil_core.bvalid.val();
        self.s_axil.bresp.next = self.m_axil_core.bresp.val();
        if self.w_to.q.val() == 2 {
            self.s_axil.bvalid.next = self.w_busy.q.val() & self.m_axil_queues.bvalid.val();
            self.s_axil.bresp.next = self.m_axil_queues.bresp.val();
        }
        if self.w_to.q.val() == 3 {
            self.s_axil.bvalid.next = self.w_busy.q.val() & self.m_axil_stats.bvalid.val();
            self.s_axil.bresp.next = self.m_axil_stats.bresp.val();
        }
        self.m_axil_core.bready.next = self.w_busy.q.val() & (self.w_to.q.val() == 0) & self.s_axil.bready.val();
        self.m_axil_queues.bready.next = self.w_busy.q.val() & (self.w_to.q.val() == 2) & self.s_axil.bready.val();
        self.m_axil_stats.bready.next = self.w_busy.q.val() & (self.w_to.q.val() == 3) & self.s_axil.bready.val();
        self.s_axil.rvalid.next = self.r_busy.q.val() & self.m_axil_core.rvalid.val();
        self.s_axil.rdata.next = self.m_axil_core.rdata.val();
        self.s_axil.rresp.next = self.m_axil_core.rresp.val();
        if self.r_to.q.val() == 2 {
            self.s_axil.rvalid.next = self.r_busy.q.val() & self.m_axil_queues.rvalid.val();
            self.s_axil.rdata.next = self.m_axil_queues.rdata.val();
            self.s_axil.rresp.next = self.m_axil_queues.rresp.val();
        }
        if self.r_to.q.val() == 3 {
            self.s_axil.rvalid.next = self.r_busy.q.val() & self.m_axil_stats.rvalid.val();
            self.s_axil.rdata.next = self.m_axil_stats.rdata.val();
            self.s_axil.rresp.next = self.m_axil_stats.rresp.val();
        }
        self.m_axil_core.rready.next = self.r_busy.q.val() & (self.r_to.q.val() == 0) & self.s_axil.rready.val();
        self.m_axil_queues.rready.next = self.r_busy.q.val() & (self.r_to.q.val() == 2) & self.s_axil.rready.val();
        self.m_axil_stats.rready.next = self.r_busy.q.val() & (self.r_to.q.val() == 3) & self.s_axil.rready.val();

        // In flight from the handshake to the response's.
        if self.s_axil.bvalid.val() & self.s_axil.bready.val() {
            self.w_busy.d.next = false;
        }
        if self.s_axil.awready.val() {
            self.w_busy.d.next = true;
            self.w_to.d.next = self.w_sel.val();
        }
        if self.s_axil.rvalid.val() & self.s_axil.rready.val() {
            self.r_busy.d.next = false;
        }
        if self.s_axil.arready.val() {
            self.r_busy.d.next = true;
            self.r_to.d.next = self.r_sel.val();
        }
        if self.reset.val() {
            self.w_busy.d.next = false;
            self.r_busy.d.next = false;
        }
    }
}
