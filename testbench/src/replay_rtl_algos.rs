//! `hpcc-nic replay --model rtl` for LDCP and DCQCN: the trace through `rtl-out/cc_ldcp.v` or
//! `rtl-out/cc_dcqcn.v`, printing what `--model fixed` prints (see replay_rtl.rs for the shared
//! rules). Each applied event is fed to the RTL and its result read back before the next line.

use crate::harness::{cc_dcqcn as hd, cc_ldcp as hl};
use crate::harness::stream::transact;
use crate::replay_rtl::{replay_with, RtlAlgo, REPLY_LIMIT};
use crate::verilated::models::{CcDcqcn, CcLdcp};
use sim::{cc_dcqcn as dcqcn, cc_ldcp as ldcp};
use sim::replay::{stage_name, Event, Output, ReplayConfig, ReplayError, Stats};
use std::io::{BufRead, Write};

struct Ldcp {
    c: ldcp::LdcpConfig,
    dut: CcLdcp,
}

impl RtlAlgo for Ldcp {
    type E = hl::Event;
    type R = hl::Result;

    fn initial(&self) -> hl::Result {
        let init = hl::Event { flow: 0, kind: hl::Kind::Init, ece: false, acked: 0, now: 0 };
        hl::Result::model(&self.c, &mut ldcp::LdcpState::new(&self.c), &init)
    }

    fn decode(&self, ev: &Event) -> Result<Result<hl::Event, String>, ReplayError> {
        let kind = match ev.event.as_str() {
            "ack" => hl::Kind::Ack,
            "timer" => hl::Kind::Timer,
            "loss" => hl::Kind::Loss,
            k => return Ok(Err(format!("event '{k}' not used by ldcp"))),
        };
        Ok(Ok(hl::Event {
            flow: 0,
            kind,
            ece: ev.ece.unwrap_or(false),
            acked: ev.acked_pkts.unwrap_or(1),
            now: ev.t_ns,
        }))
    }

    fn run(&mut self, e: hl::Event, slot: u16) -> hl::Result {
        let e = hl::Event { flow: slot, ..e };
        hl::Result::from_words(&transact(&mut self.dut, CcLdcp::S_AXIS_EVENT, CcLdcp::M_AXIS_RESULT, e, REPLY_LIMIT)
            .expect("cc_ldcp gave no result within REPLY_LIMIT cycles: an RTL fault"))
    }

    fn output(&self, ev: &Event, r: &hl::Result, fresh: bool) -> Output {
        Output {
            flow: ev.flow,
            t_ns: ev.t_ns,
            window_bytes: r.window as f64,
            rate_bps: self.c.clock.q16_to_bps(r.rate),
            rate_q16: Some(r.rate),
            cwnd_pkts: Some(r.cw as f64 / 65536.0),
            phase: Some(if r.fast_start { "fast_start" } else { "stable" }.into()),
            grant: (fresh && r.kind == hl::Kind::Timer as u8).then_some(r.grant as u32),
            ..Output::default()
        }
    }
}

struct Dcqcn {
    c: dcqcn::DcqcnConfig,
    dut: CcDcqcn,
}

impl RtlAlgo for Dcqcn {
    type E = hd::Event;
    type R = hd::Result;

    fn initial(&self) -> hd::Result {
        let init = hd::Event { flow: 0, kind: hd::INIT, bytes: 0, now: 0 };
        hd::Result::model(&self.c, &mut dcqcn::DcqcnState::new(&self.c), &init)
    }

    fn decode(&self, ev: &Event) -> Result<Result<hd::Event, String>, ReplayError> {
        let (kind, bytes) = match (ev.event.as_str(), ev.bytes) {
            ("cnp", _) => (hd::CNP, 0),
            ("timer", _) => (hd::TIMER, 0),
            ("tx", None) => return Ok(Err("tx without bytes".into())),
            ("tx", Some(b)) => (
                hd::TX,
                u32::try_from(b).map_err(|_| {
                    ReplayError::Config(format!(
                        "--model rtl: cc_dcqcn takes fewer than 2^32 bytes per tx event, not {b}"
                    ))
                })?,
            ),
            (k, _) => return Ok(Err(format!("event '{k}' not used by dcqcn"))),
        };
        Ok(Ok(hd::Event { flow: 0, kind, bytes, now: ev.t_ns }))
    }

    fn run(&mut self, e: hd::Event, slot: u16) -> hd::Result {
        let e = hd::Event { flow: slot, ..e };
        hd::Result::from_words(&transact(&mut self.dut, CcDcqcn::S_AXIS_EVENT, CcDcqcn::M_AXIS_RESULT, e, REPLY_LIMIT)
            .expect("cc_dcqcn gave no result within REPLY_LIMIT cycles: an RTL fault"))
    }

    /// The RTL reports alpha as of the flow's last CNP; the line shows it decayed to the
    /// flow's time, by the model's `alpha_at` applied to the RTL's state (as `--model fixed`
    /// does to the model's).
    fn output(&self, ev: &Event, r: &hd::Result, _fresh: bool) -> Output {
        let s = &r.state;
        Output {
            flow: ev.flow,
            t_ns: ev.t_ns,
            window_bytes: r.window_bytes as f64,
            rate_bps: self.c.clock.q16_to_bps(r.rate_q16),
            rate_q16: Some(r.rate_q16),
            target_rate_bps: Some(self.c.clock.mhz * 8e6 * (s.rt_q24 as f64 / 256.0) / 65536.0),
            alpha: Some(dcqcn::alpha_at(&self.c, s, s.now) as f64 / dcqcn::ALPHA_ONE as f64),
            stage: s.last_stage.map(|st| stage_name(st).to_string()),
            ..Output::default()
        }
    }
}

pub(crate) fn replay_ldcp(
    reader: impl BufRead,
    writer: impl Write,
    cfg: &ReplayConfig,
) -> Result<Stats, ReplayError> {
    let c = ldcp::LdcpConfig::new(&cfg.ldcp, cfg.clock).map_err(ReplayError::Config)?;
    let dut = hl::open(&c, None);
    replay_with(&mut Ldcp { c, dut }, reader, writer)
}

pub(crate) fn replay_dcqcn(
    reader: impl BufRead,
    writer: impl Write,
    cfg: &ReplayConfig,
) -> Result<Stats, ReplayError> {
    let c = dcqcn::DcqcnConfig::new(&cfg.dcqcn, cfg.clock).map_err(ReplayError::Config)?;
    let dut = hd::open(&c, None);
    replay_with(&mut Dcqcn { c, dut }, reader, writer)
}
