//! Tx pipe, stage A: the offered header descriptor (`sim::layout::TX_DESC`) decoded into what
//! the later stages need: the opcode's class, payload length and pad, header length, where the
//! ICRC goes, the IPv4 total length, and the IPv4 checksum's sum over the header words that do
//! not depend on the length. Combinational; tx_pipe registers every output when it takes the
//! descriptor.
//!
//! Header length = the offset after the transport headers (`roce_op_class`'s `after`), plus a
//! CNP's 16-byte body, plus the 44-byte telemetry header when the descriptor's T bit is set:
//! 54, 58, 70, 98, 102 or 114 bytes.

use crate::frame::{IPV4_WORD_PROTO_UDP, IPV4_WORD_VER_IHL};
use crate::layout::TxDescNamed;
use crate::roce_op_class::{RoceOpClass, AFTER_BITS};
use rust_hdl::prelude::*;
use sim::packet as p;

codes! {
    /// Header blocks after the transport headers that roce_op_class's `after` does not
    /// count, in bytes (sim::packet).
    HEADER_BLOCK_LENS;
    CNP_BODY_LEN = p::CNP_BODY_LEN,
    TELEMETRY_LEN = p::TELEMETRY_LEN,
}
const _: () = assert!(p::BTH_OFFSET + p::BTH_LEN + p::RETH_LEN + p::TELEMETRY_LEN < 1 << AFTER_BITS);
/// The IPv4 total length is the header length - 10 + payload + pad: the frame less its 14-byte
/// Ethernet header, with the 4-byte ICRC.
const _: () = assert!(p::ETH_LEN - p::ICRC_LEN == 10);

/// Descriptor in, its decoded lengths and sums out.
#[derive(LogicBlock, Default)]
pub struct TxPipeDesc {
    /// The offered descriptor (tx_pipe's `s_axis_desc_tdata`).
    pub word: Signal<In, Bits<1024>>,
    /// Payload length (0 for an opcode without payload).
    pub plen: Signal<Out, Bits<14>>,
    /// Pad bytes to a multiple of 4 (the BTH's PadCnt).
    pub pad: Signal<Out, Bits<2>>,
    /// The opcode has a RETH.
    pub reth: Signal<Out, bool>,
    /// The opcode has an AETH.
    pub aeth: Signal<Out, bool>,
    /// The opcode is a CNP.
    pub cnp: Signal<Out, bool>,
    /// The descriptor's T bit: a telemetry header follows the transport headers.
    pub tele: Signal<Out, bool>,
    /// The telemetry header is an echo of the descriptor's hops.
    pub echo: Signal<Out, bool>,
    /// Header length in bytes, Ethernet .. telemetry.
    pub hlen: Signal<Out, Bits<7>>,
    /// Frame offset of the ICRC: header + payload + pad.
    pub icrc_at: Signal<Out, Bits<16>>,
    /// IPv4 total length.
    pub total_len: Signal<Out, Bits<16>>,
    /// Sum of the IPv4 header's 16-bit words but total length and checksum, unfolded.
    pub sum: Signal<Out, Bits<20>>,
    op_class: RoceOpClass,
    // Descriptor fields copied whole, to read their bytes.
    plen_fld: Signal<Local, Bits<16>>,
    tele_fld: Signal<Local, Bits<8>>,
    ipid_fld: Signal<Local, Bits<16>>,
    ipsrc_fld: Signal<Local, Bits<32>>,
    ipdst_fld: Signal<Local, Bits<32>>,
    plen_raw: Signal<Local, Bits<14>>,
    plen_v: Signal<Local, Bits<14>>,
    pad_v: Signal<Local, Bits<2>>,
    body: Signal<Local, Bits<7>>,
    hlen_v: Signal<Local, Bits<7>>,
    // IPv4 header words other than total length and checksum, big-endian.
    df: Signal<Local, Bits<8>>,
    w_tos: Signal<Local, Bits<16>>,
    w_id: Signal<Local, Bits<16>>,
    w_df: Signal<Local, Bits<16>>,
    w_ttl: Signal<Local, Bits<16>>,
    w_s0: Signal<Local, Bits<16>>,
    w_s1: Signal<Local, Bits<16>>,
    w_d0: Signal<Local, Bits<16>>,
    w_d1: Signal<Local, Bits<16>>,
}

impl Logic for TxPipeDesc {
    #[hdl_gen]
    fn update(&mut self) {
        self.plen_fld.next = self.word.val().get_value_tx_desc_payload_len();
        self.tele_fld.next = self.word.val().get_value_tx_desc_tele();
        self.ipid_fld.next = self.word.val().get_value_tx_desc_ip_id();
        self.ipsrc_fld.next = self.word.val().get_value_tx_desc_ip_src();
        self.ipdst_fld.next = self.word.val().get_value_tx_desc_ip_dst();
        self.op_class.op.next = self.word.val().get_value_tx_desc_opcode();
        self.reth.next = self.op_class.reth.val();
        self.aeth.next = self.op_class.aeth.val();
        self.cnp.next = self.op_class.cnp.val();
        self.echo.next = self.op_class.echo.val();
        self.tele.next = self.tele_fld.val().get_bit(0);

        // Lengths.
        self.plen_raw.next = (bit_cast::<14, 8>(self.plen_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<14, 8>(self.plen_fld.val().get_bits::<8>(8));
        self.plen_v.next = 0.into();
        if self.op_class.payload.val() {
            self.plen_v.next = self.plen_raw.val();
        }
        self.pad_v.next = (!bit_cast::<2, 14>(self.plen_v.val())) + 1;
        self.body.next = self.op_class.after.val();
        if self.op_class.cnp.val() {
            self.body.next = self.op_class.after.val() + CNP_BODY_LEN;
        }
        self.hlen_v.next = self.body.val();
        if self.tele_fld.val().get_bit(0) {
            self.hlen_v.next = self.body.val() + TELEMETRY_LEN;
        }
        self.plen.next = self.plen_v.val();
        self.pad.next = self.pad_v.val();
        self.hlen.next = self.hlen_v.val();
        self.icrc_at.next = bit_cast::<16, 7>(self.hlen_v.val())
            + bit_cast::<16, 14>(self.plen_v.val())
            + bit_cast::<16, 2>(self.pad_v.val());
        self.total_len.next = bit_cast::<16, 7>(self.hlen_v.val() - 10)
            + bit_cast::<16, 14>(self.plen_v.val())
            + bit_cast::<16, 2>(self.pad_v.val());

        // The IPv4 checksum's fixed words (byte-swapped from wire order).
        self.w_tos.next = bit_cast::<16, 8>(self.word.val().get_value_tx_desc_tos()) | IPV4_WORD_VER_IHL;
        self.w_id.next = (bit_cast::<16, 8>(self.ipid_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.ipid_fld.val().get_bits::<8>(8));
        self.df.next = self.word.val().get_value_tx_desc_ip_flags() & 0x40;
        self.w_df.next = bit_cast::<16, 8>(self.df.val()) << 8;
        self.w_ttl.next = (bit_cast::<16, 8>(self.word.val().get_value_tx_desc_ttl()) << 8) | IPV4_WORD_PROTO_UDP;
        self.w_s0.next = (bit_cast::<16, 8>(self.ipsrc_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.ipsrc_fld.val().get_bits::<8>(8));
        self.w_s1.next = (bit_cast::<16, 8>(self.ipsrc_fld.val().get_bits::<8>(16)) << 8)
            | bit_cast::<16, 8>(self.ipsrc_fld.val().get_bits::<8>(24));
        self.w_d0.next = (bit_cast::<16, 8>(self.ipdst_fld.val().get_bits::<8>(0)) << 8)
            | bit_cast::<16, 8>(self.ipdst_fld.val().get_bits::<8>(8));
        self.w_d1.next = (bit_cast::<16, 8>(self.ipdst_fld.val().get_bits::<8>(16)) << 8)
            | bit_cast::<16, 8>(self.ipdst_fld.val().get_bits::<8>(24));
        self.sum.next = bit_cast::<20, 16>(self.w_tos.val())
            + bit_cast::<20, 16>(self.w_id.val())
            + bit_cast::<20, 16>(self.w_df.val())
            + bit_cast::<20, 16>(self.w_ttl.val())
            + bit_cast::<20, 16>(self.w_s0.val())
            + bit_cast::<20, 16>(self.w_s1.val())
            + bit_cast::<20, 16>(self.w_d0.val())
            + bit_cast::<20, 16>(self.w_d1.val());
    }
}
