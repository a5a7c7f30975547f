//! HPCC++ floating-point reference, written line by line from the pseudo-code of the HPCC++
//! drafts (../shared/seeds/000, 003 section 4.2 and 6.2, 004 sections 6.2-6.3). Line numbers in
//! the comments (`// 5:`) are the drafts' pseudo-code line numbers:
//!
//! ```text
//!  1-10  MeasureInflight(ack)   -> Core::measure_inflight
//! 11-20  ComputeWind(U, upd)    -> Core::compute_wind
//! 21-27  NewAck(ack)            -> Hpcc::on_ack (sender-based)
//! 28-34  NewINT(int.L)          -> RxHpcc::on_int (receiver-based, Rx-HPCC)
//! ```
//!
//! Units: bytes and nanoseconds throughout. `T` is in ns, `B` (link speed) in bytes/ns, so
//! `B * T` is bytes and `qlen / (B * T)` is dimensionless, as line 5 wants. `R = W / T` is in
//! bytes/ns; `Output::rate_bps` gives it in bits/s.
//!
//! What the drafts leave open, and what this reference chooses (all documented again where it
//! happens):
//!
//! * Clamps. W is clamped to `[w_min, BDP]` where it is computed (lines 13 and 17), before it
//!   is copied to Wc (lines 15 and 19), so W, Wc and R = W/T are always within
//!   `[w_min, BDP]` / `[w_min/T, line rate]`. W starts at `W_init = BDP` (line-rate start,
//!   draft section 5).
//! * First telemetry of a flow, or a hop count that differs from the stored L (path change, or
//!   hop records whose counters wrap differently, see [`Wrap`]): there is no previous sample to
//!   difference against, so the procedure only records `L = ack.L` (line 27). W, Wc, U,
//!   incStage and lastUpdateSeq are left alone.
//! * Telemetry with 0 hops or more than `MAX_HOPS` (5) hops is malformed for this NIC (the
//!   header has 5 slots): the ACK is ignored entirely, no state changes, L is kept.
//! * Line 6-7: `tau` is only assigned when some hop has `u' > u`, starting from `u = 0`; if
//!   every hop has `u' = 0` the draft leaves tau undefined. Here the first measurable hop is
//!   always taken (as if u started below 0), so tau is defined; when max u' > 0 this selects
//!   the same hop as the draft (the first one reaching the maximum).
//! * A hop whose link speed B is not a finite positive number, or whose u' is not finite
//!   (e.g. B so small that B*T underflows), is skipped: it is not a candidate for the max.
//!   If no hop is measurable, U is left unchanged (as with tau = 0) and ComputeWind still runs.
//! * Elapsed time `ack.L[i].ts - L[i].ts` is a modular difference (counters wrap). A zero
//!   difference (repeated timestamp) or one in the upper half of the counter range (taken as
//!   a timestamp that went backwards) has no usable rate: the txRate term of line 5 is
//!   dropped (u' is the queue term only) and that hop's tau is 0, so if it is the most loaded
//!   hop U does not move (no time passed that the EWMA could weigh). Likewise a txBytes
//!   difference in the upper half of its range (counter went backwards) drops the rate term
//!   but keeps tau. Cost: with 24-bit INT timestamps, two samples more than 2^23 ns (8.4 ms)
//!   apart read as "backwards" and do not move U.
//! * U is finite by construction (finite u', finite weights in [0, 1]); an EWMA result that
//!   would overflow is discarded (U kept). Line 13 with U = 0 (reachable when incStage >=
//!   maxStage on an idle path) is the limit `Wc / 0 = +inf`, i.e. the upper clamp BDP.
//! * The initial U is not given by the drafts: `u_init`, default 1.0 (a flow starting at line
//!   rate fills its link). Tests that want to be independent of it use tau = T.

use crate::packet::{ts_delta_ns, tx_bytes_delta, IntHop, MAX_HOPS, TX_BYTES_UNIT};

/// Algorithm parameters (draft section 4.1 figure 3 and section 5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HpccParams {
    /// T: known baseline RTT, ns. Default 5 us.
    pub t_ns: f64,
    /// eta: target link utilization. Default 0.95.
    pub eta: f64,
    /// maxStage: additive-increase stages before a multiplicative step. Default 5.
    pub max_stage: u32,
    /// Line rate of the sender's NIC, bytes/ns (12.5 = 100 Gb/s). BDP = line_rate * T is both
    /// W_init (line-rate start) and the upper clamp of W. Default 12.5.
    pub line_rate: f64,
    /// W_ai: additive increase, bytes. Default: the draft's rule of thumb
    /// `W_init * (1 - eta) / N` with N = [`DEFAULT_N_FLOWS`] (62500 * 0.05 / 16 = 195.3125).
    pub w_ai: f64,
    /// W_min: lower clamp of W, bytes (not in the drafts; W must stay > 0 so that R > 0).
    /// Default 1024 (one 1 KiB RoCE path-MTU payload).
    pub w_min: f64,
    /// Initial U (not in the drafts). Default 1.0.
    pub u_init: f64,
}

/// N of the W_ai rule of thumb used by `HpccParams::default()` (the drafts give no value).
pub const DEFAULT_N_FLOWS: f64 = 16.0;

impl Default for HpccParams {
    fn default() -> Self {
        HpccParams::new(12.5, 5000.0)
    }
}

impl HpccParams {
    /// Defaults for a line rate (bytes/ns) and base RTT (ns); W_ai by the rule of thumb.
    pub fn new(line_rate: f64, t_ns: f64) -> Self {
        let eta = 0.95;
        HpccParams {
            t_ns,
            eta,
            max_stage: 5,
            line_rate,
            w_ai: Self::w_ai_rule_of_thumb(line_rate * t_ns, eta, DEFAULT_N_FLOWS),
            w_min: 1024.0,
            u_init: 1.0,
        }
    }

    /// Draft section 5: `W_ai = W_init * (1 - eta) / N`.
    pub fn w_ai_rule_of_thumb(w_init: f64, eta: f64, n_flows: f64) -> f64 {
        w_init * (1.0 - eta) / n_flows
    }

    /// Bandwidth-delay product, bytes: `line_rate * T`.
    pub fn bdp(&self) -> f64 {
        self.line_rate * self.t_ns
    }

    /// W_init = BDP (flows start at line rate).
    pub fn w_init(&self) -> f64 {
        self.bdp()
    }

    /// Configuration check: everything finite, T, eta, line rate, W_min > 0, W_min <= BDP,
    /// W_ai >= 0, u_init >= 0.
    pub fn validate(&self) -> Result<(), String> {
        let pos = |v: f64| v.is_finite() && v > 0.0;
        let nonneg = |v: f64| v.is_finite() && v >= 0.0;
        if !pos(self.t_ns) || !pos(self.eta) || !pos(self.line_rate) || !pos(self.w_min) {
            return Err(format!("T, eta, line rate and W_min must be > 0: {self:?}"));
        }
        if !pos(self.bdp()) || self.w_min > self.bdp() {
            return Err(format!("need 0 < W_min <= BDP: {self:?}"));
        }
        if !nonneg(self.w_ai) || !nonneg(self.u_init) {
            return Err(format!("W_ai and u_init must be >= 0: {self:?}"));
        }
        Ok(())
    }
}

/// How a hop's `ts_ns` and `tx_bytes` counters wrap, i.e. how differences are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    /// Full 64-bit counters: differences modulo 2^64.
    U64,
    /// Fields of a telemetry hop record (`packet::IntHop`): 24-bit ns timestamp, 20-bit
    /// txBytes in 128-byte units; differences by `packet::ts_delta_ns` / `tx_bytes_delta`.
    IntHop,
}

/// One link's telemetry (an element of L), already in bytes and ns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hop {
    /// ts: egress timestamp, ns (a counter that wraps as `wrap` says).
    pub ts_ns: u64,
    /// txBytes: bytes transmitted by the egress port (a counter that wraps as `wrap` says).
    pub tx_bytes: u64,
    /// qlen: egress queue length, bytes.
    pub qlen_bytes: u64,
    /// B: egress link speed, bytes/ns.
    pub link_bytes_per_ns: f64,
    pub wrap: Wrap,
}

impl Hop {
    /// A hop with full 64-bit counters.
    pub fn new(ts_ns: u64, tx_bytes: u64, qlen_bytes: u64, link_bytes_per_ns: f64) -> Hop {
        Hop {
            ts_ns,
            tx_bytes,
            qlen_bytes,
            link_bytes_per_ns,
            wrap: Wrap::U64,
        }
    }

    /// From a wire hop record: ts in ns (mod 2^24), txBytes * 128 bytes (mod 2^27), qlen * 80
    /// bytes, B from the line-rate code.
    pub fn from_record(r: &IntHop) -> Hop {
        Hop {
            ts_ns: r.ts as u64,
            tx_bytes: r.tx_bytes as u64 * TX_BYTES_UNIT,
            qlen_bytes: r.qlen_bytes(),
            link_bytes_per_ns: r.line_rate.bytes_per_ns(),
            wrap: Wrap::IntHop,
        }
    }

    /// `(ack.L[i].ts - L[i].ts, ack.L[i].txBytes - L[i].txBytes)` from `old` to `self`, as
    /// modular differences. The elapsed time is `None` when it is 0 or in the upper half of
    /// the counter range (backwards); the byte count is `None` when in the upper half
    /// (backwards). Both hops must have the same `wrap` (checked by the caller).
    fn deltas(&self, old: &Hop) -> (Option<u64>, Option<u64>) {
        let (dt, dtx, half_t, half_tx) = match self.wrap {
            Wrap::U64 => (
                self.ts_ns.wrapping_sub(old.ts_ns),
                self.tx_bytes.wrapping_sub(old.tx_bytes),
                1u64 << 63,
                1u64 << 63,
            ),
            Wrap::IntHop => (
                ts_delta_ns(self.ts_ns as u32, old.ts_ns as u32) as u64,
                tx_bytes_delta(
                    (self.tx_bytes / TX_BYTES_UNIT) as u32,
                    (old.tx_bytes / TX_BYTES_UNIT) as u32,
                ),
                1u64 << 23,
                (1u64 << 20) * TX_BYTES_UNIT / 2,
            ),
        };
        (
            (dt > 0 && dt < half_t).then_some(dt),
            (dtx < half_tx).then_some(dtx),
        )
    }
}

/// What an ACK / INT did to the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// 0 or more than 5 hops: nothing changed.
    Ignored,
    /// First telemetry or path change: only L was recorded.
    Recorded,
    /// W recomputed from the unchanged Wc (line 26 / 34).
    UpdatedW,
    /// W recomputed and Wc, incStage committed (line 23 / 30).
    UpdatedWc,
}

impl Action {
    /// In the order of the CC module's 2-bit action code (`action as u8`).
    pub const ALL: [Action; 4] = [
        Action::Ignored,
        Action::Recorded,
        Action::UpdatedW,
        Action::UpdatedWc,
    ];

    /// The name replay prints.
    pub fn name(self) -> &'static str {
        match self {
            Action::Ignored => "ignored",
            Action::Recorded => "recorded",
            Action::UpdatedW => "updated_w",
            Action::UpdatedWc => "updated_wc",
        }
    }
}

/// State after an ACK / INT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    /// W, bytes.
    pub window_bytes: f64,
    /// Wc, bytes.
    pub wc_bytes: f64,
    /// R = W / T, bytes/ns.
    pub rate_bytes_per_ns: f64,
    /// R in bits/s.
    pub rate_bps: f64,
    /// U, the EWMA of the normalized inflight bytes.
    pub u: f64,
    pub inc_stage: u32,
    pub action: Action,
}

enum Admit {
    Ignore,
    RecordOnly,
    Measure,
}

/// The state and functions shared by the sender (NewAck) and the receiver (NewINT).
#[derive(Clone, Debug)]
struct Core {
    p: HpccParams,
    w: f64,
    wc: f64,
    u: f64,
    inc_stage: u32,
    r: f64,
    l: Vec<Hop>,
}

impl Core {
    fn new(p: HpccParams) -> Core {
        if let Err(e) = p.validate() {
            panic!("invalid HPCC++ parameters: {e}");
        }
        Core {
            p,
            w: p.w_init(),
            wc: p.w_init(),
            u: p.u_init,
            inc_stage: 0,
            r: p.w_init() / p.t_ns,
            l: Vec::new(),
        }
    }

    fn admit(&self, hops: &[Hop]) -> Admit {
        if hops.is_empty() || hops.len() > MAX_HOPS {
            Admit::Ignore
        } else if hops.len() != self.l.len()
            || hops.iter().zip(&self.l).any(|(a, b)| a.wrap != b.wrap)
        {
            Admit::RecordOnly
        } else {
            Admit::Measure
        }
    }

    fn clamp(&self, w: f64) -> f64 {
        // f64::max returns the non-NaN operand, so a NaN would land on w_min.
        w.max(self.p.w_min).min(self.p.bdp())
    }

    /// Lines 1-10. `ack` has as many hops as `self.l` (checked by `admit`).
    fn measure_inflight(&mut self, ack: &[Hop]) -> f64 {
        let t = self.p.t_ns;
        // 2: u = 0;
        let mut u = 0.0;
        let mut tau: Option<f64> = None;
        // 3: for each link i on the path do
        for (now, last) in ack.iter().zip(&self.l) {
            let b = now.link_bytes_per_ns; // ack.L[i].B
            if !(b.is_finite() && b > 0.0) {
                continue; // robustness: no usable B, not a candidate
            }
            let (dt, dtx) = now.deltas(last);
            // 4: txRate = (ack.L[i].txBytes - L[i].txBytes) / (ack.L[i].ts - L[i].ts);
            //    robustness: no rate term without a positive elapsed time and byte count.
            let tx_rate = match (dt, dtx) {
                (Some(dt), Some(dtx)) => dtx as f64 / dt as f64,
                _ => 0.0,
            };
            // 5: u' = min(ack.L[i].qlen, L[i].qlen) / (ack.L[i].B * T) + txRate / ack.L[i].B;
            let qlen = now.qlen_bytes.min(last.qlen_bytes) as f64;
            let u_hop = qlen / (b * t) + tx_rate / b;
            if !u_hop.is_finite() {
                continue; // robustness: B * T underflowed
            }
            // 6: if u' > u then   (or no hop taken yet, so that tau is always defined)
            if u_hop > u || tau.is_none() {
                // 7: u = u'; tau = ack.L[i].ts - L[i].ts;   (0 if not a forward difference)
                u = u_hop;
                tau = Some(dt.map_or(0.0, |d| d as f64));
            }
        }
        let Some(tau) = tau else {
            return self.u; // no measurable hop: U unchanged (same as tau = 0)
        };
        // 8: tau = min(tau, T);
        let tau = tau.min(t);
        // 9: U = (1 - tau/T) * U + tau/T * u;
        let new_u = (1.0 - tau / t) * self.u + tau / t * u;
        if new_u.is_finite() {
            self.u = new_u;
        }
        // 10: return U;
        self.u
    }

    /// Lines 11-20, with W clamped to [W_min, BDP] before it is committed to Wc.
    fn compute_wind(&mut self, u: f64, update_wc: bool) -> f64 {
        let p = self.p;
        let w;
        // 12: if U >= eta or incStage >= maxStage then
        if u >= p.eta || self.inc_stage >= p.max_stage {
            // 13: W = Wc / (U/eta) + W_ai;   (U = 0: the limit +inf, clamped to BDP)
            let mimd = if u > 0.0 {
                self.wc / (u / p.eta)
            } else {
                f64::INFINITY
            };
            w = self.clamp(mimd + p.w_ai);
            // 14: if updateWc then
            if update_wc {
                // 15: incStage = 0; Wc = W;
                self.inc_stage = 0;
                self.wc = w;
            }
        } else {
            // 16: else
            // 17: W = Wc + W_ai;
            w = self.clamp(self.wc + p.w_ai);
            // 18: if updateWc then
            if update_wc {
                // 19: incStage++; Wc = W;
                self.inc_stage += 1;
                self.wc = w;
            }
        }
        // 20: return W
        w
    }

    fn output(&self, action: Action) -> Output {
        Output {
            window_bytes: self.w,
            wc_bytes: self.wc,
            rate_bytes_per_ns: self.r,
            rate_bps: self.r * 8e9,
            u: self.u,
            inc_stage: self.inc_stage,
            action,
        }
    }
}

/// Sender-based HPCC++ for one flow (NewAck, lines 21-27).
#[derive(Clone, Debug)]
pub struct Hpcc {
    core: Core,
    last_update_seq: u64,
}

impl Hpcc {
    /// W = Wc = BDP, U = u_init, incStage = 0, lastUpdateSeq = 0, L empty.
    /// Panics if `params.validate()` fails (a configuration error, not an input).
    pub fn new(params: HpccParams) -> Hpcc {
        Hpcc {
            core: Core::new(params),
            last_update_seq: 0,
        }
    }

    /// Lines 21-27, on an ACK with sequence number `seq` (unwrapped, compared as u64) carrying
    /// telemetry `hops`; `snd_nxt` is the sender's next sequence number now.
    pub fn on_ack(&mut self, seq: u64, snd_nxt: u64, hops: &[Hop]) -> Output {
        match self.core.admit(hops) {
            Admit::Ignore => return self.core.output(Action::Ignored),
            Admit::RecordOnly => {
                self.core.l = hops.to_vec(); // 27: L = ack.L (nothing to compare against yet)
                return self.core.output(Action::Recorded);
            }
            Admit::Measure => {}
        }
        // 22: if ack.seq > lastUpdateSeq then
        let action = if seq > self.last_update_seq {
            // 23: W = ComputeWind(MeasureInflight(ack), True);
            let u = self.core.measure_inflight(hops);
            self.core.w = self.core.compute_wind(u, true);
            // 24: lastUpdateSeq = snd_nxt;
            self.last_update_seq = snd_nxt;
            Action::UpdatedWc
        } else {
            // 25: else
            // 26: W = ComputeWind(MeasureInflight(ack), False);
            let u = self.core.measure_inflight(hops);
            self.core.w = self.core.compute_wind(u, false);
            Action::UpdatedW
        };
        // 27: R = W/T; L = ack.L;
        self.core.r = self.core.w / self.core.p.t_ns;
        self.core.l = hops.to_vec();
        self.core.output(action)
    }

    /// Probe mode (draft 004 6.2.1-6.2.2, 6.3.1): a telemetry response (to a probe, or a
    /// switch INT response, draft 000 6.3) updates the state exactly like an ACK's telemetry.
    /// `seq` is the sequence number the response carries: for a probe, the sender's snd_nxt
    /// when the probe left (so a probe sent after new data triggers the once-per-RTT Wc
    /// commit, one sent with nothing new in flight does not); for a switch INT response, the
    /// sequence number of the data packet it answers. What differs from an ACK is outside this
    /// model: a response acknowledges no data (no snd_una advance, no retransmission logic).
    pub fn on_telemetry_response(&mut self, seq: u64, snd_nxt: u64, hops: &[Hop]) -> Output {
        self.on_ack(seq, snd_nxt, hops)
    }

    /// The current state (`action` is `Ignored`: no event happened).
    pub fn output(&self) -> Output {
        self.core.output(Action::Ignored)
    }
    pub fn params(&self) -> &HpccParams {
        &self.core.p
    }
    pub fn window(&self) -> f64 {
        self.core.w
    }
    pub fn wc(&self) -> f64 {
        self.core.wc
    }
    pub fn u(&self) -> f64 {
        self.core.u
    }
    pub fn inc_stage(&self) -> u32 {
        self.core.inc_stage
    }
    /// R = W / T, bytes/ns.
    pub fn rate(&self) -> f64 {
        self.core.r
    }
    pub fn last_update_seq(&self) -> u64 {
        self.last_update_seq
    }
    /// L: the last telemetry, one entry per hop.
    pub fn last_hops(&self) -> &[Hop] {
        &self.core.l
    }
}

/// Receiver-based Rx-HPCC for one flow (NewINT, lines 28-34): the receiver runs the same
/// functions on each data packet's telemetry `int.L` and feeds the window back in an ACK at
/// most once per T.
#[derive(Clone, Debug)]
pub struct RxHpcc {
    core: Core,
    last_update_time: Option<u64>,
}

impl RxHpcc {
    /// Same initial state as `Hpcc::new`; lastUpdateTime = never.
    pub fn new(params: HpccParams) -> RxHpcc {
        RxHpcc {
            core: Core::new(params),
            last_update_time: None,
        }
    }

    /// Lines 28-34 on a packet's telemetry `hops` arriving at receiver time `now_ns`. Returns
    /// `Some(W)` when line 31 sends the window to the sender in an ACK.
    ///
    /// Choices: the first telemetry (or a path change) only records L, as in `Hpcc::on_ack`;
    /// lastUpdateTime starts as "never", so the first real measurement commits Wc and is sent
    /// at once (the sender hears about first-RTT congestion immediately). `L = int.L` after
    /// each measurement, as line 27 does for ACKs (the draft's NewINT omits it, but
    /// MeasureInflight needs the previous sample). `now < lastUpdateTime` (clock going
    /// backwards) counts as "T has not passed".
    pub fn on_int(&mut self, now_ns: u64, hops: &[Hop]) -> Option<f64> {
        match self.core.admit(hops) {
            Admit::Ignore => return None,
            Admit::RecordOnly => {
                self.core.l = hops.to_vec();
                return None;
            }
            Admit::Measure => {}
        }
        let t = self.core.p.t_ns;
        // 29: if now > (lastUpdateTime + T) then
        let elapsed = self
            .last_update_time
            .is_none_or(|last| now_ns > last && (now_ns - last) as f64 > t);
        let sent = if elapsed {
            // 30: W = ComputeWind(MeasureInflight(int), True);
            let u = self.core.measure_inflight(hops);
            self.core.w = self.core.compute_wind(u, true);
            // 31: send_ack(W)   (returned below)
            // 32: lastUpdateTime = now;
            self.last_update_time = Some(now_ns);
            Some(self.core.w)
        } else {
            // 33: else
            // 34: W = ComputeWind(MeasureInflight(int), False);
            let u = self.core.measure_inflight(hops);
            self.core.w = self.core.compute_wind(u, false);
            None
        };
        // (27: R = W/T; L = int.L;)
        self.core.r = self.core.w / t;
        self.core.l = hops.to_vec();
        sent
    }

    /// The current state (`action` is `Ignored`: no event happened).
    pub fn output(&self) -> Output {
        self.core.output(Action::Ignored)
    }
    pub fn window(&self) -> f64 {
        self.core.w
    }
    pub fn wc(&self) -> f64 {
        self.core.wc
    }
    pub fn u(&self) -> f64 {
        self.core.u
    }
    pub fn inc_stage(&self) -> u32 {
        self.core.inc_stage
    }
    pub fn last_update_time(&self) -> Option<u64> {
        self.last_update_time
    }
}
