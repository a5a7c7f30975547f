//! The flow table and the completion tracker, a block of hpcc_nic_core
//! (docs/modules/hpcc_nic_core.md): one entry per flow (`sim::layout::CORE_FLOW`), read and
//! written by the command sequencer and by the tracker, and cleared after reset.
//!
//! ```text
//! T0  an ACK or loss event (its seq is snd_una) goes into the event slot; its flow's entry
//!     is read
//! T1  a message out whose end PSN is snd_una is complete: a completion to the queue, the
//!     entry written back with out cleared; every T1 writes the entry back (snd_una into
//!     the timer scan's copy)
//! ```
//!
//! One read port: the sequencer's flow while it holds the events (or during the sweep),
//! else the event's. One write port: the sequencer's write, else the tracker's (never both:
//! the sequencer waits for T1 to be empty). The last write is kept and forwarded to a T1 of
//! the same flow, whose read missed it. After reset the table is cleared, one entry per
//! cycle for 2^F cycles (`sweep`): commands and events wait, and the core's other blocks
//! clear their RAMs at the same addresses.

use crate::cc_codes::{EV_ACK, EV_LOSS};
use crate::hpcc_nic_core::csr::CPL_OK;
use crate::layout::{CoreFlowFields, CplNamed};
use rust_hdl::prelude::*;

/// The flow table and tracker of `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreTracker<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: nothing in T1, the counter 0, the sweep started.
    pub reset: Signal<In, bool>,
    /// The slot takes the Rx pipe's event this cycle.
    pub ev_take: Signal<In, bool>,
    /// Its type (`sim::layout::CC_EVENT`'s `kind`).
    pub ev_kind: Signal<In, Bits<4>>,
    /// Its flow.
    pub ev_flow: Signal<In, Bits<16>>,
    /// Its PSN (seq's low 24 bits: snd_una for an ACK or a loss).
    pub ev_psn: Signal<In, Bits<24>>,
    /// rx_ctx's DMA commands so far (nic_datapath's `stat_rx_cmds`), kept with the T1 of a
    /// READ, whose completion waits until they are written.
    pub rx_cmds: Signal<In, Bits<32>>,
    /// The sequencer holds the events (and takes the read port).
    pub seq_hold: Signal<In, bool>,
    /// The sequencer's flow.
    pub cmd_flow: Signal<In, Bits<16>>,
    /// The sequencer writes its flow's entry this cycle.
    pub seq_we: Signal<In, bool>,
    /// The entry it writes.
    pub seq_entry: Signal<In, Bits<71>>,
    /// Its snd_una, for the timer scan's copy.
    pub seq_una: Signal<In, Bits<24>>,
    /// The sequencer ends a message in error this cycle (counted as a completion).
    pub fail: Signal<In, bool>,
    /// The entry read (the sequencer's flow the cycle after it asked).
    pub entry: Signal<Out, Bits<71>>,
    /// An event is in T1 (the sequencer waits for it to leave before it writes).
    pub t1_busy: Signal<Out, bool>,
    /// The table is being cleared (after reset): flow `sweep_addr` this cycle.
    pub sweep: Signal<Out, bool>,
    /// The flow cleared.
    pub sweep_addr: Signal<Out, Bits<F>>,
    /// The table's write this cycle, sequencer's or tracker's (not the sweep's): the timer
    /// scan keeps out and snd_una, the Notify stage the log2 MTU.
    pub wr_en: Signal<Out, bool>,
    /// Its flow.
    pub wr_flow: Signal<Out, Bits<F>>,
    /// Its entry's `out` (a message is out).
    pub wr_out: Signal<Out, Bits<1>>,
    /// Its entry's log2 MTU.
    pub wr_mtu_log: Signal<Out, Bits<4>>,
    /// Its snd_una.
    pub wr_una: Signal<Out, Bits<24>>,
    /// A message is complete (to the completion queue).
    pub done: Signal<Out, bool>,
    /// It is a READ (its completion waits for the payload written).
    pub done_read: Signal<Out, bool>,
    /// The completion (`sim::layout::CPL`, status ok).
    pub done_data: Signal<Out, Bits<64>>,
    /// rx_ctx's DMA commands at its T1.
    pub done_cmds: Signal<Out, Bits<32>>,
    /// Completions, the tracker's and the sequencer's error ones (`COMPLETIONS`, wraps).
    pub stat_completions: Signal<Out, Bits<32>>,
    /// Per flow: the entry.
    flows: RAM<Bits<71>, F>,
    sweep_on: DFF<bool>,
    sweep_at: DFF<Bits<F>>,
    t1_valid: DFF<bool>,
    t1_flow: DFF<Bits<16>>,
    t1_seq: DFF<Bits<24>>,
    t1_cmds: DFF<Bits<32>>,
    /// The last entry written, forwarded.
    lw_valid: DFF<bool>,
    lw_flow: DFF<Bits<16>>,
    lw_entry: DFF<Bits<71>>,
    count: DFF<Bits<32>>,
    t1_entry: Signal<Local, Bits<71>>,
    w_en: Signal<Local, bool>,
    w_flow: Signal<Local, Bits<16>>,
    w_entry: Signal<Local, Bits<71>>,
}

impl<const F: usize> Logic for HpccNicCoreTracker<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sweep_on, sweep_at, t1_valid, t1_flow, t1_seq, t1_cmds, lw_valid, lw_flow, lw_entry, count);
        self.flows.read_clock.next = self.clock.val();
        self.flows.write_clock.next = self.clock.val();
        // ---- T0: the read.
        self.flows.read_address.next = self.ev_flow.val().get_bits::<F>(0);
        if self.seq_hold.val() | self.sweep_on.q.val() {
            self.flows.read_address.next = self.cmd_flow.val().get_bits::<F>(0);
        }
        self.entry.next = self.flows.read_data.val();
        self.t1_valid.d.next = self.ev_take.val() & ((self.ev_kind.val() == EV_ACK) | (self.ev_kind.val() == EV_LOSS));
        self.t1_flow.d.next = self.ev_flow.val();
        self.t1_seq.d.next = self.ev_psn.val();
        self.t1_cmds.d.next = self.rx_cmds.val();
        self.t1_busy.next = self.t1_valid.q.val();

        // ---- T1: the entry (forwarded), the completion, the write back.
        if self.lw_valid.q.val() & (self.lw_flow.q.val() == self.t1_flow.q.val()) {
            self.t1_entry.next = self.lw_entry.q.val();
        } else {
            self.t1_entry.next = self.flows.read_data.val();
        }
        self.done.next = self.t1_valid.q.val()
            & self.t1_entry.val().get_value_out()
            & (self.t1_entry.val().get_value_end_psn() == self.t1_seq.q.val());
        self.done_read.next = self.t1_entry.val().get_value_read();
        self.done_data.next = 0.into();
        self.done_data.next.set_value_cpl_flow(self.t1_flow.q.val());
        self.done_data.next.set_value_cpl_tag(self.t1_entry.val().get_value_tag());
        self.done_data.next.set_value_cpl_status(CPL_OK.into());
        self.done_cmds.next = self.t1_cmds.q.val();
        if self.done.val() | self.fail.val() {
            self.count.d.next = self.count.q.val() + 1;
        }
        self.stat_completions.next = self.count.q.val();

        // ---- The write: the sequencer's, else T1's.
        self.w_en.next = self.t1_valid.q.val();
        self.w_flow.next = self.t1_flow.q.val();
        self.w_entry.next = self.t1_entry.val();
        if self.done.val() {
            self.w_entry.next.set_value_out(false);
        }
        self.wr_una.next = self.t1_seq.q.val();
        if self.seq_we.val() {
            self.w_en.next = true;
            self.w_flow.next = self.cmd_flow.val();
            self.w_entry.next = self.seq_entry.val();
            self.wr_una.next = self.seq_una.val();
        }
        self.wr_en.next = self.w_en.val();
        self.wr_flow.next = self.w_flow.val().get_bits::<F>(0);
        self.wr_out.next = self.w_entry.val().get_value_out_bits();
        self.wr_mtu_log.next = self.w_entry.val().get_value_mtu_log();
        self.flows.write_enable.next = self.w_en.val();
        self.flows.write_address.next = self.w_flow.val().get_bits::<F>(0);
        self.flows.write_data.next = self.w_entry.val();
        if self.w_en.val() {
            self.lw_valid.d.next = true;
            self.lw_flow.d.next = self.w_flow.val();
            self.lw_entry.d.next = self.w_entry.val();
        }

        // ---- The sweep after reset.
        self.sweep.next = self.sweep_on.q.val();
        self.sweep_addr.next = self.sweep_at.q.val();
        if self.sweep_on.q.val() {
            self.flows.write_enable.next = true;
            self.flows.write_address.next = self.sweep_at.q.val();
            self.flows.write_data.next = 0.into();
            self.sweep_at.d.next = self.sweep_at.q.val() + 1;
            if self.sweep_at.q.val().all() {
                self.sweep_on.d.next = false;
            }
        }
        if self.reset.val() {
            self.t1_valid.d.next = false;
            self.lw_valid.d.next = false;
            self.count.d.next = 0.into();
            self.sweep_on.d.next = true;
            self.sweep_at.d.next = 0.into();
        }
    }
}
