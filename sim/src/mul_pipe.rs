//! Golden model of `hdl/src/prim/mul_pipe.rs`, cycle by cycle: a full-width unsigned product
//! `latency` cycles after its operands.

use crate::pipe::Pipe;

#[derive(Clone, Debug)]
pub struct MulPipe {
    pipe: Pipe<(u128, u128)>,
}

impl MulPipe {
    /// A multiplier of `latency` (>= 2) cycles.
    pub fn new(latency: usize) -> MulPipe {
        assert!(latency >= 2, "latency {latency}");
        MulPipe {
            pipe: Pipe::new(latency),
        }
    }

    /// One rising edge with `input` = `(a, b, tag)` presented (None: `in_valid` low); returns
    /// `(prod, tag)` as the outputs show it after the edge.
    pub fn step(&mut self, input: Option<(u64, u64, u128)>, reset: bool) -> Option<(u128, u128)> {
        let entry = input.map(|(a, b, t)| (a as u128 * b as u128, t));
        self.pipe.step(entry, reset)
    }
}
