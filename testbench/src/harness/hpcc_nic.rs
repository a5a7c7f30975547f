//! The NIC end to end (`hpcc_nic`, docs/modules/hpcc_nic.md): two NICs whose CMAC sides are
//! wired to each other, each behind its own host (`pcie_host::PcieHost`: memory, DMA, BAR0),
//! driven as a driver drives an RDMA NIC and checked at the host: what software sees.
//!
//! `nic-loopback` is the same with one NIC talking to itself: its CMAC's transmit looped
//! back to its receive, each queue pair's requester and responder one flow of that NIC (as the
//! cocotb cross-check runs it); NIC 1 sits idle and only takes the bad BAR0 accesses.
//!
//! Clocks: the PCIe user clock (250 MHz) and the CMAC's (322.266 MHz), free running, both NICs
//! on both. Each CMAC takes beats at 100 Gb/s (tready from a credit of 38.8 bytes a cycle,
//! preamble, gap and FCS counted) and the other NIC's CMAC receives them `WIRE` CMAC cycles
//! later, with no backpressure, as a CMAC would.
//!
//! The driver, through BAR0 only: the CC configuration, queue pairs created on both NICs (NIC 0
//! the requester, NIC 1 the responder; random algorithm, MTU, first PSN), NIC 0's completion
//! queue and one send queue per flow, then WQEs (RDMA WRITE and READ, 1 B to 16 KiB, random
//! addresses, a few empty) written into host memory and doorbells rung, more as completions free ring slots.
//! Checked: every WQE gets one completion entry, OK, with its flow, tag and send queue index, in
//! order per flow, with the phase bit right; after each, the bytes: a WRITE's in NIC 1's host
//! memory equal NIC 0's source, a READ's in NIC 0's host memory equal NIC 1's; at the end, the
//! counters read through BAR0 (NIC_STAT_*, HQ_STAT_*) against the hosts' own counts, frames
//! sent equal to frames received, nothing dropped. Then bad BAR0 accesses (a write to a
//! counter, reads and writes past each part's registers): each refused and counted.

use super::core_net::{create_side, Side};
use super::fabric::ip_of;
use super::frames::{offered, EdgeClock, CMAC_PS, CORE_PS};
use super::hpcc_nic_core::{configure_regs, Cpl, Regs};
use super::pcie_host::PcieHost;
use super::{Outcome, Scenario};
use crate::verilated::models::HpccNic as Rtl;
use crate::verilated::Model;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cdc_frame_fifo::Beat;
use sim::csr;
use sim::host_queues::{wqe_bytes, CQE_BYTES, NO_INDEX, WQE_BYTES, WQE_READ, WQE_WRITE};
use sim::layout::HQ_CQE;
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// CMAC cycles from one NIC's CMAC transmit to the other's receive (about 300 ns).
pub const WIRE: u64 = 100;
/// Bytes a 100G CMAC sends per CMAC cycle (100 Gb/s at 322.266 MHz).
const CMAC_BYTES: f64 = 100e9 / 8.0 / 322.265_625e6;
/// Host memory regions (NIC 0: queues, WRITE sources, READ destinations; NIC 1: WRITE
/// destinations, READ sources). Each message gets its own 32 KiB slot, so no two overlap.
const SQ_BASE: u64 = 0x1_0000_0000;
const CQ_BASE: u64 = 0x1_8000_0000;
pub const SRC: u64 = 0x2_0000_0000;
pub const DST: u64 = 0x3_0000_0000;
const SLOT: u64 = 32 << 10;
/// log2 of each send queue's and of the completion queue's entries.
pub const SQ_LOG: u8 = 3;
const CQ_LOG: u8 = 5;

/// One NIC and its host.
pub struct Nic {
    pub dut: Rtl,
    pub host: PcieHost,
    /// The CMAC: its transmit credit (bytes), the beats on their way to the other NIC
    /// (CMAC cycle when due, beat).
    credit: f64,
    wire: VecDeque<(u64, Beat)>,
    tx_on: bool,
    /// Frames the CMAC sent.
    pub frames: u64,
}

impl Regs for Nic {
    fn write(&mut self, word: u32, value: u32) {
        self.host.write(word, value);
    }
}

/// Two NICs, wire to wire.
pub struct Pair {
    pub nics: [Nic; 2],
    clk: [EdgeClock; 2],
    /// User clock cycles, CMAC cycles.
    pub cycle: u64,
    pub cmac_cycle: u64,
    pub errors: Vec<String>,
    /// Each NIC's wire back to itself (its CMAC receives what it sends) instead of to the other.
    pub loopback: bool,
}

impl Pair {
    /// Two NICs reset (NIC 0 with a VCD if `vcd`), hosts seeded from `seed`.
    pub fn new(seed: u64, vcd: Option<&Path>) -> Pair {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let nic = |dut: Rtl, s: u64| Nic { dut, host: PcieHost::new(s), credit: 0.0, wire: VecDeque::new(), tx_on: false, frames: 0 };
        let a = nic(vcd.map_or_else(Rtl::new, Rtl::with_vcd), rng.gen());
        let b = nic(Rtl::new(), rng.gen());
        let mut p = Pair {
            nics: [a, b],
            clk: [EdgeClock::new(CORE_PS, 0), EdgeClock::new(CMAC_PS, rng.gen_range(0..CMAC_PS))],
            cycle: 0,
            cmac_cycle: 0,
            errors: Vec::new(),
            loopback: false,
        };
        for n in &mut p.nics {
            n.dut.set_cfg_max_payload(rng.gen_range(0..4));
            n.dut.set_cfg_max_read_req(rng.gen_range(0..6));
            n.dut.set_reset(1);
            n.dut.set_tx_reset(1);
            n.dut.set_rx_reset(1);
        }
        while p.cycle < 8 || p.cmac_cycle < 8 {
            p.edge();
        }
        for n in &mut p.nics {
            n.dut.set_reset(0);
            n.dut.set_tx_reset(0);
            n.dut.set_rx_reset(0);
        }
        p
    }

    /// The next clock edge (either clock) of both NICs.
    fn edge(&mut self) {
        let t = self.clk[0].next().min(self.clk[1].next());
        let e = [self.clk[0].take(t), self.clk[1].take(t)];
        let rise = e.map(|x| x == Some(true));
        for n in &mut self.nics {
            n.dut.eval();
        }
        // The handshakes of this edge.
        if rise[0] {
            for n in &mut self.nics {
                n.host.sample(&n.dut, self.cycle);
            }
        }
        if rise[1] {
            for n in &mut self.nics {
                let (valid, beat, _) = offered(&n.dut, &Rtl::M_AXIS_CMAC_TX);
                if valid && n.tx_on {
                    n.credit -= 64.0;
                    if beat.last {
                        // FCS, preamble and the gap; the last beat's unused lanes come back.
                        n.credit -= 24.0 - (64 - beat.keep.count_ones()) as f64;
                        n.frames += 1;
                    }
                    n.wire.push_back((self.cmac_cycle + WIRE, beat));
                }
            }
        }
        for n in &mut self.nics {
            if let Some(l) = e[0] {
                n.dut.set_clock(l as u8);
            }
            if let Some(l) = e[1] {
                n.dut.set_tx_clock(l as u8);
                n.dut.set_rx_clock(l as u8);
            }
            n.dut.eval_at(t);
            if let Some(f) = n.dut.fatal() {
                self.errors.push(format!("Verilator: {f}"));
            }
        }
        // The inputs of the next cycles.
        if rise[0] {
            self.cycle += 1;
            for n in &mut self.nics {
                n.host.drive(&mut n.dut, self.cycle);
            }
        }
        if rise[1] {
            self.cmac_cycle += 1;
            for k in 0..2 {
                let n = &mut self.nics[k];
                n.credit = (n.credit + CMAC_BYTES).min(128.0);
                n.tx_on = n.credit >= 0.0;
                (Rtl::M_AXIS_CMAC_TX.set_tready)(&mut n.dut, n.tx_on);
                let from = self.peer(k);
                let due = self.nics[from].wire.front().is_some_and(|(c, _)| *c <= self.cmac_cycle);
                let beat = if due { self.nics[from].wire.pop_front().map(|(_, b)| b) } else { None };
                let p = &Rtl::S_AXIS_CMAC_RX;
                let d = &mut self.nics[k].dut;
                if let Some(b) = &beat {
                    let w: Vec<u32> = b.data.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
                    (p.set_tdata)(d, &w);
                    p.set_tkeep.unwrap()(d, b.keep);
                    p.set_tlast.unwrap()(d, b.last);
                    p.set_tuser.unwrap()(d, 0);
                }
                (p.set_tvalid)(d, beat.is_some());
            }
        }
    }

    /// The NIC at the other end of NIC `k`'s wire.
    pub fn peer(&self, k: usize) -> usize {
        if self.loopback {
            k
        } else {
            1 - k
        }
    }

    /// Runs to the next rising edge of the user clock.
    pub fn step(&mut self) {
        let c = self.cycle;
        while self.cycle == c {
            self.edge();
        }
    }

    /// Runs until NIC `k`'s register accesses are all done; the reads' results.
    pub fn settle(&mut self, k: usize) -> Vec<(u32, u32, u8)> {
        for _ in 0..200_000 {
            if self.nics[k].host.regs_idle() {
                return self.nics[k].host.results.drain(..).collect();
            }
            self.step();
        }
        panic!("NIC {k}: register accesses still pending after 200000 cycles");
    }

    /// Reads one register of NIC `k` through BAR0.
    pub fn read(&mut self, k: usize, word: u32) -> u32 {
        self.nics[k].host.read(word);
        let r = self.settle(k);
        let (w, v, status) = *r.last().unwrap();
        assert_eq!((w, status), (word, 0), "NIC {k}: read of word {word:#x}");
        v
    }

    /// Polls `word` of NIC `k` until `done` says so; its last value.
    pub fn poll(&mut self, k: usize, word: u32, done: impl Fn(u32) -> bool) -> u32 {
        for _ in 0..2000 {
            let v = self.read(k, word);
            if done(v) {
                return v;
            }
        }
        panic!("NIC {k}: register {word:#x} never done");
    }
}

/// A queue pair of the driver: `flow` on both NICs (the same QPN), NIC 0 the requester.
#[derive(Clone, Copy, Debug)]
pub struct QpSpec {
    pub flow: u16,
    pub alg: u32,
    pub mtu: u16,
    /// The requester's first PSN.
    pub psn: u32,
    pub window: u32,
    /// Telemetry on the requester's data frames.
    pub telemetry: bool,
}

/// A completion entry as the driver reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The core's completion word in it.
    pub cpl: Cpl,
    /// The send queue index of the WQE it completes.
    pub index: u16,
}

/// NIC 0's completion queue as the driver keeps it: the next entry and the phase it expects.
pub struct Cq {
    head: u16,
    phase: u8,
}

impl Cq {
    /// The new entries, in order; the head register moved on past them.
    pub fn take(&mut self, p: &mut Pair) -> Vec<Entry> {
        let mut v = Vec::new();
        loop {
            let at = CQ_BASE + CQE_BYTES * (self.head as u64 % (1 << CQ_LOG));
            let e = p.nics[0].host.mem.read(at, CQE_BYTES as usize);
            if HQ_CQE.phase.get_le(&e) as u8 != self.phase {
                break;
            }
            self.head = self.head.wrapping_add(1);
            if self.head % (1 << CQ_LOG) == 0 {
                self.phase ^= 1;
            }
            v.push(Entry { cpl: Cpl::of(HQ_CQE.cpl.get_le(&e)), index: HQ_CQE.index.get_le(&e) as u16 });
        }
        if !v.is_empty() {
            p.nics[0].host.write(csr::HQ_CQ_HEAD, self.head as u32);
        }
        v
    }
}

impl Pair {
    /// The CC configuration (the CC module's defaults, 4 KiB packets, bursts of 16) on both.
    pub fn configure(&mut self) {
        let model = super::cc_module::default_model();
        for k in 0..2 {
            configure_regs(&mut self.nics[k], &model, 12, 16);
            self.settle(k);
        }
    }

    /// Queue pair `q`, the driver's `i`th (0 to 127): created on both NICs (the headers from
    /// `seed`), or with `loopback` on NIC 0 alone as its own peer; its send queue on NIC 0,
    /// enabled.
    pub fn connect(&mut self, i: usize, q: &QpSpec, seed: u64) {
        let mut hdr_rng = ChaCha8Rng::seed_from_u64(seed ^ q.flow as u64);
        let sides: &[(usize, bool)] = if self.loopback { &[(0, true)] } else { &[(0, true), (1, false)] };
        for &(k, requester) in sides {
            let looped = self.loopback;
            let side = Side { flow: q.flow, alg: q.alg, mtu: q.mtu, telemetry: q.telemetry && requester, window: q.window, psn: q.psn, requester, looped };
            let peer = self.peer(k);
            create_side(&mut self.nics[k], &mut hdr_rng, &side, ip_of(k), ip_of(peer));
            self.command_done(k, q.flow);
        }
        let base = sq_base(i);
        let h = &mut self.nics[0].host;
        h.write(csr::HQ_SQ_SEL, q.flow as u32);
        h.write(csr::HQ_SQ_BASE_LO, base as u32);
        h.write(csr::HQ_SQ_BASE_HI, (base >> 32) as u32);
        h.write(csr::HQ_SQ_CFG, SQ_LOG as u32 | (q.mtu.trailing_zeros()) << 8);
        h.write(csr::HQ_SQ_PSN, q.psn);
        h.write(csr::HQ_SQ_QPN, q.flow as u32);
        h.write(csr::HQ_SQ_CMD, 1);
        self.settle(0);
        let s = self.poll(0, csr::HQ_SQ_STATUS, |v| v & 1 == 0);
        assert_eq!(s >> 4 & 0xf, 0, "HQ_SQ_CMD of flow {:#x}", q.flow);
    }

    /// NIC 0's completion queue, its ring zeroed first (phase 0 everywhere: no entry yet).
    pub fn completion_queue(&mut self) -> Cq {
        let h = &mut self.nics[0].host;
        h.mem.write(CQ_BASE, &vec![0u8; (CQE_BYTES << CQ_LOG) as usize]);
        h.write(csr::HQ_CQ_BASE_LO, CQ_BASE as u32);
        h.write(csr::HQ_CQ_BASE_HI, (CQ_BASE >> 32) as u32);
        h.write(csr::HQ_CQ_CFG, CQ_LOG as u32 | 1 << 8);
        self.settle(0);
        Cq { head: 0, phase: 1 }
    }

    /// Writes `wqe` into queue pair `i`'s ring at producer index `prod`.
    pub fn put_wqe(&mut self, i: usize, prod: u16, wqe: &[u8; 64]) {
        let at = sq_base(i) + WQE_BYTES * (prod as u64 % (1 << SQ_LOG));
        self.nics[0].host.mem.write(at, wqe);
    }

    /// Queues `flow`'s doorbell with producer index `prod`.
    pub fn doorbell(&mut self, flow: u16, prod: u16) {
        self.nics[0].host.write(csr::HQ_SQ_DOORBELL, prod as u32 | (flow as u32) << 16);
    }
}

/// Queue pair `i`'s send queue ring.
fn sq_base(i: usize) -> u64 {
    SQ_BASE + 0x10_0000 * i as u64
}

/// A message posted as a WQE on NIC 0.
#[derive(Clone, Debug)]
struct Msg {
    flow: u16,
    index: u16,
    tag: u16,
    read: bool,
    len: u32,
    local: u64,
    remote: u64,
}

/// A queue pair of the test.
struct Qp {
    flow: u16,
    /// Its place among the test's queue pairs (its send ring's slot in host memory).
    slot: usize,
    /// WQEs written (the producer index).
    prod: u16,
    /// The messages out, in order.
    out: VecDeque<Msg>,
    /// Messages still to post.
    left: u32,
}

/// A random message length: empty (a WRITE or READ of no bytes: one packet, no DMA), small,
/// around the MTUs, or large.
fn msg_len(rng: &mut ChaCha8Rng) -> u32 {
    if rng.gen_bool(0.03) {
        return 0;
    }
    match rng.gen_range(0..6) {
        0 | 1 => rng.gen_range(1..=300),
        2 | 3 => [1024u32, 4096][rng.gen_range(0..2)] + rng.gen_range(0..3) - 1,
        _ => rng.gen_range(300..=16384),
    }
}

/// Runs one seed: `cycles` bounds the time the messages may take (they are all checked).
pub fn run(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut p = Pair::new(seed, vcd);
    p.loopback = scenario == Scenario::NicLoopback;

    p.configure();
    let n_flows = rng.gen_range(2..=4usize);
    let per_flow = (cycles / 10_000).clamp(3, 40) as u32;
    let mut qps: Vec<Qp> = Vec::new();
    for i in 0..n_flows {
        let alg = rng.gen_range(0..4u32);
        let spec = QpSpec {
            flow: 0x40 * i as u16 + rng.gen_range(1..0x40),
            alg,
            mtu: [1024u16, 4096][rng.gen_range(0..2)],
            psn: if rng.gen() { 0xFF_FFFF - rng.gen_range(0..20) } else { rng.gen_range(0..1 << 24) },
            window: if alg <= 1 { 62_500 } else { 1 << 20 },
            telemetry: alg <= 1,
        };
        p.connect(i, &spec, seed);
        qps.push(Qp { flow: spec.flow, slot: i, prod: 0, out: VecDeque::new(), left: per_flow });
    }
    let mut cq = p.completion_queue();
    let setup = p.cycle;

    // Traffic: each flow's ring kept full; every completion entry checked as it lands.
    let (mut slot, mut msgs, mut bytes_w, mut bytes_r) = (0u64, 0u64, 0u64, 0u64);
    let mut idle = 0u64;
    let mut writes: Vec<Msg> = Vec::new();
    let limit = p.cycle + cycles;
    let total: u64 = qps.iter().map(|q| q.left as u64).sum();
    while msgs < total {
        if p.cycle > limit || idle > 100_000 {
            o.fail(format!("cycle {}: {} of {total} messages completed", p.cycle, msgs));
            break;
        }
        for q in qps.iter_mut() {
            let mut rang = false;
            while q.left > 0 && q.out.len() < (1 << SQ_LOG) - 1 {
                let read = rng.gen_bool(0.4);
                let len = msg_len(&mut rng);
                let local = if read { DST } else { SRC } + slot * SLOT + rng.gen_range(0..64);
                let remote = if read { SRC } else { DST } + slot * SLOT + rng.gen_range(0..64);
                slot += 1;
                let m = Msg { flow: q.flow, index: q.prod, tag: rng.gen(), read, len, local, remote };
                let wqe = wqe_bytes(if read { WQE_READ } else { WQE_WRITE }, m.tag, len, local, remote, rng.gen());
                p.put_wqe(q.slot, q.prod, &wqe);
                q.prod = q.prod.wrapping_add(1);
                q.left -= 1;
                q.out.push_back(m);
                rang = true;
            }
            if rang {
                p.doorbell(q.flow, q.prod);
            }
        }
        // Completion entries, as a driver polls them.
        let entries = cq.take(&mut p);
        let got = !entries.is_empty();
        for e in entries {
            let (flow, index) = (e.cpl.flow, e.index);
            let Some(q) = qps.iter_mut().find(|q| q.flow == flow) else {
                o.fail(format!("cycle {}: a completion entry of flow {flow:#x}, which has no queue: {e:x?}", p.cycle));
                break;
            };
            let Some(m) = q.out.pop_front() else {
                o.fail(format!("cycle {}: a completion entry of flow {flow:#x} with no message out", p.cycle));
                break;
            };
            o.transactions += 1;
            msgs += 1;
            o.check(p.cycle, (e.cpl, index), (Cpl::ok(m.flow, m.tag), m.index));
            if index == NO_INDEX {
                o.fail(format!("cycle {}: completion entry with no WQE index", p.cycle));
            }
            // A READ's bytes are in this host's memory before its completion entry (the
            // driver may read them now); a WRITE's reach the other host's memory after the
            // acknowledgement that completes it, so they are checked at the end.
            if m.read {
                bytes_r += m.len as u64;
                check_bytes(&mut o, &p, &m);
            } else {
                bytes_w += m.len as u64;
                writes.push(m);
            }
        }
        if got {
            idle = 0;
        }
        if !o.failures.is_empty() {
            break;
        }
        for _ in 0..16 {
            p.step();
        }
        idle += 16;
    }
    let traffic = p.cycle - setup;

    if msgs < total {
        o.cycles = p.cycle;
        o.seconds = start.elapsed().as_secs_f64();
        return o;
    }
    // Everything settled: the WRITEs' bytes, the counters through BAR0.
    for _ in 0..2000 {
        p.step();
    }
    for m in &writes {
        check_bytes(&mut o, &p, m);
    }
    let stats: Vec<[u32; 19]> = (0..2).map(|k| std::array::from_fn(|i| p.read(k, csr::NIC_STAT_RD_REQUESTS + i as u32))).collect();
    for k in 0..2 {
        let s = &stats[k];
        let c = p.nics[k].host.counts;
        let w = |i: u32| s[(i - csr::NIC_STAT_RD_REQUESTS) as usize] as u64;
        o.check(p.cycle, (k, "read TLPs", w(csr::NIC_STAT_RD_TLPS)), (k, "read TLPs", c.read_tlps));
        o.check(p.cycle, (k, "completions", w(csr::NIC_STAT_RD_CPLS)), (k, "completions", c.completions));
        o.check(p.cycle, (k, "write TLPs", w(csr::NIC_STAT_WR_TLPS)), (k, "write TLPs", c.write_tlps));
        let other = p.nics[p.peer(k)].frames;
        o.check(p.cycle, (k, "frames received", w(csr::NIC_STAT_MAC_RX_FRAMES)), (k, "frames received", other));
        o.check(p.cycle, (k, "frames sent", w(csr::NIC_STAT_MAC_TX_FRAMES)), (k, "frames sent", p.nics[k].frames));
        for (name, i) in [
            ("read requests of length 0", csr::NIC_STAT_RD_BAD_REQUESTS),
            ("completion errors", csr::NIC_STAT_RD_CPL_ERRORS),
            ("unexpected completions", csr::NIC_STAT_RD_CPL_UNEXPECTED),
            ("write length errors", csr::NIC_STAT_WR_LEN_ERRORS),
            ("unsupported requests", csr::NIC_STAT_AXIL_UNSUPPORTED),
            ("register errors", csr::NIC_STAT_AXIL_ERRORS),
            ("bad frames sent", csr::NIC_STAT_MAC_TX_BAD),
            ("frames too long", csr::NIC_STAT_MAC_TX_TOO_LONG),
            ("bad frames received", csr::NIC_STAT_MAC_RX_BAD),
            ("receive overflows", csr::NIC_STAT_MAC_RX_OVERFLOW),
        ] {
            o.check(p.cycle, (k, name, w(i)), (k, name, 0));
        }
    }
    // Bad BAR0 accesses on NIC 1, each to a part of BAR0: a write to a counter (read-only), a
    // read past the last counter and past the engine's registers, a write past the core's.
    // Each is refused (SLVERR: a read's completion is a completer abort) and counted.
    p.nics[1].host.write(csr::NIC_STAT_RD_REQUESTS, 5);
    p.nics[1].host.write(csr::BAR0_QUEUES - 1, 5);
    p.nics[1].host.read(csr::BAR0_STATS - 1);
    p.nics[1].host.read(0x3FF);
    let r: Vec<u8> = p.settle(1).iter().map(|r| r.2).collect();
    o.check(p.cycle, ("bad reads' completion status", r.clone()), ("bad reads' completion status", vec![4, 4]));
    let errors = p.read(1, csr::NIC_STAT_AXIL_ERRORS);
    o.check(p.cycle, ("NIC 1's refused register accesses", errors), ("NIC 1's refused register accesses", 4));
    let dropped = p.read(1, csr::HQ_STAT_CQ_DROPPED);
    o.check(p.cycle, ("NIC 1's completions (a responder has none)", dropped), ("NIC 1's completions (a responder has none)", 0));
    let wqes = p.read(0, csr::HQ_STAT_WQES) as u64;
    let cqes = p.read(0, csr::HQ_STAT_CQES) as u64;
    o.check(p.cycle, ("WQEs fetched, CQEs written", wqes, cqes), ("WQEs fetched, CQEs written", total, total));
    for k in 0..2 {
        for e in p.nics[k].host.errors.drain(..) {
            o.fail(format!("NIC {k}'s host: {e}"));
        }
    }
    for e in p.errors.drain(..) {
        o.fail(e);
    }
    o.metric("flows", n_flows as f64);
    o.metric("messages", msgs as f64);
    o.metric("write_bytes", bytes_w as f64);
    o.metric("read_bytes", bytes_r as f64);
    o.metric("frames", (p.nics[0].frames + p.nics[1].frames) as f64);
    o.metric("traffic_cycles", traffic as f64);
    o.cycles = p.cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// Message `m`'s bytes at its destination equal its source's.
fn check_bytes(o: &mut Outcome, p: &Pair, m: &Msg) {
    let (src, dst) = if m.read { (p.peer(0), 0) } else { (0, p.peer(0)) };
    let (from, to) = if m.read { (m.remote, m.local) } else { (m.local, m.remote) };
    let want = p.nics[src].host.mem.read(from, m.len as usize);
    let have = p.nics[dst].host.mem.read(to, m.len as usize);
    if let Some(at) = want.iter().zip(&have).position(|(a, b)| a != b) {
        o.fail(format!(
            "cycle {}: flow {:#x} {} #{} of {} bytes: byte {at} differs ({:02x} in NIC {dst}'s memory, {:02x} sent)",
            p.cycle,
            m.flow,
            if m.read { "READ" } else { "WRITE" },
            m.index,
            m.len,
            have[at],
            want[at]
        ));
    }
}

impl Pair {
    /// Runs NIC `k`'s queued create of `flow` (its register writes, CMD last) to its end; it
    /// must succeed.
    fn command_done(&mut self, k: usize, flow: u16) {
        self.settle(k);
        let s = self.poll(k, csr::STATUS, |v| v & csr::STATUS_BUSY == 0);
        assert_eq!(csr::status_err(s), csr::ERR_NONE, "create of flow {flow:#x} on NIC {k}");
    }
}
