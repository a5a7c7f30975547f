//! pcie_rd's completion intake: each RC beat's payload dwords go to their place in their
//! tag's 512-byte slot of the reorder buffer, whatever order the tags' completions come in.
//!
//! A slot holds its read's bytes at their address mod 512 (a read TLP never crosses a
//! 512-byte block), as 8 lines of 64 bytes in two banks (even and odd lines). A completion's
//! first byte is at `end - byte_count` in the slot (`end`: where the tag's read ends, kept
//! when the TLP was issued), so neither the lower address's upper bits nor the hard block's
//! "request completed" bit are needed. DWORD-aligned RC puts the payload from lane 3 of the
//! first beat on, so every payload dword keeps one place in a line for the whole completion:
//! a rotation by `r` = (first dword's place - 3) mod 16 dwords. Beat i then fills the top of
//! line `lb` and the bottom of line `lb + 1`; `lb`'s bottom came in beat i - 1 (`prev`), so
//! both lines are written whole, in one cycle, one per bank. A line is shared by two
//! completions only at a read completion boundary (RCB), which is 64 or 128 bytes: a line
//! boundary. Completions split elsewhere break that rule and may corrupt data (not checked).
//!
//! The beat is registered with its tag's read end (a LUT RAM read). Stage 0: the descriptor
//! of a TLP's first beat is checked against the tag state and loaded into the TLP's context.
//! Stage 1: the registered beat is rotated and written; at the TLP's last beat the tag is
//! marked done if this completion ends its read. A payload dword is in its bank 3 cycles
//! after it is offered on RC.

use crate::layout::{PcieRcDescNamed, PcieRcUserNamed};
use crate::dist_ram::DistRam;
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieRdRc {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forgets the TLP in progress and the counters.
    pub reset: Signal<In, bool>,
    /// RC beat: dword i at [32i+31:32i]; a TLP's first beat has its descriptor
    /// (`sim::layout::PCIE_RC_DESC`) in dwords 0-2.
    pub s_axis_rc_tdata: Signal<In, Bits<512>>,
    /// A beat is offered.
    pub s_axis_rc_tvalid: Signal<In, bool>,
    /// Always 1: completions are never held up (their space is reserved by tag).
    pub s_axis_rc_tready: Signal<Out, bool>,
    /// Last beat of a TLP (straddling off: one TLP per beat at most).
    pub s_axis_rc_tlast: Signal<In, bool>,
    /// `sim::layout::PCIE_RC_USER`; only `discontinue` is used.
    pub s_axis_rc_tuser: Signal<In, Bits<161>>,
    /// Tags with a read out (pcie_rd's tag state).
    pub outstanding: Signal<In, Bits<32>>,
    /// Tags whose read has all its data.
    pub done: Signal<In, Bits<32>>,
    /// A read TLP is issued: its tag, and where its read ends in the tag's slot (1..512).
    pub end_we: Signal<In, bool>,
    pub end_wr_tag: Signal<In, Bits<5>>,
    pub end_wr_pos: Signal<In, Bits<10>>,
    /// Bank writes: line `addr` = tag x 4 + line / 2 of the even (odd) bank.
    pub even_we: Signal<Out, bool>,
    pub even_addr: Signal<Out, Bits<7>>,
    pub even_data: Signal<Out, Bits<512>>,
    pub odd_we: Signal<Out, bool>,
    pub odd_addr: Signal<Out, Bits<7>>,
    pub odd_data: Signal<Out, Bits<512>>,
    /// One-hot: this tag's read has all its data (or ended in error) as of this cycle's writes.
    pub set_done: Signal<Out, Bits<32>>,
    /// Completions taken (wraps).
    pub stat_cpls: Signal<Out, Bits<32>>,
    /// Completions with an error: status not successful, poisoned, an error code, or
    /// discontinued (wraps). Their read's data is not what host memory holds.
    pub stat_cpl_errors: Signal<Out, Bits<32>>,
    /// Completions dropped: a tag with no read out (or already complete), or a payload outside
    /// the tag's read; the latter ends the tag's read in error so its request still finishes
    /// (wraps).
    pub stat_cpl_unexpected: Signal<Out, Bits<32>>,

    /// Per tag: where its read ends in its slot.
    ends: DistRam<Bits<10>, 5>,
    in_tlp: DFF<bool>,
    // Input register.
    p_valid: DFF<bool>,
    p_data: DFF<Bits<512>>,
    p_sop: DFF<bool>,
    p_last: DFF<bool>,
    p_disc: DFF<bool>,
    p_pos: DFF<Bits<13>>,
    p_bc_ok: DFF<bool>,
    p_need: DFF<Bits<14>>,
    // Stage 1: the beat.
    s1_valid: DFF<bool>,
    s1_data: DFF<Bits<512>>,
    s1_sop: DFF<bool>,
    s1_last: DFF<bool>,
    // The TLP's context (loaded from stage 0 on its first beat, stepped by stage 1).
    c_ok: DFF<bool>,
    c_tag: DFF<Bits<5>>,
    c_r: DFF<Bits<4>>,
    c_lb: DFF<Bits<4>>,
    c_left: DFF<Bits<11>>,
    c_done: DFF<bool>,
    c_err: DFF<bool>,
    c_unexp: DFF<bool>,
    prev: DFF<Bits<512>>,
    n_cpls: DFF<Bits<32>>,
    n_errors: DFF<Bits<32>>,
    n_unexp: DFF<Bits<32>>,

    raw_desc: Signal<Local, Bits<96>>,
    raw_tag: Signal<Local, Bits<8>>,
    raw_bc: Signal<Local, Bits<13>>,
    raw_end: Signal<Local, Bits<13>>,
    raw_pos: Signal<Local, Bits<13>>,
    take: Signal<Local, bool>,
    sop: Signal<Local, bool>,
    desc: Signal<Local, Bits<96>>,
    tag8: Signal<Local, Bits<8>>,
    tag: Signal<Local, Bits<5>>,
    tag_bit: Signal<Local, Bits<32>>,
    known: Signal<Local, bool>,
    dw: Signal<Local, Bits<11>>,
    pos: Signal<Local, Bits<13>>,
    dw_end: Signal<Local, Bits<13>>,
    fits: Signal<Local, bool>,
    has_data: Signal<Local, bool>,
    bytes_here: Signal<Local, Bits<14>>,
    is_final: Signal<Local, bool>,
    is_err: Signal<Local, bool>,
    d0: Signal<Local, Bits<4>>,
    lb0: Signal<Local, Bits<4>>,
    // Stage 1.
    avail: Signal<Local, Bits<11>>,
    n: Signal<Local, Bits<11>>,
    e: Signal<Local, Bits<5>>,
    er: Signal<Local, Bits<5>>,
    w_lb: Signal<Local, bool>,
    w_lb1: Signal<Local, bool>,
    r_bits: Signal<Local, Bits<10>>,
    r_back: Signal<Local, Bits<10>>,
    rot: Signal<Local, Bits<512>>,
    zero: Signal<Local, Bits<512>>,
    ones: Signal<Local, Bits<512>>,
    nr: Signal<Local, Bits<4>>,
    la: Signal<Local, Bits<12>>,
    mask: Signal<Local, Bits<512>>,
    lb_data: Signal<Local, Bits<512>>,
    lb1: Signal<Local, Bits<4>>,
    one32: Signal<Local, Bits<32>>,
}

impl Logic for PcieRdRc {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, in_tlp, p_valid, p_data, p_sop, p_last, p_disc, p_pos, p_bc_ok, p_need, s1_valid, s1_data, s1_sop, s1_last, c_ok, c_tag, c_r, c_lb, c_left, c_done,
            c_err, c_unexp, prev, n_cpls, n_errors, n_unexp
        );
        self.s_axis_rc_tready.next = true;
        self.one32.next = 1.into();
        self.zero.next = 0.into();
        self.ones.next = !self.zero.val();

        // Stage 1's last beat of a completion that ends its read (before stage 0, which reads
        // it: a completion right behind the final one finds its tag done already).
        self.set_done.next = 0.into();
        if self.s1_valid.q.val() & self.s1_last.q.val() & self.c_done.q.val() {
            self.set_done.next = self.one32.val() << self.c_tag.q.val();
        }

        // ---- The beat in, registered with where its tag's read ends (the table is read
        // with the raw descriptor's tag; on a payload beat the word read is not used).
        if self.s_axis_rc_tvalid.val() {
            self.in_tlp.d.next = !self.s_axis_rc_tlast.val();
        }
        self.raw_desc.next = self.s_axis_rc_tdata.val().get_bits::<96>(0);
        self.raw_tag.next = self.raw_desc.val().get_value_pcie_rc_desc_tag();
        self.ends.write_clock.next = self.clock.val();
        self.ends.write_enable.next = self.end_we.val();
        self.ends.write_address.next = self.end_wr_tag.val();
        self.ends.write_data.next = self.end_wr_pos.val();
        self.ends.read_address.next = self.raw_tag.val().get_bits::<5>(0);
        // The completion's first byte in the slot: where the read ends less the bytes still
        // to come; and the bytes this completion must carry to end the read.
        self.raw_bc.next = self.raw_desc.val().get_value_pcie_rc_desc_byte_count();
        self.raw_end.next = bit_cast::<13, 10>(self.ends.read_data.val());
        self.raw_pos.next = self.raw_end.val() - self.raw_bc.val();
        self.p_valid.d.next = self.s_axis_rc_tvalid.val();
        if self.s_axis_rc_tvalid.val() {
            self.p_data.d.next = self.s_axis_rc_tdata.val();
            self.p_sop.d.next = !self.in_tlp.q.val();
            self.p_last.d.next = self.s_axis_rc_tlast.val();
            self.p_disc.d.next = self.s_axis_rc_tuser.val().get_value_pcie_rc_user_discontinue();
            self.p_pos.d.next = self.raw_pos.val();
            self.p_bc_ok.d.next = self.raw_bc.val() <= self.raw_end.val();
            self.p_need.d.next = bit_cast::<14, 13>(self.raw_bc.val()) + bit_cast::<14, 2>(self.raw_pos.val().get_bits::<2>(0));
        }

        // ---- Stage 0: the descriptor of a TLP's first beat against the tag state.
        self.take.next = self.p_valid.q.val();
        self.sop.next = self.p_sop.q.val();
        self.desc.next = self.p_data.q.val().get_bits::<96>(0);
        self.tag8.next = self.desc.val().get_value_pcie_rc_desc_tag();
        self.tag.next = self.tag8.val().get_bits::<5>(0);
        self.tag_bit.next = self.one32.val() << self.tag.val();
        self.known.next = (self.tag8.val().get_bits::<3>(5) == 0)
            & ((self.outstanding.val() & self.tag_bit.val()) != 0)
            & (((self.done.val() | self.set_done.val()) & self.tag_bit.val()) == 0);
        self.dw.next = self.desc.val().get_value_pcie_rc_desc_dwords();
        self.la.next = self.desc.val().get_value_pcie_rc_desc_lower_addr();
        self.pos.next = self.p_pos.q.val();
        // The payload's last dword + 1, in dwords from the slot's start: at most 128.
        self.dw_end.next = bit_cast::<13, 11>(self.dw.val()) + bit_cast::<13, 11>(self.pos.val().get_bits::<11>(2));
        self.fits.next = self.p_bc_ok.q.val()
            & (self.pos.val().get_bits::<2>(0) == self.la.val().get_bits::<2>(0))
            & (self.dw_end.val() <= 128);
        self.has_data.next = self.dw.val() != 0;
        // This completion ends the read when it carries every byte still to come.
        self.bytes_here.next = bit_cast::<14, 11>(self.dw.val()) << 2;
        self.is_final.next = !self.has_data.val() | (self.bytes_here.val() >= self.p_need.q.val());
        self.is_err.next = (self.desc.val().get_value_pcie_rc_desc_status() != 0)
            | self.desc.val().get_value_pcie_rc_desc_poisoned()
            | (self.desc.val().get_value_pcie_rc_desc_error_code() != 0)
            | self.p_disc.q.val();
        // First dword's place in its line; beat 0 starts filling line lb0 (-1 when the first
        // dword sits in lanes 0-2 of its line: beat 0's lanes 3.. reach only the next line).
        self.d0.next = self.pos.val().get_bits::<4>(2);
        self.lb0.next = bit_cast::<4, 3>(self.pos.val().get_bits::<3>(6));
        if self.d0.val() < 3 {
            self.lb0.next = bit_cast::<4, 3>(self.pos.val().get_bits::<3>(6)) - 1;
        }

        self.s1_valid.d.next = self.take.val();
        if self.take.val() {
            self.s1_data.d.next = self.p_data.q.val();
            self.s1_sop.d.next = self.sop.val();
            self.s1_last.d.next = self.p_last.q.val();
        }

        // ---- Stage 1: rotate the beat into line places, write lines lb and lb + 1.
        self.avail.next = 16.into();
        if self.s1_sop.q.val() {
            self.avail.next = 13.into();
        }
        self.n.next = self.avail.val();
        if self.c_left.q.val() < self.avail.val() {
            self.n.next = self.c_left.q.val();
        }
        // The beat's last payload lane, and that lane's place + 1 before wrapping.
        self.e.next = bit_cast::<5, 11>(self.n.val()) - 1;
        if self.s1_sop.q.val() {
            self.e.next = bit_cast::<5, 11>(self.n.val()) + 2;
        }
        self.er.next = self.e.val() + bit_cast::<5, 4>(self.c_r.q.val());
        self.w_lb.next = self.s1_valid.q.val()
            & self.c_ok.q.val()
            & (self.n.val() != 0)
            & (!self.s1_sop.q.val() | (self.c_r.q.val() < 13));
        self.w_lb1.next =
            self.s1_valid.q.val() & self.c_ok.q.val() & (self.n.val() != 0) & (self.c_r.q.val() != 0) & (self.er.val() >= 16);
        self.r_bits.next = bit_cast::<10, 4>(self.c_r.q.val()) << 5;
        // 512 - 32 r, for r = 1..15 (r = 0 is not rotated).
        self.nr.next = (!self.c_r.q.val()) + 1;
        self.r_back.next = bit_cast::<10, 4>(self.nr.val()) << 5;
        self.rot.next = self.s1_data.q.val();
        self.mask.next = self.ones.val();
        if self.c_r.q.val() != 0 {
            self.rot.next = (self.s1_data.q.val() << self.r_bits.val()) | (self.s1_data.q.val() >> self.r_back.val());
            self.mask.next = self.ones.val() << self.r_bits.val();
        }
        self.lb_data.next = (self.rot.val() & self.mask.val()) | (self.prev.q.val() & !self.mask.val());
        self.lb1.next = self.c_lb.q.val() + 1;
        if self.s1_valid.q.val() {
            self.prev.d.next = self.rot.val();
            self.c_lb.d.next = self.lb1.val();
            self.c_left.d.next = self.c_left.q.val() - self.n.val();
        }
        self.even_data.next = self.lb_data.val();
        self.odd_data.next = self.rot.val();
        self.even_we.next = self.w_lb.val();
        self.odd_we.next = self.w_lb1.val();
        self.even_addr.next = bit_cast::<7, 5>(self.c_tag.q.val()) << 2 | bit_cast::<7, 2>(self.c_lb.q.val().get_bits::<2>(1));
        self.odd_addr.next = bit_cast::<7, 5>(self.c_tag.q.val()) << 2 | bit_cast::<7, 2>(self.lb1.val().get_bits::<2>(1));
        if self.c_lb.q.val().get_bit(0) {
            self.odd_data.next = self.lb_data.val();
            self.even_data.next = self.rot.val();
            self.odd_we.next = self.w_lb.val();
            self.even_we.next = self.w_lb1.val();
            self.odd_addr.next =
                bit_cast::<7, 5>(self.c_tag.q.val()) << 2 | bit_cast::<7, 2>(self.c_lb.q.val().get_bits::<2>(1));
            self.even_addr.next =
                bit_cast::<7, 5>(self.c_tag.q.val()) << 2 | bit_cast::<7, 2>(self.lb1.val().get_bits::<2>(1));
        }
        if self.s1_valid.q.val() & self.s1_sop.q.val() {
            self.n_cpls.d.next = self.n_cpls.q.val() + 1;
            if self.c_err.q.val() {
                self.n_errors.d.next = self.n_errors.q.val() + 1;
            }
            if self.c_unexp.q.val() {
                self.n_unexp.d.next = self.n_unexp.q.val() + 1;
            }
        }

        // ---- A TLP's first beat loads its context (after stage 1 stepped the last one's).
        if self.take.val() & self.sop.val() {
            self.c_ok.d.next = self.known.val() & self.has_data.val() & self.fits.val();
            self.c_tag.d.next = self.tag.val();
            self.c_r.d.next = self.d0.val() + 13;
            self.c_lb.d.next = self.lb0.val();
            self.c_left.d.next = self.dw.val();
            // A known tag's read ends with its final completion, or with one that cannot be
            // placed (so its request still finishes, in error).
            self.c_done.d.next = self.known.val() & (self.is_final.val() | (self.has_data.val() & !self.fits.val()));
            self.c_err.d.next = self.is_err.val();
            self.c_unexp.d.next = !self.known.val() | (self.has_data.val() & !self.fits.val());
        }
        self.stat_cpls.next = self.n_cpls.q.val();
        self.stat_cpl_errors.next = self.n_errors.q.val();
        self.stat_cpl_unexpected.next = self.n_unexp.q.val();
        if self.reset.val() {
            self.in_tlp.d.next = false;
            self.p_valid.d.next = false;
            self.s1_valid.d.next = false;
            self.c_ok.d.next = false;
            self.n_cpls.d.next = 0.into();
            self.n_errors.d.next = 0.into();
            self.n_unexp.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_rd_rc_is_checked_and_generates() {
        let mut uut = PcieRdRc::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        assert!(generate_verilog(&uut).contains("module top"));
    }
}
