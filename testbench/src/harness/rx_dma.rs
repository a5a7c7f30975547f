//! rx_dma against its golden model (`sim::rx_dma`), write by write: random frames of 1..9300
//! bytes (and longer without tlast in the bad-input shape), one command per frame offered
//! before, during or 0-40 cycles after the frame, random input gaps and random backpressure on
//! both outputs. Every DMA command (address, length, flow) and every payload beat (kept bytes,
//! tkeep, tlast) is compared with the model's writes in order; the counters at the end. One
//! 20,000-cycle phase in four has slow outputs and slow commands, so the store fills. The
//! bad-input shape adds tkeep holes, frames of up to 20 000 bytes, write commands past the
//! frame's end and resets at random cycles (after which the model starts again).

use super::stream::{Sink, Source};
use super::{get_wide, hex, Outcome, Scenario};
use crate::verilated::models::RxDma as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::rx_dma::cycle::{Inputs as CycleInputs, Outputs as CycleOutputs, RxDma as RxDmaCycle};
use sim::rx_dma::{beats, wr_cmd_bytes, Beat, Cmd, DmaWrite, RxDma, MAX_FRAME};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Probability that the input offers no beat on a cycle.
    pub gap: f64,
    /// Probability that each output's tready is high on a cycle.
    pub data_ready: f64,
    pub cmd_ready: f64,
    /// Probability that a frame's command may be offered before its frame has ended.
    pub early: f64,
    /// Probability that a command writes.
    pub write: f64,
    /// Probability that a frame or command is bad (tkeep holes, very long, past the end).
    pub bad: f64,
    /// Probability of a one-cycle reset on a cycle.
    pub reset_rate: f64,
}

impl Shape {
    pub const RANDOM: Shape =
        Shape { gap: 0.1, data_ready: 0.8, cmd_ready: 0.8, early: 0.3, write: 0.75, bad: 0.0, reset_rate: 0.0 };
    pub const BAD_INPUT: Shape = Shape { bad: 0.15, reset_rate: 2e-5, ..Shape::RANDOM };
}

/// A random frame length: mostly small (RoCE control and small payloads), some MTU-sized,
/// some jumbo, some on beat and 9216-byte boundaries.
fn frame_len(rng: &mut ChaCha8Rng) -> usize {
    match rng.gen_range(0..10) {
        0..=3 => rng.gen_range(1..=300),
        4..=5 => rng.gen_range(300..=2000),
        6..=7 => rng.gen_range(2000..=9300),
        _ => {
            let k: usize = rng.gen_range(1..=146);
            (64 * k + rng.gen_range(0..3)).saturating_sub(1).max(1)
        }
    }
}

fn random_cmd(rng: &mut ChaCha8Rng, shape: &Shape, len: usize) -> Cmd {
    let write = rng.gen_bool(shape.write);
    let offset = rng.gen_range(0..=127usize.min(len)) as u8;
    let room = len.min(MAX_FRAME) - (offset as usize).min(len.min(MAX_FRAME));
    let plen = if shape.bad > 0.0 && rng.gen_bool(shape.bad) {
        // Past the frame's end (short), or the largest length.
        if rng.gen() { (room + rng.gen_range(1..=64)).min(16383) } else { 16383 }
    } else {
        match rng.gen_range(0..6) {
            0 => room,
            1 => 0,
            2 => room.min(rng.gen_range(1..=64)),
            _ => rng.gen_range(0..=room),
        }
    };
    Cmd { addr: rng.gen(), offset, len: plen as u16, write, flow: rng.gen() }
}

/// A random frame: its beats. Bad ones have tkeep holes (anywhere) or are long (up to 20 000
/// bytes, tlast only at the end).
fn random_frame(rng: &mut ChaCha8Rng, shape: &Shape) -> Vec<Beat> {
    let bad = shape.bad > 0.0 && rng.gen_bool(shape.bad);
    let len = if bad && rng.gen() { rng.gen_range(9200..=20_000) } else { frame_len(rng) };
    let mut bytes = vec![0u8; len];
    rng.fill(&mut bytes[..]);
    let mut beats = beats(&bytes);
    if bad && rng.gen() {
        for _ in 0..rng.gen_range(1..4) {
            let k = rng.gen_range(0..beats.len());
            beats[k].keep &= !(1u64 << rng.gen_range(0..64));
            if rng.gen_bool(0.2) {
                beats[k].keep = rng.gen();
            }
        }
    }
    beats
}

impl super::stream::Beat for Cmd {
    fn write(&self, tdata: &mut [u32]) {
        self.to_bytes().write(tdata);
    }
}


/// The first port on which the RTL differs from the cycle model this cycle, if any.
fn cycle_differs(dut: &Rtl, want: &CycleOutputs, cmd_out: &mut Sink<Rtl>, data_out: &mut Sink<Rtl>) -> Option<String> {
    let readies = (dut.s_axis_tready() == 1, dut.s_axis_cmd_tready() == 1);
    if readies != (want.s_ready, want.cmd_ready) {
        return Some(format!("RTL (s_axis_tready, s_axis_cmd_tready) {readies:?}, cycle model {:?}", (want.s_ready, want.cmd_ready)));
    }
    let got_cmd = cmd_out.peek(dut).map(get_wide);
    let want_cmd = want.wr_cmd.map(|(a, l, f)| wr_cmd_bytes(a, l, f).to_vec());
    if got_cmd != want_cmd {
        return Some(format!("RTL DMA command {:?}, cycle model {:?}", got_cmd.map(|c| hex(&c)), want_cmd.map(|c| hex(&c))));
    }
    let got = data_out.peek(dut).map(get_wide).map(|d| (d, dut.m_axis_dma_wr_tkeep(), dut.m_axis_dma_wr_tlast() == 1));
    let same = match (&got, &want.wr) {
        (None, None) => true,
        (Some((d, keep, last)), Some(b)) => {
            *keep == b.keep && *last == b.last && (0..64).all(|i| keep >> i & 1 == 0 || d[i] == b.data[i])
        }
        _ => false,
    };
    (!same).then(|| {
        format!(
            "RTL payload beat {:?}, cycle model {:?}",
            got.map(|(d, k, l)| (hex(&d), k, l)),
            want.wr.as_ref().map(|b| (hex(&b.data), b.keep, b.last))
        )
    })
}

/// Runs about `cycles` cycles of stimulus, then drains. Metrics: frames, writes (DMA writes
/// compared), beats_out, written / discarded / short (the model's counters summed over the
/// resets), resets, counter_checks (the RTL's counters compared with the model's: before half
/// of the resets, after the traffic drained, and at the end), beats_in_per_cycle_offered.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: Rtl = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mut model = RxDma::default();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut cm = RxDmaCycle::new();
    cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });

    // The frame being sent: its beats wait in `input`, and whether its command may be offered
    // before it ends.
    let mut input: Source<Rtl, Beat> = Source::new(Rtl::S_AXIS);
    input.rate = 1.0 - shape.gap;
    let mut early = false;
    // Commands in frame order, each with the cycle from which it may be offered (None: its
    // frame has not ended yet); the front one goes to `cmd_in` once it may.
    let mut cmds: VecDeque<(Option<u64>, Cmd)> = VecDeque::new();
    let mut cmd_in: Source<Rtl, Cmd> = Source::new(Rtl::S_AXIS_CMD);
    let mut data_out = Sink::new(Rtl::M_AXIS_DMA_WR, 0.0);
    let mut cmd_out = Sink::new(Rtl::M_AXIS_DMA_WR_CMD, 0.0);
    let mut exp_cmd: VecDeque<[u8; 16]> = VecDeque::new();
    let mut exp_data: VecDeque<Vec<u8>> = VecDeque::new();
    let mut beat_at = 0usize; // beats of exp_data.front() already compared
    let (mut frames, mut writes, mut beats_out, mut beats_in, mut resets) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut in_cycles = 0u64;
    let mut not_ready = 0u64;
    let mut idle = 0u64;
    let mut cycle = 0u64;
    let mut tail = 0u64;
    // A reset is coming: Some(0) now, Some(k >= 1) once the traffic has drained for k - 1 cycles.
    let mut quiet: Option<u32> = None;
    let mut counter_checks = 0u64;
    // The model's counters summed over the segments between resets.
    let (mut tot_w, mut tot_d, mut tot_s) = (0u64, 0u64, 0u64);
    loop {
        let running = cycle < cycles;
        let drained = input.is_empty() && cmds.is_empty() && cmd_in.is_empty() && exp_cmd.is_empty() && exp_data.is_empty();
        if !running && drained && quiet.is_none() {
            // A few more cycles: nothing else may come out.
            tail += 1;
            if tail > 64 {
                break;
            }
        }
        if idle > 50_000 {
            o.fail(format!(
                "cycle {cycle}: no progress for 50000 cycles ({} commands, {} writes owed)",
                cmds.len() + cmd_in.len(),
                exp_data.len()
            ));
            break;
        }
        // Half the resets wait for the traffic to drain and check the counters first.
        if running && quiet.is_none() && shape.reset_rate > 0.0 && rng.gen_bool(shape.reset_rate) {
            quiet = Some(if rng.gen() { 0 } else { 1 });
        }
        if quiet.is_some_and(|q| q >= 1) && drained {
            quiet = quiet.map(|q| q + 1);
        }
        if let Some(q) = quiet.filter(|&q| q == 0 || q > 16) {
            if q > 16 {
                let c = model.counters;
                o.check(cycle, ("stat_written", dut.stat_written()), ("stat_written", c.written));
                o.check(cycle, ("stat_discarded", dut.stat_discarded()), ("stat_discarded", c.discarded));
                o.check(cycle, ("stat_short", dut.stat_short()), ("stat_short", c.short));
                counter_checks += 1;
            }
            quiet = None;
            dut.set_reset(1);
            input.clear(&mut dut);
            cmd_in.clear(&mut dut);
            dut.tick();
            dut.set_reset(0);
            cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
            cycle += 1;
            resets += 1;
            tot_w += model.counters.written as u64;
            tot_d += model.counters.discarded as u64;
            tot_s += model.counters.short as u64;
            model = RxDma::default();
            cmds.clear();
            exp_cmd.clear();
            exp_data.clear();
            beat_at = 0;
            continue;
        }
        // A new frame, its command and the model's answer.
        if running && input.is_empty() && quiet.is_none() {
            // Runs of one-beat frames in the slow phase fill the descriptor FIFO.
            let beats = if (cycle / 20_000) % 4 == 3 && rng.gen_bool(0.5) {
                let mut b = vec![0u8; rng.gen_range(1..=64)];
                rng.fill(&mut b[..]);
                beats(&b)
            } else {
                random_frame(&mut rng, shape)
            };
            let len = sim::rx_dma::store(&beats).bytes.len();
            let cmd = random_cmd(&mut rng, shape, len);
            if let Some(w) = model.frame(&beats, &cmd) {
                exp_cmd.push_back(w.cmd_bytes());
                exp_data.push_back(w.payload);
            }
            early = rng.gen_bool(shape.early);
            cmds.push_back((early.then_some(0), cmd));
            frames += 1;
            beats.into_iter().for_each(|b| input.push(b));
        }
        // One phase of 20,000 cycles in four is slow: payload tready on 15% of cycles and
        // commands offered on 5%, so the store and the descriptor FIFO fill up and tready drops.
        let slow = (cycle / 20_000) % 4 == 3;
        if cmd_in.is_empty() && matches!(cmds.front(), Some((Some(t), _)) if *t <= cycle) && (!slow || rng.gen_bool(0.05)) {
            cmd_in.push(cmds.pop_front().unwrap().1);
        }
        input.offer(&mut dut, &mut rng);
        cmd_in.offer(&mut dut, &mut rng);
        data_out.set_ready(&mut dut, rng.gen_bool(if slow { 0.15 } else { shape.data_ready }));
        cmd_out.set_ready(&mut dut, rng.gen_bool(shape.cmd_ready));
        let offer = input.on_port();
        dut.eval();
        // The cycle model on the same inputs: every port equal on every cycle (payload bytes
        // in kept lanes only; the others are not defined).
        let want = cm.step(&CycleInputs {
            reset: false,
            beat: input.front().filter(|_| input.on_port()),
            cmd: cmd_in.front().filter(|_| cmd_in.on_port()),
            wr_cmd_ready: cmd_out.is_ready(),
            wr_ready: data_out.is_ready(),
        });
        if let Some(e) = cycle_differs(&dut, &want, &mut cmd_out, &mut data_out) {
            o.fail(format!("cycle {cycle}: {e}"));
            break;
        }
        let took = input.taken(&dut).is_some();
        let took_cmd = cmd_in.taken(&dut).is_some();
        idle += 1;
        if let Some(d) = cmd_out.take(&dut) {
            idle = 0;
            let got = get_wide(d);
            match exp_cmd.pop_front() {
                Some(want) => {
                    o.transactions += 1;
                    if got[..] != want[..] {
                        o.check(cycle, hex(&got), hex(&want));
                    }
                }
                None => o.check(cycle, hex(&got), "no DMA command".into()),
            }
        }
        if let Some(d) = data_out.take(&dut) {
            let got = get_wide(d);
            let (keep, last) = (data_out.keep, data_out.last);
            idle = 0;
            beats_out += 1;
            match exp_data.front() {
                Some(p) => {
                    let from = 64 * beat_at;
                    let n = (p.len() - from).min(64);
                    let want_keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                    let want_last = from + n == p.len();
                    if keep != want_keep || last != want_last || got[..n] != p[from..from + n] {
                        o.check(
                            cycle,
                            format!("write {writes} beat {beat_at}: keep {keep:x} last {last} {}", hex(&got[..n])),
                            format!(
                                "write {writes} beat {beat_at}: keep {want_keep:x} last {want_last} {}",
                                hex(&p[from..from + n])
                            ),
                        );
                    }
                    beat_at += 1;
                    if want_last {
                        exp_data.pop_front();
                        beat_at = 0;
                        writes += 1;
                    }
                }
                None => o.check(cycle, format!("beat {}", hex(&got)), "no payload beat".into()),
            }
        }
        if exp_data.is_empty() && exp_cmd.is_empty() {
            idle = 0;
        }
        dut.tick();
        if offer {
            in_cycles += 1;
            not_ready += !took as u64;
        }
        if took {
            idle = 0;
            beats_in += 1;
            // The frame's last beat: a late command may be offered from 1-41 cycles on.
            if input.is_empty() && !early {
                cmds.back_mut().unwrap().0 = Some(cycle + 1 + rng.gen_range(0..=40));
            }
        }
        if took_cmd {
            idle = 0;
        }
        cycle += 1;
    }
    let c = model.counters;
    o.check(cycle, ("stat_written", dut.stat_written()), ("stat_written", c.written));
    o.check(cycle, ("stat_discarded", dut.stat_discarded()), ("stat_discarded", c.discarded));
    o.check(cycle, ("stat_short", dut.stat_short()), ("stat_short", c.short));
    o.cycles = cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o.metric("frames", frames as f64);
    o.metric("writes", writes as f64);
    o.metric("beats_out", beats_out as f64);
    o.metric("written", (tot_w + c.written as u64) as f64);
    o.metric("discarded", (tot_d + c.discarded as u64) as f64);
    o.metric("short", (tot_s + c.short as u64) as f64);
    o.metric("resets", resets as f64);
    o.metric("counter_checks", counter_checks as f64 + 1.0);
    o.metric("beats_in_per_cycle_offered", beats_in as f64 / in_cycles.max(1) as f64);
    o.metric("cycles_not_ready", not_ready as f64);
    o
}


/// One point of the line-rate sweep: `frames` back-to-back RDMA WRITE Middle-shaped frames
/// (54 header bytes, the payload, pad to 4, 4 ICRC bytes), every frame written (offset 54),
/// each command offered 12 cycles after its frame's last beat; a beat offered on every cycle;
/// payload tready low on a random `backpressure` fraction of cycles. Returns (beats in per
/// cycle from the first beat to the last beat taken, payload beats out per cycle from the
/// first to the last output beat, frames, mismatching writes).
pub fn line_rate(payload: usize, frames: usize, backpressure: f64, seed: u64) -> (f64, f64, u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut = Rtl::new();
    let mut model = RxDma::default();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let flen = 54 + payload + (4 - payload % 4) % 4 + 4;
    let cmd_of = |i: usize| Cmd { addr: i as u64 * 4096, offset: 54, len: payload as u16, write: true, flow: i as u16 };
    let mut input: Source<Rtl, Beat> = Source::new(Rtl::S_AXIS);
    let mut exp: VecDeque<DmaWrite> = VecDeque::new();
    for i in 0..frames {
        let mut bytes = vec![0u8; flen];
        rng.fill(&mut bytes[..]);
        let beats = beats(&bytes);
        exp.push_back(model.frame(&beats, &cmd_of(i)).unwrap());
        beats.into_iter().for_each(|b| input.push(b));
    }
    let mut cmd_in: Source<Rtl, Cmd> = Source::new(Rtl::S_AXIS_CMD);
    let mut out = Sink::new(Rtl::M_AXIS_DMA_WR, backpressure);
    Sink::new(Rtl::M_AXIS_DMA_WR_CMD, 0.0).set_ready(&mut dut, true);
    let mut next_cmd = 0usize;
    // The cycle from which each ended frame's command may be offered.
    let mut release: VecDeque<u64> = VecDeque::new();
    let (mut beats_in, mut first_in, mut last_in) = (0u64, None, 0u64);
    let (mut beats_out, mut first_out, mut last_out) = (0u64, None, 0u64);
    let (mut bad, mut beat_at) = (0u64, 0usize);
    let mut cycle = 0u64;
    while !(exp.is_empty() && input.is_empty()) && cycle < 100 * (frames as u64 * 200 + 1000) {
        if cmd_in.is_empty() && matches!(release.front(), Some(&t) if t <= cycle) {
            release.pop_front();
            cmd_in.push(cmd_of(next_cmd));
            next_cmd += 1;
        }
        input.offer(&mut dut, &mut rng);
        cmd_in.offer(&mut dut, &mut rng);
        out.ready(&mut dut, &mut rng);
        dut.eval();
        let took = input.taken(&dut);
        cmd_in.taken(&dut);
        if let Some(d) = out.take(&dut) {
            let got = get_wide(d);
            beats_out += 1;
            first_out.get_or_insert(cycle);
            last_out = cycle;
            let w = exp.front().unwrap();
            let from = 64 * beat_at;
            let n = (w.payload.len() - from).min(64);
            if got[..n] != w.payload[from..from + n] || out.last != (from + n == w.payload.len()) {
                bad += 1;
            }
            beat_at += 1;
            if from + n == w.payload.len() {
                exp.pop_front();
                beat_at = 0;
            }
        }
        dut.tick();
        if let Some(b) = took {
            beats_in += 1;
            first_in.get_or_insert(cycle);
            last_in = cycle;
            if b.last {
                release.push_back(cycle + 12);
            }
        }
        cycle += 1;
    }
    let bad = bad + exp.len() as u64;
    let rate_in = beats_in as f64 / (last_in + 1 - first_in.unwrap_or(0)) as f64;
    let rate_out = beats_out as f64 / (last_out + 1 - first_out.unwrap_or(0)) as f64;
    (rate_in, rate_out, frames as u64, bad)
}

/// The regression scenarios.
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::RxDmaRandom, seed, cycles, &Shape::RANDOM, vcd)
}

pub fn bad_input(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::RxDmaBadInput, seed, cycles, &Shape::BAD_INPUT, vcd)
}

/// Directed timing: `frames` one-beat frames and a 3-beat frame are stored first (no command
/// yet); then the frames' discard commands and the write command (offset 54, 90 bytes) are
/// offered back to back, outputs always ready. Returns (cycles from the first discard command
/// taken to the last frame discarded (stat_discarded reaching `frames`), cycles from the write
/// command taken to its DMA command offered, and to its first payload beat offered).
pub fn latency(frames: usize) -> (u64, u64, u64) {
    let mut dut = Rtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let tail = beats(&[7u8; 150]);
    let mut beats: Vec<Beat> = (0..frames).flat_map(|i| beats(&[i as u8; 60])).collect();
    beats.extend(tail);
    let mut cmds: Vec<Cmd> = vec![Cmd::default(); frames];
    cmds.push(Cmd { addr: 1, offset: 54, len: 90, write: true, flow: 3 });
    let n_beats = beats.len() as u64;
    let mut input: Source<Rtl, Beat> = Source::new(Rtl::S_AXIS);
    beats.into_iter().for_each(|b| input.push(b));
    let mut cmd_in: Source<Rtl, Cmd> = Source::new(Rtl::S_AXIS_CMD);
    let mut cmds = cmds.into_iter();
    let (mut data_out, mut cmd_out) = (Sink::new(Rtl::M_AXIS_DMA_WR, 0.0), Sink::new(Rtl::M_AXIS_DMA_WR_CMD, 0.0));
    data_out.set_ready(&mut dut, true);
    cmd_out.set_ready(&mut dut, true);
    let mut ci = 0usize;
    let (mut first_cmd, mut write_taken, mut all_discarded, mut dma_cmd, mut dma_beat) = (None, None, None, None, None);
    for cycle in 0..(20 * frames as u64 + 1000) {
        // Commands once every frame is in (and its descriptor had time to be written).
        if input.is_empty() && cycle > n_beats + 8 && cmd_in.is_empty() {
            if let Some(c) = cmds.next() {
                cmd_in.push(c);
            }
        }
        input.offer_now(&mut dut);
        cmd_in.offer_now(&mut dut);
        dut.eval();
        if cmd_out.valid(&dut) {
            dma_cmd.get_or_insert(cycle);
        }
        if data_out.valid(&dut) {
            dma_beat.get_or_insert(cycle);
        }
        input.taken(&dut);
        let took_cmd = cmd_in.taken(&dut).is_some();
        dut.tick();
        if took_cmd {
            first_cmd.get_or_insert(cycle);
            if ci == frames {
                write_taken = Some(cycle);
            }
            ci += 1;
        }
        if dut.stat_discarded() as usize == frames {
            all_discarded.get_or_insert(cycle);
        }
    }
    let (f, w) = (first_cmd.unwrap(), write_taken.unwrap());
    (all_discarded.unwrap() - f, dma_cmd.unwrap() - w, dma_beat.unwrap() - w)
}

/// Cycles from a frame's last beat taken to its first payload beat offered, when its write
/// command came before the frame (idle block, outputs ready; a 3-beat frame, offset 54).
pub fn frame_to_output() -> u64 {
    let mut dut = Rtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut input: Source<Rtl, Beat> = Source::new(Rtl::S_AXIS);
    let mut cmd_in: Source<Rtl, Cmd> = Source::new(Rtl::S_AXIS_CMD);
    cmd_in.push(Cmd { addr: 1, offset: 54, len: 90, write: true, flow: 3 });
    let mut frame = Some(beats(&[9u8; 150]));
    let (mut data_out, mut cmd_out) = (Sink::new(Rtl::M_AXIS_DMA_WR, 0.0), Sink::new(Rtl::M_AXIS_DMA_WR_CMD, 0.0));
    data_out.set_ready(&mut dut, true);
    cmd_out.set_ready(&mut dut, true);
    let (mut last_in, mut out) = (None, None);
    for cycle in 0..100u64 {
        // The frame starts once the command is in.
        if cmd_in.is_empty() {
            frame.take().into_iter().flatten().for_each(|b| input.push(b));
        }
        input.offer_now(&mut dut);
        cmd_in.offer_now(&mut dut);
        dut.eval();
        if data_out.valid(&dut) {
            out.get_or_insert(cycle);
        }
        let took = input.taken(&dut).is_some_and(|b| b.last);
        cmd_in.taken(&dut);
        dut.tick();
        if took {
            last_in = Some(cycle);
        }
    }
    out.unwrap() - last_in.unwrap()
}

/// `frames` and their commands (`s_axis_cmd_tdata` bytes, one per frame, in order) through the
/// RTL with random input gaps and random backpressure on both outputs; the DMA writes it makes,
/// in order, each checked for a command beside its payload (address, length, flow) and tkeep
/// contiguous. For tests that feed it another block's commands.
pub fn transfer(frames: &[Vec<u8>], cmds: &[[u8; 16]], seed: u64) -> Vec<DmaWrite> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut = Rtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut input: Source<Rtl, Beat> = Source::new(Rtl::S_AXIS);
    frames.iter().flat_map(|f| beats(f)).for_each(|b| input.push(b));
    let mut cmd_in: Source<Rtl, [u8; 16]> = Source::new(Rtl::S_AXIS_CMD);
    cmds.iter().for_each(|c| cmd_in.push(*c));
    (input.rate, cmd_in.rate) = (0.9, 0.5);
    let mut cmd_out = Sink::new(Rtl::M_AXIS_DMA_WR_CMD, 0.2);
    let mut data_out = Sink::new(Rtl::M_AXIS_DMA_WR, 0.2);
    let mut got_cmds: VecDeque<Vec<u8>> = VecDeque::new();
    let (mut writes, mut payload) = (vec![], vec![]);
    let mut quiet = 0;
    while quiet < 200 {
        quiet += 1;
        input.offer(&mut dut, &mut rng);
        cmd_in.offer(&mut dut, &mut rng);
        cmd_out.ready(&mut dut, &mut rng);
        data_out.ready(&mut dut, &mut rng);
        dut.eval();
        if let Some(d) = cmd_out.take(&dut) {
            got_cmds.push_back(get_wide(d));
            quiet = 0;
        }
        if let Some(d) = data_out.take(&dut) {
            let got = get_wide(d);
            let keep = data_out.keep;
            assert_eq!(keep & keep.wrapping_add(1), 0, "tkeep not contiguous from lane 0: {keep:#x}");
            payload.extend(&got[..keep.count_ones() as usize]);
            if data_out.last {
                let c = got_cmds.pop_front().expect("payload without its DMA command");
                let w = DmaWrite {
                    addr: u64::from_le_bytes(c[..8].try_into().unwrap()),
                    flow: u16::from_le_bytes([c[10], c[11]]),
                    payload: std::mem::take(&mut payload),
                };
                assert_eq!(c[..16], w.cmd_bytes(), "DMA command does not describe its payload");
                writes.push(w);
            }
            quiet = 0;
        }
        if input.taken(&dut).is_some() | cmd_in.taken(&dut).is_some() {
            quiet = 0;
        }
        dut.tick();
    }
    assert!(input.is_empty() && cmd_in.is_empty(), "rx_dma stopped taking input");
    assert!(got_cmds.is_empty() && payload.is_empty(), "a DMA write left unfinished");
    writes
}
