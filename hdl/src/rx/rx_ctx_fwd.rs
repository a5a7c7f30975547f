//! rx_ctx, stage S2: the flow's QP word, from the BRAM, or the one rx_ctx wrote last cycle
//! when the BRAM read before that write landed (a read-during-write bypass). Combinational.
//! Its own block so that rx_ctx_rules and rx_ctx_words, which read the word, are fed by wires:
//! Verilator then sees no loop through rx_ctx's one `always` block.

use crate::rx_ctx::QP_BITS;
use rust_hdl::prelude::*;

/// BRAM word and last write in; the current word out.
#[derive(LogicBlock, Default)]
pub struct RxCtxFwd {
    /// The QP BRAM's read data (`sim::layout::RX_QP`).
    pub ram: Signal<In, Bits<QP_BITS>>,
    /// The word written last cycle.
    pub last: Signal<In, Bits<QP_BITS>>,
    /// The word was written last cycle at the address being read.
    pub use_last: Signal<In, bool>,
    /// The flow's QP word.
    pub w: Signal<Out, Bits<QP_BITS>>,
}

impl Logic for RxCtxFwd {
    #[hdl_gen]
    fn update(&mut self) {
        self.w.next = self.ram.val();
        if self.use_last.val() {
            self.w.next = self.last.val();
        }
    }
}
