//! `hpcc-nic bench --module rx_pipe`: throughput of the Verilated rx_pipe. For each payload size
//! of the sweep, 1000 RDMA WRITE Middle frames (no telemetry, 58 + payload + pad + 4 bytes)
//! offered back to back (a beat every cycle), with the verdict output always ready and with it
//! not ready on a random 30% of cycles: beats and frames taken per cycle until the last beat is
//! in, and what that is in Ethernet terms at 250 MHz (frame + 4 FCS + 20 preamble and IFG bytes
//! per frame). 100 Gb/s needs frames_per_cycle x (len + 24) x 8 x 250e6 >= 100e9.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::{examples, Body, Opcode};
use sim::rx_pipe::beats;
use testbench::harness::rx_pipe as h;

/// Payload sizes of the sweep.
pub fn sizes() -> Vec<usize> {
    (60..=127).chain([256, 512, 1024, 1500, 4096]).collect()
}

/// One point: (frame length, beats/cycle, frames/cycle, Gb/s at 250 MHz).
pub fn point(payload: usize, backpressure: f64) -> (usize, f64, f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(payload as u64);
    let (_, mut p) = examples()
        .into_iter()
        .find(|(_, p)| p.opcode() == Opcode::RdmaWriteMiddle)
        .expect("an example WRITE Middle");
    p.telemetry = None;
    p.body = Body::WriteMiddle {
        payload: (0..payload).map(|_| rng.gen()).collect(),
    };
    let f = p.build();
    let n = 1000;
    let mut dut = h::open(None);
    let s = h::stream(
        &mut dut,
        (0..n).map(|_| beats(&f)),
        0.0,
        backpressure,
        &mut rng,
        100 * n as u64 * 70,
    );
    assert_eq!(s.verdicts.len(), n, "every frame judged");
    assert!(
        s.verdicts.iter().all(|v| v.code == 0),
        "every frame accepted"
    );
    let fpc = n as f64 / s.input_cycles as f64;
    let gbps = fpc * 250e6 * (f.len() + 24) as f64 * 8.0 / 1e9;
    (f.len(), s.beats as f64 / s.input_cycles as f64, fpc, gbps)
}

pub fn run(markdown: bool) {
    println!("rx_pipe, 1000 back-to-back WRITE Middle frames per size, 250 MHz");
    if markdown {
        println!("| payload B | frame B | beats/cycle | frames/cycle | Gb/s | beats/cycle, 30% backpressure | frames/cycle, 30% backpressure | Gb/s, 30% backpressure |");
        println!("|---|---|---|---|---|---|---|---|");
    } else {
        println!(
            "{:>8} {:>7} {:>11} {:>12} {:>8} | with 30% verdict backpressure",
            "payload", "frame", "beats/cyc", "frames/cyc", "Gb/s"
        );
    }
    let mut worst: (f64, usize) = (f64::MAX, 0);
    for s in sizes() {
        let (len, b0, f0, g0) = point(s, 0.0);
        let (_, b1, f1, g1) = point(s, 0.3);
        if g0.min(g1) < worst.0 {
            worst = (g0.min(g1), s);
        }
        if markdown {
            println!("| {s} | {len} | {b0:.4} | {f0:.4} | {g0:.1} | {b1:.4} | {f1:.4} | {g1:.1} |");
        } else {
            println!(
                "{s:>8} {len:>7} {b0:>11.4} {f0:>12.4} {g0:>8.1} | {b1:>9.4} {f1:>10.4} {g1:>8.1}"
            );
        }
    }
    println!("lowest: {:.1} Gb/s at payload {} B", worst.0, worst.1);
}
