//! The PCIe shim's DMA write engine: the core's DMA writes (a command on `s_axis_cmd`, its
//! payload on `s_axis_data`, lane 0 aligned) become memory write TLPs on the UltraScale+ hard
//! block's requester request interface (RQ), split at multiples of the max payload size (so
//! never across a 4 KiB page). Golden model `sim::pcie_wr` (docs/modules/pcie_wr.md).
//!
//! ```text
//! s_axis_data -> two line banks (even / odd, 2 x 128 x 64 bytes, a ring) -> at tlast: info
//!                FIFO (where the write's lines start, how many)
//! s_axis_cmd  -> cmd FIFO (16)
//! pair: head cmd + head info: the payload's length must match the command's, else the write
//!       is dropped and counted
//! emit: pcie_wr_tlp (the next TLP from the write's registers) -> per beat: stored lines
//!       lo, lo + 1 -> rx_dma_combine (shift) -> descriptor over beat 0's dwords 0-3 ->
//!       register -> out FIFO (16) -> m_axis_rq
//! ```
//!
//! Store and forward: a write's TLPs start once all its payload is stored, so a payload of the
//! wrong length is found before anything of it is sent. The store holds 256 lines (16 KiB),
//! enough for a 9216-byte write being sent and the next arriving; a payload longer than 160
//! beats keeps its first 160 and is dropped at pairing. TLPs follow each other on RQ without
//! a gap; a write's first beat is fetched two cycles after its predecessor's last.

use crate::dist_ram::DistRam;
use crate::layout::{DmaWrFields, PcieRqUserNamed, PcieWrBeatNamed, PcieWrCmdNamed, PcieWrInfoNamed};
use crate::pcie_wr_tlp::PcieWrTlp;
use crate::rx_dma_combine::RxDmaCombine;
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieWr {
    /// The hard block's `user_clk` (250 MHz); everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forgets stored payloads, commands, TLPs in progress and counters.
    pub reset: Signal<In, bool>,
    /// The hard block's `cfg_max_payload` (0: 128 bytes .. 3: 1024); sampled per write.
    pub cfg_max_payload: Signal<In, Bits<2>>,
    /// DMA write command (`sim::layout::DMA_WR` in bits 95:0): address, length 1..9216, flow.
    pub s_axis_cmd_tdata: Signal<In, Bits<128>>,
    pub s_axis_cmd_tvalid: Signal<In, bool>,
    /// Taken while the command FIFO (16) has room.
    pub s_axis_cmd_tready: Signal<Out, bool>,
    /// Payload beat: byte j of the write at beat j / 64, lane j % 64.
    pub s_axis_data_tdata: Signal<In, Bits<512>>,
    /// Not used: the command's length says which bytes of the last beat are payload.
    pub s_axis_data_tkeep: Signal<In, Bits<64>>,
    pub s_axis_data_tvalid: Signal<In, bool>,
    /// Taken while the store has a free line (registered).
    pub s_axis_data_tready: Signal<Out, bool>,
    /// A payload's last beat.
    pub s_axis_data_tlast: Signal<In, bool>,
    /// RQ beat: a write's descriptor in dwords 0-3 of its first beat, the payload from dword 4.
    pub m_axis_rq_tdata: Signal<Out, Bits<512>>,
    /// Dwords of the beat that hold the TLP.
    pub m_axis_rq_tkeep: Signal<Out, Bits<16>>,
    pub m_axis_rq_tvalid: Signal<Out, bool>,
    pub m_axis_rq_tready: Signal<In, bool>,
    /// A TLP's last beat.
    pub m_axis_rq_tlast: Signal<Out, bool>,
    /// `sim::layout::PCIE_RQ_USER`: byte enables and is_sop on a TLP's first beat, is_eop
    /// and its pointer on its last.
    pub m_axis_rq_tuser: Signal<Out, Bits<137>>,
    /// Writes sent (wraps).
    pub stat_writes: Signal<Out, Bits<32>>,
    /// Write TLPs sent (wraps).
    pub stat_tlps: Signal<Out, Bits<32>>,
    /// Writes dropped: length 0, or a payload of another length than its command's (wraps).
    pub stat_len_errors: Signal<Out, Bits<32>>,

    even: RAM<Bits<512>, 7>,
    odd: RAM<Bits<512>, 7>,
    /// Commands (`sim::layout::PCIE_WR_CMD`).
    cmdq: DistRam<Bits<78>, 4>,
    /// Stored payloads (`sim::layout::PCIE_WR_INFO`).
    infoq: DistRam<Bits<17>, 4>,
    tlp: PcieWrTlp,
    combine: RxDmaCombine,
    /// RQ beats (`sim::layout::PCIE_WR_BEAT`).
    outq: DistRam<Bits<542>, 4>,
    // Input.
    in_ptr: DFF<Bits<8>>,
    in_start: DFF<Bits<8>>,
    in_cnt: DFF<Bits<8>>,
    in_ready: DFF<bool>,
    used: DFF<Bits<9>>,
    fr: DFF<Bits<9>>,
    cmdq_wr: DFF<Bits<4>>,
    cmdq_rd: DFF<Bits<4>>,
    cmdq_n: DFF<Bits<5>>,
    infoq_wr: DFF<Bits<4>>,
    infoq_rd: DFF<Bits<4>>,
    infoq_n: DFF<Bits<5>>,
    // The write being sent.
    w_active: DFF<bool>,
    w_addr: DFF<Bits<64>>,
    w_off: DFF<Bits<14>>,
    w_left: DFF<Bits<14>>,
    w_room: DFF<Bits<11>>,
    w_mask: DFF<Bits<10>>,
    w_base: DFF<Bits<8>>,
    w_lines: DFF<Bits<8>>,
    // The TLP being sent.
    t_active: DFF<bool>,
    t_left_b: DFF<Bits<5>>,
    t_x: DFF<Bits<16>>,
    t_sop: DFF<bool>,
    t_end: DFF<bool>,
    t_desc: DFF<Bits<128>>,
    t_fbe: DFF<Bits<4>>,
    t_lbe: DFF<Bits<4>>,
    t_ldw: DFF<Bits<4>>,
    // Fetch, combine, out FIFO.
    f_valid: DFF<bool>,
    f_odd: DFF<bool>,
    f_shift: DFF<Bits<6>>,
    f_sop: DFF<bool>,
    f_eop: DFF<bool>,
    f_ldw: DFF<Bits<4>>,
    f_desc: DFF<Bits<128>>,
    f_fbe: DFF<Bits<4>>,
    f_lbe: DFF<Bits<4>>,
    c_valid: DFF<bool>,
    c_word: DFF<Bits<542>>,
    oq_wr: DFF<Bits<4>>,
    oq_rd: DFF<Bits<4>>,
    oq_n: DFF<Bits<5>>,
    owed: DFF<Bits<5>>,
    n_writes: DFF<Bits<32>>,
    n_tlps: DFF<Bits<32>>,
    n_len: DFF<Bits<32>>,

    take: Signal<Local, bool>,
    store: Signal<Local, bool>,
    in_cnt1: Signal<Local, Bits<8>>,
    info_word: Signal<Local, Bits<17>>,
    info_head: Signal<Local, Bits<17>>,
    cmd_in: Signal<Local, Bits<78>>,
    cmd96: Signal<Local, Bits<96>>,
    zero512: Signal<Local, Bits<512>>,
    above_desc: Signal<Local, Bits<512>>,
    cmd_word: Signal<Local, Bits<78>>,
    take_cmd: Signal<Local, bool>,
    c_addr: Signal<Local, Bits<64>>,
    c_len: Signal<Local, Bits<14>>,
    c_len63: Signal<Local, Bits<15>>,
    i_base: Signal<Local, Bits<8>>,
    i_beats: Signal<Local, Bits<8>>,
    i_trunc: Signal<Local, bool>,
    pair: Signal<Local, bool>,
    w_done: Signal<Local, bool>,
    ok: Signal<Local, bool>,
    p_mask: Signal<Local, Bits<10>>,
    p_off: Signal<Local, Bits<10>>,
    p_room: Signal<Local, Bits<11>>,
    one64: Signal<Local, Bits<64>>,
    fetch: Signal<Local, bool>,
    t_last: Signal<Local, bool>,
    start: Signal<Local, bool>,
    lo: Signal<Local, Bits<8>>,
    hi: Signal<Local, Bits<8>>,
    u_add: Signal<Local, Bits<9>>,
    free_w: Signal<Local, Bits<9>>,
    free_d: Signal<Local, Bits<9>>,
    beat: Signal<Local, Bits<512>>,
    keep16: Signal<Local, Bits<16>>,
    ones16: Signal<Local, Bits<16>>,
    user: Signal<Local, Bits<137>>,
    word: Signal<Local, Bits<542>>,
    head: Signal<Local, Bits<542>>,
    pop: Signal<Local, bool>,
}

impl Logic for PcieWr {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, in_ptr, in_start, in_cnt, in_ready, used, fr, cmdq_wr, cmdq_rd, cmdq_n, infoq_wr, infoq_rd,
            infoq_n, w_active, w_addr, w_off, w_left, w_room, w_mask, w_base, w_lines, t_active, t_left_b, t_x, t_sop,
            t_end, t_desc, t_fbe, t_lbe, t_ldw, f_valid, f_odd, f_shift, f_sop, f_eop, f_ldw, f_desc, f_fbe, f_lbe,
            c_valid, c_word, oq_wr, oq_rd, oq_n, owed, n_writes, n_tlps, n_len
        );
        self.even.read_clock.next = self.clock.val();
        self.even.write_clock.next = self.clock.val();
        self.odd.read_clock.next = self.clock.val();
        self.odd.write_clock.next = self.clock.val();
        self.cmdq.write_clock.next = self.clock.val();
        self.infoq.write_clock.next = self.clock.val();
        self.outq.write_clock.next = self.clock.val();
        self.one64.next = 1.into();

        // ---- Input: payload beats into the ring of lines, one line a beat; at tlast the
        // payload's first line and beat count go to the info FIFO.
        self.s_axis_data_tready.next = self.in_ready.q.val();
        self.take.next = self.s_axis_data_tvalid.val() & self.in_ready.q.val();
        self.store.next = self.take.val() & (self.in_cnt.q.val() < 160);
        self.even.write_address.next = self.in_ptr.q.val().get_bits::<7>(1);
        self.odd.write_address.next = self.in_ptr.q.val().get_bits::<7>(1);
        self.even.write_data.next = self.s_axis_data_tdata.val();
        self.odd.write_data.next = self.s_axis_data_tdata.val();
        self.even.write_enable.next = self.store.val() & !self.in_ptr.q.val().get_bit(0);
        self.odd.write_enable.next = self.store.val() & self.in_ptr.q.val().get_bit(0);
        self.in_cnt1.next = self.in_cnt.q.val();
        if self.store.val() {
            self.in_ptr.d.next = self.in_ptr.q.val() + 1;
            self.in_cnt1.next = self.in_cnt.q.val() + 1;
        }
        self.info_word.next = 0.into();
        self.info_word.next.set_value_pcie_wr_info_base(self.in_start.q.val());
        self.info_word.next.set_value_pcie_wr_info_beats(self.in_cnt1.val());
        self.info_word.next.set_value_pcie_wr_info_trunc(!self.store.val());
        self.infoq.write_enable.next = self.take.val() & self.s_axis_data_tlast.val();
        self.infoq.write_address.next = self.infoq_wr.q.val();
        self.infoq.write_data.next = self.info_word.val();
        if self.take.val() {
            self.in_cnt.d.next = self.in_cnt1.val();
            if self.s_axis_data_tlast.val() {
                self.in_cnt.d.next = 0.into();
                self.in_start.d.next = self.in_ptr.q.val();
                if self.store.val() {
                    self.in_start.d.next = self.in_ptr.q.val() + 1;
                }
                self.infoq_wr.d.next = self.infoq_wr.q.val() + 1;
            }
        }
        // Store occupancy: + a stored line, - a write's lines when it is sent or dropped (the
        // frees are registered in `fr` and subtracted a cycle later). tready: room for a line
        // next cycle and for an info word.
        self.u_add.next = self.used.q.val() - self.fr.q.val();
        if self.store.val() {
            self.u_add.next = self.used.q.val() - self.fr.q.val() + 1;
        }
        self.used.d.next = self.u_add.val();
        self.in_ready.d.next = (self.u_add.val() < 255) & (self.infoq_n.q.val() < 14);

        // ---- Commands.
        self.s_axis_cmd_tready.next = self.cmdq_n.q.val() < 16;
        self.take_cmd.next = self.s_axis_cmd_tvalid.val() & (self.cmdq_n.q.val() < 16);
        self.cmdq.write_enable.next = self.take_cmd.val();
        self.cmdq.write_address.next = self.cmdq_wr.q.val();
        self.cmd96.next = self.s_axis_cmd_tdata.val().get_bits::<96>(0);
        self.cmd_in.next = 0.into();
        self.cmd_in.next.set_value_pcie_wr_cmd_addr(self.cmd96.val().get_value_addr());
        self.cmd_in.next.set_value_pcie_wr_cmd_len(self.cmd96.val().get_value_len());
        self.cmdq.write_data.next = self.cmd_in.val();
        if self.take_cmd.val() {
            self.cmdq_wr.d.next = self.cmdq_wr.q.val() + 1;
        }

        // ---- The head command and the head payload.
        self.cmdq.read_address.next = self.cmdq_rd.q.val();
        self.infoq.read_address.next = self.infoq_rd.q.val();
        self.cmd_word.next = self.cmdq.read_data.val();
        self.c_addr.next = self.cmd_word.val().get_value_pcie_wr_cmd_addr();
        self.c_len.next = self.cmd_word.val().get_value_pcie_wr_cmd_len();
        self.c_len63.next = bit_cast::<15, 14>(self.c_len.val()) + 63;
        self.info_head.next = self.infoq.read_data.val();
        self.i_base.next = self.info_head.val().get_value_pcie_wr_info_base();
        self.i_beats.next = self.info_head.val().get_value_pcie_wr_info_beats();
        self.i_trunc.next = self.info_head.val().get_value_pcie_wr_info_trunc();
        // ---- TLPs: the next one starts when none is being sent or the current one's last
        // beat is fetched, while the write has bytes left.
        self.tlp.addr.next = self.w_addr.q.val();
        self.tlp.left.next = self.w_left.q.val();
        self.tlp.room.next = self.w_room.q.val();
        self.tlp.off.next = self.w_off.q.val();
        self.fetch.next = self.t_active.q.val() & !self.owed.q.val().get_bit(4);
        self.t_last.next = self.t_left_b.q.val() == 1;
        self.w_done.next = self.fetch.val() & self.t_last.val() & self.t_end.q.val();
        self.start.next = self.w_active.q.val()
            & (self.w_left.q.val() != 0)
            & (!self.t_active.q.val() | (self.fetch.val() & self.t_last.val()));
        // Beat lines: lo = the write's first line + t_x / 64 (wrapping: -1 for a first beat
        // whose bytes 0-15 are the descriptor), hi = lo + 1.
        self.lo.next = self.w_base.q.val() + self.t_x.q.val().get_bits::<8>(6);
        self.hi.next = self.lo.val() + 1;
        self.even.read_address.next = self.lo.val().get_bits::<7>(1);
        self.odd.read_address.next = self.hi.val().get_bits::<7>(1);
        if self.lo.val().get_bit(0) {
            self.even.read_address.next = self.hi.val().get_bits::<7>(1);
            self.odd.read_address.next = self.lo.val().get_bits::<7>(1);
        }
        self.f_valid.d.next = self.fetch.val();
        self.f_odd.d.next = self.lo.val().get_bit(0);
        self.f_shift.d.next = self.t_x.q.val().get_bits::<6>(0);
        self.f_sop.d.next = self.t_sop.q.val();
        self.f_eop.d.next = self.t_last.val();
        self.f_ldw.d.next = self.t_ldw.q.val();
        self.f_desc.d.next = self.t_desc.q.val();
        self.f_fbe.d.next = self.t_fbe.q.val();
        self.f_lbe.d.next = self.t_lbe.q.val();
        self.free_w.next = 0.into();
        if self.fetch.val() {
            self.t_left_b.d.next = self.t_left_b.q.val() - 1;
            self.t_x.d.next = self.t_x.q.val() + 64;
            self.t_sop.d.next = false;
            if self.t_last.val() {
                self.t_active.d.next = false;
                self.n_tlps.d.next = self.n_tlps.q.val() + 1;
                if self.t_end.q.val() {
                    // The write's last beat: its lines are free, the next write pairs now.
                    self.w_active.d.next = false;
                    self.free_w.next = bit_cast::<9, 8>(self.w_lines.q.val());
                    self.n_writes.d.next = self.n_writes.q.val() + 1;
                }
            }
        }
        if self.start.val() {
            self.t_active.d.next = true;
            self.t_left_b.d.next = self.tlp.beats.val();
            self.t_x.d.next = self.tlp.x0.val();
            self.t_sop.d.next = true;
            self.t_end.d.next = self.tlp.is_last.val();
            self.t_desc.d.next = self.tlp.desc.val();
            self.t_fbe.d.next = self.tlp.first_be.val();
            self.t_lbe.d.next = self.tlp.last_be.val();
            self.t_ldw.d.next = self.tlp.last_dwords.val();
            // The next TLP starts at the next multiple of the max payload size.
            self.w_addr.d.next = (self.w_addr.q.val() | bit_cast::<64, 10>(self.w_mask.q.val())) + self.one64.val();
            self.w_off.d.next = self.w_off.q.val() + self.tlp.len.val();
            self.w_left.d.next = self.w_left.q.val() - self.tlp.len.val();
            self.w_room.d.next = bit_cast::<11, 10>(self.w_mask.q.val()) + 1;
        }

        // ---- Pair the head command with the head payload.
        // (After the TLP logic, so that a write paired as its predecessor's last beat is
        // fetched wins over that write's end.)
        self.pair.next = (!self.w_active.q.val() | self.w_done.val()) & (self.cmdq_n.q.val() != 0) & (self.infoq_n.q.val() != 0);
        self.ok.next = (self.c_len.val() != 0)
            & !self.i_trunc.val()
            & (bit_cast::<9, 8>(self.i_beats.val()) == self.c_len63.val().get_bits::<9>(6));
        // The max payload size less one, and the room to its first multiple.
        self.p_mask.next = 1023.into();
        if self.cfg_max_payload.val() == 0 {
            self.p_mask.next = 127.into();
        }
        if self.cfg_max_payload.val() == 1 {
            self.p_mask.next = 255.into();
        }
        if self.cfg_max_payload.val() == 2 {
            self.p_mask.next = 511.into();
        }
        self.p_off.next = self.c_addr.val().get_bits::<10>(0) & self.p_mask.val();
        self.p_room.next = bit_cast::<11, 10>(self.p_mask.val() - self.p_off.val()) + 1;
        self.free_d.next = 0.into();
        if self.pair.val() {
            self.cmdq_rd.d.next = self.cmdq_rd.q.val() + 1;
            self.infoq_rd.d.next = self.infoq_rd.q.val() + 1;
            if self.ok.val() {
                self.w_active.d.next = true;
                self.w_addr.d.next = self.c_addr.val();
                self.w_off.d.next = 0.into();
                self.w_left.d.next = self.c_len.val();
                self.w_room.d.next = self.p_room.val();
                self.w_mask.d.next = self.p_mask.val();
                self.w_base.d.next = self.i_base.val();
                self.w_lines.d.next = self.i_beats.val();
            } else {
                self.free_d.next = bit_cast::<9, 8>(self.i_beats.val());
                self.n_len.d.next = self.n_len.q.val() + 1;
            }
        }


        self.fr.d.next = self.free_w.val() + self.free_d.val();

        // ---- Combine the two lines, lay the descriptor over beat 0's dwords 0-3, register.
        self.combine.even.next = self.even.read_data.val();
        self.combine.odd.next = self.odd.read_data.val();
        self.combine.lo_odd.next = self.f_odd.q.val();
        self.combine.shift.next = self.f_shift.q.val();
        self.combine.last.next = false;
        self.combine.kcnt.next = 0.into();
        self.zero512.next = 0.into();
        self.above_desc.next = (!self.zero512.val()) << 128;
        self.beat.next = self.combine.word.val().get_bits::<512>(0);
        if self.f_sop.q.val() {
            self.beat.next = (self.combine.word.val().get_bits::<512>(0) & self.above_desc.val())
                | bit_cast::<512, 128>(self.f_desc.q.val());
        }
        self.ones16.next = 0xFFFF.into();
        self.keep16.next = self.ones16.val();
        if self.f_eop.q.val() & (self.f_ldw.q.val() != 0) {
            self.keep16.next = !(self.ones16.val() << self.f_ldw.q.val());
        }
        self.word.next = 0.into();
        self.word.next.set_value_pcie_wr_beat_data(self.beat.val());
        self.word.next.set_value_pcie_wr_beat_keep(self.keep16.val());
        self.word.next.set_value_pcie_wr_beat_last(self.f_eop.q.val());
        self.word.next.set_value_pcie_wr_beat_sop(self.f_sop.q.val());
        self.word.next.set_value_pcie_wr_beat_first_be(self.f_fbe.q.val());
        self.word.next.set_value_pcie_wr_beat_last_be(self.f_lbe.q.val());
        self.word.next.set_value_pcie_wr_beat_eop_ptr(self.f_ldw.q.val() - 1);
        self.c_valid.d.next = self.f_valid.q.val();
        self.c_word.d.next = self.word.val();

        // ---- Out FIFO -> RQ. `owed`: beats fetched and not yet gone.
        self.outq.write_enable.next = self.c_valid.q.val();
        self.outq.write_address.next = self.oq_wr.q.val();
        self.outq.write_data.next = self.c_word.q.val();
        self.outq.read_address.next = self.oq_rd.q.val();
        self.head.next = self.outq.read_data.val();
        self.m_axis_rq_tvalid.next = self.oq_n.q.val() != 0;
        self.m_axis_rq_tdata.next = self.head.val().get_value_pcie_wr_beat_data();
        self.m_axis_rq_tkeep.next = self.head.val().get_value_pcie_wr_beat_keep();
        self.m_axis_rq_tlast.next = self.head.val().get_value_pcie_wr_beat_last();
        self.user.next = 0.into();
        if self.head.val().get_value_pcie_wr_beat_sop() {
            self.user.next.set_value_pcie_rq_user_first_be(bit_cast::<8, 4>(self.head.val().get_value_pcie_wr_beat_first_be()));
            self.user.next.set_value_pcie_rq_user_last_be(bit_cast::<8, 4>(self.head.val().get_value_pcie_wr_beat_last_be()));
            self.user.next.set_value_pcie_rq_user_is_sop(1.into());
        }
        if self.head.val().get_value_pcie_wr_beat_last() {
            self.user.next.set_value_pcie_rq_user_is_eop(1.into());
            self.user.next.set_value_pcie_rq_user_is_eop0_ptr(self.head.val().get_value_pcie_wr_beat_eop_ptr());
        }
        self.m_axis_rq_tuser.next = self.user.val();
        self.pop.next = (self.oq_n.q.val() != 0) & self.m_axis_rq_tready.val();
        if self.c_valid.q.val() {
            self.oq_wr.d.next = self.oq_wr.q.val() + 1;
        }
        if self.pop.val() {
            self.oq_rd.d.next = self.oq_rd.q.val() + 1;
        }
        if self.c_valid.q.val() & !self.pop.val() {
            self.oq_n.d.next = self.oq_n.q.val() + 1;
        }
        if !self.c_valid.q.val() & self.pop.val() {
            self.oq_n.d.next = self.oq_n.q.val() - 1;
        }
        if self.fetch.val() & !self.pop.val() {
            self.owed.d.next = self.owed.q.val() + 1;
        }
        if !self.fetch.val() & self.pop.val() {
            self.owed.d.next = self.owed.q.val() - 1;
        }
        if self.take_cmd.val() & !self.pair.val() {
            self.cmdq_n.d.next = self.cmdq_n.q.val() + 1;
        }
        if !self.take_cmd.val() & self.pair.val() {
            self.cmdq_n.d.next = self.cmdq_n.q.val() - 1;
        }
        if self.infoq.write_enable.val() & !self.pair.val() {
            self.infoq_n.d.next = self.infoq_n.q.val() + 1;
        }
        if !self.infoq.write_enable.val() & self.pair.val() {
            self.infoq_n.d.next = self.infoq_n.q.val() - 1;
        }
        self.stat_writes.next = self.n_writes.q.val();
        self.stat_tlps.next = self.n_tlps.q.val();
        self.stat_len_errors.next = self.n_len.q.val();
        if self.reset.val() {
            self.in_ptr.d.next = 0.into();
            self.in_start.d.next = 0.into();
            self.in_cnt.d.next = 0.into();
            self.in_ready.d.next = false;
            self.used.d.next = 0.into();
            self.fr.d.next = 0.into();
            self.cmdq_wr.d.next = 0.into();
            self.cmdq_rd.d.next = 0.into();
            self.cmdq_n.d.next = 0.into();
            self.infoq_wr.d.next = 0.into();
            self.infoq_rd.d.next = 0.into();
            self.infoq_n.d.next = 0.into();
            self.w_active.d.next = false;
            self.t_active.d.next = false;
            self.f_valid.d.next = false;
            self.c_valid.d.next = false;
            self.oq_wr.d.next = 0.into();
            self.oq_rd.d.next = 0.into();
            self.oq_n.d.next = 0.into();
            self.owed.d.next = 0.into();
            self.n_writes.d.next = 0.into();
            self.n_tlps.d.next = 0.into();
            self.n_len.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_wr_is_checked_and_generates() {
        let mut uut = PcieWr::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        assert!(generate_verilog(&uut).contains("module top"));
    }
}
