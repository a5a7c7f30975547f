//! Tx pipe, stage B: the frame's header bytes, from stage A's registers. Combinational;
//! tx_pipe registers `hdr` when the frame moves on to B. Bit 8i + b of `hdr` is bit b of frame
//! byte i (AXI-Stream lane order).
//!
//! - Bytes 0-53, Ethernet .. BTH, by `sim::layout::TX_HDR`'s names, from the descriptor;
//!   the IPv4 total length, the UDP length and the IPv4 checksum (stage A's partial sum plus
//!   the total length, folded) go in byte-swapped to wire order.
//! - The RETH or AETH (the descriptor's `ext`) after the BTH.
//! - The telemetry header (`TELEMETRY`) after those, or after a CNP's 16-byte body: collecting
//!   (version only), or the echo of the descriptor's hops with F from its feedback bit 0.
//! - Everything else is zero (the frame builder ORs the realigned payload in).

use crate::frame::*;
use crate::layout::{TelemetryNamed, TxDescNamed, TxHdrNamed};
use crate::roce_op_class::{AFTER_AETH_BIT, AFTER_BTH_BIT, AFTER_RETH_BIT};
use rust_hdl::prelude::*;
use sim::packet as p;

/// A CNP's telemetry header sits where a RETH's would end.
const _: () = assert!(p::CNP_BODY_LEN == p::RETH_LEN);
/// The shifts that place the RETH / AETH and the telemetry header are the bit offsets after
/// the transport headers (rust-hdl shifts by a `u64` only; these constants are `usize`, the
/// type of a part select's offset).
const _: () = assert!(AFTER_BTH_BIT == 432 && AFTER_AETH_BIT == 464 && AFTER_RETH_BIT == 560);
/// The UDP length is the IPv4 total length - 20.
const _: () = assert!(p::IPV4_LEN == 20);

/// Stage A's registers in, the header out.
#[derive(LogicBlock, Default)]
pub struct TxPipeHdr {
    /// The descriptor (`sim::layout::TX_DESC`).
    pub word: Signal<In, Bits<1024>>,
    /// IPv4 total length (tx_pipe_desc's `total_len`).
    pub total_len: Signal<In, Bits<16>>,
    /// Partial IPv4 checksum sum (tx_pipe_desc's `sum`).
    pub sum: Signal<In, Bits<20>>,
    /// PadCnt.
    pub pad: Signal<In, Bits<2>>,
    /// The opcode has a RETH.
    pub reth: Signal<In, bool>,
    /// The opcode has an AETH.
    pub aeth: Signal<In, bool>,
    /// The opcode is a CNP.
    pub cnp: Signal<In, bool>,
    /// A telemetry header follows.
    pub tele: Signal<In, bool>,
    /// The telemetry header echoes the descriptor's hops.
    pub echo: Signal<In, bool>,
    /// Frame bytes 0..127; bytes past the header are zero.
    pub bytes: Signal<Out, Bits<1024>>,
    udp_len: Signal<Local, Bits<16>>,
    // The IPv4 checksum: sum, end-around carry, complement.
    sum1: Signal<Local, Bits<20>>,
    sum2: Signal<Local, Bits<17>>,
    sum2p: Signal<Local, Bits<16>>,
    sum3: Signal<Local, Bits<16>>,
    csum: Signal<Local, Bits<16>>,
    // The lengths and the checksum in wire byte order.
    tl_be: Signal<Local, Bits<16>>,
    ul_be: Signal<Local, Bits<16>>,
    cs_be: Signal<Local, Bits<16>>,
    // The descriptor's bytes whose bits become separate header fields.
    tos_fld: Signal<Local, Bits<8>>,
    flags_fld: Signal<Local, Bits<8>>,
    sem_fld: Signal<Local, Bits<8>>,
    fb_fld: Signal<Local, Bits<8>>,
    ack_fld: Signal<Local, Bits<8>>,
    fbk_fld: Signal<Local, Bits<8>>,
    ext_fld: Signal<Local, Bits<128>>,
    tel: Signal<Local, Bits<352>>,
    hdr_base: Signal<Local, Bits<1024>>,
    hdr_ext: Signal<Local, Bits<1024>>,
    hdr_tele: Signal<Local, Bits<1024>>,
}

impl Logic for TxPipeHdr {
    #[hdl_gen]
    fn update(&mut self) {
        self.udp_len.next = self.total_len.val() - 20;
        self.sum1.next = self.sum.val() + bit_cast::<20, 16>(self.total_len.val());
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
        self.tos_fld.next = self.word.val().get_value_tx_desc_tos();
        self.flags_fld.next = self.word.val().get_value_tx_desc_ip_flags();
        self.sem_fld.next = self.word.val().get_value_tx_desc_se_m();
        self.fb_fld.next = self.word.val().get_value_tx_desc_fb();
        self.ack_fld.next = self.word.val().get_value_tx_desc_ack_req();
        self.fbk_fld.next = self.word.val().get_value_tx_desc_feedback();
        self.ext_fld.next = self.word.val().get_value_tx_desc_ext();

        // The telemetry header (sim::layout::TELEMETRY).
        self.tel.next = 0.into();
        self.tel.next.set_value_telemetry_version(TELEMETRY_VERSION.into());
        if self.echo.val() {
            self.tel.next.set_value_telemetry_echo(true);
            self.tel.next.set_value_telemetry_feedback(self.fbk_fld.val().get_bit(0));
            self.tel.next.set_value_telemetry_nhop(self.word.val().get_value_tx_desc_nhop());
            self.tel.next.set_value_telemetry_hops(self.word.val().get_value_tx_desc_hops());
        }

        // Frame bytes 0-53 (sim::layout::TX_HDR).
        self.hdr_base.next = 0.into();
        self.hdr_base.next.set_value_tx_hdr_eth_dst(self.word.val().get_value_tx_desc_eth_dst());
        self.hdr_base.next.set_value_tx_hdr_eth_src(self.word.val().get_value_tx_desc_eth_src());
        self.hdr_base.next.set_value_tx_hdr_ethertype(WIRE_ETHERTYPE_IPV4.into());
        self.hdr_base.next.set_value_tx_hdr_ihl(IPV4_IHL.into());
        self.hdr_base.next.set_value_tx_hdr_version(IPV4_VERSION.into());
        self.hdr_base.next.set_value_tx_hdr_ecn(self.tos_fld.val().get_bits::<2>(0));
        self.hdr_base.next.set_value_tx_hdr_dscp(self.tos_fld.val().get_bits::<6>(2));
        self.hdr_base.next.set_value_tx_hdr_total_len(self.tl_be.val());
        self.hdr_base.next.set_value_tx_hdr_ip_id(self.word.val().get_value_tx_desc_ip_id());
        self.hdr_base.next.set_value_tx_hdr_df(self.flags_fld.val().get_bit(6));
        self.hdr_base.next.set_value_tx_hdr_ttl(self.word.val().get_value_tx_desc_ttl());
        self.hdr_base.next.set_value_tx_hdr_protocol(IP_PROTO_UDP.into());
        self.hdr_base.next.set_value_tx_hdr_ip_csum(self.cs_be.val());
        self.hdr_base.next.set_value_tx_hdr_ip_src(self.word.val().get_value_tx_desc_ip_src());
        self.hdr_base.next.set_value_tx_hdr_ip_dst(self.word.val().get_value_tx_desc_ip_dst());
        self.hdr_base.next.set_value_tx_hdr_udp_sport(self.word.val().get_value_tx_desc_udp_sport());
        self.hdr_base.next.set_value_tx_hdr_udp_dport(WIRE_ROCEV2_PORT.into());
        self.hdr_base.next.set_value_tx_hdr_udp_len(self.ul_be.val());
        self.hdr_base.next.set_value_tx_hdr_opcode(self.word.val().get_value_tx_desc_opcode());
        self.hdr_base.next.set_value_tx_hdr_pad(self.pad.val());
        self.hdr_base.next.set_value_tx_hdr_mig(self.sem_fld.val().get_bit(6));
        self.hdr_base.next.set_value_tx_hdr_se(self.sem_fld.val().get_bit(7));
        self.hdr_base.next.set_value_tx_hdr_pkey(self.word.val().get_value_tx_desc_pkey());
        self.hdr_base.next.set_value_tx_hdr_becn(self.fb_fld.val().get_bit(6));
        self.hdr_base.next.set_value_tx_hdr_fecn(self.fb_fld.val().get_bit(7));
        self.hdr_base.next.set_value_tx_hdr_dest_qp(self.word.val().get_value_tx_desc_dest_qp());
        self.hdr_base.next.set_value_tx_hdr_tele(self.tele.val());
        self.hdr_base.next.set_value_tx_hdr_ack_req(self.ack_fld.val().get_bit(7));
        self.hdr_base.next.set_value_tx_hdr_psn(self.word.val().get_value_tx_desc_psn());

        // The RETH or AETH, right after the BTH.
        self.hdr_ext.next = 0.into();
        if self.reth.val() {
            self.hdr_ext.next = bit_cast::<1024, 128>(self.ext_fld.val()) << 432;
        }
        if self.aeth.val() {
            self.hdr_ext.next = bit_cast::<1024, 32>(self.ext_fld.val().get_bits::<32>(0)) << 432;
        }
        // The telemetry header after them (a CNP's body is as long as a RETH).
        self.hdr_tele.next = 0.into();
        if self.tele.val() {
            if self.reth.val() | self.cnp.val() {
                self.hdr_tele.next = bit_cast::<1024, 352>(self.tel.val()) << 560;
            } else if self.aeth.val() {
                self.hdr_tele.next = bit_cast::<1024, 352>(self.tel.val()) << 464;
            } else {
                self.hdr_tele.next = bit_cast::<1024, 352>(self.tel.val()) << 432;
            }
        }
        self.bytes.next = self.hdr_base.val() | self.hdr_ext.val() | self.hdr_tele.val();
    }
}
