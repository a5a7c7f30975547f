//! cc_dcqcn against the fixed-point DCQCN model (`sim::cc_dcqcn`), event by event:
//! every accepted event's result (rate, window and the flow's whole state) is compared with
//! the model's state after the same event.

use super::cc_engine::{self, engine_plumbing, Engine};
pub use super::cc_engine::{Shape, FLOWS};
use super::stream::{Order, Sink, Source};
use super::{Outcome, Scenario};
use crate::verilated::models::CcDcqcn;
use crate::verilated::{MAxis, SAxis};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sim::cc_float::dcqcn::{DcqcnParams, IncreaseStage};
use sim::cc_dcqcn::{self as xd, DcqcnConfig, DcqcnState};
use sim::cc_fixed::Clock;
use std::path::Path;

pub use sim::cc_dcqcn::block::{state_from_words, Event, Result, CNP, INIT, TIMER, TX};

super::stream::beat_of_words!(Event);

/// Configuration A: the HPCC simulator's DCQCN set at 100G (g = 1/256, K = 1 us, T = 300 us,
/// cut interval 4 us, F = 1, B = 10 MB), base RTT 5 us.
pub fn config() -> DcqcnConfig {
    DcqcnConfig::new(&DcqcnParams::hpcc_run_py(100e9, 5000), Clock::default())
        .expect("the defaults fit the fixed point")
}

/// Configuration B: the HPCC simulator's RdmaHw attribute defaults (g = 1/16, K = 55 us,
/// T = 1.5 ms, F = 5) without byte counter (B = 0), at 25G, base RTT 8 us.
pub fn config_b() -> DcqcnConfig {
    let mut p = DcqcnParams::hpcc_rdma_hw_defaults(25e9, 8000);
    p.byte_counter_bytes = 0;
    DcqcnConfig::new(&p, Clock::default()).expect("the defaults fit the fixed point")
}

/// A Verilated cc_dcqcn configured with `c`, result `tready` high, reset for one cycle (the
/// 1024-cycle initialization follows; `s_axis_event_tready` shows when it is done).
pub fn open(c: &DcqcnConfig, vcd: Option<&Path>) -> CcDcqcn {
    let mut dut = vcd.map_or_else(CcDcqcn::new, CcDcqcn::with_vcd);
    set_config(&mut dut, c);
    dut.set_m_axis_result_tready(1);
    dut.set_s_axis_event_tvalid(0);
    dut.s_axis_event_tdata_mut().fill(0);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    dut
}

/// The 384-bit `cfg_decay` word: decay[i] at `[24i+23:24i]`.
pub fn decay_words(c: &DcqcnConfig) -> [u32; 12] {
    let mut w = [0u32; 12];
    for (i, &d) in c.decay.iter().enumerate() {
        assert!(d < 1 << 24, "decay[{i}] = {d} does not fit the 24-bit port");
        let bit = 24 * i;
        let v = (d as u64) << (bit % 32);
        w[bit / 32] |= v as u32;
        if bit / 32 + 1 < 12 {
            w[bit / 32 + 1] |= (v >> 32) as u32;
        }
    }
    w
}

/// Drives the `cfg_*` ports from the model's registers.
pub fn set_config(dut: &mut CcDcqcn, c: &DcqcnConfig) {
    assert!(c.initial_alpha_q24 <= xd::ALPHA_ONE && c.g_shift <= 24 && c.alpha_timer_ns > 0);
    dut.set_cfg_line_q24(c.line_q24);
    dut.set_cfg_min_q24(c.min_q24);
    dut.set_cfg_ai_q24(c.ai_q24);
    dut.set_cfg_hai_q24(c.hai_q24);
    dut.set_cfg_g_shift(c.g_shift);
    dut.set_cfg_initial_alpha_q24(c.initial_alpha_q24);
    dut.set_cfg_alpha_timer_ns(c.alpha_timer_ns);
    dut.cfg_decay_mut().copy_from_slice(&decay_words(c));
    dut.set_cfg_min_cut_interval_ns(c.min_cut_interval_ns);
    dut.set_cfg_rate_increase_timer_ns(c.rate_increase_timer_ns);
    dut.set_cfg_byte_counter_bytes(c.byte_counter_bytes);
    dut.set_cfg_fast_recovery_times(c.fast_recovery_times);
    dut.set_cfg_win_mul(c.win_mul);
}

/// Per-flow event source: phases of CNP bursts and quiet times, hostile times and byte counts.
pub struct FlowGen {
    now: u64,
    cnp: f64,
}

impl FlowGen {
    pub fn new(rng: &mut ChaCha8Rng) -> FlowGen {
        FlowGen { now: rng.gen::<u32>() as u64 * 64, cnp: 0.2 }
    }

    /// The next event of a flow whose model state is `s`.
    pub fn event(&mut self, rng: &mut ChaCha8Rng, c: &DcqcnConfig, s: &DcqcnState, flow: u16) -> Event {
        if rng.gen_bool(0.02) {
            self.cnp = [0.0, 0.02, 0.1, 0.4, 0.9, 1.0][rng.gen_range(0..6)];
        }
        // Storm: CNPs just past the cut interval, so every one cuts and Rc reaches the floor.
        if self.cnp >= 1.0 && rng.gen_bool(0.9) {
            let step = c.min_cut_interval_ns as u64 + rng.gen_range(0..=c.alpha_timer_ns as u64);
            self.now = s.now.wrapping_add(step);
            return Event { flow, kind: CNP, bytes: 0, now: self.now };
        }
        let k = c.alpha_timer_ns as u64;
        let t = c.rate_increase_timer_ns as u64;
        // Steps start from the flow's clock (which a backwards event does not move).
        self.now = s.now;
        self.now = match rng.gen_range(0..100) {
            // Small steps: CNP bursts within the cut interval, alpha periods.
            0..=39 => self.now.wrapping_add(rng.gen_range(0..3 * k.min(2000))),
            // Up to an increase period.
            40..=74 => self.now.wrapping_add(rng.gen_range(0..t + t / 4)),
            75 => self.now, // repeated time
            76 => self.now.saturating_sub(rng.gen_range(1..1 << 40)), // backwards
            77 => self.now.wrapping_add(rng.gen_range(1u64 << 32..1 << 44)), // huge gap
            78 => rng.gen::<u64>() >> rng.gen_range(1..40), // anywhere
            // Where now + T saturates (the flow stays there until re-initialized).
            79 if rng.gen_bool(0.1) => u64::MAX - rng.gen_range(0..2 * t),
            // Edges of the model's own thresholds.
            80..=87 => {
                let edges = [
                    s.next_increase,
                    s.next_increase.wrapping_sub(1),
                    s.last_cut.wrapping_add(c.min_cut_interval_ns as u64),
                    s.last_cut.wrapping_add(c.min_cut_interval_ns as u64).wrapping_sub(1),
                    s.last_cnp.wrapping_add(k * rng.gen_range(1..40)),
                    s.last_cnp.wrapping_add(k * rng.gen_range(1..40) - 1),
                    s.last_cnp.wrapping_add(k * ((1 << 16) - 1)),
                    s.last_cnp.wrapping_add(k * (1 << 16)),
                    s.last_cnp.wrapping_add(u32::MAX as u64),
                    s.last_cnp.wrapping_add(1 << 32),
                ];
                edges[rng.gen_range(0..edges.len())]
            }
            _ => self.now.wrapping_add(rng.gen_range(0..20_000)),
        };
        let kind = if rng.gen_bool(0.01) {
            INIT
        } else if rng.gen_bool(self.cnp) {
            CNP
        } else if rng.gen_bool(0.5) {
            TIMER
        } else {
            TX
        };
        let b = c.byte_counter_bytes.max(1_000_000);
        let bytes = match rng.gen_range(0..20) {
            0 => 0,
            1 => u32::MAX - rng.gen_range(0..1000),
            2 => b,
            3 => b - 1,
            4 => rng.gen(),
            _ => rng.gen_range(0..b + b / 2),
        };
        Event { flow, kind, bytes, now: self.now }
    }
}

/// The random shape with 800 active flows (more flows in their 60-cycle flow_park window).
pub const RANDOM: Shape = Shape { active: 800, ..Shape::RANDOM };

/// cc_dcqcn in the common engine loop, with the counts of what the events reached
/// ([`COVERAGE`]).
pub struct Dcqcn {
    c: DcqcnConfig,
    cov: [u64; 13],
}

impl Dcqcn {
    pub fn new(c: DcqcnConfig) -> Dcqcn {
        Dcqcn { c, cov: [0; 13] }
    }
}

impl Engine for Dcqcn {
    type Dut = CcDcqcn;
    type State = DcqcnState;
    type Gen = FlowGen;
    type Event = Event;
    type Result = Result;
    const EVENTS: SAxis<CcDcqcn> = CcDcqcn::S_AXIS_EVENT;
    const RESULTS: MAxis<CcDcqcn> = CcDcqcn::M_AXIS_RESULT;
    // Results of different flows may pass each other (flow_park).
    const ORDER: Order = Order::PerKey;
    engine_plumbing!();

    fn open(&self, vcd: Option<&Path>) -> CcDcqcn {
        open(&self.c, vcd)
    }
    fn flow(&self, rng: &mut ChaCha8Rng) -> (FlowGen, DcqcnState) {
        (FlowGen::new(rng), DcqcnState::new(&self.c))
    }
    fn event(&self, rng: &mut ChaCha8Rng, _: &Shape, g: &mut FlowGen, s: &DcqcnState, flow: u16) -> Event {
        g.event(rng, &self.c, s, flow)
    }
    fn model(&mut self, s: &mut DcqcnState, e: &Event) -> Result {
        let before = *s;
        let r = Result::model(&self.c, s, e);
        coverage(&self.c, &before, e, &r.state, &mut self.cov);
        r
    }
    fn metrics(&self, o: &mut Outcome) {
        for (name, n) in COVERAGE.iter().zip(self.cov) {
            o.metric(name, n as f64);
        }
    }
}

/// The two configurations the regressions alternate by seed parity: even seeds [`config`]
/// (A), odd seeds [`config_b`].
pub fn config_for(seed: u64) -> DcqcnConfig {
    if seed.is_multiple_of(2) {
        config()
    } else {
        config_b()
    }
}

/// Runs `cycles` cycles of random events; compares every result. The configuration
/// alternates by seed parity ([`config_for`]).
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    cc_engine::run(Dcqcn::new(config_for(seed)), scenario, seed, cycles, shape, vcd)
}

/// What the random events reached, counted from the model's states before and after.
pub const COVERAGE: [&str; 13] = [
    "cuts",
    "cnp_coalesced",
    "timer_increases",
    "byte_increases",
    "fast_recovery",
    "additive",
    "hyper",
    "alpha_decayed",
    "alpha_zero",
    "time_backwards",
    "huge_gaps",
    "flow_inits",
    "rc_at_min",
];

fn coverage(c: &DcqcnConfig, b: &DcqcnState, e: &Event, a: &DcqcnState, cov: &mut [u64; 13]) {
    let now = b.now.max(e.now);
    cov[12] += (a.rc_q24 == c.min_q24) as u64;
    if e.kind == INIT {
        cov[11] += 1;
        return;
    }
    if e.kind == CNP {
        let cut = !b.active || now - b.last_cut >= c.min_cut_interval_ns as u64;
        cov[if cut { 0 } else { 1 }] += 1;
        if b.active && now - b.last_cnp >= c.alpha_timer_ns as u64 {
            cov[7] += 1;
        }
        if b.active && (now - b.last_cnp) / c.alpha_timer_ns as u64 >= 1 << 16 {
            cov[8] += 1;
        }
    }
    let timer = b.active && now >= b.next_increase;
    cov[2] += timer as u64;
    let bytes = e.kind == TX && a.bc_count != b.bc_count;
    cov[3] += bytes as u64;
    if timer || bytes {
        match a.last_stage {
            Some(IncreaseStage::FastRecovery) => cov[4] += 1,
            Some(IncreaseStage::Additive) => cov[5] += 1,
            Some(IncreaseStage::Hyper) => cov[6] += 1,
            None => {}
        }
    }
    cov[9] += (e.now < b.now) as u64;
    cov[10] += (e.now >= b.now.saturating_add(1 << 32)) as u64;
}

/// Waits out the initialization of a freshly opened `dut`; returns the cycles it took.
pub fn wait_ready(dut: &mut CcDcqcn) -> usize {
    let mut waited = 0;
    while {
        dut.eval();
        dut.s_axis_event_tready() == 0
    } {
        dut.tick();
        waited += 1;
        assert!(waited < 100_000, "never ready");
    }
    waited
}

/// Offers `events` back to back (each held until taken) with results always read; returns
/// every result in order and the cycle (counted from the call) each event was accepted on.
pub fn drive(dut: &mut CcDcqcn, events: &[Event]) -> (Vec<Result>, Vec<u64>, Vec<u64>) {
    let (mut results, mut taken, mut out) = (Vec::new(), Vec::new(), Vec::new());
    let mut src: Source<CcDcqcn, Event> = Source::new(CcDcqcn::S_AXIS_EVENT);
    events.iter().for_each(|e| src.push(*e));
    let mut sink = Sink::new(CcDcqcn::M_AXIS_RESULT, 0.0);
    sink.set_ready(dut, true);
    let mut cycle = 0u64;
    let mut idle = 0;
    while idle < 2 * hdl::cc_dcqcn::LATENCY {
        src.offer_now(dut);
        dut.eval();
        idle += 1;
        if src.taken(dut).is_some() {
            taken.push(cycle);
            idle = 0;
        }
        if let Some(w) = sink.take(dut) {
            results.push(Result::from_words(w));
            out.push(cycle);
            idle = 0;
        }
        dut.tick();
        cycle += 1;
    }
    (results, taken, out)
}
