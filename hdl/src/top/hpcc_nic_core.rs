//! The NIC core (issue 13; draft-00 section 7.2, figure 4): flow_sched, cc_module and
//! nic_datapath joined, with the congestion-control loop closed inside, a register block on
//! AXI4-Lite, a time base, a command sequencer that creates and removes flows in every block at
//! once, and a completion stream. docs/modules/hpcc_nic_core.md.
//!
//! ```text
//!            AXI4-Lite --> axil_slave --> registers, commands (sequencer) --+---------------+
//!                                                                           | create/post   |
//!   flow_sched --PktSend--> nic_datapath (tx_ctx -> tx_pipe) ------------------> MAC Tx    |
//!      ^   ^                    |  ^ DMA read / data                                        |
//!      |   +---Notify------     |  |                                                        |
//!      |                   \    v                                                           |
//!   Update <-- cc_module <--event-- nic_datapath (rx_pipe -> rx_ctx -> rx_dma) <-- MAC Rx   |
//!                  ^                    \--> DMA write                                      |
//!                  +-- create events from the sequencer <--------------------------------- +
//!   events (ACK / loss) --> completion tracker --> m_axis_cpl
//! ```
//!
//! Also inside: the timer scan (timer events for LDCP and DCQCN, probe requests for HPCC++
//! flows in probe mode, the per-flow retransmission timeout and retry limit), DCQCN's tx-byte
//! events, through nic_datapath the receivers' ECN halves (ECN-Echo, CNPs), Rx-HPCC's
//! feedback (the receiver's W leaves in the flow's next ACK and becomes an Update at the
//! sender), and ACK coalescing in the event slot in front of cc_module. Not yet (issue 13 goes
//! on): multi-packet READ responses.

pub mod csr;

use crate::axil_slave::{AxilPort, AxilSlave};
use crate::cc_module::CcModule;
use crate::cc_dcqcn::DcqcnCfgOut;
use crate::cc_hpcc::HpccCfgOut;
use crate::cc_ldcp::LdcpCfgOut;
use crate::flow_sched::FlowSched;
use crate::layout::{CcEventFields, DmaRdFields, RtoCfgNamed, SchedCfgNamed, StatSelNamed, TxCreateNamed};
use crate::hpcc_nic_core_cpl::HpccNicCoreCpl;
use crate::hpcc_nic_core_events::HpccNicCoreEvents;
use crate::hpcc_nic_core_notify::HpccNicCoreNotify;
use crate::hpcc_nic_core_tracker::HpccNicCoreTracker;
use crate::hpcc_nic_core_regs::HpccNicCoreRegs;
use crate::hpcc_nic_core_feedback::HpccNicCoreFeedback;
use crate::hpcc_nic_core_seq::HpccNicCoreSeq;
use crate::hpcc_nic_core_timer::HpccNicCoreTimer;
use crate::hpcc_nic_core_tx_bytes::HpccNicCoreTxBytes;
use crate::nic_datapath::NicDatapath;
use crate::rx_ctx::{RX_OP_CREATE, RX_OP_READ, RX_OP_REMOVE};
use crate::tx_ctx::{TX_OP_CREATE, TX_OP_POST, TX_OP_REMOVE};
use crate::axis::{AxisBeatsIn, AxisBeatsOut, AxisFramesIn, AxisFramesOut, AxisWordIn, AxisWordOut};
use rust_hdl::prelude::*;

/// Address bits of the AXI4-Lite port (4 KiB of registers).
pub const AXIL_ADDR_BITS: usize = 12;

/// Bits of the sequencer state.
pub const SEQ_BITS: usize = 4;
/// Bits of a command op (`CMD` [2:0]).
pub const CMD_OP_BITS: usize = 3;
/// Bits of a command error (`STATUS` [7:4]).
pub const ERR_BITS: usize = 4;

codes! {
    /// Register word addresses (csr.rs), as the register block decodes them (`usize`: its read
    /// mux is a `match` on `.index()`).
    REG_ADDRS: usize;
    REG_ID = csr::ID,
    REG_STATUS = csr::STATUS,
    REG_CMD = csr::CMD,
    REG_CMD_ERRORS = csr::CMD_ERRORS,
    REG_NS_PER_CYCLE_Q16 = csr::NS_PER_CYCLE_Q16,
    REG_SCHED_CFG = csr::SCHED_CFG,
    REG_NOW_NS_LO = csr::NOW_NS_LO,
    REG_NOW_NS_HI = csr::NOW_NS_HI,
    REG_COMPLETIONS = csr::COMPLETIONS,
    REG_FEEDBACK_IN = csr::FEEDBACK_IN,
    REG_STAT_SEL = csr::STAT_SEL,
    REG_STAT_RX_PIPE = csr::STAT_RX_PIPE,
    REG_STAT_RX_CTX = csr::STAT_RX_CTX,
    REG_STAT_TX_DROP = csr::STAT_TX_DROP,
    REG_STAT_TX_RECV_DROP = csr::STAT_TX_RECV_DROP,
    REG_STAT_TX_NAK_IGNORED = csr::STAT_TX_NAK_IGNORED,
    REG_STAT_TX_CTRL_BAD = csr::STAT_TX_CTRL_BAD,
    REG_STAT_TX_LEN_ERR = csr::STAT_TX_LEN_ERR,
    REG_STAT_RX_WRITTEN = csr::STAT_RX_WRITTEN,
    REG_STAT_RX_DISCARDED = csr::STAT_RX_DISCARDED,
    REG_STAT_RX_SHORT = csr::STAT_RX_SHORT,
    REG_STAT_CC_BAD_FLOW = csr::STAT_CC_BAD_FLOW,
    REG_STAT_CC_UNUSED = csr::STAT_CC_UNUSED,
    REG_TIMER_GAP = csr::TIMER_GAP,
    REG_TIMER_EVENTS = csr::TIMER_EVENTS,
    REG_RTO_CFG = csr::RTO_CFG,
    REG_RTO_TIMEOUTS = csr::RTO_TIMEOUTS,
    REG_RTO_FAILED = csr::RTO_FAILED,
    REG_CNP_INTERVAL_NS = csr::CNP_INTERVAL_NS,
    REG_STAT_CNPS = csr::STAT_CNPS,
    REG_TX_EVENT_BYTES = csr::TX_EVENT_BYTES,
    REG_TX_EVENTS = csr::TX_EVENTS,
    REG_FB_ACKS = csr::FB_ACKS,
    REG_FB_APPLIED = csr::FB_APPLIED,
    REG_FB_IGNORED = csr::FB_IGNORED,
    REG_EVENT_MERGE = csr::EVENT_MERGE,
    REG_MERGED = csr::MERGED,
    REG_EVENT_STALLS = csr::EVENT_STALLS,
    REG_PROBES = csr::PROBES,
}

codes! {
    /// The argument words and the CC configuration words: the first, and one past the last
    /// (compared as `.index()`).
    REG_RANGES: usize;
    REG_ARGS_FIRST = csr::ARG_TX,
    REG_ARGS_END = csr::ARG_TX as usize + csr::ARGS,
    REG_CC_FIRST = csr::CC_CFG,
    REG_CC_END = csr::CC_CFG as usize + csr::CC_WORDS,
}

codes! {
    /// Register values: `ID`'s, and each read-write register's after reset.
    REG_VALUES;
    REG_ID_VALUE = csr::ID_VALUE,
    RESET_NS_PER_CYCLE = csr::NS_PER_CYCLE_RESET,
    RESET_SCHED_CFG = csr::SCHED_CFG_RESET,
    RESET_TIMER_GAP = csr::TIMER_GAP_RESET,
    RESET_RTO_CFG = csr::RTO_CFG_RESET,
    RESET_CNP_INTERVAL = csr::CNP_INTERVAL_RESET,
    RESET_TX_EVENT_BYTES = csr::TX_EVENT_BYTES_RESET,
    RESET_EVENT_MERGE = csr::EVENT_MERGE_RESET,
}

codes! {
    /// Register fields (csr.rs): shifts.
    REG_FIELDS;
    STATUS_ERR_AT = csr::STATUS_ERR_SHIFT,
}

// STATUS: busy is bit 0, the error field as wide as `ERR_BITS`.
const _: () = assert!(csr::STATUS_BUSY == 1 && csr::STATUS_ERR_MASK == (1 << ERR_BITS) - 1);

codes! {
    /// Sequencer states (`state`).
    SEQ_STATES;
    /// Waiting for a command.
    SEQ_IDLE = 0,
    /// Reading the flow's entry (events held).
    SEQ_READ = 1,
    /// Checking the command against the entry.
    SEQ_CHECK = 2,
    /// Create: the flow's algorithm to cc_module.
    SEQ_CC = 3,
    /// tx_ctx's control word.
    SEQ_TX = 4,
    /// rx_ctx's control word.
    SEQ_RX = 5,
    /// flow_sched's control word.
    SEQ_SCHED = 6,
    /// Writing the flow's entry.
    SEQ_ENTRY = 7,
    /// A probe request to the datapath.
    SEQ_PROBE = 8,
    /// A refused post from the post port: its error completion.
    SEQ_REFUSE = 9,
}

codes! {
    /// Command ops (`cmd_op`): the host's (`CMD` [2:0]) and the retransmission timeout's own.
    CMD_OPS;
    CMD_CREATE = csr::OP_CREATE,
    CMD_REMOVE = csr::OP_REMOVE,
    CMD_POST = csr::OP_POST,
    CMD_PROBE = csr::OP_PROBE,
    /// Internal: a flow's retransmission timeout, to rx_ctx.
    CMD_RTO = sim::hpcc_nic_core_seq_words::CMD_RTO,
    /// Internal: a flow that timed out too often ends its message in error and is removed.
    CMD_RTO_FAIL = sim::hpcc_nic_core_seq_words::CMD_RTO_FAIL,
}

codes! {
    /// Command errors (`STATUS` [7:4]).
    CMD_ERRORS;
    ERR_FLOW = csr::ERR_FLOW,
    ERR_EXISTS = csr::ERR_EXISTS,
    ERR_UNKNOWN = csr::ERR_UNKNOWN,
    ERR_CONFIG = csr::ERR_CONFIG,
    ERR_BUSY = csr::ERR_BUSY,
    ERR_OVERRUN = csr::ERR_OVERRUN,
    ERR_OP = csr::ERR_OP,
}

// The command's op is written as tx_ctx's and rx_ctx's op as it is (create, remove, post / a
// READ's local address), so the codes must agree; the internal ops are no host op.
const _: () = assert!(
    CMD_CREATE == TX_OP_CREATE && CMD_REMOVE == TX_OP_REMOVE && CMD_POST == TX_OP_POST
        && CMD_CREATE == RX_OP_CREATE && CMD_REMOVE == RX_OP_REMOVE && CMD_POST == RX_OP_READ
        && CMD_RTO > CMD_PROBE && CMD_RTO_FAIL > CMD_PROBE
);

/// A flow's algorithm, written into a block's per-flow RAM by the sequencer (create, remove,
/// a failed flow's remove): the same port group on the timer scan, the tx-byte events and the
/// Rx-HPCC feedback unit.
#[derive(LogicInterface, Default)]
pub struct AlgWrite<const F: usize> {
    /// Write flow `flow`'s entry this cycle.
    pub we: Signal<In, bool>,
    /// The flow.
    pub flow: Signal<In, Bits<F>>,
    /// A create (`alg` is the flow's); else a remove (the entry cleared).
    pub create: Signal<In, bool>,
    /// The created flow's algorithm (`ALG_*`).
    pub alg: Signal<In, Bits<2>>,
}

/// The NIC core for `2^F` flows; `B`: rx_dma's log2 beats per bank.
#[derive(LogicBlock)]
pub struct HpccNicCore<const F: usize, const B: usize> {
    /// Clock (250 MHz target); everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of every block and register (the blocks then clear their per-flow
    /// RAMs for 2^F cycles; commands wait).
    pub reset: Signal<In, bool>,
    /// The register port, AXI4-Lite (`AxilPort`, ports `s_axil_*`): a partial write is
    /// refused with SLVERR (registers are written whole), and so is a write to a read-only or
    /// unmapped address and a read of an unmapped one.
    pub s_axil: AxilPort<AXIL_ADDR_BITS>,
    /// DMA read requests to the host (tx_ctx's `m_axis_dma_rd`): `tdata` [63:0] address, [77:64]
    /// length, [95:80] flow; `tready`: the DMA engine takes the request.
    pub m_axis_dma_rd: AxisWordOut<128>,
    /// DMA read data (tx_pipe's `s_axis_payload`): one packet per request, in request order,
    /// lane-0 aligned; `tkeep` of the last beat contiguous from lane 0.
    pub s_axis_dma_rd_data: AxisBeatsIn,
    /// DMA write commands to the host (rx_dma's): `tdata` [63:0] address, [77:64] length,
    /// [95:80] flow; `tready`: the DMA engine takes the command.
    pub m_axis_dma_wr_cmd: AxisWordOut<128>,
    /// DMA write data (rx_dma's), lane-0 aligned, one packet per command.
    pub m_axis_dma_wr: AxisBeatsOut,
    /// Frames to the MAC (tx_pipe's `m_axis`); `tuser` on the last beat: bad frame (payload
    /// length mismatch), the MAC drops it.
    pub m_axis_tx: AxisFramesOut,
    /// Frames from the MAC, to rx_pipe and rx_dma together (`tready`: both take the beat);
    /// `tuser` on the last beat: the MAC marks the frame bad (FCS error...).
    pub s_axis_rx: AxisFramesIn,
    /// Posts from the host queue engine (`sim::layout::CORE_POST`): each runs as a register
    /// post would, its words from here; `tready` when it has gone to tx_ctx, or when it was
    /// refused (then its completion has status `CPL_REFUSED` and the error code). `tdata` must
    /// stay as offered until then.
    pub s_axis_post: AxisWordIn<432>,
    /// Completion (`sim::layout::CPL`): [15:0] flow, [31:16] the message's tag, [33:32] status
    /// (0 ok), [39:36] a refused post's error.
    pub m_axis_cpl_tdata: Signal<Out, Bits<64>>,
    /// A completion is offered.
    pub m_axis_cpl_tvalid: Signal<Out, bool>,
    /// The host takes it (while it does not, the CC event stream waits: completions are never
    /// lost).
    pub m_axis_cpl_tready: Signal<In, bool>,

    axil: AxilSlave<AXIL_ADDR_BITS>,
    sched: FlowSched<F>,
    cc: CcModule<F>,
    dp: NicDatapath<F, B>,
    /// The registers, their write decode and read mux, the time base.
    regs: HpccNicCoreRegs,
    /// Received ACKs sent to the receiver's W (`FEEDBACK_IN`).
    fb_in: DFF<Bits<32>>,
    /// The flow table and the completion tracker (and the table's sweep after reset).
    tracker: HpccNicCoreTracker<F>,
    /// The Notify stage: packets acknowledged to bytes.
    notify: HpccNicCoreNotify<F>,
    /// The event choice and the event slot in front of cc_module.
    events: HpccNicCoreEvents<F>,
    // The blocks beside the sequencer (each its own module, its own per-flow RAMs): the timer
    // scan (timer events, retransmission timeout, probe requests), DCQCN's tx-byte events,
    // Rx-HPCC's feedback at the sender, the completion queue.
    timer: HpccNicCoreTimer<F>,
    tx_bytes: HpccNicCoreTxBytes<F>,
    feedback: HpccNicCoreFeedback<F>,
    cpl: HpccNicCoreCpl,
    /// The command sequencer.
    seq: HpccNicCoreSeq<F>,
    /// The Rx pipe's event: its seq and hop records, of which only the PSN's 24 bits and W
    /// (hop record 0's low word) are read (`_fld`: a field copied to read a part).
    ev_seq_fld: Signal<Local, Bits<32>>,
    ev_hops_fld: Signal<Local, Bits<320>>,
    /// The events are held: the sequencer's command, the sweep, a waiting completion, the
    /// feedback unit.
    hold: Signal<Local, bool>,
    /// The sequencer's algorithm write is a create's.
    alg_create: Signal<Local, bool>,
}

impl<const F: usize, const B: usize> HpccNicCore<F, B> {
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_axil: Default::default(),
            m_axis_dma_rd: Default::default(),
            s_axis_dma_rd_data: Default::default(),
            m_axis_dma_wr_cmd: Default::default(),
            m_axis_dma_wr: Default::default(),
            s_axis_post: Default::default(),
            m_axis_tx: Default::default(),
            s_axis_rx: Default::default(),
            m_axis_cpl_tdata: Default::default(),
            m_axis_cpl_tvalid: Default::default(),
            m_axis_cpl_tready: Default::default(),
            axil: Default::default(),
            regs: Default::default(),
            sched: Default::default(),
            cc: Default::default(),
            dp: NicDatapath::new(),
            fb_in: Default::default(),
            tracker: Default::default(),
            notify: Default::default(),
            events: Default::default(),
            timer: Default::default(),
            tx_bytes: Default::default(),
            feedback: Default::default(),
            cpl: Default::default(),
            seq: Default::default(),
            ev_seq_fld: Default::default(),
            ev_hops_fld: Default::default(),
            hold: Default::default(),
            alg_create: Default::default(),
        }
    }
}

impl<const F: usize, const B: usize> Default for HpccNicCore<F, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const F: usize, const B: usize> Logic for HpccNicCore<F, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fb_in);
        clock!(self, clock, axil, regs, sched, cc, dp, tracker, notify, events, timer, tx_bytes, feedback, cpl, seq);
        self.axil.reset.next = self.reset.val();
        self.regs.reset.next = self.reset.val();
        self.sched.reset.next = self.reset.val();
        self.cc.reset.next = self.reset.val();
        self.dp.reset.next = self.reset.val();
        self.tracker.reset.next = self.reset.val();
        self.notify.reset.next = self.reset.val();
        self.events.reset.next = self.reset.val();
        self.timer.reset.next = self.reset.val();
        self.tx_bytes.reset.next = self.reset.val();
        self.feedback.reset.next = self.reset.val();
        self.cpl.reset.next = self.reset.val();
        self.seq.reset.next = self.reset.val();

        // ---- AXI4-Lite.
        AxilPort::<AXIL_ADDR_BITS>::link(&mut self.s_axil, &mut self.axil.s_axil);

        // ---- DMA and MAC streams: nic_datapath's, passed through.
        AxisWordOut::<128>::link(&mut self.m_axis_dma_rd, &mut self.dp.m_axis_dma_rd);
        AxisBeatsIn::link(&mut self.s_axis_dma_rd_data, &mut self.dp.s_axis_dma_rd_data);
        AxisWordOut::<128>::link(&mut self.m_axis_dma_wr_cmd, &mut self.dp.m_axis_dma_wr_cmd);
        AxisBeatsOut::link(&mut self.m_axis_dma_wr, &mut self.dp.m_axis_dma_wr);
        AxisFramesOut::link(&mut self.m_axis_tx, &mut self.dp.m_axis_tx);
        AxisFramesIn::link(&mut self.s_axis_rx, &mut self.dp.s_axis_rx);

        // ---- Registers (hpcc_nic_core_regs): axil_slave's register port, the counters they
        // show, the time base.
        self.regs.wr_en.next = self.axil.wr_en.val();
        self.regs.wr_addr.next = self.axil.wr_addr.val();
        self.regs.wr_data.next = self.axil.wr_data.val();
        self.regs.wr_strb.next = self.axil.wr_strb.val();
        self.axil.wr_err.next = self.regs.wr_err.val();
        self.regs.rd_addr.next = self.axil.rd_addr.val();
        self.axil.rd_data.next = self.regs.rd_data.val();
        self.axil.rd_err.next = self.regs.rd_err.val();
        self.regs.status.next = self.seq.status.val();
        self.regs.cmd.next = self.seq.stat_cmd.val();
        self.regs.cmd_errors.next = self.seq.stat_errors.val();
        self.regs.completions.next = self.tracker.stat_completions.val();
        self.regs.feedback_in.next = self.fb_in.q.val();
        self.regs.merged.next = self.events.stat_merged.val();
        self.regs.event_stalls.next = self.events.stat_stalls.val();
        self.regs.stat_rx_pipe.next = self.dp.stat_rx_pipe_count.val();
        self.regs.stat_rx_ctx.next = self.dp.stat_rx_ctx_count.val();
        self.regs.stat_tx_drop.next = self.dp.stat_tx_drop.val();
        self.regs.stat_tx_recv_drop.next = self.dp.stat_tx_recv_drop.val();
        self.regs.stat_tx_nak_ignored.next = self.dp.stat_tx_nak_ignored.val();
        self.regs.stat_tx_ctrl_bad.next = self.dp.stat_tx_ctrl_bad.val();
        self.regs.stat_tx_len_err.next = self.dp.stat_tx_len_err.val();
        self.regs.stat_rx_written.next = self.dp.stat_rx_written.val();
        self.regs.stat_rx_discarded.next = self.dp.stat_rx_discarded.val();
        self.regs.stat_rx_short.next = self.dp.stat_rx_short.val();
        self.regs.stat_cnps.next = self.dp.stat_cnps.val();
        self.regs.fb_acks.next = self.dp.stat_fb_acks.val();
        self.regs.stat_cc_bad_flow.next = self.cc.stat_bad_flow.val();
        self.regs.stat_cc_unused.next = self.cc.stat_unused.val();
        self.regs.timer_events.next = self.timer.stat_events.val();
        self.regs.probes.next = self.timer.stat_probes.val();
        self.regs.rto_timeouts.next = self.seq.stat_timeouts.val();
        self.regs.rto_failed.next = self.seq.stat_failed.val();
        self.regs.tx_events.next = self.tx_bytes.stat_events.val();
        self.regs.fb_applied.next = self.feedback.stat_applied.val();
        self.regs.fb_ignored.next = self.feedback.stat_ignored.val();
        self.dp.stat_rx_pipe_addr.next = self.regs.stat_sel.val().get_value_stat_sel_rx_pipe();
        self.dp.stat_rx_ctx_addr.next = self.regs.stat_sel.val().get_value_stat_sel_rx_ctx();
        self.dp.now_ns.next = self.regs.now_ns.val();

        // ---- Configuration of the blocks.
        self.sched.cfg_pkt_shift.next = self.regs.sched_cfg.val().get_value_sched_cfg_pkt_shift();
        self.sched.cfg_max_burst.next = self.regs.sched_cfg.val().get_value_sched_cfg_max_burst();
        // Notifies count packets; the Notify stage below makes them bytes of the flow's MTU.
        self.dp.cfg_pkt_shift.next = 0.into();
        self.dp.cfg_cnp_interval_ns.next = self.regs.cnp_interval_ns.val();
        HpccCfgOut::join(&mut self.regs.cfg_hpcc, &mut self.cc.cfg_hpcc);
        LdcpCfgOut::join(&mut self.regs.cfg_ldcp, &mut self.cc.cfg_ldcp);
        DcqcnCfgOut::join(&mut self.regs.cfg_dcqcn, &mut self.cc.cfg_dcqcn);

        // ---- The loop: flow_sched -> PktSend -> Tx pipe; Rx pipe -> Notify -> flow_sched;
        // Rx pipe -> CC events -> cc_module -> Update -> flow_sched.
        self.dp.s_axis_pktsend_tdata.next = self.sched.m_axis_pktsend_tdata.val();
        self.dp.s_axis_pktsend_tvalid.next = self.sched.m_axis_pktsend_tvalid.val();
        self.sched.m_axis_pktsend_tready.next = self.dp.s_axis_pktsend_tready.val();
        // tx_ctx -> flow_sched: a flow with nothing to send returns its grant and sleeps; a post
        // or go-back-N wakes it (in tx_ctx's event order, so no wake is lost to an old idle).
        self.sched.s_axis_sleep_tdata.next = self.dp.m_axis_sleep_tdata.val();
        self.sched.s_axis_sleep_tvalid.next = self.dp.m_axis_sleep_tvalid.val();
        self.dp.m_axis_sleep_tready.next = self.sched.s_axis_sleep_tready.val();
        // Notify (hpcc_nic_core_notify): packets acknowledged -> bytes of the flow's MTU.
        self.notify.s_axis_notify_tdata.next = self.dp.m_axis_notify_tdata.val();
        self.notify.s_axis_notify_tvalid.next = self.dp.m_axis_notify_tvalid.val();
        self.dp.m_axis_notify_tready.next = self.notify.s_axis_notify_tready.val();
        self.sched.s_axis_notify_tdata.next = self.notify.m_axis_notify_tdata.val();
        self.sched.s_axis_notify_tvalid.next = self.notify.m_axis_notify_tvalid.val();
        self.notify.m_axis_notify_tready.next = self.sched.s_axis_notify_tready.val();
        self.notify.mtu_we.next = self.tracker.wr_en.val();
        self.notify.mtu_flow.next = self.tracker.wr_flow.val();
        self.notify.mtu_log.next = self.tracker.wr_mtu_log.val();
        // Updates: the feedback unit's first, then cc_module's.
        self.sched.s_axis_update_tdata.next = self.cc.m_axis_update_tdata.val();
        self.sched.s_axis_update_tvalid.next = self.cc.m_axis_update_tvalid.val();
        self.cc.m_axis_update_tready.next = self.sched.s_axis_update_tready.val();
        self.feedback.m_axis_update_tready.next = self.sched.s_axis_update_tready.val();
        if self.feedback.m_axis_update_tvalid.val() {
            self.sched.s_axis_update_tdata.next = self.feedback.m_axis_update_tdata.val();
            self.sched.s_axis_update_tvalid.next = true;
            self.cc.m_axis_update_tready.next = false;
        }
        // Rx-HPCC feedback, receiver: cc_module's W (once per RTT, line 31) waits in the
        // datapath's gate for the flow's next ACK / NAK, which carries it.
        self.dp.s_axis_feedback_tdata.next = self.cc.m_axis_feedback_tdata.val();
        self.dp.s_axis_feedback_tvalid.next = self.cc.m_axis_feedback_tvalid.val();
        self.cc.m_axis_feedback_tready.next = self.dp.s_axis_feedback_tready.val();
        if self.cc.m_axis_feedback_tvalid.val() & self.dp.s_axis_feedback_tready.val() {
            self.fb_in.d.next = self.fb_in.q.val() + 1;
        }

        // ---- Sequencer (hpcc_nic_core_seq): the host's commands and the timer scan's
        // internal ones, through every block. Its control words are the argument words with op
        // and flow filled in.
        self.seq.cmd_we.next = self.regs.cmd_we.val();
        self.seq.cmd_data.next = self.axil.wr_data.val();
        self.seq.tx_word.next = self.regs.tx_word.val();
        self.seq.rx_word.next = self.regs.rx_word.val();
        self.seq.rate.next = self.regs.rate.val();
        self.seq.window.next = self.regs.window.val();
        self.seq.alg.next = self.regs.alg.val();
        self.seq.tag.next = self.regs.tag.val();
        self.seq.now_ns.next = self.regs.now_ns.val();
        self.seq.entry.next = self.tracker.entry.val();
        self.seq.t1_valid.next = self.tracker.t1_busy.val();
        self.seq.sweep.next = self.tracker.sweep.val();
        self.seq.slot_full.next = self.events.slot_full.val();
        self.seq.cpl_busy.next = self.cpl.blocked.val();
        self.seq.rq_valid.next = self.timer.rq_valid.val();
        self.seq.rq_fail.next = self.timer.rq_fail.val();
        self.seq.qp_valid.next = self.s_axis_post.tvalid.val();
        self.seq.qp_word.next = self.s_axis_post.tdata.val();
        self.s_axis_post.tready.next = self.seq.qp_take.val();
        self.seq.rq_flow.next = self.timer.rq_flow.val();
        self.timer.rq_take.next = self.seq.rq_take.val();
        self.seq.cr_ready.next = self.cc.s_axis_event_tready.val();
        self.sched.s_axis_ctrl_tdata.next = self.seq.sched_ctrl_tdata.val();
        self.sched.s_axis_ctrl_tvalid.next = self.seq.sched_ctrl_tvalid.val();
        self.seq.sched_ctrl_tready.next = self.sched.s_axis_ctrl_tready.val();
        self.dp.s_axis_tx_ctrl_tdata.next = self.seq.tx_ctrl_tdata.val();
        self.dp.s_axis_tx_ctrl_tvalid.next = self.seq.tx_ctrl_tvalid.val();
        self.seq.tx_ctrl_tready.next = self.dp.s_axis_tx_ctrl_tready.val();
        self.dp.s_axis_rx_ctrl_tdata.next = self.seq.rx_ctrl_tdata.val();
        self.dp.s_axis_rx_ctrl_tvalid.next = self.seq.rx_ctrl_tvalid.val();
        self.seq.rx_ctrl_tready.next = self.dp.s_axis_rx_ctrl_tready.val();
        // Probe requests: the scan's, unless the sequencer's probe command has the port.
        self.dp.s_axis_probe_tvalid.next = self.timer.pq_valid.val() & !self.seq.probe_tvalid.val();
        self.dp.s_axis_probe_tdata.next = self.timer.pq_flow.val();
        if self.seq.probe_tvalid.val() {
            self.dp.s_axis_probe_tvalid.next = true;
            self.dp.s_axis_probe_tdata.next = self.seq.cmd_flow.val();
        }
        self.timer.pq_take.next = !self.seq.probe_tvalid.val() & self.dp.s_axis_probe_tready.val();
        self.seq.probe_tready.next = self.dp.s_axis_probe_tready.val();

        // ---- The events are held while the sequencer reads, checks and writes an entry or
        // offers a create event, during the sweep, while a completion waits (or a READ's
        // completion waits for its payload), and while the feedback unit is busy.
        self.hold.next = self.seq.hold.val() | self.tracker.sweep.val() | self.cpl.blocked.val() | self.feedback.busy.val();
        // The Rx pipe's event: its flow, seq (snd_una for an ACK or a loss) and hop records.
        self.ev_seq_fld.next = self.dp.m_axis_event_tdata.val().get_value_seq();
        self.ev_hops_fld.next = self.dp.m_axis_event_tdata.val().get_value_hops();

        // ---- Events into cc_module (hpcc_nic_core_events): the create, timer and tx-byte
        // events, and the event slot, where the Rx pipe's ACKs coalesce.
        self.events.hold.next = self.hold.val();
        self.events.now_ns.next = self.regs.now_ns.val();
        self.events.merge_on.next = self.regs.event_merge.val().get_bit(0);
        self.events.tm_valid.next = self.timer.tm_valid.val();
        self.events.tm_flow.next = self.timer.flow.val();
        self.timer.tm_take.next = self.events.tm_take.val();
        self.events.tx_valid.next = self.tx_bytes.ev_valid.val();
        self.events.tx_flow.next = self.tx_bytes.ev_flow.val();
        self.events.tx_bytes.next = self.tx_bytes.ev_bytes.val();
        self.tx_bytes.ev_take.next = self.events.tx_take.val();
        self.events.cr_valid.next = self.seq.cr_valid.val();
        self.events.cr_word.next = self.seq.cr_word.val();
        self.events.s_axis_event_tdata.next = self.dp.m_axis_event_tdata.val();
        self.events.s_axis_event_tvalid.next = self.dp.m_axis_event_tvalid.val();
        self.dp.m_axis_event_tready.next = self.events.s_axis_event_tready.val();
        self.cc.s_axis_event_tdata.next = self.events.m_axis_event_tdata.val();
        self.cc.s_axis_event_tvalid.next = self.events.m_axis_event_tvalid.val();
        self.events.m_axis_event_tready.next = self.cc.s_axis_event_tready.val();

        // ---- Flow table and completion tracker (hpcc_nic_core_tracker): the Rx pipe's ACK
        // and loss events as the slot takes them, the sequencer's reads and writes.
        self.tracker.ev_take.next = self.events.rx_take.val();
        self.tracker.ev_kind.next = self.dp.m_axis_event_tdata.val().get_value_kind();
        self.tracker.ev_flow.next = self.dp.m_axis_event_tdata.val().get_value_flow();
        self.tracker.ev_psn.next = self.ev_seq_fld.val().get_bits::<24>(0);
        self.tracker.rx_cmds.next = self.dp.stat_rx_cmds.val();
        self.tracker.seq_hold.next = self.seq.hold.val();
        self.tracker.cmd_flow.next = self.seq.cmd_flow.val();
        self.tracker.seq_we.next = self.seq.ft_we.val();
        self.tracker.seq_entry.next = self.seq.ft_entry.val();
        self.tracker.seq_una.next = self.seq.ft_una.val();
        self.tracker.fail.next = self.seq.fail.val();
        self.timer.ft_we.next = self.tracker.wr_en.val();
        self.timer.ft_flow.next = self.tracker.wr_flow.val();
        self.timer.ft_out.next = self.tracker.wr_out.val();
        self.timer.ft_una.next = self.tracker.wr_una.val();

        // ---- Rx-HPCC feedback, sender (hpcc_nic_core_feedback): an event with the receiver's
        // W becomes an Update of the flow's rate and window, ahead of cc_module's.
        self.feedback.ev_take.next = self.events.rx_take.val();
        self.feedback.ev_feedback.next = self.dp.m_axis_event_tdata.val().get_value_feedback();
        self.feedback.ev_flow.next = self.dp.m_axis_event_tdata.val().get_value_flow();
        // W: the low 32 bits of hop record 0's place (cc_event's `feedback`).
        self.feedback.ev_w.next = self.ev_hops_fld.val().get_bits::<32>(0);
        self.feedback.rate_mul.next = self.regs.cfg_hpcc.rate_mul.val();
        self.feedback.line.next = self.regs.cfg_hpcc.line_q16.val();

        // ---- Into the completion queue (hpcc_nic_core_cpl): the tracker's (a READ's waits for
        // its payload), the sequencer's error completion.
        self.cpl.done.next = self.tracker.done.val();
        self.cpl.done_read.next = self.tracker.done_read.val();
        self.cpl.done_data.next = self.tracker.done_data.val();
        self.cpl.done_cmds.next = self.tracker.done_cmds.val();
        self.cpl.fail.next = self.seq.fail.val();
        self.cpl.fail_data.next = self.seq.fail_data.val();
        self.cpl.rx_written.next = self.dp.stat_rx_written.val();
        self.cpl.rx_discarded.next = self.dp.stat_rx_discarded.val();
        self.cpl.rx_short.next = self.dp.stat_rx_short.val();
        self.cpl.rx_payloads.next = self.dp.stat_rx_payloads.val();
        self.cpl.rx_jobs.next = self.dp.stat_rx_jobs.val();
        self.m_axis_cpl_tvalid.next = self.cpl.m_axis_cpl_tvalid.val();
        self.m_axis_cpl_tdata.next = self.cpl.m_axis_cpl_tdata.val();
        self.cpl.m_axis_cpl_tready.next = self.m_axis_cpl_tready.val();

        // ---- The flow's algorithm into the blocks' per-flow RAMs (create, remove, a failed
        // flow's remove; while the events are held, once T1 is empty).
        self.alg_create.next = self.seq.cmd_op.val() == CMD_CREATE;
        self.timer.alg_wr.we.next = self.seq.alg_we.val();
        self.timer.alg_wr.flow.next = self.seq.cmd_flow.val().get_bits::<F>(0);
        self.timer.alg_wr.create.next = self.alg_create.val();
        self.timer.alg_wr.alg.next = self.regs.alg.val();
        self.timer.alg_probe.next = self.regs.tx_word.val().get_value_tx_create_probe();
        self.tx_bytes.alg_wr.we.next = self.seq.alg_we.val();
        self.tx_bytes.alg_wr.flow.next = self.seq.cmd_flow.val().get_bits::<F>(0);
        self.tx_bytes.alg_wr.create.next = self.alg_create.val();
        self.tx_bytes.alg_wr.alg.next = self.regs.alg.val();
        self.feedback.alg_wr.we.next = self.seq.alg_we.val();
        self.feedback.alg_wr.flow.next = self.seq.cmd_flow.val().get_bits::<F>(0);
        self.feedback.alg_wr.create.next = self.alg_create.val();
        self.feedback.alg_wr.alg.next = self.regs.alg.val();

        // ---- Timer scan (hpcc_nic_core_timer): timer events, the retransmission timeout (to
        // the sequencer), probe requests (above, to the datapath).
        self.timer.gap.next = self.regs.timer_gap_cycles.val();
        self.timer.rto_rounds.next = self.regs.rto_cfg.val().get_value_rto_cfg_rounds();
        self.timer.rto_retries.next = self.regs.rto_cfg.val().get_value_rto_cfg_retries();

        // ---- DCQCN tx-byte events (hpcc_nic_core_tx_bytes): every DMA read request the
        // datapath makes; its event goes to cc_module after the timer event, before the Rx
        // pipe's.
        self.tx_bytes.rd_take.next = self.m_axis_dma_rd.tvalid.val() & self.m_axis_dma_rd.tready.val();
        self.tx_bytes.rd_flow.next = self.m_axis_dma_rd.tdata.val().get_value_flow();
        self.tx_bytes.rd_len.next = self.m_axis_dma_rd.tdata.val().get_value_len();
        self.tx_bytes.thr.next = self.regs.tx_event_bytes.val();

        // ---- The blocks' per-flow RAMs cleared after reset, with the flow table (2^F cycles).
        self.notify.sweep.next = self.tracker.sweep.val();
        self.notify.sweep_addr.next = self.tracker.sweep_addr.val();
        self.timer.sweep.next = self.tracker.sweep.val();
        self.timer.sweep_addr.next = self.tracker.sweep_addr.val();
        self.tx_bytes.sweep.next = self.tracker.sweep.val();
        self.tx_bytes.sweep_addr.next = self.tracker.sweep_addr.val();
        self.feedback.sweep.next = self.tracker.sweep.val();
        self.feedback.sweep_addr.next = self.tracker.sweep_addr.val();

        // ---- Reset (the blocks reset themselves; the registers: hpcc_nic_core_regs).
        if self.reset.val() {
            self.fb_in.d.next = 0.into();
        }
    }
}
