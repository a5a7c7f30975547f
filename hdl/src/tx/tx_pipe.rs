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
//! Payload length mismatch: the frame keeps the descriptor's length; missing bytes are zero,
//! surplus beats are dropped up to the stream's tlast; `m_axis_tuser` is high on the frame's
//! last beat and `stat_len_err` counts it.

use crate::byte_mask::ByteMask;
use crate::dist_ram::DistRam;
use crate::icrc_pipe::IcrcPipe;
use crate::frame::*;
use crate::layout::{TelemetryNamed, TxDescNamed, TxHdrNamed};
use crate::roce_op_class::RoceOpClass;
use rust_hdl::prelude::*;

/// Beat FIFO depth (log2).
pub const FIFO_BITS: usize = 5;
/// Queued beats at which a frame may start before its CRC is known (see the module doc).
pub const START_LEVEL: usize = 14;
const _: () = assert!(START_LEVEL >= IcrcPipe::LATENCY + 3 && START_LEVEL < 1 << FIFO_BITS);

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
    /// The offered descriptor's opcode class (stage A).
    op_class: RoceOpClass,
    // Beat FIFO, CRC FIFO, output register.
    icrc: IcrcPipe,
    kmask: ByteMask,
    beats: DistRam<Bits<512>, FIFO_BITS>,
    sides: DistRam<Bits<75>, FIFO_BITS>,
    crcs: DistRam<Bits<32>, FIFO_BITS>,
    q_wr: DFF<Bits<FIFO_BITS>>,
    q_rd: DFF<Bits<FIFO_BITS>>,
    q_count: DFF<Bits<6>>,
    c_wr: DFF<Bits<FIFO_BITS>>,
    c_rd: DFF<Bits<FIFO_BITS>>,
    c_count: DFF<Bits<6>>,
    o_valid: DFF<bool>,
    o_data: DFF<Bits<512>>,
    o_keep: DFF<Bits<64>>,
    o_last: DFF<bool>,
    o_user: DFF<bool>,
    len_err: DFF<Bits<32>>,
    // Combinational values.
    ones64: Signal<Local, Bits<64>>,
    plen_raw: Signal<Local, Bits<14>>,
    // Descriptor fields copied whole, to read their bytes (stage A: the offered descriptor,
    // stage B: the registered one).
    d_plen_fld: Signal<Local, Bits<16>>,
    d_tele_fld: Signal<Local, Bits<8>>,
    d_ipid_fld: Signal<Local, Bits<16>>,
    d_ipsrc_fld: Signal<Local, Bits<32>>,
    d_ipdst_fld: Signal<Local, Bits<32>>,
    q_fbk_fld: Signal<Local, Bits<8>>,
    q_ext_fld: Signal<Local, Bits<128>>,
    plen: Signal<Local, Bits<14>>,
    pad: Signal<Local, Bits<2>>,
    ext_len: Signal<Local, Bits<7>>,
    hlen: Signal<Local, Bits<7>>,
    w_tos: Signal<Local, Bits<16>>,
    w_id: Signal<Local, Bits<16>>,
    w_df: Signal<Local, Bits<16>>,
    w_ttl: Signal<Local, Bits<16>>,
    w_s0: Signal<Local, Bits<16>>,
    w_s1: Signal<Local, Bits<16>>,
    w_d0: Signal<Local, Bits<16>>,
    w_d1: Signal<Local, Bits<16>>,
    total_len: Signal<Local, Bits<16>>,
    udp_len: Signal<Local, Bits<16>>,
    sum1: Signal<Local, Bits<20>>,
    sum2: Signal<Local, Bits<17>>,
    sum2p: Signal<Local, Bits<16>>,
    sum3: Signal<Local, Bits<16>>,
    csum: Signal<Local, Bits<16>>,
    tl_be: Signal<Local, Bits<16>>,
    ul_be: Signal<Local, Bits<16>>,
    cs_be: Signal<Local, Bits<16>>,
    q_tos_fld: Signal<Local, Bits<8>>,
    q_flags_fld: Signal<Local, Bits<8>>,
    q_sem_fld: Signal<Local, Bits<8>>,
    q_fb_fld: Signal<Local, Bits<8>>,
    q_ack_fld: Signal<Local, Bits<8>>,
    df: Signal<Local, Bits<8>>,
    tele: Signal<Local, Bits<352>>,
    hdr_base: Signal<Local, Bits<1024>>,
    hdr_ext: Signal<Local, Bits<1024>>,
    hdr_tele: Signal<Local, Bits<1024>>,
    hdr: Signal<Local, Bits<1024>>,
    p63: Signal<Local, Bits<15>>,
    l67: Signal<Local, Bits<16>>,
    lk_sh: Signal<Local, Bits<6>>,
    pk_sh: Signal<Local, Bits<6>>,
    a_to_b: Signal<Local, bool>,
    j: Signal<Local, Bits<9>>,
    need_pay: Signal<Local, bool>,
    room: Signal<Local, bool>,
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
    s_last1: Signal<Local, Bits<1>>,
    s_user1: Signal<Local, Bits<1>>,
    s_c01: Signal<Local, Bits<1>>,
    s_c11: Signal<Local, Bits<1>>,
    s_first1: Signal<Local, Bits<1>>,
    h_side: Signal<Local, Bits<75>>,
    h_ok: Signal<Local, bool>,
    pop: Signal<Local, bool>,
    crc_pop: Signal<Local, bool>,
    sh0: Signal<Local, Bits<9>>,
    neg_p: Signal<Local, Bits<6>>,
    sh1: Signal<Local, Bits<6>>,
    ins: Signal<Local, Bits<512>>,
}

impl Logic for TxPipe {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, a_valid, a_desc, a_plen, a_pad, a_reth, a_aeth, a_cnp, a_tele, a_echo,
            a_hlen, a_icrc_at, a_total_len, a_sum, b_valid, b_hdr, b_h, b_two, b_npb, b_npbm1, b_kl,
            b_last_keep, b_pay_keep, b_icrc_at, b_tele_at, b_ib, b_ib1, b_p, b_str, f_active,
            f_k, f_hdr, f_h, f_two, f_npb, f_npbm1, f_kl, f_last_keep, f_pay_keep, f_icrc_at,
            f_tele_at, f_ib, f_ib1, f_p, f_str, f_ended, f_bad, f_prev, drain, q_wr, q_rd,
            q_count, c_wr, c_rd, c_count, o_valid, o_data, o_keep, o_last, o_user, len_err
        );
        self.icrc.clock.next = self.clock.val();
        self.icrc.reset.next = self.reset.val();
        self.beats.write_clock.next = self.clock.val();
        self.sides.write_clock.next = self.clock.val();
        self.crcs.write_clock.next = self.clock.val();
        self.ones64.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();

        // ---- A: decode the offered descriptor (sim::layout::TX_DESC).
        self.d_plen_fld.next = self.s_axis_desc_tdata.val().get_value_tx_desc_payload_len();
        self.d_tele_fld.next = self.s_axis_desc_tdata.val().get_value_tx_desc_tele();
        self.d_ipid_fld.next = self.s_axis_desc_tdata.val().get_value_tx_desc_ip_id();
        self.d_ipsrc_fld.next = self.s_axis_desc_tdata.val().get_value_tx_desc_ip_src();
        self.d_ipdst_fld.next = self.s_axis_desc_tdata.val().get_value_tx_desc_ip_dst();
        self.op_class.op.next = self.s_axis_desc_tdata.val().get_value_tx_desc_opcode();
        self.plen_raw.next = (bit_cast::<14, 8>(self.d_plen_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<14, 8>(self.d_plen_fld.val().get_bits::<8>(8));
        self.plen.next = 0.into();
        if self.op_class.payload.val() {
            self.plen.next = self.plen_raw.val();
        }
        self.pad.next = (!bit_cast::<2, 14>(self.plen.val())) + 1;
        self.ext_len.next = 0.into();
        if self.op_class.aeth.val() {
            self.ext_len.next = 4.into();
        }
        if self.op_class.reth.val() | self.op_class.cnp.val() {
            self.ext_len.next = 16.into();
        }
        self.hlen.next = self.ext_len.val() + 54;
        if self.d_tele_fld.val().get_bit(0) {
            self.hlen.next = self.ext_len.val() + 98;
        }
        // IPv4 header words other than total length and checksum, big-endian.
        self.w_tos.next = bit_cast::<16, 8>(self.s_axis_desc_tdata.val().get_value_tx_desc_tos()) | 0x4500;
        self.w_id.next = (bit_cast::<16, 8>(self.d_ipid_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.d_ipid_fld.val().get_bits::<8>(8));
        self.df.next = self.s_axis_desc_tdata.val().get_value_tx_desc_ip_flags() & 0x40;
        self.w_df.next = bit_cast::<16, 8>(self.df.val()) << 8;
        self.w_ttl.next = (bit_cast::<16, 8>(self.s_axis_desc_tdata.val().get_value_tx_desc_ttl()) << 8) | 0x11;
        self.w_s0.next = (bit_cast::<16, 8>(self.d_ipsrc_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.d_ipsrc_fld.val().get_bits::<8>(8));
        self.w_s1.next = (bit_cast::<16, 8>(self.d_ipsrc_fld.val().get_bits::<8>(16)) << 8)
            | bit_cast::<16, 8>(self.d_ipsrc_fld.val().get_bits::<8>(24));
        self.w_d0.next = (bit_cast::<16, 8>(self.d_ipdst_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.d_ipdst_fld.val().get_bits::<8>(8));
        self.w_d1.next = (bit_cast::<16, 8>(self.d_ipdst_fld.val().get_bits::<8>(16)) << 8)
            | bit_cast::<16, 8>(self.d_ipdst_fld.val().get_bits::<8>(24));

        // ---- B: header bytes from stage A.
        self.total_len.next = self.a_total_len.q.val();
        self.udp_len.next = self.a_total_len.q.val() - 20;
        self.sum1.next = self.a_sum.q.val() + bit_cast::<20, 16>(self.total_len.val());
        self.sum2.next = bit_cast::<17, 16>(self.sum1.val().get_bits::<16>(0))
            + bit_cast::<17, 4>(self.sum1.val().get_bits::<4>(16));
        // End-around carry: sum2 + 1 is computed beside sum2 and picked by sum2's carry.
        self.sum2p.next = self.sum1.val().get_bits::<16>(0)
            + bit_cast::<16, 4>(self.sum1.val().get_bits::<4>(16))
            + 1;
        self.sum3.next = self.sum2.val().get_bits::<16>(0);
        if self.sum2.val().get_bit(16) {
            self.sum3.next = self.sum2p.val();
        }
        self.csum.next = !self.sum3.val();
        self.tl_be.next = (self.total_len.val() >> 8) | (self.total_len.val() << 8);
        self.ul_be.next = (self.udp_len.val() >> 8) | (self.udp_len.val() << 8);
        self.cs_be.next = (self.csum.val() >> 8) | (self.csum.val() << 8);
        // The descriptor's bytes whose bits become separate header fields.
        self.q_tos_fld.next = self.a_desc.q.val().get_value_tx_desc_tos();
        self.q_flags_fld.next = self.a_desc.q.val().get_value_tx_desc_ip_flags();
        self.q_sem_fld.next = self.a_desc.q.val().get_value_tx_desc_se_m();
        self.q_fb_fld.next = self.a_desc.q.val().get_value_tx_desc_fb();
        self.q_ack_fld.next = self.a_desc.q.val().get_value_tx_desc_ack_req();
        self.q_fbk_fld.next = self.a_desc.q.val().get_value_tx_desc_feedback();
        self.q_ext_fld.next = self.a_desc.q.val().get_value_tx_desc_ext();
        // The telemetry header (sim::layout::TELEMETRY): collecting, or the echo of the
        // descriptor's hops, with F (Rx-HPCC feedback in slot 0) from its feedback bit 0.
        self.tele.next = 0.into();
        self.tele.next.set_value_telemetry_version(TELEMETRY_VERSION.into());
        if self.a_echo.q.val() {
            self.tele.next.set_value_telemetry_echo(true);
            self.tele.next.set_value_telemetry_feedback(self.q_fbk_fld.val().get_bit(0));
            self.tele.next.set_value_telemetry_nhop(self.a_desc.q.val().get_value_tx_desc_nhop());
            self.tele.next.set_value_telemetry_hops(self.a_desc.q.val().get_value_tx_desc_hops());
        }
        // Frame bytes 0-53 (sim::layout::TX_HDR), from the descriptor and the sums above.
        self.hdr_base.next = 0.into();
        self.hdr_base.next.set_value_tx_hdr_eth_dst(self.a_desc.q.val().get_value_tx_desc_eth_dst());
        self.hdr_base.next.set_value_tx_hdr_eth_src(self.a_desc.q.val().get_value_tx_desc_eth_src());
        self.hdr_base.next.set_value_tx_hdr_ethertype(WIRE_ETHERTYPE_IPV4.into());
        self.hdr_base.next.set_value_tx_hdr_ihl(IPV4_IHL.into());
        self.hdr_base.next.set_value_tx_hdr_version(IPV4_VERSION.into());
        self.hdr_base.next.set_value_tx_hdr_ecn(self.q_tos_fld.val().get_bits::<2>(0));
        self.hdr_base.next.set_value_tx_hdr_dscp(self.q_tos_fld.val().get_bits::<6>(2));
        self.hdr_base.next.set_value_tx_hdr_total_len(self.tl_be.val());
        self.hdr_base.next.set_value_tx_hdr_ip_id(self.a_desc.q.val().get_value_tx_desc_ip_id());
        self.hdr_base.next.set_value_tx_hdr_df(self.q_flags_fld.val().get_bit(6));
        self.hdr_base.next.set_value_tx_hdr_ttl(self.a_desc.q.val().get_value_tx_desc_ttl());
        self.hdr_base.next.set_value_tx_hdr_protocol(IP_PROTO_UDP.into());
        self.hdr_base.next.set_value_tx_hdr_ip_csum(self.cs_be.val());
        self.hdr_base.next.set_value_tx_hdr_ip_src(self.a_desc.q.val().get_value_tx_desc_ip_src());
        self.hdr_base.next.set_value_tx_hdr_ip_dst(self.a_desc.q.val().get_value_tx_desc_ip_dst());
        self.hdr_base.next.set_value_tx_hdr_udp_sport(self.a_desc.q.val().get_value_tx_desc_udp_sport());
        self.hdr_base.next.set_value_tx_hdr_udp_dport(WIRE_ROCEV2_PORT.into());
        self.hdr_base.next.set_value_tx_hdr_udp_len(self.ul_be.val());
        self.hdr_base.next.set_value_tx_hdr_opcode(self.a_desc.q.val().get_value_tx_desc_opcode());
        self.hdr_base.next.set_value_tx_hdr_pad(self.a_pad.q.val());
        self.hdr_base.next.set_value_tx_hdr_mig(self.q_sem_fld.val().get_bit(6));
        self.hdr_base.next.set_value_tx_hdr_se(self.q_sem_fld.val().get_bit(7));
        self.hdr_base.next.set_value_tx_hdr_pkey(self.a_desc.q.val().get_value_tx_desc_pkey());
        self.hdr_base.next.set_value_tx_hdr_becn(self.q_fb_fld.val().get_bit(6));
        self.hdr_base.next.set_value_tx_hdr_fecn(self.q_fb_fld.val().get_bit(7));
        self.hdr_base.next.set_value_tx_hdr_dest_qp(self.a_desc.q.val().get_value_tx_desc_dest_qp());
        self.hdr_base.next.set_value_tx_hdr_tele(self.a_tele.q.val());
        self.hdr_base.next.set_value_tx_hdr_ack_req(self.q_ack_fld.val().get_bit(7));
        self.hdr_base.next.set_value_tx_hdr_psn(self.a_desc.q.val().get_value_tx_desc_psn());
        self.hdr_ext.next = 0.into();
        if self.a_reth.q.val() {
            self.hdr_ext.next = bit_cast::<1024, 128>(self.q_ext_fld.val()) << 432;
        }
        if self.a_aeth.q.val() {
            self.hdr_ext.next = bit_cast::<1024, 32>(self.q_ext_fld.val().get_bits::<32>(0)) << 432;
        }
        self.hdr_tele.next = 0.into();
        if self.a_tele.q.val() {
            if self.a_reth.q.val() | self.a_cnp.q.val() {
                self.hdr_tele.next = bit_cast::<1024, 352>(self.tele.val()) << 560;
            } else if self.a_aeth.q.val() {
                self.hdr_tele.next = bit_cast::<1024, 352>(self.tele.val()) << 464;
            } else {
                self.hdr_tele.next = bit_cast::<1024, 352>(self.tele.val()) << 432;
            }
        }
        self.hdr.next = self.hdr_base.val() | self.hdr_ext.val() | self.hdr_tele.val();
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
        self.room.next = self.q_count.q.val() < 32;
        self.wr.next = self.f_active.q.val()
            & self.room.val()
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
        self.s_axis_payload_tready.next = (self.need_pay.val() & self.room.val()) | self.drain.q.val();
        self.load.next = (!self.f_active.q.val() | (self.wr.val() & self.last.val()))
            & self.b_valid.q.val()
            & !self.drain_next.val();
        self.a_to_b.next = self.a_valid.q.val() & (!self.b_valid.q.val() | self.load.val());
        self.s_axis_desc_tready.next = !self.a_valid.q.val() | !self.b_valid.q.val() | self.load.val();

        // Stage registers.
        if self.s_axis_desc_tvalid.val() & self.s_axis_desc_tready.val() {
            self.a_desc.d.next = self.s_axis_desc_tdata.val();
            self.a_plen.d.next = self.plen.val();
            self.a_pad.d.next = self.pad.val();
            self.a_reth.d.next = self.op_class.reth.val();
            self.a_aeth.d.next = self.op_class.aeth.val();
            self.a_cnp.d.next = self.op_class.cnp.val();
            self.a_tele.d.next = self.d_tele_fld.val().get_bit(0);
            self.a_echo.d.next = self.op_class.echo.val();
            self.a_hlen.d.next = self.hlen.val();
            self.a_icrc_at.d.next = bit_cast::<16, 7>(self.hlen.val())
                + bit_cast::<16, 14>(self.plen.val())
                + bit_cast::<16, 2>(self.pad.val());
            // IPv4 total length = ICRC offset + 4 - 14.
            self.a_total_len.d.next = bit_cast::<16, 7>(self.hlen.val() - 10)
                + bit_cast::<16, 14>(self.plen.val())
                + bit_cast::<16, 2>(self.pad.val());
            self.a_sum.d.next = bit_cast::<20, 16>(self.w_tos.val())
                + bit_cast::<20, 16>(self.w_id.val())
                + bit_cast::<20, 16>(self.w_df.val())
                + bit_cast::<20, 16>(self.w_ttl.val())
                + bit_cast::<20, 16>(self.w_s0.val())
                + bit_cast::<20, 16>(self.w_s1.val())
                + bit_cast::<20, 16>(self.w_d0.val())
                + bit_cast::<20, 16>(self.w_d1.val());
        }
        self.a_valid.d.next = (self.a_valid.q.val() & !self.a_to_b.val())
            | (self.s_axis_desc_tvalid.val() & self.s_axis_desc_tready.val());
        if self.a_to_b.val() {
            self.b_hdr.d.next = self.hdr.val();
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
                self.b_tele_at.d.next = self.a_hlen.q.val() - 44;
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

        // ICRC of every frame as it is written.
        self.icrc.s_valid.next = self.wr.val();
        self.icrc.s_data.next = self.beat.val();
        self.icrc.s_last.next = self.last.val();
        self.icrc.s_icrc_at.next = self.f_icrc_at.q.val();
        self.icrc.s_tele_at.next = self.f_tele_at.q.val();

        // ---- O: beat FIFO. Side word: keep[63:0] last[64] user[65] c0[66] c1[67] p[73:68]
        // first[74]; c0/c1: the beat holds the ICRC's first bytes / the rest of a straddling one.
        self.s_last1.next = 0.into();
        self.s_user1.next = 0.into();
        self.s_c01.next = 0.into();
        self.s_c11.next = 0.into();
        self.s_first1.next = 0.into();
        if self.last.val() {
            self.s_last1.next = 1.into();
        }
        if self.f_bad.q.val() | self.bad_now.val() {
            self.s_user1.next = 1.into();
        }
        if self.f_k.q.val() == self.f_ib.q.val() {
            self.s_c01.next = 1.into();
        }
        if self.f_str.q.val() & (self.f_k.q.val() == self.f_ib1.q.val()) {
            self.s_c11.next = 1.into();
        }
        if self.f_k.q.val() == 0 {
            self.s_first1.next = 1.into();
        }
        self.beats.write_enable.next = self.wr.val();
        self.beats.write_address.next = self.q_wr.q.val();
        self.beats.write_data.next = self.beat.val();
        self.sides.write_enable.next = self.wr.val();
        self.sides.write_address.next = self.q_wr.q.val();
        self.sides.write_data.next = bit_cast::<75, 64>(self.ones64.val())
            | (bit_cast::<75, 1>(self.s_last1.val()) << 64)
            | (bit_cast::<75, 1>(self.s_user1.val()) << 65)
            | (bit_cast::<75, 1>(self.s_c01.val()) << 66)
            | (bit_cast::<75, 1>(self.s_c11.val()) << 67)
            | (bit_cast::<75, 6>(self.f_p.q.val()) << 68)
            | (bit_cast::<75, 1>(self.s_first1.val()) << 74);
        if self.last.val() {
            self.sides.write_data.next = bit_cast::<75, 64>(self.f_last_keep.q.val())
                | (bit_cast::<75, 1>(self.s_last1.val()) << 64)
                | (bit_cast::<75, 1>(self.s_user1.val()) << 65)
                | (bit_cast::<75, 1>(self.s_c01.val()) << 66)
                | (bit_cast::<75, 1>(self.s_c11.val()) << 67)
                | (bit_cast::<75, 6>(self.f_p.q.val()) << 68)
                | (bit_cast::<75, 1>(self.s_first1.val()) << 74);
        }
        if self.wr.val() {
            self.q_wr.d.next = self.q_wr.q.val() + 1;
        }
        // CRC FIFO.
        self.crcs.write_enable.next = self.icrc.m_valid.val();
        self.crcs.write_address.next = self.c_wr.q.val();
        self.crcs.write_data.next = self.icrc.m_crc.val();
        if self.icrc.m_valid.val() {
            self.c_wr.d.next = self.c_wr.q.val() + 1;
        }
        // Head of the beat FIFO: may it go?
        self.beats.read_address.next = self.q_rd.q.val();
        self.sides.read_address.next = self.q_rd.q.val();
        self.crcs.read_address.next = self.c_rd.q.val();
        self.h_side.next = self.sides.read_data.val();
        self.h_ok.next = (self.q_count.q.val() != 0)
            & (!self.h_side.val().get_bit(74) | (self.c_count.q.val() != 0) | (self.q_count.q.val() >= 14))
            & (!(self.h_side.val().get_bit(66) | self.h_side.val().get_bit(67)) | (self.c_count.q.val() != 0));
        self.pop.next = self.h_ok.val() & (!self.o_valid.q.val() | self.m_axis_tready.val());
        self.crc_pop.next = self.pop.val() & self.h_side.val().get_bit(64);
        self.sh0.next = bit_cast::<9, 6>(self.h_side.val().get_bits::<6>(68)) << 3;
        self.neg_p.next = (!self.h_side.val().get_bits::<6>(68)) + 1;
        self.sh1.next = self.neg_p.val() << 3;
        self.ins.next = 0.into();
        if self.h_side.val().get_bit(66) {
            self.ins.next = bit_cast::<512, 32>(self.crcs.read_data.val()) << self.sh0.val();
        }
        if self.h_side.val().get_bit(67) {
            self.ins.next = bit_cast::<512, 32>(self.crcs.read_data.val() >> self.sh1.val());
        }
        if self.pop.val() {
            self.q_rd.d.next = self.q_rd.q.val() + 1;
            self.o_valid.d.next = true;
            self.o_data.d.next = self.beats.read_data.val() | self.ins.val();
            self.o_keep.d.next = self.h_side.val().get_bits::<64>(0);
            self.o_last.d.next = self.h_side.val().get_bit(64);
            self.o_user.d.next = self.h_side.val().get_bit(65);
        } else if self.m_axis_tready.val() {
            self.o_valid.d.next = false;
        }
        if self.crc_pop.val() {
            self.c_rd.d.next = self.c_rd.q.val() + 1;
        }
        if self.wr.val() & !self.pop.val() {
            self.q_count.d.next = self.q_count.q.val() + 1;
        }
        if !self.wr.val() & self.pop.val() {
            self.q_count.d.next = self.q_count.q.val() - 1;
        }
        if self.icrc.m_valid.val() & !self.crc_pop.val() {
            self.c_count.d.next = self.c_count.q.val() + 1;
        }
        if !self.icrc.m_valid.val() & self.crc_pop.val() {
            self.c_count.d.next = self.c_count.q.val() - 1;
        }
        self.m_axis_tvalid.next = self.o_valid.q.val();
        self.m_axis_tdata.next = self.o_data.q.val();
        self.m_axis_tkeep.next = self.o_keep.q.val();
        self.m_axis_tlast.next = self.o_last.q.val();
        self.m_axis_tuser.next = self.o_user.q.val();
        self.stat_len_err.next = self.len_err.q.val();

        if self.reset.val() {
            self.a_valid.d.next = false;
            self.b_valid.d.next = false;
            self.f_active.d.next = false;
            self.f_prev.d.next = 0.into();
            self.drain.d.next = false;
            self.q_wr.d.next = 0.into();
            self.q_rd.d.next = 0.into();
            self.q_count.d.next = 0.into();
            self.c_wr.d.next = 0.into();
            self.c_rd.d.next = 0.into();
            self.c_count.d.next = 0.into();
            self.o_valid.d.next = false;
            self.len_err.d.next = 0.into();
        }
    }
}
