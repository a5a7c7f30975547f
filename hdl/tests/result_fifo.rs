//! result_fifo in rust-hdl's own simulator against a queue: on every cycle `m_axis_tvalid`,
//! `m_axis_tdata` (the head, or 0 while empty) and `credit` must be what a FIFO with a
//! combinational read shows. The block RAM's registered read is hidden by reading one cycle
//! ahead and by a bypass for a word read in the cycle after it is written; the stimulus runs
//! the FIFO empty, nearly empty, full of credit and reset, so both paths are taken.

use hdl::result_fifo::ResultFifo;
use rand::{Rng, SeedableRng};
use rust_hdl::prelude::*;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

const W: usize = 40;
type Dut = ResultFifo<W>;

#[derive(Clone, Copy, Default)]
struct In {
    reset: bool,
    issue: bool,
    valid: bool,
    data: u64,
    ready: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Out {
    valid: bool,
    data: u64,
    credit: bool,
}

/// Random stimulus in blocks of 400 cycles with their own rates, and what a queue shows; the
/// stimulus keeps the datapath's rule (a result arrives only for an event issued with credit).
fn stimulus(seed: u64, cycles: usize) -> (Vec<In>, Vec<Out>, usize) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut q, mut owed, mut pending) = (VecDeque::new(), 0usize, 0usize);
    let (mut ins, mut outs, mut into_empty) = (vec![], vec![], 0);
    let (mut p_issue, mut p_ready) = (0.5, 0.5);
    for c in 0..cycles {
        if c % 400 == 0 {
            p_issue = rng.gen_range(0.05..1.0);
            p_ready = [0.0, 0.05, 0.5, 0.9, 1.0][rng.gen_range(0..5)];
        }
        let out = Out { valid: !q.is_empty(), data: q.front().copied().unwrap_or(0), credit: owed < 128 };
        let i = In {
            reset: c == 0 || rng.gen_bool(0.001),
            issue: out.credit && rng.gen_bool(p_issue),
            valid: pending > 0 && rng.gen_bool(0.7),
            data: rng.gen::<u64>() & ((1 << W) - 1),
            ready: rng.gen_bool(p_ready),
        };
        let pop = out.valid && i.ready;
        if i.valid && (q.is_empty() || (q.len() == 1 && pop)) {
            into_empty += 1;
        }
        if pop {
            q.pop_front();
            owed -= 1;
        }
        if i.valid {
            q.push_back(i.data);
            pending -= 1;
        }
        if i.issue {
            owed += 1;
            pending += 1;
        }
        if i.reset {
            q.clear();
            (owed, pending) = (0, 0);
        }
        ins.push(i);
        outs.push(out);
    }
    (ins, outs, into_empty)
}

fn run_rust_hdl(stim: Vec<In>) -> Vec<Out> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = seen.clone();
    let cycles = stim.len();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Dut>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Dut>| {
        let mut x = sim.init()?;
        for i in &stim {
            x.reset.next = i.reset;
            x.issue.next = i.issue;
            x.in_valid.next = i.valid;
            x.in_data.next = i.data.into();
            x.m_axis_tready.next = i.ready;
            out.lock().unwrap().push(Out {
                valid: x.m_axis_tvalid.val(),
                data: x.m_axis_tdata.val().to_u64(),
                credit: x.credit.val(),
            });
            wait_clock_cycle!(sim, clock, x);
        }
        sim.done(x)
    });
    sim.run(Box::new(Dut::default()), 10 * (cycles as u64 + 4)).unwrap();
    let v = seen.lock().unwrap().clone();
    v
}

#[test]
fn head_is_the_queue_head_on_every_cycle() {
    for seed in [0x0f1f_0001u64, 0x0f1f_0002] {
        let (stim, want, into_empty) = stimulus(seed, 12_000);
        let pops = stim.iter().zip(&want).filter(|(i, o)| i.ready && o.valid).count();
        let full = want.iter().filter(|o| !o.credit).count();
        assert!(into_empty > 500 && pops > 3000 && full > 100, "stimulus too weak: {into_empty} {pops} {full}");
        let got = run_rust_hdl(stim);
        // The first cycle is before reset: the RTL's state is its initial value, not the model's.
        for (c, (g, w)) in got.iter().zip(&want).enumerate().skip(1) {
            assert_eq!(g, w, "seed {seed:#x}, cycle {c}");
        }
        assert_eq!(got.len(), want.len());
    }
}
