//! tx_ctx, S1 and S2's handshakes: which input S1 takes into the P registers (control word,
//! then PktRecv, then PktSend), whether the event in S2 is done this cycle, and the input
//! treadys. Combinational, fed only by tx_ctx's registers and ports.
//!
//! S2 holds an event only while an output register it needs is full. Every event may report
//! to flow_sched (sleep register); a READ response (PktRecv kind `RECV_READ`) needs both other
//! output registers, other PktRecvs the descriptor register only, a PktSend both.
//!
//! Sent events wait in a two-entry FIFO, and a PktSend is taken only if the FIFO will have room
//! for it when it reaches S2 (at most one entry left after this cycle, counting the PktSend in
//! S2 as a push). So S2 never waits on the sent path: rx_ctx takes sent events only while its
//! own outputs move, and one of them (PktRecv) goes to this block, so a PktSend held in S2 for
//! a sent slot could stop both blocks for good.

use crate::tx_ctx::{PICK_BITS, RECV_READ, TX_PICK_CTRL, TX_PICK_RECV, TX_PICK_SEND};
use rust_hdl::prelude::*;

/// Registers and ports in; S1's choice and S2's go-ahead out. `F`: log2 of the flow count.
#[derive(LogicBlock, Default)]
pub struct TxCtxPick<const F: usize> {
    /// The sweep after reset is done (no input is taken before).
    pub swept: Signal<In, bool>,
    /// S2 holds an event (the P registers).
    pub p_valid: Signal<In, bool>,
    /// Its kind (`TX_PICK_*`).
    pub p_kind: Signal<In, Bits<PICK_BITS>>,
    /// Its flow's address.
    pub p_addr: Signal<In, Bits<F>>,
    /// The PktRecv kind in S2 (`sim::layout::PKT_RECV`'s `kind`).
    pub p_recv_kind: Signal<In, Bits<3>>,
    /// The descriptor output register is full.
    pub d_valid: Signal<In, bool>,
    /// Its tready.
    pub d_ready: Signal<In, bool>,
    /// The DMA read output register is full.
    pub r_valid: Signal<In, bool>,
    /// Its tready.
    pub r_ready: Signal<In, bool>,
    /// The sent FIFO's head entry is full.
    pub s_valid: Signal<In, bool>,
    /// Its second entry is full.
    pub s2_valid: Signal<In, bool>,
    /// Its tready.
    pub s_ready: Signal<In, bool>,
    /// The sleep output register is full.
    pub w_valid: Signal<In, bool>,
    /// Its tready.
    pub w_ready: Signal<In, bool>,
    /// A control word is offered.
    pub ctrl_valid: Signal<In, bool>,
    /// Its flow id.
    pub ctrl_flow: Signal<In, Bits<16>>,
    /// A PktRecv is offered.
    pub recv_valid: Signal<In, bool>,
    /// Its flow id.
    pub recv_flow: Signal<In, Bits<16>>,
    /// A PktSend is offered.
    pub send_valid: Signal<In, bool>,
    /// Its flow id.
    pub send_flow: Signal<In, Bits<16>>,
    /// The control word's tready.
    pub ctrl_ready: Signal<Out, bool>,
    /// The PktRecv's tready.
    pub recv_ready: Signal<Out, bool>,
    /// The PktSend's tready.
    pub send_ready: Signal<Out, bool>,
    /// S2 is empty or done this cycle: the P registers load.
    pub go: Signal<Out, bool>,
    /// What they load: the input taken (`TX_PICK_*`, 0 none).
    pub in_kind: Signal<Out, Bits<PICK_BITS>>,
    /// Its flow's address (the flow id's low F bits).
    pub addr: Signal<Out, Bits<F>>,
    /// The flow S2 holds next cycle (the BRAMs' read address).
    pub next_a2: Signal<Out, Bits<F>>,
    /// S2 does its control word this cycle.
    pub take_c: Signal<Out, bool>,
    /// S2 does its PktRecv this cycle.
    pub take_r: Signal<Out, bool>,
    /// S2 does its PktSend this cycle.
    pub take_p: Signal<Out, bool>,
    /// The sent FIFO's head leaves this cycle.
    pub s_pop: Signal<Out, bool>,
    free: Signal<Local, bool>,
    d_free: Signal<Local, bool>,
    w_free: Signal<Local, bool>,
    ps2: Signal<Local, bool>,
    s_room: Signal<Local, bool>,
    r_both: Signal<Local, bool>,
    go_v: Signal<Local, bool>,
    pop: Signal<Local, bool>,
    kind: Signal<Local, Bits<PICK_BITS>>,
    at: Signal<Local, Bits<F>>,
}

impl<const F: usize> Logic for TxCtxPick<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.free.next = (!self.d_valid.val() | self.d_ready.val()) & (!self.r_valid.val() | self.r_ready.val());
        self.d_free.next = !self.d_valid.val() | self.d_ready.val();
        self.w_free.next = !self.w_valid.val() | self.w_ready.val();
        self.pop.next = self.s_valid.val() & self.s_ready.val();
        self.ps2.next = self.p_valid.val() & (self.p_kind.val() == TX_PICK_SEND);
        self.s_room.next = !self.s_valid.val()
            | (!self.s2_valid.val() & !(self.ps2.val() & !self.pop.val()))
            | (self.s2_valid.val() & self.pop.val() & !self.ps2.val());
        self.r_both.next = self.p_recv_kind.val() == RECV_READ;
        self.go_v.next = !self.p_valid.val()
            | (self.w_free.val()
                & ((self.p_kind.val() == TX_PICK_CTRL)
                    | ((self.p_kind.val() == TX_PICK_RECV) & self.d_free.val() & (!self.r_both.val() | self.free.val()))
                    | ((self.p_kind.val() == TX_PICK_SEND) & self.free.val())));
        self.ctrl_ready.next = self.swept.val() & self.go_v.val();
        self.recv_ready.next = !self.ctrl_valid.val() & self.swept.val() & self.go_v.val();
        self.send_ready.next = !self.ctrl_valid.val()
            & !self.recv_valid.val()
            & self.swept.val()
            & self.go_v.val()
            & self.s_room.val();
        self.kind.next = 0.into();
        self.at.next = self.send_flow.val().get_bits::<F>(0);
        if self.send_valid.val() & self.s_room.val() {
            self.kind.next = TX_PICK_SEND.into();
        }
        if self.recv_valid.val() {
            self.kind.next = TX_PICK_RECV.into();
            self.at.next = self.recv_flow.val().get_bits::<F>(0);
        }
        if self.ctrl_valid.val() {
            self.kind.next = TX_PICK_CTRL.into();
            self.at.next = self.ctrl_flow.val().get_bits::<F>(0);
        }
        self.next_a2.next = self.p_addr.val();
        if self.go_v.val() {
            self.next_a2.next = self.at.val();
        }
        self.go.next = self.go_v.val();
        self.in_kind.next = self.kind.val();
        self.addr.next = self.at.val();
        self.s_pop.next = self.pop.val();
        self.take_c.next = self.p_valid.val() & (self.p_kind.val() == TX_PICK_CTRL) & self.w_free.val();
        self.take_r.next = self.p_valid.val()
            & (self.p_kind.val() == TX_PICK_RECV)
            & self.w_free.val()
            & self.d_free.val()
            & (!self.r_both.val() | self.free.val());
        self.take_p.next = self.p_valid.val()
            & (self.p_kind.val() == TX_PICK_SEND)
            & self.free.val()
            & self.w_free.val();
    }
}
