//! RTL cores around one switch (`sim::switch`): every core (`hpcc_nic_core::Core`, with its
//! host and a MAC paced at 100 Gb/s on the wire) has one port, and links of `delay` cycles each
//! way. The incast runs of issue 13 ("directed congestion tests") use it: N senders, one
//! receiver, one WRITE each, every algorithm.

use super::cc_module::Model;
pub use super::core_net::{CoreNet, LINE};
use super::hpcc_nic_core::{configure, post, short_rto, Core, Cpl};
use super::nic_datapath::Side;
use hdl::hpcc_nic_core::csr;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::packet::RocePacket;
use sim::rx_pipe::beats;
use sim::rx_ctx::Ctrl as RxCtrl;
use sim::switch::{Switch, SwitchConfig};
use sim::tx_ctx::{Ctrl as TxCtrl, Post};
use std::collections::VecDeque;

/// The IPv4 address of host `k`.
pub fn ip_of(k: usize) -> [u8; 4] {
    [10, 0, 0, k as u8 + 1]
}

/// Cores on a switch.
pub struct Fabric {
    pub cores: Vec<Core>,
    pub sw: Switch,
    /// Frames on their way to the switch (arrival cycle, frame), per core.
    up: Vec<VecDeque<(u64, Vec<u8>)>>,
    /// Frames on their way from the switch to each core.
    down: Vec<VecDeque<(u64, Vec<u8>)>>,
    /// One-way delay of every link, cycles.
    pub delay: u64,
    pub cycle: u64,
    rng: ChaCha8Rng,
    /// Frames the switch started on each port this cycle: (port, src IP, wire bytes).
    pub started: Vec<(usize, [u8; 4], u64)>,
    /// Probability that a frame is lost on its way into the switch, and how many were.
    pub loss: f64,
    pub lost: u64,
    loss_rng: ChaCha8Rng,
}

impl Fabric {
    /// `n` cores, reset and swept, MACs at line rate, no backpressure from hosts.
    pub fn new(n: usize, delay: u64, cfg: SwitchConfig, seed: u64) -> Fabric {
        Fabric::with_vcd(n, delay, cfg, seed, None)
    }

    /// The same, core 0's waveform written to `vcd`.
    pub fn with_vcd(n: usize, delay: u64, cfg: SwitchConfig, seed: u64, vcd: Option<&std::path::Path>) -> Fabric {
        let mut sw = Switch::new(cfg, n, seed);
        let cores = (0..n)
            .map(|k| {
                sw.route(ip_of(k), k);
                let mut c = Core::new(if k == 0 { vcd } else { None });
                c.host.keep = false;
                c.host.mac_rate = Some(LINE);
                c
            })
            .collect();
        Fabric {
            cores,
            sw,
            up: vec![VecDeque::new(); n],
            down: vec![VecDeque::new(); n],
            delay,
            cycle: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            started: vec![],
            loss: 0.0,
            lost: 0,
            loss_rng: ChaCha8Rng::seed_from_u64(seed ^ 0x1055),
        }
    }

    /// One clock of every core, the links and the switch.
    pub fn step(&mut self) {
        let now = self.cycle;
        for (k, c) in self.cores.iter_mut().enumerate() {
            while self.down[k].front().is_some_and(|f| f.0 <= now) {
                let (_, f) = self.down[k].pop_front().unwrap();
                c.host.receive(beats(&f));
            }
            for f in c.clock(now, &mut self.rng, 0.0) {
                self.up[k].push_back((now + self.delay, f));
            }
        }
        for q in self.up.iter_mut() {
            while q.front().is_some_and(|f| f.0 <= now) {
                let frame = q.pop_front().unwrap().1;
                if self.loss > 0.0 && rand::Rng::gen_bool(&mut self.loss_rng, self.loss) {
                    self.lost += 1;
                    continue;
                }
                self.sw.enqueue(frame);
            }
        }
        self.started.clear();
        for (port, frame, done) in self.sw.tick(now) {
            if let Ok(p) = RocePacket::parse(&frame) {
                self.started.push((port, p.ip.src, sim::switch::wire_bytes(frame.len())));
            }
            self.down[port].push_back((done + self.delay, frame));
        }
        self.cycle += 1;
    }

    /// A queue pair: requester `flow` on core `src`, responder `flow` on core `dst` (QPN = flow
    /// id on both), algorithm `alg`, MTU `mtu`, telemetry on the requester's data frames,
    /// initial rate at line rate and window `window`.
    #[allow(clippy::too_many_arguments)]
    pub fn connect(&mut self, src: usize, dst: usize, flow: u16, alg: u32, mtu: u16, telemetry: bool, window: u32) {
        self.connect_at(src, dst, flow, alg, mtu, telemetry, window, 0);
    }

    /// Posts a WRITE of `len` bytes on `flow` of core `k` (PSN 0, from local address 0).
    pub fn write(&mut self, k: usize, flow: u16, len: u32, tag: u16) {
        self.queue_write(k, flow, len, tag);
        let e = self.command_done(k);
        assert_eq!(e, csr::ERR_NONE, "post on flow {flow:#x} of core {k}");
    }

    /// Queues the register writes of that post and returns at once: the core runs them as the
    /// fabric steps (the caller's loop keeps counting every cycle); its completion shows it.
    pub fn queue_write(&mut self, k: usize, flow: u16, len: u32, tag: u16) {
        let w = Post { local_addr: 0, remote_addr: 0x1000_0000 * flow as u64, rkey: 0, len, first_psn: 0 };
        post(&mut self.cores[k], flow, &TxCtrl::Post { flow, post: w }.to_bytes(), None, tag);
    }

    /// Every core configured: the CC module's defaults (`cc_module::default_model`), packet size
    /// 4 KiB, bursts of 16.
    pub fn configure_all(&mut self) {
        self.configure_all_with(&super::cc_module::default_model());
    }

    /// The same on `m`'s configurations.
    pub fn configure_all_with(&mut self, m: &Model) {
        for k in 0..self.cores.len() {
            configure(&mut self.cores[k], m, 12, 16);
            self.settle(k);
        }
    }
}

impl CoreNet for Fabric {
    fn step(&mut self) {
        Fabric::step(self)
    }

    fn core(&mut self, k: usize) -> &mut Core {
        &mut self.cores[k]
    }

    fn ip(&self, k: usize) -> [u8; 4] {
        ip_of(k)
    }
}

/// What one incast run measured.
#[derive(Clone, Debug, Default)]
pub struct Incast {
    pub alg: u32,
    pub senders: usize,
    pub bytes: u32,
    /// From the first post to the last completion, cycles.
    pub cycles: u64,
    pub completed: usize,
    pub failed: usize,
    pub max_queue_bytes: u64,
    /// Mean of the bottleneck queue from the first to the last byte through it.
    pub mean_queue_bytes: f64,
    /// Wire bytes the bottleneck sent over the same span, as a fraction of line rate.
    pub utilization: f64,
    /// Base RTTs (1,250 cycles, 5 us) from the last sender's first byte through the bottleneck
    /// until every sender's share of it, over the next 8 base RTTs, is within 10% of 1/N; None
    /// if never (every sender still sending). Shares, not windows: the windows are inside the
    /// RTL.
    pub rtts_to_fair: Option<u64>,
    /// Jain's fairness index, (sum x)^2 / (N sum x^2), of the senders' bytes through the
    /// bottleneck while all of them send: the whole base RTTs from the last sender's first one
    /// to the last one of the sender that finishes first (1.0: equal shares; 1/N: one sender
    /// has it all).
    pub jain: f64,
    /// Bytes through the bottleneck per base RTT from the first byte, per host (index 0 unused).
    pub shares: Vec<Vec<u64>>,
    /// Cycles between one sender's post and the next (0: all at once).
    pub stagger: u64,
    /// The CC configuration the cores ran (`Spec::model`'s name).
    pub config: &'static str,
    pub dropped: u64,
    pub marked: u64,
    pub cnps: u64,
    pub timeouts: u64,
    /// Rx-HPCC: ACKs the receiver sent carrying W (`FB_ACKS`), and feedbacks the senders
    /// applied (`FB_APPLIED`) and ignored (`FB_IGNORED`), summed.
    pub fb_acks: u64,
    pub fb_applied: u64,
    pub fb_ignored: u64,
    /// Verilator wall time, s.
    pub seconds: f64,
}

/// The incasts' base RTT in cycles (5 us at 250 MHz): the unit of "RTTs to fair" and `shares`.
pub const BASE_RTT: u64 = 1250;

/// Algorithm names by cc_module code.
pub const ALG_NAMES: [&str; 4] = ["HPCC++", "Rx-HPCC", "LDCP", "DCQCN"];

/// One incast run: `senders` cores each WRITE `bytes` to one receiver (host 0) on algorithm
/// `alg`, sender k posting `k x stagger` cycles after the first, through a switch with 1 us
/// links (base RTT about 4.5 us with the NICs' pipelines), every core on `model`'s CC
/// configuration. Runs until every message completes or `max_cycles` pass.
pub struct Spec {
    pub alg: u32,
    pub senders: usize,
    pub bytes: u32,
    pub stagger: u64,
    pub max_cycles: u64,
    pub seed: u64,
    pub model: Model,
    /// A name for `model` in reports ("defaults", "LDCP for the fabric").
    pub config: &'static str,
}

impl Spec {
    /// All at once, the CC module's defaults (`cc_module::default_model`).
    pub fn new(alg: u32, senders: usize, bytes: u32, max_cycles: u64, seed: u64) -> Spec {
        Spec { alg, senders, bytes, stagger: 0, max_cycles, seed, model: super::cc_module::default_model(), config: "defaults" }
    }
}

/// LDCP's parameters for this fabric: the draft's defaults at 100 Gb/s with the fabric's base
/// RTT (5 us) and its MTU (4096 B) as the MSS; the defaults (`cc_ldcp::config(0)`) assume a
/// 10 us RTT and 1000-byte packets.
pub fn ldcp_for_fabric() -> sim::cc_ldcp::LdcpConfig {
    let p = sim::cc_float::ldcp::LdcpParams::new(100e9, 5_000, 4096);
    sim::cc_ldcp::LdcpConfig::new(&p, Default::default()).expect("LDCP at 100G, 5 us, 4 KB fits")
}

/// `Spec::new`'s run, all senders at once.
pub fn incast(alg: u32, senders: usize, bytes: u32, max_cycles: u64, seed: u64) -> Incast {
    run(&Spec::new(alg, senders, bytes, max_cycles, seed))
}

/// Runs one incast.
pub fn run(spec: &Spec) -> Incast {
    let (alg, senders, bytes, max_cycles) = (spec.alg, spec.senders, spec.bytes, spec.max_cycles);
    let start = std::time::Instant::now();
    let mut f = Fabric::new(senders + 1, 250, SwitchConfig::g100(), spec.seed);
    f.configure_all_with(&spec.model);
    // HPCC++ and Rx-HPCC start at W_init = BDP (5 us x 100 Gb/s); LDCP and DCQCN at line rate
    // with a window that does not bind (their Updates set both).
    let window = if alg <= 1 { 62_500 } else { 1 << 20 };
    for s in 1..=senders {
        f.connect(s, 0, 0x100 + s as u16, alg, 4096, alg <= 1, window);
    }
    let t0 = f.cycle;
    // The posts are register writes, queued when due; each core runs its own, so senders
    // posted together start together.
    let mut next_post = 1;
    let mut win = vec![0u64; senders + 1];
    let mut shares: Vec<Vec<u64>> = vec![];
    let (mut first_byte, mut last_byte) = (None, 0u64);
    let (mut qsum, mut qn, mut qmax, mut sent) = (0u128, 0u64, 0u64, 0u64);
    // The bucket (base RTT since the first byte) of each sender's first byte.
    let mut started_at: Vec<Option<usize>> = vec![None; senders + 1];
    let mut ended_at = vec![0usize; senders + 1];
    let done = |f: &Fabric| (1..=senders).all(|s| !f.cores[s].completions.is_empty());
    while !done(&f) && f.cycle < t0 + max_cycles {
        while next_post <= senders && f.cycle >= t0 + (next_post as u64 - 1) * spec.stagger {
            f.queue_write(next_post, 0x100 + next_post as u16, bytes, next_post as u16);
            next_post += 1;
        }
        f.step();
        for &(port, src, wire) in &f.started {
            if port == 0 && src[3] as usize >= 2 {
                first_byte.get_or_insert(f.cycle);
                started_at[src[3] as usize - 1].get_or_insert(shares.len());
                ended_at[src[3] as usize - 1] = shares.len();
                last_byte = f.cycle;
                win[src[3] as usize - 1] += wire;
                sent += wire;
            }
        }
        if first_byte.is_some() {
            let q = f.sw.queue_bytes(0);
            qsum += q as u128;
            qn += 1;
            qmax = qmax.max(q);
        }
        if first_byte.is_some() && (f.cycle - first_byte.unwrap()) % BASE_RTT == 0 {
            shares.push(std::mem::replace(&mut win, vec![0; senders + 1]));
        }
    }
    // Shares over 8 base RTTs (about 120 frames of 4 KB), sliding by one: shorter windows
    // hold too few frames per sender for a 10% test.
    let span_share = |from: usize| -> Vec<u64> {
        (0..=senders).map(|s| shares[from..from + 8].iter().map(|w| w[s]).sum()).collect()
    };
    let fair = |w: &Vec<u64>| {
        let total: u64 = w[1..].iter().sum();
        total > 0 && w[1..].iter().all(|&b| (b as f64 / total as f64 - 1.0 / senders as f64).abs() <= 0.1 / senders as f64)
    };
    // From the bucket of the last sender's first byte (0 when all start at once).
    let from = started_at[1..].iter().map(|b| b.unwrap_or(usize::MAX)).max().unwrap_or(0);
    let rtts_to_fair =
        (from..shares.len().saturating_sub(8)).find(|&i| fair(&span_share(i))).map(|i| (i - from) as u64);
    // Whole base RTTs in which every sender sent.
    let until = ended_at[1..].iter().copied().min().unwrap_or(0).min(shares.len());
    let both: Vec<f64> = (1..=senders).map(|s| shares[from.min(until)..until].iter().map(|w| w[s] as f64).sum()).collect();
    let (sum, sq) = (both.iter().sum::<f64>(), both.iter().map(|x| x * x).sum::<f64>());
    let jain = if sq > 0.0 { sum * sum / (senders as f64 * sq) } else { 0.0 };
    let span = (last_byte - first_byte.unwrap_or(last_byte)).max(1);
    let completions: Vec<u64> = (1..=senders).filter_map(|s| f.cores[s].completions.first().copied()).collect();
    let mut r = Incast {
        alg,
        senders,
        bytes,
        cycles: f.cycle - t0,
        completed: completions.iter().filter(|c| Cpl::of(**c).status == csr::CPL_OK).count(),
        failed: completions.iter().filter(|c| Cpl::of(**c).status != csr::CPL_OK).count(),
        max_queue_bytes: qmax,
        mean_queue_bytes: qsum as f64 / qn.max(1) as f64,
        utilization: sent as f64 / (span as f64 * LINE),
        rtts_to_fair,
        jain,
        stagger: spec.stagger,
        shares,
        config: spec.config,
        dropped: f.sw.stats(0).dropped,
        marked: f.sw.stats(0).marked,
        ..Incast::default()
    };
    r.cnps = f.read(0, csr::STAT_CNPS) as u64;
    r.timeouts = (1..=senders).map(|s| f.read(s, csr::RTO_TIMEOUTS) as u64).sum();
    r.fb_acks = f.read(0, csr::FB_ACKS) as u64;
    r.fb_applied = (1..=senders).map(|s| f.read(s, csr::FB_APPLIED) as u64).sum();
    r.fb_ignored = (1..=senders).map(|s| f.read(s, csr::FB_IGNORED) as u64).sum();
    r.seconds = start.elapsed().as_secs_f64();
    r
}

/// One queue pair of `fabric-random`: requester flow `id` on core `src`, responder `id` on
/// core `dst`, its MTU, and the message out.
struct Qp {
    src: usize,
    dst: usize,
    id: u16,
    mtu: u16,
    next_psn: u32,
    count: u64,
    cur: Option<Msg>,
    failed: bool,
}

struct Msg {
    read: bool,
    tag: u16,
    /// Where the bytes must land: (core, address), and they.
    at: (usize, u64),
    data: Vec<u8>,
    posted: u64,
}

/// `fabric-random`: four cores on the switch model, eight queue pairs between random cores on
/// random algorithms (HPCC++, Rx-HPCC, LDCP, DCQCN) and MTUs, each posting WRITEs and READs
/// (30%) of 0-12,000 bytes back to back until the cycle budget. The switch writes a telemetry
/// hop on collecting headers, marks CE by RED at 2-20 KB (so that small queues exercise
/// ECN-Echo and CNPs) and loses 0.5% of all frames; the retransmission timeout runs at 3 rounds
/// of 2048 cycles. Every message must complete in order per flow with its tag and be in the
/// destination's memory when its completion is taken, or end with CPL_RETRY_EXCEEDED (its
/// queue pair then posts nothing more; counted in `failed`).
pub fn random(seed: u64, cycles: u64, vcd: Option<&std::path::Path>) -> super::Outcome {
    use rand::Rng;
    use sim::rx_ctx::OP_READ;
    let start = std::time::Instant::now();
    let mut o = super::Outcome::new(super::Scenario::FabricRandom, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cfg = SwitchConfig {
        red: Some(sim::switch::Red { kmin: 2_000, kmax: 20_000, pmax: 0.2 }),
        ..SwitchConfig::g100()
    };
    let mut f = Fabric::with_vcd(4, rng.gen_range(20..120), cfg, seed, vcd);
    f.loss = 0.005;
    f.configure_all();
    for k in 0..4 {
        f.cores[k].write(csr::TIMER_GAP, 1);
        f.cores[k].write(csr::RTO_CFG, short_rto());
        f.settle(k);
    }
    let mut algs = [0u64; 4];
    let mut qps: Vec<Qp> = (0..8u16)
        .map(|k| {
            let src = rng.gen_range(0..4);
            let dst = (src + rng.gen_range(1..4)) % 4;
            let mtu = [256, 512, 1024, 2048, 4096][rng.gen_range(0..5)];
            let psn = if rng.gen() { 0xFF_FFFF - rng.gen_range(0..50) } else { rng.gen_range(0..1 << 24) };
            Qp { src, dst, id: 0x100 + k, mtu, next_psn: psn, count: 0, cur: None, failed: false }
        })
        .collect();
    for q in &qps {
        let alg = rng.gen_range(0..4u32);
        algs[alg as usize] += 1;
        let window = rng.gen_range(16u32..256) << 10;
        f.connect_at(q.src, q.dst, q.id, alg, q.mtu, alg <= 1, window, q.next_psn);
    }
    let mut seen = [0usize; 4];
    let (mut done, mut failed) = (0u64, 0u64);
    let limit = f.cycle + cycles + 400_000;
    let mut idle = 0u64;
    while f.cycle < limit {
        for k in 0..4 {
            while seen[k] < f.cores[k].completions.len() {
                let c = f.cores[k].completions[seen[k]];
                seen[k] += 1;
                let cpl = Cpl::of(c);
                let flow = cpl.flow;
                let Some(q) = qps.iter_mut().find(|q| q.src == k && q.id == flow) else {
                    o.fail(format!("cycle {}: completion {c:#x} on core {k} for no flow of ours", f.cycle));
                    continue;
                };
                let Some(msg) = q.cur.take() else {
                    o.fail(format!("cycle {}: completion {c:#x} with no message out", f.cycle));
                    continue;
                };
                idle = 0;
                if cpl.status == csr::CPL_RETRY_EXCEEDED {
                    o.check(f.cycle, (flow, cpl.tag), (flow, msg.tag));
                    q.failed = true;
                    failed += 1;
                    continue;
                }
                o.check(f.cycle, cpl, Cpl::ok(flow, msg.tag));
                let host = &f.cores[msg.at.0].host;
                let landed = host.holds(msg.at.1, &msg.data);
                o.transactions += 1;
                o.check(f.cycle, (msg.read, msg.at.1, landed), (msg.read, msg.at.1, true));
                done += 1;
            }
        }
        if f.cycle < limit - 400_000 {
            for q in qps.iter_mut().filter(|q| q.cur.is_none() && !q.failed) {
                let read = rng.gen_bool(0.3);
                let len: u32 = if rng.gen_bool(0.1) { 0 } else { rng.gen_range(1..=12_000) };
                let npkts = len.div_ceil(q.mtu as u32).max(1);
                let base = 0x1_0000_0000 * (q.id as u64) + q.count * 0x1_0000;
                let (local, remote) = (base, base + 0x8000_0000);
                let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
                let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn: q.next_psn & 0xFF_FFFF };
                let tag = rng.gen();
                if read {
                    f.cores[q.dst].host.fill(remote, &data);
                    let rx = RxCtrl { op: OP_READ, qpn: q.id as u32, epsn: 0, spsn: 0, mtu: q.mtu, addr: local }.to_bytes();
                    post(&mut f.cores[q.src], q.id, &TxCtrl::Read { flow: q.id, post: w }.to_bytes(), Some(&rx), tag);
                } else {
                    f.cores[q.src].host.fill(local, &data);
                    post(&mut f.cores[q.src], q.id, &TxCtrl::Post { flow: q.id, post: w }.to_bytes(), None, tag);
                }
                let e = f.command_done(q.src);
                o.check(f.cycle, ("post", q.id, e), ("post", q.id, csr::ERR_NONE));
                let at = if read { (q.src, local) } else { (q.dst, remote) };
                q.cur = Some(Msg { read, tag, at, data, posted: f.cycle });
                q.next_psn = q.next_psn.wrapping_add(npkts);
                q.count += 1;
            }
        } else if qps.iter().all(|q| q.cur.is_none()) {
            break;
        }
        idle += 1;
        if idle > 200_000 {
            break;
        }
        f.step();
    }
    for q in &qps {
        if let Some(m) = &q.cur {
            let kind = if m.read { "READ" } else { "WRITE" };
            o.fail(format!(
                "cycle {}: flow {:#x} ({} -> {})'s message {} ({kind} of {} B, MTU {}, posted at cycle {}) never completed",
                f.cycle, q.id, q.src, q.dst, q.count - 1, m.data.len(), q.mtu, m.posted
            ));
        }
    }
    o.cycles = f.cycle;
    o.seconds = start.elapsed().as_secs_f64();
    let ports: Vec<_> = (0..4).map(|k| f.sw.stats(k)).collect();
    o.metric("messages", done as f64);
    o.metric("failed", failed as f64);
    o.metric("lost", f.lost as f64);
    o.metric("ce_marked", ports.iter().map(|p| p.marked).sum::<u64>() as f64);
    o.metric("max_queue_kb", ports.iter().map(|p| p.max_queue_bytes).max().unwrap_or(0) as f64 / 1000.0);
    let (mut timeouts, mut cnps, mut tx_events) = (0, 0, 0);
    let (mut fb_acks, mut fb_applied, mut fb_ignored, mut merged) = (0, 0, 0, 0);
    for k in 0..4 {
        timeouts += f.read(k, csr::RTO_TIMEOUTS);
        cnps += f.read(k, csr::STAT_CNPS);
        tx_events += f.read(k, csr::TX_EVENTS);
        fb_acks += f.read(k, csr::FB_ACKS);
        fb_applied += f.read(k, csr::FB_APPLIED);
        fb_ignored += f.read(k, csr::FB_IGNORED);
        merged += f.read(k, csr::MERGED);
    }
    // Rx-HPCC feedback: every queue pair has one algorithm at both ends, so no core ignores
    // any, and a lost ACK is the only way a sent W is not applied.
    if fb_ignored != 0 || fb_applied > fb_acks {
        o.fail(format!("Rx-HPCC feedback: {fb_acks} ACKs carried W, {fb_applied} applied, {fb_ignored} ignored"));
    }
    o.metric("fb_acks", fb_acks as f64);
    o.metric("fb_applied", fb_applied as f64);
    o.metric("merged", merged as f64);
    o.metric("timeouts", timeouts as f64);
    o.metric("cnps", cnps as f64);
    o.metric("tx_events", tx_events as f64);
    o.metric("qps_hpcc_rxhpcc_ldcp_dcqcn", (algs[0] * 1000 + algs[1] * 100 + algs[2] * 10 + algs[3]) as f64);
    // cc_module and flow_sched inside each core against their models (core_probe).
    super::core_probe::report(&mut o, f.cores.iter().enumerate().map(|(k, c)| (k.to_string(), c)));
    o
}
