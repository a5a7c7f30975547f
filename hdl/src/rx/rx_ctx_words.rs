//! rx_ctx, stage S2: the words rx_ctx sends for a record, from rx_ctx_rules' decision: the
//! PktRecv for tx_ctx, the CC event for cc_module and the DMA command for rx_dma.
//! Combinational; rx_ctx registers a word when its `*_send` (or `write`) says so.

use crate::byte_swap::ByteSwap64;
use crate::layout::{CcEventFields, DmaCmdFields, PktRecvNamed, ReadRespNamed, RxQpFields, VerdictFields};
use crate::rx_ctx::QP_BITS;
use crate::rx_ctx_rules::RxCtxDecisionIn;
use crate::tx_ctx::{RECV_ACK, RECV_READ, RECV_REWIND};
use rust_hdl::prelude::*;
use sim::packet::MAX_HOPS;

/// The record, the flow and the decision in; the three words out.
#[derive(LogicBlock, Default)]
pub struct RxCtxWords<const F: usize> {
    /// The verdict record S2 holds (`sim::layout::VERDICT`).
    pub vd: Signal<In, Bits<640>>,
    /// The flow's QP word (`sim::layout::RX_QP`), from rx_ctx_fwd: its MTU log2.
    pub w: Signal<In, Bits<QP_BITS>>,
    /// The flow.
    pub flow: Signal<In, Bits<F>>,
    /// Time in ns, for the CC event.
    pub now: Signal<In, Bits<64>>,
    /// rx_ctx_rules' decision, joined to its `dec`.
    pub dec: RxCtxDecisionIn,
    /// PktRecv (`sim::layout::PKT_RECV`, or `READ_RESP` for a READ to answer).
    pub recv_word: Signal<Out, Bits<512>>,
    /// CC event (`sim::layout::CC_EVENT`).
    pub ev_word: Signal<Out, Bits<512>>,
    /// DMA command (`sim::layout::DMA_CMD`); all zero (discard the frame) unless `write`.
    pub dma_word: Signal<Out, Bits<128>>,

    /// Hop word k of the record, wire order to a number.
    sw_h: [ByteSwap64; MAX_HOPS],
    v_hops: Signal<Local, Bits<320>>,
    /// The payload length; a DMA command carries its low 14 bits (a frame is at most 9 KB).
    v_len: Signal<Local, Bits<16>>,
    v_nhop: Signal<Local, Bits<3>>,
    v_fb: Signal<Local, Bits<1>>,
    v_coll: Signal<Local, bool>,
    wire_hops: Signal<Local, Bits<320>>,
    num_hops: Signal<Local, Bits<320>>,
    r_ece: Signal<Local, Bits<1>>,
    r_psn_be: Signal<Local, Bits<24>>,
    rw_psn_be: Signal<Local, Bits<24>>,
    r_aeth: Signal<Local, Bits<32>>,
}

impl<const F: usize> Logic for RxCtxWords<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.v_hops.next = self.vd.val().get_value_hops();
        self.v_len.next = self.vd.val().get_value_payload_len();
        self.v_nhop.next = self.vd.val().get_value_nhop();
        self.v_fb.next = (self.vd.val().get_value_telemetry() & self.vd.val().get_value_feedback()).into();
        self.v_coll.next = self.vd.val().get_value_telemetry() & !self.vd.val().get_value_echo();
        // The hops the record carries, in wire order (for an echo) and as numbers (for the CC
        // event); slots at or past nhop count as 0. (Written out per hop count: yosys builds
        // a loop that shifts the words into place ~900 LUTs larger.)
        for k in 0..MAX_HOPS {
            self.sw_h[k].a.next = self.v_hops.val().get_bits::<64>(64 * k);
        }
        self.wire_hops.next = 0.into();
        self.num_hops.next = 0.into();
        // Rx-HPCC feedback (rx_pipe sets it only with no hops): hop word 0 is W.
        if self.v_fb.val().any() {
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h[0].y.val());
        }
        if self.v_nhop.val() > 0 {
            self.wire_hops.next = bit_cast::<320, 64>(self.v_hops.val().get_bits::<64>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h[0].y.val());
        }
        if self.v_nhop.val() > 1 {
            self.wire_hops.next = bit_cast::<320, 128>(self.v_hops.val().get_bits::<128>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h[0].y.val())
                | (bit_cast::<320, 64>(self.sw_h[1].y.val()) << 64);
        }
        if self.v_nhop.val() > 2 {
            self.wire_hops.next = bit_cast::<320, 192>(self.v_hops.val().get_bits::<192>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h[0].y.val())
                | (bit_cast::<320, 64>(self.sw_h[1].y.val()) << 64)
                | (bit_cast::<320, 64>(self.sw_h[2].y.val()) << 128);
        }
        if self.v_nhop.val() > 3 {
            self.wire_hops.next = bit_cast::<320, 256>(self.v_hops.val().get_bits::<256>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h[0].y.val())
                | (bit_cast::<320, 64>(self.sw_h[1].y.val()) << 64)
                | (bit_cast::<320, 64>(self.sw_h[2].y.val()) << 128)
                | (bit_cast::<320, 64>(self.sw_h[3].y.val()) << 192);
        }
        if self.v_nhop.val() > 4 {
            self.wire_hops.next = self.v_hops.val();
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h[0].y.val())
                | (bit_cast::<320, 64>(self.sw_h[1].y.val()) << 64)
                | (bit_cast::<320, 64>(self.sw_h[2].y.val()) << 128)
                | (bit_cast::<320, 64>(self.sw_h[3].y.val()) << 192)
                | (bit_cast::<320, 64>(self.sw_h[4].y.val()) << 256);
        }

        // ---- PktRecv: ACK / NAK (PSN big-endian and AETH as on the wire, echo with nhop and
        // hop slots), telemetry response (the same, AETH 0), the whole READ to answer
        // (layout::READ_RESP: sim::tx_ctx::ReadResp's first form, MTU log2, length, host
        // address; position Only, packet length 0), or go-back-N (its PSN).
        // ECN-Echo for an ACK / NAK of a CE-marked request (the LDCP receiver).
        self.r_ece.next = 0.into();
        if (self.vd.val().get_value_ecn() == 3) & (self.dec.r_kind.val() == RECV_ACK) {
            self.r_ece.next = 1.into();
        }
        self.r_psn_be.next = (bit_cast::<24, 8>(self.dec.r_psn.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.dec.r_psn.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.dec.r_psn.val().get_bits::<8>(16));
        self.rw_psn_be.next = (bit_cast::<24, 8>(self.dec.rw_psn.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.dec.rw_psn.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.dec.rw_psn.val().get_bits::<8>(16));
        self.r_aeth.next = bit_cast::<32, 8>(self.dec.r_syn.val())
            | (bit_cast::<32, 8>(self.dec.r_msn.val().get_bits::<8>(16)) << 8)
            | (bit_cast::<32, 8>(self.dec.r_msn.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.dec.r_msn.val().get_bits::<8>(0)) << 24);
        self.recv_word.next = 0.into();
        self.recv_word.next.set_value_pkt_recv_flow(bit_cast::<16, F>(self.flow.val()));
        self.recv_word.next.set_value_pkt_recv_kind(self.dec.r_kind.val());
        if self.dec.r_kind.val() == RECV_REWIND {
            self.recv_word.next.set_value_pkt_recv_psn(self.rw_psn_be.val());
        } else {
            self.recv_word.next.set_value_pkt_recv_psn(self.r_psn_be.val());
            self.recv_word.next.set_value_pkt_recv_aeth(self.r_aeth.val());
            self.recv_word.next.set_value_pkt_recv_ece_bits(self.r_ece.val());
            if self.v_coll.val() & (self.dec.r_kind.val() != RECV_READ) {
                self.recv_word.next.set_value_pkt_recv_echo(true);
                self.recv_word.next.set_value_pkt_recv_nhop(bit_cast::<8, 3>(self.v_nhop.val()));
                self.recv_word.next.set_value_pkt_recv_hops(self.wire_hops.val());
            }
            if self.dec.r_kind.val() == RECV_READ {
                self.recv_word.next.set_value_read_resp_mtu_log(self.w.val().get_value_mtu_log());
                self.recv_word.next.set_value_read_resp_total(self.dec.rlen.val());
                self.recv_word.next.set_value_read_resp_va(self.dec.va.val());
            }
        }

        // ---- CC event (cc_module's format).
        self.ev_word.next = 0.into();
        self.ev_word.next.set_value_flow(bit_cast::<16, F>(self.flow.val()));
        self.ev_word.next.set_value_kind(self.dec.e_kind.val());
        self.ev_word.next.set_value_ece_bits(self.dec.e_ece.val());
        self.ev_word.next.set_value_seq(self.dec.e_seq.val());
        self.ev_word.next.set_value_snd_nxt(self.dec.e_nxt.val());
        self.ev_word.next.set_value_now(self.now.val());
        self.ev_word.next.set_value_acked(self.dec.e_acked.val());
        if self.dec.e_tele.val() {
            self.ev_word.next.set_value_count(self.v_nhop.val());
            self.ev_word.next.set_value_feedback_bits(self.v_fb.val());
            self.ev_word.next.set_value_hops(self.num_hops.val());
        }

        // ---- DMA command.
        self.dma_word.next = 0.into();
        if self.dec.write.val() {
            self.dma_word.next.set_value_addr(self.dec.dma_addr.val());
            self.dma_word.next.set_value_offset(self.vd.val().get_value_payload_at());
            self.dma_word.next.set_value_len(self.v_len.val().get_bits::<14>(0));
            self.dma_word.next.set_value_write(true);
            self.dma_word.next.set_value_flow(bit_cast::<16, F>(self.flow.val()));
        }
    }
}
