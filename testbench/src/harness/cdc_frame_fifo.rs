//! cdc_frame_fifo against its frame model (`sim::cdc_frame_fifo`), with its two clocks
//! toggled apart: every seed runs the write and read clocks at each ratio and phase of
//! `RATIOS` in turn (the core's 250 MHz against the CMAC's 322.266 MHz both ways, equal clocks
//! in and out of phase, nearly equal clocks drifting, 4:1 both ways). Random frames of 1 byte to
//! past the FIFO's depth, bad flags, input gaps and output backpressure; or, for line rate,
//! the source and the sink paced at 100 Gb/s on the wire.
//!
//! Checked: every frame read is the next frame written that can still come out, whole and
//! unchanged (nothing lost, reordered or duplicated: `sim::cdc_frame_fifo::Tally`), the
//! counters at the end; on every read-clock edge, `m_axis_tvalid` held from a frame's first
//! beat to its last and a beat offered and not taken held unchanged.
//!
//! The model is evaluated at each edge's time (`Model::eval_at`), so a VCD shows both clocks
//! at their real periods and phase, in ps.

use super::{Outcome, Scenario};
use crate::verilated::models::CdcFrameFifo as Rtl;
use crate::verilated::Model;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use super::frames::{self, frame_bytes, offered, EdgeClock, FrameSink, FrameSource};
pub use super::frames::{wire_bytes, CMAC_PS, CORE_PS};
use sim::cdc_frame_fifo::{Frame, Stats, Tally, DEPTH};
use std::path::Path;
use std::time::Instant;

/// Write and read clock periods and the read clock's first rising edge, in ps.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    pub name: &'static str,
    pub s_ps: u64,
    pub m_ps: u64,
    pub m_phase_ps: u64,
}

/// The clock pairs every seed runs on in turn.
pub const RATIOS: [Clocks; 7] = [
    Clocks { name: "250->322", s_ps: CORE_PS, m_ps: CMAC_PS, m_phase_ps: 1300 },
    Clocks { name: "322->250", s_ps: CMAC_PS, m_ps: CORE_PS, m_phase_ps: 700 },
    Clocks { name: "equal, in phase", s_ps: CORE_PS, m_ps: CORE_PS, m_phase_ps: 0 },
    Clocks { name: "equal, 90 degrees", s_ps: CORE_PS, m_ps: CORE_PS, m_phase_ps: 1000 },
    Clocks { name: "drifting", s_ps: CORE_PS, m_ps: CORE_PS - 3, m_phase_ps: 17 },
    Clocks { name: "4:1 fast reader", s_ps: CORE_PS, m_ps: CORE_PS / 4, m_phase_ps: 333 },
    Clocks { name: "1:4 slow reader", s_ps: CORE_PS / 4, m_ps: CORE_PS, m_phase_ps: 2100 },
];

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// `s_drop_when_full` (the receive side's setting).
    pub drop_when_full: bool,
    /// Probability that the source offers nothing on a write cycle.
    pub gap: f64,
    /// Probability that the sink is ready on a read cycle.
    pub ready: f64,
    /// Probability that a frame is bad.
    pub bad: f64,
    /// Probability that a frame is longer than the FIFO.
    pub long: f64,
    /// Frame bytes: at random up to this, or every frame this long (`fixed`).
    pub max_bytes: usize,
    pub fixed: bool,
    /// Pace the source (true) or the sink (false) at 100 Gb/s on the wire; None: no pacing.
    pub pace_source: Option<bool>,
}

impl Shape {
    /// Random, waiting when full (the transmit side).
    pub const WAIT: Shape =
        Shape { drop_when_full: false, gap: 0.2, ready: 0.7, bad: 0.1, long: 0.01, max_bytes: 4200, fixed: false, pace_source: None };
    /// Random, dropping when full (the receive side), with a sink slow enough to fill it.
    pub const DROP: Shape = Shape { drop_when_full: true, ready: 0.5, ..Shape::WAIT };
}

/// 100 Gb/s in bytes per ps.
pub const LINE_BYTES_PER_PS: f64 = 12.5e-3;

fn random_frame(rng: &mut ChaCha8Rng, sh: &Shape) -> Frame {
    let len = if sh.fixed {
        sh.max_bytes
    } else if rng.gen_bool(sh.long) {
        rng.gen_range(DEPTH * 64 + 1..=DEPTH * 64 + 300)
    } else if rng.gen_bool(0.3) {
        rng.gen_range(1..=130)
    } else {
        rng.gen_range(1..=sh.max_bytes)
    };
    let bad = rng.gen_bool(sh.bad);
    frames::random_frame(rng, len, bad)
}

fn stats(d: &Rtl) -> Stats {
    Stats { frames: d.stat_frames(), bad: d.stat_bad(), overflow: d.stat_overflow(), too_long: d.stat_too_long() }
}

/// Runs one seed on every clock pair of `RATIOS` in turn, `cycles / 7` write-clock cycles of
/// frames each (seed + k for pair k), then a drain; failures name the pair. With a VCD path
/// `w.vcd`, pair k writes `w.k.vcd`.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, sh: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let each = (cycles / RATIOS.len() as u64).max(1_000);
    for (k, &clocks) in RATIOS.iter().enumerate() {
        let v = vcd.map(|p| p.with_extension(format!("{k}.vcd")));
        let r = run_on(scenario, seed.wrapping_add(k as u64), each, sh, clocks, v.as_deref(), Instant::now());
        for f in &r.failures {
            o.fail(format!("clocks {} (pair {k}): {f}", clocks.name));
        }
        o.cycles += r.cycles;
        o.transactions += r.transactions;
        for name in ["frames_written", "frames_read", "beats_read", "overflow", "bad", "too_long"] {
            let v = o.get(name).unwrap_or(0.0) + r.get(name).unwrap_or(0.0);
            match o.metrics.iter_mut().find(|m| m.0 == name) {
                Some(m) => m.1 = v,
                None => o.metric(name, v),
            }
        }
    }
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// `run` on the clocks given.
pub fn run_on(scenario: Scenario, seed: u64, cycles: u64, sh: &Shape, clocks: Clocks, vcd: Option<&Path>, start: Instant) -> Outcome {
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    d.set_s_drop_when_full(sh.drop_when_full as u8);
    let mut tally = Tally::new(sh.drop_when_full);
    let (mut src, mut sink) = (FrameSource::default(), FrameSink::default());
    let (sp, mp) = (clocks.s_ps, clocks.m_ps);
    let (mut sc, mut mc) = (EdgeClock::new(sp, 0), EdgeClock::new(mp, clocks.m_phase_ps));
    let (mut s_cycles, mut m_cycles) = (0u64, 0u64);
    // Both resets from the start until each clock has had 4 rising edges (the module's rule:
    // held together for at least 3 cycles of the slower clock), then each side's falls on
    // its own clock's next edge.
    const RESET_CYCLES: u64 = 4;
    let (mut s_run, mut m_run) = (false, false);
    d.set_s_reset(1);
    d.set_m_reset(1);
    // Pacing at 100 Gb/s: bytes that may still go (token buckets refilled by the clocks).
    let (mut src_tokens, mut sink_tokens) = (0.0f64, 0.0f64);
    let mut stop = false;
    let mut idle_m = 0u64;
    let (mut written, mut wire_written, mut wire_read) = (0u64, 0u64, 0u64);
    let (mut first_ps, mut last_ps) = (None, 0u64);
    loop {
        let t = sc.next().min(mc.next());
        let (se, me) = (sc.take(t), mc.take(t));
        let (s_rise, m_rise) = (se == Some(true), me == Some(true));
        d.eval();
        // The handshakes of this edge, as the inputs and outputs stand before it.
        let s_take = s_rise && src.valid && d.s_axis_tready() == 1 && s_run;
        let (m_valid, b, m_user) = offered(&d, &Rtl::M_AXIS);
        if m_rise && m_run {
            let (fault, done) = sink.edge(m_valid, b);
            if let Some(e) = fault {
                o.fail(format!("read edge {m_cycles}: {e}"));
            }
            if m_valid && m_user {
                o.fail(format!("read edge {m_cycles}: m_axis_tuser high"));
            }
            if m_valid && sink.ready {
                first_ps.get_or_insert(t);
                last_ps = t;
                if sh.pace_source == Some(false) {
                    sink_tokens -= b.keep.count_ones() as f64;
                }
            }
            if let Some(f) = done {
                wire_read += wire_bytes(frame_bytes(&f));
                if sh.pace_source == Some(false) {
                    sink_tokens -= 24.0;
                }
                if let Err(e) = tally.read(&f) {
                    o.fail(format!("read edge {m_cycles}: {e}"));
                }
                o.transactions += 1;
            }
        }
        if s_take {
            if let Some(f) = src.taken() {
                written += 1;
                wire_written += wire_bytes(frame_bytes(&f.beats));
                tally.written(f);
            }
        }
        // The edges.
        if let Some(level) = se {
            d.set_s_clock(level as u8);
        }
        if let Some(level) = me {
            d.set_m_clock(level as u8);
        }
        d.eval_at(t);
        if let Some(f) = d.fatal() {
            o.fail(format!("Verilator: {f}"));
            break;
        }
        // Inputs for the cycle after each rising edge.
        if s_rise {
            s_cycles += 1;
            if !s_run && s_cycles >= RESET_CYCLES && m_cycles >= RESET_CYCLES {
                s_run = true;
                d.set_s_reset(0);
            }
            stop |= s_cycles >= cycles;
            if sh.pace_source == Some(true) {
                src_tokens = (src_tokens + LINE_BYTES_PER_PS * sp as f64).min(10_000.0);
            }
            if src.idle() && !stop && s_run && (sh.pace_source != Some(true) || src_tokens >= 0.0) {
                let f = random_frame(&mut rng, sh);
                if sh.pace_source == Some(true) {
                    src_tokens -= wire_bytes(frame_bytes(&f.beats)) as f64;
                }
                src.load(f);
            }
            src.valid = !src.idle() && !rng.gen_bool(sh.gap);
            src.drive(&mut d, &Rtl::S_AXIS);
        }
        if m_rise {
            m_cycles += 1;
            if !m_run && s_cycles >= RESET_CYCLES && m_cycles >= RESET_CYCLES {
                m_run = true;
                d.set_m_reset(0);
            }
            if sh.pace_source == Some(false) {
                sink_tokens = (sink_tokens + LINE_BYTES_PER_PS * mp as f64).min(128.0);
                sink.ready = sink_tokens >= 0.0;
            } else {
                sink.ready = stop || rng.gen_bool(sh.ready);
            }
            d.set_m_axis_tready(sink.ready as u8);
            idle_m = if stop && src.idle() && !m_valid { idle_m + 1 } else { 0 };
        }
        // Drained: nothing offered for long enough that a committed frame would have crossed.
        if idle_m > 64 && s_cycles > cycles + 64 {
            break;
        }
        if s_cycles > 50 * cycles + 100_000 {
            o.fail(format!("no drain after {s_cycles} write cycles"));
            break;
        }
    }
    let st = stats(&d);
    if let Err(e) = tally.finish(st) {
        o.fail(e);
    }
    o.cycles = s_cycles;
    let span_ps = last_ps.saturating_sub(first_ps.unwrap_or(0)).max(1);
    o.metric("frames_written", written as f64);
    o.metric("frames_read", tally.want.frames as f64);
    o.metric("beats_read", sink.beats as f64);
    o.metric("read_gbps_on_wire", wire_read as f64 * 8.0 / span_ps as f64 * 1000.0);
    o.metric("written_gbps_on_wire", wire_written as f64 * 8.0 / (s_cycles * sp) as f64 * 1000.0);
    o.metric("overflow", st.overflow as f64);
    o.metric("bad", st.bad as f64);
    o.metric("too_long", st.too_long as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// Frame sizes of the line-rate check (bytes without FCS): the smallest, one beat full, just
/// past a beat, the 65-75 byte band where a 64-byte beat at 250 MHz is slower than the wire,
/// and up to 4 KiB.
pub const LINE_RATE_SIZES: [usize; 11] = [60, 64, 65, 70, 76, 128, 256, 512, 1024, 1500, 4096];

/// Gb/s on the wire that a 512-bit stream at `ps` per beat carries for frames of `len` bytes.
pub fn stream_gbps(len: usize, ps: u64) -> f64 {
    wire_bytes(len) as f64 * 8.0 / (len.div_ceil(64) as u64 * ps) as f64 * 1000.0
}

/// Line rate across the real clocks, every size of `LINE_RATE_SIZES`, `cycles / 22` write
/// cycles each. Transmit (250 MHz in, 322 MHz out, waiting when full): the source offers a
/// beat on every cycle and the sink takes 100 Gb/s; what comes out must be at least 98% of
/// the lower of 100 Gb/s and what the 250 MHz stream can carry. Receive (322 MHz in, 250 MHz
/// out, dropping when full): the source gives 100 Gb/s and the sink is always ready; nothing
/// may overflow where the 250 MHz stream can carry 100 Gb/s, and what comes out must be at
/// least 98% of the lower of the two.
pub fn line_rate(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let each = (cycles / 22).max(2_000);
    for (k, &len) in LINE_RATE_SIZES.iter().enumerate() {
        let base = Shape { gap: 0.0, ready: 1.0, bad: 0.0, long: 0.0, max_bytes: len, fixed: true, ..Shape::WAIT };
        let tx = Shape { pace_source: Some(false), ..base };
        let rx = Shape { drop_when_full: true, pace_source: Some(true), ..base };
        for (dir, sh, clocks) in [("tx", tx, RATIOS[0]), ("rx", rx, RATIOS[1])] {
            let v = if k == 0 && dir == "tx" { vcd } else { None };
            let r = run_on(scenario, seed + k as u64, each, &sh, clocks, v, Instant::now());
            let got = r.get("read_gbps_on_wire").unwrap_or(0.0);
            let can = stream_gbps(len, CORE_PS).min(100.0);
            for f in &r.failures {
                o.fail(format!("{dir} {len} B: {f}"));
            }
            if got < 0.98 * can {
                o.fail(format!("{dir} {len} B: {got:.2} Gb/s out, the streams can carry {can:.2}"));
            }
            let overflow = r.get("overflow").unwrap_or(0.0);
            if dir == "rx" && stream_gbps(len, CORE_PS) >= 100.0 && overflow > 0.0 {
                o.fail(format!("rx {len} B: {overflow} frames overflowed at 100 Gb/s"));
            }
            o.metric(&format!("{dir}_{len}_gbps"), got);
            o.metric(&format!("{dir}_{len}_overflow"), overflow);
            o.cycles += r.cycles;
            o.transactions += r.transactions;
        }
    }
    o.seconds = start.elapsed().as_secs_f64();
    o
}
