//! The events into cc_module, a block of hpcc_nic_core (docs/modules/hpcc_nic_core.md): the
//! choice of the cycle's event and the event slot in front of cc_module, where ACKs of one
//! flow coalesce (`EVENT_MERGE`).
//!
//! Each cycle cc_module is offered, in this order:
//! - the sequencer's create event (it waits for the slot to be empty, so a re-created flow's
//!   old events go first);
//! - else, while the events are not held, the timer scan's timer event (type 3; at most one
//!   per `TIMER_GAP` cycles, so the Rx pipe's events lose little), else the tx-byte event
//!   (type 5);
//! - else the slot's (the Rx pipe's event).
//!
//! The slot leaves when cc_module takes it. The Rx pipe's next event goes in as it leaves or
//! while it is empty, or merges into it: an ACK (type 0) of the same flow with the same
//! ECN-Echo, neither carrying Rx-HPCC feedback, while merging is on. The merged event is the
//! newer one (its seq, snd_nxt, time and telemetry: HPCC++'s newest) with both ACKs' packets
//! acknowledged added (LDCP's; saturated at 16 bits). All words are `sim::layout::CC_EVENT`.

use crate::cc_codes::{EV_ACK, EV_TIMER, EV_TX};
use crate::layout::CcEventFields;
use rust_hdl::prelude::*;

/// The events for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreEvents<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the slot empty, the counters 0.
    pub reset: Signal<In, bool>,
    /// The events are held (the sequencer's command, the sweep, a waiting completion, the
    /// feedback unit): only the slot and the create event go to cc_module, and the Rx pipe
    /// waits.
    pub hold: Signal<In, bool>,
    /// The time base, the timer and tx-byte events' `now`.
    pub now_ns: Signal<In, Bits<64>>,
    /// Merge ACKs in the slot (`EVENT_MERGE` bit 0).
    pub merge_on: Signal<In, bool>,
    /// A timer event is due (the timer scan's).
    pub tm_valid: Signal<In, bool>,
    /// Its flow.
    pub tm_flow: Signal<In, Bits<F>>,
    /// cc_module takes the timer event this cycle.
    pub tm_take: Signal<Out, bool>,
    /// A tx-byte event is offered (hpcc_nic_core_tx_bytes's).
    pub tx_valid: Signal<In, bool>,
    /// Its flow.
    pub tx_flow: Signal<In, Bits<F>>,
    /// Its bytes (the event's seq).
    pub tx_bytes: Signal<In, Bits<32>>,
    /// cc_module takes the tx-byte event this cycle.
    pub tx_take: Signal<Out, bool>,
    /// The sequencer's create event is offered (it needs the slot empty: `slot_full`).
    pub cr_valid: Signal<In, bool>,
    /// The create event.
    pub cr_word: Signal<In, Bits<512>>,
    /// The Rx pipe's events (nic_datapath's `m_axis_event`).
    pub s_axis_event_tdata: Signal<In, Bits<512>>,
    /// An event is offered.
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// The slot takes it (or merges it).
    pub s_axis_event_tready: Signal<Out, bool>,
    /// The slot takes the Rx pipe's event this cycle (the completion tracker and the
    /// feedback unit see it then).
    pub rx_take: Signal<Out, bool>,
    /// The event to cc_module.
    pub m_axis_event_tdata: Signal<Out, Bits<512>>,
    /// An event is offered to cc_module.
    pub m_axis_event_tvalid: Signal<Out, bool>,
    /// cc_module takes it.
    pub m_axis_event_tready: Signal<In, bool>,
    /// The slot holds an event.
    pub slot_full: Signal<Out, bool>,
    /// Events merged into the slot (`MERGED`, wraps).
    pub stat_merged: Signal<Out, Bits<32>>,
    /// Cycles the Rx pipe offered an event the slot could not take, the events not held
    /// (`EVENT_STALLS`, wraps).
    pub stat_stalls: Signal<Out, Bits<32>>,
    m_valid: DFF<bool>,
    m_data: DFF<Bits<512>>,
    merged: DFF<Bits<32>>,
    stalls: DFF<Bits<32>>,
    /// The timer event and the tx-byte event as cc_module's words.
    tm_word: Signal<Local, Bits<512>>,
    tx_word: Signal<Local, Bits<512>>,
    /// The Rx pipe's event with the merged packets acknowledged.
    mg_word: Signal<Local, Bits<512>>,
    /// The slot is what cc_module is offered.
    m_offer: Signal<Local, bool>,
    /// The slot leaves this cycle.
    m_go: Signal<Local, bool>,
    m_same: Signal<Local, bool>,
    m_merge: Signal<Local, bool>,
    m_acked: Signal<Local, Bits<17>>,
}

impl<const F: usize> Logic for HpccNicCoreEvents<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, m_valid, m_data, merged, stalls);
        // ---- The cycle's event.
        self.tm_word.next = 0.into();
        self.tm_word.next.set_value_flow(bit_cast::<16, F>(self.tm_flow.val()));
        self.tm_word.next.set_value_kind(EV_TIMER.into());
        self.tm_word.next.set_value_now(self.now_ns.val());
        self.tx_word.next = 0.into();
        self.tx_word.next.set_value_flow(bit_cast::<16, F>(self.tx_flow.val()));
        self.tx_word.next.set_value_kind(EV_TX.into());
        self.tx_word.next.set_value_seq(self.tx_bytes.val());
        self.tx_word.next.set_value_now(self.now_ns.val());
        self.m_axis_event_tdata.next = self.m_data.q.val();
        self.m_axis_event_tvalid.next = self.m_valid.q.val();
        self.m_offer.next = true;
        if self.tm_valid.val() & !self.hold.val() {
            self.m_axis_event_tdata.next = self.tm_word.val();
            self.m_axis_event_tvalid.next = true;
            self.m_offer.next = false;
        } else if self.tx_valid.val() & !self.hold.val() {
            self.m_axis_event_tdata.next = self.tx_word.val();
            self.m_axis_event_tvalid.next = true;
            self.m_offer.next = false;
        }
        if self.cr_valid.val() {
            self.m_axis_event_tdata.next = self.cr_word.val();
            self.m_axis_event_tvalid.next = true;
            self.m_offer.next = false;
        }
        self.tm_take.next = self.m_axis_event_tready.val() & !self.hold.val();
        self.tx_take.next = !self.tm_valid.val() & self.m_axis_event_tready.val() & !self.hold.val();

        // ---- The slot: leave, take, merge.
        self.m_go.next = self.m_offer.val() & self.m_valid.q.val() & self.m_axis_event_tready.val();
        self.m_same.next = self.m_valid.q.val()
            & (self.m_data.q.val().get_value_flow() == self.s_axis_event_tdata.val().get_value_flow())
            & (self.m_data.q.val().get_value_kind() == EV_ACK)
            & (self.s_axis_event_tdata.val().get_value_kind() == EV_ACK)
            & (self.m_data.q.val().get_value_ece() == self.s_axis_event_tdata.val().get_value_ece())
            & !self.m_data.q.val().get_value_feedback()
            & !self.s_axis_event_tdata.val().get_value_feedback();
        self.m_merge.next = self.merge_on.val() & self.m_same.val() & !self.m_go.val();
        self.s_axis_event_tready.next =
            !self.hold.val() & (!self.m_valid.q.val() | self.m_go.val() | self.m_merge.val());
        self.rx_take.next = self.s_axis_event_tvalid.val() & self.s_axis_event_tready.val();
        self.m_acked.next = bit_cast::<17, 16>(self.m_data.q.val().get_value_acked())
            + bit_cast::<17, 16>(self.s_axis_event_tdata.val().get_value_acked());
        if self.m_acked.val().get_bit(16) {
            self.m_acked.next = 0xFFFF.into();
        }
        self.mg_word.next = self.s_axis_event_tdata.val();
        self.mg_word.next.set_value_acked(self.m_acked.val().get_bits::<16>(0));
        if self.m_go.val() {
            self.m_valid.d.next = false;
        }
        if self.rx_take.val() {
            self.m_valid.d.next = true;
            self.m_data.d.next = self.s_axis_event_tdata.val();
            if self.m_merge.val() {
                self.m_data.d.next = self.mg_word.val();
                self.merged.d.next = self.merged.q.val() + 1;
            }
        }
        if self.s_axis_event_tvalid.val() & !self.s_axis_event_tready.val() & !self.hold.val() {
            self.stalls.d.next = self.stalls.q.val() + 1;
        }
        self.slot_full.next = self.m_valid.q.val();
        self.stat_merged.next = self.merged.q.val();
        self.stat_stalls.next = self.stalls.q.val();
        if self.reset.val() {
            self.m_valid.d.next = false;
            self.merged.d.next = 0.into();
            self.stalls.d.next = 0.into();
        }
    }
}
