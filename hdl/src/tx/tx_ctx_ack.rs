//! tx_ctx, stage S2: the descriptor of a frame answered from a PktRecv (an ACK / NAK, a
//! telemetry response, a probe, a CNP or a READ response), from the PktRecv word and the
//! flow's words (its template and next PSN). Combinational; tx_ctx registers `desc` and `plen` into its
//! descriptor and DMA outputs when it sends the frame. The golden model is
//! `sim::tx_ctx::TxCtx`'s `pkt_recv`, `response`, `probe`, `cnp` and `read_response`.
//!
//! Every frame built here is the template with TOS ECT(0) and no AckReq. ACK / NAK: PSN and
//! AETH from the PktRecv, its telemetry echo (T, nhop, hop slots) if it carries one. Response:
//! its PSN, T and its hops always. Probe: the flow's next PSN, T, an empty collecting header.

use crate::layout::{PktRecvNamed, ReadRespNamed, TxDescNamed, TxFlowFields, TxMsgFields};
use crate::roce_op::*;
use crate::tx_ctx::{CTX_BITS, MSG_BITS, POS_MIDDLE, POS_ONLY, RECV_ACK, RECV_CNP, RECV_PROBE, RECV_READ, RECV_RESPONSE};
use rust_hdl::prelude::*;

/// PktRecv and the flow's words in; descriptor and READ payload length out.
#[derive(LogicBlock, Default)]
pub struct TxCtxAck {
    /// The PktRecv word (`sim::layout::PKT_RECV`, or `READ_RESP` for kind `RECV_READ`).
    pub recv: Signal<In, Bits<512>>,
    /// The flow's ctx word (`sim::layout::TX_FLOW`: its template is the descriptor's bytes
    /// 0..35).
    pub flow: Signal<In, Bits<CTX_BITS>>,
    /// The flow's msg word (`sim::layout::TX_MSG`: its next PSN, which a probe carries).
    pub msg: Signal<In, Bits<MSG_BITS>>,
    /// The frame's descriptor (`sim::layout::TX_DESC`).
    pub desc: Signal<Out, Bits<1024>>,
    /// A READ response's payload length (read from host memory), or 0: no payload.
    pub plen: Signal<Out, Bits<14>>,
    template: Signal<Local, Bits<1024>>,
    next_psn: Signal<Local, Bits<24>>,
    kind: Signal<Local, Bits<3>>,
    len_fld: Signal<Local, Bits<16>>,
    op: Signal<Local, Bits<8>>,
    psn: Signal<Local, Bits<24>>,
    tele: Signal<Local, Bits<1>>,
    aeth: Signal<Local, Bits<32>>,
    tos: Signal<Local, Bits<8>>,
    echo_nhop: Signal<Local, Bits<8>>,
    echo_hops: Signal<Local, Bits<320>>,
    fbk: Signal<Local, Bits<1>>,
    fb: Signal<Local, Bits<8>>,
    sem: Signal<Local, Bits<8>>,
    pkey: Signal<Local, Bits<16>>,
    plen_be: Signal<Local, Bits<16>>,
}

impl Logic for TxCtxAck {
    #[hdl_gen]
    fn update(&mut self) {
        self.template.next = bit_cast::<1024, 288>(self.flow.val().get_value_template());
        self.next_psn.next = self.msg.val().get_value_psn();
        self.kind.next = self.recv.val().get_value_pkt_recv_kind();
        self.op.next = OP_ACKNOWLEDGE.into();
        self.len_fld.next = self.recv.val().get_value_read_resp_len();
        self.psn.next = self.recv.val().get_value_pkt_recv_psn();
        self.tele.next = self.recv.val().get_value_pkt_recv_echo_bits();
        self.aeth.next = self.recv.val().get_value_pkt_recv_aeth();
        self.plen.next = 0.into();
        if self.kind.val() == RECV_READ {
            // READ response: Only 0x10, or First / Middle / Last (0x0D..0x0F) by the
            // position read_split wrote; PSN, AETH (tx_pipe leaves it out of a Middle), payload
            // length (its low 14 bits); no telemetry.
            self.op.next = OP_RDMA_READ_RESPONSE_ONLY.into();
            if self.recv.val().get_value_read_resp_pos() != POS_ONLY {
                // First, Middle, Last are the opcodes after READ request (roce_op.rs).
                self.op.next = bit_cast::<8, 2>(self.recv.val().get_value_read_resp_pos()) + OP_RDMA_READ_REQUEST;
            }
            // A Middle has no AETH: the descriptor's AETH bytes are 0, as the model's.
            if self.recv.val().get_value_read_resp_pos() == POS_MIDDLE {
                self.aeth.next = 0.into();
            }
            self.tele.next = 0.into();
            self.plen.next = self.len_fld.val().get_bits::<14>(0);
        } else if self.kind.val() == RECV_RESPONSE {
            self.op.next = OP_HPCC_TELEMETRY_RESPONSE.into();
            self.tele.next = 1.into();
            self.aeth.next = 0.into();
        } else if self.kind.val() == RECV_CNP {
            // CNP (RoCEv2 Annex A17): PSN 0, no AETH (its 16 reserved bytes are tx_pipe's).
            self.op.next = OP_CNP.into();
            self.psn.next = 0.into();
            self.tele.next = 0.into();
            self.aeth.next = 0.into();
        } else if self.kind.val() == RECV_PROBE {
            self.op.next = OP_HPCC_PROBE.into();
            self.psn.next = (bit_cast::<24, 8>(self.next_psn.val().get_bits::<8>(0)) << 16)
                | (bit_cast::<24, 8>(self.next_psn.val().get_bits::<8>(8)) << 8)
                | bit_cast::<24, 8>(self.next_psn.val().get_bits::<8>(16));
            self.tele.next = 1.into();
            self.aeth.next = 0.into();
        }
        self.tos.next = (self.template.val().get_value_tx_desc_tos() & 0xFC) | 0x02;
        self.echo_nhop.next = 0.into();
        self.echo_hops.next = 0.into();
        self.fbk.next = 0.into();
        if (self.recv.val().get_value_pkt_recv_echo() & (self.kind.val() == RECV_ACK)) | (self.kind.val() == RECV_RESPONSE) {
            self.echo_nhop.next = self.recv.val().get_value_pkt_recv_nhop();
            self.echo_hops.next = self.recv.val().get_value_pkt_recv_hops();
        }
        // An ACK / NAK's echo with Rx-HPCC feedback (W is in hop slot 0): tx_pipe sets F.
        if self.recv.val().get_value_pkt_recv_echo() & (self.kind.val() == RECV_ACK) {
            self.fbk.next = self.recv.val().get_value_pkt_recv_feedback_bits();
        }
        // BTH byte 31: FECN from the template; BECN = ECN-Echo, set in an ACK / NAK whose
        // request arrived CE-marked (PktRecv `ece`, kind RECV_ACK), clear in every other frame
        // built here (the LDCP receiver's half: the template's BECN is for data frames only).
        self.fb.next = self.template.val().get_value_tx_desc_fb() & 0x80;
        if (self.kind.val() == RECV_ACK) & self.recv.val().get_value_pkt_recv_ece() {
            self.fb.next = (self.template.val().get_value_tx_desc_fb() & 0x80) | 0x40;
        }
        // A CNP: FECN 0, BECN 1, SE / M / pad / version 0, P_Key 0xFFFF.
        self.sem.next = self.template.val().get_value_tx_desc_se_m();
        self.pkey.next = self.template.val().get_value_tx_desc_pkey();
        if self.kind.val() == RECV_CNP {
            self.fb.next = 0x40.into();
            self.sem.next = 0.into();
            self.pkey.next = 0xFFFF.into();
        }
        self.plen_be.next = bit_cast::<16, 6>(self.plen.val().get_bits::<6>(8))
            | (bit_cast::<16, 8>(self.plen.val().get_bits::<8>(0)) << 8);
        self.desc.next = self.template.val();
        self.desc.next.set_value_tx_desc_tos(self.tos.val());
        self.desc.next.set_value_tx_desc_opcode(self.op.val());
        self.desc.next.set_value_tx_desc_se_m(self.sem.val());
        self.desc.next.set_value_tx_desc_pkey(self.pkey.val());
        self.desc.next.set_value_tx_desc_fb(self.fb.val());
        self.desc.next.set_value_tx_desc_ack_req(0.into());
        self.desc.next.set_value_tx_desc_psn(self.psn.val());
        self.desc.next.set_value_tx_desc_tele(bit_cast::<8, 1>(self.tele.val()));
        self.desc.next.set_value_tx_desc_ext(bit_cast::<128, 32>(self.aeth.val()));
        self.desc.next.set_value_tx_desc_nhop(self.echo_nhop.val());
        self.desc.next.set_value_tx_desc_feedback(bit_cast::<8, 1>(self.fbk.val()));
        self.desc.next.set_value_tx_desc_payload_len(self.plen_be.val());
        self.desc.next.set_value_tx_desc_hops(self.echo_hops.val());
    }
}
