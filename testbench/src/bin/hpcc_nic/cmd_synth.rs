//! `hpcc-nic synth`: yosys synth_xilinx figures for the scheduler at a chosen flow count, or for
//! any other exported module.

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Module to build: `flow_sched`, `cc_hpcc`, `cc_ldcp` or `cc_dcqcn` (at each `--flows`), or any other module of
    /// rtl-out/.
    #[arg(long, default_value = "flow_sched")]
    module: String,
    /// Flow counts to build (powers of two, 1024 to 4096).
    #[arg(long, value_delimiter = ',', default_value = "1024")]
    flows: Vec<usize>,
    /// yosys synth_xilinx -family (xcup = UltraScale+).
    #[arg(long, default_value = "xcup")]
    family: String,
    /// Print a Markdown section (for docs/modules/*.md) instead of a table.
    #[arg(long)]
    markdown: bool,
    /// Build `--module` from the files of this directory (an rtl-out/ of another commit: the
    /// module's file and the files it instantiates from) instead of exporting it from this
    /// build's sources, for before/after figures. `--flows` is ignored.
    #[arg(long)]
    rtl: Option<std::path::PathBuf>,
}

pub fn run(_root: &Path, args: Args) -> Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("hpcc-nic-synth-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut ok = true;
    if !args.markdown {
        println!("{}", testbench::synth::SynthReport::table_header());
    }
    // (top name, files in compile order) of each build.
    let mut jobs: Vec<(String, Vec<std::path::PathBuf>)> = Vec::new();
    let mut builds = Vec::new();
    if let Some(rtl) = &args.rtl {
        let files = testbench::rtl_files::rtl_files(rtl, &args.module)
            .map_err(|e| format!("--rtl {}: {e}", rtl.display()))?;
        jobs.push((args.module.clone(), files));
    } else if args.module == "flow_sched" {
        for flows in args.flows {
            if !flows.is_power_of_two() || !(1024..=4096).contains(&flows) {
                return Err(format!("--flows {flows}: want 1024, 2048 or 4096").into());
            }
            let name =
                if flows == 1024 { "flow_sched".to_string() } else { format!("flow_sched_{flows}") };
            builds.extend(folded(hdl::export::flow_sched(flows.trailing_zeros() as usize, &name)?, &dir)?);
        }
    } else if let Some(export) = cc_datapath(&args.module) {
        for flows in args.flows {
            let m = &args.module;
            let name = match flows {
                1024 => m.clone(),
                4096 => format!("{m}_4096"),
                _ => return Err(format!("--flows {flows}: {m} builds 1024 or 4096").into()),
            };
            builds.extend(folded(export(flows.trailing_zeros() as usize, &name)?, &dir)?);
        }
    } else {
        // A block of rtl-out/ is built from its file and the files it instantiates from.
        let all = hdl::export::all()?;
        let names: Vec<&str> =
            all.iter().map(|m| m.name.as_str()).filter(|n| *n != hdl::export_once::CELLS).collect();
        if !names.contains(&args.module.as_str()) {
            return Err(format!("--module {}: not one of {names:?}", args.module).into());
        }
        builds.extend(all.iter().filter(|m| m.name == args.module).cloned());
        for m in &all {
            std::fs::write(dir.join(format!("{}.v", m.name)), &m.text)?;
        }
    }
    for m in builds {
        let file = dir.join(format!("{}.v", m.name));
        std::fs::write(&file, &m.text)?;
        let mut files: Vec<_> = m.needs.iter().map(|n| dir.join(format!("{n}.v"))).collect();
        files.push(file);
        jobs.push((m.name, files));
    }
    for (name, files) in jobs {
        let r = testbench::synth::synth(&files, &name, &args.family)?;
        if args.markdown {
            println!("{}", r.markdown());
        } else {
            println!("{}", r.table_row());
        }
        if !r.unexplained_warnings.is_empty() {
            ok = false;
            for w in &r.unexplained_warnings {
                println!("  unexplained yosys warning: {w}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

type Export = fn(usize, &str) -> std::result::Result<hdl::export::Exported, hdl::export::ExportError>;

/// The CC datapaths built at several flow counts.
/// `e` folded as rtl-out/ is (`hdl::export::folded`), every file written to `dir`; the top's.
fn folded(e: hdl::export::Exported, dir: &Path) -> Result<Option<hdl::export::Exported>> {
    let name = e.name.clone();
    let files = hdl::export::folded(e)?;
    for m in &files {
        std::fs::write(dir.join(format!("{}.v", m.name)), &m.text)?;
    }
    Ok(files.into_iter().find(|m| m.name == name))
}

fn cc_datapath(module: &str) -> Option<Export> {
    match module {
        "cc_hpcc" => Some(hdl::export::cc_hpcc),
        "cc_ldcp" => Some(hdl::export::cc_ldcp),
        "cc_dcqcn" => Some(hdl::export::cc_dcqcn),
        _ => None,
    }
}
