//! Topologies. The file format is the HPCC reference simulator's (its `mix/fat.txt`):
//!
//! ```text
//! <nodes> <switches> <links>
//! <switch id> ... (one line, <switches> ids)
//! <a> <b> <rate> <delay> <error rate>     (<links> lines, e.g. `0 320 100Gbps 1000ns 0`)
//! ```
//!
//! Nodes are numbered 0..nodes; the ones not listed as switches are hosts, each with one NIC
//! and so exactly one link. Rates take `bps`, `Kbps`, `Mbps`, `Gbps` (or `b/s` forms), delays
//! `ns`, `us`, `ms`, `s`. Routing is shortest path by hop count; where several next hops are
//! equally short, all are kept (`Routes::next`) for the network to choose per flow (ECMP).

use super::{data_lines, ParseError};
use std::collections::VecDeque;

/// A full-duplex link: the same rate and delay both ways.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub a: usize,
    pub b: usize,
    /// Bits per second.
    pub bps: u64,
    /// Propagation delay, ns.
    pub delay_ns: u64,
    /// Chance a frame is lost on the link (the reference's last column).
    pub error_rate: f64,
}

/// Nodes, which of them are switches, and the links between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    pub is_switch: Vec<bool>,
    pub links: Vec<Link>,
}

/// Next hops: for each node and each host (by its index in `Topology::hosts`), the links
/// that lead towards the host on a shortest path (empty at the host itself).
#[derive(Clone, Debug)]
pub struct Routes {
    pub next: Vec<Vec<Vec<usize>>>,
    /// Hop count from each node to each host.
    pub hops: Vec<Vec<u32>>,
}

/// `100Gbps` -> 100e9.
fn parse_rate(s: &str) -> Option<u64> {
    let units: [(&str, f64); 8] = [
        ("Gbps", 1e9), ("Gb/s", 1e9), ("Mbps", 1e6), ("Mb/s", 1e6),
        ("Kbps", 1e3), ("kbps", 1e3), ("bps", 1.0), ("b/s", 1.0),
    ];
    let (num, scale) = units.iter().find_map(|(u, k)| s.strip_suffix(u).map(|n| (n, *k)))?;
    let v: f64 = num.parse().ok()?;
    (v.is_finite() && v > 0.0).then(|| (v * scale).round() as u64).filter(|&b| b > 0)
}

/// `1000ns`, `1us` -> ns.
fn parse_delay(s: &str) -> Option<u64> {
    let units: [(&str, f64); 4] = [("ns", 1.0), ("us", 1e3), ("ms", 1e6), ("s", 1e9)];
    let (num, scale) = units.iter().find_map(|(u, k)| s.strip_suffix(u).map(|n| (n, *k)))?;
    let v: f64 = num.parse().ok()?;
    (v.is_finite() && v >= 0.0).then(|| (v * scale).round() as u64)
}

fn rate_text(bps: u64) -> String {
    match bps {
        b if b % 1_000_000_000 == 0 => format!("{}Gbps", b / 1_000_000_000),
        b if b % 1_000_000 == 0 => format!("{}Mbps", b / 1_000_000),
        b => format!("{b}bps"),
    }
}

impl Topology {
    /// Reads a topology file (`file` names it in errors).
    pub fn parse(file: &str, text: &str) -> Result<Topology, ParseError> {
        let err = |line, msg: String| ParseError::new(file, line, msg);
        let mut lines = data_lines(text);
        let (l, head) = lines.next().ok_or_else(|| err(0, "empty: no `<nodes> <switches> <links>` line".into()))?;
        let nums: Vec<usize> = head.iter().map(|w| w.parse()).collect::<Result<_, _>>()
            .map_err(|_| err(l, format!("expected `<nodes> <switches> <links>`, found `{}`", head.join(" "))))?;
        let &[nodes, switches, nlinks] = nums.as_slice() else {
            return Err(err(l, format!("expected 3 numbers `<nodes> <switches> <links>`, found {}", nums.len())));
        };
        let mut is_switch = vec![false; nodes];
        if switches > 0 {
            let (l, ids) = lines.next().ok_or_else(|| err(0, format!("ends before the line of {switches} switch ids")))?;
            if ids.len() != switches {
                return Err(err(l, format!("{} switch ids, the first line says {switches}", ids.len())));
            }
            for w in ids {
                let id: usize = w.parse().map_err(|_| err(l, format!("switch id `{w}` is not a number")))?;
                if id >= nodes {
                    return Err(err(l, format!("switch id {id} is not a node (0..{nodes})")));
                }
                if std::mem::replace(&mut is_switch[id], true) {
                    return Err(err(l, format!("switch id {id} listed twice")));
                }
            }
        }
        let mut links = Vec::new();
        for (l, w) in lines {
            if w.len() != 5 {
                return Err(err(l, format!("expected `<a> <b> <rate> <delay> <error rate>`, found {} words", w.len())));
            }
            let node = |s: &str| match s.parse::<usize>() {
                Ok(n) if n < nodes => Ok(n),
                _ => Err(err(l, format!("`{s}` is not a node (0..{nodes})"))),
            };
            let (a, b) = (node(w[0])?, node(w[1])?);
            if a == b {
                return Err(err(l, format!("link from node {a} to itself")));
            }
            let bps = parse_rate(w[2]).ok_or_else(|| err(l, format!("rate `{}`: expected e.g. 100Gbps", w[2])))?;
            let delay_ns = parse_delay(w[3]).ok_or_else(|| err(l, format!("delay `{}`: expected e.g. 1000ns or 1us", w[3])))?;
            let error_rate: f64 = w[4].parse().ok().filter(|e: &f64| (0.0..=1.0).contains(e))
                .ok_or_else(|| err(l, format!("error rate `{}`: expected a number in 0..1", w[4])))?;
            links.push(Link { a, b, bps, delay_ns, error_rate });
        }
        if links.len() != nlinks {
            return Err(err(0, format!("{} links, the first line says {nlinks}", links.len())));
        }
        let t = Topology { is_switch, links };
        t.check().map_err(|m| err(0, m))?;
        Ok(t)
    }

    /// Every host has one link, and every host reaches every other (`parse` checks a file
    /// with it; a built topology can be checked the same way).
    pub fn check(&self) -> Result<(), String> {
        let hosts = self.hosts();
        if hosts.len() < 2 {
            return Err(format!("{} hosts: a network needs two at least", hosts.len()));
        }
        for &h in &hosts {
            let n = self.links.iter().filter(|k| k.a == h || k.b == h).count();
            if n != 1 {
                return Err(format!("host {h} has {n} links; a host is one NIC, one link"));
            }
        }
        let r = self.routes();
        for (i, &h) in hosts.iter().enumerate() {
            if let Some(&g) = hosts.iter().find(|&&g| r.hops[g][i] == u32::MAX) {
                return Err(format!("host {g} cannot reach host {h}"));
            }
        }
        Ok(())
    }

    /// The reference simulator's file for this topology.
    pub fn to_text(&self) -> String {
        let sw: Vec<String> = (0..self.nodes()).filter(|&n| self.is_switch[n]).map(|n| n.to_string()).collect();
        let mut s = format!("{} {} {}\n{}\n", self.nodes(), sw.len(), self.links.len(), sw.join(" "));
        for k in &self.links {
            s += &format!("{} {} {} {}ns {:.6}\n", k.a, k.b, rate_text(k.bps), k.delay_ns, k.error_rate);
        }
        s
    }

    pub fn nodes(&self) -> usize {
        self.is_switch.len()
    }

    /// The hosts, in node order.
    pub fn hosts(&self) -> Vec<usize> {
        (0..self.nodes()).filter(|&n| !self.is_switch[n]).collect()
    }

    /// The link of host `h` (its only one).
    pub fn host_link(&self, h: usize) -> &Link {
        &self.links[self.host_link_index(h)]
    }

    /// The index in `links` of host `h`'s link.
    pub fn host_link_index(&self, h: usize) -> usize {
        self.links.iter().position(|k| k.a == h || k.b == h).expect("checked: every host has one link")
    }

    /// `n` senders (hosts 0..n) and one receiver (host n) on one switch (node n + 1).
    pub fn incast(n: usize, bps: u64, delay_ns: u64) -> Topology {
        let mut is_switch = vec![false; n + 2];
        is_switch[n + 1] = true;
        let links = (0..=n).map(|h| Link { a: h, b: n + 1, bps, delay_ns, error_rate: 0.0 }).collect();
        Topology { is_switch, links }
    }

    /// `n` hosts on each of two switches (hosts 0..n left, n..2n right; switches 2n, 2n + 1),
    /// the switches joined by one link of `core_bps`.
    pub fn dumbbell(n: usize, host_bps: u64, core_bps: u64, delay_ns: u64) -> Topology {
        let (l, r) = (2 * n, 2 * n + 1);
        let mut is_switch = vec![false; 2 * n + 2];
        is_switch[l] = true;
        is_switch[r] = true;
        let mut links: Vec<Link> = (0..2 * n)
            .map(|h| Link { a: h, b: if h < n { l } else { r }, bps: host_bps, delay_ns, error_rate: 0.0 })
            .collect();
        links.push(Link { a: l, b: r, bps: core_bps, delay_ns, error_rate: 0.0 });
        Topology { is_switch, links }
    }

    /// Two tiers: `hosts` hosts spread evenly over `leaves` leaf switches, every leaf joined
    /// to every one of `spines` spine switches. Nodes: hosts, then leaves, then spines.
    pub fn leaf_spine(hosts: usize, leaves: usize, spines: usize, host_bps: u64, core_bps: u64, delay_ns: u64) -> Result<Topology, String> {
        if leaves == 0 || spines == 0 || hosts < 2 || hosts % leaves != 0 {
            return Err(format!("leaf-spine: {hosts} hosts do not spread evenly over {leaves} leaves ({spines} spines)"));
        }
        let per = hosts / leaves;
        let mut is_switch = vec![false; hosts];
        is_switch.resize(hosts + leaves + spines, true);
        let mut links: Vec<Link> = (0..hosts)
            .map(|h| Link { a: h, b: hosts + h / per, bps: host_bps, delay_ns, error_rate: 0.0 })
            .collect();
        for l in 0..leaves {
            for s in 0..spines {
                links.push(Link { a: hosts + l, b: hosts + leaves + s, bps: core_bps, delay_ns, error_rate: 0.0 });
            }
        }
        Ok(Topology { is_switch, links })
    }

    /// Shortest paths to every host (breadth first from each host over the links; hosts do
    /// not forward, which their single link already ensures).
    pub fn routes(&self) -> Routes {
        let n = self.nodes();
        let hosts = self.hosts();
        let mut adj: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (i, k) in self.links.iter().enumerate() {
            adj[k.a].push((k.b, i));
            adj[k.b].push((k.a, i));
        }
        let mut hops = vec![vec![u32::MAX; hosts.len()]; n];
        let mut next = vec![vec![Vec::new(); hosts.len()]; n];
        for (hi, &h) in hosts.iter().enumerate() {
            hops[h][hi] = 0;
            let mut q = VecDeque::from([h]);
            while let Some(u) = q.pop_front() {
                for &(v, _) in &adj[u] {
                    if hops[v][hi] == u32::MAX {
                        hops[v][hi] = hops[u][hi] + 1;
                        q.push_back(v);
                    }
                }
            }
            for u in 0..n {
                if u != h && hops[u][hi] != u32::MAX {
                    next[u][hi] = adj[u].iter().filter(|&&(v, _)| hops[v][hi] + 1 == hops[u][hi]).map(|&(_, i)| i).collect();
                }
            }
        }
        Routes { next, hops }
    }
}
