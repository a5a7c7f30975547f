//! HPCC++ sender (pseudo-code lines 1-27) and Rx-HPCC (lines 28-34) in the fixed point of
//! docs/fixed-point.md. Same structure, same choices at the edges (first telemetry, 0 or > 5
//! hops, unusable B, counters going backwards) as the float reference
//! `crate::cc_float::hpcc`, whose notes explain them; only the arithmetic differs.
//!
//! Formats: W, Wc, W_ai, W_min, W_max bytes in UQ24.8 (u32); U, u', eta in UQ8.16 (U and u'
//! 24 bits, saturating); the EWMA weight tau/T in UQ1.16 (0..=65536); txRate bytes/ns UQ8.16;
//! R bytes/cycle UQ16.16. Telemetry enters in wire units (`FxHop`), exactly what the Rx pipe
//! hands the CC module.

use crate::cc_fixed::{div_floor, recip, to_fixed, Clock};
use crate::cc_float::hpcc::HpccParams;
use crate::packet::{hop_fields, hop_word, IntHop, LineRate, MAX_HOPS, QLEN_MAX, QLEN_UNIT, TS_MASK, TX_BYTES_UNIT, TX_MASK};

/// The block's stream words and its result for one event.
pub mod block;

/// Largest U / u' (UQ8.16 in 24 bits): 256 - 2^-16.
pub const U_MAX: u32 = (1 << 24) - 1;
/// Largest r = eta / U (UQ16.24 in 40 bits).
pub const R_MAX: u64 = (1 << 40) - 1;
/// tau/T = 1.0 in UQ1.16.
pub const ONE_Q16: u32 = 1 << 16;
/// Shift of the `inv_bt`, `inv_t` reciprocals (2^40 / x) and of `rate_mul`.
const RECIP_SHIFT: i32 = 40;

/// One hop record as the wire carries it (docs/packet-formats.md): 3-bit line-rate code,
/// 24-bit ns timestamp, 20-bit txBytes in 128 B units, 17-bit qlen in 80 B units. Any code is
/// representable: codes without a rate (5-7) make the hop unusable, as B = 0 does in the
/// float reference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FxHop {
    pub rate_code: u8,
    pub ts: u32,
    pub tx_bytes: u32,
    pub qlen: u32,
}

impl FxHop {
    pub fn from_int_hop(h: &IntHop) -> FxHop {
        FxHop::from_word(h.word())
    }

    /// The 64-bit record (sim::layout::INT_HOP): line-rate code, ts, txBytes, qlen.
    pub fn from_word(w: u64) -> FxHop {
        let (rate_code, ts, tx_bytes, qlen) = hop_fields(w);
        FxHop { rate_code, ts, tx_bytes, qlen }
    }

    /// The 64-bit record, the inverse of `from_word`.
    pub fn word(&self) -> u64 {
        hop_word(self.rate_code, self.ts, self.tx_bytes, self.qlen)
    }

    /// From full-width counters as a switch writes them; a `link_gbps` that is not one of the
    /// wire's rates gets code 7 (no rate).
    pub fn from_counters(ts_ns: u64, tx_bytes: u64, qlen_bytes: u64, link_gbps: f64) -> FxHop {
        let code = (0..5u8)
            .find(|&c| LineRate::from_code(c).unwrap().bits_per_second() as f64 == link_gbps * 1e9)
            .unwrap_or(7);
        FxHop {
            rate_code: code,
            ts: (ts_ns & TS_MASK as u64) as u32,
            tx_bytes: ((tx_bytes / TX_BYTES_UNIT) & TX_MASK as u64) as u32,
            qlen: (qlen_bytes / QLEN_UNIT).min(QLEN_MAX as u64) as u32,
        }
    }
}

/// Configuration registers, computed by the host from `HpccParams` (`new`). The RTL holds
/// these values; it never divides by any of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HpccConfig {
    /// T, ns (integer), 256..2^24.
    pub t_ns: u32,
    pub eta_q16: u32,
    pub max_stage: u8,
    pub w_ai_q8: u32,
    pub w_min_q8: u32,
    /// Upper clamp: BDP = line rate x T.
    pub w_max_q8: u32,
    pub u_init_q16: u32,
    /// Per line-rate code: round(2^40 / (B x T)), B in bytes/ns; 0 for codes without a rate.
    pub inv_bt: [u32; 8],
    /// Per line-rate code: round(2^24 / B); 0 for codes without a rate.
    pub inv_b: [u32; 8],
    /// round(2^40 / T).
    pub inv_t: u32,
    /// round(2^40 x cycle / T): R (UQ16.16 bytes/cycle) = (W_q8 x rate_mul + 2^31) >> 32.
    pub rate_mul: u32,
    /// Line rate, UQ16.16 bytes/cycle: upper clamp of R.
    pub line_q16: u32,
    pub clock: Clock,
}

impl HpccConfig {
    /// Registers for `p` at `clock`. Errors when `p` is invalid or does not fit the formats.
    pub fn new(p: &HpccParams, clock: Clock) -> Result<HpccConfig, String> {
        p.validate()?;
        let t = p.t_ns.round();
        if !(256.0..(1u64 << 24) as f64).contains(&t) || t != p.t_ns {
            return Err(format!(
                "T must be a whole number of ns in [256, 2^24): {}",
                p.t_ns
            ));
        }
        if p.bdp() * 256.0 >= u32::MAX as f64 || p.w_ai * 256.0 >= u32::MAX as f64 {
            return Err(format!("BDP and W_ai must be below 16 MiB: {p:?}"));
        }
        if p.u_init >= 256.0 || p.max_stage > 255 || p.eta > 1.0 || p.w_min < 256.0 {
            return Err(format!(
                "need u_init < 256, maxStage <= 255, eta <= 1, W_min >= 256 B: {p:?}"
            ));
        }
        if t < 256.0 * clock.cycle_ns() {
            return Err(format!("T must be at least 256 clock cycles: {p:?}"));
        }
        let mut inv_bt = [0; 8];
        let mut inv_b = [0; 8];
        for code in 0..5u8 {
            let b = LineRate::from_code(code).unwrap().bytes_per_ns();
            inv_bt[code as usize] = recip(b * t, RECIP_SHIFT);
            inv_b[code as usize] = recip(b, 24);
        }
        Ok(HpccConfig {
            t_ns: t as u32,
            eta_q16: to_fixed(p.eta, 16),
            max_stage: p.max_stage as u8,
            w_ai_q8: to_fixed(p.w_ai, 8),
            w_min_q8: to_fixed(p.w_min, 8),
            w_max_q8: to_fixed(p.bdp(), 8),
            u_init_q16: to_fixed(p.u_init, 16),
            inv_bt,
            inv_b,
            inv_t: recip(t, RECIP_SHIFT),
            rate_mul: recip(t / clock.cycle_ns(), RECIP_SHIFT),
            line_q16: clock.bps_to_q16(p.line_rate * 8e9),
            clock,
        })
    }
}

/// What an event did: the float reference's outcomes, the same in fixed point.
pub use crate::cc_float::hpcc::Action;

/// Per-flow state: one entry of the CC module's state RAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpccState {
    pub w_q8: u32,
    pub wc_q8: u32,
    pub u_q16: u32,
    pub inc_stage: u8,
    /// R, UQ16.16 bytes/cycle.
    pub rate_q16: u32,
    /// lastUpdateSeq (sender), 32-bit serial number.
    pub last_update_seq: u32,
    /// lastUpdateTime (Rx-HPCC), ns; `None` = never.
    pub last_update_time: Option<u64>,
    /// L: the last telemetry; `hops == 0` means none yet.
    pub l: [FxHop; MAX_HOPS],
    pub hops: u8,
}

impl HpccState {
    /// W = Wc = BDP, U = u_init, R = line rate, no L.
    pub fn new(c: &HpccConfig) -> HpccState {
        HpccState {
            w_q8: c.w_max_q8,
            wc_q8: c.w_max_q8,
            u_q16: c.u_init_q16,
            inc_stage: 0,
            rate_q16: rate(c, c.w_max_q8),
            last_update_seq: 0,
            last_update_time: None,
            l: [FxHop::default(); MAX_HOPS],
            hops: 0,
        }
    }
}

/// `a > b` in 32-bit serial-number arithmetic (RFC 1982): sequence numbers wrap.
pub fn seq_after(a: u32, b: u32) -> bool {
    let d = a.wrapping_sub(b);
    d != 0 && d < 1 << 31
}

fn rate(c: &HpccConfig, w_q8: u32) -> u32 {
    // Rounded, so that W = BDP gives exactly the line rate.
    let r = (w_q8 as u64 * c.rate_mul as u64 + (1 << 31)) >> 32;
    r.min(c.line_q16 as u64) as u32
}

/// u' of one hop and its tau (0 when the time difference is not a forward one); `None` when
/// the hop has no usable rate.
pub fn hop_utilization(c: &HpccConfig, now: &FxHop, last: &FxHop) -> Option<(u32, u32)> {
    let h = hop_arithmetic(&c.inv_bt, &c.inv_b, now, last);
    h.usable.then_some((h.u, h.tau))
}

/// What the CC module's per-hop unit (`hdl/src/cc/cc_hop_util.rs`) computes for one hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HopArithmetic {
    /// `inv_bt[code] != 0`: the hop's rate code has a rate.
    pub usable: bool,
    /// u', UQ8.16 (computed with the tables' values even when not usable).
    pub u: u32,
    /// dt when forward, else 0.
    pub tau: u32,
}

/// Lines 4-5 for one hop, given the per-code reciprocal tables.
pub fn hop_arithmetic(
    inv_bt: &[u32; 8],
    inv_b: &[u32; 8],
    now: &FxHop,
    last: &FxHop,
) -> HopArithmetic {
    let code = (now.rate_code & 7) as usize;
    let dt = now.ts.wrapping_sub(last.ts) & TS_MASK;
    let dt_fwd = dt > 0 && dt < 1 << 23;
    let dtx = now.tx_bytes.wrapping_sub(last.tx_bytes) & TX_MASK;
    // 4: txRate = dtxBytes / dt, bytes/ns in UQ8.16.
    let tx_rate = if dt_fwd && dtx < 1 << 19 {
        div_floor((dtx as u64 * TX_BYTES_UNIT) << 16, dt as u64, U_MAX as u64)
    } else {
        0
    };
    // 5: u' = min(qlen) / (B T) + txRate / B.
    let qlen = now.qlen.min(last.qlen) as u64 * QLEN_UNIT;
    let q_term = (qlen * inv_bt[code] as u64) >> 24;
    let r_term = (tx_rate * inv_b[code] as u64) >> 24;
    HopArithmetic {
        usable: inv_bt[code] != 0,
        u: (q_term + r_term).min(U_MAX as u64) as u32,
        tau: if dt_fwd { dt } else { 0 },
    }
}

/// Lines 1-10: the new U (also stored in `s`).
fn measure_inflight(c: &HpccConfig, s: &mut HpccState, ack: &[FxHop]) -> u32 {
    let mut best: Option<(u32, u32)> = None;
    for (now, last) in ack.iter().zip(&s.l) {
        if let Some((u, tau)) = hop_utilization(c, now, last) {
            // 6: the first measurable hop, then strictly larger ones.
            if best.is_none_or(|(bu, _)| u > bu) {
                best = Some((u, tau));
            }
        }
    }
    let Some((u, tau)) = best else {
        return s.u_q16;
    };
    // 8-9: U += (u - U) x min(tau, T)/T, the product floored (arithmetic shift).
    let tau = tau.min(c.t_ns) as u64;
    let weight = ((tau * c.inv_t as u64) >> 24).min(ONE_Q16 as u64) as i64;
    let diff = u as i64 - s.u_q16 as i64;
    s.u_q16 = (s.u_q16 as i64 + ((diff * weight) >> 16)) as u32;
    s.u_q16
}

fn clamp_w(c: &HpccConfig, w: u64) -> u32 {
    w.clamp(c.w_min_q8 as u64, c.w_max_q8 as u64) as u32
}

/// Lines 11-20.
fn compute_wind(c: &HpccConfig, s: &mut HpccState, u: u32, update_wc: bool) -> u32 {
    let w;
    if u >= c.eta_q16 || s.inc_stage >= c.max_stage {
        // 13: W = Wc x (eta / U) + W_ai. The quotient r = eta / U (UQ16.24, 40 bits) depends on
        // U alone, so the RTL divides as soon as U is known and Wc, which only a commit
        // changes, meets it in a multiply: a divider would not fit in the loop from one commit
        // to the next. U = 0 saturates r; W then lands on W_max (Wc >= W_min >= 256 B).
        let r = div_floor((c.eta_q16 as u64) << 24, u as u64, R_MAX);
        let mimd = ((s.wc_q8 as u128 * r as u128) >> 24).min(u64::MAX as u128) as u64;
        w = clamp_w(c, mimd + c.w_ai_q8 as u64);
        if update_wc {
            s.inc_stage = 0;
            s.wc_q8 = w;
        }
    } else {
        // 17: W = Wc + W_ai.
        w = clamp_w(c, s.wc_q8 as u64 + c.w_ai_q8 as u64);
        if update_wc {
            s.inc_stage += 1;
            s.wc_q8 = w;
        }
    }
    w
}

enum Admit {
    Ignore,
    RecordOnly,
    Measure,
}

fn admit(s: &HpccState, hops: &[FxHop]) -> Admit {
    if hops.is_empty() || hops.len() > MAX_HOPS {
        Admit::Ignore
    } else if hops.len() != s.hops as usize {
        Admit::RecordOnly
    } else {
        Admit::Measure
    }
}

fn record(s: &mut HpccState, hops: &[FxHop]) {
    s.l = [FxHop::default(); MAX_HOPS];
    s.l[..hops.len()].copy_from_slice(hops);
    s.hops = hops.len() as u8;
}

/// Lines 21-27: an ACK (or probe / telemetry response) with sequence `seq` and the sender's
/// `snd_nxt`, both 32-bit serial numbers.
pub fn on_ack(c: &HpccConfig, s: &mut HpccState, seq: u32, snd_nxt: u32, hops: &[FxHop]) -> Action {
    match admit(s, hops) {
        Admit::Ignore => return Action::Ignored,
        Admit::RecordOnly => {
            record(s, hops);
            return Action::Recorded;
        }
        Admit::Measure => {}
    }
    let commit = seq_after(seq, s.last_update_seq);
    let u = measure_inflight(c, s, hops);
    s.w_q8 = compute_wind(c, s, u, commit);
    if commit {
        s.last_update_seq = snd_nxt;
    }
    s.rate_q16 = rate(c, s.w_q8);
    record(s, hops);
    if commit {
        Action::UpdatedWc
    } else {
        Action::UpdatedW
    }
}

/// Lines 28-34: a data packet's telemetry at the receiver at `now_ns`. Returns true when
/// line 31 sends W back to the sender.
pub fn on_int(c: &HpccConfig, s: &mut HpccState, now_ns: u64, hops: &[FxHop]) -> bool {
    match admit(s, hops) {
        Admit::Ignore => return false,
        Admit::RecordOnly => {
            record(s, hops);
            return false;
        }
        Admit::Measure => {}
    }
    let elapsed = s
        .last_update_time
        .is_none_or(|last| now_ns > last && now_ns - last > c.t_ns as u64);
    let u = measure_inflight(c, s, hops);
    s.w_q8 = compute_wind(c, s, u, elapsed);
    if elapsed {
        s.last_update_time = Some(now_ns);
    }
    s.rate_q16 = rate(c, s.w_q8);
    record(s, hops);
    elapsed
}
