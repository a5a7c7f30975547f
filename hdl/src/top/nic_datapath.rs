//! The NIC's datapath between the PCIe shim and the MAC shim (issue 5; draft-00 section 7.2):
//! the Tx pipe (`tx_ctx` -> `tx_pipe`) and the Rx pipe (`rx_pipe` -> `rx_ctx` -> `rx_dma`)
//! joined, with the two loops between them closed inside: rx_ctx's PktRecvs (ACK / NAK, READ
//! and telemetry responses to send, go-back-N) go to tx_ctx, and tx_ctx's sent events go to
//! rx_ctx. docs/modules/nic_datapath.md.
//!
//! ```text
//! s_axis_pktsend ------------------> tx_ctx -- desc --> tx_pipe --------------> m_axis_tx
//! s_axis_tx_ctrl -------------------^  |  ^  \-> m_axis_dma_rd   ^- s_axis_dma_rd_data
//! s_axis_probe --> merge (rx_ctx first)  |  sent
//!                     ^ placement gate  v
//! s_axis_rx --+--> rx_pipe -- verdict --> rx_ctx --> m_axis_event, m_axis_notify
//!             |                           |  ^- s_axis_rx_ctrl
//!             +--> rx_dma <-- DMA command-+
//!                    \-> m_axis_dma_wr_cmd, m_axis_dma_wr
//! ```
//!
//! The MAC's receive stream goes to rx_pipe and rx_dma at once (a beat moves when both take
//! it): rx_pipe judges the frame while rx_dma stores it, and rx_ctx's one DMA command per
//! verdict tells rx_dma what to do with it.
//!
//! rx_ctx's PktRecvs wait in a placement gate (one register) until every payload of the
//! requests before and including theirs is in host memory: an ACK means the WRITE's bytes are
//! placed, and a READ is answered only after the WRITEs ahead of it on the QP landed (no
//! read-after-write hazard between rx_dma's writes and tx_ctx's DMA read). The gate compares
//! the data commands rx_ctx had issued when the PktRecv left (write, length > 0; rx_ctx
//! issues one command per verdict, with or before its PktRecv) with the payloads rx_dma has
//! finished (tlasts on the DMA write stream, plus `stat_short`: commands it refused).
//!
//! DCQCN's notification point rides on the gate: a released ACK / NAK with ECN-Echo (its
//! request arrived CE-marked) for a flow created with the CNP bit (tx_ctx's create word `cnp`,
//! which tx_ctx ignores) is followed by a CNP (tx_ctx PktRecv kind 5) if the flow's last CNP is
//! at least `cfg_cnp_interval_ns` old; a per-flow RAM keeps {enabled, sent once, time}.
//!
//! The placement gate, the CNP point, the feedback and the probe merge are one block,
//! nic_datapath_gate (nic_datapath_gate.rs), which drives tx_ctx's PktRecv input.
//!
//! The sent events go through a register slice (two entries, tready from registers): tx_ctx's
//! PktSend waits on its sent register's tready and rx_ctx's verdict on tx_ctx's PktRecv
//! tready, and each of those readies depends on the block's own hold condition, so wired
//! directly the two blocks' readies would form a combinational loop. The slice adds one cycle
//! to the sent events and keeps one per clock.

use crate::read_split::ReadSplit;
use crate::nic_datapath_gate::NicDatapathGate;
use crate::rx_ctx::RxCtx;
use crate::rx_dma::RxDma;
use crate::rx_pipe::RxPipe;
use crate::tx_ctx::TxCtx;
use crate::tx_pipe::TxPipe;
use crate::axis::{AxisBeatsIn, AxisBeatsOut, AxisFramesIn, AxisFramesOut, AxisWordOut};
use rust_hdl::prelude::*;

/// See the module doc. `F`: log2 of the flow (and QP) count; `B`: rx_dma's log2 beats per bank.
#[derive(LogicBlock)]
pub struct NicDatapath<const F: usize, const B: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset of every block (tx_ctx and rx_ctx then sweep their RAMs for 2^F
    /// cycles, with their inputs not ready).
    pub reset: Signal<In, bool>,
    /// rx_ctx's `cfg_pkt_shift`: Notify bytes per packet = 2^shift (flow_sched's unit).
    pub cfg_pkt_shift: Signal<In, Bits<4>>,
    /// Time in ns, stamped on CC events; its low 32 bits time the CNPs.
    pub now_ns: Signal<In, Bits<64>>,
    /// DCQCN notification point: at most one CNP per flow per this many ns (50,000 in deployed
    /// NICs); 0 sends one for every ECN-Echo ACK.
    pub cfg_cnp_interval_ns: Signal<In, Bits<32>>,
    /// Rx-HPCC feedback from cc_module (its `m_axis_feedback_tdata`, layout `feedback`: W,
    /// UQ24.8 bytes, and flow). The flow's next ACK / NAK carries it (docs/packet-formats.md).
    pub s_axis_feedback_tdata: Signal<In, Bits<48>>,
    /// Feedback valid.
    pub s_axis_feedback_tvalid: Signal<In, bool>,
    /// Feedback taken: low while the gate's feedback RAM is swept after reset or written by a
    /// create / remove or an ACK that takes a W.
    pub s_axis_feedback_tready: Signal<Out, bool>,
    /// tx_ctx control word (create / remove a flow, post a WRITE or READ message).
    pub s_axis_tx_ctrl_tdata: Signal<In, Bits<512>>,
    /// A tx_ctx control word is offered.
    pub s_axis_tx_ctrl_tvalid: Signal<In, bool>,
    /// tx_ctx takes the control word.
    pub s_axis_tx_ctrl_tready: Signal<Out, bool>,
    /// rx_ctx control word (create / remove a QP, post a READ's local address).
    pub s_axis_rx_ctrl_tdata: Signal<In, Bits<128>>,
    /// An rx_ctx control word is offered.
    pub s_axis_rx_ctrl_tvalid: Signal<In, bool>,
    /// rx_ctx takes the control word.
    pub s_axis_rx_ctrl_tready: Signal<Out, bool>,
    /// PktSend from the flow scheduler: [15:0] the flow allowed to send one packet.
    pub s_axis_pktsend_tdata: Signal<In, Bits<16>>,
    /// A PktSend is offered.
    pub s_axis_pktsend_tvalid: Signal<In, bool>,
    /// tx_ctx takes the PktSend.
    pub s_axis_pktsend_tready: Signal<Out, bool>,
    /// Sleep / wake for the flow scheduler (tx_ctx's `m_axis_sleep`): [15:0] flow, [16] 0 = a
    /// PktSend found nothing to send, 1 = the flow has something to send again.
    pub m_axis_sleep_tdata: Signal<Out, Bits<17>>,
    /// A sleep / wake report is offered.
    pub m_axis_sleep_tvalid: Signal<Out, bool>,
    /// The flow scheduler takes the report.
    pub m_axis_sleep_tready: Signal<In, bool>,
    /// Probe request from the CC module: [15:0] the flow to probe (flows in probe mode only).
    pub s_axis_probe_tdata: Signal<In, Bits<16>>,
    /// A probe request is offered.
    pub s_axis_probe_tvalid: Signal<In, bool>,
    /// The probe request is taken: tx_ctx takes a PktRecv and rx_ctx offers none (its
    /// PktRecvs go first).
    pub s_axis_probe_tready: Signal<Out, bool>,
    /// DMA read requests to the host (tx_ctx's `m_axis_dma_rd`): `tdata` [63:0] address, [77:64]
    /// length, [95:80] flow; `tready`: the DMA engine takes the request.
    pub m_axis_dma_rd: AxisWordOut<128>,
    /// DMA read data (tx_pipe's `s_axis_payload`): one packet per request, in request order,
    /// lane-0 aligned; `tkeep` of the last beat contiguous from lane 0.
    pub s_axis_dma_rd_data: AxisBeatsIn,
    /// Frames to the MAC (tx_pipe's `m_axis`); `tuser` on the last beat: bad frame (payload
    /// length mismatch), the MAC drops it.
    pub m_axis_tx: AxisFramesOut,
    /// Frames from the MAC, to rx_pipe and rx_dma together (`tready`: both take the beat);
    /// `tuser` on the last beat: the MAC marks the frame bad (FCS error...).
    pub s_axis_rx: AxisFramesIn,
    /// CC events for the CC module (rx_ctx's `m_axis_event`).
    pub m_axis_event_tdata: Signal<Out, Bits<512>>,
    /// A CC event is offered.
    pub m_axis_event_tvalid: Signal<Out, bool>,
    /// The CC module takes the event.
    pub m_axis_event_tready: Signal<In, bool>,
    /// Notify for the flow scheduler: [31:0] bytes, [47:32] flow.
    pub m_axis_notify_tdata: Signal<Out, Bits<48>>,
    /// A Notify is offered.
    pub m_axis_notify_tvalid: Signal<Out, bool>,
    /// The flow scheduler takes the Notify.
    pub m_axis_notify_tready: Signal<In, bool>,
    /// DMA write commands to the host (rx_dma's): `tdata` [63:0] address, [77:64] length,
    /// [95:80] flow; `tready`: the DMA engine takes the command.
    pub m_axis_dma_wr_cmd: AxisWordOut<128>,
    /// DMA write data (rx_dma's), lane-0 aligned, one packet per command.
    pub m_axis_dma_wr: AxisBeatsOut,
    /// rx_pipe's counter select (drop reasons, docs/modules/rx_pipe.md).
    pub stat_rx_pipe_addr: Signal<In, Bits<5>>,
    /// rx_pipe's selected counter.
    pub stat_rx_pipe_count: Signal<Out, Bits<32>>,
    /// rx_ctx's counter select (docs/modules/rx_ctx.md).
    pub stat_rx_ctx_addr: Signal<In, Bits<4>>,
    /// rx_ctx's selected counter.
    pub stat_rx_ctx_count: Signal<Out, Bits<32>>,
    /// tx_ctx's `stat_drop`: PktSends with nothing to send.
    pub stat_tx_drop: Signal<Out, Bits<32>>,
    /// tx_ctx's `stat_recv_drop`.
    pub stat_tx_recv_drop: Signal<Out, Bits<32>>,
    /// tx_ctx's `stat_nak_ignored`.
    pub stat_tx_nak_ignored: Signal<Out, Bits<32>>,
    /// tx_ctx's `stat_ctrl_bad`.
    pub stat_tx_ctrl_bad: Signal<Out, Bits<32>>,
    /// tx_pipe's `stat_len_err`: payload length mismatches.
    pub stat_tx_len_err: Signal<Out, Bits<32>>,
    /// rx_dma's `stat_written`.
    pub stat_rx_written: Signal<Out, Bits<32>>,
    /// rx_dma's `stat_discarded`.
    pub stat_rx_discarded: Signal<Out, Bits<32>>,
    /// rx_dma's `stat_short`.
    pub stat_rx_short: Signal<Out, Bits<32>>,
    /// rx_dma's `stat_jobs`: write commands with data queued (each leaves as one payload).
    pub stat_rx_jobs: Signal<Out, Bits<32>>,
    /// DMA commands rx_ctx has made so far: taken by rx_dma, or waiting in rx_ctx's output
    /// register (combinational). At the cycle a CC event leaves rx_ctx, this counts the DMA
    /// command of the same record and none after it (rx_ctx loads a record's outputs
    /// together, and the next record only once they have all left).
    pub stat_rx_cmds: Signal<Out, Bits<32>>,
    /// Payloads rx_dma has finished writing: tlast handshakes on `m_axis_dma_wr` (wraps; the
    /// placement gate's count, also the core's READ completion wait's).
    pub stat_rx_payloads: Signal<Out, Bits<32>>,
    /// CNPs given to tx_ctx (wraps).
    pub stat_cnps: Signal<Out, Bits<32>>,
    /// ACKs / NAKs that carried an Rx-HPCC feedback W (wraps).
    pub stat_fb_acks: Signal<Out, Bits<32>>,

    tx_ctx: TxCtx<F>,
    tx_pipe: TxPipe,
    rx_pipe: RxPipe,
    rx_ctx: RxCtx<F>,
    read_split: ReadSplit,
    rx_dma: RxDma<B>,
    gate: NicDatapathGate<F>,
    rx_ready: Signal<Local, bool>,
    sl_main_v: DFF<bool>,
    sl_main_d: DFF<Bits<40>>,
    sl_skid_v: DFF<bool>,
    sl_skid_d: DFF<Bits<40>>,
    sl_take: Signal<Local, bool>,
    cmds_taken: DFF<Bits<32>>,
}

impl<const F: usize, const B: usize> NicDatapath<F, B> {
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_pkt_shift: Default::default(),
            now_ns: Default::default(),
            cfg_cnp_interval_ns: Default::default(),
            s_axis_tx_ctrl_tdata: Default::default(),
            s_axis_tx_ctrl_tvalid: Default::default(),
            s_axis_tx_ctrl_tready: Default::default(),
            s_axis_rx_ctrl_tdata: Default::default(),
            s_axis_rx_ctrl_tvalid: Default::default(),
            s_axis_rx_ctrl_tready: Default::default(),
            s_axis_pktsend_tdata: Default::default(),
            s_axis_pktsend_tvalid: Default::default(),
            s_axis_pktsend_tready: Default::default(),
            m_axis_sleep_tdata: Default::default(),
            m_axis_sleep_tvalid: Default::default(),
            m_axis_sleep_tready: Default::default(),
            s_axis_probe_tdata: Default::default(),
            s_axis_probe_tvalid: Default::default(),
            s_axis_probe_tready: Default::default(),
            m_axis_dma_rd: Default::default(),
            s_axis_dma_rd_data: Default::default(),
            m_axis_tx: Default::default(),
            s_axis_rx: Default::default(),
            m_axis_event_tdata: Default::default(),
            m_axis_event_tvalid: Default::default(),
            m_axis_event_tready: Default::default(),
            m_axis_notify_tdata: Default::default(),
            m_axis_notify_tvalid: Default::default(),
            m_axis_notify_tready: Default::default(),
            m_axis_dma_wr_cmd: Default::default(),
            m_axis_dma_wr: Default::default(),
            stat_rx_pipe_addr: Default::default(),
            stat_rx_pipe_count: Default::default(),
            stat_rx_ctx_addr: Default::default(),
            stat_rx_ctx_count: Default::default(),
            stat_tx_drop: Default::default(),
            stat_tx_recv_drop: Default::default(),
            stat_tx_nak_ignored: Default::default(),
            stat_tx_ctrl_bad: Default::default(),
            stat_tx_len_err: Default::default(),
            stat_rx_written: Default::default(),
            stat_rx_discarded: Default::default(),
            stat_rx_short: Default::default(),
            stat_rx_jobs: Default::default(),
            stat_rx_payloads: Default::default(),
            stat_cnps: Default::default(),
            stat_rx_cmds: Default::default(),
            tx_ctx: Default::default(),
            tx_pipe: Default::default(),
            rx_pipe: Default::default(),
            rx_ctx: Default::default(),
            read_split: Default::default(),
            rx_dma: RxDma::new(),
            gate: Default::default(),
            rx_ready: Default::default(),
            sl_main_v: Default::default(),
            sl_main_d: Default::default(),
            sl_skid_v: Default::default(),
            sl_skid_d: Default::default(),
            sl_take: Default::default(),
            cmds_taken: Default::default(),
            s_axis_feedback_tdata: Default::default(),
            s_axis_feedback_tvalid: Default::default(),
            s_axis_feedback_tready: Default::default(),
            stat_fb_acks: Default::default(),
        }
    }
}

impl<const F: usize, const B: usize> Default for NicDatapath<F, B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const F: usize, const B: usize> Logic for NicDatapath<F, B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sl_main_v, sl_main_d, sl_skid_v, sl_skid_d, cmds_taken);
        self.tx_ctx.clock.next = self.clock.val();
        self.tx_pipe.clock.next = self.clock.val();
        self.rx_pipe.clock.next = self.clock.val();
        self.rx_ctx.clock.next = self.clock.val();
        self.read_split.clock.next = self.clock.val();
        self.rx_dma.clock.next = self.clock.val();
        self.tx_ctx.reset.next = self.reset.val();
        self.tx_pipe.reset.next = self.reset.val();
        self.rx_pipe.reset.next = self.reset.val();
        self.rx_ctx.reset.next = self.reset.val();
        self.read_split.reset.next = self.reset.val();
        self.rx_dma.reset.next = self.reset.val();
        self.gate.clock.next = self.clock.val();
        self.gate.reset.next = self.reset.val();

        // ---- Tx pipe: control, PktSend, PktRecv (rx_ctx's first, then probe requests as
        // PktRecv kind 3), descriptors to tx_pipe, DMA reads out, payload in, frames out.
        self.tx_ctx.s_axis_ctrl_tdata.next = self.s_axis_tx_ctrl_tdata.val();
        self.tx_ctx.s_axis_ctrl_tvalid.next = self.s_axis_tx_ctrl_tvalid.val();
        self.s_axis_tx_ctrl_tready.next = self.tx_ctx.s_axis_ctrl_tready.val();
        self.tx_ctx.s_axis_pktsend_tdata.next = self.s_axis_pktsend_tdata.val();
        self.tx_ctx.s_axis_pktsend_tvalid.next = self.s_axis_pktsend_tvalid.val();
        self.s_axis_pktsend_tready.next = self.tx_ctx.s_axis_pktsend_tready.val();
        self.m_axis_sleep_tdata.next = self.tx_ctx.m_axis_sleep_tdata.val();
        self.m_axis_sleep_tvalid.next = self.tx_ctx.m_axis_sleep_tvalid.val();
        self.tx_ctx.m_axis_sleep_tready.next = self.m_axis_sleep_tready.val();
        // ---- The PktRecv gate (nic_datapath_gate): rx_ctx's PktRecvs through read_split, held
        // until their payloads are placed, with Rx-HPCC feedback and CNPs; probe requests.
        self.gate.now_ns.next = self.now_ns.val().get_bits::<32>(0);
        self.gate.cfg_cnp_interval_ns.next = self.cfg_cnp_interval_ns.val();
        self.read_split.s_axis_tdata.next = self.rx_ctx.m_axis_pktrecv_tdata.val();
        self.read_split.s_axis_tvalid.next = self.rx_ctx.m_axis_pktrecv_tvalid.val();
        self.rx_ctx.m_axis_pktrecv_tready.next = self.read_split.s_axis_tready.val();
        self.gate.s_axis_tdata.next = self.read_split.m_axis_tdata.val();
        self.gate.s_axis_tvalid.next = self.read_split.m_axis_tvalid.val();
        self.read_split.m_axis_tready.next = self.gate.s_axis_tready.val();
        self.gate.s_axis_probe_tdata.next = self.s_axis_probe_tdata.val();
        self.gate.s_axis_probe_tvalid.next = self.s_axis_probe_tvalid.val();
        self.s_axis_probe_tready.next = self.gate.s_axis_probe_tready.val();
        self.gate.s_axis_feedback_tdata.next = self.s_axis_feedback_tdata.val();
        self.gate.s_axis_feedback_tvalid.next = self.s_axis_feedback_tvalid.val();
        self.s_axis_feedback_tready.next = self.gate.s_axis_feedback_tready.val();
        self.tx_ctx.s_axis_pktrecv_tdata.next = self.gate.m_axis_tdata.val();
        self.tx_ctx.s_axis_pktrecv_tvalid.next = self.gate.m_axis_tvalid.val();
        self.gate.m_axis_tready.next = self.tx_ctx.s_axis_pktrecv_tready.val();
        self.gate.ctrl_tdata.next = self.s_axis_tx_ctrl_tdata.val();
        self.gate.ctrl_tvalid.next = self.s_axis_tx_ctrl_tvalid.val();
        self.gate.ctrl_tready.next = self.tx_ctx.s_axis_ctrl_tready.val();
        self.gate.cmd_tdata.next = self.rx_ctx.m_axis_dma_cmd_tdata.val();
        self.gate.cmd_tvalid.next = self.rx_ctx.m_axis_dma_cmd_tvalid.val();
        self.gate.cmd_tready.next = self.rx_dma.s_axis_cmd_tready.val();
        self.gate.wr_tvalid.next = self.rx_dma.m_axis_dma_wr_tvalid.val();
        self.gate.wr_tlast.next = self.rx_dma.m_axis_dma_wr_tlast.val();
        self.gate.wr_tready.next = self.m_axis_dma_wr.tready.val();
        self.gate.short.next = self.rx_dma.stat_short.val();
        self.stat_rx_payloads.next = self.gate.stat_payloads.val();
        self.stat_cnps.next = self.gate.stat_cnps.val();
        self.stat_fb_acks.next = self.gate.stat_fb_acks.val();
        self.tx_pipe.s_axis_desc_tdata.next = self.tx_ctx.m_axis_desc_tdata.val();
        self.tx_pipe.s_axis_desc_tvalid.next = self.tx_ctx.m_axis_desc_tvalid.val();
        self.tx_ctx.m_axis_desc_tready.next = self.tx_pipe.s_axis_desc_tready.val();
        self.m_axis_dma_rd.tdata.next = self.tx_ctx.m_axis_dma_rd_tdata.val();
        self.m_axis_dma_rd.tvalid.next = self.tx_ctx.m_axis_dma_rd_tvalid.val();
        self.tx_ctx.m_axis_dma_rd_tready.next = self.m_axis_dma_rd.tready.val();
        self.tx_pipe.s_axis_payload_tdata.next = self.s_axis_dma_rd_data.tdata.val();
        self.tx_pipe.s_axis_payload_tkeep.next = self.s_axis_dma_rd_data.tkeep.val();
        self.tx_pipe.s_axis_payload_tvalid.next = self.s_axis_dma_rd_data.tvalid.val();
        self.tx_pipe.s_axis_payload_tlast.next = self.s_axis_dma_rd_data.tlast.val();
        self.s_axis_dma_rd_data.tready.next = self.tx_pipe.s_axis_payload_tready.val();
        self.m_axis_tx.tdata.next = self.tx_pipe.m_axis_tdata.val();
        self.m_axis_tx.tkeep.next = self.tx_pipe.m_axis_tkeep.val();
        self.m_axis_tx.tvalid.next = self.tx_pipe.m_axis_tvalid.val();
        self.m_axis_tx.tlast.next = self.tx_pipe.m_axis_tlast.val();
        self.m_axis_tx.tuser.next = self.tx_pipe.m_axis_tuser.val();
        self.tx_pipe.m_axis_tready.next = self.m_axis_tx.tready.val();
        // Sent events: tx_ctx -> register slice (main + skid) -> rx_ctx.
        self.tx_ctx.m_axis_sent_tready.next = !self.sl_skid_v.q.val();
        self.sl_take.next = self.tx_ctx.m_axis_sent_tvalid.val() & !self.sl_skid_v.q.val();
        self.rx_ctx.s_axis_sent_tdata.next = self.sl_main_d.q.val();
        self.rx_ctx.s_axis_sent_tvalid.next = self.sl_main_v.q.val();
        if self.rx_ctx.s_axis_sent_tready.val() | !self.sl_main_v.q.val() {
            // main empties or is empty: refill from the skid entry, else from the input.
            self.sl_main_v.d.next = self.sl_skid_v.q.val() | self.sl_take.val();
            self.sl_main_d.d.next = self.tx_ctx.m_axis_sent_tdata.val();
            if self.sl_skid_v.q.val() {
                self.sl_main_d.d.next = self.sl_skid_d.q.val();
            }
            self.sl_skid_v.d.next = false;
        } else if self.sl_take.val() {
            self.sl_skid_v.d.next = true;
            self.sl_skid_d.d.next = self.tx_ctx.m_axis_sent_tdata.val();
        }
        if self.reset.val() {
            self.sl_main_v.d.next = false;
            self.sl_skid_v.d.next = false;
        }

        // ---- Rx pipe: the MAC stream to rx_pipe and rx_dma together (each sees tvalid only
        // when the other is ready too, so a beat moves in both or in neither).
        self.rx_ready.next = self.rx_pipe.s_axis_tready.val() & self.rx_dma.s_axis_tready.val();
        self.s_axis_rx.tready.next = self.rx_ready.val();
        self.rx_pipe.s_axis_tdata.next = self.s_axis_rx.tdata.val();
        self.rx_pipe.s_axis_tkeep.next = self.s_axis_rx.tkeep.val();
        self.rx_pipe.s_axis_tlast.next = self.s_axis_rx.tlast.val();
        self.rx_pipe.s_axis_tuser.next = self.s_axis_rx.tuser.val();
        self.rx_pipe.s_axis_tvalid.next = self.s_axis_rx.tvalid.val() & self.rx_dma.s_axis_tready.val();
        self.rx_dma.s_axis_tdata.next = self.s_axis_rx.tdata.val();
        self.rx_dma.s_axis_tkeep.next = self.s_axis_rx.tkeep.val();
        self.rx_dma.s_axis_tlast.next = self.s_axis_rx.tlast.val();
        self.rx_dma.s_axis_tvalid.next = self.s_axis_rx.tvalid.val() & self.rx_pipe.s_axis_tready.val();
        self.rx_ctx.s_axis_verdict_tdata.next = self.rx_pipe.m_axis_verdict_tdata.val();
        self.rx_ctx.s_axis_verdict_tvalid.next = self.rx_pipe.m_axis_verdict_tvalid.val();
        self.rx_pipe.m_axis_verdict_tready.next = self.rx_ctx.s_axis_verdict_tready.val();
        self.rx_ctx.cfg_pkt_shift.next = self.cfg_pkt_shift.val();
        self.rx_ctx.now_ns.next = self.now_ns.val();
        self.rx_ctx.s_axis_ctrl_tdata.next = self.s_axis_rx_ctrl_tdata.val();
        self.rx_ctx.s_axis_ctrl_tvalid.next = self.s_axis_rx_ctrl_tvalid.val();
        self.s_axis_rx_ctrl_tready.next = self.rx_ctx.s_axis_ctrl_tready.val();
        self.rx_dma.s_axis_cmd_tdata.next = self.rx_ctx.m_axis_dma_cmd_tdata.val();
        self.rx_dma.s_axis_cmd_tvalid.next = self.rx_ctx.m_axis_dma_cmd_tvalid.val();
        self.rx_ctx.m_axis_dma_cmd_tready.next = self.rx_dma.s_axis_cmd_tready.val();
        self.m_axis_event_tdata.next = self.rx_ctx.m_axis_event_tdata.val();
        self.m_axis_event_tvalid.next = self.rx_ctx.m_axis_event_tvalid.val();
        self.rx_ctx.m_axis_event_tready.next = self.m_axis_event_tready.val();
        self.m_axis_notify_tdata.next = self.rx_ctx.m_axis_notify_tdata.val();
        self.m_axis_notify_tvalid.next = self.rx_ctx.m_axis_notify_tvalid.val();
        self.rx_ctx.m_axis_notify_tready.next = self.m_axis_notify_tready.val();
        self.m_axis_dma_wr_cmd.tdata.next = self.rx_dma.m_axis_dma_wr_cmd_tdata.val();
        self.m_axis_dma_wr_cmd.tvalid.next = self.rx_dma.m_axis_dma_wr_cmd_tvalid.val();
        self.rx_dma.m_axis_dma_wr_cmd_tready.next = self.m_axis_dma_wr_cmd.tready.val();
        self.m_axis_dma_wr.tdata.next = self.rx_dma.m_axis_dma_wr_tdata.val();
        self.m_axis_dma_wr.tkeep.next = self.rx_dma.m_axis_dma_wr_tkeep.val();
        self.m_axis_dma_wr.tvalid.next = self.rx_dma.m_axis_dma_wr_tvalid.val();
        self.m_axis_dma_wr.tlast.next = self.rx_dma.m_axis_dma_wr_tlast.val();
        self.rx_dma.m_axis_dma_wr_tready.next = self.m_axis_dma_wr.tready.val();

        // ---- Counters.
        self.rx_pipe.stat_addr.next = self.stat_rx_pipe_addr.val();
        self.stat_rx_pipe_count.next = self.rx_pipe.stat_count.val();
        self.rx_ctx.stat_addr.next = self.stat_rx_ctx_addr.val();
        self.stat_rx_ctx_count.next = self.rx_ctx.stat_count.val();
        self.stat_tx_drop.next = self.tx_ctx.stat_drop.val();
        self.stat_tx_recv_drop.next = self.tx_ctx.stat_recv_drop.val();
        self.stat_tx_nak_ignored.next = self.tx_ctx.stat_nak_ignored.val();
        self.stat_tx_ctrl_bad.next = self.tx_ctx.stat_ctrl_bad.val();
        self.stat_tx_len_err.next = self.tx_pipe.stat_len_err.val();
        self.stat_rx_written.next = self.rx_dma.stat_written.val();
        self.stat_rx_discarded.next = self.rx_dma.stat_discarded.val();
        self.stat_rx_short.next = self.rx_dma.stat_short.val();
        self.stat_rx_jobs.next = self.rx_dma.stat_jobs.val();
        if self.rx_ctx.m_axis_dma_cmd_tvalid.val() & self.rx_dma.s_axis_cmd_tready.val() {
            self.cmds_taken.d.next = self.cmds_taken.q.val() + 1;
        }
        if self.reset.val() {
            self.cmds_taken.d.next = 0.into();
        }
        self.stat_rx_cmds.next = self.cmds_taken.q.val();
        if self.rx_ctx.m_axis_dma_cmd_tvalid.val() {
            self.stat_rx_cmds.next = self.cmds_taken.q.val() + 1;
        }
    }
}
