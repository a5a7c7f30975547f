//! Tx pipe, frame builder: one header descriptor plus its payload stream -> one RoCEv2 frame on
//! a 512-bit AXI-Stream, one beat per clock, no bubble between frames. Byte-identical with
//! `sim::tx_pipe::tx_frame` (docs/modules/tx_pipe.md).
//!
//! ```text
//! A   descriptor register; opcode decode, payload length, pad, header length, ICRC offset,
//!     the IPv4 checksum's sum over the fields that do not depend on the length
//! B   header bytes (1024 bits: Ethernet .. telemetry, checksum, lengths, PadCnt, T), beat
//!     counts, keep masks, where the ICRC goes
//! F   frame builder: beat k = header beat k | payload realigned by the header length
//!     (current payload beat << 8h | previous >> (512 - 8h)), pad and ICRC bytes zero;
//!     each beat goes into the beat FIFO and into icrc_pipe
//! O   beat FIFO (32 beats, LUT RAM) -> the ICRC bytes inserted from the CRC FIFO -> output
//!     register -> m_axis. A frame starts once its CRC is known or 14 beats are queued
//!     (more than icrc_pipe's latency: its ICRC is then known before its last beat is at the
//!     head), so a frame is sent without gaps unless the inputs starve in its middle.
//! ```
//!
//! Blocks: tx_pipe_desc (A's decode), tx_pipe_hdr (B's header bytes), tx_pipe_out (O, with
//! icrc_pipe); the stage registers and the frame builder F are here.
//!
//! Payload length mismatch: the frame keeps the descriptor's length; missing bytes are zero,
//! surplus beats are dropped up to the stream's tlast; `m_axis_tuser` is high on the frame's
//! last beat and `stat_len_err` counts it.

use crate::byte_mask::ByteMask;
use crate::tx_pipe_desc::{TxPipeDesc, TELEMETRY_LEN};
use crate::tx_pipe_hdr::TxPipeHdr;
use crate::tx_pipe_out::TxPipeOut;
use crate::icrc_pipe::IcrcPipe;
use rust_hdl::prelude::*;

/// Beat FIFO depth (log2).
pub const FIFO_BITS: usize = 5;
codes! {
    /// Beat FIFO levels (tx_pipe_out's `q_count`, 6 bits): its depth, and the queued beats at
    /// which a frame may start before its CRC is known (see the module doc).
    FIFO_LEVELS;
    FIFO_DEPTH = 1 << FIFO_BITS,
    START_LEVEL = 14,
}
const _: () = assert!(START_LEVEL as usize >= IcrcPipe::LATENCY + 3 && START_LEVEL < FIFO_DEPTH);

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct TxPipe {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties every stage and the FIFOs, clears `stat_len_err`.
    pub reset: Signal<In, bool>,
    /// Header descriptor, 128 bytes, byte i at [8i+7:8i] (layout: `sim::layout::TX_DESC`).
    pub s_axis_desc_tdata: Signal<In, Bits<1024>>,
    /// A descriptor is offered.
    pub s_axis_desc_tvalid: Signal<In, bool>,
    /// The descriptor is taken (depends on `s_axis_payload_tvalid`, never on `m_axis_tready`).
    pub s_axis_desc_tready: Signal<Out, bool>,
    /// Payload beat, lane-0 aligned: payload byte 64j+i at [8i+7:8i] of beat j.
    pub s_axis_payload_tdata: Signal<In, Bits<512>>,
    /// Byte enables, looked at on the tlast beat only (contiguous from lane 0).
    pub s_axis_payload_tkeep: Signal<In, Bits<64>>,
    /// A payload beat is offered.
    pub s_axis_payload_tvalid: Signal<In, bool>,
    /// The payload beat is taken.
    pub s_axis_payload_tready: Signal<Out, bool>,
    /// Last beat of a frame's payload.
    pub s_axis_payload_tlast: Signal<In, bool>,
    /// Frame beat: frame byte 64k+i at [8i+7:8i] of beat k.
    pub m_axis_tdata: Signal<Out, Bits<512>>,
    /// Byte enables: all ones but on the last beat, where the frame's bytes are lanes 0..n.
    pub m_axis_tkeep: Signal<Out, Bits<64>>,
    /// A frame beat is offered.
    pub m_axis_tvalid: Signal<Out, bool>,
    /// The MAC shim takes the beat.
    pub m_axis_tready: Signal<In, bool>,
    /// Last beat of the frame.
    pub m_axis_tlast: Signal<Out, bool>,
    /// On the last beat: the frame is bad (payload length mismatch), the MAC must drop it.
    pub m_axis_tuser: Signal<Out, bool>,
    /// Frames sent with `m_axis_tuser` (payload length mismatch), wrapping.
    pub stat_len_err: Signal<Out, Bits<32>>,
    // Stage A.
    a_valid: DFF<bool>,
    a_desc: DFF<Bits<1024>>,
    a_plen: DFF<Bits<14>>,
    a_pad: DFF<Bits<2>>,
    a_reth: DFF<bool>,
    a_aeth: DFF<bool>,
    a_cnp: DFF<bool>,
    a_tele: DFF<bool>,
    a_echo: DFF<bool>,
    a_hlen: DFF<Bits<7>>,
    a_icrc_at: DFF<Bits<16>>,
    a_total_len: DFF<Bits<16>>,
    a_sum: DFF<Bits<20>>,
    // Stage B.
    b_valid: DFF<bool>,
    b_hdr: DFF<Bits<1024>>,
    b_h: DFF<Bits<6>>,
    b_two: DFF<bool>,
    b_npb: DFF<Bits<9>>,
    b_npbm1: DFF<Bits<9>>,
    b_kl: DFF<Bits<9>>,
    b_last_keep: DFF<Bits<64>>,
    b_pay_keep: DFF<Bits<64>>,
    b_icrc_at: DFF<Bits<16>>,
    b_tele_at: DFF<Bits<7>>,
    b_ib: DFF<Bits<9>>,
    b_ib1: DFF<Bits<9>>,
    b_p: DFF<Bits<6>>,
    b_str: DFF<bool>,
    // Frame builder.
    f_active: DFF<bool>,
    f_k: DFF<Bits<9>>,
    f_hdr: DFF<Bits<1024>>,
    f_h: DFF<Bits<6>>,
    f_two: DFF<bool>,
    f_npb: DFF<Bits<9>>,
    f_npbm1: DFF<Bits<9>>,
    f_kl: DFF<Bits<9>>,
    f_last_keep: DFF<Bits<64>>,
    f_pay_keep: DFF<Bits<64>>,
    f_icrc_at: DFF<Bits<16>>,
    f_tele_at: DFF<Bits<7>>,
    f_ib: DFF<Bits<9>>,
    f_ib1: DFF<Bits<9>>,
    f_p: DFF<Bits<6>>,
    f_str: DFF<bool>,
    f_ended: DFF<bool>,
    f_bad: DFF<bool>,
    f_prev: DFF<Bits<512>>,
    drain: DFF<bool>,
    len_err: DFF<Bits<32>>,
    // Stage blocks.
    desc: TxPipeDesc,
    hdr: TxPipeHdr,
    kmask: ByteMask,
    out: TxPipeOut,
    // Combinational values.
    ones64: Signal<Local, Bits<64>>,
    p63: Signal<Local, Bits<15>>,
    l67: Signal<Local, Bits<16>>,
    lk_sh: Signal<Local, Bits<6>>,
    pk_sh: Signal<Local, Bits<6>>,
    a_to_b: Signal<Local, bool>,
    j: Signal<Local, Bits<9>>,
    need_pay: Signal<Local, bool>,
    wr: Signal<Local, bool>,
    take: Signal<Local, bool>,
    last_pay: Signal<Local, bool>,
    last: Signal<Local, bool>,
    exp_keep: Signal<Local, Bits<64>>,
    bkeep: Signal<Local, Bits<64>>,
    pay: Signal<Local, Bits<512>>,
    shifted: Signal<Local, Bits<512>>,
    beat: Signal<Local, Bits<512>>,
    short_now: Signal<Local, bool>,
    long_now: Signal<Local, bool>,
    bad_now: Signal<Local, bool>,
    drain_pop: Signal<Local, bool>,
    drain_next: Signal<Local, bool>,
    load: Signal<Local, bool>,
}

impl Logic for TxPipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_valid, a_desc, a_plen, a_pad, a_reth, a_aeth, a_cnp, a_tele, a_echo,
            a_hlen, a_icrc_at, a_total_len, a_sum, b_valid, b_hdr, b_h, b_two, b_npb, b_npbm1, b_kl,
            b_last_keep, b_pay_keep, b_icrc_at, b_tele_at, b_ib, b_ib1, b_p, b_str, f_active,
            f_k, f_hdr, f_h, f_two, f_npb, f_npbm1, f_kl, f_last_keep, f_pay_keep, f_icrc_at,
            f_tele_at, f_ib, f_ib1, f_p, f_str, f_ended, f_bad, f_prev, drain, len_err
        );
        clock!(self, clock, out);
        self.out.reset.next = self.reset.val();
        self.ones64.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();

        // ---- A: decode the offered descriptor (tx_pipe_desc).
        self.desc.word.next = self.s_axis_desc_tdata.val();

        // ---- B: header bytes from stage A (tx_pipe_hdr), beat counts and keep masks.
        self.hdr.word.next = self.a_desc.q.val();
        self.hdr.total_len.next = self.a_total_len.q.val();
        self.hdr.sum.next = self.a_sum.q.val();
        self.hdr.pad.next = self.a_pad.q.val();
        self.hdr.reth.next = self.a_reth.q.val();
        self.hdr.aeth.next = self.a_aeth.q.val();
        self.hdr.cnp.next = self.a_cnp.q.val();
        self.hdr.tele.next = self.a_tele.q.val();
        self.hdr.echo.next = self.a_echo.q.val();
        self.p63.next = bit_cast::<15, 14>(self.a_plen.q.val()) + 63;
        self.l67.next = self.a_icrc_at.q.val() + 67;
        self.lk_sh.next = (!bit_cast::<6, 16>(self.a_icrc_at.q.val() + 4)) + 1;
        self.pk_sh.next = (!bit_cast::<6, 14>(self.a_plen.q.val())) + 1;

        // ---- F: the frame builder. Beat k takes payload beat j = k - (H div 64); j < npb
        // fails for k = 0 when H >= 64 too (j wraps to 511, npb <= 257).
        if self.f_two.q.val() {
            self.j.next = self.f_k.q.val() - 1;
        } else {
            self.j.next = self.f_k.q.val();
        }
        self.need_pay.next = self.f_active.q.val() & (self.j.val() < self.f_npb.q.val()) & !self.f_ended.q.val();
        self.wr.next = self.f_active.q.val()
            & self.out.room.val()
            & (!self.need_pay.val() | self.s_axis_payload_tvalid.val());
        self.take.next = self.wr.val() & self.need_pay.val();
        self.last_pay.next = self.j.val() == self.f_npbm1.q.val();
        self.last.next = self.f_k.q.val() == self.f_kl.q.val();
        self.exp_keep.next = self.ones64.val();
        if self.last_pay.val() {
            self.exp_keep.next = self.f_pay_keep.q.val();
        }
        self.bkeep.next = self.exp_keep.val();
        if self.s_axis_payload_tlast.val() {
            self.bkeep.next = self.exp_keep.val() & self.s_axis_payload_tkeep.val();
        }
        self.kmask.keep.next = self.bkeep.val();
        self.pay.next = 0.into();
        if self.take.val() {
            self.pay.next = self.s_axis_payload_tdata.val() & self.kmask.mask.val();
        }
        // Realign by h = header length mod 64 (six header lengths: 54, 58, 70, 98, 102, 114).
        self.shifted.next = (self.pay.val() << 432) | (self.f_prev.q.val() >> 80);
        if self.f_h.q.val() == 58 {
            self.shifted.next = (self.pay.val() << 464) | (self.f_prev.q.val() >> 48);
        }
        if self.f_h.q.val() == 6 {
            self.shifted.next = (self.pay.val() << 48) | (self.f_prev.q.val() >> 464);
        }
        if self.f_h.q.val() == 34 {
            self.shifted.next = (self.pay.val() << 272) | (self.f_prev.q.val() >> 240);
        }
        if self.f_h.q.val() == 38 {
            self.shifted.next = (self.pay.val() << 304) | (self.f_prev.q.val() >> 208);
        }
        if self.f_h.q.val() == 50 {
            self.shifted.next = (self.pay.val() << 400) | (self.f_prev.q.val() >> 112);
        }
        self.beat.next = self.shifted.val();
        if self.f_k.q.val() == 0 {
            self.beat.next = self.shifted.val() | self.f_hdr.q.val().get_bits::<512>(0);
        }
        if self.f_k.q.val() == 1 {
            self.beat.next = self.shifted.val() | self.f_hdr.q.val().get_bits::<512>(512);
        }
        self.short_now.next = self.take.val() & self.s_axis_payload_tlast.val() & !self.last_pay.val();
        self.long_now.next = self.take.val() & self.last_pay.val() & !self.s_axis_payload_tlast.val();
        self.bad_now.next = self.short_now.val()
            | self.long_now.val()
            | (self.take.val()
                & self.last_pay.val()
                & self.s_axis_payload_tlast.val()
                & (self.s_axis_payload_tkeep.val() != self.f_pay_keep.q.val()));
        self.drain_pop.next = self.drain.q.val() & self.s_axis_payload_tvalid.val();
        self.drain_next.next = (self.drain.q.val() & !(self.drain_pop.val() & self.s_axis_payload_tlast.val()))
            | self.long_now.val();
        self.s_axis_payload_tready.next = (self.need_pay.val() & self.out.room.val()) | self.drain.q.val();
        self.load.next = (!self.f_active.q.val() | (self.wr.val() & self.last.val()))
            & self.b_valid.q.val()
            & !self.drain_next.val();
        self.a_to_b.next = self.a_valid.q.val() & (!self.b_valid.q.val() | self.load.val());
        self.s_axis_desc_tready.next = !self.a_valid.q.val() | !self.b_valid.q.val() | self.load.val();

        // Stage registers.
        if self.s_axis_desc_tvalid.val() & self.s_axis_desc_tready.val() {
            self.a_desc.d.next = self.s_axis_desc_tdata.val();
            self.a_plen.d.next = self.desc.plen.val();
            self.a_pad.d.next = self.desc.pad.val();
            self.a_reth.d.next = self.desc.reth.val();
            self.a_aeth.d.next = self.desc.aeth.val();
            self.a_cnp.d.next = self.desc.cnp.val();
            self.a_tele.d.next = self.desc.tele.val();
            self.a_echo.d.next = self.desc.echo.val();
            self.a_hlen.d.next = self.desc.hlen.val();
            self.a_icrc_at.d.next = self.desc.icrc_at.val();
            self.a_total_len.d.next = self.desc.total_len.val();
            self.a_sum.d.next = self.desc.sum.val();
        }
        self.a_valid.d.next = (self.a_valid.q.val() & !self.a_to_b.val())
            | (self.s_axis_desc_tvalid.val() & self.s_axis_desc_tready.val());
        if self.a_to_b.val() {
            self.b_hdr.d.next = self.hdr.bytes.val();
            self.b_h.d.next = bit_cast::<6, 7>(self.a_hlen.q.val());
            self.b_two.d.next = self.a_hlen.q.val().get_bit(6);
            self.b_npb.d.next = self.p63.val().get_bits::<9>(6);
            self.b_npbm1.d.next = self.p63.val().get_bits::<9>(6) - 1;
            self.b_kl.d.next = self.l67.val().get_bits::<9>(6) - 1;
            self.b_last_keep.d.next = self.ones64.val() >> self.lk_sh.val();
            self.b_pay_keep.d.next = self.ones64.val() >> self.pk_sh.val();
            self.b_icrc_at.d.next = self.a_icrc_at.q.val();
            self.b_tele_at.d.next = 0.into();
            if self.a_tele.q.val() {
                self.b_tele_at.d.next = self.a_hlen.q.val() - TELEMETRY_LEN;
            }
            self.b_ib.d.next = self.a_icrc_at.q.val().get_bits::<9>(6);
            self.b_ib1.d.next = self.a_icrc_at.q.val().get_bits::<9>(6) + 1;
            self.b_p.d.next = self.a_icrc_at.q.val().get_bits::<6>(0);
            self.b_str.d.next = self.a_icrc_at.q.val().get_bits::<6>(0) > 60;
        }
        self.b_valid.d.next = (self.b_valid.q.val() & !self.load.val()) | self.a_to_b.val();

        if self.wr.val() {
            self.f_k.d.next = self.f_k.q.val() + 1;
            self.f_prev.d.next = self.pay.val();
            if self.last.val() {
                self.f_prev.d.next = 0.into();
                self.f_active.d.next = false;
            }
            self.f_ended.d.next = self.f_ended.q.val() | self.short_now.val();
            self.f_bad.d.next = self.f_bad.q.val() | self.bad_now.val();
        }
        if self.load.val() {
            self.f_active.d.next = true;
            self.f_k.d.next = 0.into();
            self.f_ended.d.next = false;
            self.f_bad.d.next = false;
            self.f_hdr.d.next = self.b_hdr.q.val();
            self.f_h.d.next = self.b_h.q.val();
            self.f_two.d.next = self.b_two.q.val();
            self.f_npb.d.next = self.b_npb.q.val();
            self.f_npbm1.d.next = self.b_npbm1.q.val();
            self.f_kl.d.next = self.b_kl.q.val();
            self.f_last_keep.d.next = self.b_last_keep.q.val();
            self.f_pay_keep.d.next = self.b_pay_keep.q.val();
            self.f_icrc_at.d.next = self.b_icrc_at.q.val();
            self.f_tele_at.d.next = self.b_tele_at.q.val();
            self.f_ib.d.next = self.b_ib.q.val();
            self.f_ib1.d.next = self.b_ib1.q.val();
            self.f_p.d.next = self.b_p.q.val();
            self.f_str.d.next = self.b_str.q.val();
        }
        self.drain.d.next = self.drain_next.val();
        if self.wr.val() & self.last.val() & (self.f_bad.q.val() | self.bad_now.val()) {
            self.len_err.d.next = self.len_err.q.val() + 1;
        }

        // ---- O: beat FIFO, ICRC, output register (tx_pipe_out).
        self.out.wr.next = self.wr.val();
        self.out.beat.next = self.beat.val();
        self.out.last.next = self.last.val();
        self.out.bad.next = self.f_bad.q.val() | self.bad_now.val();
        self.out.last_keep.next = self.f_last_keep.q.val();
        self.out.k.next = self.f_k.q.val();
        self.out.ib.next = self.f_ib.q.val();
        self.out.ib1.next = self.f_ib1.q.val();
        self.out.straddle.next = self.f_str.q.val();
        self.out.p.next = self.f_p.q.val();
        self.out.icrc_at.next = self.f_icrc_at.q.val();
        self.out.tele_at.next = self.f_tele_at.q.val();
        self.out.m_axis_tready.next = self.m_axis_tready.val();
        self.m_axis_tvalid.next = self.out.m_axis_tvalid.val();
        self.m_axis_tdata.next = self.out.m_axis_tdata.val();
        self.m_axis_tkeep.next = self.out.m_axis_tkeep.val();
        self.m_axis_tlast.next = self.out.m_axis_tlast.val();
        self.m_axis_tuser.next = self.out.m_axis_tuser.val();
        self.stat_len_err.next = self.len_err.q.val();

        if self.reset.val() {
            self.a_valid.d.next = false;
            self.b_valid.d.next = false;
            self.f_active.d.next = false;
            self.f_prev.d.next = 0.into();
            self.drain.d.next = false;
            self.len_err.d.next = 0.into();
        }
    }
}
