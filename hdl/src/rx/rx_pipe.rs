//! Rx pipe, parse stage: RoCEv2 frames from the MAC shim in (512-bit AXI-Stream), one verdict
//! record per frame out (accepted with the header fields, or the drop reason), and a counter
//! per reason. The golden model is `sim::rx_pipe`; every check is `RocePacket::parse`'s, in its
//! order (first failing check wins, same code), after three stream-level checks (tuser, tkeep,
//! length). docs/modules/rx_pipe.md has the record layout, latency and figures.
//!
//! Timing, for a frame whose last beat is accepted in cycle t: the headers (beats 0 and 1, or
//! the only beat) are captured at t (E0), decoded into three partial codes and the record at
//! t+1 (E1), the IPv4 checksum joined at t+2 (E2); the UDP checksum (ones_sum, 4 cycles per
//! beat, accumulated per frame) joins at t+5 and t+6, where the code is registered (E6); record and code
//! wait in delay lines beside icrc_pipe and are judged when its ICRC comes out at t + LATENCY,
//! then written to the verdict FIFO. The input takes one beat per clock whenever fewer than 128
//! verdicts are owed (result_fifo's credit), so it never stalls while the output is read.

use crate::delay_line::DelayLine;
use crate::icrc_pipe::IcrcPipe;
use crate::layout::VerdictFields;
use crate::ones_sum::OnesSum;
use crate::result_fifo::ResultFifo;
use crate::roce_op::*;
use rust_hdl::prelude::*;

/// Cycles from the last beat of a frame to its verdict entering the FIFO (one more to show on
/// `m_axis_verdict_tvalid`).
pub const LATENCY: usize = IcrcPipe::LATENCY;
/// Cycles from the last beat to the code being registered (E0..E6, ones_sum being 4 deep).
const CODE_STAGES: usize = 7;
/// Cycles from the last beat to the record being registered (E0, E1).
const REC_STAGES: usize = 2;
/// Bits of a verdict record.
pub const VERDICT_BITS: usize = 640;

/// 512-bit input, 640-bit verdicts.
#[derive(LogicBlock, Default)]
pub struct RxPipe {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forgets the frame in progress, empties the pipeline and the verdict
    /// FIFO, clears the counters.
    pub reset: Signal<In, bool>,
    /// Frame beat: frame byte 64k + i of beat k at [8i+7:8i].
    pub s_axis_tdata: Signal<In, Bits<512>>,
    /// Lane i holds a byte: all ones except on a frame's last beat, which keeps lanes 0..n.
    /// Anything else drops the frame (code 26), but a zero-length frame, one beat keeping
    /// nothing (tlast), is code 1 (truncated).
    pub s_axis_tkeep: Signal<In, Bits<64>>,
    /// A beat is offered.
    pub s_axis_tvalid: Signal<In, bool>,
    /// The beat is taken: high whenever fewer than 128 verdicts are owed.
    pub s_axis_tready: Signal<Out, bool>,
    /// Last beat of a frame.
    pub s_axis_tlast: Signal<In, bool>,
    /// The MAC found a bad FCS (or another error) in this frame: dropped (code 25).
    pub s_axis_tuser: Signal<In, bool>,
    /// Verdict record (640 bits; layout in docs/modules/rx_pipe.md, `sim::rx_pipe::Verdict`).
    pub m_axis_verdict_tdata: Signal<Out, Bits<640>>,
    /// A verdict is on `m_axis_verdict_tdata`.
    pub m_axis_verdict_tvalid: Signal<Out, bool>,
    /// The verdict is taken.
    pub m_axis_verdict_tready: Signal<In, bool>,
    /// Counter select: 0 = accepted frames, c = frames dropped with code c (1..=27).
    pub stat_addr: Signal<In, Bits<5>>,
    /// The selected counter (32 bits, wraps), combinational from `stat_addr`; 0 for 28..=31.
    pub stat_count: Signal<Out, Bits<32>>,
    icrc: IcrcPipe,
    csum: OnesSum,
    rec_line: DelayLine<640, { LATENCY - REC_STAGES }>,
    chk_line: DelayLine<66, 2>,
    code_line: DelayLine<21, { LATENCY - CODE_STAGES }>,
    fifo: ResultFifo<640>,
    // Input side, per beat.
    beat_idx: DFF<Bits<8>>,
    beat0: DFF<Bits<512>>,
    beat1: DFF<Bits<512>>,
    user_seen: DFF<bool>,
    keep_bad_seen: DFF<bool>,
    tlen_q: DFF<Bits<16>>,
    csum_left: DFF<Bits<17>>,
    csum_acc: DFF<Bits<32>>,
    frame_sum: DFF<Bits<32>>,
    fire: Signal<Local, bool>,
    first: Signal<Local, bool>,
    tlen_now: Signal<Local, Bits<16>>,
    csum_n: Signal<Local, Bits<17>>,
    csum_mask: Signal<Local, Bits<64>>,
    csum_tag: Signal<Local, Bits<2>>,
    ones64: Signal<Local, Bits<64>>,
    lanes0: Signal<Local, Bits<64>>,
    acc_next: Signal<Local, Bits<32>>,
    top_lane: Signal<Local, Bits<7>>,
    top_grp: Signal<Local, Bits<3>>,
    top_byte: Signal<Local, Bits<8>>,
    top_in: Signal<Local, Bits<3>>,
    keep_ok_last: Signal<Local, bool>,
    // E0: the frame's headers and stream faults.
    e0_hdr: DFF<Bits<1024>>,
    e0_keep: DFF<Bits<64>>,
    e0_idx: DFF<Bits<8>>,
    e0_fault: DFF<Bits<5>>,
    // E1 decode (combinational from E0, registered).
    op: Signal<Local, Bits<8>>,
    tlen: Signal<Local, Bits<16>>,
    icrc_at: Signal<Local, Bits<17>>,
    known: Signal<Local, bool>,
    has_reth: Signal<Local, bool>,
    has_aeth: Signal<Local, bool>,
    has_payload: Signal<Local, bool>,
    is_cnp: Signal<Local, bool>,
    must_tel: Signal<Local, bool>,
    echoes: Signal<Local, bool>,
    has_tel: Signal<Local, bool>,
    tel: Signal<Local, Bits<352>>,
    tel_at: Signal<Local, Bits<17>>,
    nhop: Signal<Local, Bits<8>>,
    fb: Signal<Local, bool>,
    hop_bad: Signal<Local, bool>,
    pay_at: Signal<Local, Bits<17>>,
    rest: Signal<Local, Bits<17>>,
    pay_len: Signal<Local, Bits<17>>,
    udp_len3: Signal<Local, Bits<16>>,
    pad: Signal<Local, Bits<2>>,
    hops: Signal<Local, Bits<320>>,
    rec: Signal<Local, Bits<640>>,
    pre_a: Signal<Local, Bits<5>>,
    pre_b: Signal<Local, Bits<5>>,
    post: Signal<Local, Bits<5>>,
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
    e1_rec: DFF<Bits<640>>,
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
    // Final: with the ICRC.
    fin_fire: Signal<Local, bool>,
    fin_code: Signal<Local, Bits<5>>,
    fin_rec: Signal<Local, Bits<640>>,
    // Counters: cnt0 accepted, cnt<c> dropped with code c.
    cnt0: DFF<Bits<32>>,
    cnt1: DFF<Bits<32>>,
    cnt2: DFF<Bits<32>>,
    cnt3: DFF<Bits<32>>,
    cnt4: DFF<Bits<32>>,
    cnt5: DFF<Bits<32>>,
    cnt6: DFF<Bits<32>>,
    cnt7: DFF<Bits<32>>,
    cnt8: DFF<Bits<32>>,
    cnt9: DFF<Bits<32>>,
    cnt10: DFF<Bits<32>>,
    cnt11: DFF<Bits<32>>,
    cnt12: DFF<Bits<32>>,
    cnt13: DFF<Bits<32>>,
    cnt14: DFF<Bits<32>>,
    cnt15: DFF<Bits<32>>,
    cnt16: DFF<Bits<32>>,
    cnt17: DFF<Bits<32>>,
    cnt18: DFF<Bits<32>>,
    cnt19: DFF<Bits<32>>,
    cnt20: DFF<Bits<32>>,
    cnt21: DFF<Bits<32>>,
    cnt22: DFF<Bits<32>>,
    cnt23: DFF<Bits<32>>,
    cnt24: DFF<Bits<32>>,
    cnt25: DFF<Bits<32>>,
    cnt26: DFF<Bits<32>>,
    cnt27: DFF<Bits<32>>,
}

impl Logic for RxPipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            beat_idx,
            beat0,
            beat1,
            user_seen,
            keep_bad_seen,
            tlen_q,
            csum_left,
            csum_acc,
            frame_sum,
            e0_hdr,
            e0_keep,
            e0_idx,
            e0_fault,
            e1_pre_a,
            e1_eth_bad,
            e1_tlen,
            e1_top,
            e1_idx,
            e2_len,
            e1_pre_b,
            e1_post,
            e1_ipsum,
            e1_udp_found,
            e1_pseudo,
            e1_fault,
            e1_rec,
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
            e6_code,
            cnt0,
            cnt1,
            cnt2,
            cnt3,
            cnt4,
            cnt5,
            cnt6,
            cnt7,
            cnt8,
            cnt9,
            cnt10,
            cnt11,
            cnt12,
            cnt13,
            cnt14,
            cnt15,
            cnt16,
            cnt17,
            cnt18,
            cnt19,
            cnt20,
            cnt21,
            cnt22,
            cnt23,
            cnt24,
            cnt25,
            cnt26,
            cnt27
        );
        clock!(self, clock, icrc, csum, rec_line, chk_line, code_line, fifo);

        // ---- Input: one beat per clock while a verdict slot is sure to be free.
        self.s_axis_tready.next = self.fifo.credit.val() & !self.reset.val();
        self.fire.next = self.s_axis_tvalid.val() & self.s_axis_tready.val();
        self.first.next = self.beat_idx.q.val() == 0;
        self.tlen_now.next = self.tlen_q.q.val();
        if self.first.val() {
            self.tlen_now.next = (bit_cast::<16, 8>(self.s_axis_tdata.val().get_bits::<8>(128))
                << 8)
                | bit_cast::<16, 8>(self.s_axis_tdata.val().get_bits::<8>(136));
        }
        if self.fire.val() {
            if self.s_axis_tlast.val() {
                self.beat_idx.d.next = 0.into();
            } else if self.beat_idx.q.val() != 255 {
                self.beat_idx.d.next = self.beat_idx.q.val() + 1;
            }
            if self.first.val() {
                self.beat0.d.next = self.s_axis_tdata.val();
                self.tlen_q.d.next = self.tlen_now.val();
            }
            if self.beat_idx.q.val() == 1 {
                self.beat1.d.next = self.s_axis_tdata.val();
            }
            self.user_seen.d.next = self.user_seen.q.val() | self.s_axis_tuser.val();
            self.keep_bad_seen.d.next = self.keep_bad_seen.q.val() | !self.s_axis_tkeep.val().all();
            if self.s_axis_tlast.val() {
                self.user_seen.d.next = false;
                self.keep_bad_seen.d.next = false;
            }
        }

        // ICRC: the beats as they come; where the ICRC and the telemetry header sit, from the
        // first beat (BTH opcode byte 42, telemetry flag byte 50 bit 6).
        self.icrc.reset.next = self.reset.val();
        self.icrc.s_valid.next = self.fire.val();
        self.icrc.s_data.next = self.s_axis_tdata.val();
        self.icrc.s_last.next = self.s_axis_tlast.val();
        self.icrc.s_icrc_at.next = self.tlen_now.val() + 10;
        self.icrc.s_tele_at.next = 0.into();
        if self.s_axis_tdata.val().get_bit(406) {
            self.icrc.s_tele_at.next = 54.into();
            if (self.s_axis_tdata.val().get_bits::<8>(336) == OP_RDMA_WRITE_FIRST)
                | (self.s_axis_tdata.val().get_bits::<8>(336) == OP_RDMA_WRITE_ONLY)
                | (self.s_axis_tdata.val().get_bits::<8>(336) == OP_RDMA_READ_REQUEST)
            {
                self.icrc.s_tele_at.next = 70.into();
            }
            if (self.s_axis_tdata.val().get_bits::<8>(336) == OP_RDMA_READ_RESPONSE_FIRST)
                | (self.s_axis_tdata.val().get_bits::<8>(336) == OP_RDMA_READ_RESPONSE_LAST)
                | (self.s_axis_tdata.val().get_bits::<8>(336) == OP_RDMA_READ_RESPONSE_ONLY)
                | (self.s_axis_tdata.val().get_bits::<8>(336) == OP_ACKNOWLEDGE)
            {
                self.icrc.s_tele_at.next = 58.into();
            }
        }

        // UDP checksum: lanes from byte 34 (less the checksum) to the datagram end 14 + T.
        self.csum_n.next = self.csum_left.q.val();
        if self.first.val() {
            self.csum_n.next = bit_cast::<17, 16>(self.tlen_now.val()) + 14;
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
        if self.fire.val() {
            self.csum_left.d.next = 0.into();
            if self.csum_n.val() > 64 {
                self.csum_left.d.next = self.csum_n.val() - 64;
            }
        }
        self.csum.reset.next = self.reset.val();
        self.csum.in_valid.next = self.fire.val();
        self.csum.in_data.next = self.s_axis_tdata.val();
        self.csum.in_mask.next = self.csum_mask.val();
        self.csum_tag.next = 0.into();
        if self.first.val() {
            self.csum_tag.next = 1.into();
        }
        if self.s_axis_tlast.val() {
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
                self.frame_sum.d.next = self.acc_next.val();
            }
        }

        // Contiguous from lane 0: no kept lane above an empty one; and not empty, unless it is
        // the only beat (a zero-length frame, too short for Ethernet: code 1 in E2).
        self.keep_ok_last.next = (self.s_axis_tkeep.val().any() | self.first.val())
            & !((self.s_axis_tkeep.val() >> 1) & !self.s_axis_tkeep.val()).any();

        // ---- E0: capture at the last beat.
        if self.fire.val() & self.s_axis_tlast.val() {
            self.e0_keep.d.next = self.s_axis_tkeep.val();
            self.e0_idx.d.next = self.beat_idx.q.val();
            self.e0_hdr.d.next = (bit_cast::<1024, 512>(self.beat1.q.val()) << 512)
                | bit_cast::<1024, 512>(self.beat0.q.val());
            if self.beat_idx.q.val() == 1 {
                self.e0_hdr.d.next = (bit_cast::<1024, 512>(self.s_axis_tdata.val()) << 512)
                    | bit_cast::<1024, 512>(self.beat0.q.val());
            }
            if self.first.val() {
                self.e0_hdr.d.next = bit_cast::<1024, 512>(self.s_axis_tdata.val());
            }
            self.e0_fault.d.next = 0.into();
            // Longer than 9216 = 144 x 64 bytes.
            if (self.beat_idx.q.val() > 144)
                | ((self.beat_idx.q.val() == 144) & self.s_axis_tkeep.val().any())
            {
                self.e0_fault.d.next = 27.into();
            }
            if self.keep_bad_seen.q.val() | !self.keep_ok_last.val() {
                self.e0_fault.d.next = 26.into();
            }
            if self.user_seen.q.val() | self.s_axis_tuser.val() {
                self.e0_fault.d.next = 25.into();
            }
        }

        // ---- E1: decode the headers.
        // Frame length: 64 x beat index + 1 + highest kept lane of the last beat (added in E2).
        // Highest kept lane: the highest non-empty group of 8 lanes, then the highest lane in it.
        self.top_grp.next = 0.into();
        if self.e0_keep.q.val().get_bits::<8>(8).any() {
            self.top_grp.next = 1.into();
        }
        if self.e0_keep.q.val().get_bits::<8>(16).any() {
            self.top_grp.next = 2.into();
        }
        if self.e0_keep.q.val().get_bits::<8>(24).any() {
            self.top_grp.next = 3.into();
        }
        if self.e0_keep.q.val().get_bits::<8>(32).any() {
            self.top_grp.next = 4.into();
        }
        if self.e0_keep.q.val().get_bits::<8>(40).any() {
            self.top_grp.next = 5.into();
        }
        if self.e0_keep.q.val().get_bits::<8>(48).any() {
            self.top_grp.next = 6.into();
        }
        if self.e0_keep.q.val().get_bits::<8>(56).any() {
            self.top_grp.next = 7.into();
        }
        self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(0);
        if self.top_grp.val() == 1 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(8);
        }
        if self.top_grp.val() == 2 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(16);
        }
        if self.top_grp.val() == 3 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(24);
        }
        if self.top_grp.val() == 4 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(32);
        }
        if self.top_grp.val() == 5 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(40);
        }
        if self.top_grp.val() == 6 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(48);
        }
        if self.top_grp.val() == 7 {
            self.top_byte.next = self.e0_keep.q.val().get_bits::<8>(56);
        }
        self.top_in.next = 0.into();
        if self.top_byte.val().get_bit(1) {
            self.top_in.next = 1.into();
        }
        if self.top_byte.val().get_bit(2) {
            self.top_in.next = 2.into();
        }
        if self.top_byte.val().get_bit(3) {
            self.top_in.next = 3.into();
        }
        if self.top_byte.val().get_bit(4) {
            self.top_in.next = 4.into();
        }
        if self.top_byte.val().get_bit(5) {
            self.top_in.next = 5.into();
        }
        if self.top_byte.val().get_bit(6) {
            self.top_in.next = 6.into();
        }
        if self.top_byte.val().get_bit(7) {
            self.top_in.next = 7.into();
        }
        self.top_lane.next = 0.into();
        if self.e0_keep.q.val().any() {
            self.top_lane.next = ((bit_cast::<7, 3>(self.top_grp.val()) << 3)
                | bit_cast::<7, 3>(self.top_in.val()))
                + 1;
        }
        self.e1_top.d.next = self.top_lane.val();
        self.e1_idx.d.next = self.e0_idx.q.val();
        self.op.next = self.e0_hdr.q.val().get_bits::<8>(336);
        self.tlen.next = (bit_cast::<16, 8>(self.e0_hdr.q.val().get_bits::<8>(128)) << 8)
            | bit_cast::<16, 8>(self.e0_hdr.q.val().get_bits::<8>(136));
        self.icrc_at.next = bit_cast::<17, 16>(self.tlen.val()) + 10;
        self.has_reth.next =
            (self.op.val() == OP_RDMA_WRITE_FIRST) | (self.op.val() == OP_RDMA_WRITE_ONLY) | (self.op.val() == OP_RDMA_READ_REQUEST);
        self.has_aeth.next = (self.op.val() == OP_RDMA_READ_RESPONSE_FIRST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_LAST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_ONLY)
            | (self.op.val() == OP_ACKNOWLEDGE);
        self.has_payload.next = (self.op.val() == OP_RDMA_WRITE_FIRST)
            | (self.op.val() == OP_RDMA_WRITE_MIDDLE)
            | (self.op.val() == OP_RDMA_WRITE_LAST)
            | (self.op.val() == OP_RDMA_WRITE_ONLY)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_FIRST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_MIDDLE)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_LAST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_ONLY);
        self.is_cnp.next = self.op.val() == OP_CNP;
        self.must_tel.next = (self.op.val() == OP_HPCC_PROBE) | (self.op.val() == OP_HPCC_TELEMETRY_RESPONSE);
        self.echoes.next = (self.op.val() == OP_ACKNOWLEDGE) | (self.op.val() == OP_HPCC_TELEMETRY_RESPONSE);
        self.known.next = self.has_reth.val()
            | self.has_aeth.val()
            | self.has_payload.val()
            | self.is_cnp.val()
            | self.must_tel.val();
        self.has_tel.next = self.e0_hdr.q.val().get_bit(406);
        self.pad.next = self.e0_hdr.q.val().get_bits::<2>(348);
        self.tel_at.next = 54.into();
        self.tel.next = self.e0_hdr.q.val().get_bits::<352>(432);
        if self.has_aeth.val() {
            self.tel_at.next = 58.into();
            self.tel.next = self.e0_hdr.q.val().get_bits::<352>(464);
        }
        if self.has_reth.val() {
            self.tel_at.next = 70.into();
            self.tel.next = self.e0_hdr.q.val().get_bits::<352>(560);
        }
        self.nhop.next = self.tel.val().get_bits::<8>(8);
        self.hop_bad.next = ((self.nhop.val() > 0) & (self.tel.val().get_bits::<3>(37) > 4))
            | ((self.nhop.val() > 1) & (self.tel.val().get_bits::<3>(101) > 4))
            | ((self.nhop.val() > 2) & (self.tel.val().get_bits::<3>(165) > 4))
            | ((self.nhop.val() > 3) & (self.tel.val().get_bits::<3>(229) > 4))
            | ((self.nhop.val() > 4) & (self.tel.val().get_bits::<3>(293) > 4));
        self.pay_at.next = self.tel_at.val();
        if self.has_tel.val() {
            self.pay_at.next = self.tel_at.val() + 44;
        }
        self.rest.next = self.icrc_at.val() - self.pay_at.val();
        self.pay_len.next = self.rest.val() - bit_cast::<17, 2>(self.pad.val());
        self.udp_len3.next = self.tlen.val() - 3;
        self.hops.next = 0.into();
        if self.has_tel.val() {
            if self.nhop.val() > 0 {
                self.hops.next = bit_cast::<320, 64>(self.tel.val().get_bits::<64>(32));
            }
            if self.nhop.val() > 1 {
                self.hops.next = self.hops.val()
                    | (bit_cast::<320, 64>(self.tel.val().get_bits::<64>(96)) << 64);
            }
            if self.nhop.val() > 2 {
                self.hops.next = self.hops.val()
                    | (bit_cast::<320, 64>(self.tel.val().get_bits::<64>(160)) << 128);
            }
            if self.nhop.val() > 3 {
                self.hops.next = self.hops.val()
                    | (bit_cast::<320, 64>(self.tel.val().get_bits::<64>(224)) << 192);
            }
            if self.nhop.val() > 4 {
                self.hops.next = self.hops.val()
                    | (bit_cast::<320, 64>(self.tel.val().get_bits::<64>(288)) << 256);
            }
        }
        // Rx-HPCC feedback (F, byte 0 bit 2), read only in an echo without hops: hop word 0
        // is then slot 0's bytes 4-7 (W), its bytes 0-3 dropped.
        self.fb.next = self.has_tel.val() & self.tel.val().get_bit(3) & self.tel.val().get_bit(2) & !self.nhop.val().any();
        if self.fb.val() {
            self.hops.next = bit_cast::<320, 32>(self.tel.val().get_bits::<32>(64)) << 32;
        }
        // Checks of parse, in its order, as three codes: before the IPv4 checksum (code 5),
        // between it and the UDP checksum (code 11), after it. The last `if` that holds wins.
        self.pre_a.next = 0.into();
        if self.e0_hdr.q.val().get_bits::<4>(112) != 5 {
            self.pre_a.next = 4.into();
        }
        if self.e0_hdr.q.val().get_bits::<4>(116) != 4 {
            self.pre_a.next = 3.into();
        }
        self.pre_b.next = 0.into();
        if self.e0_hdr.q.val().get_bits::<16>(288) != 0xB712 {
            self.pre_b.next = 10.into();
        }
        if ((bit_cast::<16, 8>(self.e0_hdr.q.val().get_bits::<8>(304)) << 8)
            | bit_cast::<16, 8>(self.e0_hdr.q.val().get_bits::<8>(312)))
            != self.tlen.val() - 20
        {
            self.pre_b.next = 9.into();
        }
        if self.e0_hdr.q.val().get_bits::<8>(184) != 17 {
            self.pre_b.next = 8.into();
        }
        if (self.e0_hdr.q.val().get_bits::<6>(160) != 0)
            | (self.e0_hdr.q.val().get_bits::<8>(168) != 0)
        {
            self.pre_b.next = 7.into();
        }
        self.post.next = 0.into();
        if (self.has_payload.val() & (bit_cast::<17, 2>(self.pad.val()) > self.rest.val()))
            | (!self.has_payload.val() & self.pad.val().any())
        {
            self.post.next = 23.into();
        }
        if !self.has_payload.val() & !self.is_cnp.val() & self.rest.val().any() {
            self.post.next = 22.into();
        }
        if self.is_cnp.val() & (self.rest.val() != 16) {
            self.post.next = 21.into();
        }
        if self.has_tel.val() & self.hop_bad.val() {
            self.post.next = 20.into();
        }
        if self.has_tel.val() & (self.nhop.val() > 5) {
            self.post.next = 19.into();
        }
        if self.has_tel.val() & (self.tel.val().get_bit(3) != self.echoes.val()) {
            self.post.next = 18.into();
        }
        if self.has_tel.val() & (self.tel.val().get_bits::<4>(4) != 1) {
            self.post.next = 17.into();
        }
        if self.has_tel.val() & (bit_cast::<17, 16>(self.tlen.val()) < self.tel_at.val() + 34) {
            self.post.next = 1.into();
        }
        if !self.has_tel.val() & self.must_tel.val() {
            self.post.next = 16.into();
        }
        if self.has_tel.val() & self.is_cnp.val() {
            self.post.next = 15.into();
        }
        if self.has_aeth.val()
            & (self.e0_hdr.q.val().get_bit(439) | (self.e0_hdr.q.val().get_bits::<2>(437) == 2))
        {
            self.post.next = 14.into();
        }
        if (self.has_reth.val() & (self.tlen.val() < 60))
            | (self.has_aeth.val() & (self.tlen.val() < 48))
        {
            self.post.next = 1.into();
        }
        if !self.known.val() {
            self.post.next = 13.into();
        }
        if self.e0_hdr.q.val().get_bits::<4>(344).any() {
            self.post.next = 12.into();
        }
        if self.tlen.val() < 44 {
            self.post.next = 1.into();
        }
        self.e1_pre_a.d.next = self.pre_a.val();
        self.e1_eth_bad.d.next = self.e0_hdr.q.val().get_bits::<16>(96) != 0x0008;
        self.e1_tlen.d.next = self.tlen.val();
        self.e1_pre_b.d.next = self.pre_b.val();
        self.e1_post.d.next = self.post.val();
        // The ten IPv4 header words, checksum included (byte-swapped: one's-complement sums
        // do not care; at most 10 x 0xFFFF, 20 bits), and the UDP pseudo-header: addresses +
        // protocol + UDP length (T - 3).
        self.e1_ipsum.d.next = bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(112))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(128))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(144))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(160))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(176))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(192))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(208))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(224))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(240))
            + bit_cast::<20, 16>(self.e0_hdr.q.val().get_bits::<16>(256));
        self.e1_udp_found.d.next = self.e0_hdr.q.val().get_bits::<16>(320);
        self.e1_pseudo.d.next = bit_cast::<19, 16>(self.e0_hdr.q.val().get_bits::<16>(208))
            + bit_cast::<19, 16>(self.e0_hdr.q.val().get_bits::<16>(224))
            + bit_cast::<19, 16>(self.e0_hdr.q.val().get_bits::<16>(240))
            + bit_cast::<19, 16>(self.e0_hdr.q.val().get_bits::<16>(256))
            + (bit_cast::<19, 8>(self.udp_len3.val().get_bits::<8>(0)) << 8)
            + bit_cast::<19, 8>(self.udp_len3.val().get_bits::<8>(8));
        // The record (code 0), field by field (sim::layout::VERDICT). Multi-byte header fields
        // are big-endian on the wire; the record holds them as numbers, except RETH and hops.
        self.rec.next = 0.into();
        self.rec.next.set_value_opcode(self.op.val());
        self.rec.next.set_value_ack_req(self.e0_hdr.q.val().get_bit(407));
        self.rec.next.set_value_becn(self.e0_hdr.q.val().get_bit(374));
        self.rec.next.set_value_fecn(self.e0_hdr.q.val().get_bit(375));
        self.rec.next.set_value_solicited(self.e0_hdr.q.val().get_bit(351));
        self.rec.next.set_value_ecn(self.e0_hdr.q.val().get_bits::<2>(120));
        self.rec.next.set_value_pad(self.pad.val());
        self.rec.next.set_value_payload_at(self.pay_at.val().get_bits::<7>(0));
        self.rec.next.set_value_dest_qp(
            (bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(376)) << 16)
                | (bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(384)) << 8)
                | bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(392)),
        );
        self.rec.next.set_value_psn(
            (bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(408)) << 16)
                | (bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(416)) << 8)
                | bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(424)),
        );
        self.rec.next.set_value_udp_src_port(
            (bit_cast::<16, 8>(self.e0_hdr.q.val().get_bits::<8>(272)) << 8)
                | bit_cast::<16, 8>(self.e0_hdr.q.val().get_bits::<8>(280)),
        );
        self.rec.next.set_value_hops(self.hops.val());
        if self.has_tel.val() {
            self.rec.next.set_value_telemetry(true);
            self.rec.next.set_value_echo(self.tel.val().get_bit(3));
            self.rec.next.set_value_nhop(self.nhop.val().get_bits::<3>(0));
            self.rec.next.set_value_feedback(self.fb.val());
        }
        if self.has_aeth.val() {
            self.rec.next.set_value_aeth_syndrome(self.e0_hdr.q.val().get_bits::<8>(432));
            self.rec.next.set_value_aeth_msn(
                (bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(440)) << 16)
                    | (bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(448)) << 8)
                    | bit_cast::<24, 8>(self.e0_hdr.q.val().get_bits::<8>(456)),
            );
        }
        if self.has_reth.val() {
            // VA, R_Key and DMA length stay in wire byte order.
            self.rec.next.set_value_reth_va(self.e0_hdr.q.val().get_bits::<64>(432));
            self.rec.next.set_value_reth_rkey(self.e0_hdr.q.val().get_bits::<32>(496));
            self.rec.next.set_value_reth_len(self.e0_hdr.q.val().get_bits::<32>(528));
        }
        if self.has_payload.val() {
            self.rec.next.set_value_payload_len(self.pay_len.val().get_bits::<16>(0));
        }
        self.e1_fault.d.next = self.e0_fault.q.val();
        self.e1_rec.d.next = self.rec.val();
        self.rec_line.in_data.next = self.e1_rec.q.val();

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
            self.pre_code.next = 6.into();
        }
        if !self.ip_sum.val().all() {
            self.pre_code.next = 5.into();
        }
        if self.e1_pre_a.q.val().any() {
            self.pre_code.next = self.e1_pre_a.q.val();
        }
        if self.len.val() < 34 {
            self.pre_code.next = 1.into();
        }
        if self.e1_eth_bad.q.val() {
            self.pre_code.next = 2.into();
        }
        if self.len.val() < 14 {
            self.pre_code.next = 1.into();
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
        self.udp_total.next = self.frame_sum.q.val() + bit_cast::<32, 19>(self.e4_pseudo.val());
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
            self.code3.next = 11.into();
        }
        if self.e5_pre.q.val().any() {
            self.code3.next = self.e5_pre.q.val();
        }
        if self.e5_fault.q.val().any() {
            self.code3.next = self.e5_fault.q.val();
        }
        self.e6_code.d.next =
            bit_cast::<21, 5>(self.code3.val()) | (bit_cast::<21, 16>(self.e5_len.q.val()) << 5);
        self.code_line.in_data.next = self.e6_code.q.val();

        // ---- Final: with icrc_pipe's ICRC, into the verdict FIFO.
        self.fin_fire.next = self.icrc.m_valid.val();
        self.fin_code.next = self.code_line.out_data.val().get_bits::<5>(0);
        if !self.code_line.out_data.val().get_bits::<5>(0).any()
            & (self.icrc.m_crc.val() != self.icrc.m_found.val())
        {
            self.fin_code.next = 24.into();
        }
        self.fin_rec.next = self.rec_line.out_data.val();
        if self.fin_code.val().any() {
            // A dropped frame's record is its code and length only.
            self.fin_rec.next = 0.into();
            self.fin_rec.next.set_value_code(bit_cast::<8, 5>(self.fin_code.val()));
        }
        self.fin_rec.next.set_value_len(self.code_line.out_data.val().get_bits::<16>(5));
        self.fifo.reset.next = self.reset.val();
        self.fifo.issue.next = self.fire.val() & self.s_axis_tlast.val();
        self.fifo.in_valid.next = self.fin_fire.val();
        self.fifo.in_data.next = self.fin_rec.val();
        self.m_axis_verdict_tdata.next = self.fifo.m_axis_tdata.val();
        self.m_axis_verdict_tvalid.next = self.fifo.m_axis_tvalid.val();
        self.fifo.m_axis_tready.next = self.m_axis_verdict_tready.val();

        // ---- Counters.
        if self.fin_fire.val() & (self.fin_code.val() == 0) {
            self.cnt0.d.next = self.cnt0.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 1) {
            self.cnt1.d.next = self.cnt1.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 2) {
            self.cnt2.d.next = self.cnt2.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 3) {
            self.cnt3.d.next = self.cnt3.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 4) {
            self.cnt4.d.next = self.cnt4.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 5) {
            self.cnt5.d.next = self.cnt5.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 6) {
            self.cnt6.d.next = self.cnt6.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 7) {
            self.cnt7.d.next = self.cnt7.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 8) {
            self.cnt8.d.next = self.cnt8.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 9) {
            self.cnt9.d.next = self.cnt9.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 10) {
            self.cnt10.d.next = self.cnt10.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 11) {
            self.cnt11.d.next = self.cnt11.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 12) {
            self.cnt12.d.next = self.cnt12.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 13) {
            self.cnt13.d.next = self.cnt13.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 14) {
            self.cnt14.d.next = self.cnt14.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 15) {
            self.cnt15.d.next = self.cnt15.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 16) {
            self.cnt16.d.next = self.cnt16.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 17) {
            self.cnt17.d.next = self.cnt17.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 18) {
            self.cnt18.d.next = self.cnt18.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 19) {
            self.cnt19.d.next = self.cnt19.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 20) {
            self.cnt20.d.next = self.cnt20.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 21) {
            self.cnt21.d.next = self.cnt21.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 22) {
            self.cnt22.d.next = self.cnt22.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 23) {
            self.cnt23.d.next = self.cnt23.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 24) {
            self.cnt24.d.next = self.cnt24.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 25) {
            self.cnt25.d.next = self.cnt25.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 26) {
            self.cnt26.d.next = self.cnt26.q.val() + 1;
        }
        if self.fin_fire.val() & (self.fin_code.val() == 27) {
            self.cnt27.d.next = self.cnt27.q.val() + 1;
        }
        self.stat_count.next = 0.into();
        if self.stat_addr.val() == 0 {
            self.stat_count.next = self.cnt0.q.val();
        }
        if self.stat_addr.val() == 1 {
            self.stat_count.next = self.cnt1.q.val();
        }
        if self.stat_addr.val() == 2 {
            self.stat_count.next = self.cnt2.q.val();
        }
        if self.stat_addr.val() == 3 {
            self.stat_count.next = self.cnt3.q.val();
        }
        if self.stat_addr.val() == 4 {
            self.stat_count.next = self.cnt4.q.val();
        }
        if self.stat_addr.val() == 5 {
            self.stat_count.next = self.cnt5.q.val();
        }
        if self.stat_addr.val() == 6 {
            self.stat_count.next = self.cnt6.q.val();
        }
        if self.stat_addr.val() == 7 {
            self.stat_count.next = self.cnt7.q.val();
        }
        if self.stat_addr.val() == 8 {
            self.stat_count.next = self.cnt8.q.val();
        }
        if self.stat_addr.val() == 9 {
            self.stat_count.next = self.cnt9.q.val();
        }
        if self.stat_addr.val() == 10 {
            self.stat_count.next = self.cnt10.q.val();
        }
        if self.stat_addr.val() == 11 {
            self.stat_count.next = self.cnt11.q.val();
        }
        if self.stat_addr.val() == 12 {
            self.stat_count.next = self.cnt12.q.val();
        }
        if self.stat_addr.val() == 13 {
            self.stat_count.next = self.cnt13.q.val();
        }
        if self.stat_addr.val() == 14 {
            self.stat_count.next = self.cnt14.q.val();
        }
        if self.stat_addr.val() == 15 {
            self.stat_count.next = self.cnt15.q.val();
        }
        if self.stat_addr.val() == 16 {
            self.stat_count.next = self.cnt16.q.val();
        }
        if self.stat_addr.val() == 17 {
            self.stat_count.next = self.cnt17.q.val();
        }
        if self.stat_addr.val() == 18 {
            self.stat_count.next = self.cnt18.q.val();
        }
        if self.stat_addr.val() == 19 {
            self.stat_count.next = self.cnt19.q.val();
        }
        if self.stat_addr.val() == 20 {
            self.stat_count.next = self.cnt20.q.val();
        }
        if self.stat_addr.val() == 21 {
            self.stat_count.next = self.cnt21.q.val();
        }
        if self.stat_addr.val() == 22 {
            self.stat_count.next = self.cnt22.q.val();
        }
        if self.stat_addr.val() == 23 {
            self.stat_count.next = self.cnt23.q.val();
        }
        if self.stat_addr.val() == 24 {
            self.stat_count.next = self.cnt24.q.val();
        }
        if self.stat_addr.val() == 25 {
            self.stat_count.next = self.cnt25.q.val();
        }
        if self.stat_addr.val() == 26 {
            self.stat_count.next = self.cnt26.q.val();
        }
        if self.stat_addr.val() == 27 {
            self.stat_count.next = self.cnt27.q.val();
        }

        if self.reset.val() {
            self.beat_idx.d.next = 0.into();
            self.user_seen.d.next = false;
            self.keep_bad_seen.d.next = false;
            self.cnt0.d.next = 0.into();
            self.cnt1.d.next = 0.into();
            self.cnt2.d.next = 0.into();
            self.cnt3.d.next = 0.into();
            self.cnt4.d.next = 0.into();
            self.cnt5.d.next = 0.into();
            self.cnt6.d.next = 0.into();
            self.cnt7.d.next = 0.into();
            self.cnt8.d.next = 0.into();
            self.cnt9.d.next = 0.into();
            self.cnt10.d.next = 0.into();
            self.cnt11.d.next = 0.into();
            self.cnt12.d.next = 0.into();
            self.cnt13.d.next = 0.into();
            self.cnt14.d.next = 0.into();
            self.cnt15.d.next = 0.into();
            self.cnt16.d.next = 0.into();
            self.cnt17.d.next = 0.into();
            self.cnt18.d.next = 0.into();
            self.cnt19.d.next = 0.into();
            self.cnt20.d.next = 0.into();
            self.cnt21.d.next = 0.into();
            self.cnt22.d.next = 0.into();
            self.cnt23.d.next = 0.into();
            self.cnt24.d.next = 0.into();
            self.cnt25.d.next = 0.into();
            self.cnt26.d.next = 0.into();
            self.cnt27.d.next = 0.into();
        }
    }
}
