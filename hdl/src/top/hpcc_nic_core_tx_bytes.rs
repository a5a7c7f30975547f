//! DCQCN's tx-byte events, a block of hpcc_nic_core (`csr::TX_EVENT_BYTES`,
//! docs/modules/hpcc_nic_core.md): every DMA read request the datapath makes is one packet's
//! payload (a WRITE packet or a READ response). For a DCQCN flow its length adds to the
//! flow's sum; a sum that reaches the threshold is offered to cc_module as one tx event
//! (type 5) and starts again. If the event register is full the sum stays in the RAM and
//! goes out with the flow's next request: cc_module's byte counter adds the bytes, so merging
//! loses nothing.
//!
//! ```text
//! T1  the DMA read request taken; the flow's DCQCN bit and sum read
//! TW  the sum (the last write forwarded if it was this flow's), written back or, past the
//!     threshold, offered as the event and the sum cleared
//! ```

use crate::cc_codes::ALG_DCQCN;
use crate::hpcc_nic_core::AlgWrite;
use rust_hdl::prelude::*;

/// The tx-byte counters of `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreTxBytes<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in flight, the counter 0 (the sums and DCQCN bits are
    /// cleared by the core's sweep).
    pub reset: Signal<In, bool>,
    /// The host takes one of the datapath's DMA read requests this cycle.
    pub rd_take: Signal<In, bool>,
    /// Its flow (`sim::layout::DMA_RD`'s `flow`).
    pub rd_flow: Signal<In, Bits<16>>,
    /// Its length in bytes.
    pub rd_len: Signal<In, Bits<14>>,
    /// Bytes per event (`TX_EVENT_BYTES`; 0: no events).
    pub thr: Signal<In, Bits<32>>,
    /// The flow's algorithm, from the sequencer.
    pub alg_wr: AlgWrite<F>,
    /// The core clears its per-flow tables after reset: this cycle, flow `sweep_addr`.
    pub sweep: Signal<In, bool>,
    /// The flow cleared.
    pub sweep_addr: Signal<In, Bits<F>>,
    /// A tx event is offered.
    pub ev_valid: Signal<Out, bool>,
    /// Its flow.
    pub ev_flow: Signal<Out, Bits<F>>,
    /// Its bytes (the event's seq).
    pub ev_bytes: Signal<Out, Bits<32>>,
    /// cc_module takes it.
    pub ev_take: Signal<In, bool>,
    /// Tx events offered (wraps).
    pub stat_events: Signal<Out, Bits<32>>,
    /// Per flow: 1 = DCQCN.
    dcq: RAM<Bits<1>, F>,
    /// Per flow: bytes summed since its last event.
    txb: RAM<Bits<32>, F>,
    t1_valid: DFF<bool>,
    t1_flow: DFF<Bits<F>>,
    t1_len: DFF<Bits<14>>,
    /// The sum written last cycle (the RAM returns the old one for that flow this cycle).
    tw_valid: DFF<bool>,
    tw_flow: DFF<Bits<F>>,
    tw_sum: DFF<Bits<32>>,
    ev: DFF<bool>,
    ev_f: DFF<Bits<F>>,
    ev_b: DFF<Bits<32>>,
    count: DFF<Bits<32>>,
    sum: Signal<Local, Bits<32>>,
    emit: Signal<Local, bool>,
}

impl<const F: usize> Logic for HpccNicCoreTxBytes<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, t1_valid, t1_flow, t1_len, tw_valid, tw_flow, tw_sum, ev, ev_f, ev_b, count);
        self.dcq.read_clock.next = self.clock.val();
        self.dcq.write_clock.next = self.clock.val();
        self.txb.read_clock.next = self.clock.val();
        self.txb.write_clock.next = self.clock.val();
        // ---- T1: the request; the RAMs read its flow.
        self.dcq.read_address.next = self.rd_flow.val().get_bits::<F>(0);
        self.txb.read_address.next = self.rd_flow.val().get_bits::<F>(0);
        self.t1_valid.d.next = self.rd_take.val();
        self.t1_flow.d.next = self.rd_flow.val().get_bits::<F>(0);
        self.t1_len.d.next = self.rd_len.val();
        // ---- TW: the sum, out as an event or back to the RAM (0 for a flow not DCQCN).
        self.sum.next = self.txb.read_data.val() + bit_cast::<32, 14>(self.t1_len.q.val());
        if self.tw_valid.q.val() & (self.tw_flow.q.val() == self.t1_flow.q.val()) {
            self.sum.next = self.tw_sum.q.val() + bit_cast::<32, 14>(self.t1_len.q.val());
        }
        self.emit.next = self.t1_valid.q.val()
            & self.dcq.read_data.val().any()
            & self.thr.val().any()
            & (self.sum.val() >= self.thr.val())
            & !self.ev.q.val();
        self.txb.write_enable.next = self.t1_valid.q.val();
        self.txb.write_address.next = self.t1_flow.q.val();
        self.txb.write_data.next = 0.into();
        if self.dcq.read_data.val().any() & !self.emit.val() {
            self.txb.write_data.next = self.sum.val();
        }
        self.tw_valid.d.next = self.t1_valid.q.val();
        self.tw_flow.d.next = self.t1_flow.q.val();
        self.tw_sum.d.next = self.txb.write_data.val();
        if self.ev.q.val() & self.ev_take.val() {
            self.ev.d.next = false;
        }
        if self.emit.val() {
            self.ev.d.next = true;
            self.ev_f.d.next = self.t1_flow.q.val();
            self.ev_b.d.next = self.sum.val();
            self.count.d.next = self.count.q.val() + 1;
        }
        self.ev_valid.next = self.ev.q.val();
        self.ev_flow.next = self.ev_f.q.val();
        self.ev_bytes.next = self.ev_b.q.val();
        self.stat_events.next = self.count.q.val();
        // ---- The DCQCN bit: set by a create of a DCQCN flow, cleared by anything else.
        self.dcq.write_enable.next = self.alg_wr.we.val();
        self.dcq.write_address.next = self.alg_wr.flow.val();
        self.dcq.write_data.next = 0.into();
        if self.alg_wr.create.val() & (self.alg_wr.alg.val() == ALG_DCQCN) {
            self.dcq.write_data.next = 1.into();
        }
        if self.sweep.val() {
            self.dcq.write_enable.next = true;
            self.dcq.write_address.next = self.sweep_addr.val();
            self.dcq.write_data.next = 0.into();
            self.txb.write_enable.next = true;
            self.txb.write_address.next = self.sweep_addr.val();
            self.txb.write_data.next = 0.into();
        }
        if self.reset.val() {
            self.t1_valid.d.next = false;
            self.tw_valid.d.next = false;
            self.ev.d.next = false;
            self.count.d.next = 0.into();
        }
    }
}
