//! The PCIe shim's DMA read engine: the core's DMA read requests (`m_axis_dma_rd`, in order)
//! become memory read TLPs on the hard block's requester request interface (RQ); their
//! completions (RC), in any order across tags, go to a reorder buffer; the data leaves in
//! request order, realigned to lane 0, as the core's `s_axis_dma_rd_data`. Golden model
//! `sim::pcie_rd` (docs/modules/pcie_rd.md).
//!
//! ```text
//! s_axis_req -> issue: split at multiples of the TLP size (128/256/512 B, from
//!               cfg_max_read_req), one tag per TLP in ring order -> m_axis_rq (one beat per TLP)
//!            \-> request FIFO (32) ------------------------------------------+
//! s_axis_rc  -> pcie_rd_rc: payload dwords into the tag's 512-byte slot      |
//!               (even / odd line banks, 32 slots = 16 KiB); tag done         v
//! read: request beat j = lines j and j + 1 of its address span (one per bank), once their tags
//!       are done -> rx_dma_combine ((hi:lo) >> 8 x address mod 64) -> rx_dma_out -> m_axis_data
//! ```
//!
//! A tag is free again once the read has passed its slot's last line, so a request of any
//! length (up to 16383 bytes, 33 TLPs of 512) streams through the 32 tags. Tags are handed
//! out and freed in ring order: the reader is always at the oldest tag, so it never waits on
//! a tag the issue side could not hand out.
//!
//! Straddling is off on RQ and RC: an RC beat holds one TLP, so completions of 64 bytes take
//! two beats (docs: the read rate this gives). Client tags (the hard block's "enable client
//! tag"), tags 0-31 only.

use crate::dist_ram::DistRam;
use crate::layout::{DmaRdFields, PcieRdReqNamed, PcieRqDescNamed, PcieRqUserNamed};
use crate::pcie_be::PcieBe;
use crate::pcie_rd_rc::PcieRdRc;
use crate::rx_dma_combine::RxDmaCombine;
use crate::rx_dma_out::RxDmaOut;
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieRd {
    /// The hard block's user clock (250 MHz); everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (the hard block's `user_reset`, or link down): forgets requests,
    /// tags, buffered data and counters. Completions still due after it are dropped and
    /// counted as unexpected.
    pub reset: Signal<In, bool>,
    /// The hard block's max read request size, PCIe encoding (0: 128 bytes .. 5: 4096); read
    /// TLPs are min(it, 512) bytes. Sampled per request.
    pub cfg_max_read_req: Signal<In, Bits<3>>,
    /// DMA read request (`sim::layout::DMA_RD`): host address, length 1..16383, flow.
    pub s_axis_req_tdata: Signal<In, Bits<128>>,
    pub s_axis_req_tvalid: Signal<In, bool>,
    /// Taken when the last request's TLPs are all out and the request FIFO has room.
    pub s_axis_req_tready: Signal<Out, bool>,
    /// RQ beat: the read's descriptor (`sim::layout::PCIE_RQ_DESC`) in dwords 0-3.
    pub m_axis_rq_tdata: Signal<Out, Bits<512>>,
    /// Dwords 0-3.
    pub m_axis_rq_tkeep: Signal<Out, Bits<16>>,
    pub m_axis_rq_tvalid: Signal<Out, bool>,
    pub m_axis_rq_tready: Signal<In, bool>,
    /// Always 1: a read is one beat.
    pub m_axis_rq_tlast: Signal<Out, bool>,
    /// `sim::layout::PCIE_RQ_USER`: byte enables, start and end of the TLP.
    pub m_axis_rq_tuser: Signal<Out, Bits<137>>,
    /// RC beat (`sim::layout::PCIE_RC_DESC` in a TLP's first beat, then payload).
    pub s_axis_rc_tdata: Signal<In, Bits<512>>,
    /// Dword enables (not used: the descriptor's dword count says which dwords hold data).
    pub s_axis_rc_tkeep: Signal<In, Bits<16>>,
    pub s_axis_rc_tvalid: Signal<In, bool>,
    /// Always 1.
    pub s_axis_rc_tready: Signal<Out, bool>,
    pub s_axis_rc_tlast: Signal<In, bool>,
    /// `sim::layout::PCIE_RC_USER` (only `discontinue` is used).
    pub s_axis_rc_tuser: Signal<In, Bits<161>>,
    /// Read data, in request order: byte j of a request at beat j / 64, lane j % 64.
    pub m_axis_data_tdata: Signal<Out, Bits<512>>,
    /// All ones but on a request's last beat: lanes 0 .. (length - 1) % 64.
    pub m_axis_data_tkeep: Signal<Out, Bits<64>>,
    pub m_axis_data_tvalid: Signal<Out, bool>,
    pub m_axis_data_tready: Signal<In, bool>,
    /// A request's last beat.
    pub m_axis_data_tlast: Signal<Out, bool>,
    /// Requests taken (wraps).
    pub stat_requests: Signal<Out, Bits<32>>,
    /// Requests of length 0 dropped: no TLP and no data (wraps).
    pub stat_bad_requests: Signal<Out, Bits<32>>,
    /// Read TLPs sent (wraps).
    pub stat_tlps: Signal<Out, Bits<32>>,
    /// pcie_rd_rc's counters: completions taken, with an error, dropped (wraps).
    pub stat_cpls: Signal<Out, Bits<32>>,
    pub stat_cpl_errors: Signal<Out, Bits<32>>,
    pub stat_cpl_unexpected: Signal<Out, Bits<32>>,

    rc: PcieRdRc,
    /// The TLP's dwords and byte enables.
    be: PcieBe,
    /// Request FIFO (`sim::layout::PCIE_RD_REQ`).
    reqq: DistRam<Bits<30>, 5>,
    even: RAM<Bits<512>, 7>,
    odd: RAM<Bits<512>, 7>,
    combine: RxDmaCombine,
    out: RxDmaOut,
    // Tags.
    outst: DFF<Bits<32>>,
    done: DFF<Bits<32>>,
    head: DFF<Bits<6>>,
    tail: DFF<Bits<6>>,
    // Issue.
    i_active: DFF<bool>,
    i_addr: DFF<Bits<64>>,
    i_left: DFF<Bits<14>>,
    i_mask: DFF<Bits<10>>,
    i_room: DFF<Bits<10>>,
    rq_valid: DFF<bool>,
    rq_desc: DFF<Bits<128>>,
    rq_first_be: DFF<Bits<4>>,
    rq_last_be: DFF<Bits<4>>,
    reqq_wr: DFF<Bits<5>>,
    reqq_rd: DFF<Bits<5>>,
    reqq_n: DFF<Bits<6>>,
    // Read.
    r_active: DFF<bool>,
    r_left_b: DFF<Bits<9>>,
    r_left_l: DFF<Bits<9>>,
    r_shift: DFF<Bits<6>>,
    r_kcnt: DFF<Bits<6>>,
    r_k: DFF<Bits<2>>,
    r_tag: DFF<Bits<5>>,
    r_pos: DFF<Bits<3>>,
    r_ntag: DFF<Bits<5>>,
    r_newc: DFF<bool>,
    r_lo_bit: DFF<Bits<32>>,
    r_hi_bit: DFF<Bits<32>>,
    f_valid: DFF<bool>,
    f_odd: DFF<bool>,
    f_shift: DFF<Bits<6>>,
    f_last: DFF<bool>,
    f_kcnt: DFF<Bits<6>>,
    owed: DFF<Bits<5>>,
    n_requests: DFF<Bits<32>>,
    n_bad: DFF<Bits<32>>,
    n_tlps: DFF<Bits<32>>,

    one32: Signal<Local, Bits<32>>,
    one64: Signal<Local, Bits<64>>,
    take: Signal<Local, bool>,
    req_len: Signal<Local, Bits<14>>,
    req_addr: Signal<Local, Bits<64>>,
    k_now: Signal<Local, Bits<2>>,
    c_mask: Signal<Local, Bits<10>>,
    off: Signal<Local, Bits<10>>,
    room: Signal<Local, Bits<10>>,
    i_last: Signal<Local, bool>,
    len: Signal<Local, Bits<14>>,
    in_use: Signal<Local, Bits<6>>,
    issue: Signal<Local, bool>,
    desc: Signal<Local, Bits<128>>,
    set_issue: Signal<Local, Bits<32>>,
    push_word: Signal<Local, Bits<30>>,
    user: Signal<Local, Bits<137>>,
    head_word: Signal<Local, Bits<30>>,
    h_len: Signal<Local, Bits<14>>,
    h_shift: Signal<Local, Bits<6>>,
    load: Signal<Local, bool>,
    h_beats: Signal<Local, Bits<15>>,
    h_lines: Signal<Local, Bits<15>>,
    mk: Signal<Local, Bits<3>>,
    nxt_pos: Signal<Local, Bits<3>>,
    pos2: Signal<Local, Bits<3>>,
    newc2: Signal<Local, bool>,
    need_hi: Signal<Local, bool>,
    hi_rot: Signal<Local, Bits<32>>,
    h_tag: Signal<Local, Bits<5>>,
    h_line: Signal<Local, Bits<3>>,
    h_line1: Signal<Local, Bits<3>>,
    h_k: Signal<Local, Bits<2>>,
    h_mk: Signal<Local, Bits<3>>,
    h_newc: Signal<Local, bool>,
    h_ntag: Signal<Local, Bits<5>>,
    fetch: Signal<Local, bool>,
    last: Signal<Local, bool>,
    addr_lo: Signal<Local, Bits<7>>,
    addr_hi: Signal<Local, Bits<7>>,
    free1: Signal<Local, bool>,
    free2: Signal<Local, bool>,
    clear: Signal<Local, Bits<32>>,
}

impl Logic for PcieRd {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, outst, done, head, tail, i_active, i_addr, i_left, i_mask, i_room, rq_valid, rq_desc, rq_first_be,
            rq_last_be, reqq_wr, reqq_rd, reqq_n, r_active, r_left_b, r_left_l, r_shift, r_kcnt, r_k, r_tag, r_pos, r_ntag, r_newc, r_lo_bit, r_hi_bit,
            f_valid, f_odd, f_shift, f_last, f_kcnt, owed, n_requests, n_bad, n_tlps
        );
        self.reqq.write_clock.next = self.clock.val();
        self.even.read_clock.next = self.clock.val();
        self.even.write_clock.next = self.clock.val();
        self.odd.read_clock.next = self.clock.val();
        self.odd.write_clock.next = self.clock.val();
        self.one32.next = 1.into();
        self.one64.next = 1.into();

        // ---- Take a request: its TLPs are issued from the next cycle on.
        self.s_axis_req_tready.next = !self.i_active.q.val() & (self.reqq_n.q.val() < 32);
        self.take.next = self.s_axis_req_tvalid.val() & !self.i_active.q.val() & (self.reqq_n.q.val() < 32);
        self.req_len.next = self.s_axis_req_tdata.val().get_value_len();
        self.req_addr.next = self.s_axis_req_tdata.val().get_value_addr();
        // log2 of the lines per TLP: 128 bytes -> 1, 256 -> 2, 512 and more -> 3; the TLP
        // size less one, and the room to the first multiple of it.
        self.k_now.next = 3.into();
        self.c_mask.next = 511.into();
        if self.cfg_max_read_req.val() == 0 {
            self.k_now.next = 1.into();
            self.c_mask.next = 127.into();
        }
        if self.cfg_max_read_req.val() == 1 {
            self.k_now.next = 2.into();
            self.c_mask.next = 255.into();
        }
        self.off.next = self.req_addr.val().get_bits::<10>(0) & self.c_mask.val();
        self.room.next = self.c_mask.val() - self.off.val() + 1;
        self.push_word.next = 0.into();
        self.push_word.next.set_value_pcie_rd_req_shift(self.req_addr.val().get_bits::<6>(0));
        self.push_word.next.set_value_pcie_rd_req_len(self.req_len.val());
        self.push_word.next.set_value_pcie_rd_req_line(self.req_addr.val().get_bits::<3>(6));
        self.push_word.next.set_value_pcie_rd_req_k(self.k_now.val());
        self.push_word.next.set_value_pcie_rd_req_tag0(self.head.q.val().get_bits::<5>(0));
        self.reqq.write_enable.next = false;
        self.reqq.write_address.next = self.reqq_wr.q.val();
        self.reqq.write_data.next = self.push_word.val();
        if self.take.val() {
            if self.req_len.val() == 0 {
                self.n_bad.d.next = self.n_bad.q.val() + 1;
            } else {
                self.i_active.d.next = true;
                self.i_addr.d.next = self.req_addr.val();
                self.i_left.d.next = self.req_len.val();
                self.i_mask.d.next = self.c_mask.val();
                self.i_room.d.next = self.room.val();
                self.reqq.write_enable.next = true;
                self.reqq_wr.d.next = self.reqq_wr.q.val() + 1;
                self.n_requests.d.next = self.n_requests.q.val() + 1;
            }
        }

        // ---- Issue: the next TLP of the request, up to the next multiple of the TLP size.
        // i_room: bytes to the next multiple (the TLP size after the first TLP).
        self.i_last.next = self.i_left.q.val() <= bit_cast::<14, 10>(self.i_room.q.val());
        self.len.next = bit_cast::<14, 10>(self.i_room.q.val());
        if self.i_last.val() {
            self.len.next = self.i_left.q.val();
        }
        self.in_use.next = self.head.q.val() - self.tail.q.val();
        self.issue.next = self.i_active.q.val() & (self.in_use.val() < 32) & (!self.rq_valid.q.val() | self.m_axis_rq_tready.val());
        self.desc.next = 0.into();
        self.desc.next.set_value_pcie_rq_desc_addr(self.i_addr.q.val().get_bits::<62>(2));
        self.be.lo2.next = self.i_addr.q.val().get_bits::<2>(0);
        self.be.len.next = self.len.val();
        self.desc.next.set_value_pcie_rq_desc_dwords(self.be.dwords.val());
        self.desc.next.set_value_pcie_rq_desc_tag(bit_cast::<8, 5>(self.head.q.val().get_bits::<5>(0)));
        self.rc.end_we.next = self.issue.val();
        self.rc.end_wr_tag.next = self.head.q.val().get_bits::<5>(0);
        self.rc.end_wr_pos.next = bit_cast::<10, 9>(self.i_addr.q.val().get_bits::<9>(0)) + self.len.val().get_bits::<10>(0);
        self.set_issue.next = 0.into();
        if self.issue.val() {
            self.set_issue.next = self.one32.val() << self.head.q.val().get_bits::<5>(0);
            self.rq_valid.d.next = true;
            self.rq_desc.d.next = self.desc.val();
            self.rq_first_be.d.next = self.be.first_be.val();
            self.rq_last_be.d.next = self.be.last_be.val();
            self.head.d.next = self.head.q.val() + 1;
            // The next TLP starts at the next multiple (not needed after the last one).
            self.i_addr.d.next = (self.i_addr.q.val() | bit_cast::<64, 10>(self.i_mask.q.val())) + self.one64.val();
            self.i_room.d.next = self.i_mask.q.val() + 1;
            self.i_left.d.next = self.i_left.q.val() - self.len.val();
            if self.i_last.val() {
                self.i_active.d.next = false;
            }
            self.n_tlps.d.next = self.n_tlps.q.val() + 1;
        } else if self.m_axis_rq_tready.val() {
            self.rq_valid.d.next = false;
        }
        self.m_axis_rq_tvalid.next = self.rq_valid.q.val();
        self.m_axis_rq_tdata.next = bit_cast::<512, 128>(self.rq_desc.q.val());
        self.m_axis_rq_tkeep.next = 15.into();
        self.m_axis_rq_tlast.next = true;
        self.user.next = 0.into();
        self.user.next.set_value_pcie_rq_user_first_be(bit_cast::<8, 4>(self.rq_first_be.q.val()));
        self.user.next.set_value_pcie_rq_user_last_be(bit_cast::<8, 4>(self.rq_last_be.q.val()));
        self.user.next.set_value_pcie_rq_user_is_sop(1.into());
        self.user.next.set_value_pcie_rq_user_is_eop(1.into());
        self.user.next.set_value_pcie_rq_user_is_eop0_ptr(3.into());
        self.m_axis_rq_tuser.next = self.user.val();

        // ---- Completions into the slots.
        self.rc.clock.next = self.clock.val();
        self.rc.reset.next = self.reset.val();
        self.rc.s_axis_rc_tdata.next = self.s_axis_rc_tdata.val();
        self.rc.s_axis_rc_tvalid.next = self.s_axis_rc_tvalid.val();
        self.rc.s_axis_rc_tlast.next = self.s_axis_rc_tlast.val();
        self.rc.s_axis_rc_tuser.next = self.s_axis_rc_tuser.val();
        self.s_axis_rc_tready.next = self.rc.s_axis_rc_tready.val();
        self.rc.outstanding.next = self.outst.q.val();
        self.rc.done.next = self.done.q.val();
        self.even.write_enable.next = self.rc.even_we.val();
        self.even.write_address.next = self.rc.even_addr.val();
        self.even.write_data.next = self.rc.even_data.val();
        self.odd.write_enable.next = self.rc.odd_we.val();
        self.odd.write_address.next = self.rc.odd_addr.val();
        self.odd.write_data.next = self.rc.odd_data.val();

        // ---- Read: the head request's beat j needs lines j and j + 1 (if the request spans
        // it) with their tags done. The next line starts a new TLP's slot at a multiple of
        // the TLP size (its place in the slot, mod the lines per TLP, is 0).
        self.reqq.read_address.next = self.reqq_rd.q.val();
        self.head_word.next = self.reqq.read_data.val();
        self.h_len.next = self.head_word.val().get_value_pcie_rd_req_len();
        self.h_shift.next = self.head_word.val().get_value_pcie_rd_req_shift();
        self.h_beats.next = bit_cast::<15, 14>(self.h_len.val()) + 63;
        self.h_lines.next = bit_cast::<15, 14>(self.h_len.val()) + bit_cast::<15, 6>(self.h_shift.val()) + 63;
        self.mk.next = 7.into();
        if self.r_k.q.val() == 1 {
            self.mk.next = 1.into();
        }
        if self.r_k.q.val() == 2 {
            self.mk.next = 3.into();
        }
        // Line j is (r_tag, r_pos), line j + 1 (r_ntag, r_pos + 1); their tags one-hot in
        // r_lo_bit / r_hi_bit; r_newc: line j + 1 starts the next TLP's slot. All registered,
        // so the fetch decision is an AND-OR over the done bits.
        self.nxt_pos.next = self.r_pos.q.val() + 1;
        self.pos2.next = self.r_pos.q.val() + 2;
        self.newc2.next = (self.pos2.val() & self.mk.val()) == 0;
        self.need_hi.next = self.r_left_l.q.val() > 1;
        self.last.next = self.r_left_b.q.val() == 1;
        self.fetch.next = self.r_active.q.val()
            & !self.owed.q.val().get_bit(4)
            & ((self.done.q.val() & self.r_lo_bit.q.val()) != 0)
            & (!self.need_hi.val() | ((self.done.q.val() & self.r_hi_bit.q.val()) != 0));
        self.addr_lo.next = bit_cast::<7, 5>(self.r_tag.q.val()) << 2 | bit_cast::<7, 2>(self.r_pos.q.val().get_bits::<2>(1));
        self.addr_hi.next = bit_cast::<7, 5>(self.r_ntag.q.val()) << 2 | bit_cast::<7, 2>(self.nxt_pos.val().get_bits::<2>(1));
        self.even.read_address.next = self.addr_lo.val();
        self.odd.read_address.next = self.addr_hi.val();
        if self.r_pos.q.val().get_bit(0) {
            self.even.read_address.next = self.addr_hi.val();
            self.odd.read_address.next = self.addr_lo.val();
        }
        self.f_valid.d.next = self.fetch.val();
        self.f_odd.d.next = self.r_pos.q.val().get_bit(0);
        self.f_shift.d.next = self.r_shift.q.val();
        self.f_last.d.next = self.last.val();
        self.f_kcnt.d.next = self.r_kcnt.q.val();
        // A tag is free once the read is past its slot's last line: line j at beat j if line
        // j + 1 is another TLP's, and at the last beat line j + 1's too.
        self.free1.next = self.fetch.val() & (self.r_newc.q.val() | self.last.val());
        self.free2.next = self.fetch.val() & self.last.val() & self.need_hi.val() & self.r_newc.q.val();
        self.clear.next = 0.into();
        if self.free1.val() {
            self.clear.next = self.r_lo_bit.q.val();
        }
        if self.free2.val() {
            self.clear.next = self.r_lo_bit.q.val() | self.r_hi_bit.q.val();
        }
        if self.free1.val() & !self.free2.val() {
            self.tail.d.next = self.tail.q.val() + 1;
        }
        if self.free2.val() {
            self.tail.d.next = self.tail.q.val() + 2;
        }
        self.hi_rot.next = (self.r_hi_bit.q.val() << 1) | (self.r_hi_bit.q.val() >> 31);
        if self.fetch.val() {
            self.r_left_b.d.next = self.r_left_b.q.val() - 1;
            self.r_left_l.d.next = self.r_left_l.q.val() - 1;
            self.r_tag.d.next = self.r_ntag.q.val();
            self.r_pos.d.next = self.nxt_pos.val();
            self.r_newc.d.next = self.newc2.val();
            self.r_lo_bit.d.next = self.r_hi_bit.q.val();
            if self.newc2.val() {
                self.r_ntag.d.next = self.r_ntag.q.val() + 1;
                self.r_hi_bit.d.next = self.hi_rot.val();
            }
            if self.last.val() {
                self.r_active.d.next = false;
            }
        }
        // The next request loads as the last one's last beat is fetched.
        self.h_tag.next = self.head_word.val().get_value_pcie_rd_req_tag0();
        self.h_line.next = self.head_word.val().get_value_pcie_rd_req_line();
        self.h_k.next = self.head_word.val().get_value_pcie_rd_req_k();
        self.h_mk.next = 7.into();
        if self.h_k.val() == 1 {
            self.h_mk.next = 1.into();
        }
        if self.h_k.val() == 2 {
            self.h_mk.next = 3.into();
        }
        self.h_line1.next = self.h_line.val() + 1;
        self.h_newc.next = (self.h_line1.val() & self.h_mk.val()) == 0;
        self.h_ntag.next = self.h_tag.val();
        if self.h_newc.val() {
            self.h_ntag.next = self.h_tag.val() + 1;
        }
        self.load.next = (self.reqq_n.q.val() != 0) & (!self.r_active.q.val() | (self.fetch.val() & self.last.val()));
        if self.load.val() {
            self.r_active.d.next = true;
            self.r_left_b.d.next = self.h_beats.val().get_bits::<9>(6);
            self.r_left_l.d.next = self.h_lines.val().get_bits::<9>(6);
            self.r_shift.d.next = self.h_shift.val();
            self.r_kcnt.d.next = self.h_len.val().get_bits::<6>(0);
            self.r_k.d.next = self.h_k.val();
            self.r_tag.d.next = self.h_tag.val();
            self.r_pos.d.next = self.h_line.val();
            self.r_ntag.d.next = self.h_ntag.val();
            self.r_newc.d.next = self.h_newc.val();
            self.r_lo_bit.d.next = self.one32.val() << self.h_tag.val();
            self.r_hi_bit.d.next = self.one32.val() << self.h_ntag.val();
            self.reqq_rd.d.next = self.reqq_rd.q.val() + 1;
        }
        if self.take.val() & (self.req_len.val() != 0) & !self.load.val() {
            self.reqq_n.d.next = self.reqq_n.q.val() + 1;
        }
        if !(self.take.val() & (self.req_len.val() != 0)) & self.load.val() {
            self.reqq_n.d.next = self.reqq_n.q.val() - 1;
        }
        self.outst.d.next = (self.outst.q.val() | self.set_issue.val()) & !self.clear.val();
        self.done.d.next = (self.done.q.val() | self.rc.set_done.val()) & !self.clear.val();

        // ---- Combine and out FIFO (rx_dma's): the fetch's two lines into one beat.
        self.combine.even.next = self.even.read_data.val();
        self.combine.odd.next = self.odd.read_data.val();
        self.combine.lo_odd.next = self.f_odd.q.val();
        self.combine.shift.next = self.f_shift.q.val();
        self.combine.last.next = self.f_last.q.val();
        self.combine.kcnt.next = self.f_kcnt.q.val();
        self.out.clock.next = self.clock.val();
        self.out.reset.next = self.reset.val();
        self.out.in_valid.next = self.f_valid.q.val();
        self.out.in_word.next = self.combine.word.val();
        self.m_axis_data_tdata.next = self.out.m_axis_dma_wr_tdata.val();
        self.m_axis_data_tkeep.next = self.out.m_axis_dma_wr_tkeep.val();
        self.m_axis_data_tvalid.next = self.out.m_axis_dma_wr_tvalid.val();
        self.m_axis_data_tlast.next = self.out.m_axis_dma_wr_tlast.val();
        self.out.m_axis_dma_wr_tready.next = self.m_axis_data_tready.val();
        if self.fetch.val() & !self.out.pop.val() {
            self.owed.d.next = self.owed.q.val() + 1;
        }
        if !self.fetch.val() & self.out.pop.val() {
            self.owed.d.next = self.owed.q.val() - 1;
        }

        self.stat_requests.next = self.n_requests.q.val();
        self.stat_bad_requests.next = self.n_bad.q.val();
        self.stat_tlps.next = self.n_tlps.q.val();
        self.stat_cpls.next = self.rc.stat_cpls.val();
        self.stat_cpl_errors.next = self.rc.stat_cpl_errors.val();
        self.stat_cpl_unexpected.next = self.rc.stat_cpl_unexpected.val();
        if self.reset.val() {
            self.outst.d.next = 0.into();
            self.done.d.next = 0.into();
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.i_active.d.next = false;
            self.rq_valid.d.next = false;
            self.reqq_wr.d.next = 0.into();
            self.reqq_rd.d.next = 0.into();
            self.reqq_n.d.next = 0.into();
            self.r_active.d.next = false;
            self.f_valid.d.next = false;
            self.owed.d.next = 0.into();
            self.n_requests.d.next = 0.into();
            self.n_bad.d.next = 0.into();
            self.n_tlps.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_rd_is_checked_and_generates() {
        let mut uut = PcieRd::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        assert!(generate_verilog(&uut).contains("module top"));
    }
}
