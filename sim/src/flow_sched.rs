//! Cycle-accurate golden model of `hdl/src/sched/flow_sched.rs`.
//!
//! Naive on purpose: per-flow state lives in plain vectors and every stage reads the *latest*
//! value, where the RTL needs two bypass paths to get the same answer out of block RAM. Timing
//! that is architectural (when an op enters, which cycle a PktSend leaves) is modelled exactly;
//! see docs/modules/flow_sched.md for the pipeline.

use crate::layout::{word_of, words_of, NOTIFY, SCHED_CTRL, SLEEP, UPDATE};
use std::collections::VecDeque;

/// No ring pop while the burst FIFO holds more than this (16 entries, 5 ops in flight).
pub const BURST_FIFO_POP_LIMIT: usize = 10;
/// Largest per-visit packet count (12-bit field).
pub const MAX_PKTS: u32 = 0xFFF;

/// A create (with its first window and rate) or a remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ctrl {
    /// true = create, false = remove.
    pub create: bool,
    /// Flow id as sent on the wire (may be out of range: then ignored).
    pub flow: u16,
    /// Window in bytes.
    pub window: u32,
    /// Rate in bytes per cycle, UQ16.16.
    pub rate: u32,
    /// The flow's log2 packet bytes `[84:81]` (create; 0 = the `pkt_shift` input at each visit).
    pub pkt_shift: u8,
    /// Reserved bits `[87:85]`; nonzero makes the op ignored.
    pub reserved: u8,
}

impl Ctrl {
    /// The 88-bit `s_axis_ctrl_tdata` word (`layout::SCHED_CTRL`).
    pub fn tdata(&self) -> u128 {
        let l = &SCHED_CTRL;
        let mut w = [0u32; 4];
        l.rate.set(&mut w, self.rate as u64);
        l.window.set(&mut w, self.window as u64);
        l.flow.set(&mut w, self.flow as u64);
        l.create.set(&mut w, self.create as u64);
        l.pkt_shift.set(&mut w, self.pkt_shift as u64);
        l.reserved.set(&mut w, self.reserved as u64);
        word_of(&w)
    }

    /// The op a `s_axis_ctrl_tdata` word carries (the inverse of `tdata`).
    pub fn from_tdata(w: u128) -> Ctrl {
        let (l, w) = (&SCHED_CTRL, words_of(w));
        Ctrl {
            rate: l.rate.get(&w) as u32,
            window: l.window.get(&w) as u32,
            flow: l.flow.get(&w) as u16,
            create: l.create.get(&w) == 1,
            pkt_shift: l.pkt_shift.get(&w) as u8,
            reserved: l.reserved.get(&w) as u8,
        }
    }
}

/// A window/rate update from the CC module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Update {
    /// Flow id (out of range: ignored).
    pub flow: u16,
    /// Window in bytes.
    pub window: u32,
    /// Rate in bytes per cycle, UQ16.16.
    pub rate: u32,
}

impl Update {
    /// The 80-bit `s_axis_update_tdata` word (`layout::UPDATE`; cc_module's
    /// `m_axis_update_tdata`).
    pub fn tdata(&self) -> u128 {
        let mut w = [0u32; 4];
        UPDATE.rate.set(&mut w, self.rate as u64);
        UPDATE.window.set(&mut w, self.window as u64);
        UPDATE.flow.set(&mut w, self.flow as u64);
        word_of(&w)
    }

    /// The inverse of `tdata`.
    pub fn from_tdata(w: u128) -> Update {
        Update::from_words(&words_of(w))
    }

    /// The update of a word as 32-bit words, word 0 = bits 31:0 (a Verilated port).
    pub fn from_words(w: &[u32]) -> Update {
        Update {
            rate: UPDATE.rate.get(w) as u32,
            window: UPDATE.window.get(w) as u32,
            flow: UPDATE.flow.get(w) as u16,
        }
    }
}

/// Acknowledged bytes for a flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notify {
    /// Flow id (out of range: ignored).
    pub flow: u16,
    /// Newly acknowledged bytes.
    pub bytes: u32,
}

impl Notify {
    /// The 48-bit `s_axis_notify_tdata` word (`layout::NOTIFY`).
    pub fn tdata(&self) -> u64 {
        let mut w = [0u32; 4];
        NOTIFY.bytes.set(&mut w, self.bytes as u64);
        NOTIFY.flow.set(&mut w, self.flow as u64);
        word_of(&w) as u64
    }

    /// The inverse of `tdata`.
    pub fn from_tdata(w: u64) -> Notify {
        let w = words_of(w as u128);
        Notify { bytes: NOTIFY.bytes.get(&w) as u32, flow: NOTIFY.flow.get(&w) as u16 }
    }
}

/// The Tx pipe's report on a flow (tx_ctx's `m_axis_sleep`, flow_sched's `s_axis_sleep`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sleep {
    /// Flow id (out of range: ignored).
    pub flow: u16,
    /// false = idle: a PktSend found nothing to send; its packet of window comes back and the
    /// flow gets no grants until woken. true = wake: it has something to send again.
    pub wake: bool,
}

impl Sleep {
    /// The 17-bit `s_axis_sleep_tdata` word (`layout::SLEEP`).
    pub fn tdata(&self) -> u32 {
        let mut w = [0u32];
        SLEEP.flow.set(&mut w, self.flow as u64);
        SLEEP.wake.set(&mut w, self.wake as u64);
        w[0]
    }

    /// The inverse of `tdata`.
    pub fn from_tdata(w: u32) -> Sleep {
        Sleep { flow: SLEEP.flow.get(&[w]) as u16, wake: SLEEP.wake.get(&[w]) == 1 }
    }
}

/// Everything driven into the scheduler during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    /// Synchronous reset.
    pub reset: bool,
    /// log2 packet bytes.
    pub pkt_shift: u8,
    /// Packets per visit and credit cap.
    pub max_burst: u16,
    /// Offered create/remove (tvalid with its data).
    pub ctrl: Option<Ctrl>,
    /// Offered update.
    pub update: Option<Update>,
    /// Offered notify.
    pub notify: Option<Notify>,
    /// Offered sleep / wake.
    pub sleep: Option<Sleep>,
    /// PktSend tready.
    pub pktsend_ready: bool,
}

/// What the scheduler shows during the cycle (before the clock edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// s_axis_ctrl_tready.
    pub ctrl_ready: bool,
    /// s_axis_update_tready.
    pub update_ready: bool,
    /// s_axis_notify_tready.
    pub notify_ready: bool,
    /// s_axis_sleep_tready.
    pub sleep_ready: bool,
    /// m_axis_pktsend_tvalid.
    pub pktsend_valid: bool,
    /// m_axis_pktsend_tdata (meaningful when valid).
    pub pktsend_flow: u16,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pace {
    credit: u64, // bytes, UQ32.16
    t_last: u32,
    sent: u32,
    active: bool,
    in_ring: bool,
    asleep: bool,
    shift: u8, // the flow's log2 packet bytes, 0 = the input's
}

/// What an op in the visit pipeline does; the values are the RTL's op codes (hdl's
/// `flow_sched::OP_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A flow popped from the ring: settle its credit and grant a burst.
    Visit = 0,
    /// Create a flow (the ctrl word's create bit).
    Create = 1,
    /// Remove a flow.
    Remove = 2,
    /// A PktSend of the flow found nothing to send: its packet returned, the flow asleep.
    Idle = 3,
    /// The flow has something to send again: awake, back in the ring.
    Wake = 4,
}

#[derive(Clone, Copy, Debug)]
struct Op {
    kind: Kind,
    flow: usize,
    window: u32, // sampled at S0
    rate: u32,   // sampled at S0
    acked: u32,  // sampled at S0
    sent: u32,   // sampled at S2
    now: u32,    // at S1: the credit clock
    pkt_shift: u8, // configuration, sampled at S2
    max_burst: u16,
    create_shift: u8, // a create's packet size, from its ctrl word
}

/// One decision of the scheduler, for tests and pacing statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    /// Cycle of the decision (S2).
    pub cycle: u64,
    /// Flow granted.
    pub flow: usize,
    /// Packets granted.
    pub pkts: u32,
    /// Unacknowledged bytes after the grant (before it, a negative count is taken as zero).
    pub inflight: u32,
    /// Window the grant was checked against.
    pub window: u32,
    /// log2 bytes of the packets granted.
    pub pkt_shift: u8,
}

/// The flow scheduler, cycle by cycle.
pub struct FlowSched {
    flows: usize,
    pace: Vec<Pace>,
    cfg: Vec<(u32, u32)>, // (window, rate)
    acked: Vec<u32>,
    ring: VecDeque<usize>,
    bursts: VecDeque<(usize, u32)>,
    now: u32,
    cycle: u64,
    init_left: usize,
    notify_pending: Option<(usize, u32)>,
    // Ops in S0..S4, youngest first.
    stages: [Option<Op>; 5],
    cur_flow: usize,
    cur_left: u32,
    /// Decisions in order; drained by the caller.
    pub grants: Vec<Grant>,
}

impl FlowSched {
    /// A scheduler for `2^flow_bits` flows, as it is at power-up before a reset.
    pub fn new(flow_bits: u32) -> Self {
        let flows = 1usize << flow_bits;
        FlowSched {
            flows,
            pace: vec![Pace::default(); flows],
            cfg: vec![(0, 0); flows],
            acked: vec![0; flows],
            ring: VecDeque::new(),
            bursts: VecDeque::new(),
            now: 0,
            cycle: 0,
            init_left: 0,
            notify_pending: None,
            stages: [None; 5],
            cur_flow: 0,
            cur_left: 0,
            grants: Vec::new(),
        }
    }

    /// Out of its reset sweep, no flow in the ring, nothing in the pipeline or waiting: a
    /// cycle without inputs only counts (`now`, `cycle`).
    pub fn quiet(&self) -> bool {
        self.init_left == 0
            && self.ring.is_empty()
            && self.bursts.is_empty()
            && self.stages.iter().all(Option::is_none)
            && self.notify_pending.is_none()
            && self.cur_left == 0
    }

    /// Number of flows.
    pub fn flows(&self) -> usize {
        self.flows
    }

    /// Cycles stepped so far.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    fn flow_index(&self, flow: u16) -> Option<usize> {
        ((flow as usize) < self.flows).then_some(flow as usize)
    }

    /// The outputs during a cycle with inputs `i` (combinational, no state change).
    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let ready = !i.reset && self.init_left == 0;
        Outputs {
            ctrl_ready: ready,
            update_ready: ready && i.ctrl.is_none(),
            notify_ready: ready,
            sleep_ready: ready && i.ctrl.is_none(),
            pktsend_valid: self.cur_left != 0,
            pktsend_flow: self.cur_flow as u16,
        }
    }

    /// One clock cycle. Returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        self.cycle += 1;
        if i.reset {
            let grants = std::mem::take(&mut self.grants);
            *self = FlowSched { grants, cycle: self.cycle, ..FlowSched::new(self.flows.trailing_zeros()) };
            self.init_left = self.flows;
            return out;
        }
        if self.init_left > 0 {
            self.init_left -= 1;
            self.now = self.now.wrapping_add(1);
            self.expand(i.pktsend_ready);
            return out;
        }

        // Inputs accepted this cycle.
        let ctrl = i.ctrl.filter(|c| c.reserved & 0x7 == 0).and_then(|c| Some((c, self.flow_index(c.flow)?)));
        let update = if out.update_ready { i.update.and_then(|u| Some((u, self.flow_index(u.flow)?))) } else { None };
        let notify = i.notify.and_then(|n| Some((self.flow_index(n.flow)?, n.bytes)));
        let sleep = if out.sleep_ready { i.sleep.and_then(|s| Some((s, self.flow_index(s.flow)?))) } else { None };

        // P: a ctrl op, else a sleep / wake, else a ring pop: not while a create or remove is
        // in S0..S3, nor when the bursts already queued and in flight could overflow the burst
        // FIFO.
        let ctrl_in_flight =
            self.stages[..4].iter().flatten().any(|op| matches!(op.kind, Kind::Create | Kind::Remove));
        let pop = i.ctrl.is_none()
            && !(out.sleep_ready && i.sleep.is_some())
            && !self.ring.is_empty()
            && self.bursts.len() <= BURST_FIFO_POP_LIMIT
            && !ctrl_in_flight;
        let blank = |kind, flow| Op {
            kind,
            flow,
            window: 0,
            rate: 0,
            acked: 0,
            sent: 0,
            now: 0,
            pkt_shift: 0,
            max_burst: 0,
            create_shift: 0,
        };
        let entering = match (ctrl, sleep, pop) {
            (Some((c, f)), _, _) => Some(Op {
                create_shift: c.pkt_shift & 0xf,
                ..blank(if c.create { Kind::Create } else { Kind::Remove }, f)
            }),
            (None, Some((s, f)), _) => Some(blank(if s.wake { Kind::Wake } else { Kind::Idle }, f)),
            (None, None, true) => Some(blank(Kind::Visit, self.ring.pop_front().unwrap())),
            _ => None,
        };

        // Samples taken on the way: config and acked bytes at S0, the clock at S1, the
        // configuration inputs at S2.
        if let Some(op) = &mut self.stages[0] {
            (op.window, op.rate) = self.cfg[op.flow];
            op.acked = self.acked[op.flow];
        }
        if let Some(op) = &mut self.stages[1] {
            op.now = self.now;
        }
        if let Some(op) = &mut self.stages[2] {
            let p = self.pace[op.flow];
            op.pkt_shift = if p.shift != 0 { p.shift } else { i.pkt_shift };
            op.max_burst = i.max_burst;
            op.sent = p.sent;
        }

        // S4 decides, from the flow's state as it is now.
        let mut ring_push = None;
        let mut burst_push = None;
        if let Some(op) = self.stages[4] {
            let p = self.pace[op.flow];
            let new = match op.kind {
                Kind::Visit if p.active && !p.asleep => {
                    let (n, credit, inflight) = grant(p, &op);
                    let sent = p.sent.wrapping_add(n << op.pkt_shift);
                    ring_push = Some(op.flow);
                    if n > 0 {
                        burst_push = Some((op.flow, n));
                        self.grants.push(Grant {
                            cycle: self.cycle,
                            flow: op.flow,
                            pkts: n,
                            inflight: inflight + (n << op.pkt_shift),
                            window: op.window,
                            pkt_shift: op.pkt_shift & 0xF,
                        });
                    }
                    Pace { credit, t_last: op.now, sent, active: true, in_ring: true, asleep: false, shift: p.shift }
                }
                Kind::Visit => Pace { in_ring: false, ..p },
                Kind::Create => {
                    if !p.in_ring {
                        ring_push = Some(op.flow);
                    }
                    Pace {
                        credit: 0,
                        t_last: op.now,
                        sent: op.acked,
                        active: true,
                        in_ring: true,
                        asleep: false,
                        shift: op.create_shift,
                    }
                }
                Kind::Remove => Pace { active: false, ..p },
                Kind::Idle => {
                    let pkt = 1u32 << (op.pkt_shift & 0xF);
                    let ret = inflight(op.sent, op.acked).min(pkt);
                    Pace { sent: p.sent.wrapping_sub(ret), asleep: true, ..p }
                }
                Kind::Wake => {
                    let back = p.active && !p.in_ring;
                    if back {
                        ring_push = Some(op.flow);
                    }
                    Pace { asleep: false, in_ring: p.in_ring || back, ..p }
                }
            };
            self.pace[op.flow] = new;
        }

        // Clock edge: the rest of the writes.
        self.expand(i.pktsend_ready);
        if let Some(b) = burst_push {
            self.bursts.push_back(b);
        }
        if let Some(f) = ring_push {
            self.ring.push_back(f);
        }
        match (ctrl, update) {
            (Some((c, f)), _) if c.create => self.cfg[f] = (c.window, c.rate),
            (None, Some((u, f))) => self.cfg[f] = (u.window, u.rate),
            _ => {}
        }
        if let Some((f, bytes)) = self.notify_pending.take() {
            self.acked[f] = self.acked[f].wrapping_add(bytes);
        }
        self.notify_pending = notify;
        self.stages.rotate_right(1);
        self.stages[0] = entering;
        self.now = self.now.wrapping_add(1);
        out
    }

    /// The burst expander: one PktSend per cycle from the head burst.
    fn expand(&mut self, ready: bool) {
        let fire = self.cur_left != 0 && ready;
        let load = !self.bursts.is_empty() && (self.cur_left == 0 || (self.cur_left == 1 && fire));
        if load {
            (self.cur_flow, self.cur_left) = self.bursts.pop_front().unwrap();
        } else if fire {
            self.cur_left -= 1;
        }
    }
}

/// Unacknowledged bytes; more acked than sent counts as none.
fn inflight(sent: u32, acked: u32) -> u32 {
    let d = sent.wrapping_sub(acked);
    if d & 0x8000_0000 != 0 {
        0
    } else {
        d
    }
}

/// Packets granted on a visit, the credit left and the unacknowledged bytes before the grant
/// (sampled at S2; more acked than sent counts as none): the visit arithmetic of docs/modules/flow_sched.md.
fn grant(p: Pace, op: &Op) -> (u32, u64, u32) {
    let shift = (op.pkt_shift & 0xF) as u32;
    let elapsed = op.now.wrapping_sub(p.t_last).min(0xFFFF);
    let earned = op.rate as u64 * elapsed as u64;
    let cap = ((op.max_burst & 0xFFF) as u64) << (16 + shift);
    let credit = (p.credit + earned).min(cap);
    let n_credit = (credit >> (16 + shift)) as u32;
    let inflight = inflight(op.sent, op.acked);
    // Rounded up: sending is allowed while in flight < window (the last packet may end past it).
    let room = op.window.saturating_sub(inflight) as u64;
    let n_window = ((room + (1 << shift) - 1) >> shift).min(MAX_PKTS as u64) as u32;
    let n = n_credit.min(n_window);
    (n, credit - ((n as u64) << (16 + shift)), inflight)
}
