//! pcie_wr against its model (`sim::pcie_wr`): DMA writes of 1 B to 9 KiB at random addresses
//! (some just below a page end), each command offered before, with or after its payload, gaps
//! in both streams, random backpressure on RQ, the max payload size per seed. Every RQ beat is
//! compared with the model's: the descriptor, every payload byte the byte enables write,
//! tkeep, tlast and tuser.
//!
//! Bad input, on a share of the writes: a payload of another beat count than its command's
//! length, a command of length 0, a payload longer than the store keeps (160 beats). Each is
//! dropped and counted, and the writes around it are unharmed.

use super::{hex, Outcome, Scenario};
use crate::verilated::models::PcieWr as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{le_bytes, DMA_WR};
use sim::pcie_wr::{tlps, RqBeat};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Probability that a write is bad (length mismatch, length 0, too long).
    pub bad: f64,
    /// Probability that RQ is ready on a cycle.
    pub rq_ready: f64,
    /// Probability of a cycle without a payload beat (or command) while one waits.
    pub gap: f64,
    /// Every write this long, 4 KiB-aligned (None: random).
    pub len: Option<usize>,
    /// The max payload size (PCIe encoding; None: by seed).
    pub mps: Option<u8>,
}

impl Shape {
    pub const RANDOM: Shape = Shape { bad: 0.0, rq_ready: 0.8, gap: 0.1, len: None, mps: None };
    pub const BAD_INPUT: Shape = Shape { bad: 0.05, ..Shape::RANDOM };
}

fn write_len(rng: &mut ChaCha8Rng) -> usize {
    match rng.gen_range(0..8) {
        0..=2 => rng.gen_range(1..=300),
        3..=5 => [256usize, 1024, 4096][rng.gen_range(0..3)] + rng.gen_range(0..3) - 1,
        6 => rng.gen_range(300..=4200),
        _ => rng.gen_range(4200..=9216),
    }
}

/// Cycles before the throughput count starts.
const WARM: u64 = 2000;

/// Runs one seed for about `cycles` cycles of writes, then drains.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mps = shape.mps.unwrap_or((seed % 4) as u8);
    d.set_cfg_max_payload(mps);
    // Commands and payload beats waiting to go in; the RQ beats owed, in order.
    let mut cmds: VecDeque<[u32; 4]> = VecDeque::new();
    let mut beats: VecDeque<([u8; 64], bool)> = VecDeque::new();
    let mut want: VecDeque<RqBeat> = VecDeque::new();
    let (mut writes, mut n_tlps, mut len_errors) = (0u64, 0u64, 0u64);
    let (mut idle, mut cycle, mut tail) = (0u64, 0u64, 0u64);
    let (mut payload_bytes, mut steady) = (0u64, 0u64);
    d.set_reset(1);
    d.tick();
    d.tick();
    d.set_reset(0);
    loop {
        let running = cycle < cycles;
        if !running && cmds.is_empty() && beats.is_empty() && want.is_empty() {
            tail += 1;
            if tail > 64 {
                break;
            }
        }
        if idle > 20_000 {
            o.fail(format!("cycle {cycle}: no progress for 20000 cycles ({} RQ beats owed)", want.len()));
            break;
        }
        // A new write: its command and payload go in on their own streams.
        if running && cmds.len() < 4 && beats.len() < 300 {
            let len = shape.len.unwrap_or_else(|| write_len(&mut rng));
            let addr = match shape.len {
                Some(_) => rng.gen::<u64>() & !0xfff,
                None if rng.gen_bool(0.2) => (rng.gen::<u64>() | 0xf00) & !0xff | rng.gen_range(0..256),
                None => rng.gen(),
            }
            .min(u64::MAX - 20_000);
            let mut data = vec![0u8; len];
            rng.fill(&mut data[..]);
            let mut cmd_len = len;
            let mut good = true;
            if rng.gen_bool(shape.bad) {
                good = false;
                match rng.gen_range(0..3) {
                    // Another beat count than the command says.
                    0 => cmd_len = if len > 64 { len - 64 } else { len + 64 },
                    1 => cmd_len = 0,
                    // Longer than the store keeps.
                    _ => {
                        data = vec![0x5a; rng.gen_range(160 * 64 + 1..=12_000)];
                        cmd_len = data.len();
                    }
                }
            }
            let mut w = [0u32; 4];
            DMA_WR.addr.set(&mut w, addr);
            DMA_WR.len.set(&mut w, cmd_len as u64);
            DMA_WR.flow.set(&mut w, rng.gen::<u16>() as u64);
            cmds.push_back(w);
            let n = data.len().div_ceil(64);
            for (k, c) in data.chunks(64).enumerate() {
                let mut b = [0u8; 64];
                b[..c.len()].copy_from_slice(c);
                beats.push_back((b, k + 1 == n));
            }
            if good {
                for t in tlps(addr, &data, mps) {
                    want.extend(t.beats());
                    n_tlps += 1;
                }
                writes += 1;
            } else {
                len_errors += 1;
            }
        }
        let cmd_on = !cmds.is_empty() && !rng.gen_bool(shape.gap);
        d.set_s_axis_cmd_tvalid(cmd_on as u8);
        if let Some(w) = cmds.front() {
            d.s_axis_cmd_tdata_mut().copy_from_slice(w);
        }
        let data_on = !beats.is_empty() && !rng.gen_bool(shape.gap);
        d.set_s_axis_data_tvalid(data_on as u8);
        if let Some((b, last)) = beats.front() {
            for (i, w) in d.s_axis_data_tdata_mut().iter_mut().enumerate() {
                *w = u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
            }
            d.set_s_axis_data_tlast(*last as u8);
            d.set_s_axis_data_tkeep(u64::MAX);
        }
        let rq_ready = rng.gen_bool(shape.rq_ready);
        d.set_m_axis_rq_tready(rq_ready as u8);
        d.eval();
        idle += 1;
        if cmd_on && d.s_axis_cmd_tready() == 1 {
            cmds.pop_front();
        }
        if data_on && d.s_axis_data_tready() == 1 {
            beats.pop_front();
        }
        if d.m_axis_rq_tvalid() == 1 && rq_ready {
            idle = 0;
            let got = le_bytes::<64>(d.m_axis_rq_tdata());
            let (keep, last) = (d.m_axis_rq_tkeep(), d.m_axis_rq_tlast() == 1);
            let user: Vec<u32> = d.m_axis_rq_tuser().to_vec();
            match want.pop_front() {
                None => o.check(cycle, hex(&got), "no RQ beat".into()),
                Some(w) => {
                    o.transactions += 1;
                    let same = (0..64).all(|i| w.care >> i & 1 == 0 || got[i] == w.data[i]);
                    if !same || keep != w.keep || last != w.last || user[..] != w.user[..] {
                        let mask = |b: &[u8; 64]| -> Vec<u8> {
                            (0..64).map(|i| if w.care >> i & 1 == 1 { b[i] } else { 0 }).collect()
                        };
                        o.check(
                            cycle,
                            format!("keep {keep:x} last {last} user {user:x?} {}", hex(&mask(&got))),
                            format!("keep {:x} last {} user {:x?} {}", w.keep, w.last, w.user, hex(&mask(&w.data))),
                        );
                    }
                    // Payload bytes (the descriptor's 16 are not).
                    let sop = sim::layout::PCIE_RQ_USER.is_sop.get(&w.user) == 1;
                    let n = w.care.count_ones() as u64 - if sop { 16 } else { 0 };
                    payload_bytes += n;
                    if (WARM..cycles).contains(&cycle) {
                        steady += n;
                    }
                }
            }
        }
        if want.is_empty() {
            idle = 0;
        }
        d.tick();
        cycle += 1;
        if o.mismatches > 0 {
            break;
        }
    }
    let got = (d.stat_writes() as u64, d.stat_tlps() as u64, d.stat_len_errors() as u64);
    if o.passed() && got != (writes, n_tlps, len_errors) {
        o.fail(format!("counters (writes, TLPs, length errors): rtl {got:?}, expected {:?}", (writes, n_tlps, len_errors)));
    }
    o.cycles = cycle;
    o.metric("writes", writes as f64);
    o.metric("tlps", n_tlps as f64);
    o.metric("len_errors", len_errors as f64);
    o.metric("rq_bytes", payload_bytes as f64);
    o.metric("steady_bytes", steady as f64);
    o.metric("steady_cycles", cycles.saturating_sub(WARM) as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// Write throughput with nothing held back (RQ always ready, no gaps): max payload 128, 256
/// and 512 bytes, writes of 256 B, 1 KiB and 4 KiB, each `cycles / 9` cycles. Metrics
/// `gbps_p<payload>_w<write>`: Gb/s at 250 MHz of payload on RQ after the first 2,000
/// cycles. Fails on any difference from the model, or under 100 Gb/s for 4 KiB writes at max
/// payload 256.
pub fn rate(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let each = (cycles / 9).max(4000);
    for mps in [0u8, 1, 2] {
        for len in [256usize, 1024, 4096] {
            let shape = Shape { rq_ready: 1.0, gap: 0.0, len: Some(len), mps: Some(mps), ..Shape::RANDOM };
            let r = run(scenario, seed, each, &shape, vcd);
            let gbps = r.get("steady_bytes").unwrap() * 8.0 * 0.25 / r.get("steady_cycles").unwrap();
            o.transactions += r.transactions;
            o.cycles += r.cycles;
            if !r.passed() {
                o.mismatches += r.mismatches;
                o.first_mismatch = o.first_mismatch.or(r.first_mismatch);
                o.failures.extend(r.failures);
            }
            o.metric(&format!("gbps_p{}_w{len}", 128 << mps), (gbps * 10.0).round() / 10.0);
            if mps == 1 && len == 4096 && gbps < 100.0 {
                o.fail(format!("max payload 256, 4 KiB writes: {gbps:.1} Gb/s, under 100"));
            }
        }
    }
    o.seconds = start.elapsed().as_secs_f64();
    o
}
