//! flow_sched's Notify pipeline: acknowledged bytes added to the flow's `acked`. N0 reads the
//! flow's count, N1 adds the Notify's bytes and writes both copies (this block's, read only
//! here, and flow_sched's `acked_s_ram`, read by the visits); a Notify for the flow just written
//! takes the written value instead of the RAM's (bypass). One Notify per clock.

use crate::layout::NotifyFields;
use rust_hdl::prelude::*;

/// The Notify pipeline of `flow_sched<F>`; `F`: log2 of the flow count.
#[derive(LogicBlock, Default)]
pub struct FlowSchedNotify<const F: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, bool>,
    /// flow_sched clears its RAMs after reset: no Notify is taken, and this block's copy is
    /// cleared at `init_addr`, one word a cycle.
    pub init_busy: Signal<In, bool>,
    pub init_addr: Signal<In, Bits<F>>,
    /// flow_sched's Notify input (`sim::layout::NOTIFY`); a flow of 2^F or more is taken and
    /// ignored.
    pub s_axis_notify_tdata: Signal<In, Bits<48>>,
    pub s_axis_notify_tvalid: Signal<In, bool>,
    pub s_axis_notify_tready: Signal<Out, bool>,
    /// The write of the visits' copy (the same value at the same cycle as this block's).
    pub acked_we: Signal<Out, bool>,
    pub acked_addr: Signal<Out, Bits<F>>,
    pub acked_data: Signal<Out, Bits<32>>,

    acked_n_ram: RAM<Bits<32>, F>,
    n1_valid: DFF<bool>,
    n1_flow: DFF<Bits<F>>,
    n1_bytes: DFF<Bits<32>>,
    nlw_valid: DFF<bool>,
    nlw_flow: DFF<Bits<F>>,
    nlw_value: DFF<Bits<32>>,
    /// The Notify's flow field (16 bits; >= 2^F is ignored).
    n_flow: Signal<Local, Bits<16>>,
}

impl<const F: usize> Logic for FlowSchedNotify<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, n1_valid, n1_flow, n1_bytes, nlw_valid, nlw_flow, nlw_value);
        self.acked_n_ram.read_clock.next = self.clock.val();
        self.acked_n_ram.write_clock.next = self.clock.val();
        self.s_axis_notify_tready.next = !self.reset.val() & !self.init_busy.val();
        self.n_flow.next = self.s_axis_notify_tdata.val().get_value_flow();
        // N0: read acked.
        self.acked_n_ram.read_address.next = self.n_flow.val().get_bits::<F>(0);
        self.n1_valid.d.next = self.s_axis_notify_tvalid.val()
            & self.s_axis_notify_tready.val()
            & (bit_cast::<16, F>(self.n_flow.val().get_bits::<F>(0)) == self.n_flow.val());
        self.n1_flow.d.next = self.n_flow.val().get_bits::<F>(0);
        self.n1_bytes.d.next = self.s_axis_notify_tdata.val().get_value_bytes();
        // N1: add, write both copies.
        self.nlw_valid.d.next = self.n1_valid.q.val();
        self.nlw_flow.d.next = self.n1_flow.q.val();
        if self.nlw_valid.q.val() & (self.nlw_flow.q.val() == self.n1_flow.q.val()) {
            self.nlw_value.d.next = self.nlw_value.q.val() + self.n1_bytes.q.val();
        } else {
            self.nlw_value.d.next = self.acked_n_ram.read_data.val() + self.n1_bytes.q.val();
        }
        self.acked_n_ram.write_enable.next = self.n1_valid.q.val();
        self.acked_n_ram.write_address.next = self.n1_flow.q.val();
        self.acked_n_ram.write_data.next = self.nlw_value.d.val();
        self.acked_we.next = self.n1_valid.q.val();
        self.acked_addr.next = self.n1_flow.q.val();
        self.acked_data.next = self.nlw_value.d.val();
        if self.init_busy.val() {
            self.acked_n_ram.write_enable.next = true;
            self.acked_n_ram.write_address.next = self.init_addr.val();
            self.acked_n_ram.write_data.next = 0.into();
        }
        if self.reset.val() {
            self.n1_valid.d.next = false;
            self.nlw_valid.d.next = false;
        }
    }
}
