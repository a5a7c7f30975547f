//! The model of `hdl/src/host/host_queues.rs`, the host queue engine (issue 16, item 3;
//! docs/modules/host_queues.md): per-flow send queues of work descriptors
//! (`layout::HQ_WQE`, 64 bytes) in host memory, rung by a doorbell register; one completion
//! queue of entries (`layout::HQ_CQE`, 16 bytes) in host memory.
//!
//! The engine, one event at a time:
//! - a doorbell sets a queue's producer index; a queue with WQEs it has not fetched and no
//!   message out joins the ready FIFO (once);
//! - [`HostQueues::fetch`] takes the ready FIFO's head and reads its next WQE (a DMA read of 64
//!   bytes through `dma_rd_mux`);
//! - [`HostQueues::wqe`] turns the WQE into a post on the core's post port
//!   (`layout::CORE_POST`): tx_ctx's post word with the queue's next PSN, rx_ctx's READ word
//!   with the queue's QPN for a READ; the PSN moves on by the message's packets. A WQE with
//!   another opcode is not posted: it completes with `CPL_REFUSED` / `ERR_OP`;
//! - [`HostQueues::completion`] turns each of the core's completions into a CQE written to the
//!   completion queue (a DMA write of 16 bytes through `dma_wr_mux`); the flow's message is no
//!   longer out, so its queue may join the ready FIFO again.
//!
//! One message per flow is out at a time (the core's rule): a flow's WQEs run back to back,
//! each posted when the last one's completion has come. Any completion other than `CPL_OK`
//! puts its queue in error: it fetches nothing more until the driver enables it again.

use crate::csr;
use crate::hpcc_nic_core_cpl as cpl;
use crate::layout::{CORE_POST, CPL, HQ_CQE, HQ_WQE};
use crate::rx_ctx::{Ctrl as RxCtrl, OP_READ};
use crate::tx_ctx::{Ctrl as TxCtrl, Post};
use std::collections::VecDeque;

/// Bytes of a WQE and of a CQE.
pub const WQE_BYTES: u64 = 64;
pub const CQE_BYTES: u64 = 16;
/// WQE opcodes (`csr::HQ_WQE_*`).
pub const WQE_WRITE: u8 = csr::HQ_WQE_WRITE as u8;
pub const WQE_READ: u8 = csr::HQ_WQE_READ as u8;
/// A CQE's index for a completion of no WQE (a post the driver made through the registers).
pub const NO_INDEX: u16 = csr::HQ_NO_INDEX as u16;

/// A send queue's configuration (the `SQ_*` registers, applied by enabling the queue).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SqConfig {
    /// Host address of WQE 0 (64-byte aligned).
    pub base: u64,
    /// log2 of the WQEs in the ring, 1..=12.
    pub size_log: u8,
    /// log2 of the flow's MTU (as created in the core), 8..=12: a message's packets.
    pub mtu_log: u8,
    /// The first message's first PSN.
    pub psn: u32,
    /// rx_ctx's QPN of the flow (a READ's rx word).
    pub qpn: u32,
}

#[derive(Clone, Debug, Default)]
struct Sq {
    cfg: SqConfig,
    on: bool,
    /// Producer (the doorbell's) and consumer (WQEs fetched) indices, mod 2^16.
    prod: u16,
    cons: u16,
    psn: u32,
    /// A WQE is being fetched, or its message is out.
    busy: bool,
    /// In the ready FIFO.
    queued: bool,
}

impl Sq {
    /// On, nothing out, a WQE not fetched.
    fn may_fetch(&self) -> bool {
        self.on && !self.busy && self.prod != self.cons
    }
}

/// Why a register write is refused (SLVERR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A flow id past the queue table.
    Flow,
    /// A configuration out of range (ring size, MTU).
    Config,
    /// The queue has a message out: it cannot be reconfigured now.
    Busy,
}

/// A CQE to write: where, and its 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cqe {
    pub addr: u64,
    pub bytes: [u8; 16],
}

/// The engine's state and counters.
pub struct HostQueues {
    flow_bits: usize,
    sq: Vec<Sq>,
    ready: VecDeque<u16>,
    cq_base: u64,
    cq_size_log: u8,
    cq_on: bool,
    /// Producer (entries written) and consumer (the host's `CQ_HEAD`) indices, mod 2^16.
    cq_tail: u16,
    cq_head: u16,
    /// Doorbells ignored: a queue not enabled, or a producer index more than the ring ahead.
    pub db_ignored: u64,
    /// WQEs fetched; CQEs written; completions dropped with the completion queue off.
    pub wqes: u64,
    pub cqes: u64,
    pub cq_dropped: u64,
}

impl HostQueues {
    /// 2^`flow_bits` send queues, all off; the completion queue off.
    pub fn new(flow_bits: usize) -> HostQueues {
        HostQueues {
            flow_bits,
            sq: vec![Sq::default(); 1 << flow_bits],
            ready: VecDeque::new(),
            cq_base: 0,
            cq_size_log: 0,
            cq_on: false,
            cq_tail: 0,
            cq_head: 0,
            db_ignored: 0,
            wqes: 0,
            cqes: 0,
            cq_dropped: 0,
        }
    }

    fn flow(&self, flow: u16) -> Result<usize, Refusal> {
        let f = flow as usize;
        if f >> self.flow_bits != 0 {
            return Err(Refusal::Flow);
        }
        Ok(f)
    }

    /// `SQ_CMD` enable: the queue starts empty (indices 0) with `cfg`; disable: it fetches
    /// nothing more. Refused while its message is out.
    pub fn set_sq(&mut self, flow: u16, cfg: Option<SqConfig>) -> Result<(), Refusal> {
        let f = self.flow(flow)?;
        if self.sq[f].busy {
            return Err(Refusal::Busy);
        }
        if let Some(c) = cfg {
            if !(1..=12).contains(&c.size_log) || !(8..=12).contains(&c.mtu_log) {
                return Err(Refusal::Config);
            }
        }
        let queued = self.sq[f].queued;
        self.sq[f] = Sq { cfg: cfg.unwrap_or_default(), on: cfg.is_some(), psn: cfg.map_or(0, |c| c.psn), queued, ..Sq::default() };
        Ok(())
    }

    /// `CQ_CFG` enable (the queue starts empty, phase 1) or disable.
    pub fn set_cq(&mut self, base: u64, size_log: u8, on: bool) -> Result<(), Refusal> {
        if on && !(1..=15).contains(&size_log) {
            return Err(Refusal::Config);
        }
        (self.cq_base, self.cq_size_log, self.cq_on, self.cq_tail, self.cq_head) = (base, size_log, on, 0, 0);
        Ok(())
    }

    /// `CQ_HEAD`: the host has consumed the entries before `head`.
    pub fn cq_head(&mut self, head: u16) {
        self.cq_head = head;
    }

    /// `CQ_TAIL`: entries written, mod 2^16.
    pub fn cq_tail(&self) -> u16 {
        self.cq_tail
    }

    /// A doorbell: the queue's producer index is `prod`. Ignored (counted) for a queue that
    /// is off or when `prod` is more than the ring ahead of the WQEs fetched.
    pub fn doorbell(&mut self, flow: u16, prod: u16) -> Result<(), Refusal> {
        let f = self.flow(flow)?;
        let q = &mut self.sq[f];
        if !q.on || prod.wrapping_sub(q.cons) > 1 << q.cfg.size_log {
            self.db_ignored += 1;
            return Ok(());
        }
        q.prod = prod;
        self.wake(f);
        Ok(())
    }

    /// The queue joins the ready FIFO if it may fetch and is not in it yet.
    fn wake(&mut self, f: usize) {
        let q = &mut self.sq[f];
        if q.may_fetch() && !q.queued {
            q.queued = true;
            self.ready.push_back(f as u16);
        }
    }

    /// The flow leaves the ready FIFO; if its queue may fetch, the fetch: the queue is busy
    /// from now on, and its next WQE's address.
    fn take(&mut self, f: u16) -> Option<u64> {
        let q = &mut self.sq[f as usize];
        q.queued = false;
        if !q.may_fetch() {
            return None;
        }
        q.busy = true;
        self.wqes += 1;
        Some(self.next_wqe_addr(f))
    }

    /// The next WQE fetch: (flow, host address), the ready FIFO's head; the flow is busy from
    /// now on. A queue disabled while it waited in the FIFO is skipped.
    pub fn fetch(&mut self) -> Option<(u16, u64)> {
        while let Some(f) = self.ready.pop_front() {
            if let Some(a) = self.take(f) {
                return Some((f, a));
            }
        }
        None
    }

    /// The fetch of `flow`, for a test bench whose engine chose it (the RTL's ready FIFO order
    /// follows its own event timing): its WQE's address if the queue may fetch now; the flow
    /// leaves the ready FIFO either way.
    pub fn fetch_of(&mut self, flow: u16) -> Option<u64> {
        self.ready.retain(|&f| f != flow);
        self.take(flow)
    }

    /// The host address of `flow`'s WQE at its consumer index (the one fetched, before
    /// [`HostQueues::wqe`] consumes it).
    pub fn next_wqe_addr(&self, flow: u16) -> u64 {
        let q = &self.sq[flow as usize];
        q.cfg.base + ((q.cons as u64) & ((1 << q.cfg.size_log) - 1)) * WQE_BYTES
    }

    /// The fetched WQE of `flow`: its post on the core's post port, or (a bad opcode) its
    /// refusal's completion word, which goes through [`HostQueues::completion`] like the core's.
    pub fn wqe(&mut self, flow: u16, w: &[u8; 64]) -> Result<[u8; 54], u64> {
        let q = &mut self.sq[flow as usize];
        let (op, tag) = (HQ_WQE.opcode.get_le(w) as u8, HQ_WQE.tag.get_le(w) as u16);
        let len = HQ_WQE.len.get_le(w) as u32;
        q.cons = q.cons.wrapping_add(1);
        if op != WQE_WRITE && op != WQE_READ {
            return Err(cpl::word(flow, tag, csr::CPL_REFUSED, csr::ERR_OP));
        }
        let local = HQ_WQE.local.get_le(w);
        let post = Post { local_addr: local, remote_addr: HQ_WQE.remote.get_le(w), rkey: HQ_WQE.rkey.get_le(w) as u32, len, first_psn: q.psn };
        let npkts = (len as u64).div_ceil(1 << q.cfg.mtu_log).max(1);
        q.psn = ((q.psn as u64 + npkts) & 0xFF_FFFF) as u32;
        let (tx, rx) = if op == WQE_READ {
            let rx = RxCtrl { op: OP_READ, qpn: q.cfg.qpn, epsn: 0, spsn: 0, mtu: 1 << q.cfg.mtu_log, addr: local }.to_bytes();
            (TxCtrl::Read { flow, post }.to_bytes(), Some(rx))
        } else {
            (TxCtrl::Post { flow, post }.to_bytes(), None)
        };
        Ok(post_word(&tx, rx.as_ref(), tag))
    }

    /// The completion queue has room for an entry (or is off: the entry is dropped).
    pub fn cq_room(&self) -> bool {
        !self.cq_on || self.cq_tail.wrapping_sub(self.cq_head) < 1 << self.cq_size_log
    }

    /// A completion word (`layout::CPL`, the core's or a refused WQE's): the CQE to write, if
    /// the completion queue is on (call only when [`HostQueues::cq_room`]). The flow's message
    /// is no longer out; an error puts its queue in error (off).
    pub fn completion(&mut self, cpl: u64) -> Option<Cqe> {
        let flow = CPL.flow.of(cpl as u128) as usize;
        let ok = CPL.status.of(cpl as u128) == csr::CPL_OK as u64;
        let mut index = NO_INDEX;
        if flow >> self.flow_bits == 0 && self.sq[flow].busy {
            let q = &mut self.sq[flow];
            index = q.cons.wrapping_sub(1);
            q.busy = false;
            q.on &= ok;
            self.wake(flow);
        }
        if !self.cq_on {
            self.cq_dropped += 1;
            return None;
        }
        let slot = (self.cq_tail as u64) & ((1 << self.cq_size_log) - 1);
        let phase = 1 ^ (self.cq_tail >> self.cq_size_log) & 1;
        let mut bytes = [0u8; 16];
        HQ_CQE.cpl.set_le(&mut bytes, cpl);
        HQ_CQE.index.set_le(&mut bytes, index as u64);
        HQ_CQE.phase.set_le(&mut bytes, phase as u64);
        self.cq_tail = self.cq_tail.wrapping_add(1);
        self.cqes += 1;
        Some(Cqe { addr: self.cq_base + slot * CQE_BYTES, bytes })
    }
}

/// The core's post port word (`layout::CORE_POST`) of a post: tx_ctx's post word `tx` (the
/// flow in [31:16]), rx_ctx's READ word for a READ, the tag.
pub fn post_word(tx: &[u8; 64], rx: Option<&[u8; 16]>, tag: u16) -> [u8; 54] {
    let mut w = [0u8; 54];
    w[CORE_POST.tx.bytes()].copy_from_slice(&tx[..36]);
    if let Some(rx) = rx {
        w[CORE_POST.rx.bytes()].copy_from_slice(rx);
    }
    CORE_POST.tag.set_le(&mut w, tag as u64);
    w
}

/// A WQE's 64 bytes (for drivers' and test benches' use).
pub fn wqe_bytes(opcode: u8, tag: u16, len: u32, local: u64, remote: u64, rkey: u32) -> [u8; 64] {
    let mut w = [0u8; 64];
    HQ_WQE.opcode.set_le(&mut w, opcode as u64);
    HQ_WQE.tag.set_le(&mut w, tag as u64);
    HQ_WQE.len.set_le(&mut w, len as u64);
    HQ_WQE.local.set_le(&mut w, local);
    HQ_WQE.remote.set_le(&mut w, remote);
    HQ_WQE.rkey.set_le(&mut w, rkey as u64);
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{RX_READ, TX_POST};

    fn cfg() -> SqConfig {
        SqConfig { base: 0x10_0000, size_log: 2, mtu_log: 10, psn: 0xFF_FFFE, qpn: 0x105 }
    }

    fn ok(flow: u16, tag: u16) -> u64 {
        cpl::word(flow, tag, csr::CPL_OK, 0)
    }

    #[test]
    fn a_queues_wqes_run_back_to_back_with_their_psns() {
        let mut h = HostQueues::new(10);
        h.set_sq(5, Some(cfg())).unwrap();
        h.set_cq(0x20_0000, 2, true).unwrap();
        h.doorbell(5, 3).unwrap();
        assert_eq!(h.fetch(), Some((5, 0x10_0000)));
        // Nothing more until the first message completes.
        assert_eq!(h.fetch(), None);
        let p = h.wqe(5, &wqe_bytes(WQE_WRITE, 0xA, 2500, 0x1000, 0x2000, 7)).unwrap();
        let tx = &p[CORE_POST.tx.bytes()];
        assert_eq!((TX_POST.flow.get_le(tx), TX_POST.first_psn.get_le(tx), TX_POST.read.get_le(tx)), (5, 0xFF_FFFE, 0));
        let c = h.completion(ok(5, 0xA)).unwrap();
        assert_eq!(c.addr, 0x20_0000);
        assert_eq!((HQ_CQE.index.get_le(&c.bytes), HQ_CQE.phase.get_le(&c.bytes), HQ_CQE.cpl.get_le(&c.bytes)), (0, 1, ok(5, 0xA)));
        // The second WQE: 3 packets later (2500 B at MTU 1024), a READ with the queue's QPN.
        assert_eq!(h.fetch(), Some((5, 0x10_0040)));
        let p = h.wqe(5, &wqe_bytes(WQE_READ, 0xB, 0, 0x3000, 0x4000, 7)).unwrap();
        let (tx, rx) = (&p[CORE_POST.tx.bytes()], &p[CORE_POST.rx.bytes()]);
        assert_eq!((TX_POST.first_psn.get_le(tx), TX_POST.read.get_le(tx)), (1, 1));
        assert_eq!((RX_READ.op.get_le(rx), RX_READ.qpn.get_le(rx), RX_READ.addr.get_le(rx)), (3, 0x105, 0x3000));
        assert_eq!(CORE_POST.tag.get_le(&p), 0xB);
    }

    #[test]
    fn the_ring_and_the_completion_queue_wrap_with_the_phase() {
        let mut h = HostQueues::new(10);
        h.set_sq(1, Some(cfg())).unwrap();
        h.set_cq(0x8000, 1, true).unwrap();
        let mut addrs = vec![];
        for k in 0..6u16 {
            h.doorbell(1, k + 1).unwrap();
            let (_, a) = h.fetch().unwrap();
            addrs.push(a);
            h.wqe(1, &wqe_bytes(WQE_WRITE, k, 10, 0, 0, 0)).unwrap();
            assert!(h.cq_room());
            let c = h.completion(ok(1, k)).unwrap();
            assert_eq!((c.addr, HQ_CQE.phase.get_le(&c.bytes)), (0x8000 + 16 * (k as u64 % 2), (1 ^ (k as u64 / 2) & 1)));
            h.cq_head(k + 1);
        }
        assert_eq!(addrs, [0x10_0000, 0x10_0040, 0x10_0080, 0x10_00c0, 0x10_0000, 0x10_0040]);
        // A full completion queue: no room until the host moves its head.
        h.doorbell(1, 7).unwrap();
        h.fetch().unwrap();
        h.wqe(1, &wqe_bytes(WQE_WRITE, 9, 10, 0, 0, 0)).unwrap();
        h.completion(ok(1, 9)).unwrap();
        h.doorbell(1, 8).unwrap();
        h.fetch().unwrap();
        h.wqe(1, &wqe_bytes(WQE_WRITE, 9, 10, 0, 0, 0)).unwrap();
        h.completion(ok(1, 9)).unwrap();
        assert!(!h.cq_room());
        h.cq_head(8);
        assert!(h.cq_room());
    }

    #[test]
    fn bad_input_is_refused_ignored_or_puts_the_queue_in_error() {
        let mut h = HostQueues::new(10);
        assert_eq!(h.set_sq(1024, Some(cfg())), Err(Refusal::Flow));
        assert_eq!(h.set_sq(2, Some(SqConfig { size_log: 13, ..cfg() })), Err(Refusal::Config));
        assert_eq!(h.doorbell(4096, 1), Err(Refusal::Flow));
        h.doorbell(2, 1).unwrap(); // queue off
        h.set_sq(2, Some(cfg())).unwrap();
        h.doorbell(2, 5).unwrap(); // 5 ahead of a ring of 4
        assert_eq!((h.db_ignored, h.fetch()), (2, None));
        h.set_cq(0, 4, true).unwrap();
        h.doorbell(2, 2).unwrap();
        h.fetch().unwrap();
        assert_eq!(h.set_sq(2, None), Err(Refusal::Busy));
        // A bad opcode completes refused, and the queue is in error: nothing more is fetched.
        let e = h.wqe(2, &wqe_bytes(7, 0x77, 10, 0, 0, 0)).unwrap_err();
        assert_eq!((CPL.status.of(e as u128), CPL.error.of(e as u128), CPL.tag.of(e as u128)), (csr::CPL_REFUSED as u64, csr::ERR_OP as u64, 0x77));
        let c = h.completion(e).unwrap();
        assert_eq!(HQ_CQE.index.get_le(&c.bytes), 0);
        assert_eq!(h.fetch(), None);
        // A completion of no WQE (a register post) still gets an entry, index NO_INDEX.
        let c = h.completion(ok(9, 1)).unwrap();
        assert_eq!(HQ_CQE.index.get_le(&c.bytes), NO_INDEX as u64);
        // With the completion queue off, completions are dropped and counted.
        h.set_cq(0, 0, false).unwrap();
        assert_eq!((h.completion(ok(9, 1)), h.cq_dropped), (None, 1));
    }
}
