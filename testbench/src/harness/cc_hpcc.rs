//! cc_hpcc against the fixed-point HPCC++ model (`sim::cc_hpcc`), event by event: every
//! accepted event's result is compared with the model's state after the same event.

use super::{Outcome, Scenario};
use crate::verilated::models::CcHpcc;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::hpcc::HpccParams;
use sim::cc_hpcc::{self as xh, FxHop, HpccConfig, HpccState};
use sim::packet::{IntHop, LineRate};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Flows of the Verilated configuration (`rtl-out/cc_hpcc.v`, F = 10).
pub const FLOWS: usize = 1024;

/// One event as the module takes it.
#[derive(Clone, Debug)]
pub struct Event {
    pub flow: u16,
    /// true: Rx-HPCC (a data packet's telemetry at the receiver).
    pub rx: bool,
    /// true: (re)initialize the flow instead.
    pub init: bool,
    pub seq: u32,
    pub snd_nxt: u32,
    pub now: u64,
    /// Hop count field (0..=7) and the five slots.
    pub count: u8,
    pub hops: [u64; 5],
}

impl Event {
    /// The 480-bit `s_axis_event_tdata` as 15 little-endian words.
    pub fn words(&self) -> [u32; 15] {
        let mut w = [0u32; 15];
        w[0] = self.flow as u32
            | (self.rx as u32) << 16
            | (self.init as u32) << 17
            | (self.count as u32) << 24;
        w[1] = self.seq;
        w[2] = self.snd_nxt;
        w[3] = self.now as u32;
        w[4] = (self.now >> 32) as u32;
        for (i, h) in self.hops.iter().enumerate() {
            w[5 + 2 * i] = *h as u32;
            w[6 + 2 * i] = (h >> 32) as u32;
        }
        w
    }
}

/// What the module reports for one event (`m_axis_result_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub flow: u16,
    pub action: u8,
    pub feedback: bool,
    pub rx: bool,
    pub w: u32,
    pub wc: u32,
    pub u: u32,
    pub inc_stage: u8,
    pub rate: u32,
}

impl Result {
    pub fn from_words(d: &[u32]) -> Result {
        Result {
            flow: d[0] as u16,
            action: (d[0] >> 16 & 3) as u8,
            feedback: d[0] >> 18 & 1 == 1,
            rx: d[0] >> 19 & 1 == 1,
            w: d[0] >> 24 | d[1] << 8,
            wc: d[1] >> 24 | d[2] << 8,
            u: d[2] >> 24 | (d[3] & 0xFFFF) << 8,
            inc_stage: (d[3] >> 16) as u8,
            rate: d[3] >> 24 | d[4] << 8,
        }
    }

    /// The model's answer: apply `e` to `s`.
    pub fn model(c: &HpccConfig, s: &mut HpccState, e: &Event) -> Result {
        if e.init {
            *s = HpccState::new(c);
            return Result::of_state(e, 0, false, s);
        }
        let hops: Vec<FxHop> = if e.count == 0 || e.count > 5 {
            // Out of range: the model sees a count it ignores (0 or 6..7 hops).
            vec![FxHop::default(); e.count as usize]
        } else {
            e.hops[..e.count as usize]
                .iter()
                .map(|&w| FxHop::from_word(w))
                .collect()
        };
        let before = s.hops as usize;
        let (action, feedback) = if e.rx {
            // on_int tells only whether W was sent; the rest follows the admission rule.
            let fb = xh::on_int(c, s, e.now, &hops);
            let a = match hops.len() {
                0 | 6.. => 0,
                n if n != before => 1,
                _ => 2 + fb as u8,
            };
            (a, fb)
        } else {
            (
                xh::on_ack(c, s, e.seq, e.snd_nxt, &hops) as u8,
                false,
            )
        };
        Result::of_state(e, action, feedback, s)
    }

    /// The result of event `e` that leaves the flow in state `s`.
    pub fn of_state(e: &Event, action: u8, feedback: bool, s: &HpccState) -> Result {
        Result {
            flow: e.flow,
            action,
            feedback,
            rx: e.rx,
            w: s.w_q8,
            wc: s.wc_q8,
            u: s.u_q16,
            inc_stage: s.inc_stage,
            rate: s.rate_q16,
        }
    }
}

/// Per-flow telemetry source: a path of 1-5 hops with load phases.
pub struct Path5 {
    rates: Vec<LineRate>,
    tx: Vec<u64>,
    q: Vec<f64>,
    now: u64,
    seq: u32,
    load: f64,
}

impl Path5 {
    pub fn new(rng: &mut ChaCha8Rng) -> Path5 {
        let n = rng.gen_range(1..=5);
        let rates = [LineRate::G25, LineRate::G100, LineRate::G400];
        Path5 {
            rates: (0..n).map(|_| rates[rng.gen_range(0..3)]).collect(),
            tx: (0..n).map(|_| rng.gen::<u32>() as u64).collect(),
            q: vec![0.0; n],
            now: rng.gen::<u32>() as u64,
            seq: rng.gen(),
            load: 1.0,
        }
    }

    pub fn event(&mut self, rng: &mut ChaCha8Rng, flow: u16) -> Event {
        if rng.gen_bool(0.01) {
            self.load = [0.3, 0.9, 1.0, 1.5, 3.0][rng.gen_range(0..5)];
        }
        let dt = rng.gen_range(50..3000u64);
        self.now += dt;
        self.seq = self.seq.wrapping_add(rng.gen_range(0..6000));
        let mut hops = [0u64; 5];
        for k in 0..self.rates.len() {
            let b = self.rates[k].bytes_per_ns();
            let offered = b * dt as f64 * self.load * rng.gen_range(0.8..1.2);
            let sent = offered.min(b * dt as f64 + self.q[k]);
            self.q[k] = (self.q[k] + offered - sent).clamp(0.0, 1e7);
            self.tx[k] += sent as u64;
            hops[k] = IntHop::from_counters(
                self.now + k as u64,
                self.tx[k],
                self.q[k] as u64,
                self.rates[k],
            )
            .word();
        }
        let mut e = Event {
            flow,
            rx: false,
            init: false,
            seq: self.seq,
            snd_nxt: self.seq.wrapping_add(rng.gen_range(0..200_000)),
            now: self.now,
            count: self.rates.len() as u8,
            hops,
        };
        // Hostile variants: bad counts, junk records, time and seq jumps, a path change.
        match rng.gen_range(0..100) {
            0 => e.count = [0, 6, 7][rng.gen_range(0..3)],
            1 => e.hops = [rng.gen(), rng.gen(), rng.gen(), rng.gen(), rng.gen()],
            2 => e.now = rng.gen(),
            3 => e.seq = rng.gen(),
            5 => e.init = true,
            4 => {
                *self = Path5 {
                    now: self.now,
                    ..Path5::new(rng)
                }
            }
            _ => {}
        }
        e
    }
}

/// `n` events over all flows in turn (never a hazard), each flow with its own path: the
/// benchmark's stimulus.
pub fn round_robin_events(seed: u64, n: usize) -> Vec<Event> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut paths: Vec<Path5> = (0..FLOWS).map(|_| Path5::new(&mut rng)).collect();
    (0..n)
        .map(|k| paths[k % FLOWS].event(&mut rng, (k % FLOWS) as u16))
        .collect()
}

/// HPCC++ configuration used by the regressions: the drafts' defaults at 100G, T = 5 us.
pub fn config() -> HpccConfig {
    HpccConfig::new(&HpccParams::new(12.5, 5000.0), Default::default())
        .expect("the drafts' defaults fit the fixed point")
}

/// A Verilated cc_hpcc configured with `c`, result `tready` high, reset for one cycle (the
/// 1024-cycle initialization follows; `s_axis_event_tready` shows when it is done).
pub fn open(c: &HpccConfig, vcd: Option<&Path>) -> CcHpcc {
    let mut dut = vcd.map_or_else(CcHpcc::new, CcHpcc::with_vcd);
    set_config(&mut dut, c);
    dut.set_m_axis_result_tready(1);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    dut
}

/// Drives the `cfg_*` ports from the model's registers.
pub fn set_config(dut: &mut CcHpcc, c: &HpccConfig) {
    dut.set_cfg_t_ns(c.t_ns);
    dut.set_cfg_eta_q16(c.eta_q16);
    dut.set_cfg_max_stage(c.max_stage);
    dut.set_cfg_w_ai_q8(c.w_ai_q8);
    dut.set_cfg_w_min_q8(c.w_min_q8);
    dut.set_cfg_w_max_q8(c.w_max_q8);
    dut.set_cfg_u_init_q16(c.u_init_q16);
    dut.cfg_inv_bt_mut().copy_from_slice(&c.inv_bt);
    dut.cfg_inv_b_mut().copy_from_slice(&c.inv_b);
    dut.set_cfg_inv_t(c.inv_t);
    dut.set_cfg_rate_mul(c.rate_mul);
    dut.set_cfg_line_q16(c.line_q16);
}

/// Traffic shape of one run.
pub struct Shape {
    /// Flows that carry events (of the 1024).
    pub active: usize,
    /// Chance of an event on a cycle.
    pub load: f64,
    /// Chance that the next event repeats the previous flow (same-flow bursts).
    pub burst: f64,
    /// Chance that an event is Rx-HPCC.
    pub rx: f64,
    /// Chance of a flow id >= 1024.
    pub bad_flow: f64,
    /// Chance that `m_axis_result_tready` is low on a cycle.
    pub stall: f64,
}

impl Shape {
    /// Many flows, 90% load, a few same-flow repeats, half Rx-HPCC, rare bad flow ids.
    pub const RANDOM: Shape = Shape {
        active: 600,
        load: 0.9,
        burst: 0.05,
        rx: 0.5,
        bad_flow: 0.002,
        stall: 0.2,
    };
    /// Four flows, an event offered every cycle, mostly the same flow again.
    pub const BURSTS: Shape = Shape {
        active: 4,
        load: 1.0,
        burst: 0.7,
        rx: 0.3,
        bad_flow: 0.0,
        stall: 0.0,
    };
    /// Every flow, an event offered every cycle, flows drawn at random: the throughput case.
    pub const SATURATED: Shape = Shape {
        active: FLOWS,
        load: 1.0,
        burst: 0.0,
        rx: 0.3,
        bad_flow: 0.0,
        stall: 0.0,
    };
}

/// Runs `cycles` cycles of random events; compares every result.
pub fn run(
    scenario: Scenario,
    seed: u64,
    cycles: u64,
    shape: &Shape,
    vcd: Option<&Path>,
) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let c = config();
    let mut dut = open(&c, vcd);
    let mut flows: Vec<(Path5, HpccState)> = (0..shape.active)
        .map(|_| (Path5::new(&mut rng), HpccState::new(&c)))
        .collect();
    // Distinct flow ids: each slot has its own model state.
    let mut ids: Vec<u16> = (0..FLOWS as u16).collect();
    ids.shuffle(&mut rng);
    ids.truncate(shape.active);
    let mut expected: VecDeque<Result> = VecDeque::new();
    let mut pending: Option<(usize, Event)> = None;
    let (mut accepted, mut bad, mut same_flow, mut last_slot) = (0u64, 0u64, 0u64, usize::MAX);
    let mut cycle = 0u64;
    let (mut actions, mut additive, mut below_half, mut inits) = ([0u64; 4], 0u64, 0u64, 0u64);
    let mut rx_events = 0u64;
    while cycle < cycles || !expected.is_empty() {
        if cycle > cycles + 10_000 {
            o.fail(format!("{} results never came out", expected.len()));
            break;
        }
        if pending.is_none() && cycle < cycles && rng.gen_bool(shape.load) {
            let slot = if last_slot < shape.active && rng.gen_bool(shape.burst) {
                last_slot
            } else {
                rng.gen_range(0..shape.active)
            };
            let mut e = flows[slot].0.event(&mut rng, ids[slot]);
            e.rx = rng.gen_bool(shape.rx);
            if rng.gen_bool(shape.bad_flow) {
                e.flow = rng.gen_range(FLOWS as u16..=u16::MAX);
            }
            pending = Some((slot, e));
        }
        dut.set_m_axis_result_tready(!rng.gen_bool(shape.stall) as u8);
        match &pending {
            Some((_, e)) => {
                dut.s_axis_event_tdata_mut().copy_from_slice(&e.words());
                dut.set_s_axis_event_tvalid(1);
            }
            None => dut.set_s_axis_event_tvalid(0),
        }
        dut.eval();
        if dut.s_axis_event_tvalid() == 1 && dut.s_axis_event_tready() == 1 {
            let (slot, e) = pending.take().unwrap();
            if e.flow as usize >= FLOWS {
                bad += 1;
            } else {
                inits += e.init as u64;
                rx_events += e.rx as u64;
                let r = Result::model(&c, &mut flows[slot].1, &e);
                actions[r.action as usize] += 1;
                additive += (r.inc_stage > 0) as u64;
                below_half += (r.w < c.w_max_q8 / 2) as u64;
                expected.push_back(r);
                same_flow += (slot == last_slot) as u64;
                last_slot = slot;
                accepted += 1;
            }
        }
        if dut.m_axis_result_tvalid() == 1 && dut.m_axis_result_tready() == 1 {
            let got = Result::from_words(dut.m_axis_result_tdata());
            o.check(cycle, Some(got), expected.pop_front());
        }
        dut.tick();
        cycle += 1;
    }
    if dut.stat_bad_flow() as u64 != bad {
        o.fail(format!(
            "stat_bad_flow {} != {bad} dropped",
            dut.stat_bad_flow()
        ));
    }
    o.transactions = accepted;
    o.cycles = cycle;
    o.metric("events_per_cycle", accepted as f64 / cycles.max(1) as f64);
    o.metric("same_flow_events", same_flow as f64);
    o.metric("rx_hpcc_events", rx_events as f64);
    for (name, n) in ["ignored", "recorded", "updated_w", "updated_wc"]
        .iter()
        .zip(actions)
    {
        o.metric(name, n as f64);
    }
    o.metric("inc_stage_gt0", additive as f64);
    o.metric("flow_inits", inits as f64);
    o.metric("w_below_half_bdp", below_half as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
