//! host_queues against its model (`sim::host_queues`): a driver and a host memory on one side,
//! a stand-in for the core on the other.
//!
//! The driver sets up a completion queue and eight send queues (random ring sizes, MTUs, first
//! PSNs) through the AXI4-Lite registers, then keeps each queue fed: it writes WQEs (WRITEs and
//! READs of 0-20,000 bytes) into the ring in host memory and rings the doorbell, now for one
//! WQE, now for several. Host memory answers each WQE fetch after a random latency, in order.
//! The core stand-in takes posts with random backpressure and answers each with a completion
//! after a random latency, completions of different flows in any order; now and then it adds a
//! completion of a message the engine did not post (a register post). The driver consumes
//! completion entries late, so the completion queue fills up.
//!
//! Bad input: WQEs with an unknown opcode (refused, the queue in error), completions with an
//! error status (the queue in error), after which the driver enables the queue again; doorbells
//! for flows past the table and SQ_CMDs with bad configurations (SLVERR), doorbells for a
//! queue that is off (ignored, counted).
//!
//! Checked: every fetch is one the model allows, at the model's address; every post equals the
//! model's post of that WQE; every CQE equals the model's for that completion, written at the
//! model's address, in completion order; every register response as expected; at the end every
//! WQE rung was posted or refused, and the counters equal the model's.

use super::{Outcome, Scenario};
use crate::verilated::models::HostQueues as Rtl;
use hdl::hpcc_nic_core::csr;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::hpcc_nic_core_cpl::word as cpl_word;
use sim::host_queues::{wqe_bytes, Cqe, HostQueues, SqConfig, WQE_READ, WQE_WRITE};
use sim::layout::{le_bytes, CPL, DMA_RD, DMA_WR};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;
use std::time::Instant;

/// The send queues' flows.
const FLOWS: [u16; 8] = [3, 100, 101, 511, 512, 700, 1000, 1023];
const FLOW_BITS: usize = 10;

/// One register access and the response it must get (0 OKAY, 2 SLVERR; reads: its value if
/// given).
#[derive(Clone, Copy, Debug)]
enum Op {
    Write(u32, u32, u8),
    Read(u32, Option<u32>),
}

/// An AXI4-Lite master that runs one access at a time.
#[derive(Default)]
struct Axil {
    ops: VecDeque<Op>,
    cur: Option<(Op, bool)>,
    /// Reads' values, in order.
    reads: VecDeque<(u32, u32)>,
}

impl Axil {
    fn idle(&self) -> bool {
        self.ops.is_empty() && self.cur.is_none()
    }
    fn write(&mut self, word: u32, v: u32) {
        self.ops.push_back(Op::Write(word, v, 0));
    }

    /// Before eval: the access in flight's address phase, if not yet taken.
    fn drive(&mut self, d: &mut Rtl) {
        if self.cur.is_none() {
            self.cur = self.ops.pop_front().map(|op| (op, false));
        }
        let (mut aw, mut ar) = (false, false);
        match self.cur {
            Some((Op::Write(word, v, _), false)) => {
                aw = true;
                d.set_s_axil_awaddr((word * 4) as u16);
                d.set_s_axil_wdata(v);
                d.set_s_axil_wstrb(0xF);
            }
            Some((Op::Read(word, _), false)) => {
                ar = true;
                d.set_s_axil_araddr((word * 4) as u16);
            }
            _ => {}
        }
        d.set_s_axil_awvalid(aw as u8);
        d.set_s_axil_wvalid(aw as u8);
        d.set_s_axil_arvalid(ar as u8);
        d.set_s_axil_bready(1);
        d.set_s_axil_rready(1);
    }

    /// After eval: the address phase taken, the response checked (a read of `HQ_SQ_STATUS`
    /// with the command pending is asked again).
    fn observe(&mut self, d: &Rtl, o: &mut Outcome, cycle: u64) {
        match self.cur {
            Some((op @ Op::Write(..), false)) if d.s_axil_awready() == 1 => self.cur = Some((op, true)),
            Some((op @ Op::Read(..), false)) if d.s_axil_arready() == 1 => self.cur = Some((op, true)),
            _ => {}
        }
        if let Some((op, true)) = self.cur {
            match op {
                Op::Write(word, _, want) if d.s_axil_bvalid() == 1 => {
                    o.check(cycle, (word, d.s_axil_bresp()), (word, want));
                    self.cur = None;
                }
                Op::Read(word, want) if d.s_axil_rvalid() == 1 => {
                    let v = d.s_axil_rdata();
                    if let Some(w) = want {
                        if word == csr::HQ_SQ_STATUS && v & 1 == 1 {
                            self.ops.push_front(Op::Read(word, want));
                        } else {
                            o.check(cycle, (word, v), (word, w));
                        }
                    }
                    self.reads.push_back((word, v));
                    self.cur = None;
                }
                _ => {}
            }
        }
    }
}

/// A send queue as the driver sees it.
struct Queue {
    flow: u16,
    cfg: SqConfig,
    /// WQEs written (the producer index) and completed, and the data of each rung WQE by index.
    prod: u16,
    done: u16,
    /// In error: the driver waits for it to be quiet, then enables it again.
    error: bool,
    /// A WQE rung will end in error (a bad opcode the driver wrote, an error completion the
    /// core will give): the driver rings it no more until it is enabled again. (A doorbell
    /// racing the error would be ignored or taken depending on which the engine sees first:
    /// both are right, and the counters could not be compared.)
    poisoned: bool,
    /// WQEs rung and not yet completed (index -> tag).
    out: BTreeMap<u16, u16>,
}

/// Runs one seed for about `cycles` cycles, then drains.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mut model = HostQueues::new(FLOW_BITS);
    let mut mem: HashMap<u64, [u8; 64]> = HashMap::new();
    let mut axil = Axil::default();
    let cq_base = 0x7000_0000_0000u64;
    // A seed that is a multiple of 4 gets the smallest completion ring (2 entries), so that
    // completions wait on a full ring; the others 2 to 32 entries.
    let cq_log = if seed % 4 == 0 { 1 } else { rng.gen_range(1..=5u8) };
    // Host memory's answers to fetches (due cycle, bytes), the core's completions owed (due,
    // word), the CQEs owed in order.
    let mut fetches: VecDeque<(u64, [u8; 64])> = VecDeque::new();
    let mut owed: Vec<(u64, u64)> = vec![];
    let mut cqes: VecDeque<Cqe> = VecDeque::new();
    let mut cq_seen = 0u64;
    let mut set_up = false;
    let mut cq_lag = 0u64;
    // Cycles a completion waited with the completion queue full.
    let mut cq_full = 0u64;
    let (mut n_posts, mut n_refused, mut n_errors, mut n_stray, mut n_slverr) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut idle, mut cycle, mut tail) = (0u64, 0u64, 0u64);
    let mut cpl_on: Option<u64> = None;
    // The CQE write commands seen, and the CQEs seen with the address their command must have.
    let mut wr_cmd_seen: VecDeque<(u64, u64)> = VecDeque::new();
    let mut cqe_addrs: VecDeque<u64> = VecDeque::new();

    d.set_reset(1);
    d.tick();
    d.set_reset(0);
    // The sweep after reset (2^10 cycles).
    for _ in 0..(1 << FLOW_BITS) + 4 {
        d.tick();
    }
    // Set-up: the completion queue, then each send queue.
    axil.write(csr::HQ_CQ_BASE_LO, cq_base as u32);
    axil.write(csr::HQ_CQ_BASE_HI, (cq_base >> 32) as u32);
    axil.write(csr::HQ_CQ_CFG, cq_log as u32 | 1 << 8);
    model.set_cq(cq_base, cq_log, true).unwrap();
    let mut queues: Vec<Queue> = FLOWS
        .iter()
        .map(|&flow| {
            let cfg = SqConfig {
                base: 0x1000_0000 * (flow as u64 + 1),
                size_log: rng.gen_range(1..=5),
                mtu_log: rng.gen_range(8..=12),
                psn: rng.gen_range(0..1 << 24),
                qpn: 0x40_0000 | flow as u32,
            };
            Queue { flow, cfg, prod: 0, done: 0, error: true, poisoned: false, out: BTreeMap::new() }
        })
        .collect();
    // Bad set-ups first: a flow past the table, a ring too large (SLVERR, nothing changes).
    axil.write(csr::HQ_SQ_SEL, 1 << FLOW_BITS);
    axil.ops.push_back(Op::Write(csr::HQ_SQ_CMD, 1, 2));
    axil.write(csr::HQ_SQ_SEL, 3);
    axil.write(csr::HQ_SQ_CFG, 13 | 10 << 8);
    axil.ops.push_back(Op::Write(csr::HQ_SQ_CMD, 1, 2));
    axil.ops.push_back(Op::Write(csr::HQ_SQ_DOORBELL, 1 | 5000 << 16, 2));
    n_slverr += 3;
    // A doorbell for a queue that is off: ignored.
    axil.write(csr::HQ_SQ_DOORBELL, 1 | 3 << 16);
    model.doorbell(3, 1).unwrap();

    d.set_s_axis_rd_data_tkeep(u64::MAX);
    d.set_s_axis_rd_data_tlast(1);
    loop {
        let running = cycle < cycles;
        // The set-up's register writes have all landed: the model learnt the completion
        // queue's configuration when they were queued, so a completion before then (only a
        // stray one can come so early) would find the two apart (seed 0x14 did).
        set_up |= axil.idle();
        // The driver: enable queues that are off and quiet, feed the others.
        if axil.idle() {
            for q in queues.iter_mut() {
                if q.error && q.out.is_empty() {
                    q.error = false;
                    q.poisoned = false;
                    q.prod = 0;
                    q.done = 0;
                    q.cfg.psn = rng.gen_range(0..1 << 24);
                    axil.write(csr::HQ_SQ_SEL, q.flow as u32);
                    axil.write(csr::HQ_SQ_BASE_LO, q.cfg.base as u32);
                    axil.write(csr::HQ_SQ_BASE_HI, (q.cfg.base >> 32) as u32);
                    axil.write(csr::HQ_SQ_CFG, q.cfg.size_log as u32 | (q.cfg.mtu_log as u32) << 8);
                    axil.write(csr::HQ_SQ_PSN, q.cfg.psn);
                    axil.write(csr::HQ_SQ_QPN, q.cfg.qpn);
                    axil.write(csr::HQ_SQ_CMD, 1);
                    axil.ops.push_back(Op::Read(csr::HQ_SQ_STATUS, Some(0)));
                    model.set_sq(q.flow, Some(q.cfg)).unwrap();
                    break;
                }
                let room = (1u16 << q.cfg.size_log) - q.prod.wrapping_sub(q.done);
                if running && !q.error && !q.poisoned && room > 0 && rng.gen_bool(0.05) {
                    let n = rng.gen_range(1..=room.min(4));
                    for _ in 0..n {
                        let slot = q.prod as u64 & ((1 << q.cfg.size_log) - 1);
                        let tag = rng.gen::<u16>();
                        let op = if rng.gen_bool(0.02) { 9 } else if rng.gen_bool(0.3) { WQE_READ } else { WQE_WRITE };
                        q.poisoned |= op == 9;
                        let len = if rng.gen_bool(0.1) { 0 } else { rng.gen_range(1..=20_000) };
                        let w = wqe_bytes(op, tag, len, rng.gen(), rng.gen(), rng.gen());
                        mem.insert(q.cfg.base + slot * 64, w);
                        q.out.insert(q.prod, tag);
                        q.prod = q.prod.wrapping_add(1);
                    }
                    axil.write(csr::HQ_SQ_DOORBELL, q.prod as u32 | (q.flow as u32) << 16);
                    model.doorbell(q.flow, q.prod).unwrap();
                    break;
                }
            }
        }
        // The driver consumes completion entries, late: now and then it catches up.
        if cq_lag > 0 && rng.gen_bool(0.003) && axil.ops.len() < 4 {
            axil.write(csr::HQ_CQ_HEAD, cq_seen as u32 & 0xFFFF);
            model.cq_head(cq_seen as u16);
            cq_lag = 0;
        }
        let busy = !axil.idle() || !fetches.is_empty() || !owed.is_empty() || !cqes.is_empty() || queues.iter().any(|q| !q.out.is_empty());
        if !running && !busy {
            tail += 1;
            if tail > 64 {
                break;
            }
        }
        if idle > 20_000 {
            let out: Vec<(u16, usize)> = queues.iter().map(|q| (q.flow, q.out.len())).collect();
            o.fail(format!("cycle {cycle}: no progress for 20000 cycles (WQEs out per flow {out:?}, {} CQEs owed)", cqes.len()));
            break;
        }

        // ---- Inputs.
        axil.drive(&mut d);
        let f_on = fetches.front().is_some_and(|f| f.0 <= cycle);
        d.set_s_axis_rd_data_tvalid(f_on as u8);
        if let Some((_, w)) = fetches.front() {
            for (i, x) in d.s_axis_rd_data_tdata_mut().iter_mut().enumerate() {
                *x = u32::from_le_bytes(w[4 * i..4 * i + 4].try_into().unwrap());
            }
        }
        // The core: a due completion (any flow), or now and then one of no WQE of ours.
        if cpl_on.is_none() {
            let due: Vec<usize> = (0..owed.len()).filter(|&k| owed[k].0 <= cycle).collect();
            if !due.is_empty() && rng.gen_bool(0.5) {
                cpl_on = Some(owed.swap_remove(due[rng.gen_range(0..due.len())]).1);
            } else if running && set_up && rng.gen_bool(0.0005) {
                let flow = [7u16, 0x3FE][rng.gen_range(0..2)];
                cpl_on = Some(cpl_word(flow, 0x5757, csr::CPL_OK as u32, 0));
                n_stray += 1;
            }
        }
        if cpl_on.is_some() && !model.cq_room() {
            cq_full += 1;
        }
        d.set_s_axis_cpl_tvalid(cpl_on.is_some() as u8);
        d.set_s_axis_cpl_tdata(cpl_on.unwrap_or(0));
        let post_ready = rng.gen_bool(0.6);
        d.set_m_axis_post_tready(post_ready as u8);
        let rd_ready = rng.gen_bool(0.7);
        d.set_m_axis_rd_req_tready(rd_ready as u8);
        let (wc_ready, wd_ready) = (rng.gen_bool(0.7), rng.gen_bool(0.7));
        d.set_m_axis_wr_cmd_tready(wc_ready as u8);
        d.set_m_axis_wr_tready(wd_ready as u8);
        d.eval();
        idle += 1;

        // ---- Handshakes.
        axil.observe(&d, &mut o, cycle);
        if d.m_axis_rd_req_tvalid() == 1 && rd_ready {
            idle = 0;
            let w = d.m_axis_rd_req_tdata().to_vec();
            let (addr, len, flow) = (DMA_RD.addr.get(&w), DMA_RD.len.get(&w), DMA_RD.flow.get(&w) as u16);
            let want = model.fetch_of(flow);
            o.check(cycle, (flow, Some(addr), len), (flow, want, 64));
            let bytes = mem.get(&addr).copied().unwrap_or([0xEE; 64]);
            let due = fetches.back().map_or(0, |f| f.0).max(cycle + rng.gen_range(20..300));
            fetches.push_back((due, bytes));
        }
        if f_on {
            fetches.pop_front();
        }
        if d.m_axis_post_tvalid() == 1 && post_ready {
            idle = 0;
            let got: [u8; 54] = le_bytes::<56>(d.m_axis_post_tdata())[..54].try_into().unwrap();
            let flow = sim::layout::TX_POST.flow.get_le(&got[..36]) as u16;
            // The WQE this post is: the queue's next one the model has fetched.
            let q = queues.iter().find(|q| q.flow == flow);
            match q {
                None => o.fail(format!("cycle {cycle}: a post for flow {flow}, no queue of ours")),
                Some(_) => {
                    let w = wqe_for(&model, &mem, flow);
                    match model.wqe(flow, &w) {
                        Ok(p) => {
                            o.check(cycle, super::hex(&got), super::hex(&p));
                            o.transactions += 1;
                            n_posts += 1;
                            let err = rng.gen_bool(0.01);
                            if err {
                                queues.iter_mut().filter(|q| q.flow == flow).for_each(|q| q.poisoned = true);
                            }
                            let tag = sim::layout::CORE_POST.tag.get_le(&p);
                            let st = if err { csr::CPL_RETRY_EXCEEDED } else { csr::CPL_OK };
                            let c = cpl_word(flow, tag as u16, st as u32, 0);
                            owed.push((cycle + rng.gen_range(10..2000), c));
                        }
                        Err(c) => o.fail(format!("cycle {cycle}: flow {flow} posted a WQE the model refuses ({c:#x})")),
                    }
                }
            }
        }
        // A refused WQE (bad opcode) gives no post: the engine writes its CQE; the model learns
        // of it when the CQE shows (below).
        if let Some(c) = cpl_on.filter(|_| d.s_axis_cpl_tready() == 1) {
            idle = 0;
            cpl_on = None;
            if model.cq_room() {
                if let Some(e) = model.completion(c) {
                    cqes.push_back(e);
                }
            } else {
                o.fail(format!("cycle {cycle}: a completion taken with the completion queue full"));
            }
            finish(&mut queues, c, &mut n_errors);
        }
        if d.m_axis_wr_cmd_tvalid() == 1 && wc_ready {
            idle = 0;
            let w = d.m_axis_wr_cmd_tdata().to_vec();
            wr_cmd_seen.push_back((DMA_WR.addr.get(&w), DMA_WR.len.get(&w)));
        }
        if d.m_axis_wr_tvalid() == 1 && wd_ready {
            idle = 0;
            let b: [u8; 16] = le_bytes::<64>(d.m_axis_wr_tdata())[..16].try_into().unwrap();
            let keep = d.m_axis_wr_tkeep();
            let cpl = sim::layout::HQ_CQE.cpl.get_le(&b);
            // A CQE of a refused WQE: the model produces it from the WQE it fetched.
            if cqes.is_empty() && CPL.status.of(cpl as u128) == csr::CPL_REFUSED as u64 {
                let flow = CPL.flow.of(cpl as u128) as u16;
                let w = wqe_for(&model, &mem, flow);
                match model.wqe(flow, &w) {
                    Err(c) => {
                        if let Some(e) = model.completion(c) {
                            cqes.push_back(e);
                        }
                        n_refused += 1;
                        finish(&mut queues, c, &mut n_errors);
                    }
                    Ok(_) => o.fail(format!("cycle {cycle}: flow {flow}: a refused CQE for a WQE the model posts")),
                }
            }
            match cqes.pop_front() {
                None => o.fail(format!("cycle {cycle}: a CQE {b:02x?} owed to no completion")),
                Some(e) => {
                    o.check(cycle, (b, keep), (e.bytes, 0xFFFF));
                    o.transactions += 1;
                    cq_seen += 1;
                    cq_lag += 1;
                    cqe_addrs.push_back(e.addr);
                }
            }
        }
        // Each CQE's write command (taken before, with or after its beat): at the model's slot.
        while !wr_cmd_seen.is_empty() && !cqe_addrs.is_empty() {
            let (c, a) = (wr_cmd_seen.pop_front().unwrap(), cqe_addrs.pop_front().unwrap());
            o.check(cycle, c, (a, 16));
        }
        if !busy {
            idle = 0;
        }
        d.tick();
        cycle += 1;
        if o.mismatches > 0 || !o.failures.is_empty() {
            break;
        }
    }
    for q in &queues {
        if !q.out.is_empty() {
            o.fail(format!("flow {}: {} WQEs never completed", q.flow, q.out.len()));
        }
    }
    // The counters.
    for w in [csr::HQ_STAT_WQES, csr::HQ_STAT_CQES, csr::HQ_STAT_DB_IGNORED, csr::HQ_STAT_CQ_DROPPED] {
        axil.ops.push_back(Op::Read(w, None));
    }
    while !axil.idle() && o.passed() {
        axil.drive(&mut d);
        d.eval();
        axil.observe(&d, &mut o, cycle);
        d.tick();
    }
    let got: Vec<u32> = axil.reads.iter().rev().take(4).rev().map(|r| r.1).collect();
    let want = vec![model.wqes as u32, model.cqes as u32, model.db_ignored as u32, model.cq_dropped as u32];
    if o.passed() && got != want {
        o.fail(format!("counters (WQEs, CQEs, doorbells ignored, CQEs dropped): rtl {got:?}, model {want:?}"));
    }
    o.cycles = cycle;
    o.metric("posts", n_posts as f64);
    o.metric("cqes", model.cqes as f64);
    o.metric("refused_wqes", n_refused as f64);
    o.metric("error_completions", n_errors as f64);
    o.metric("stray_completions", n_stray as f64);
    o.metric("slverr", n_slverr as f64);
    o.metric("doorbells_ignored", model.db_ignored as f64);
    o.metric("cq_full_cycles", cq_full as f64);
    o.metric("cq_entries", (1u64 << cq_log) as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// The WQE the model's queue of `flow` fetched last (its consumer index's slot).
fn wqe_for(model: &HostQueues, mem: &HashMap<u64, [u8; 64]>, flow: u16) -> [u8; 64] {
    let addr = model.next_wqe_addr(flow);
    mem.get(&addr).copied().unwrap_or([0xEE; 64])
}

/// The driver's side of a completion: the WQE is done; an error puts the queue in error.
fn finish(queues: &mut [Queue], c: u64, errors: &mut u64) {
    let flow = CPL.flow.of(c as u128) as u16;
    let tag = CPL.tag.of(c as u128) as u16;
    if let Some(q) = queues.iter_mut().find(|q| q.flow == flow) {
        if let Some((&k, _)) = q.out.iter().find(|(_, &t)| t == tag) {
            q.out.remove(&k);
            q.done = q.done.wrapping_add(1);
        }
        if CPL.status.of(c as u128) != csr::CPL_OK as u64 {
            *errors += 1;
            q.error = true;
            // What was rung after it will never be fetched: the driver takes it back.
            q.out.clear();
        }
    }
}
