//! Two DMA read requesters on one read engine (pcie_rd): requester 0 is the core (tx_ctx's
//! payload reads), requester 1 the host queue engine (work descriptor fetches). Requests go
//! out one per cycle, alternating when both wait (round robin). The engine returns each
//! request's data as one packet, in request order, so a FIFO of one bit per request (who asked)
//! sends each packet back to its requester; its head decides where the next packet goes.
//!
//! A request of length 0 gets no data from pcie_rd (it is dropped and counted there), so it
//! is not recorded. While the FIFO is full (64 requests whose data has not all gone back),
//! no request goes out. A requester that holds its data stream's `tready` low holds the
//! other's packets behind its own: the engine's data is in order, and pcie_rd's reorder buffer
//! is what absorbs it.

use crate::axis::{AxisBeatsIn, AxisBeatsOut, AxisWordIn, AxisWordOut};
use crate::dist_ram::DistRam;
use crate::layout::DmaRdFields;
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct DmaRdMux {
    /// The 250 MHz clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the FIFO empty (reset the read engine with it).
    pub reset: Signal<In, bool>,
    /// The core's read requests (`sim::layout::DMA_RD`).
    pub s_axis_req0: AxisWordIn<128>,
    /// The host queue engine's read requests.
    pub s_axis_req1: AxisWordIn<128>,
    /// To the read engine's request port.
    pub m_axis_req: AxisWordOut<128>,
    /// The read engine's data: one packet per request of length > 0, in request order.
    pub s_axis_data: AxisBeatsIn,
    /// The core's packets.
    pub m_axis_data0: AxisBeatsOut,
    /// The host queue engine's packets.
    pub m_axis_data1: AxisBeatsOut,

    /// Who asked, per request out (1: the queue engine), in order.
    order: DistRam<Bits<1>, 6>,
    wr: DFF<Bits<7>>,
    rd: DFF<Bits<7>>,
    /// The last request out was the queue engine's.
    last1: DFF<bool>,
    used: Signal<Local, Bits<7>>,
    room: Signal<Local, bool>,
    pick1: Signal<Local, bool>,
    waiting: Signal<Local, bool>,
    head1: Signal<Local, bool>,
}

impl Logic for DmaRdMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, wr, rd, last1);
        self.order.write_clock.next = self.clock.val();
        // ---- Requests.
        self.used.next = self.wr.q.val() - self.rd.q.val();
        self.room.next = !self.used.val().get_bit(6);
        self.pick1.next = self.s_axis_req1.tvalid.val() & (!self.s_axis_req0.tvalid.val() | !self.last1.q.val());
        self.m_axis_req.tdata.next = self.s_axis_req0.tdata.val();
        if self.pick1.val() {
            self.m_axis_req.tdata.next = self.s_axis_req1.tdata.val();
        }
        self.m_axis_req.tvalid.next = (self.s_axis_req0.tvalid.val() | self.s_axis_req1.tvalid.val()) & self.room.val();
        self.s_axis_req0.tready.next = self.m_axis_req.tready.val() & self.room.val() & !self.pick1.val();
        self.s_axis_req1.tready.next = self.m_axis_req.tready.val() & self.room.val() & self.pick1.val();
        self.order.write_enable.next = false;
        self.order.write_address.next = self.wr.q.val().get_bits::<6>(0);
        self.order.write_data.next = bit_cast::<1, 1>(self.pick1.val().into());
        if self.m_axis_req.tvalid.val() & self.m_axis_req.tready.val() {
            self.last1.d.next = self.pick1.val();
            if self.m_axis_req.tdata.val().get_value_len() != 0 {
                self.order.write_enable.next = true;
                self.wr.d.next = self.wr.q.val() + 1;
            }
        }
        // ---- Data: each packet to the requester at the FIFO's head.
        self.waiting.next = self.used.val() != 0;
        self.order.read_address.next = self.rd.q.val().get_bits::<6>(0);
        self.head1.next = self.order.read_data.val().any();
        self.m_axis_data0.tdata.next = self.s_axis_data.tdata.val();
        self.m_axis_data0.tkeep.next = self.s_axis_data.tkeep.val();
        self.m_axis_data0.tlast.next = self.s_axis_data.tlast.val();
        self.m_axis_data1.tdata.next = self.s_axis_data.tdata.val();
        self.m_axis_data1.tkeep.next = self.s_axis_data.tkeep.val();
        self.m_axis_data1.tlast.next = self.s_axis_data.tlast.val();
        self.m_axis_data0.tvalid.next = self.s_axis_data.tvalid.val() & self.waiting.val() & !self.head1.val();
        self.m_axis_data1.tvalid.next = self.s_axis_data.tvalid.val() & self.waiting.val() & self.head1.val();
        self.s_axis_data.tready.next = self.waiting.val() & self.m_axis_data0.tready.val();
        if self.head1.val() {
            self.s_axis_data.tready.next = self.waiting.val() & self.m_axis_data1.tready.val();
        }
        if self.s_axis_data.tvalid.val() & self.s_axis_data.tready.val() & self.s_axis_data.tlast.val() {
            self.rd.d.next = self.rd.q.val() + 1;
        }
        if self.reset.val() {
            self.wr.d.next = 0.into();
            self.rd.d.next = 0.into();
            self.last1.d.next = false;
        }
    }
}
