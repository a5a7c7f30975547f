//! The completion queue, a block of hpcc_nic_core (docs/modules/hpcc_nic_core.md): what the
//! core's tracker and sequencer find complete leaves on `m_axis_cpl` in order, and is never
//! lost while the host does not take it.
//!
//! - A WRITE's completion (the ACK of its end PSN) goes in at once.
//! - A READ is complete when rx_dma has written its last response's payload. rx_dma takes
//!   commands in order, so once it has decoded as many commands as rx_ctx had made when the
//!   completing event left (`done_cmds`, which counts that response's command), every payload
//!   of them is among the jobs queued by then; the READ completes when that many payloads
//!   have left on the DMA write stream. One READ waits at a time, plus the one that can arrive
//!   in the cycle the first starts waiting (`rw2`); the core holds its events meanwhile.
//! - A failed message's error completion (the sequencer's) goes in at once.
//!
//! The queue is a head and a skid register: the core holds its events while the head is full,
//! so at most one completion can arrive behind it.

use rust_hdl::prelude::*;

/// The completion queue.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreCpl {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty, nothing waiting.
    pub reset: Signal<In, bool>,
    /// The tracker completes a message.
    pub done: Signal<In, bool>,
    /// It is a READ (it waits for its payload).
    pub done_read: Signal<In, bool>,
    /// Its completion word (flow, tag, status).
    pub done_data: Signal<In, Bits<64>>,
    /// rx_ctx's DMA commands made when the completing event left.
    pub done_cmds: Signal<In, Bits<32>>,
    /// The sequencer ends a message in error.
    pub fail: Signal<In, bool>,
    /// Its completion word.
    pub fail_data: Signal<In, Bits<64>>,
    /// rx_dma: packets written, discarded, and commands longer than their frame (together:
    /// the commands it has decoded).
    pub rx_written: Signal<In, Bits<32>>,
    /// See `rx_written`.
    pub rx_discarded: Signal<In, Bits<32>>,
    /// See `rx_written`.
    pub rx_short: Signal<In, Bits<32>>,
    /// rx_dma: payloads that have left on the DMA write stream.
    pub rx_payloads: Signal<In, Bits<32>>,
    /// rx_dma: payload jobs queued.
    pub rx_jobs: Signal<In, Bits<32>>,
    /// Completion: [15:0] flow, [31:16] the message's tag, [33:32] status.
    pub m_axis_cpl_tdata: Signal<Out, Bits<64>>,
    /// A completion is offered.
    pub m_axis_cpl_tvalid: Signal<Out, bool>,
    /// The host takes it.
    pub m_axis_cpl_tready: Signal<In, bool>,
    /// The queue takes no completion now, so the core holds its events and the sequencer its
    /// error completion: the head is full (one more may still arrive, into the skid), or a
    /// READ's completion waits for its payload.
    pub blocked: Signal<Out, bool>,
    head: DFF<bool>,
    head_data: DFF<Bits<64>>,
    skid: DFF<bool>,
    skid_data: DFF<Bits<64>>,
    /// The waiting READ: [stage] 0 until rx_dma has decoded its command (then `rw_count` is
    /// the jobs queued), 1 until that many payloads have left.
    rw_valid: DFF<bool>,
    rw_stage: DFF<bool>,
    rw_data: DFF<Bits<64>>,
    rw_count: DFF<Bits<32>>,
    rw2_valid: DFF<bool>,
    rw2_data: DFF<Bits<64>>,
    rw2_count: DFF<Bits<32>>,
    decoded: Signal<Local, Bits<32>>,
    left0: Signal<Local, Bits<32>>,
    left1: Signal<Local, Bits<32>>,
    rw_done: Signal<Local, bool>,
    push: Signal<Local, bool>,
    push_data: Signal<Local, Bits<64>>,
    pop: Signal<Local, bool>,
}

impl Logic for HpccNicCoreCpl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, head, head_data, skid, skid_data, rw_valid, rw_stage, rw_data, rw_count, rw2_valid,
            rw2_data, rw2_count
        );
        // ---- The waiting READ: its command decoded, then its payloads out (sign of the
        // wrapping difference).
        self.decoded.next = self.rx_written.val() + self.rx_discarded.val() + self.rx_short.val();
        self.left0.next = self.decoded.val() - self.rw_count.q.val();
        self.left1.next = self.rx_payloads.val() - self.rw_count.q.val();
        self.rw_done.next = false;
        if self.rw_valid.q.val() & !self.rw_stage.q.val() {
            if !self.left0.val().get_bit(31) {
                self.rw_stage.d.next = true;
                self.rw_count.d.next = self.rx_jobs.val();
            }
        } else if self.rw_valid.q.val() {
            self.rw_done.next = !self.left1.val().get_bit(31);
        }
        if self.done.val() & self.done_read.val() {
            if self.rw_valid.q.val() {
                self.rw2_valid.d.next = true;
                self.rw2_data.d.next = self.done_data.val();
                self.rw2_count.d.next = self.done_cmds.val();
            } else {
                self.rw_valid.d.next = true;
                self.rw_stage.d.next = false;
                self.rw_data.d.next = self.done_data.val();
                self.rw_count.d.next = self.done_cmds.val();
            }
        }
        // ---- Into the queue: a WRITE's, a READ's whose payload is out, or an error one.
        self.push.next = (self.done.val() & !self.done_read.val()) | self.rw_done.val() | self.fail.val();
        self.push_data.next = self.done_data.val();
        if self.fail.val() {
            self.push_data.next = self.fail_data.val();
        }
        if self.rw_done.val() {
            // The second one (if any) waits next, from its own count.
            self.push_data.next = self.rw_data.q.val();
            self.rw_valid.d.next = self.rw2_valid.q.val();
            self.rw_stage.d.next = false;
            self.rw_data.d.next = self.rw2_data.q.val();
            self.rw_count.d.next = self.rw2_count.q.val();
            self.rw2_valid.d.next = false;
        }
        // ---- Head and skid.
        self.m_axis_cpl_tvalid.next = self.head.q.val();
        self.m_axis_cpl_tdata.next = self.head_data.q.val();
        self.pop.next = self.head.q.val() & self.m_axis_cpl_tready.val();
        if self.pop.val() | !self.head.q.val() {
            self.head.d.next = self.skid.q.val() | self.push.val();
            self.head_data.d.next = self.push_data.val();
            if self.skid.q.val() {
                self.head_data.d.next = self.skid_data.q.val();
            }
            self.skid.d.next = self.skid.q.val() & self.push.val();
            self.skid_data.d.next = self.push_data.val();
        } else if self.push.val() {
            self.skid.d.next = true;
            self.skid_data.d.next = self.push_data.val();
        }
        self.blocked.next = self.head.q.val() | self.rw_valid.q.val();
        if self.reset.val() {
            self.head.d.next = false;
            self.skid.d.next = false;
            self.rw_valid.d.next = false;
            self.rw2_valid.d.next = false;
        }
    }
}
