//! cc_hpcc against the fixed-point HPCC++ model (`sim::cc_hpcc`), event by event: every
//! accepted event's result is compared with the model's state after the same event.

use super::cc_engine::{self, engine_plumbing, Engine};
pub use super::cc_engine::{Shape, FLOWS};
use super::stream::Order;
use super::{Outcome, Scenario};
use crate::verilated::models::CcHpcc;
use crate::verilated::{MAxis, SAxis};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::hpcc::HpccParams;
use sim::cc_hpcc::{HpccConfig, HpccState};
use sim::packet::{IntHop, LineRate};
use std::path::Path;

pub use sim::cc_hpcc::block::{Event, Result};

super::stream::beat_of_words!(Event);

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

/// cc_hpcc in the common engine loop, with the counts of what the events reached.
pub struct Hpcc {
    c: HpccConfig,
    actions: [u64; 4],
    additive: u64,
    below_half: u64,
    inits: u64,
    rx_events: u64,
}

impl Hpcc {
    pub fn new(c: HpccConfig) -> Hpcc {
        Hpcc { c, actions: [0; 4], additive: 0, below_half: 0, inits: 0, rx_events: 0 }
    }
}

impl Engine for Hpcc {
    type Dut = CcHpcc;
    type State = HpccState;
    type Gen = Path5;
    type Event = Event;
    type Result = Result;
    const EVENTS: SAxis<CcHpcc> = CcHpcc::S_AXIS_EVENT;
    const RESULTS: MAxis<CcHpcc> = CcHpcc::M_AXIS_RESULT;
    const ORDER: Order = Order::InOrder;
    engine_plumbing!();

    fn open(&self, vcd: Option<&Path>) -> CcHpcc {
        open(&self.c, vcd)
    }
    fn flow(&self, rng: &mut ChaCha8Rng) -> (Path5, HpccState) {
        (Path5::new(rng), HpccState::new(&self.c))
    }
    fn event(&self, rng: &mut ChaCha8Rng, shape: &Shape, g: &mut Path5, _: &HpccState, flow: u16) -> Event {
        let mut e = g.event(rng, flow);
        e.rx = rng.gen_bool(shape.rx);
        e
    }
    fn model(&mut self, s: &mut HpccState, e: &Event) -> Result {
        self.inits += e.init as u64;
        self.rx_events += e.rx as u64;
        let r = Result::model(&self.c, s, e);
        self.actions[r.action as usize] += 1;
        self.additive += (r.inc_stage > 0) as u64;
        self.below_half += (r.w < self.c.w_max_q8 / 2) as u64;
        r
    }
    fn metrics(&self, o: &mut Outcome) {
        o.metric("rx_hpcc_events", self.rx_events as f64);
        for (name, n) in ["ignored", "recorded", "updated_w", "updated_wc"].iter().zip(self.actions) {
            o.metric(name, n as f64);
        }
        o.metric("inc_stage_gt0", self.additive as f64);
        o.metric("flow_inits", self.inits as f64);
        o.metric("w_below_half_bdp", self.below_half as f64);
    }
}

/// Runs `cycles` cycles of random events; compares every result.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    cc_engine::run(Hpcc::new(config()), scenario, seed, cycles, shape, vcd)
}
