//! rx_ctx, stage S2: what a control word or a sent event does to its flow's QP word.
//! Combinational; rx_ctx writes the word when S2 takes the input. The golden model is
//! `sim::rx_ctx::RxCtx`'s `control` and `sent`.

use crate::layout::{RxCreateNamed, RxQpFields, RxReadNamed, SentFields};
use crate::rx_ctx::{QP_BITS, RX_OP_CREATE, RX_OP_READ, RX_OP_REMOVE, RX_OP_TIMEOUT};
use rust_hdl::prelude::*;

/// Control word, sent event and QP word in; the new QP word for each, and what it counts as.
#[derive(LogicBlock, Default)]
pub struct RxCtxCtrl<const F: usize> {
    /// The control word S2 holds (`sim::layout::RX_CREATE`, `RX_READ` for a READ posted).
    pub control: Signal<In, Bits<128>>,
    /// The sent event S2 holds (`sim::layout::SENT`).
    pub sent: Signal<In, Bits<40>>,
    /// The flow's QP word (`sim::layout::RX_QP`), from rx_ctx_fwd.
    pub w: Signal<In, Bits<QP_BITS>>,
    /// A timeout finds packets in flight (rx_ctx_rules): sent goes back to snd_una.
    pub tmo: Signal<In, bool>,
    /// The control word writes the QP word with `c_word`.
    pub c_we: Signal<Out, bool>,
    pub c_word: Signal<Out, Bits<QP_BITS>>,
    /// The control word is ignored (counted): a create with MTU 0, a remove or READ for
    /// another QPN or none, a timeout without context, a reserved op.
    pub c_bad: Signal<Out, bool>,
    /// The sent event writes the QP word with `s_word` (sent + 1).
    pub s_we: Signal<Out, bool>,
    pub s_word: Signal<Out, Bits<QP_BITS>>,
    /// The sent event is not for the flow's next PSN (counted, its packet returned).
    pub s_stale: Signal<Out, bool>,
    /// The sent event's flow is >= 2^F or has no context (counted).
    pub s_drop: Signal<Out, bool>,

    c_op: Signal<Local, Bits<3>>,
    c_mtu: Signal<Local, Bits<14>>,
    c_qpn: Signal<Local, Bits<24>>,
    c_spsn: Signal<Local, Bits<24>>,
    c_log: Signal<Local, Bits<4>>,
    c_create: Signal<Local, bool>,
    c_remove: Signal<Local, bool>,
    c_read: Signal<Local, bool>,
    q_valid: Signal<Local, bool>,
    q_qpn: Signal<Local, Bits<24>>,
    q_una: Signal<Local, Bits<32>>,
    q_sent: Signal<Local, Bits<32>>,
    s_flow: Signal<Local, Bits<16>>,
    s_id_ok: Signal<Local, bool>,
}

impl<const F: usize> Logic for RxCtxCtrl<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.q_valid.next = self.w.val().get_value_valid();
        self.q_qpn.next = self.w.val().get_value_qpn();
        self.q_una.next = self.w.val().get_value_una();
        self.q_sent.next = self.w.val().get_value_sent();

        // ---- Control word.
        self.c_op.next = self.control.val().get_value_rx_create_op();
        self.c_mtu.next = self.control.val().get_value_rx_create_mtu();
        self.c_qpn.next = self.control.val().get_value_rx_create_qpn();
        self.c_spsn.next = self.control.val().get_value_rx_create_spsn();
        // log2 of a create's MTU, 15 if it is not a power of two.
        self.c_log.next = 15.into();
        if self.c_mtu.val() == 1 {
            self.c_log.next = 0.into();
        }
        if self.c_mtu.val() == 2 {
            self.c_log.next = 1.into();
        }
        if self.c_mtu.val() == 4 {
            self.c_log.next = 2.into();
        }
        if self.c_mtu.val() == 8 {
            self.c_log.next = 3.into();
        }
        if self.c_mtu.val() == 16 {
            self.c_log.next = 4.into();
        }
        if self.c_mtu.val() == 32 {
            self.c_log.next = 5.into();
        }
        if self.c_mtu.val() == 64 {
            self.c_log.next = 6.into();
        }
        if self.c_mtu.val() == 128 {
            self.c_log.next = 7.into();
        }
        if self.c_mtu.val() == 256 {
            self.c_log.next = 8.into();
        }
        if self.c_mtu.val() == 512 {
            self.c_log.next = 9.into();
        }
        if self.c_mtu.val() == 1024 {
            self.c_log.next = 10.into();
        }
        if self.c_mtu.val() == 2048 {
            self.c_log.next = 11.into();
        }
        if self.c_mtu.val() == 4096 {
            self.c_log.next = 12.into();
        }
        if self.c_mtu.val() == 8192 {
            self.c_log.next = 13.into();
        }
        self.c_create.next = (self.c_op.val() == RX_OP_CREATE) & (self.c_mtu.val() != 0);
        self.c_remove.next =
            (self.c_op.val() == RX_OP_REMOVE) & self.q_valid.val() & (self.q_qpn.val() == self.c_qpn.val());
        self.c_read.next =
            (self.c_op.val() == RX_OP_READ) & self.q_valid.val() & (self.q_qpn.val() == self.c_qpn.val());
        self.c_we.next = false;
        self.c_word.next = self.w.val();
        self.c_bad.next = false;
        if self.c_create.val() {
            self.c_we.next = true;
            self.c_word.next = 0.into();
            self.c_word.next.set_value_valid(true);
            self.c_word.next.set_value_qpn(self.c_qpn.val());
            self.c_word.next.set_value_mtu(self.c_mtu.val());
            self.c_word.next.set_value_epsn(self.control.val().get_value_rx_create_epsn());
            self.c_word.next.set_value_una(bit_cast::<32, 24>(self.c_spsn.val()));
            self.c_word.next.set_value_sent(bit_cast::<32, 24>(self.c_spsn.val()));
            self.c_word.next.set_value_mtu_log(self.c_log.val());
        } else if self.c_remove.val() {
            self.c_we.next = true;
            self.c_word.next = 0.into();
        } else if self.c_read.val() {
            self.c_we.next = true;
            self.c_word.next.set_value_rd(self.control.val().get_value_rx_read_addr());
            self.c_word.next.set_value_ract(true);
        } else if self.tmo.val() {
            // sent = snd_una; rx_ctx_rules makes the go-back-N's outputs.
            self.c_we.next = true;
            self.c_word.next.set_value_sent(self.q_una.val());
        } else if (self.c_op.val() == RX_OP_TIMEOUT) & self.q_valid.val() {
            // A timeout with nothing in flight: nothing to do.
            self.c_we.next = false;
        } else {
            self.c_bad.next = true;
        }

        // ---- Sent event: sent + 1 if it is for the flow's next PSN, else stale (a packet sent
        // before a go-back-N decided here reached tx_ctx: already released).
        self.s_flow.next = self.sent.val().get_value_flow();
        self.s_id_ok.next = bit_cast::<16, F>(bit_cast::<F, 16>(self.s_flow.val())) == self.s_flow.val();
        self.s_we.next = false;
        self.s_word.next = self.w.val();
        self.s_stale.next = false;
        self.s_drop.next = false;
        if self.s_id_ok.val() & self.q_valid.val() {
            if self.sent.val().get_value_psn() == self.q_sent.val().get_bits::<24>(0) {
                self.s_we.next = true;
                self.s_word.next.set_value_sent(self.q_sent.val() + 1);
            } else {
                self.s_stale.next = true;
            }
        } else {
            self.s_drop.next = true;
        }
    }
}
