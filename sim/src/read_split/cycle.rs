//! read_split cycle by cycle (hdl/src/tx/read_split.rs, docs/modules/read_split.md "Structure
//! and timing"): the same ports on every cycle as the RTL, for the whole core's model. The
//! words are [`split`]'s; the timing is the RTL's: one output register, the input taken while
//! no READ is being cut and the register is free or read this cycle, a READ's first packet out
//! the cycle after it is taken and one more each cycle the register is free.

use super::{split, Word};
use std::collections::VecDeque;

/// Everything driven into read_split during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub word: Option<&'a Word>,
    pub ready: bool,
}

/// What read_split shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_ready: bool,
    pub word: Option<Word>,
}

/// read_split, cycle by cycle.
#[derive(Default)]
pub struct ReadSplit {
    o: Option<Word>,
    /// The READ being cut: its packets still to send.
    rest: VecDeque<Word>,
}

impl ReadSplit {
    pub fn new() -> ReadSplit {
        ReadSplit::default()
    }

    pub fn idle(&self) -> bool {
        self.o.is_none() && self.rest.is_empty()
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let free = self.o.is_none() || i.ready;
        Outputs { s_ready: free && self.rest.is_empty(), word: self.o.clone() }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        if i.reset {
            *self = ReadSplit::new();
            return out;
        }
        if i.ready {
            self.o = None;
        }
        let free = out.word.is_none() || i.ready;
        if free && !self.rest.is_empty() {
            self.o = self.rest.pop_front();
        }
        if let Some(w) = i.word.filter(|_| out.s_ready) {
            self.rest = split(w).into();
            self.o = self.rest.pop_front();
        }
        out
    }
}
