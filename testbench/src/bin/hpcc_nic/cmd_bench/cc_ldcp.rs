//! `hpcc-nic bench --module cc_ldcp`: how fast the CC module's LDCP datapath simulates. Events
//! round-robin over the 1024 flows (more than HAZARD apart, so the input takes one per clock),
//! offered every cycle: Verilator alone, the golden model alone, and both in lockstep.

use super::cc_hpcc::Rates;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::cc_ldcp::LdcpState;
use rand::rngs::mock::StepRng;
use std::time::Instant;
use testbench::harness::stream;
use testbench::verilated::CcLdcp;
use testbench::harness::cc_ldcp::{config, open, Event, Result as RtlResult, Source, FLOWS};

fn events(seed: u64, n: usize) -> Vec<Event> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut src: Vec<Source> = (0..FLOWS).map(|_| Source::new(&mut rng)).collect();
    (0..n).map(|k| src[k % FLOWS].event(&mut rng, (k % FLOWS) as u16)).collect()
}

fn drive(events: &[Event], model: bool) -> (f64, u64) {
    let c = config(0);
    let mut states = vec![LdcpState::new(&c); FLOWS];
    let mut dut = open(&c, None);
    for _ in 0..FLOWS {
        dut.tick();
    }
    let start = Instant::now();
    let mut src: stream::Source<CcLdcp, Event> = stream::Source::new(CcLdcp::S_AXIS_EVENT);
    let mut sink = stream::Sink::new(CcLdcp::M_AXIS_RESULT, 0.0);
    sink.set_ready(&mut dut, true);
    let mut rng = StepRng::new(0, 0);
    let (mut cycles, mut results, mut next) = (0u64, 0u64, 0usize);
    while results < events.len() as u64 {
        if src.is_empty() && next < events.len() {
            src.push(events[next].clone());
            next += 1;
        }
        src.offer(&mut dut, &mut rng);
        dut.eval();
        if let Some(e) = src.taken(&dut) {
            if model {
                let want = RtlResult::model(&c, &mut states[e.flow as usize], &e);
                std::hint::black_box(want);
            }
        }
        results += sink.take(&dut).is_some() as u64;
        dut.tick();
        cycles += 1;
    }
    (start.elapsed().as_secs_f64(), cycles)
}

pub fn run(n: usize) -> Rates {
    let ev = events(0xbe7c_0003, n);
    let (t_rtl, cycles) = drive(&ev, false);
    let c = config(0);
    let mut states = vec![LdcpState::new(&c); FLOWS];
    let start = Instant::now();
    for e in &ev {
        std::hint::black_box(RtlResult::model(&c, &mut states[e.flow as usize], e));
    }
    let t_model = start.elapsed().as_secs_f64();
    let (t_ls, cycles_ls) = drive(&ev, true);
    Rates {
        rtl: (cycles as f64 / t_rtl, n as f64 / t_rtl),
        model: n as f64 / t_model,
        lockstep: (cycles_ls as f64 / t_ls, n as f64 / t_ls),
        events: n,
    }
}
