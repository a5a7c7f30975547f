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

use crate::Result;
use sim::flow_sched::{self as model, Ctrl, Inputs, Notify, Outputs};
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;
use testbench::harness::flow_sched::{Lockstep, Profile, Sched, Traffic, FLOW_BITS};
use testbench::verilated::models::FlowSched as Rtl;

#[derive(clap::Args)]
pub struct Args {
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

/// log2 packet bytes and packets per visit used by the stimulus.
const PKT_SHIFT: u8 = 10;
const MAX_BURST: u16 = 64;
/// Flows 0..FLOWS are created, one after the other, once the RAMs are clear.
const FLOWS: u16 = 64;
/// xorshift32 seed; the Verilog testbench has the same.
const SEED: u32 = 0x2545_f491;
/// Seed of the lockstep run's `Traffic`.
const LOCKSTEP_SEED: u64 = 0xbe7c_0001;
/// The Verilog testbench, relative to the workspace root.
const TB: &str = "testbench/bench/flow_sched_bench_tb.v";

/// What every simulator reports: PktSend handshakes over the first `cycles` cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Cycles driven, the reset cycle included.
    pub cycles: u64,
    /// PktSend handshakes (tvalid and tready).
    pub pktsends: u64,
    /// Sum over handshakes of `cycle * 31 + flow`, modulo 2^32 (cycles counted from 0).
    pub sum: u32,
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pktsends={} sum={:08x}", self.pktsends, self.sum)
    }
}

/// The benchmark stimulus. testbench/bench/flow_sched_bench_tb.v does exactly the same, step
/// for step (its header describes it); keep the two in sync.
pub struct Stimulus {
    x: u32,
    next_flow: u16,
    ctrl: Option<Ctrl>,
    notify: Option<Notify>,
    /// Checksum of what `observe` saw so far.
    pub check: Check,
}

impl Default for Stimulus {
    fn default() -> Self {
        Stimulus { x: SEED, next_flow: 0, ctrl: None, notify: None, check: Check::default() }
    }
}

impl Stimulus {
    /// Inputs of the next cycle: steps the PRNG once.
    pub fn inputs(&mut self) -> Inputs {
        let mut x = self.x;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.x = x;
        let reset = self.check.cycles == 0;
        if !reset && self.ctrl.is_none() && self.next_flow < FLOWS {
            let window = (((x >> 21) & 0x3f) + 1) << 12;
            self.ctrl = Some(Ctrl { create: true, flow: self.next_flow, window, rate: x & 0x1f_ffff, reserved: 0 });
            self.next_flow += 1;
        }
        if !reset && self.notify.is_none() && (x >> 28) & 3 == 0 {
            self.notify = Some(Notify { flow: ((x >> 22) & 0x3f) as u16, bytes: (((x >> 20) & 3) + 1) << 10 });
        }
        Inputs {
            reset,
            pkt_shift: PKT_SHIFT,
            max_burst: MAX_BURST,
            ctrl: self.ctrl,
            update: None,
            notify: self.notify,
            pktsend_ready: x >> 30 != 0,
        }
    }

    /// What the scheduler showed during the cycle driven with `i` (the last `inputs()`).
    pub fn observe(&mut self, i: &Inputs, o: &Outputs) {
        if i.ctrl.is_some() && o.ctrl_ready {
            self.ctrl = None;
        }
        if i.notify.is_some() && o.notify_ready {
            self.notify = None;
        }
        if o.pktsend_valid && i.pktsend_ready {
            self.check.pktsends += 1;
            let term = (self.check.cycles as u32).wrapping_mul(31).wrapping_add(o.pktsend_flow as u32);
            self.check.sum = self.check.sum.wrapping_add(term);
        }
        self.check.cycles += 1;
    }
}

/// Drives `s` for `cycles` cycles; returns the wall time of the loop alone, the final checksum
/// and the checksums after each of `prefixes` cycles (0 where the run is shorter).
fn drive(s: &mut impl Sched, cycles: u64, prefixes: &[u64]) -> (f64, Check, Vec<Check>) {
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

/// rust-hdl's simulator on `hdl::flow_sched::FlowSched<10>`, as in hdl/tests/flow_sched.rs.
mod rust_hdl_sim {
    use super::{Check, Stimulus};
    use hdl::flow_sched::FlowSched;
    use rust_hdl::prelude::*;
    use sim::flow_sched::Outputs;
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    type Dut = FlowSched<10>;

    fn wide<const N: usize>(v: u128) -> Bits<N> {
        (Bits::<N>::from((v >> 64) as u64) << 64) | Bits::<N>::from(v as u64)
    }

    /// Runs `cycles` cycles; returns the wall time of `Simulation::run` and the checksum.
    pub fn run(cycles: u64) -> std::result::Result<(f64, Check), String> {
        let done = Arc::new(Mutex::new(None));
        let out = done.clone();
        let mut sim = Simulation::new();
        sim.add_clock(5, |x: &mut Box<Dut>| x.clock.next = !x.clock.val());
        sim.add_testbench(move |mut sim: Sim<Dut>| {
            let mut x = sim.init()?;
            let mut st = Stimulus::default();
            for _ in 0..cycles {
                let i = st.inputs();
                x.reset.next = i.reset;
                x.cfg_pkt_shift.next = (i.pkt_shift as u64).into();
                x.cfg_max_burst.next = (i.max_burst as u64).into();
                x.s_axis_ctrl_tvalid.next = i.ctrl.is_some();
                x.s_axis_ctrl_tdata.next = wide(i.ctrl.map_or(0, |c| c.tdata()));
                x.s_axis_update_tvalid.next = false;
                x.s_axis_update_tdata.next = 0u64.into();
                x.s_axis_notify_tvalid.next = i.notify.is_some();
                x.s_axis_notify_tdata.next = i.notify.map_or(0, |n| n.tdata()).into();
                x.m_axis_pktsend_tready.next = i.pktsend_ready;
                // The scheduler's outputs depend on its registers only (update_tready also on
                // ctrl_tvalid, and nothing offers an update), so what the simulator settled after
                // the last edge is what it shows during this cycle.
                let o = Outputs {
                    ctrl_ready: x.s_axis_ctrl_tready.val(),
                    update_ready: x.s_axis_update_tready.val(),
                    notify_ready: x.s_axis_notify_tready.val(),
                    pktsend_valid: x.m_axis_pktsend_tvalid.val(),
                    pktsend_flow: x.m_axis_pktsend_tdata.val().to_u16(),
                };
                st.observe(&i, &o);
                wait_clock_cycle!(sim, clock, x);
            }
            *out.lock().unwrap() = Some(st.check);
            sim.done(x)
        });
        let start = Instant::now();
        sim.run(Box::new(Dut::default()), 10 * (cycles + 10)).map_err(|e| format!("rust-hdl simulation: {e:?}"))?;
        let secs = start.elapsed().as_secs_f64();
        let check = done.lock().unwrap().take().ok_or("rust-hdl testbench did not finish")?;
        Ok((secs, check))
    }

    extern "C" {
        // glibc; `mask` is a cpu_set_t (1024 bits).
        fn sched_getaffinity(pid: i32, size: usize, mask: *mut u64) -> i32;
        fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
    }

    /// `run` on a thread pinned to one CPU: rust-hdl's testbench and clock are threads that
    /// hand the circuit to the simulator through rendezvous channels every half cycle, and
    /// waking a thread on the other core costs more than the simulation itself. Threads inherit
    /// the affinity of the thread that spawns them.
    pub fn run_pinned(cycles: u64) -> std::result::Result<(f64, Check), String> {
        std::thread::spawn(move || {
            let mut mask = [0u64; 16];
            // SAFETY: pid 0 is the calling thread; `mask` is 128 bytes, a whole cpu_set_t.
            if unsafe { sched_getaffinity(0, 128, mask.as_mut_ptr()) } != 0 {
                return Err("sched_getaffinity failed".to_string());
            }
            let cpu = (0..1024).find(|&c| mask[c / 64] >> (c % 64) & 1 == 1).ok_or("no CPU in the affinity mask")?;
            let mut one = [0u64; 16];
            one[cpu / 64] = 1 << (cpu % 64);
            // SAFETY: as above.
            if unsafe { sched_setaffinity(0, 128, one.as_ptr()) } != 0 {
                return Err("sched_setaffinity failed".to_string());
            }
            run(cycles)
        })
        .join()
        .map_err(|_| "the pinned rust-hdl run panicked".to_string())?
    }
}

/// Runs `f` `n` times (at least once); the fastest and slowest wall times and the result of the
/// last run. Every run must give the same result.
fn best_of<T: PartialEq + std::fmt::Debug>(n: u32, mut f: impl FnMut() -> (f64, T)) -> (f64, f64, T) {
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

/// One row of the results.
struct Row {
    name: String,
    cycles: u64,
    /// Best run.
    secs: f64,
    /// Slowest run (= secs when run once).
    worst: f64,
    check: Option<Check>,
    note: String,
}

impl Row {
    fn rate(&self) -> f64 {
        self.cycles as f64 / self.secs
    }
}

/// First line of `cmd args` (stdout, else stderr), if it runs.
fn version(cmd: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(cmd).args(args).output().ok()?;
    let text = if o.stdout.is_empty() { o.stderr } else { o.stdout };
    String::from_utf8_lossy(&text).lines().next().map(|l| l.trim().to_string())
}

/// Compiles the testbench and runs it under vvp. Ok(None) when iverilog is not installed.
fn iverilog(root: &Path, cycles: u64) -> Result<Option<(f64, f64, Check)>> {
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
        .arg(root.join("rtl-out/flow_sched.v"))
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

pub fn run(root: &Path, args: Args) -> Result<ExitCode> {
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
    let stale = crate::cmd_export::stale_files(&root.join("rtl-out"), &modules);
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
    let v_rate = rows[0].rate();

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

    // Report.
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
        println!("the simulators disagree: the stimulus in {TB} and cmd_bench.rs drifted apart, or the design is simulated differently");
    }

    if args.markdown {
        let date = version("date", &["-u", "+%Y-%m-%d %H:%M UTC"]).unwrap_or_else(|| "?".into());
        let nproc = std::thread::available_parallelism().map_or(0, |n| n.get());
        println!("\n## flow_sched simulation speed\n");
        println!("    {}\n", command_line(&args));
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
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn tb_text() -> String {
        std::fs::read_to_string(root().join(TB)).unwrap()
    }

    /// The first cycles, computed by hand (xorshift32 from 0x2545f491: e124b63a, 8b9a74ab,
    /// 64e1b3ac, 00174626, f2adbbaf), with a scheduler that is clearing its RAMs (treadys low).
    #[test]
    fn stimulus_first_cycles() {
        let mut st = Stimulus::default();
        let busy = Outputs::default();
        let i = st.inputs(); // x = e124b63a
        assert!(i.reset && i.ctrl.is_none() && i.notify.is_none() && i.update.is_none() && i.pktsend_ready);
        assert_eq!((i.pkt_shift, i.max_burst), (10, 64));
        st.observe(&i, &busy);
        let f0 = Ctrl { create: true, flow: 0, window: 29 << 12, rate: 0x1a_74ab, reserved: 0 };
        let n0 = Notify { flow: 46, bytes: 2048 };
        let i = st.inputs(); // x = 8b9a74ab: flow 0 created, notify offered
        assert!(!i.reset && i.pktsend_ready);
        assert_eq!((i.ctrl, i.notify), (Some(f0), Some(n0)));
        st.observe(&i, &busy);
        let i = st.inputs(); // x = 64e1b3ac: both held
        assert_eq!((i.ctrl, i.notify, i.pktsend_ready), (Some(f0), Some(n0), true));
        // Taken now, with a PktSend of flow 7 (cycle 2: 2 * 31 + 7 = 69).
        st.observe(&i, &Outputs { ctrl_ready: true, notify_ready: true, pktsend_valid: true, pktsend_flow: 7, ..busy });
        assert_eq!(st.check, Check { cycles: 3, pktsends: 1, sum: 69 });
        let i = st.inputs(); // x = 00174626: flow 1, notify of flow 0, tready low
        let f1 = Ctrl { create: true, flow: 1, window: 1 << 12, rate: 0x17_4626, reserved: 0 };
        assert_eq!((i.ctrl, i.notify, i.pktsend_ready), (Some(f1), Some(Notify { flow: 0, bytes: 2048 }), false));
        st.observe(&i, &Outputs { pktsend_valid: true, pktsend_flow: 3, ..busy });
        assert_eq!(st.check, Check { cycles: 4, pktsends: 1, sum: 69 }, "no handshake while tready is low");
        let i = st.inputs(); // x = f2adbbaf: flow 1 still offered, no new notify
        assert_eq!((i.ctrl, i.notify, i.pktsend_ready), (Some(f1), Some(Notify { flow: 0, bytes: 2048 }), true));
        assert_eq!(i.ctrl.unwrap().tdata(), 1 << 80 | 1 << 64 | 4096 << 32 | 0x17_4626);
    }

    /// The constants the Verilog testbench must share with `Stimulus`.
    #[test]
    fn testbench_uses_the_same_constants() {
        let tb = tb_text();
        for s in [
            "SEED = 32'h2545_f491",
            "FLOWS = 16'd64",
            ".cfg_pkt_shift(4'd10)",
            ".cfg_max_burst(12'd64)",
            "x = x ^ (x << 13);",
            "x = x ^ (x >> 17);",
            "x = x ^ (x << 5);",
            "c_rate = x & 32'h001f_ffff;",
            "c_window = (((x >> 21) & 32'h3f) + 32'd1) << 12;",
            "((x >> 28) & 32'h3) == 32'd0",
            "n_flow = (x >> 22) & 32'h3f;",
            "n_bytes = (((x >> 20) & 32'h3) + 32'd1) << 10;",
            "rdy = (x >> 30) != 32'd0;",
            "sum = sum + cyc * 32'd31 + {16'd0, m_axis_pktsend_tdata};",
            "$dumpvars",
        ] {
            if s == "$dumpvars" {
                assert!(!tb.contains(s), "the benchmark testbench must not dump waves");
            } else {
                assert!(tb.contains(s), "{TB} lost `{s}`: keep it in sync with Stimulus");
            }
        }
        assert_eq!((SEED, FLOWS, PKT_SHIFT, MAX_BURST), (0x2545_f491, 64, 10, 64));
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
