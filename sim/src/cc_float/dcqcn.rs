//! DCQCN reaction point (RP), floating-point reference.
//!
//! Algorithm: Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015,
//! section 3.1 (the RP algorithm, written as an f64 state machine step by step):
//!
//! * on a CNP (the paper's rate-decrease equation):
//!   `Rt = Rc; Rc = Rc * (1 - alpha/2); alpha = (1 - g) * alpha + g`
//! * alpha timer: when no CNP arrived for `K`, `alpha = (1 - g) * alpha`
//! * rate increase, triggered by the increase timer `T` and by the byte counter `B`, in three stages:
//!   - fast recovery:     `Rc = (Rt + Rc) / 2`
//!   - additive increase: `Rt = Rt + R_AI;  Rc = (Rt + Rc) / 2`
//!   - hyper increase:    `Rt = Rt + R_HAI; Rc = (Rt + Rc) / 2`
//!
//!   The stage comes from the two counts since the last cut (`t` timer expiries, `bc` byte-counter
//!   expiries), as in QCN/DCQCN: fast recovery while `max(t, bc) <= F`, hyper increase once
//!   `min(t, bc) > F`, additive increase otherwise. When the byte counter is disabled
//!   (`byte_counter_bytes == 0`, as in the HPCC simulator, which has no byte counter) the stage comes
//!   from `t` alone exactly like `RdmaHw::RateIncEventMlx` of the HPCC simulator: `t <= F` fast
//!   recovery, `t == F + 1` additive increase, `t > F + 1` hyper increase.
//!
//! Both rates are clamped to `[min_rate_bps, line_rate_bps]` after every step.
//!
//! Parameter values: see [`DcqcnParams::hpcc_run_py`] (the default) and
//! [`DcqcnParams::hpcc_rdma_hw_defaults`]; every value cites its source.
//!
//! Modelling choices (documented deviations / interpretations):
//! * CNP coalescing: a CNP arriving less than `min_cut_interval_ns` after the CNP that last cut
//!   the rate does not cut again (the HPCC simulator / Mellanox NIC checks for CNPs once per
//!   "rate decrease interval", 4 us); it only restarts the alpha timer, since it shows that
//!   congestion persists. This also bounds what a CNP storm can do: at most one cut per interval.
//! * The alpha timer is restarted by every CNP (so alpha decays only after `K` without CNP), the
//!   increase timer and both counters are restarted by every cut. Before the first cut no timer
//!   runs (the flow is at line rate; nothing to recover).
//! * Time: `now_ns` values that go backwards are treated as the latest time already seen (the
//!   event is still applied, but no timer runs backwards). Timers due at `now_ns` fire before the
//!   CNP given at that same `now_ns`.
//! * Huge jumps of time or byte counts: at most [`MAX_EVENTS_PER_CALL`] increase events are
//!   applied per call (the rate has long converged by then); the alpha decays for skipped periods
//!   are applied in closed form.
//! * Window: DCQCN is rate based; for the common `{window_bytes, rate_bps}` output the window is
//!   `Rc * base_rtt / 8` bytes, i.e. one rate-delay product, as the HPCC simulator does for its
//!   `dcqcn_vwin` runs (window = BDP scaled by `Rc / line rate`).

/// Increase events (timer or byte counter) applied at most per call of `advance`/`on_bytes_sent`.
pub const MAX_EVENTS_PER_CALL: u64 = 1_000_000;

/// DCQCN reaction-point parameters. Rates in bit/s, times in ns.
#[derive(Clone, Debug, PartialEq)]
pub struct DcqcnParams {
    /// Line rate of the NIC port (upper clamp, initial Rc and Rt).
    pub line_rate_bps: f64,
    /// Lower clamp of Rc and Rt.
    pub min_rate_bps: f64,
    /// EWMA gain g of alpha.
    pub g: f64,
    /// Alpha value before the first CNP.
    pub initial_alpha: f64,
    /// K: alpha decays once per `alpha_timer_ns` without CNP.
    pub alpha_timer_ns: u64,
    /// Minimum time between two rate cuts (CNPs in between are coalesced).
    pub min_cut_interval_ns: u64,
    /// T: period of the rate-increase timer.
    pub rate_increase_timer_ns: u64,
    /// B: bytes sent per byte-counter expiry; 0 disables the byte counter.
    pub byte_counter_bytes: u64,
    /// F: number of fast-recovery steps.
    pub fast_recovery_times: u32,
    /// R_AI: additive increase step of Rt.
    pub rate_ai_bps: f64,
    /// R_HAI: hyper increase step of Rt.
    pub rate_hai_bps: f64,
    /// Base RTT, only used to express the rate as a window.
    pub base_rtt_ns: u64,
}

impl DcqcnParams {
    /// The DCQCN set of the HPCC reference simulator's experiment script
    /// (alibaba-edu/High-Precision-Congestion-Control, `simulation/run.py`, `--cc dcqcn`), which the
    /// HPCC paper used as Mellanox CX4 defaults:
    /// * `ALPHA_RESUME_INTERVAL 1` (us)            -> `alpha_timer_ns = 1_000`
    /// * `RATE_DECREASE_INTERVAL 4` (us)           -> `min_cut_interval_ns = 4_000`
    /// * `RP_TIMER 300` (us)                       -> `rate_increase_timer_ns = 300_000`
    /// * `EWMA_GAIN 0.00390625` (= 1/256)          -> `g`
    /// * `FAST_RECOVERY_TIMES 1`                   -> `F = 1`
    /// * `RATE_AI {5*bw/25}Mb/s`, `RATE_HAI {50*bw/25}Mb/s` with bw the NIC rate in Gb/s
    ///   -> `R_AI = line * 2e-4`, `R_HAI = line * 2e-3` (5 / 50 Mb/s at 25 Gb/s, 20 / 200 at 100)
    /// * `MIN_RATE 1000Mb/s`
    /// * `CLAMP_TARGET_RATE 0` (not modelled: this reference always sets Rt = Rc on a cut, as the
    ///   paper does; see the module notes)
    /// * alpha before the first CNP: 1 (`RdmaHw::cnp_received_mlx` sets `m_alpha = 1`).
    /// * byte counter: the HPCC simulator has none; the DCQCN paper's B = 10 MB is used.
    ///   Set `byte_counter_bytes = 0` to get the simulator's timer-only behaviour.
    ///
    /// (`mix/config.txt` of the same repository uses other values: RP_TIMER 900, RATE_AI 50Mb/s,
    /// RATE_HAI 100Mb/s, MIN_RATE 100Mb/s, same g, 1 us, 4 us and F = 1.)
    pub fn hpcc_run_py(line_rate_bps: f64, base_rtt_ns: u64) -> Self {
        DcqcnParams {
            line_rate_bps,
            min_rate_bps: 1e9,
            g: 1.0 / 256.0,
            initial_alpha: 1.0,
            alpha_timer_ns: 1_000,
            min_cut_interval_ns: 4_000,
            rate_increase_timer_ns: 300_000,
            byte_counter_bytes: 10_000_000,
            fast_recovery_times: 1,
            rate_ai_bps: line_rate_bps * 5e6 / 25e9,
            rate_hai_bps: line_rate_bps * 50e6 / 25e9,
            base_rtt_ns,
        }
    }

    /// The attribute defaults of `RdmaHw::GetTypeId` in the HPCC simulator
    /// (`simulation/src/point-to-point/model/rdma-hw.cc`): MinRate 100Mb/s, EwmaGain 1/16,
    /// RPTimer 1500 us, RateDecreaseInterval 4 us, FastRecoveryTimes 5, AlphaResumInterval 55 us,
    /// RateAI 5Mb/s, RateHAI 50Mb/s. No byte counter there; the paper's 10 MB is used.
    pub fn hpcc_rdma_hw_defaults(line_rate_bps: f64, base_rtt_ns: u64) -> Self {
        DcqcnParams {
            line_rate_bps,
            min_rate_bps: 100e6,
            g: 1.0 / 16.0,
            initial_alpha: 1.0,
            alpha_timer_ns: 55_000,
            min_cut_interval_ns: 4_000,
            rate_increase_timer_ns: 1_500_000,
            byte_counter_bytes: 10_000_000,
            fast_recovery_times: 5,
            rate_ai_bps: 5e6,
            rate_hai_bps: 50e6,
            base_rtt_ns,
        }
    }

    /// Replaces unusable values (NaN, infinities, negative, zero periods) by safe ones so that the
    /// model can never produce NaN/inf nor loop forever.
    fn sanitized(mut self) -> Self {
        fn finite_or(x: f64, d: f64) -> f64 {
            if x.is_finite() {
                x
            } else {
                d
            }
        }
        self.line_rate_bps = finite_or(self.line_rate_bps, 1e9).max(1.0);
        self.min_rate_bps = finite_or(self.min_rate_bps, 0.0).clamp(0.0, self.line_rate_bps);
        self.g = finite_or(self.g, 1.0 / 256.0).clamp(0.0, 1.0);
        self.initial_alpha = finite_or(self.initial_alpha, 1.0).clamp(0.0, 1.0);
        self.alpha_timer_ns = self.alpha_timer_ns.max(1);
        self.rate_increase_timer_ns = self.rate_increase_timer_ns.max(1);
        self.rate_ai_bps = finite_or(self.rate_ai_bps, 0.0).max(0.0);
        self.rate_hai_bps = finite_or(self.rate_hai_bps, 0.0).max(0.0);
        self
    }
}

/// Which rate-increase stage an increase event ran in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncreaseStage {
    FastRecovery,
    Additive,
    Hyper,
}

/// DCQCN reaction point of one flow.
#[derive(Clone, Debug)]
pub struct Dcqcn {
    p: DcqcnParams,
    /// Rc, current rate.
    rc: f64,
    /// Rt, target rate.
    rt: f64,
    alpha: f64,
    /// Latest time seen (time never goes backwards inside the model).
    now: u64,
    /// True once the first cut happened (timers run from then on).
    active: bool,
    /// Time of the last cut (for CNP coalescing).
    last_cut: u64,
    next_alpha_decay: u64,
    next_increase: u64,
    /// Timer expiries since the last cut.
    t_count: u64,
    /// Byte-counter expiries since the last cut.
    bc_count: u64,
    /// Bytes sent since the last byte-counter expiry.
    bytes: u64,
    last_stage: Option<IncreaseStage>,
}

impl Dcqcn {
    pub fn new(params: DcqcnParams) -> Self {
        let p = params.sanitized();
        Dcqcn {
            rc: p.line_rate_bps,
            rt: p.line_rate_bps,
            alpha: p.initial_alpha,
            now: 0,
            active: false,
            last_cut: 0,
            next_alpha_decay: u64::MAX,
            next_increase: u64::MAX,
            t_count: 0,
            bc_count: 0,
            bytes: 0,
            last_stage: None,
            p,
        }
    }

    pub fn params(&self) -> &DcqcnParams {
        &self.p
    }

    /// Current rate Rc in bit/s, always within `[min_rate_bps, line_rate_bps]`.
    pub fn rate_bps(&self) -> f64 {
        self.rc
    }

    /// Target rate Rt in bit/s.
    pub fn target_rate_bps(&self) -> f64 {
        self.rt
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Window equivalent of the rate: `Rc * base_rtt / 8` bytes (see the module notes).
    pub fn window_bytes(&self) -> f64 {
        self.rc * self.p.base_rtt_ns as f64 * 1e-9 / 8.0
    }

    /// (timer expiries, byte-counter expiries) since the last cut.
    pub fn counters(&self) -> (u64, u64) {
        (self.t_count, self.bc_count)
    }

    /// Stage of the last increase event, `None` before any.
    pub fn last_stage(&self) -> Option<IncreaseStage> {
        self.last_stage
    }

    /// Next time a timer is due, if any runs.
    pub fn next_timer_ns(&self) -> Option<u64> {
        if self.active {
            Some(self.next_alpha_decay.min(self.next_increase))
        } else {
            None
        }
    }

    fn clamp_rates(&mut self) {
        let (lo, hi) = (self.p.min_rate_bps, self.p.line_rate_bps);
        self.rc = self.rc.clamp(lo, hi);
        self.rt = self.rt.clamp(lo, hi);
    }

    /// Time never goes backwards: returns max(now_ns, latest seen) and records it.
    fn monotonic(&mut self, now_ns: u64) -> u64 {
        if now_ns > self.now {
            self.now = now_ns;
        }
        self.now
    }

    /// A congestion notification packet arrived at `now_ns` (paper section 3.1, rate decrease).
    pub fn on_cnp(&mut self, now_ns: u64) {
        let now = self.monotonic(now_ns);
        self.run_timers(now);
        // Every CNP restarts the alpha timer: alpha decays only after K without CNP.
        self.next_alpha_decay = now.saturating_add(self.p.alpha_timer_ns);
        if self.active && now.saturating_sub(self.last_cut) < self.p.min_cut_interval_ns {
            return; // coalesced into the previous cut
        }
        // Rt = Rc; Rc = Rc (1 - alpha/2); alpha = (1 - g) alpha + g
        self.rt = self.rc;
        self.rc *= 1.0 - self.alpha / 2.0;
        self.alpha = (1.0 - self.p.g) * self.alpha + self.p.g;
        self.clamp_rates();
        // Restart the increase machinery.
        self.active = true;
        self.last_cut = now;
        self.t_count = 0;
        self.bc_count = 0;
        self.bytes = 0;
        self.next_increase = now.saturating_add(self.p.rate_increase_timer_ns);
    }

    /// Runs every timer due at or before `now_ns` (alpha decay and rate-increase timer).
    pub fn on_timer(&mut self, now_ns: u64) {
        let now = self.monotonic(now_ns);
        self.run_timers(now);
    }

    /// Same as [`Dcqcn::on_timer`].
    pub fn advance(&mut self, now_ns: u64) {
        self.on_timer(now_ns);
    }

    /// Number of expiries of a periodic timer `next, next + period, ...` at or before `now`.
    fn due(next: u64, now: u64, period: u64) -> u64 {
        if next == u64::MAX || now < next {
            0
        } else {
            (now - next) / period + 1
        }
    }

    fn run_timers(&mut self, now: u64) {
        if !self.active {
            return;
        }
        // Alpha timer: alpha = (1 - g) alpha per expiry (paper: no CNP for K).
        let n = Self::due(self.next_alpha_decay, now, self.p.alpha_timer_ns);
        if n > 0 {
            let looped = n.min(MAX_EVENTS_PER_CALL);
            for _ in 0..looped {
                self.alpha *= 1.0 - self.p.g;
            }
            if n > looped {
                self.alpha *= (1.0 - self.p.g).powf((n - looped) as f64);
            }
            self.next_alpha_decay = self
                .next_alpha_decay
                .saturating_add(n.saturating_mul(self.p.alpha_timer_ns));
        }
        // Rate-increase timer.
        let n = Self::due(self.next_increase, now, self.p.rate_increase_timer_ns);
        if n > 0 {
            for _ in 0..n.min(MAX_EVENTS_PER_CALL) {
                self.t_count = self.t_count.saturating_add(1);
                self.increase_event();
            }
            if n > MAX_EVENTS_PER_CALL {
                self.t_count = self.t_count.saturating_add(n - MAX_EVENTS_PER_CALL);
            }
            self.next_increase = self
                .next_increase
                .saturating_add(n.saturating_mul(self.p.rate_increase_timer_ns));
        }
    }

    /// `n` payload bytes were sent: drives the byte counter (paper: one increase event per B bytes).
    pub fn on_bytes_sent(&mut self, n: u64) {
        if !self.active || self.p.byte_counter_bytes == 0 {
            return;
        }
        let b = self.p.byte_counter_bytes;
        let total = self.bytes as u128 + n as u128;
        let events = (total / b as u128) as u64; // at most 2^64 / 1, fits
        self.bytes = (total % b as u128) as u64;
        for _ in 0..events.min(MAX_EVENTS_PER_CALL) {
            self.bc_count = self.bc_count.saturating_add(1);
            self.increase_event();
        }
        if events > MAX_EVENTS_PER_CALL {
            self.bc_count = self.bc_count.saturating_add(events - MAX_EVENTS_PER_CALL);
        }
    }

    fn stage(&self) -> IncreaseStage {
        let f = self.p.fast_recovery_times as u64;
        if self.p.byte_counter_bytes == 0 {
            // Timer only (HPCC simulator, RateIncEventMlx).
            if self.t_count <= f {
                IncreaseStage::FastRecovery
            } else if self.t_count == f + 1 {
                IncreaseStage::Additive
            } else {
                IncreaseStage::Hyper
            }
        } else if self.t_count.max(self.bc_count) <= f {
            IncreaseStage::FastRecovery
        } else if self.t_count.min(self.bc_count) > f {
            IncreaseStage::Hyper
        } else {
            IncreaseStage::Additive
        }
    }

    fn increase_event(&mut self) {
        let stage = self.stage();
        match stage {
            IncreaseStage::FastRecovery => {}
            IncreaseStage::Additive => self.rt += self.p.rate_ai_bps,
            IncreaseStage::Hyper => self.rt += self.p.rate_hai_bps,
        }
        self.rt = self.rt.clamp(self.p.min_rate_bps, self.p.line_rate_bps);
        self.rc = (self.rt + self.rc) / 2.0;
        self.clamp_rates();
        self.last_stage = Some(stage);
    }
}
