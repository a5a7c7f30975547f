//! `hpcc-nic export`: rtl-out/ from the Rust sources.

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Write nothing; exit 1 if rtl-out/ differs from a fresh export.
    #[arg(long)]
    check: bool,
}

pub fn run(root: &Path, args: Args) -> Result<ExitCode> {
    let modules = hdl::export::all()?;
    let dir = root.join("rtl-out");
    if args.check {
        let stale = stale_files(&dir, &modules);
        for f in &stale {
            println!("stale: rtl-out/{f}");
        }
        return Ok(if stale.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE });
    }
    let report = hdl::export::write_all(&dir, &modules)?;
    for f in &report.changed {
        println!("wrote     rtl-out/{f}");
    }
    for f in &report.unchanged {
        println!("unchanged rtl-out/{f}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Files of rtl-out/ that a fresh export would change.
pub fn stale_files(dir: &Path, modules: &[hdl::export::Exported]) -> Vec<String> {
    let mut files: Vec<(String, String)> =
        modules.iter().map(|m| (format!("{}.v", m.name), m.text.clone())).collect();
    files.push(("hpcc_nic.f".into(), hdl::export::filelist(modules)));
    files
        .into_iter()
        .filter(|(f, text)| std::fs::read_to_string(dir.join(f)).ok().as_deref() != Some(text))
        .map(|(f, _)| f)
        .collect()
}
