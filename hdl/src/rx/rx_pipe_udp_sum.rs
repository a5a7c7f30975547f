//! Rx pipe, input side: the UDP checksum's one's-complement sum over a frame's datagram, as
//! its beats come. Each beat's lanes from byte 34 (the UDP header, less its checksum at bytes
//! 40-41) to the datagram's end (byte 14 + IPv4 total length) go to ones_sum, 4 cycles deep;
//! the per-beat sums are accumulated per frame, unfolded. `frame_sum` holds the last frame's
//! total from the cycle after its last beat's sum comes out of ones_sum (last beat + 4) until
//! the next frame's; rx_pipe reads it in E4, adds the pseudo-header and folds.

use crate::ones_sum::OnesSum;
use rust_hdl::prelude::*;

/// One 512-bit beat in per clock (when `valid`), one sum per frame out.
#[derive(LogicBlock, Default)]
pub struct RxPipeUdpSum {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties ones_sum.
    pub reset: Signal<In, bool>,
    /// A beat is taken this cycle.
    pub valid: Signal<In, bool>,
    /// The beat: frame byte 64k + i of beat k at [8i+7:8i].
    pub data: Signal<In, Bits<512>>,
    /// The beat is its frame's first.
    pub first: Signal<In, bool>,
    /// The beat is its frame's last.
    pub last: Signal<In, bool>,
    /// IPv4 total length of the frame (read on its first beat).
    pub tlen: Signal<In, Bits<16>>,
    /// The last finished frame's sum (unfolded, 32 bits).
    pub frame_sum: Signal<Out, Bits<32>>,
    csum: OnesSum,
    /// Datagram bytes still to come after this beat.
    csum_left: DFF<Bits<17>>,
    /// The frame's sum so far.
    csum_acc: DFF<Bits<32>>,
    /// The last finished frame's sum.
    sum: DFF<Bits<32>>,
    csum_n: Signal<Local, Bits<17>>,
    csum_mask: Signal<Local, Bits<64>>,
    csum_tag: Signal<Local, Bits<2>>,
    ones64: Signal<Local, Bits<64>>,
    lanes0: Signal<Local, Bits<64>>,
    acc_next: Signal<Local, Bits<32>>,
}

impl Logic for RxPipeUdpSum {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, csum_left, csum_acc, sum);
        clock!(self, clock, csum);
        // Datagram bytes from this beat's lane 0: 14 + T on the first beat.
        self.csum_n.next = self.csum_left.q.val();
        if self.first.val() {
            self.csum_n.next = bit_cast::<17, 16>(self.tlen.val()) + 14;
        }
        self.ones64.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();
        self.csum_mask.next = self.ones64.val();
        if self.csum_n.val() < 64 {
            self.csum_mask.next =
                !(self.ones64.val() << bit_cast::<64, 7>(self.csum_n.val().get_bits::<7>(0)));
        }
        // Lanes of beat 0 that the UDP checksum covers: 34..=39 and 42..=63.
        self.lanes0.next = 0xFFFF_FCFC_0000_0000_u64.into();
        if self.first.val() {
            self.csum_mask.next = self.csum_mask.val() & self.lanes0.val();
        }
        if self.valid.val() {
            self.csum_left.d.next = 0.into();
            if self.csum_n.val() > 64 {
                self.csum_left.d.next = self.csum_n.val() - 64;
            }
        }
        self.csum.reset.next = self.reset.val();
        self.csum.in_valid.next = self.valid.val();
        self.csum.in_data.next = self.data.val();
        self.csum.in_mask.next = self.csum_mask.val();
        // ones_sum's tag, back with the beat's sum: bit 0 starts a frame, bit 1 ends it.
        self.csum_tag.next = 0.into();
        if self.first.val() {
            self.csum_tag.next = 1.into();
        }
        if self.last.val() {
            self.csum_tag.next = self.csum_tag.val() | 2;
        }
        self.csum.in_tag.next = self.csum_tag.val();
        self.acc_next.next = self.csum_acc.q.val() + bit_cast::<32, 21>(self.csum.out_sum.val());
        if self.csum.out_tag.val().get_bit(0) {
            self.acc_next.next = bit_cast::<32, 21>(self.csum.out_sum.val());
        }
        if self.csum.out_valid.val() {
            self.csum_acc.d.next = self.acc_next.val();
            if self.csum.out_tag.val().get_bit(1) {
                self.sum.d.next = self.acc_next.val();
            }
        }

        self.frame_sum.next = self.sum.q.val();
    }
}
