//! A block RAM's read-during-write bypass: the word the RAM returns, or the one written last
//! cycle at the address it read (the RAM read before that write landed). Combinational.
//!
//! tx_ctx (its ctx and msg words) and rx_ctx (its QP word) read a per-flow word in one stage
//! and write it back in the next; a packet of the same flow in the cycle after a write must
//! see the new word. A block of its own, not a mux in the parent, so that the blocks reading
//! the word are fed by wires: Verilator then sees no loop through the parent's one `always`
//! block. rtl-out names each instance by its place (`rx_ctx_fwd`, `tx_ctx_ctx_fwd`,
//! `tx_ctx_msg_fwd`): one module per width.

use rust_hdl::prelude::*;

/// RAM word and last write in; the current word out.
#[derive(LogicBlock, Default)]
pub struct RamFwd<const W: usize> {
    /// The RAM's read data.
    pub ram: Signal<In, Bits<W>>,
    /// The word written last cycle.
    pub last: Signal<In, Bits<W>>,
    /// The word was written last cycle at the address being read.
    pub use_last: Signal<In, bool>,
    /// The current word.
    pub w: Signal<Out, Bits<W>>,
}

impl<const W: usize> Logic for RamFwd<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.w.next = self.ram.val();
        if self.use_last.val() {
            self.w.next = self.last.val();
        }
    }
}
