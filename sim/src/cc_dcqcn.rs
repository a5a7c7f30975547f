//! DCQCN reaction point in the fixed point of docs/fixed-point.md. Same algorithm, parameters
//! and edge choices as the float reference `crate::cc_float::dcqcn` (read its notes); what
//! hardware changes:
//!
//! * Rc, Rt, R_AI, R_HAI, the clamps: UQ16.24 bytes/cycle (40 bits); the flow scheduler gets
//!   Rc as UQ16.16 (`rate_q16`, the low 8 bits dropped). The 8 extra bits keep the rounding of
//!   R_AI (20 Mb/s = 0.01 B/cycle) from accumulating over hundreds of increase steps.
//! * alpha: UQ1.24 (1.0 = 2^24). g = 2^-g_shift, so `alpha (1 - g) + g` is a shift and an add.
//! * The alpha timer is lazy: no event is needed when it expires. The state keeps alpha as of
//!   the last CNP and that CNP's time; alpha at time `now` is alpha decayed
//!   `n = floor((now - last CNP) / K)` times, computed in closed form as a product of
//!   host-computed constants `(1 - g)^(2^i)` for the set bits of n (16 pipelined multiplies;
//!   n >= 2^16 gives 0). `floor(e / K)` is exact in the RTL (cc_dcqcn: a 17-bit-quotient
//!   div_pipe) for elapsed times below 2^32 ns; longer ones are clamped.
//! * The increase timer and the byte counter fire at most once per event: one increase step
//!   per timer event or tx event, the next expiry moved one period on. Hardware delivers a
//!   timer event per flow at least once per period (RP timer 300 us = 75k cycles at 250 MHz
//!   against at most 4096 flows to visit), so catching up one step per event only differs
//!   from the reference when a trace skips whole periods.

use crate::cc_fixed::{recip, to_fixed, Clock};

/// The block's stream words and its result for one event.
pub mod block;

/// Fraction bits of the internal rates.
pub const RATE_FRAC: u32 = 24;
use crate::cc_float::dcqcn::{DcqcnParams, IncreaseStage};

/// alpha = 1.0 in UQ1.24.
pub const ALPHA_ONE: u32 = 1 << 24;
/// Decay steps in closed form: n >= 2^DECAY_BITS gives alpha = 0.
pub const DECAY_BITS: usize = 16;

/// Configuration registers computed by the host from `DcqcnParams` (`new`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DcqcnConfig {
    /// Rates in UQ16.24 bytes/cycle.
    pub line_q24: u64,
    pub min_q24: u64,
    pub ai_q24: u64,
    pub hai_q24: u64,
    /// g = 2^-g_shift.
    pub g_shift: u8,
    pub initial_alpha_q24: u32,
    /// K, ns.
    pub alpha_timer_ns: u32,
    /// `round((1 - g)^(2^i) x 2^24)`.
    pub decay: [u32; DECAY_BITS],
    pub min_cut_interval_ns: u32,
    pub rate_increase_timer_ns: u32,
    /// B, bytes; 0 disables the byte counter.
    pub byte_counter_bytes: u32,
    pub fast_recovery_times: u8,
    /// round(2^16 x RTT / cycle): window bytes = Rc_q24 x win_mul >> 40.
    pub win_mul: u32,
    pub clock: Clock,
}

impl DcqcnConfig {
    /// Registers for `p`. g is rounded to the nearest power of two in [2^-24, 1].
    pub fn new(p: &DcqcnParams, clock: Clock) -> Result<DcqcnConfig, String> {
        let fits = |v: u64| v > 0 && v < 1 << 32;
        if !fits(p.alpha_timer_ns) || !fits(p.rate_increase_timer_ns) {
            return Err(format!("DCQCN timers must be in (0, 2^32) ns: {p:?}"));
        }
        if p.min_cut_interval_ns >= 1 << 32 || p.byte_counter_bytes >= 1 << 32 {
            return Err(format!("cut interval and byte counter must be < 2^32: {p:?}"));
        }
        if !(p.g.is_finite() && p.g > 0.0 && p.g <= 1.0) || p.fast_recovery_times > 255 {
            return Err(format!("need 0 < g <= 1 and F <= 255: {p:?}"));
        }
        let g_shift = (-p.g.log2()).round().clamp(0.0, 24.0) as u8;
        let g = 2f64.powi(-(g_shift as i32));
        let mut decay = [0; DECAY_BITS];
        for (i, d) in decay.iter_mut().enumerate() {
            *d = to_fixed((1.0 - g).powf(2f64.powi(i as i32)), 24);
        }
        let q24 = |bps: f64| {
            let v = (bps / 8.0 / (clock.mhz * 1e6) * 2f64.powi(RATE_FRAC as i32)).round();
            if v.is_finite() && v > 0.0 {
                (v as u64).min((1 << 40) - 1)
            } else {
                0
            }
        };
        let line_q24 = q24(p.line_rate_bps);
        if line_q24 == 0 {
            return Err(format!("line rate must be > 0: {p:?}"));
        }
        Ok(DcqcnConfig {
            line_q24,
            min_q24: q24(p.min_rate_bps).min(line_q24),
            ai_q24: q24(p.rate_ai_bps),
            hai_q24: q24(p.rate_hai_bps),
            g_shift,
            initial_alpha_q24: to_fixed(p.initial_alpha.clamp(0.0, 1.0), 24),
            alpha_timer_ns: p.alpha_timer_ns as u32,
            decay,
            min_cut_interval_ns: p.min_cut_interval_ns as u32,
            rate_increase_timer_ns: p.rate_increase_timer_ns as u32,
            byte_counter_bytes: p.byte_counter_bytes as u32,
            fast_recovery_times: p.fast_recovery_times as u8,
            win_mul: recip(clock.cycle_ns() / p.base_rtt_ns as f64, 16),
            clock,
        })
    }
}

/// Per-flow state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DcqcnState {
    /// Rc and Rt, UQ16.24 bytes/cycle.
    pub rc_q24: u64,
    pub rt_q24: u64,
    /// alpha as of `last_cnp` (see [`alpha_at`]).
    pub alpha_q24: u32,
    pub now: u64,
    /// The first cut happened: timers run.
    pub active: bool,
    pub last_cut: u64,
    /// Time of the last CNP: the alpha timer's origin.
    pub last_cnp: u64,
    pub next_increase: u64,
    pub t_count: u32,
    pub bc_count: u32,
    /// Bytes since the last byte-counter expiry.
    pub bytes: u64,
    pub last_stage: Option<IncreaseStage>,
}

impl DcqcnState {
    pub fn new(c: &DcqcnConfig) -> DcqcnState {
        DcqcnState {
            rc_q24: c.line_q24,
            rt_q24: c.line_q24,
            alpha_q24: c.initial_alpha_q24,
            now: 0,
            active: false,
            last_cut: 0,
            last_cnp: 0,
            next_increase: u64::MAX,
            t_count: 0,
            bc_count: 0,
            bytes: 0,
            last_stage: None,
        }
    }
}

/// `alpha x (1 - g)^n`, each factor's product floored.
pub fn decay(c: &DcqcnConfig, alpha_q24: u32, n: u64) -> u32 {
    if n >= 1 << DECAY_BITS {
        return 0;
    }
    let mut a = alpha_q24 as u64;
    for (i, d) in c.decay.iter().enumerate() {
        if n >> i & 1 == 1 {
            a = (a * *d as u64) >> 24;
        }
    }
    a as u32
}

/// alpha at time `now` (the lazy alpha timer).
pub fn alpha_at(c: &DcqcnConfig, s: &DcqcnState, now: u64) -> u32 {
    if !s.active {
        return s.alpha_q24;
    }
    let elapsed = now.saturating_sub(s.last_cnp).min(u32::MAX as u64);
    decay(c, s.alpha_q24, elapsed / c.alpha_timer_ns as u64)
}

/// Rc as the flow scheduler takes it: UQ16.16 bytes/cycle.
pub fn rate_q16(s: &DcqcnState) -> u32 {
    (s.rc_q24 >> (RATE_FRAC - 16)) as u32
}

/// Window equivalent of the rate, bytes: Rc x base RTT.
pub fn window_bytes(c: &DcqcnConfig, s: &DcqcnState) -> u32 {
    ((s.rc_q24 as u128 * c.win_mul as u128) >> 40).min(u32::MAX as u128) as u32
}

fn monotonic(s: &mut DcqcnState, now_ns: u64) -> u64 {
    s.now = s.now.max(now_ns);
    s.now
}

fn clamp(c: &DcqcnConfig, r: u64) -> u64 {
    r.clamp(c.min_q24, c.line_q24)
}

/// A CNP at `now_ns`: rate cut unless coalesced into the previous cut.
pub fn on_cnp(c: &DcqcnConfig, s: &mut DcqcnState, now_ns: u64) {
    let now = monotonic(s, now_ns);
    increase_timer(c, s, now);
    let alpha = alpha_at(c, s, now);
    s.alpha_q24 = alpha;
    s.last_cnp = now;
    if s.active && now - s.last_cut < c.min_cut_interval_ns as u64 {
        return;
    }
    // Rt = Rc; Rc = Rc (1 - alpha/2); alpha = (1 - g) alpha + g
    s.rt_q24 = s.rc_q24;
    let cut = ((s.rc_q24 as u128 * alpha as u128) >> 25) as u64;
    s.rc_q24 = clamp(c, s.rc_q24 - cut);
    s.alpha_q24 = alpha - (alpha >> c.g_shift) + (ALPHA_ONE >> c.g_shift);
    s.active = true;
    s.last_cut = now;
    s.t_count = 0;
    s.bc_count = 0;
    s.bytes = 0;
    s.next_increase = now.saturating_add(c.rate_increase_timer_ns as u64);
}

/// A timer event at `now_ns`: at most one rate-increase expiry.
pub fn on_timer(c: &DcqcnConfig, s: &mut DcqcnState, now_ns: u64) {
    let now = monotonic(s, now_ns);
    increase_timer(c, s, now);
}

/// A tx event: `on_timer(now_ns)`, then `bytes` sent drive the byte counter (at most one
/// expiry; a remainder beyond B waits for the next tx event).
pub fn on_tx(c: &DcqcnConfig, s: &mut DcqcnState, now_ns: u64, bytes: u64) {
    on_timer(c, s, now_ns);
    if !s.active || c.byte_counter_bytes == 0 {
        return;
    }
    s.bytes = s.bytes.saturating_add(bytes);
    if s.bytes >= c.byte_counter_bytes as u64 {
        s.bytes -= c.byte_counter_bytes as u64;
        s.bc_count = s.bc_count.saturating_add(1);
        increase(c, s);
    }
}

fn increase_timer(c: &DcqcnConfig, s: &mut DcqcnState, now: u64) {
    if s.active && now >= s.next_increase {
        s.t_count = s.t_count.saturating_add(1);
        increase(c, s);
        s.next_increase = s.next_increase.saturating_add(c.rate_increase_timer_ns as u64);
    }
}

/// The stage of the next increase step (see `cc_float::dcqcn`).
pub fn stage(c: &DcqcnConfig, s: &DcqcnState) -> IncreaseStage {
    let f = c.fast_recovery_times as u32;
    let (t, bc) = (s.t_count, s.bc_count);
    if c.byte_counter_bytes == 0 {
        if t <= f {
            IncreaseStage::FastRecovery
        } else if t == f + 1 {
            IncreaseStage::Additive
        } else {
            IncreaseStage::Hyper
        }
    } else if t.max(bc) <= f {
        IncreaseStage::FastRecovery
    } else if t.min(bc) > f {
        IncreaseStage::Hyper
    } else {
        IncreaseStage::Additive
    }
}

fn increase(c: &DcqcnConfig, s: &mut DcqcnState) {
    let st = stage(c, s);
    let step = match st {
        IncreaseStage::FastRecovery => 0,
        IncreaseStage::Additive => c.ai_q24,
        IncreaseStage::Hyper => c.hai_q24,
    };
    s.rt_q24 = clamp(c, s.rt_q24 + step);
    s.rc_q24 = clamp(c, (s.rt_q24 + s.rc_q24) >> 1);
    s.last_stage = Some(st);
}
