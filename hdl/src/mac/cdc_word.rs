//! A word carried from one clock domain to another by a toggle handshake (the multi-cycle-path
//! formulation: Cummings, "Clock Domain Crossing (CDC) Design & Verification Techniques Using
//! SystemVerilog", SNUG 2008). For a value that may change by more than one step at a time
//! (a pointer that jumps a frame, a set of counters), where Gray code cannot be used.
//!
//! The s side loads `hold` from `s_data` in the cycle it toggles `req`, then holds it until the
//! m side's `ack`, through two flip-flops, equals `req` again; the m side copies `hold` into
//! `m_data` on the cycle its two-flip-flop copy of `req` differs from `ack`, and toggles `ack`.
//! By then `hold` has been still for at least one `m_clock` period, so every bit is sampled
//! settled. Then the s side loads again: `m_data` follows `s_data` a round trip at a time
//! (2-3 cycles of each clock), and shows only values `s_data` had.
//!
//! Every signal that crosses (`hold`, `req`, `ack`) comes from a register. rust-hdl's
//! `SyncSender` is not used: its `flag_out` is combinational. Constraints: `ASYNC_REG` on
//! `req_m0`/`req_m1` and `ack_s0`/`ack_s1`, and a `-datapath_only` max delay of one period on
//! `hold` -> `m_data`, `req` -> `req_m0`, `ack` -> `ack_s0` (docs/modules/cdc_frame_fifo.md).
//!
//! Resets: `s_reset` and `m_reset` together, held until each clock has had 3 rising edges.

use rust_hdl::prelude::*;

/// A `W`-bit word from `s_clock` to `m_clock`.
#[derive(LogicBlock, Default)]
pub struct CdcWord<const W: usize> {
    /// Source clock.
    pub s_clock: Signal<In, Clock>,
    /// Source side synchronous reset.
    pub s_reset: Signal<In, bool>,
    /// The word, on `s_clock`.
    pub s_data: Signal<In, Bits<W>>,
    /// Destination clock.
    pub m_clock: Signal<In, Clock>,
    /// Destination side synchronous reset.
    pub m_reset: Signal<In, bool>,
    /// The word as last carried across, on `m_clock` (a register; 0 after reset).
    pub m_data: Signal<Out, Bits<W>>,
    // s side.
    hold: DFF<Bits<W>>,
    req: DFF<bool>,
    ack_s0: DFF<bool>,
    ack_s1: DFF<bool>,
    // m side.
    req_m0: DFF<bool>,
    req_m1: DFF<bool>,
    ack: DFF<bool>,
    data: DFF<Bits<W>>,
}

impl<const W: usize> Logic for CdcWord<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, s_clock, hold, req, ack_s0, ack_s1);
        self.ack_s0.d.next = self.ack.q.val();
        self.ack_s1.d.next = self.ack_s0.q.val();
        if self.ack_s1.q.val() == self.req.q.val() {
            self.hold.d.next = self.s_data.val();
            self.req.d.next = !self.req.q.val();
        }
        if self.s_reset.val() {
            self.hold.d.next = 0.into();
            self.req.d.next = false;
            self.ack_s0.d.next = false;
            self.ack_s1.d.next = false;
        }

        dff_setup!(self, m_clock, req_m0, req_m1, ack, data);
        self.req_m0.d.next = self.req.q.val();
        self.req_m1.d.next = self.req_m0.q.val();
        if self.req_m1.q.val() != self.ack.q.val() {
            self.data.d.next = self.hold.q.val();
            self.ack.d.next = self.req_m1.q.val();
        }
        self.m_data.next = self.data.q.val();
        if self.m_reset.val() {
            self.req_m0.d.next = false;
            self.req_m1.d.next = false;
            self.ack.d.next = false;
            self.data.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdc_word_is_checked_and_generates() {
        let mut uut = CdcWord::<9>::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        assert!(generate_verilog(&uut).contains("module top"));
    }
}
