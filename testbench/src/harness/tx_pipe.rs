//! tx_pipe against its golden model (`sim::tx_pipe::tx_frame`), frame by frame: random
//! descriptors of every opcode with payloads of 0..4096 bytes, random gaps on both inputs and
//! random output backpressure; every emitted frame must be byte-identical to the model's, with
//! tkeep all ones but on the last beat (contiguous there), and tuser = the model's bad flag.

use super::stream::{Sink, Source};
use sim::rx_pipe::Beat;
use super::{get_wide, Outcome, Scenario};
use crate::verilated::models::TxPipe;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::*;
use sim::tx_pipe::cycle::{Inputs as CycleInputs, Outputs as CycleOutputs, TxPipe as TxPipeCycle};
use sim::tx_pipe::{tx_frame, TxDesc, TxFrame};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Probability that an input starts offering its next item on a cycle it is idle.
    pub desc_rate: f64,
    pub payload_rate: f64,
    /// Probability that `m_axis_tready` is high on a cycle.
    pub ready_rate: f64,
    /// Probability that a frame's payload stream is longer or shorter than its descriptor says.
    pub mismatch: f64,
    /// Fixed payload length and opcode (bench), or random.
    pub fixed: Option<(Opcode, u16, bool)>,
    /// Probability of a one-cycle reset on a cycle (frames in flight are lost; the next ones
    /// must be right).
    pub reset_rate: f64,
}

impl Shape {
    /// Regression: random gaps on both inputs and random backpressure.
    pub const RANDOM: Shape = Shape {
        desc_rate: 0.7,
        payload_rate: 0.8,
        ready_rate: 0.7,
        mismatch: 0.0,
        fixed: None,
        reset_rate: 0.0,
    };
    /// Bad input: 20% of the frames with a payload length mismatch, and a reset every 50,000
    /// cycles on average, wherever it falls.
    pub const BAD_INPUT: Shape = Shape { mismatch: 0.2, reset_rate: 2e-5, ..Shape::RANDOM };
}

pub fn hop(rng: &mut ChaCha8Rng) -> IntHop {
    IntHop {
        line_rate: LineRate::from_code(rng.gen_range(0..5)).unwrap(),
        ts: rng.gen_range(0..1 << 24),
        tx_bytes: rng.gen_range(0..1 << 20),
        qlen: rng.gen_range(0..1 << 17),
    }
}

/// A payload length: small (one or two beats, the 60-127 band), near beat boundaries, or up
/// to 4096.
pub fn payload_len(rng: &mut ChaCha8Rng) -> u16 {
    match rng.gen_range(0..10) {
        0..=2 => rng.gen_range(0..=130),
        3 => rng.gen_range(60..=127),
        4 => (64 * rng.gen_range(1..=64u16)).saturating_sub(rng.gen_range(0..8)).min(4096),
        5..=6 => rng.gen_range(131..=1500),
        _ => rng.gen_range(1501..=4096),
    }
}

/// A random header template (`random_desc`) addressed to queue pair `dest_qp`.
pub fn header_to(rng: &mut ChaCha8Rng, dest_qp: u32) -> TxDesc {
    let mut d = random_desc(rng);
    d.bth.dest_qp = dest_qp;
    d
}

/// A random descriptor of a random opcode.
pub fn random_desc(rng: &mut ChaCha8Rng) -> TxDesc {
    let opcode = Opcode::ALL[rng.gen_range(0..Opcode::ALL.len())];
    let telemetry = if opcode.must_carry_telemetry() || (opcode.may_carry_telemetry() && rng.gen_bool(0.6)) {
        let n = rng.gen_range(0..=MAX_HOPS);
        let echo = opcode.telemetry_echoes();
        // Rx-HPCC feedback: an echo without hops (descriptor byte 57; W in slot 0).
        if echo && rng.gen_bool(0.2) {
            Some(Telemetry { echo, hops: vec![], feedback: Some(rng.gen()) })
        } else {
            Some(Telemetry { echo, hops: (0..n).map(|_| hop(rng)).collect(), feedback: None })
        }
    } else {
        None
    };
    let syndrome = match rng.gen_range(0..3) {
        0 => Syndrome::Ack { credits: rng.gen_range(0..32) },
        1 => Syndrome::RnrNak { timer: rng.gen_range(0..32) },
        _ => Syndrome::Nak(NakCode::from_bits(rng.gen_range(0..32))),
    };
    TxDesc {
        eth: Ethernet { dst: rng.gen(), src: rng.gen() },
        ip: Ipv4 {
            dscp: rng.gen_range(0..64),
            ecn: Ecn::from_bits(rng.gen()),
            identification: rng.gen(),
            dont_fragment: rng.gen(),
            ttl: rng.gen(),
            src: rng.gen(),
            dst: rng.gen(),
        },
        // RoCEv2 NICs take the source port from 0xC000-0xFFFF (above every registered port,
        // so Wireshark tries the RoCEv2 dissector first).
        udp_src_port: 0xC000 | rng.gen_range(0..0x4000),
        opcode,
        bth: Bth {
            solicited: rng.gen(),
            mig_req: rng.gen(),
            pkey: rng.gen(),
            fecn: rng.gen(),
            becn: rng.gen(),
            dest_qp: rng.gen_range(0..1 << 24),
            ack_req: rng.gen(),
            psn: rng.gen_range(0..1 << 24),
        },
        reth: Reth { va: rng.gen(), rkey: rng.gen(), dma_len: rng.gen() },
        aeth: Aeth { syndrome, msn: rng.gen_range(0..1 << 24) },
        telemetry,
        // Opcodes without payload ignore it: sometimes nonzero to check that.
        payload_len: if opcode.has_payload() || rng.gen_bool(0.2) { payload_len(rng) } else { 0 },
    }
}

/// One payload beat as the DMA read engine delivers it.
/// Beats of one payload packet; the bytes past tkeep on the last beat are garbage.
fn payload_beats(rng: &mut ChaCha8Rng, bytes: &[u8], out: &mut Source<TxPipe, Beat>) {
    let n = bytes.len().div_ceil(64);
    for (j, chunk) in bytes.chunks(64).enumerate() {
        let mut data = [0u8; 64];
        rng.fill(&mut data[..]);
        data[..chunk.len()].copy_from_slice(chunk);
        let keep = if chunk.len() == 64 { u64::MAX } else { (1u64 << chunk.len()) - 1 };
        out.push(Beat { data, keep, last: j + 1 == n, user: false });
    }
}

/// What a run produced besides the outcome.
pub struct Run {
    pub outcome: Outcome,
    /// The frames the RTL sent, if asked for.
    pub frames: Vec<Vec<u8>>,
    /// Steady state: from the first output beat to the end of the stimulus budget.
    pub window: Window,
}

/// Counts over the steady-state window of a run.
pub struct Window {
    pub cycles: u64,
    /// Cycles with `m_axis_tready` high.
    pub ready: u64,
    /// Output beats, and frames whose last beat fell in the window.
    pub beats: u64,
    pub frames: u64,
    /// Wire bytes of those frames: frame + 4 FCS + 20 preamble and IFG.
    pub wire_bytes: u64,
}

/// Runs about `cycles` cycles of random stimulus, then drains. `keep_frames` keeps the emitted
/// frames (for pcap files).
pub fn run(
    scenario: Scenario,
    seed: u64,
    cycles: u64,
    shape: &Shape,
    vcd: Option<&Path>,
    keep_frames: bool,
) -> Run {
    let mut random = |rng: &mut ChaCha8Rng| {
        let desc = match shape.fixed {
            Some((op, len, tele)) => {
                let mut d = random_desc(rng);
                d.opcode = op;
                d.payload_len = len;
                d.telemetry = tele.then(|| Telemetry { echo: op.telemetry_echoes(), hops: vec![], feedback: None });
                d
            }
            None => random_desc(rng),
        };
        let len = desc.effective_payload_len();
        let stream_len = if len > 0 && rng.gen_bool(shape.mismatch) {
            match rng.gen_range(0..3) {
                0 => rng.gen_range(1..len.max(2)),
                1 => len + rng.gen_range(1..200),
                _ => (len as i64 + rng.gen_range(-3..=3i64)).max(1) as usize,
            }
        } else {
            len
        };
        let stream: Vec<u8> = if len > 0 { (0..stream_len).map(|_| rng.gen()).collect() } else { vec![] };
        Some((desc, stream))
    };
    drive(scenario, seed, cycles, shape, vcd, keep_frames, &mut random)
}

/// Sends the given descriptors and payload packets (in order, then stops) with `shape`'s gaps
/// and backpressure; every frame compared with the model's.
pub fn send(seed: u64, items: &[(TxDesc, Vec<u8>)], shape: &Shape, keep_frames: bool) -> Run {
    let mut it = items.iter().cloned();
    drive(Scenario::TxPipeRandom, seed, u64::MAX, shape, None, keep_frames, &mut |_| it.next())
}

/// The lockstep loop: `next` gives each frame's descriptor and payload stream (None: no more).
fn drive(
    scenario: Scenario,
    seed: u64,
    cycles: u64,
    shape: &Shape,
    vcd: Option<&Path>,
    keep_frames: bool,
    next: &mut dyn FnMut(&mut ChaCha8Rng) -> Option<(TxDesc, Vec<u8>)>,
) -> Run {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: TxPipe = vcd.map_or_else(TxPipe::new, TxPipe::with_vcd);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    // The cycle model from the same reset, and the descriptors queued on `descs` as values.
    let mut cm = TxPipeCycle::new();
    cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
    let mut pend: VecDeque<TxDesc> = VecDeque::new();

    let mut descs: Source<TxPipe, [u8; 128]> = Source::new(TxPipe::S_AXIS_DESC);
    let mut beats: Source<TxPipe, Beat> = Source::new(TxPipe::S_AXIS_PAYLOAD);
    (descs.rate, beats.rate) = (shape.desc_rate, shape.payload_rate);
    let mut out = Sink::new(TxPipe::M_AXIS, 1.0 - shape.ready_rate);
    let mut expected: VecDeque<TxFrame> = VecDeque::new();
    let mut frame: Vec<u8> = Vec::new();
    let mut frames = Vec::new();
    let (mut bad_frames, mut bad_total, mut resets) = (0u64, 0u64, 0u64);
    let mut idle = 0u64;
    // The steady-state window of the throughput figures: from the first output beat to the end
    // of the stimulus budget (inputs always available), not the drain after it.
    let mut first_out = None;
    let (mut w_cycles, mut w_ready, mut w_beats, mut w_frames, mut w_wire) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut cycle = 0u64;
    let mut exhausted = false;
    loop {
        // Keep a few frames of stimulus queued while the budget lasts.
        while !exhausted && descs.len() < 4 {
            let Some((desc, stream)) = next(&mut rng).filter(|_| cycle < cycles) else {
                exhausted = true;
                break;
            };
            let f = tx_frame(&desc, &stream);
            bad_frames += f.bad as u64;
            bad_total += f.bad as u64;
            expected.push_back(f);
            descs.push(desc.to_bytes());
            pend.push_back(desc);
            payload_beats(&mut rng, &stream, &mut beats);
        }
        if exhausted && expected.is_empty() && frame.is_empty() {
            break;
        }
        if idle > 10_000 {
            o.fail(format!("cycle {cycle}: no output for 10000 cycles with {} frames expected", expected.len()));
            break;
        }
        if shape.reset_rate > 0.0 && rng.gen_bool(shape.reset_rate) {
            // Everything in flight is lost, on both sides; the stat counter restarts.
            dut.set_reset(1);
            descs.clear(&mut dut);
            beats.clear(&mut dut);
            out.set_ready(&mut dut, false);
            dut.tick();
            dut.set_reset(0);
            cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
            pend.clear();
            cycle += 1;
            resets += 1;
            idle = 0;
            expected.clear();
            frame.clear();
            bad_frames = 0;
            continue;
        }
        descs.offer(&mut dut, &mut rng);
        beats.offer(&mut dut, &mut rng);
        let ready = rng.gen_bool(shape.ready_rate);
        out.set_ready(&mut dut, ready);
        dut.eval();
        // The cycle model on the same inputs: every port equal on every cycle (output bytes
        // in kept lanes).
        let want = cm.step(&CycleInputs {
            reset: false,
            desc: pend.front().filter(|_| descs.on_port()),
            payload: beats.front().filter(|_| beats.on_port()),
            ready,
        });
        if let Some(e) = cycle_differs(&dut, &want, &mut out) {
            o.fail(format!("cycle {cycle}: {e}"));
            break;
        }
        if descs.taken(&dut).is_some() {
            pend.pop_front();
        }
        beats.taken(&dut);

        idle += 1;
        if let Some(d) = out.take(&dut) {
            let data = get_wide(d);
            let (keep, last) = (out.keep, out.last);
            idle = 0;
            first_out.get_or_insert(cycle);
            let n = keep.trailing_ones() as usize;
            if (!last && keep != u64::MAX) || (last && (n == 0 || (n < 64 && keep >> n != 0))) {
                o.check(cycle, format!("tkeep {keep:#x} last {last}"), "all ones, or contiguous on tlast".into());
            }
            frame.extend_from_slice(&data[..n]);
            if first_out.is_some() && cycle < cycles {
                w_beats += 1;
                w_frames += last as u64;
                w_wire += if last { frame.len() as u64 + 24 } else { 0 };
            }
            if last {
                let got = TxFrame { bytes: std::mem::take(&mut frame), bad: out.user == 1 };
                match expected.pop_front() {
                    Some(want) => {
                        o.transactions += 1;
                        if got != want {
                            o.check(cycle, describe(&got), describe(&want));
                        }
                    }
                    None => o.check(cycle, describe(&got), "no frame".into()),
                }
                if keep_frames {
                    frames.push(got.bytes);
                }
            }
        }
        if first_out.is_some() && cycle < cycles {
            w_cycles += 1;
            w_ready += ready as u64;
        }
        dut.tick();
        cycle += 1;
    }
    let stat = dut.stat_len_err() as u64;
    if stat != bad_frames {
        o.fail(format!("stat_len_err {stat}, {bad_frames} frames had a payload length mismatch"));
    }
    o.cycles = cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o.metric("frames", o.transactions as f64);
    o.metric("bad_frames", bad_total as f64);
    o.metric("resets", resets as f64);
    o.metric("beats_per_cycle_ready", w_beats as f64 / w_ready.max(1) as f64);
    Run { outcome: o, frames, window: Window { cycles: w_cycles, ready: w_ready, beats: w_beats, frames: w_frames, wire_bytes: w_wire } }
}

/// The first port on which the RTL differs from the cycle model this cycle, if any.
fn cycle_differs(dut: &TxPipe, want: &CycleOutputs, out: &mut Sink<TxPipe>) -> Option<String> {
    let readies = (dut.s_axis_desc_tready() == 1, dut.s_axis_payload_tready() == 1);
    if readies != (want.desc_ready, want.payload_ready) {
        return Some(format!("RTL (desc, payload) tready {readies:?}, cycle model {:?}", (want.desc_ready, want.payload_ready)));
    }
    let got = out.peek(dut).map(get_wide).map(|d| (d, dut.m_axis_tkeep(), dut.m_axis_tlast() == 1, dut.m_axis_tuser() == 1));
    let same = match (&got, &want.beat) {
        (None, None) => true,
        (Some((d, keep, last, user)), Some(b)) => {
            (*keep, *last, *user) == (b.keep, b.last, b.user) && (0..64).all(|i| keep >> i & 1 == 0 || d[i] == b.data[i])
        }
        _ => false,
    };
    (!same).then(|| {
        format!(
            "RTL beat {:?}, cycle model {:?}",
            got.map(|(d, k, l, u)| (hexdump(&d), k, l, u)),
            want.beat.as_ref().map(|b| (hexdump(&b.data), b.keep, b.last, b.user))
        )
    })
}

/// A frame for a mismatch report: length, bad flag, the first differing parse.
fn describe(f: &TxFrame) -> String {
    let parsed = RocePacket::parse(&f.bytes).map(|p| format!("{:?} psn {}", p.opcode(), p.bth.psn));
    format!("{} bytes bad={} {:?} [{}]", f.bytes.len(), f.bad, parsed, hexdump(&f.bytes[..f.bytes.len().min(128)]))
}

/// The regression scenarios.
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::TxPipeRandom, seed, cycles, &Shape::RANDOM, vcd, false).outcome
}

/// Payload length mismatches, with stat_len_err checked.
pub fn bad_input(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::TxPipeBadInput, seed, cycles, &Shape::BAD_INPUT, vcd, false).outcome
}

/// Throughput for one payload size: inputs always offered, `ready_rate` backpressure.
/// Returns, over the steady-state window: (frames, cycles, output beats per cycle with
/// `m_axis_tready` high, frames per cycle, wire Gb/s at 250 MHz counting FCS, preamble
/// and IFG, mismatches and failed checks).
pub fn throughput(payload: u16, tele: bool, ready_rate: f64, frames: u64, seed: u64) -> (u64, u64, f64, f64, f64, u64) {
    throughput_of(Opcode::RdmaWriteMiddle, payload, tele, ready_rate, frames, seed)
}

/// `throughput` for frames of opcode `op` (its RETH / AETH / CNP bytes counted).
pub fn throughput_of(
    op: Opcode,
    payload: u16,
    tele: bool,
    ready_rate: f64,
    frames: u64,
    seed: u64,
) -> (u64, u64, f64, f64, f64, u64) {
    let ext = if op.has_reth() || op == Opcode::Cnp { 16 } else if op.has_aeth() { 4 } else { 0 };
    let pay = if op.has_payload() { payload as u64 } else { 0 };
    let l = 54 + ext + if tele { 44 } else { 0 } + pay.div_ceil(4) * 4 + 4;
    let cycles = frames * l.div_ceil(64);
    let shape = Shape { desc_rate: 1.0, payload_rate: 1.0, ready_rate, fixed: Some((op, payload, tele)), ..Shape::RANDOM };
    let r = run(Scenario::TxPipeRandom, seed, (cycles as f64 / ready_rate) as u64, &shape, None, false);
    let o = &r.outcome;
    let w = &r.window;
    let fpc = w.frames as f64 / w.cycles as f64;
    let gbps = w.wire_bytes as f64 * 8.0 / (w.cycles as f64 * 4.0);
    (w.frames, w.cycles, w.beats as f64 / w.ready as f64, fpc, gbps, o.mismatches + o.failures.len() as u64)
}
