//! rx_ctx, S1 and S2's handshake: which input S1 takes into the P registers (control word,
//! then sent event, then verdict; one per clock), whether S2 does its input this cycle, the input
//! treadys, and the verdict's decode that S2's longest path would otherwise start with.
//! Combinational, fed only by rx_ctx's registers and ports (tx_ctx_pick is its Tx twin).
//!
//! S2 holds a verdict, or a timeout (control op 4), only while an output register it needs is
//! full; a verdict needs all four free (a sent event may give a Notify too, and a timeout with
//! packets in flight sends a go-back-N on three of them).

use crate::rx_ctx::{PICK_BITS, RX_OP_TIMEOUT, RX_PICK_CTRL, RX_PICK_SENT, RX_PICK_VERDICT};
use crate::rx_ctx_rules::SYN_NAK_SEQ;
use rust_hdl::prelude::*;

/// Registers and ports in; S1's choice, S2's go-ahead and the verdict's decode out. `F`: log2
/// of the flow count.
#[derive(LogicBlock, Default)]
pub struct RxCtxPick<const F: usize> {
    /// The sweep after reset is done (no input is taken before).
    pub swept: Signal<In, bool>,
    /// S2 holds an input (the P registers).
    pub p_valid: Signal<In, bool>,
    /// Its kind (`RX_PICK_*`).
    pub p_kind: Signal<In, Bits<PICK_BITS>>,
    /// Its flow's address.
    pub p_addr: Signal<In, Bits<F>>,
    /// The control word's op in S2 (`sim::layout::RX_CREATE`'s `op`).
    pub p_op: Signal<In, Bits<3>>,
    /// The PktRecv output register is full; its tready.
    pub r_valid: Signal<In, bool>,
    pub r_ready: Signal<In, bool>,
    /// The CC event output register is full; its tready.
    pub e_valid: Signal<In, bool>,
    pub e_ready: Signal<In, bool>,
    /// The Notify registers (packets, then bytes) are full; the second's tready.
    pub n_valid: Signal<In, bool>,
    pub m_valid: Signal<In, bool>,
    pub m_ready: Signal<In, bool>,
    /// The DMA command output register is full; its tready.
    pub d_valid: Signal<In, bool>,
    pub d_ready: Signal<In, bool>,
    /// A control word is offered; its op and QPN (`sim::layout::RX_CREATE`).
    pub ctrl_valid: Signal<In, bool>,
    pub ctrl_op: Signal<In, Bits<3>>,
    pub ctrl_qpn: Signal<In, Bits<24>>,
    /// A sent event is offered; its flow (`sim::layout::SENT`).
    pub sent_valid: Signal<In, bool>,
    pub sent_flow: Signal<In, Bits<16>>,
    /// A verdict is offered; its flow (dest_qp's low F bits), AETH syndrome and PSN
    /// (`sim::layout::VERDICT`).
    pub vd_valid: Signal<In, bool>,
    pub vd_flow: Signal<In, Bits<F>>,
    pub vd_syn: Signal<In, Bits<8>>,
    pub vd_psn: Signal<In, Bits<24>>,
    /// The treadys of the three inputs.
    pub ctrl_ready: Signal<Out, bool>,
    pub sent_ready: Signal<Out, bool>,
    pub vd_ready: Signal<Out, bool>,
    /// S2 is empty or done this cycle: the P registers load.
    pub go: Signal<Out, bool>,
    /// What they load: the input taken (`RX_PICK_*`, 0 none).
    pub in_kind: Signal<Out, Bits<PICK_BITS>>,
    /// Its flow's address (the low F bits of the control word's QPN, the sent event's flow or
    /// the verdict's dest_qp).
    pub addr: Signal<Out, Bits<F>>,
    /// The flow S2 holds next cycle (the QP RAM's read address).
    pub next_a2: Signal<Out, Bits<F>>,
    /// The verdict is a NAK PSN sequence error; another NAK (any other non-ACK syndrome, bits
    /// 6:5); the PSN it acknowledges up to (its PSN for a sequence NAK, else the next one).
    pub seq: Signal<Out, bool>,
    pub nko: Signal<Out, bool>,
    pub upto: Signal<Out, Bits<24>>,
    /// The input taken is a timeout (control op 4).
    pub tmo: Signal<Out, bool>,
    /// S2 does its control word this cycle (a timeout only once the outputs are free).
    pub take_c: Signal<Out, bool>,
    /// S2 does its sent event this cycle.
    pub take_s: Signal<Out, bool>,
    /// S2 does its verdict this cycle.
    pub take_v: Signal<Out, bool>,
    /// Every output register is free or empties this cycle.
    free: Signal<Local, bool>,
    go_v: Signal<Local, bool>,
    kind: Signal<Local, Bits<PICK_BITS>>,
    at: Signal<Local, Bits<F>>,
    is_seq: Signal<Local, bool>,
}

impl<const F: usize> Logic for RxCtxPick<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.free.next = (!self.r_valid.val() | self.r_ready.val())
            & (!self.e_valid.val() | self.e_ready.val())
            & (!self.n_valid.val() | !self.m_valid.val() | self.m_ready.val())
            & (!self.d_valid.val() | self.d_ready.val());
        self.go_v.next = !self.p_valid.val()
            | ((self.p_kind.val() == RX_PICK_CTRL) & (self.p_op.val() != RX_OP_TIMEOUT))
            | self.free.val();
        self.ctrl_ready.next = self.swept.val() & self.go_v.val();
        self.sent_ready.next = !self.ctrl_valid.val() & self.swept.val() & self.go_v.val();
        self.vd_ready.next = !self.ctrl_valid.val() & !self.sent_valid.val() & self.swept.val() & self.go_v.val();
        self.go.next = self.go_v.val();
        self.take_c.next = self.p_valid.val()
            & (self.p_kind.val() == RX_PICK_CTRL)
            & ((self.p_op.val() != RX_OP_TIMEOUT) | self.free.val());
        self.take_s.next = self.p_valid.val() & (self.p_kind.val() == RX_PICK_SENT) & self.free.val();
        self.take_v.next = self.p_valid.val() & (self.p_kind.val() == RX_PICK_VERDICT) & self.free.val();

        // The input, by priority.
        self.kind.next = 0.into();
        self.at.next = self.vd_flow.val();
        if self.vd_valid.val() {
            self.kind.next = RX_PICK_VERDICT.into();
        }
        if self.sent_valid.val() {
            self.kind.next = RX_PICK_SENT.into();
            self.at.next = self.sent_flow.val().get_bits::<F>(0);
        }
        if self.ctrl_valid.val() {
            self.kind.next = RX_PICK_CTRL.into();
            self.at.next = self.ctrl_qpn.val().get_bits::<F>(0);
        }
        self.in_kind.next = self.kind.val();
        self.addr.next = self.at.val();
        self.next_a2.next = self.p_addr.val();
        if self.go_v.val() {
            self.next_a2.next = self.at.val();
        }
        self.tmo.next = self.swept.val()
            & (self.kind.val() == RX_PICK_CTRL)
            & (self.ctrl_op.val() == RX_OP_TIMEOUT);

        // The verdict's AETH syndrome and PSN.
        self.is_seq.next = self.vd_syn.val() == SYN_NAK_SEQ;
        self.seq.next = self.is_seq.val();
        self.nko.next = (self.vd_syn.val().get_bits::<2>(5) != 0) & !self.is_seq.val();
        self.upto.next = self.vd_psn.val() + 1;
        if self.is_seq.val() {
            self.upto.next = self.vd_psn.val();
        }
    }
}
