//! An output-queued switch for RoCEv2 frames (issue 13's congestion tests; the network of
//! issue 15 grows from it). Time is in clock cycles of the NICs (`ns_per_cycle` converts for
//! the telemetry timestamps).
//!
//! - Routing: by destination IPv4 address, to one port or, where several paths are equally
//!   short (`route_ecmp`), to one of them chosen per flow by a hash of the frame's addresses,
//!   UDP source port and destination QP (ECMP: a flow's frames keep their order).
//! - Per egress port: a FIFO of frames and its length in bytes; a frame that would take the
//!   queue past `buffer_bytes` is dropped and counted.
//! - ECN: RED on enqueue for ECN-capable frames, on the egress queue's length before the frame
//!   (`kmin` / `kmax` / `pmax`, as DCQCN deployments configure switches): never below kmin,
//!   always at or above kmax, linearly between with up to pmax.
//! - Serialization: a port sends one frame at a time at `bytes_per_cycle` wire bytes (frame +
//!   FCS, padded to 64, + 20 bytes of preamble and gap), so a frame started at t leaves
//!   completely at t + wire / rate. Every port has the configuration's rate unless set
//!   (`set_port_rate`: a 400 Gb/s uplink beside 100 Gb/s host ports).
//! - Telemetry: when a frame with a collecting header (HPCC++ data, probes) starts on its egress
//!   port, one hop is pushed in the project's layout (`IntHop`: timestamp, the port's
//!   transmitted-byte counter including this frame, its queue length, the line rate), as an
//!   INT-capable switch writes it at egress.
//! - PFC (optional, `Pfc`): one lossless class (every frame): per ingress port, the bytes of
//!   its frames still queued anywhere in the switch; at `xoff_bytes` the switch asks the
//!   port's upstream sender to pause (`pfc_changes`, which the network delivers after the
//!   link's delay), at `xon_bytes` or less to resume. A paused egress port finishes the frame
//!   it is sending and starts no other (`set_paused`).

use crate::packet::{Ecn, IntHop, LineRate, RocePacket};
use std::collections::{HashMap, VecDeque};

/// Wire bytes of a frame of `len` bytes without FCS: + 4 FCS, at least 64, + 20 preamble and
/// inter-frame gap.
pub fn wire_bytes(len: usize) -> u64 {
    (len as u64 + 4).max(64) + 20
}

/// RED marking thresholds, bytes, and the marking probability at kmax.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Red {
    pub kmin: u64,
    pub kmax: u64,
    pub pmax: f64,
}

/// PFC thresholds per ingress port, bytes queued (`xon_bytes` < `xoff_bytes`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pfc {
    pub xoff_bytes: u64,
    pub xon_bytes: u64,
}

/// The switch's parameters.
#[derive(Clone, Debug)]
pub struct SwitchConfig {
    /// Line rate of every port, wire bytes per cycle (100 Gb/s at 250 MHz: 50).
    pub bytes_per_cycle: f64,
    /// The line rate written into telemetry hops.
    pub line_rate: LineRate,
    /// ns per cycle, for the hops' timestamps.
    pub ns_per_cycle: u64,
    /// Egress queue limit per port, bytes.
    pub buffer_bytes: u64,
    /// ECN marking; None: never mark.
    pub red: Option<Red>,
    /// PFC; None: off (a full queue drops).
    pub pfc: Option<Pfc>,
}

impl SwitchConfig {
    /// 100 Gb/s ports at 250 MHz, 4 MB of buffer per port (drops are the exception, not the
    /// control), RED as in the HPCC paper's DCQCN runs at 100 Gb/s: kmin 100 KB, kmax 400 KB,
    /// pmax 0.2.
    pub fn g100() -> SwitchConfig {
        SwitchConfig {
            bytes_per_cycle: 50.0,
            line_rate: LineRate::G100,
            ns_per_cycle: 4,
            buffer_bytes: 4 << 20,
            red: Some(Red { kmin: 100_000, kmax: 400_000, pmax: 0.2 }),
            pfc: None,
        }
    }
}

struct Port {
    /// Frames and the ingress port each came in on (`NO_PORT`: not known).
    queue: VecDeque<(Vec<u8>, usize)>,
    /// Held by a PAUSE from downstream, and the cycles it held a frame back.
    paused: bool,
    paused_cycles: u64,
    /// Bytes queued (frame lengths, as INT reports them).
    bytes: u64,
    /// The port is busy sending until this cycle (fractional: the rate need not divide).
    free_at: f64,
    /// Wire bytes sent since the start (the INT txBytes counter).
    tx_bytes: u64,
    /// Largest queue seen, and queue bytes summed over the cycles sampled.
    max_bytes: u64,
    sum_bytes: u128,
    samples: u64,
    /// Wire bytes sent since the last `take_busy`.
    sent_window: u64,
    /// The port's rate (wire bytes per cycle) and the rate its telemetry hops report.
    bytes_per_cycle: f64,
    line_rate: LineRate,
}

/// Counters of one port.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PortStats {
    pub max_queue_bytes: u64,
    pub mean_queue_bytes: f64,
    pub tx_wire_bytes: u64,
    pub dropped: u64,
    pub marked: u64,
    /// PAUSEs (XOFF) sent upstream for frames that came in on this port.
    pub pauses: u64,
    /// Cycles this egress port held a waiting frame because it was paused.
    pub paused_cycles: u64,
}

/// An ingress port `enqueue_from` was not told.
pub const NO_PORT: usize = usize::MAX;

/// See the module doc.
pub struct Switch {
    pub cfg: SwitchConfig,
    ports: Vec<Port>,
    /// Egress ports by destination: one, or the equal-cost choices.
    routes: HashMap<[u8; 4], Vec<usize>>,
    dropped: Vec<u64>,
    marked: Vec<u64>,
    /// Frames with no route or that do not parse: dropped.
    pub unroutable: u64,
    rng: u64,
    /// Per ingress port: bytes of its frames queued, it has asked upstream to pause, PAUSEs.
    ingress_bytes: Vec<u64>,
    xoff: Vec<bool>,
    pauses: Vec<u64>,
}

impl Switch {
    /// A switch with `ports` ports and no routes yet; `seed` drives the RED coin.
    pub fn new(cfg: SwitchConfig, ports: usize, seed: u64) -> Switch {
        let (bytes_per_cycle, line_rate) = (cfg.bytes_per_cycle, cfg.line_rate);
        Switch {
            cfg,
            ports: (0..ports)
                .map(|_| Port {
                    queue: VecDeque::new(),
                    paused: false,
                    paused_cycles: 0,
                    bytes: 0,
                    free_at: 0.0,
                    tx_bytes: 0,
                    max_bytes: 0,
                    sum_bytes: 0,
                    samples: 0,
                    sent_window: 0,
                    bytes_per_cycle,
                    line_rate,
                })
                .collect(),
            routes: HashMap::new(),
            dropped: vec![0; ports],
            marked: vec![0; ports],
            unroutable: 0,
            rng: seed | 1,
            ingress_bytes: vec![0; ports],
            xoff: vec![false; ports],
            pauses: vec![0; ports],
        }
    }

    /// Frames to `ip` leave on `port`.
    pub fn route(&mut self, ip: [u8; 4], port: usize) {
        self.routes.insert(ip, vec![port]);
    }

    /// Frames to `ip` leave on one of `ports` (not empty), chosen per flow.
    pub fn route_ecmp(&mut self, ip: [u8; 4], ports: Vec<usize>) {
        assert!(!ports.is_empty(), "a route needs a port");
        self.routes.insert(ip, ports);
    }

    /// Port `k` sends at `bytes_per_cycle` and reports `line_rate` in its telemetry hops.
    pub fn set_port_rate(&mut self, k: usize, bytes_per_cycle: f64, line_rate: LineRate) {
        self.ports[k].bytes_per_cycle = bytes_per_cycle;
        self.ports[k].line_rate = line_rate;
    }

    /// The ECMP choice among `n` ports for packet `p`'s flow (FNV-1a over its addresses, UDP
    /// source port and destination QP).
    fn flow_pick(p: &RocePacket, n: usize) -> usize {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let key = [&p.ip.src[..], &p.ip.dst[..], &p.udp_src_port.to_be_bytes(), &p.bth.dest_qp.to_be_bytes()];
        for b in key.concat() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        (h % n as u64) as usize
    }

    /// A uniform number in [0, 1) (xorshift64*: the switch needs no crate for its coin).
    fn coin(&mut self) -> f64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A frame arrives (fully received) at `now`: routed, marked by RED, queued or dropped.
    pub fn enqueue(&mut self, frame: Vec<u8>) {
        self.enqueue_from(frame, NO_PORT)
    }

    /// `enqueue`, for a frame that came in on port `ingress` (PFC counts it there).
    pub fn enqueue_from(&mut self, frame: Vec<u8>, ingress: usize) {
        let Ok(mut p) = RocePacket::parse(&frame) else {
            self.unroutable += 1;
            return;
        };
        let Some(ports) = self.routes.get(&p.ip.dst) else {
            self.unroutable += 1;
            return;
        };
        let out = ports[Self::flow_pick(&p, ports.len())];
        let q = self.ports[out].bytes;
        if q + frame.len() as u64 > self.cfg.buffer_bytes {
            self.dropped[out] += 1;
            return;
        }
        let mut frame = frame;
        if let Some(red) = self.cfg.red {
            let ect = matches!(p.ip.ecn, Ecn::Ect0 | Ecn::Ect1);
            let mark = ect
                && if q >= red.kmax {
                    true
                } else if q > red.kmin {
                    let prob = red.pmax * (q - red.kmin) as f64 / (red.kmax - red.kmin) as f64;
                    self.coin() < prob
                } else {
                    false
                };
            if mark {
                p.ip.ecn = Ecn::Ce;
                frame = p.build();
                self.marked[out] += 1;
            }
        }
        if let Some(b) = self.ingress_bytes.get_mut(ingress) {
            *b += frame.len() as u64;
        }
        let port = &mut self.ports[out];
        port.bytes += frame.len() as u64;
        port.queue.push_back((frame, ingress));
    }

    /// PFC after a cycle: the ingress ports that cross a threshold, (port, true: pause /
    /// false: resume), each sent once per crossing. Empty without PFC.
    pub fn pfc_changes(&mut self) -> Vec<(usize, bool)> {
        let Some(p) = self.cfg.pfc else { return vec![] };
        let mut out = vec![];
        for k in 0..self.ports.len() {
            let b = self.ingress_bytes[k];
            if !self.xoff[k] && b >= p.xoff_bytes {
                self.xoff[k] = true;
                self.pauses[k] += 1;
                out.push((k, true));
            } else if self.xoff[k] && b <= p.xon_bytes {
                self.xoff[k] = false;
                out.push((k, false));
            }
        }
        out
    }

    /// A PAUSE (true) or resume from downstream reaches egress port `k`.
    pub fn set_paused(&mut self, k: usize, paused: bool) {
        self.ports[k].paused = paused;
    }

    /// One cycle: every idle port starts its next frame (pushing a telemetry hop into a
    /// collecting header). Returns (port, frame, the cycle its last byte leaves).
    pub fn tick(&mut self, now: u64) -> Vec<(usize, Vec<u8>, u64)> {
        let mut out = vec![];
        let ns = self.cfg.ns_per_cycle;
        for (k, port) in self.ports.iter_mut().enumerate() {
            port.max_bytes = port.max_bytes.max(port.bytes);
            port.sum_bytes += port.bytes as u128;
            port.samples += 1;
            if port.free_at > now as f64 {
                continue;
            }
            if port.paused {
                port.paused_cycles += !port.queue.is_empty() as u64;
                continue;
            }
            let Some((mut frame, ingress)) = port.queue.pop_front() else { continue };
            port.bytes -= frame.len() as u64;
            if let Some(b) = self.ingress_bytes.get_mut(ingress) {
                *b -= frame.len() as u64;
            }
            let wire = wire_bytes(frame.len());
            port.tx_bytes += wire;
            port.sent_window += wire;
            if let Ok(mut p) = RocePacket::parse(&frame) {
                if let Some(t) = p.telemetry.as_mut().filter(|t| !t.echo) {
                    let hop = IntHop::from_counters(now * ns, port.tx_bytes, port.bytes, port.line_rate);
                    if t.push_hop(hop) {
                        frame = p.build();
                    }
                }
            }
            let start = port.free_at.max(now as f64);
            port.free_at = start + wire as f64 / port.bytes_per_cycle;
            out.push((k, frame, port.free_at.ceil() as u64));
        }
        out
    }

    /// Egress port `k`'s queue now, bytes.
    pub fn queue_bytes(&self, k: usize) -> u64 {
        self.ports[k].bytes
    }

    /// Wire bytes port `k` started since the last call (for utilization over a window).
    pub fn take_sent(&mut self, k: usize) -> u64 {
        std::mem::take(&mut self.ports[k].sent_window)
    }

    /// Port `k`'s counters.
    pub fn stats(&self, k: usize) -> PortStats {
        let p = &self.ports[k];
        PortStats {
            max_queue_bytes: p.max_bytes,
            mean_queue_bytes: p.sum_bytes as f64 / p.samples.max(1) as f64,
            tx_wire_bytes: p.tx_bytes,
            dropped: self.dropped[k],
            marked: self.marked[k],
            pauses: self.pauses[k],
            paused_cycles: p.paused_cycles,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::examples;

    fn data_frame(dst: [u8; 4], ecn: Ecn, telemetry: bool) -> Vec<u8> {
        let (_, mut p) = examples()
            .into_iter()
            .find(|(name, p)| name.starts_with("RDMA WRITE") && p.telemetry.is_some() == telemetry)
            .expect("an example WRITE");
        p.ip.dst = dst;
        p.ip.ecn = ecn;
        p.build()
    }

    #[test]
    fn serializes_at_line_rate_marks_by_red_and_writes_a_hop() {
        let cfg = SwitchConfig { red: Some(Red { kmin: 0, kmax: 1, pmax: 1.0 }), ..SwitchConfig::g100() };
        let mut s = Switch::new(cfg, 2, 7);
        s.route([10, 0, 0, 2], 1);
        let f = data_frame([10, 0, 0, 2], Ecn::Ect0, true);
        let wire = wire_bytes(f.len());
        s.enqueue(f.clone());
        s.enqueue(f.clone());
        s.enqueue(data_frame([10, 9, 9, 9], Ecn::Ect0, false));
        assert_eq!((s.queue_bytes(1), s.unroutable), (2 * f.len() as u64, 1));
        let a = s.tick(100);
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].2, 100 + (wire as f64 / 50.0).ceil() as u64);
        let p = RocePacket::parse(&a[0].1).unwrap();
        assert_eq!(p.ip.ecn, Ecn::Ect0, "the first found an empty queue");
        let hop = *p.telemetry.unwrap().hops.last().unwrap();
        assert_eq!((hop.ts, hop.qlen_bytes() <= f.len() as u64), (400, true));
        // The port is busy until the first frame is out.
        assert!(s.tick(101).is_empty());
        let b = s.tick(a[0].2);
        assert_eq!(RocePacket::parse(&b[0].1).unwrap().ip.ecn, Ecn::Ce, "queued behind one: marked");
        assert_eq!(s.stats(1).marked, 1);
        assert_eq!(s.stats(1).tx_wire_bytes, 2 * wire);
    }

    #[test]
    fn drops_past_the_buffer() {
        let cfg = SwitchConfig { buffer_bytes: 3000, red: None, ..SwitchConfig::g100() };
        let mut s = Switch::new(cfg, 1, 1);
        s.route([10, 0, 0, 2], 0);
        let f = data_frame([10, 0, 0, 2], Ecn::Ect0, false);
        let n = 3000 / f.len() as u64;
        for _ in 0..n + 2 {
            s.enqueue(f.clone());
        }
        assert_eq!((s.queue_bytes(0), s.stats(0).dropped), (n * f.len() as u64, 2));
    }

    #[test]
    fn pfc_pauses_an_ingress_at_xoff_resumes_at_xon_and_a_paused_port_holds() {
        let f = data_frame([10, 0, 0, 2], Ecn::NotEct, false);
        let len = f.len() as u64;
        let pfc = Pfc { xoff_bytes: 3 * len, xon_bytes: len };
        let mut s = Switch::new(SwitchConfig { red: None, pfc: Some(pfc), ..SwitchConfig::g100() }, 3, 1);
        s.route([10, 0, 0, 2], 2);
        s.enqueue_from(f.clone(), 0);
        s.enqueue_from(f.clone(), 0);
        s.enqueue_from(f.clone(), 1);
        assert!(s.pfc_changes().is_empty(), "two frames from port 0: below XOFF");
        s.enqueue_from(f.clone(), 0);
        assert_eq!(s.pfc_changes(), [(0, true)]);
        assert!(s.pfc_changes().is_empty(), "one PAUSE per crossing");
        // Paused from downstream, port 2 starts nothing and counts the held cycles.
        s.set_paused(2, true);
        assert!(s.tick(0).is_empty() && s.tick(1).is_empty());
        assert_eq!(s.stats(2).paused_cycles, 2);
        s.set_paused(2, false);
        let mut t = 2;
        let mut sent = 0;
        while sent < 3 {
            sent += s.tick(t).len();
            t += 1;
        }
        // Frames 0, 0, 1 are out: port 0 holds one frame (= XON): resumed.
        assert_eq!(s.pfc_changes(), [(0, false)]);
        assert_eq!((s.stats(0).pauses, s.stats(1).pauses), (1, 0));
    }
}
