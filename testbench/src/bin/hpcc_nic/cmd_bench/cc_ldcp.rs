//! `hpcc-nic bench --module cc_ldcp`: how fast the CC module's LDCP datapath simulates. Events
//! round-robin over the 1024 flows (more than HAZARD apart, so the input takes one per clock),
//! offered every cycle: Verilator alone, the golden model alone, and both in lockstep.

use super::cc_hpcc::Rates;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::cc_ldcp::LdcpState;
use super::cc_hpcc::stream_events;
use std::time::Instant;
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
    let on_take = |e: &Event| {
        if model {
            std::hint::black_box(RtlResult::model(&c, &mut states[e.flow as usize], e));
        }
    };
    stream_events(&mut dut, (CcLdcp::S_AXIS_EVENT, CcLdcp::M_AXIS_RESULT), events, on_take, |_| {})
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
