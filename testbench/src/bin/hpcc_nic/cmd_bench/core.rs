//! `hpcc-nic bench --module hpcc_nic_core`: the NIC core end to end. Two Verilated cores back to
//! back (100-cycle link, no backpressure), each MAC paced at 100 Gb/s on the wire (`Host::mac_rate`:
//! 50 bytes per 250 MHz cycle, every frame costing FCS, minimum size, preamble and gap).
//!
//! - One flow, WRITEs of 1 MiB back to back (the next posted when the last completes), for each
//!   RoCE MTU: Gb/s on the wire and of payload on A's MAC, measured from the first message's post
//!   to the last completion in the window.
//! - 1024 flows at MTU 4096, WRITEs of 64 KiB back to back on each: the scheduler's ring with
//!   every flow active.
//! - Small messages: 64-byte WRITEs on 16 flows, each posting its next at its completion: what
//!   the register-port command path sustains.
//! - Verilator cycles per second of the pair (two cores), so of one core about twice that.
//!
//! Flows are Rx-HPCC with a 1 MiB window and 100 Gb/s rate and send no telemetry: the receiver
//! computes no W, so the sender gets no Updates, and the figures are the datapath's and the
//! scheduler's, not an algorithm's. A benchmark, not a test: nothing fails for being slow.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::rx_ctx::{Ctrl as RxCtrl, OP_CREATE};
use sim::tx_ctx::{Ctrl as TxCtrl, FlowConfig, Post};
use std::time::Instant;
use testbench::harness::hpcc_nic_core::{configure, core, create, pair, post, settle, status_when_done, CorePair, Which};
use testbench::harness::tx_pipe::header_to;

/// 100 Gb/s at 250 MHz.
const LINE: f64 = 50.0;
/// Rx-HPCC without telemetry: no Updates reach the sender.
const ALG_RX_HPCC: u32 = 1;

/// One measured point.
pub struct Point {
    pub label: String,
    pub messages: u64,
    pub frames: u64,
    pub wire_gbps: f64,
    pub payload_gbps: f64,
    pub cycles_per_s: f64,
}

fn setup(seed: u64) -> CorePair {
    let mut p = pair(seed, 100, 0.0, None);
    for w in [Which::A, Which::B] {
        let c = core(&mut p, w);
        c.host.keep = false;
        c.host.mac_rate = Some(LINE);
        configure(c, &testbench::harness::cc_module::default_model(), 12, 16);
        settle(&mut p, w, 50_000);
    }
    p
}

/// Creates requester `flow` on A and its responder, the same id, on B, at `mtu`.
fn connect(p: &mut CorePair, rng: &mut ChaCha8Rng, flow: u16, mtu: u16) {
    let resp = flow;
    let cfg = |header| FlowConfig { header, mtu, telemetry: false, probe: false, fast_start: 0, cnp: false };
    let rx = |qpn: u16| RxCtrl { op: OP_CREATE, qpn: qpn as u32, epsn: 0, spsn: 0, mtu, addr: 0 }.to_bytes();
    let (to_b, to_a) = (header_to(rng, resp as u32), header_to(rng, flow as u32));
    for (w, f, h) in [(Which::A, flow, to_b), (Which::B, resp, to_a)] {
        create(core(p, w), f, &TxCtrl::Create { flow: f, cfg: cfg(h) }.to_bytes(), &rx(f), 50 << 16, 1 << 20, ALG_RX_HPCC);
        settle(p, w, 10_000);
        assert_eq!(status_when_done(p, w) >> 4 & 0xF, 0, "create of flow {f:#x} refused");
    }
}

/// Posts the `k`th WRITE of `len` bytes on `flow` from PSN `psn`. Every flow sends from and to
/// the same four buffers (what lands is not checked here; `core-random` checks it).
fn send(p: &mut CorePair, flow: u16, len: u32, psn: u32, k: u64) {
    let local = 0x1_0000_0000 + (k % 4) * (len as u64 + 4096);
    let w = Post { local_addr: local, remote_addr: local, rkey: 0, len, first_psn: psn & 0xFF_FFFF };
    post(core(p, Which::A), flow, &TxCtrl::Post { flow, post: w }.to_bytes(), None, k as u16);
    // The next command's arguments must not overwrite this one's while it runs.
    settle(p, Which::A, 10_000);
    assert_eq!(status_when_done(p, Which::A) >> 4 & 0xF, 0, "post on flow {flow:#x} refused");
}

/// Runs `flows` flows (ids 0..) at `mtu`, each posting WRITEs of `len` bytes back to back,
/// for `cycles` cycles after the first post.
fn run(label: String, seed: u64, flows: u16, mtu: u16, len: u32, cycles: u64) -> Point {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = setup(seed);
    for f in 0..flows {
        connect(&mut p, &mut rng, f, mtu);
    }
    let fill: Vec<u8> = (0..len + 4096).map(|_| rng.gen()).collect();
    for k in 0..4u64 {
        p.a.host.fill(0x1_0000_0000 + k * (len as u64 + 4096), &fill);
    }
    let pkts = len.div_ceil(mtu as u32).max(1);
    let mut psn = vec![0u32; flows as usize];
    let mut count = vec![0u64; flows as usize];
    let (wire0, frames0, start_cycle) = (p.a.host.wire_bytes, p.a.host.frames, p.cycle);
    let started = Instant::now();
    for f in 0..flows {
        send(&mut p, f, len, psn[f as usize], 0);
        psn[f as usize] += pkts;
    }
    let (mut seen, mut done, mut wire_at_last, mut last_cycle) = (0usize, 0u64, wire0, start_cycle);
    while p.cycle < start_cycle + cycles {
        p.step();
        // Posting runs the pair on (register writes, a status poll), and completions come in
        // meanwhile: stop at the end of the window.
        while seen < p.a.completions.len() && p.cycle < start_cycle + cycles {
            let c = p.a.completions[seen];
            assert_eq!(c >> 32 & 3, 0, "completion {c:#x} is not ok");
            let flow = c as u16;
            seen += 1;
            done += 1;
            (wire_at_last, last_cycle) = (p.a.host.wire_bytes, p.cycle);
            let i = flow as usize;
            count[i] += 1;
            send(&mut p, flow, len, psn[i], count[i]);
            psn[i] += pkts;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let span = (last_cycle - start_cycle).max(1) as f64;
    let gbps = |bytes_per_cycle: f64| bytes_per_cycle * 8.0 * 0.25;
    Point {
        label,
        messages: done,
        frames: p.a.host.frames - frames0,
        wire_gbps: gbps((wire_at_last - wire0) as f64 / span),
        payload_gbps: gbps(done as f64 * len as f64 / span),
        cycles_per_s: (p.cycle - start_cycle) as f64 / secs,
    }
}

/// The sweep: one flow at each MTU, then small messages on 16 flows.
pub fn sweep(cycles: u64) -> Vec<Point> {
    let mut v = vec![];
    for (k, mtu) in [256u16, 512, 1024, 2048, 4096].into_iter().enumerate() {
        v.push(run(format!("1 flow, MTU {mtu}, 1 MiB WRITEs"), 0xC0DE + k as u64, 1, mtu, 1 << 20, cycles));
    }
    v.push(run("1024 flows, MTU 4096, 64 KiB WRITEs".into(), 0xC0DE + 8, 1024, 4096, 64 << 10, cycles));
    v.push(run("16 flows, 64 B WRITEs".into(), 0xC0DE + 9, 16, 1024, 64, cycles));
    v
}

/// Prints the sweep (and a Markdown table for docs/benchmarks.md).
pub fn print(points: &[Point], markdown: bool) {
    println!("hpcc_nic_core, two cores back to back, MACs at 100 Gb/s on the wire");
    for q in points {
        println!(
            "  {:<30} {:>6} messages {:>8} frames  wire {:>6.1} Gb/s  payload {:>6.1} Gb/s  {:>7.0} cycles/s (pair)",
            q.label, q.messages, q.frames, q.wire_gbps, q.payload_gbps, q.cycles_per_s
        );
    }
    if markdown {
        println!("\n| run | messages | frames (A) | wire Gb/s | payload Gb/s | Verilator cycles/s (pair) |");
        println!("|---|---:|---:|---:|---:|---:|");
        for q in points {
            println!(
                "| {} | {} | {} | {:.1} | {:.1} | {:.0} |",
                q.label, q.messages, q.frames, q.wire_gbps, q.payload_gbps, q.cycles_per_s
            );
        }
    }
}
