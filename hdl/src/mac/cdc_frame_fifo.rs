//! A two-clock frame FIFO, the clock crossing of both MAC shim directions (issue 16, item 1):
//! 512-bit beats written on `s_clock`, read on `m_clock`, in one simple dual-port RAM of 256
//! beats (16 KiB) with a clock per port.
//!
//! Store and forward. The write side moves its committed pointer (`start`) past a frame only
//! when the frame's last beat is written and the frame is good, so the read side never sees
//! part of a frame: once `m_axis_tvalid` rises on a frame's first beat, every beat of the frame
//! is in the RAM, and `m_axis_tvalid` stays high to its last beat. That is what the CMAC's
//! transmit side needs (no underrun inside a frame). A bad frame (`s_axis_tuser` on its last
//! beat) is rolled back (the write pointer returns to `start`) and counted, which is what the
//! receive side needs.
//!
//! Two pointers cross, each by the design that fits how it moves:
//!
//! - The read pointer `rd` (m side to s side) moves by at most one per `m_clock` cycle, so it
//!   crosses in Gray code (Cummings, "Simulation and Synthesis Techniques for Asynchronous
//!   FIFO Design", SNUG 2002): a register holds its Gray code and the s side samples that
//!   register through two flip-flops. One bit changes per step, so a sample taken while it
//!   changes is the old or the new value, never a mix.
//! - The committed pointer `start` (s side to m side) jumps by a whole frame when a frame is
//!   committed, so its Gray code would change several bits at once and a sample could be a
//!   mix, even a pointer past what is written. It crosses by a toggle handshake instead
//!   (`cdc_word`, the instance `publish`): the m side's copy follows `start` a round trip at a
//!   time and only ever shows values `start` had; frames committed during one round trip are
//!   published together by the next.
//!
//! rust-hdl's `AsynchronousFIFO` is not used: it has no commit or rollback.
//! The constraints the crossings need are in docs/modules/cdc_frame_fifo.md.
//!
//! Full. With `s_drop_when_full` low (transmit: the core can wait) `s_axis_tready` falls while
//! the FIFO is full, except when the frame being written fills all 256 beats by itself: such a
//! frame can never be committed, so it is dropped (its beats taken and discarded to its last)
//! and counted in `stat_too_long`. With `s_drop_when_full` high (receive: a MAC cannot wait)
//! `s_axis_tready` stays high and a frame that meets a full FIFO is dropped and counted in
//! `stat_overflow`. A dropped frame is counted once, as overflow or too long, even if it was
//! also bad.
//!
//! ```text
//! s side   wr, start (binary, 9 bits) -> publish (cdc_word) -> m side's committed pointer;
//!          rd_gray through rsync0 -> rsync1
//! m side   rd (binary); rd_gray; RAM read (1 cycle) -> a 2-beat output buffer (head, tail)
//!          -> m_axis
//! ```
//!
//! Resets: `s_reset` (on `s_clock`) and `m_reset` (on `m_clock`) must be asserted together
//! and both held until each clock has had at least 3 rising edges (3 cycles of the slower
//! clock), so that each side's synchronizers have sampled the other side's reset values; the
//! FIFO is then empty. A reset of one side alone leaves the pointers disagreeing.

use super::cdc_word::CdcWord;
use crate::prim::axis::{AxisFramesIn, AxisFramesOut};
use rust_hdl::prelude::*;

/// Log2 of the depth in beats. (Fixed: rust-hdl's generator cannot put a const generic into
/// an expression.)
pub const DEPTH_BITS: usize = 8;
/// Depth in beats.
pub const DEPTH: usize = 1 << DEPTH_BITS;
/// Pointer width: the address and a wrap bit.
const P: usize = DEPTH_BITS + 1;
/// One RAM word: `[511:0]` tdata, `[575:512]` tkeep, `[576]` tlast.
pub const WORD_BITS: usize = 577;

/// The two-clock frame FIFO.
#[derive(LogicBlock, Default)]
pub struct CdcFrameFifo {
    /// Write side clock.
    pub s_clock: Signal<In, Clock>,
    /// Write side synchronous reset (see the module doc: with `m_reset`).
    pub s_reset: Signal<In, bool>,
    /// Drop a frame that meets a full FIFO (high) instead of waiting (low). Tie it.
    pub s_drop_when_full: Signal<In, bool>,
    /// Write side: frames in (`tuser`: bad frame, read on the last beat; tready low while
    /// full and waiting, see `s_drop_when_full`; tkeep stored and given back as it is).
    pub s_axis: AxisFramesIn,
    /// Frames committed (s side).
    pub stat_frames: Signal<Out, Bits<32>>,
    /// Frames dropped as bad.
    pub stat_bad: Signal<Out, Bits<32>>,
    /// Frames dropped because the FIFO was full (`s_drop_when_full` high).
    pub stat_overflow: Signal<Out, Bits<32>>,
    /// Frames dropped because they are longer than the FIFO (`s_drop_when_full` low).
    pub stat_too_long: Signal<Out, Bits<32>>,
    /// Read side clock.
    pub m_clock: Signal<In, Clock>,
    /// Read side synchronous reset (see the module doc: with `s_reset`).
    pub m_reset: Signal<In, bool>,
    /// Read side: frames out, whole; once tvalid is high on a frame's first beat it stays
    /// high on every cycle to its last. tuser is always 0 (bad frames never come out).
    pub m_axis: AxisFramesOut,
    ram: RAM<Bits<WORD_BITS>, DEPTH_BITS>,
    // s side.
    wr: DFF<Bits<P>>,
    start: DFF<Bits<P>>,
    /// `start` carried to the m side (its `m_data` is the m side's committed pointer: beats
    /// before it are whole frames in the RAM).
    publish: CdcWord<P>,
    rsync0: DFF<Bits<P>>,
    rsync1: DFF<Bits<P>>,
    /// The frame being written is being dropped (it met a full FIFO).
    dropping: DFF<bool>,
    frames: DFF<Bits<32>>,
    bad: DFF<Bits<32>>,
    overflow: DFF<Bits<32>>,
    too_long: DFF<Bits<32>>,
    rd_s: Signal<Local, Bits<P>>,
    /// Beats written and not yet read (0..=DEPTH), and of them the frame being written's.
    used: Signal<Local, Bits<P>>,
    frame_len: Signal<Local, Bits<P>>,
    full: Signal<Local, bool>,
    /// The frame being written fills the FIFO by itself.
    long: Signal<Local, bool>,
    take: Signal<Local, bool>,
    // m side.
    rd: DFF<Bits<P>>,
    rd_gray: DFF<Bits<P>>,
    /// A RAM read is on its way (its word shows next cycle).
    inflight: DFF<bool>,
    /// Beats in the output buffer (0..=2), the head and the one behind it.
    count: DFF<Bits<2>>,
    head: DFF<Bits<WORD_BITS>>,
    tail: DFF<Bits<WORD_BITS>>,
    pop: Signal<Local, bool>,
    /// Beats left in the buffer after this cycle's pop.
    after: Signal<Local, Bits<2>>,
    issue: Signal<Local, bool>,
    word_in: Signal<Local, Bits<WORD_BITS>>,
}

impl Logic for CdcFrameFifo {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- s side (s_clock).
        dff_setup!(self, s_clock, wr, start, rsync0, rsync1, dropping, frames, bad, overflow, too_long);
        self.ram.write_clock.next = self.s_clock.val();
        // The read pointer's Gray code from the m side, through two flip-flops, back to binary.
        self.rsync0.d.next = self.rd_gray.q.val();
        self.rsync1.d.next = self.rsync0.q.val();
        self.rd_s.next = self.rsync1.q.val()
            ^ (self.rsync1.q.val() >> 1)
            ^ (self.rsync1.q.val() >> 2)
            ^ (self.rsync1.q.val() >> 3)
            ^ (self.rsync1.q.val() >> 4)
            ^ (self.rsync1.q.val() >> 5)
            ^ (self.rsync1.q.val() >> 6)
            ^ (self.rsync1.q.val() >> 7)
            ^ (self.rsync1.q.val() >> 8);
        // Beats in use (written, not yet freed): DEPTH when full. (A number: the generator
        // writes a named constant in an expression as its name.)
        self.used.next = self.wr.q.val() - self.rd_s.val();
        self.full.next = self.used.val() == 256;
        self.frame_len.next = self.wr.q.val() - self.start.q.val();
        self.long.next = self.frame_len.val() == 256;
        self.s_axis.tready.next = self.s_drop_when_full.val() | self.dropping.q.val() | !self.full.val() | self.long.val();
        self.take.next = self.s_axis.tvalid.val() & self.s_axis.tready.val();
        self.word_in.next = bit_cast::<WORD_BITS, 512>(self.s_axis.tdata.val())
            | (bit_cast::<WORD_BITS, 64>(self.s_axis.tkeep.val()) << 512)
            | (bit_cast::<WORD_BITS, 1>(self.s_axis.tlast.val().into()) << 576);
        self.ram.write_address.next = self.wr.q.val().get_bits::<DEPTH_BITS>(0);
        self.ram.write_data.next = self.word_in.val();
        self.ram.write_enable.next = self.take.val() & !self.dropping.q.val() & !self.full.val();
        if self.take.val() {
            if self.s_axis.tlast.val() {
                if self.dropping.q.val() | self.full.val() {
                    self.wr.d.next = self.start.q.val();
                    if self.s_drop_when_full.val() {
                        self.overflow.d.next = self.overflow.q.val() + 1;
                    } else {
                        self.too_long.d.next = self.too_long.q.val() + 1;
                    }
                } else if self.s_axis.tuser.val() {
                    self.wr.d.next = self.start.q.val();
                    self.bad.d.next = self.bad.q.val() + 1;
                } else {
                    self.wr.d.next = self.wr.q.val() + 1;
                    self.start.d.next = self.wr.q.val() + 1;
                    self.frames.d.next = self.frames.q.val() + 1;
                }
                self.dropping.d.next = false;
            } else if self.full.val() {
                self.dropping.d.next = true;
            } else if !self.dropping.q.val() {
                self.wr.d.next = self.wr.q.val() + 1;
            }
        }
        // `start` crosses by the handshake, a round trip at a time.
        self.publish.s_clock.next = self.s_clock.val();
        self.publish.s_reset.next = self.s_reset.val();
        self.publish.s_data.next = self.start.q.val();
        self.stat_frames.next = self.frames.q.val();
        self.stat_bad.next = self.bad.q.val();
        self.stat_overflow.next = self.overflow.q.val();
        self.stat_too_long.next = self.too_long.q.val();
        if self.s_reset.val() {
            self.wr.d.next = 0.into();
            self.start.d.next = 0.into();
            self.rsync0.d.next = 0.into();
            self.rsync1.d.next = 0.into();
            self.dropping.d.next = false;
            self.frames.d.next = 0.into();
            self.bad.d.next = 0.into();
            self.overflow.d.next = 0.into();
            self.too_long.d.next = 0.into();
        }

        // ---- m side (m_clock).
        dff_setup!(self, m_clock, rd, rd_gray, inflight, count, head, tail);
        self.ram.read_clock.next = self.m_clock.val();
        self.publish.m_clock.next = self.m_clock.val();
        self.publish.m_reset.next = self.m_reset.val();
        self.m_axis.tvalid.next = self.count.q.val() != 0;
        self.m_axis.tdata.next = self.head.q.val().get_bits::<512>(0);
        self.m_axis.tkeep.next = self.head.q.val().get_bits::<64>(512);
        self.m_axis.tlast.next = self.head.q.val().get_bit(576);
        self.m_axis.tuser.next = false;
        self.pop.next = (self.count.q.val() != 0) & self.m_axis.tready.val();
        self.after.next = self.count.q.val();
        if self.pop.val() {
            self.after.next = self.count.q.val() - 1;
        }
        // Read a committed beat when the buffer has room for it when it arrives: the beats
        // kept after this cycle's pop plus the one on its way must be fewer than 2.
        self.issue.next = (self.rd.q.val() != self.publish.m_data.val())
            & ((self.after.val() == 0) | ((self.after.val() == 1) & !self.inflight.q.val()));
        self.ram.read_address.next = self.rd.q.val().get_bits::<DEPTH_BITS>(0);
        if self.issue.val() {
            self.rd.d.next = self.rd.q.val() + 1;
        }
        self.inflight.d.next = self.issue.val();
        self.rd_gray.d.next = self.rd.q.val() ^ (self.rd.q.val() >> 1);
        if self.pop.val() & (self.count.q.val() == 2) {
            self.head.d.next = self.tail.q.val();
        }
        self.count.d.next = self.after.val();
        if self.inflight.q.val() {
            if self.after.val() == 0 {
                self.head.d.next = self.ram.read_data.val();
            } else {
                self.tail.d.next = self.ram.read_data.val();
            }
            self.count.d.next = self.after.val() + 1;
        }
        if self.m_reset.val() {
            self.rd.d.next = 0.into();
            self.rd_gray.d.next = 0.into();
            self.inflight.d.next = false;
            self.count.d.next = 0.into();
        }
    }
}

// The frame model's depth is this one (the code above writes it as 256: the generator writes
// a named constant in an expression as its name).
const _: () = assert!(DEPTH == sim::cdc_frame_fifo::DEPTH && DEPTH == 256);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdc_frame_fifo_is_checked_and_generates() {
        let mut uut = CdcFrameFifo::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        let v = generate_verilog(&uut);
        assert!(v.contains("module top"), "{v}");
    }
}
