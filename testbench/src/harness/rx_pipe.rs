//! rx_pipe against its golden model (`sim::rx_pipe`), verdict by verdict: random valid frames
//! of every opcode and size (rx-random), and the same interleaved with mutated and random junk
//! at the beat level (rx-fuzz). Random input gaps and verdict backpressure; on every cycle
//! `s_axis_tready` and the verdict output must equal the cycle model's
//! (`sim::rx_pipe::cycle`: ready while fewer than 128 verdicts are owed, each verdict 12 cycles
//! after its last beat); at the end the 28 counters must equal the model's.

use super::stream::{Sink, Source};
use super::{Outcome, Scenario};
use crate::verilated::models::RxPipe as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::{examples, udp_checksum, IntHop, Opcode, RocePacket, BTH_OFFSET, ETH_LEN};
use sim::rx_pipe::cycle::{Inputs, Outputs, RxPipe as RxPipeCycle};
use sim::rx_pipe::{beats, Beat, RxPipe, Verdict, BEAT_BYTES, MAX_FRAME, REASONS};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Traffic shape of a run.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Mix junk frames in (rx-fuzz).
    pub fuzz: bool,
    /// Probability that no beat is offered in a cycle (when one is waiting).
    pub gap: f64,
    /// Probability that the verdict output is not ready in a cycle.
    pub backpressure: f64,
}

impl Shape {
    pub const RANDOM: Shape = Shape {
        fuzz: false,
        gap: 0.1,
        backpressure: 0.2,
    };
    pub const FUZZ: Shape = Shape {
        fuzz: true,
        gap: 0.1,
        backpressure: 0.2,
    };
}

/// A random payload size: mostly small (where the headers dominate), some up to 4 KB.
fn payload_len(rng: &mut impl Rng) -> usize {
    match rng.gen_range(0..10) {
        0..=4 => rng.gen_range(0..128),
        5..=8 => rng.gen_range(128..1500),
        _ => rng.gen_range(1500..=4096),
    }
}

/// A random well-formed frame: one of the example shapes (every opcode) with random header
/// fields, payload, hops, sometimes a correct nonzero UDP checksum, and sometimes an IPv4
/// header whose checksum is 0x0000, sent as 0x0000 or 0xFFFF.
pub fn valid_frame(rng: &mut impl Rng) -> Vec<u8> {
    let ex = examples();
    let mut p: RocePacket = ex[rng.gen_range(0..ex.len())].1.clone();
    p.ip.dscp = rng.gen_range(0..64);
    p.ip.ecn = sim::packet::Ecn::from_bits(rng.gen());
    p.ip.ttl = rng.gen();
    p.ip.identification = rng.gen();
    p.ip.dont_fragment = rng.gen();
    p.udp_src_port = rng.gen_range(0xC000..=0xFFFF); // the ephemeral range RoCEv2 senders use
    p.bth.psn = rng.gen_range(0..1 << 24);
    p.bth.dest_qp = rng.gen_range(0..1 << 24);
    p.bth.fecn = rng.gen();
    p.bth.becn = rng.gen();
    p.bth.ack_req = rng.gen();
    p.bth.solicited = rng.gen();
    p.bth.pkey = rng.gen();
    let n = payload_len(rng);
    if let Some(payload) = p.body.payload_mut() {
        *payload = (0..n).map(|_| rng.gen()).collect();
    }
    if let Some(t) = p.telemetry.as_mut().filter(|t| t.feedback.is_some()) {
        // Rx-HPCC feedback: a random W, no hops.
        t.feedback = Some(rng.gen());
    } else if let Some(t) = &mut p.telemetry {
        t.hops.clear();
        for _ in 0..rng.gen_range(0..=5) {
            let w: u64 = rng.gen();
            t.hops
                .push(IntHop::from_word(w & !(7 << 61) | (w % 5) << 61).unwrap());
        }
    }
    let mut f = p.build();
    if rng.gen_bool(0.2) {
        set_udp_checksum(&mut f);
    }
    if rng.gen_bool(0.05) {
        zero_ip_checksum(&mut f, rng.gen());
    }
    f
}

/// Rewrites TOS and TTL (as a switch's ECN mark and TTL decrement do; the ICRC does not cover
/// them) so that the IPv4 header checksum is 0x0000, and writes it as 0x0000 or, with `ffff`,
/// as 0xFFFF: both are one's-complement zero (RFC 1624) and must be accepted.
pub fn zero_ip_checksum(f: &mut [u8], ffff: bool) {
    let h = &mut f[ETH_LEN..ETH_LEN + 20];
    // TOS is the low byte of word 0, TTL the high byte of word 4. Without them the header
    // sums to s = !checksum; TOS + 256 x TTL = !s makes the sum 0xFFFF.
    h[1] = 0;
    h[8] = 0;
    let x = sim::packet::ipv4_checksum(h);
    h[1] = x as u8;
    h[8] = (x >> 8) as u8;
    let c = if ffff { 0xFFFF } else { 0 };
    h[10..12].copy_from_slice(&u16::to_be_bytes(c));
    debug_assert_eq!(sim::packet::ipv4_checksum(h), 0);
}

/// Writes the correct UDP checksum (the ICRC does not cover it).
fn set_udp_checksum(f: &mut [u8]) {
    let t = u16::from_be_bytes([f[16], f[17]]) as usize;
    let (src, dst) = (f[26..30].try_into().unwrap(), f[30..34].try_into().unwrap());
    let c = udp_checksum(src, dst, &f[34..14 + t]);
    f[40..42].copy_from_slice(&c.to_be_bytes());
}

/// Rewrites the IPv4 header checksum after a header change.
fn fix_ip_checksum(f: &mut [u8]) {
    let c = sim::packet::ipv4_checksum(&f[ETH_LEN..ETH_LEN + 20]);
    f[24..26].copy_from_slice(&c.to_be_bytes());
}

/// One fuzz frame (its beats): a valid frame (5 in 25), or a mutation of one at the byte or
/// beat level, or random bytes (zero-length frames included). A "tlast missing" frame runs
/// into a second valid frame.
pub fn fuzz_frame(rng: &mut impl Rng) -> Vec<Beat> {
    let mut f = valid_frame(rng);
    let kind = rng.gen_range(0..25);
    match kind {
        0..=4 => {}
        // tlast early / truncated.
        5 => f.truncate(rng.gen_range(1..f.len())),
        // Runt of random bytes, or a zero-length frame (one beat keeping nothing).
        6 => f = (0..rng.gen_range(0..60)).map(|_| rng.gen()).collect(),
        // Oversized: padding beyond MAX_FRAME.
        7 => f.resize(rng.gen_range(MAX_FRAME + 1..MAX_FRAME + 300), 0xA5),
        // A header bit flipped, the IPv4 checksum sometimes fixed so deeper checks are reached.
        8..=10 => {
            let i = rng.gen_range(0..f.len().min(128));
            f[i] ^= 1 << rng.gen_range(0..8);
            if rng.gen_bool(0.6) && f.len() >= 34 {
                fix_ip_checksum(&mut f);
            }
        }
        // The IPv4 checksum made 0x0000 in flight, sent as 0x0000 or 0xFFFF (both accepted),
        // sometimes with a header bit flipped afterwards (0xFFFF or 0 then wrong).
        24 => {
            zero_ip_checksum(&mut f, rng.gen());
            if rng.gen() {
                f[rng.gen_range(ETH_LEN..ETH_LEN + 20)] ^= 1 << rng.gen_range(0..8);
            }
        }
        // Any bit flipped.
        11 => {
            let i = rng.gen_range(0..f.len());
            f[i] ^= 1 << rng.gen_range(0..8);
        }
        // Wrong ICRC.
        12 => {
            let n = f.len();
            f[n - rng.gen_range(1..=4)] ^= rng.gen_range(1..=255);
        }
        // Unknown opcode.
        13 => loop {
            let op: u8 = rng.gen();
            if Opcode::from_u8(op).is_none() {
                f[BTH_OFFSET] = op;
                break;
            }
        },
        // Telemetry hop count or line-rate code out of range (where there is a telemetry header).
        14 => {
            if let Ok((_, l)) = RocePacket::parse_with_layout(&f) {
                if let Some(t) = l.telemetry {
                    if rng.gen() {
                        f[t + 1] = rng.gen_range(6..=255);
                    } else {
                        let h = rng.gen_range(0..5);
                        f[t + 1] = f[t + 1].max(h as u8 + 1);
                        f[t + 4 + 8 * h] = f[t + 4 + 8 * h] & 0x1F | rng.gen_range(5..8) << 5;
                    }
                }
            }
        }
        // Nonzero UDP checksum, usually wrong; or IPv4 lengths changed (checksum fixed).
        15 => {
            if rng.gen() {
                f[40] = rng.gen();
                f[41] = rng.gen_range(1..=255);
            } else {
                let at = if rng.gen() { 16 } else { 38 };
                let v = u16::from_be_bytes([f[at], f[at + 1]]) as i32 + rng.gen_range(-70..70);
                f[at..at + 2].copy_from_slice(&(v.clamp(0, 65535) as u16).to_be_bytes());
                fix_ip_checksum(&mut f);
            }
        }
        // Random bytes of any length up to a jumbo frame.
        16 => f = (0..rng.gen_range(1..2000)).map(|_| rng.gen()).collect(),
        // The datagram grown or shrunk by a few bytes, lengths and IPv4 checksum kept
        // consistent (CNP length, payload on an opcode without one, PadCnt beyond the payload).
        20 => {
            let d: i32 = rng.gen_range(-8..=8);
            let t = (u16::from_be_bytes([f[16], f[17]]) as i32 + d).max(28) as usize;
            f.resize(14 + t, 0);
            f[16..18].copy_from_slice(&(t as u16).to_be_bytes());
            f[38..40].copy_from_slice(&(t as u16 - 20).to_be_bytes());
            fix_ip_checksum(&mut f);
        }
        // BTH: PadCnt, TVer, the telemetry flag, or the AETH syndrome's reserved encodings.
        21 => match rng.gen_range(0..4) {
            0 => f[BTH_OFFSET + 1] ^= rng.gen_range(1..4) << 4,
            1 => f[BTH_OFFSET + 1] ^= rng.gen_range(1..16),
            2 => f[BTH_OFFSET + 8] ^= 0x40,
            _ => f[BTH_OFFSET + 12] = rng.gen_range(0x40..0x60) | rng.gen_range(0..2) << 7,
        },
        // Telemetry header: version or echo bit.
        22 => {
            if let Ok((_, l)) = RocePacket::parse_with_layout(&f) {
                if let Some(t) = l.telemetry {
                    f[t] ^= if rng.gen() {
                        0x08
                    } else {
                        rng.gen_range(1..16) << 4
                    };
                }
            }
        }
        _ => {}
    }
    let mut b = beats(&f);
    match kind {
        // tkeep hole, or an empty beat after the last one (a keep hole too: only a
        // zero-length frame may end on a beat keeping nothing).
        17 => {
            if rng.gen_bool(0.2) {
                b.last_mut().unwrap().last = false;
                b.extend(beats(&[]));
            } else {
                let k = rng.gen_range(0..b.len());
                let lane = rng.gen_range(0..BEAT_BYTES);
                b[k].keep &= !(1u64 << lane);
            }
        }
        // MAC error.
        18 | 23 => {
            let k = rng.gen_range(0..b.len());
            b[k].user = true;
        }
        // tlast missing: this frame runs into the next one.
        19 => {
            b.last_mut().unwrap().last = false;
            b.extend(beats(&valid_frame(rng)));
        }
        _ => {}
    }
    b
}

/// The Verilated rx_pipe, reset, verdict output ready.
pub fn open(vcd: Option<&Path>) -> Rtl {
    let mut dut = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    dut.set_m_axis_verdict_tready(1);
    dut.set_reset(1);
    dut.tick();
    dut.tick();
    dut.set_reset(0);
    dut
}

/// The 28 counters as the RTL reports them.
pub fn counters(dut: &mut Rtl) -> [u64; REASONS] {
    let mut c = [0u64; REASONS];
    for (k, v) in c.iter_mut().enumerate() {
        dut.set_stat_addr(k as u8);
        dut.eval();
        *v = dut.stat_count() as u64;
    }
    c
}

/// Result of streaming frames through the RTL.
pub struct Stream {
    pub verdicts: Vec<Verdict>,
    pub cycles: u64,
    /// Cycles until the last beat was taken (the input phase, for throughput).
    pub input_cycles: u64,
    pub beats: u64,
    /// Cycles on which the RTL's ports differed from the cycle model's
    /// (`sim::rx_pipe::cycle::RxPipe` on the same inputs: tready, the verdict's valid and record).
    pub cycle_errors: u64,
    pub first_cycle_error: Option<String>,
}

/// `frames` through a fresh rx_pipe RTL (10% input gaps, 20% backpressure): one verdict
/// each, every one accepted (panics otherwise: the callers feed frames the NICs built).
pub fn verdicts(frames: &[Vec<u8>], rng: &mut ChaCha8Rng) -> Vec<Verdict> {
    let mut dut = open(None);
    let s = stream(&mut dut, frames.iter().map(|f| beats(f)), 0.1, 0.2, rng, 10_000_000);
    assert_eq!(s.verdicts.len(), frames.len(), "rx_pipe gave a verdict per frame");
    assert!(s.verdicts.iter().all(|v| v.code == 0), "rx_pipe dropped a frame the NIC built");
    s.verdicts
}

/// Streams `frames` (their beats) through `dut` with the given gap and backpressure
/// probabilities, until every verdict is out (or `max_cycles`). `on_verdict` sees each RTL
/// verdict as it leaves.
pub fn stream(
    dut: &mut Rtl,
    frames: impl IntoIterator<Item = Vec<Beat>>,
    gap: f64,
    backpressure: f64,
    rng: &mut impl Rng,
    max_cycles: u64,
) -> Stream {
    let mut queue: VecDeque<Beat> = VecDeque::new();
    let mut frames = frames.into_iter();
    let mut src: Source<Rtl, Beat> = Source::new(Rtl::S_AXIS);
    let mut sink = Sink::new(Rtl::M_AXIS_VERDICT, backpressure);
    // The cycle model from the RTL's state after `open` (reset, nothing owed).
    let mut cm = RxPipeCycle::new();
    let (mut ended, mut out) = (
        0u64,
        Stream {
            verdicts: vec![],
            cycles: 0,
            input_cycles: 0,
            beats: 0,
            cycle_errors: 0,
            first_cycle_error: None,
        },
    );
    let mut exhausted = false;
    while out.cycles < max_cycles {
        while queue.len() < 4 && !exhausted {
            match frames.next() {
                Some(f) => queue.extend(f),
                None => exhausted = true,
            }
        }
        // A gap comes before a beat, drawn only when the port is free.
        if src.is_empty() && !queue.is_empty() && !rng.gen_bool(gap) {
            src.push(queue.pop_front().unwrap());
        }
        if exhausted && queue.is_empty() && src.is_empty() && out.verdicts.len() as u64 == ended {
            break;
        }
        src.offer(dut, rng);
        sink.ready(dut, rng);
        dut.eval();
        let want = cm.step(&Inputs {
            reset: false,
            beat: src.front().filter(|_| src.on_port()),
            verdict_ready: sink.is_ready(),
        });
        let got = Outputs {
            s_ready: dut.s_axis_tready() == 1,
            verdict: sink.peek(dut).map(Verdict::from_words),
        };
        if got != want {
            out.cycle_errors += 1;
            out.first_cycle_error
                .get_or_insert(format!(
                    "cycle {}: RTL {got:?}, cycle model {want:?} ({} verdicts owed)",
                    out.cycles,
                    ended - out.verdicts.len() as u64
                ));
        }
        if let Some(b) = src.taken(dut) {
            out.beats += 1;
            out.input_cycles = out.cycles + 1;
            ended += b.last as u64;
        }
        if let Some(w) = sink.take(dut) {
            out.verdicts.push(Verdict::from_words(w));
        }
        dut.tick();
        out.cycles += 1;
    }
    src.stop(dut);
    out
}

/// One regression job: about `cycles` cycles of frames, every verdict compared in order.
pub fn run(
    scenario: Scenario,
    seed: u64,
    cycles: u64,
    shape: &Shape,
    vcd: Option<&Path>,
) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut gen = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
    // Frames enough for the budget: about 1 + gap beats per beat.
    let mut frames: Vec<Vec<Beat>> = vec![];
    let mut total = 0u64;
    while (total as f64) < cycles as f64 * (1.0 - shape.gap) * 0.8 {
        let f = if shape.fuzz {
            fuzz_frame(&mut gen)
        } else {
            beats(&valid_frame(&mut gen))
        };
        total += f.len() as u64;
        frames.push(f);
    }
    let mut model = RxPipe::new();
    let want: Vec<Verdict> = frames
        .iter()
        .flatten()
        .filter_map(|b| model.beat(b.clone()))
        .collect();
    // Coverage of two edge cases: zero-length frames (one beat keeping nothing), and accepted
    // frames whose IPv4 checksum field is 0xFFFF (computed 0x0000). A frame's beats end with
    // exactly one tlast, so frames and verdicts pair up.
    let zero_length = frames
        .iter()
        .filter(|b| b.len() == 1 && b[0].keep == 0)
        .count();
    let csum_ffff = frames
        .iter()
        .zip(&want)
        .filter(|(b, v)| v.code == 0 && b[0].data[24..26] == [0xFF, 0xFF])
        .count();
    let mut dut = open(vcd);
    let s = stream(
        &mut dut,
        frames,
        shape.gap,
        shape.backpressure,
        &mut rng,
        cycles * 3,
    );
    o.cycles = s.cycles;
    o.transactions = s.verdicts.len() as u64;
    for (i, (r, m)) in s.verdicts.iter().zip(&want).enumerate() {
        if r != m {
            o.mismatches += 1;
            o.first_mismatch
                .get_or_insert(format!("verdict {i}: rtl {r:?}, model {m:?}"));
        }
    }
    if s.verdicts.len() != want.len() {
        o.fail(format!(
            "{} verdicts from the RTL, {} from the model",
            s.verdicts.len(),
            want.len()
        ));
    }
    if let Some(e) = s.first_cycle_error {
        o.fail(format!("{} cycles where the RTL and the cycle model differ, first: {e}", s.cycle_errors));
    }
    let rtl_counters = counters(&mut dut);
    if rtl_counters != model.counters {
        o.fail(format!(
            "counters: rtl {rtl_counters:?}, model {:?}",
            model.counters
        ));
    }
    let accepted = model.counters[0];
    o.metric("frames", want.len() as f64);
    o.metric("accepted", accepted as f64);
    o.metric("dropped", (want.len() as u64 - accepted) as f64);
    o.metric(
        "min_drop_reasons_seen",
        model.counters[1..].iter().filter(|&&c| c > 0).count() as f64,
    );
    o.metric("zero_length", zero_length as f64);
    o.metric("ipv4_csum_ffff_accepted", csum_ffff as f64);
    o.metric("beats_per_cycle", s.beats as f64 / s.cycles.max(1) as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
