//! Rx pipe, parse stage: RoCEv2 frames from the MAC shim in (512-bit AXI-Stream), one verdict
//! record per frame out (accepted with the header fields, or the drop reason), and a counter
//! per reason. The golden model is `sim::rx_pipe`; every check is `RocePacket::parse`'s, in its
//! order (first failing check wins, same code), after three stream-level checks (tuser, tkeep,
//! length). docs/modules/rx_pipe.md has the record layout, latency and figures.
//!
//! Timing, for a frame whose last beat is accepted in cycle t: the headers (beats 0 and 1, or
//! the only beat) are captured at t (E0); rx_pipe_decode turns them into the record and three
//! partial codes at t+1 (E1); rx_pipe_judge joins the IPv4 checksum at t+2 (E2) and the UDP
//! checksum (rx_pipe_udp_sum, summed as the beats come) at t+5 and t+6, where the code is
//! registered (E6). Record and code wait in delay lines beside icrc_pipe and are judged when
//! its ICRC comes out at t + LATENCY, then written to the verdict FIFO. The input takes one beat
//! per clock whenever fewer than 128 verdicts are owed (result_fifo's credit), so it never
//! stalls while the output is read.
//!
//! Blocks: rx_pipe_udp_sum (input side), rx_pipe_decode (E1), rx_pipe_judge (E1..E6),
//! icrc_pipe, result_fifo; this file holds the input, E0, the final join and the counters.

use crate::delay_line::DelayLine;
use crate::icrc_pipe::IcrcPipe;
use crate::layout::{TxHdrBeatNamed, VerdictFields};
use crate::result_fifo::ResultFifo;
use crate::roce_op_class::RoceOpClass;
use crate::rx_pipe_decode::RxPipeDecode;
use crate::rx_pipe_judge::RxPipeJudge;
use crate::rx_pipe_udp_sum::RxPipeUdpSum;
use rust_hdl::prelude::*;
use sim::rx_pipe::REASONS;

/// Cycles from the last beat of a frame to its verdict entering the FIFO (one more to show on
/// `m_axis_verdict_tvalid`).
pub const LATENCY: usize = IcrcPipe::LATENCY;
/// Cycles from the last beat to the record being registered (E0, E1).
const REC_STAGES: usize = 2;
/// Bits of a verdict record.
pub const VERDICT_BITS: usize = 640;
/// Bits of a drop code inside the pipe (0 accepted, 1..REASONS-1 the reasons).
pub const CODE_BITS: usize = 5;
/// Bits of the beat counter: it counts to `sim::rx_pipe::MAX_BEAT_INDEX` and stops.
pub const BEAT_INDEX_BITS: usize = 8;
const _: () = assert!(REASONS <= 1 << CODE_BITS && sim::rx_pipe::MAX_BEAT_INDEX < 1 << BEAT_INDEX_BITS);

codes! {
    /// The stream faults E0 finds: drop codes at `CODE_BITS`.
    FAULTS;
    /// The MAC flagged the frame (tuser).
    MAC_ERROR = sim::rx_pipe::MAC_ERROR,
    /// tkeep not all ones before the last beat, or not contiguous from lane 0 on it.
    KEEP_HOLE = sim::rx_pipe::KEEP_HOLE,
    /// Longer than `sim::rx_pipe::MAX_FRAME` bytes.
    TOO_LONG = sim::rx_pipe::TOO_LONG,
}

codes! {
    /// The frame checks' drop codes (`sim::packet::ParseError`'s, in its check order), at
    /// `CODE_BITS`: rx_pipe_decode, rx_pipe_judge and the ICRC check write them by name.
    DROP_CODES;
    DROP_TRUNCATED = sim::packet::ParseError::TRUNCATED,
    DROP_UNSUPPORTED_ETHER_TYPE = sim::packet::ParseError::UNSUPPORTED_ETHER_TYPE,
    DROP_NOT_IPV4 = sim::packet::ParseError::NOT_IPV4,
    DROP_IPV4_OPTIONS = sim::packet::ParseError::IPV4_OPTIONS,
    DROP_BAD_IPV4_CHECKSUM = sim::packet::ParseError::BAD_IPV4_CHECKSUM,
    DROP_IPV4_LENGTH_MISMATCH = sim::packet::ParseError::IPV4_LENGTH_MISMATCH,
    DROP_IPV4_FRAGMENTED = sim::packet::ParseError::IPV4_FRAGMENTED,
    DROP_NOT_UDP = sim::packet::ParseError::NOT_UDP,
    DROP_UDP_LENGTH_MISMATCH = sim::packet::ParseError::UDP_LENGTH_MISMATCH,
    DROP_WRONG_UDP_PORT = sim::packet::ParseError::WRONG_UDP_PORT,
    DROP_BAD_UDP_CHECKSUM = sim::packet::ParseError::BAD_UDP_CHECKSUM,
    DROP_BAD_BTH_VERSION = sim::packet::ParseError::BAD_BTH_VERSION,
    DROP_UNKNOWN_OPCODE = sim::packet::ParseError::UNKNOWN_OPCODE,
    DROP_BAD_AETH_SYNDROME = sim::packet::ParseError::BAD_AETH_SYNDROME,
    DROP_UNEXPECTED_TELEMETRY = sim::packet::ParseError::UNEXPECTED_TELEMETRY,
    DROP_MISSING_TELEMETRY = sim::packet::ParseError::MISSING_TELEMETRY,
    DROP_BAD_TELEMETRY_VERSION = sim::packet::ParseError::BAD_TELEMETRY_VERSION,
    DROP_TELEMETRY_MODE_MISMATCH = sim::packet::ParseError::TELEMETRY_MODE_MISMATCH,
    DROP_HOP_COUNT_OUT_OF_RANGE = sim::packet::ParseError::HOP_COUNT_OUT_OF_RANGE,
    DROP_UNKNOWN_LINE_RATE = sim::packet::ParseError::UNKNOWN_LINE_RATE,
    DROP_BAD_CNP_LENGTH = sim::packet::ParseError::BAD_CNP_LENGTH,
    DROP_UNEXPECTED_PAYLOAD = sim::packet::ParseError::UNEXPECTED_PAYLOAD,
    DROP_BAD_PAD_COUNT = sim::packet::ParseError::BAD_PAD_COUNT,
    DROP_BAD_ICRC = sim::packet::ParseError::BAD_ICRC,
}

codes! {
    /// The frame limit in beats, at `BEAT_INDEX_BITS`.
    FRAME_LIMITS;
    /// Whole beats in the longest frame accepted (9216 / 64 = 144).
    MAX_FRAME_BEATS = sim::rx_pipe::MAX_FRAME / sim::rx_pipe::BEAT_BYTES,
}
const _: () = assert!(sim::rx_pipe::MAX_FRAME % sim::rx_pipe::BEAT_BYTES == 0);

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
    pub stat_addr: Signal<In, Bits<CODE_BITS>>,
    /// The selected counter (32 bits, wraps), combinational from `stat_addr`; 0 for 28..=31.
    pub stat_count: Signal<Out, Bits<32>>,
    icrc: IcrcPipe,
    /// The first beat's opcode class, for where the ICRC skips the telemetry header.
    op_class: RoceOpClass,
    udp_sum: RxPipeUdpSum,
    rec_line: DelayLine<640, { LATENCY - REC_STAGES }>,
    code_line: DelayLine<21, { LATENCY - RxPipeJudge::STAGES }>,
    fifo: ResultFifo<640>,
    // Input side, per beat.
    beat_idx: DFF<Bits<BEAT_INDEX_BITS>>,
    beat0: DFF<Bits<512>>,
    beat1: DFF<Bits<512>>,
    user_seen: DFF<bool>,
    keep_bad_seen: DFF<bool>,
    tlen_q: DFF<Bits<16>>,
    fire: Signal<Local, bool>,
    first: Signal<Local, bool>,
    tlen_now: Signal<Local, Bits<16>>,
    tlen_w: Signal<Local, Bits<16>>,
    keep_ok_last: Signal<Local, bool>,
    // E0: the frame's headers and stream faults.
    e0_hdr: DFF<Bits<1024>>,
    e0_keep: DFF<Bits<64>>,
    e0_idx: DFF<Bits<BEAT_INDEX_BITS>>,
    e0_fault: DFF<Bits<CODE_BITS>>,
    // E1: the headers decoded (rx_pipe_decode), the frame length.
    decode: RxPipeDecode,
    // E1 to E6: the drop code.
    judge: RxPipeJudge,
    e1_rec: DFF<Bits<640>>,
    // Final: with the ICRC.
    fin_fire: Signal<Local, bool>,
    fin_code: Signal<Local, Bits<CODE_BITS>>,
    fin_rec: Signal<Local, Bits<640>>,
    /// Counter c: frames accepted (c = 0) or dropped with code c.
    cnt: [DFF<Bits<32>>; REASONS],
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
            e0_hdr,
            e0_keep,
            e0_idx,
            e0_fault,
            e1_rec
        );
        clock!(self, clock, icrc, udp_sum, judge, rec_line, code_line, fifo);
        for c in 0..REASONS {
            self.cnt[c].clock.next = self.clock.val();
            self.cnt[c].d.next = self.cnt[c].q.val();
        }

        // ---- Input: one beat per clock while a verdict slot is sure to be free.
        self.s_axis_tready.next = self.fifo.credit.val() & !self.reset.val();
        self.fire.next = self.s_axis_tvalid.val() & self.s_axis_tready.val();
        self.first.next = self.beat_idx.q.val() == 0;
        // A first beat's header fields (sim::layout::TX_HDR, the part in the beat).
        self.tlen_w.next = self.s_axis_tdata.val().get_value_tx_hdr_total_len();
        self.tlen_now.next = self.tlen_q.q.val();
        if self.first.val() {
            self.tlen_now.next = (self.tlen_w.val() >> 8) | (self.tlen_w.val() << 8);
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
        self.op_class.op.next = self.s_axis_tdata.val().get_value_tx_hdr_opcode();
        self.icrc.s_tele_at.next = 0.into();
        if self.s_axis_tdata.val().get_value_tx_hdr_tele() {
            self.icrc.s_tele_at.next = self.op_class.after.val();
        }

        // UDP checksum: the frame's datagram lanes summed as they come.
        self.udp_sum.reset.next = self.reset.val();
        self.udp_sum.valid.next = self.fire.val();
        self.udp_sum.data.next = self.s_axis_tdata.val();
        self.udp_sum.first.next = self.first.val();
        self.udp_sum.last.next = self.s_axis_tlast.val();
        self.udp_sum.tlen.next = self.tlen_now.val();

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
            // More than MAX_FRAME_BEATS whole beats.
            if (self.beat_idx.q.val() > MAX_FRAME_BEATS)
                | ((self.beat_idx.q.val() == MAX_FRAME_BEATS) & self.s_axis_tkeep.val().any())
            {
                self.e0_fault.d.next = TOO_LONG.into();
            }
            if self.keep_bad_seen.q.val() | !self.keep_ok_last.val() {
                self.e0_fault.d.next = KEEP_HOLE.into();
            }
            if self.user_seen.q.val() | self.s_axis_tuser.val() {
                self.e0_fault.d.next = MAC_ERROR.into();
            }
        }

        // ---- E1: decode the headers.
        self.decode.hdr.next = self.e0_hdr.q.val();
        self.e1_rec.d.next = self.decode.rec.val();
        self.rec_line.in_data.next = self.e1_rec.q.val();
        // ---- E1 to E6: the frame length and the drop code (rx_pipe_judge).
        self.judge.keep.next = self.e0_keep.q.val();
        self.judge.idx.next = self.e0_idx.q.val();
        self.judge.fault.next = self.e0_fault.q.val();
        self.judge.pre_a.next = self.decode.pre_a.val();
        self.judge.eth_bad.next = self.decode.eth_bad.val();
        self.judge.tlen.next = self.decode.tlen.val();
        self.judge.pre_b.next = self.decode.pre_b.val();
        self.judge.post.next = self.decode.post.val();
        self.judge.ipsum.next = self.decode.ipsum.val();
        self.judge.udp_found.next = self.decode.udp_found.val();
        self.judge.pseudo.next = self.decode.pseudo.val();
        self.judge.frame_sum.next = self.udp_sum.frame_sum.val();
        self.code_line.in_data.next = self.judge.code.val();

        // ---- Final: with icrc_pipe's ICRC, into the verdict FIFO.
        self.fin_fire.next = self.icrc.m_valid.val();
        self.fin_code.next = self.code_line.out_data.val().get_bits::<5>(0);
        if !self.code_line.out_data.val().get_bits::<5>(0).any()
            & (self.icrc.m_crc.val() != self.icrc.m_found.val())
        {
            self.fin_code.next = DROP_BAD_ICRC.into();
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
        self.stat_count.next = 0.into();
        for c in 0..REASONS {
            if self.fin_fire.val() & (self.fin_code.val().index() == c) {
                self.cnt[c].d.next = self.cnt[c].q.val() + 1;
            }
            if self.stat_addr.val().index() == c {
                self.stat_count.next = self.cnt[c].q.val();
            }
        }

        if self.reset.val() {
            self.beat_idx.d.next = 0.into();
            self.user_seen.d.next = false;
            self.keep_bad_seen.d.next = false;
            for c in 0..REASONS {
                self.cnt[c].d.next = 0.into();
            }
        }
    }
}
