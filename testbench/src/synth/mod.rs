//! Synthesis figures from yosys's `synth_xilinx`: resource counts, logic depth and
//! a review of yosys's warnings.
//!
//! [`synth`] runs yosys non-interactively on a set of Verilog files:
//!
//! ```text
//! read_verilog <file>...
//! synth_xilinx -flatten -family <family> -top <top>
//! tee -o stat.txt stat
//! write_json net.json
//! ```
//!
//! in a private temporary directory (removed afterwards), then
//!
//! * counts cells by type from `stat` (cross-checked against the JSON netlist) and
//!   groups them into LUTs, flip-flops, block RAMs, DSPs, LUT memories, carry
//!   cells and wide muxes ([`SynthReport`]);
//! * measures the logic depth of the mapped netlist with its own longest-path
//!   search ([`logic_depth`]): yosys's `ltp` cannot be used after
//!   `synth_xilinx`, as it does not know that `FDRE` or `RAMB36E2` are registers;
//! * profiles every path end ([`LevelProfile`]): the worst path into each register, RAM
//!   and output-port bit with its LUT, MUXF and carry levels apart and a delay estimated
//!   under a stated [`DelayModel`], as a histogram of ends by LUT + MUXF levels and a count
//!   of ends over [`BUDGET_NS`];
//! * lists the clock-domain crossings ([`clock_crossings`]): every register fed through
//!   logic from a register of another clock, for designs with more than one;
//! * collects every yosys `Warning:` line and sorts each into a documented
//!   known-benign class ([`KNOWN_BENIGN_WARNINGS`]) or `unexplained_warnings`.
//!
//! The depth is a count of logic levels, not a timing analysis: no yosys flow gives
//! placed-and-routed delays. See [`logic_depth`] for exactly what is counted.
//!
//! The binary is `$YOSYS`, or `yosys` from `PATH`.

mod depth;
mod report;
mod run;
mod stat;
mod tool;
mod warnings;

pub use depth::{clock_crossings, logic_depth, Crossing, DelayModel, LevelProfile, LogicDepth, PathCost, BUDGET_NS};
pub use report::SynthReport;
pub use run::{synth, yosys_version};
pub use stat::parse_stat;
pub use tool::ToolError;
pub(crate) use tool::{io_err, spawn_error, tail, tool_binary, TempDir};
pub use warnings::{classify_warning, extract_warnings, KnownWarning, KNOWN_BENIGN_WARNINGS};
