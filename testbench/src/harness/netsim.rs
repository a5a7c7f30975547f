//! `hpcc-nic netsim --nic rtl` (issue 15): a Verilated `hpcc_nic_core` at every host of a
//! `sim::net::network::Network`, each with its host memory and a MAC paced at its link rate
//! (100 Gb/s), driven through its registers as a driver would. An application posts each flow
//! of the flow list as one WRITE at its start time, through its host's `poster::Poster` (one
//! command at a time, each checked), and takes its completion from the core's completion
//! stream; the flow's FCT runs from its start time (a wait behind the host's earlier posts and
//! the post's register writes included) to that completion. docs/netsim.md.
//!
//! Parallel hosts: the hosts run a window of cycles at a time (the shortest host-link delay)
//! on rayon threads, each on its own, then the network replays the window cycle by cycle in
//! host order (`netsim_lane`); the outputs are the same for any thread count and the same as
//! stepping everything together every cycle (`run_window` with 1, tested).
//!
//! Queue pairs: every flow gets its own queue pair, created on both cores before time 0 (QPN
//! = its slot on both, the lowest slot free on both cores); slots are not reused yet, so a
//! core holds at most 2^10 flows in a run.

use super::cc_module::Model;
use super::core_net::{CoreNet, LINE};
use super::hpcc_nic_core::{configure, Core, CoreDut, Cpl};
use super::netsim_lane::{self, Due, Lane};
use rayon::prelude::*;
use std::collections::VecDeque;
use crate::verilated::models::HpccNicCore as Rtl;
use super::nic_datapath::Side;
use hdl::hpcc_nic_core::csr;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::net::fct::{base_path, standalone_ns, FctRecord};
use sim::net::flows::Flow;
use sim::net::host_ip;
use sim::net::network::{NetConfig, Network};
use sim::net::topo::Topology;
use sim::packet::RocePacket;
use sim::rx_pipe::beats;
use sim::switch::{wire_bytes, PortStats};
use sim::tx_ctx::{Ctrl as TxCtrl, Post};

/// Queue pairs per core (hpcc_nic_core's 2^F flows in rtl-out/).
pub const SLOTS: usize = 1 << super::flow_sched::FLOW_BITS;

/// Which NIC each host is: the Verilated core, the model NIC (`sim::hpcc_nic_core`), or the
/// Verilated core at the first K hosts (host order) and the model NIC at the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NicKind {
    Rtl,
    Model,
    Mix(usize),
}

impl NicKind {
    /// `rtl`, `model` or `mix:K`.
    pub fn parse(s: &str) -> Result<NicKind, String> {
        match s {
            "rtl" => Ok(NicKind::Rtl),
            "model" => Ok(NicKind::Model),
            _ => s
                .strip_prefix("mix:")
                .and_then(|k| k.parse().ok())
                .map(NicKind::Mix)
                .ok_or(format!("--nic {s}: rtl, model or mix:K (K RTL hosts, the rest model)")),
        }
    }

    /// As `parse` reads it.
    pub fn name(&self) -> String {
        match self {
            NicKind::Rtl => "rtl".into(),
            NicKind::Model => "model".into(),
            NicKind::Mix(k) => format!("mix:{k}"),
        }
    }
}

/// The cores on the network.
pub struct Net<M: CoreDut = Rtl> {
    pub cores: Vec<Core<M>>,
    pub net: Network,
    /// Host index -> node id, and back.
    pub hosts: Vec<usize>,
    host_of: Vec<Option<usize>>,
    pub cycle: u64,
    rng: ChaCha8Rng,
}

impl<M: CoreDut> Net<M> {
    /// A core (reset and swept, `make`) at every host of `topo`; every host link must be 100
    /// Gb/s, the cores' MAC rate.
    pub fn new(topo: Topology, cfg: &NetConfig, make: &dyn Fn(usize) -> Core<M>) -> Result<Net<M>, String> {
        let hosts = topo.hosts();
        for &h in &hosts {
            let bps = topo.host_link(h).bps;
            if bps != 100_000_000_000 {
                return Err(format!("host {h}: its link is {bps} b/s; the RTL cores' MACs run at 100 Gb/s"));
            }
        }
        let mut host_of = vec![None; topo.nodes()];
        for (i, &h) in hosts.iter().enumerate() {
            host_of[h] = Some(i);
        }
        let net = Network::new(topo, cfg)?;
        let cores = (0..hosts.len())
            .map(|k| {
                let mut c = make(k);
                c.host.keep = false;
                c.host.mac_rate = Some(LINE);
                c
            })
            .collect();
        Ok(Net { cores, net, hosts, host_of, cycle: 0, rng: ChaCha8Rng::seed_from_u64(cfg.seed) })
    }

    /// One clock of every core and the network together: the setup before time 0 (and tests);
    /// the run itself steps the hosts in windows (`netsim_lane`).
    pub fn step(&mut self) {
        let now = self.cycle;
        for (node, frame) in self.net.deliver(now) {
            self.cores[self.host_of[node].unwrap()].host.receive(beats(&frame));
        }
        for (node, on) in self.net.host_pauses(now) {
            self.cores[self.host_of[node].unwrap()].host.paused = on;
        }
        for (k, c) in self.cores.iter_mut().enumerate() {
            for f in c.clock(now, &mut self.rng, 0.0) {
                self.net.send(self.hosts[k], f, now);
            }
        }
        self.net.tick(now);
        self.cycle += 1;
    }
}

impl<M: CoreDut> CoreNet<M> for Net<M> {
    fn step(&mut self) {
        Net::step(self)
    }

    fn core(&mut self, k: usize) -> &mut Core<M> {
        &mut self.cores[k]
    }

    fn ip(&self, k: usize) -> [u8; 4] {
        host_ip(self.hosts[k])
    }
}

/// One run.
pub struct Spec {
    pub topo: Topology,
    pub flows: Vec<Flow>,
    /// cc_module's algorithm code of each flow (0 HPCC++, 1 Rx-HPCC, 2 LDCP, 3 DCQCN), one
    /// per flow of `flows`: flows of different algorithms share the network.
    pub algs: Vec<u32>,
    /// The cores' CC configuration.
    pub model: Model,
    /// RoCE MTU of every queue pair.
    pub mtu: u16,
    pub net: NetConfig,
    /// The run ends when every flow has completed, or this many cycles after time 0.
    pub max_cycles: u64,
    /// Queue sampling interval, cycles.
    pub sample_cycles: u64,
    /// The NIC at every host.
    pub nic: NicKind,
    /// Threads the hosts run on (0: one per CPU). The outputs do not depend on it.
    pub threads: usize,
}

/// What a run measured.
pub struct Run {
    /// Flows completed ok, in completion order.
    pub records: Vec<FctRecord>,
    /// Flows that ended in error (their index in the flow list).
    pub failed: Vec<usize>,
    /// Flows not complete when the run ended.
    pub incomplete: usize,
    /// Every switch egress port (switch node, link), the order of each sample's queues.
    pub ports: Vec<(usize, usize)>,
    /// (ns since time 0, each port's queue in bytes).
    pub samples: Vec<(u64, Vec<u64>)>,
    /// Per flow: the wire bytes its sender sent in each sample interval, as (sample index,
    /// bytes) for the intervals it sent in.
    pub flow_bytes: Vec<Vec<(u32, u64)>>,
    /// Each port's counters at the end.
    pub stats: Vec<PortStats>,
    /// The port that sent the most, and its utilization from its first to its last sample
    /// with traffic.
    pub bottleneck: Option<(usize, usize)>,
    pub utilization: f64,
    /// Mean of the bottleneck's queue over the same samples, bytes.
    pub bottleneck_mean_queue: f64,
    pub lost: u64,
    pub unroutable: u64,
    /// Cycles from time 0 to the end, and of the setup before it.
    pub cycles: u64,
    pub setup_cycles: u64,
    /// What the cores' probes found inside (cc_module against its model, flow_sched in
    /// lockstep with its model): empty when the RTL agreed.
    pub probe_problems: Vec<String>,
}

/// A data frame of `payload` bytes: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 58
/// bytes around it (what a base RTT serializes out); an ACK is 64 bytes on the wire back.
pub fn frame_bytes(payload: u64) -> u64 {
    payload + 58
}
pub const ACK_BYTES: u64 = 64;

/// The longest base RTT between two hosts of `topo` at `mtu` (`sim::net::fct::base_path`), ns.
pub fn longest_base_rtt(topo: &Topology, mtu: u16) -> Option<u64> {
    let r = topo.routes();
    let hosts = topo.hosts();
    hosts.iter().flat_map(|&s| hosts.iter().filter(move |&&d| d != s).map(move |&d| (s, d)))
        .map(|(s, d)| base_path(topo, &r, s, d, frame_bytes(mtu as u64), ACK_BYTES).0)
        .max()
}

/// The lowest slot free on both cores.
fn pick_slot(free: &[Vec<bool>], a: usize, b: usize) -> Option<usize> {
    (0..SLOTS).find(|&k| free[a][k] && free[b][k])
}

/// Runs `spec`; `progress(cycles since time 0)` is called every 1,000 cycles.
pub fn run(spec: &Spec, progress: &mut dyn FnMut(u64)) -> Result<Run, String> {
    run_window(spec, None, progress)
}

/// `run` with the hosts' window (`netsim_lane`) cut to at most `window` cycles: 1 steps hosts
/// and network together every cycle. For the test that the window changes nothing.
pub fn run_window(spec: &Spec, window: Option<u64>, progress: &mut dyn FnMut(u64)) -> Result<Run, String> {
    match spec.nic {
        NicKind::Rtl => run_on(Net::new(spec.topo.clone(), &spec.net, &|_| Core::new(None))?, spec, window, progress),
        NicKind::Model => run_on(Net::new(spec.topo.clone(), &spec.net, &|_| Core::model())?, spec, window, progress),
        NicKind::Mix(k) => run_on(Net::new(spec.topo.clone(), &spec.net, &|h| Core::any(h < k))?, spec, window, progress),
    }
}

/// Runs `spec` (its `nic` not read) on the NICs `make` gives each host (by host index): for
/// benchmarks that drive a kind `NicKind` does not name, such as Verilated cores unchecked.
pub fn run_with<M: CoreDut + Send>(spec: &Spec, make: &dyn Fn(usize) -> Core<M>, progress: &mut dyn FnMut(u64)) -> Result<Run, String> {
    run_on(Net::new(spec.topo.clone(), &spec.net, make)?, spec, None, progress)
}

fn run_on<M: CoreDut + Send>(mut n: Net<M>, spec: &Spec, window: Option<u64>, progress: &mut dyn FnMut(u64)) -> Result<Run, String> {
    let routes = spec.topo.routes();
    let host_of = n.host_of.clone();
    let index = |node: usize| host_of.get(node).copied().flatten().ok_or(format!("node {node} is not a host"));
    if spec.algs.len() != spec.flows.len() || spec.algs.iter().any(|&a| a > 3) {
        return Err(format!("{} algorithm codes (each 0-3) for {} flows", spec.algs.len(), spec.flows.len()));
    }
    // Per flow: its cores; its path's base RTT at full frames and bottleneck (the window); its
    // standalone FCT, whose base RTT serializes the flow's own first frame (a flow under one
    // MTU sends a shorter one, and would otherwise be held to a time it cannot need).
    let mut ends = Vec::with_capacity(spec.flows.len());
    let mut path = Vec::with_capacity(spec.flows.len());
    let mut standalone = Vec::with_capacity(spec.flows.len());
    for f in &spec.flows {
        ends.push((index(f.src)?, index(f.dst)?));
        path.push(base_path(&spec.topo, &routes, f.src, f.dst, frame_bytes(spec.mtu as u64), ACK_BYTES));
        let first = frame_bytes(f.size.min(spec.mtu as u64));
        let (rtt, bps) = base_path(&spec.topo, &routes, f.src, f.dst, first, ACK_BYTES);
        standalone.push(standalone_ns(rtt, f.size, bps));
    }
    // Queue pairs first: a slot per flow, free on both its cores.
    let mut free = vec![vec![true; SLOTS]; n.hosts.len()];
    let mut slot = Vec::with_capacity(spec.flows.len());
    for (i, f) in spec.flows.iter().enumerate() {
        let (s, d) = ends[i];
        if f.size > u32::MAX as u64 {
            return Err(format!("flow {i}: {} bytes; a WRITE is at most {} bytes", f.size, u32::MAX));
        }
        let k = pick_slot(&free, s, d).ok_or(format!("flow {i}: hosts {} and {} have no queue pair free on both ({SLOTS} per core; not reused yet)", f.src, f.dst))?;
        free[s][k] = false;
        free[d][k] = false;
        slot.push(k);
    }
    let pkt_shift = spec.mtu.trailing_zeros();
    for k in 0..n.cores.len() {
        configure(&mut n.cores[k], &spec.model, pkt_shift, 16);
        n.settle(k);
    }
    for i in 0..spec.flows.len() {
        let ((s, d), (rtt, bps)) = (ends[i], path[i]);
        // HPCC++ and Rx-HPCC start at W_init = BDP of the flow's path; LDCP and DCQCN with a
        // window that does not bind (their Updates set rate and window).
        let bdp = (rtt as u128 * bps as u128 / 8_000_000_000) as u32;
        let alg = spec.algs[i];
        let window = if alg <= 1 { bdp.max(spec.mtu as u32) } else { 1 << 20 };
        n.connect_at(s, d, slot[i] as u16, alg, spec.mtu, alg <= 1, window, 0);
    }
    let t0 = n.cycle;
    let ns = spec.net.ns_per_cycle;
    let end = t0 + spec.max_cycles;
    let ports = n.net.ports();
    let mut samples = Vec::new();
    let mut sent_prev = vec![0u64; ports.len()];
    let mut busy: Vec<Option<(usize, usize)>> = vec![None; ports.len()];
    let mut by_slot = vec![vec![usize::MAX; SLOTS]; n.cores.len()];
    for i in 0..spec.flows.len() {
        by_slot[ends[i].0][slot[i]] = i;
    }
    // Each host's posts, due the first cycle whose time since t0 reaches the flow's start.
    let mut due: Vec<VecDeque<Due>> = vec![VecDeque::new(); n.cores.len()];
    for (i, f) in spec.flows.iter().enumerate() {
        let k = slot[i] as u16;
        let w = Post { local_addr: 0, remote_addr: 0x1000_0000 * k as u64, rkey: 0, len: f.size as u32, first_psn: 0 };
        due[ends[i].0].push_back((t0 + f.start_ns.div_ceil(ns), i, k, TxCtrl::Post { flow: k, post: w }.to_bytes()));
    }
    let mut lanes: Vec<Lane<M>> = std::mem::take(&mut n.cores)
        .into_iter()
        .zip(due)
        .enumerate()
        .map(|(k, (c, d))| Lane::new(c, ChaCha8Rng::seed_from_u64(spec.net.seed ^ 0x1a2e ^ (k as u64) << 24), d))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(spec.threads).build().map_err(|e| format!("threads: {e}"))?;
    let natural = netsim_lane::window_cycles(&spec.topo, ns);
    let window = window.map_or(natural, |w| w.clamp(1, natural));
    let mut flow_bytes: Vec<Vec<(u32, u64)>> = vec![vec![]; spec.flows.len()];
    let mut ended = 0usize;
    let mut records = Vec::new();
    let mut failed = Vec::new();
    let mut cursor = vec![(0usize, 0usize); lanes.len()];
    let mut cycle = t0;
    'run: while ended < spec.flows.len() && cycle < end {
        let to = (cycle + window).min(end);
        lanes.iter_mut().for_each(Lane::start_window);
        for now in cycle..to {
            for (node, frame) in n.net.deliver(now) {
                lanes[host_of[node].unwrap()].inbox.push((now, frame));
            }
            for (node, on) in n.net.host_pauses(now) {
                lanes[host_of[node].unwrap()].pauses.push((now, on));
            }
        }
        if spec.threads == 1 {
            lanes.iter_mut().for_each(|l| l.run(cycle, to));
        } else {
            pool.install(|| lanes.par_iter_mut().for_each(|l| l.run(cycle, to)));
        }
        cursor.iter_mut().for_each(|c| *c = (0, 0));
        // The network replays the window cycle by cycle, in host order.
        for now in cycle..to {
            for (k, l) in lanes.iter_mut().enumerate() {
                while let Some((_, f)) = l.out.get_mut(cursor[k].0).filter(|x| x.0 == now) {
                    cursor[k].0 += 1;
                    let f = std::mem::take(f);
                    if let Ok(p) = RocePacket::parse(&f) {
                        // The requester's frames (QPN = slot on both ends): the responder's
                        // ACKs are not in by_slot (a slot is the flow's on both cores).
                        let i = by_slot[k].get(p.bth.dest_qp as usize).copied().unwrap_or(usize::MAX);
                        if i != usize::MAX {
                            let at = samples.len() as u32;
                            let wire = wire_bytes(f.len());
                            match flow_bytes[i].last_mut() {
                                Some((s, b)) if *s == at => *b += wire,
                                _ => flow_bytes[i].push((at, wire)),
                            }
                        }
                    }
                    n.net.send(n.hosts[k], f, now);
                }
            }
            n.net.tick(now);
            for (k, l) in lanes.iter().enumerate() {
                if let Some((_, id, err)) = l.refused.filter(|r| r.0 == now) {
                    return Err(format!("core {k}: the post of flow {id} was refused (error {err:#x})"));
                }
            }
            for (k, l) in lanes.iter().enumerate() {
                while let Some(&(_, raw)) = l.cpls.get(cursor[k].1).filter(|x| x.0 == now) {
                    cursor[k].1 += 1;
                    let cpl = Cpl::of(raw);
                    let i = by_slot[k][cpl.flow as usize];
                    if i == usize::MAX {
                        return Err(format!("core {k}: a completion of flow {} that no flow of the list posted", cpl.flow));
                    }
                    ended += 1;
                    if cpl.status != csr::CPL_OK {
                        failed.push(i);
                        continue;
                    }
                    let f = spec.flows[i].clone();
                    let fct_ns = (now + 1 - t0) * ns - f.start_ns;
                    records.push(FctRecord { standalone_ns: standalone[i], sport: slot[i] as u16, fct_ns, flow: f });
                }
            }
            let t = now + 1 - t0;
            if t % spec.sample_cycles == 0 {
                let q: Vec<u64> = ports.iter().map(|&(s, l)| n.net.queue_bytes(s, l).unwrap()).collect();
                for (p, &(s, l)) in ports.iter().enumerate() {
                    let sent = n.net.port_stats(s, l).unwrap().tx_wire_bytes;
                    if sent > sent_prev[p] {
                        let at = samples.len();
                        busy[p] = Some((busy[p].map_or(at, |b| b.0), at));
                    }
                    sent_prev[p] = sent;
                }
                samples.push((t * ns, q));
            }
            if t % 1000 == 0 {
                progress(t);
            }
            if ended == spec.flows.len() {
                cycle = now + 1;
                break 'run;
            }
        }
        cycle = to;
    }
    n.cycle = cycle;
    n.cores = lanes.into_iter().map(|l| l.core).collect();
    let stats: Vec<PortStats> = ports.iter().map(|&(s, l)| n.net.port_stats(s, l).unwrap()).collect();
    let top = (0..ports.len()).max_by_key(|&p| stats[p].tx_wire_bytes).filter(|&p| stats[p].tx_wire_bytes > 0);
    let (mut utilization, mut bottleneck_mean_queue) = (0.0, 0.0);
    if let Some((p, (a, b))) = top.and_then(|p| busy[p].map(|span| (p, span))) {
        let span_ns = ((b - a + 1) as u64 * spec.sample_cycles * ns) as f64;
        let bytes_per_ns = spec.topo.links[ports[p].1].bps as f64 / 8e9;
        utilization = stats[p].tx_wire_bytes as f64 / (span_ns * bytes_per_ns);
        bottleneck_mean_queue = samples[a..=b].iter().map(|s| s.1[p] as f64).sum::<f64>() / (b - a + 1) as f64;
    }
    let probe_problems = n.cores.iter().enumerate().flat_map(|(k, c)| super::core_probe::problems(c).into_iter().map(move |m| format!("core {k}: {m}"))).collect();
    Ok(Run {
        incomplete: spec.flows.len() - ended,
        records,
        failed,
        bottleneck: top.map(|p| ports[p]),
        ports,
        samples,
        flow_bytes,
        stats,
        utilization,
        bottleneck_mean_queue,
        lost: n.net.lost,
        unroutable: n.net.unroutable(),
        cycles: n.cycle - t0,
        setup_cycles: t0,
        probe_problems,
    })
}

impl Run {
    /// The bottleneck's queue: from its peak until it first holds less than `below` bytes,
    /// ns (None: no bottleneck, or it never fell that low).
    pub fn drain_ns(&self, below: u64) -> Option<u64> {
        let p = self.ports.iter().position(|&x| Some(x) == self.bottleneck)?;
        let (peak, _) = self.samples.iter().enumerate().max_by_key(|(i, s)| (s.1[p], std::cmp::Reverse(*i)))?;
        let end = self.samples[peak..].iter().find(|s| s.1[p] < below)?;
        Some(end.0 - self.samples[peak].0)
    }

    /// Jain's fairness index, (sum x)^2 / (n sum x^2), of the bytes each flow sent while all
    /// of them were sending: from the last flow's first interval to the first flow's last
    /// (None: fewer than two flows, or no such overlap).
    pub fn jain(&self) -> Option<f64> {
        let spans: Vec<(u32, u32)> = self.flow_bytes.iter().filter_map(|v| Some((v.first()?.0, v.last()?.0))).collect();
        if spans.len() < 2 || spans.len() < self.flow_bytes.len() {
            return None;
        }
        let (from, to) = (spans.iter().map(|s| s.0).max()?, spans.iter().map(|s| s.1).min()?);
        if from > to {
            return None;
        }
        let x: Vec<f64> = self.flow_bytes.iter().map(|v| v.iter().filter(|(k, _)| (from..=to).contains(k)).map(|(_, b)| *b as f64).sum()).collect();
        let (sum, sq) = (x.iter().sum::<f64>(), x.iter().map(|v| v * v).sum::<f64>());
        (sq > 0.0).then(|| sum * sum / (x.len() as f64 * sq))
    }
}
