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
//!   mix, even a pointer past what is written. It crosses by a toggle handshake instead (the
//!   multi-cycle-path formulation, Cummings, "Clock Domain Crossing (CDC) Design &
//!   Verification Techniques Using SystemVerilog", SNUG 2008): the s side loads `pub_ptr`
//!   from `start` and toggles `req` in the same cycle, then holds `pub_ptr` until the m side's
//!   `ack` comes back equal to `req`; the m side takes `pub_ptr` into `ws` on the cycle its
//!   two-flip-flop copy of `req` differs from `ack`, and toggles `ack`. By then `pub_ptr` has
//!   been still for at least one `m_clock` period, so every bit is sampled settled. Several
//!   frames committed during one handshake are published by the next at once.
//!
//! rust-hdl's `AsynchronousFIFO` is not used: it has no commit or rollback. Nor is its
//! `SyncSender` for the handshake: its `flag_out` is a combinational output (it rises in the
//! cycle `send` does), and a signal that crosses a clock domain must come from a register.
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
//! s side   wr, start (binary, 9 bits); pub_ptr, req; ack through ack_s0 -> ack_s1;
//!          rd_gray through rsync0 -> rsync1
//! m side   rd (binary); rd_gray; req through req_m0 -> req_m1; ack; ws (pub_ptr taken);
//!          RAM read (1 cycle) -> a 2-beat output buffer (head, tail) -> m_axis
//! ```
//!
//! Resets: `s_reset` (on `s_clock`) and `m_reset` (on `m_clock`) must be asserted together
//! and both held until each clock has had at least 3 rising edges (3 cycles of the slower
//! clock), so that each side's synchronizers have sampled the other side's reset values; the
//! FIFO is then empty. A reset of one side alone leaves the pointers disagreeing.

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
    /// Write beat, lane 0 first.
    pub s_axis_tdata: Signal<In, Bits<512>>,
    /// Valid bytes of the beat (stored and given back as they are).
    pub s_axis_tkeep: Signal<In, Bits<64>>,
    /// A beat is offered.
    pub s_axis_tvalid: Signal<In, bool>,
    /// The FIFO takes it: low while full and waiting (`s_drop_when_full` low).
    pub s_axis_tready: Signal<Out, bool>,
    /// Last beat of a frame.
    pub s_axis_tlast: Signal<In, bool>,
    /// Bad frame, read on the last beat: the frame is dropped and counted.
    pub s_axis_tuser: Signal<In, bool>,
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
    /// Read beat.
    pub m_axis_tdata: Signal<Out, Bits<512>>,
    /// Its valid bytes.
    pub m_axis_tkeep: Signal<Out, Bits<64>>,
    /// A beat is offered; once high on a frame's first beat, high on every cycle to its last.
    pub m_axis_tvalid: Signal<Out, bool>,
    /// The sink takes it.
    pub m_axis_tready: Signal<In, bool>,
    /// Last beat of a frame.
    pub m_axis_tlast: Signal<Out, bool>,
    ram: RAM<Bits<WORD_BITS>, DEPTH_BITS>,
    // s side.
    wr: DFF<Bits<P>>,
    start: DFF<Bits<P>>,
    /// `start` as published to the m side, held while a handshake is under way.
    pub_ptr: DFF<Bits<P>>,
    /// Toggled when `pub_ptr` is loaded.
    req: DFF<bool>,
    ack_s0: DFF<bool>,
    ack_s1: DFF<bool>,
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
    req_m0: DFF<bool>,
    req_m1: DFF<bool>,
    /// Toggled when `pub_ptr` is taken; crosses back to the s side.
    ack: DFF<bool>,
    /// The committed pointer on the m side: beats before it are whole frames in the RAM.
    ws: DFF<Bits<P>>,
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
        dff_setup!(self, s_clock, wr, start, pub_ptr, req, ack_s0, ack_s1, rsync0, rsync1, dropping, frames, bad, overflow, too_long);
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
        self.s_axis_tready.next = self.s_drop_when_full.val() | self.dropping.q.val() | !self.full.val() | self.long.val();
        self.take.next = self.s_axis_tvalid.val() & self.s_axis_tready.val();
        self.word_in.next = bit_cast::<WORD_BITS, 512>(self.s_axis_tdata.val())
            | (bit_cast::<WORD_BITS, 64>(self.s_axis_tkeep.val()) << 512)
            | (bit_cast::<WORD_BITS, 1>(self.s_axis_tlast.val().into()) << 576);
        self.ram.write_address.next = self.wr.q.val().get_bits::<DEPTH_BITS>(0);
        self.ram.write_data.next = self.word_in.val();
        self.ram.write_enable.next = self.take.val() & !self.dropping.q.val() & !self.full.val();
        if self.take.val() {
            if self.s_axis_tlast.val() {
                if self.dropping.q.val() | self.full.val() {
                    self.wr.d.next = self.start.q.val();
                    if self.s_drop_when_full.val() {
                        self.overflow.d.next = self.overflow.q.val() + 1;
                    } else {
                        self.too_long.d.next = self.too_long.q.val() + 1;
                    }
                } else if self.s_axis_tuser.val() {
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
        // Publish `start` when the last handshake is done (the m side's ack equals req) and
        // it has moved: pub_ptr and req both from registers, pub_ptr then still until ack.
        self.ack_s0.d.next = self.ack.q.val();
        self.ack_s1.d.next = self.ack_s0.q.val();
        if (self.ack_s1.q.val() == self.req.q.val()) & (self.start.q.val() != self.pub_ptr.q.val()) {
            self.pub_ptr.d.next = self.start.q.val();
            self.req.d.next = !self.req.q.val();
        }
        self.stat_frames.next = self.frames.q.val();
        self.stat_bad.next = self.bad.q.val();
        self.stat_overflow.next = self.overflow.q.val();
        self.stat_too_long.next = self.too_long.q.val();
        if self.s_reset.val() {
            self.wr.d.next = 0.into();
            self.start.d.next = 0.into();
            self.pub_ptr.d.next = 0.into();
            self.req.d.next = false;
            self.ack_s0.d.next = false;
            self.ack_s1.d.next = false;
            self.rsync0.d.next = 0.into();
            self.rsync1.d.next = 0.into();
            self.dropping.d.next = false;
            self.frames.d.next = 0.into();
            self.bad.d.next = 0.into();
            self.overflow.d.next = 0.into();
            self.too_long.d.next = 0.into();
        }

        // ---- m side (m_clock).
        dff_setup!(self, m_clock, rd, rd_gray, req_m0, req_m1, ack, ws, inflight, count, head, tail);
        self.ram.read_clock.next = self.m_clock.val();
        // The handshake's far end: a new req (its copy differs from ack) means pub_ptr is
        // settled; take it and answer.
        self.req_m0.d.next = self.req.q.val();
        self.req_m1.d.next = self.req_m0.q.val();
        if self.req_m1.q.val() != self.ack.q.val() {
            self.ws.d.next = self.pub_ptr.q.val();
            self.ack.d.next = self.req_m1.q.val();
        }
        self.m_axis_tvalid.next = self.count.q.val() != 0;
        self.m_axis_tdata.next = self.head.q.val().get_bits::<512>(0);
        self.m_axis_tkeep.next = self.head.q.val().get_bits::<64>(512);
        self.m_axis_tlast.next = self.head.q.val().get_bit(576);
        self.pop.next = (self.count.q.val() != 0) & self.m_axis_tready.val();
        self.after.next = self.count.q.val();
        if self.pop.val() {
            self.after.next = self.count.q.val() - 1;
        }
        // Read a committed beat when the buffer has room for it when it arrives: the beats
        // kept after this cycle's pop plus the one on its way must be fewer than 2.
        self.issue.next = (self.rd.q.val() != self.ws.q.val())
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
            self.req_m0.d.next = false;
            self.req_m1.d.next = false;
            self.ack.d.next = false;
            self.ws.d.next = 0.into();
            self.inflight.d.next = false;
            self.count.d.next = 0.into();
        }
    }
}

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
