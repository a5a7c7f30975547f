//! AXI4-Lite slave to a plain register bus (docs/modules/axil_slave.md): the CSR port of
//! hpcc_nic_core, and of the PCIe shim's BAR later.
//!
//! ```text
//! AW + W  -> (both valid, no response owed) -> wr_en, wr_addr, wr_data, wr_strb  -> B (resp)
//! AR      -> (no read data owed)            -> rd_en, rd_addr; rd_data, rd_err   -> R (registered)
//! ```
//!
//! A write is taken when AW and W are both valid and no B response is owed (AXI allows a
//! slave to wait for both); it shows as one `wr_en` cycle, and its response, OKAY or SLVERR
//! as `wr_err` says in that cycle, is offered on B from the next. A read is taken when no R
//! response is owed; `rd_data` and `rd_err`, combinational from `rd_addr` in that cycle, are
//! registered into R. One write and one read can be taken in the same cycle. Addresses are
//! byte addresses of 32-bit words: bits [1:0] are ignored.

use rust_hdl::prelude::*;

/// An AXI4-Lite slave port with `A` address bits (no AWPROT / ARPROT), as the slave sees it:
/// axil_slave's, and hpcc_nic_core's, which links its own to it. Ports `s_axil_*`.
#[derive(LogicInterface, Default)]
pub struct AxilPort<const A: usize> {
    /// Write address (byte address).
    pub awaddr: Signal<In, Bits<A>>,
    /// Write address valid.
    pub awvalid: Signal<In, bool>,
    /// Write address taken (with its data).
    pub awready: Signal<Out, bool>,
    /// Write data.
    pub wdata: Signal<In, Bits<32>>,
    /// Byte enables of the write data.
    pub wstrb: Signal<In, Bits<4>>,
    /// Write data valid.
    pub wvalid: Signal<In, bool>,
    /// Write data taken (with its address).
    pub wready: Signal<Out, bool>,
    /// Write response: 0 OKAY, 2 SLVERR.
    pub bresp: Signal<Out, Bits<2>>,
    /// Write response valid.
    pub bvalid: Signal<Out, bool>,
    /// Write response taken.
    pub bready: Signal<In, bool>,
    /// Read address (byte address).
    pub araddr: Signal<In, Bits<A>>,
    /// Read address valid.
    pub arvalid: Signal<In, bool>,
    /// Read address taken.
    pub arready: Signal<Out, bool>,
    /// Read data.
    pub rdata: Signal<Out, Bits<32>>,
    /// Read response: 0 OKAY, 2 SLVERR.
    pub rresp: Signal<Out, Bits<2>>,
    /// Read data valid.
    pub rvalid: Signal<Out, bool>,
    /// Read data taken.
    pub rready: Signal<In, bool>,
}

/// The same port as its master drives it (the PCIe shim's completer, axil_split's outputs):
/// ports `m_axil_*`; `join` connects it to a slave's `AxilPort`. The fields are `AxilPort`'s.
#[derive(LogicInterface, Default)]
#[join = "AxilPort"]
pub struct AxilMaster<const A: usize> {
    pub awaddr: Signal<Out, Bits<A>>,
    pub awvalid: Signal<Out, bool>,
    pub awready: Signal<In, bool>,
    pub wdata: Signal<Out, Bits<32>>,
    pub wstrb: Signal<Out, Bits<4>>,
    pub wvalid: Signal<Out, bool>,
    pub wready: Signal<In, bool>,
    pub bresp: Signal<In, Bits<2>>,
    pub bvalid: Signal<In, bool>,
    pub bready: Signal<Out, bool>,
    pub araddr: Signal<Out, Bits<A>>,
    pub arvalid: Signal<Out, bool>,
    pub arready: Signal<In, bool>,
    pub rdata: Signal<In, Bits<32>>,
    pub rresp: Signal<In, Bits<2>>,
    pub rvalid: Signal<In, bool>,
    pub rready: Signal<Out, bool>,
}

/// AXI4-Lite slave with `A` address bits.
#[derive(LogicBlock, Default)]
pub struct AxilSlave<const A: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no response owed.
    pub reset: Signal<In, bool>,
    /// The AXI4-Lite port (`AxilPort`: ports `s_axil_*`).
    pub s_axil: AxilPort<A>,
    /// A write is taken this cycle.
    pub wr_en: Signal<Out, bool>,
    /// Its word address (byte address >> 2).
    pub wr_addr: Signal<Out, Bits<A>>,
    /// Its data.
    pub wr_data: Signal<Out, Bits<32>>,
    /// Its byte enables.
    pub wr_strb: Signal<Out, Bits<4>>,
    /// The register bus refuses the write at `wr_addr` (SLVERR); sampled with `wr_en`.
    pub wr_err: Signal<In, bool>,
    /// A read is taken this cycle.
    pub rd_en: Signal<Out, bool>,
    /// Word address of the read (byte address >> 2); valid whenever `s_axil_arvalid` is.
    pub rd_addr: Signal<Out, Bits<A>>,
    /// The word at `rd_addr` (combinational), registered when `rd_en`.
    pub rd_data: Signal<In, Bits<32>>,
    /// `rd_addr` is not readable (SLVERR); sampled with `rd_en`.
    pub rd_err: Signal<In, bool>,
    b_valid: DFF<bool>,
    b_err: DFF<bool>,
    r_valid: DFF<bool>,
    r_err: DFF<bool>,
    r_data: DFF<Bits<32>>,
}

impl<const A: usize> Logic for AxilSlave<A> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, b_valid, b_err, r_valid, r_err, r_data);
        // ---- Write: AW and W together, one response owed at most.
        self.wr_en.next = self.s_axil.awvalid.val() & self.s_axil.wvalid.val() & !self.b_valid.q.val();
        self.s_axil.awready.next = self.wr_en.val();
        self.s_axil.wready.next = self.wr_en.val();
        self.wr_addr.next = self.s_axil.awaddr.val() >> 2;
        self.wr_data.next = self.s_axil.wdata.val();
        self.wr_strb.next = self.s_axil.wstrb.val();
        if self.s_axil.bready.val() {
            self.b_valid.d.next = false;
        }
        if self.wr_en.val() {
            self.b_valid.d.next = true;
            self.b_err.d.next = self.wr_err.val();
        }
        self.s_axil.bvalid.next = self.b_valid.q.val();
        self.s_axil.bresp.next = 0.into();
        if self.b_err.q.val() {
            self.s_axil.bresp.next = 2.into();
        }
        // ---- Read: one response owed at most, data registered.
        self.rd_en.next = self.s_axil.arvalid.val() & !self.r_valid.q.val();
        self.s_axil.arready.next = self.rd_en.val();
        self.rd_addr.next = self.s_axil.araddr.val() >> 2;
        if self.s_axil.rready.val() {
            self.r_valid.d.next = false;
        }
        if self.rd_en.val() {
            self.r_valid.d.next = true;
            self.r_err.d.next = self.rd_err.val();
            self.r_data.d.next = self.rd_data.val();
        }
        self.s_axil.rvalid.next = self.r_valid.q.val();
        self.s_axil.rdata.next = self.r_data.q.val();
        self.s_axil.rresp.next = 0.into();
        if self.r_err.q.val() {
            self.s_axil.rresp.next = 2.into();
        }
        if self.reset.val() {
            self.b_valid.d.next = false;
            self.r_valid.d.next = false;
        }
    }
}
