//! rx_dma against its golden model (`sim::rx_dma`), write by write: random frames of 1..9300
//! bytes (and longer without tlast in the bad-input shape), one command per frame offered
//! before, during or 0-40 cycles after the frame, random input gaps and random backpressure on
//! both outputs. Every DMA command (address, length, flow) and every payload beat (kept bytes,
//! tkeep, tlast) is compared with the model's writes in order; the counters at the end. One
//! 20,000-cycle phase in four has slow outputs and slow commands, so the store fills. The
//! bad-input shape adds tkeep holes, frames of up to 20 000 bytes, write commands past the
//! frame's end and resets at random cycles (after which the model starts again).

use super::{set_wide, get_wide, hex, Outcome, Scenario};
use crate::verilated::models::RxDma as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::rx_dma::{beats, Beat, Cmd, DmaWrite, RxDma, MAX_FRAME};
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

fn set_beat(dut: &mut Rtl, b: &Beat) {
    set_wide(dut.s_axis_tdata_mut(), &b.data);
    dut.set_s_axis_tkeep(b.keep);
    dut.set_s_axis_tlast(b.last as u8);
}


/// A frame being sent: its beats and the next one.
struct InFrame {
    beats: Vec<Beat>,
    next: usize,
    /// Its command may be offered before the frame ends.
    early: bool,
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

    let mut frame: Option<InFrame> = None;
    // Commands in frame order, each with the cycle from which it may be offered (None: its
    // frame has not ended yet).
    let mut cmds: VecDeque<(Option<u64>, Cmd)> = VecDeque::new();
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
        let drained = frame.is_none() && cmds.is_empty() && exp_cmd.is_empty() && exp_data.is_empty();
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
                cmds.len(),
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
            dut.set_s_axis_tvalid(0);
            dut.set_s_axis_cmd_tvalid(0);
            dut.tick();
            dut.set_reset(0);
            cycle += 1;
            resets += 1;
            tot_w += model.counters.written as u64;
            tot_d += model.counters.discarded as u64;
            tot_s += model.counters.short as u64;
            model = RxDma::default();
            frame = None;
            cmds.clear();
            exp_cmd.clear();
            exp_data.clear();
            beat_at = 0;
            continue;
        }
        // A new frame, its command and the model's answer.
        if running && frame.is_none() && quiet.is_none() {
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
            let early = rng.gen_bool(shape.early);
            cmds.push_back((early.then_some(0), cmd));
            frames += 1;
            frame = Some(InFrame { beats, next: 0, early });
        }
        // Input beat.
        let offer = frame.is_some() && !rng.gen_bool(shape.gap);
        dut.set_s_axis_tvalid(offer as u8);
        if let Some(f) = &frame {
            set_beat(&mut dut, &f.beats[f.next]);
        }
        // Command.
        // One phase of 20,000 cycles in four is slow: payload tready on 15% of cycles and
        // commands on 5%, so the store and the descriptor FIFO fill up and tready drops.
        let slow = (cycle / 20_000) % 4 == 3;
        let cmd_offer = matches!(cmds.front(), Some((Some(t), _)) if *t <= cycle) && (!slow || rng.gen_bool(0.05));
        dut.set_s_axis_cmd_tvalid(cmd_offer as u8);
        if cmd_offer {
            let b = cmds.front().unwrap().1.to_bytes();
            set_wide(dut.s_axis_cmd_tdata_mut(), &b);
        }
        let d_ready = rng.gen_bool(if slow { 0.15 } else { shape.data_ready });
        let c_ready = rng.gen_bool(shape.cmd_ready);
        dut.set_m_axis_dma_wr_tready(d_ready as u8);
        dut.set_m_axis_dma_wr_cmd_tready(c_ready as u8);
        dut.eval();
        let took = offer && dut.s_axis_tready() == 1;
        let took_cmd = cmd_offer && dut.s_axis_cmd_tready() == 1;
        idle += 1;
        if c_ready && dut.m_axis_dma_wr_cmd_tvalid() == 1 {
            idle = 0;
            let got = get_wide(dut.m_axis_dma_wr_cmd_tdata());
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
        if d_ready && dut.m_axis_dma_wr_tvalid() == 1 {
            idle = 0;
            beats_out += 1;
            let got = get_wide(dut.m_axis_dma_wr_tdata());
            let keep = dut.m_axis_dma_wr_tkeep();
            let last = dut.m_axis_dma_wr_tlast() == 1;
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
            let f = frame.as_mut().unwrap();
            f.next += 1;
            if f.next == f.beats.len() {
                // A late command is still queued (it cannot be offered before this).
                if !f.early {
                    cmds.back_mut().unwrap().0 = Some(cycle + 1 + rng.gen_range(0..=40));
                }
                frame = None;
            }
        }
        if took_cmd {
            idle = 0;
            cmds.pop_front();
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
    let mut pending: VecDeque<Vec<Beat>> = VecDeque::new();
    let mut exp: VecDeque<DmaWrite> = VecDeque::new();
    for i in 0..frames {
        let mut bytes = vec![0u8; flen];
        rng.fill(&mut bytes[..]);
        let beats = beats(&bytes);
        let cmd = Cmd { addr: i as u64 * 4096, offset: 54, len: payload as u16, write: true, flow: i as u16 };
        exp.push_back(model.frame(&beats, &cmd).unwrap());
        pending.push_back(beats);
    }
    let cmd_of = |i: usize| Cmd { addr: i as u64 * 4096, offset: 54, len: payload as u16, write: true, flow: i as u16 };
    let (mut at, mut sent_frames, mut next_cmd) = (0usize, 0usize, 0usize);
    let mut release: VecDeque<u64> = VecDeque::new();
    let (mut beats_in, mut first_in, mut last_in) = (0u64, None, 0u64);
    let (mut beats_out, mut first_out, mut last_out) = (0u64, None, 0u64);
    let (mut bad, mut beat_at) = (0u64, 0usize);
    let mut cycle = 0u64;
    while !(exp.is_empty() && pending.is_empty()) && cycle < 100 * (frames as u64 * 200 + 1000) {
        let offer = !pending.is_empty();
        dut.set_s_axis_tvalid(offer as u8);
        if let Some(f) = pending.front() {
            set_beat(&mut dut, &f[at]);
        }
        let cmd_offer = matches!(release.front(), Some(&t) if t <= cycle);
        dut.set_s_axis_cmd_tvalid(cmd_offer as u8);
        if cmd_offer {
            let b = cmd_of(next_cmd).to_bytes();
            set_wide(dut.s_axis_cmd_tdata_mut(), &b);
        }
        let ready = !rng.gen_bool(backpressure);
        dut.set_m_axis_dma_wr_tready(ready as u8);
        dut.set_m_axis_dma_wr_cmd_tready(1);
        dut.eval();
        let took = offer && dut.s_axis_tready() == 1;
        let took_cmd = cmd_offer && dut.s_axis_cmd_tready() == 1;
        if ready && dut.m_axis_dma_wr_tvalid() == 1 {
            beats_out += 1;
            first_out.get_or_insert(cycle);
            last_out = cycle;
            let got = get_wide(dut.m_axis_dma_wr_tdata());
            let w = exp.front().unwrap();
            let from = 64 * beat_at;
            let n = (w.payload.len() - from).min(64);
            let last = dut.m_axis_dma_wr_tlast() == 1;
            if got[..n] != w.payload[from..from + n] || last != (from + n == w.payload.len()) {
                bad += 1;
            }
            beat_at += 1;
            if from + n == w.payload.len() {
                exp.pop_front();
                beat_at = 0;
            }
        }
        dut.tick();
        if took {
            beats_in += 1;
            first_in.get_or_insert(cycle);
            last_in = cycle;
            at += 1;
            if at == pending.front().unwrap().len() {
                pending.pop_front();
                at = 0;
                sent_frames += 1;
                release.push_back(cycle + 12);
            }
        }
        if took_cmd {
            release.pop_front();
            next_cmd += 1;
        }
        cycle += 1;
    }
    let _ = sent_frames;
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
    let mut cmds: Vec<Cmd> = (0..frames).map(|_| Cmd::default()).collect();
    cmds.push(Cmd { addr: 1, offset: 54, len: 90, write: true, flow: 3 });
    let (mut bi, mut ci) = (0usize, 0usize);
    let (mut first_cmd, mut write_taken, mut all_discarded, mut dma_cmd, mut dma_beat) = (None, None, None, None, None);
    for cycle in 0..(20 * frames as u64 + 1000) {
        dut.set_s_axis_tvalid((bi < beats.len()) as u8);
        if bi < beats.len() {
            set_beat(&mut dut, &beats[bi]);
        }
        // Commands once every frame is in (and its descriptor had time to be written).
        let cmd_on = bi == beats.len() && cycle > beats.len() as u64 + 8 && ci < cmds.len();
        dut.set_s_axis_cmd_tvalid(cmd_on as u8);
        if cmd_on {
            let b = cmds[ci].to_bytes();
            set_wide(dut.s_axis_cmd_tdata_mut(), &b);
        }
        dut.set_m_axis_dma_wr_tready(1);
        dut.set_m_axis_dma_wr_cmd_tready(1);
        dut.eval();
        if dut.m_axis_dma_wr_cmd_tvalid() == 1 {
            dma_cmd.get_or_insert(cycle);
        }
        if dut.m_axis_dma_wr_tvalid() == 1 {
            dma_beat.get_or_insert(cycle);
        }
        let took = bi < beats.len() && dut.s_axis_tready() == 1;
        let took_cmd = cmd_on && dut.s_axis_cmd_tready() == 1;
        dut.tick();
        bi += took as usize;
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
    let beats = beats(&[9u8; 150]);
    let b = Cmd { addr: 1, offset: 54, len: 90, write: true, flow: 3 }.to_bytes();
    set_wide(dut.s_axis_cmd_tdata_mut(), &b);
    let (mut bi, mut cmd_in, mut last_in, mut out) = (0usize, false, None, None);
    for cycle in 0..100u64 {
        dut.set_s_axis_cmd_tvalid(!cmd_in as u8);
        // The frame starts once the command is in.
        let on = cmd_in && bi < beats.len();
        dut.set_s_axis_tvalid(on as u8);
        set_beat(&mut dut, &beats[bi.min(beats.len() - 1)]);
        dut.set_m_axis_dma_wr_tready(1);
        dut.set_m_axis_dma_wr_cmd_tready(1);
        dut.eval();
        if dut.m_axis_dma_wr_tvalid() == 1 {
            out.get_or_insert(cycle);
        }
        let took = on && dut.s_axis_tready() == 1;
        cmd_in |= dut.s_axis_cmd_tready() == 1;
        dut.tick();
        if took {
            bi += 1;
            if bi == beats.len() {
                last_in = Some(cycle);
            }
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
    let beats: Vec<Beat> = frames.iter().flat_map(|f| beats(f)).collect();
    let (mut bi, mut ci) = (0usize, 0usize);
    let mut cmd_out: VecDeque<Vec<u8>> = VecDeque::new();
    let (mut writes, mut payload) = (vec![], vec![]);
    let mut quiet = 0;
    while quiet < 200 {
        quiet += 1;
        let beat_on = bi < beats.len() && rng.gen_bool(0.9);
        dut.set_s_axis_tvalid(beat_on as u8);
        if beat_on {
            set_beat(&mut dut, &beats[bi]);
        }
        let cmd_on = ci < cmds.len() && rng.gen_bool(0.5);
        dut.set_s_axis_cmd_tvalid(cmd_on as u8);
        if cmd_on {
            set_wide(dut.s_axis_cmd_tdata_mut(), &cmds[ci]);
        }
        let (c_ready, d_ready) = (rng.gen_bool(0.8), rng.gen_bool(0.8));
        dut.set_m_axis_dma_wr_cmd_tready(c_ready as u8);
        dut.set_m_axis_dma_wr_tready(d_ready as u8);
        dut.eval();
        if c_ready && dut.m_axis_dma_wr_cmd_tvalid() == 1 {
            cmd_out.push_back(get_wide(dut.m_axis_dma_wr_cmd_tdata()));
            quiet = 0;
        }
        if d_ready && dut.m_axis_dma_wr_tvalid() == 1 {
            let keep = dut.m_axis_dma_wr_tkeep();
            assert_eq!(keep & keep.wrapping_add(1), 0, "tkeep not contiguous from lane 0: {keep:#x}");
            payload.extend(&get_wide(dut.m_axis_dma_wr_tdata())[..keep.count_ones() as usize]);
            if dut.m_axis_dma_wr_tlast() == 1 {
                let c = cmd_out.pop_front().expect("payload without its DMA command");
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
        if (beat_on && dut.s_axis_tready() == 1) || (cmd_on && dut.s_axis_cmd_tready() == 1) {
            quiet = 0;
        }
        bi += (beat_on && dut.s_axis_tready() == 1) as usize;
        ci += (cmd_on && dut.s_axis_cmd_tready() == 1) as usize;
        dut.tick();
    }
    assert_eq!((bi, ci), (beats.len(), cmds.len()), "rx_dma stopped taking input");
    assert!(cmd_out.is_empty() && payload.is_empty(), "a DMA write left unfinished");
    writes
}
