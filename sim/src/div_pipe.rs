//! Golden model of `hdl/src/prim/div_pipe.rs`, cycle by cycle: a QW-bit saturating divider
//! (`crate::cc_fixed::div_floor` with `max = 2^QW - 1`) with QW + 1 cycles of latency.

use crate::cc_fixed::div_floor;
use crate::pipe::Pipe;

/// The divider's pipeline: what enters at a rising edge is on the outputs `latency()` - 1
/// edges later, i.e. `latency()` cycles after the cycle it was presented in.
#[derive(Clone, Debug)]
pub struct DivPipe {
    max: u64,
    pipe: Pipe<(u64, u128)>,
}

impl DivPipe {
    pub fn new(qw: u32) -> DivPipe {
        assert!((2..=64).contains(&qw), "quotient width {qw}");
        DivPipe {
            max: u64::MAX >> (64 - qw),
            pipe: Pipe::new(qw as usize + 1),
        }
    }

    /// Cycles from `in_valid` to `out_valid`.
    pub fn latency(&self) -> usize {
        self.pipe.latency()
    }

    /// The quotient of one division.
    pub fn quotient(&self, num: u64, den: u64) -> u64 {
        div_floor(num, den, self.max)
    }

    /// One rising edge with `input` = `(num, den, tag)` presented (None: `in_valid` low) and
    /// `reset` high or low; returns `(quo, tag)` as the outputs show it after the edge.
    pub fn step(&mut self, input: Option<(u64, u64, u128)>, reset: bool) -> Option<(u64, u128)> {
        let entry = input.map(|(n, d, t)| (self.quotient(n, d), t));
        self.pipe.step(entry, reset)
    }
}
