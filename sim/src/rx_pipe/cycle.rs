//! rx_pipe cycle by cycle (hdl/src/rx/rx_pipe.rs, docs/modules/rx_pipe.md "How it works"):
//! the same ports on every cycle as the RTL, for the whole core's model. The verdict is
//! [`RxPipe::beat`]'s; the timing is the RTL's: a beat is taken whenever fewer than 128
//! verdicts are owed (result_fifo's credit), and a frame's verdict is on
//! `m_axis_verdict_tvalid` `LATENCY` cycles after the cycle its last beat was taken in, behind
//! the verdicts before it.

use super::{Beat, RxPipe as Frames, Verdict};
use crate::result_fifo::ResultFifo;

/// hdl `rx_pipe::LATENCY` + 1: the last beat's cycle to its verdict on the output (icrc_pipe's
/// 11 cycles, then the FIFO).
pub const LATENCY: u64 = 12;

/// Everything driven into rx_pipe during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    /// `s_axis_tvalid` with its beat.
    pub beat: Option<&'a Beat>,
    pub verdict_ready: bool,
}

/// What rx_pipe shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_ready: bool,
    /// `m_axis_verdict_tvalid` with its record.
    pub verdict: Option<Verdict>,
}

/// rx_pipe, cycle by cycle.
pub struct RxPipe {
    /// The values, and the counters (`counters[code]`).
    pub frames: Frames,
    fifo: ResultFifo<Verdict>,
    pub(crate) cycle: u64,
}

impl Default for RxPipe {
    fn default() -> Self {
        RxPipe { frames: Frames::new(), fifo: ResultFifo::new(LATENCY), cycle: 0 }
    }
}

impl RxPipe {
    pub fn new() -> RxPipe {
        RxPipe::default()
    }

    /// No verdict in flight or waiting.
    pub fn idle(&self) -> bool {
        self.fifo.owed() == 0
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        Outputs { s_ready: !i.reset && self.fifo.credit(), verdict: self.fifo.head(self.cycle).cloned() }
    }

    /// One clock cycle; returns the outputs shown during it. A reset forgets the frame in
    /// progress and every verdict, and clears the counters.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        let c = self.cycle;
        self.cycle += 1;
        if i.reset {
            *self = RxPipe { cycle: self.cycle, ..RxPipe::new() };
            return out;
        }
        if out.verdict.is_some() && i.verdict_ready {
            self.fifo.pop();
        }
        if let Some(b) = i.beat.filter(|_| out.s_ready) {
            if let Some(v) = self.frames.beat(b.clone()) {
                self.fifo.issue(c, v);
            }
        }
        out
    }
}
