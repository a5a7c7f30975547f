//! The one run loop of the three CC engine regressions (cc_hpcc, cc_ldcp, cc_dcqcn). Each
//! engine has the same shape: per-flow events in on `s_axis_event`, one result per accepted
//! event out on `m_axis_result`, events of flows >= 1024 dropped and counted in
//! `stat_bad_flow`. An [`Engine`] says only what differs: the event source, the model, how a
//! result reads, and what it counts.

use super::stream::{Beat, Expect, Order, Sink, Source};
use super::{Outcome, Scenario};
use crate::verilated::{MAxis, Model, SAxis};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Debug;
use std::path::Path;
use std::time::Instant;

/// Flows of the Verilated configurations (F = 10).
pub const FLOWS: usize = 1024;

/// Traffic shape of one run.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Flows that carry events (of the 1024).
    pub active: usize,
    /// Chance of an event on a cycle.
    pub load: f64,
    /// Chance that the next event repeats the previous flow (same-flow bursts).
    pub burst: f64,
    /// cc_hpcc only: chance that an event is Rx-HPCC (the other engines have one event mix
    /// and ignore it).
    pub rx: f64,
    /// Chance of a flow id >= 1024.
    pub bad_flow: f64,
    /// Chance that `m_axis_result_tready` is low on a cycle.
    pub stall: f64,
}

impl Shape {
    /// Many flows, 90% load, a few same-flow repeats, half Rx-HPCC, rare bad flow ids, 20%
    /// of cycles with result backpressure.
    pub const RANDOM: Shape = Shape { active: 600, load: 0.9, burst: 0.05, rx: 0.5, bad_flow: 0.002, stall: 0.2 };
    /// Four flows, an event offered every cycle, mostly the same flow again.
    pub const BURSTS: Shape = Shape { active: 4, load: 1.0, burst: 0.7, rx: 0.3, bad_flow: 0.0, stall: 0.0 };
    /// Every flow, an event offered every cycle, flows drawn uniformly at random: the
    /// throughput case.
    pub const SATURATED: Shape = Shape { active: FLOWS, load: 1.0, burst: 0.0, rx: 0.3, bad_flow: 0.0, stall: 0.0 };
}

/// What one CC engine's regression adds to the common loop.
pub trait Engine {
    type Dut: Model;
    /// The model's per-flow state.
    type State;
    /// A flow's event source.
    type Gen;
    type Event: Beat;
    type Result: Copy + PartialEq + Debug;
    const EVENTS: SAxis<Self::Dut>;
    const RESULTS: MAxis<Self::Dut>;
    /// How results are matched: in order, or per flow (engines whose flow_park lets
    /// results of different flows pass each other).
    const ORDER: Order;
    /// The Verilated engine, configured and out of reset.
    fn open(&self, vcd: Option<&Path>) -> Self::Dut;
    fn stat_bad_flow(dut: &Self::Dut) -> u64;
    /// A new flow: its event source and the model's initial state.
    fn flow(&self, rng: &mut ChaCha8Rng) -> (Self::Gen, Self::State);
    /// The flow's next event, made when the loop offers it.
    fn event(&self, rng: &mut ChaCha8Rng, shape: &Shape, g: &mut Self::Gen, s: &Self::State, flow: u16)
        -> Self::Event;
    fn event_flow(e: &Self::Event) -> u16;
    fn set_event_flow(e: &mut Self::Event, flow: u16);
    /// Applies an accepted event to the model; counts what it reached.
    fn model(&mut self, s: &mut Self::State, e: &Self::Event) -> Self::Result;
    fn result(words: &[u32]) -> Self::Result;
    fn result_flow(r: &Self::Result) -> u16;
    /// The counts, as metrics, after the common ones.
    fn metrics(&self, o: &mut Outcome);
}

/// The five methods every engine implements the same way, for use inside its `impl Engine`:
/// its event and result carry `flow: u16`, its result reads with `Result::from_words`, and its
/// RTL counts dropped events in `stat_bad_flow`.
macro_rules! engine_plumbing {
    () => {
        fn stat_bad_flow(dut: &Self::Dut) -> u64 {
            dut.stat_bad_flow() as u64
        }
        fn event_flow(e: &Self::Event) -> u16 {
            e.flow
        }
        fn set_event_flow(e: &mut Self::Event, flow: u16) {
            e.flow = flow;
        }
        fn result(words: &[u32]) -> Self::Result {
            Self::Result::from_words(words)
        }
        fn result_flow(r: &Self::Result) -> u16 {
            r.flow
        }
    };
}
pub(crate) use engine_plumbing;

/// Runs `cycles` cycles of random events into engine `e`; compares every result with the
/// model's.
pub fn run<E: Engine>(mut e: E, scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut = e.open(vcd);
    let mut flows: Vec<(E::Gen, E::State)> = (0..shape.active).map(|_| e.flow(&mut rng)).collect();
    // Distinct flow ids: each slot has its own model state.
    let mut ids: Vec<u16> = (0..FLOWS as u16).collect();
    ids.shuffle(&mut rng);
    ids.truncate(shape.active);
    let mut src: Source<E::Dut, (usize, E::Event)> = Source::new(E::EVENTS);
    let mut sink = Sink::new(E::RESULTS, shape.stall);
    let mut expected: Expect<u16, E::Result> = Expect::new(E::ORDER);
    let (mut accepted, mut bad, mut same_flow, mut last_slot) = (0u64, 0u64, 0u64, usize::MAX);
    let mut cycle = 0u64;
    while cycle < cycles || expected.owed() > 0 {
        if cycle > cycles + 10_000 {
            o.fail(format!("{} results never came out", expected.owed()));
            break;
        }
        if cycle < cycles {
            src.refill(&mut rng, shape.load, |rng: &mut ChaCha8Rng| {
                let slot = if last_slot < shape.active && rng.gen_bool(shape.burst) {
                    last_slot
                } else {
                    rng.gen_range(0..shape.active)
                };
                let (g, s) = &mut flows[slot];
                let mut ev = e.event(rng, shape, g, s, ids[slot]);
                if rng.gen_bool(shape.bad_flow) {
                    E::set_event_flow(&mut ev, rng.gen_range(FLOWS as u16..=u16::MAX));
                }
                (slot, ev)
            });
        }
        sink.ready(&mut dut, &mut rng);
        src.offer(&mut dut, &mut rng);
        dut.eval();
        if let Some((slot, ev)) = src.taken(&dut) {
            if E::event_flow(&ev) as usize >= FLOWS {
                bad += 1;
            } else {
                let r = e.model(&mut flows[slot].1, &ev);
                expected.push(E::event_flow(&ev), r);
                same_flow += (slot == last_slot) as u64;
                last_slot = slot;
                accepted += 1;
            }
        }
        if let Some(words) = sink.take(&dut) {
            let got = E::result(words);
            o.check(cycle, Some(got), expected.pop(&E::result_flow(&got)));
        }
        dut.tick();
        cycle += 1;
    }
    if E::stat_bad_flow(&dut) != bad {
        o.fail(format!("stat_bad_flow {} != {bad} dropped", E::stat_bad_flow(&dut)));
    }
    o.transactions = accepted;
    o.cycles = cycle;
    o.metric("events_per_cycle", accepted as f64 / cycles.max(1) as f64);
    o.metric("same_flow_events", same_flow as f64);
    o.metric("bad_flow_dropped", bad as f64);
    e.metrics(&mut o);
    o.seconds = start.elapsed().as_secs_f64();
    o
}

impl<T: Beat> Beat for (usize, T) {
    fn write(&self, tdata: &mut [u32]) {
        self.1.write(tdata)
    }
    fn last(&self) -> bool {
        self.1.last()
    }
}
