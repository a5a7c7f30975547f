//! rx_dma, writer side: a stored frame's descriptor for the desc FIFO
//! (`sim::layout::RX_DMA_FRAME`: stored beats, byte length, truncated), from its last beat's
//! tkeep and beat count. Two register stages: the highest non-empty group of 8 lanes and its
//! byte, then the highest kept lane in that byte and the length
//! 64 x (beats - 1) + lane + 1 (64 x (beats - 1) when the last beat keeps no lane).

use crate::layout::RxDmaFrameNamed;
use rust_hdl::prelude::*;

/// A frame's last beat in (registered by rx_dma), its descriptor out two cycles later.
#[derive(LogicBlock, Default)]
pub struct RxDmaFrame {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: drops the frame in flight.
    pub reset: Signal<In, bool>,
    /// A frame's last beat was taken (rx_dma's `p_push`).
    pub push: Signal<In, bool>,
    /// Its beats stored, 1..144.
    pub beats: Signal<In, Bits<8>>,
    /// The last beat's tkeep (contiguous from lane 0).
    pub keep: Signal<In, Bits<64>>,
    /// The frame had beats past 144, not stored.
    pub trunc: Signal<In, bool>,
    /// Push `word` into the desc FIFO.
    pub word_valid: Signal<Out, bool>,
    /// The descriptor (`RX_DMA_FRAME`).
    pub word: Signal<Out, Bits<23>>,
    q_push: DFF<bool>,
    q_cnt: DFF<Bits<8>>,
    q_trunc: DFF<bool>,
    q_grp: DFF<Bits<3>>,
    q_byte: DFF<Bits<8>>,
    q_any: DFF<bool>,
    top_grp: Signal<Local, Bits<3>>,
    top_byte: Signal<Local, Bits<8>>,
    top_in: Signal<Local, Bits<3>>,
    cm1: Signal<Local, Bits<8>>,
    hi: Signal<Local, Bits<14>>,
    lo: Signal<Local, Bits<14>>,
    len: Signal<Local, Bits<14>>,
    w: Signal<Local, Bits<23>>,
}

impl Logic for RxDmaFrame {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, q_push, q_cnt, q_trunc, q_grp, q_byte, q_any);
        // Highest non-empty group of 8 lanes (the last `if` that holds wins), and its byte.
        self.top_grp.next = 0.into();
        if self.keep.val().get_bits::<8>(8).any() {
            self.top_grp.next = 1.into();
        }
        if self.keep.val().get_bits::<8>(16).any() {
            self.top_grp.next = 2.into();
        }
        if self.keep.val().get_bits::<8>(24).any() {
            self.top_grp.next = 3.into();
        }
        if self.keep.val().get_bits::<8>(32).any() {
            self.top_grp.next = 4.into();
        }
        if self.keep.val().get_bits::<8>(40).any() {
            self.top_grp.next = 5.into();
        }
        if self.keep.val().get_bits::<8>(48).any() {
            self.top_grp.next = 6.into();
        }
        if self.keep.val().get_bits::<8>(56).any() {
            self.top_grp.next = 7.into();
        }
        self.top_byte.next = self.keep.val().get_bits::<8>(0);
        if self.top_grp.val() == 1 {
            self.top_byte.next = self.keep.val().get_bits::<8>(8);
        }
        if self.top_grp.val() == 2 {
            self.top_byte.next = self.keep.val().get_bits::<8>(16);
        }
        if self.top_grp.val() == 3 {
            self.top_byte.next = self.keep.val().get_bits::<8>(24);
        }
        if self.top_grp.val() == 4 {
            self.top_byte.next = self.keep.val().get_bits::<8>(32);
        }
        if self.top_grp.val() == 5 {
            self.top_byte.next = self.keep.val().get_bits::<8>(40);
        }
        if self.top_grp.val() == 6 {
            self.top_byte.next = self.keep.val().get_bits::<8>(48);
        }
        if self.top_grp.val() == 7 {
            self.top_byte.next = self.keep.val().get_bits::<8>(56);
        }
        self.q_push.d.next = self.push.val();
        self.q_cnt.d.next = self.beats.val();
        self.q_trunc.d.next = self.trunc.val();
        self.q_grp.d.next = self.top_grp.val();
        self.q_byte.d.next = self.top_byte.val();
        self.q_any.d.next = self.keep.val().any();

        // ---- The lane in the group, the length, the descriptor.
        self.top_in.next = 0.into();
        if self.q_byte.q.val().get_bit(1) {
            self.top_in.next = 1.into();
        }
        if self.q_byte.q.val().get_bit(2) {
            self.top_in.next = 2.into();
        }
        if self.q_byte.q.val().get_bit(3) {
            self.top_in.next = 3.into();
        }
        if self.q_byte.q.val().get_bit(4) {
            self.top_in.next = 4.into();
        }
        if self.q_byte.q.val().get_bit(5) {
            self.top_in.next = 5.into();
        }
        if self.q_byte.q.val().get_bit(6) {
            self.top_in.next = 6.into();
        }
        if self.q_byte.q.val().get_bit(7) {
            self.top_in.next = 7.into();
        }
        self.cm1.next = self.q_cnt.q.val() - 1;
        self.hi.next = bit_cast::<14, 8>(self.cm1.val()) << 6;
        self.lo.next = self.hi.val() | (bit_cast::<14, 3>(self.q_grp.q.val()) << 3) | bit_cast::<14, 3>(self.top_in.val());
        self.len.next = self.hi.val();
        if self.q_any.q.val() {
            self.len.next = self.lo.val() + 1;
        }
        self.w.next = 0.into();
        self.w.next.set_value_rx_dma_frame_beats(self.q_cnt.q.val());
        self.w.next.set_value_rx_dma_frame_len(self.len.val());
        self.w.next.set_value_rx_dma_frame_trunc(self.q_trunc.q.val());
        self.word.next = self.w.val();
        self.word_valid.next = self.q_push.q.val();
        if self.reset.val() {
            self.q_push.d.next = false;
        }
    }
}
