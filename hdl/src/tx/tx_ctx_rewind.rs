//! tx_ctx, stage S2: go-back-N (`sim::tx_ctx::TxCtx::rewind`), from a PktRecv of kind
//! `RECV_REWIND` (a NAK received for the flow's requests: its PSN) and the flow's MTU and msg
//! word.
//! Combinational; tx_ctx writes `after` back when the PSN is in range.
//!
//! k = PSN - first PSN must be below the packets sent, next PSN - first PSN (24-bit serial
//! arithmetic); the flow then sends again from that PSN, at offset k x MTU, computed as two
//! 16 x 16 products (k[15:0] x MTU + (k[23:16] x MTU) << 16, kept to 32 bits).

use crate::layout::TxMsgFields;
use crate::tx_ctx::MSG_BITS;
use rust_hdl::prelude::*;

/// The PktRecv's PSN and the flow's MTU and msg word in; whether it rewinds and the msg word after it out.
#[derive(LogicBlock, Default)]
pub struct TxCtxRewind {
    /// The PktRecv's PSN (`sim::layout::PKT_RECV`'s `psn`, in wire order).
    pub psn: Signal<In, Bits<24>>,
    /// The flow's MTU (`sim::layout::TX_FLOW`'s `mtu`).
    pub mtu: Signal<In, Bits<14>>,
    /// The flow's msg word (`sim::layout::TX_MSG`).
    pub msg: Signal<In, Bits<MSG_BITS>>,
    /// The PktRecv's PSN lies in the posted message's sent range.
    pub in_range: Signal<Out, bool>,
    /// The msg word after the go-back-N: pending, offset k x MTU, next PSN = the PktRecv's;
    /// the rest kept.
    pub after: Signal<Out, Bits<MSG_BITS>>,
    psn_num: Signal<Local, Bits<24>>,
    first: Signal<Local, Bits<24>>,
    k: Signal<Local, Bits<24>>,
    sent: Signal<Local, Bits<24>>,
    klo: Signal<Local, Bits<16>>,
    khi: Signal<Local, Bits<16>>,
    mtu16: Signal<Local, Bits<16>>,
    plo: Signal<Local, Bits<32>>,
    phi: Signal<Local, Bits<32>>,
    off: Signal<Local, Bits<32>>,
    next_msg: Signal<Local, Bits<MSG_BITS>>,
}

impl Logic for TxCtxRewind {
    #[hdl_gen]
    fn update(&mut self) {
        // The PSN is in wire order (descriptor bytes 36..38).
        self.psn_num.next = (bit_cast::<24, 8>(self.psn.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.psn.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.psn.val().get_bits::<8>(16));
        self.first.next = self.msg.val().get_value_first_psn();
        self.k.next = self.psn_num.val() - self.first.val();
        self.sent.next = self.msg.val().get_value_psn() - self.first.val();
        self.in_range.next = self.k.val() < self.sent.val();
        self.klo.next = self.k.val().get_bits::<16>(0);
        self.khi.next = bit_cast::<16, 8>(self.k.val().get_bits::<8>(16));
        self.mtu16.next = bit_cast::<16, 14>(self.mtu.val());
        self.plo.next = self.klo.val() * self.mtu16.val();
        self.phi.next = self.khi.val() * self.mtu16.val();
        self.off.next = self.plo.val() + (self.phi.val() << 16);
        self.next_msg.next = self.msg.val();
        self.next_msg.next.set_value_pending(true);
        self.next_msg.next.set_value_offset(self.off.val());
        self.next_msg.next.set_value_psn(self.psn_num.val());
        self.after.next = self.next_msg.val();
    }
}
