//! Regressions that compare the Verilated RTL with the golden models, and their bookkeeping.

pub mod cc_dcqcn;
pub mod cc_hpcc;
pub mod cc_ldcp;
pub mod cc_module;
pub mod cc_units;
pub mod flow_sched;
pub mod flow_sched_checks;
pub mod tx_ctx;
pub mod tx_pipe;
pub mod rx_ctx;
pub mod read_split;
pub mod rx_pipe;
pub mod rx_dma;
pub mod host;
pub mod nic_datapath;
pub mod hpcc_nic_core;
pub mod core_probe;
pub mod fabric;

use std::fmt;
use std::time::Instant;

/// Every regression job `hpcc-nic regress` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scenario {
    /// flow_sched: random traffic, every output compared on every cycle.
    FlowSchedRandom,
    /// flow_sched: 1024 active flows, per-flow pacing error.
    FlowSchedPacing,
    /// flow_sched: one flow at line rate, and the PktSend ceiling.
    FlowSchedLineRate,
    /// flow_sched: windows never exceeded, checked every cycle.
    FlowSchedWindow,
    /// flow_sched: bogus acks, extreme rates and windows, bad flow ids and reserved bits.
    FlowSchedBadInput,
    /// div_pipe: random and saturating divisions, every output compared every cycle.
    DivPipeRandom,
    /// mul_pipe: random products, every output compared every cycle.
    MulPipeRandom,
    /// cc_hop_util: random hop records, every output compared every cycle.
    CcHopUtilRandom,
    /// cc_hpcc: random events over many flows, every result compared with the model.
    CcHpccRandom,
    /// cc_hpcc: same-flow bursts on a few flows, input offered every cycle.
    CcHpccBursts,
    /// cc_ldcp: random events over many flows, every result compared with the model.
    CcLdcpRandom,
    /// cc_ldcp: same-flow bursts on a few flows, input offered every cycle.
    CcLdcpBursts,
    /// cc_dcqcn: random hostile events over many flows, every result compared with the model.
    CcDcqcnRandom,
    /// cc_dcqcn: same-flow bursts on a few flows, input offered every cycle.
    CcDcqcnBursts,
    /// cc_module: random unified events over many flows with random algorithms, re-creates,
    /// unused types, bad flow ids and backpressure; every Update and feedback compared.
    CcModuleRandom,
    /// tx_pipe: random descriptors and payloads of every opcode and size, input gaps and
    /// output backpressure; every frame compared byte by byte with the model.
    TxPipeRandom,
    /// tx_pipe: the same with payload streams longer or shorter than their descriptors.
    TxPipeBadInput,
    /// rx_pipe: random valid frames of every opcode and size, input gaps, verdict backpressure;
    /// every verdict and the counters compared with the model.
    RxPipeRandom,
    /// rx_pipe: valid frames interleaved with mutated and random junk (truncated, runt,
    /// oversized, bad checksums and ICRC, bad opcodes and hops, tlast missing, tkeep holes, tuser).
    RxPipeFuzz,
    /// tx_ctx: random control words and PktSends, input gaps, backpressure on both outputs;
    /// every descriptor and DMA read compared with the model.
    TxCtxRandom,
    /// tx_ctx: the same with bad control words, bad PktSends and resets.
    TxCtxBadInput,
    /// rx_ctx: random control words, sent events and verdict records, input gaps, backpressure
    /// on all four outputs; every PktRecv, CC event, Notify and DMA command compared.
    RxCtxRandom,
    /// rx_ctx: the same with bad control words, unknown flows and QPNs, and resets.
    RxCtxBadInput,
    /// read_split: random PktRecv words, whole READs of 0 to many packets among the other
    /// kinds, input gaps, output backpressure; every word out compared with the model.
    ReadSplitRandom,
    /// read_split: the same with resets at random cycles.
    ReadSplitBadInput,
    /// rx_dma: random frames and commands (before, during, after the frame), input gaps,
    /// backpressure on both outputs; every DMA write compared with the model.
    RxDmaRandom,
    /// rx_dma: the same with tkeep holes, frames up to 20 000 bytes, write commands past the
    /// frame's end and resets.
    RxDmaBadInput,
    /// nic_datapath: two instances back to back, four queue pairs posting WRITEs and READs
    /// over a lossy link; every message completes and lands byte for byte, Notifies exact.
    NicDatapathRandom,
    /// hpcc_nic_core: two cores back to back, four queue pairs on random algorithms posting
    /// WRITEs and READs through the register port; every message completes with its tag and
    /// lands byte for byte.
    CoreRandom,
    /// Four hpcc_nic_cores on the switch model (`fabric`): random WRITEs and READs between
    /// them on all four algorithms, ECN by RED, random loss of any frame.
    FabricRandom,
}

impl Scenario {
    /// All scenarios, in report order.
    pub const ALL: [Scenario; 30] = [
        Scenario::FlowSchedRandom,
        Scenario::FlowSchedPacing,
        Scenario::FlowSchedLineRate,
        Scenario::FlowSchedWindow,
        Scenario::FlowSchedBadInput,
        Scenario::DivPipeRandom,
        Scenario::MulPipeRandom,
        Scenario::CcHopUtilRandom,
        Scenario::CcHpccRandom,
        Scenario::CcHpccBursts,
        Scenario::CcLdcpRandom,
        Scenario::CcLdcpBursts,
        Scenario::CcDcqcnRandom,
        Scenario::CcDcqcnBursts,
        Scenario::CcModuleRandom,
        Scenario::TxPipeRandom,
        Scenario::TxPipeBadInput,
        Scenario::RxPipeRandom,
        Scenario::RxPipeFuzz,
        Scenario::TxCtxRandom,
        Scenario::TxCtxBadInput,
        Scenario::RxCtxRandom,
        Scenario::RxCtxBadInput,
        Scenario::ReadSplitRandom,
        Scenario::ReadSplitBadInput,
        Scenario::RxDmaRandom,
        Scenario::RxDmaBadInput,
        Scenario::NicDatapathRandom,
        Scenario::CoreRandom,
        Scenario::FabricRandom,
    ];

    /// Module under test.
    pub fn module(self) -> &'static str {
        match self {
            Scenario::DivPipeRandom => "div_pipe",
            Scenario::MulPipeRandom => "mul_pipe",
            Scenario::CcHopUtilRandom => "cc_hop_util",
            Scenario::CcHpccRandom | Scenario::CcHpccBursts => "cc_hpcc",
            Scenario::CcLdcpRandom | Scenario::CcLdcpBursts => "cc_ldcp",
            Scenario::CcDcqcnRandom | Scenario::CcDcqcnBursts => "cc_dcqcn",
            Scenario::CcModuleRandom => "cc_module",
            Scenario::TxPipeRandom | Scenario::TxPipeBadInput => "tx_pipe",
            Scenario::RxPipeRandom | Scenario::RxPipeFuzz => "rx_pipe",
            Scenario::TxCtxRandom | Scenario::TxCtxBadInput => "tx_ctx",
            Scenario::RxCtxRandom | Scenario::RxCtxBadInput => "rx_ctx",
            Scenario::ReadSplitRandom | Scenario::ReadSplitBadInput => "read_split",
            Scenario::RxDmaRandom | Scenario::RxDmaBadInput => "rx_dma",
            Scenario::NicDatapathRandom => "nic_datapath",
            Scenario::CoreRandom | Scenario::FabricRandom => "hpcc_nic_core",
            _ => "flow_sched",
        }
    }

    /// Short name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scenario::FlowSchedRandom => "random",
            Scenario::FlowSchedPacing => "pacing",
            Scenario::FlowSchedLineRate => "line-rate",
            Scenario::FlowSchedWindow => "window",
            Scenario::FlowSchedBadInput => "bad-input",
            Scenario::DivPipeRandom => "div-random",
            Scenario::MulPipeRandom => "mul-random",
            Scenario::CcHopUtilRandom => "hop-random",
            Scenario::CcHpccRandom => "hpcc-random",
            Scenario::CcHpccBursts => "hpcc-bursts",
            Scenario::CcLdcpRandom => "ldcp-random",
            Scenario::CcLdcpBursts => "ldcp-bursts",
            Scenario::CcDcqcnRandom => "dcqcn-random",
            Scenario::CcDcqcnBursts => "dcqcn-bursts",
            Scenario::CcModuleRandom => "module-random",
            Scenario::TxPipeRandom => "tx-random",
            Scenario::TxPipeBadInput => "tx-bad-input",
            Scenario::RxPipeRandom => "rx-random",
            Scenario::RxPipeFuzz => "rx-fuzz",
            Scenario::TxCtxRandom => "txctx-random",
            Scenario::TxCtxBadInput => "txctx-bad-input",
            Scenario::RxCtxRandom => "rxctx-random",
            Scenario::RxCtxBadInput => "rxctx-bad-input",
            Scenario::ReadSplitRandom => "split-random",
            Scenario::ReadSplitBadInput => "split-bad-input",
            Scenario::RxDmaRandom => "rxdma-random",
            Scenario::RxDmaBadInput => "rxdma-bad-input",
            Scenario::NicDatapathRandom => "datapath-random",
            Scenario::CoreRandom => "core-random",
            Scenario::FabricRandom => "fabric-random",
        }
    }

    /// Runs one seed of the scenario for about `cycles` cycles.
    pub fn run(self, seed: u64, cycles: u64, vcd: Option<&std::path::Path>) -> Outcome {
        let mut o = match self {
            Scenario::FlowSchedRandom => flow_sched::random(seed, cycles, vcd),
            Scenario::FlowSchedPacing => flow_sched_checks::pacing(seed, cycles, vcd),
            Scenario::FlowSchedLineRate => flow_sched_checks::line_rate(seed, cycles, vcd),
            Scenario::FlowSchedWindow => flow_sched_checks::window(seed, cycles, vcd),
            Scenario::FlowSchedBadInput => flow_sched::bad_input(seed, cycles, vcd),
            Scenario::DivPipeRandom => cc_units::div_random(seed, cycles, vcd),
            Scenario::MulPipeRandom => cc_units::mul_random(seed, cycles, vcd),
            Scenario::CcHopUtilRandom => cc_units::hop_random(seed, cycles, vcd),
            Scenario::CcHpccRandom => cc_hpcc::run(self, seed, cycles, &cc_hpcc::Shape::RANDOM, vcd),
            Scenario::CcHpccBursts => cc_hpcc::run(self, seed, cycles, &cc_hpcc::Shape::BURSTS, vcd),
            Scenario::CcLdcpRandom => cc_ldcp::run(self, seed, cycles, &cc_ldcp::Shape::RANDOM, vcd),
            Scenario::CcLdcpBursts => cc_ldcp::run(self, seed, cycles, &cc_ldcp::Shape::BURSTS, vcd),
            // Seeds alternate between configuration A (byte counter, g = 1/256) and B (none,
            // g = 1/16).
            Scenario::CcDcqcnRandom => {
                let shape = cc_dcqcn::Shape { config_b: seed % 2 == 1, ..cc_dcqcn::Shape::RANDOM };
                cc_dcqcn::run(self, seed, cycles, &shape, vcd)
            }
            Scenario::CcDcqcnBursts => {
                let shape = cc_dcqcn::Shape { config_b: seed % 2 == 1, ..cc_dcqcn::Shape::BURSTS };
                cc_dcqcn::run(self, seed, cycles, &shape, vcd)
            }
            Scenario::CcModuleRandom => {
                cc_module::run(self, seed, cycles, &cc_module::Shape::RANDOM, vcd)
            }
            Scenario::TxPipeRandom => tx_pipe::random(seed, cycles, vcd),
            Scenario::TxPipeBadInput => tx_pipe::bad_input(seed, cycles, vcd),
            Scenario::RxPipeRandom => rx_pipe::run(self, seed, cycles, &rx_pipe::Shape::RANDOM, vcd),
            Scenario::RxPipeFuzz => rx_pipe::run(self, seed, cycles, &rx_pipe::Shape::FUZZ, vcd),
            Scenario::TxCtxRandom => tx_ctx::random(seed, cycles, vcd),
            Scenario::TxCtxBadInput => tx_ctx::bad_input(seed, cycles, vcd),
            Scenario::RxCtxRandom => rx_ctx::random(seed, cycles, vcd),
            Scenario::RxCtxBadInput => rx_ctx::bad_input(seed, cycles, vcd),
            Scenario::ReadSplitRandom => read_split::random(seed, cycles, vcd),
            Scenario::ReadSplitBadInput => read_split::bad_input(seed, cycles, vcd),
            Scenario::RxDmaRandom => rx_dma::random(seed, cycles, vcd),
            Scenario::RxDmaBadInput => rx_dma::bad_input(seed, cycles, vcd),
            Scenario::NicDatapathRandom => nic_datapath::random(seed, cycles, vcd),
            Scenario::CoreRandom => hpcc_nic_core::random(seed, cycles, vcd),
            Scenario::FabricRandom => fabric::random(seed, cycles, vcd),
        };
        o.budget = cycles;
        o
    }
}

impl fmt::Display for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.module(), self.name())
    }
}

/// Result of one scenario and seed.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What ran.
    pub scenario: Scenario,
    /// Its seed.
    pub seed: u64,
    /// The cycle count asked for (`--cycles`); reset, set-up and draining come on top.
    pub budget: u64,
    /// Clock cycles simulated.
    pub cycles: u64,
    /// Transactions compared (accepted inputs and PktSends).
    pub transactions: u64,
    /// Cycles on which RTL and model outputs differed.
    pub mismatches: u64,
    /// The first mismatch, if any.
    pub first_mismatch: Option<String>,
    /// Failed checks other than RTL/model equality (pacing error, lost packets...).
    pub failures: Vec<String>,
    /// Measured figures, name and value.
    pub metrics: Vec<(String, f64)>,
    /// Wall time.
    pub seconds: f64,
}

impl Outcome {
    /// An empty outcome to fill in.
    pub fn new(scenario: Scenario, seed: u64) -> Self {
        Outcome {
            scenario,
            seed,
            budget: 0,
            cycles: 0,
            transactions: 0,
            mismatches: 0,
            first_mismatch: None,
            failures: vec![],
            metrics: vec![],
            seconds: 0.0,
        }
    }

    /// Records a failed check.
    pub fn fail(&mut self, why: String) {
        self.failures.push(why);
    }

    /// Compares one output of the RTL with the model's; counts a difference and keeps the
    /// first.
    pub fn check<T: PartialEq + fmt::Debug>(&mut self, cycle: u64, rtl: T, model: T) {
        if rtl != model {
            self.mismatches += 1;
            if self.first_mismatch.is_none() {
                self.first_mismatch = Some(format!("cycle {cycle}: rtl {rtl:?}, model {model:?}"));
            }
        }
    }

    /// Records a measured figure.
    pub fn metric(&mut self, name: &str, value: f64) {
        self.metrics.push((name.to_string(), value));
    }

    /// Value of a recorded figure.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.metrics.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// Fills the counters from a finished lockstep run.
    pub fn finish(
        mut self,
        t: &flow_sched::Traffic,
        ls: &flow_sched::Lockstep,
        start: Instant,
    ) -> Self {
        self.cycles = t.cycles;
        self.transactions = t.transactions;
        self.mismatches = ls.mismatches;
        self.first_mismatch = ls.first.clone();
        self.seconds = start.elapsed().as_secs_f64();
        self
    }

    /// No mismatch and no failed check.
    pub fn passed(&self) -> bool {
        self.mismatches == 0 && self.failures.is_empty()
    }

    /// The command that re-runs this seed with a VCD of the RTL.
    pub fn rerun_command(&self) -> String {
        format!(
            "cargo run --release -p testbench --bin hpcc-nic -- regress --only {} --seed {:#x} --cycles {} --vcd {}_{:x}.vcd",
            self.scenario.name(),
            self.seed,
            self.budget,
            self.scenario.name(),
            self.seed
        )
    }
}

/// Bytes into a port wider than 64 bits (byte i at [8i+7:8i], the model's word 0 first); a last
/// partial word is zero-padded.
pub fn set_wide(dst: &mut [u32], bytes: &[u8]) {
    for (w, c) in dst.iter_mut().zip(bytes.chunks(4)) {
        let mut b = [0u8; 4];
        b[..c.len()].copy_from_slice(c);
        *w = u32::from_le_bytes(b);
    }
}

/// A port wider than 64 bits as bytes, byte i from [8i+7:8i].
pub fn get_wide(src: &[u32]) -> Vec<u8> {
    src.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Bytes in hex, for mismatch messages.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
