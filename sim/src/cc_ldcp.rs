//! LDCP in the fixed point of docs/fixed-point.md. Same rules and edge choices as the float
//! reference `crate::cc_float::ldcp` (read its notes); what hardware changes:
//!
//! * cw is UQ16.16 packets (u32). alpha, beta are UQ0.16 (1.0 = 65536); gamma is a power of
//!   two 2^-g, g in 0..=10, and the sub-packet decrease factor is the draft's 1/2, so the
//!   per-packet loop of the reference has a closed form: n marked packets give
//!   `max(cw >> n, gamma)`, n unmarked ones take `k = ceil((1 - cw) / gamma)` steps to reach
//!   one packet and the rest go through eq. 2.
//! * eq. 2 increase `n alpha / cw` is one divider (`div_floor`); the acked count is 16 bits
//!   (saturating), as the Rx pipe delivers it.
//! * The sub-packet timer period `RTT / cw` is `ceil(RTT x 2^16 / cw)`, the same divider.
//! * Rate R = cw x MSS / RTT is UQ16.16 bytes/cycle via the host-computed `rate_mul`.

use crate::cc_fixed::{div_ceil, div_floor, to_fixed, Clock};
use crate::cc_float::ldcp::LdcpParams;

/// The block's stream words and its result for one event.
pub mod block;

/// One packet in UQ16.16.
pub const ONE_PKT: u32 = 1 << 16;

/// Configuration registers computed by the host from `LdcpParams` (`new`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LdcpConfig {
    pub rtt_ns: u32,
    pub mss_bytes: u32,
    pub alpha_q16: u32,
    pub beta_q16: u32,
    /// gamma = 2^-gamma_shift.
    pub gamma_shift: u8,
    pub iw_pkts: u32,
    pub max_cw_q16: u32,
    pub fast_start: bool,
    /// round(2^32 x MSS x cycle / RTT) (< 2^48): R_q16 = (cw_q16 x rate_mul + 2^31) >> 32.
    pub rate_mul: u64,
    pub line_q16: u32,
    pub clock: Clock,
}

impl LdcpConfig {
    /// Registers for `p`. gamma is rounded to the nearest power of two in [2^-10, 1]; eta
    /// must be 1/2 (the draft's value; the closed forms rely on it).
    pub fn new(p: &LdcpParams, clock: Clock) -> Result<LdcpConfig, String> {
        if p.eta != 0.5 {
            return Err(format!("LDCP eta must be 1/2 in fixed point, got {}", p.eta));
        }
        if !(p.gamma.is_finite() && p.gamma > 0.0) {
            return Err(format!("LDCP gamma must be > 0, got {}", p.gamma));
        }
        if p.rtt_ns == 0 || p.rtt_ns >= 1 << 32 || p.mss_bytes == 0 || p.iw_pkts == 0 {
            return Err(format!("need 0 < RTT < 2^32 ns, MSS > 0, IW > 0: {p:?}"));
        }
        let unit = |x: f64| (x.is_finite() && x > 0.0 && x <= 1.0).then(|| to_fixed(x, 16));
        let (Some(alpha_q16), Some(beta_q16)) = (unit(p.alpha), unit(p.beta)) else {
            return Err(format!("need 0 < alpha, beta <= 1: {p:?}"));
        };
        if !(1.0..65536.0).contains(&p.max_cwnd_pkts) || p.iw_pkts >= 1 << 16 {
            return Err(format!("IW and the window clamp must be in [1, 65536) packets: {p:?}"));
        }
        let gamma_shift = (-p.gamma.log2()).round().clamp(0.0, 10.0) as u8;
        let rate_mul = (4294967296.0 * p.mss_bytes as f64 * clock.cycle_ns() / p.rtt_ns as f64)
            .round()
            .min(u64::MAX as f64) as u64;
        if rate_mul >= 1 << 48 {
            // The RTL's register is 48 bits: MSS x cycle / RTT must stay below 2^16.
            return Err(format!("LDCP rate register {rate_mul} needs more than 48 bits: {p:?}"));
        }
        Ok(LdcpConfig {
            rtt_ns: p.rtt_ns as u32,
            mss_bytes: p.mss_bytes,
            alpha_q16,
            beta_q16,
            gamma_shift,
            iw_pkts: p.iw_pkts,
            max_cw_q16: to_fixed(p.max_cwnd_pkts, 16),
            fast_start: p.fast_start,
            rate_mul,
            line_q16: clock.bps_to_q16(p.line_rate_bps),
            clock,
        })
    }

    pub fn gamma_q16(&self) -> u32 {
        ONE_PKT >> self.gamma_shift
    }
}

/// Per-flow state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdcpState {
    pub fast_start: bool,
    pub cw_q16: u32,
    /// Packets acknowledged in order during the fast start (<= IW).
    pub fs_acked: u32,
    /// Latest time seen, ns.
    pub now: u64,
    /// Next sub-packet timer expiry (armed exactly while cw < 1 in the stable stage).
    pub next_tick: Option<u64>,
}

impl LdcpState {
    pub fn new(c: &LdcpConfig) -> LdcpState {
        LdcpState {
            fast_start: c.fast_start,
            cw_q16: (c.iw_pkts << 16).min(c.max_cw_q16).max(c.gamma_q16()),
            fs_acked: 0,
            now: 0,
            next_tick: None,
        }
    }
}

/// Window in bytes, floored.
pub fn window_bytes(c: &LdcpConfig, s: &LdcpState) -> u32 {
    ((s.cw_q16 as u64 * c.mss_bytes as u64) >> 16).min(u32::MAX as u64) as u32
}

/// R = cw x MSS / RTT, UQ16.16 bytes/cycle, at most the line rate.
pub fn rate_q16(c: &LdcpConfig, s: &LdcpState) -> u32 {
    let r = (s.cw_q16 as u128 * c.rate_mul as u128 + (1 << 31)) >> 32;
    r.min(c.line_q16 as u128) as u32
}

/// Sub-packet timer period `ceil(RTT / cw)`, ns, when it runs.
pub fn sub_packet_period(c: &LdcpConfig, s: &LdcpState) -> Option<u64> {
    (!s.fast_start && s.cw_q16 < ONE_PKT)
        .then(|| div_ceil((c.rtt_ns as u64) << 16, s.cw_q16 as u64, u64::MAX).max(1))
}

fn monotonic(s: &mut LdcpState, now_ns: u64) -> u64 {
    s.now = s.now.max(now_ns);
    s.now
}

fn clamp(c: &LdcpConfig, s: &mut LdcpState) {
    s.cw_q16 = s.cw_q16.clamp(c.gamma_q16(), c.max_cw_q16);
}

fn rearm(c: &LdcpConfig, s: &mut LdcpState, now: u64) {
    match sub_packet_period(c, s) {
        Some(p) => {
            if s.next_tick.is_none() {
                s.next_tick = Some(now.saturating_add(p));
            }
        }
        None => s.next_tick = None,
    }
}

/// An ACK at `now_ns` confirming `acked_pkts` packets (saturated to 16 bits), ECN-Echo `ece`.
pub fn on_ack(c: &LdcpConfig, s: &mut LdcpState, now_ns: u64, ece: bool, acked_pkts: u32) {
    let now = monotonic(s, now_ns);
    let mut n = acked_pkts.min(0xFFFF);
    if n == 0 {
        return;
    }
    if s.fast_start {
        let needed = c.iw_pkts - s.fs_acked;
        if n < needed {
            s.fs_acked += n;
            return;
        }
        // Transition 2 (section 3.1): the whole IW acknowledged, cw = IW.
        s.fs_acked = c.iw_pkts;
        s.fast_start = false;
        s.cw_q16 = c.iw_pkts << 16;
        clamp(c, s);
        n -= needed;
        if n == 0 {
            rearm(c, s, now);
            return;
        }
    }
    stable_update(c, s, ece, n);
    rearm(c, s, now);
}

fn stable_update(c: &LdcpConfig, s: &mut LdcpState, ece: bool, mut n: u32) {
    let gamma = c.gamma_q16();
    if s.cw_q16 < ONE_PKT {
        if ece {
            // n halvings, floor gamma; cw stays below one packet, eq. 2 never applies.
            s.cw_q16 = (s.cw_q16 >> n.min(31)).max(gamma);
            n = 0;
        } else {
            let k = (ONE_PKT - s.cw_q16).div_ceil(gamma);
            let steps = n.min(k);
            s.cw_q16 += steps * gamma;
            n -= steps;
        }
    }
    if n > 0 && s.cw_q16 >= ONE_PKT {
        if ece {
            let dec = n as u64 * c.beta_q16 as u64;
            s.cw_q16 = (s.cw_q16 as u64).saturating_sub(dec) as u32; // eq. 2
        } else {
            let inc = div_floor((n as u64 * c.alpha_q16 as u64) << 16, s.cw_q16 as u64, u32::MAX as u64);
            s.cw_q16 = (s.cw_q16 as u64 + inc).min(u32::MAX as u64) as u32; // eq. 2
        }
    }
    clamp(c, s);
}

/// A loss detected at `now_ns`: in the fast start, cw = packets acknowledged before it.
pub fn on_loss(c: &LdcpConfig, s: &mut LdcpState, now_ns: u64) {
    let now = monotonic(s, now_ns);
    if s.fast_start {
        s.fast_start = false;
        s.cw_q16 = s.fs_acked.min(0xFFFF) << 16;
        clamp(c, s);
        s.next_tick = None;
        rearm(c, s, now);
    }
}

/// The sub-packet timer: 1 packet may be sent when it expired (then re-armed), else 0.
pub fn on_timer(c: &LdcpConfig, s: &mut LdcpState, now_ns: u64) -> u32 {
    let now = monotonic(s, now_ns);
    match (s.next_tick, sub_packet_period(c, s)) {
        (Some(t), Some(p)) if now >= t => {
            s.next_tick = Some(now.saturating_add(p));
            1
        }
        (_, None) => {
            s.next_tick = None;
            0
        }
        _ => 0,
    }
}
