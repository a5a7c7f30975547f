//! Running the simulators: the drive loop shared by the Rust-side models, Icarus Verilog under
//! vvp, and repeated timed runs.

use super::stimulus::{Check, Stimulus};
use super::TB;
use crate::Result;
use std::path::Path;
use std::process::Command;
use std::time::Instant;
use testbench::harness::flow_sched::Sched;

/// Drives `s` for `cycles` cycles; returns the wall time of the loop alone, the final checksum
/// and the checksums after each of `prefixes` cycles (0 where the run is shorter).
pub(super) fn drive(s: &mut impl Sched, cycles: u64, prefixes: &[u64]) -> (f64, Check, Vec<Check>) {
    let mut st = Stimulus::default();
    let mut snaps = vec![Check::default(); prefixes.len()];
    let start = Instant::now();
    for _ in 0..cycles {
        let i = st.inputs();
        let o = s.cycle(&i);
        st.observe(&i, &o);
        for (k, &p) in prefixes.iter().enumerate() {
            if p == st.check.cycles {
                snaps[k] = st.check;
            }
        }
    }
    (start.elapsed().as_secs_f64(), st.check, snaps)
}

/// Runs `f` `n` times (at least once); the fastest and slowest wall times and the result of the
/// last run. Every run must give the same result.
pub(super) fn best_of<T: PartialEq + std::fmt::Debug>(n: u32, mut f: impl FnMut() -> (f64, T)) -> (f64, f64, T) {
    let (mut lo, mut hi, mut last) = (f64::INFINITY, 0.0f64, None);
    for _ in 0..n.max(1) {
        let (secs, r) = f();
        if let Some(prev) = &last {
            assert_eq!(prev, &r, "a repeated run gave another result");
        }
        (lo, hi, last) = (lo.min(secs), hi.max(secs), Some(r));
    }
    (lo, hi, last.unwrap())
}

/// First line of `cmd args` (stdout, else stderr), if it runs.
pub(super) fn version(cmd: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(cmd).args(args).output().ok()?;
    let text = if o.stdout.is_empty() { o.stderr } else { o.stdout };
    String::from_utf8_lossy(&text).lines().next().map(|l| l.trim().to_string())
}

/// Compiles the testbench and runs it under vvp. Ok(None) when iverilog is not installed.
pub(super) fn iverilog(root: &Path, cycles: u64) -> Result<Option<(f64, f64, Check)>> {
    if version("iverilog", &["-V"]).is_none() || version("vvp", &["-V"]).is_none() {
        return Ok(None);
    }
    let dir = std::env::temp_dir().join(format!("hpcc-nic-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let vvp = dir.join("flow_sched_bench_tb.vvp");
    let start = Instant::now();
    let c = Command::new("iverilog")
        .args(["-g2012", "-s", "flow_sched_bench_tb", "-o"])
        .arg(&vvp)
        .arg(root.join(TB))
        .args(testbench::rtl_files::rtl_files(&root.join("rtl-out"), "flow_sched")?)
        .output()?;
    let compile = start.elapsed().as_secs_f64();
    if !c.status.success() {
        let _ = std::fs::remove_dir_all(&dir);
        return Err(format!("iverilog failed:\n{}", String::from_utf8_lossy(&c.stderr)).into());
    }
    let start = Instant::now();
    let r = Command::new("vvp").arg("-n").arg(&vvp).arg(format!("+cycles={cycles}")).output()?;
    let run = start.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&r.stdout);
    let line = stdout.lines().find(|l| l.starts_with("BENCH ")).ok_or_else(|| {
        format!("vvp printed no BENCH line (exit {}):\n{stdout}{}", r.status, String::from_utf8_lossy(&r.stderr))
    })?;
    let field = |k: &str| {
        line.split_whitespace().find_map(|w| w.strip_prefix(k)).ok_or_else(|| format!("no {k} in `{line}`"))
    };
    let check = Check {
        cycles: field("cycles=")?.parse()?,
        pktsends: field("pktsends=")?.parse()?,
        sum: u32::from_str_radix(field("sum=")?, 16).map_err(|e| format!("`{line}`: {e}"))?,
    };
    Ok(Some((compile, run, check)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use testbench::verilated::models::FlowSched as Rtl;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    /// A short run of the Verilog testbench against the Verilated RTL (the bench does this over
    /// 200,000 cycles); skipped without iverilog.
    #[test]
    fn iverilog_agrees_with_verilator_on_a_short_run() {
        let cycles = 3000;
        let Some((_, _, got)) = iverilog(&root(), cycles).unwrap() else {
            eprintln!("iverilog not installed: skipped");
            return;
        };
        let (_, want, _) = drive(&mut Rtl::new(), cycles, &[]);
        assert!(want.pktsends > 100, "stimulus too weak: {want}");
        assert_eq!(got, want);
    }
}
