//! Rx pipe, stage E1: one frame's headers (the first 128 bytes, or fewer) decoded into the
//! verdict record and three partial drop codes. Combinational; rx_pipe registers every output
//! at the end of E1. Bit 8i + b of `hdr` is bit b of frame byte i (AXI-Stream lane order).
//!
//! Every header field is read by name: the Ethernet, IPv4, UDP and BTH fields through
//! `sim::layout::TX_HDR` (the layout tx_pipe builds), the AETH, RETH and telemetry header
//! through `AETH`, `RETH` and `TELEMETRY` at the offset the opcode's class gives
//! (`roce_op_class`). Header fields of several bytes are in wire order; the record holds them
//! as numbers (byte-swapped here), except RETH and the hop slots.
//!
//! The checks are `RocePacket::parse`'s, in its order, split into three groups so that the
//! IPv4 and UDP checksums, which need more cycles, can be slotted between them in E2 and E5:
//! `pre_a`, `pre_b` before the IPv4 checksum (code 5), `post` after the UDP checksum (code 11).
//! In each group the last `if` that holds wins, so the checks are written last-first.

use crate::frame::*;
use crate::layout::{AethNamed, RethNamed, TelemetryNamed, TxHdrNamed, VerdictFields};
use crate::roce_op_class::{RoceOpClass, AFTER_AETH_BIT, AFTER_BTH_BIT, AFTER_RETH_BIT};
use crate::rx_pipe::{
    DROP_BAD_AETH_SYNDROME, DROP_BAD_BTH_VERSION, DROP_BAD_CNP_LENGTH, DROP_BAD_PAD_COUNT,
    DROP_BAD_TELEMETRY_VERSION, DROP_HOP_COUNT_OUT_OF_RANGE, DROP_IPV4_FRAGMENTED,
    DROP_IPV4_OPTIONS, DROP_MISSING_TELEMETRY, DROP_NOT_IPV4, DROP_NOT_UDP,
    DROP_TELEMETRY_MODE_MISMATCH, DROP_TRUNCATED, DROP_UDP_LENGTH_MISMATCH,
    DROP_UNEXPECTED_PAYLOAD, DROP_UNEXPECTED_TELEMETRY, DROP_UNKNOWN_LINE_RATE,
    DROP_UNKNOWN_OPCODE, DROP_WRONG_UDP_PORT,
};
use rust_hdl::prelude::*;
use sim::packet::{self as p, LineRate, MAX_HOPS};

// The lengths and offsets the code below writes as numbers, from sim::packet's constants.
// `tlen` is the IPv4 total length: the frame is 14 + tlen bytes, the ICRC its last 4.
/// The ICRC's frame offset is tlen + 10.
const _: () = assert!(p::ETH_LEN - p::ICRC_LEN == 10);
/// The UDP length is tlen - 20.
const _: () = assert!(p::IPV4_LEN == 20);
/// The shortest datagram, BTH and ICRC only: tlen 44; with an AETH 48, a RETH 60.
const _: () = assert!(p::IPV4_LEN + p::UDP_LEN + p::BTH_LEN + p::ICRC_LEN == 44);
const _: () = assert!(p::AETH_LEN == 4 && p::RETH_LEN == 16);
/// A telemetry header at frame offset t fits when tlen >= t + 34 (its 44 bytes, the ICRC).
const _: () = assert!(p::TELEMETRY_LEN == 44 && p::TELEMETRY_LEN + p::ICRC_LEN - p::ETH_LEN == 34);
/// A CNP's body is 16 bytes.
const _: () = assert!(p::CNP_BODY_LEN == 16);
/// At most 5 hops; a hop slot is 64 bits, its line-rate code the top 3 bits of the
/// big-endian word (bits 7:5 of byte 0, slot bit 5), at most 4.
const _: () = assert!(MAX_HOPS == 5 && p::HOP_LEN == 8 && p::LINE_RATE_BITS == 3);
const _: () = assert!(LineRate::G400 as u8 == 4); // the highest code (5-7 are undefined)
/// The IPv4 header is frame bytes 14..33: ten 16-bit words from bit 112.
const _: () = assert!(8 * p::ETH_LEN == 112 && p::IPV4_LEN == 2 * 10);
/// The UDP pseudo-header's protocol + UDP length is tlen - 20 + 17 = tlen - 3.
const _: () = assert!(p::IPV4_LEN - p::IP_PROTO_UDP as usize == 3);

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
    /// The opcode's class (which header follows the BTH, payload, telemetry).
    op_class: RoceOpClass,
    op: Signal<Local, Bits<8>>,
    /// Header fields of several bytes in wire order, to byte-swap into numbers.
    tlen_w: Signal<Local, Bits<16>>,
    udp_len_w: Signal<Local, Bits<16>>,
    udp_len: Signal<Local, Bits<16>>,
    sport_w: Signal<Local, Bits<16>>,
    dqp_w: Signal<Local, Bits<24>>,
    psn_w: Signal<Local, Bits<24>>,
    msn_w: Signal<Local, Bits<24>>,
    ip_src: Signal<Local, Bits<32>>,
    ip_dst: Signal<Local, Bits<32>>,
    /// The blocks after the BTH, each at its place (meaningful when the opcode has it).
    aeth: Signal<Local, Bits<32>>,
    syndrome: Signal<Local, Bits<8>>,
    reth: Signal<Local, Bits<128>>,
    icrc_at: Signal<Local, Bits<17>>,
    has_tel: Signal<Local, bool>,
    tel: Signal<Local, Bits<352>>,
    tel_at: Signal<Local, Bits<17>>,
    tel_hops: Signal<Local, Bits<320>>,
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
        self.op.next = self.hdr.val().get_value_tx_hdr_opcode();
        self.op_class.op.next = self.hdr.val().get_value_tx_hdr_opcode();
        self.tlen_w.next = self.hdr.val().get_value_tx_hdr_total_len();
        self.tlen.next = (self.tlen_w.val() >> 8) | (self.tlen_w.val() << 8);
        self.icrc_at.next = bit_cast::<17, 16>(self.tlen.val()) + 10;
        self.has_tel.next = self.hdr.val().get_value_tx_hdr_tele();
        self.pad.next = self.hdr.val().get_value_tx_hdr_pad();
        self.aeth.next = self.hdr.val().get_bits::<32>(AFTER_BTH_BIT);
        self.syndrome.next = self.aeth.val().get_value_aeth_syndrome();
        self.reth.next = self.hdr.val().get_bits::<128>(AFTER_BTH_BIT);
        self.tel_at.next = bit_cast::<17, 7>(self.op_class.after.val());
        self.tel.next = self.hdr.val().get_bits::<352>(AFTER_BTH_BIT);
        if self.op_class.aeth.val() {
            self.tel.next = self.hdr.val().get_bits::<352>(AFTER_AETH_BIT);
        }
        if self.op_class.reth.val() {
            self.tel.next = self.hdr.val().get_bits::<352>(AFTER_RETH_BIT);
        }
        self.nhop.next = self.tel.val().get_value_telemetry_nhop();
        self.tel_hops.next = self.tel.val().get_value_telemetry_hops();
        // A used hop's line-rate code (slot bits 7:5) above 4 is bad.
        self.hop_bad.next = false;
        for h in 0..MAX_HOPS {
            if (self.nhop.val().index() > h) & (self.tel_hops.val().get_bits::<3>(5 + 64 * h) > 4) {
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
            self.slot.next = self.tel_hops.val().get_bits::<64>(64 * h);
            if self.has_tel.val() & (self.nhop.val().index() > h) {
                self.hops.next =
                    self.hops.val() | (bit_cast::<320, 64>(self.slot.val()) << (64 * h).to_bits::<9>());
            }
        }
        // Rx-HPCC feedback (F), read only in an echo without hops: hop word 0 is then W
        // (slot 0's bytes 4-7), its bytes 0-3 dropped.
        self.fb.next = self.has_tel.val()
            & self.tel.val().get_value_telemetry_echo()
            & self.tel.val().get_value_telemetry_feedback()
            & !self.nhop.val().any();
        if self.fb.val() {
            self.hops.next = bit_cast::<320, 32>(self.tel_hops.val().get_bits::<32>(32)) << 32;
        }
        // Checks of parse, in its order, as three codes: before the IPv4 checksum (code 5),
        // between it and the UDP checksum (code 11), after it. The last `if` that holds wins.
        self.pre_a.next = 0.into();
        if self.hdr.val().get_value_tx_hdr_ihl() != IPV4_IHL {
            self.pre_a.next = DROP_IPV4_OPTIONS.into();
        }
        if self.hdr.val().get_value_tx_hdr_version() != IPV4_VERSION {
            self.pre_a.next = DROP_NOT_IPV4.into();
        }
        self.pre_b.next = 0.into();
        if self.hdr.val().get_value_tx_hdr_udp_dport() != WIRE_ROCEV2_PORT {
            self.pre_b.next = DROP_WRONG_UDP_PORT.into();
        }
        // Swapped into a 16-bit signal first: in a comparison Verilog would evaluate the
        // swap at the width of the other side (32 bits, the literal's) and keep the high byte.
        self.udp_len_w.next = self.hdr.val().get_value_tx_hdr_udp_len();
        self.udp_len.next = (self.udp_len_w.val() >> 8) | (self.udp_len_w.val() << 8);
        if self.udp_len.val() != self.tlen.val() - 20 {
            self.pre_b.next = DROP_UDP_LENGTH_MISMATCH.into();
        }
        if self.hdr.val().get_value_tx_hdr_protocol() != IP_PROTO_UDP {
            self.pre_b.next = DROP_NOT_UDP.into();
        }
        if (self.hdr.val().get_value_tx_hdr_frag_hi() != 0)
            | self.hdr.val().get_value_tx_hdr_mf()
            | (self.hdr.val().get_value_tx_hdr_frag_lo() != 0)
        {
            self.pre_b.next = DROP_IPV4_FRAGMENTED.into();
        }
        self.post.next = 0.into();
        if (self.op_class.payload.val() & (bit_cast::<17, 2>(self.pad.val()) > self.rest.val()))
            | (!self.op_class.payload.val() & self.pad.val().any())
        {
            self.post.next = DROP_BAD_PAD_COUNT.into();
        }
        if !self.op_class.payload.val() & !self.op_class.cnp.val() & self.rest.val().any() {
            self.post.next = DROP_UNEXPECTED_PAYLOAD.into();
        }
        if self.op_class.cnp.val() & (self.rest.val() != 16) {
            self.post.next = DROP_BAD_CNP_LENGTH.into();
        }
        if self.has_tel.val() & self.hop_bad.val() {
            self.post.next = DROP_UNKNOWN_LINE_RATE.into();
        }
        if self.has_tel.val() & (self.nhop.val() > 5) {
            self.post.next = DROP_HOP_COUNT_OUT_OF_RANGE.into();
        }
        if self.has_tel.val() & (self.tel.val().get_value_telemetry_echo() != self.op_class.echo.val()) {
            self.post.next = DROP_TELEMETRY_MODE_MISMATCH.into();
        }
        if self.has_tel.val() & (self.tel.val().get_value_telemetry_version() != TELEMETRY_VERSION) {
            self.post.next = DROP_BAD_TELEMETRY_VERSION.into();
        }
        if self.has_tel.val() & (bit_cast::<17, 16>(self.tlen.val()) < self.tel_at.val() + 34) {
            self.post.next = DROP_TRUNCATED.into();
        }
        if !self.has_tel.val() & self.op_class.must_tel.val() {
            self.post.next = DROP_MISSING_TELEMETRY.into();
        }
        if self.has_tel.val() & self.op_class.cnp.val() {
            self.post.next = DROP_UNEXPECTED_TELEMETRY.into();
        }
        // Syndrome bit 7 is reserved, and type 2 (bits 6:5) is.
        if self.op_class.aeth.val() & (self.syndrome.val().get_bit(7) | (self.syndrome.val().get_bits::<2>(5) == 2)) {
            self.post.next = DROP_BAD_AETH_SYNDROME.into();
        }
        if (self.op_class.reth.val() & (self.tlen.val() < 60)) | (self.op_class.aeth.val() & (self.tlen.val() < 48)) {
            self.post.next = DROP_TRUNCATED.into();
        }
        if !self.op_class.known.val() {
            self.post.next = DROP_UNKNOWN_OPCODE.into();
        }
        if self.hdr.val().get_value_tx_hdr_tver() != 0 {
            self.post.next = DROP_BAD_BTH_VERSION.into();
        }
        if self.tlen.val() < 44 {
            self.post.next = DROP_TRUNCATED.into();
        }
        self.eth_bad.next = self.hdr.val().get_value_tx_hdr_ethertype() != WIRE_ETHERTYPE_IPV4;
        // The ten IPv4 header words (bytes 14..33), and the UDP pseudo-header.
        self.ipsum.next = 0.into();
        for w in 0..10 {
            self.word.next = self.hdr.val().get_bits::<16>(112 + 16 * w);
            self.ipsum.next = self.ipsum.val() + bit_cast::<20, 16>(self.word.val());
        }
        self.udp_found.next = self.hdr.val().get_value_tx_hdr_udp_csum();
        self.ip_src.next = self.hdr.val().get_value_tx_hdr_ip_src();
        self.ip_dst.next = self.hdr.val().get_value_tx_hdr_ip_dst();
        self.pseudo.next = bit_cast::<19, 16>(self.ip_src.val().get_bits::<16>(0))
            + bit_cast::<19, 16>(self.ip_src.val().get_bits::<16>(16))
            + bit_cast::<19, 16>(self.ip_dst.val().get_bits::<16>(0))
            + bit_cast::<19, 16>(self.ip_dst.val().get_bits::<16>(16))
            + (bit_cast::<19, 8>(self.udp_len3.val().get_bits::<8>(0)) << 8)
            + bit_cast::<19, 8>(self.udp_len3.val().get_bits::<8>(8));
        // The record (code 0), field by field (sim::layout::VERDICT).
        self.sport_w.next = self.hdr.val().get_value_tx_hdr_udp_sport();
        self.dqp_w.next = self.hdr.val().get_value_tx_hdr_dest_qp();
        self.psn_w.next = self.hdr.val().get_value_tx_hdr_psn();
        self.msn_w.next = self.aeth.val().get_value_aeth_msn();
        self.rec.next = 0.into();
        self.rec.next.set_value_opcode(self.op.val());
        self.rec.next.set_value_ack_req(self.hdr.val().get_value_tx_hdr_ack_req());
        self.rec.next.set_value_becn(self.hdr.val().get_value_tx_hdr_becn());
        self.rec.next.set_value_fecn(self.hdr.val().get_value_tx_hdr_fecn());
        self.rec.next.set_value_solicited(self.hdr.val().get_value_tx_hdr_se());
        self.rec.next.set_value_ecn(self.hdr.val().get_value_tx_hdr_ecn());
        self.rec.next.set_value_pad(self.pad.val());
        self.rec.next.set_value_payload_at(self.pay_at.val().get_bits::<7>(0));
        self.rec.next.set_value_dest_qp(
            (bit_cast::<24, 8>(self.dqp_w.val().get_bits::<8>(0)) << 16)
                | (bit_cast::<24, 8>(self.dqp_w.val().get_bits::<8>(8)) << 8)
                | bit_cast::<24, 8>(self.dqp_w.val().get_bits::<8>(16)),
        );
        self.rec.next.set_value_psn(
            (bit_cast::<24, 8>(self.psn_w.val().get_bits::<8>(0)) << 16)
                | (bit_cast::<24, 8>(self.psn_w.val().get_bits::<8>(8)) << 8)
                | bit_cast::<24, 8>(self.psn_w.val().get_bits::<8>(16)),
        );
        self.rec.next.set_value_udp_src_port((self.sport_w.val() >> 8) | (self.sport_w.val() << 8));
        self.rec.next.set_value_hops(self.hops.val());
        if self.has_tel.val() {
            self.rec.next.set_value_telemetry(true);
            self.rec.next.set_value_echo(self.tel.val().get_value_telemetry_echo());
            self.rec.next.set_value_nhop(self.nhop.val().get_bits::<3>(0));
            self.rec.next.set_value_feedback(self.fb.val());
        }
        if self.op_class.aeth.val() {
            self.rec.next.set_value_aeth_syndrome(self.syndrome.val());
            self.rec.next.set_value_aeth_msn(
                (bit_cast::<24, 8>(self.msn_w.val().get_bits::<8>(0)) << 16)
                    | (bit_cast::<24, 8>(self.msn_w.val().get_bits::<8>(8)) << 8)
                    | bit_cast::<24, 8>(self.msn_w.val().get_bits::<8>(16)),
            );
        }
        if self.op_class.reth.val() {
            // VA, R_Key and DMA length stay in wire byte order.
            self.rec.next.set_value_reth_va(self.reth.val().get_value_reth_va());
            self.rec.next.set_value_reth_rkey(self.reth.val().get_value_reth_rkey());
            self.rec.next.set_value_reth_len(self.reth.val().get_value_reth_dma_len());
        }
        if self.op_class.payload.val() {
            self.rec.next.set_value_payload_len(self.pay_len.val().get_bits::<16>(0));
        }
    }
}
