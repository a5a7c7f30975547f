//! cc_module (the CC module's top) against its model, `sim::cc_module` (the per-flow algorithm
//! map plus the three engines' block models). Every Update and feedback is compared bit for
//! bit with the model's,
//! matched per flow in order. Engines may reorder results across flows, and across a re-create
//! that moves a flow to another engine a flow's results of the two engines may interleave
//! (docs/modules/cc_module.md), so expected Updates are queued per (flow, engine) and the RTL's
//! Updates of a flow must be some interleaving of its engines' queues. Equal values in two
//! queues make the engine of an Update unknowable from the output alone, so the board keeps
//! every reading still possible (`Pending::reads`) and fails only when none is left; Updates
//! that left more than one reading are counted as `ambiguous`.
//!
//! `run` also steps the cycle model (`sim::cc_module::cycle::CcModule`) on the same inputs
//! from the same reset, and every port (`s_axis_event_tready`, each output's valid and data)
//! must be equal on every cycle: the first difference fails the run with both sides shown.

use super::stream::{Sink, Source};
use super::{cc_dcqcn as hd, cc_hpcc as hh, cc_ldcp as hl, Outcome, Scenario};
use crate::verilated::low_u64;
use crate::verilated::models::CcModule;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_ldcp::LdcpConfig;
use sim::cc_module::cycle::{CcModule as CcModuleCycle, Inputs, Outputs};
use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::Instant;

pub use sim::cc_module::{used_types, Event, Feedback, Model, Out, Update};
pub use sim::cc_module::{ACK, CNP, CREATE, DCQCN, FLOWS, HPCC, LDCP, LOSS, RX, RX_HPCC, TIMER, TX};

super::stream::beat_of_words!(Event);

/// The regression configurations: cc_hpcc's, cc_ldcp's config(0), cc_dcqcn's config A.
pub fn default_model() -> Model {
    Model::new(hh::config(), hl::config(0), hd::config())
}

/// The defaults with LDCP on `lc` (the fabric's incasts tune it to their RTT and MTU).
pub fn model_with_ldcp(lc: LdcpConfig) -> Model {
    Model::new(hh::config(), lc, hd::config())
}

/// Index of an Update-producing engine in `Pending::q` (HPCC, LDCP, DCQCN).
fn engine_index(eng: u8) -> usize {
    match eng {
        HPCC => 0,
        LDCP => 1,
        _ => 2,
    }
}

/// One flow's expected Updates: a queue per engine, and every reading of the Updates seen so
/// far that is still possible, each as how many of every queue's entries it has consumed.
/// With one engine in play there is one reading; after a switch, an Update equal to the heads
/// of two queues splits it into two (seed 0x7d58e979 of module-random: DCQCN's Updates of a
/// flow, still on their way, equal to HPCC's create Update of its re-create).
struct Pending {
    q: [VecDeque<Update>; 3],
    reads: Vec<[usize; 3]>,
}

impl Default for Pending {
    fn default() -> Self {
        Pending { q: Default::default(), reads: vec![[0; 3]] }
    }
}

impl Pending {
    /// The readings that `got` can extend, each extended.
    fn advance(&self, got: &Update) -> Vec<[usize; 3]> {
        let mut next: Vec<[usize; 3]> = Vec::new();
        for r in &self.reads {
            for e in 0..3 {
                if self.q[e].get(r[e]) == Some(got) {
                    let mut n = *r;
                    n[e] += 1;
                    if !next.contains(&n) {
                        next.push(n);
                    }
                }
            }
        }
        next
    }

    /// Drops the queue entries that every reading has consumed.
    fn settle(&mut self) {
        for e in 0..3 {
            let done = self.reads.iter().map(|r| r[e]).min().unwrap_or(0);
            self.q[e].drain(..done);
            for r in &mut self.reads {
                r[e] -= done;
            }
        }
    }

    /// The entry the first reading expects next (for a mismatch message), consumed by it.
    fn take_first(&mut self) -> Option<Update> {
        self.reads.truncate(1);
        let r = &mut self.reads[0];
        let e = (0..3).find(|&e| self.q[e].len() > r[e])?;
        r[e] += 1;
        let u = self.q[e][r[e] - 1];
        self.settle();
        Some(u)
    }
}

/// Expected outputs, per (flow, engine) for Updates and per flow for feedbacks.
#[derive(Default)]
pub struct Board {
    upd: HashMap<u16, Pending>,
    fb: HashMap<u16, VecDeque<Feedback>>,
    /// Outputs expected and not yet seen.
    pub pending: usize,
    /// Updates after which their flow had more than one possible reading.
    pub ambiguous: u64,
    /// Outputs that came with nothing expected for their flow.
    pub unexpected: u64,
}

impl Board {
    /// Records the model's answer for one accepted event.
    pub fn expect(&mut self, o: Out) {
        match o {
            Out::Update(eng, u) => {
                self.upd.entry(u.flow).or_default().q[engine_index(eng)].push_back(u);
                self.pending += 1;
            }
            Out::Feedback(f) => {
                self.fb.entry(f.flow).or_default().push_back(f);
                self.pending += 1;
            }
            _ => {}
        }
    }

    /// Checks one Update from the RTL: it must extend some reading of its flow's Updates.
    pub fn got_update(&mut self, o: &mut Outcome, cycle: u64, got: Update) {
        let p = self.upd.entry(got.flow).or_default();
        let next = p.advance(&got);
        if next.is_empty() {
            // No reading takes it: a mismatch against what the first reading expects next,
            // which it consumes so that one wrong value is one mismatch.
            let want = p.take_first();
            match want {
                Some(_) => self.pending -= 1,
                None => self.unexpected += 1,
            }
            o.check(cycle, Some(got), want);
            return;
        }
        if next.len() > 1 {
            self.ambiguous += 1;
        }
        p.reads = next;
        p.settle();
        self.pending -= 1;
        o.check(cycle, Some(got), Some(got));
    }

    /// Checks one feedback from the RTL.
    pub fn got_feedback(&mut self, o: &mut Outcome, cycle: u64, got: Feedback) {
        let want = self.fb.get_mut(&got.flow).and_then(|q| q.pop_front());
        match want {
            Some(_) => self.pending -= 1,
            None => self.unexpected += 1,
        }
        o.check(cycle, Some(got), want);
    }
}

/// Drives every `cfg_*` port from the model's configurations.
pub fn set_config(dut: &mut CcModule, m: &Model) {
    let c = &m.hc;
    dut.set_cfg_hpcc_t_ns(c.t_ns);
    dut.set_cfg_hpcc_eta_q16(c.eta_q16);
    dut.set_cfg_hpcc_max_stage(c.max_stage);
    dut.set_cfg_hpcc_w_ai_q8(c.w_ai_q8);
    dut.set_cfg_hpcc_w_min_q8(c.w_min_q8);
    dut.set_cfg_hpcc_w_max_q8(c.w_max_q8);
    dut.set_cfg_hpcc_u_init_q16(c.u_init_q16);
    dut.cfg_hpcc_inv_bt_mut().copy_from_slice(&c.inv_bt);
    dut.cfg_hpcc_inv_b_mut().copy_from_slice(&c.inv_b);
    dut.set_cfg_hpcc_inv_t(c.inv_t);
    dut.set_cfg_hpcc_rate_mul(c.rate_mul);
    dut.set_cfg_hpcc_line_q16(c.line_q16);
    let c = &m.lc;
    dut.set_cfg_ldcp_rtt_ns(c.rtt_ns);
    dut.set_cfg_ldcp_mss(c.mss_bytes);
    dut.set_cfg_ldcp_alpha_q16(c.alpha_q16);
    dut.set_cfg_ldcp_beta_q16(c.beta_q16);
    dut.set_cfg_ldcp_gamma_shift(c.gamma_shift);
    dut.set_cfg_ldcp_iw(c.iw_pkts as u16);
    dut.set_cfg_ldcp_max_cw_q16(c.max_cw_q16);
    dut.set_cfg_ldcp_fast_start(c.fast_start as u8);
    dut.set_cfg_ldcp_rate_mul(c.rate_mul);
    dut.set_cfg_ldcp_line_q16(c.line_q16);
    let c = &m.dc;
    dut.set_cfg_dcqcn_line_q24(c.line_q24);
    dut.set_cfg_dcqcn_min_q24(c.min_q24);
    dut.set_cfg_dcqcn_ai_q24(c.ai_q24);
    dut.set_cfg_dcqcn_hai_q24(c.hai_q24);
    dut.set_cfg_dcqcn_g_shift(c.g_shift);
    dut.set_cfg_dcqcn_initial_alpha_q24(c.initial_alpha_q24);
    dut.set_cfg_dcqcn_alpha_timer_ns(c.alpha_timer_ns);
    dut.cfg_dcqcn_decay_mut().copy_from_slice(&hd::decay_words(c));
    dut.set_cfg_dcqcn_min_cut_interval_ns(c.min_cut_interval_ns);
    dut.set_cfg_dcqcn_rate_increase_timer_ns(c.rate_increase_timer_ns);
    dut.set_cfg_dcqcn_byte_counter_bytes(c.byte_counter_bytes);
    dut.set_cfg_dcqcn_fast_recovery_times(c.fast_recovery_times);
    dut.set_cfg_dcqcn_win_mul(c.win_mul);
}

/// A Verilated cc_module configured from `m`, both outputs ready, reset for one cycle (the
/// 1024-cycle initialization follows; `s_axis_event_tready` shows when it is done).
pub fn open(m: &Model, vcd: Option<&Path>) -> CcModule {
    let mut dut = vcd.map_or_else(CcModule::new, CcModule::with_vcd);
    set_config(&mut dut, m);
    dut.set_m_axis_update_tready(1);
    dut.set_m_axis_feedback_tready(1);
    dut.set_s_axis_event_tvalid(0);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    dut
}

/// Ticks until `s_axis_event_tready` rises; returns the cycles waited.
pub fn wait_ready(dut: &mut CcModule) -> usize {
    let mut n = 0;
    loop {
        dut.eval();
        if dut.s_axis_event_tready() == 1 {
            return n;
        }
        dut.tick();
        n += 1;
        assert!(n < 10_000, "cc_module never became ready");
    }
}

/// What `drive` saw.
#[derive(Default, Debug)]
pub struct Trace {
    /// Cycle (since `drive` began) each event was accepted.
    pub accepted: Vec<u64>,
    /// Updates and the cycle each was taken.
    pub updates: Vec<(u64, Update)>,
    /// Feedbacks and the cycle each was taken.
    pub feedbacks: Vec<(u64, Feedback)>,
    /// Cycles until the last event was accepted (inclusive).
    pub input_cycles: u64,
}

/// Offers `events` back to back (tvalid high until all are taken), both outputs always ready,
/// and runs `drain` more cycles after the last is accepted.
pub fn drive(dut: &mut CcModule, events: &[Event], drain: u64) -> Trace {
    let mut t = Trace::default();
    let mut src: Source<CcModule, Event> = Source::new(CcModule::S_AXIS_EVENT);
    events.iter().for_each(|e| src.push(e.clone()));
    let mut update = Sink::new(CcModule::M_AXIS_UPDATE, 0.0);
    let mut feedback = Sink::new(CcModule::M_AXIS_FEEDBACK, 0.0);
    let (mut cycle, mut after) = (0u64, 0u64);
    while !src.is_empty() || after < drain {
        after += src.is_empty() as u64;
        src.offer_now(dut);
        update.set_ready(dut, true);
        feedback.set_ready(dut, true);
        dut.eval();
        if src.taken(dut).is_some() {
            t.accepted.push(cycle);
            t.input_cycles = cycle + 1;
        }
        if let Some(w) = update.take(dut) {
            t.updates.push((cycle, Update::from_words(w)));
        }
        if let Some(w) = feedback.take(dut) {
            t.feedbacks.push((cycle, Feedback::from_bits(low_u64(w))));
        }
        dut.tick();
        cycle += 1;
        assert!(cycle < 10_000_000, "drive: stuck");
    }
    t
}

/// Per-flow event sources of the three algorithms.
pub struct Sources {
    hpcc: Vec<hh::Path5>,
    ldcp: Vec<hl::Source>,
    dcqcn: Vec<hd::FlowGen>,
}

impl Sources {
    pub fn new(rng: &mut ChaCha8Rng) -> Sources {
        Sources {
            hpcc: (0..FLOWS).map(|_| hh::Path5::new(rng)).collect(),
            ldcp: (0..FLOWS).map(|_| hl::Source::new(rng)).collect(),
            dcqcn: (0..FLOWS).map(|_| hd::FlowGen::new(rng)).collect(),
        }
    }

    /// The next event of `flow` for its current algorithm `m.alg[flow]` (a used type; the
    /// sources' own re-initializations become creates of the same algorithm).
    pub fn event(&mut self, rng: &mut ChaCha8Rng, m: &Model, flow: u16) -> Event {
        let f = flow as usize;
        match m.alg[f] {
            HPCC | RX_HPCC => {
                let mut e = self.hpcc[f].event(rng, flow);
                e.rx = m.alg[f] == RX_HPCC;
                Event::from_hpcc(&e)
            }
            LDCP => Event::from_ldcp(&self.ldcp[f].event(rng, flow)),
            _ => Event::from_dcqcn(&self.dcqcn[f].event(rng, &m.dc, &m.ds[f], flow)),
        }
    }
}

/// Traffic shape of one run.
pub struct Shape {
    /// Flows that carry events (of the 1024).
    pub active: usize,
    /// Chance of an event on a cycle.
    pub load: f64,
    /// Chance that an active flow's first event is a create with a random algorithm (the
    /// others stay on algorithm 0 from reset).
    pub first_create: f64,
    /// Chance of a re-create with a random algorithm (often another one).
    pub recreate: f64,
    /// Chance of an event type the flow's algorithm does not use.
    pub unused: f64,
    /// Chance of a flow id >= 1024.
    pub bad_flow: f64,
    /// Chance that the next event repeats the previous flow (create-then-event included).
    pub burst: f64,
    /// Chance that `m_axis_update_tready` is low on a cycle.
    pub stall_update: f64,
    /// Chance that `m_axis_feedback_tready` is low on a cycle.
    pub stall_feedback: f64,
}

impl Shape {
    /// Many flows, random algorithms and re-creates, unused types, bad flows, random gaps and
    /// backpressure on both outputs.
    pub const RANDOM: Shape = Shape {
        active: 700,
        load: 0.85,
        first_create: 0.9,
        recreate: 0.01,
        unused: 0.03,
        bad_flow: 0.003,
        burst: 0.05,
        stall_update: 0.15,
        stall_feedback: 0.3,
    };
    /// Every flow, an event offered every cycle, only used types, no backpressure: the
    /// throughput case.
    pub const SATURATED: Shape = Shape {
        active: FLOWS,
        load: 1.0,
        first_create: 1.0,
        recreate: 0.0,
        unused: 0.0,
        bad_flow: 0.0,
        burst: 0.0,
        stall_update: 0.0,
        stall_feedback: 0.0,
    };
}

/// The next event of an active flow: its first (a create with chance `first_create`), a
/// re-create, an event type its algorithm does not use, or its source's next event.
fn next_event(
    rng: &mut ChaCha8Rng,
    shape: &Shape,
    src: &mut Sources,
    m: &Model,
    created: &mut [bool],
    flow: u16,
) -> Event {
    let f = flow as usize;
    if !created[f] {
        created[f] = true;
        if rng.gen_bool(shape.first_create) {
            Event::create(flow, rng.gen_range(0..4))
        } else {
            src.event(rng, m, flow)
        }
    } else if rng.gen_bool(shape.recreate) {
        Event::create(flow, rng.gen_range(0..4))
    } else if rng.gen_bool(shape.unused) {
        let used = used_types(m.alg[f]);
        let mut e = src.event(rng, m, flow);
        e.ty = loop {
            let t = if rng.gen_bool(0.8) { rng.gen_range(0..6) } else { rng.gen_range(7..16) };
            if !used.contains(&t) {
                break t;
            }
        };
        e
    } else {
        src.event(rng, m, flow)
    }
}

/// Runs `cycles` cycles of random unified events; compares every Update and feedback.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cm = CcModuleCycle::new(default_model());
    let mut src = Sources::new(&mut rng);
    let mut dut = open(&cm.model, vcd);
    // The cycle model from the same reset: `open` gave the RTL one cycle of it.
    let idle = Inputs { reset: false, event: None, update_ready: true, feedback_ready: true };
    cm.step(&Inputs { reset: true, ..idle });
    let mut init_wait = 0u64;
    loop {
        dut.eval();
        let ready = dut.s_axis_event_tready() == 1;
        if cm.outputs(&idle).event_ready != ready {
            o.fail(format!("cycle {init_wait} of the initialization: s_axis_event_tready {ready}, the cycle model's {}", !ready));
            break;
        }
        if ready {
            break;
        }
        dut.tick();
        cm.step(&idle);
        init_wait += 1;
    }
    let mut ids: Vec<u16> = (0..FLOWS as u16).collect();
    rand::seq::SliceRandom::shuffle(&mut ids[..], &mut rng);
    ids.truncate(shape.active);
    let mut created = vec![false; FLOWS];
    let mut b = Board::default();
    let mut events: Source<CcModule, Event> = Source::new(CcModule::S_AXIS_EVENT);
    let mut update = Sink::new(CcModule::M_AXIS_UPDATE, shape.stall_update);
    let mut feedback = Sink::new(CcModule::M_AXIS_FEEDBACK, shape.stall_feedback);
    let (mut accepted, mut bad, mut unused, mut nothing) = (0u64, 0u64, 0u64, 0u64);
    let (mut creates, mut switches, mut raw) = (0u64, 0u64, 0u64);
    let mut per_alg = [0u64; 4];
    let mut last_flow = ids[0];
    let mut cycle = 0u64;
    while cycle < cycles || b.pending > 0 {
        if cycle > cycles + 20_000 {
            o.fail(format!("{} outputs never came out", b.pending));
            break;
        }
        if cycle < cycles {
            events.refill(&mut rng, shape.load, |rng: &mut ChaCha8Rng| {
                let flow =
                    if rng.gen_bool(shape.burst) { last_flow } else { ids[rng.gen_range(0..ids.len())] };
                let mut e = next_event(rng, shape, &mut src, &cm.model, &mut created, flow);
                if rng.gen_bool(shape.bad_flow) {
                    e.flow = rng.gen_range(FLOWS as u16..=u16::MAX);
                }
                last_flow = flow;
                e
            });
        }
        update.ready(&mut dut, &mut rng);
        feedback.ready(&mut dut, &mut rng);
        events.offer(&mut dut, &mut rng);
        dut.eval();
        // The cycle model on the same inputs: every port equal on every cycle.
        let offered = events.front().filter(|_| events.on_port()).cloned();
        let alg_before = offered.as_ref().and_then(|e| cm.model.alg.get(e.flow as usize).copied());
        let inputs = Inputs {
            reset: false,
            event: offered.as_ref(),
            update_ready: update.is_ready(),
            feedback_ready: feedback.is_ready(),
        };
        let want = cm.step(&inputs);
        let got = Outputs {
            event_ready: dut.s_axis_event_tready() == 1,
            update: update.peek(&dut).map(Update::from_words),
            feedback: feedback.peek(&dut).map(|w| Feedback::from_bits(low_u64(w))),
        };
        if got != want {
            o.fail(format!("cycle {cycle}: RTL {got:?}, cycle model {want:?}"));
            break;
        }
        if let Some(e) = events.taken(&dut) {
            accepted += 1;
            if e.ty == CREATE && (e.flow as usize) < FLOWS {
                creates += 1;
                switches += (alg_before != Some(e.alg)) as u64;
            }
            let out = cm.taken.expect("the cycle model took the event the RTL took");
            match out {
                Out::BadFlow => bad += 1,
                Out::Unused => unused += 1,
                Out::Nothing => nothing += 1,
                _ => {}
            }
            if (e.flow as usize) < FLOWS && out != Out::Unused {
                per_alg[cm.model.alg[e.flow as usize] as usize] += 1;
            }
            b.expect(out);
        }
        if let Some(w) = update.take(&dut) {
            b.got_update(&mut o, cycle, Update::from_words(w));
        }
        if let Some(w) = feedback.take(&dut) {
            b.got_feedback(&mut o, cycle, Feedback::from_bits(low_u64(w)));
        }
        dut.tick();
        cycle += 1;
        raw += 1;
    }
    // A few idle cycles: nothing more may come out.
    events.stop(&mut dut);
    update.set_ready(&mut dut, true);
    feedback.set_ready(&mut dut, true);
    for _ in 0..200 {
        dut.eval();
        if update.valid(&dut) || feedback.valid(&dut) {
            o.fail("an output came out after every expected one".into());
            break;
        }
        dut.tick();
    }
    if dut.stat_unused() as u64 != unused {
        o.fail(format!("stat_unused {} != {unused} unused events", dut.stat_unused()));
    }
    if dut.stat_bad_flow() as u64 != bad {
        o.fail(format!("stat_bad_flow {} != {bad} bad flow ids", dut.stat_bad_flow()));
    }
    if b.unexpected > 0 {
        o.fail(format!("{} outputs with nothing expected for their flow", b.unexpected));
    }
    o.transactions = accepted;
    o.cycles = raw + init_wait;
    o.metric("events_per_cycle", accepted as f64 / cycles.max(1) as f64);
    o.metric("updates", update.beats as f64);
    o.metric("feedbacks", feedback.beats as f64);
    o.metric("rx_no_feedback", nothing as f64);
    o.metric("unused", unused as f64);
    o.metric("bad_flow", bad as f64);
    o.metric("creates", creates as f64);
    o.metric("algorithm_switches", switches as f64);
    o.metric("ambiguous_matches", b.ambiguous as f64);
    for (name, n) in ["events_hpcc", "events_rx_hpcc", "events_ldcp", "events_dcqcn"].iter().zip(per_alg) {
        o.metric(name, n as f64);
    }
    o.seconds = start.elapsed().as_secs_f64();
    o
}
