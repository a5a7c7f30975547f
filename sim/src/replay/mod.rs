//! Trace replay: feeds a JSON-lines trace of CC events through one algorithm, one instance per
//! flow id, and writes one JSON line per event (`hpcc-nic replay`, docs/replay.md).
//!
//! `ReplayConfig::model` selects the float references (`crate::cc_float`) or the fixed-point
//! models (`crate::cc_fixed`, see `fixed.rs` for what the wire formats change).
//!
//! Semantics (repeated in docs/replay.md):
//!
//! * A line that is not a JSON object of the event schema (bad JSON, missing `flow` / `t_ns` /
//!   `event`, a field of the wrong type) is an error naming its 1-based line number and serde's
//!   message; replay stops there (lines before it were already written). Extra fields are
//!   allowed and ignored. Blank lines are skipped without output.
//! * Everything else produces exactly one output line. An event the algorithm does not use
//!   (e.g. `cnp` for HPCC), an unknown event kind, or an event missing a field that this
//!   algorithm needs (e.g. an HPCC `ack` without `seq`) is *skipped*: the flow's state is not
//!   touched (not even created) and the output line carries the current state (or the initial
//!   state for a new flow) plus `"skipped":"<reason>"`. Skips are counted in [`Stats`].
//! * State is per flow id; a flow is created, in its initial state, by its first used event.
//! * HPCC (`hpcc`): `ack` -> `Hpcc::on_ack(seq, snd_nxt, hops)`; `int` (a telemetry response,
//!   probe or switch INT) -> `Hpcc::on_telemetry_response`, same fields.
//! * Rx-HPCC (`hpcc-rx`): `int` and `ack` both -> `RxHpcc::on_int(t_ns, hops)`: the hops are the
//!   telemetry of a data packet arriving at the receiver at `t_ns` (so a sender-side trace can
//!   be replayed as if the receiver ran the algorithm). `seq` / `snd_nxt` are not used.
//!   `"feedback":true` marks the events where line 31 sends W to the sender.
//! * LDCP (`ldcp`): `ack` -> `Ldcp::on_ack(t_ns, ece (default false), acked_pkts (default 1))`;
//!   `timer` -> `Ldcp::on_timer(t_ns)`, `"grant"` = packets it allows; `loss` -> `on_loss`.
//! * DCQCN (`dcqcn`): `cnp` -> `Dcqcn::on_cnp(t_ns)`; `timer` -> `Dcqcn::on_timer(t_ns)`;
//!   `tx` with `bytes` -> `on_timer(t_ns)` then `on_bytes_sent(bytes)` (byte counter).
//! * Hops: `ts_ns` and `tx_bytes` are full 64-bit counters (differences modulo 2^64, see
//!   `cc_float::hpcc::Wrap::U64`), `qlen_bytes` bytes, `link_gbps` Gb/s (converted to bytes/ns).
//!   Time going backwards, 0 or more than 5 hops, `link_gbps` 0 are handled by the references
//!   (documented there), not rejected here.

mod fixed;

use crate::cc_float::dcqcn::{Dcqcn, DcqcnParams, IncreaseStage};
use crate::cc_fixed::Clock;
use crate::cc_float::hpcc::{Action, Hop, Hpcc, HpccParams, RxHpcc};
use crate::cc_float::ldcp::{Ldcp, LdcpParams, LdcpPhase};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, Write};

/// Which algorithm the trace is replayed through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Hpcc,
    HpccRx,
    Ldcp,
    Dcqcn,
}

impl Algo {
    pub fn name(self) -> &'static str {
        match self {
            Algo::Hpcc => "hpcc",
            Algo::HpccRx => "hpcc-rx",
            Algo::Ldcp => "ldcp",
            Algo::Dcqcn => "dcqcn",
        }
    }
}

/// Which implementation of the algorithm runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// The floating-point references, `crate::cc_float`.
    Float,
    /// The fixed-point golden models, `crate::cc_fixed` (see `fixed.rs` for what differs).
    Fixed,
}

/// Replay configuration: the algorithm and the parameters of every reference (only the
/// selected algorithm's are used).
#[derive(Clone, Debug)]
pub struct ReplayConfig {
    pub algo: Algo,
    pub model: Model,
    /// Clock of the fixed-point models (rates are bytes per cycle of it).
    pub clock: Clock,
    pub hpcc: HpccParams,
    pub ldcp: LdcpParams,
    pub dcqcn: DcqcnParams,
}

impl ReplayConfig {
    /// The references' defaults for a line rate (Gb/s), base RTT (ns) and MTU (bytes):
    /// `HpccParams::new`, `LdcpParams::new`, `DcqcnParams::hpcc_run_py`; HPCC W_min = MTU.
    pub fn new(algo: Algo, line_gbps: f64, base_rtt_ns: u64, mtu: u32) -> ReplayConfig {
        let line_bps = line_gbps * 1e9;
        let mut hpcc = HpccParams::new(line_gbps / 8.0, base_rtt_ns as f64);
        hpcc.w_min = mtu as f64;
        ReplayConfig {
            algo,
            model: Model::Float,
            clock: Clock::default(),
            hpcc,
            ldcp: LdcpParams::new(line_bps, base_rtt_ns, mtu),
            dcqcn: DcqcnParams::hpcc_run_py(line_bps, base_rtt_ns),
        }
    }
}

/// One hop of an input event's telemetry.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct HopEvent {
    pub ts_ns: u64,
    pub tx_bytes: u64,
    pub qlen_bytes: u64,
    pub link_gbps: f64,
}

/// One input line. Unknown fields are ignored.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Event {
    pub flow: u64,
    pub t_ns: u64,
    pub event: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snd_nxt: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hops: Option<Vec<HopEvent>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ece: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acked_pkts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

/// One output line. Key order is the field order; absent fields are omitted.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Output {
    pub flow: u64,
    pub t_ns: u64,
    pub window_bytes: f64,
    pub rate_bps: f64,
    /// `--model fixed`: the rate as the flow scheduler receives it, UQ16.16 bytes/cycle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_q16: Option<u32>,
    /// HPCC / Rx-HPCC: Wc, U, incStage, what the event did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wc_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub u: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inc_stage: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// Rx-HPCC: W was sent to the sender (line 31).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<bool>,
    /// LDCP: window in packets, stage, packets granted by a timer event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwnd_pkts: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant: Option<u32>,
    /// DCQCN: target rate, alpha, stage of the last increase event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_rate_bps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    /// Why the event was not applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

/// Counts of a replay.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Event lines read (blank lines not counted).
    pub events: u64,
    /// Events applied to a flow.
    pub applied: u64,
    /// Events skipped (an output line with `"skipped"` each).
    pub skipped: u64,
    /// Distinct flows created.
    pub flows: u64,
}

#[derive(Debug)]
pub enum ReplayError {
    /// Invalid parameters.
    Config(String),
    /// A line that is not an event: 1-based line number and serde's message.
    Parse { line: u64, message: String },
    Io(std::io::Error),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Config(m) => write!(f, "invalid parameters: {m}"),
            ReplayError::Parse { line, message } => write!(f, "trace line {line}: {message}"),
            ReplayError::Io(e) => write!(f, "i/o error: {e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<std::io::Error> for ReplayError {
    fn from(e: std::io::Error) -> Self {
        ReplayError::Io(e)
    }
}

enum Flow {
    Hpcc(Hpcc, Option<Action>),
    HpccRx(RxHpcc, Option<bool>),
    Ldcp(Ldcp, Option<u32>),
    Dcqcn(Dcqcn),
}

impl Flow {
    fn new(cfg: &ReplayConfig) -> Flow {
        match cfg.algo {
            Algo::Hpcc => Flow::Hpcc(Hpcc::new(cfg.hpcc), None),
            Algo::HpccRx => Flow::HpccRx(RxHpcc::new(cfg.hpcc), None),
            Algo::Ldcp => Flow::Ldcp(Ldcp::new(cfg.ldcp.clone()), None),
            Algo::Dcqcn => Flow::Dcqcn(Dcqcn::new(cfg.dcqcn.clone())),
        }
    }

    /// Applies `ev`, or returns the reason it is skipped (state untouched).
    fn apply(&mut self, ev: &Event, hops: &[Hop]) -> Result<(), String> {
        let kind = ev.event.as_str();
        match self {
            Flow::Hpcc(h, last) => match kind {
                "ack" | "int" => {
                    let (Some(seq), Some(snd_nxt)) = (ev.seq, ev.snd_nxt) else {
                        return Err(format!("{kind} without seq and snd_nxt"));
                    };
                    let out = if kind == "ack" {
                        h.on_ack(seq, snd_nxt, hops)
                    } else {
                        h.on_telemetry_response(seq, snd_nxt, hops)
                    };
                    *last = Some(out.action);
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by hpcc")),
            },
            Flow::HpccRx(h, last) => match kind {
                "ack" | "int" => {
                    *last = Some(h.on_int(ev.t_ns, hops).is_some());
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by hpcc-rx")),
            },
            Flow::Ldcp(l, grant) => match kind {
                "ack" => {
                    l.on_ack(ev.t_ns, ev.ece.unwrap_or(false), ev.acked_pkts.unwrap_or(1));
                    *grant = None;
                    Ok(())
                }
                "timer" => {
                    *grant = Some(l.on_timer(ev.t_ns));
                    Ok(())
                }
                "loss" => {
                    l.on_loss(ev.t_ns);
                    *grant = None;
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by ldcp")),
            },
            Flow::Dcqcn(d) => match kind {
                "cnp" => {
                    d.on_cnp(ev.t_ns);
                    Ok(())
                }
                "timer" => {
                    d.on_timer(ev.t_ns);
                    Ok(())
                }
                "tx" => {
                    let Some(bytes) = ev.bytes else {
                        return Err("tx without bytes".into());
                    };
                    d.on_timer(ev.t_ns);
                    d.on_bytes_sent(bytes);
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by dcqcn")),
            },
        }
    }

    /// The state as an output line; `fresh` = the per-event fields (action, feedback, grant)
    /// describe this event (false for a skipped event).
    fn output(&self, ev: &Event, fresh: bool) -> Output {
        let mut o = Output {
            flow: ev.flow,
            t_ns: ev.t_ns,
            ..Output::default()
        };
        match self {
            Flow::Hpcc(h, last) => {
                let s = h.output();
                o.window_bytes = s.window_bytes;
                o.rate_bps = s.rate_bps;
                o.wc_bytes = Some(s.wc_bytes);
                o.u = Some(s.u);
                o.inc_stage = Some(s.inc_stage);
                if fresh {
                    o.action = last.map(|a| a.name().to_string());
                }
            }
            Flow::HpccRx(h, fb) => {
                let s = h.output();
                o.window_bytes = s.window_bytes;
                o.rate_bps = s.rate_bps;
                o.wc_bytes = Some(s.wc_bytes);
                o.u = Some(s.u);
                o.inc_stage = Some(s.inc_stage);
                if fresh {
                    o.feedback = *fb;
                }
            }
            Flow::Ldcp(l, grant) => {
                o.window_bytes = l.window_bytes();
                o.rate_bps = l.rate_bps();
                o.cwnd_pkts = Some(l.cwnd_pkts());
                o.phase = Some(
                    match l.phase() {
                        LdcpPhase::FastStart => "fast_start",
                        LdcpPhase::Stable => "stable",
                    }
                    .to_string(),
                );
                if fresh {
                    o.grant = *grant;
                }
            }
            Flow::Dcqcn(d) => {
                o.window_bytes = d.window_bytes();
                o.rate_bps = d.rate_bps();
                o.target_rate_bps = Some(d.target_rate_bps());
                o.alpha = Some(d.alpha());
                o.stage = d.last_stage().map(|s| stage_name(s).to_string());
            }
        }
        o
    }
}

pub fn stage_name(s: IncreaseStage) -> &'static str {
    match s {
        IncreaseStage::FastRecovery => "fast_recovery",
        IncreaseStage::Additive => "additive",
        IncreaseStage::Hyper => "hyper",
    }
}

/// A flow of either model.
enum AnyFlow {
    Float(Flow),
    Fixed(fixed::FxFlow),
}

impl AnyFlow {
    fn new(cfg: &ReplayConfig, fx: Option<&fixed::FxCfg>) -> AnyFlow {
        match fx {
            Some(c) => AnyFlow::Fixed(fixed::FxFlow::new(cfg.algo, c)),
            None => AnyFlow::Float(Flow::new(cfg)),
        }
    }

    fn apply(&mut self, ev: &Event, fx: Option<&fixed::FxCfg>) -> Result<(), String> {
        match (self, fx) {
            (AnyFlow::Float(f), _) => f.apply(ev, &to_hops(ev.hops.as_deref().unwrap_or(&[]))),
            (AnyFlow::Fixed(f), Some(c)) => f.apply(c, ev),
            (AnyFlow::Fixed(_), None) => unreachable!("fixed flows need their configuration"),
        }
    }

    fn output(&self, ev: &Event, fresh: bool, fx: Option<&fixed::FxCfg>) -> Output {
        match (self, fx) {
            (AnyFlow::Float(f), _) => f.output(ev, fresh),
            (AnyFlow::Fixed(f), Some(c)) => f.output(c, ev, fresh),
            (AnyFlow::Fixed(_), None) => unreachable!("fixed flows need their configuration"),
        }
    }
}

fn to_hops(hops: &[HopEvent]) -> Vec<Hop> {
    hops.iter()
        .map(|h| Hop::new(h.ts_ns, h.tx_bytes, h.qlen_bytes, h.link_gbps / 8.0))
        .collect()
}

/// Checks the parameters of the selected algorithm.
pub fn validate(cfg: &ReplayConfig) -> Result<(), ReplayError> {
    match cfg.algo {
        Algo::Hpcc | Algo::HpccRx => cfg.hpcc.validate().map_err(ReplayError::Config),
        // The LDCP and DCQCN references sanitize their parameters themselves.
        Algo::Ldcp | Algo::Dcqcn => Ok(()),
    }
}

/// Replays the JSON-lines trace read from `reader`, writing one JSON line per event to
/// `writer`. Stops at the first malformed line (see the module notes).
pub fn replay(
    reader: impl BufRead,
    mut writer: impl Write,
    cfg: &ReplayConfig,
) -> Result<Stats, ReplayError> {
    validate(cfg)?;
    let fx = match cfg.model {
        Model::Float => None,
        Model::Fixed => Some(fixed::FxCfg::new(cfg).map_err(ReplayError::Config)?),
    };
    let fx = fx.as_ref();
    let mut flows: BTreeMap<u64, AnyFlow> = BTreeMap::new();
    let mut stats = Stats::default();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        let lineno = i as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        let ev: Event = serde_json::from_str(&line).map_err(|e| ReplayError::Parse {
            line: lineno,
            message: e.to_string(),
        })?;
        stats.events += 1;
        let out = match flows.get_mut(&ev.flow) {
            Some(flow) => match flow.apply(&ev, fx) {
                Ok(()) => {
                    stats.applied += 1;
                    flow.output(&ev, true, fx)
                }
                Err(reason) => {
                    stats.skipped += 1;
                    let mut o = flow.output(&ev, false, fx);
                    o.skipped = Some(reason);
                    o
                }
            },
            None => {
                let mut flow = AnyFlow::new(cfg, fx);
                match flow.apply(&ev, fx) {
                    Ok(()) => {
                        stats.applied += 1;
                        stats.flows += 1;
                        let o = flow.output(&ev, true, fx);
                        flows.insert(ev.flow, flow);
                        o
                    }
                    Err(reason) => {
                        // Not created: the line shows the initial state.
                        stats.skipped += 1;
                        let mut o = flow.output(&ev, false, fx);
                        o.skipped = Some(reason);
                        o
                    }
                }
            }
        };
        serde_json::to_writer(&mut writer, &out).map_err(std::io::Error::from)?;
        writer.write_all(b"\n")?;
    }
    writer.flush()?;
    Ok(stats)
}
