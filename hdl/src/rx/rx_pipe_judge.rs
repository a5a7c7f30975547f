//! Rx pipe, stages E1 to E6: a frame's drop code. From the decoded headers (rx_pipe_decode,
//! combinational in E1), the last beat's tkeep and the stream faults found in E0, it registers
//! the code and the frame length at the end of E6 (`code`); rx_pipe then holds them beside
//! icrc_pipe until the ICRC check.
//!
//! - E1: the decoder's partial codes and sums, the last beat's highest kept lane.
//! - E2: frame length; the IPv4 checksum folded; the first failing check before the UDP checksum.
//! - E3, E4: wait in `chk_line` for the frame's UDP sum (rx_pipe_udp_sum, ones_sum being 4 deep),
//!   add the pseudo-header, first fold.
//! - E5: second fold, compare, the code (registered: E6).

use crate::delay_line::DelayLine;
use crate::rx_pipe::{
    DROP_BAD_IPV4_CHECKSUM, DROP_BAD_UDP_CHECKSUM, DROP_IPV4_LENGTH_MISMATCH, DROP_TRUNCATED,
    DROP_UNSUPPORTED_ETHER_TYPE,
};
use rust_hdl::prelude::*;

/// E1 inputs (combinational, from E0's registers), E6 code out.
#[derive(LogicBlock, Default)]
pub struct RxPipeJudge {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// The frame's last beat's tkeep (contiguous from lane 0, or a fault is set).
    pub keep: Signal<In, Bits<64>>,
    /// Index of the frame's last beat (saturating at 255).
    pub idx: Signal<In, Bits<8>>,
    /// Stream fault found in E0 (25 MAC error, 26 tkeep hole, 27 too long), or 0; wins over
    /// every other code.
    pub fault: Signal<In, Bits<5>>,
    /// rx_pipe_decode's `pre_a`: IPv4 version / IHL check.
    pub pre_a: Signal<In, Bits<5>>,
    /// rx_pipe_decode's `eth_bad`: not IPv4.
    pub eth_bad: Signal<In, bool>,
    /// rx_pipe_decode's `tlen`: IPv4 total length.
    pub tlen: Signal<In, Bits<16>>,
    /// rx_pipe_decode's `pre_b`: checks between the IPv4 checksum and the UDP checksum.
    pub pre_b: Signal<In, Bits<5>>,
    /// rx_pipe_decode's `post`: checks after the UDP checksum.
    pub post: Signal<In, Bits<5>>,
    /// rx_pipe_decode's `ipsum`: the IPv4 header's unfolded sum.
    pub ipsum: Signal<In, Bits<20>>,
    /// rx_pipe_decode's `udp_found`: the UDP checksum in the frame.
    pub udp_found: Signal<In, Bits<16>>,
    /// rx_pipe_decode's `pseudo`: the pseudo-header's unfolded sum.
    pub pseudo: Signal<In, Bits<19>>,
    /// rx_pipe_udp_sum's `frame_sum`, read in E4 (then this frame's).
    pub frame_sum: Signal<In, Bits<32>>,
    /// E6: [4:0] the code (0 accepted), [20:5] the frame length in bytes.
    pub code: Signal<Out, Bits<21>>,
    chk_line: DelayLine<66, 2>,
    top_lane: Signal<Local, Bits<7>>,
    top_grp: Signal<Local, Bits<3>>,
    top_byte: Signal<Local, Bits<8>>,
    top_in: Signal<Local, Bits<3>>,
    e1_pre_a: DFF<Bits<5>>,
    e1_eth_bad: DFF<bool>,
    e1_tlen: DFF<Bits<16>>,
    e1_top: DFF<Bits<7>>,
    e1_idx: DFF<Bits<8>>,
    e1_pre_b: DFF<Bits<5>>,
    e1_post: DFF<Bits<5>>,
    e1_ipsum: DFF<Bits<20>>,
    e1_udp_found: DFF<Bits<16>>,
    e1_pseudo: DFF<Bits<19>>,
    e1_fault: DFF<Bits<5>>,
    // E2: the codes.
    ip_fold: Signal<Local, Bits<17>>,
    ip_sum: Signal<Local, Bits<16>>,
    pre_code: Signal<Local, Bits<5>>,
    len: Signal<Local, Bits<16>>,
    e2_len: DFF<Bits<16>>,
    e2_pre: DFF<Bits<5>>,
    e2_post: DFF<Bits<5>>,
    e2_udp_found: DFF<Bits<16>>,
    e2_pseudo: DFF<Bits<19>>,
    e2_fault: DFF<Bits<5>>,
    e4_pre: Signal<Local, Bits<5>>,
    e4_post: Signal<Local, Bits<5>>,
    e4_udp_found: Signal<Local, Bits<16>>,
    e4_pseudo: Signal<Local, Bits<19>>,
    e4_fault: Signal<Local, Bits<5>>,
    e4_len: Signal<Local, Bits<16>>,
    // E4 (out of chk_line): with the UDP sum; E5: folded, the code (E6).
    udp_total: Signal<Local, Bits<32>>,
    udp_fold1: Signal<Local, Bits<17>>,
    udp_fold2: Signal<Local, Bits<16>>,
    udp_expected: Signal<Local, Bits<16>>,
    udp_bad: Signal<Local, bool>,
    code3: Signal<Local, Bits<5>>,
    e5_fold1: DFF<Bits<17>>,
    e5_found: DFF<Bits<16>>,
    e5_pre: DFF<Bits<5>>,
    e5_post: DFF<Bits<5>>,
    e5_fault: DFF<Bits<5>>,
    e5_len: DFF<Bits<16>>,
    e6_code: DFF<Bits<21>>,
}

impl RxPipeJudge {
    /// Cycles from the frame's last beat to the code being registered: E0 (rx_pipe) to E6, the
    /// UDP sum's fold (ones_sum) being 4 deep.
    pub const STAGES: usize = 7;
}

impl Logic for RxPipeJudge {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            e1_pre_a,
            e1_eth_bad,
            e1_tlen,
            e1_top,
            e1_idx,
            e1_pre_b,
            e1_post,
            e1_ipsum,
            e1_udp_found,
            e1_pseudo,
            e1_fault,
            e2_len,
            e2_pre,
            e2_post,
            e2_udp_found,
            e2_pseudo,
            e2_fault,
            e5_fold1,
            e5_found,
            e5_pre,
            e5_post,
            e5_fault,
            e5_len,
            e6_code
        );
        clock!(self, clock, chk_line);
        // ---- E1.
        // Frame length: 64 x beat index + 1 + highest kept lane of the last beat (added in E2).
        // Highest kept lane: the highest non-empty group of 8 lanes, then the highest lane in it.
        self.top_grp.next = 0.into();
        for g in 1..8 {
            if self.keep.val().get_bits::<8>(8 * g).any() {
                self.top_grp.next = g.to_bits();
            }
        }
        self.top_byte.next = self.keep.val().get_bits::<8>(0);
        for g in 1..8 {
            if self.top_grp.val().index() == g {
                self.top_byte.next = self.keep.val().get_bits::<8>(8 * g);
            }
        }
        self.top_in.next = 0.into();
        for i in 1..8 {
            if self.top_byte.val().get_bit(i) {
                self.top_in.next = i.to_bits();
            }
        }
        self.top_lane.next = 0.into();
        if self.keep.val().any() {
            self.top_lane.next = ((bit_cast::<7, 3>(self.top_grp.val()) << 3)
                | bit_cast::<7, 3>(self.top_in.val()))
                + 1;
        }
        self.e1_top.d.next = self.top_lane.val();
        self.e1_idx.d.next = self.idx.val();
        self.e1_pre_a.d.next = self.pre_a.val();
        self.e1_eth_bad.d.next = self.eth_bad.val();
        self.e1_tlen.d.next = self.tlen.val();
        self.e1_pre_b.d.next = self.pre_b.val();
        self.e1_post.d.next = self.post.val();
        self.e1_ipsum.d.next = self.ipsum.val();
        self.e1_udp_found.d.next = self.udp_found.val();
        self.e1_pseudo.d.next = self.pseudo.val();
        self.e1_fault.d.next = self.fault.val();

        // ---- E2: the first failing check of each group.
        // IPv4 checksum: the header's one's-complement sum, folded twice, must be 0xFFFF (so a
        // found 0xFFFF is right where 0x0000 is computed, RFC 1071 / RFC 1624).
        self.ip_fold.next = bit_cast::<17, 16>(self.e1_ipsum.q.val().get_bits::<16>(0))
            + bit_cast::<17, 4>(self.e1_ipsum.q.val().get_bits::<4>(16));
        self.ip_sum.next = self.ip_fold.val().get_bits::<16>(0)
            + bit_cast::<16, 1>(self.ip_fold.val().get_bits::<1>(16));
        self.len.next =
            (bit_cast::<16, 8>(self.e1_idx.q.val()) << 6) + bit_cast::<16, 7>(self.e1_top.q.val());
        self.pre_code.next = self.e1_pre_b.q.val();
        if (self.e1_tlen.q.val() < 28) | (self.e1_tlen.q.val() > self.len.val() - 14) {
            self.pre_code.next = DROP_IPV4_LENGTH_MISMATCH.into();
        }
        if !self.ip_sum.val().all() {
            self.pre_code.next = DROP_BAD_IPV4_CHECKSUM.into();
        }
        if self.e1_pre_a.q.val().any() {
            self.pre_code.next = self.e1_pre_a.q.val();
        }
        if self.len.val() < 34 {
            self.pre_code.next = DROP_TRUNCATED.into();
        }
        if self.e1_eth_bad.q.val() {
            self.pre_code.next = DROP_UNSUPPORTED_ETHER_TYPE.into();
        }
        if self.len.val() < 14 {
            self.pre_code.next = DROP_TRUNCATED.into();
        }
        self.e2_len.d.next = self.len.val();
        self.e2_pre.d.next = self.pre_code.val();
        self.e2_post.d.next = self.e1_post.q.val();
        self.e2_udp_found.d.next = self.e1_udp_found.q.val();
        self.e2_pseudo.d.next = self.e1_pseudo.q.val();
        self.e2_fault.d.next = self.e1_fault.q.val();

        // ---- E3, E4: wait for the frame's UDP sum (ones_sum is 4 cycles deep), add the
        // pseudo-header, first fold.
        self.chk_line.in_data.next = bit_cast::<66, 5>(self.e2_pre.q.val())
            | (bit_cast::<66, 5>(self.e2_post.q.val()) << 5)
            | (bit_cast::<66, 5>(self.e2_fault.q.val()) << 10)
            | (bit_cast::<66, 16>(self.e2_udp_found.q.val()) << 15)
            | (bit_cast::<66, 19>(self.e2_pseudo.q.val()) << 31)
            | (bit_cast::<66, 16>(self.e2_len.q.val()) << 50);
        self.e4_pre.next = self.chk_line.out_data.val().get_bits::<5>(0);
        self.e4_post.next = self.chk_line.out_data.val().get_bits::<5>(5);
        self.e4_fault.next = self.chk_line.out_data.val().get_bits::<5>(10);
        self.e4_udp_found.next = self.chk_line.out_data.val().get_bits::<16>(15);
        self.e4_pseudo.next = self.chk_line.out_data.val().get_bits::<19>(31);
        self.e4_len.next = self.chk_line.out_data.val().get_bits::<16>(50);
        self.udp_total.next = self.frame_sum.val() + bit_cast::<32, 19>(self.e4_pseudo.val());
        self.udp_fold1.next = bit_cast::<17, 16>(self.udp_total.val().get_bits::<16>(0))
            + bit_cast::<17, 16>(self.udp_total.val().get_bits::<16>(16));
        self.e5_fold1.d.next = self.udp_fold1.val();
        self.e5_found.d.next = self.e4_udp_found.val();
        self.e5_pre.d.next = self.e4_pre.val();
        self.e5_post.d.next = self.e4_post.val();
        self.e5_fault.d.next = self.e4_fault.val();
        self.e5_len.d.next = self.e4_len.val();
        // E5: second fold, compare, the code.
        self.udp_fold2.next = self.e5_fold1.q.val().get_bits::<16>(0)
            + bit_cast::<16, 1>(self.e5_fold1.q.val().get_bits::<1>(16));
        self.udp_expected.next = !self.udp_fold2.val();
        if self.udp_fold2.val().all() {
            self.udp_expected.next = 0xFFFF.into();
        }
        self.udp_bad.next =
            self.e5_found.q.val().any() & (self.e5_found.q.val() != self.udp_expected.val());
        self.code3.next = self.e5_post.q.val();
        if self.udp_bad.val() {
            self.code3.next = DROP_BAD_UDP_CHECKSUM.into();
        }
        if self.e5_pre.q.val().any() {
            self.code3.next = self.e5_pre.q.val();
        }
        if self.e5_fault.q.val().any() {
            self.code3.next = self.e5_fault.q.val();
        }
        self.e6_code.d.next =
            bit_cast::<21, 5>(self.code3.val()) | (bit_cast::<21, 16>(self.e5_len.q.val()) << 5);
        self.code.next = self.e6_code.q.val();
    }
}
