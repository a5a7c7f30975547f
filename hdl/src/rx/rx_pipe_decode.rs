//! Rx pipe, stage E1: one frame's headers (the first 128 bytes, or fewer) decoded into the
//! verdict record and three partial drop codes. Combinational; rx_pipe registers every output
//! at the end of E1. Bit 8i + b of `hdr` is bit b of frame byte i (AXI-Stream lane order).
//!
//! The checks are `RocePacket::parse`'s, in its order, split into three groups so that the
//! IPv4 and UDP checksums, which need more cycles, can be slotted between them in E2 and E5:
//! `pre_a`, `pre_b` before the IPv4 checksum (code 5), `post` after the UDP checksum (code 11).
//! In each group the last `if` that holds wins, so the checks are written last-first.

use crate::layout::VerdictFields;
use crate::roce_op::*;
use crate::rx_pipe::{
    DROP_BAD_AETH_SYNDROME, DROP_BAD_BTH_VERSION, DROP_BAD_CNP_LENGTH, DROP_BAD_PAD_COUNT,
    DROP_BAD_TELEMETRY_VERSION, DROP_HOP_COUNT_OUT_OF_RANGE, DROP_IPV4_FRAGMENTED,
    DROP_IPV4_OPTIONS, DROP_MISSING_TELEMETRY, DROP_NOT_IPV4, DROP_NOT_UDP,
    DROP_TELEMETRY_MODE_MISMATCH, DROP_TRUNCATED, DROP_UDP_LENGTH_MISMATCH,
    DROP_UNEXPECTED_PAYLOAD, DROP_UNEXPECTED_TELEMETRY, DROP_UNKNOWN_LINE_RATE,
    DROP_UNKNOWN_OPCODE, DROP_WRONG_UDP_PORT,
};
use rust_hdl::prelude::*;
use sim::packet::MAX_HOPS;

/// Header bits in, record and codes out.
#[derive(LogicBlock, Default)]
pub struct RxPipeDecode {
    /// Frame bytes 0..127 (bytes past the frame's end are don't-care: every read of them is
    /// gated by a length check).
    pub hdr: Signal<In, Bits<1024>>,
    /// The verdict record of an accepted frame (`sim::layout::VERDICT`; code and length are
    /// set later).
    pub rec: Signal<Out, Bits<640>>,
    /// IPv4 total length, as a number.
    pub tlen: Signal<Out, Bits<16>>,
    /// First failing IPv4 version / IHL check (codes 3, 4), or 0.
    pub pre_a: Signal<Out, Bits<5>>,
    /// First failing check between the IPv4 header and the UDP checksum (codes 7..10), or 0.
    pub pre_b: Signal<Out, Bits<5>>,
    /// First failing check after the UDP checksum (codes 1, 12..23), or 0.
    pub post: Signal<Out, Bits<5>>,
    /// The ethertype is not IPv4 (code 2, judged in E2 with the frame length).
    pub eth_bad: Signal<Out, bool>,
    /// Sum of the ten IPv4 header words, checksum included (byte-swapped: one's-complement
    /// sums do not care), unfolded: at most 10 x 0xFFFF, 20 bits.
    pub ipsum: Signal<Out, Bits<20>>,
    /// The UDP checksum found in the frame (wire byte order; 0 = none).
    pub udp_found: Signal<Out, Bits<16>>,
    /// UDP pseudo-header sum: addresses + protocol + UDP length (T - 3), unfolded.
    pub pseudo: Signal<Out, Bits<19>>,
    op: Signal<Local, Bits<8>>,
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
    /// One hop slot (the loop's current one).
    slot: Signal<Local, Bits<64>>,
    /// One IPv4 header word (the loop's current one).
    word: Signal<Local, Bits<16>>,
}

impl Logic for RxPipeDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.op.next = self.hdr.val().get_bits::<8>(336);
        self.tlen.next = (bit_cast::<16, 8>(self.hdr.val().get_bits::<8>(128)) << 8)
            | bit_cast::<16, 8>(self.hdr.val().get_bits::<8>(136));
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
        self.has_tel.next = self.hdr.val().get_bit(406);
        self.pad.next = self.hdr.val().get_bits::<2>(348);
        self.tel_at.next = 54.into();
        self.tel.next = self.hdr.val().get_bits::<352>(432);
        if self.has_aeth.val() {
            self.tel_at.next = 58.into();
            self.tel.next = self.hdr.val().get_bits::<352>(464);
        }
        if self.has_reth.val() {
            self.tel_at.next = 70.into();
            self.tel.next = self.hdr.val().get_bits::<352>(560);
        }
        self.nhop.next = self.tel.val().get_bits::<8>(8);
        // A hop's rate code (bits 5-7 of its byte 0) above 4 is bad.
        self.hop_bad.next = false;
        for h in 0..MAX_HOPS {
            if (self.nhop.val().index() > h) & (self.tel.val().get_bits::<3>(37 + 64 * h) > 4) {
                self.hop_bad.next = true;
            }
        }
        self.pay_at.next = self.tel_at.val();
        if self.has_tel.val() {
            self.pay_at.next = self.tel_at.val() + 44;
        }
        self.rest.next = self.icrc_at.val() - self.pay_at.val();
        self.pay_len.next = self.rest.val() - bit_cast::<17, 2>(self.pad.val());
        self.udp_len3.next = self.tlen.val() - 3;
        // The hop slots present, slot h at 64h (wire byte order); absent ones 0.
        self.hops.next = 0.into();
        for h in 0..MAX_HOPS {
            self.slot.next = self.tel.val().get_bits::<64>(32 + 64 * h);
            if self.has_tel.val() & (self.nhop.val().index() > h) {
                self.hops.next =
                    self.hops.val() | (bit_cast::<320, 64>(self.slot.val()) << (64 * h).to_bits::<9>());
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
        if self.hdr.val().get_bits::<4>(112) != 5 {
            self.pre_a.next = DROP_IPV4_OPTIONS.into();
        }
        if self.hdr.val().get_bits::<4>(116) != 4 {
            self.pre_a.next = DROP_NOT_IPV4.into();
        }
        self.pre_b.next = 0.into();
        if self.hdr.val().get_bits::<16>(288) != 0xB712 {
            self.pre_b.next = DROP_WRONG_UDP_PORT.into();
        }
        if ((bit_cast::<16, 8>(self.hdr.val().get_bits::<8>(304)) << 8)
            | bit_cast::<16, 8>(self.hdr.val().get_bits::<8>(312)))
            != self.tlen.val() - 20
        {
            self.pre_b.next = DROP_UDP_LENGTH_MISMATCH.into();
        }
        if self.hdr.val().get_bits::<8>(184) != 17 {
            self.pre_b.next = DROP_NOT_UDP.into();
        }
        if (self.hdr.val().get_bits::<6>(160) != 0)
            | (self.hdr.val().get_bits::<8>(168) != 0)
        {
            self.pre_b.next = DROP_IPV4_FRAGMENTED.into();
        }
        self.post.next = 0.into();
        if (self.has_payload.val() & (bit_cast::<17, 2>(self.pad.val()) > self.rest.val()))
            | (!self.has_payload.val() & self.pad.val().any())
        {
            self.post.next = DROP_BAD_PAD_COUNT.into();
        }
        if !self.has_payload.val() & !self.is_cnp.val() & self.rest.val().any() {
            self.post.next = DROP_UNEXPECTED_PAYLOAD.into();
        }
        if self.is_cnp.val() & (self.rest.val() != 16) {
            self.post.next = DROP_BAD_CNP_LENGTH.into();
        }
        if self.has_tel.val() & self.hop_bad.val() {
            self.post.next = DROP_UNKNOWN_LINE_RATE.into();
        }
        if self.has_tel.val() & (self.nhop.val() > 5) {
            self.post.next = DROP_HOP_COUNT_OUT_OF_RANGE.into();
        }
        if self.has_tel.val() & (self.tel.val().get_bit(3) != self.echoes.val()) {
            self.post.next = DROP_TELEMETRY_MODE_MISMATCH.into();
        }
        if self.has_tel.val() & (self.tel.val().get_bits::<4>(4) != 1) {
            self.post.next = DROP_BAD_TELEMETRY_VERSION.into();
        }
        if self.has_tel.val() & (bit_cast::<17, 16>(self.tlen.val()) < self.tel_at.val() + 34) {
            self.post.next = DROP_TRUNCATED.into();
        }
        if !self.has_tel.val() & self.must_tel.val() {
            self.post.next = DROP_MISSING_TELEMETRY.into();
        }
        if self.has_tel.val() & self.is_cnp.val() {
            self.post.next = DROP_UNEXPECTED_TELEMETRY.into();
        }
        if self.has_aeth.val()
            & (self.hdr.val().get_bit(439) | (self.hdr.val().get_bits::<2>(437) == 2))
        {
            self.post.next = DROP_BAD_AETH_SYNDROME.into();
        }
        if (self.has_reth.val() & (self.tlen.val() < 60))
            | (self.has_aeth.val() & (self.tlen.val() < 48))
        {
            self.post.next = DROP_TRUNCATED.into();
        }
        if !self.known.val() {
            self.post.next = DROP_UNKNOWN_OPCODE.into();
        }
        if self.hdr.val().get_bits::<4>(344).any() {
            self.post.next = DROP_BAD_BTH_VERSION.into();
        }
        if self.tlen.val() < 44 {
            self.post.next = DROP_TRUNCATED.into();
        }
        self.eth_bad.next = self.hdr.val().get_bits::<16>(96) != 0x0008;
        // The ten IPv4 header words (bytes 14..33), and the UDP pseudo-header.
        self.ipsum.next = 0.into();
        for w in 0..10 {
            self.word.next = self.hdr.val().get_bits::<16>(112 + 16 * w);
            self.ipsum.next = self.ipsum.val() + bit_cast::<20, 16>(self.word.val());
        }
        self.udp_found.next = self.hdr.val().get_bits::<16>(320);
        self.pseudo.next = bit_cast::<19, 16>(self.hdr.val().get_bits::<16>(208))
            + bit_cast::<19, 16>(self.hdr.val().get_bits::<16>(224))
            + bit_cast::<19, 16>(self.hdr.val().get_bits::<16>(240))
            + bit_cast::<19, 16>(self.hdr.val().get_bits::<16>(256))
            + (bit_cast::<19, 8>(self.udp_len3.val().get_bits::<8>(0)) << 8)
            + bit_cast::<19, 8>(self.udp_len3.val().get_bits::<8>(8));
        // The record (code 0), field by field (sim::layout::VERDICT). Multi-byte header fields
        // are big-endian on the wire; the record holds them as numbers, except RETH and hops.
        self.rec.next = 0.into();
        self.rec.next.set_value_opcode(self.op.val());
        self.rec.next.set_value_ack_req(self.hdr.val().get_bit(407));
        self.rec.next.set_value_becn(self.hdr.val().get_bit(374));
        self.rec.next.set_value_fecn(self.hdr.val().get_bit(375));
        self.rec.next.set_value_solicited(self.hdr.val().get_bit(351));
        self.rec.next.set_value_ecn(self.hdr.val().get_bits::<2>(120));
        self.rec.next.set_value_pad(self.pad.val());
        self.rec.next.set_value_payload_at(self.pay_at.val().get_bits::<7>(0));
        self.rec.next.set_value_dest_qp(
            (bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(376)) << 16)
                | (bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(384)) << 8)
                | bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(392)),
        );
        self.rec.next.set_value_psn(
            (bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(408)) << 16)
                | (bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(416)) << 8)
                | bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(424)),
        );
        self.rec.next.set_value_udp_src_port(
            (bit_cast::<16, 8>(self.hdr.val().get_bits::<8>(272)) << 8)
                | bit_cast::<16, 8>(self.hdr.val().get_bits::<8>(280)),
        );
        self.rec.next.set_value_hops(self.hops.val());
        if self.has_tel.val() {
            self.rec.next.set_value_telemetry(true);
            self.rec.next.set_value_echo(self.tel.val().get_bit(3));
            self.rec.next.set_value_nhop(self.nhop.val().get_bits::<3>(0));
            self.rec.next.set_value_feedback(self.fb.val());
        }
        if self.has_aeth.val() {
            self.rec.next.set_value_aeth_syndrome(self.hdr.val().get_bits::<8>(432));
            self.rec.next.set_value_aeth_msn(
                (bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(440)) << 16)
                    | (bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(448)) << 8)
                    | bit_cast::<24, 8>(self.hdr.val().get_bits::<8>(456)),
            );
        }
        if self.has_reth.val() {
            // VA, R_Key and DMA length stay in wire byte order.
            self.rec.next.set_value_reth_va(self.hdr.val().get_bits::<64>(432));
            self.rec.next.set_value_reth_rkey(self.hdr.val().get_bits::<32>(496));
            self.rec.next.set_value_reth_len(self.hdr.val().get_bits::<32>(528));
        }
        if self.has_payload.val() {
            self.rec.next.set_value_payload_len(self.pay_len.val().get_bits::<16>(0));
        }    }
}
