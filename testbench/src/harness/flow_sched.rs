//! Regression of `flow_sched`: the Verilated RTL and the golden model run in lockstep on the same
//! randomized traffic; every output (the three treadys, PktSend valid and flow) is compared on
//! every cycle. The same traffic can drive the model alone (pacing studies, benchmarks).

use super::stream::{peek, put};
use super::{Outcome, Scenario};
use crate::verilated::models::FlowSched as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::flow_sched::{self as model, Ctrl, Inputs, Notify, Outputs, Sleep, Update};
use std::path::Path;

/// Flow-id bits of the exported `flow_sched` (rtl-out/flow_sched.v).
pub const FLOW_BITS: u32 = 10;
/// 250 MHz, the clock the NIC targets.
pub const CLOCK_HZ: f64 = 250e6;

/// Anything that behaves like the scheduler for one clock cycle.
pub trait Sched {
    /// Drives `i` for one cycle and returns what the scheduler showed during it.
    fn cycle(&mut self, i: &Inputs) -> Outputs;
}

impl Sched for model::FlowSched {
    fn cycle(&mut self, i: &Inputs) -> Outputs {
        self.step(i)
    }
}

impl Sched for Rtl {
    fn cycle(&mut self, i: &Inputs) -> Outputs {
        self.set_reset(i.reset as u8);
        self.set_cfg_pkt_shift(i.pkt_shift);
        self.set_cfg_max_burst(i.max_burst);
        put(&Rtl::S_AXIS_CTRL, self, i.ctrl.map(|c| c.tdata()).as_ref());
        put(&Rtl::S_AXIS_UPDATE, self, i.update.map(|u| u.tdata()).as_ref());
        put(&Rtl::S_AXIS_NOTIFY, self, i.notify.map(|n| n.tdata()).as_ref());
        put(&Rtl::S_AXIS_SLEEP, self, i.sleep.map(|s| s.tdata()).as_ref());
        (Rtl::M_AXIS_PKTSEND.set_tready)(self, i.pktsend_ready);
        self.eval();
        let pktsend = peek(&Rtl::M_AXIS_PKTSEND, self);
        let o = Outputs {
            ctrl_ready: (Rtl::S_AXIS_CTRL.tready)(self),
            update_ready: (Rtl::S_AXIS_UPDATE.tready)(self),
            notify_ready: (Rtl::S_AXIS_NOTIFY.tready)(self),
            sleep_ready: (Rtl::S_AXIS_SLEEP.tready)(self),
            pktsend_valid: pktsend.0,
            pktsend_flow: pktsend.1 as u16,
        };
        self.tick();
        o
    }
}

/// The RTL's outputs equal the model's: every ready, PktSend valid, and its flow when valid.
pub fn outputs_agree(got: &Outputs, want: &Outputs) -> bool {
    got.ctrl_ready == want.ctrl_ready
        && got.update_ready == want.update_ready
        && got.notify_ready == want.notify_ready
        && got.sleep_ready == want.sleep_ready
        && got.pktsend_valid == want.pktsend_valid
        && (!want.pktsend_valid || got.pktsend_flow == want.pktsend_flow)
}

/// RTL and model side by side; returns the model's outputs and records every difference.
pub struct Lockstep {
    /// The Verilated RTL.
    pub rtl: Rtl,
    /// The golden model.
    pub model: model::FlowSched,
    /// Cycles on which any output differed.
    pub mismatches: u64,
    /// The first difference, described.
    pub first: Option<String>,
    cycle: u64,
}

impl Lockstep {
    /// A fresh pair; `vcd` traces the RTL.
    pub fn new(vcd: Option<&Path>) -> Self {
        let rtl = match vcd {
            Some(p) => Rtl::with_vcd(p),
            None => Rtl::new(),
        };
        Lockstep { rtl, model: model::FlowSched::new(FLOW_BITS), mismatches: 0, first: None, cycle: 0 }
    }
}

impl Sched for Lockstep {
    fn cycle(&mut self, i: &Inputs) -> Outputs {
        let want = self.model.step(i);
        let got = self.rtl.cycle(i);
        if !outputs_agree(&got, &want) {
            self.mismatches += 1;
            if self.first.is_none() {
                self.first = Some(format!("cycle {}: rtl {got:?} model {want:?} inputs {i:?}", self.cycle));
            }
        }
        self.cycle += 1;
        want
    }
}

/// Shape of the traffic.
#[derive(Clone, Debug)]
pub struct Profile {
    /// Flow ids drawn from `0..flow_ids` (ids >= 1024 are out of range: bad input).
    pub flow_ids: u16,
    /// Flows created at the start, ids 0.., before random traffic.
    pub initial_flows: u16,
    /// Per-cycle probabilities of offering each input.
    pub p_create: f64,
    /// Probability of offering a remove.
    pub p_remove: f64,
    /// Probability of offering an update.
    pub p_update: f64,
    /// Probability of offering a notify when something is outstanding.
    pub p_notify: f64,
    /// Probability of offering a sleep / wake: an idle for a flow with packets out (what
    /// tx_ctx reports for a PktSend with nothing to send), or a wake for any flow id.
    pub p_sleep: f64,
    /// Probability that PktSend tready is high.
    pub p_ready: f64,
    /// Rates (UQ16.16 bytes/cycle) drawn from this range.
    pub rate: (u32, u32),
    /// Windows (bytes) drawn from this range.
    pub window: (u32, u32),
    /// Updates never lower a window (the strict window checker needs this).
    pub windows_only_grow: bool,
    /// log2 packet bytes.
    pub pkt_shift: u8,
    /// Packets per visit.
    pub max_burst: u16,
    /// Notifies carry random byte counts, acknowledging more than was ever sent.
    pub over_ack: bool,
    /// Creates give half the flows their own packet size.
    pub per_flow_shift: bool,
}

impl Profile {
    /// Everything random: creates, removes, updates, acks, backpressure, bad ids.
    pub fn random() -> Self {
        Profile {
            flow_ids: 1100,
            initial_flows: 0,
            p_create: 0.02,
            p_remove: 0.005,
            p_update: 0.05,
            p_notify: 0.3,
            p_sleep: 0.05,
            p_ready: 0.8,
            rate: (1, 48 << 16),
            window: (0, 256 << 10),
            windows_only_grow: false,
            pkt_shift: 10,
            max_burst: 64,
            over_ack: false,
            per_flow_shift: true,
        }
    }

    /// Inputs no sane driver sends: bogus acks, zero and huge rates and windows, the largest
    /// packet shift and burst. The scheduler must still match the model cycle for cycle.
    pub fn bad_input() -> Self {
        Profile {
            p_notify: 0.2,
            rate: (0, u32::MAX),
            window: (0, u32::MAX),
            pkt_shift: 15,
            max_burst: 4095,
            over_ack: true,
            ..Profile::random()
        }
    }
}

/// Per-flow bookkeeping of what the harness has seen.
#[derive(Clone, Default)]
struct Flow {
    active: bool,
    /// log2 packet bytes: the create's, else the profile's.
    shift: u8,
    window: u32,
    outstanding: u64, // packets sent and not yet acked by the harness
    acked_bytes: u64,
    emitted_bytes: u64,
}

/// Drives a `Sched` with seeded random traffic and checks what it can on the way.
pub struct Traffic {
    rng: ChaCha8Rng,
    /// Shape of the traffic.
    pub profile: Profile,
    flows: Vec<Flow>,
    ctrl: Option<Ctrl>,
    update: Option<Update>,
    notify: Option<Notify>,
    sleep: Option<Sleep>,
    /// Cycles driven.
    pub cycles: u64,
    /// PktSends seen, per flow.
    pub sends: Vec<u64>,
    /// Accepted ctrl, update and notify transactions plus PktSends.
    pub transactions: u64,
    /// Strict window violations (only checked when windows only grow).
    pub window_violations: u64,
    setup: Vec<Ctrl>,
}

impl Traffic {
    /// Traffic for `seed`; call `reset` first.
    pub fn new(seed: u64, profile: Profile) -> Self {
        let setup = (0..profile.initial_flows).rev().map(|f| Ctrl { create: true, flow: f, window: 0, rate: 0, pkt_shift: 0, reserved: 0 }).collect();
        Traffic {
            rng: ChaCha8Rng::seed_from_u64(seed),
            flows: vec![Flow::default(); 1 << FLOW_BITS],
            sends: vec![0; 1 << FLOW_BITS],
            profile,
            ctrl: None,
            update: None,
            notify: None,
            sleep: None,
            cycles: 0,
            transactions: 0,
            window_violations: 0,
            setup,
        }
    }

    /// The rate and window of an initially created flow; override for directed scenarios.
    pub fn set_initial(&mut self, f: impl Fn(u16) -> (u32, u32)) {
        for c in &mut self.setup {
            (c.rate, c.window) = f(c.flow);
        }
    }

    fn base(&self) -> Inputs {
        Inputs { pkt_shift: self.profile.pkt_shift, max_burst: self.profile.max_burst, ..Default::default() }
    }

    /// Reset pulse and the RAM clearing that follows it.
    pub fn reset(&mut self, s: &mut impl Sched) {
        s.cycle(&Inputs { reset: true, ..self.base() });
        for _ in 0..(1u64 << FLOW_BITS) + 2 {
            s.cycle(&self.base());
        }
    }

    fn draw(&mut self, range: (u32, u32)) -> u32 {
        self.rng.gen_range(range.0..=range.1)
    }

    fn next_inputs(&mut self) -> Inputs {
        let p = self.profile.clone();
        if self.ctrl.is_none() {
            if let Some(c) = self.setup.pop() {
                self.ctrl = Some(c);
            } else if self.rng.gen_bool(p.p_create) {
                let flow = self.rng.gen_range(0..p.flow_ids);
                let reserved = if self.rng.gen_bool(0.01) { 1 } else { 0 };
                // Half the flows with their own packet size (64 B .. 8 KB), half on the input's.
                let pkt_shift = if p.per_flow_shift && self.rng.gen_bool(0.5) { self.rng.gen_range(6..=13) } else { 0 };
                let (window, rate) = (self.draw(p.window), self.draw(p.rate));
                self.ctrl = Some(Ctrl { create: true, flow, window, rate, pkt_shift, reserved });
            } else if self.rng.gen_bool(p.p_remove) {
                let flow = self.rng.gen_range(0..p.flow_ids);
                self.ctrl = Some(Ctrl { create: false, flow, window: 0, rate: 0, pkt_shift: 0, reserved: 0 });
            }
        }
        if self.update.is_none() && self.rng.gen_bool(p.p_update) {
            let flow = self.rng.gen_range(0..p.flow_ids);
            let mut window = self.draw(p.window);
            if p.windows_only_grow {
                window = window.max(self.flows.get(flow as usize).map_or(0, |f| f.window));
            }
            self.update = Some(Update { flow, window, rate: self.draw(p.rate) });
        }
        if self.notify.is_none() && p.over_ack && self.rng.gen_bool(p.p_notify) {
            let flow = self.rng.gen_range(0..p.flow_ids);
            self.notify = Some(Notify { flow, bytes: self.rng.gen() });
        }
        if self.notify.is_none() && self.rng.gen_bool(p.p_notify) {
            let flow = self.rng.gen_range(0..1u16 << FLOW_BITS);
            let out = self.flows[flow as usize].outstanding;
            if out > 0 {
                let pkts = self.rng.gen_range(1..=out);
                self.flows[flow as usize].outstanding -= pkts;
                let shift = self.flows[flow as usize].shift;
                self.notify = Some(Notify { flow, bytes: (pkts << shift) as u32 });
            }
        }
        if self.sleep.is_none() && self.rng.gen_bool(p.p_sleep) {
            let flow = self.rng.gen_range(0..p.flow_ids);
            if self.rng.gen_bool(0.5) {
                self.sleep = Some(Sleep { flow, wake: true });
            } else if let Some(f) = self.flows.get_mut(flow as usize).filter(|f| f.outstanding > 0 || p.over_ack) {
                // The idle returns one packet: the harness counts it acknowledged, as the
                // scheduler does.
                if f.outstanding > 0 {
                    f.outstanding -= 1;
                    f.acked_bytes += 1 << f.shift;
                }
                self.sleep = Some(Sleep { flow, wake: false });
            }
        }
        Inputs {
            ctrl: self.ctrl,
            update: self.update,
            notify: self.notify,
            sleep: self.sleep,
            pktsend_ready: self.rng.gen_bool(p.p_ready),
            ..self.base()
        }
    }

    /// One cycle of traffic into `s`; AXI-Stream rules: an offer stays until it is taken.
    pub fn step(&mut self, s: &mut impl Sched) {
        let i = self.next_inputs();
        let o = s.cycle(&i);
        self.cycles += 1;
        if let Some(c) = i.ctrl.filter(|_| o.ctrl_ready) {
            self.ctrl = None;
            self.transactions += 1;
            if let Some(f) = self.flows.get_mut(c.flow as usize).filter(|_| c.reserved == 0) {
                if c.create {
                    let shift = if c.pkt_shift != 0 { c.pkt_shift } else { self.profile.pkt_shift };
                    *f = Flow { active: true, window: c.window, shift, ..Flow::default() };
                } else {
                    *f = Flow::default();
                }
            }
        }
        if let Some(u) = i.update.filter(|_| o.update_ready) {
            self.update = None;
            self.transactions += 1;
            if let Some(f) = self.flows.get_mut(u.flow as usize) {
                f.window = u.window;
            }
        }
        if let Some(n) = i.notify.filter(|_| o.notify_ready) {
            self.notify = None;
            self.transactions += 1;
            if let Some(f) = self.flows.get_mut(n.flow as usize) {
                f.acked_bytes += n.bytes as u64;
            }
        }
        if i.sleep.is_some() && o.sleep_ready {
            self.sleep = None;
            self.transactions += 1;
        }
        if o.pktsend_valid && i.pktsend_ready {
            self.transactions += 1;
            let flow = o.pktsend_flow as usize;
            self.sends[flow] += 1;
            let f = &mut self.flows[flow];
            f.outstanding += 1;
            f.emitted_bytes += 1 << f.shift;
            // Holds when windows never shrink: a grant checked inflight against a window no
            // larger than today's, and acks only lower inflight (docs/modules/flow_sched.md).
            if self.profile.windows_only_grow
                && f.active
                && f.emitted_bytes.saturating_sub(f.acked_bytes) >= f.window as u64 + (1 << f.shift)
            {
                self.window_violations += 1;
            }
        }
    }
}

/// Offers removes for every flow and runs with tready high until the scheduler is empty.
pub fn drain(t: &mut Traffic, s: &mut impl Sched) {
    t.profile = Profile { p_create: 0.0, p_remove: 0.0, p_update: 0.0, p_ready: 1.0, ..t.profile.clone() };
    t.setup = (0..1u16 << FLOW_BITS).rev().map(|f| Ctrl { create: false, flow: f, window: 0, rate: 0, pkt_shift: 0, reserved: 0 }).collect();
    for _ in 0..(3u64 << FLOW_BITS) + 70_000 {
        t.step(s);
    }
}

/// The random lockstep regression for one seed: compare every cycle, then drain and check that
/// every granted packet left exactly once.
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    lockstep(Scenario::FlowSchedRandom, Profile::random(), seed, cycles, vcd)
}

/// Like `random`, with `Profile::bad_input`.
pub fn bad_input(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    lockstep(Scenario::FlowSchedBadInput, Profile::bad_input(), seed, cycles, vcd)
}

fn lockstep(scenario: Scenario, profile: Profile, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = std::time::Instant::now();
    let mut ls = Lockstep::new(vcd);
    let mut t = Traffic::new(seed, profile);
    t.reset(&mut ls);
    for _ in 0..cycles {
        t.step(&mut ls);
        if ls.mismatches > 0 {
            break;
        }
    }
    let mut out = Outcome::new(scenario, seed);
    if ls.mismatches == 0 {
        drain(&mut t, &mut ls);
        let granted: u64 = ls.model.grants.iter().map(|g| g.pkts as u64).sum();
        let sent: u64 = t.sends.iter().sum();
        out.metric("pktsends", sent as f64);
        if granted != sent {
            out.fail(format!("{granted} packets granted but {sent} PktSends left after draining"));
        }
        // A packet may start while in flight < window, so none may start at or past it.
        let beyond =
            ls.model.grants.iter().filter(|g| g.inflight as u64 >= g.window as u64 + (1 << g.pkt_shift)).count();
        if beyond > 0 {
            out.fail(format!("{beyond} grants took a flow beyond its window"));
        }
    }
    out.finish(&t, &ls, start)
}
