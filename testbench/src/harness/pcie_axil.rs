//! pcie_axil against its model (`sim::pcie_axil`): random register reads and writes from the
//! host (random byte enables, some none) to a register file behind AXI4-Lite with random
//! ready and response delays, whose words 0x300 and up answer SLVERR; and, with `bad`, requests
//! it does not serve: 2 to 40 dwords (spanning two or three beats), other BARs, I/O, atomics,
//! messages. Checked: every AXI4-Lite access equals the model's (address, data, strobes), in
//! order, and nothing else happens on the port; every completion equals the model's
//! (descriptor, and data when it has some), and posted requests get none; the counters.

use super::{Outcome, Scenario};
use crate::verilated::models::PcieAxil as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::pcie_axil::{Access, Request, MEM_READ, MEM_WRITE};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Register words from this one on answer SLVERR.
const ERR_FROM: u16 = 0x300;

/// Runs one seed for about `cycles` cycles of requests; `bad`: the share of requests not
/// served.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, bad: f64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mut regs = vec![0u32; 1024];
    let mut cq: VecDeque<([u32; 16], u16, bool, [u32; 6])> = VecDeque::new();
    // What the requests sent are owed, in order: their accesses; the completions of the
    // non-posted ones, with a read's data and response once the register port has answered.
    let mut want_access: VecDeque<Access> = VecDeque::new();
    let mut want_cpl: VecDeque<(Request, Option<(u32, u8)>)> = VecDeque::new();
    // The register port: a write's address and data as they are taken, a response owed.
    let (mut aw, mut w): (Option<u16>, Option<(u32, u8)>) = (None, None);
    let mut b_owed: Option<(u64, u8)> = None;
    let mut r_owed: Option<(u64, u32, u8)> = None;
    let (mut writes, mut reads, mut unsup, mut errors) = (0u64, 0u64, 0u64, 0u64);
    let (mut idle, mut cycle, mut tail) = (0u64, 0u64, 0u64);
    d.set_reset(1);
    d.tick();
    d.set_reset(0);
    loop {
        let running = cycle < cycles;
        if !running && cq.is_empty() && want_access.is_empty() && want_cpl.is_empty() {
            tail += 1;
            if tail > 32 {
                break;
            }
        }
        if idle > 5_000 {
            o.fail(format!("cycle {cycle}: no progress for 5000 cycles"));
            break;
        }
        if running && cq.is_empty() && want_access.len() + want_cpl.len() < 2 && rng.gen_bool(0.3) {
            let unserved = rng.gen_bool(bad);
            let mut r = Request {
                req_type: if rng.gen() { MEM_READ } else { MEM_WRITE },
                addr: rng.gen::<u64>() & !3,
                dwords: 1,
                first_be: if rng.gen_bool(0.8) { 0xf } else { rng.gen_range(0..16) },
                last_be: 0,
                bar: 0,
                tag: rng.gen(),
                requester_id: rng.gen(),
                tc: rng.gen_range(0..8),
                attr: rng.gen_range(0..8),
                data: vec![],
            };
            if unserved {
                match rng.gen_range(0..3) {
                    0 => {
                        r.dwords = rng.gen_range(2..=40);
                        r.last_be = 0xf;
                    }
                    1 => r.bar = rng.gen_range(1..6),
                    _ => r.req_type = [2u8, 3, 4, 5, 6, 12, 13][rng.gen_range(0..7)],
                }
            }
            if r.posted() || r.req_type == 3 {
                r.data = (0..r.dwords).map(|_| rng.gen()).collect();
            }
            cq.extend(r.cq_beats());
            if r.served() {
                want_access.push_back(r.access());
            } else {
                unsup += 1;
            }
            if !r.posted() {
                want_cpl.push_back((r, None));
            }
        }
        // CQ.
        let cq_on = !cq.is_empty() && rng.gen_bool(0.8);
        d.set_s_axis_cq_tvalid(cq_on as u8);
        if let Some((data, keep, last, user)) = cq.front() {
            d.s_axis_cq_tdata_mut().copy_from_slice(data);
            d.set_s_axis_cq_tkeep(*keep);
            d.set_s_axis_cq_tlast(*last as u8);
            d.s_axis_cq_tuser_mut().copy_from_slice(user);
        }
        // The register port's readies and responses.
        d.set_m_axil_awready(rng.gen_bool(0.5) as u8);
        d.set_m_axil_wready(rng.gen_bool(0.5) as u8);
        d.set_m_axil_arready(rng.gen_bool(0.5) as u8);
        let b_on = b_owed.is_some_and(|(t, _)| t <= cycle);
        d.set_m_axil_bvalid(b_on as u8);
        d.set_m_axil_bresp(b_owed.map_or(0, |(_, r)| r));
        let r_on = r_owed.is_some_and(|(t, _, _)| t <= cycle);
        d.set_m_axil_rvalid(r_on as u8);
        d.set_m_axil_rdata(r_owed.map_or(0, |(_, v, _)| v));
        d.set_m_axil_rresp(r_owed.map_or(0, |(_, _, r)| r));
        let cc_ready = rng.gen_bool(0.7);
        d.set_m_axis_cc_tready(cc_ready as u8);
        d.eval();
        idle += 1;
        if cq_on && d.s_axis_cq_tready() == 1 {
            cq.pop_front();
        }
        if d.m_axil_awvalid() == 1 && d.m_axil_awready() == 1 {
            aw = Some(d.m_axil_awaddr());
        }
        if d.m_axil_wvalid() == 1 && d.m_axil_wready() == 1 {
            w = Some((d.m_axil_wdata(), d.m_axil_wstrb()));
        }
        if let (Some(a), Some((v, s))) = (aw, w) {
            aw = None;
            w = None;
            idle = 0;
            let got = Access::Write { addr: a, data: v, strb: s };
            o.check(cycle, got, want_access.pop_front().unwrap_or(Access::None));
            o.transactions += 1;
            writes += 1;
            let word = (a / 4) as usize;
            let err = a / 4 >= ERR_FROM;
            if !err {
                for i in 0..4 {
                    if s >> i & 1 == 1 {
                        regs[word] = regs[word] & !(0xff << (8 * i)) | v & (0xff << (8 * i));
                    }
                }
            } else {
                errors += 1;
            }
            b_owed = Some((cycle + rng.gen_range(1..6), if err { 2 } else { 0 }));
        }
        if d.m_axil_arvalid() == 1 && d.m_axil_arready() == 1 {
            idle = 0;
            let a = d.m_axil_araddr();
            o.check(cycle, Access::Read { addr: a }, want_access.pop_front().unwrap_or(Access::None));
            o.transactions += 1;
            reads += 1;
            let err = a / 4 >= ERR_FROM;
            errors += err as u64;
            let (v, resp) = if err { (0xbad, 2) } else { (regs[(a / 4) as usize], 0) };
            r_owed = Some((cycle + rng.gen_range(1..6), v, resp));
            match want_cpl.iter_mut().find(|(q, x)| q.served() && x.is_none()) {
                Some(e) => e.1 = Some((v, resp)),
                None => o.fail(format!("cycle {cycle}: a register read for no read request")),
            }
        }
        if b_on {
            b_owed = None;
        }
        if r_on {
            r_owed = None;
        }
        if d.m_axis_cc_tvalid() == 1 && cc_ready {
            idle = 0;
            let got: Vec<u32> = d.m_axis_cc_tdata()[..4].to_vec();
            let keep = d.m_axis_cc_tkeep();
            match want_cpl.pop_front() {
                None => o.check(cycle, format!("{got:x?}"), "no completion".into()),
                Some((req, v)) => {
                    if req.served() && v.is_none() {
                        o.fail(format!("cycle {cycle}: a read's completion before its register read"));
                    }
                    let (data, resp) = v.unwrap_or((0, 0));
                    let want = req.completion(data, resp).unwrap();
                    let n = if want[1] >> 11 & 7 == 0 { 4 } else { 3 };
                    o.transactions += 1;
                    if got[..n] != want[..n] || keep != (1 << n) - 1 || d.m_axis_cc_tlast() != 1 {
                        o.check(cycle, format!("{got:x?} keep {keep:x}"), format!("{:x?} keep {:x}", &want[..n], (1 << n) - 1));
                    }
                }
            }
        }
        if want_access.is_empty() && want_cpl.is_empty() {
            idle = 0;
        }
        d.tick();
        cycle += 1;
        if o.mismatches > 0 {
            break;
        }
    }
    let got = (d.stat_writes() as u64, d.stat_reads() as u64, d.stat_unsupported() as u64, d.stat_axil_errors() as u64);
    if o.passed() && got != (writes, reads, unsup, errors) {
        o.fail(format!("counters (writes, reads, unsupported, AXI errors): rtl {got:?}, expected {:?}", (writes, reads, unsup, errors)));
    }
    o.cycles = cycle;
    o.metric("writes", writes as f64);
    o.metric("reads", reads as f64);
    o.metric("unsupported", unsup as f64);
    o.metric("axil_errors", errors as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
