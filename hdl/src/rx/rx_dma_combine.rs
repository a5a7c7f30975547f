//! rx_dma, combine stage: one payload beat from the two stored beats a fetch read (one per
//! bank): (hi : lo) >> 8 x shift, with the job's tkeep on its last beat. Combinational; rx_dma
//! registers `word` (`sim::layout::RX_DMA_BEAT`) into the out FIFO.

use crate::layout::RxDmaBeatNamed;
use rust_hdl::prelude::*;

/// The banks' read data and the fetch's registers in, the out FIFO's word out.
#[derive(LogicBlock, Default)]
pub struct RxDmaCombine {
    /// The even bank's read data.
    pub even: Signal<In, Bits<512>>,
    /// The odd bank's read data.
    pub odd: Signal<In, Bits<512>>,
    /// The first of the two stored beats (lo) is in the odd bank.
    pub lo_odd: Signal<In, bool>,
    /// The payload's offset in its first stored beat (bytes, 0..63).
    pub shift: Signal<In, Bits<6>>,
    /// The job's last beat.
    pub last: Signal<In, bool>,
    /// The bytes the last beat keeps, mod 64 (0: all 64).
    pub kcnt: Signal<In, Bits<6>>,
    /// The payload beat with its tkeep and tlast.
    pub word: Signal<Out, Bits<577>>,
    ones64: Signal<Local, Bits<64>>,
    lo: Signal<Local, Bits<512>>,
    hi: Signal<Local, Bits<512>>,
    sh_r: Signal<Local, Bits<10>>,
    neg_s: Signal<Local, Bits<6>>,
    sh_l: Signal<Local, Bits<10>>,
    data: Signal<Local, Bits<512>>,
    neg_k: Signal<Local, Bits<6>>,
    ksh: Signal<Local, Bits<7>>,
    keep: Signal<Local, Bits<64>>,
    w: Signal<Local, Bits<577>>,
}

impl Logic for RxDmaCombine {
    #[hdl_gen]
    fn update(&mut self) {
        self.ones64.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();
        self.lo.next = self.even.val();
        self.hi.next = self.odd.val();
        if self.lo_odd.val() {
            self.lo.next = self.odd.val();
            self.hi.next = self.even.val();
        }
        self.sh_r.next = bit_cast::<10, 6>(self.shift.val()) << 3;
        self.neg_s.next = (!self.shift.val()) + 1;
        self.sh_l.next = bit_cast::<10, 6>(self.neg_s.val()) << 3;
        self.data.next = self.lo.val();
        if self.shift.val() != 0 {
            self.data.next = (self.lo.val() >> self.sh_r.val()) | (self.hi.val() << self.sh_l.val());
        }
        self.neg_k.next = (!self.kcnt.val()) + 1;
        self.ksh.next = bit_cast::<7, 6>(self.neg_k.val());
        self.keep.next = self.ones64.val();
        if self.last.val() & (self.kcnt.val() != 0) {
            self.keep.next = self.ones64.val() >> self.ksh.val();
        }
        self.w.next = 0.into();
        self.w.next.set_value_rx_dma_beat_data(self.data.val());
        self.w.next.set_value_rx_dma_beat_keep(self.keep.val());
        self.w.next.set_value_rx_dma_beat_last(self.last.val());
        self.word.next = self.w.val();
    }
}
