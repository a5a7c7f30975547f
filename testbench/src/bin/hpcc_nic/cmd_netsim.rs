//! `hpcc-nic netsim`: the RTL NIC cores as the hosts of a simulated network (issue 15,
//! docs/netsim.md). Inputs in the HPCC reference simulator's formats (`sim::net`), the run in
//! `harness::netsim`, outputs in `--out`: the topology and flows as run, `fct.txt`,
//! `queue.csv`, `throughput.csv`, the plots, and `summary.json` last (a directory without it
//! is not a finished run). `netsim report DIR...` sets finished runs side by side.

mod plot;
mod report;

use crate::Result;
use indicatif::{ProgressBar, ProgressStyle};
use sim::net::cdf::Cdf;
use sim::net::fct::{fct_line, slowdown_bins};
use sim::net::flows::{self, Flow};
use sim::net::network::NetConfig;
use sim::net::topo::Topology;
use sim::net::traffic::{self, Poisson};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use testbench::harness::netsim::{run, NicKind, Spec};

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
pub enum Alg {
    Hpcc,
    RxHpcc,
    Ldcp,
    Dcqcn,
}


#[derive(clap::Subcommand, Clone)]
pub enum Sub {
    /// Finished runs side by side: a table (report.md) and the overlaid plots.
    Report(report::Args),
}

#[derive(clap::Args, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    sub: Option<Sub>,
    /// `incast:N` (N senders, one receiver, one switch), `dumbbell:N` (N hosts a side),
    /// `leaf-spine:H,L,S` (H hosts on L leaves, S spines), or a topology file in the HPCC
    /// reference simulator's format.
    #[arg(long)]
    topo: Option<String>,
    /// Host link rate of the built topologies, Gb/s (the cores' MACs run at 100).
    #[arg(long, default_value_t = 100)]
    host_gbps: u64,
    /// Switch-to-switch link rate of dumbbell and leaf-spine, Gb/s.
    #[arg(long, default_value_t = 400)]
    core_gbps: u64,
    /// Link delay of the built topologies, ns.
    #[arg(long, default_value_t = 1000)]
    link_ns: u64,
    /// A flow file in the reference simulator's format.
    #[arg(long)]
    flows: Option<PathBuf>,
    /// Poisson traffic: `LOAD,CDF,DURATION_US` (CDF: websearch, fb_hadoop or a CDF file).
    #[arg(long)]
    poisson: Option<String>,
    /// An incast: `N,BYTES` (the first N hosts to the last one, at time 0; on top of
    /// --poisson if both are given).
    #[arg(long)]
    incast: Option<String>,
    #[arg(long, value_enum, default_value = "hpcc")]
    alg: Alg,
    /// Per-flow algorithms: `PG=ALG,...` gives the flows of priority group PG (the flow
    /// file's third column; the generators' flows are in group 3) algorithm ALG; the others
    /// run --alg.
    #[arg(long)]
    pg_alg: Option<String>,
    /// The NIC at every host: `rtl` (the Verilated core, checked every cycle against the model
    /// NIC beside it), `model` (the model NIC, `sim::hpcc_nic_core`: the same outputs, faster)
    /// or `mix:K` (the Verilated core at the first K hosts, the model NIC at the rest).
    #[arg(long, default_value = "rtl", value_parser = NicKind::parse)]
    nic: NicKind,
    /// PFC at every switch: `XOFF,XON`, bytes queued per ingress port (one lossless class;
    /// off by default: a full queue drops).
    #[arg(long)]
    pfc: Option<String>,
    /// Threads the hosts run on (0: one per CPU). Every output but summary.json's wall-time
    /// fields is byte-identical whatever the count.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// RoCE MTU of every queue pair, bytes.
    #[arg(long, default_value_t = 4096)]
    mtu: u16,
    /// Seeds the traffic, the switches' RED coins and the links' loss.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The run ends when every flow completes or at this simulated time, us.
    #[arg(long, default_value_t = 10_000)]
    max_us: u64,
    /// Queue sampling interval, ns (a multiple of the 4 ns cycle).
    #[arg(long, default_value_t = 1000)]
    queue_interval_ns: u64,
    /// Output directory (created).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Base RTT the CC engines are configured with, ns (HPCC++'s T, LDCP's RTT, DCQCN's
    /// window = rate x RTT) [default: HPCC++ and DCQCN the drafts' 5000, LDCP the
    /// network's longest host-to-host base RTT].
    #[arg(long)]
    base_rtt_ns: Option<u64>,
    #[command(flatten)]
    hpcc: crate::cmd_replay::HpccOpts,
    #[command(flatten)]
    ldcp: crate::cmd_replay::LdcpOpts,
    #[command(flatten)]
    dcqcn: crate::cmd_replay::DcqcnOpts,
    /// A sweep: these algorithms (comma-separated; instead of --alg).
    #[arg(long, value_enum, value_delimiter = ',')]
    algs: Vec<Alg>,
    /// A sweep: these Poisson loads (instead of --poisson's LOAD).
    #[arg(long, value_delimiter = ',')]
    loads: Vec<f64>,
    /// A sweep: these seeds (instead of --seed).
    #[arg(long, value_delimiter = ',')]
    seeds: Vec<u64>,
    /// Run only shard K of N of the sweep (`K/N`, K from 1): runs i with i % N = K - 1 in the
    /// order algorithm, load, seed. Each run goes to `--out`/<alg>-l<load>-s<seed>.
    #[arg(long)]
    shard: Option<String>,
}

/// The runs of a sweep (alg x load x seed, in that order) in shard `k` of `n`, each with its
/// output directory under `out`.
fn sweep(a: &Args, out: &Path) -> Result<Vec<Args>> {
    let (k, n) = match &a.shard {
        None => (1, 1),
        Some(s) => {
            let v = numbers(&s.replace('/', ","), "shard", 2)?;
            if v[1] == 0 || v[0] == 0 || v[0] > v[1] {
                return Err(format!("shard `{s}`: expected K/N with 1 <= K <= N").into());
            }
            (v[0] as usize, v[1] as usize)
        }
    };
    if !a.loads.is_empty() && a.poisson.is_none() {
        return Err("--loads needs --poisson (its LOAD is replaced)".into());
    }
    let algs = if a.algs.is_empty() { vec![a.alg] } else { a.algs.clone() };
    let loads: Vec<Option<f64>> = if a.loads.is_empty() { vec![None] } else { a.loads.iter().map(|&l| Some(l)).collect() };
    let seeds = if a.seeds.is_empty() { vec![a.seed] } else { a.seeds.clone() };
    let mut runs = Vec::new();
    let mut i = 0;
    for &alg in &algs {
        for &load in &loads {
            for &seed in &seeds {
                if i % n == k - 1 {
                    let mut r = a.clone();
                    r.alg = alg;
                    r.seed = seed;
                    let mut name = alg_label(alg as u32).to_string();
                    if let (Some(l), Some(p)) = (load, &a.poisson) {
                        r.poisson = Some(format!("{l},{}", p.split_once(',').map_or("", |x| x.1)));
                        name += &format!("-l{l}");
                    }
                    r.out = Some(out.join(format!("{name}-s{seed}")));
                    runs.push(r);
                }
                i += 1;
            }
        }
    }
    Ok(runs)
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn numbers(spec: &str, what: &str, n: usize) -> Result<Vec<u64>> {
    let v: Vec<u64> = spec.split(',').map(|x| x.trim().parse()).collect::<std::result::Result<_, _>>()
        .map_err(|_| format!("{what} `{spec}`: expected {n} numbers separated by commas"))?;
    if v.len() != n {
        return Err(format!("{what} `{spec}`: expected {n} numbers separated by commas").into());
    }
    Ok(v)
}

fn topology(a: &Args, topo: &str) -> Result<Topology> {
    let (host, core) = (a.host_gbps * 1_000_000_000, a.core_gbps * 1_000_000_000);
    let t = match topo.split_once(':') {
        Some(("incast", n)) => Topology::incast(numbers(n, "incast", 1)?[0] as usize, host, a.link_ns),
        Some(("dumbbell", n)) => Topology::dumbbell(numbers(n, "dumbbell", 1)?[0] as usize, host, core, a.link_ns),
        Some(("leaf-spine", v)) => {
            let v = numbers(v, "leaf-spine", 3)?;
            Topology::leaf_spine(v[0] as usize, v[1] as usize, v[2] as usize, host, core, a.link_ns)?
        }
        _ => Topology::parse(topo, &read(Path::new(topo))?)?,
    };
    // The builders' topologies go through the same checks as a file.
    t.check().map_err(|m| format!("{topo}: {m}"))?;
    Ok(t)
}

fn flow_list(a: &Args, t: &Topology) -> Result<Vec<Flow>> {
    let hosts = t.hosts();
    let mut fl = match &a.flows {
        Some(p) => flows::parse(&p.display().to_string(), &read(p)?, Some(t))?,
        None => vec![],
    };
    if let Some(p) = &a.poisson {
        let parts: Vec<&str> = p.split(',').collect();
        let [load, cdf, dur] = parts.as_slice() else {
            return Err(format!("poisson `{p}`: expected LOAD,CDF,DURATION_US").into());
        };
        let load: f64 = load.parse().map_err(|_| format!("poisson load `{load}` is not a number"))?;
        let dur: u64 = dur.parse().map_err(|_| format!("poisson duration `{dur}` is not a number of us"))?;
        let cdf = match Cdf::named(cdf) {
            Some(c) => c,
            None => Cdf::parse(cdf, &read(Path::new(cdf))?)?,
        };
        let g = Poisson { load, host_bps: a.host_gbps * 1_000_000_000, start_ns: 0, duration_ns: dur * 1000, seed: a.seed };
        fl = traffic::merge(fl, traffic::poisson(&hosts, &cdf, &g)?);
    }
    if let Some(spec) = &a.incast {
        let v = numbers(spec, "incast", 2)?;
        let (n, size) = (v[0] as usize, v[1]);
        if n + 1 > hosts.len() || n == 0 || size == 0 {
            return Err(format!("incast `{spec}`: {n} senders and a receiver need {} hosts, the topology has {}; size > 0", n + 1, hosts.len()).into());
        }
        fl = traffic::merge(fl, traffic::incast(&hosts[..n], *hosts.last().unwrap(), size, 0));
    }
    if fl.is_empty() {
        return Err("no flows: give --flows, --poisson or --incast".into());
    }
    Ok(fl)
}

/// The cores' CC configuration from the options: HPCC++ (`HpccParams::new` at 100 Gb/s, W_min
/// its default 1024 bytes, as the core's regressions run it), LDCP (`LdcpParams::new`, the MTU
/// as its MSS) and DCQCN (`DcqcnParams::hpcc_run_py`), each at its base RTT, with the
/// `replay` options each algorithm shares (`--eta` ... `--u-init`, `--ldcp-*`, `--dcqcn-*`).
fn cc_model(a: &Args, topo: &Topology) -> Result<testbench::harness::cc_module::Model> {
    use sim::cc_float::{dcqcn::DcqcnParams, hpcc::HpccParams, ldcp::LdcpParams};
    let network_rtt = testbench::harness::netsim::longest_base_rtt(topo, a.mtu).unwrap_or(5000);
    let (t, ldcp_t) = match a.base_rtt_ns { Some(t) => (t, t), None => (5000, network_rtt) };
    let mut hp = HpccParams::new(12.5, t as f64);
    a.hpcc.apply(&mut hp);
    let clock = sim::cc_fixed::Clock::default();
    let hc = sim::cc_hpcc::HpccConfig::new(&hp, clock).map_err(|e| format!("HPCC++ at T = {t} ns: {e}"))?;
    let mut lp = LdcpParams::new(100e9, ldcp_t, a.mtu as u32);
    a.ldcp.apply(&mut lp);
    let lc = sim::cc_ldcp::LdcpConfig::new(&lp, clock).map_err(|e| format!("LDCP at {ldcp_t} ns: {e}"))?;
    let mut dp = DcqcnParams::hpcc_run_py(100e9, t);
    a.dcqcn.apply(&mut dp);
    let dc = sim::cc_dcqcn::DcqcnConfig::new(&dp, clock).map_err(|e| format!("DCQCN at {t} ns: {e}"))?;
    Ok(testbench::harness::cc_module::Model::new(hc, lc, dc))
}

/// Per priority group, the algorithm code --pg-alg gives it (the others run --alg).
fn pg_algs(a: &Args) -> Result<std::collections::BTreeMap<u32, u32>> {
    let mut of_pg = std::collections::BTreeMap::new();
    for item in a.pg_alg.iter().flat_map(|s| s.split(',')) {
        let bad = || format!("--pg-alg `{item}`: expected PG=ALG (ALG hpcc, rx-hpcc, ldcp or dcqcn)");
        let (pg, alg) = item.split_once('=').ok_or_else(bad)?;
        let pg: u32 = pg.trim().parse().map_err(|_| bad())?;
        let alg = <Alg as clap::ValueEnum>::from_str(alg.trim(), true).map_err(|_| bad())?;
        if of_pg.insert(pg, alg as u32).is_some() {
            return Err(format!("--pg-alg: priority group {pg} given twice").into());
        }
    }
    Ok(of_pg)
}

/// The `--alg` name of cc_module's algorithm code.
pub fn alg_label(alg: u32) -> &'static str {
    ["hpcc", "rx-hpcc", "ldcp", "dcqcn"][alg as usize]
}

/// A run's plots: the bottleneck's queue against time, the slowdown per size bin, and every
/// flow's sending rate against time.
fn plots(out: &Path, label: &str, r: &testbench::harness::netsim::Run, of_alg: &[(String, Vec<sim::net::fct::FctRecord>)], interval_ns: u64) -> Result<()> {
    if let Some(p) = r.bottleneck.and_then(|b| r.ports.iter().position(|&x| x == b)) {
        let q = r.samples.iter().map(|(t, v)| (*t as f64 / 1000.0, v[p] as f64 / 1000.0)).collect();
        plot::panels(&out.join("queue.svg"), &[report::queue_panel(vec![plot::Series { label: label.into(), points: q }])])?;
    }
    // One series per algorithm: a mixed run's algorithms overlaid.
    let per: Vec<(String, _)> = if of_alg.len() == 1 { vec![(label.to_string(), slowdown_bins(&r.records).1)] } else { of_alg.iter().map(|(n, recs)| (n.clone(), slowdown_bins(recs).1)).collect() };
    plot::panels(&out.join("slowdown.svg"), &report::slowdown_panels(&per))?;
    let many = r.flow_bytes.len() > 16;
    let series = r.flow_bytes.iter().enumerate().map(|(i, v)| plot::Series {
        label: if many { String::new() } else { format!("flow {i}") },
        points: v.iter().map(|&(k, b)| (k as f64 * interval_ns as f64 / 1000.0, b as f64 * 8.0 / interval_ns as f64)).collect(),
    }).collect();
    let title = format!("each flow's sending rate, {label}");
    plot::panels(&out.join("throughput.svg"), &[plot::Panel { title, x_desc: "time (us)", y_desc: "Gb/s", series, x_names: None }])
}

pub fn run_cmd(a: Args) -> Result<ExitCode> {
    if let Some(Sub::Report(r)) = a.sub {
        return report::run(r);
    }
    let (Some(topo_arg), Some(out)) = (a.topo.clone(), a.out.clone()) else {
        return Err("netsim needs --topo and --out (or `netsim report DIR...`)".into());
    };
    if !a.algs.is_empty() || !a.loads.is_empty() || !a.seeds.is_empty() || a.shard.is_some() {
        let runs = sweep(&a, &out)?;
        let mut code = ExitCode::SUCCESS;
        for mut r in runs {
            (r.algs, r.loads, r.seeds, r.shard) = (vec![], vec![], vec![], None);
            let _ = std::io::Write::write_fmt(&mut std::io::stdout(), format_args!("netsim sweep: {}\n", r.out.as_ref().unwrap().display()));
            if run_cmd(r)? != ExitCode::SUCCESS {
                code = ExitCode::FAILURE;
            }
        }
        return Ok(code);
    }
    if a.queue_interval_ns == 0 || a.queue_interval_ns % 4 != 0 {
        return Err(format!("--queue-interval-ns {}: must be a positive multiple of 4 ns", a.queue_interval_ns).into());
    }
    let topo = topology(&a, &topo_arg)?;
    let fl = flow_list(&a, &topo)?;
    let alg = a.alg as u32;
    let of_pg = pg_algs(&a)?;
    let pfc = match &a.pfc {
        None => None,
        Some(p) => {
            let v = numbers(p, "pfc", 2)?;
            if v[1] >= v[0] {
                return Err(format!("--pfc `{p}`: XON {} must be below XOFF {}", v[1], v[0]).into());
            }
            Some(sim::switch::Pfc { xoff_bytes: v[0], xon_bytes: v[1] })
        }
    };
    let alg_of = |pg: u32| of_pg.get(&pg).copied().unwrap_or(alg);
    let algs: Vec<u32> = fl.iter().map(|f| alg_of(f.pg)).collect();
    let model = cc_model(&a, &topo)?;
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let summary_path = out.join("summary.json");
    if summary_path.exists() {
        fs::remove_file(&summary_path)?;
    }
    let spec = Spec {
        topo: topo.clone(),
        flows: fl.clone(),
        algs: algs.clone(),
        model,
        mtu: a.mtu,
        net: NetConfig { pfc, ..NetConfig::g100(a.seed) },
        max_cycles: a.max_us * 250,
        sample_cycles: a.queue_interval_ns / 4,
        nic: a.nic,
        threads: a.threads,
    };
    let bar = ProgressBar::new(spec.max_cycles);
    bar.set_style(ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {msg} (ETA {eta})").unwrap());
    let wall = std::time::Instant::now();
    let r = run(&spec, &mut |c| {
        bar.set_position(c);
        bar.set_message(format!("{:.1} us simulated", c as f64 * 4e-3));
    })?;
    bar.finish_and_clear();
    let seconds = wall.elapsed().as_secs_f64();

    fs::write(out.join("topology.txt"), topo.to_text())?;
    fs::write(out.join("flows.txt"), flows::to_text(&fl))?;
    let fct: String = r.records.iter().map(|x| fct_line(x) + "\n").collect();
    fs::write(out.join("fct.txt"), fct)?;
    let mut q = String::from("t_ns,switch,port,bytes\n");
    for (t, v) in &r.samples {
        for (p, &(s, l)) in r.ports.iter().enumerate() {
            q += &format!("{t},{s},{l},{}\n", v[p]);
        }
    }
    fs::write(out.join("queue.csv"), q)?;
    let interval_ns = spec.sample_cycles * 4;
    let mut tp = String::from("t_ns,flow,gbps\n");
    for (i, v) in r.flow_bytes.iter().enumerate() {
        for &(k, b) in v {
            tp += &format!("{},{i},{:.3}\n", k as u64 * interval_ns, b as f64 * 8.0 / interval_ns as f64);
        }
    }
    fs::write(out.join("throughput.csv"), tp)?;
    let mut used: Vec<u32> = algs.clone();
    used.sort();
    used.dedup();
    let alg_name = if used == [alg] { alg_label(alg).to_string() } else { used.iter().map(|&x| alg_label(x)).collect::<Vec<_>>().join("+") };
    // Per algorithm: its flows' records (the slowdowns of a mixed run, apart).
    let of_alg: Vec<(String, Vec<sim::net::fct::FctRecord>)> = used
        .iter()
        .map(|&x| (alg_label(x).to_string(), r.records.iter().filter(|rec| alg_of(rec.flow.pg) == x).cloned().collect()))
        .collect();
    plots(&out, &alg_name, &r, &of_alg, interval_ns)?;
    let (all, bins) = slowdown_bins(&r.records);
    let below_standalone = r.records.iter().filter(|x| x.fct_ns < x.standalone_ns).count();
    let sim_us = r.cycles as f64 * 4e-3;
    let by_alg: serde_json::Map<String, serde_json::Value> = of_alg
        .iter()
        .map(|(name, recs)| {
            let (all, bins) = slowdown_bins(recs);
            let flows = algs.iter().filter(|&&x| alg_label(x) == name).count();
            (name.clone(), serde_json::json!({"flows": flows, "completed": recs.len(), "slowdown": all, "slowdown_bins": bins}))
        })
        .collect();
    let summary = serde_json::json!({
        "nic": spec.nic.name(),
        "alg": alg_name,
        "seed": a.seed,
        "hosts": topo.hosts().len(),
        "flows": fl.len(),
        "completed": r.records.len(),
        "failed": r.failed.len(),
        "incomplete": r.incomplete,
        "fct_below_standalone": below_standalone,
        "dropped_packets": r.stats.iter().map(|s| s.dropped).sum::<u64>(),
        "lost_packets": r.lost,
        "pfc": pfc.map(|p| serde_json::json!({"xoff_bytes": p.xoff_bytes, "xon_bytes": p.xon_bytes})),
        "pfc_pauses": r.stats.iter().map(|s| s.pauses).sum::<u64>(),
        "pfc_held_us": r.stats.iter().map(|s| s.paused_cycles).sum::<u64>() as f64 * 4e-3,
        "unroutable_packets": r.unroutable,
        "max_queue_bytes": r.stats.iter().map(|s| s.max_queue_bytes).max().unwrap_or(0),
        "mean_queue_bytes": r.bottleneck_mean_queue,
        "bottleneck": r.bottleneck.map(|(s, l)| serde_json::json!({"switch": s, "port": l})),
        "utilization": r.utilization,
        "drain_us": r.drain_ns(a.mtu as u64).map(|n| n as f64 / 1000.0),
        "jain": r.jain(),
        "slowdown": all,
        "slowdown_bins": bins,
        "by_alg": by_alg,
        "simulated_us": sim_us,
        "setup_cycles": r.setup_cycles,
        "wall_seconds": seconds,
        "threads": a.threads,
        "simulated_us_per_wall_second": sim_us / seconds.max(1e-9),
        "probe_problems": r.probe_problems,
    });
    fs::write(&summary_path, serde_json::to_string_pretty(&summary)? + "\n")?;
    use std::io::Write;
    let _ = writeln!(
        std::io::stdout(),
        "netsim: {} of {} flows completed ({} failed, {} incomplete), slowdown p50 {:.2} p99 {:.2}, max queue {} B, utilization {:.3}, {:.1} us simulated in {:.1} s; {}",
        r.records.len(), fl.len(), r.failed.len(), r.incomplete, all.p50, all.p99,
        summary["max_queue_bytes"], r.utilization, sim_us, seconds, out.display()
    );
    let clean = r.failed.is_empty() && r.incomplete == 0 && r.probe_problems.is_empty() && below_standalone == 0;
    for p in &r.probe_problems {
        eprintln!("netsim: {p}");
    }
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
