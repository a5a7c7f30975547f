//! The MAC shim (draft-00 figure 4, "MAC shim"; issue 16, item 1): between the core's 250 MHz
//! frame streams (`hpcc_nic_core`'s `m_axis_tx` and `s_axis_rx`) and the UltraScale+ 100G
//! CMAC's 512-bit AXI-Stream user interface on its 322.266 MHz clocks.
//!
//! ```text
//! clock (core)                         tx_clock (CMAC TX)
//! s_axis_tx -> pad to 60 -> tx_fifo (cdc_frame_fifo, waiting) -> m_axis_cmac_tx
//!
//! rx_clock (CMAC RX)                   clock (core)
//! s_axis_cmac_rx -> rx_fifo (cdc_frame_fifo, dropping) -> m_axis_rx
//!                   its counters -> rx_stats (cdc_word) -> stat_rx_*
//! ```
//!
//! * Transmit: a frame of one beat with fewer than 60 bytes is padded with zero bytes to 60
//!   (the CMAC adds the FCS: 64 on the wire). The FIFO is store and forward, so the CMAC gets
//!   every frame without a gap (`m_axis_cmac_tx_tvalid` held from its first beat to its
//!   last). A frame the core marks bad (`s_axis_tx_tuser`) is dropped and counted.
//! * Receive: the CMAC cannot wait (it has no tready): a frame it marks bad in tuser (FCS
//!   error, ...) is dropped and counted, and so is a frame that finds the FIFO full. The core
//!   sees only good frames (`m_axis_rx_tuser` is 0).
//! * Counters, all on `clock`: the transmit FIFO's own (its write side is on `clock`), the
//!   receive FIFO's carried from `rx_clock` by `cdc_word` (a round trip behind).
//!
//! tkeep must be contiguous from lane 0 (the core's frames are); the padding keeps the lanes
//! below the frame's length and zeroes the rest.

use super::cdc_frame_fifo::CdcFrameFifo;
use super::cdc_word::CdcWord;
use crate::prim::axis::{AxisFramesIn, AxisFramesOut};
use rust_hdl::prelude::*;
use sim::mac_shim::MIN_FRAME;

/// tkeep of a padded frame: lanes 0..59 (`sim::mac_shim::MIN_FRAME`, the Ethernet minimum
/// without FCS). Written by name in the Verilog (`export_fold::CONSTANTS`).
pub const PAD_KEEP: u64 = (1 << MIN_FRAME) - 1;
// A frame shorter than the minimum does not keep lane 59 (the generator writes a named
// constant in an index as its name, so the code has the number).
const _: () = assert!(MIN_FRAME - 1 == 59);
/// The named constants, for the export.
pub const PAD_CONSTANTS: &[(&str, u64)] = &[("PAD_KEEP", PAD_KEEP)];

/// The MAC shim.
#[derive(LogicBlock, Default)]
pub struct MacShim {
    /// The core's clock (250 MHz).
    pub clock: Signal<In, Clock>,
    /// Synchronous reset on `clock` (with `tx_reset` and `rx_reset`: see the doc).
    pub reset: Signal<In, bool>,
    /// Frames from the core (its `m_axis_tx`).
    pub s_axis_tx: AxisFramesIn,
    /// Frames to the core (its `s_axis_rx`); tuser is always 0 (the FIFO drops bad frames).
    pub m_axis_rx: AxisFramesOut,
    /// The CMAC's TX user clock (322.266 MHz at 100G).
    pub tx_clock: Signal<In, Clock>,
    /// Synchronous reset on `tx_clock`.
    pub tx_reset: Signal<In, bool>,
    /// To the CMAC's `tx_axis_*`; tuser (the CMAC's "corrupt the FCS") is always 0.
    pub m_axis_cmac_tx: AxisFramesOut,
    /// The CMAC's RX user clock.
    pub rx_clock: Signal<In, Clock>,
    /// Synchronous reset on `rx_clock`.
    pub rx_reset: Signal<In, bool>,
    /// From the CMAC's `rx_axis_*` (tuser: bad frame, on its last beat). tready is always
    /// high: the CMAC has none, leave it unconnected.
    pub s_axis_cmac_rx: AxisFramesIn,
    /// Frames handed to the CMAC (on `clock`, counted when taken whole).
    pub stat_tx_frames: Signal<Out, Bits<32>>,
    /// Frames from the core dropped as bad.
    pub stat_tx_bad: Signal<Out, Bits<32>>,
    /// Frames from the core dropped as longer than the FIFO (255 beats and more).
    pub stat_tx_too_long: Signal<Out, Bits<32>>,
    /// Frames from the CMAC kept for the core (on `clock`, a round trip behind `rx_clock`).
    pub stat_rx_frames: Signal<Out, Bits<32>>,
    /// Frames from the CMAC dropped as bad (tuser).
    pub stat_rx_bad: Signal<Out, Bits<32>>,
    /// Frames from the CMAC dropped on a full FIFO.
    pub stat_rx_overflow: Signal<Out, Bits<32>>,
    tx_fifo: CdcFrameFifo,
    rx_fifo: CdcFrameFifo,
    rx_stats: CdcWord<96>,
    /// The transmit stream is inside a frame (its first beat taken).
    in_frame: DFF<bool>,
    /// The beat is a whole frame of fewer than 60 bytes.
    short: Signal<Local, bool>,
    /// tkeep widened to a bit mask.
    keep_mask: Signal<Local, Bits<512>>,
}

impl Logic for MacShim {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, in_frame);

        // ---- Transmit: pad, then into the crossing.
        self.tx_fifo.s_clock.next = self.clock.val();
        self.tx_fifo.s_reset.next = self.reset.val();
        self.tx_fifo.s_drop_when_full.next = false;
        self.short.next = !self.in_frame.q.val() & self.s_axis_tx.tlast.val() & !self.s_axis_tx.tkeep.val().get_bit(59);
        self.keep_mask.next = 0.into();
        for i in 0..64 {
            if self.s_axis_tx.tkeep.val().get_bit(i) {
                self.keep_mask.next = self.keep_mask.val() | (bit_cast::<512, 8>(255.into()) << (8 * i).to_bits::<9>());
            }
        }
        self.tx_fifo.s_axis.tdata.next = self.s_axis_tx.tdata.val();
        self.tx_fifo.s_axis.tkeep.next = self.s_axis_tx.tkeep.val();
        if self.short.val() {
            self.tx_fifo.s_axis.tdata.next = self.s_axis_tx.tdata.val() & self.keep_mask.val();
            self.tx_fifo.s_axis.tkeep.next = self.s_axis_tx.tkeep.val() | PAD_KEEP;
        }
        self.tx_fifo.s_axis.tvalid.next = self.s_axis_tx.tvalid.val();
        self.tx_fifo.s_axis.tlast.next = self.s_axis_tx.tlast.val();
        self.tx_fifo.s_axis.tuser.next = self.s_axis_tx.tuser.val();
        self.s_axis_tx.tready.next = self.tx_fifo.s_axis.tready.val();
        if self.s_axis_tx.tvalid.val() & self.tx_fifo.s_axis.tready.val() {
            self.in_frame.d.next = !self.s_axis_tx.tlast.val();
        }
        if self.reset.val() {
            self.in_frame.d.next = false;
        }
        self.stat_tx_frames.next = self.tx_fifo.stat_frames.val();
        self.stat_tx_bad.next = self.tx_fifo.stat_bad.val();
        self.stat_tx_too_long.next = self.tx_fifo.stat_too_long.val();

        self.tx_fifo.m_clock.next = self.tx_clock.val();
        self.tx_fifo.m_reset.next = self.tx_reset.val();
        self.m_axis_cmac_tx.tdata.next = self.tx_fifo.m_axis.tdata.val();
        self.m_axis_cmac_tx.tkeep.next = self.tx_fifo.m_axis.tkeep.val();
        self.m_axis_cmac_tx.tvalid.next = self.tx_fifo.m_axis.tvalid.val();
        self.m_axis_cmac_tx.tlast.next = self.tx_fifo.m_axis.tlast.val();
        self.m_axis_cmac_tx.tuser.next = self.tx_fifo.m_axis.tuser.val();
        self.tx_fifo.m_axis.tready.next = self.m_axis_cmac_tx.tready.val();

        // ---- Receive: the crossing drops bad frames and frames that find it full.
        self.rx_fifo.s_clock.next = self.rx_clock.val();
        self.rx_fifo.s_reset.next = self.rx_reset.val();
        self.rx_fifo.s_drop_when_full.next = true;
        self.rx_fifo.s_axis.tdata.next = self.s_axis_cmac_rx.tdata.val();
        self.rx_fifo.s_axis.tkeep.next = self.s_axis_cmac_rx.tkeep.val();
        self.rx_fifo.s_axis.tvalid.next = self.s_axis_cmac_rx.tvalid.val();
        self.rx_fifo.s_axis.tlast.next = self.s_axis_cmac_rx.tlast.val();
        self.rx_fifo.s_axis.tuser.next = self.s_axis_cmac_rx.tuser.val();
        self.s_axis_cmac_rx.tready.next = self.rx_fifo.s_axis.tready.val();

        self.rx_fifo.m_clock.next = self.clock.val();
        self.rx_fifo.m_reset.next = self.reset.val();
        self.m_axis_rx.tdata.next = self.rx_fifo.m_axis.tdata.val();
        self.m_axis_rx.tkeep.next = self.rx_fifo.m_axis.tkeep.val();
        self.m_axis_rx.tvalid.next = self.rx_fifo.m_axis.tvalid.val();
        self.m_axis_rx.tlast.next = self.rx_fifo.m_axis.tlast.val();
        self.m_axis_rx.tuser.next = self.rx_fifo.m_axis.tuser.val();
        self.rx_fifo.m_axis.tready.next = self.m_axis_rx.tready.val();

        // ---- The receive counters to `clock` (too_long cannot happen while dropping).
        self.rx_stats.s_clock.next = self.rx_clock.val();
        self.rx_stats.s_reset.next = self.rx_reset.val();
        self.rx_stats.s_data.next = bit_cast::<96, 32>(self.rx_fifo.stat_frames.val())
            | (bit_cast::<96, 32>(self.rx_fifo.stat_bad.val()) << 32)
            | (bit_cast::<96, 32>(self.rx_fifo.stat_overflow.val()) << 64);
        self.rx_stats.m_clock.next = self.clock.val();
        self.rx_stats.m_reset.next = self.reset.val();
        self.stat_rx_frames.next = self.rx_stats.m_data.val().get_bits::<32>(0);
        self.stat_rx_bad.next = self.rx_stats.m_data.val().get_bits::<32>(32);
        self.stat_rx_overflow.next = self.rx_stats.m_data.val().get_bits::<32>(64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mac_shim_is_checked_and_generates() {
        let mut uut = MacShim::default();
        uut.connect_all();
        check_all(&uut).unwrap();
        assert!(generate_verilog(&uut).contains("module top"));
    }
}
