//! Small RAM with a combinational read port, for FIFOs that must show their head without a
//! cycle of latency. rust-hdl's `RAM` only has a registered read, which maps to block RAM; this
//! one maps to LUT RAM (distributed RAM) on Xilinx parts. Its words start at zero, as the
//! rust-hdl model below reads an unwritten word (`unwrap_or_default`).

use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// `2^N` words of type `D`, written on the rising edge, read asynchronously.
#[derive(LogicBlock, Default)]
pub struct DistRam<D: Synth, const N: usize> {
    /// Write clock.
    pub write_clock: Signal<In, Clock>,
    /// Write strobe, sampled on the rising edge of `write_clock`.
    pub write_enable: Signal<In, bool>,
    /// Word written when `write_enable` is high.
    pub write_address: Signal<In, Bits<N>>,
    /// Data written when `write_enable` is high.
    pub write_data: Signal<In, D>,
    /// Word shown on `read_data`.
    pub read_address: Signal<In, Bits<N>>,
    /// Contents of `read_address`, combinationally.
    pub read_data: Signal<Out, D>,
    _mem: BTreeMap<Bits<N>, D>,
}

impl<D: Synth, const N: usize> Logic for DistRam<D, N> {
    fn update(&mut self) {
        if self.write_clock.pos_edge() && self.write_enable.val() {
            self._mem.insert(self.write_address.val(), self.write_data.val());
        }
        self.read_data.next = self._mem.get(&self.read_address.val()).copied().unwrap_or_default();
    }

    fn connect(&mut self) {
        self.read_data.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
reg [{msb}:0] mem [0:{last}];

// Zero at power-up (LUT RAM INIT), so the read is never X in a 4-state simulator, not even
// before the first write: the FIFOs built on it show a defined word while empty.
integer i;
initial begin
    for (i = 0; i <= {last}; i = i + 1) begin
        mem[i] = {msb1}'d0;
    end
end

always @(*) begin
    read_data = mem[read_address];
end

always @(posedge write_clock) begin
    if (write_enable) begin
        mem[write_address] <= write_data;
    end
end",
            msb = D::BITS - 1,
            msb1 = D::BITS,
            last = (1usize << N) - 1,
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "dist_ram_write".into(),
            clock: "write_clock".into(),
            inputs: vec!["write_address".into(), "write_data".into(), "write_enable".into()],
            outputs: vec![],
        }]
    }
}
