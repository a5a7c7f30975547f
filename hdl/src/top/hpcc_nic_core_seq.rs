//! The command sequencer, a block of hpcc_nic_core (docs/modules/hpcc_nic_core.md,
//! "Commands"): it runs one command at a time through every block, in the order that keeps
//! them consistent, and reports errors in `STATUS`.
//!
//! - A host command (`CMD`) starts at once, or waits (`cmd_pend`) behind an internal command;
//!   one written while another host command runs or waits is dropped (`ERR_OVERRUN`).
//! - Internal commands are the timer scan's: a retransmission timeout (to rx_ctx) or a failure
//!   past the retry limit (an error completion, then the flow removed everywhere). They start
//!   when the sequencer is idle and no host command starts.
//! - Queue posts come from the core's post port (`qp_*`, `sim::layout::CORE_POST`): a post
//!   like the host's, its words from the port's word instead of the argument registers. One
//!   starts when nothing else does; the port's word is held until the post has gone to tx_ctx
//!   (`qp_take`), or until its refusal: a refused queue post does not touch `STATUS` but gets
//!   an error completion (`CPL_REFUSED`, the error code in the completion).
//!
//! ```text
//! IDLE -> READ (the flow's entry, events held) -> CHECK (against the entry)
//!   create: CC (algorithm, once the event slot is empty) -> TX -> RX -> SCHED -> ENTRY
//!   remove: SCHED (nothing more is sent) -> TX -> RX -> ENTRY
//!   post:   ENTRY (a message out) -> TX; a READ: ENTRY -> RX (its local address) -> TX
//!   probe:  PROBE
//!   timeout: RX;  failure: (error completion, entry cleared) SCHED -> TX -> RX -> ENTRY
//!   a refused queue post: REFUSE (its error completion)
//! ```
//!
//! The control words are the host's argument words with op and flow filled in: tx_ctx's
//! create or post (`sim::layout::TX_CREATE` / `TX_POST`), rx_ctx's create or READ
//! (`RX_CREATE` / `RX_READ`), flow_sched's (`SCHED_CTRL`) with the flow's packet size.

use crate::hpcc_nic_core::{
    CMD_CREATE, CMD_OP_BITS, CMD_POST, CMD_PROBE, CMD_REMOVE, CMD_RTO, CMD_RTO_FAIL, ERR_BITS, ERR_BUSY, ERR_CONFIG,
    ERR_EXISTS, ERR_FLOW, ERR_OP, ERR_OVERRUN, ERR_UNKNOWN, SEQ_BITS, SEQ_CC, SEQ_CHECK, SEQ_ENTRY, SEQ_IDLE, SEQ_PROBE,
    SEQ_READ, SEQ_RX, SEQ_SCHED, SEQ_TX, STATUS_ERR_AT,
};
use crate::hpcc_nic_core_seq_words::HpccNicCoreSeqWords;
use crate::hpcc_nic_core::csr::{CPL_REFUSED, CPL_RETRY_EXCEEDED};
use crate::hpcc_nic_core::SEQ_REFUSE;
use crate::layout::{CoreFlowFields, CorePostNamed, CplNamed, TxPostNamed};
use rust_hdl::prelude::*;

/// The sequencer for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreSeq<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, no error, the counters 0.
    pub reset: Signal<In, bool>,
    /// The host writes `CMD` this cycle (a whole word).
    pub cmd_we: Signal<In, bool>,
    /// The word written: [2:0] op, [31:16] flow.
    pub cmd_data: Signal<In, Bits<32>>,
    /// `ARG_TX`: tx_ctx's create or post word (op and flow filled in here).
    pub tx_word: Signal<In, Bits<512>>,
    /// `ARG_RX`: rx_ctx's create or READ word (op filled in here).
    pub rx_word: Signal<In, Bits<128>>,
    /// `ARG_RATE`: a created flow's initial rate.
    pub rate: Signal<In, Bits<32>>,
    /// `ARG_WINDOW`: its initial window.
    pub window: Signal<In, Bits<32>>,
    /// `ARG_ALG` [1:0]: its algorithm.
    pub alg: Signal<In, Bits<2>>,
    /// `ARG_TAG` [15:0]: a posted message's tag.
    pub tag: Signal<In, Bits<16>>,
    /// A queue post is offered on the core's post port (held until `qp_take`).
    pub qp_valid: Signal<In, bool>,
    /// Its word (`sim::layout::CORE_POST`).
    pub qp_word: Signal<In, Bits<432>>,
    /// The queue post is done: sent to tx_ctx, or refused with its error completion.
    pub qp_take: Signal<Out, bool>,
    /// The time base (the create event's time).
    pub now_ns: Signal<In, Bits<64>>,
    /// The flow table's read port: the command's flow while `hold` (`sim::layout::CORE_FLOW`).
    pub entry: Signal<In, Bits<71>>,
    /// The completion tracker has an event in T1 (it may write the table).
    pub t1_valid: Signal<In, bool>,
    /// The core clears its tables after reset: commands wait.
    pub sweep: Signal<In, bool>,
    /// The event slot holds an event (a create waits until it has gone).
    pub slot_full: Signal<In, bool>,
    /// The completion queue cannot take an error completion now (its head full, or a READ's
    /// completion waiting).
    pub cpl_busy: Signal<In, bool>,
    /// The timer scan's timeout (or failure) waits.
    pub rq_valid: Signal<In, bool>,
    /// It is a failure.
    pub rq_fail: Signal<In, bool>,
    /// Its flow.
    pub rq_flow: Signal<In, Bits<F>>,
    /// The sequencer takes it.
    pub rq_take: Signal<Out, bool>,
    /// The events are held (states READ, CHECK, CC, ENTRY): the table's read port is the
    /// sequencer's.
    pub hold: Signal<Out, bool>,
    /// The command's op (`CMD_*`; the internal command's while one runs).
    pub cmd_op: Signal<Out, Bits<CMD_OP_BITS>>,
    /// The command's flow.
    pub cmd_flow: Signal<Out, Bits<16>>,
    /// The create event (type 6) for cc_module is offered.
    pub cr_valid: Signal<Out, bool>,
    /// The create event (`sim::layout::CC_EVENT`).
    pub cr_word: Signal<Out, Bits<512>>,
    /// cc_module takes an event.
    pub cr_ready: Signal<In, bool>,
    /// tx_ctx's control word.
    pub tx_ctrl_tdata: Signal<Out, Bits<512>>,
    /// It is offered.
    pub tx_ctrl_tvalid: Signal<Out, bool>,
    /// tx_ctx takes it.
    pub tx_ctrl_tready: Signal<In, bool>,
    /// rx_ctx's control word.
    pub rx_ctrl_tdata: Signal<Out, Bits<128>>,
    /// It is offered.
    pub rx_ctrl_tvalid: Signal<Out, bool>,
    /// rx_ctx takes it.
    pub rx_ctrl_tready: Signal<In, bool>,
    /// flow_sched's control word.
    pub sched_ctrl_tdata: Signal<Out, Bits<88>>,
    /// It is offered.
    pub sched_ctrl_tvalid: Signal<Out, bool>,
    /// flow_sched takes it.
    pub sched_ctrl_tready: Signal<In, bool>,
    /// A probe request for `cmd_flow` is offered (it has the datapath's probe port).
    pub probe_tvalid: Signal<Out, bool>,
    /// The datapath takes it.
    pub probe_tready: Signal<In, bool>,
    /// The sequencer writes the flow table (a create, remove, post, or a failure's clear).
    pub ft_we: Signal<Out, bool>,
    /// The entry written.
    pub ft_entry: Signal<Out, Bits<71>>,
    /// snd_una for the timeout's copy (a post's first PSN, else 0).
    pub ft_una: Signal<Out, Bits<24>>,
    /// The flow's algorithm goes into the per-flow RAMs of the core's blocks (create, remove,
    /// a failure's remove).
    pub alg_we: Signal<Out, bool>,
    /// An error completion: `CPL_RETRY_EXCEEDED` for a failed message, `CPL_REFUSED` for a
    /// refused queue post.
    pub fail: Signal<Out, bool>,
    /// The completion word.
    pub fail_data: Signal<Out, Bits<64>>,
    /// `STATUS`: [0] a host command runs or waits, [7:4] the last host command's error.
    pub status: Signal<Out, Bits<32>>,
    /// `CMD` as last written.
    pub stat_cmd: Signal<Out, Bits<32>>,
    /// `CMD_ERRORS`.
    pub stat_errors: Signal<Out, Bits<32>>,
    /// `RTO_TIMEOUTS`: timeouts given to rx_ctx.
    pub stat_timeouts: Signal<Out, Bits<32>>,
    /// `RTO_FAILED`: messages ended by the retry limit.
    pub stat_failed: Signal<Out, Bits<32>>,
    state: DFF<Bits<SEQ_BITS>>,
    err: DFF<Bits<ERR_BITS>>,
    cmd_word: DFF<Bits<32>>,
    cmd_errors: DFF<Bits<32>>,
    /// An internal command runs: its op, flow, and rx_ctx's QPN from the entry.
    ic: DFF<bool>,
    ic_op: DFF<Bits<CMD_OP_BITS>>,
    ic_flow: DFF<Bits<16>>,
    ic_qpn: DFF<Bits<24>>,
    /// A host command waits behind the internal one (in `cmd_word`).
    cmd_pend: DFF<bool>,
    /// A queue post runs (its words are the post port's), and its refusal's error code.
    qc: DFF<bool>,
    qerr: DFF<Bits<ERR_BITS>>,
    rto_count: DFF<Bits<32>>,
    rto_failed: DFF<Bits<32>>,
    /// The command decoded, its words.
    words: HpccNicCoreSeqWords,
    /// A host command runs or waits (`STATUS` [0]).
    host_busy: Signal<Local, bool>,
    /// The command's tx word, rx word and tag: the argument registers', or the queue post's.
    tx_sel: Signal<Local, Bits<512>>,
    rx_sel: Signal<Local, Bits<128>>,
    tag_sel: Signal<Local, Bits<16>>,
    /// The queue post's tx word (a part of the port's word, copied to read its flow).
    qp_tx: Signal<Local, Bits<288>>,
    /// The error code the check finds (0: none).
    chk_err: Signal<Local, Bits<ERR_BITS>>,
}

impl<const F: usize> Logic for HpccNicCoreSeq<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, err, cmd_word, cmd_errors, ic, ic_op, ic_flow, ic_qpn, cmd_pend, qc, qerr, rto_count, rto_failed
        );
        // ---- The command's arguments: the registers', or the queue post's while one runs.
        self.qp_tx.next = self.qp_word.val().get_value_core_post_tx();
        self.tx_sel.next = self.tx_word.val();
        self.rx_sel.next = self.rx_word.val();
        self.tag_sel.next = self.tag.val();
        if self.qc.q.val() {
            self.tx_sel.next = bit_cast::<512, 288>(self.qp_tx.val());
            self.rx_sel.next = self.qp_word.val().get_value_core_post_rx();
            self.tag_sel.next = self.qp_word.val().get_value_core_post_tag();
        }
        // ---- The command decoded and its words (hpcc_nic_core_seq_words).
        self.words.host_op.next = self.cmd_word.q.val().get_bits::<CMD_OP_BITS>(0);
        self.words.host_flow.next = self.cmd_word.q.val().get_bits::<16>(16);
        if self.qc.q.val() {
            self.words.host_op.next = CMD_POST.into();
            self.words.host_flow.next = self.qp_tx.val().get_bits::<16>(16);
        }
        self.words.ic.next = self.ic.q.val();
        self.words.ic_op.next = self.ic_op.q.val();
        self.words.ic_flow.next = self.ic_flow.q.val();
        self.words.ic_qpn.next = self.ic_qpn.q.val();
        self.words.tx_word.next = self.tx_sel.val();
        self.words.rx_word.next = self.rx_sel.val();
        self.words.rate.next = self.rate.val();
        self.words.window.next = self.window.val();
        self.words.alg.next = self.alg.val();
        self.words.now_ns.next = self.now_ns.val();
        self.words.mtu_log.next = self.entry.val().get_value_mtu_log();
        self.cmd_op.next = self.words.op.val();
        self.cmd_flow.next = self.words.flow.val();

        // ---- What the state offers.
        self.hold.next = (self.state.q.val() == SEQ_READ)
            | (self.state.q.val() == SEQ_CHECK)
            | (self.state.q.val() == SEQ_CC)
            | (self.state.q.val() == SEQ_ENTRY)
            | (self.state.q.val() == SEQ_REFUSE);
        self.ft_we.next = false;
        self.ft_entry.next = 0.into();
        self.ft_una.next = 0.into();
        self.fail.next = false;
        self.fail_data.next = 0.into();
        self.fail_data.next.set_value_cpl_flow(self.words.flow.val());
        self.fail_data.next.set_value_cpl_tag(self.entry.val().get_value_tag());
        self.fail_data.next.set_value_cpl_status(CPL_RETRY_EXCEEDED.into());
        if self.state.q.val() == SEQ_REFUSE {
            self.fail_data.next.set_value_cpl_tag(self.tag_sel.val());
            self.fail_data.next.set_value_cpl_status(CPL_REFUSED.into());
            self.fail_data.next.set_value_cpl_error(self.qerr.q.val());
        }
        self.alg_we.next = (self.state.q.val() == SEQ_ENTRY)
            & !self.t1_valid.val()
            & ((self.words.op.val() == CMD_CREATE) | (self.words.op.val() == CMD_REMOVE) | (self.words.op.val() == CMD_RTO_FAIL));
        // The words, each offered in its state; the create event once the event slot has
        // gone (a re-created flow's old events first).
        self.cr_word.next = self.words.cr_word.val();
        self.cr_valid.next = (self.state.q.val() == SEQ_CC) & !self.slot_full.val();
        self.sched_ctrl_tdata.next = self.words.sched_word.val();
        self.sched_ctrl_tvalid.next = self.state.q.val() == SEQ_SCHED;
        self.tx_ctrl_tdata.next = self.words.tx_ctrl.val();
        self.tx_ctrl_tvalid.next = self.state.q.val() == SEQ_TX;
        self.rx_ctrl_tdata.next = self.words.rx_ctrl.val();
        self.rx_ctrl_tvalid.next = self.state.q.val() == SEQ_RX;
        self.probe_tvalid.next = self.state.q.val() == SEQ_PROBE;

        // ---- Starting a command.
        self.rq_take.next = false;
        self.qp_take.next = false;
        self.chk_err.next = 0.into();
        if self.state.q.val() == SEQ_IDLE {
            self.ic.d.next = false;
            self.qc.d.next = false;
            if self.cmd_pend.q.val() {
                self.cmd_pend.d.next = false;
                self.state.d.next = SEQ_READ.into();
            } else if !self.cmd_we.val() & self.rq_valid.val() {
                self.ic.d.next = true;
                self.ic_op.d.next = CMD_RTO.into();
                if self.rq_fail.val() {
                    self.ic_op.d.next = CMD_RTO_FAIL.into();
                }
                self.ic_flow.d.next = bit_cast::<16, F>(self.rq_flow.val());
                self.rq_take.next = true;
                self.state.d.next = SEQ_READ.into();
            } else if !self.cmd_we.val() & self.qp_valid.val() {
                self.qc.d.next = true;
                self.qerr.d.next = 0.into();
                self.state.d.next = SEQ_READ.into();
            }
        }
        if self.cmd_we.val() {
            if (self.state.q.val() == SEQ_IDLE) & !self.cmd_pend.q.val() {
                self.cmd_word.d.next = self.cmd_data.val();
                self.err.d.next = 0.into();
                self.state.d.next = SEQ_READ.into();
            } else if (self.ic.q.val() | self.qc.q.val()) & !self.cmd_pend.q.val() {
                self.cmd_word.d.next = self.cmd_data.val();
                self.err.d.next = 0.into();
                self.cmd_pend.d.next = true;
            } else {
                self.err.d.next = ERR_OVERRUN.into();
                self.cmd_errors.d.next = self.cmd_errors.q.val() + 1;
            }
        }

        // ---- The states.
        if self.state.q.val() == SEQ_READ {
            // Read the flow's entry once the tracker has nothing in T1 (events held).
            if bit_cast::<16, F>(self.words.flow.val().get_bits::<F>(0)) != self.words.flow.val() {
                self.cmd_errors.d.next = self.cmd_errors.q.val() + 1;
                if self.qc.q.val() {
                    self.qerr.d.next = ERR_FLOW.into();
                    self.state.d.next = SEQ_REFUSE.into();
                } else {
                    self.err.d.next = ERR_FLOW.into();
                    self.state.d.next = SEQ_IDLE.into();
                }
            } else if !self.t1_valid.val() & !self.sweep.val() {
                self.state.d.next = SEQ_CHECK.into();
            }
        } else if (self.state.q.val() == SEQ_CHECK) & self.ic.q.val() {
            // Internal: only for a message still out (it may have completed since the scan).
            // A timeout goes to rx_ctx. A failure ends the message with an error completion
            // and clears the entry here, while the events are held (so no ACK can complete the
            // message too), once the completion queue can take it; then the flow is removed in
            // flow_sched, tx_ctx and rx_ctx.
            self.state.d.next = SEQ_IDLE.into();
            self.ic_qpn.d.next = self.entry.val().get_value_qpn();
            if self.entry.val().get_value_created() & self.entry.val().get_value_out() {
                if self.words.op.val() == CMD_RTO {
                    self.state.d.next = SEQ_RX.into();
                } else if !self.cpl_busy.val() {
                    self.ft_we.next = true;
                    self.fail.next = true;
                    self.rto_failed.d.next = self.rto_failed.q.val() + 1;
                    self.state.d.next = SEQ_SCHED.into();
                } else {
                    self.state.d.next = SEQ_CHECK.into();
                }
            }
        } else if self.state.q.val() == SEQ_CHECK {
            // Check the command against the entry: the error it gets, if any.
            if self.words.op.val() == CMD_CREATE {
                if self.entry.val().get_value_created() {
                    self.chk_err.next = ERR_EXISTS.into();
                } else if !self.words.mtu_ok.val()
                    | (self.words.rx_mtu.val() != self.words.mtu.val())
                    | (bit_cast::<16, F>(self.words.rx_qpn.val().get_bits::<F>(0)) != self.words.flow.val())
                    | (self.rate.val() == 0)
                    | (self.window.val() == 0)
                {
                    self.chk_err.next = ERR_CONFIG.into();
                }
            } else if (self.words.op.val() == CMD_REMOVE) | (self.words.op.val() == CMD_POST) | (self.words.op.val() == CMD_PROBE) {
                if !self.entry.val().get_value_created() {
                    self.chk_err.next = ERR_UNKNOWN.into();
                } else if self.entry.val().get_value_out() & (self.words.op.val() != CMD_PROBE) {
                    self.chk_err.next = ERR_BUSY.into();
                } else if (self.words.op.val() == CMD_POST)
                    & self.words.is_read.val()
                    & (bit_cast::<16, F>(self.words.rx_qpn.val().get_bits::<F>(0)) != self.words.flow.val())
                {
                    self.chk_err.next = ERR_CONFIG.into(); // a READ's rx word names another QP
                }
            } else {
                self.chk_err.next = ERR_OP.into();
            }
            if self.chk_err.val() != 0 {
                // Refused: a host command's error in STATUS, a queue post's in its completion.
                self.cmd_errors.d.next = self.cmd_errors.q.val() + 1;
                if self.qc.q.val() {
                    self.qerr.d.next = self.chk_err.val();
                    self.state.d.next = SEQ_REFUSE.into();
                } else {
                    self.err.d.next = self.chk_err.val();
                    self.state.d.next = SEQ_IDLE.into();
                }
            } else if self.words.op.val() == CMD_CREATE {
                self.state.d.next = SEQ_CC.into();
            } else if self.words.op.val() == CMD_REMOVE {
                self.state.d.next = SEQ_SCHED.into(); // flow_sched first: nothing more is sent
            } else if self.words.op.val() == CMD_POST {
                self.state.d.next = SEQ_ENTRY.into(); // the entry first, then the post
            } else {
                self.state.d.next = SEQ_PROBE.into();
            }
        } else if self.state.q.val() == SEQ_CC {
            // Create: the flow's algorithm in cc_module.
            if self.cr_valid.val() & self.cr_ready.val() {
                self.state.d.next = SEQ_TX.into();
            }
        } else if self.state.q.val() == SEQ_TX {
            // tx_ctx: create, remove or post.
            if self.tx_ctrl_tready.val() {
                if self.words.op.val() == CMD_POST {
                    self.qp_take.next = self.qc.q.val();
                    self.state.d.next = SEQ_IDLE.into();
                } else {
                    self.state.d.next = SEQ_RX.into();
                }
            }
        } else if self.state.q.val() == SEQ_RX {
            // rx_ctx: create, remove, a timeout, or a READ's local address (which rx_ctx has
            // before tx_ctx sends the first request).
            if self.rx_ctrl_tready.val() {
                if self.words.op.val() == CMD_CREATE {
                    self.state.d.next = SEQ_SCHED.into();
                } else if (self.words.op.val() == CMD_REMOVE) | (self.words.op.val() == CMD_RTO_FAIL) {
                    self.state.d.next = SEQ_ENTRY.into();
                } else if self.words.op.val() == CMD_RTO {
                    self.rto_count.d.next = self.rto_count.q.val() + 1;
                    self.state.d.next = SEQ_IDLE.into(); // the timeout is rx_ctx's now
                } else {
                    self.state.d.next = SEQ_TX.into(); // a READ: the local address first, then the post
                }
            }
        } else if self.state.q.val() == SEQ_SCHED {
            // flow_sched: create last (the flow may send from now on), remove first.
            if self.sched_ctrl_tready.val() {
                if self.words.op.val() == CMD_CREATE {
                    self.state.d.next = SEQ_ENTRY.into();
                } else {
                    self.state.d.next = SEQ_TX.into();
                }
            }
        } else if self.state.q.val() == SEQ_ENTRY {
            // Write the flow's entry (events held; once T1 is empty).
            if !self.t1_valid.val() {
                self.ft_we.next = true;
                if self.words.op.val() == CMD_CREATE {
                    // Created, no message out, log2 MTU, rx_ctx's QPN.
                    self.ft_entry.next.set_value_created(true);
                    self.ft_entry.next.set_value_mtu_log(self.words.shift.val());
                    self.ft_entry.next.set_value_qpn(self.words.rx_qpn.val());
                    self.state.d.next = SEQ_IDLE.into();
                } else if (self.words.op.val() == CMD_REMOVE) | (self.words.op.val() == CMD_RTO_FAIL) {
                    self.state.d.next = SEQ_IDLE.into();
                } else {
                    // Post: a message is out until the ACK of its end PSN.
                    self.ft_una.next = self.tx_sel.val().get_value_tx_post_first_psn();
                    self.ft_entry.next.set_value_created(self.entry.val().get_value_created());
                    self.ft_entry.next.set_value_qpn(self.entry.val().get_value_qpn());
                    self.ft_entry.next.set_value_mtu_log(self.entry.val().get_value_mtu_log());
                    self.ft_entry.next.set_value_read(self.words.is_read.val());
                    self.ft_entry.next.set_value_out(true);
                    self.ft_entry.next.set_value_end_psn(self.words.end_psn.val());
                    self.ft_entry.next.set_value_tag(self.tag_sel.val());
                    self.state.d.next = SEQ_TX.into();
                    if self.words.is_read.val() {
                        self.state.d.next = SEQ_RX.into();
                    }
                }
            }
        } else if self.state.q.val() == SEQ_PROBE {
            if self.probe_tready.val() {
                self.state.d.next = SEQ_IDLE.into();
            }
        } else if self.state.q.val() == SEQ_REFUSE {
            // A refused queue post's error completion (events held; once T1 is empty and the
            // completion queue can take it); then the port's word is taken.
            if !self.t1_valid.val() & !self.cpl_busy.val() {
                self.fail.next = true;
                self.qp_take.next = true;
                self.state.d.next = SEQ_IDLE.into();
            }
        }

        // ---- Registers read by the host. A host command runs or waits; internal ones are not
        // shown.
        self.host_busy.next = ((self.state.q.val() != SEQ_IDLE) & !self.ic.q.val() & !self.qc.q.val()) | self.cmd_pend.q.val();
        self.status.next = (bit_cast::<32, ERR_BITS>(self.err.q.val()) << STATUS_ERR_AT)
            | bit_cast::<32, 1>(self.host_busy.val().into());
        self.stat_cmd.next = self.cmd_word.q.val();
        self.stat_errors.next = self.cmd_errors.q.val();
        self.stat_timeouts.next = self.rto_count.q.val();
        self.stat_failed.next = self.rto_failed.q.val();
        if self.reset.val() {
            self.state.d.next = SEQ_IDLE.into();
            self.err.d.next = 0.into();
            self.cmd_word.d.next = 0.into();
            self.cmd_errors.d.next = 0.into();
            self.ic.d.next = false;
            self.cmd_pend.d.next = false;
            self.qc.d.next = false;
            self.qerr.d.next = 0.into();
            self.rto_count.d.next = 0.into();
            self.rto_failed.d.next = 0.into();
        }
    }
}
