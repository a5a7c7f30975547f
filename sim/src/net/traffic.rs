//! Flow lists made from a seed: Poisson arrivals at a load (as the HPCC reference simulator's
//! `traffic_gen.py` makes them, from a flow-size CDF) and incasts. The same seed gives the
//! same list.

use super::cdf::Cdf;
use super::flows::Flow;
use crate::nic_model::XorShift;

/// The priority group and destination port the generated flows carry (the reference's).
pub const PG: u32 = 3;
pub const DPORT: u16 = 100;

/// Poisson arrivals.
#[derive(Clone, Debug)]
pub struct Poisson {
    /// Offered load per host, a fraction of its link rate (0.3: 30%).
    pub load: f64,
    /// Each host's link rate, bits per second.
    pub host_bps: u64,
    /// Flows start in `start_ns .. start_ns + duration_ns`.
    pub start_ns: u64,
    pub duration_ns: u64,
    pub seed: u64,
}

/// Each host starts flows as a Poisson process whose mean rate is `load` of its link (sizes
/// drawn from `cdf`), each to a host drawn uniformly from the others. In ascending start
/// time (ties by source host).
pub fn poisson(hosts: &[usize], cdf: &Cdf, p: &Poisson) -> Result<Vec<Flow>, String> {
    if hosts.len() < 2 {
        return Err(format!("Poisson traffic needs two hosts at least, not {}", hosts.len()));
    }
    if !(p.load > 0.0 && p.load <= 1.0) {
        return Err(format!("load {} is not in (0, 1]", p.load));
    }
    let gap_ns = cdf.mean() * 8.0 * 1e9 / (p.load * p.host_bps as f64);
    let mut rng = XorShift::new(p.seed);
    let mut flows = Vec::new();
    for &src in hosts {
        let mut t = p.start_ns as f64;
        loop {
            t += -(1.0 - rng.unit()).ln() * gap_ns;
            if t >= (p.start_ns + p.duration_ns) as f64 {
                break;
            }
            let mut dst = hosts[rng.below(hosts.len() as u64 - 1) as usize];
            if dst == src {
                dst = *hosts.last().unwrap();
            }
            let size = cdf.sample(rng.unit());
            flows.push(Flow { src, dst, pg: PG, dport: DPORT, size, start_ns: t as u64 });
        }
    }
    flows.sort_by_key(|f| (f.start_ns, f.src));
    Ok(flows)
}

/// `senders` each send `size` bytes to `receiver`, all at `start_ns`.
pub fn incast(senders: &[usize], receiver: usize, size: u64, start_ns: u64) -> Vec<Flow> {
    senders
        .iter()
        .filter(|&&s| s != receiver)
        .map(|&src| Flow { src, dst: receiver, pg: PG, dport: DPORT, size, start_ns })
        .collect()
}

/// Two flow lists as one, in ascending start time (ties: `a`'s first, then by source).
pub fn merge(a: Vec<Flow>, b: Vec<Flow>) -> Vec<Flow> {
    let mut all: Vec<(bool, Flow)> = a.into_iter().map(|f| (false, f)).chain(b.into_iter().map(|f| (true, f))).collect();
    all.sort_by_key(|(from_b, f)| (f.start_ns, *from_b, f.src));
    all.into_iter().map(|(_, f)| f).collect()
}
