//! `hpcc-nic bench --module tx_pipe`: the Tx pipe's throughput sweep in Verilator. For each
//! payload size (60-127, 256, 512, 1024, 1500, 4096; RDMA WRITE Middle without and with a
//! telemetry header), inputs offered on every cycle, `m_axis_tready` always high or high with
//! probability 0.5 (random backpressure). Every frame is also compared with the golden model.

use testbench::harness::tx_pipe::throughput;

/// Payload sizes of the sweep.
pub fn sizes() -> Vec<u16> {
    let mut v: Vec<u16> = (60..=127).collect();
    v.extend([256, 512, 1024, 1500, 4096]);
    v
}

/// Prints one line per (size, telemetry, backpressure); returns false on a mismatch.
pub fn run(frames: u64, markdown: bool) -> bool {
    let mut ok = true;
    if markdown {
        println!("| payload B | telemetry | tready | frame B | frames | cycles | beats/ready cycle | frames/cycle | Gb/s on the wire (250 MHz) | 100G line rate |");
        println!("|---|---|---|---|---|---|---|---|---|---|");
    } else {
        println!("payload tele tready frame_B frames cycles beats/ready_cycle frames/cycle wire_Gb/s");
    }
    for p in sizes() {
        for tele in [false, true] {
            for ready in [1.0, 0.5] {
                let (n, cycles, bpr, fpc, gbps, bad) = throughput(p, tele, ready, frames, 0x7e57 + p as u64);
                ok &= bad == 0;
                let l = 54 + if tele { 44 } else { 0 } + (p as usize).div_ceil(4) * 4 + 4;
                // Line rate: (frame + 4 FCS + 20 preamble/IFG) bytes x 0.08 ns per frame.
                let need = (l + 24) as f64 * 0.08;
                let have = 4.0 / fpc;
                if markdown {
                    println!(
                        "| {p} | {} | {} | {l} | {n} | {cycles} | {bpr:.4} | {fpc:.4} | {gbps:.1} | {} |",
                        if tele { "yes" } else { "no" },
                        if ready == 1.0 { "always" } else { "p = 0.5" },
                        if ready < 1.0 { "n/a (output throttled)" } else if have <= need + 1e-9 { "holds" } else { "MISSES" }
                    );
                } else {
                    println!("{p:>7} {:>4} {ready:>6} {l:>7} {n:>6} {cycles:>6} {bpr:>17.4} {fpc:>12.4} {gbps:>9.1}{}", tele as u8, if bad > 0 { "  MISMATCH" } else { "" });
                }
            }
        }
    }
    ok
}
