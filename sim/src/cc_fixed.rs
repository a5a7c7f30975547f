//! The CC module's fixed point, shared by its engines' golden models (`crate::cc_hpcc`: HPCC++
//! sender and Rx-HPCC, `crate::cc_ldcp`, `crate::cc_dcqcn`; same names as the RTL's blocks),
//! which are bit-exact with the RTL built from them.
//!
//! docs/fixed-point.md is the specification; this code is its executable form. The rules that
//! shape every line:
//!
//! * One event per clock. Every operation is an add, compare, shift, a multiply that fits the
//!   DSP slices, or a division. A division by a *configuration* value is a multiply by a
//!   reciprocal that the host computes once (`*Config::new`, with `recip`); a division by a
//!   *state or packet* value is [`div_floor`], which the RTL implements as a pipelined
//!   restoring divider (one quotient bit per stage), so the quotient is exactly `floor(a / b)`.
//! * No loops over packets, hops or timer expiries that hardware could not unroll: loops in
//!   the float references become closed forms (LDCP) or one step per event (DCQCN timers).
//! * Every result saturates at its width; nothing wraps except the counters that are defined
//!   to wrap (telemetry ts / txBytes, PSN).
//! * Rates leave the module as UQ16.16 bytes per clock cycle, the format the flow scheduler
//!   takes (docs/modules/flow_sched.md); windows as bytes.
//!
//! The float references in `crate::cc_float` are what these models are measured against
//! (sim/tests/cc_fixed.rs states and enforces the error bounds).

/// Clock of the CC module and the flow scheduler: rates are bytes per cycle of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Clock frequency, MHz. Default 250.
    pub mhz: f64,
}

impl Default for Clock {
    fn default() -> Self {
        Clock { mhz: 250.0 }
    }
}

impl Clock {
    /// Cycle time, ns.
    pub fn cycle_ns(&self) -> f64 {
        1e3 / self.mhz
    }

    /// A rate in UQ16.16 bytes/cycle as bits/s.
    pub fn q16_to_bps(&self, rate_q16: u32) -> f64 {
        rate_q16 as f64 / 65536.0 * 8.0 * self.mhz * 1e6
    }

    /// A rate in bits/s as UQ16.16 bytes/cycle, rounded, saturated.
    pub fn bps_to_q16(&self, bps: f64) -> u32 {
        sat_u32((bps / 8.0 / (self.mhz * 1e6) * 65536.0).round())
    }
}

/// `floor(num / den)` saturated to `max`; `den == 0` gives `max` (the limit of a positive
/// numerator over a vanishing divisor). This is the pipelined divider's contract.
pub fn div_floor(num: u64, den: u64, max: u64) -> u64 {
    if den == 0 {
        max
    } else {
        (num / den).min(max)
    }
}

/// `ceil(num / den)` saturated to `max`; `den == 0` gives `max`.
pub fn div_ceil(num: u64, den: u64, max: u64) -> u64 {
    if den == 0 {
        max
    } else {
        num.div_ceil(den).min(max)
    }
}

/// Host-side reciprocal for a configuration register: `round(2^shift / x)` saturated to u32;
/// 0 when `x` is not a finite positive number (the RTL then treats the entry as unusable).
pub fn recip(x: f64, shift: i32) -> u32 {
    if !(x.is_finite() && x > 0.0) {
        return 0;
    }
    sat_u32((2f64.powi(shift) / x).round())
}

/// Host-side conversion of a non-negative real to an unsigned fixed-point register.
pub fn to_fixed(x: f64, frac_bits: i32) -> u32 {
    sat_u32((x * 2f64.powi(frac_bits)).round())
}

/// Rounds and saturates to `[0, u32::MAX]`; NaN gives 0.
pub fn sat_u32(x: f64) -> u32 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= u32::MAX as f64 {
        u32::MAX
    } else {
        x as u32
    }
}
