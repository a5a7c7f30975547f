//! hpcc_nic_core in the two-NIC harness (`nic_datapath::Pair`): each core with its host memory
//! and MAC (`host::Host`), an AXI4-Lite master that runs register reads and writes one at a
//! time, and a completion sink with random backpressure. The flow scheduler, the CC module and
//! the loops between them are inside the core: the harness only configures, commands and
//! watches, as a driver would.

use super::host::Host;
use super::nic_datapath::{Pair, Side};
use crate::verilated::models::HpccNicCore as Rtl;
use hdl::hpcc_nic_core::csr;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::path::Path;

/// Cycles of the RAM sweeps after reset (2^10 flows, and a few).
const SWEEP: u64 = (1 << 10) + 8;

/// One register access.
#[derive(Clone, Copy, Debug)]
enum Op {
    Write(u32, u32, u8),
    Read(u32),
}

/// One core, its host and its driver.
pub struct Core {
    pub dut: Rtl,
    pub host: Host,
    ops: VecDeque<Op>,
    /// The access in flight: its address phase done?
    cur: Option<(Op, bool)>,
    /// Results in order: (word, data read or 0, response).
    pub results: VecDeque<(u32, u32, u8)>,
    /// Completions (`m_axis_cpl_tdata`) in order.
    pub completions: Vec<u64>,
}

impl Core {
    /// A core reset and swept, every input driven.
    pub fn new(vcd: Option<&Path>) -> Core {
        let mut c = Core {
            dut: vcd.map_or_else(Rtl::new, Rtl::with_vcd),
            host: Host::new(),
            ops: VecDeque::new(),
            cur: None,
            results: VecDeque::new(),
            completions: vec![],
        };
        // Every input is 0 from the binding; the reset is all there is to drive.
        c.dut.set_reset(1);
        c.dut.tick();
        c.dut.set_reset(0);
        for _ in 0..SWEEP {
            c.dut.tick();
        }
        c
    }

    /// Queues a register write (all four bytes).
    pub fn write(&mut self, word: u32, value: u32) {
        self.ops.push_back(Op::Write(word, value, 0xF));
    }

    /// Queues a register write with byte enables `strb`.
    pub fn write_strb(&mut self, word: u32, value: u32, strb: u8) {
        self.ops.push_back(Op::Write(word, value, strb));
    }

    /// Queues a register read.
    pub fn read(&mut self, word: u32) {
        self.ops.push_back(Op::Read(word));
    }

    /// No access queued or in flight.
    pub fn csr_idle(&self) -> bool {
        self.ops.is_empty() && self.cur.is_none()
    }

    /// Queues the words of `bytes` (little-endian) from register `word` on.
    pub fn write_words(&mut self, word: u32, bytes: &[u8]) {
        for (i, w) in bytes.chunks(4).enumerate() {
            let mut b = [0u8; 4];
            b[..w.len()].copy_from_slice(w);
            self.write(word + i as u32, u32::from_le_bytes(b));
        }
    }
}

impl Side for Core {
    fn clock(&mut self, _now: u64, rng: &mut ChaCha8Rng, bp: f64) -> Vec<Vec<u8>> {
        let mut ready = || !rng.gen_bool(bp);
        if self.cur.is_none() {
            self.cur = self.ops.pop_front().map(|op| (op, false));
        }
        let d = &mut self.dut;
        let (mut aw, mut ar) = (false, false);
        match self.cur {
            Some((Op::Write(word, value, strb), false)) => {
                aw = true;
                d.set_s_axil_awaddr((word * 4) as u16);
                d.set_s_axil_wdata(value);
                d.set_s_axil_wstrb(strb);
            }
            Some((Op::Read(word), false)) => {
                ar = true;
                d.set_s_axil_araddr((word * 4) as u16);
            }
            _ => {}
        }
        d.set_s_axil_awvalid(aw as u8);
        d.set_s_axil_wvalid(aw as u8);
        d.set_s_axil_arvalid(ar as u8);
        let (b_ready, r_ready, cpl_ready) = (ready(), ready(), ready());
        d.set_s_axil_bready(b_ready as u8);
        d.set_s_axil_rready(r_ready as u8);
        d.set_m_axis_cpl_tready(cpl_ready as u8);
        let mut offer = self.host.drive(d, &mut ready);
        let (wc, wd) = (ready(), ready());
        self.host.drive_writes(d, &mut offer, wc, wd);
        d.eval();

        if let Some((op, phase)) = &mut self.cur {
            match *op {
                Op::Write(word, _, _) => {
                    if !*phase && d.s_axil_awready() == 1 && d.s_axil_wready() == 1 {
                        *phase = true;
                    } else if *phase && b_ready && d.s_axil_bvalid() == 1 {
                        self.results.push_back((word, 0, d.s_axil_bresp()));
                        self.cur = None;
                    }
                }
                Op::Read(word) => {
                    if !*phase && d.s_axil_arready() == 1 {
                        *phase = true;
                    } else if *phase && r_ready && d.s_axil_rvalid() == 1 {
                        self.results.push_back((word, d.s_axil_rdata(), d.s_axil_rresp()));
                        self.cur = None;
                    }
                }
            }
        }
        if cpl_ready && d.m_axis_cpl_tvalid() == 1 {
            self.completions.push(d.m_axis_cpl_tdata());
        }
        let done = self.host.collect(d, &offer);
        d.tick();
        done
    }

    fn host(&mut self) -> &mut Host {
        &mut self.host
    }
}

/// Two cores back to back.
pub type CorePair = Pair<Core>;

/// Two cores, reset and swept, on a link of `delay` cycles.
pub fn pair(seed: u64, delay: u64, backpressure: f64, vcd: Option<&Path>) -> CorePair {
    Pair::of(Core::new(vcd), Core::new(None), seed, delay, backpressure)
}

/// Which core of the pair.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Which {
    A,
    B,
}

/// The pair's core `w`.
pub fn core(p: &mut CorePair, w: Which) -> &mut Core {
    match w {
        Which::A => &mut p.a,
        Which::B => &mut p.b,
    }
}

/// Runs the pair until core `w` has answered every queued access (at most `max` cycles);
/// returns its results.
pub fn settle(p: &mut CorePair, w: Which, max: u64) -> Vec<(u32, u32, u8)> {
    let ok = p.run_until(max, |p| match w {
        Which::A => p.a.csr_idle(),
        Which::B => p.b.csr_idle(),
    });
    assert!(ok, "core {w:?}: register accesses still pending after {max} cycles");
    core(p, w).results.drain(..).collect()
}

/// The CC module's configuration words (`csr::CC_CFG` on) for the models' configurations,
/// placed by `csr::CC_FIELDS` (the one copy of the layout on the Rust side).
pub fn cc_words(m: &super::cc_module::Model) -> [u32; csr::CC_WORDS] {
    let (h, l, d) = (&m.hc, &m.lc, &m.dc);
    let wide = |v: u64| vec![v as u32, (v >> 32) as u32];
    // Each port's value, low word first.
    let value = |name: &str| -> Vec<u32> {
        match name {
            "hpcc_t_ns" => vec![h.t_ns],
            "hpcc_eta_q16" => vec![h.eta_q16],
            "hpcc_max_stage" => vec![h.max_stage as u32],
            "hpcc_w_ai_q8" => vec![h.w_ai_q8],
            "hpcc_w_min_q8" => vec![h.w_min_q8],
            "hpcc_w_max_q8" => vec![h.w_max_q8],
            "hpcc_u_init_q16" => vec![h.u_init_q16],
            "hpcc_inv_bt" => h.inv_bt.to_vec(),
            "hpcc_inv_b" => h.inv_b.to_vec(),
            "hpcc_inv_t" => vec![h.inv_t],
            "hpcc_rate_mul" => vec![h.rate_mul],
            "hpcc_line_q16" => vec![h.line_q16],
            "ldcp_rtt_ns" => vec![l.rtt_ns],
            "ldcp_mss" => vec![l.mss_bytes],
            "ldcp_alpha_q16" => vec![l.alpha_q16],
            "ldcp_beta_q16" => vec![l.beta_q16],
            "ldcp_gamma_shift" => vec![l.gamma_shift as u32],
            "ldcp_iw" => vec![l.iw_pkts],
            "ldcp_max_cw_q16" => vec![l.max_cw_q16],
            "ldcp_fast_start" => vec![l.fast_start as u32],
            "ldcp_rate_mul" => wide(l.rate_mul),
            "ldcp_line_q16" => vec![l.line_q16],
            "dcqcn_line_q24" => wide(d.line_q24),
            "dcqcn_min_q24" => wide(d.min_q24),
            "dcqcn_ai_q24" => wide(d.ai_q24),
            "dcqcn_hai_q24" => wide(d.hai_q24),
            "dcqcn_g_shift" => vec![d.g_shift as u32],
            "dcqcn_initial_alpha_q24" => vec![d.initial_alpha_q24],
            "dcqcn_alpha_timer_ns" => vec![d.alpha_timer_ns],
            "dcqcn_decay" => super::cc_dcqcn::decay_words(d).to_vec(),
            "dcqcn_min_cut_interval_ns" => vec![d.min_cut_interval_ns],
            "dcqcn_rate_increase_timer_ns" => vec![d.rate_increase_timer_ns],
            "dcqcn_byte_counter_bytes" => vec![d.byte_counter_bytes],
            "dcqcn_fast_recovery_times" => vec![d.fast_recovery_times as u32],
            "dcqcn_win_mul" => vec![d.win_mul],
            _ => panic!("csr::CC_FIELDS names {name}, which cc_words does not know"),
        }
    };
    let mut w = [0u32; csr::CC_WORDS];
    let mut placed = 0;
    for (name, off, width) in csr::CC_FIELDS {
        let v = value(name);
        assert_eq!(v.len(), width.div_ceil(32) as usize, "csr::CC_FIELDS: {name} is {width} bits");
        w[off as usize..off as usize + v.len()].copy_from_slice(&v);
        placed += v.len();
    }
    assert_eq!(placed, csr::CC_WORDS, "csr::CC_FIELDS leaves words of the CC block unset");
    w
}

/// Queues the CC configuration of `m` and the scheduler configuration.
pub fn configure(c: &mut Core, m: &super::cc_module::Model, pkt_shift: u32, max_burst: u32) {
    for (i, v) in cc_words(m).into_iter().enumerate() {
        c.write(csr::CC_CFG + i as u32, v);
    }
    c.write(csr::SCHED_CFG, pkt_shift | max_burst << 16);
}

/// Queues a create of `flow`: tx_ctx's and rx_ctx's create words, rate, window and algorithm.
pub fn create(c: &mut Core, flow: u16, tx: &[u8; 64], rx: &[u8; 16], rate_q16: u32, window: u32, alg: u32) {
    c.write_words(csr::ARG_TX, tx);
    c.write_words(csr::ARG_RX, rx);
    c.write(csr::ARG_RATE, rate_q16);
    c.write(csr::ARG_WINDOW, window);
    c.write(csr::ARG_ALG, alg);
    c.write(csr::CMD, csr::OP_CREATE | (flow as u32) << 16);
}

/// Queues a post on `flow`: tx_ctx's post word (and for a READ, rx_ctx's op-3 word) and a tag.
pub fn post(c: &mut Core, flow: u16, tx: &[u8; 64], rx: Option<&[u8; 16]>, tag: u16) {
    c.write_words(csr::ARG_TX, tx);
    if let Some(rx) = rx {
        c.write_words(csr::ARG_RX, rx);
    }
    c.write(csr::ARG_TAG, tag as u32);
    c.write(csr::CMD, csr::OP_POST | (flow as u32) << 16);
}

/// Queues a command (`csr::CMD`: op, flow); poll its result with [`status_when_done`].
pub fn command(c: &mut Core, op: u32, flow: u32) {
    c.write(csr::CMD, op | flow << 16);
}

/// Reads STATUS until the command bit clears; returns its error code.
pub fn status_when_done(p: &mut CorePair, w: Which) -> u32 {
    for _ in 0..1000 {
        core(p, w).read(csr::STATUS);
        let r = settle(p, w, 10_000);
        let s = r.last().unwrap().1;
        if s & 1 == 0 {
            return s >> 4 & 15;
        }
    }
    panic!("core {w:?}: command still running after 1000 polls");
}
