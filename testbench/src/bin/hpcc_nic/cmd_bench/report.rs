//! The results: a table on stdout, whether the checksums agree, and a Markdown section for
//! docs/benchmarks.md.

use super::runners::version;
use super::stimulus::Check;
use super::{Args, TB};
use std::path::Path;

/// Everything the runs gave, for the report.
pub(super) struct Results {
    pub(super) rows: Vec<Row>,
    /// Runs that were skipped, and why.
    pub(super) notes: Vec<String>,
    /// Checksums that disagree with Verilator's.
    pub(super) mismatches: Vec<String>,
    /// Verilator's checksums over the first `--iverilog-cycles` and `--rust-hdl-cycles` cycles.
    pub(super) v_iv: Check,
    pub(super) v_rh: Check,
    /// iverilog's compile time, when it ran.
    pub(super) iv_compile: Option<f64>,
}

/// One row of the results.
pub(super) struct Row {
    pub(super) name: String,
    pub(super) cycles: u64,
    /// Best run.
    pub(super) secs: f64,
    /// Slowest run (= secs when run once).
    pub(super) worst: f64,
    pub(super) check: Option<Check>,
    pub(super) note: String,
}

impl Row {
    fn rate(&self) -> f64 {
        self.cycles as f64 / self.secs
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// rust-hdl's version from Cargo.lock (the workspace pins it).
fn rust_hdl_version(root: &Path) -> String {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let mut lines = lock.lines();
    while let Some(l) = lines.next() {
        if l.trim() == "name = \"rust-hdl\"" {
            if let Some(v) = lines.next().and_then(|v| v.trim().strip_prefix("version = ")) {
                return v.trim_matches('"').to_string();
            }
        }
    }
    "?".into()
}

fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

fn command_line(args: &Args) -> String {
    let mut s = String::from("cargo run --release -p testbench --bin hpcc-nic -- bench");
    let d = [(args.cycles, 2_000_000, "--cycles"), (args.iverilog_cycles, 200_000, "--iverilog-cycles"),
        (args.rust_hdl_cycles, 20_000, "--rust-hdl-cycles"), (args.lockstep_cycles, 1_000_000, "--lockstep-cycles"),
        (args.repeat as u64, 3, "--repeat")];
    for (v, default, flag) in d {
        if v != default {
            s += &format!(" {flag} {v}");
        }
    }
    if args.markdown {
        s += " --markdown";
    }
    s
}

/// Prints the results; with `--markdown` also the section for docs/benchmarks.md. True when
/// every checksum agrees with Verilator's.
pub(super) fn print(root: &Path, args: &Args, res: Results) -> bool {
    let Results { rows, notes, mismatches, v_iv, v_rh, iv_compile } = res;
    // Rows are relative to the first: Verilator on the bench stimulus.
    let v_rate = rows[0].rate();
    println!(
        "\n{:<28} {:>10} {:>9} {:>9} {:>12} {:>11}  {:<30} note",
        "simulator", "cycles", "best_s", "worst_s", "cycles/s", "Verilator/x", "checksum"
    );
    for r in &rows {
        println!(
            "{:<28} {:>10} {:>9.3} {:>9.3} {:>12} {:>11}  {:<30} {}",
            r.name,
            r.cycles,
            r.secs,
            r.worst,
            format!("{}", r.rate().round()),
            format!("{:.1}", v_rate / r.rate()),
            r.check.map_or("-".into(), |c| c.to_string()),
            r.note
        );
    }
    println!();
    let agree = [(args.iverilog_cycles, v_iv, "Icarus Verilog"), (args.rust_hdl_cycles, v_rh, "rust-hdl")];
    for (n, c, who) in agree {
        if n > 0 && rows.iter().any(|r| r.name.starts_with(who)) {
            println!("Verilator over the first {n} cycles: {c} (compare {who})");
        }
    }
    for n in &notes {
        println!("note: {n}");
    }
    let ok = mismatches.is_empty();
    if ok {
        let who: Vec<&str> = rows.iter().filter(|r| r.check.is_some()).map(|r| r.name.as_str()).collect();
        println!("checksums agree: {} saw the same PktSends", who.join("; "));
    } else {
        for m in &mismatches {
            println!("CHECKSUM MISMATCH: {m}");
        }
        println!("the simulators disagree: the stimulus in {TB} and cmd_bench/stimulus.rs drifted apart, or the design is simulated differently");
    }

    if args.markdown {
        let date = version("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "?".into());
        let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
        println!("\n## flow_sched simulation speed\n");
        println!("    {}\n", command_line(args));
        println!("Measured {date} on {} (`nproc` = {nproc}); best of {} runs for the rows run more than once.", cpu_model(), args.repeat.max(1));
        println!(
            "Tools: {}; {}; rust-hdl {}; {}.\n",
            version("verilator", &["--version"]).unwrap_or_else(|| "verilator ?".into()),
            version("iverilog", &["-V"]).map_or("Icarus Verilog: not installed".into(), |v| v.replace(" ()", "")),
            rust_hdl_version(root),
            version("rustc", &["--version"]).unwrap_or_else(|| "rustc ?".into()),
        );
        println!("| simulator | cycles | time (s), best–worst of runs | cycles/s (best) | Verilator ÷ this | checksum |");
        println!("|---|---:|---:|---:|---:|---|");
        for r in &rows {
            let (best, worst) = (format!("{:.3}", r.secs), format!("{:.3}", r.worst));
            let time = if worst != best { format!("{best}–{worst}") } else { best };
            println!(
                "| {} | {} | {} | {} | {:.1} | {} |",
                r.name,
                r.cycles,
                time,
                human(r.rate()),
                v_rate / r.rate(),
                r.check.map_or("—".into(), |c| format!("`{c}`"))
            );
        }
        println!();
        if let Some(c) = iv_compile {
            println!("iverilog compile: {c:.2} s (not counted).");
        }
        println!(
            "Checksums: {}.",
            if ok { "all agree (rust-hdl and Icarus against the same prefix of the Verilator run)" } else { "**DISAGREE**" }
        );
    }
    ok
}
