//! Cores on a network, driven as a host driver drives them: what `fabric::Fabric` (one
//! switch) and `netsim::Net` (a topology) share. Each steps every core and its network by one
//! cycle; on top of that step this trait runs a core's register accesses and commands to
//! their end and connects queue pairs.

use super::hpcc_nic_core::{create, Core, CoreDut, Regs};
use crate::verilated::models::HpccNicCore as Rtl;
use hdl::hpcc_nic_core::csr;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::rx_ctx::{Ctrl as RxCtrl, OP_CREATE};
use sim::tx_ctx::{Ctrl as TxCtrl, FlowConfig};

/// 100 Gb/s at 250 MHz, wire bytes per cycle: every core's MAC and its initial rate.
pub const LINE: f64 = 50.0;

pub trait CoreNet<M: CoreDut = Rtl> {
    /// One clock of every core and the network.
    fn step(&mut self);
    /// Core `k`.
    fn core(&mut self, k: usize) -> &mut Core<M>;
    /// Core `k`'s IPv4 address.
    fn ip(&self, k: usize) -> [u8; 4];

    /// Runs until core `k` has answered every queued register access; its results.
    fn settle(&mut self, k: usize) -> Vec<(u32, u32, u8)> {
        for _ in 0..100_000 {
            if self.core(k).csr_idle() {
                return self.core(k).results.drain(..).collect();
            }
            self.step();
        }
        panic!("core {k}: register accesses still pending");
    }

    /// Reads one register of core `k`.
    fn read(&mut self, k: usize, word: u32) -> u32 {
        self.core(k).read(word);
        self.settle(k).last().unwrap().1
    }

    /// Runs core `k`'s queued command to its end; its error code.
    fn command_done(&mut self, k: usize) -> u32 {
        self.settle(k);
        for _ in 0..1000 {
            let s = self.read(k, csr::STATUS);
            if s & csr::STATUS_BUSY == 0 {
                return csr::status_err(s);
            }
        }
        panic!("core {k}: command still running");
    }

    /// A queue pair: requester `flow` on core `src`, responder `flow` on core `dst` (QPN = flow
    /// id on both), algorithm `alg`, MTU `mtu`, telemetry on the requester's data frames,
    /// initial rate at line rate and window `window`, the requester's PSNs (and the
    /// responder's expected PSN) from `psn`.
    #[allow(clippy::too_many_arguments)]
    fn connect_at(&mut self, src: usize, dst: usize, flow: u16, alg: u32, mtu: u16, telemetry: bool, window: u32, psn: u32) {
        let mut rng = ChaCha8Rng::seed_from_u64(flow as u64 ^ (src as u64) << 20);
        for (k, peer, tel) in [(src, dst, telemetry), (dst, src, false)] {
            let side = Side { flow, alg, mtu, telemetry: tel, window, psn, requester: k == src, looped: false };
            let (me, them) = (self.ip(k), self.ip(peer));
            create_side(self.core(k), &mut rng, &side, me, them);
            let e = self.command_done(k);
            assert_eq!(e, csr::ERR_NONE, "create of flow {flow:#x} on core {k}");
        }
    }
}

/// One side of a queue pair, as `CoreNet::connect_at` sets it up.
pub struct Side {
    pub flow: u16,
    pub alg: u32,
    pub mtu: u16,
    /// Telemetry on the data frames (the requester's).
    pub telemetry: bool,
    pub window: u32,
    /// The requester's first PSN (the responder's expected PSN).
    pub psn: u32,
    /// The requester's side, else the responder's.
    pub requester: bool,
    /// Both sides in one NIC whose wire comes back to itself: the requester's first PSN and
    /// the responder's expected PSN both `psn`.
    pub looped: bool,
}

/// Queues the create of `s` on a core at IPv4 address `me` whose peer is `peer` (QPN = flow id
/// on both): a random header to the peer from `rng`, rate at line rate.
pub fn create_side(c: &mut impl Regs, rng: &mut ChaCha8Rng, s: &Side, me: [u8; 4], peer: [u8; 4]) {
    let (epsn, spsn) = match (s.looped, s.requester) {
        (true, _) => (s.psn, s.psn),
        (false, true) => (0, s.psn),
        (false, false) => (s.psn, 0),
    };
    let mut h = super::tx_pipe::header_to(rng, s.flow as u32);
    h.ip.src = me;
    h.ip.dst = peer;
    h.ip.ttl = 64;
    let cfg = FlowConfig { header: h, mtu: s.mtu, telemetry: s.telemetry, probe: false, fast_start: 0, cnp: false };
    let rx = RxCtrl { op: OP_CREATE, qpn: s.flow as u32, epsn, spsn, mtu: s.mtu, addr: 0 }.to_bytes();
    let flow = s.flow;
    create(c, flow, &TxCtrl::Create { flow, cfg }.to_bytes(), &rx, (LINE as u32) << 16, s.window, s.alg);
}
