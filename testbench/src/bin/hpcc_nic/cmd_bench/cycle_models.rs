//! `hpcc-nic bench --module cycle_models`: how fast the cycle models of issue 15's model NIC
//! simulate against the Verilated RTL of the same block, on the same inputs. cc_module: 1024
//! flows created with the four algorithms in turn, then their own algorithms' events (the
//! module-random sources) round robin, offered back to back, outputs always ready. tx_pipe:
//! random descriptors of every opcode (tx-random's) with their payloads, offered back to back,
//! output always ready. The RTL alone and the cycle model alone each run until every output is
//! out; both must give the same cycle count and the same checksum of their outputs (with the
//! cycle of each), or the command fails. Results: docs/benchmarks.md "Cycle models".

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_module::cycle::{CcModule as Cycle, Inputs};
use sim::cc_module::{Event, Out};
use sim::rx_pipe::{beats, Beat};
use sim::tx_pipe::cycle::{Inputs as TxInputs, TxPipe as TxPipeCycle};
use sim::tx_pipe::TxDesc;
use testbench::harness::get_wide;
use testbench::harness::tx_pipe::random_desc;
use std::time::Instant;
use testbench::harness::cc_module::{default_model, open, wait_ready, Feedback, Sources, Update, FLOWS};
use testbench::harness::stream::{Sink, Source};
use testbench::verilated::{low_u64, models::CcModule as Rtl, models::TxPipe as TxPipeRtl};

/// One block's figures.
pub struct Rates {
    pub block: &'static str,
    pub events: usize,
    pub cycles: u64,
    pub rtl: f64,
    pub model: f64,
}

/// The events and how many outputs they give.
fn events(n: usize) -> (Vec<Event>, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(0xbe7c_0003);
    let mut m = default_model();
    let mut src = Sources::new(&mut rng);
    let mut ev: Vec<Event> = (0..FLOWS as u16).map(|f| Event::create(f, (f % 4) as u8)).collect();
    // The sources read the flow's algorithm and DCQCN state from the model as it goes.
    let mut outs = ev.iter().filter(|e| matches!(m.apply(e), Out::Update(..) | Out::Feedback(_))).count();
    for k in 0..n {
        let e = src.event(&mut rng, &m, (k % FLOWS) as u16);
        outs += matches!(m.apply(&e), Out::Update(..) | Out::Feedback(_)) as usize;
        ev.push(e);
    }
    (ev, outs)
}

fn mix(check: u64, cycle: u64, v: u64) -> u64 {
    check.wrapping_mul(0x100_0000_01b3).wrapping_add(cycle ^ v.rotate_left(17))
}

fn update_key(u: &Update) -> u64 {
    (u.flow as u64) << 48 ^ (u.window as u64) << 16 ^ u.rate as u64
}

fn feedback_key(f: &Feedback) -> u64 {
    1 << 63 | (f.flow as u64) << 32 | f.w as u64
}

/// The RTL alone: (seconds, cycles, checksum).
fn rtl(ev: &[Event], outs: usize) -> (f64, u64, u64) {
    let mut dut = open(&default_model(), None);
    wait_ready(&mut dut);
    let start = Instant::now();
    let mut src: Source<Rtl, Event> = Source::new(Rtl::S_AXIS_EVENT);
    let (mut upd, mut fb) = (Sink::new(Rtl::M_AXIS_UPDATE, 0.0), Sink::new(Rtl::M_AXIS_FEEDBACK, 0.0));
    upd.set_ready(&mut dut, true);
    fb.set_ready(&mut dut, true);
    let (mut next, mut seen, mut cycle, mut check) = (0usize, 0usize, 0u64, 0u64);
    while seen < outs {
        if src.is_empty() && next < ev.len() {
            src.push(ev[next].clone());
            next += 1;
        }
        src.offer_now(&mut dut);
        dut.eval();
        src.taken(&dut);
        if let Some(w) = upd.take(&dut) {
            check = mix(check, cycle, update_key(&Update::from_words(w)));
            seen += 1;
        }
        if let Some(w) = fb.take(&dut) {
            check = mix(check, cycle, feedback_key(&Feedback::from_bits(low_u64(w))));
            seen += 1;
        }
        dut.tick();
        cycle += 1;
    }
    (start.elapsed().as_secs_f64(), cycle, check)
}

/// The cycle model alone, the same loop.
fn model(ev: &[Event], outs: usize) -> (f64, u64, u64) {
    let mut cm = Cycle::new(default_model());
    let idle = Inputs { reset: false, event: None, update_ready: true, feedback_ready: true };
    cm.step(&Inputs { reset: true, ..idle });
    while !cm.outputs(&idle).event_ready {
        cm.step(&idle);
    }
    let start = Instant::now();
    let (mut next, mut seen, mut cycle, mut check) = (0usize, 0usize, 0u64, 0u64);
    while seen < outs {
        let o = cm.step(&Inputs { event: ev.get(next), ..idle });
        next += (o.event_ready && next < ev.len()) as usize;
        if let Some(u) = o.update {
            check = mix(check, cycle, update_key(&u));
            seen += 1;
        }
        if let Some(f) = o.feedback {
            check = mix(check, cycle, feedback_key(&f));
            seen += 1;
        }
        cycle += 1;
    }
    (start.elapsed().as_secs_f64(), cycle, check)
}

/// tx_pipe's inputs: descriptors and each one's payload beats.
fn frames(n: usize) -> Vec<(TxDesc, Vec<Beat>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(0xbe7c_0004);
    (0..n)
        .map(|_| {
            let d = random_desc(&mut rng);
            let len = d.effective_payload_len();
            let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            (d, if len == 0 { vec![] } else { beats(&bytes) })
        })
        .collect()
}

fn beat_key(keep: u64, last: bool, user: bool, data: &[u8]) -> u64 {
    keep ^ (last as u64) << 1 ^ (user as u64) << 2 ^ data.iter().take(8).fold(0, |a, &b| a << 8 | b as u64)
}

/// tx_pipe's RTL alone.
fn tx_rtl(fr: &[(TxDesc, Vec<Beat>)]) -> (f64, u64, u64) {
    let mut dut = TxPipeRtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let start = Instant::now();
    let mut descs: Source<TxPipeRtl, [u8; 128]> = Source::new(TxPipeRtl::S_AXIS_DESC);
    let mut pay: Source<TxPipeRtl, Beat> = Source::new(TxPipeRtl::S_AXIS_PAYLOAD);
    fr.iter().for_each(|(d, b)| {
        descs.push(d.to_bytes());
        b.iter().for_each(|x| pay.push(x.clone()));
    });
    let mut out = Sink::new(TxPipeRtl::M_AXIS, 0.0);
    out.set_ready(&mut dut, true);
    let (mut left, mut cycle, mut check) = (fr.len(), 0u64, 0u64);
    while left > 0 {
        descs.offer_now(&mut dut);
        pay.offer_now(&mut dut);
        dut.eval();
        descs.taken(&dut);
        pay.taken(&dut);
        if let Some(d) = out.take(&dut).map(get_wide) {
            let (keep, last, user) = (out.keep, out.last, out.user == 1);
            let n = keep.count_ones() as usize;
            check = mix(check, cycle, beat_key(keep, last, user, &d[..n.min(8)]));
            left -= last as usize;
        }
        dut.tick();
        cycle += 1;
    }
    (start.elapsed().as_secs_f64(), cycle, check)
}

/// tx_pipe's cycle model alone, the same loop.
fn tx_model(fr: &[(TxDesc, Vec<Beat>)]) -> (f64, u64, u64) {
    let mut cm = TxPipeCycle::new();
    cm.step(&TxInputs { reset: true, ..TxInputs::default() });
    let start = Instant::now();
    let pay: Vec<&Beat> = fr.iter().flat_map(|(_, b)| b.iter()).collect();
    let (mut nd, mut np, mut left, mut cycle, mut check) = (0usize, 0usize, fr.len(), 0u64, 0u64);
    while left > 0 {
        let o = cm.step(&TxInputs { reset: false, desc: fr.get(nd).map(|x| &x.0), payload: pay.get(np).copied(), ready: true });
        nd += (o.desc_ready && nd < fr.len()) as usize;
        np += (o.payload_ready && np < pay.len()) as usize;
        if let Some(b) = o.beat {
            let n = b.keep.count_ones() as usize;
            check = mix(check, cycle, beat_key(b.keep, b.last, b.user, &b.data[..n.min(8)]));
            left -= b.last as usize;
        }
        cycle += 1;
    }
    (start.elapsed().as_secs_f64(), cycle, check)
}

/// tx_pipe with `n` frames, best of `repeat` runs each.
pub fn run_tx_pipe(n: usize, repeat: u32) -> Result<Rates, String> {
    let fr = frames(n);
    let (tr, cr, kr) = best(repeat, &|| tx_rtl(&fr));
    let (tm, cmc, km) = best(repeat, &|| tx_model(&fr));
    if (cr, kr) != (cmc, km) {
        return Err(format!("tx_pipe: the RTL took {cr} cycles (checksum {kr:x}), the cycle model {cmc} ({km:x})"));
    }
    Ok(Rates { block: "tx_pipe", events: n, cycles: cr, rtl: cr as f64 / tr, model: cr as f64 / tm })
}

fn best(repeat: u32, f: &dyn Fn() -> (f64, u64, u64)) -> (f64, u64, u64) {
    (0..repeat.max(1)).map(|_| f()).min_by(|a, b| a.0.total_cmp(&b.0)).unwrap()
}

/// cc_module with `n` events after the creates, best of `repeat` runs each.
pub fn run(n: usize, repeat: u32) -> Result<Rates, String> {
    let (ev, outs) = events(n);
    let (tr, cr, kr) = best(repeat, &|| rtl(&ev, outs));
    let (tm, cmc, km) = best(repeat, &|| model(&ev, outs));
    if (cr, kr) != (cmc, km) {
        return Err(format!("cc_module: the RTL took {cr} cycles (checksum {kr:x}), the cycle model {cmc} ({km:x})"));
    }
    Ok(Rates { block: "cc_module", events: ev.len(), cycles: cr, rtl: cr as f64 / tr, model: cr as f64 / tm })
}

pub fn print(rs: &[Rates], markdown: bool) {
    for r in rs {
        println!("{}: {} inputs, {} cycles, the same outputs on the same cycles", r.block, r.events, r.cycles);
        println!("  verilator alone   {:>12.0} cycles/s", r.rtl);
        println!("  cycle model alone {:>12.0} cycles/s ({:.1}x)", r.model, r.model / r.rtl);
    }
    if markdown {
        println!("\n| block | inputs | cycles | Verilator cycles/s | cycle model cycles/s | ratio |");
        println!("|---|---:|---:|---:|---:|---:|");
        for r in rs {
            println!("| {} | {} | {} | {:.0} | {:.0} | {:.1} |", r.block, r.events, r.cycles, r.rtl, r.model, r.model / r.rtl);
        }
    }
}
