//! The network of a topology: one `sim::switch::Switch` per switch node (one port per link,
//! each at its link's rate), links that carry frames both ways with their delay and loss, and
//! routes from `Topology::routes` (ECMP where paths tie). Hosts are outside: they hand frames
//! to `send` and take what `deliver` gives them, so an RTL core and a model NIC plug in alike.
//! Time is in cycles of the NICs' clock (`ns_per_cycle`).
//!
//! One cycle, in this order (the order of `harness::fabric`'s single switch): `deliver(now)`
//! (frames that reached their host by now), the hosts run and `send`, then `tick(now)`
//! (frames that reached a switch by now are queued, every idle port starts its next frame).
//! Links and ports are visited in index order, so a run repeats exactly from its seed.
//!
//! PFC (`NetConfig::pfc`): a switch's PAUSE or resume travels back over the ingress link with
//! the link's delay (the PAUSE frame's own 84 wire bytes are not modelled); at a switch it
//! holds the egress port of that link (applied in `tick`), at a host its MAC
//! (`host_pauses`, taken beside `deliver`: the host must stop at a frame boundary).

use super::host_ip;
use super::topo::Topology;
use crate::nic_model::XorShift;
use crate::packet::LineRate;
use crate::switch::{Pfc, PortStats, Red, Switch, SwitchConfig};
use std::collections::VecDeque;

/// The switches' parameters, the same at every switch.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// ns per cycle (250 MHz: 4).
    pub ns_per_cycle: u64,
    /// Egress queue limit per port, bytes.
    pub buffer_bytes: u64,
    /// ECN marking (RED); None: never mark.
    pub red: Option<Red>,
    /// Seeds the RED coins and the links' loss.
    pub seed: u64,
    /// PFC at every switch; None: off.
    pub pfc: Option<Pfc>,
}

impl NetConfig {
    /// `sim::switch::SwitchConfig::g100`'s buffer and RED at 250 MHz.
    pub fn g100(seed: u64) -> NetConfig {
        let s = SwitchConfig::g100();
        NetConfig { ns_per_cycle: s.ns_per_cycle, buffer_bytes: s.buffer_bytes, red: s.red, seed, pfc: None }
    }
}

/// The telemetry code of a link rate (only the rates a hop record can name).
fn line_rate(bps: u64) -> Option<LineRate> {
    [LineRate::G25, LineRate::G50, LineRate::G100, LineRate::G200, LineRate::G400]
        .into_iter()
        .find(|r| r.bits_per_second() == bps)
}

/// A frame on a link: the cycle it arrives at the far end.
type InFlight = VecDeque<(u64, Vec<u8>)>;

/// See the module doc.
pub struct Network {
    pub topo: Topology,
    /// Per node: its switch (index into `switches`), if it is one.
    switch_of: Vec<Option<usize>>,
    pub switches: Vec<Switch>,
    /// Per switch, per port: the link.
    port_link: Vec<Vec<usize>>,
    /// Per link, both ways: [towards b, towards a].
    wires: Vec<[InFlight; 2]>,
    /// PFC, per link both ways as `wires`: (the cycle it arrives, pause / resume).
    pause_wires: Vec<[VecDeque<(u64, bool)>; 2]>,
    delay: Vec<u64>,
    loss_rng: Vec<XorShift>,
    /// Frames lost on links (their error rate).
    pub lost: u64,
    /// Per node: the link of a host (its only one).
    host_link: Vec<Option<usize>>,
    /// Every (link, direction) that ends at a host, and the host, in link order.
    to_host: Vec<(usize, usize, usize)>,
    /// Every (link, direction) that ends at a switch, the switch and its port on the link, in
    /// link order.
    to_switch: Vec<(usize, usize, usize, usize)>,
}

/// What has reached its host by `now` on `wires` (frames, or PFC changes), over the
/// directions `to_host`: (host node id, item), in that order.
fn arrived<T>(wires: &mut [[VecDeque<(u64, T)>; 2]], to_host: &[(usize, usize, usize)], now: u64) -> Vec<(usize, T)> {
    let mut out = Vec::new();
    for &(l, dir, to) in to_host {
        while wires[l][dir].front().is_some_and(|f| f.0 <= now) {
            out.push((to, wires[l][dir].pop_front().unwrap().1));
        }
    }
    out
}

impl Network {
    /// The network of `topo`; refused if a link's rate has no telemetry code (25, 50, 100,
    /// 200, 400 Gb/s) or its delay is not a whole number of cycles.
    pub fn new(topo: Topology, cfg: &NetConfig) -> Result<Network, String> {
        let n = topo.nodes();
        let hosts = topo.hosts();
        let routes = topo.routes();
        let mut switch_of = vec![None; n];
        let mut switches = Vec::new();
        let mut port_link = Vec::new();
        let mut delay = Vec::new();
        for (i, k) in topo.links.iter().enumerate() {
            if k.delay_ns % cfg.ns_per_cycle != 0 {
                return Err(format!("link {i} ({} - {}): delay {} ns is not a whole number of {} ns cycles", k.a, k.b, k.delay_ns, cfg.ns_per_cycle));
            }
            delay.push(k.delay_ns / cfg.ns_per_cycle);
        }
        for node in 0..n {
            if !topo.is_switch[node] {
                continue;
            }
            let links: Vec<usize> = (0..topo.links.len()).filter(|&i| topo.links[i].a == node || topo.links[i].b == node).collect();
            let sc = SwitchConfig {
                bytes_per_cycle: 0.0,
                line_rate: LineRate::G100,
                ns_per_cycle: cfg.ns_per_cycle,
                buffer_bytes: cfg.buffer_bytes,
                red: cfg.red,
                pfc: cfg.pfc,
            };
            let mut sw = Switch::new(sc, links.len(), cfg.seed ^ (node as u64).wrapping_mul(0x9E37_79B9));
            for (port, &l) in links.iter().enumerate() {
                let bps = topo.links[l].bps;
                let rate = line_rate(bps).ok_or_else(|| format!("link {l}: {bps} b/s has no telemetry line-rate code (25/50/100/200/400 Gb/s)"))?;
                sw.set_port_rate(port, bps as f64 / 8.0 * cfg.ns_per_cycle as f64 / 1e9, rate);
            }
            for (hi, &h) in hosts.iter().enumerate() {
                let ports: Vec<usize> = routes.next[node][hi].iter().map(|l| links.iter().position(|x| x == l).unwrap()).collect();
                sw.route_ecmp(host_ip(h), ports);
            }
            switch_of[node] = Some(switches.len());
            switches.push(sw);
            port_link.push(links);
        }
        let mut host_index = vec![None; n];
        for (i, &h) in hosts.iter().enumerate() {
            host_index[h] = Some(i);
        }
        let mut host_link = vec![None; n];
        for &h in &hosts {
            host_link[h] = Some(topo.host_link_index(h));
        }
        let loss_rng = (0..topo.links.len()).map(|l| XorShift::new(cfg.seed ^ 0x1055 ^ (l as u64) << 32)).collect();
        if let Some(p) = cfg.pfc.filter(|p| p.xon_bytes >= p.xoff_bytes) {
            return Err(format!("PFC: XON {} bytes must be below XOFF {}", p.xon_bytes, p.xoff_bytes));
        }
        let n_links = topo.links.len();
        // Each link's two directions and the node each ends at ([towards b, towards a]).
        let directions = || (0..n_links).flat_map(|l| [(l, 0, topo.links[l].b), (l, 1, topo.links[l].a)]);
        let to_host = directions()
            .filter(|&(_, _, to)| host_index[to].is_some())
            .collect();
        let to_switch = directions()
            .filter_map(|(l, dir, to)| {
                let s = switch_of[to]?;
                Some((l, dir, s, port_link[s].iter().position(|&x| x == l).expect("a switch's link is one of its ports")))
            })
            .collect();
        Ok(Network { wires: (0..n_links).map(|_| Default::default()).collect(), pause_wires: (0..n_links).map(|_| Default::default()).collect(), topo, switch_of, switches, port_link, delay, loss_rng, lost: 0, host_link, to_host, to_switch })
    }

    /// Puts `frame` on the wire from `from` over link `l` at `now`: it arrives `delay` later,
    /// or is lost at the link's error rate.
    fn launch(&mut self, l: usize, from: usize, at: u64, frame: Vec<u8>) {
        let k = &self.topo.links[l];
        let coin = self.loss_rng[l].unit();
        if k.error_rate > 0.0 && coin < k.error_rate {
            self.lost += 1;
            return;
        }
        let dir = usize::from(from != k.a);
        self.wires[l][dir].push_back((at + self.delay[l], frame));
    }

    /// Host `h` (a node id) sends `frame`, its last byte out at `now`.
    pub fn send(&mut self, h: usize, frame: Vec<u8>, now: u64) {
        let l = self.host_link[h].expect("a host has a link");
        self.launch(l, h, now, frame);
    }

    /// Frames that have reached their host by `now`: (host node id, frame), by link order.
    pub fn deliver(&mut self, now: u64) -> Vec<(usize, Vec<u8>)> {
        arrived(&mut self.wires, &self.to_host, now)
    }

    /// PFC changes that have reached their host by `now`: (host node id, paused), by link
    /// order.
    pub fn host_pauses(&mut self, now: u64) -> Vec<(usize, bool)> {
        arrived(&mut self.pause_wires, &self.to_host, now)
    }

    /// PFC changes that reached a switch by `now` take hold; frames that reached a switch by
    /// `now` are queued; every idle port starts its next; PFC thresholds crossed send their
    /// PAUSE or resume upstream.
    pub fn tick(&mut self, now: u64) {
        for &(l, dir, s, port) in &self.to_switch {
            while self.pause_wires[l][dir].front().is_some_and(|f| f.0 <= now) {
                let on = self.pause_wires[l][dir].pop_front().unwrap().1;
                self.switches[s].set_paused(port, on);
            }
            while self.wires[l][dir].front().is_some_and(|f| f.0 <= now) {
                let frame = self.wires[l][dir].pop_front().unwrap().1;
                self.switches[s].enqueue_from(frame, port);
            }
        }
        for node in 0..self.topo.nodes() {
            let Some(s) = self.switch_of[node] else { continue };
            for (port, frame, done) in self.switches[s].tick(now) {
                let l = self.port_link[s][port];
                self.launch(l, node, done, frame);
            }
            for (port, on) in self.switches[s].pfc_changes() {
                let l = self.port_link[s][port];
                let dir = usize::from(node != self.topo.links[l].a);
                self.pause_wires[l][dir].push_back((now + self.delay[l], on));
            }
        }
    }

    /// Switch node `node`'s egress port on link `l`, if it has one.
    fn port(&self, node: usize, l: usize) -> Option<(usize, usize)> {
        let s = self.switch_of[node]?;
        Some((s, self.port_link[s].iter().position(|&x| x == l)?))
    }

    /// The queue of switch `node`'s egress onto link `l`, bytes (None: not a switch port).
    pub fn queue_bytes(&self, node: usize, l: usize) -> Option<u64> {
        self.port(node, l).map(|(s, p)| self.switches[s].queue_bytes(p))
    }

    /// The counters of switch `node`'s egress onto link `l`.
    pub fn port_stats(&self, node: usize, l: usize) -> Option<PortStats> {
        self.port(node, l).map(|(s, p)| self.switches[s].stats(p))
    }

    /// Every switch egress port: (switch node, link).
    pub fn ports(&self) -> Vec<(usize, usize)> {
        (0..self.topo.nodes())
            .filter_map(|n| self.switch_of[n].map(|s| (n, s)))
            .flat_map(|(n, s)| self.port_link[s].iter().map(move |&l| (n, l)))
            .collect()
    }

    /// Nothing on a link and every queue empty.
    pub fn idle(&self) -> bool {
        self.wires.iter().all(|w| w[0].is_empty() && w[1].is_empty())
            && self.pause_wires.iter().all(|w| w[0].is_empty() && w[1].is_empty())
            && self.ports().iter().all(|&(n, l)| self.queue_bytes(n, l) == Some(0))
    }

    /// Frames the switches could not route or parse.
    pub fn unroutable(&self) -> u64 {
        self.switches.iter().map(|s| s.unroutable).sum()
    }
}
