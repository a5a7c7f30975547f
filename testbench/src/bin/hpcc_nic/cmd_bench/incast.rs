//! `hpcc-nic bench --module incast`: issue 13's directed congestion tests. N RTL cores
//! (`harness::fabric`) WRITE to one receiver through an output-queued switch (`sim::switch`:
//! 100 Gb/s ports, 1 us links, RED 100-400 KB for LDCP and DCQCN, telemetry per hop for
//! HPCC++):
//! - every algorithm at N = 4 and 8, `bytes` each, all at once, on the CC module's defaults;
//! - LDCP again with its parameters for this fabric (`fabric::ldcp_for_fabric`);
//! - convergence: 4 senders of 1 MB each, one every 25 us (5 base RTTs), every algorithm.
//! Per run: completion time, the bottleneck queue (peak and mean while it carries the
//! incast), its utilization, base RTTs from the last sender's start until every sender's share
//! is within 10% of fair, drops, CE marks, CNPs and retransmission timeouts. A benchmark:
//! nothing fails for a poor figure.

use testbench::harness::fabric::{ldcp_for_fabric, run, Incast, Spec, ALG_NAMES, BASE_RTT};

/// The runs above, `bytes` per sender in the synchronized ones, at most `max_cycles` each.
pub fn sweep(bytes: u32, max_cycles: u64) -> Vec<Incast> {
    let tuned = |s: Spec| Spec { model: testbench::harness::cc_module::model_with_ldcp(ldcp_for_fabric()), config: "LDCP for the fabric", ..s };
    let mut specs = vec![];
    for n in [4, 8] {
        for alg in 0..4 {
            specs.push(Spec::new(alg, n, bytes, max_cycles, 0x1_2c00 + n as u64));
        }
        specs.push(tuned(Spec::new(2, n, bytes, max_cycles, 0x1_2c00 + n as u64)));
    }
    for alg in 0..4 {
        let s = Spec { stagger: 5 * BASE_RTT, ..Spec::new(alg, 4, 1_000_000, max_cycles, 0x1_2c10) };
        specs.push(if alg == 2 { tuned(s) } else { s });
    }
    let mut out = vec![];
    for s in &specs {
        let r = run(s);
        println!("{}   ({:.0} s)", row(&r), r.seconds);
        out.push(r);
    }
    out
}

fn row(r: &Incast) -> String {
    let us = |c: u64| c as f64 * 0.004;
    let start = if r.stagger == 0 { "at once".to_string() } else { format!("every {:.0} us", us(r.stagger)) };
    format!(
        "| {} | {} | {} -> 1 x {} KB | {} | {} / {} | {:.1} | {:.1} | {:.1} | {:.1}% | {} | {:.3} | {} | {} | {} | {} |",
        ALG_NAMES[r.alg as usize],
        r.config,
        r.senders,
        r.bytes / 1000,
        start,
        r.completed,
        r.senders,
        us(r.cycles),
        r.max_queue_bytes as f64 / 1000.0,
        r.mean_queue_bytes / 1000.0,
        r.utilization * 100.0,
        r.rtts_to_fair.map_or("never".to_string(), |n| n.to_string()),
        r.jain,
        r.dropped,
        r.marked,
        r.cnps,
        r.timeouts
    )
}

pub fn print(runs: &[Incast], markdown: bool) {
    if markdown {
        println!("\nincast, 100 Gb/s, 1 us links:\n");
        println!("| algorithm | CC config | incast | start | completed | last completion us | peak queue KB | mean queue KB | utilization | RTTs to fair | Jain | drops | CE marks | CNPs | timeouts |");
        println!("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for r in runs {
            println!("{}", row(r));
        }
    }
}
