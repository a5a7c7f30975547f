//! `hpcc-nic replay --model rtl`: a JSON-lines trace through the Verilated CC module datapaths
//! (`rtl-out/cc_hpcc.v` for hpcc and hpcc-rx, `rtl-out/cc_ldcp.v` for ldcp, `rtl-out/cc_dcqcn.v`
//! for dcqcn), printing the same lines as `--model fixed` (sim/src/replay/). One loop
//! (`replay_with`) serves every algorithm; each is an `RtlAlgo` (HPCC here, LDCP and DCQCN in
//! replay_rtl_algos.rs).
//!
//! Same input rules as the software replay (docs/replay.md): a malformed line stops with its
//! line number; an event the algorithm does not use is skipped and its line shows the flow's
//! current state with `"skipped"`. Trace flow ids are mapped to the module's 1024 flows in
//! order of first use; a trace with more flows is an error. Each applied event is fed to the
//! RTL and its result read back before the next line, so output order is trace order.

use crate::harness::cc_hpcc::{open, Event as RtlEvent, Result as RtlResult, FLOWS};
use crate::harness::stream::transact;
use crate::verilated::models::CcHpcc;
use sim::cc_hpcc::{Action, FxHop, HpccConfig};
use sim::replay::{Algo, Event, Output, ReplayConfig, ReplayError, Stats};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// Cycles an event may take through a CC datapath before the replay calls it a fault (the
/// engines answer within about 100 cycles once initialized, which takes 1024 after reset).
pub(crate) const REPLY_LIMIT: u64 = 10_000;

/// Replays `reader` through the RTL: HPCC++ (`hpcc`), Rx-HPCC (`hpcc-rx`), LDCP (`ldcp`) and
/// DCQCN (`dcqcn`).
pub fn replay_rtl(
    reader: impl BufRead,
    writer: impl Write,
    cfg: &ReplayConfig,
) -> Result<Stats, ReplayError> {
    match cfg.algo {
        Algo::Hpcc | Algo::HpccRx => {
            let c = HpccConfig::new(&cfg.hpcc, cfg.clock).map_err(ReplayError::Config)?;
            let dut = open(&c, None);
            let (rx, name) = (cfg.algo == Algo::HpccRx, cfg.algo.name());
            replay_with(&mut Hpcc { c, dut, rx, name }, reader, writer)
        }
        Algo::Ldcp => crate::replay_rtl_algos::replay_ldcp(reader, writer, cfg),
        Algo::Dcqcn => crate::replay_rtl_algos::replay_dcqcn(reader, writer, cfg),
    }
}

/// HPCC++ sender (`rx` false) or Rx-HPCC (`rx` true) through cc_hpcc.
struct Hpcc {
    c: HpccConfig,
    dut: CcHpcc,
    rx: bool,
    name: &'static str,
}

impl RtlAlgo for Hpcc {
    type E = RtlEvent;
    type R = RtlResult;

    fn initial(&self) -> RtlResult {
        let none = RtlEvent {
            flow: 0,
            rx: self.rx,
            init: false,
            seq: 0,
            snd_nxt: 0,
            now: 0,
            count: 0,
            hops: [0; 5],
        };
        RtlResult::of_state(&none, 0, false, &sim::cc_hpcc::HpccState::new(&self.c))
    }

    fn decode(&self, ev: &Event) -> Result<Result<RtlEvent, String>, ReplayError> {
        Ok(match (ev.event.as_str(), self.rx) {
            ("ack" | "int", true) => Ok(to_rtl(ev, 0, true)),
            ("ack" | "int", false) if ev.seq.is_some() && ev.snd_nxt.is_some() => {
                Ok(to_rtl(ev, 0, false))
            }
            ("ack" | "int", false) => Err(format!("{} without seq and snd_nxt", ev.event)),
            (kind, _) => Err(format!("event '{kind}' not used by {}", self.name)),
        })
    }

    fn run(&mut self, e: RtlEvent, slot: u16) -> RtlResult {
        let e = RtlEvent { flow: slot, ..e };
        RtlResult::from_words(&transact(&mut self.dut, CcHpcc::S_AXIS_EVENT, CcHpcc::M_AXIS_RESULT, e, REPLY_LIMIT)
            .expect("cc_hpcc gave no result within REPLY_LIMIT cycles: an RTL fault"))
    }

    fn output(&self, ev: &Event, r: &RtlResult, fresh: bool) -> Output {
        output(&self.c, ev, r, fresh)
    }
}

fn to_rtl(ev: &Event, slot: u16, rx: bool) -> RtlEvent {
    let hops = ev.hops.as_deref().unwrap_or(&[]);
    let mut words = [0u64; 5];
    for (w, h) in words.iter_mut().zip(hops) {
        *w = FxHop::from_counters(h.ts_ns, h.tx_bytes, h.qlen_bytes, h.link_gbps).word();
    }
    RtlEvent {
        flow: slot,
        rx,
        init: false,
        seq: ev.seq.unwrap_or(0) as u32,
        snd_nxt: ev.snd_nxt.unwrap_or(0) as u32,
        now: ev.t_ns,
        // More than 7 hops reads as 7: ignored like any count above 5.
        count: hops.len().min(7) as u8,
        hops: words,
    }
}


/// The output line, field for field as `--model fixed` writes it.
fn output(c: &HpccConfig, ev: &Event, r: &RtlResult, fresh: bool) -> Output {
    Output {
        flow: ev.flow,
        t_ns: ev.t_ns,
        window_bytes: r.w as f64 / 256.0,
        rate_bps: c.clock.q16_to_bps(r.rate),
        rate_q16: Some(r.rate),
        wc_bytes: Some(r.wc as f64 / 256.0),
        u: Some(r.u as f64 / 65536.0),
        inc_stage: Some(r.inc_stage as u32),
        action: (fresh && !r.rx).then(|| Action::ALL[r.action as usize].name().to_string()),
        feedback: (fresh && r.rx).then_some(r.feedback),
        ..Output::default()
    }
}

/// One algorithm's RTL as the replay loop drives it.
pub(crate) trait RtlAlgo {
    /// An event as the module takes it (flow id left to the loop).
    type E;
    /// What the RTL reports for an event.
    type R: Copy;
    /// What a flow shows before its first event.
    fn initial(&self) -> Self::R;
    /// The module's event for a trace line, or why the line is skipped.
    fn decode(&self, ev: &Event) -> Result<Result<Self::E, String>, ReplayError>;
    /// Runs `e` on module flow `slot` and reads its result.
    fn run(&mut self, e: Self::E, slot: u16) -> Self::R;
    /// The output line, field for field as `--model fixed` writes it.
    fn output(&self, ev: &Event, r: &Self::R, fresh: bool) -> Output;
}

pub(crate) fn replay_with<A: RtlAlgo>(
    algo: &mut A,
    reader: impl BufRead,
    mut writer: impl Write,
) -> Result<Stats, ReplayError> {
    let mut slots: BTreeMap<u64, (u16, A::R)> = BTreeMap::new();
    let mut stats = Stats::default();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let ev: Event = serde_json::from_str(&line)
            .map_err(|e| ReplayError::Parse { line: i as u64 + 1, message: e.to_string() })?;
        stats.events += 1;
        let known = slots.get(&ev.flow).map(|s| s.1);
        let out = match algo.decode(&ev)? {
            Err(reason) => {
                stats.skipped += 1;
                let mut o = algo.output(&ev, &known.unwrap_or(algo.initial()), false);
                o.skipped = Some(reason);
                o
            }
            Ok(e) => {
                let slot = slot(&slots, ev.flow, i + 1, &mut stats)?;
                let r = algo.run(e, slot);
                slots.insert(ev.flow, (slot, r));
                stats.applied += 1;
                algo.output(&ev, &r, true)
            }
        };
        serde_json::to_writer(&mut writer, &out).map_err(std::io::Error::from)?;
        writer.write_all(b"\n")?;
    }
    writer.flush()?;
    Ok(stats)
}

/// The module flow of trace flow `flow`: its slot, or the next free one (trace flows take the
/// module's `FLOWS` flows in order of first use).
fn slot<R>(
    slots: &BTreeMap<u64, (u16, R)>,
    flow: u64,
    line: usize,
    stats: &mut Stats,
) -> Result<u16, ReplayError> {
    match slots.get(&flow) {
        Some(s) => Ok(s.0),
        None if slots.len() < FLOWS => {
            stats.flows += 1;
            Ok(slots.len() as u16)
        }
        None => Err(ReplayError::Config(format!("trace line {line}: more than {FLOWS} flows"))),
    }
}
