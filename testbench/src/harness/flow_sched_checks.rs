//! Directed flow_sched scenarios with a figure to meet: pacing accuracy with 1024 flows, line
//! rate for one flow, and the window never exceeded. All run RTL and model in lockstep, so the
//! figures are measured on the Verilated RTL and the comparison still covers every cycle.

use super::flow_sched::{Lockstep, Profile, Traffic, FLOW_BITS};
use super::{Outcome, Scenario};
use rand::{Rng, SeedableRng};
use std::path::Path;
use std::time::Instant;

/// 100 Gb/s at 250 MHz, in bytes per cycle.
pub const LINE_BYTES_PER_CYCLE: f64 = 100e9 / 8.0 / 250e6;
/// 64-byte frames at 100 Gb/s occupy 84 bytes of wire each (preamble and gap): PktSends/cycle.
pub const MIN_FRAME_PKTS_PER_CYCLE: f64 = 100e9 / (84.0 * 8.0) / 250e6;
/// Pacing error allowed per flow over the measured interval.
pub const PACING_TOLERANCE: f64 = 0.01;
/// Share of the link the 1024 flows are given in the pacing scenario.
pub const PACING_LOAD: f64 = 0.95;

fn quiet(pkt_shift: u8, max_burst: u16) -> Profile {
    Profile {
        flow_ids: 1 << FLOW_BITS,
        initial_flows: 0,
        p_create: 0.0,
        p_remove: 0.0,
        p_update: 0.0,
        p_notify: 0.5,
        p_sleep: 0.0,
        p_ready: 1.0,
        rate: (0, 0),
        window: (0, 0),
        windows_only_grow: false,
        pkt_shift,
        max_burst,
        over_ack: false,
        per_flow_shift: false,
    }
}

/// Runs `warmup` cycles, then `measure` cycles, returning PktSends per flow in the second part.
fn measure(t: &mut Traffic, ls: &mut Lockstep, warmup: u64, measure: u64) -> Vec<u64> {
    t.reset(ls);
    for _ in 0..warmup {
        t.step(ls);
    }
    let before = t.sends.clone();
    for _ in 0..measure {
        t.step(ls);
    }
    t.sends.iter().zip(before).map(|(a, b)| a - b).collect()
}

/// 1024 flows with random rates (0.5x to 1.5x the fair share) summing to 95% of 100 Gb/s,
/// 64-byte packets; every flow's PktSend rate must be within 1% of its configured rate.
pub fn pacing(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let flows = 1usize << FLOW_BITS;
    let pkt_shift = 6;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let weights: Vec<f64> = (0..flows).map(|_| rng.gen_range(0.5..1.5)).collect();
    let total: f64 = weights.iter().sum();
    let rates: Vec<u32> = weights
        .iter()
        .map(|w| (w / total * PACING_LOAD * LINE_BYTES_PER_CYCLE * 65536.0) as u32)
        .collect();
    let mut t = Traffic::new(seed, Profile { initial_flows: flows as u16, ..quiet(pkt_shift, 64) });
    t.set_initial(|f| (rates[f as usize], 1 << 30));
    let mut ls = Lockstep::new(vcd);
    let warmup = (cycles / 10).max(20_000);
    let sends = measure(&mut t, &mut ls, warmup, cycles);
    let mut out = Outcome::new(Scenario::FlowSchedPacing, seed);
    let errors: Vec<f64> = rates
        .iter()
        .zip(&sends)
        .map(|(&r, &n)| {
            let want = r as f64 / 65536.0 * cycles as f64 / (1u64 << pkt_shift) as f64;
            (n as f64 - want) / want
        })
        .collect();
    let max = errors.iter().fold(0.0f64, |m, e| m.max(e.abs()));
    let mean = errors.iter().map(|e| e.abs()).sum::<f64>() / errors.len() as f64;
    let sent: u64 = sends.iter().sum();
    out.metric("flows", flows as f64);
    out.metric("max_err_pct", max * 100.0);
    out.metric("mean_err_pct", mean * 100.0);
    out.metric("pkts_per_cycle", sent as f64 / cycles as f64);
    out.metric("min_pkts_per_flow", *sends.iter().min().unwrap() as f64);
    if max > PACING_TOLERANCE {
        out.fail(format!("pacing error {:.3}% > {}%", max * 100.0, PACING_TOLERANCE * 100.0));
    }
    out.finish(&t, &ls, start)
}

/// One flow configured at 100 Gb/s with 64-byte frames (0.595 PktSend/cycle), then one flow at
/// one packet per cycle, then 16 flows sharing one packet per cycle: achieved rates measured.
pub fn line_rate(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut out = Outcome::new(Scenario::FlowSchedLineRate, seed);
    let cases: [(&str, u16, f64); 3] = [
        ("one_flow_100g_64b", 1, MIN_FRAME_PKTS_PER_CYCLE),
        ("one_flow_1pkt", 1, 1.0),
        ("16_flows_1pkt", 16, 1.0),
    ];
    let mut last = None;
    for (name, flows, pkts_per_cycle) in cases {
        let pkt_shift = 6;
        let rate = (pkts_per_cycle / flows as f64 * 64.0 * 65536.0).round() as u32;
        let mut t = Traffic::new(seed, Profile { initial_flows: flows, ..quiet(pkt_shift, 16) });
        t.set_initial(|_| (rate, 1 << 30));
        let mut ls = Lockstep::new(vcd.filter(|_| last.is_none()));
        let n = cycles / 3;
        let sends = measure(&mut t, &mut ls, 2_000, n);
        let got = sends.iter().sum::<u64>() as f64 / n as f64;
        let want = rate as f64 * flows as f64 / 65536.0 / 64.0;
        out.metric(&format!("{name}_pkts_per_cycle"), got);
        if (got - want).abs() / want > 0.001 {
            out.fail(format!("{name}: {got:.4} PktSend/cycle, configured {want:.4}"));
        }
        out.cycles += t.cycles;
        out.transactions += t.transactions;
        out.mismatches += ls.mismatches;
        if out.first_mismatch.is_none() {
            out.first_mismatch = ls.first.clone();
        }
        last = Some(());
    }
    out.seconds = start.elapsed().as_secs_f64();
    out
}

/// 64 flows with windows of one to sixteen packets that updates only raise, random acks and
/// backpressure: at no cycle may a flow's emitted-but-unacknowledged bytes exceed its window.
pub fn window(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let flows = 64u16;
    let profile = Profile {
        initial_flows: flows,
        flow_ids: flows,
        p_update: 0.05,
        p_notify: 0.2,
        p_sleep: 0.02,
        p_ready: 0.7,
        rate: (1 << 16, 40 << 16),
        window: (1 << 10, 16 << 10),
        windows_only_grow: true,
        ..quiet(10, 16)
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x77);
    let init: Vec<(u32, u32)> =
        (0..flows).map(|_| (rng.gen_range(1 << 16..40 << 16), rng.gen_range(1 << 10..16 << 10))).collect();
    let mut t = Traffic::new(seed, profile);
    t.set_initial(|f| init[f as usize]);
    let mut ls = Lockstep::new(vcd);
    let sends = measure(&mut t, &mut ls, 0, cycles);
    let mut out = Outcome::new(Scenario::FlowSchedWindow, seed);
    let full = ls.model.grants.iter().filter(|g| g.inflight as u64 + 1024 > g.window as u64).count();
    out.metric("pktsends", sends.iter().sum::<u64>() as f64);
    out.metric("grants_filling_window", full as f64);
    out.metric("window_violations", t.window_violations as f64);
    if t.window_violations > 0 {
        out.fail(format!("{} PktSends beyond the window", t.window_violations));
    }
    if full == 0 {
        out.fail("no grant ever filled a window: the scenario does not exercise the limit".into());
    }
    out.finish(&t, &ls, start)
}
