//! tx_ctx, stage S2: the flow's next request packet, from its words (the golden model is
//! `sim::tx_ctx::TxCtx::pkt_send`). Combinational; tx_ctx registers `desc` and the DMA read
//! into its outputs and writes `after` back when a PktSend sends.
//!
//! A WRITE message goes as First / Middle / Last (or Only) packets of the flow's MTU, each with
//! its payload read from host memory at the message's local address + offset; a READ message
//! as one READ request per PktSend, each asking for the next MTU (its RETH's address advanced
//! by the offset, its DMA length the packet's). The descriptor is the flow's template with
//! TOS, opcode and AckReq replaced, and the PSN, T bit, RETH (First / Only / READ request) and
//! payload length set, multi-byte fields big-endian as on the wire.

use crate::layout::{TxDescNamed, TxFlowFields, TxMsgFields};
use crate::roce_op::*;
use crate::tx_ctx::{CTX_BITS, MSG_BITS};
use rust_hdl::prelude::*;

/// The flow's words in; the packet's descriptor, DMA read and the msg word after it out.
#[derive(LogicBlock, Default)]
pub struct TxCtxPkt {
    /// The flow's ctx word (`sim::layout::TX_FLOW`).
    pub flow: Signal<In, Bits<CTX_BITS>>,
    /// The flow's msg word (`sim::layout::TX_MSG`).
    pub msg: Signal<In, Bits<MSG_BITS>>,
    /// The packet's descriptor (`sim::layout::TX_DESC`).
    pub desc: Signal<Out, Bits<1024>>,
    /// The packet has a payload to read from host memory (a WRITE packet of length > 0).
    pub dma: Signal<Out, bool>,
    /// Host address of the payload: local address + offset.
    pub dma_addr: Signal<Out, Bits<64>>,
    /// Payload length: the MTU, or what is left of the message.
    pub plen: Signal<Out, Bits<14>>,
    /// The msg word after the packet: offset and PSN advanced, one more packet sent
    /// (saturating), still pending unless it was the last.
    pub after: Signal<Out, Bits<MSG_BITS>>,
    // The words' fields.
    m_off: Signal<Local, Bits<32>>,
    m_len: Signal<Local, Bits<32>>,
    m_psn: Signal<Local, Bits<24>>,
    m_sent: Signal<Local, Bits<16>>,
    m_reth: Signal<Local, Bits<128>>,
    m_read: Signal<Local, bool>,
    t_mtu: Signal<Local, Bits<14>>,
    t_fs: Signal<Local, Bits<16>>,
    // Descriptor bytes 28..30 (BTH SE / M / pad / version, P_Key) are the template's.
    t_desc: Signal<Local, Bits<1024>>,
    rest: Signal<Local, Bits<32>>,
    last: Signal<Local, bool>,
    first: Signal<Local, bool>,
    len: Signal<Local, Bits<14>>,
    opcode: Signal<Local, Bits<8>>,
    not_ect: Signal<Local, bool>,
    tos: Signal<Local, Bits<8>>,
    ack_req: Signal<Local, Bits<8>>,
    tele_byte: Signal<Local, Bits<8>>,
    off1: Signal<Local, Bits<32>>,
    psn1: Signal<Local, Bits<24>>,
    sent1: Signal<Local, Bits<16>>,
    va_num: Signal<Local, Bits<64>>,
    va_sum: Signal<Local, Bits<64>>,
    rd_reth: Signal<Local, Bits<128>>,
    reth_out: Signal<Local, Bits<128>>,
    dplen: Signal<Local, Bits<14>>,
    psn_be: Signal<Local, Bits<24>>,
    dplen_be: Signal<Local, Bits<16>>,
    word: Signal<Local, Bits<1024>>,
    next_msg: Signal<Local, Bits<MSG_BITS>>,
}

impl Logic for TxCtxPkt {
    #[hdl_gen]
    fn update(&mut self) {
        self.m_off.next = self.msg.val().get_value_offset();
        self.m_len.next = self.msg.val().get_value_len();
        self.m_psn.next = self.msg.val().get_value_psn();
        self.m_sent.next = self.msg.val().get_value_sent();
        self.m_reth.next = self.msg.val().get_value_reth();
        self.m_read.next = self.msg.val().get_value_read();
        self.t_mtu.next = self.flow.val().get_value_mtu();
        self.t_fs.next = self.flow.val().get_value_fast_start();

        // Length and opcode: the last packet carries what is left.
        self.rest.next = self.m_len.val() - self.m_off.val();
        self.last.next = (self.rest.val().get_bits::<18>(14) == 0)
            & (self.rest.val().get_bits::<14>(0) <= self.t_mtu.val());
        self.first.next = self.m_off.val() == 0;
        self.len.next = self.t_mtu.val();
        if self.last.val() {
            self.len.next = self.rest.val().get_bits::<14>(0);
        }
        self.opcode.next = OP_RDMA_WRITE_MIDDLE.into();
        if self.m_read.val() {
            self.opcode.next = OP_RDMA_READ_REQUEST.into();
        } else if self.first.val() & self.last.val() {
            self.opcode.next = OP_RDMA_WRITE_ONLY.into();
        } else if self.first.val() {
            self.opcode.next = OP_RDMA_WRITE_FIRST.into();
        } else if self.last.val() {
            self.opcode.next = OP_RDMA_WRITE_LAST.into();
        }
        // LDCP fast start: packets 0 .. fs-2 since create are Not-ECT, the rest ECT(0).
        self.not_ect.next = (bit_cast::<17, 16>(self.m_sent.val()) + 1) < bit_cast::<17, 16>(self.t_fs.val());
        // The flow's template is the descriptor's bytes 0..35 (layout::TX_DESC).
        self.t_desc.next = bit_cast::<1024, 288>(self.flow.val().get_value_template());
        self.tos.next = (self.t_desc.val().get_value_tx_desc_tos() & 0xFC) | 0x02;
        if self.not_ect.val() {
            self.tos.next = self.t_desc.val().get_value_tx_desc_tos() & 0xFC;
        }
        // AckReq (descriptor byte bit 7) on every request.
        self.ack_req.next = 0x80.into();
        self.tele_byte.next = 0.into();
        if self.flow.val().get_value_telemetry() {
            self.tele_byte.next = 1.into();
        }
        // Sums in their own signals: inside a wider bit_cast Verilog would add at the wider
        // width and carry out of the field (PSN 0xFFFFFF + 1).
        self.off1.next = self.m_off.val() + bit_cast::<32, 14>(self.len.val());
        self.psn1.next = self.m_psn.val() + 1;
        self.sent1.next = self.m_sent.val();
        if self.m_sent.val() != 0xFFFF {
            self.sent1.next = self.m_sent.val() + 1;
        }
        // READ request: RETH {remote address + offset, R_Key, this packet's length}. The RETH is
        // kept in wire order (big-endian), so the address is byte-reversed around the add.
        self.va_num.next = (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(0)) << 56)
            | (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(8)) << 48)
            | (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(16)) << 40)
            | (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(24)) << 32)
            | (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(32)) << 24)
            | (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(40)) << 16)
            | (bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(48)) << 8)
            | bit_cast::<64, 8>(self.m_reth.val().get_bits::<8>(56));
        self.va_sum.next = self.va_num.val() + bit_cast::<64, 32>(self.m_off.val());
        self.rd_reth.next = bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(56))
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(48)) << 8)
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(40)) << 16)
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(32)) << 24)
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(24)) << 32)
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(16)) << 40)
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(8)) << 48)
            | (bit_cast::<128, 8>(self.va_sum.val().get_bits::<8>(0)) << 56)
            | (bit_cast::<128, 32>(self.m_reth.val().get_bits::<32>(64)) << 64)
            | (bit_cast::<128, 6>(self.len.val().get_bits::<6>(8)) << 112)
            | (bit_cast::<128, 8>(self.len.val().get_bits::<8>(0)) << 120);
        self.reth_out.next = 0.into();
        self.dplen.next = self.len.val();
        if self.m_read.val() {
            self.reth_out.next = self.rd_reth.val();
            self.dplen.next = 0.into();
        } else if self.first.val() {
            self.reth_out.next = self.m_reth.val();
        }

        // The descriptor.
        self.psn_be.next = bit_cast::<24, 8>(self.m_psn.val().get_bits::<8>(16))
            | (bit_cast::<24, 8>(self.m_psn.val().get_bits::<8>(8)) << 8)
            | (bit_cast::<24, 8>(self.m_psn.val().get_bits::<8>(0)) << 16);
        self.dplen_be.next = bit_cast::<16, 6>(self.dplen.val().get_bits::<6>(8))
            | (bit_cast::<16, 8>(self.dplen.val().get_bits::<8>(0)) << 8);
        self.word.next = self.t_desc.val();
        self.word.next.set_value_tx_desc_tos(self.tos.val());
        self.word.next.set_value_tx_desc_opcode(self.opcode.val());
        self.word.next.set_value_tx_desc_ack_req(self.ack_req.val());
        self.word.next.set_value_tx_desc_psn(self.psn_be.val());
        self.word.next.set_value_tx_desc_tele(self.tele_byte.val());
        self.word.next.set_value_tx_desc_ext(self.reth_out.val());
        self.word.next.set_value_tx_desc_payload_len(self.dplen_be.val());
        self.desc.next = self.word.val();
        self.plen.next = self.len.val();
        self.dma.next = (self.len.val() != 0) & !self.m_read.val();
        self.dma_addr.next = self.msg.val().get_value_local() + bit_cast::<64, 32>(self.m_off.val());

        // The msg word after the packet: pending unless it was the last.
        self.next_msg.next = self.msg.val();
        self.next_msg.next.set_value_pending(!self.last.val());
        self.next_msg.next.set_value_offset(self.off1.val());
        self.next_msg.next.set_value_psn(self.psn1.val());
        self.next_msg.next.set_value_sent(self.sent1.val());
        self.after.next = self.next_msg.val();
    }
}
