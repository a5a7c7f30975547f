//! Byte enables to a bit mask: bit 8i+b of `mask` is bit i of `keep`. Combinational. rust-hdl
//! cannot assign a slice of a signal in a loop, so the body is a Verilog loop written here and
//! `update` is the same function for rust-hdl simulations.

use rust_hdl::prelude::*;

/// 64 byte enables -> 512-bit mask.
#[derive(LogicBlock, Default)]
pub struct ByteMask {
    /// Byte enables (AXI-Stream tkeep).
    pub keep: Signal<In, Bits<64>>,
    /// Each enable repeated over its byte's 8 bits.
    pub mask: Signal<Out, Bits<512>>,
}

impl Logic for ByteMask {
    fn update(&mut self) {
        let k = self.keep.val().to_u64();
        let mut m = Bits::<512>::default();
        for i in 0..64 {
            if k >> i & 1 != 0 {
                m = m | (bits::<512>(0xFF) << (8 * i));
            }
        }
        self.mask.next = m;
    }

    fn connect(&mut self) {
        self.mask.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
integer i;
always @(*) begin
    for (i = 0; i < 64; i = i + 1) begin
        mask[8*i +: 8] = {8{keep[i]}};
    end
end"
            .into(),
        )
    }
}
