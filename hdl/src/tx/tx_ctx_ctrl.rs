//! tx_ctx, stage S2: what a control word (`sim::layout::TX_CREATE`, `TX_POST`) does to the
//! flow's words, and whether it is valid for the flow (`sim::tx_ctx::TxCtx::ctrl`).
//! Combinational; tx_ctx writes the words when it takes the control word and `ok` holds (and
//! the flow id is in range, which tx_ctx checks).
//!
//! Create: a ctx word from the template, MTU, telemetry, fast start and probe; the msg word
//! valid and idle. Remove: the msg word cleared. Post: the msg word valid and pending at offset
//! 0, with the message's length (RETH bytes 12..15), local address, first PSN as next PSN,
//! RETH and READ flag; it keeps the packets-sent count.

use crate::layout::{TxCreateNamed, TxFlowFields, TxMsgFields, TxPostNamed};
use crate::tx_ctx::{CTX_BITS, MSG_BITS, TX_OP_CREATE, TX_OP_POST, TX_OP_REMOVE};
use rust_hdl::prelude::*;

/// The control word and what the flow's msg word says of it in; validity and the words to write out.
#[derive(LogicBlock, Default)]
pub struct TxCtxCtrl {
    /// The control word (512 bits).
    pub word: Signal<In, Bits<512>>,
    /// The flow exists (its msg word's `valid`).
    pub exists: Signal<In, bool>,
    /// Packets the flow sent since its create (its msg word's `sent`), which a post keeps.
    pub sent: Signal<In, Bits<16>>,
    /// The op is valid for the flow: create with MTU > 0; remove or post of an existing flow.
    pub ok: Signal<Out, bool>,
    /// The ctx word a create writes.
    pub flow_wd: Signal<Out, Bits<CTX_BITS>>,
    /// The msg word the op writes.
    pub msg_wd: Signal<Out, Bits<MSG_BITS>>,
    op: Signal<Local, Bits<2>>,
    mtu: Signal<Local, Bits<14>>,
    reth_fld: Signal<Local, Bits<128>>,
    len: Signal<Local, Bits<32>>,
    c_wd: Signal<Local, Bits<CTX_BITS>>,
    m_wd: Signal<Local, Bits<MSG_BITS>>,
}

impl Logic for TxCtxCtrl {
    #[hdl_gen]
    fn update(&mut self) {
        self.op.next = self.word.val().get_value_tx_create_op();
        self.mtu.next = self.word.val().get_value_tx_create_mtu();
        // Message length: RETH bytes 12..15 (big-endian) of the post.
        self.reth_fld.next = self.word.val().get_value_tx_post_reth();
        self.len.next = (bit_cast::<32, 8>(self.reth_fld.val().get_bits::<8>(96)) << 24)
            | (bit_cast::<32, 8>(self.reth_fld.val().get_bits::<8>(104)) << 16)
            | (bit_cast::<32, 8>(self.reth_fld.val().get_bits::<8>(112)) << 8)
            | bit_cast::<32, 8>(self.reth_fld.val().get_bits::<8>(120));
        self.ok.next = false;
        if self.op.val() == TX_OP_CREATE {
            self.ok.next = self.mtu.val() != 0;
        } else if (self.op.val() == TX_OP_REMOVE) | (self.op.val() == TX_OP_POST) {
            self.ok.next = self.exists.val();
        }
        self.c_wd.next = 0.into();
        self.c_wd.next.set_value_template(self.word.val().get_value_tx_create_template());
        self.c_wd.next.set_value_mtu(self.mtu.val());
        self.c_wd.next.set_value_telemetry(self.word.val().get_value_tx_create_telemetry());
        self.c_wd.next.set_value_fast_start(self.word.val().get_value_tx_create_fast_start());
        self.c_wd.next.set_value_probe(self.word.val().get_value_tx_create_probe());
        self.flow_wd.next = self.c_wd.val();
        self.m_wd.next = 0.into();
        if self.op.val() == TX_OP_CREATE {
            self.m_wd.next.set_value_valid(true);
        } else if self.op.val() == TX_OP_POST {
            self.m_wd.next.set_value_valid(true);
            self.m_wd.next.set_value_pending(true);
            self.m_wd.next.set_value_len(self.len.val());
            self.m_wd.next.set_value_local(self.word.val().get_value_tx_post_local());
            self.m_wd.next.set_value_psn(self.word.val().get_value_tx_post_first_psn());
            self.m_wd.next.set_value_sent(self.sent.val());
            self.m_wd.next.set_value_reth(self.word.val().get_value_tx_post_reth());
            self.m_wd.next.set_value_first_psn(self.word.val().get_value_tx_post_first_psn());
            self.m_wd.next.set_value_read(self.word.val().get_value_tx_post_read());
        }
        self.msg_wd.next = self.m_wd.val();
    }
}
