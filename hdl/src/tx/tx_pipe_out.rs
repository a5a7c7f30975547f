//! Tx pipe, stage O: the frame builder's beats -> beat FIFO (32 beats, LUT RAM) -> the ICRC
//! bytes inserted -> output register -> m_axis. Each beat also goes into icrc_pipe, whose CRC
//! per frame waits in the CRC FIFO (32) for the frame's ICRC beat.
//!
//! Each beat is stored with a side word (`sim::layout::TX_SIDE`). A frame's first beat leaves
//! the FIFO once its CRC is known or `START_LEVEL` beats are queued (more than icrc_pipe's
//! latency, so the CRC is known before the frame's ICRC beat reaches the head); the ICRC beat
//! (and the second beat of a straddling ICRC) waits for the CRC in any case.

use crate::dist_ram::DistRam;
use crate::icrc_pipe::IcrcPipe;
use crate::layout::TxSideNamed;
use crate::tx_pipe::{FIFO_BITS, FIFO_DEPTH, START_LEVEL};
use rust_hdl::prelude::*;

/// Beats in, the frame stream out.
#[derive(LogicBlock, Default)]
pub struct TxPipeOut {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties both FIFOs, icrc_pipe and the output register.
    pub reset: Signal<In, bool>,
    /// A beat is written (only when `room`).
    pub wr: Signal<In, bool>,
    /// The beat: frame byte 64k + i of beat k at [8i+7:8i], pad and ICRC bytes zero.
    pub beat: Signal<In, Bits<512>>,
    /// The beat is its frame's last.
    pub last: Signal<In, bool>,
    /// The frame is bad (tuser on its last beat).
    pub bad: Signal<In, bool>,
    /// The frame's last beat's tkeep (other beats: all ones).
    pub last_keep: Signal<In, Bits<64>>,
    /// The beat's index k in its frame.
    pub k: Signal<In, Bits<9>>,
    /// Index of the beat that holds the ICRC's first bytes.
    pub ib: Signal<In, Bits<9>>,
    /// `ib` + 1.
    pub ib1: Signal<In, Bits<9>>,
    /// The ICRC straddles beats `ib` and `ib1`.
    pub straddle: Signal<In, bool>,
    /// The ICRC's lane in beat `ib`.
    pub p: Signal<In, Bits<6>>,
    /// Frame offset of the ICRC (icrc_pipe's `s_icrc_at`).
    pub icrc_at: Signal<In, Bits<16>>,
    /// Frame offset of the telemetry header, 0 if none (icrc_pipe's `s_tele_at`).
    pub tele_at: Signal<In, Bits<7>>,
    /// The beat FIFO has room for a beat this cycle.
    pub room: Signal<Out, bool>,
    /// Frame beat (tx_pipe's `m_axis_tdata`, from the output register).
    pub m_axis_tdata: Signal<Out, Bits<512>>,
    /// Its byte enables.
    pub m_axis_tkeep: Signal<Out, Bits<64>>,
    /// A frame beat is offered.
    pub m_axis_tvalid: Signal<Out, bool>,
    /// The MAC shim takes the beat.
    pub m_axis_tready: Signal<In, bool>,
    /// Last beat of the frame.
    pub m_axis_tlast: Signal<Out, bool>,
    /// On the last beat: the frame is bad.
    pub m_axis_tuser: Signal<Out, bool>,
    icrc: IcrcPipe,
    // Beat FIFO, CRC FIFO, output register.
    beats: DistRam<Bits<512>, FIFO_BITS>,
    sides: DistRam<Bits<75>, FIFO_BITS>,
    crcs: DistRam<Bits<32>, FIFO_BITS>,
    q_wr: DFF<Bits<FIFO_BITS>>,
    q_rd: DFF<Bits<FIFO_BITS>>,
    q_count: DFF<Bits<6>>,
    c_wr: DFF<Bits<FIFO_BITS>>,
    c_rd: DFF<Bits<FIFO_BITS>>,
    c_count: DFF<Bits<6>>,
    o_valid: DFF<bool>,
    o_data: DFF<Bits<512>>,
    o_keep: DFF<Bits<64>>,
    o_last: DFF<bool>,
    o_user: DFF<bool>,
    // Combinational values.
    ones64: Signal<Local, Bits<64>>,
    side: Signal<Local, Bits<75>>,
    h_side: Signal<Local, Bits<75>>,
    h_ok: Signal<Local, bool>,
    pop: Signal<Local, bool>,
    crc_pop: Signal<Local, bool>,
    sh0: Signal<Local, Bits<9>>,
    neg_p: Signal<Local, Bits<6>>,
    sh1: Signal<Local, Bits<6>>,
    ins: Signal<Local, Bits<512>>,
}

impl Logic for TxPipeOut {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, q_wr, q_rd, q_count, c_wr, c_rd, c_count, o_valid, o_data, o_keep, o_last, o_user
        );
        self.icrc.clock.next = self.clock.val();
        self.icrc.reset.next = self.reset.val();
        self.beats.write_clock.next = self.clock.val();
        self.sides.write_clock.next = self.clock.val();
        self.crcs.write_clock.next = self.clock.val();
        self.ones64.next = 0xFFFF_FFFF_FFFF_FFFF_u64.into();
        self.room.next = self.q_count.q.val() < FIFO_DEPTH;

        // ICRC of every frame as it is written.
        self.icrc.s_valid.next = self.wr.val();
        self.icrc.s_data.next = self.beat.val();
        self.icrc.s_last.next = self.last.val();
        self.icrc.s_icrc_at.next = self.icrc_at.val();
        self.icrc.s_tele_at.next = self.tele_at.val();

        // ---- Beat FIFO: the beat and its side word (sim::layout::TX_SIDE).
        self.side.next = 0.into();
        self.side.next.set_value_tx_side_keep(self.ones64.val());
        if self.last.val() {
            self.side.next.set_value_tx_side_keep(self.last_keep.val());
        }
        self.side.next.set_value_tx_side_last(self.last.val());
        self.side.next.set_value_tx_side_user(self.bad.val());
        self.side.next.set_value_tx_side_icrc(self.k.val() == self.ib.val());
        self.side.next.set_value_tx_side_icrc_rest(self.straddle.val() & (self.k.val() == self.ib1.val()));
        self.side.next.set_value_tx_side_p(self.p.val());
        self.side.next.set_value_tx_side_first(self.k.val() == 0);
        self.beats.write_enable.next = self.wr.val();
        self.beats.write_address.next = self.q_wr.q.val();
        self.beats.write_data.next = self.beat.val();
        self.sides.write_enable.next = self.wr.val();
        self.sides.write_address.next = self.q_wr.q.val();
        self.sides.write_data.next = self.side.val();
        if self.wr.val() {
            self.q_wr.d.next = self.q_wr.q.val() + 1;
        }
        // ---- CRC FIFO.
        self.crcs.write_enable.next = self.icrc.m_valid.val();
        self.crcs.write_address.next = self.c_wr.q.val();
        self.crcs.write_data.next = self.icrc.m_crc.val();
        if self.icrc.m_valid.val() {
            self.c_wr.d.next = self.c_wr.q.val() + 1;
        }

        // ---- Head of the beat FIFO: may it go? Its ICRC bytes, placed at lane p (or the rest
        // of a straddling ICRC at lane 0).
        self.beats.read_address.next = self.q_rd.q.val();
        self.sides.read_address.next = self.q_rd.q.val();
        self.crcs.read_address.next = self.c_rd.q.val();
        self.h_side.next = self.sides.read_data.val();
        self.h_ok.next = (self.q_count.q.val() != 0)
            & (!self.h_side.val().get_value_tx_side_first()
                | (self.c_count.q.val() != 0)
                | (self.q_count.q.val() >= START_LEVEL))
            & (!(self.h_side.val().get_value_tx_side_icrc() | self.h_side.val().get_value_tx_side_icrc_rest())
                | (self.c_count.q.val() != 0));
        self.pop.next = self.h_ok.val() & (!self.o_valid.q.val() | self.m_axis_tready.val());
        self.crc_pop.next = self.pop.val() & self.h_side.val().get_value_tx_side_last();
        self.sh0.next = bit_cast::<9, 6>(self.h_side.val().get_value_tx_side_p()) << 3;
        self.neg_p.next = (!self.h_side.val().get_value_tx_side_p()) + 1;
        self.sh1.next = self.neg_p.val() << 3;
        self.ins.next = 0.into();
        if self.h_side.val().get_value_tx_side_icrc() {
            self.ins.next = bit_cast::<512, 32>(self.crcs.read_data.val()) << self.sh0.val();
        }
        if self.h_side.val().get_value_tx_side_icrc_rest() {
            self.ins.next = bit_cast::<512, 32>(self.crcs.read_data.val() >> self.sh1.val());
        }

        // ---- Output register.
        if self.pop.val() {
            self.q_rd.d.next = self.q_rd.q.val() + 1;
            self.o_valid.d.next = true;
            self.o_data.d.next = self.beats.read_data.val() | self.ins.val();
            self.o_keep.d.next = self.h_side.val().get_value_tx_side_keep();
            self.o_last.d.next = self.h_side.val().get_value_tx_side_last();
            self.o_user.d.next = self.h_side.val().get_value_tx_side_user();
        } else if self.m_axis_tready.val() {
            self.o_valid.d.next = false;
        }
        if self.crc_pop.val() {
            self.c_rd.d.next = self.c_rd.q.val() + 1;
        }
        if self.wr.val() & !self.pop.val() {
            self.q_count.d.next = self.q_count.q.val() + 1;
        }
        if !self.wr.val() & self.pop.val() {
            self.q_count.d.next = self.q_count.q.val() - 1;
        }
        if self.icrc.m_valid.val() & !self.crc_pop.val() {
            self.c_count.d.next = self.c_count.q.val() + 1;
        }
        if !self.icrc.m_valid.val() & self.crc_pop.val() {
            self.c_count.d.next = self.c_count.q.val() - 1;
        }
        self.m_axis_tvalid.next = self.o_valid.q.val();
        self.m_axis_tdata.next = self.o_data.q.val();
        self.m_axis_tkeep.next = self.o_keep.q.val();
        self.m_axis_tlast.next = self.o_last.q.val();
        self.m_axis_tuser.next = self.o_user.q.val();

        if self.reset.val() {
            self.q_wr.d.next = 0.into();
            self.q_rd.d.next = 0.into();
            self.q_count.d.next = 0.into();
            self.c_wr.d.next = 0.into();
            self.c_rd.d.next = 0.into();
            self.c_count.d.next = 0.into();
            self.o_valid.d.next = false;
        }
    }
}
