//! Regressions that compare the Verilated RTL with the golden models, and their bookkeeping.

pub mod cc_cfg;
pub mod cc_dcqcn;
pub mod cc_engine;
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
pub mod cdc_frame_fifo;
pub mod frames;
pub mod mac_shim;
pub mod pcie_axil;
pub mod pcie_rd;
pub mod pcie_shim;
pub mod dma_mux;
pub mod host_queues;
pub mod hpcc_nic;
pub mod pcie_host;
pub mod pcie_wr;
pub mod host;
pub mod nic_datapath;
pub mod any_nic;
pub mod hpcc_nic_core;
pub mod model_nic;
pub mod core_probe;
pub mod core_net;
pub mod fabric;
pub mod netsim;
pub mod netsim_lane;
pub mod poster;
pub mod stream;

use std::fmt;
use std::time::Instant;

/// Every regression job `hpcc-nic regress` knows; its name, module, default seeds and cycles,
/// description and run function are its row of [`TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scenario {
    FlowSchedRandom,
    FlowSchedPacing,
    FlowSchedLineRate,
    FlowSchedWindow,
    FlowSchedBadInput,
    DivPipeRandom,
    MulPipeRandom,
    CcHopUtilRandom,
    CcHpccRandom,
    CcHpccBursts,
    CcLdcpRandom,
    CcLdcpBursts,
    CcDcqcnRandom,
    CcDcqcnBursts,
    CcModuleRandom,
    TxPipeRandom,
    TxPipeBadInput,
    RxPipeRandom,
    RxPipeFuzz,
    TxCtxRandom,
    TxCtxBadInput,
    RxCtxRandom,
    RxCtxBadInput,
    ReadSplitRandom,
    ReadSplitBadInput,
    RxDmaRandom,
    RxDmaBadInput,
    CdcFifoWait,
    CdcFifoDrop,
    CdcFifoLineRate,
    MacShimRandom,
    PcieRdRandom,
    PcieRdBadInput,
    PcieRdRate,
    PcieWrRandom,
    PcieWrBadInput,
    PcieWrRate,
    PcieAxilRandom,
    PcieAxilBadInput,
    PcieShimRandom,
    DmaRdMuxRandom,
    DmaWrMuxRandom,
    HostQueuesRandom,
    NicDatapathRandom,
    CoreRandom,
    FabricRandom,
    NicPair,
    NicLoopback,
}

/// One row of the scenario table: what `hpcc-nic regress` runs, and how much of it by default.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    pub scenario: Scenario,
    /// Name on the command line (`--only`).
    pub name: &'static str,
    /// Module under test (its `rtl-out/<module>.v`).
    pub module: &'static str,
    /// Seeds run by default.
    pub seeds: u64,
    /// Cycles per seed by default (`--cycles`, `--scale`).
    pub cycles: u64,
    /// What the scenario drives and checks (`regress --list`).
    pub about: &'static str,
    /// Runs one seed for about `cycles` cycles, with a VCD if a path is given.
    pub run: Run,
}

/// A scenario's run function: scenario, seed, cycles, VCD path.
pub type Run = fn(Scenario, u64, u64, Option<&std::path::Path>) -> Outcome;

/// Every scenario, in report order: `regress` dispatches, defaults and its help come from here.
pub const TABLE: [Info; 48] = [
    Info {
        scenario: Scenario::FlowSchedRandom,
        name: "random",
        module: "flow_sched",
        seeds: 8,
        cycles: 2_000_000,
        about: "random traffic, every output compared on every cycle.",
        run: |_, seed, cycles, vcd| flow_sched::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::FlowSchedPacing,
        name: "pacing",
        module: "flow_sched",
        seeds: 2,
        cycles: 4_000_000,
        about: "1024 active flows, per-flow pacing error.",
        run: |_, seed, cycles, vcd| flow_sched_checks::pacing(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::FlowSchedLineRate,
        name: "line-rate",
        module: "flow_sched",
        seeds: 1,
        cycles: 1_500_000,
        about: "one flow at line rate, and the PktSend ceiling.",
        run: |_, seed, cycles, vcd| flow_sched_checks::line_rate(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::FlowSchedWindow,
        name: "window",
        module: "flow_sched",
        seeds: 4,
        cycles: 1_000_000,
        about: "windows never exceeded, checked every cycle.",
        run: |_, seed, cycles, vcd| flow_sched_checks::window(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::FlowSchedBadInput,
        name: "bad-input",
        module: "flow_sched",
        seeds: 4,
        cycles: 1_000_000,
        about: "bogus acks, extreme rates and windows, bad flow ids and reserved bits.",
        run: |_, seed, cycles, vcd| flow_sched::bad_input(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::DivPipeRandom,
        name: "div-random",
        module: "div_pipe",
        seeds: 2,
        cycles: 1_000_000,
        about: "random and saturating divisions, every output compared every cycle.",
        run: |_, seed, cycles, vcd| cc_units::div_random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::MulPipeRandom,
        name: "mul-random",
        module: "mul_pipe",
        seeds: 2,
        cycles: 1_000_000,
        about: "random products, every output compared every cycle.",
        run: |_, seed, cycles, vcd| cc_units::mul_random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::CcHopUtilRandom,
        name: "hop-random",
        module: "cc_hop_util",
        seeds: 2,
        cycles: 1_000_000,
        about: "random hop records, every output compared every cycle.",
        run: |_, seed, cycles, vcd| cc_units::hop_random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::CcHpccRandom,
        name: "hpcc-random",
        module: "cc_hpcc",
        seeds: 3,
        cycles: 1_000_000,
        about: "random events over many flows, every result compared with the model.",
        run: |s, seed, cycles, vcd| cc_hpcc::run(s, seed, cycles, &cc_engine::Shape::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::CcHpccBursts,
        name: "hpcc-bursts",
        module: "cc_hpcc",
        seeds: 1,
        cycles: 300_000,
        about: "same-flow bursts on a few flows, input offered every cycle.",
        run: |s, seed, cycles, vcd| cc_hpcc::run(s, seed, cycles, &cc_engine::Shape::BURSTS, vcd),
    },
    Info {
        scenario: Scenario::CcLdcpRandom,
        name: "ldcp-random",
        module: "cc_ldcp",
        seeds: 2,
        cycles: 1_000_000,
        about: "random events over many flows, every result compared with the model.",
        run: |s, seed, cycles, vcd| cc_ldcp::run(s, seed, cycles, &cc_engine::Shape::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::CcLdcpBursts,
        name: "ldcp-bursts",
        module: "cc_ldcp",
        seeds: 1,
        cycles: 300_000,
        about: "same-flow bursts on a few flows, input offered every cycle.",
        run: |s, seed, cycles, vcd| cc_ldcp::run(s, seed, cycles, &cc_engine::Shape::BURSTS, vcd),
    },
    Info {
        scenario: Scenario::CcDcqcnRandom,
        name: "dcqcn-random",
        module: "cc_dcqcn",
        seeds: 2,
        cycles: 1_000_000,
        about: "random hostile events over many flows, every result compared with the model.",
        // Seeds alternate between configuration A (byte counter, g = 1/256) and B (none,
        // g = 1/16).
        run: |s, seed, cycles, vcd| cc_dcqcn::run(s, seed, cycles, &cc_dcqcn::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::CcDcqcnBursts,
        name: "dcqcn-bursts",
        module: "cc_dcqcn",
        seeds: 2,
        cycles: 300_000,
        about: "same-flow bursts on a few flows, input offered every cycle.",
        run: |s, seed, cycles, vcd| cc_dcqcn::run(s, seed, cycles, &cc_engine::Shape::BURSTS, vcd),
    },
    Info {
        scenario: Scenario::CcModuleRandom,
        name: "module-random",
        module: "cc_module",
        seeds: 1,
        cycles: 500_000,
        about: "random unified events over many flows with random algorithms, re-creates, unused types, bad flow ids and backpressure; every Update and feedback compared.",
        run: |s, seed, cycles, vcd| cc_module::run(s, seed, cycles, &cc_module::Shape::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::TxPipeRandom,
        name: "tx-random",
        module: "tx_pipe",
        seeds: 4,
        cycles: 600_000,
        about: "random descriptors and payloads of every opcode and size, input gaps and output backpressure; every frame compared byte by byte with the model.",
        run: |_, seed, cycles, vcd| tx_pipe::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::TxPipeBadInput,
        name: "tx-bad-input",
        module: "tx_pipe",
        seeds: 2,
        cycles: 300_000,
        about: "the same with payload streams longer or shorter than their descriptors.",
        run: |_, seed, cycles, vcd| tx_pipe::bad_input(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::RxPipeRandom,
        name: "rx-random",
        module: "rx_pipe",
        seeds: 2,
        cycles: 1_000_000,
        about: "random valid frames of every opcode and size, input gaps, verdict backpressure; every verdict and the counters compared with the model.",
        run: |s, seed, cycles, vcd| rx_pipe::run(s, seed, cycles, &rx_pipe::Shape::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::RxPipeFuzz,
        name: "rx-fuzz",
        module: "rx_pipe",
        seeds: 2,
        cycles: 2_500_000,
        about: "valid frames interleaved with mutated and random junk (truncated, runt, oversized, bad checksums and ICRC, bad opcodes and hops, tlast missing, tkeep holes, tuser).",
        run: |s, seed, cycles, vcd| rx_pipe::run(s, seed, cycles, &rx_pipe::Shape::FUZZ, vcd),
    },
    Info {
        scenario: Scenario::TxCtxRandom,
        name: "txctx-random",
        module: "tx_ctx",
        seeds: 4,
        cycles: 500_000,
        about: "random control words and PktSends, input gaps, backpressure on both outputs; every descriptor and DMA read compared with the model.",
        run: |_, seed, cycles, vcd| tx_ctx::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::TxCtxBadInput,
        name: "txctx-bad-input",
        module: "tx_ctx",
        seeds: 2,
        cycles: 500_000,
        about: "the same with bad control words, bad PktSends and resets.",
        run: |_, seed, cycles, vcd| tx_ctx::bad_input(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::RxCtxRandom,
        name: "rxctx-random",
        module: "rx_ctx",
        seeds: 2,
        cycles: 500_000,
        about: "random control words, sent events and verdict records, input gaps, backpressure on all four outputs; every PktRecv, CC event, Notify and DMA command compared.",
        run: |_, seed, cycles, vcd| rx_ctx::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::RxCtxBadInput,
        name: "rxctx-bad-input",
        module: "rx_ctx",
        seeds: 2,
        cycles: 500_000,
        about: "the same with bad control words, unknown flows and QPNs, and resets.",
        run: |_, seed, cycles, vcd| rx_ctx::bad_input(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::ReadSplitRandom,
        name: "split-random",
        module: "read_split",
        seeds: 2,
        cycles: 1_000_000,
        about: "random PktRecv words, whole READs of 0 to many packets among the other kinds, input gaps, output backpressure; every word out compared with the model.",
        run: |_, seed, cycles, vcd| read_split::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::ReadSplitBadInput,
        name: "split-bad-input",
        module: "read_split",
        seeds: 1,
        cycles: 1_000_000,
        about: "the same with resets at random cycles.",
        run: |_, seed, cycles, vcd| read_split::bad_input(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::RxDmaRandom,
        name: "rxdma-random",
        module: "rx_dma",
        seeds: 2,
        cycles: 4_000_000,
        about: "random frames and commands (before, during, after the frame), input gaps, backpressure on both outputs; every DMA write compared with the model.",
        run: |_, seed, cycles, vcd| rx_dma::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::RxDmaBadInput,
        name: "rxdma-bad-input",
        module: "rx_dma",
        seeds: 2,
        cycles: 3_000_000,
        about: "the same with tkeep holes, frames up to 20 000 bytes, write commands past the frame's end and resets.",
        run: |_, seed, cycles, vcd| rx_dma::bad_input(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::CdcFifoWait,
        name: "cdc-wait",
        module: "cdc_frame_fifo",
        seeds: 3,
        cycles: 3_500_000,
        about: "the MAC shim's clock crossing, waiting when full (transmit): random frames (1 byte to past the depth, bad ones) with gaps and backpressure, each seed on all seven clock pairs in turn (250/322 MHz both ways, equal, 90 degrees, drifting, 4:1 both ways); frames whole, in order, none lost or doubled, tvalid held through a frame, counters exact.",
        run: |s, seed, cycles, vcd| cdc_frame_fifo::run(s, seed, cycles, &cdc_frame_fifo::Shape::WAIT, vcd),
    },
    Info {
        scenario: Scenario::CdcFifoDrop,
        name: "cdc-drop",
        module: "cdc_frame_fifo",
        seeds: 3,
        cycles: 3_500_000,
        about: "the same dropping when full (receive: the CMAC cannot wait), with a slow sink that fills it: frames read whole and in order, every frame not read counted once as bad or overflow.",
        run: |s, seed, cycles, vcd| cdc_frame_fifo::run(s, seed, cycles, &cdc_frame_fifo::Shape::DROP, vcd),
    },
    Info {
        scenario: Scenario::CdcFifoLineRate,
        name: "cdc-line-rate",
        module: "cdc_frame_fifo",
        seeds: 1,
        cycles: 440_000,
        about: "100 Gb/s across 250 -> 322 MHz (transmit) and 322 -> 250 MHz (receive) at frame sizes 60 B to 4 KiB: at least 98% of what the streams can carry, no overflow on receive where 250 MHz carries 100 Gb/s.",
        run: |s, seed, cycles, vcd| cdc_frame_fifo::line_rate(s, seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::MacShimRandom,
        name: "mac-random",
        module: "mac_shim",
        seeds: 3,
        cycles: 600_000,
        about: "the MAC shim on three clocks (core 250 MHz, CMAC TX and RX 322 MHz at the seed's phases, RX drifting on odd seeds): random frames both ways with bad ones, runts and too-long ones, a CMAC TX that holds tready low, a core whose tready comes and goes; frames padded to 60, whole, in order, no underrun to the CMAC, nothing bad to the core, the six counters exact on the core clock.",
        run: |s, seed, cycles, vcd| mac_shim::random(s, seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::PcieRdRandom,
        name: "pcie-rd-random",
        module: "pcie_rd",
        seeds: 2,
        cycles: 400_000,
        about: "the PCIe DMA read engine behind a completer that splits completions at random multiples of the RCB (64 B on even seeds, 128 B on odd) and answers each read after its own latency, so tags overtake each other; requests of 1 B to 16 KiB at random addresses, the max read request changed between them, gaps on RC, backpressure on RQ and data; every read TLP equal to the model's, every request's data once, in order, byte for byte.",
        run: |s, seed, cycles, vcd| pcie_rd::run(s, seed, cycles, &pcie_rd::Shape::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::PcieRdBadInput,
        name: "pcie-rd-bad-input",
        module: "pcie_rd",
        seeds: 2,
        cycles: 400_000,
        about: "the same with error completions (UR, completion timeout, poisoned), completions whose byte count overruns the read, completions for tags with no read out or above 31, and requests of length 0: every request still finishes in order, the counters exact.",
        run: |s, seed, cycles, vcd| pcie_rd::run(s, seed, cycles, &pcie_rd::Shape::BAD_INPUT, vcd),
    },
    Info {
        scenario: Scenario::PcieRdRate,
        name: "pcie-rd-rate",
        module: "pcie_rd",
        seeds: 1,
        cycles: 270_000,
        about: "read throughput with nothing held back, 1 us completion latency: completions of 64, 128 and 256 bytes, requests of 256 B, 1 KiB and 4 KiB; data checked as in pcie-rd-random; at least 95 Gb/s with 256-byte completions of 4 KiB requests.",
        run: pcie_rd::rate,
    },
    Info {
        scenario: Scenario::PcieWrRandom,
        name: "pcie-wr-random",
        module: "pcie_wr",
        seeds: 4,
        cycles: 200_000,
        about: "the PCIe DMA write engine: writes of 1 B to 9 KiB at random addresses, commands before, with or after their payloads, gaps, RQ backpressure, max payload 128 to 1024 B (one per seed); every RQ beat equal to the model's (descriptor, the payload bytes the byte enables write, tkeep, tlast, tuser).",
        run: |s, seed, cycles, vcd| pcie_wr::run(s, seed, cycles, &pcie_wr::Shape::RANDOM, vcd),
    },
    Info {
        scenario: Scenario::PcieWrBadInput,
        name: "pcie-wr-bad-input",
        module: "pcie_wr",
        seeds: 2,
        cycles: 200_000,
        about: "the same with payloads of another length than their command's, commands of length 0 and payloads longer than the store keeps: each dropped and counted, the writes around it unharmed.",
        run: |s, seed, cycles, vcd| pcie_wr::run(s, seed, cycles, &pcie_wr::Shape::BAD_INPUT, vcd),
    },
    Info {
        scenario: Scenario::PcieWrRate,
        name: "pcie-wr-rate",
        module: "pcie_wr",
        seeds: 1,
        cycles: 270_000,
        about: "write throughput with RQ always ready: max payload 128, 256 and 512 B, writes of 256 B, 1 KiB and 4 KiB; at least 100 Gb/s of payload for 4 KiB writes at max payload 256.",
        run: pcie_wr::rate,
    },
    Info {
        scenario: Scenario::PcieAxilRandom,
        name: "pcie-axil-random",
        module: "pcie_axil",
        seeds: 2,
        cycles: 200_000,
        about: "the PCIe completer: one-dword BAR0 reads and writes with random byte enables to a register file behind AXI4-Lite with random delays and SLVERR on words 0x300 and up; every register access and every completion equal to the model's, counters exact.",
        run: |s, seed, cycles, vcd| pcie_axil::run(s, seed, cycles, 0.0, vcd),
    },
    Info {
        scenario: Scenario::PcieAxilBadInput,
        name: "pcie-axil-bad-input",
        module: "pcie_axil",
        seeds: 2,
        cycles: 200_000,
        about: "the same with a third of the requests not served (2 to 40 dwords, other BARs, I/O, atomics, messages): no register access for them, an unsupported-request completion for each non-posted one, counted.",
        run: |s, seed, cycles, vcd| pcie_axil::run(s, seed, cycles, 0.33, vcd),
    },
    Info {
        scenario: Scenario::PcieShimRandom,
        name: "pcie-shim-random",
        module: "pcie_shim",
        seeds: 2,
        cycles: 200_000,
        about: "the whole PCIe shim: DMA reads, DMA writes and BAR0 register accesses at once, a host completing reads out of order at the RCB; every RQ TLP equal to its engine's next (no TLP cut by the other's), read data and register values exact, counters exact.",
        run: pcie_shim::run,
    },
    Info {
        scenario: Scenario::DmaRdMuxRandom,
        name: "dma-rd-mux-random",
        module: "dma_rd_mux",
        seeds: 2,
        cycles: 200_000,
        about: "two DMA read requesters on one read engine: each gets back exactly its own requests' data, in order (length-0 requests none), with random latency and backpressure everywhere.",
        run: dma_mux::rd,
    },
    Info {
        scenario: Scenario::DmaWrMuxRandom,
        name: "dma-wr-mux-random",
        module: "dma_wr_mux",
        seeds: 2,
        cycles: 200_000,
        about: "two DMA writers on one write engine, commands before, with or after their payloads: each command reaches the engine paired (by order) with its own payload, each writer's writes in order, none cut.",
        run: dma_mux::wr,
    },
    Info {
        scenario: Scenario::HostQueuesRandom,
        name: "host-queues-random",
        module: "host_queues",
        seeds: 2,
        cycles: 300_000,
        about: "the host queue engine: eight send queues fed with WQEs and doorbells, host memory answering fetches late, a core stand-in completing posts in any order, a completion queue the driver drains late; bad opcodes, error completions, bad register writes. Every fetch, post and CQE equal to the model's, counters exact.",
        run: host_queues::run,
    },
    Info {
        scenario: Scenario::NicDatapathRandom,
        name: "datapath-random",
        module: "nic_datapath",
        seeds: 2,
        cycles: 200_000,
        about: "two instances back to back, four queue pairs posting WRITEs and READs over a lossy link; every message completes and lands byte for byte, Notifies exact.",
        run: |_, seed, cycles, vcd| nic_datapath::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::CoreRandom,
        name: "core-random",
        module: "hpcc_nic_core",
        seeds: 2,
        cycles: 200_000,
        about: "two cores back to back, four queue pairs on random algorithms posting WRITEs and READs through the register port; every message completes with its tag and lands byte for byte.",
        run: |_, seed, cycles, vcd| hpcc_nic_core::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::FabricRandom,
        name: "fabric-random",
        module: "hpcc_nic_core",
        seeds: 1,
        cycles: 150_000,
        about: "Four hpcc_nic_cores on the switch model (`fabric`): random WRITEs and READs between them on all four algorithms, ECN by RED, random loss of any frame.",
        run: |_, seed, cycles, vcd| fabric::random(seed, cycles, vcd),
    },
    Info {
        scenario: Scenario::NicPair,
        name: "nic-pair",
        module: "hpcc_nic",
        seeds: 2,
        cycles: 200_000,
        about: "the whole NIC end to end: two NICs wire to wire (CMACs at 100 Gb/s on their own clock), each behind a PCIe host (memory, DMA completions reordered, BAR0); a driver creates queue pairs and queues through BAR0 and posts WRITE and READ WQEs by doorbell. Every completion entry right, every message's bytes in the other host's memory, the NICs' counters equal to the hosts' counts.",
        run: hpcc_nic::run,
    },
    Info {
        scenario: Scenario::NicLoopback,
        name: "nic-loopback",
        module: "hpcc_nic",
        seeds: 1,
        cycles: 100_000,
        about: "nic-pair with one NIC talking to itself (its CMAC looped back, each queue pair's requester and responder one flow of it), the topology of the cocotb cross-check: every completion entry and byte, counters.",
        run: hpcc_nic::run,
    },
];

// The table has one row per scenario, in the enum's order (checked when compiling), so a
// scenario's row is `TABLE[scenario as usize]`. NicLoopback is the last variant.
const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].scenario as usize == i, "TABLE's rows follow the enum's order");
        i += 1;
    }
    assert!(TABLE.len() == Scenario::NicLoopback as usize + 1, "every scenario has a row");
};

impl Scenario {
    /// All scenarios, in report order (the table's).
    pub const ALL: [Scenario; TABLE.len()] = {
        let mut all = [Scenario::FlowSchedRandom; TABLE.len()];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].scenario;
            i += 1;
        }
        all
    };

    /// The scenario's row of `TABLE`.
    pub fn info(self) -> &'static Info {
        &TABLE[self as usize]
    }

    /// Module under test.
    pub fn module(self) -> &'static str {
        self.info().module
    }

    /// Short name used on the command line.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The scenario named `name` on the command line.
    pub fn named(name: &str) -> Option<Scenario> {
        TABLE.iter().find(|i| i.name == name).map(|i| i.scenario)
    }

    /// Runs one seed of the scenario for about `cycles` cycles.
    pub fn run(self, seed: u64, cycles: u64, vcd: Option<&std::path::Path>) -> Outcome {
        let mut o = (self.info().run)(self, seed, cycles, vcd);
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

/// Panics unless `o` passed, with its seed, first mismatch, failures and the command that
/// re-runs it (the tests' one check of a regression outcome).
pub fn assert_passed(o: &Outcome) {
    assert!(o.passed(), "{} seed {:#x} failed: {o:?}\nre-run: {}", o.scenario, o.seed, o.rerun_command());
}

/// Bytes in hex, for mismatch messages.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_names_are_unique_and_round_trip() {
        let mut names = std::collections::BTreeSet::new();
        for s in Scenario::ALL {
            assert!(names.insert(s.name()), "two scenarios are named {}", s.name());
            assert_eq!(Scenario::named(s.name()), Some(s));
            assert!(s.info().seeds > 0 && s.info().cycles > 0 && !s.info().about.is_empty(), "{s}");
        }
        assert_eq!(Scenario::named("no-such-scenario"), None);
    }
}
