//! `hpcc-nic`: export, lint, synthesize and regress the hpcc-nic RTL.

mod cmd_bench;
mod cmd_driver;
mod cmd_export;
mod cmd_lint;
mod cmd_netsim;
mod cmd_regress;
mod cmd_replay;
mod cmd_rx;
mod cmd_synth;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "hpcc-nic", version, about = "hpcc-nic RTL flow: export, lint, synth, regress, replay")]
struct Cli {
    /// Workspace root (holds rtl-out/ and docs/).
    #[arg(long, global = true, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/.."))]
    root: PathBuf,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write every module's Verilog and the filelist into rtl-out/.
    Export(cmd_export::Args),
    /// verilator --lint-only -Wall on every exported module, with rtl-out/hpcc_nic.vlt.
    Lint(cmd_lint::Args),
    /// yosys synth_xilinx: LUT/FF/BRAM/DSP counts and logic depth.
    Synth(cmd_synth::Args),
    /// Export check, then every regression against the golden models, in parallel.
    Regress(cmd_regress::Args),
    /// Benchmarks: simulation speed (Verilator, Icarus, rust-hdl, models) and line rate per block (--module; docs/benchmarks.md).
    Bench(cmd_bench::Args),
    /// Replay a JSON-lines trace of CC events through one algorithm (docs/replay.md).
    Replay(cmd_replay::Args),
    /// Feed a pcap through the Rx pipe (rtl or golden model): one JSON verdict per frame.
    Rx(cmd_rx::Args),
    /// The RTL NIC cores in a simulated network: FCTs, queues, slowdowns (docs/netsim.md).
    Netsim(cmd_netsim::Args),
    /// A driver's setup writes (CC configuration, flow creates) as text, for outside drivers.
    Driver(cmd_driver::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.root.canonicalize().unwrap_or(cli.root);
    let result = match cli.cmd {
        Cmd::Export(a) => cmd_export::run(&root, a),
        Cmd::Lint(a) => cmd_lint::run(&root, a),
        Cmd::Synth(a) => cmd_synth::run(&root, a),
        Cmd::Regress(a) => cmd_regress::run(&root, a),
        Cmd::Bench(a) => cmd_bench::run(&root, a),
        Cmd::Replay(a) => cmd_replay::run(&root, a),
        Cmd::Rx(a) => cmd_rx::run(&root, a),
        Cmd::Netsim(a) => cmd_netsim::run_cmd(a),
        Cmd::Driver(a) => cmd_driver::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("hpcc-nic: {e}");
            ExitCode::from(2)
        }
    }
}

/// Errors are reported, not unwound: a message and exit status 2.
pub type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;
