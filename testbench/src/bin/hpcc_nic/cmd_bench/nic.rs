//! `hpcc-nic bench --module hpcc_nic`: the whole NIC end to end, host to host (issue 16, item
//! 6). Two Verilated `hpcc_nic` tops wire to wire, each behind a PCIe host
//! (`harness::pcie_host`), as `nic-pair` runs them, but with no backpressure on RQ, max read
//! request 512 B, max payload 256 B, and every read answered after exactly `L` cycles with
//! completions of one size (256 B unless a row says otherwise; a host's root complex picks it,
//! and with straddling off a small one wastes most of its second beat):
//!
//! - latency: one message on an idle NIC, from the cycle the hard block hands the doorbell's
//!   BAR0 write to the NIC (its CQ beat taken) to the cycle the completion entry's write TLP
//!   leaves it (taken on RQ), for a READ and a WRITE of 64 B and 4 KiB, at L = 0 and L = 125
//!   cycles (500 ns, a typical host's read round trip);
//! - throughput: WRITE payload Gb/s landing in the other host's memory, counted from the
//!   first payload write TLP to the last, for 4 flows of 64 KiB WQEs at completion sizes 64 to
//!   512 B, one flow of 1 MiB WQEs and 16 flows of 4 KiB, L = 125, MTU 4096;
//! - small messages: 64-byte WRITEs on 16 and 64 flows, completions per second;
//! - Verilator cycles per second of the pair.
//!
//! The wire is `harness::hpcc_nic::WIRE` CMAC cycles (100, 310 ns) each way. Flows are Rx-HPCC
//! with a 1 MiB window and no telemetry (no Updates: the figures are the datapath's). A
//! benchmark, not a test: nothing fails for being slow (a message that does not complete is an
//! error).

use std::time::Instant;
use testbench::harness::hpcc_nic::{Pair, QpSpec, DST, SQ_LOG, SRC};
use sim::host_queues::{wqe_bytes, WQE_READ, WQE_WRITE};

/// Rx-HPCC without telemetry.
const ALG_RX_HPCC: u32 = 1;
/// A host's read round trip used for the throughput runs, cycles (500 ns).
pub const HOST_L: u64 = 125;

/// A pair with `flows` queue pairs at MTU 4096, reads answered after `l` cycles with
/// completions of `cpl` bytes (at 64-byte boundaries), max read request 512 B, max payload
/// 256 B.
fn setup(flows: usize, l: u64, cpl: u64) -> Pair {
    let mut p = Pair::new(0xbe7c_4e1c, None);
    for n in &mut p.nics {
        n.dut.set_cfg_max_read_req(2);
        n.dut.set_cfg_max_payload(1);
        n.host.rcb = 64;
        n.host.cpl_blocks = Some(cpl / 64);
        n.host.latency = (l, l);
        n.host.rq_ready = 1.0;
        n.host.log = true;
        // Payload writes are counted, not kept (megabytes): only the queues' region is.
        n.host.store_below = SRC;
    }
    p.configure();
    for i in 0..flows {
        let q = QpSpec { flow: flow_of(i), alg: ALG_RX_HPCC, mtu: 4096, psn: 0, window: 1 << 20, telemetry: false };
        p.connect(i, &q, 1);
    }
    p
}

/// The flow id of the `i`th queue pair (spread over the 1024-flow table).
fn flow_of(i: usize) -> u16 {
    0x10 * i as u16 + 1
}

/// One latency point.
pub struct Latency {
    pub read: bool,
    pub len: u32,
    pub l: u64,
    pub cycles: u64,
}

/// Cycles from a doorbell to its completion entry, one message on an idle NIC.
fn latency(read: bool, len: u32, l: u64) -> Latency {
    let mut p = setup(1, l, 256);
    let mut cq = p.completion_queue();
    let (local, remote) = if read { (DST, SRC) } else { (SRC, DST) };
    p.put_wqe(0, 0, &wqe_bytes(if read { WQE_READ } else { WQE_WRITE }, 7, len, local, remote, 0));
    p.doorbell(1, 1);
    p.settle(0);
    let rung = *p.nics[0].host.request_log.last().unwrap();
    let writes_before = p.nics[0].host.write_log.len();
    for _ in 0..100_000 {
        if !cq.take(&mut p).is_empty() {
            break;
        }
        p.step();
    }
    // The completion entry's write: the first write TLP into the completion ring since.
    let cqe = p.nics[0].host.write_log[writes_before..].iter().find(|w| w.1 < SRC).expect("no completion entry").0;
    Latency { read, len, l, cycles: cqe - rung }
}

/// One throughput point.
pub struct Throughput {
    pub label: String,
    pub messages: u64,
    pub payload_gbps: f64,
    pub cycles_per_s: f64,
    pub msgs_per_s: f64,
}

/// `flows` flows each running `per_flow` WRITEs of `len` bytes, rings kept full.
fn throughput(label: &str, flows: usize, len: u32, per_flow: u32, cpl: u64, l: u64) -> Throughput {
    let mut p = setup(flows, l, cpl);
    let mut cq = p.completion_queue();
    let t0 = Instant::now();
    let c0 = p.cycle;
    let mut prod = vec![0u16; flows];
    let mut done = vec![0u32; flows];
    let total = flows as u64 * per_flow as u64;
    let (mut got, mut slot) = (0u64, 0u64);
    let mut first_done = None;
    let limit = p.cycle + 20_000_000;
    while got < total && p.cycle < limit {
        for i in 0..flows {
            let mut rang = false;
            while (prod[i] as u32) < per_flow && (prod[i] as u32 - done[i]) < (1 << SQ_LOG) - 1 {
                let at = slot * (len as u64).next_power_of_two().max(4096);
                slot += 1;
                p.put_wqe(i, prod[i], &wqe_bytes(WQE_WRITE, 0, len, SRC + at, DST + at, 0));
                prod[i] += 1;
                rang = true;
            }
            if rang {
                p.doorbell(flow_of(i), prod[i]);
            }
        }
        for e in cq.take(&mut p) {
            assert_eq!(e.cpl.status, sim::csr::CPL_OK as u64, "{label}: {e:?}");
            done[(e.cpl.flow / 0x10) as usize] += 1;
            got += 1;
            first_done.get_or_insert(p.cycle);
        }
        for _ in 0..16 {
            p.step();
        }
    }
    assert_eq!(got, total, "{label}: messages not completed in 20M cycles");
    let secs = t0.elapsed().as_secs_f64();
    // Payload landing in NIC 1's host: from its first payload write TLP to its last.
    let w: Vec<&(u64, u64, usize)> = p.nics[1].host.write_log.iter().filter(|w| w.1 >= DST).collect();
    // (Empty WRITEs write nothing.)
    let (a, b) = (w.first().map_or(0, |w| w.0), w.last().map_or(0, |w| w.0));
    let bytes: usize = w.iter().map(|w| w.2).sum();
    let span = (p.cycle - first_done.unwrap_or(c0)).max(1);
    Throughput {
        label: label.to_string(),
        messages: got,
        payload_gbps: bytes as f64 * 8.0 * 0.25 / (b - a).max(1) as f64,
        cycles_per_s: (p.cycle - c0) as f64 / secs,
        msgs_per_s: (got - 1) as f64 * 250e6 / span as f64,
    }
}

/// Cycles per BAR0 register write, back to back (200 writes of the completion queue's head).
fn register_writes() -> f64 {
    let mut p = setup(1, HOST_L, 256);
    p.completion_queue();
    let c0 = p.cycle;
    for _ in 0..200 {
        p.doorbell(flow_of(0), 0);
    }
    p.settle(0);
    (p.cycle - c0) as f64 / 200.0
}

/// Every point.
pub struct Report {
    /// Cycles per BAR0 write, back to back.
    pub bar0_write: f64,
    pub latency: Vec<Latency>,
    pub throughput: Vec<Throughput>,
}

/// Runs every point; `scale` multiplies the messages of the throughput runs.
pub fn run(scale: u32) -> Report {
    let mut latency = Vec::new();
    for l in [0, HOST_L] {
        for read in [false, true] {
            for len in [64, 4096] {
                latency.push(self::latency(read, len, l));
            }
        }
    }
    let mut throughput = Vec::new();
    for cpl in [64, 128, 256, 512] {
        throughput.push(self::throughput(&format!("4 flows, 64 KiB WRITEs, {cpl} B completions"), 4, 64 << 10, 4 * scale, cpl, HOST_L));
    }
    throughput.push(self::throughput("1 flow, 1 MiB WRITEs, 256 B completions", 1, 1 << 20, 2 * scale, 256, HOST_L));
    throughput.push(self::throughput("16 flows, 4 KiB WRITEs, 256 B completions", 16, 4096, 8 * scale, 256, HOST_L));
    throughput.push(self::throughput("16 flows, 64 B WRITEs, 256 B completions", 16, 64, 16 * scale, 256, HOST_L));
    throughput.push(self::throughput("64 flows, 64 B WRITEs, 256 B completions", 64, 64, 8 * scale, 256, HOST_L));
    // The same with reads answered at once, and with empty WRITEs (no payload read): where
    // the host's read round trip bounds small messages.
    throughput.push(self::throughput("64 flows, 64 B WRITEs, L = 0", 64, 64, 8 * scale, 256, 0));
    throughput.push(self::throughput("64 flows, empty WRITEs", 64, 0, 8 * scale, 256, HOST_L));
    Report { bar0_write: register_writes(), latency, throughput }
}

pub fn print(r: &Report, markdown: bool) {
    println!("BAR0 writes back to back (doorbells): {:.1} cycles each", r.bar0_write);
    if markdown {
        println!();
    }
    if markdown {
        println!("| message | host read round trip L | doorbell to completion entry, cycles | ns at 250 MHz |");
        println!("|---|---:|---:|---:|");
    }
    for x in &r.latency {
        let what = format!("{} {} B", if x.read { "READ" } else { "WRITE" }, x.len);
        if markdown {
            println!("| {what} | {} | {} | {} |", x.l, x.cycles, x.cycles * 4);
        } else {
            println!("latency  {what:<12} L {:>4}: {:>6} cycles ({} ns)", x.l, x.cycles, x.cycles * 4);
        }
    }
    if markdown {
        println!();
        println!("| traffic (MTU 4096, L = {HOST_L}) | messages | WRITE payload Gb/s into the other host | messages/s | Verilator cycles/s (pair) |");
        println!("|---|---:|---:|---:|---:|");
    }
    for t in &r.throughput {
        if markdown {
            println!("| {} | {} | {:.1} | {:.2e} | {:.0} |", t.label, t.messages, t.payload_gbps, t.msgs_per_s, t.cycles_per_s);
        } else {
            println!(
                "{:<24} {:>5} messages {:>6.1} Gb/s payload {:>10.3e} msgs/s {:>9.0} cycles/s",
                t.label, t.messages, t.payload_gbps, t.msgs_per_s, t.cycles_per_s
            );
        }
    }
}
