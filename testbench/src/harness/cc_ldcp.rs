//! cc_ldcp against the fixed-point LDCP model (`sim::cc_ldcp`), event by event: every
//! accepted event's result is compared with the model's state after the same event. Results
//! of different flows may pass each other (flow_park), so they are matched per flow, in order.

use super::cc_engine::{self, engine_plumbing, Engine};
pub use super::cc_engine::{Shape, FLOWS};
use super::stream::Order;
use super::{Outcome, Scenario};
use crate::verilated::models::CcLdcp;
use crate::verilated::{MAxis, SAxis};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sim::cc_float::ldcp::LdcpParams;
use sim::cc_ldcp::{self as xl, LdcpConfig, LdcpState};
use std::path::Path;

pub use sim::cc_ldcp::block::{Event, Kind, Result};

super::stream::beat_of_words!(Event);

/// The two configurations the regressions alternate (by seed parity):
/// 0: the defaults at 100G, RTT 10 us, MSS 1000 B (IW 125, gamma 1/8, fast start);
/// 1: 25G, RTT 3 us, MSS 4096 B, alpha 1/4, beta 1, gamma 1/1024, window clamp 40 packets,
///    no fast start.
pub fn config(which: u64) -> LdcpConfig {
    let p = if which.is_multiple_of(2) {
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

/// cc_ldcp in the common engine loop, with the counts of what the events reached.
pub struct Ldcp {
    c: LdcpConfig,
    grants: u64,
    sub_packet: u64,
    fast_start: u64,
    at_max: u64,
}

impl Ldcp {
    pub fn new(c: LdcpConfig) -> Ldcp {
        Ldcp { c, grants: 0, sub_packet: 0, fast_start: 0, at_max: 0 }
    }
}

impl Engine for Ldcp {
    type Dut = CcLdcp;
    type State = LdcpState;
    type Gen = Source;
    type Event = Event;
    type Result = Result;
    const EVENTS: SAxis<CcLdcp> = CcLdcp::S_AXIS_EVENT;
    const RESULTS: MAxis<CcLdcp> = CcLdcp::M_AXIS_RESULT;
    // Results of different flows may pass each other (flow_park).
    const ORDER: Order = Order::PerKey;
    engine_plumbing!();

    fn open(&self, vcd: Option<&Path>) -> CcLdcp {
        open(&self.c, vcd)
    }
    fn flow(&self, rng: &mut ChaCha8Rng) -> (Source, LdcpState) {
        (Source::new(rng), LdcpState::new(&self.c))
    }
    fn event(&self, rng: &mut ChaCha8Rng, _: &Shape, g: &mut Source, _: &LdcpState, flow: u16) -> Event {
        g.event(rng, flow)
    }
    fn model(&mut self, s: &mut LdcpState, e: &Event) -> Result {
        let r = Result::model(&self.c, s, e);
        self.grants += r.grant as u64;
        self.sub_packet += (r.cw < xl::ONE_PKT) as u64;
        self.fast_start += r.fast_start as u64;
        self.at_max += (r.cw == self.c.max_cw_q16) as u64;
        r
    }
    fn metrics(&self, o: &mut Outcome) {
        o.metric("timer_grants", self.grants as f64);
        o.metric("cw_below_one_packet", self.sub_packet as f64);
        o.metric("in_fast_start", self.fast_start as f64);
        o.metric("cw_at_clamp", self.at_max as f64);
    }
}

/// Runs `cycles` cycles of random events; compares every result. The configuration
/// alternates by seed parity ([`config`]).
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    cc_engine::run(Ldcp::new(config(seed)), scenario, seed, cycles, shape, vcd)
}
