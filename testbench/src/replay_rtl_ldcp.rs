//! `hpcc-nic replay --model rtl --algo ldcp`: the trace through `rtl-out/cc_ldcp.v`, printing
//! what `--model fixed` prints (see replay_rtl.rs for the shared rules).

use crate::harness::cc_ldcp::{open, Event as RtlEvent, Kind, Result as RtlResult};
use crate::replay_rtl::slot;
use crate::verilated::models::CcLdcp;
use sim::cc_module::ldcp::{LdcpConfig, LdcpState};
use sim::replay::{Event, Output, ReplayConfig, ReplayError, Stats};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

pub(crate) fn replay_ldcp(
    reader: impl BufRead,
    mut writer: impl Write,
    cfg: &ReplayConfig,
) -> Result<Stats, ReplayError> {
    let c = LdcpConfig::new(&cfg.ldcp, cfg.clock).map_err(ReplayError::Config)?;
    let mut dut = open(&c, None);
    // What a flow shows before its first event: the model's initial state, through the same
    // result record the RTL returns.
    let init = RtlEvent { flow: 0, kind: Kind::Init, ece: false, acked: 0, now: 0 };
    let initial = RtlResult::model(&c, &mut LdcpState::new(&c), &init);
    let mut slots: BTreeMap<u64, (u16, RtlResult)> = BTreeMap::new();
    let mut stats = Stats::default();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let ev: Event = serde_json::from_str(&line)
            .map_err(|e| ReplayError::Parse { line: i as u64 + 1, message: e.to_string() })?;
        stats.events += 1;
        let kind = match ev.event.as_str() {
            "ack" => Ok(Kind::Ack),
            "timer" => Ok(Kind::Timer),
            "loss" => Ok(Kind::Loss),
            k => Err(format!("event '{k}' not used by ldcp")),
        };
        let known = slots.get(&ev.flow).map(|s| s.1);
        let out = match kind {
            Err(reason) => {
                stats.skipped += 1;
                let mut o = output(&c, &ev, &known.unwrap_or(initial), false);
                o.skipped = Some(reason);
                o
            }
            Ok(kind) => {
                let slot = slot(&slots, ev.flow, i + 1, &mut stats)?;
                let e = RtlEvent {
                    flow: slot,
                    kind,
                    ece: ev.ece.unwrap_or(false),
                    acked: ev.acked_pkts.unwrap_or(1),
                    now: ev.t_ns,
                };
                let r = run_event(&mut dut, &e);
                slots.insert(ev.flow, (slot, r));
                stats.applied += 1;
                output(&c, &ev, &r, true)
            }
        };
        serde_json::to_writer(&mut writer, &out).map_err(std::io::Error::from)?;
        writer.write_all(b"\n")?;
    }
    writer.flush()?;
    Ok(stats)
}

/// Offers `e` until taken, then waits for its result.
fn run_event(dut: &mut CcLdcp, e: &RtlEvent) -> RtlResult {
    dut.s_axis_event_tdata_mut().copy_from_slice(&e.words());
    dut.set_s_axis_event_tvalid(1);
    loop {
        dut.eval();
        let taken = dut.s_axis_event_tready() == 1;
        dut.tick();
        if taken {
            break;
        }
    }
    dut.set_s_axis_event_tvalid(0);
    loop {
        dut.eval();
        if dut.m_axis_result_tvalid() == 1 {
            let r = RtlResult::from_words(dut.m_axis_result_tdata());
            dut.tick(); // the result is taken (tready is high)
            return r;
        }
        dut.tick();
    }
}

/// The output line, field for field as `--model fixed` writes it.
fn output(c: &LdcpConfig, ev: &Event, r: &RtlResult, fresh: bool) -> Output {
    Output {
        flow: ev.flow,
        t_ns: ev.t_ns,
        window_bytes: r.window as f64,
        rate_bps: c.clock.q16_to_bps(r.rate),
        rate_q16: Some(r.rate),
        cwnd_pkts: Some(r.cw as f64 / 65536.0),
        phase: Some(if r.fast_start { "fast_start" } else { "stable" }.into()),
        grant: (fresh && r.kind == Kind::Timer as u8).then_some(r.grant as u32),
        ..Output::default()
    }
}
