//! The network of `hpcc-nic netsim` (issue 15): its inputs and outputs in the HPCC reference
//! simulator's formats, so that a topology, a flow list or an FCT file moves between the two
//! unchanged. docs/netsim.md.
//!
//! - `topo`: topologies (the reference's topology file, and incast, dumbbell and leaf-spine
//!   by size), shortest-path routes with their equal-cost choices.
//! - `flows`: the flow list (`src dst pg dport size start_time_s`).
//! - `cdf`: flow-size distributions (the WebSearch and FB_Hadoop CDFs ship in sim/data/cdf).
//! - `traffic`: flow lists made from a seed: Poisson arrivals at a load, incasts.
//! - `fct`: completed flows as `fct.txt`, and the slowdown summary.
//! - `network`: the switches and links of a topology, which hosts send frames into.
//!
//! Every parser reports the file and line of what it refuses (`ParseError`), and none returns
//! a partial result.

pub mod cdf;
pub mod fct;
pub mod flows;
pub mod network;
pub mod topo;
pub mod traffic;

use std::fmt;

/// A refused input: which file, which line (1-based; 0: the file as a whole), why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub msg: String,
}

impl ParseError {
    pub fn new(file: &str, line: usize, msg: impl Into<String>) -> ParseError {
        ParseError { file: file.to_string(), line, msg: msg.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.msg)
        }
    }
}

impl std::error::Error for ParseError {}

/// The lines of a file that carry data: (1-based line number, its words), blank lines and
/// `#` comments left out.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, Vec<&str>)> {
    text.lines().enumerate().filter_map(|(i, l)| {
        let l = l.split('#').next().unwrap_or("").trim();
        (!l.is_empty()).then(|| (i + 1, l.split_whitespace().collect()))
    })
}

/// A host's IPv4 address as the reference simulator numbers them (11.x.y.1 for node id
/// x * 256 + y), which its FCT files print in hex.
pub fn host_ip(id: usize) -> [u8; 4] {
    let v = 0x0b00_0001u32 + ((id as u32 / 256) << 16) + ((id as u32 % 256) << 8);
    v.to_be_bytes()
}
