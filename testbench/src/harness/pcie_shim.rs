//! pcie_shim against its model (`sim::pcie_shim`, with `sim::pcie_rd`, `sim::pcie_wr` and
//! `sim::pcie_axil` for its engines): DMA reads, DMA writes and BAR0 register accesses all at
//! once, with a host behind the hard block's interfaces.
//!
//! The host takes RQ beats with random backpressure and puts them back together into TLPs
//! (`sim::pcie_shim::RqIntake`, which checks the framing: a TLP of one engine interleaved with
//! the other's beats is an error there). Each read TLP must equal the read engine's next one
//! (`sim::pcie_rd::PcieRd`), each write TLP the write engine's next one (`sim::pcie_wr::tlps`),
//! address and bytes. Writes land in host memory (addresses with bit 63 set), reads are served
//! from it (bit 63 clear, never written) after a random latency, split at random multiples of
//! the RCB, tags answered in any order. Every read's data must come out once, in order, equal
//! to host memory. BAR0 reads and writes from CQ must reach a register file behind the
//! AXI4-Lite port as the model says and read back on CC. A few requests of each kind are bad
//! (reads and writes of length 0, accesses to BAR1), and the shim's thirteen counters must end
//! equal to the harness's counts.

use super::{Outcome, Scenario};
use crate::verilated::models::PcieShim as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{le_bytes, DMA_RD, DMA_WR};
use sim::pcie_axil::{Access, Request, MEM_READ, MEM_WRITE};
use sim::pcie_rd::{completions, rc_beats, Completion, PcieRd, ReadTlp};
use sim::pcie_shim::{Memory, RqIntake, RqTlp};
use sim::pcie_wr::{tlps, WriteTlp};
use std::collections::{BTreeMap, VecDeque};
use std::path::Path;
use std::time::Instant;

/// Bit 63 of an address: set for writes, clear for reads, so no read sees a write.
const WRITE_SPACE: u64 = 1 << 63;

/// A DMA length: mostly packet sized, some small, some large (up to `max`).
fn dma_len(rng: &mut ChaCha8Rng, max: u32) -> u32 {
    match rng.gen_range(0..6) {
        0 | 1 => rng.gen_range(1..=200),
        2 | 3 => [256u32, 1024, 4096][rng.gen_range(0..3)] + rng.gen_range(0..3) - 1,
        _ => rng.gen_range(200..=max),
    }
}

/// The counters, in the RTL's port order.
#[derive(Default, Debug, PartialEq)]
struct Counts {
    rd: [u64; 6],
    wr: [u64; 3],
    axil: [u64; 4],
}

/// Runs one seed for about `cycles` cycles of traffic, then drains.
pub fn run(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let (mps, mrr) = ((seed % 4) as u8, (seed / 4 % 6) as u8);
    let rcb: u64 = if seed & 1 == 0 { 64 } else { 128 };
    d.set_cfg_max_payload(mps);
    d.set_cfg_max_read_req(mrr);
    let mut mem = Memory::default();
    let mut want = Counts::default();
    // Reads: the request on the port, the TLPs owed on RQ, the data owed; the completer's
    // reads in flight by tag, and the RC beats being sent.
    let mut rd_model = PcieRd::default();
    let mut rd_req: Option<[u32; 4]> = None;
    let mut rd_tlps: VecDeque<ReadTlp> = VecDeque::new();
    let mut rd_data: VecDeque<Vec<u8>> = VecDeque::new();
    let mut beat_at = 0usize;
    let mut owed: BTreeMap<u8, (u64, VecDeque<Completion>)> = BTreeMap::new();
    let mut rc: VecDeque<([u32; 16], u16, bool, [u32; 6])> = VecDeque::new();
    // Writes: commands and payload beats waiting to go in, the TLPs owed on RQ.
    let mut wr_cmds: VecDeque<[u32; 4]> = VecDeque::new();
    let mut wr_beats: VecDeque<([u8; 64], bool)> = VecDeque::new();
    let mut wr_tlps: VecDeque<WriteTlp> = VecDeque::new();
    let mut intake = RqIntake::default();
    // Registers: CQ beats, the accesses and completions owed, the register file's port.
    let mut regs = vec![0u32; 1024];
    let mut cq: VecDeque<([u32; 16], u16, bool, [u32; 6])> = VecDeque::new();
    let mut want_access: VecDeque<Access> = VecDeque::new();
    let mut want_cpl: VecDeque<(Request, Option<u32>)> = VecDeque::new();
    let (mut aw, mut w): (Option<u16>, Option<(u32, u8)>) = (None, None);
    let (mut b_owed, mut r_owed): (Option<u64>, Option<(u64, u32)>) = (None, None);
    let (mut idle, mut cycle, mut tail) = (0u64, 0u64, 0u64);
    let (mut rd_bytes, mut wr_bytes, mut switches, mut last_kind) = (0u64, 0u64, 0u64, 0u8);

    d.set_reset(1);
    d.tick();
    d.tick();
    d.set_reset(0);
    loop {
        let running = cycle < cycles;
        let busy = rd_req.is_some()
            || !rd_tlps.is_empty()
            || !rd_data.is_empty()
            || !owed.is_empty()
            || !rc.is_empty()
            || !wr_cmds.is_empty()
            || !wr_tlps.is_empty()
            || !cq.is_empty()
            || !want_access.is_empty()
            || !want_cpl.is_empty();
        if !running && !busy {
            tail += 1;
            if tail > 64 {
                break;
            }
        }
        if idle > 20_000 {
            o.fail(format!(
                "cycle {cycle}: no progress for 20000 cycles ({} read TLPs, {} reads' data, {} write TLPs, {} register accesses owed)",
                rd_tlps.len(),
                rd_data.len(),
                wr_tlps.len(),
                want_access.len() + want_cpl.len()
            ));
            break;
        }

        // New work on the three ports.
        if running && rd_req.is_none() && rng.gen_bool(0.3) {
            let len = if rng.gen_bool(0.02) { 0 } else { dma_len(&mut rng, 16383) };
            let addr = (rng.gen::<u64>() & !WRITE_SPACE).min(!WRITE_SPACE - 16384);
            let mut w = [0u32; 4];
            DMA_RD.addr.set(&mut w, addr);
            DMA_RD.len.set(&mut w, len as u64);
            DMA_RD.flow.set(&mut w, rng.gen::<u16>() as u64);
            rd_req = Some(w);
        }
        if running && wr_cmds.len() < 4 && wr_beats.len() < 300 && rng.gen_bool(0.3) {
            let empty = rng.gen_bool(0.02);
            let len = dma_len(&mut rng, 9216) as usize;
            let addr = (rng.gen::<u64>() | WRITE_SPACE).min(u64::MAX - 10_000);
            let mut data = vec![0u8; len];
            rng.fill(&mut data[..]);
            let mut c = [0u32; 4];
            DMA_WR.addr.set(&mut c, addr);
            DMA_WR.len.set(&mut c, if empty { 0 } else { len as u64 });
            DMA_WR.flow.set(&mut c, rng.gen::<u16>() as u64);
            wr_cmds.push_back(c);
            let n = len.div_ceil(64);
            for (k, ch) in data.chunks(64).enumerate() {
                let mut b = [0u8; 64];
                b[..ch.len()].copy_from_slice(ch);
                wr_beats.push_back((b, k + 1 == n));
            }
            if empty {
                want.wr[2] += 1;
            } else {
                let t = tlps(addr, &data, mps);
                want.wr[0] += 1;
                want.wr[1] += t.len() as u64;
                wr_tlps.extend(t);
            }
        }
        if running && cq.is_empty() && want_access.len() + want_cpl.len() < 2 && rng.gen_bool(0.05) {
            let r = Request {
                req_type: if rng.gen() { MEM_READ } else { MEM_WRITE },
                addr: rng.gen_range(0..1024u64) * 4,
                dwords: 1,
                first_be: 0xf,
                last_be: 0,
                bar: if rng.gen_bool(0.05) { 1 } else { 0 },
                tag: rng.gen(),
                requester_id: rng.gen(),
                tc: 0,
                attr: 0,
                data: vec![rng.gen()],
            };
            cq.extend(r.cq_beats());
            if r.served() {
                want_access.push_back(r.access());
            } else {
                want.axil[2] += 1;
            }
            if !r.posted() {
                want_cpl.push_back((r, None));
            }
        }

        // Inputs.
        d.set_s_axis_dma_rd_tvalid(rd_req.is_some() as u8);
        if let Some(w) = rd_req {
            d.s_axis_dma_rd_tdata_mut().copy_from_slice(&w);
        }
        let cmd_on = !wr_cmds.is_empty() && rng.gen_bool(0.9);
        d.set_s_axis_dma_wr_cmd_tvalid(cmd_on as u8);
        if let Some(c) = wr_cmds.front() {
            d.s_axis_dma_wr_cmd_tdata_mut().copy_from_slice(c);
        }
        let wd_on = !wr_beats.is_empty() && rng.gen_bool(0.9);
        d.set_s_axis_dma_wr_tvalid(wd_on as u8);
        if let Some((b, last)) = wr_beats.front() {
            for (i, x) in d.s_axis_dma_wr_tdata_mut().iter_mut().enumerate() {
                *x = u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
            }
            d.set_s_axis_dma_wr_tkeep(u64::MAX);
            d.set_s_axis_dma_wr_tlast(*last as u8);
        }
        // RC: the next beat of the completion being sent, or a due completion of any tag.
        if rc.is_empty() {
            let due: Vec<u8> = owed.iter().filter(|(_, (t, _))| *t <= cycle).map(|(&g, _)| g).collect();
            if !due.is_empty() {
                let tag = due[rng.gen_range(0..due.len())];
                let (t, cpls) = owed.get_mut(&tag).unwrap();
                rc.extend(rc_beats(&cpls.pop_front().unwrap()));
                want.rd[3] += 1;
                *t = cycle + rng.gen_range(0..40);
                if cpls.is_empty() {
                    owed.remove(&tag);
                }
            }
        }
        let rc_on = !rc.is_empty() && rng.gen_bool(0.9);
        d.set_s_axis_rc_tvalid(rc_on as u8);
        if let Some((w, keep, last, user)) = rc.front() {
            d.s_axis_rc_tdata_mut().copy_from_slice(w);
            d.set_s_axis_rc_tkeep(*keep);
            d.set_s_axis_rc_tlast(*last as u8);
            d.s_axis_rc_tuser_mut().copy_from_slice(user);
        }
        let cq_on = !cq.is_empty() && rng.gen_bool(0.8);
        d.set_s_axis_cq_tvalid(cq_on as u8);
        if let Some((data, keep, last, user)) = cq.front() {
            d.s_axis_cq_tdata_mut().copy_from_slice(data);
            d.set_s_axis_cq_tkeep(*keep);
            d.set_s_axis_cq_tlast(*last as u8);
            d.s_axis_cq_tuser_mut().copy_from_slice(user);
        }
        d.set_m_axil_awready(rng.gen_bool(0.5) as u8);
        d.set_m_axil_wready(rng.gen_bool(0.5) as u8);
        d.set_m_axil_arready(rng.gen_bool(0.5) as u8);
        let b_on = b_owed.is_some_and(|t| t <= cycle);
        d.set_m_axil_bvalid(b_on as u8);
        d.set_m_axil_bresp(0);
        let r_on = r_owed.is_some_and(|(t, _)| t <= cycle);
        d.set_m_axil_rvalid(r_on as u8);
        d.set_m_axil_rdata(r_owed.map_or(0, |(_, v)| v));
        d.set_m_axil_rresp(0);
        let rq_ready = rng.gen_bool(0.8);
        d.set_m_axis_rq_tready(rq_ready as u8);
        d.set_m_axis_dma_rd_data_tready(rng.gen_bool(0.8) as u8);
        let cc_ready = rng.gen_bool(0.7);
        d.set_m_axis_cc_tready(cc_ready as u8);
        d.eval();
        idle += 1;

        // The handshakes of this cycle.
        if let Some(w) = rd_req.filter(|_| d.s_axis_dma_rd_tready() == 1) {
            rd_req = None;
            let (addr, len) = (DMA_RD.addr.get(&w), DMA_RD.len.get(&w) as u32);
            if len == 0 {
                want.rd[1] += 1;
            } else {
                want.rd[0] += 1;
                rd_tlps.extend(rd_model.request(addr, len, mrr));
                rd_data.push_back(mem.read(addr, len as usize));
            }
        }
        if cmd_on && d.s_axis_dma_wr_cmd_tready() == 1 {
            wr_cmds.pop_front();
        }
        if wd_on && d.s_axis_dma_wr_tready() == 1 {
            wr_beats.pop_front();
        }
        if rc_on {
            if d.s_axis_rc_tready() != 1 {
                o.fail(format!("cycle {cycle}: s_axis_rc_tready low"));
            }
            rc.pop_front();
        }
        if cq_on && d.s_axis_cq_tready() == 1 {
            cq.pop_front();
        }
        if d.m_axis_rq_tvalid() == 1 && rq_ready {
            idle = 0;
            let data: Vec<u32> = d.m_axis_rq_tdata().to_vec();
            let user: Vec<u32> = d.m_axis_rq_tuser().to_vec();
            match intake.beat(&data, d.m_axis_rq_tkeep(), d.m_axis_rq_tlast() == 1, &user) {
                Err(e) => o.fail(format!("cycle {cycle}: RQ: {e}")),
                Ok(None) => {}
                Ok(Some(RqTlp::Read(t))) => {
                    o.transactions += 1;
                    want.rd[2] += 1;
                    switches += (last_kind == 2) as u64;
                    last_kind = 1;
                    match rd_tlps.pop_front() {
                        None => o.check(cycle, format!("{t:?}"), "no read TLP".into()),
                        Some(x) => o.check(cycle, t, x),
                    }
                    let bytes = mem.read(t.addr, t.len as usize);
                    let cpls = completions(&t, &bytes, rcb, |room| rng.gen_range(1..=room.min(4)));
                    owed.insert(t.tag, (cycle + rng.gen_range(20..400), cpls.into()));
                }
                Ok(Some(RqTlp::Write(t))) => {
                    o.transactions += 1;
                    switches += (last_kind == 1) as u64;
                    last_kind = 2;
                    wr_bytes += t.data.len() as u64;
                    mem.write(t.addr, &t.data);
                    match wr_tlps.pop_front() {
                        None => o.check(cycle, format!("write of {} at {:x}", t.data.len(), t.addr), "no write TLP".into()),
                        Some(x) => o.check(cycle, t, x),
                    }
                }
            }
        }
        if d.m_axis_dma_rd_data_tvalid() == 1 && d.m_axis_dma_rd_data_tready() == 1 {
            idle = 0;
            let got = le_bytes::<64>(d.m_axis_dma_rd_data_tdata());
            let (keep, last) = (d.m_axis_dma_rd_data_tkeep(), d.m_axis_dma_rd_data_tlast() == 1);
            match rd_data.front() {
                None => o.check(cycle, format!("{keep:x}"), "no read data".into()),
                Some(p) => {
                    let from = 64 * beat_at;
                    let n = (p.len() - from).min(64);
                    let want_keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                    let want_last = from + n == p.len();
                    o.check(cycle, (keep, last, &got[..n]), (want_keep, want_last, &p[from..from + n]));
                    rd_bytes += n as u64;
                    beat_at += 1;
                    if want_last {
                        rd_data.pop_front();
                        beat_at = 0;
                    }
                }
            }
        }
        // The register file.
        if d.m_axil_awvalid() == 1 && d.m_axil_awready() == 1 {
            aw = Some(d.m_axil_awaddr());
        }
        if d.m_axil_wvalid() == 1 && d.m_axil_wready() == 1 {
            w = Some((d.m_axil_wdata(), d.m_axil_wstrb()));
        }
        if let (Some(a), Some((v, s))) = (aw, w) {
            (aw, w) = (None, None);
            idle = 0;
            o.transactions += 1;
            o.check(cycle, Access::Write { addr: a, data: v, strb: s }, want_access.pop_front().unwrap_or(Access::None));
            regs[(a / 4) as usize] = v;
            want.axil[0] += 1;
            b_owed = Some(cycle + rng.gen_range(1..6));
        }
        if d.m_axil_arvalid() == 1 && d.m_axil_arready() == 1 {
            idle = 0;
            o.transactions += 1;
            let a = d.m_axil_araddr();
            o.check(cycle, Access::Read { addr: a }, want_access.pop_front().unwrap_or(Access::None));
            let v = regs[(a / 4) as usize];
            want.axil[1] += 1;
            r_owed = Some((cycle + rng.gen_range(1..6), v));
            match want_cpl.iter_mut().find(|(q, x)| q.served() && x.is_none()) {
                Some(e) => e.1 = Some(v),
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
            match want_cpl.pop_front() {
                None => o.check(cycle, format!("{got:x?}"), "no completion".into()),
                Some((req, v)) => {
                    let want_words = req.completion(v.unwrap_or(0), 0).unwrap();
                    let n = if req.served() { 4 } else { 3 };
                    o.check(cycle, (&got[..n], d.m_axis_cc_tkeep()), (&want_words[..n], (1u16 << n) - 1));
                }
            }
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
    let got = Counts {
        rd: [
            d.stat_rd_requests(),
            d.stat_rd_bad_requests(),
            d.stat_rd_tlps(),
            d.stat_rd_cpls(),
            d.stat_rd_cpl_errors(),
            d.stat_rd_cpl_unexpected(),
        ]
        .map(u64::from),
        wr: [d.stat_wr_writes(), d.stat_wr_tlps(), d.stat_wr_len_errors()].map(u64::from),
        axil: [d.stat_axil_writes(), d.stat_axil_reads(), d.stat_axil_unsupported(), d.stat_axil_errors()].map(u64::from),
    };
    if o.passed() && got != want {
        o.fail(format!("counters: rtl {got:?}, expected {want:?}"));
    }
    o.cycles = cycle;
    o.metric("read_tlps", want.rd[2] as f64);
    o.metric("write_tlps", want.wr[1] as f64);
    o.metric("read_bytes", rd_bytes as f64);
    o.metric("write_bytes", wr_bytes as f64);
    o.metric("register_accesses", (want.axil[0] + want.axil[1]) as f64);
    // How often RQ went from one engine's TLP to the other's: both engines shared it.
    o.metric("rq_switches", switches as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
