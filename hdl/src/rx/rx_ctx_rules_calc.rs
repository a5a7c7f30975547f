//! rx_ctx, stage S2: the record and the flow's QP word decoded, and the arithmetic
//! rx_ctx_rules chooses from: opcode classes, the responder's and the requester's PSN
//! differences, next addresses and lengths, and the checks on them. Combinational.

use crate::byte_swap::ByteSwap64;
use crate::layout::{RxQpFields, VerdictFields};
use crate::roce_op::*;
use crate::rx_ctx::QP_BITS;
use rust_hdl::prelude::*;

/// Record, QP word and S1's decode in; everything the rules read out.
#[derive(LogicBlock, Default)]
pub struct RxCtxRulesCalc {
    /// The verdict record S2 holds (`sim::layout::VERDICT`).
    pub vd: Signal<In, Bits<640>>,
    /// The flow's QP word (`sim::layout::RX_QP`).
    pub w: Signal<In, Bits<QP_BITS>>,
    /// The record is a NAK PSN sequence error (decoded in S1).
    pub seq: Signal<In, bool>,
    /// The PSN it acknowledges up to (decoded in S1).
    pub upto: Signal<In, Bits<24>>,
    /// S2 holds a timeout (control op 4), not a verdict.
    pub tmo_op: Signal<In, bool>,
    /// rx_pipe accepted the frame (code 0).
    pub ok: Signal<Out, bool>,
    /// Accepted and for the flow's QP: the QP word is written with `new_w`.
    pub hit: Signal<Out, bool>,
    /// The timeout finds packets in flight: back to snd_una (else it does nothing).
    pub tmo: Signal<Out, bool>,
    /// The RETH's VA and DMA length as numbers (a READ request's, for its answer).
    pub va: Signal<Out, Bits<64>>,
    pub rlen: Signal<Out, Bits<32>>,
    pub e_tele: Signal<Out, bool>,
    /// The record is a WRITE (First, Middle, Last, Only).
    pub is_req: Signal<Out, bool>,
    /// An ACK or NAK.
    pub is_ack: Signal<Out, bool>,
    /// A CNP.
    pub is_cnp: Signal<Out, bool>,
    /// A telemetry response.
    pub is_tresp: Signal<Out, bool>,
    /// A probe.
    pub is_probe: Signal<Out, bool>,
    /// A READ request.
    pub is_rreq: Signal<Out, bool>,
    /// A READ response (any position).
    pub is_rresp: Signal<Out, bool>,
    /// It carries a collecting telemetry header (not an echo).
    pub v_coll: Signal<Out, bool>,
    /// It is CE-marked.
    pub v_ce: Signal<Out, bool>,
    /// Its PSN.
    pub v_psn: Signal<Out, Bits<24>>,
    /// Its payload length.
    pub v_n: Signal<Out, Bits<32>>,
    /// Responder: the PSN is ahead of the expected one.
    pub ahead: Signal<Out, bool>,
    /// Responder: behind it (a duplicate).
    pub behind: Signal<Out, bool>,
    /// A WRITE fits the opcode sequence and the lengths.
    pub req_ok: Signal<Out, bool>,
    /// The WRITE packet's address.
    pub wa: Signal<Out, Bits<64>>,
    /// The next one's address.
    pub wa_n: Signal<Out, Bits<64>>,
    /// The WRITE's bytes left after this packet.
    pub wl_n: Signal<Out, Bits<32>>,
    /// A multi-packet WRITE goes on after this packet.
    pub act_n: Signal<Out, Bits<1>>,
    /// Expected PSN + 1.
    pub epsn1: Signal<Out, Bits<24>>,
    /// MSN + 1.
    pub msn1: Signal<Out, Bits<24>>,
    /// A READ request is bad (NAK invalid request).
    pub rr_bad: Signal<Out, bool>,
    /// The expected PSN after a READ request.
    pub rr_epsn: Signal<Out, Bits<24>>,
    /// A READ response's length is bad.
    pub rs_bad: Signal<Out, bool>,
    /// READ response PSN - snd_una.
    pub dr: Signal<Out, Bits<24>>,
    /// READ response PSN - sent is negative: the PSN was asked for.
    pub er_neg: Signal<Out, bool>,
    /// BTH BECN: an ACK's ECN-Echo.
    pub becn: Signal<Out, bool>,
    /// snd_una + 1.
    pub una1: Signal<Out, Bits<32>>,
    /// The next READ response's address.
    pub rd_n: Signal<Out, Bits<64>>,
    /// Requester: acknowledged-up-to PSN - snd_una.
    pub da: Signal<Out, Bits<24>>,
    /// Acknowledged-up-to PSN - sent.
    pub ea: Signal<Out, Bits<24>>,
    /// The ACK / NAK is outside [snd_una, sent].
    pub ack_stale: Signal<Out, bool>,
    /// snd_una moved to the acknowledged-up-to PSN.
    pub upto32: Signal<Out, Bits<32>>,
    /// Packets in flight (sent - snd_una).
    pub released: Signal<Out, Bits<32>>,
    /// Packets acknowledged, saturated to 16 bits.
    pub acked16: Signal<Out, Bits<16>>,
    /// The QP word's fields the rules keep or change (`sim::layout::RX_QP`), decoded here
    /// once: expected PSN, a WRITE in progress, its next address and bytes left, MSN,
    /// snd_una, packets sent, the READ's next local address.
    pub q_epsn: Signal<Out, Bits<24>>,
    /// See `q_epsn`.
    pub q_act: Signal<Out, bool>,
    /// See `q_epsn`.
    pub q_addr: Signal<Out, Bits<64>>,
    /// See `q_epsn`.
    pub q_left: Signal<Out, Bits<32>>,
    /// See `q_epsn`.
    pub q_msn: Signal<Out, Bits<24>>,
    /// See `q_epsn`.
    pub q_una: Signal<Out, Bits<32>>,
    /// See `q_epsn`.
    pub q_sent: Signal<Out, Bits<32>>,
    /// See `q_epsn`.
    pub q_rd: Signal<Out, Bits<64>>,

    sw_va: ByteSwap64,
    q_valid: Signal<Local, bool>,
    q_qpn: Signal<Local, Bits<24>>,
    q_mtu: Signal<Local, Bits<32>>,
    q_log: Signal<Local, Bits<4>>,
    v_op: Signal<Local, Bits<8>>,
    /// RETH DMA length as the record carries it (wire byte order).
    v_rlen_w: Signal<Local, Bits<32>>,
    dq: Signal<Local, Bits<24>>,
    first: Signal<Local, bool>,
    wl: Signal<Local, Bits<32>>,
    rr_multi: Signal<Local, bool>,
    rr_lm1: Signal<Local, Bits<24>>,
    rr_nm1: Signal<Local, Bits<24>>,
    rr_adv: Signal<Local, Bits<24>>,
    /// READ response PSN - sent: only its sign is read.
    er: Signal<Local, Bits<24>>,
}

impl Logic for RxCtxRulesCalc {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The QP word and the record (docs/modules/rx_pipe.md); RETH words are in wire
        // order.
        self.q_valid.next = self.w.val().get_value_valid();
        self.q_qpn.next = self.w.val().get_value_qpn();
        self.q_mtu.next = bit_cast::<32, 14>(self.w.val().get_value_mtu());
        self.q_epsn.next = self.w.val().get_value_epsn();
        self.q_act.next = self.w.val().get_value_act();
        self.q_addr.next = self.w.val().get_value_addr();
        self.q_left.next = self.w.val().get_value_left();
        self.q_msn.next = self.w.val().get_value_msn();
        self.q_una.next = self.w.val().get_value_una();
        self.q_sent.next = self.w.val().get_value_sent();
        self.q_rd.next = self.w.val().get_value_rd();
        self.q_log.next = self.w.val().get_value_mtu_log();
        self.tmo.next = self.tmo_op.val() & self.q_valid.val() & (self.q_sent.val() != self.q_una.val());

        self.ok.next = self.vd.val().get_value_code() == 0;
        self.v_op.next = self.vd.val().get_value_opcode();
        self.v_ce.next = self.vd.val().get_value_ecn() == 3;
        self.v_coll.next = self.vd.val().get_value_telemetry() & !self.vd.val().get_value_echo();
        self.v_psn.next = self.vd.val().get_value_psn();
        self.becn.next = self.vd.val().get_value_becn();
        self.v_n.next = bit_cast::<32, 16>(self.vd.val().get_value_payload_len());
        self.sw_va.a.next = self.vd.val().get_value_reth_va();
        self.va.next = self.sw_va.y.val();
        // The DMA length in wire order, made a number.
        self.v_rlen_w.next = self.vd.val().get_value_reth_len();
        self.rlen.next = (bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(24));
        self.hit.next = self.ok.val() & self.q_valid.val() & (self.q_qpn.val() == self.vd.val().get_value_dest_qp());
        self.is_req.next = (self.v_op.val() == OP_RDMA_WRITE_FIRST)
            | (self.v_op.val() == OP_RDMA_WRITE_MIDDLE)
            | (self.v_op.val() == OP_RDMA_WRITE_LAST)
            | (self.v_op.val() == OP_RDMA_WRITE_ONLY);
        self.is_ack.next = self.v_op.val() == OP_ACKNOWLEDGE;
        self.is_cnp.next = self.v_op.val() == OP_CNP;
        self.is_tresp.next = self.v_op.val() == OP_HPCC_TELEMETRY_RESPONSE;
        self.is_probe.next = self.v_op.val() == OP_HPCC_PROBE;
        self.is_rreq.next = self.v_op.val() == OP_RDMA_READ_REQUEST;
        self.is_rresp.next = (self.v_op.val() == OP_RDMA_READ_RESPONSE_FIRST)
            | (self.v_op.val() == OP_RDMA_READ_RESPONSE_MIDDLE)
            | (self.v_op.val() == OP_RDMA_READ_RESPONSE_LAST)
            | (self.v_op.val() == OP_RDMA_READ_RESPONSE_ONLY);
        // A CC event carries the record's hops only from a telemetry header, none on a CNP.
        self.e_tele.next = self.vd.val().get_value_telemetry() & !self.is_cnp.val() & !self.tmo.val();

        // ---- Responder (sim::rx_ctx::RxCtx::request).
        self.dq.next = self.v_psn.val() - self.q_epsn.val();
        self.ahead.next = (self.dq.val() != 0) & !self.dq.val().get_bit(23);
        self.behind.next = self.dq.val().get_bit(23);
        self.first.next = (self.v_op.val() == OP_RDMA_WRITE_FIRST) | (self.v_op.val() == OP_RDMA_WRITE_ONLY);
        self.req_ok.next =
            !self.q_act.val() & (self.v_n.val() <= self.q_mtu.val()) & (self.v_n.val() == self.rlen.val());
        if self.v_op.val() == OP_RDMA_WRITE_FIRST {
            self.req_ok.next =
                !self.q_act.val() & (self.v_n.val() == self.q_mtu.val()) & (self.rlen.val() > self.q_mtu.val());
        } else if self.v_op.val() == OP_RDMA_WRITE_MIDDLE {
            self.req_ok.next =
                self.q_act.val() & (self.v_n.val() == self.q_mtu.val()) & (self.v_n.val() < self.q_left.val());
        } else if self.v_op.val() == OP_RDMA_WRITE_LAST {
            self.req_ok.next = self.q_act.val()
                & (self.v_n.val() != 0)
                & (self.v_n.val() <= self.q_mtu.val())
                & (self.v_n.val() == self.q_left.val());
        }
        self.wa.next = self.q_addr.val();
        self.wl.next = self.q_left.val();
        if self.first.val() {
            self.wa.next = self.sw_va.y.val();
            self.wl.next = self.rlen.val();
        }
        self.wa_n.next = self.wa.val() + bit_cast::<64, 32>(self.v_n.val());
        self.wl_n.next = self.wl.val() - self.v_n.val();
        self.act_n.next = 0.into();
        if (self.v_op.val() == OP_RDMA_WRITE_FIRST) | (self.v_op.val() == OP_RDMA_WRITE_MIDDLE) {
            self.act_n.next = 1.into();
        }
        self.epsn1.next = self.q_epsn.val() + 1;
        self.msn1.next = self.q_msn.val() + 1;
        // READ request (sim::rx_ctx::RxCtx::read_request, read_packets): longer than the MTU,
        // it takes ((length - 1) >> log2 MTU) + 1 PSNs; the MTU must be a power of two of at
        // least 256 bytes and the length at most 2^30, so at most 2^22 PSNs. The bounds are
        // checked without the shift, which only feeds the expected PSN.
        self.rr_multi.next = self.rlen.val() > self.q_mtu.val();
        // (length - 1) >> log2 MTU for the six MTUs that may be cut (256..8192): first
        // (length - 1) >> 8, as length >> 8 less the borrow of its low byte, then constant
        // shifts and a 6:1 mux; 24 bits (length <= 2^30).
        self.rr_lm1.next = self.rlen.val().get_bits::<24>(8);
        if !self.rlen.val().get_bits::<8>(0).any() {
            self.rr_lm1.next = self.rlen.val().get_bits::<24>(8) - 1;
        }
        self.rr_nm1.next = self.rr_lm1.val();
        if self.q_log.val() == 9 {
            self.rr_nm1.next = bit_cast::<24, 23>(self.rr_lm1.val().get_bits::<23>(1));
        }
        if self.q_log.val() == 10 {
            self.rr_nm1.next = bit_cast::<24, 22>(self.rr_lm1.val().get_bits::<22>(2));
        }
        if self.q_log.val() == 11 {
            self.rr_nm1.next = bit_cast::<24, 21>(self.rr_lm1.val().get_bits::<21>(3));
        }
        if self.q_log.val() == 12 {
            self.rr_nm1.next = bit_cast::<24, 20>(self.rr_lm1.val().get_bits::<20>(4));
        }
        if self.q_log.val() == 13 {
            self.rr_nm1.next = bit_cast::<24, 19>(self.rr_lm1.val().get_bits::<19>(5));
        }
        self.rr_bad.next = (self.rr_multi.val()
            & ((self.q_log.val() == 15) | (self.q_log.val() < 8) | (self.rlen.val() > 0x4000_0000)))
            | (!self.behind.val() & self.q_act.val());
        self.rr_adv.next = 1.into();
        if self.rr_multi.val() {
            self.rr_adv.next = self.rr_nm1.val() + 1;
        }
        self.rr_epsn.next = self.q_epsn.val() + self.rr_adv.val();
        // READ response: First and Middle a whole MTU, Last and Only at most one.
        self.rs_bad.next = (self.v_n.val() > self.q_mtu.val())
            | (((self.v_op.val() == OP_RDMA_READ_RESPONSE_FIRST) | (self.v_op.val() == OP_RDMA_READ_RESPONSE_MIDDLE))
                & (self.v_n.val() != self.q_mtu.val()));
        // READ response (read_response): snd_una <= PSN < sent.
        self.dr.next = self.v_psn.val() - self.q_una.val().get_bits::<24>(0);
        self.er.next = self.v_psn.val() - self.q_sent.val().get_bits::<24>(0);
        self.er_neg.next = self.er.val().get_bit(23);
        self.una1.next = self.q_una.val() + 1;
        self.rd_n.next = self.q_rd.val() + bit_cast::<64, 32>(self.v_n.val());

        // ---- Requester (sim::rx_ctx::RxCtx::acknowledge): only [snd_una, sent] counts.
        self.da.next = self.upto.val() - self.q_una.val().get_bits::<24>(0);
        self.ea.next = self.upto.val() - self.q_sent.val().get_bits::<24>(0);
        self.ack_stale.next = self.da.val().get_bit(23)
            | ((self.da.val() == 0) & !self.seq.val())
            | ((self.ea.val() != 0) & !self.ea.val().get_bit(23));
        self.upto32.next = self.q_una.val() + bit_cast::<32, 24>(self.da.val());
        self.released.next = self.q_sent.val() - self.q_una.val();
        self.acked16.next = self.da.val().get_bits::<16>(0);
        if self.da.val().get_bits::<8>(16) != 0 {
            self.acked16.next = 0xFFFF.into();
        }
    }
}
