//! `hpcc-nic regress`: the main job. Checks that rtl-out/ is what the Rust sources export (the
//! Verilated models in this binary are built from rtl-out/), runs every scenario over its seeds
//! on rayon threads, and prints a summary; exit 1 on any mismatch or failed check.

use crate::Result;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use testbench::harness::{Outcome, Scenario};

#[derive(clap::Args)]
pub struct Args {
    /// Run only this scenario (its name in `--list`).
    #[arg(long)]
    only: Option<String>,
    /// Print every scenario (name, module, default seeds and cycles, what it checks) and exit.
    #[arg(long)]
    list: bool,
    /// Seed of the first job of each scenario (default: fresh, printed).
    #[arg(long, value_parser = parse_seed)]
    seed: Option<u64>,
    /// Seeds per scenario (default: each scenario's own, see `--list`).
    #[arg(long)]
    seeds: Option<u64>,
    /// Cycles per job (default: each scenario's own, see `--list`).
    #[arg(long)]
    cycles: Option<u64>,
    /// Run each job for this fraction of its scenario's default cycles (e.g. 0.25; ignored with
    /// --cycles): the same scenarios and coverage in less time.
    #[arg(long)]
    scale: Option<f64>,
    /// Write a VCD of the RTL (forces one seed and one scenario).
    #[arg(long)]
    vcd: Option<PathBuf>,
}

fn parse_seed(s: &str) -> std::result::Result<u64, String> {
    let r = match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| format!("bad seed {s}: {e}"))
}

fn plan(args: &Args) -> Result<Vec<(Scenario, u64, u64)>> {
    let base = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    });
    let only = match args.only.as_deref() {
        None => None,
        Some(o) => Some(Scenario::named(o).ok_or_else(|| {
            let names: Vec<&str> = Scenario::ALL.iter().map(|s| s.name()).collect();
            format!("no scenario named {o:?}; the scenarios are {}", names.join(", "))
        })?),
    };
    let mut jobs = vec![];
    for s in Scenario::ALL {
        if only.is_some_and(|o| o != s) {
            continue;
        }
        let (seeds, cycles) = (s.info().seeds, s.info().cycles);
        let seeds = if args.vcd.is_some() { 1 } else { args.seeds.unwrap_or(seeds) };
        for k in 0..seeds {
            let seed = base.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let scaled = args.scale.map_or(cycles, |f| ((cycles as f64 * f) as u64).max(1));
            jobs.push((s, seed, args.cycles.unwrap_or(scaled)));
        }
    }
    if args.scale.is_some_and(|f| !(f > 0.0 && f <= 1.0)) {
        return Err("--scale takes a fraction in (0, 1]".into());
    }
    if jobs.is_empty() {
        return Err("nothing to run: --seeds is 0".into());
    }
    if args.vcd.is_some() && jobs.len() != 1 {
        return Err("--vcd needs --only <scenario>".into());
    }
    Ok(jobs)
}

/// `--list`: the scenario table.
fn list() {
    println!("{:<16} {:<14} {:>5} {:>10}  checks", "scenario", "module", "seeds", "cycles");
    for i in &testbench::harness::TABLE {
        println!("{:<16} {:<14} {:>5} {:>10}  {}", i.name, i.module, i.seeds, i.cycles, i.about);
    }
}

pub fn run(root: &Path, args: Args) -> Result<ExitCode> {
    if args.list {
        list();
        return Ok(ExitCode::SUCCESS);
    }
    let modules = hdl::export::all()?;
    let stale = hdl::export::stale(&root.join("rtl-out"), &modules);
    if !stale.is_empty() {
        hdl::export::write_all(&root.join("rtl-out"), &modules)?;
        eprintln!(
            "rtl-out/ was stale ({}) and has been re-exported. This binary's Verilated models were \
             built from the old files: run the same command again so cargo rebuilds them.",
            stale.join(", ")
        );
        return Ok(ExitCode::from(2));
    }
    println!("export: rtl-out/ matches the Rust sources ({} modules)", modules.len());

    let jobs = plan(&args)?;
    let total: u64 = jobs.iter().map(|j| j.2).sum();
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent:>3}% {msg}")
            .unwrap()
            .progress_chars("=> "),
    );
    let start = Instant::now();
    let vcd = args.vcd.as_deref();
    let outcomes: Vec<Outcome> = jobs
        .par_iter()
        .map(|&(s, seed, cycles)| {
            let o = s.run(seed, cycles, vcd);
            bar.inc(cycles);
            bar.set_message(format!("{s} seed {seed:#x} done"));
            o
        })
        .collect();
    bar.finish_and_clear();
    Ok(report(&outcomes, start.elapsed().as_secs_f64()))
}

fn report(outcomes: &[Outcome], wall: f64) -> ExitCode {
    println!(
        "\n{:<22} {:>5} {:>12} {:>13} {:>10} {:>8}  figures (worst seed; counts summed)",
        "module/scenario", "seeds", "cycles", "transactions", "mismatches", "time_s"
    );
    let mut by: BTreeMap<Scenario, Vec<&Outcome>> = BTreeMap::new();
    for o in outcomes {
        by.entry(o.scenario).or_default().push(o);
    }
    for (s, os) in &by {
        let figures: Vec<String> =
            os[0].metrics.iter().map(|(n, _)| format!("{n}={}", fmt_fig(worst(os, n)))).collect();
        println!(
            "{:<22} {:>5} {:>12} {:>13} {:>10} {:>8.1}  {}",
            s.to_string(),
            os.len(),
            os.iter().map(|o| o.cycles).sum::<u64>(),
            os.iter().map(|o| o.transactions).sum::<u64>(),
            os.iter().map(|o| o.mismatches).sum::<u64>(),
            os.iter().map(|o| o.seconds).sum::<f64>(),
            figures.join(" ")
        );
    }
    for (s, os) in &by {
        let seeds: Vec<String> = os.iter().map(|o| format!("{:#x}", o.seed)).collect();
        println!("seeds {s}: {}", seeds.join(" "));
    }
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| !o.passed()).collect();
    for o in &failed {
        println!("\nFAILED {} seed {:#x}", o.scenario, o.seed);
        if let Some(m) = &o.first_mismatch {
            println!("  first mismatch: {m}");
        }
        for f in &o.failures {
            println!("  {f}");
        }
        println!("  re-run with a VCD: {}", o.rerun_command());
    }
    let passed = outcomes.len() - failed.len();
    println!("\nwall time {wall:.1} s");
    println!("regress: {passed} passed, {} failed", failed.len());
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The figure across seeds that matters: the largest error, the smallest rate, the total count.
fn worst(os: &[&Outcome], name: &str) -> f64 {
    let vals = os.iter().filter_map(|o| o.get(name));
    if name.contains("err") || name.contains("violation") || name == "flows" {
        vals.fold(f64::MIN, f64::max)
    } else if name.contains("per_cycle") || name.starts_with("min_") {
        vals.fold(f64::MAX, f64::min)
    } else {
        vals.sum()
    }
}

fn fmt_fig(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e12 {
        format!("{v:.0}")
    } else {
        format!("{v:.4}")
    }
}
