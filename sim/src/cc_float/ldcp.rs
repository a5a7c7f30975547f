//! LDCP sender congestion control, floating-point reference, written from
//! draft-dai-tsvwg-pfc-free-congestion-control-01 (../shared/seeds/002_b306c0707396d840.txt).
//!
//! The window `cw` is kept in packets as an f64.
//!
//! * Stable stage, `cw >= 1` (section 2.2, PAWA). Per ACK confirming `n` packets (eq. 2; with
//!   per-packet ACKs n = 1 and this is eq. 1):
//!   - ECN-Echo = 0: `cw = cw + n * alpha / cw`
//!   - ECN-Echo = 1: `cw = cw - n * beta`
//! * Stable stage, `cw < 1` (section 2.2, sub-packet window). The flow is ticked out by a timer of
//!   period `RTT / cw` ([`Ldcp::on_timer`] grants one packet per expiry) and each ACK updates
//!   - ECN-Echo = 0: `cw = cw + gamma`
//!   - ECN-Echo = 1: `cw = max(gamma, eta * cw)`, eta = 1/2
//!
//!   An ACK confirming n > 1 packets applies the rule once per packet; once `cw` reaches 1 the
//!   rest of the packets go through eq. 2.
//! * Zero-RTT fast start (sections 2.3 and 3.1). The first IW (= BDP) packets are sent at once,
//!   ECN-incapable except the last fast-start packet (the IW-th packet, or the last packet of a
//!   message shorter than IW), see [`Ldcp::first_rtt_packet_ecn_capable`]; every later packet is
//!   ECN-capable. The sender counts the packets acknowledged in order and leaves fast start when
//!   1. a loss is detected ([`Ldcp::on_loss`]): `cw` = packets acknowledged before the loss, or
//!   2. the full IW has been acknowledged: `cw = IW`.
//!
//! Parameter values: the draft only bounds `0 < alpha, beta <= 1`, fixes `eta = 1/2` and lists
//! gamma = 1/4, 1/8, 1/16 as typical. Defaults here: alpha = 1 (one packet per RTT, as TCP),
//! beta = 1/2 (a fully marked round halves the window; the draft gives no value: our choice),
//! gamma = 1/8, IW = BDP rounded up to whole packets, max window = IW (the window never asks for
//! more than line rate).
//!
//! Modelling choices:
//! * Outputs are clamped to `[gamma, max_cwnd_pkts]` packets and the rate to the line rate.
//! * An ACK with `acked_pkts == 0` changes nothing (the receiver always acknowledges at least one
//!   packet; a zero count is treated as a malformed ACK).
//! * In fast start the window stays at IW and ECE marks are not applied (fast-start packets are
//!   ECN-incapable; the draft describes no window reaction before the transition). Packets of the
//!   ACK that completes the IW beyond the IW go through the stable-stage rules.
//! * A loss in the stable stage does not change the window (the draft only specifies go-back-N
//!   retransmission there; congestion is signalled by ECN).
//! * If no packet was acknowledged before a fast-start loss the window becomes the minimum
//!   window gamma (the draft's rule gives 0, which is not a window).
//! * Time: `now_ns` values that go backwards are treated as the latest time seen. The sub-packet
//!   timer grants at most one packet per call even if several periods elapsed (no bursts).

/// LDCP parameters. Window values in packets.
#[derive(Clone, Debug, PartialEq)]
pub struct LdcpParams {
    pub line_rate_bps: f64,
    /// Base RTT (timer period `RTT / cw`, rate `= window / RTT`).
    pub rtt_ns: u64,
    /// Packet (payload) size in bytes, the unit of `cw`.
    pub mss_bytes: u32,
    /// Additive increase (eq. 1/2), `0 < alpha <= 1`.
    pub alpha: f64,
    /// Decrease per marked packet (eq. 1/2), `0 < beta <= 1`.
    pub beta: f64,
    /// Sub-packet increase step and minimum window.
    pub gamma: f64,
    /// Sub-packet multiplicative decrease (draft: 1/2).
    pub eta: f64,
    /// Initial window of the fast start, packets.
    pub iw_pkts: u32,
    /// Upper clamp of the window, packets.
    pub max_cwnd_pkts: f64,
    /// Start with the zero-RTT fast start; otherwise start in the stable stage with `cw = IW`.
    pub fast_start: bool,
}

impl LdcpParams {
    /// Defaults described in the module notes, IW = ceil(line rate * RTT / (8 * mss)).
    pub fn new(line_rate_bps: f64, rtt_ns: u64, mss_bytes: u32) -> Self {
        let bdp_bytes = line_rate_bps * rtt_ns as f64 * 1e-9 / 8.0;
        let iw = if bdp_bytes.is_finite() && mss_bytes > 0 {
            // The 1e-9 slack keeps an exact BDP (125 000.000000001 B) from rounding up.
            (bdp_bytes / mss_bytes as f64 - 1e-9).ceil().clamp(1.0, u32::MAX as f64) as u32
        } else {
            1
        };
        LdcpParams {
            line_rate_bps,
            rtt_ns,
            mss_bytes,
            alpha: 1.0,
            beta: 0.5,
            gamma: 1.0 / 8.0,
            eta: 0.5,
            iw_pkts: iw,
            max_cwnd_pkts: iw as f64,
            fast_start: true,
        }
    }

    fn sanitized(mut self) -> Self {
        fn finite_or(x: f64, d: f64) -> f64 {
            if x.is_finite() {
                x
            } else {
                d
            }
        }
        self.line_rate_bps = finite_or(self.line_rate_bps, 1e9).max(1.0);
        self.rtt_ns = self.rtt_ns.max(1);
        self.mss_bytes = self.mss_bytes.max(1);
        self.alpha = finite_or(self.alpha, 1.0).clamp(1e-6, 1.0);
        self.beta = finite_or(self.beta, 0.5).clamp(1e-6, 1.0);
        // gamma >= 1/1024 keeps the per-packet sub-packet loop short and RTT/cw finite.
        self.gamma = finite_or(self.gamma, 0.125).clamp(1.0 / 1024.0, 1.0);
        self.eta = finite_or(self.eta, 0.5).clamp(0.0, 1.0);
        self.iw_pkts = self.iw_pkts.max(1);
        self.max_cwnd_pkts = finite_or(self.max_cwnd_pkts, self.iw_pkts as f64).max(1.0);
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LdcpPhase {
    /// First RTT(s): IW packets in flight, waiting for them to be acknowledged.
    FastStart,
    /// PAWA (section 2.2).
    Stable,
}

#[derive(Clone, Debug)]
pub struct Ldcp {
    p: LdcpParams,
    phase: LdcpPhase,
    cw: f64,
    /// Packets acknowledged in order during the fast start.
    fs_acked: u64,
    now: u64,
    /// Next sub-packet timer expiry, when `cw < 1`.
    next_tick: Option<u64>,
}

impl Ldcp {
    pub fn new(params: LdcpParams) -> Self {
        let p = params.sanitized();
        let iw = (p.iw_pkts as f64).min(p.max_cwnd_pkts);
        Ldcp {
            phase: if p.fast_start { LdcpPhase::FastStart } else { LdcpPhase::Stable },
            cw: iw.max(p.gamma),
            fs_acked: 0,
            now: 0,
            next_tick: None,
            p,
        }
    }

    pub fn params(&self) -> &LdcpParams {
        &self.p
    }

    pub fn phase(&self) -> LdcpPhase {
        self.phase
    }

    /// Window in packets (may be below one), within `[gamma, max_cwnd_pkts]`.
    pub fn cwnd_pkts(&self) -> f64 {
        self.cw
    }

    pub fn window_bytes(&self) -> f64 {
        self.cw * self.p.mss_bytes as f64
    }

    /// `window / RTT`, at most the line rate.
    pub fn rate_bps(&self) -> f64 {
        let r = self.window_bytes() * 8.0 / (self.p.rtt_ns as f64 * 1e-9);
        r.min(self.p.line_rate_bps)
    }

    /// Packets acknowledged in order during the fast start.
    pub fn fast_start_acked(&self) -> u64 {
        self.fs_acked
    }

    /// Period `RTT / cw` of the sub-packet timer, when `cw < 1`.
    pub fn sub_packet_period_ns(&self) -> Option<u64> {
        if self.phase == LdcpPhase::Stable && self.cw < 1.0 {
            let period = (self.p.rtt_ns as f64 / self.cw).ceil();
            Some(period.clamp(1.0, u64::MAX as f64) as u64)
        } else {
            None
        }
    }

    /// Next expiry of the sub-packet timer, if it runs.
    pub fn next_timer_ns(&self) -> Option<u64> {
        self.next_tick
    }

    /// Whether packet `pkt_index` (0-based, counted from the start of a message of `msg_pkts`
    /// packets sent with the fast start) is sent ECN-capable (section 3.1): the fast-start
    /// packets are ECN-incapable except the last one (index IW - 1, or the message's last packet
    /// if the message has at most IW packets); packets after the fast start are ECN-capable.
    pub fn first_rtt_packet_ecn_capable(&self, pkt_index: u64, msg_pkts: u64) -> bool {
        let iw = self.p.iw_pkts as u64;
        let last_fast_start = iw.min(msg_pkts.max(1)) - 1;
        pkt_index >= last_fast_start
    }

    fn monotonic(&mut self, now_ns: u64) -> u64 {
        if now_ns > self.now {
            self.now = now_ns;
        }
        self.now
    }

    fn clamp(&mut self) {
        self.cw = self.cw.clamp(self.p.gamma, self.p.max_cwnd_pkts);
    }

    /// Keeps the sub-packet timer armed exactly while `cw < 1`.
    fn rearm(&mut self, now: u64) {
        match self.sub_packet_period_ns() {
            Some(period) => {
                if self.next_tick.is_none() {
                    self.next_tick = Some(now.saturating_add(period));
                }
            }
            None => self.next_tick = None,
        }
    }

    /// An ACK arrived at `now_ns` confirming `acked_pkts` packets, with ECN-Echo `ece`.
    pub fn on_ack(&mut self, now_ns: u64, ece: bool, acked_pkts: u32) {
        let now = self.monotonic(now_ns);
        if acked_pkts == 0 {
            return;
        }
        let mut n = acked_pkts as u64;
        if self.phase == LdcpPhase::FastStart {
            let iw = self.p.iw_pkts as u64;
            let needed = iw - self.fs_acked;
            if n < needed {
                self.fs_acked += n;
                return;
            }
            // Transition 2 (section 3.1): the full IW is acknowledged, cw = IW (= BDP).
            self.fs_acked = iw;
            self.phase = LdcpPhase::Stable;
            self.cw = iw as f64;
            self.clamp();
            n -= needed;
            if n == 0 {
                self.rearm(now);
                return;
            }
        }
        self.stable_update(ece, n);
        self.rearm(now);
    }

    fn stable_update(&mut self, ece: bool, mut n: u64) {
        // Sub-packet regime, one step per packet.
        while n > 0 && self.cw < 1.0 {
            if ece {
                let next = (self.p.eta * self.cw).max(self.p.gamma);
                if next == self.cw {
                    n = 0; // at the floor: further marks change nothing
                    break;
                }
                self.cw = next;
            } else {
                self.cw += self.p.gamma;
            }
            n -= 1;
        }
        if n > 0 && self.cw >= 1.0 {
            let n = n as f64;
            if ece {
                self.cw -= n * self.p.beta; // eq. 2 (eq. 1 for n = 1)
            } else {
                self.cw += n * self.p.alpha / self.cw; // eq. 2 (eq. 1 for n = 1)
            }
        }
        self.clamp();
    }

    /// A loss was detected at `now_ns` (NAK / go-back-N). In fast start this is transition 1 of
    /// section 3.1: `cw` = packets acknowledged before the loss. No effect in the stable stage.
    pub fn on_loss(&mut self, now_ns: u64) {
        let now = self.monotonic(now_ns);
        if self.phase == LdcpPhase::FastStart {
            self.phase = LdcpPhase::Stable;
            self.cw = self.fs_acked as f64;
            self.clamp();
            self.next_tick = None;
            self.rearm(now);
        }
    }

    /// Sub-packet timer (section 2.2: "a flow with a cw < 1 is ticked out by a timer, whose
    /// timeout is set as RTT/cw"). Returns the number of packets that may be sent now: 1 when the
    /// timer expired (it is then re-armed with the current `RTT / cw`), else 0. With `cw >= 1`
    /// the flow is ACK clocked and this returns 0.
    pub fn on_timer(&mut self, now_ns: u64) -> u32 {
        let now = self.monotonic(now_ns);
        match (self.next_tick, self.sub_packet_period_ns()) {
            (Some(t), Some(period)) if now >= t => {
                self.next_tick = Some(now.saturating_add(period));
                1
            }
            (_, None) => {
                self.next_tick = None;
                0
            }
            _ => 0,
        }
    }
}
