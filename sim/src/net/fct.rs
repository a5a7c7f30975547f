//! Completed flows: `fct.txt` in the HPCC reference simulator's format, one line per flow,
//!
//! ```text
//! <sip hex> <dip hex> <sport> <dport> <size> <start_ns> <fct_ns> <standalone_fct_ns>
//! ```
//!
//! (the reference's `qp_finish` line), and the slowdown (FCT / standalone FCT) summary:
//! percentiles overall and per flow-size bin.

use super::flows::Flow;
use super::{data_lines, host_ip, ParseError};
use super::topo::{Routes, Topology};
use serde::Serialize;

/// One completed flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FctRecord {
    pub flow: Flow,
    pub sport: u16,
    /// Start to completion (the last byte's completion at the sender), ns.
    pub fct_ns: u64,
    /// The flow alone on an idle network: base RTT + size * 8 / bottleneck rate, ns.
    pub standalone_ns: u64,
}

impl FctRecord {
    pub fn slowdown(&self) -> f64 {
        self.fct_ns as f64 / self.standalone_ns.max(1) as f64
    }
}

/// The line of `fct.txt`.
pub fn fct_line(r: &FctRecord) -> String {
    let ip = |h| u32::from_be_bytes(host_ip(h));
    format!(
        "{:08x} {:08x} {} {} {} {} {} {}",
        ip(r.flow.src), ip(r.flow.dst), r.sport, r.flow.dport, r.flow.size, r.flow.start_ns, r.fct_ns, r.standalone_ns
    )
}

/// Reads an `fct.txt` back (a report of earlier runs): hosts from their addresses (node id
/// = address bits 23..8, as the reference numbers them), the priority group as 3 (the line
/// does not carry it).
pub fn parse_fct(file: &str, text: &str) -> Result<Vec<FctRecord>, ParseError> {
    let mut out = Vec::new();
    for (l, w) in data_lines(text) {
        let err = |m: String| ParseError::new(file, l, m);
        if w.len() != 8 {
            return Err(err(format!("expected 8 fields `sip dip sport dport size start_ns fct_ns standalone_ns`, found {}", w.len())));
        }
        let ip = |s: &str| u32::from_str_radix(s, 16).map(|v| ((v >> 8) & 0xffff) as usize).map_err(|_| err(format!("`{s}` is not a hex address")));
        let num = |s: &str| s.parse::<u64>().map_err(|_| err(format!("`{s}` is not a number")));
        let port = |s: &str| s.parse::<u16>().map_err(|_| err(format!("`{s}` is not a port")));
        let flow = Flow { src: ip(w[0])?, dst: ip(w[1])?, pg: 3, dport: port(w[3])?, size: num(w[4])?, start_ns: num(w[5])? };
        out.push(FctRecord { flow, sport: port(w[2])?, fct_ns: num(w[6])?, standalone_ns: num(w[7])? });
    }
    Ok(out)
}

/// A path's base RTT and bottleneck: the shortest path from `src` to `dst` (the first of
/// equal-cost next hops), its propagation delay both ways, one `frame_bytes` frame
/// serialized at each hop out and one `ack_bytes` frame at each hop back; the slowest link.
/// Returns (base RTT ns, bottleneck bits per second).
pub fn base_path(t: &Topology, r: &Routes, src: usize, dst: usize, frame_bytes: u64, ack_bytes: u64) -> (u64, u64) {
    let hosts = t.hosts();
    let di = hosts.iter().position(|&h| h == dst).expect("dst is a host");
    let (mut at, mut rtt, mut bw) = (src, 0u64, u64::MAX);
    while at != dst {
        let k = &t.links[r.next[at][di][0]];
        let ser = |bytes: u64| bits_ns(bytes, k.bps);
        rtt += 2 * k.delay_ns + ser(frame_bytes) + ser(ack_bytes);
        bw = bw.min(k.bps);
        at = if k.a == at { k.b } else { k.a };
    }
    (rtt, bw)
}

/// Standalone FCT: base RTT + `size` bytes at `bps`, ns.
pub fn standalone_ns(base_rtt_ns: u64, size: u64, bps: u64) -> u64 {
    base_rtt_ns + bits_ns(size, bps)
}

/// `bytes` at `bps`, ns, rounded up.
fn bits_ns(bytes: u64, bps: u64) -> u64 {
    (bytes as u128 * 8_000_000_000).div_ceil(bps as u128) as u64
}

/// Slowdown percentiles of a set of flows (nearest rank).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Slowdown {
    pub flows: usize,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
}

impl Slowdown {
    pub fn of(records: &[&FctRecord]) -> Slowdown {
        let mut s: Vec<f64> = records.iter().map(|r| r.slowdown()).collect();
        s.sort_by(f64::total_cmp);
        let at = |q: f64| if s.is_empty() { 0.0 } else { s[((q * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1] };
        Slowdown { flows: s.len(), p50: at(0.50), p95: at(0.95), p99: at(0.99) }
    }
}

/// Upper bounds (exclusive) of the flow-size bins of the summary, bytes; a last bin holds
/// the rest. Decades from 10 KB, as the HPCC paper's FCT plots group short and long flows.
pub const SIZE_BINS: [u64; 4] = [10_000, 100_000, 1_000_000, 10_000_000];

/// The slowdown of one size bin.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    /// Sizes below this (None: the last bin, no bound).
    pub below_bytes: Option<u64>,
    pub slowdown: Slowdown,
}

/// Slowdown overall and per size bin.
pub fn slowdown_bins(records: &[FctRecord]) -> (Slowdown, Vec<Bin>) {
    let all: Vec<&FctRecord> = records.iter().collect();
    let mut bins = Vec::new();
    let mut lo = 0;
    for hi in SIZE_BINS.iter().map(|&b| Some(b)).chain([None]) {
        let inside: Vec<&FctRecord> = records.iter().filter(|r| r.flow.size >= lo && hi.map_or(true, |h| r.flow.size < h)).collect();
        bins.push(Bin { below_bytes: hi, slowdown: Slowdown::of(&inside) });
        lo = hi.unwrap_or(u64::MAX);
    }
    (Slowdown::of(&all), bins)
}
