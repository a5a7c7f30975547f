//! mac_shim against its frame model (`sim::mac_shim::pad`, `sim::cdc_frame_fifo::Tally`),
//! with its three clocks toggled apart: the core's `clock` at 250 MHz, the CMAC's `tx_clock`
//! and `rx_clock` near 322.266 MHz at phases (and, for rx, a drift) the seed picks.
//!
//! The core sends random frames (1 byte to past the FIFO's depth, bad ones, gaps) to a CMAC
//! that holds tready low at random; the CMAC receives random frames (runts marked bad, bad
//! ones, gaps inside frames, never waiting) for a core whose tready comes and goes in phases
//! slow enough to fill the receive FIFO. Checked: the CMAC gets every good frame from the core,
//! padded to 60 bytes, whole, in order and without a gap inside it; the core gets the CMAC's
//! frames whole and in order, never one marked bad; the six counters, read on `clock`, equal
//! the model's at the end and the receive ones never go back while running.

use super::frames::{self, offered, EdgeClock, FrameSink, FrameSource, CMAC_PS, CORE_PS};
use super::{Outcome, Scenario};
use crate::verilated::models::MacShim as Rtl;
use crate::verilated::Model;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cdc_frame_fifo::{Stats, Tally, DEPTH};
use sim::mac_shim::pad;
use std::path::Path;
use std::time::Instant;

/// Core cycles per phase of the receive sink's readiness (slow, then always ready).
const RX_PHASE: u64 = 4000;

fn rx_stats(d: &Rtl) -> Stats {
    Stats { frames: d.stat_rx_frames(), bad: d.stat_rx_bad(), overflow: d.stat_rx_overflow(), too_long: 0 }
}

/// Runs one seed for about `cycles` core cycles of traffic, then drains both directions.
pub fn random(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    // 0: core, 1: CMAC TX, 2: CMAC RX (a picosecond slower on odd seeds: its phase drifts).
    let mut clk = [
        EdgeClock::new(CORE_PS, 0),
        EdgeClock::new(CMAC_PS, rng.gen_range(0..CMAC_PS)),
        EdgeClock::new(CMAC_PS + (seed & 1), rng.gen_range(0..CMAC_PS)),
    ];
    let mut n = [0u64; 3];
    const RESET_CYCLES: u64 = 4;
    let mut running = false;
    d.set_reset(1);
    d.set_tx_reset(1);
    d.set_rx_reset(1);

    let (mut core_src, mut cmac_sink) = (FrameSource::default(), FrameSink::default());
    let (mut cmac_src, mut core_sink) = (FrameSource::default(), FrameSink::default());
    let (mut tx, mut rx) = (Tally::new(false), Tally::new(true));
    let mut stop = false;
    let mut idle = 0u64;
    let mut last_rx = Stats::default();
    let mut settle = None;
    loop {
        let t = clk.iter().map(EdgeClock::next).min().unwrap();
        let e = [clk[0].take(t), clk[1].take(t), clk[2].take(t)];
        let rise = e.map(|x| x == Some(true));
        d.eval();
        // The handshakes of this edge, as inputs and outputs stand before it.
        if rise[0] && running {
            if core_src.valid && d.s_axis_tx_tready() == 1 {
                if let Some(f) = core_src.taken() {
                    tx.written(pad(&f));
                }
            }
            let (valid, b, user) = offered(&d, &Rtl::M_AXIS_RX);
            if valid && user {
                o.fail(format!("core cycle {}: m_axis_rx_tuser high", n[0]));
            }
            let (fault, done) = core_sink.edge(valid, b);
            if let Some(e) = fault {
                o.fail(format!("core cycle {}: m_axis_rx: {e}", n[0]));
            }
            if let Some(f) = done {
                if let Err(e) = rx.read(&f) {
                    o.fail(format!("core cycle {}: receive: {e}", n[0]));
                }
                o.transactions += 1;
            }
            let now = rx_stats(&d);
            if now.frames < last_rx.frames || now.bad < last_rx.bad || now.overflow < last_rx.overflow {
                o.fail(format!("core cycle {}: a receive counter went back: {now:?} after {last_rx:?}", n[0]));
            }
            last_rx = now;
        }
        if rise[1] && running {
            let (valid, b, user) = offered(&d, &Rtl::M_AXIS_CMAC_TX);
            if valid && user {
                o.fail(format!("tx cycle {}: m_axis_cmac_tx_tuser high", n[1]));
            }
            let (fault, done) = cmac_sink.edge(valid, b);
            if let Some(e) = fault {
                o.fail(format!("tx cycle {}: m_axis_cmac_tx: {e}", n[1]));
            }
            if let Some(f) = done {
                if let Err(e) = tx.read(&f) {
                    o.fail(format!("tx cycle {}: transmit: {e}", n[1]));
                }
                o.transactions += 1;
            }
        }
        if rise[2] && running && cmac_src.valid {
            if d.s_axis_cmac_rx_tready() != 1 {
                o.fail(format!("rx cycle {}: s_axis_cmac_rx_tready low (the CMAC cannot wait)", n[2]));
            }
            if let Some(f) = cmac_src.taken() {
                rx.written(f);
            }
        }
        // The edges.
        if let Some(l) = e[0] {
            d.set_clock(l as u8);
        }
        if let Some(l) = e[1] {
            d.set_tx_clock(l as u8);
        }
        if let Some(l) = e[2] {
            d.set_rx_clock(l as u8);
        }
        d.eval_at(t);
        if let Some(f) = d.fatal() {
            o.fail(format!("Verilator: {f}"));
            break;
        }
        for k in 0..3 {
            n[k] += rise[k] as u64;
        }
        // All three resets held until each clock has had RESET_CYCLES rising edges.
        if !running && n.iter().all(|&c| c >= RESET_CYCLES) {
            running = true;
            d.set_reset(0);
            d.set_tx_reset(0);
            d.set_rx_reset(0);
        }
        // Inputs for the cycle after each rising edge.
        if rise[0] {
            stop |= n[0] >= cycles;
            if core_src.idle() && !stop && running {
                let len = if rng.gen_bool(0.005) {
                    rng.gen_range(DEPTH * 64 + 1..=DEPTH * 64 + 200)
                } else if rng.gen_bool(0.4) {
                    rng.gen_range(1..=130)
                } else {
                    rng.gen_range(1..=4200)
                };
                let bad = rng.gen_bool(0.05);
                core_src.load(frames::random_frame(&mut rng, len, bad));
            }
            core_src.valid = !core_src.idle() && !rng.gen_bool(0.2);
            core_src.drive(&mut d, &Rtl::S_AXIS_TX);
            // Slow phases fill the receive FIFO; fast ones drain it.
            let slow = (n[0] / RX_PHASE) % 2 == 0 && !stop;
            core_sink.ready = !slow || rng.gen_bool(0.3);
            d.set_m_axis_rx_tready(core_sink.ready as u8);
        }
        if rise[1] {
            cmac_sink.ready = stop || rng.gen_bool(0.8);
            d.set_m_axis_cmac_tx_tready(cmac_sink.ready as u8);
        }
        if rise[2] {
            if cmac_src.idle() && !stop && running {
                let (len, bad) = if rng.gen_bool(0.02) {
                    (rng.gen_range(1..60), true)
                } else {
                    (rng.gen_range(60..=4200), rng.gen_bool(0.05))
                };
                cmac_src.load(frames::random_frame(&mut rng, len, bad));
            }
            cmac_src.valid = !cmac_src.idle() && !rng.gen_bool(0.1);
            cmac_src.drive(&mut d, &Rtl::S_AXIS_CMAC_RX);
        }
        // Drained: no frame offered or in flight on either side for a while; then time for
        // the receive counters to cross.
        if rise[0] {
            let quiet = stop
                && core_src.idle()
                && cmac_src.idle()
                && !cmac_sink.in_frame()
                && !core_sink.in_frame()
                && d.m_axis_cmac_tx_tvalid() == 0
                && d.m_axis_rx_tvalid() == 0;
            idle = if quiet { idle + 1 } else { 0 };
            if idle > 64 && settle.is_none() {
                settle = Some(n[0] + 32);
            }
            if settle.is_some_and(|s| n[0] >= s) {
                break;
            }
            if n[0] > 20 * cycles + 100_000 {
                o.fail(format!("no drain after {} core cycles", n[0]));
                break;
            }
        }
    }
    let tx_rtl = Stats { frames: d.stat_tx_frames(), bad: d.stat_tx_bad(), overflow: 0, too_long: d.stat_tx_too_long() };
    if let Err(e) = tx.finish(tx_rtl) {
        o.fail(format!("transmit: {e}"));
    }
    let rx_rtl = rx_stats(&d);
    if let Err(e) = rx.finish(rx_rtl) {
        o.fail(format!("receive: {e}"));
    }
    o.cycles = n[0];
    o.metric("tx_frames", tx_rtl.frames as f64);
    o.metric("tx_bad", tx_rtl.bad as f64);
    o.metric("tx_too_long", tx_rtl.too_long as f64);
    o.metric("rx_frames", rx_rtl.frames as f64);
    o.metric("rx_bad", rx_rtl.bad as f64);
    o.metric("rx_overflow", rx_rtl.overflow as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
