//! `hpcc-nic lint`: Verilator's -Wall lint on every exported module.

use crate::Result;
use std::path::Path;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(root: &Path, _args: Args) -> Result<ExitCode> {
    let rtl = root.join("rtl-out");
    let vlt = rtl.join("hpcc_nic.vlt");
    let mut clean = true;
    // Each block with the files it instantiates from (the shared cells file has no top of its
    // own: its modules are linted inside every block that uses them).
    for m in hdl::export::all()?.into_iter().filter(|m| m.name != hdl::export_once::CELLS) {
        let mut files: Vec<_> = m.needs.iter().map(|n| rtl.join(format!("{n}.v"))).collect();
        files.push(rtl.join(format!("{}.v", m.name)));
        let report = testbench::lint::lint(&files, &m.name, Some(&vlt))?;
        if report.clean {
            println!("{:<16} clean    ({})", m.name, report.command);
        } else {
            clean = false;
            println!("{:<16} {} warnings ({})", m.name, report.warnings.len(), report.command);
            for w in &report.warnings {
                println!("  {w}");
            }
        }
    }
    Ok(if clean { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
