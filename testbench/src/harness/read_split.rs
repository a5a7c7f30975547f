//! read_split against its golden model (`sim::read_split::split`), word by word: random
//! PktRecv words of every kind (the rest of each word random too), kind 4 in rx_ctx's
//! whole-READ form with lengths from 0 to many packets at MTUs 2^0..2^15 and PSNs and
//! addresses near their wraps; random input gaps, random output backpressure and, in the
//! bad-input shape, resets at random cycles (after which what was in flight is forgotten on
//! both sides). Every word out is compared with the model's next one; at the end nothing may
//! be left expected.

use super::stream::{Sink, Source};
use super::{get_wide, hex, Outcome, Scenario};
use crate::verilated::models::ReadSplit as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::{Aeth, Syndrome};
use sim::read_split::{split, Word};
use sim::layout::PKT_RECV;
use sim::tx_ctx::{kind_of, ReadPos, ReadResp, Recv, RECV_READ};
use sim::read_split::cycle::{Inputs as CycleInputs, ReadSplit as ReadSplitCycle};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Probability that the input offers nothing on a cycle.
    pub gap: f64,
    /// Probability that the output's tready is high on a cycle.
    pub ready: f64,
    /// Probability of a one-cycle reset on a cycle.
    pub reset_rate: f64,
}

impl Shape {
    pub const RANDOM: Shape = Shape { gap: 0.3, ready: 0.8, reset_rate: 0.0 };
    pub const BAD_INPUT: Shape = Shape { reset_rate: 1e-3, ..Shape::RANDOM };
}

/// A random PktRecv word: 40% a whole READ to answer, the rest any kind with random bytes.
fn word(rng: &mut ChaCha8Rng) -> Word {
    let mut w = [0u8; 64];
    rng.fill(&mut w[..]);
    if rng.gen_bool(0.6) {
        // Any kind but READ's (its bit cleared: 0 to 3 only; CNPs and the dropped kinds pass
        // through the same path as these).
        PKT_RECV.kind.set_le(&mut w, (rng.gen_range(0..8u8) & !RECV_READ) as u64);
        return w;
    }
    let mtu_log = match rng.gen_range(0..10) {
        0 => rng.gen_range(0..16),
        _ => rng.gen_range(6..=12),
    };
    let mtu = 1u64 << mtu_log;
    let total = match rng.gen_range(0..10) {
        0 => rng.gen_range(0..=2),
        1..=3 => rng.gen_range(0..=mtu) as u32,
        4..=8 => rng.gen_range(mtu + 1..=mtu * 20).min(u32::MAX as u64) as u32,
        _ => (mtu * rng.gen_range(2..6)) as u32,
    };
    let near = |rng: &mut ChaCha8Rng, top: u64| if rng.gen_bool(0.3) { top - rng.gen_range(0..8) } else { rng.gen_range(0..=top) };
    let aeth = Aeth { syndrome: Syndrome::Ack { credits: rng.gen_range(0..32) }, msn: rng.gen_range(0..1 << 24) };
    let r = ReadResp {
        flow: rng.gen(),
        psn: near(rng, 0xFF_FFFF) as u32,
        aeth,
        va: near(rng, u64::MAX),
        len: rng.gen(),
        pos: ReadPos::from_bits(rng.gen()),
        total,
        mtu_log,
    };
    let mut k = Recv::ReadResp(r).to_bytes();
    // Bits the whole READ does not define carry junk, which must pass through.
    k[20..56].copy_from_slice(&w[20..56]);
    k[3] |= w[3] & !3;
    k
}

pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: Rtl = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mut src: Source<Rtl, Word> = Source::new(Rtl::S_AXIS);
    let mut sink = Sink::new(Rtl::M_AXIS, 1.0 - shape.ready);
    src.clear(&mut dut);
    sink.set_ready(&mut dut, false);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut cm = ReadSplitCycle::new();
    cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
    let mut want: VecDeque<Word> = VecDeque::new();
    let (mut out, mut reads, mut packets, mut resets) = (0u64, 0u64, 0u64, 0u64);
    let mut cycle = 0u64;
    while cycle < cycles || !want.is_empty() || !src.is_empty() {
        if cycle > cycles + 200_000 {
            o.fail(format!("{} words never came out", want.len()));
            break;
        }
        if shape.reset_rate > 0.0 && cycle < cycles && rng.gen_bool(shape.reset_rate) {
            dut.set_reset(1);
            src.clear(&mut dut);
            dut.tick();
            dut.set_reset(0);
            cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
            want.clear();
            resets += 1;
            cycle += 1;
            continue;
        }
        // A word is made when it goes on the port; it stays there until taken.
        if src.is_empty() && cycle < cycles && !rng.gen_bool(shape.gap) {
            src.push(word(&mut rng));
        }
        src.offer(&mut dut, &mut rng);
        sink.set_ready(&mut dut, rng.gen_bool(shape.ready));
        dut.eval();
        // The cycle model on the same inputs: both ports equal on every cycle.
        let want_now = cm.step(&CycleInputs { reset: false, word: src.front().filter(|_| src.on_port()), ready: sink.is_ready() });
        let got_now = (dut.s_axis_tready() == 1, sink.peek(&dut).map(get_wide));
        if got_now != (want_now.s_ready, want_now.word.map(|w| w.to_vec())) {
            o.fail(format!("cycle {cycle}: RTL {got_now:?}, cycle model {want_now:?}"));
            break;
        }
        if let Some(d) = sink.take(&dut) {
            out += 1;
            let got = get_wide(d);
            let exp = want.pop_front();
            o.check(cycle, hex(&got), exp.map_or_else(|| "nothing".into(), |w| hex(&w)));
        }
        if let Some(w) = src.taken(&dut) {
            let pieces = split(&w);
            if kind_of(&w) == RECV_READ {
                reads += 1;
                packets += pieces.len() as u64;
            }
            want.extend(pieces);
        }
        dut.tick();
        cycle += 1;
    }
    let taken = src.taken;
    o.transactions = taken;
    o.cycles = cycle;
    o.metric("words_in", taken as f64);
    o.metric("words_out", out as f64);
    o.metric("reads", reads as f64);
    o.metric("read_packets", packets as f64);
    o.metric("resets", resets as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}

pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::ReadSplitRandom, seed, cycles, &Shape::RANDOM, vcd)
}

pub fn bad_input(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::ReadSplitBadInput, seed, cycles, &Shape::BAD_INPUT, vcd)
}
