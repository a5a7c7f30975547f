//! cc_ldcp against the fixed-point LDCP model (`sim::cc_ldcp`), event by event: every
//! accepted event's result is compared with the model's state after the same event. Results
//! of different flows may pass each other (flow_park), so they are matched per flow, in order.

use super::{Outcome, Scenario};
use crate::verilated::models::CcLdcp;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::ldcp::LdcpParams;
use sim::cc_ldcp::{self as xl, LdcpConfig, LdcpState};
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::Instant;

/// Flows of the Verilated configuration (`rtl-out/cc_ldcp.v`, F = 10).
pub const FLOWS: usize = 1024;

/// What an event asks for (`[17:16]` of the event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ack = 0,
    Loss = 1,
    Timer = 2,
    Init = 3,
}

/// One event as the module takes it.
#[derive(Clone, Debug)]
pub struct Event {
    pub flow: u16,
    pub kind: Kind,
    pub ece: bool,
    /// Packets acknowledged (the module saturates it to 65535, as the model does).
    pub acked: u32,
    pub now: u64,
}

impl Event {
    /// The 128-bit `s_axis_event_tdata` as 4 little-endian words.
    pub fn words(&self) -> [u32; 4] {
        [
            self.flow as u32 | (self.kind as u32) << 16 | (self.ece as u32) << 18,
            self.acked,
            self.now as u32,
            (self.now >> 32) as u32,
        ]
    }
}

/// What the module reports for one event (`m_axis_result_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub flow: u16,
    pub kind: u8,
    pub grant: bool,
    pub fast_start: bool,
    pub armed: bool,
    pub fs_acked: u16,
    pub cw: u32,
    pub window: u32,
    pub rate: u32,
    /// Next timer expiry, 0 when not armed.
    pub tick: u64,
}

impl Result {
    pub fn from_words(d: &[u32]) -> Result {
        Result {
            flow: d[0] as u16,
            kind: (d[0] >> 16 & 3) as u8,
            grant: d[0] >> 18 & 1 == 1,
            fast_start: d[0] >> 19 & 1 == 1,
            armed: d[0] >> 20 & 1 == 1,
            fs_acked: d[1] as u16,
            cw: d[2],
            window: d[3],
            rate: d[4],
            tick: d[5] as u64 | (d[6] as u64) << 32,
        }
    }

    /// The model's answer: apply `e` to `s`.
    pub fn model(c: &LdcpConfig, s: &mut LdcpState, e: &Event) -> Result {
        let mut grant = false;
        match e.kind {
            Kind::Ack => xl::on_ack(c, s, e.now, e.ece, e.acked),
            Kind::Loss => xl::on_loss(c, s, e.now),
            Kind::Timer => grant = xl::on_timer(c, s, e.now) == 1,
            Kind::Init => *s = LdcpState::new(c),
        }
        Result {
            flow: e.flow,
            kind: e.kind as u8,
            grant,
            fast_start: s.fast_start,
            armed: s.next_tick.is_some(),
            fs_acked: s.fs_acked as u16,
            cw: s.cw_q16,
            window: xl::window_bytes(c, s),
            rate: xl::rate_q16(c, s),
            tick: s.next_tick.unwrap_or(0),
        }
    }
}

/// The two configurations the regressions alternate (by seed parity):
/// 0: the defaults at 100G, RTT 10 us, MSS 1000 B (IW 125, gamma 1/8, fast start);
/// 1: 25G, RTT 3 us, MSS 4096 B, alpha 1/4, beta 1, gamma 1/1024, window clamp 40 packets,
///    no fast start.
pub fn config(which: u64) -> LdcpConfig {
    let p = if which % 2 == 0 {
        LdcpParams::new(100e9, 10_000, 1000)
    } else {
        LdcpParams {
            alpha: 0.25,
            beta: 1.0,
            gamma: 1.0 / 1024.0,
            max_cwnd_pkts: 40.0,
            fast_start: false,
            ..LdcpParams::new(25e9, 3_000, 4096)
        }
    };
    LdcpConfig::new(&p, Default::default()).expect("the regression configs fit the fixed point")
}

/// A Verilated cc_ldcp configured with `c`, result `tready` high, reset for one cycle (the
/// 1024-cycle initialization follows; `s_axis_event_tready` shows when it is done).
pub fn open(c: &LdcpConfig, vcd: Option<&Path>) -> CcLdcp {
    let mut dut = vcd.map_or_else(CcLdcp::new, CcLdcp::with_vcd);
    set_config(&mut dut, c);
    dut.set_m_axis_result_tready(1);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    dut
}

/// Drives the `cfg_*` ports from the model's registers.
pub fn set_config(dut: &mut CcLdcp, c: &LdcpConfig) {
    dut.set_cfg_rtt_ns(c.rtt_ns);
    dut.set_cfg_mss(c.mss_bytes);
    dut.set_cfg_alpha_q16(c.alpha_q16);
    dut.set_cfg_beta_q16(c.beta_q16);
    dut.set_cfg_gamma_shift(c.gamma_shift);
    dut.set_cfg_iw(c.iw_pkts as u16);
    dut.set_cfg_max_cw_q16(c.max_cw_q16);
    dut.set_cfg_fast_start(c.fast_start as u8);
    dut.set_cfg_rate_mul(c.rate_mul);
    dut.set_cfg_line_q16(c.line_q16);
}

/// Per-flow event source: ACKs with an ECN-marking probability that changes in phases,
/// multi-packet ACKs, sub-packet timer events, losses, re-initializations, and hostile times.
pub struct Source {
    now: u64,
    mark: f64,
}

impl Source {
    pub fn new(rng: &mut ChaCha8Rng) -> Source {
        Source { now: rng.gen::<u32>() as u64, mark: 0.1 }
    }

    pub fn event(&mut self, rng: &mut ChaCha8Rng, flow: u16) -> Event {
        if rng.gen_bool(0.02) {
            self.mark = [0.0, 0.02, 0.3, 0.9, 1.0][rng.gen_range(0..5)];
        }
        self.now += rng.gen_range(10..20_000u64);
        let mut e = Event { flow, kind: Kind::Ack, ece: rng.gen_bool(self.mark), acked: 1, now: self.now };
        match rng.gen_range(0..100) {
            0..=19 => e.kind = Kind::Timer,
            20..=21 => e.kind = Kind::Loss,
            22 => e.kind = Kind::Init,
            23..=34 => e.acked = rng.gen_range(2..16),
            35 => e.acked = rng.gen_range(16..200_000),
            36 => e.acked = 0,
            37 => e.acked = rng.gen(),
            _ => {}
        }
        // Hostile times: a repeat, a step back, a far jump, anything.
        match rng.gen_range(0..200) {
            0 => e.now = self.now - rng.gen_range(0..10_000),
            1 => e.now = rng.gen(),
            2 => e.now = u64::MAX - rng.gen_range(0..1000),
            3 => {
                self.now += rng.gen_range(0..1u64 << 40);
                e.now = self.now;
            }
            _ => {}
        }
        e
    }
}

/// Traffic shape of one run.
pub struct Shape {
    /// Flows that carry events (of the 1024).
    pub active: usize,
    /// Chance of an event on a cycle.
    pub load: f64,
    /// Chance that the next event repeats the previous flow (same-flow bursts).
    pub burst: f64,
    /// Chance of a flow id >= 1024.
    pub bad_flow: f64,
    /// Chance that `m_axis_result_tready` is low on a cycle.
    pub stall: f64,
}

impl Shape {
    /// Many flows, 90% load, a few same-flow repeats, rare bad flow ids, 20% result stalls.
    pub const RANDOM: Shape = Shape { active: 600, load: 0.9, burst: 0.05, bad_flow: 0.002, stall: 0.2 };
    /// Four flows, an event offered every cycle, mostly the same flow again.
    pub const BURSTS: Shape = Shape { active: 4, load: 1.0, burst: 0.7, bad_flow: 0.0, stall: 0.0 };
    /// Every flow, an event offered every cycle, flows drawn at random: the throughput case.
    pub const SATURATED: Shape = Shape { active: FLOWS, load: 1.0, burst: 0.0, bad_flow: 0.0, stall: 0.0 };
}

/// Runs `cycles` cycles of random events; compares every result.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let c = config(seed);
    let mut dut = open(&c, vcd);
    let mut flows: Vec<(Source, LdcpState)> =
        (0..shape.active).map(|_| (Source::new(&mut rng), LdcpState::new(&c))).collect();
    let mut ids: Vec<u16> = (0..FLOWS as u16).collect();
    ids.shuffle(&mut rng);
    ids.truncate(shape.active);
    let mut expected: HashMap<u16, VecDeque<Result>> = HashMap::new();
    let mut owed = 0usize;
    let mut pending: Option<(usize, Event)> = None;
    let (mut accepted, mut bad, mut same_flow, mut last_slot) = (0u64, 0u64, 0u64, usize::MAX);
    let (mut grants, mut sub_packet, mut fast_start, mut at_max) = (0u64, 0u64, 0u64, 0u64);
    let mut cycle = 0u64;
    while cycle < cycles || owed > 0 {
        if cycle > cycles + 10_000 {
            o.fail(format!("{owed} results never came out"));
            break;
        }
        if pending.is_none() && cycle < cycles && rng.gen_bool(shape.load) {
            let slot = if last_slot < shape.active && rng.gen_bool(shape.burst) {
                last_slot
            } else {
                rng.gen_range(0..shape.active)
            };
            let mut e = flows[slot].0.event(&mut rng, ids[slot]);
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
                let r = Result::model(&c, &mut flows[slot].1, &e);
                grants += r.grant as u64;
                sub_packet += (r.cw < xl::ONE_PKT) as u64;
                fast_start += r.fast_start as u64;
                at_max += (r.cw == c.max_cw_q16) as u64;
                expected.entry(e.flow).or_default().push_back(r);
                owed += 1;
                same_flow += (slot == last_slot) as u64;
                last_slot = slot;
                accepted += 1;
            }
        }
        if dut.m_axis_result_tvalid() == 1 && dut.m_axis_result_tready() == 1 {
            let got = Result::from_words(dut.m_axis_result_tdata());
            let want = expected.get_mut(&got.flow).and_then(|q| q.pop_front());
            owed = owed.saturating_sub(want.is_some() as usize);
            o.check(cycle, Some(got), want);
        }
        dut.tick();
        cycle += 1;
    }
    if dut.stat_bad_flow() as u64 != bad {
        o.fail(format!("stat_bad_flow {} != {bad} dropped", dut.stat_bad_flow()));
    }
    o.transactions = accepted;
    o.cycles = cycle;
    o.metric("events_per_cycle", accepted as f64 / cycles.max(1) as f64);
    o.metric("same_flow_events", same_flow as f64);
    o.metric("timer_grants", grants as f64);
    o.metric("cw_below_one_packet", sub_packet as f64);
    o.metric("in_fast_start", fast_start as f64);
    o.metric("cw_at_clamp", at_max as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
