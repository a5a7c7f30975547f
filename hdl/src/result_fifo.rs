//! Result FIFO with credit, the output stage of every CC datapath (cc_hpcc, cc_ldcp,
//! cc_dcqcn): results enter from a fixed-latency pipeline that cannot stall, so the datapath
//! must not issue an event unless a slot is sure to be free when its result arrives. `owed`
//! counts events issued whose results have not been read; `credit` is high while it is below
//! the depth, and the datapath issues only then.
//!
//! 128 words of LUT RAM (dist_ram) with a combinational read, so the head shows on
//! `m_axis_tdata` without a cycle of latency. (The depth is fixed: rust-hdl's generator cannot
//! put a const generic into an expression.)

use crate::dist_ram::DistRam;
use rust_hdl::prelude::*;

/// Log2 of the depth.
pub const DEPTH_BITS: usize = 7;

/// 128 results of W bits.
#[derive(LogicBlock, Default)]
pub struct ResultFifo<const W: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the FIFO and forgets what is owed.
    pub reset: Signal<In, bool>,
    /// The datapath issues an event this cycle (its result will arrive).
    pub issue: Signal<In, bool>,
    /// A result arrives.
    pub in_valid: Signal<In, bool>,
    /// The result.
    pub in_data: Signal<In, Bits<W>>,
    /// Fewer than 128 results are owed: the datapath may issue.
    pub credit: Signal<Out, bool>,
    /// Head of the FIFO.
    pub m_axis_tdata: Signal<Out, Bits<W>>,
    /// The FIFO is not empty.
    pub m_axis_tvalid: Signal<Out, bool>,
    /// The head is taken.
    pub m_axis_tready: Signal<In, bool>,
    ram: DistRam<Bits<W>, DEPTH_BITS>,
    rd: DFF<Bits<DEPTH_BITS>>,
    wr: DFF<Bits<DEPTH_BITS>>,
    count: DFF<Bits<8>>,
    owed: DFF<Bits<8>>,
    pop: Signal<Local, bool>,
}

impl<const W: usize> Logic for ResultFifo<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rd, wr, count, owed);
        self.ram.write_clock.next = self.clock.val();
        self.credit.next = self.owed.q.val() < 128;
        self.ram.write_enable.next = self.in_valid.val();
        self.ram.write_address.next = self.wr.q.val();
        self.ram.write_data.next = self.in_data.val();
        self.ram.read_address.next = self.rd.q.val();
        self.m_axis_tvalid.next = self.count.q.val() != 0;
        self.m_axis_tdata.next = self.ram.read_data.val();
        self.pop.next = self.m_axis_tvalid.val() & self.m_axis_tready.val();
        if self.in_valid.val() {
            self.wr.d.next = self.wr.q.val() + 1;
        }
        if self.pop.val() {
            self.rd.d.next = self.rd.q.val() + 1;
        }
        if self.in_valid.val() & !self.pop.val() {
            self.count.d.next = self.count.q.val() + 1;
        }
        if !self.in_valid.val() & self.pop.val() {
            self.count.d.next = self.count.q.val() - 1;
        }
        if self.issue.val() & !self.pop.val() {
            self.owed.d.next = self.owed.q.val() + 1;
        }
        if !self.issue.val() & self.pop.val() {
            self.owed.d.next = self.owed.q.val() - 1;
        }
        if self.reset.val() {
            self.rd.d.next = 0.into();
            self.wr.d.next = 0.into();
            self.count.d.next = 0.into();
            self.owed.d.next = 0.into();
        }
    }
}
