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
        let stale = hdl::export::stale(&dir, &modules);
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
