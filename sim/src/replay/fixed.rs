//! `--model fixed`: the same events through the fixed-point models of `crate::cc_fixed`.
//!
//! What differs from the float replay (also in docs/replay.md):
//! * Hops enter in wire units, as the Rx pipe would hand them over: `ts_ns` modulo 2^24,
//!   `tx_bytes / 128` modulo 2^20, `qlen_bytes / 80` saturated to 17 bits, and `link_gbps` must
//!   be one of 25, 50, 100, 200, 400 (any other value is a hop without a usable rate).
//! * `seq` and `snd_nxt` are taken modulo 2^32 (serial-number comparison); LDCP `acked_pkts`
//!   saturates at 65535.
//! * Output lines add `rate_q16`, the UQ16.16 bytes/cycle value the flow scheduler receives;
//!   `window_bytes`, `wc_bytes`, `u`, `cwnd_pkts` and `alpha` are the fixed-point values
//!   converted exactly (or, for the rate, deterministically) to decimals.

use super::{Event, Output};
use crate::{cc_dcqcn as dcqcn, cc_hpcc as hpcc, cc_ldcp as ldcp};
use crate::replay::{Algo, ReplayConfig};

/// The configuration registers of the selected algorithm.
pub(super) enum FxCfg {
    Hpcc(hpcc::HpccConfig),
    Ldcp(ldcp::LdcpConfig),
    Dcqcn(dcqcn::DcqcnConfig),
}

impl FxCfg {
    pub(super) fn new(cfg: &ReplayConfig) -> Result<FxCfg, String> {
        Ok(match cfg.algo {
            Algo::Hpcc | Algo::HpccRx => FxCfg::Hpcc(hpcc::HpccConfig::new(&cfg.hpcc, cfg.clock)?),
            Algo::Ldcp => FxCfg::Ldcp(ldcp::LdcpConfig::new(&cfg.ldcp, cfg.clock)?),
            Algo::Dcqcn => FxCfg::Dcqcn(dcqcn::DcqcnConfig::new(&cfg.dcqcn, cfg.clock)?),
        })
    }
}

/// One flow's fixed-point state and what its last event reported.
pub(super) enum FxFlow {
    Hpcc(hpcc::HpccState, Option<hpcc::Action>),
    HpccRx(hpcc::HpccState, Option<bool>),
    Ldcp(ldcp::LdcpState, Option<u32>),
    Dcqcn(dcqcn::DcqcnState),
}

fn hops(ev: &Event) -> Vec<hpcc::FxHop> {
    ev.hops
        .iter()
        .flatten()
        .map(|h| hpcc::FxHop::from_counters(h.ts_ns, h.tx_bytes, h.qlen_bytes, h.link_gbps))
        .collect()
}

impl FxFlow {
    pub(super) fn new(algo: Algo, c: &FxCfg) -> FxFlow {
        match (algo, c) {
            (Algo::Hpcc, FxCfg::Hpcc(c)) => FxFlow::Hpcc(hpcc::HpccState::new(c), None),
            (Algo::HpccRx, FxCfg::Hpcc(c)) => FxFlow::HpccRx(hpcc::HpccState::new(c), None),
            (Algo::Ldcp, FxCfg::Ldcp(c)) => FxFlow::Ldcp(ldcp::LdcpState::new(c), None),
            (Algo::Dcqcn, FxCfg::Dcqcn(c)) => FxFlow::Dcqcn(dcqcn::DcqcnState::new(c)),
            _ => unreachable!("FxCfg::new builds the configuration of the selected algorithm"),
        }
    }

    /// Applies `ev`, or returns why it is skipped (state untouched); same rules as the float
    /// replay.
    pub(super) fn apply(&mut self, c: &FxCfg, ev: &Event) -> Result<(), String> {
        let kind = ev.event.as_str();
        match (self, c) {
            (FxFlow::Hpcc(s, last), FxCfg::Hpcc(c)) => match kind {
                "ack" | "int" => {
                    let (Some(seq), Some(snd_nxt)) = (ev.seq, ev.snd_nxt) else {
                        return Err(format!("{kind} without seq and snd_nxt"));
                    };
                    *last = Some(hpcc::on_ack(c, s, seq as u32, snd_nxt as u32, &hops(ev)));
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by hpcc")),
            },
            (FxFlow::HpccRx(s, fb), FxCfg::Hpcc(c)) => match kind {
                "ack" | "int" => {
                    *fb = Some(hpcc::on_int(c, s, ev.t_ns, &hops(ev)));
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by hpcc-rx")),
            },
            (FxFlow::Ldcp(s, grant), FxCfg::Ldcp(c)) => match kind {
                "ack" => {
                    let n = ev.acked_pkts.unwrap_or(1);
                    ldcp::on_ack(c, s, ev.t_ns, ev.ece.unwrap_or(false), n);
                    *grant = None;
                    Ok(())
                }
                "timer" => {
                    *grant = Some(ldcp::on_timer(c, s, ev.t_ns));
                    Ok(())
                }
                "loss" => {
                    ldcp::on_loss(c, s, ev.t_ns);
                    *grant = None;
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by ldcp")),
            },
            (FxFlow::Dcqcn(s), FxCfg::Dcqcn(c)) => match kind {
                "cnp" => {
                    dcqcn::on_cnp(c, s, ev.t_ns);
                    Ok(())
                }
                "timer" => {
                    dcqcn::on_timer(c, s, ev.t_ns);
                    Ok(())
                }
                "tx" => {
                    let Some(bytes) = ev.bytes else {
                        return Err("tx without bytes".into());
                    };
                    dcqcn::on_tx(c, s, ev.t_ns, bytes);
                    Ok(())
                }
                _ => Err(format!("event '{kind}' not used by dcqcn")),
            },
            _ => unreachable!("a flow is built from the same configuration"),
        }
    }

    /// The state as an output line (`fresh`: the per-event fields describe this event).
    pub(super) fn output(&self, c: &FxCfg, ev: &Event, fresh: bool) -> Output {
        let mut o = Output {
            flow: ev.flow,
            t_ns: ev.t_ns,
            ..Output::default()
        };
        match (self, c) {
            (FxFlow::Hpcc(s, _) | FxFlow::HpccRx(s, _), FxCfg::Hpcc(c)) => {
                o.window_bytes = s.w_q8 as f64 / 256.0;
                o.rate_bps = c.clock.q16_to_bps(s.rate_q16);
                o.rate_q16 = Some(s.rate_q16);
                o.wc_bytes = Some(s.wc_q8 as f64 / 256.0);
                o.u = Some(s.u_q16 as f64 / 65536.0);
                o.inc_stage = Some(s.inc_stage as u32);
                match self {
                    FxFlow::Hpcc(_, Some(a)) if fresh => o.action = Some(a.name().into()),
                    FxFlow::HpccRx(_, fb) if fresh => o.feedback = *fb,
                    _ => {}
                }
            }
            (FxFlow::Ldcp(s, grant), FxCfg::Ldcp(c)) => {
                let rate = ldcp::rate_q16(c, s);
                o.window_bytes = ldcp::window_bytes(c, s) as f64;
                o.rate_bps = c.clock.q16_to_bps(rate);
                o.rate_q16 = Some(rate);
                o.cwnd_pkts = Some(s.cw_q16 as f64 / 65536.0);
                o.phase = Some(if s.fast_start { "fast_start" } else { "stable" }.into());
                if fresh {
                    o.grant = *grant;
                }
            }
            (FxFlow::Dcqcn(s), FxCfg::Dcqcn(c)) => {
                o.window_bytes = dcqcn::window_bytes(c, s) as f64;
                let q24 = |r: u64| r as f64 / 256.0;
                o.rate_bps = c.clock.q16_to_bps(dcqcn::rate_q16(s));
                o.rate_q16 = Some(dcqcn::rate_q16(s));
                o.target_rate_bps = Some(c.clock.mhz * 8e6 * q24(s.rt_q24) / 65536.0);
                o.alpha = Some(dcqcn::alpha_at(c, s, s.now) as f64 / dcqcn::ALPHA_ONE as f64);
                o.stage = s.last_stage.map(|st| super::stage_name(st).to_string());
            }
            _ => unreachable!("a flow is built from the same configuration"),
        }
        o
    }
}
