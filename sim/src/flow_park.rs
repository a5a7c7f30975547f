//! Golden model of `hdl/src/cc/flow_park.rs` (docs/modules/flow_park.md), cycle by cycle: P
//! slots that issue one flow's events at least D + 1 cycles apart while other flows' events
//! pass one that waits. The engines' cycle models (`crate::cc_module::cycle`) park their
//! events here, `T` being what an event carries through the engine (its result, already
//! known); hdl's flow_park block simulates with it under rust-hdl, `T` the event word.
//!
//! The rules, as the RTL has them:
//! - an event is taken when a slot is free and its flow holds no slot, or one slot with
//!   nothing chained behind it (`ready`);
//! - its flow has no slot: it waits `D - i - 1` cycles if the flow was issued `i + 1` cycles
//!   ago (the newest such window entry), else 0; one slot k: it is chained to k, or waits D if
//!   k issues in the same cycle;
//! - each cycle the lowest valid, unchained slot with wait 0 is offered, and issued when the
//!   datapath is ready; the slot chained to it gets wait D.

use std::collections::VecDeque;

#[derive(Clone, Debug)]
struct Slot<T> {
    flow: u64,
    wait: usize,
    chained: Option<usize>,
    item: T,
}

/// flow_park with `slots` slots and a `d`-cycle window.
#[derive(Clone, Debug)]
pub struct FlowPark<T: Clone> {
    d: usize,
    /// Flows issued 1, 2, .. d cycles ago (None: nothing issued that cycle), newest first.
    window: VecDeque<Option<u64>>,
    /// How many window entries are Some.
    in_window: usize,
    slots: Vec<Option<Slot<T>>>,
}

impl<T: Clone> FlowPark<T> {
    pub fn new(slots: usize, d: usize) -> FlowPark<T> {
        assert!(slots.is_power_of_two() && (2..=16).contains(&slots) && (2..128).contains(&d));
        FlowPark { d, window: VecDeque::from(vec![None; d]), in_window: 0, slots: vec![None; slots] }
    }

    /// Whether an event of `flow` would be taken this cycle (`s_axis_tready`, no drop).
    pub fn ready(&self, flow: u64) -> bool {
        let free = self.slots.iter().any(|s| s.is_none());
        match self.hits(flow) {
            (_, 0) => free,
            (Some(k), 1) => free && !self.has_chain(k),
            _ => false,
        }
    }

    /// The event offered to the datapath this cycle (`m_valid`, `m_data`).
    pub fn head(&self) -> Option<&T> {
        self.issue_slot().map(|k| &self.slots[k].as_ref().unwrap().item)
    }

    /// Nothing parked.
    pub fn is_empty(&self) -> bool {
        self.slots.iter().all(|s| s.is_none())
    }

    /// One rising edge: `input` is an event taken this cycle (the caller checked `ready`),
    /// `m_ready` the datapath's ready. Returns the event issued.
    pub fn step(&mut self, input: Option<(u64, T)>, m_ready: bool) -> Option<T> {
        // Nothing held and nothing entering: the edge changes nothing (the window shifts in
        // one more empty entry). Most cycles of a netsim host are such.
        if input.is_none() && self.in_window == 0 && self.is_empty() {
            return None;
        }
        let issue = self.issue_slot().filter(|_| m_ready);
        let entering = input.map(|(flow, item)| {
            let (wait, chained) = match self.hits(flow).0 {
                None => (self.window.iter().position(|e| *e == Some(flow)).map_or(0, |i| self.d - i - 1), None),
                Some(k) if Some(k) == issue => (self.d, None),
                Some(k) => (0, Some(k)),
            };
            Slot { flow, wait, chained, item }
        });
        for s in self.slots.iter_mut().flatten() {
            s.wait = s.wait.saturating_sub(1);
            if issue.is_some() && s.chained == issue {
                s.chained = None;
                s.wait = self.d;
            }
        }
        // The lowest slot free before this edge (the issued one frees only after it).
        let free = self.slots.iter().position(|s| s.is_none());
        let issued = issue.map(|k| self.slots[k].take().unwrap());
        if let Some(e) = entering {
            self.slots[free.expect("flow_park: an event taken with no slot free")] = Some(e);
        }
        self.window.push_front(issued.as_ref().map(|s| s.flow));
        self.in_window += issued.is_some() as usize;
        self.in_window -= self.window.pop_back().flatten().is_some() as usize;
        issued.map(|s| s.item)
    }

    /// Synchronous reset: slots and window empty.
    pub fn reset(&mut self) {
        self.window.iter_mut().for_each(|e| *e = None);
        self.in_window = 0;
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    fn issue_slot(&self) -> Option<usize> {
        self.slots.iter().position(|s| matches!(s, Some(Slot { wait: 0, chained: None, .. })))
    }

    /// The lowest slot holding `flow`, and how many do.
    fn hits(&self, flow: u64) -> (Option<usize>, usize) {
        let mut it = (0..self.slots.len()).filter(|&k| self.slots[k].as_ref().is_some_and(|s| s.flow == flow));
        let first = it.next();
        (first, first.map_or(0, |_| 1 + it.count()))
    }

    fn has_chain(&self, k: usize) -> bool {
        self.slots.iter().flatten().any(|s| s.chained == Some(k))
    }
}
