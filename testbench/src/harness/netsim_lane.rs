//! One host of a `netsim` run between two exchanges with the network: its NIC, its post
//! queue and random stream, and what it did, cycle by cycle. The hosts of a window touch
//! nothing shared, so rayon runs them on any threads in any order; the network then replays
//! the window one cycle at a time in host order (`netsim::run_on`), which is why a run's
//! outputs do not depend on the thread count.
//!
//! Why a window can run ahead: every frame a host receives in the cycles [t, t + L) left its
//! switch before t when L is at most the delay of every host link (a switch port's frame
//! reaches the host `delay` cycles after its last byte out, and that is no earlier than the
//! cycle the port started it; a PFC pause from the switch likewise takes the link's delay).
//! So the network's deliveries (frames and pauses) for a whole window are known
//! before the hosts run it, and what the hosts send reaches the network in the same order
//! and at the same cycles as when everything is stepped cycle by cycle.

use super::hpcc_nic_core::{Core, CoreDut};
use super::nic_datapath::Side;
use super::poster::Poster;
use rand_chacha::ChaCha8Rng;
use sim::rx_pipe::beats;
use std::collections::VecDeque;

/// A post the application makes: (first cycle it is due, flow index, QP slot, tx_ctx post).
pub type Due = (u64, usize, u16, [u8; 64]);

/// See the module doc.
pub struct Lane<M: CoreDut> {
    pub core: Core<M>,
    poster: Poster,
    /// The host's own stream: a shared one would make the draws depend on host order.
    /// (netsim's streams never stall, so no draw changes what a core does.)
    rng: ChaCha8Rng,
    /// This host's posts not yet handed to the poster, by due cycle.
    due: VecDeque<Due>,
    /// Completions already taken from `core.completions`.
    seen: usize,
    /// This window: the frames the network delivers, (cycle, frame) in delivery order.
    pub inbox: Vec<(u64, Vec<u8>)>,
    /// This window: PFC pauses and resumes reaching the host's MAC, (cycle, paused).
    pub pauses: Vec<(u64, bool)>,
    /// This window: the frames the core sent, (cycle, frame) in order.
    pub out: Vec<(u64, Vec<u8>)>,
    /// This window: completions out of the core, (cycle, `m_axis_cpl_tdata`).
    pub cpls: Vec<(u64, u64)>,
    /// A post the core refused: (cycle, flow index, error code). The lane stops there.
    pub refused: Option<(u64, usize, u32)>,
}

impl<M: CoreDut> Lane<M> {
    pub fn new(core: Core<M>, rng: ChaCha8Rng, due: VecDeque<Due>) -> Lane<M> {
        Lane { core, poster: Poster::default(), rng, due, seen: 0, inbox: vec![], pauses: vec![], out: vec![], cpls: vec![], refused: None }
    }

    /// Clears the window's records (the inbox is filled for the next window after this).
    pub fn start_window(&mut self) {
        self.inbox.clear();
        self.pauses.clear();
        self.out.clear();
        self.cpls.clear();
    }

    /// Cycles `from..to`: per cycle the posts due, the frames delivered, one clock of the
    /// core, then the poster (after the clock, as a driver reads what the clock answered).
    pub fn run(&mut self, from: u64, to: u64) {
        let mut inbox = std::mem::take(&mut self.inbox).into_iter().peekable();
        let mut pauses = std::mem::take(&mut self.pauses).into_iter().peekable();
        for now in from..to {
            if self.refused.is_some() {
                break;
            }
            while self.due.front().is_some_and(|d| d.0 <= now) {
                let (_, id, flow, tx) = self.due.pop_front().unwrap();
                self.poster.push(id, flow, tx, id as u16);
            }
            while let Some((_, f)) = inbox.next_if(|x| x.0 == now) {
                self.core.host.receive(beats(&f));
            }
            while let Some((_, on)) = pauses.next_if(|x| x.0 == now) {
                self.core.host.paused = on;
            }
            for f in self.core.clock(now, &mut self.rng, 0.0) {
                self.out.push((now, f));
            }
            if let Err(e) = self.poster.step(&mut self.core) {
                self.refused = Some((now, e.id, e.err));
            }
            while self.seen < self.core.completions.len() {
                self.cpls.push((now, self.core.completions[self.seen]));
                self.seen += 1;
            }
        }
        assert!(inbox.next().is_none() || self.refused.is_some(), "a delivery outside its window");
    }
}

/// The window for `topo`'s host links, cycles: the shortest delay of a link with a host on
/// it, at least 1 (the `Network` refuses delays that are not whole cycles).
pub fn window_cycles(topo: &sim::net::topo::Topology, ns_per_cycle: u64) -> u64 {
    topo.hosts().iter().map(|&h| topo.host_link(h).delay_ns / ns_per_cycle).min().unwrap_or(1).max(1)
}
