//! Reverses the byte order of a 64-bit word: wire order (first byte in the low bits, as
//! AXI-Stream lanes carry it) to a number, or back. Pure wiring; written as one Verilog
//! concatenation because the same thing in rust-hdl's subset is eight shifted slices.

use rust_hdl::prelude::*;

/// `y` is `a` with its eight bytes in reverse order.
#[derive(LogicBlock, Default)]
pub struct ByteSwap64 {
    /// The word in.
    pub a: Signal<In, Bits<64>>,
    /// The word with byte i of `a` at byte 7 - i.
    pub y: Signal<Out, Bits<64>>,
}

impl Logic for ByteSwap64 {
    fn update(&mut self) {
        self.y.next = self.a.val().to_u64().swap_bytes().into();
    }

    fn connect(&mut self) {
        self.y.connect();
    }

    fn hdl(&self) -> Verilog {
        let bytes: Vec<String> = (0..8)
            .map(|i| format!("a[{}:{}]", 8 * i + 7, 8 * i))
            .collect();
        Verilog::Custom(format!(
            "always @(*) begin\n    y = {{{}}};\nend",
            bytes.join(", ")
        ))
    }
}
