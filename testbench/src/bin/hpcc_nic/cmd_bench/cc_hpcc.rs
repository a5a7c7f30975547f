//! `hpcc-nic bench --module cc_hpcc`: how fast the CC module's HPCC++ datapath simulates.
//! Events round-robin over the 1024 flows (so the input takes one per clock), offered every
//! cycle: Verilator alone, the golden model alone, and both in lockstep as `regress` runs them.

use std::time::Instant;
use testbench::harness::cc_hpcc::{config, open, round_robin_events, Event, Result as RtlResult};
use testbench::harness::stream::{Beat, Sink, Source};
use testbench::verilated::{CcHpcc, MAxis, Model, SAxis};

/// Rates of one run: (cycles/s, events/s).
pub struct Rates {
    pub rtl: (f64, f64),
    pub model: f64,
    pub lockstep: (f64, f64),
    pub events: usize,
}

fn drive(events: &[Event], model: bool) -> (f64, u64, u64) {
    let c = config();
    let mut states = vec![sim::cc_hpcc::HpccState::new(&c); 1024];
    let mut dut = open(&c, None);
    for _ in 0..1024 {
        dut.tick();
    }
    let mut check = 0u64;
    let (secs, cycles) = stream_events(
        &mut dut,
        (CcHpcc::S_AXIS_EVENT, CcHpcc::M_AXIS_RESULT),
        events,
        |e| {
            if model {
                RtlResult::model(&c, &mut states[e.flow as usize], e);
            }
        },
        |w| check = check.wrapping_mul(31).wrapping_add(w[1] as u64),
    );
    (secs, cycles, check)
}

/// The benches' loop: `events` offered back to back (each held until taken) on a CC engine's
/// input, results always read. `on_take` sees each event as it is taken (the model, in
/// lockstep), `on_result` each result's tdata. Returns (seconds, cycles) until the last result.
pub fn stream_events<M: Model, E: Beat + Clone>(
    dut: &mut M,
    (input, output): (SAxis<M>, MAxis<M>),
    events: &[E],
    mut on_take: impl FnMut(&E),
    mut on_result: impl FnMut(&[u32]),
) -> (f64, u64) {
    let start = Instant::now();
    let mut src: Source<M, E> = Source::new(input);
    let mut sink = Sink::new(output, 0.0);
    sink.set_ready(dut, true);
    let (mut cycles, mut results, mut next) = (0u64, 0usize, 0usize);
    while results < events.len() {
        if src.is_empty() && next < events.len() {
            src.push(events[next].clone());
            next += 1;
        }
        src.offer_now(dut);
        dut.eval();
        if let Some(e) = src.taken(dut) {
            on_take(&e);
        }
        if let Some(w) = sink.take(dut) {
            results += 1;
            on_result(w);
        }
        dut.tick();
        cycles += 1;
    }
    (start.elapsed().as_secs_f64(), cycles)
}

pub fn run(events: usize) -> Rates {
    let ev = round_robin_events(0xbe7c_0002, events);
    let (t_rtl, cycles, _) = drive(&ev, false);
    let c = config();
    let mut states = vec![sim::cc_hpcc::HpccState::new(&c); 1024];
    let start = Instant::now();
    for e in &ev {
        RtlResult::model(&c, &mut states[e.flow as usize], e);
    }
    let t_model = start.elapsed().as_secs_f64();
    let (t_ls, cycles_ls, _) = drive(&ev, true);
    Rates {
        rtl: (cycles as f64 / t_rtl, events as f64 / t_rtl),
        model: events as f64 / t_model,
        lockstep: (cycles_ls as f64 / t_ls, events as f64 / t_ls),
        events,
    }
}
