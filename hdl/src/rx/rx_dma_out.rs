//! rx_dma's output side of the payload: the combined beat is registered, then queued in a
//! 16-entry FIFO of LUT RAM that drives `m_axis_dma_wr`. rx_dma fetches a beat only when the
//! FIFO is sure to have room for it (its `owed` count, kept with `pop`), so the FIFO never
//! overflows and the fetch path never waits on `tready`.

use crate::dist_ram::DistRam;
use crate::layout::RxDmaBeatNamed;
use rust_hdl::prelude::*;

/// The out FIFO of rx_dma.
#[derive(LogicBlock, Default)]
pub struct RxDmaOut {
    pub clock: Signal<In, Clock>,
    /// Empties the FIFO.
    pub reset: Signal<In, bool>,
    /// A combined beat (`sim::layout::RX_DMA_BEAT`: data, keep, last) from rx_dma_combine.
    pub in_valid: Signal<In, bool>,
    pub in_word: Signal<In, Bits<577>>,
    /// rx_dma's DMA write stream.
    pub m_axis_dma_wr_tdata: Signal<Out, Bits<512>>,
    pub m_axis_dma_wr_tkeep: Signal<Out, Bits<64>>,
    pub m_axis_dma_wr_tvalid: Signal<Out, bool>,
    pub m_axis_dma_wr_tready: Signal<In, bool>,
    pub m_axis_dma_wr_tlast: Signal<Out, bool>,
    /// A beat leaves this cycle.
    pub pop: Signal<Out, bool>,

    oq: DistRam<Bits<577>, 4>,
    c_valid: DFF<bool>,
    c_word: DFF<Bits<577>>,
    oq_wr: DFF<Bits<4>>,
    oq_rd: DFF<Bits<4>>,
    oq_n: DFF<Bits<5>>,
}

impl Logic for RxDmaOut {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, c_valid, c_word, oq_wr, oq_rd, oq_n);
        self.oq.write_clock.next = self.clock.val();
        self.c_valid.d.next = self.in_valid.val();
        self.c_word.d.next = self.in_word.val();
        self.oq.write_enable.next = self.c_valid.q.val();
        self.oq.write_address.next = self.oq_wr.q.val();
        self.oq.write_data.next = self.c_word.q.val();
        self.oq.read_address.next = self.oq_rd.q.val();
        self.m_axis_dma_wr_tvalid.next = self.oq_n.q.val() != 0;
        self.m_axis_dma_wr_tdata.next = self.oq.read_data.val().get_value_rx_dma_beat_data();
        self.m_axis_dma_wr_tkeep.next = self.oq.read_data.val().get_value_rx_dma_beat_keep();
        self.m_axis_dma_wr_tlast.next = self.oq.read_data.val().get_value_rx_dma_beat_last();
        self.pop.next = (self.oq_n.q.val() != 0) & self.m_axis_dma_wr_tready.val();
        if self.c_valid.q.val() {
            self.oq_wr.d.next = self.oq_wr.q.val() + 1;
        }
        if self.pop.val() {
            self.oq_rd.d.next = self.oq_rd.q.val() + 1;
        }
        if self.c_valid.q.val() & !self.pop.val() {
            self.oq_n.d.next = self.oq_n.q.val() + 1;
        }
        if !self.c_valid.q.val() & self.pop.val() {
            self.oq_n.d.next = self.oq_n.q.val() - 1;
        }
        if self.reset.val() {
            self.c_valid.d.next = false;
            self.oq_wr.d.next = 0.into();
            self.oq_rd.d.next = 0.into();
            self.oq_n.d.next = 0.into();
        }
    }
}
