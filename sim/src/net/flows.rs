//! Flow lists in the HPCC reference simulator's format (its `mix/flow.txt`):
//!
//! ```text
//! <count>
//! <src> <dst> <pg> <dport> <size bytes> <start time, seconds>     (<count> lines)
//! ```
//!
//! in ascending start time. The start is read exactly to the nanosecond (decimal digits past
//! the ninth must be 0), so a file written by `to_text` reads back the same.

use super::topo::Topology;
use super::{data_lines, ParseError};

/// One flow: `size` bytes from host `src` to host `dst`, posted at `start_ns`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    pub src: usize,
    pub dst: usize,
    /// Priority group (the reference uses 3).
    pub pg: u32,
    pub dport: u16,
    pub size: u64,
    pub start_ns: u64,
}

/// `2.000001` seconds -> 2,000,001,000 ns, exactly.
fn parse_seconds(s: &str) -> Option<u64> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    if int.is_empty() && frac.is_empty() || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    if frac.len() > 9 && frac[9..].chars().any(|c| c != '0') {
        return None;
    }
    let mut digits: String = frac.chars().take(9).collect();
    while digits.len() < 9 {
        digits.push('0');
    }
    let int: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    int.checked_mul(1_000_000_000)?.checked_add(digits.parse().ok()?)
}

fn seconds_text(ns: u64) -> String {
    format!("{}.{:09}", ns / 1_000_000_000, ns % 1_000_000_000)
}

/// Reads a flow file (`file` names it in errors); with a topology, every src and dst must be
/// one of its hosts.
pub fn parse(file: &str, text: &str, topo: Option<&Topology>) -> Result<Vec<Flow>, ParseError> {
    let err = |line, msg: String| ParseError::new(file, line, msg);
    let mut lines = data_lines(text);
    let (l, head) = lines.next().ok_or_else(|| err(0, "empty: no flow count line".into()))?;
    let count: usize = match head.as_slice() {
        [c] => c.parse().map_err(|_| err(l, format!("flow count `{c}` is not a number")))?,
        _ => return Err(err(l, format!("expected the flow count alone, found `{}`", head.join(" ")))),
    };
    let is_host = |n: usize| topo.map_or(true, |t| n < t.nodes() && !t.is_switch[n]);
    let mut flows = Vec::with_capacity(count);
    for (l, w) in lines {
        if flows.len() == count {
            return Err(err(l, format!("more flows than the count line's {count}")));
        }
        if w.len() != 6 {
            return Err(err(l, format!("expected `<src> <dst> <pg> <dport> <size> <start_s>`, found {} words", w.len())));
        }
        let host = |s: &str| match s.parse::<usize>() {
            Ok(n) if is_host(n) => Ok(n),
            _ => Err(err(l, format!("`{s}` is not a host of the topology"))),
        };
        let (src, dst) = (host(w[0])?, host(w[1])?);
        if src == dst {
            return Err(err(l, format!("flow from host {src} to itself")));
        }
        let pg = w[2].parse().map_err(|_| err(l, format!("priority group `{}` is not a number", w[2])))?;
        let dport = w[3].parse().map_err(|_| err(l, format!("dport `{}` is not a port (0..65535)", w[3])))?;
        let size = w[4].parse().ok().filter(|&s: &u64| s > 0)
            .ok_or_else(|| err(l, format!("size `{}`: expected bytes > 0", w[4])))?;
        let start_ns = parse_seconds(w[5])
            .ok_or_else(|| err(l, format!("start `{}`: expected seconds, at most ns resolution", w[5])))?;
        if let Some(p) = flows.last().map(|f: &Flow| f.start_ns).filter(|&p| p > start_ns) {
            return Err(err(l, format!("start {} is before the previous flow's {}: flows must be in ascending start time", w[5], seconds_text(p))));
        }
        flows.push(Flow { src, dst, pg, dport, size, start_ns });
    }
    if flows.len() != count {
        return Err(err(0, format!("{} flows, the count line says {count}", flows.len())));
    }
    Ok(flows)
}

/// The reference simulator's file for these flows (which must be in ascending start time).
pub fn to_text(flows: &[Flow]) -> String {
    let mut s = format!("{}\n", flows.len());
    for f in flows {
        s += &format!("{} {} {} {} {} {}\n", f.src, f.dst, f.pg, f.dport, f.size, seconds_text(f.start_ns));
    }
    s
}
