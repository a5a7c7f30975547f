//! Two NICs joined by a wire in each direction: fixed delay plus seeded loss, reordering and
//! corruption. Frames cross as bytes, so every packet goes through `RocePacket::build` and
//! `parse`.

use super::{Nic, QpConfig, QpError};
use std::collections::BTreeMap;

/// xorshift64*: small, deterministic, good enough for fault injection and test data.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator; every seed (0 included) gives a different nonzero state.
    pub fn new(seed: u64) -> Self {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// True with probability `ppm` / 1e6.
    pub fn chance(&mut self, ppm: u32) -> bool {
        self.next_u64() % 1_000_000 < ppm as u64
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// One direction of the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireConfig {
    /// Cycles from send to delivery.
    pub delay: u64,
    /// Frames dropped, per million.
    pub loss_ppm: u32,
    /// Frames held back by 1..=`reorder_extra` more cycles, per million: later frames overtake.
    pub reorder_ppm: u32,
    pub reorder_extra: u64,
    /// Frames with one bit flipped (then dropped by the receiver's ICRC check), per million.
    pub corrupt_ppm: u32,
    pub seed: u64,
}

impl WireConfig {
    /// A wire that only delays.
    pub fn ideal(delay: u64) -> Self {
        WireConfig {
            delay,
            loss_ppm: 0,
            reorder_ppm: 0,
            reorder_extra: 0,
            corrupt_ppm: 0,
            seed: 0,
        }
    }
}

/// What a wire did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WireStats {
    pub sent: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub reordered: u64,
    pub corrupted: u64,
}

/// A one-way wire.
#[derive(Clone, Debug)]
pub struct Wire {
    cfg: WireConfig,
    rng: XorShift,
    /// Frames by (arrival cycle, send order).
    in_flight: BTreeMap<(u64, u64), Vec<u8>>,
    seq: u64,
    pub stats: WireStats,
}

impl Wire {
    pub fn new(cfg: WireConfig) -> Self {
        Wire {
            cfg,
            rng: XorShift::new(cfg.seed),
            in_flight: BTreeMap::new(),
            seq: 0,
            stats: WireStats::default(),
        }
    }

    /// Puts a frame on the wire at cycle `now`.
    pub fn send(&mut self, now: u64, mut frame: Vec<u8>) {
        self.stats.sent += 1;
        if self.rng.chance(self.cfg.loss_ppm) {
            self.stats.dropped += 1;
            return;
        }
        let mut arrival = now + self.cfg.delay;
        if self.cfg.reorder_extra > 0 && self.rng.chance(self.cfg.reorder_ppm) {
            self.stats.reordered += 1;
            arrival += 1 + self.rng.below(self.cfg.reorder_extra);
        }
        if !frame.is_empty() && self.rng.chance(self.cfg.corrupt_ppm) {
            self.stats.corrupted += 1;
            let bit = self.rng.below(frame.len() as u64 * 8);
            frame[(bit / 8) as usize] ^= 1 << (bit % 8);
        }
        self.in_flight.insert((arrival, self.seq), frame);
        self.seq += 1;
    }

    /// Frames arriving by cycle `now`, in arrival order.
    pub fn deliver(&mut self, now: u64) -> Vec<Vec<u8>> {
        let later = self.in_flight.split_off(&(now + 1, 0));
        let due = std::mem::replace(&mut self.in_flight, later);
        self.stats.delivered += due.len() as u64;
        due.into_values().collect()
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }
}

/// Both ends of one RC connection between `Link::a` and `Link::b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connection {
    pub qpn_a: u32,
    pub qpn_b: u32,
    pub flow_a: u16,
    pub flow_b: u16,
    pub mtu: u32,
    /// First PSN A sends (and B expects).
    pub psn_a: u32,
    /// First PSN B sends (and A expects).
    pub psn_b: u32,
    /// Initial window and rate of both flows.
    pub window: u32,
    pub rate: u32,
}

/// Two NICs and the wires between them, stepped together.
pub struct Link {
    pub a: Nic,
    pub b: Nic,
    /// a -> b.
    pub ab: Wire,
    /// b -> a.
    pub ba: Wire,
    cycle: u64,
}

impl Link {
    pub fn new(a: Nic, b: Nic, ab: WireConfig, ba: WireConfig) -> Self {
        Link {
            a,
            b,
            ab: Wire::new(ab),
            ba: Wire::new(ba),
            cycle: 0,
        }
    }

    /// Cycles stepped.
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Creates the two QPs of a connection (neither if either is refused).
    pub fn connect(&mut self, c: &Connection) -> Result<(), QpError> {
        let end = |qpn, dest_qpn, flow, send_psn, recv_psn, peer: &Nic| QpConfig {
            qpn,
            dest_qpn,
            flow,
            mtu: c.mtu,
            send_psn,
            recv_psn,
            peer_mac: peer.config().mac,
            peer_ip: peer.config().ip,
            window: c.window,
            rate: c.rate,
        };
        let qa = end(c.qpn_a, c.qpn_b, c.flow_a, c.psn_a, c.psn_b, &self.b);
        let qb = end(c.qpn_b, c.qpn_a, c.flow_b, c.psn_b, c.psn_a, &self.a);
        self.a.create_qp(qa)?;
        if let Err(e) = self.b.create_qp(qb) {
            self.a.destroy_qp(c.qpn_a).expect("just created");
            return Err(e);
        }
        Ok(())
    }

    /// One clock for both NICs and both wires.
    pub fn step(&mut self) {
        let to_a = self.ba.deliver(self.cycle);
        let to_b = self.ab.deliver(self.cycle);
        for f in self.a.step(to_a) {
            self.ab.send(self.cycle, f);
        }
        for f in self.b.step(to_b) {
            self.ba.send(self.cycle, f);
        }
        self.cycle += 1;
    }

    /// Steps until `done` holds (true) or `max_cycles` have passed (false).
    pub fn run_until(&mut self, max_cycles: u64, mut done: impl FnMut(&Link) -> bool) -> bool {
        for _ in 0..max_cycles {
            if done(self) {
                return true;
            }
            self.step();
        }
        done(self)
    }

    /// Both NICs idle and nothing on the wires.
    pub fn is_idle(&self) -> bool {
        self.a.is_idle() && self.b.is_idle() && self.ab.is_empty() && self.ba.is_empty()
    }
}
