//! pcie_rd against its model (`sim::pcie_rd`), with a completer in front of it that behaves as
//! a root complex behind the UltraScale+ hard block may: completions split at random multiples
//! of the read completion boundary (64 or 128 bytes, by seed), each after its own random
//! latency, so completions of different tags overtake each other (those of one tag keep their
//! order); random gaps on RC, random backpressure on RQ and on the data stream, the max read
//! request size changed between requests.
//!
//! Bad input, on a share of the reads: an error completion (UR status, a completion timeout,
//! or a poisoned payload) for a read TLP, a completion whose byte count does not fit its
//! read, completions for tags 32-255 and for tags with no read out, and requests of length
//! 0. Checked: every RQ beat equals the model's next read TLP (descriptor, byte enables,
//! tkeep, tlast); every request's data comes out once, in order, realigned to lane 0, with its
//! tkeep and tlast, byte for byte equal to host memory except the bytes of a read that ended
//! in error; the six counters equal the harness's counts at the end.

use super::{hex, Outcome, Scenario};
use crate::verilated::models::PcieRd as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::DMA_RD;
use sim::pcie_shim::pattern as mem;
use sim::pcie_rd::{completions, rc_beats, Completion, PcieRd, ReadTlp, TAGS};
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::time::Instant;

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Probability that a read TLP is answered badly (error, malformed).
    pub bad: f64,
    /// Probability per cycle of a completion for a tag with no read out.
    pub stray: f64,
    /// Probability that a request has length 0.
    pub empty: f64,
    /// Probability that RQ and the data stream are ready on a cycle.
    pub rq_ready: f64,
    pub data_ready: f64,
    /// Completion latency range, cycles.
    pub latency: (u64, u64),
    /// Probability of a cycle without an RC beat while one is waiting.
    pub rc_gap: f64,
    /// Most cycles between two completions of one read.
    pub spacing: u64,
    /// Completion size in read completion boundaries (None: 1 to 4 at random).
    pub cpl_blocks: Option<u64>,
    /// Every request this long, at a 4 KiB-aligned address (None: random).
    pub req: Option<u32>,
    /// The completer answers reads in the order they were sent once due (else a random due
    /// read each time).
    pub in_order: bool,
    /// The max read request size (PCIe encoding) throughout (None: random, changed now and
    /// then between requests).
    pub mrr: Option<u8>,
}

impl Shape {
    pub const RANDOM: Shape = Shape {
        bad: 0.0,
        stray: 0.0,
        empty: 0.0,
        rq_ready: 0.8,
        data_ready: 0.8,
        latency: (20, 400),
        rc_gap: 0.1,
        spacing: 40,
        cpl_blocks: None,
        req: None,
        in_order: false,
        mrr: None,
    };
    pub const BAD_INPUT: Shape = Shape { bad: 0.04, stray: 0.002, empty: 0.02, ..Shape::RANDOM };
}

/// A random request length: small, packet-sized around the MTUs, or large.
fn req_len(rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_range(0..8) {
        0..=2 => rng.gen_range(1..=300),
        3..=5 => [256u32, 1024, 4096][rng.gen_range(0..3)] + rng.gen_range(0..3) - 1,
        6 => rng.gen_range(300..=4200),
        _ => rng.gen_range(4200..=16383),
    }
}

/// What the completer owes: each read TLP's completions, due from a cycle on.
struct Pending {
    due: u64,
    /// The read's place in RQ order.
    seq: u64,
    cpls: VecDeque<Completion>,
}

/// Counters the RTL must end with.
#[derive(Default, Debug, PartialEq)]
struct Counts {
    requests: u64,
    bad_requests: u64,
    tlps: u64,
    cpls: u64,
    cpl_errors: u64,
    cpl_unexpected: u64,
}

/// Cycles before the throughput count starts (the first reads' latency).
const WARM: u64 = 2000;

/// Runs one seed for about `cycles` cycles of requests, then drains.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let rcb: u64 = if seed & 1 == 0 { 64 } else { 128 };
    let mut model = PcieRd::default();
    let mut want = Counts::default();
    // Requests: the one on the port, the TLPs owed on RQ, the data owed (None: a byte of a
    // read that ended in error, any value).
    let mut req: Option<(u64, u32)> = None;
    let mut tlps: VecDeque<ReadTlp> = VecDeque::new();
    let mut data: VecDeque<Vec<Option<u8>>> = VecDeque::new();
    // Where each read TLP's bytes are in `data`: (request index counted from the front, offset).
    let mut at: VecDeque<(u64, usize)> = VecDeque::new();
    let mut first_req = 0u64; // index of data.front()
    let mut n_req = 0u64;
    let mut mrr: u8 = shape.mrr.unwrap_or_else(|| rng.gen_range(0..=5));
    // The completer: per tag in flight, its completions; then the RC beats being sent.
    let mut owed: BTreeMap<u8, Pending> = BTreeMap::new();
    let mut finished: [u64; 256] = [0; 256];
    let mut in_flight = [false; 256];
    let mut rc: VecDeque<([u32; 16], u16, bool, [u32; 6])> = VecDeque::new();
    let mut beat_at = 0usize;
    let (mut idle, mut cycle, mut tail) = (0u64, 0u64, 0u64);
    let (mut bytes_out, mut steady_bytes, mut rc_beats_sent) = (0u64, 0u64, 0u64);
    let mut owed_sum = 0u64;

    d.set_reset(1);
    d.tick();
    d.tick();
    d.set_reset(0);
    loop {
        let running = cycle < cycles;
        if !running && req.is_none() && tlps.is_empty() && data.is_empty() && owed.is_empty() && rc.is_empty() {
            tail += 1;
            if tail > 64 {
                break;
            }
        }
        if idle > 20_000 {
            o.fail(format!(
                "cycle {cycle}: no progress for 20000 cycles ({} TLPs and {} requests' data owed, {} tags owed completions)",
                tlps.len(),
                data.len(),
                owed.len()
            ));
            break;
        }
        // A new request on the port.
        if running && req.is_none() && (shape.req.is_some() || rng.gen_bool(0.5)) {
            let len = if rng.gen_bool(shape.empty) { 0 } else { shape.req.unwrap_or_else(|| req_len(&mut rng)) };
            let addr = match shape.req {
                Some(_) => rng.gen::<u64>() & !0xfff,
                None if rng.gen_bool(0.2) => rng.gen::<u64>() & !0xfff | 0xfc0,
                None => rng.gen(),
            };
            req = Some((addr.min(u64::MAX - 16384), len));
            if shape.mrr.is_none() && rng.gen_bool(0.01) {
                mrr = rng.gen_range(0..=5);
            }
        }
        d.set_cfg_max_read_req(mrr);
        d.set_s_axis_req_tvalid(req.is_some() as u8);
        if let Some((addr, len)) = req {
            let mut w = [0u32; 4];
            DMA_RD.addr.set(&mut w, addr);
            DMA_RD.len.set(&mut w, len as u64);
            DMA_RD.flow.set(&mut w, rng.gen::<u16>() as u64);
            d.s_axis_req_tdata_mut().copy_from_slice(&w);
        }
        // RC: the next beat of the completion being sent, or a new completion that is due.
        if rc.is_empty() && !rng.gen_bool(shape.rc_gap) {
            if running && rng.gen_bool(shape.stray) {
                let tag = if rng.gen() {
                    rng.gen_range(TAGS as u8..=255)
                } else {
                    // A tag whose read is finished (a cycle or more ago) and not yet sent again.
                    let free: Vec<u8> = (0..TAGS as u8)
                        .filter(|&t| !in_flight[t as usize] && finished[t as usize] < cycle && !owed.contains_key(&t))
                        .filter(|&t| !tlps.iter().any(|x| x.tag == t))
                        .collect();
                    if free.is_empty() {
                        255
                    } else {
                        free[rng.gen_range(0..free.len())]
                    }
                };
                let c = Completion {
                    tag,
                    addr: 0x40,
                    remaining: 64,
                    data: vec![0xee; 64],
                    status: 0,
                    poisoned: false,
                    error_code: 0,
                };
                rc.extend(rc_beats(&c));
                want.cpls += 1;
                want.cpl_unexpected += 1;
            } else {
                let mut due: Vec<(u64, u8)> =
                    owed.iter().filter(|(_, p)| p.due <= cycle).map(|(&t, p)| (p.seq, t)).collect();
                due.sort_unstable();
                if !due.is_empty() {
                    let tag = if shape.in_order { due[0].1 } else { due[rng.gen_range(0..due.len())].1 };
                    let p = owed.get_mut(&tag).unwrap();
                    let c = p.cpls.pop_front().unwrap();
                    p.due = cycle + rng.gen_range(0..=shape.spacing);
                    if c.status != 0 || c.poisoned || c.error_code != 0 {
                        want.cpl_errors += 1;
                    }
                    want.cpls += 1;
                    rc.extend(rc_beats(&c));
                    if p.cpls.is_empty() {
                        owed.remove(&tag);
                        in_flight[tag as usize] = false;
                        finished[tag as usize] = cycle;
                    }
                }
            }
        }
        d.set_s_axis_rc_tvalid(0);
        let rc_gap = rng.gen_bool(shape.rc_gap);
        if let Some((w, keep, last, user)) = rc.front().filter(|_| !rc_gap) {
            d.set_s_axis_rc_tvalid(1);
            d.s_axis_rc_tdata_mut().copy_from_slice(w);
            d.set_s_axis_rc_tkeep(*keep);
            d.set_s_axis_rc_tlast(*last as u8);
            d.s_axis_rc_tuser_mut().copy_from_slice(user);
        }
        let rq_ready = rng.gen_bool(shape.rq_ready);
        d.set_m_axis_rq_tready(rq_ready as u8);
        d.set_m_axis_data_tready(rng.gen_bool(shape.data_ready) as u8);
        d.eval();
        idle += 1;
        owed_sum += owed.len() as u64;

        // The handshakes of this cycle.
        if let Some((addr, len)) = req.filter(|_| d.s_axis_req_tready() == 1) {
            req = None;
            if len == 0 {
                want.bad_requests += 1;
            } else {
                want.requests += 1;
                let ts = model.request(addr, len, mrr);
                for t in &ts {
                    at.push_back((n_req, (t.addr - addr) as usize));
                }
                tlps.extend(ts);
                data.push_back((0..len as u64).map(|i| Some(mem(addr + i))).collect());
                n_req += 1;
            }
        }
        if d.m_axis_rq_tvalid() == 1 && rq_ready {
            idle = 0;
            let got: Vec<u32> = d.m_axis_rq_tdata().to_vec();
            let user: Vec<u32> = d.m_axis_rq_tuser().to_vec();
            match tlps.pop_front() {
                None => o.check(cycle, hex_words(&got), "no read TLP".into()),
                Some(t) => {
                    o.transactions += 1;
                    want.tlps += 1;
                    let (ri, off) = at.pop_front().unwrap();
                    let shape_ok = d.m_axis_rq_tkeep() == 0xf && d.m_axis_rq_tlast() == 1;
                    if got[..] != t.rq_data()[..] || user[..] != t.rq_user()[..] || !shape_ok {
                        o.check(
                            cycle,
                            format!("{} user {} keep {:x}", hex_words(&got[..4]), hex_words(&user), d.m_axis_rq_tkeep()),
                            format!("{} user {} keep f", hex_words(&t.rq_data()[..4]), hex_words(&t.rq_user())),
                        );
                    }
                    // The completer answers it.
                    let bytes: Vec<u8> = (0..t.len as u64).map(|i| mem(t.addr + i)).collect();
                    let mut cpls: VecDeque<Completion> =
                        completions(&t, &bytes, rcb, |room| shape.cpl_blocks.unwrap_or_else(|| rng.gen_range(1..=room.min(4)))).into();
                    if rng.gen_bool(shape.bad) {
                        let e = &mut cpls[0];
                        match rng.gen_range(0..4) {
                            0 => *e = Completion { data: vec![], status: 1, ..e.clone() },
                            1 => *e = Completion { data: vec![], error_code: 9, ..e.clone() },
                            2 => e.poisoned = true,
                            // More bytes to come than the tag's slot holds after this one.
                            _ => e.remaining = (t.addr % 512) as u32 + t.len + 4 * rng.gen_range(1..100),
                        }
                        let (malformed, no_data, poisoned) = (e.remaining > t.len, e.data.is_empty(), e.poisoned);
                        if malformed {
                            want.cpl_unexpected += 1;
                        }
                        if no_data || malformed {
                            cpls.truncate(1);
                        }
                        if !poisoned {
                            // The read's bytes are not host memory's.
                            let idx = (ri - first_req) as usize;
                            data[idx][off..off + t.len as usize].iter_mut().for_each(|b| *b = None);
                        }
                    }
                    in_flight[t.tag as usize] = true;
                    let due = cycle + rng.gen_range(shape.latency.0..=shape.latency.1);
                    owed.insert(t.tag, Pending { due, seq: want.tlps, cpls });
                }
            }
        }
        if d.s_axis_rc_tvalid() == 1 {
            if d.s_axis_rc_tready() != 1 {
                o.fail(format!("cycle {cycle}: s_axis_rc_tready low"));
            }
            rc.pop_front();
            rc_beats_sent += 1;
        }
        if d.m_axis_data_tvalid() == 1 && d.m_axis_data_tready() == 1 {
            idle = 0;
            let got = sim::layout::le_bytes::<64>(d.m_axis_data_tdata());
            let (keep, last) = (d.m_axis_data_tkeep(), d.m_axis_data_tlast() == 1);
            match data.front() {
                None => o.check(cycle, format!("beat {}", hex(&got)), "no read data".into()),
                Some(p) => {
                    let from = 64 * beat_at;
                    let n = (p.len() - from).min(64);
                    let want_keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                    let want_last = from + n == p.len();
                    let same = (0..n).all(|i| p[from + i].map_or(true, |b| b == got[i]));
                    if keep != want_keep || last != want_last || !same {
                        let w: Vec<u8> = p[from..from + n].iter().map(|b| b.unwrap_or(0)).collect();
                        o.check(
                            cycle,
                            format!("request {} beat {beat_at}: keep {keep:x} last {last} {}", first_req, hex(&got[..n])),
                            format!("request {} beat {beat_at}: keep {want_keep:x} last {want_last} {}", first_req, hex(&w)),
                        );
                    }
                    bytes_out += n as u64;
                    if (WARM..cycles).contains(&cycle) {
                        steady_bytes += n as u64;
                    }
                    beat_at += 1;
                    if want_last {
                        data.pop_front();
                        first_req += 1;
                        beat_at = 0;
                    }
                }
            }
        }
        if data.is_empty() && tlps.is_empty() && owed.is_empty() {
            idle = 0;
        }
        d.tick();
        cycle += 1;
        if o.mismatches > 0 {
            break;
        }
    }
    let got = Counts {
        requests: d.stat_requests() as u64,
        bad_requests: d.stat_bad_requests() as u64,
        tlps: d.stat_tlps() as u64,
        cpls: d.stat_cpls() as u64,
        cpl_errors: d.stat_cpl_errors() as u64,
        cpl_unexpected: d.stat_cpl_unexpected() as u64,
    };
    if o.passed() && got != want {
        o.fail(format!("counters: rtl {got:?}, expected {want:?}"));
    }
    o.cycles = cycle;
    o.metric("requests", want.requests as f64);
    o.metric("tlps", want.tlps as f64);
    o.metric("completions", want.cpls as f64);
    o.metric("errors", want.cpl_errors as f64);
    o.metric("unexpected", want.cpl_unexpected as f64);
    o.metric("bytes_out", bytes_out as f64);
    o.metric("rc_beats", rc_beats_sent as f64);
    o.metric("steady_bytes", steady_bytes as f64);
    // Reads waiting for the completer, on average: how many tags were out.
    o.metric("reads_out_avg", (owed_sum as f64 / cycle.max(1) as f64 * 10.0).round() / 10.0);
    o.metric("steady_cycles", cycles.saturating_sub(WARM) as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}

fn hex_words(w: &[u32]) -> String {
    w.iter().rev().map(|x| format!("{x:08x}")).collect::<Vec<_>>().join("_")
}

/// Read throughput with nothing held back (RQ and the data stream always ready, RC beats back
/// to back): for completions of 64, 128 and 256 bytes (RCB 64) and requests of 256, 1024 and
/// 4096 bytes, each `cycles / 9` cycles at a fixed completion latency of 250 cycles (1 us at
/// 250 MHz). Metrics `gbps_c<completion>_r<request>`: read data out, Gb/s at 250 MHz, over
/// the run after its first 2,000 cycles. Fails if any configuration loses or alters data, or
/// if 256-byte completions of 4 KiB requests give less than 95 Gb/s.
pub fn rate(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let each = (cycles / 9).max(4000);
    for cpl in [64u64, 128, 256] {
        for req in [256u32, 1024, 4096] {
            let shape = Shape {
                rq_ready: 1.0,
                data_ready: 1.0,
                latency: (250, 250),
                rc_gap: 0.0,
                spacing: 0,
                cpl_blocks: Some(cpl / 64),
                req: Some(req),
                in_order: true,
                mrr: Some(2),
                ..Shape::RANDOM
            };
            // An even seed: RCB 64.
            let r = run(scenario, seed & !1, each, &shape, vcd);
            let gbps = r.get("steady_bytes").unwrap() * 8.0 * 0.25 / r.get("steady_cycles").unwrap();
            o.transactions += r.transactions;
            o.cycles += r.cycles;
            if !r.passed() {
                o.mismatches += r.mismatches;
                o.first_mismatch = o.first_mismatch.or(r.first_mismatch);
                o.failures.extend(r.failures);
            }
            o.metric(&format!("gbps_c{cpl}_r{req}"), (gbps * 10.0).round() / 10.0);
            if cpl == 256 && req == 4096 && gbps < 95.0 {
                o.fail(format!("256-byte completions, 4 KiB requests: {gbps:.1} Gb/s, under 95"));
            }
        }
    }
    o.seconds = start.elapsed().as_secs_f64();
    o
}
