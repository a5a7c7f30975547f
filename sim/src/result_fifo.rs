//! Golden model of a CC engine's output side, cycle by cycle: its fixed-latency pipeline and
//! `hdl/src/prim/result_fifo.rs` (docs/modules/result_fifo.md) behind it. An engine's
//! pipeline never stalls, so a result issued in cycle `a` is at the FIFO in cycle
//! `a + latency` whatever else happens; the engine issues only while `credit` is high (fewer
//! than 128 results owed: issued and not yet read), so the FIFO never overflows. One queue
//! holds both: the results in flight and those waiting, in issue order.

use std::collections::VecDeque;

/// result_fifo's depth.
pub const DEPTH: usize = 128;

#[derive(Clone, Debug)]
pub struct ResultFifo<T> {
    latency: u64,
    /// (first cycle on `m_axis_*`, result), in issue order.
    q: VecDeque<(u64, T)>,
}

impl<T> ResultFifo<T> {
    /// An engine whose result is on the FIFO's output `latency` cycles after the cycle it was
    /// issued in (FIFO empty).
    pub fn new(latency: u64) -> ResultFifo<T> {
        ResultFifo { latency, q: VecDeque::new() }
    }

    /// The engine may issue this cycle.
    pub fn credit(&self) -> bool {
        self.q.len() < DEPTH
    }

    /// A result issued in cycle `cycle`.
    pub fn issue(&mut self, cycle: u64, r: T) {
        assert!(self.credit(), "result_fifo: issued without credit");
        self.q.push_back((cycle + self.latency, r));
    }

    /// The head during cycle `cycle` (`m_axis_tvalid`, `m_axis_tdata`).
    pub fn head(&self, cycle: u64) -> Option<&T> {
        self.q.front().filter(|(at, _)| *at <= cycle).map(|(_, r)| r)
    }

    /// The head is read.
    pub fn pop(&mut self) {
        self.q.pop_front();
    }

    /// Results issued and not read.
    pub fn owed(&self) -> usize {
        self.q.len()
    }

    pub fn clear(&mut self) {
        self.q.clear();
    }
}
