//! tx_ctx, stage S2: the flow's two words (context and message), from the BRAMs, or the ones
//! tx_ctx wrote last cycle when the BRAMs read before that write landed (a read-during-write
//! bypass). Combinational. Its own block so that tx_ctx_ack, which reads the words, is fed
//! by wires: Verilator then sees no loop through tx_ctx's one `always` block.

use crate::tx_ctx::{CTX_BITS, MSG_BITS};
use rust_hdl::prelude::*;

/// BRAM words and last writes in; the current words out.
#[derive(LogicBlock, Default)]
pub struct TxCtxFwd {
    /// The ctx BRAM's read data (`sim::layout::TX_FLOW`).
    pub ctx_ram: Signal<In, Bits<CTX_BITS>>,
    /// The ctx word written last cycle.
    pub ctx_last: Signal<In, Bits<CTX_BITS>>,
    /// The ctx word was written last cycle at the address being read.
    pub ctx_use_last: Signal<In, bool>,
    /// The msg BRAM's read data (`sim::layout::TX_MSG`).
    pub msg_ram: Signal<In, Bits<MSG_BITS>>,
    /// The msg word written last cycle.
    pub msg_last: Signal<In, Bits<MSG_BITS>>,
    /// The msg word was written last cycle at the address being read.
    pub msg_use_last: Signal<In, bool>,
    /// The flow's ctx word.
    pub ctx: Signal<Out, Bits<CTX_BITS>>,
    /// The flow's msg word.
    pub msg: Signal<Out, Bits<MSG_BITS>>,
}

impl Logic for TxCtxFwd {
    #[hdl_gen]
    fn update(&mut self) {
        self.ctx.next = self.ctx_ram.val();
        self.msg.next = self.msg_ram.val();
        if self.ctx_use_last.val() {
            self.ctx.next = self.ctx_last.val();
        }
        if self.msg_use_last.val() {
            self.msg.next = self.msg_last.val();
        }
    }
}
