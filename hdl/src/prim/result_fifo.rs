//! Result FIFO with credit, the output stage of every CC datapath (cc_hpcc, cc_ldcp,
//! cc_dcqcn): results enter from a fixed-latency pipeline that cannot stall, so the datapath
//! must not issue an event unless a slot is sure to be free when its result arrives. `owed`
//! counts events issued whose results have not been read; `credit` is high while it is below
//! the depth, and the datapath issues only then.
//!
//! 128 words in block RAM (rust-hdl's `RAM`, a registered read), with the head still on
//! `m_axis_tdata` in the cycle after it was written, as a combinational-read FIFO would show
//! it: the RAM is read at the head pointer of the *next* cycle (`rd_next`), and a word written
//! in the cycle it is read (the FIFO empty, or emptying) is taken from a bypass register
//! instead, since the RAM returns the old word then. So the output is the same as a LUT RAM's
//! on every cycle, and the 128 x W bits cost block RAM, not LUTs. While the FIFO is empty
//! `m_axis_tdata` is 0, not whatever the RAM holds. (The depth is fixed: rust-hdl's generator
//! cannot put a const generic into an expression.)

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
    ram: RAM<Bits<W>, DEPTH_BITS>,
    /// The word written last cycle is the head this cycle (the RAM shows the old word).
    byp: DFF<bool>,
    /// That word.
    byp_data: DFF<Bits<W>>,
    rd: DFF<Bits<DEPTH_BITS>>,
    wr: DFF<Bits<DEPTH_BITS>>,
    count: DFF<Bits<8>>,
    owed: DFF<Bits<8>>,
    pop: Signal<Local, bool>,
    /// The head pointer of the next cycle, the RAM's read address.
    rd_next: Signal<Local, Bits<DEPTH_BITS>>,
}

impl<const W: usize> Logic for ResultFifo<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, byp, byp_data, rd, wr, count, owed);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.credit.next = self.owed.q.val() < 128;
        self.ram.write_enable.next = self.in_valid.val();
        self.ram.write_address.next = self.wr.q.val();
        self.ram.write_data.next = self.in_data.val();
        self.m_axis_tvalid.next = self.count.q.val() != 0;
        // Gated by the count, not by reading back m_axis_tvalid: Verilator sees a read-back
        // output in the block that also reads m_axis_tready as a combinational loop
        // (UNOPTFLAT) when the consumer's tready depends on tdata.
        self.m_axis_tdata.next = 0.into();
        if self.count.q.val() != 0 {
            self.m_axis_tdata.next = self.ram.read_data.val();
            if self.byp.q.val() {
                self.m_axis_tdata.next = self.byp_data.q.val();
            }
        }
        self.pop.next = self.m_axis_tvalid.val() & self.m_axis_tready.val();
        if self.in_valid.val() {
            self.wr.d.next = self.wr.q.val() + 1;
        }
        self.rd_next.next = self.rd.q.val();
        if self.pop.val() {
            self.rd_next.next = self.rd.q.val() + 1;
        }
        if self.reset.val() {
            self.rd_next.next = 0.into();
        }
        self.rd.d.next = self.rd_next.val();
        self.ram.read_address.next = self.rd_next.val();
        self.byp.d.next = self.in_valid.val() & (self.wr.q.val() == self.rd_next.val());
        self.byp_data.d.next = self.in_data.val();
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
            self.wr.d.next = 0.into();
            self.count.d.next = 0.into();
            self.owed.d.next = 0.into();
        }
    }
}
