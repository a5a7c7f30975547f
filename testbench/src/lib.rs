//! hpcc-nic testbench.
//!
//! [`verilated`]: typed Rust bindings to every Verilated RTL module.

pub mod harness;
pub mod verilated;

pub use verilated::{Model, MODELS};
pub mod synth;
pub mod lint;
pub mod replay_rtl;
pub mod rtl_files;
mod replay_rtl_algos;
