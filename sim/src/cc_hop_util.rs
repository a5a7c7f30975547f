//! Golden model of `hdl/src/cc/cc_hop_util.rs`, cycle by cycle: `cc_hpcc::hop_arithmetic`
//! of one hop per clock, `LATENCY` cycles after it entered.

use crate::cc_hpcc::{hop_arithmetic, FxHop, HopArithmetic};
use crate::pipe::Pipe;

/// Cycles from `in_valid` to `out_valid` (the RTL's `cc_hop_util::LATENCY`).
pub const LATENCY: usize = 35;

#[derive(Clone, Debug)]
pub struct CcHopUtil {
    pub inv_bt: [u32; 8],
    pub inv_b: [u32; 8],
    pipe: Pipe<(HopArithmetic, u16)>,
}

impl CcHopUtil {
    pub fn new(inv_bt: [u32; 8], inv_b: [u32; 8]) -> CcHopUtil {
        CcHopUtil {
            inv_bt,
            inv_b,
            pipe: Pipe::new(LATENCY),
        }
    }

    /// One rising edge with `(now record, previous record, tag)` presented or not; returns
    /// what the outputs show after it. The tables are sampled with the hop, as the RTL does.
    pub fn step(
        &mut self,
        input: Option<(u64, u64, u16)>,
        reset: bool,
    ) -> Option<(HopArithmetic, u16)> {
        let entry = input.map(|(now, last, tag)| {
            let h = hop_arithmetic(
                &self.inv_bt,
                &self.inv_b,
                &FxHop::from_word(now),
                &FxHop::from_word(last),
            );
            (h, tag)
        });
        self.pipe.step(entry, reset)
    }
}
