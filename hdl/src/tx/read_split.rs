//! read_split: one READ to answer becomes its response packets, between rx_ctx and tx_ctx (in
//! nic_datapath). rx_ctx answers a READ request with one PktRecv of kind 4 carrying the whole
//! READ (`sim::tx_ctx::ReadResp`'s first form, `sim::layout::READ_RESP`: PSN, MTU log2,
//! length `total`, host address); tx_ctx sends one frame per PktRecv. This block gives tx_ctx
//! one PktRecv per response packet: READ Response Only when the READ fits one packet, else
//! First, Middle..., Last, each with its position `pos`, PSN (wrapping at 2^24), length `len`
//! and host address, the rest of the word as it came. Every other kind passes unchanged. Golden model `sim::read_split` (docs/modules/read_split.md).
//!
//! One register stage, one word out per clock: a READ of n packets holds the input for n
//! cycles (head-of-line: PktRecvs behind it wait, as they would behind its n frames in
//! tx_pipe).

use crate::layout::ReadRespFields;
use crate::tx_ctx::{POS_FIRST, POS_LAST, POS_MIDDLE, POS_ONLY, RECV_READ};
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct ReadSplit {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the output register and drops a READ being cut.
    pub reset: Signal<In, bool>,
    /// PktRecv from rx_ctx (tx_ctx's `s_axis_pktrecv` format, kind 4 in its whole-READ form).
    pub s_axis_tdata: Signal<In, Bits<512>>,
    /// A PktRecv is offered.
    pub s_axis_tvalid: Signal<In, bool>,
    /// The PktRecv is taken: no READ being cut and the output register free or emptied this
    /// cycle (combinational from `m_axis_tready`).
    pub s_axis_tready: Signal<Out, bool>,
    /// PktRecv for tx_ctx: one per response packet for kind 4, else the input word.
    pub m_axis_tdata: Signal<Out, Bits<512>>,
    /// A PktRecv is offered (registered).
    pub m_axis_tvalid: Signal<Out, bool>,
    /// tx_ctx takes it.
    pub m_axis_tready: Signal<In, bool>,

    o_valid: DFF<bool>,
    o_data: DFF<Bits<512>>,
    // A READ being cut: its word as it came (every packet keeps it but for the fields it
    // writes, so the bits of those fields are never read and synthesis drops them), bytes left
    // after the packet out, next packet's PSN and address.
    busy: DFF<bool>,
    h_keep: DFF<Bits<512>>,
    left: DFF<Bits<32>>,
    psn: DFF<Bits<24>>,
    va: DFF<Bits<64>>,
    free: Signal<Local, bool>,
    take: Signal<Local, bool>,
    in_rd: Signal<Local, bool>,
    in_mtu: Signal<Local, Bits<32>>,
    in_total: Signal<Local, Bits<32>>,
    in_psn: Signal<Local, Bits<24>>,
    in_va: Signal<Local, Bits<64>>,
    h_mtu: Signal<Local, Bits<32>>,
    more: Signal<Local, bool>,
    c_psn: Signal<Local, Bits<24>>,
    c_psn_be: Signal<Local, Bits<24>>,
    in_psn_fld: Signal<Local, Bits<24>>,
    c_va: Signal<Local, Bits<64>>,
    c_len: Signal<Local, Bits<16>>,
    c_word: Signal<Local, Bits<512>>,
    c_pos: Signal<Local, Bits<2>>,
}

impl Logic for ReadSplit {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, o_valid, o_data, busy, h_keep, left, psn, va);
        self.m_axis_tvalid.next = self.o_valid.q.val();
        self.m_axis_tdata.next = self.o_data.q.val();
        self.free.next = !self.o_valid.q.val() | self.m_axis_tready.val();
        self.s_axis_tready.next = self.free.val() & !self.busy.q.val();
        self.take.next = self.s_axis_tvalid.val() & self.s_axis_tready.val();
        if self.m_axis_tready.val() {
            self.o_valid.d.next = false;
        }

        // The input's READ fields (kind 4). The PSN is big-endian as on the wire.
        self.in_rd.next = self.s_axis_tdata.val().get_value_kind() == RECV_READ;
        self.in_mtu.next = bits::<32>(1) << self.s_axis_tdata.val().get_value_mtu_log();
        self.in_total.next = self.s_axis_tdata.val().get_value_total();
        self.in_psn_fld.next = self.s_axis_tdata.val().get_value_psn();
        self.in_psn.next = (bit_cast::<24, 8>(self.in_psn_fld.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.in_psn_fld.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.in_psn_fld.val().get_bits::<8>(16));
        self.in_va.next = self.s_axis_tdata.val().get_value_va();
        self.h_mtu.next = bits::<32>(1) << self.h_keep.q.val().get_value_mtu_log();

        // The packet to send: the held READ's next one, else the input's first (or Only).
        self.c_pos.next = POS_ONLY.into();
        self.c_psn.next = self.in_psn.val();
        self.c_va.next = self.in_va.val();
        self.c_len.next = self.in_total.val().get_bits::<16>(0);
        self.c_word.next = self.s_axis_tdata.val();
        self.more.next = false;
        if self.busy.q.val() {
            self.c_word.next = self.h_keep.q.val();
            self.c_psn.next = self.psn.q.val();
            self.c_va.next = self.va.q.val();
            self.more.next = self.left.q.val() > self.h_mtu.val();
            self.c_pos.next = POS_LAST.into();
            self.c_len.next = self.left.q.val().get_bits::<16>(0);
            if self.more.val() {
                self.c_pos.next = POS_MIDDLE.into();
                self.c_len.next = self.h_mtu.val().get_bits::<16>(0);
            }
        } else if self.in_total.val() > self.in_mtu.val() {
            self.c_pos.next = POS_FIRST.into();
            self.c_len.next = self.in_mtu.val().get_bits::<16>(0);
        }
        // The word: the READ's, with the packet's position, PSN (big-endian), length and host
        // address written in.
        self.c_psn_be.next = (bit_cast::<24, 8>(self.c_psn.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.c_psn.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.c_psn.val().get_bits::<8>(16));
        self.c_word.next.set_value_pos(self.c_pos.val());
        self.c_word.next.set_value_psn(self.c_psn_be.val());
        self.c_word.next.set_value_len(self.c_len.val());
        self.c_word.next.set_value_va(self.c_va.val());

        if self.busy.q.val() & self.free.val() {
            self.o_valid.d.next = true;
            self.o_data.d.next = self.c_word.val();
            self.psn.d.next = self.psn.q.val() + 1;
            self.va.d.next = self.va.q.val() + bit_cast::<64, 32>(self.h_mtu.val());
            self.left.d.next = self.left.q.val() - self.h_mtu.val();
            if !self.more.val() {
                self.busy.d.next = false;
            }
        }
        if self.take.val() {
            self.o_valid.d.next = true;
            self.o_data.d.next = self.s_axis_tdata.val();
            if self.in_rd.val() {
                self.o_data.d.next = self.c_word.val();
                if self.in_total.val() > self.in_mtu.val() {
                    self.busy.d.next = true;
                    self.h_keep.d.next = self.s_axis_tdata.val();
                    self.left.d.next = self.in_total.val() - self.in_mtu.val();
                    self.psn.d.next = self.in_psn.val() + 1;
                    self.va.d.next = self.in_va.val() + bit_cast::<64, 32>(self.in_mtu.val());
                }
            }
        }
        if self.reset.val() {
            self.o_valid.d.next = false;
            self.busy.d.next = false;
        }
    }
}
