//! flow_sched's burst FIFO and expander: S4's bursts (flow, packet count) queue in a 16-entry
//! FIFO of LUT RAM, and the expander turns the head burst into that many PktSends, one per
//! clock while `m_axis_pktsend_tready` is high; the next burst loads on the cycle the last
//! PktSend of the current one leaves, so bursts leave back to back.

use crate::dist_ram::DistRam;
use rust_hdl::prelude::*;

/// The burst FIFO and expander of `flow_sched<F>`; `F`: log2 of the flow count.
#[derive(LogicBlock, Default)]
pub struct FlowSchedBurst<const F: usize> {
    pub clock: Signal<In, Clock>,
    /// Empties the FIFO and drops the burst in progress.
    pub reset: Signal<In, bool>,
    /// A burst from S4: its flow and packet count (nonzero).
    pub push: Signal<In, bool>,
    pub push_flow: Signal<In, Bits<F>>,
    pub push_n: Signal<In, Bits<12>>,
    /// Bursts in the FIFO (not counting the one being expanded): S4's pop limit reads it.
    pub count: Signal<Out, Bits<5>>,
    /// flow_sched's PktSend output.
    pub m_axis_pktsend_tdata: Signal<Out, Bits<16>>,
    pub m_axis_pktsend_tvalid: Signal<Out, bool>,
    pub m_axis_pktsend_tready: Signal<In, bool>,

    burst_flow_ram: DistRam<Bits<F>, 4>,
    burst_n_ram: DistRam<Bits<12>, 4>,
    bf_rd: DFF<Bits<4>>,
    bf_wr: DFF<Bits<4>>,
    bf_cnt: DFF<Bits<5>>,
    cur_flow: DFF<Bits<F>>,
    cur_left: DFF<Bits<12>>,
    fire: Signal<Local, bool>,
    load: Signal<Local, bool>,
}

impl<const F: usize> Logic for FlowSchedBurst<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, bf_rd, bf_wr, bf_cnt, cur_flow, cur_left);
        self.burst_flow_ram.write_clock.next = self.clock.val();
        self.burst_n_ram.write_clock.next = self.clock.val();
        self.burst_flow_ram.write_enable.next = self.push.val();
        self.burst_flow_ram.write_address.next = self.bf_wr.q.val();
        self.burst_flow_ram.write_data.next = self.push_flow.val();
        self.burst_flow_ram.read_address.next = self.bf_rd.q.val();
        self.burst_n_ram.write_enable.next = self.push.val();
        self.burst_n_ram.write_address.next = self.bf_wr.q.val();
        self.burst_n_ram.write_data.next = self.push_n.val();
        self.burst_n_ram.read_address.next = self.bf_rd.q.val();
        self.count.next = self.bf_cnt.q.val();
        self.m_axis_pktsend_tvalid.next = self.cur_left.q.val() != 0;
        self.m_axis_pktsend_tdata.next = bit_cast::<16, F>(self.cur_flow.q.val());
        self.fire.next = (self.cur_left.q.val() != 0) & self.m_axis_pktsend_tready.val();
        self.load.next = (self.bf_cnt.q.val() != 0)
            & ((self.cur_left.q.val() == 0) | ((self.cur_left.q.val() == 1) & self.fire.val()));
        if self.load.val() {
            self.cur_flow.d.next = self.burst_flow_ram.read_data.val();
            self.cur_left.d.next = self.burst_n_ram.read_data.val();
            self.bf_rd.d.next = self.bf_rd.q.val() + 1;
        } else if self.fire.val() {
            self.cur_left.d.next = self.cur_left.q.val() - 1;
        }
        if self.push.val() {
            self.bf_wr.d.next = self.bf_wr.q.val() + 1;
        }
        if self.push.val() & !self.load.val() {
            self.bf_cnt.d.next = self.bf_cnt.q.val() + 1;
        }
        if !self.push.val() & self.load.val() {
            self.bf_cnt.d.next = self.bf_cnt.q.val() - 1;
        }
        if self.reset.val() {
            self.bf_rd.d.next = 0.into();
            self.bf_wr.d.next = 0.into();
            self.bf_cnt.d.next = 0.into();
            self.cur_left.d.next = 0.into();
        }
    }
}
