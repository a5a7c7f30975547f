//! `hpcc-nic bench --module incast`: issue 13's directed congestion tests. N RTL cores
//! (`harness::fabric`) WRITE `bytes` each at once to one receiver through an output-queued
//! switch (`sim::switch`: 100 Gb/s ports, 1 us links, RED 100-400 KB for LDCP and DCQCN,
//! telemetry per hop for HPCC++), for every algorithm and N in {4, 8}. Per run: completion
//! time, the bottleneck queue (peak and mean while it carries the incast), its utilization,
//! base RTTs until every sender's share is within 10% of fair, drops, CE marks, CNPs and
//! retransmission timeouts. A benchmark: nothing fails for a poor figure.

use testbench::harness::fabric::{incast, Incast, ALG_NAMES};

/// Runs every algorithm at 4 and 8 senders, `bytes` each, at most `max_cycles` per run.
pub fn sweep(bytes: u32, max_cycles: u64) -> Vec<Incast> {
    let mut out = vec![];
    for n in [4, 8] {
        for alg in 0..4 {
            let r = incast(alg, n, bytes, max_cycles, 0x1_2c00 + n as u64);
            print_one(&r);
            out.push(r);
        }
    }
    out
}

fn row(r: &Incast) -> String {
    let us = |c: u64| c as f64 * 0.004;
    format!(
        "| {} | {} -> 1 | {} / {} | {:.1} | {:.1} | {:.1} | {:.1}% | {} | {} | {} | {} | {} |",
        ALG_NAMES[r.alg as usize],
        r.senders,
        r.completed,
        r.senders,
        us(r.cycles),
        r.max_queue_bytes as f64 / 1000.0,
        r.mean_queue_bytes / 1000.0,
        r.utilization * 100.0,
        r.rtts_to_fair.map_or("never".to_string(), |n| n.to_string()),
        r.dropped,
        r.marked,
        r.cnps,
        r.timeouts
    )
}

fn print_one(r: &Incast) {
    println!("{}   ({:.0} s)", row(r), r.seconds);
}

pub fn print(runs: &[Incast], bytes: u32, markdown: bool) {
    if markdown {
        println!("\nincast, {} KB per sender, 100 Gb/s, 1 us links:\n", bytes / 1000);
        println!("| algorithm | incast | completed | last completion us | peak queue KB | mean queue KB | utilization | RTTs to fair | drops | CE marks | CNPs | timeouts |");
        println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for r in runs {
            println!("{}", row(r));
        }
    }
}
