//! hpcc_nic_core_events cycle by cycle (hdl/src/top/hpcc_nic_core_events.rs): the event
//! cc_module is offered each cycle (the sequencer's create; else, not held, the timer event,
//! else the tx-byte event; else the slot) and the slot, where the Rx pipe's ACKs of one flow
//! coalesce (`CcEvent::merge`) while merging is on.

use crate::cc_module::{Event, TIMER, TX};
use crate::rx_ctx::CcEvent;

/// Everything driven into the block during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub hold: bool,
    pub now_ns: u64,
    pub merge_on: bool,
    /// A timer event due for this flow.
    pub tm: Option<u16>,
    /// A tx-byte event: (flow, bytes).
    pub tx: Option<(u16, u32)>,
    /// The sequencer's create event.
    pub cr: Option<&'a Event>,
    /// The Rx pipe's event.
    pub ev: Option<&'a CcEvent>,
    /// cc_module's event ready.
    pub ready: bool,
}

/// What the block shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub tm_take: bool,
    pub tx_take: bool,
    pub s_ready: bool,
    /// The slot takes the Rx pipe's event.
    pub rx_take: bool,
    pub event: Option<Event>,
    /// The event offered is the slot's and carries Rx-HPCC feedback (bit 21 of the word,
    /// which `Event` does not hold: cc_module ignores it).
    pub event_feedback: bool,
    pub slot_full: bool,
}

/// The Rx pipe's event as cc_module reads its word (`layout::CC_EVENT`; the feedback bit is
/// not one of cc_module's fields).
pub fn event_of(e: &CcEvent) -> Event {
    let b = e.to_bytes();
    let w: Vec<u32> = b.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    Event::from_words(&w)
}

/// hpcc_nic_core_events, cycle by cycle.
#[derive(Default)]
pub struct HpccNicCoreEvents {
    slot: Option<CcEvent>,
    /// `stat_merged`, `stat_stalls`.
    pub merged: u32,
    pub stalls: u32,
}

/// What one cycle decides.
struct Comb {
    out: Outputs,
    go: bool,
    merge: Option<CcEvent>,
}

impl HpccNicCoreEvents {
    pub fn new() -> HpccNicCoreEvents {
        HpccNicCoreEvents::default()
    }

    pub fn idle(&self) -> bool {
        self.slot.is_none()
    }

    fn comb(&self, i: &Inputs) -> Comb {
        let mut event = self.slot.as_ref().map(event_of);
        let mut offer = true;
        let fb = self.slot.is_some_and(|s| s.feedback);
        if let (Some(f), false) = (i.tm, i.hold) {
            event = Some(Event { flow: f, ty: TIMER, now: i.now_ns, ..Event::default() });
            offer = false;
        } else if let (Some((f, bytes)), false) = (i.tx, i.hold) {
            event = Some(Event { flow: f, ty: TX, seq: bytes, now: i.now_ns, ..Event::default() });
            offer = false;
        }
        if let Some(c) = i.cr {
            event = Some(*c);
            offer = false;
        }
        let go = offer && self.slot.is_some() && i.ready;
        // An Rx event that does not come is never merged (the RTL's ready then follows the
        // stale data bus, which nothing reads while tvalid is low).
        let merge = match (&self.slot, i.ev) {
            (Some(s), Some(e)) if i.merge_on && !go => s.merge(e),
            _ => None,
        };
        let s_ready = !i.hold && (self.slot.is_none() || go || merge.is_some());
        let out = Outputs {
            tm_take: i.ready && !i.hold,
            tx_take: i.tm.is_none() && i.ready && !i.hold,
            s_ready,
            rx_take: i.ev.is_some() && s_ready,
            event,
            event_feedback: fb && offer,
            slot_full: self.slot.is_some(),
        };
        Comb { out, go, merge }
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        self.comb(i).out
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let c = self.comb(i);
        if c.go {
            self.slot = None;
        }
        if c.out.rx_take {
            self.slot = Some(match c.merge {
                Some(m) => {
                    self.merged = self.merged.wrapping_add(1);
                    m
                }
                None => *i.ev.unwrap(),
            });
        }
        if i.ev.is_some() && !c.out.s_ready && !i.hold {
            self.stalls = self.stalls.wrapping_add(1);
        }
        if i.reset {
            *self = HpccNicCoreEvents::new();
        }
        c.out
    }
}
