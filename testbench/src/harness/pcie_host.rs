//! A host behind the UltraScale+ PCIe hard block's four interfaces, for a design with the PCIe
//! shim's port names (`hpcc_nic`): the root complex's side of RQ, RC, CQ and CC.
//!
//! - RQ: beats taken with random backpressure and put back into TLPs (`sim::pcie_shim::RqIntake`,
//!   which checks their framing). A write lands in host memory (`sim::pcie_shim::Memory`); a
//!   read is answered after a random latency with completions split at random multiples of the
//!   read completion boundary, reads overtaking each other, one read's completions in order.
//! - CQ / CC: a driver's BAR0 register accesses, one at a time (the shim's completer takes one
//!   at a time): a write is a one-dword memory write, a read a one-dword memory read whose
//!   completion comes back on CC with its data and status.

use crate::verilated::models::HpccNic as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::PCIE_CC_DESC as CC;
use sim::pcie_axil::{Request, MEM_READ, MEM_WRITE};
use sim::pcie_rd::{completions, rc_beats, Completion};
use sim::pcie_shim::{Memory, RqIntake, RqTlp};
use std::collections::VecDeque;

/// BAR0's bus address (the shim looks at its low 12 bits).
pub const BAR0: u64 = 0xF7F0_0000;

/// One beat of an AXI-Stream interface of the hard block: tdata words, tkeep (dwords), tlast,
/// tuser words.
type Beat = ([u32; 16], u16, bool, [u32; 6]);

/// A register access of the driver.
#[derive(Clone, Copy, Debug)]
enum Op {
    Write(u32, u32),
    Read(u32),
}

/// What the host counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostCounts {
    pub read_tlps: u64,
    pub write_tlps: u64,
    pub read_bytes: u64,
    pub write_bytes: u64,
    pub completions: u64,
    pub register_writes: u64,
    pub register_reads: u64,
}

/// See the module doc.
pub struct PcieHost {
    pub mem: Memory,
    rng: ChaCha8Rng,
    /// Read completion boundary, bytes (64 or 128; random per host).
    pub rcb: u64,
    /// Read completion boundaries per completion (None: 1 to 4 at random, each completion).
    pub cpl_blocks: Option<u64>,
    /// Completion latency range, cycles (from the read TLP to its first completion).
    pub latency: (u64, u64),
    /// Probability that RQ is ready on a cycle.
    pub rq_ready: f64,
    /// Keep `write_log` and `request_log` (for benchmarks).
    pub log: bool,
    /// Write TLPs at or above this address are counted and not stored (benchmarks moving
    /// megabytes).
    pub store_below: u64,
    /// Write TLPs: (cycle, address, bytes).
    pub write_log: Vec<(u64, u64, usize)>,
    /// Register accesses: the cycle each request's last CQ beat was taken.
    pub request_log: Vec<u64>,
    intake: RqIntake,
    /// Reads being answered: when their next completion is due, the completions left.
    reads: Vec<(u64, VecDeque<Completion>)>,
    rc: VecDeque<Beat>,
    ops: VecDeque<Op>,
    cq: VecDeque<Beat>,
    /// The register read whose completion is awaited, by word.
    wait_cc: Option<u32>,
    tag: u8,
    /// RQ ready and the CQ beat offered, as driven now.
    rq_on: bool,
    cq_on: bool,
    /// Register reads' results in order: (word, data, completion status).
    pub results: VecDeque<(u32, u32, u8)>,
    /// Protocol errors seen (RQ framing, a CC with no read waiting).
    pub errors: Vec<String>,
    pub counts: HostCounts,
}

impl PcieHost {
    pub fn new(seed: u64) -> PcieHost {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rcb = if rng.gen() { 64 } else { 128 };
        PcieHost {
            mem: Memory::default(),
            rng,
            rcb,
            cpl_blocks: None,
            latency: (60, 250),
            rq_ready: 0.9,
            log: false,
            store_below: u64::MAX,
            write_log: Vec::new(),
            request_log: Vec::new(),
            intake: RqIntake::default(),
            reads: Vec::new(),
            rc: VecDeque::new(),
            ops: VecDeque::new(),
            cq: VecDeque::new(),
            wait_cc: None,
            tag: 0,
            rq_on: false,
            cq_on: false,
            results: VecDeque::new(),
            errors: Vec::new(),
            counts: HostCounts::default(),
        }
    }

    /// Queues a register write.
    pub fn write(&mut self, word: u32, value: u32) {
        self.ops.push_back(Op::Write(word, value));
    }

    /// Queues a register read; its result goes to `results`.
    pub fn read(&mut self, word: u32) {
        self.ops.push_back(Op::Read(word));
    }

    /// Every queued register access has been done (and every read answered).
    pub fn regs_idle(&self) -> bool {
        self.ops.is_empty() && self.cq.is_empty() && self.wait_cc.is_none()
    }

    /// No DMA read is being answered.
    pub fn dma_idle(&self) -> bool {
        self.reads.is_empty() && self.rc.is_empty()
    }

    /// The handshakes of a rising edge of the user clock, with the outputs as they stand
    /// before it (call after `eval`).
    pub fn sample(&mut self, d: &Rtl, cycle: u64) {
        if self.rq_on && d.m_axis_rq_tvalid() == 1 {
            let data: Vec<u32> = d.m_axis_rq_tdata().to_vec();
            let user: Vec<u32> = d.m_axis_rq_tuser().to_vec();
            match self.intake.beat(&data, d.m_axis_rq_tkeep(), d.m_axis_rq_tlast() == 1, &user) {
                Err(e) => self.errors.push(format!("cycle {cycle}: RQ: {e}")),
                Ok(None) => {}
                Ok(Some(RqTlp::Write(w))) => {
                    self.counts.write_tlps += 1;
                    self.counts.write_bytes += w.data.len() as u64;
                    if self.log {
                        self.write_log.push((cycle, w.addr, w.data.len()));
                    }
                    if w.addr < self.store_below {
                        self.mem.write(w.addr, &w.data);
                    }
                }
                Ok(Some(RqTlp::Read(t))) => {
                    self.counts.read_tlps += 1;
                    self.counts.read_bytes += t.len as u64;
                    let bytes = self.mem.read(t.addr, t.len as usize);
                    let (rng, blocks) = (&mut self.rng, self.cpl_blocks);
                    let cpls = completions(&t, &bytes, self.rcb, |room| blocks.unwrap_or_else(|| rng.gen_range(1..=room.min(4))));
                    let due = cycle + self.rng.gen_range(self.latency.0..=self.latency.1);
                    self.reads.push((due, cpls.into()));
                }
            }
        }
        if !self.rc.is_empty() && d.s_axis_rc_tready() == 1 {
            self.rc.pop_front();
        }
        if self.cq_on && d.s_axis_cq_tready() == 1 {
            self.cq.pop_front();
            if self.log && self.cq.is_empty() {
                self.request_log.push(cycle);
            }
        }
        if d.m_axis_cc_tvalid() == 1 {
            let w: Vec<u32> = d.m_axis_cc_tdata()[..4].to_vec();
            match self.wait_cc.take() {
                None => self.errors.push(format!("cycle {cycle}: a CC completion with no register read waiting: {w:x?}")),
                Some(word) => {
                    self.results.push_back((word, w[3], CC.status.get(&w) as u8));
                    self.counts.register_reads += 1;
                }
            }
        }
    }

    /// The inputs for the cycle after a rising edge of the user clock.
    pub fn drive(&mut self, d: &mut Rtl, cycle: u64) {
        // RC: the next completion of a due read (the earliest due first, so reads overtake
        // one another when their latencies do).
        if self.rc.is_empty() {
            let pick = self.reads.iter().enumerate().filter(|(_, r)| r.0 <= cycle).min_by_key(|(_, r)| r.0).map(|(i, _)| i);
            if let Some(i) = pick {
                let c = self.reads[i].1.pop_front().unwrap();
                self.counts.completions += 1;
                self.rc.extend(rc_beats(&c));
                if self.reads[i].1.is_empty() {
                    self.reads.swap_remove(i);
                } else {
                    self.reads[i].0 = cycle + self.rng.gen_range(0..=20);
                }
            }
        }
        d.set_s_axis_rc_tvalid(!self.rc.is_empty() as u8);
        if let Some((w, keep, last, user)) = self.rc.front() {
            d.s_axis_rc_tdata_mut().copy_from_slice(w);
            d.set_s_axis_rc_tkeep(*keep);
            d.set_s_axis_rc_tlast(*last as u8);
            d.s_axis_rc_tuser_mut().copy_from_slice(user);
        }
        // CQ: the next register access once the last is done.
        if self.cq.is_empty() && self.wait_cc.is_none() {
            if let Some(op) = self.ops.pop_front() {
                let (req_type, word, data) = match op {
                    Op::Write(w, v) => (MEM_WRITE, w, vec![v]),
                    Op::Read(w) => (MEM_READ, w, vec![]),
                };
                self.tag = self.tag.wrapping_add(1);
                let r = Request {
                    req_type,
                    addr: BAR0 + 4 * word as u64,
                    dwords: 1,
                    first_be: 0xf,
                    last_be: 0,
                    bar: 0,
                    tag: self.tag,
                    requester_id: 0,
                    tc: 0,
                    attr: 0,
                    data,
                };
                self.cq.extend(r.cq_beats());
                match op {
                    Op::Write(..) => self.counts.register_writes += 1,
                    Op::Read(w) => self.wait_cc = Some(w),
                }
            }
        }
        self.cq_on = !self.cq.is_empty();
        d.set_s_axis_cq_tvalid(self.cq_on as u8);
        if let Some((w, keep, last, user)) = self.cq.front() {
            d.s_axis_cq_tdata_mut().copy_from_slice(w);
            d.set_s_axis_cq_tkeep(*keep);
            d.set_s_axis_cq_tlast(*last as u8);
            d.s_axis_cq_tuser_mut().copy_from_slice(user);
        }
        self.rq_on = self.rng.gen_bool(self.rq_ready);
        d.set_m_axis_rq_tready(self.rq_on as u8);
        d.set_m_axis_cc_tready(1);
    }
}
