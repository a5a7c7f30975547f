//! A fixed-latency pipeline with valid bits and a synchronous reset: the timing shared by the
//! golden models of div_pipe, mul_pipe and cc_hop_util, which differ only in what they compute.

use std::collections::VecDeque;

/// What enters at a rising edge is on the outputs `latency - 1` edges later, i.e. `latency`
/// cycles after the cycle it was presented in.
#[derive(Clone, Debug)]
pub struct Pipe<T: Clone> {
    stages: VecDeque<Option<T>>,
}

impl<T: Clone> Pipe<T> {
    pub fn new(latency: usize) -> Pipe<T> {
        assert!(latency >= 1, "latency {latency}");
        Pipe {
            stages: VecDeque::from(vec![None; latency]),
        }
    }

    /// Cycles from `in_valid` to `out_valid`.
    pub fn latency(&self) -> usize {
        self.stages.len()
    }

    /// One rising edge with `input` presented (None: `in_valid` low) and `reset` high or low
    /// (reset clears every stage, the entering one too); returns the outputs after the edge.
    pub fn step(&mut self, input: Option<T>, reset: bool) -> Option<T> {
        self.stages.push_back(if reset { None } else { input });
        self.stages.pop_front();
        if reset {
            self.stages.iter_mut().for_each(|s| *s = None);
        }
        self.stages[0].clone()
    }
}
