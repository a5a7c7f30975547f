//! hpcc_nic_core in the two-NIC harness (`nic_datapath::Pair`): each core with its host memory
//! and MAC (`host::Host`), an AXI4-Lite master that runs register reads and writes one at a
//! time, and a completion sink with random backpressure. The flow scheduler, the CC module and
//! the loops between them are inside the core: the harness only configures, commands and
//! watches, as a driver would. Each core's cycle model (`sim::hpcc_nic_core`, [`cycle`]) runs
//! beside it and must show the same ports and inner streams on every cycle.

pub mod cycle;

use super::host::{Host, HostPorts};
use super::any_nic::AnyNic;
use super::model_nic::ModelNic;
use crate::verilated::MAxis;
use super::nic_datapath::{Pair, Side};
use super::stream::Sink;
use crate::verilated::{low_u64, models::HpccNicCore as Rtl};
use hdl::hpcc_nic_core::csr;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sim::layout::{words_of, Field, CPL, RTO_CFG, SCHED_CFG, STAT_SEL};
use sim::rx_pipe::Beat;
use std::collections::VecDeque;
use std::path::Path;

/// One completion of `m_axis_cpl_tdata` (sim::layout::CPL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cpl {
    pub flow: u16,
    pub tag: u16,
    /// `csr::CPL_OK`, `CPL_RETRY_EXCEEDED`, ...
    pub status: u64,
    /// With `CPL_REFUSED`: the post port's refusal (`csr::ERR_*`).
    pub error: u64,
}

impl Cpl {
    /// The completion a word carries.
    pub fn of(c: u64) -> Cpl {
        let w = words_of(c as u128);
        Cpl { flow: CPL.flow.get(&w) as u16, tag: CPL.tag.get(&w) as u16, status: CPL.status.get(&w), error: CPL.error.get(&w) }
    }

    /// A message's successful completion.
    pub fn ok(flow: u16, tag: u16) -> Cpl {
        Cpl { flow, tag, status: csr::CPL_OK, error: 0 }
    }

    /// A post port's post refused with `err`.
    pub fn refused(flow: u16, tag: u16, err: u32) -> Cpl {
        Cpl { flow, tag, status: csr::CPL_REFUSED, error: err as u64 }
    }
}

/// Flow ids of the exported core: 2^10.
pub const FLOW_BITS: usize = 10;

/// Cycles of the RAM sweeps after reset (2^10 flows, and a few).
const SWEEP: u64 = (1 << 10) + 8;

/// One register access.
#[derive(Clone, Copy, Debug)]
enum Op {
    Write(u32, u32, u8),
    Read(u32),
}

/// What the test bench checks inside a core: cc_module against its model (from `configure`
/// on), flow_sched in lockstep with its model and the whole core's cycle model beside it (from
/// reset on). Only a Verilated core has an inside to check (`on`); the model NIC is the model.
pub struct Checks {
    pub on: bool,
    pub cc: Option<super::core_probe::CcProbe>,
    pub sched: super::core_probe::SchedProbe,
    pub lockstep: Option<cycle::Lockstep>,
}

/// What `Core` drives: the Verilated hpcc_nic_core, or the model NIC behind the same ports
/// (`model_nic::ModelNic`).
pub trait CoreDut: HostPorts {
    const CPL: MAxis<Self>;
    fn set_reset(&mut self, v: u8);
    fn eval(&mut self);
    fn tick(&mut self);
    fn cycles(&self) -> u64;
    /// The AXI4-Lite inputs: a write's address and data phase (both or neither), a read's
    /// address, the response readies.
    fn axil(&mut self, w: Option<(u16, u32, u8)>, r: Option<u16>, bready: bool, rready: bool);
    /// (awready and wready, bvalid, bresp, arready, rvalid, rdata, rresp).
    fn axil_out(&self) -> (bool, bool, u8, bool, bool, u32, u8);
    /// The checks inside, after eval.
    fn check(&self, c: &mut Checks);
    /// The CC configuration the host writes into `CC_CFG`, for a model that does not decode it.
    fn cc_config(&mut self, m: &super::cc_module::Model);
    /// The post port (`s_axis_post`): its word while offered (`sim::layout::CORE_POST`).
    fn post(&mut self, w: Option<&[u8; 54]>);
    /// Its `tready`, after eval.
    fn post_ready(&self) -> bool;
}

/// `CoreDut` of a type with the generated wrapper's port methods.
macro_rules! core_dut_ports {
    () => {
        fn set_reset(&mut self, v: u8) {
            Self::set_reset(self, v)
        }
        fn axil(&mut self, w: Option<(u16, u32, u8)>, r: Option<u16>, bready: bool, rready: bool) {
            if let Some((a, d, s)) = w {
                Self::set_s_axil_awaddr(self, a);
                Self::set_s_axil_wdata(self, d);
                Self::set_s_axil_wstrb(self, s);
            }
            if let Some(a) = r {
                Self::set_s_axil_araddr(self, a);
            }
            Self::set_s_axil_awvalid(self, w.is_some() as u8);
            Self::set_s_axil_wvalid(self, w.is_some() as u8);
            Self::set_s_axil_arvalid(self, r.is_some() as u8);
            Self::set_s_axil_bready(self, bready as u8);
            Self::set_s_axil_rready(self, rready as u8);
        }
        fn axil_out(&self) -> (bool, bool, u8, bool, bool, u32, u8) {
            (
                Self::s_axil_awready(self) == 1 && Self::s_axil_wready(self) == 1,
                Self::s_axil_bvalid(self) == 1,
                Self::s_axil_bresp(self),
                Self::s_axil_arready(self) == 1,
                Self::s_axil_rvalid(self) == 1,
                Self::s_axil_rdata(self),
                Self::s_axil_rresp(self),
            )
        }
    };
}

impl CoreDut for Rtl {
    const CPL: MAxis<Self> = Rtl::M_AXIS_CPL;
    core_dut_ports!();
    fn eval(&mut self) {
        <Rtl as crate::verilated::Model>::eval(self)
    }
    fn tick(&mut self) {
        <Rtl as crate::verilated::Model>::tick(self)
    }
    fn cycles(&self) -> u64 {
        <Rtl as crate::verilated::Model>::cycles(self)
    }
    fn check(&self, c: &mut Checks) {
        if let Some(cc) = c.cc.as_mut() {
            cc.observe(self, CoreDut::cycles(self));
        }
        c.sched.step(self);
        if let Some(l) = c.lockstep.as_mut() {
            l.step(self);
        }
    }
    fn cc_config(&mut self, _m: &super::cc_module::Model) {}
    fn post(&mut self, w: Option<&[u8; 54]>) {
        self.set_s_axis_post_tvalid(w.is_some() as u8);
        if let Some(w) = w {
            super::set_wide(self.s_axis_post_tdata_mut(), w);
        }
    }
    fn post_ready(&self) -> bool {
        self.s_axis_post_tready() == 1
    }
}

impl CoreDut for ModelNic {
    const CPL: MAxis<Self> = super::model_nic::M_AXIS_CPL;
    core_dut_ports!();
    fn eval(&mut self) {
        ModelNic::eval(self)
    }
    fn tick(&mut self) {
        ModelNic::tick(self)
    }
    fn cycles(&self) -> u64 {
        ModelNic::cycles(self)
    }
    fn check(&self, _c: &mut Checks) {}
    fn cc_config(&mut self, m: &super::cc_module::Model) {
        self.model.configure(m);
    }
    fn post(&mut self, w: Option<&[u8; 54]>) {
        self.set_post(w)
    }
    fn post_ready(&self) -> bool {
        ModelNic::post_ready(self)
    }
}

/// One core, its host and its driver.
pub struct Core<M: CoreDut = Rtl> {
    pub dut: M,
    pub host: Host<M>,
    /// Completions out, with random backpressure.
    cpl: Sink<M>,
    ops: VecDeque<Op>,
    /// The access in flight: its address phase done?
    cur: Option<(Op, bool)>,
    /// Results in order: (word, data read or 0, response).
    pub results: VecDeque<(u32, u32, u8)>,
    /// Completions (`m_axis_cpl_tdata`) in order.
    pub completions: Vec<u64>,
    /// Posts for the post port (`s_axis_post`), offered in order, each until taken.
    pub posts: VecDeque<[u8; 54]>,
    pub checks: Checks,
}

impl Checks {
    /// A Verilated core's: every check.
    fn rtl() -> Checks {
        Checks { on: true, cc: None, sched: Default::default(), lockstep: Some(cycle::Lockstep::new(super::cc_module::default_model())) }
    }

    /// The model NIC's: none.
    fn none() -> Checks {
        Checks { on: false, cc: None, sched: Default::default(), lockstep: None }
    }
}

impl Core {
    /// A Verilated core reset and swept, every input driven, its inside checked.
    pub fn new(vcd: Option<&Path>) -> Core {
        Core::of(vcd.map_or_else(Rtl::new, Rtl::with_vcd), Checks::rtl())
    }
}

impl Core {
    /// A Verilated core with nothing checked inside (no probes, no model beside it): what the
    /// RTL alone costs, for benchmarks.
    pub fn unchecked() -> Core {
        Core::of(Rtl::new(), Checks::none())
    }
}

impl Core<ModelNic> {
    /// The model NIC reset and swept.
    pub fn model() -> Core<ModelNic> {
        Core::of(ModelNic::new(super::cc_module::default_model()), Checks::none())
    }
}

impl Core<AnyNic> {
    /// A host of a mixed network, reset and swept: the Verilated core (checked inside) if
    /// `rtl`, else the model NIC.
    pub fn any(rtl: bool) -> Core<AnyNic> {
        if rtl {
            Core::of(AnyNic::Rtl(Box::new(Rtl::new())), Checks::rtl())
        } else {
            Core::of(AnyNic::Model(Box::new(ModelNic::new(super::cc_module::default_model()))), Checks::none())
        }
    }
}

impl<M: CoreDut> Core<M> {
    /// `dut` reset and swept.
    fn of(dut: M, checks: Checks) -> Core<M> {
        let mut c = Core {
            dut,
            host: Host::new(),
            cpl: Sink::new(M::CPL, 0.0),
            ops: VecDeque::new(),
            cur: None,
            results: VecDeque::new(),
            completions: vec![],
            posts: VecDeque::new(),
            checks,
        };
        // Every input is 0 from the binding; the reset is all there is to drive.
        c.dut.set_reset(1);
        for k in 0..=SWEEP {
            c.dut.eval();
            c.dut.check(&mut c.checks);
            c.dut.tick();
            if k == 0 {
                c.dut.set_reset(0);
            }
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
        Regs::write_words(self, word, bytes)
    }
}

/// A driver's register writes, queued: the core's AXI4-Lite port here, BAR0 through the PCIe
/// shim in the NIC harness (`hpcc_nic`). The setup helpers (`create`, `configure_regs`) take
/// either.
pub trait Regs {
    /// Queues a write of register `word`.
    fn write(&mut self, word: u32, value: u32);

    /// Queues the words of `bytes` (little-endian) from register `word` on.
    fn write_words(&mut self, word: u32, bytes: &[u8]) {
        for (i, w) in bytes.chunks(4).enumerate() {
            let mut b = [0u8; 4];
            b[..w.len()].copy_from_slice(w);
            self.write(word + i as u32, u32::from_le_bytes(b));
        }
    }
}

impl<M: CoreDut> Regs for Core<M> {
    fn write(&mut self, word: u32, value: u32) {
        Core::write(self, word, value)
    }
}

impl<M: CoreDut> Side for Core<M> {
    fn clock(&mut self, _now: u64, rng: &mut ChaCha8Rng, bp: f64) -> Vec<Vec<u8>> {
        if self.cur.is_none() {
            self.cur = self.ops.pop_front().map(|op| (op, false));
        }
        let d = &mut self.dut;
        let (aw, ar) = match self.cur {
            Some((Op::Write(word, value, strb), false)) => (Some(((word * 4) as u16, value, strb)), None),
            Some((Op::Read(word), false)) => (None, Some((word * 4) as u16)),
            _ => (None, None),
        };
        let (b_ready, r_ready) = (!rng.gen_bool(bp), !rng.gen_bool(bp));
        d.axil(aw, ar, b_ready, r_ready);
        self.cpl.stall = bp;
        self.cpl.ready(d, rng);
        self.host.drive(d, rng, bp);
        let (wc, wd) = (!rng.gen_bool(bp), !rng.gen_bool(bp));
        self.host.drive_writes(d, wc, wd);
        d.post(self.posts.front());
        d.eval();
        if !self.posts.is_empty() && d.post_ready() {
            self.posts.pop_front();
        }

        let (awready, bvalid, bresp, arready, rvalid, rdata, rresp) = d.axil_out();
        if let Some((op, phase)) = &mut self.cur {
            match *op {
                Op::Write(word, _, _) => {
                    if !*phase && awready {
                        *phase = true;
                    } else if *phase && b_ready && bvalid {
                        self.results.push_back((word, 0, bresp));
                        self.cur = None;
                    }
                }
                Op::Read(word) => {
                    if !*phase && arready {
                        *phase = true;
                    } else if *phase && r_ready && rvalid {
                        self.results.push_back((word, rdata, rresp));
                        self.cur = None;
                    }
                }
            }
        }
        d.check(&mut self.checks);
        if let Some(w) = self.cpl.take(d) {
            self.completions.push(low_u64(w));
        }
        let done = self.host.collect(d);
        d.tick();
        done
    }

    fn receive(&mut self, beats: Vec<Beat>) {
        self.host.receive(beats);
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

/// Core `w`'s nonzero counters, named, read through the register port: rx_pipe's 32 and
/// rx_ctx's 16 selectable counters and the fixed ones from `STAT_TX_DROP` on (a failing
/// scenario prints them).
pub fn counters(p: &mut CorePair, w: Which) -> Vec<(String, u32)> {
    let c = core(p, w);
    for k in 0..32 {
        c.write(csr::STAT_SEL, reg_word(&[(STAT_SEL.rx_pipe, k), (STAT_SEL.rx_ctx, k & 15)]));
        c.read(csr::STAT_RX_PIPE);
        c.read(csr::STAT_RX_CTX);
    }
    for word in csr::STAT_TX_DROP..=csr::STAT_CC_UNUSED {
        c.read(word);
    }
    c.read(csr::FEEDBACK_IN);
    let reads: Vec<(u32, u32)> =
        settle(p, w, 100_000).into_iter().filter(|r| r.0 != csr::STAT_SEL).map(|r| (r.0, r.1)).collect();
    let mut out = vec![];
    for (k, (word, v)) in reads.into_iter().enumerate() {
        let name = match word {
            csr::STAT_RX_PIPE => format!("rx_pipe[{}]", k / 2),
            csr::STAT_RX_CTX if k / 2 < 16 => format!("rx_ctx[{}]", k / 2),
            csr::STAT_RX_CTX => continue,
            w => format!("reg {w:#05x}"),
        };
        if v != 0 {
            out.push((name, v));
        }
    }
    out
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

/// Queues the CC configuration of `m` and the scheduler configuration; from here on the core's
/// cc_module is checked against the model on `m`'s configuration (`Core::cc`). Flows created
/// before keep their state in both. The model takes the new values at once and the RTL when
/// the writes land, so call this while no CC event is in flight (before a create, or with the
/// same configuration, as every connect of the tests does).
pub fn configure<M: CoreDut>(c: &mut Core<M>, m: &super::cc_module::Model, pkt_shift: u32, max_burst: u32) {
    if c.checks.on {
        match c.checks.cc.as_mut() {
            // Flows created before keep their algorithm and state (a second connect).
            Some(cc) => cc.configure(m),
            None => c.checks.cc = Some(super::core_probe::CcProbe::new(m)),
        }
    }
    if let Some(l) = c.checks.lockstep.as_mut() {
        l.model.configure(m);
    }
    c.dut.cc_config(m);
    configure_regs(c, m, pkt_shift, max_burst);
}

/// The register writes of `configure`: `m`'s CC configuration and the scheduler's.
pub fn configure_regs(c: &mut impl Regs, m: &super::cc_module::Model, pkt_shift: u32, max_burst: u32) {
    for (i, v) in cc_words(m).into_iter().enumerate() {
        c.write(csr::CC_CFG + i as u32, v);
    }
    c.write(csr::SCHED_CFG, reg_word(&[(SCHED_CFG.pkt_shift, pkt_shift.into()), (SCHED_CFG.max_burst, max_burst.into())]));
}

/// A 32-bit register word from its fields (`sim::layout::SCHED_CFG`, `STAT_SEL`, `RTO_CFG`).
pub fn reg_word(fields: &[(Field, u64)]) -> u32 {
    let mut w = [0u32];
    for (f, v) in fields {
        f.set(&mut w, *v);
    }
    w[0]
}

/// RTO_CFG of the core scenarios: a timeout after 3 scan rounds without an acknowledgement
/// (with TIMER_GAP 1), the message failed after 7 of them.
pub fn short_rto() -> u32 {
    reg_word(&[(RTO_CFG.rounds, 3), (RTO_CFG.retries, 7)])
}

/// Queues a create of `flow`: tx_ctx's and rx_ctx's create words, rate, window and algorithm.
pub fn create(c: &mut impl Regs, flow: u16, tx: &[u8; 64], rx: &[u8; 16], rate_q16: u32, window: u32, alg: u32) {
    c.write_words(csr::ARG_TX, tx);
    c.write_words(csr::ARG_RX, rx);
    c.write(csr::ARG_RATE, rate_q16);
    c.write(csr::ARG_WINDOW, window);
    c.write(csr::ARG_ALG, alg);
    c.write(csr::CMD, csr::OP_CREATE | (flow as u32) << 16);
}

/// Queues a post on `flow`: tx_ctx's post word (and for a READ, rx_ctx's op-3 word) and a tag.
pub fn post<M: CoreDut>(c: &mut Core<M>, flow: u16, tx: &[u8; 64], rx: Option<&[u8; 16]>, tag: u16) {
    c.write_words(csr::ARG_TX, tx);
    if let Some(rx) = rx {
        c.write_words(csr::ARG_RX, rx);
    }
    c.write(csr::ARG_TAG, tag as u32);
    c.write(csr::CMD, csr::OP_POST | (flow as u32) << 16);
}

use sim::host_queues::post_word;

/// Queues a post on the post port: no register access; its refusal, if any, comes back as a
/// completion (`Cpl::refused`).
pub fn post_port<M: CoreDut>(c: &mut Core<M>, tx: &[u8; 64], rx: Option<&[u8; 16]>, tag: u16) {
    c.posts.push_back(post_word(tx, rx, tag));
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
        if s & csr::STATUS_BUSY == 0 {
            return csr::status_err(s);
        }
    }
    panic!("core {w:?}: command still running after 1000 polls");
}

/// One queue pair of `core-random`: requester flow `req` on one core, responder `resp` on the
/// other, its algorithm and MTU, and the message out.
struct Qp {
    on_a: bool,
    req: u16,
    resp: u16,
    mtu: u16,
    next_psn: u32,
    count: u64,
    cur: Option<Msg>,
    /// A message ended with CPL_RETRY_EXCEEDED: the core removed the flow.
    failed: bool,
}

struct Msg {
    read: bool,
    tag: u16,
    /// Where the bytes must land: (on A?, address), and they.
    dst: (bool, u64),
    data: Vec<u8>,
    /// Cycle of the post.
    at: u64,
}

/// `core-random`: two cores back to back, four queue pairs (two each way) on random algorithms
/// (HPCC++, Rx-HPCC, LDCP, DCQCN) and MTUs, each posting WRITEs and READs (30%) of 0-12,000
/// bytes, back to back, until the cycle budget, half through the register port and half through
/// the post port (`s_axis_post`), with now and then a post port post for a flow that does not
/// exist or is out of range (refused: its completion must say so); random backpressure
/// on every host, MAC, register and completion port, a telemetry hop on data frames, 2% of
/// ECN-capable frames marked CE and 0.5% of all frames lost (data, ACKs, NAKs, READ requests
/// and responses, retransmissions), with the retransmission timeout at 3 rounds of 2048
/// cycles. Every message must complete, in order per flow, with its tag, and its bytes must be
/// in the destination's memory when the completion is taken; or end with CPL_RETRY_EXCEEDED,
/// after which its queue pair posts nothing more (counted in `failed`).
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> super::Outcome {
    use rand::SeedableRng;
    use sim::rx_ctx::{Ctrl as RxCtrl, OP_CREATE, OP_READ};
    use sim::tx_ctx::{Ctrl as TxCtrl, FlowConfig, Post};
    let start = std::time::Instant::now();
    let mut o = super::Outcome::new(super::Scenario::CoreRandom, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = pair(seed, rng.gen_range(10..200), 0.1, vcd);
    // A congested "switch": 2% of ECN-capable frames marked CE (LDCP's ACKs echo them), and
    // a lossy link: any frame lost with probability 0.5%.
    p.ce = 0.02;
    let mut loss_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1055);
    p.drop = Box::new(move |_, _, _| loss_rng.gen_bool(0.005));
    let m = super::cc_module::default_model();
    for w in [Which::A, Which::B] {
        configure(core(&mut p, w), &m, 12, 16);
        core(&mut p, w).write(csr::TIMER_GAP, 1);
        core(&mut p, w).write(csr::RTO_CFG, short_rto());
        settle(&mut p, w, 50_000);
    }
    let mut qps: Vec<Qp> = (0..4u16)
        .map(|k| {
            let psn = if rng.gen() { 0xFF_FFFF - rng.gen_range(0..50) } else { rng.gen_range(0..1 << 24) };
            let mtu = [256, 512, 1024, 2048, 4096][rng.gen_range(0..5)];
            Qp { on_a: k % 2 == 0, req: 0x100 + k, resp: 0x200 + k, mtu, next_psn: psn, count: 0, cur: None, failed: false }
        })
        .collect();
    let mut algs = [0u64; 4];
    for q in &qps {
        let alg = rng.gen_range(0..4u32);
        algs[alg as usize] += 1;
        let (rq, rs) = if q.on_a { (Which::A, Which::B) } else { (Which::B, Which::A) };
        let cfg = |header, telemetry| FlowConfig { header, mtu: q.mtu, telemetry, probe: false, fast_start: 0, cnp: false };
        let (to_resp, to_req) = (super::tx_pipe::header_to(&mut rng, q.resp as u32), super::tx_pipe::header_to(&mut rng, q.req as u32));
        let rx = |qpn: u16, epsn, spsn| RxCtrl { op: OP_CREATE, qpn: qpn as u32, epsn, spsn, mtu: q.mtu, addr: 0 }.to_bytes();
        let window = rng.gen_range(16u32..256) << 10;
        let tel = rng.gen();
        create(core(&mut p, rq), q.req, &TxCtrl::Create { flow: q.req, cfg: cfg(to_resp, tel) }.to_bytes(), &rx(q.req, 0, q.next_psn), 50 << 16, window, alg);
        settle(&mut p, rq, 10_000);
        o.check(p.cycle, ("create", q.req, status_when_done(&mut p, rq)), ("create", q.req, csr::ERR_NONE));
        create(core(&mut p, rs), q.resp, &TxCtrl::Create { flow: q.resp, cfg: cfg(to_req, false) }.to_bytes(), &rx(q.resp, q.next_psn, 0), 50 << 16, window, alg);
        settle(&mut p, rs, 10_000);
        o.check(p.cycle, ("create", q.resp, status_when_done(&mut p, rs)), ("create", q.resp, csr::ERR_NONE));
    }
    let (mut seen, mut done) = ([0usize; 2], vec![]);
    let mut failed = 0u64;
    let mut late: Vec<(u64, Msg)> = vec![];
    // Refused post port posts each side owes a completion for, and how many were.
    let mut refusals: [VecDeque<Cpl>; 2] = Default::default();
    let (mut n_refused, mut n_port) = (0u64, 0u64);
    let limit = p.cycle + cycles + 400_000;
    let mut idle = 0u64;
    while p.cycle < limit {
        // Completions: each must be its flow's message, in order of posting per flow.
        for (side, on_a) in [(0usize, true), (1, false)] {
            let cpls = if on_a { &p.a.completions } else { &p.b.completions };
            while seen[side] < cpls.len() {
                let c = cpls[seen[side]];
                seen[side] += 1;
                let cpl = Cpl::of(c);
                let flow = cpl.flow;
                if cpl.status == csr::CPL_REFUSED {
                    let want = refusals[side].pop_front();
                    o.check(p.cycle, Some(cpl), want);
                    idle = 0;
                    continue;
                }
                let Some(q) = qps.iter_mut().find(|q| q.on_a == on_a && q.req == flow) else {
                    o.fail(format!("cycle {}: completion {c:#x} for no flow of ours", p.cycle));
                    continue;
                };
                match q.cur.take() {
                    Some(msg) if cpl.status == csr::CPL_RETRY_EXCEEDED => {
                        o.check(p.cycle, (flow, cpl.tag), (flow, msg.tag));
                        q.failed = true;
                        failed += 1;
                        idle = 0;
                    }
                    Some(msg) => {
                        o.check(p.cycle, cpl, Cpl::ok(flow, msg.tag));
                        late.push((p.cycle, msg));
                        idle = 0;
                    }
                    None => o.fail(format!("cycle {}: completion {c:#x} with no message out", p.cycle)),
                }
            }
        }
        // Landed bytes: every message's bytes are in the destination's memory when its
        // completion is taken (a READ's by the core's completion wait, a WRITE's by the
        // responder's placement gate: its ACK leaves after the payload is written).
        for (at, msg) in late.drain(..) {
            let host = if msg.dst.0 { &p.a.host } else { &p.b.host };
            let landed = host.holds(msg.dst.1, &msg.data);
            o.transactions += 1;
            o.check(at, (msg.read, msg.dst.1, landed), (msg.read, msg.dst.1, true));
            done.push(msg);
        }
        // New messages while the budget lasts.
        if p.cycle < limit - 400_000 {
            if rng.gen_bool(0.0005) {
                // A post port post the core must refuse: a flow never created (ERR_UNKNOWN), or
                // one past the flow table (ERR_FLOW).
                let (side, w) = if rng.gen() { (0, Which::A) } else { (1, Which::B) };
                let (flow, err) = if rng.gen() { (0x3FF, csr::ERR_UNKNOWN) } else { (rng.gen_range(0x400..=0xFFFF), csr::ERR_FLOW) };
                let tag = rng.gen();
                let post_w = Post { local_addr: 0, remote_addr: 0, rkey: 0, len: 100, first_psn: 0 };
                post_port(core(&mut p, w), &TxCtrl::Post { flow, post: post_w }.to_bytes(), None, tag);
                refusals[side].push_back(Cpl::refused(flow, tag, err));
                n_refused += 1;
            }
            for q in qps.iter_mut().filter(|q| q.cur.is_none() && !q.failed) {
                let (rq, rs) = if q.on_a { (Which::A, Which::B) } else { (Which::B, Which::A) };
                let read = rng.gen_bool(0.3);
                let len: u32 = if rng.gen_bool(0.1) { 0 } else { rng.gen_range(1..=12_000) };
                let npkts = len.div_ceil(q.mtu as u32).max(1);
                let base = 0x1_0000_0000 * (q.req as u64) + q.count * 0x1_0000;
                let (local, remote) = (base, base + 0x8000_0000);
                let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
                let post_w = Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn: q.next_psn & 0xFF_FFFF };
                let tag = rng.gen();
                let (tx, rx) = if read {
                    core(&mut p, rs).host.fill(remote, &data);
                    let rx = RxCtrl { op: OP_READ, qpn: q.req as u32, epsn: 0, spsn: 0, mtu: q.mtu, addr: local }.to_bytes();
                    (TxCtrl::Read { flow: q.req, post: post_w }.to_bytes(), Some(rx))
                } else {
                    core(&mut p, rq).host.fill(local, &data);
                    (TxCtrl::Post { flow: q.req, post: post_w }.to_bytes(), None)
                };
                if rng.gen() {
                    // The post port: no register access, no STATUS to poll.
                    post_port(core(&mut p, rq), &tx, rx.as_ref(), tag);
                    n_port += 1;
                } else {
                    post(core(&mut p, rq), q.req, &tx, rx.as_ref(), tag);
                    settle(&mut p, rq, 10_000);
                    o.check(p.cycle, ("post", q.req, status_when_done(&mut p, rq)), ("post", q.req, csr::ERR_NONE));
                }
                let dst = if read { (q.on_a, local) } else { (!q.on_a, remote) };
                q.cur = Some(Msg { read, tag, dst, data, at: p.cycle });
                q.next_psn = q.next_psn.wrapping_add(npkts);
                q.count += 1;
            }
        } else if qps.iter().all(|q| q.cur.is_none()) && late.is_empty() && refusals.iter().all(|r| r.is_empty()) {
            break;
        }
        idle += 1;
        if idle > 200_000 {
            break;
        }
        p.step();
    }
    for q in &qps {
        if let Some(m) = &q.cur {
            let (kind, len) = (if m.read { "READ" } else { "WRITE" }, m.data.len());
            o.fail(format!("cycle {}: flow {:#x}'s message {} ({kind} of {len} B, MTU {}, posted at cycle {}) never completed", p.cycle, q.req, q.count - 1, q.mtu, m.at));
        }
    }
    for (side, r) in refusals.iter().enumerate() {
        if let Some(c) = r.front() {
            o.fail(format!("cycle {}: core {}: {} refused posts never completed, the first {c:?}", p.cycle, ["A", "B"][side], r.len()));
        }
    }
    if !o.passed() {
        for w in [Which::A, Which::B] {
            o.fail(format!("core {w:?} counters: {:?}", counters(&mut p, w)));
        }
    }
    for (name, h) in [("A", &p.a.host), ("B", &p.b.host)] {
        o.check(p.cycle, (name, h.bad_frames, h.wr_len_errors), (name, 0, 0));
    }
    o.cycles = p.cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o.metric("messages", done.len() as f64);
    o.metric("reads", done.iter().filter(|m| m.read).count() as f64);
    o.metric("bytes", done.iter().map(|m| m.data.len()).sum::<usize>() as f64);
    o.metric("frames", (p.carried[0] + p.carried[1]) as f64);
    o.metric("ce_marked", (p.marked[0] + p.marked[1]) as f64);
    o.metric("lost", (p.dropped[0] + p.dropped[1]) as f64);
    o.metric("failed", failed as f64);
    o.metric("port_posts", n_port as f64);
    o.metric("refused", n_refused as f64);
    for (name, w, reg) in [
        ("timeouts_a", Which::A, csr::RTO_TIMEOUTS),
        ("timeouts_b", Which::B, csr::RTO_TIMEOUTS),
        ("cnps_a", Which::A, csr::STAT_CNPS),
        ("cnps_b", Which::B, csr::STAT_CNPS),
        ("fb_acks_a", Which::A, csr::FB_ACKS),
        ("fb_acks_b", Which::B, csr::FB_ACKS),
        ("fb_applied_a", Which::A, csr::FB_APPLIED),
        ("fb_applied_b", Which::B, csr::FB_APPLIED),
        ("fb_ignored_a", Which::A, csr::FB_IGNORED),
        ("fb_ignored_b", Which::B, csr::FB_IGNORED),
        ("merged_a", Which::A, csr::MERGED),
        ("merged_b", Which::B, csr::MERGED),
    ] {
        core(&mut p, w).read(reg);
        let t = settle(&mut p, w, 10_000).last().map_or(0, |r| r.1);
        // Both ends of every queue pair run one algorithm: no Rx-HPCC feedback is ignored.
        if name.starts_with("fb_ignored") && t != 0 {
            o.fail(format!("core {w:?} ignored {t} Rx-HPCC feedbacks"));
        }
        o.metric(name, t as f64);
    }
    o.metric("qps_hpcc_rxhpcc_ldcp_dcqcn", (algs[0] * 1000 + algs[1] * 100 + algs[2] * 10 + algs[3]) as f64);
    // cc_module inside each core against its model: every event it took and every Update and
    // feedback it gave (timer events keep coming, so a few outputs may still be owed); and
    // flow_sched in lockstep with its model, every cycle from reset.
    super::core_probe::report(&mut o, [("A".to_string(), &p.a), ("B".to_string(), &p.b)]);
    o
}
