//! `hpcc-nic bench --module cc_hpcc`: how fast the CC module's HPCC++ datapath simulates.
//! Events round-robin over the 1024 flows (so the input takes one per clock), offered every
//! cycle: Verilator alone, the golden model alone, and both in lockstep as `regress` runs them.

use std::time::Instant;
use rand::rngs::mock::StepRng;
use testbench::harness::cc_hpcc::{config, open, round_robin_events, Event, Result as RtlResult};
use testbench::harness::stream::{Sink, Source};
use testbench::verilated::CcHpcc;

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
    let start = Instant::now();
    let mut src: Source<CcHpcc, Event> = Source::new(CcHpcc::S_AXIS_EVENT);
    let mut sink = Sink::new(CcHpcc::M_AXIS_RESULT, 0.0);
    sink.set_ready(&mut dut, true);
    let mut rng = StepRng::new(0, 0);
    let (mut cycles, mut results, mut next) = (0u64, 0u64, 0usize);
    let mut check = 0u64;
    while results < events.len() as u64 {
        if src.is_empty() && next < events.len() {
            src.push(events[next].clone());
            next += 1;
        }
        src.offer(&mut dut, &mut rng);
        dut.eval();
        if let Some(e) = src.taken(&dut) {
            if model {
                RtlResult::model(&c, &mut states[e.flow as usize], &e);
            }
        }
        if let Some(w) = sink.take(&dut) {
            results += 1;
            check = check.wrapping_mul(31).wrapping_add(w[1] as u64);
        }
        dut.tick();
        cycles += 1;
    }
    (start.elapsed().as_secs_f64(), cycles, check)
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
