//! `hpcc-nic bench`: how fast `flow_sched` simulates. One deterministic stimulus (`Stimulus`, a
//! xorshift32 stepped once per cycle) drives the Verilated RTL, the same exported Verilog under
//! Icarus Verilog (testbench/bench/flow_sched_bench_tb.v, the stimulus written again in Verilog),
//! and the rust-hdl source under rust-hdl's own simulator, all in one run; each reports a checksum
//! of its PktSend handshakes, and they must agree (compared over the shorter runs' prefixes), or
//! the command exits 1. rust-hdl runs twice: as it comes, and with its threads pinned to one CPU.
//! It also times the golden model alone on the same stimulus, and what `regress` runs: the
//! lockstep pair (RTL + golden model on `Traffic` with `Profile::random()`), and the RTL alone on
//! that traffic. A benchmark, not a test: nothing here fails for being slow. Only the simulation
//! loops are timed (Icarus: the `vvp` process). Results: docs/benchmarks.md.

mod cc_hpcc;
mod cc_ldcp;
mod core;
mod cycle_models;
mod incast;
mod netsim;
mod layout;
mod nic;
mod report;
mod runners;
mod rx_pipe;
mod rust_hdl_sim;
mod stimulus;
mod tx_pipe;

use crate::Result;
use report::{Results, Row};
use runners::{best_of, drive, iverilog};
use sim::flow_sched as model;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use stimulus::Check;
use testbench::harness::flow_sched::{Lockstep, Profile, Traffic, FLOW_BITS};
use testbench::verilated::models::FlowSched as Rtl;

#[derive(clap::Args)]
pub struct Args {
    /// `flow_sched` (the full comparison), `cc_hpcc` / `cc_ldcp` (Verilator, model, lockstep),
    /// `tx_pipe` (throughput sweep over payload sizes, with and without backpressure),
    /// `rx_pipe` (frames and beats per cycle over a sweep of frame sizes), or `hpcc_nic_core`
    /// (two cores end to end: Gb/s per MTU, small messages, Verilator cycles/s), `hpcc_nic` (two
    /// NICs behind PCIe hosts: doorbell-to-completion latency, WRITE Gb/s host to host), `incast`
    /// (4 and 8 RTL cores into one through a switch model, every algorithm), `cycle_models`
    /// (the model NIC's cycle models against their Verilated blocks), or `layout` (fields of
    /// wide words: 32-bit words against num-bigint).
    #[arg(long, default_value = "flow_sched")]
    module: String,
    /// Cycles for Verilator and for the golden model alone.
    #[arg(long, default_value_t = 2_000_000)]
    cycles: u64,
    /// Cycles for Icarus Verilog (a prefix of the Verilator run; 0 skips it).
    #[arg(long, default_value_t = 200_000)]
    iverilog_cycles: u64,
    /// Cycles for rust-hdl's simulator (a prefix of the Verilator run; 0 skips it).
    #[arg(long, default_value_t = 20_000)]
    rust_hdl_cycles: u64,
    /// Cycles of the lockstep regression (Verilator + golden model, random traffic) and of
    /// Verilator alone on that traffic (0 skips both).
    #[arg(long, default_value_t = 1_000_000)]
    lockstep_cycles: u64,
    /// Runs of Verilator, the golden model and the lockstep regression (each takes well under a
    /// second; the best run counts). Icarus Verilog and rust-hdl run once.
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// Also print a Markdown section for docs/benchmarks.md.
    #[arg(long)]
    markdown: bool,
}

/// Seed of the lockstep run's `Traffic`.
const LOCKSTEP_SEED: u64 = 0xbe7c_0001;
/// The Verilog testbench, relative to the workspace root.
const TB: &str = "testbench/bench/flow_sched_bench_tb.v";

pub fn run(root: &Path, args: Args) -> Result<ExitCode> {
    match args.module.as_str() {
        "flow_sched" => {}
        "cc_hpcc" | "cc_ldcp" => {
            let m = args.module.as_str();
            let n = args.cycles as usize / 2;
            let r = if m == "cc_hpcc" { cc_hpcc::run(n) } else { cc_ldcp::run(n) };
            println!("{m}, {} events round-robin over 1024 flows, offered every cycle", r.events);
            println!("  verilator alone   {:>12.0} cycles/s {:>12.0} events/s", r.rtl.0, r.rtl.1);
            println!("  golden model      {:>12} {:>21.0} events/s", "", r.model);
            println!("  lockstep (both)   {:>12.0} cycles/s {:>12.0} events/s", r.lockstep.0, r.lockstep.1);
            return Ok(ExitCode::SUCCESS);
        }
        "cycle_models" => {
            // --cycles / 10 events after the creates (default 200,000); --cycles / 100 frames.
            let r = [
                cycle_models::run((args.cycles / 10) as usize, args.repeat)?,
                cycle_models::run_tx_pipe((args.cycles / 100) as usize, args.repeat)?,
            ];
            cycle_models::print(&r, args.markdown);
            return Ok(ExitCode::SUCCESS);
        }
        "layout" => {
            // --cycles / 100 passes over every field (default 20,000).
            let ok = layout::run((args.cycles / 100).max(10), args.markdown);
            return Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        "rx_pipe" => {
            rx_pipe::run(args.markdown);
            return Ok(ExitCode::SUCCESS);
        }
        "incast" => {
            // 500 KB per sender; at most --cycles / 2 cycles per run (default 1,000,000).
            let bytes = 500_000;
            let runs = incast::sweep(bytes, (args.cycles / 2).max(100_000));
            incast::print(&runs, args.markdown);
            return Ok(ExitCode::SUCCESS);
        }
        "netsim" => {
            // --cycles / 10 bytes per sender (default 200 KB).
            let bytes = (args.cycles / 10).max(10_000);
            let r = netsim::run_all(bytes)?;
            netsim::print(&r, bytes, args.markdown);
            return Ok(ExitCode::SUCCESS);
        }
        "hpcc_nic" => {
            // --cycles / 2,000,000 times the throughput runs' messages (default 1).
            nic::print(&nic::run((args.cycles / 2_000_000).max(1) as u32), args.markdown);
            return Ok(ExitCode::SUCCESS);
        }
        "hpcc_nic_core" => {
            // --cycles / 10 per point (default 200,000).
            core::print(&core::sweep((args.cycles / 10).max(10_000)), args.markdown);
            return Ok(ExitCode::SUCCESS);
        }
        "tx_pipe" => {
            // --cycles / 10^4 frames per point (default 200).
            let ok = tx_pipe::run((args.cycles / 10_000).max(10), args.markdown);
            return Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        m => return Err(format!("--module {m}: flow_sched, cc_hpcc, cc_ldcp, tx_pipe, rx_pipe, hpcc_nic_core, hpcc_nic, incast, netsim, cycle_models or layout").into()),
    }
    if args.cycles <= 1 << FLOW_BITS {
        return Err(format!("--cycles {}: want more than the {} cycles of RAM clearing", args.cycles, 1u64 << FLOW_BITS).into());
    }
    for (n, flag) in [(args.iverilog_cycles, "--iverilog-cycles"), (args.rust_hdl_cycles, "--rust-hdl-cycles")] {
        if n > args.cycles {
            return Err(format!("{flag} {n} is more than --cycles {}: the Verilator run must cover it", args.cycles).into());
        }
    }
    // The three simulators must run the same design: the Verilated model and tb.v use
    // rtl-out/, rust-hdl the Rust source.
    let modules = hdl::export::all()?;
    let stale = hdl::export::stale(&root.join("rtl-out"), &modules);
    if !stale.is_empty() {
        return Err(format!(
            "rtl-out/ is stale ({}): run `hpcc-nic export` and bench again (rust-hdl would simulate \
             another design than Verilator and Icarus)",
            stale.join(", ")
        )
        .into());
    }
    let tb = root.join(TB);
    if !tb.is_file() {
        return Err(format!("{} is missing", tb.display()).into());
    }

    let mut rows = Vec::new();
    let mut notes = Vec::new();

    // 1. Verilator, the RTL alone.
    eprintln!("bench: Verilator, {} x {} cycles...", args.repeat, args.cycles);
    let prefixes = [args.iverilog_cycles, args.rust_hdl_cycles];
    let (secs, worst, (v_check, snaps)) = best_of(args.repeat, || {
        let mut rtl = Rtl::new();
        let (secs, check, snaps) = drive(&mut rtl, args.cycles, &prefixes);
        (secs, (check, snaps))
    });
    let (v_iv, v_rh) = (snaps[0], snaps[1]);
    rows.push(Row { name: "Verilator (RTL only)".into(), cycles: args.cycles, secs, worst, check: Some(v_check), note: String::new() });

    // 2. Icarus Verilog on the same exported Verilog.
    let mut mismatches = Vec::new();
    let mut iv_compile = None;
    if args.iverilog_cycles > 0 {
        eprintln!("bench: Icarus Verilog, {} cycles...", args.iverilog_cycles);
        match iverilog(root, args.iverilog_cycles)? {
            None => notes.push("Icarus Verilog: `iverilog`/`vvp` not found, skipped (`apt-get install iverilog`)".to_string()),
            Some((compile, secs, check)) => {
                iv_compile = Some(compile);
                if check != v_iv {
                    mismatches.push(format!("Icarus Verilog {check} but Verilator {v_iv} over the first {} cycles", args.iverilog_cycles));
                }
                rows.push(Row {
                    name: "Icarus Verilog (vvp)".into(),
                    cycles: args.iverilog_cycles,
                    secs,
                    worst: secs,
                    check: Some(check),
                    note: format!("+ {compile:.2} s iverilog compile, not counted"),
                });
            }
        }
    }

    // 3. rust-hdl's simulator on the Rust source.
    // As it runs by default (threads on any core), then with its threads on one core.
    if args.rust_hdl_cycles > 0 {
        let runs: [(&str, &str, fn(u64) -> std::result::Result<(f64, Check), String>); 2] = [
            ("rust-hdl Simulation", "", rust_hdl_sim::run),
            ("rust-hdl, pinned to 1 CPU", "its threads on one CPU (sched_setaffinity)", rust_hdl_sim::run_pinned),
        ];
        for (name, note, f) in runs {
            eprintln!("bench: {name}, {} cycles...", args.rust_hdl_cycles);
            let (secs, check) = f(args.rust_hdl_cycles)?;
            if check != v_rh {
                mismatches.push(format!("{name}: {check} but Verilator {v_rh} over the first {} cycles", args.rust_hdl_cycles));
            }
            rows.push(Row {
                name: name.into(),
                cycles: args.rust_hdl_cycles,
                secs,
                worst: secs,
                check: Some(check),
                note: note.into(),
            });
        }
    }

    // 4. The golden model alone, same stimulus.
    eprintln!("bench: golden model, {} x {} cycles...", args.repeat, args.cycles);
    let (secs, worst, check) = best_of(args.repeat, || {
        let (secs, check, _) = drive(&mut model::FlowSched::new(FLOW_BITS), args.cycles, &[]);
        (secs, check)
    });
    if check != v_check {
        mismatches.push(format!("golden model {check} but Verilator {v_check} over {} cycles", args.cycles));
    }
    rows.push(Row { name: "golden model alone".into(), cycles: args.cycles, secs, worst, check: Some(check), note: String::new() });

    // 5. What `regress` runs: lockstep RTL + model on random traffic; and the RTL alone on the
    // same traffic, to tell the cost of the model and the traffic generator from the RTL's.
    if args.lockstep_cycles > 0 {
        eprintln!("bench: Verilator on the regression traffic, {} x {} cycles...", args.repeat, args.lockstep_cycles);
        let (secs, worst, note) = best_of(args.repeat, || {
            let mut rtl = Rtl::new();
            let mut t = Traffic::new(LOCKSTEP_SEED, Profile::random());
            t.reset(&mut rtl);
            let start = Instant::now();
            for _ in 0..args.lockstep_cycles {
                t.step(&mut rtl);
            }
            let secs = start.elapsed().as_secs_f64();
            (secs, format!("same traffic as the lockstep row, {} transactions", t.transactions))
        });
        rows.push(Row { name: "Verilator, regress traffic".into(), cycles: args.lockstep_cycles, secs, worst, check: None, note });
        eprintln!("bench: lockstep regression, {} x {} cycles...", args.repeat, args.lockstep_cycles);
        let (secs, worst, note) = best_of(args.repeat, || {
            let mut ls = Lockstep::new(None);
            let mut t = Traffic::new(LOCKSTEP_SEED, Profile::random());
            t.reset(&mut ls);
            let start = Instant::now();
            for _ in 0..args.lockstep_cycles {
                t.step(&mut ls);
            }
            let secs = start.elapsed().as_secs_f64();
            let note = if ls.mismatches == 0 {
                format!("Traffic, Profile::random(), seed {LOCKSTEP_SEED:#x}, {} transactions", t.transactions)
            } else {
                format!("{} MISMATCHES (first: {})", ls.mismatches, ls.first.as_deref().unwrap_or("?"))
            };
            (secs, note)
        });
        rows.push(Row { name: "lockstep (RTL + model)".into(), cycles: args.lockstep_cycles, secs, worst, check: None, note });
    }

    let ok = report::print(root, &args, Results { rows, notes, mismatches, v_iv, v_rh, iv_compile });
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
