//! `hpcc-nic netsim report DIR... --out DIR`: finished runs side by side. Each run is read
//! back from its outputs (summary.json, fct.txt, queue.csv), so a report can be made of runs
//! from other machines or shards; a directory without summary.json is refused (not a
//! finished run).

use super::plot::{self, Panel, Series};
use crate::Result;
use serde_json::Value;
use sim::net::fct::{parse_fct, slowdown_bins, Bin, SIZE_BINS};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Run directories (each a finished `netsim --out`).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where report.md and the overlaid plots go (created).
    #[arg(long)]
    out: PathBuf,
}

/// The bottleneck queue against time, one line per run.
pub fn queue_panel(series: Vec<Series>) -> Panel<'static> {
    Panel { title: "bottleneck queue".into(), x_desc: "time (us)", y_desc: "queue (KB)", series, x_names: None }
}

/// The names of `SIZE_BINS`' bins.
fn bin_names() -> Vec<String> {
    let kb = |b: u64| if b >= 1_000_000 { format!("{}M", b / 1_000_000) } else { format!("{}K", b / 1000) };
    SIZE_BINS.iter().map(|&b| format!("<{}", kb(b))).chain([format!(">={}", kb(*SIZE_BINS.last().unwrap()))]).collect()
}

/// Slowdown p50, p95 and p99 per size bin, one line per run (bins without flows left out).
pub fn slowdown_panels(runs: &[(String, Vec<Bin>)]) -> Vec<Panel<'static>> {
    let pick: [(&str, fn(&Bin) -> f64); 3] = [("p50", |b| b.slowdown.p50), ("p95", |b| b.slowdown.p95), ("p99", |b| b.slowdown.p99)];
    pick.iter()
        .map(|(name, f)| Panel {
            title: format!("FCT slowdown, {name}"),
            x_desc: "flow size",
            y_desc: "slowdown",
            series: runs
                .iter()
                .map(|(label, bins)| Series {
                    label: label.clone(),
                    points: bins.iter().enumerate().filter(|(_, b)| b.slowdown.flows > 0).map(|(i, b)| (i as f64, f(b))).collect(),
                })
                .collect(),
            x_names: Some(bin_names()),
        })
        .collect()
}

/// One finished run: its summary, its FCTs' bins, its bottleneck queue.
struct Loaded {
    name: String,
    summary: Value,
    bins: Vec<Bin>,
    queue: Vec<(f64, f64)>,
}

fn load(dir: &Path) -> Result<Loaded> {
    let read = |f: &str| fs::read_to_string(dir.join(f)).map_err(|e| format!("{}: {e}", dir.join(f).display()));
    let summary: Value = serde_json::from_str(&read("summary.json").map_err(|e| format!("{e} (not a finished run)"))?)
        .map_err(|e| format!("{}: {e}", dir.join("summary.json").display()))?;
    let fct = parse_fct(&dir.join("fct.txt").display().to_string(), &read("fct.txt")?)?;
    let (sw, port) = (summary["bottleneck"]["switch"].as_u64(), summary["bottleneck"]["port"].as_u64());
    let mut queue = Vec::new();
    for (n, line) in read("queue.csv")?.lines().enumerate().skip(1) {
        let v: Vec<u64> = line.split(',').map(|x| x.parse()).collect::<std::result::Result<_, _>>()
            .map_err(|_| format!("{}:{}: expected t_ns,switch,port,bytes", dir.join("queue.csv").display(), n + 1))?;
        if v.len() != 4 {
            return Err(format!("{}:{}: expected t_ns,switch,port,bytes", dir.join("queue.csv").display(), n + 1).into());
        }
        if Some(v[1]) == sw && Some(v[2]) == port {
            queue.push((v[0] as f64 / 1000.0, v[3] as f64 / 1000.0));
        }
    }
    let name = dir.file_name().map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Loaded { name, bins: slowdown_bins(&fct).1, summary, queue })
}

pub fn run(a: Args) -> Result<ExitCode> {
    let runs: Vec<Loaded> = a.dirs.iter().map(|d| load(d)).collect::<Result<_>>()?;
    fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let mut md = String::from(
        "| run | nic | alg | flows | completed | drops | PFC pauses | max queue (KB) | mean queue (KB) | drain (us) | utilization | Jain | slowdown p50 | p95 | p99 | simulated us | wall s |\n\
         |---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in &runs {
        let s = &r.summary;
        let f = |k: &str| s[k].as_f64().unwrap_or(f64::NAN);
        // Null in the summary (no drain, no common span): a dash.
        let opt = |k: &str, digits: usize| s[k].as_f64().map_or("-".to_string(), |v| format!("{v:.digits$}"));
        md += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {} | {:.3} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {:.1} |\n",
            r.name, s["nic"].as_str().unwrap_or("?"), s["alg"].as_str().unwrap_or("?"), s["flows"], s["completed"],
            s["dropped_packets"], if s["pfc"].is_null() { "off".to_string() } else { s["pfc_pauses"].to_string() },
            f("max_queue_bytes") / 1000.0, f("mean_queue_bytes") / 1000.0, opt("drain_us", 1), f("utilization"), opt("jain", 3),
            s["slowdown"]["p50"].as_f64().unwrap_or(f64::NAN), s["slowdown"]["p95"].as_f64().unwrap_or(f64::NAN),
            s["slowdown"]["p99"].as_f64().unwrap_or(f64::NAN), f("simulated_us"), f("wall_seconds"),
        );
    }
    fs::write(a.out.join("report.md"), &md)?;
    let q = runs.iter().map(|r| Series { label: r.name.clone(), points: r.queue.clone() }).collect();
    plot::panels(&a.out.join("queue.svg"), &[queue_panel(q)])?;
    let bins: Vec<(String, Vec<Bin>)> = runs.iter().map(|r| (r.name.clone(), r.bins.clone())).collect();
    plot::panels(&a.out.join("slowdown.svg"), &slowdown_panels(&bins))?;
    // A closed pipe (`| head`) ends the listing, not the command: the files are written.
    use std::io::Write;
    let _ = write!(std::io::stdout(), "{md}netsim report: {} runs; {}\n", runs.len(), a.out.display());
    Ok(ExitCode::SUCCESS)
}
