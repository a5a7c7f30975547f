//! The blocks inside hpcc_nic_core against their models, transaction by transaction, through
//! the Verilated core's probes (testbench/verilog/probes/hpcc_nic_core.vlt): every event
//! cc_module takes goes to the CC module's model (`cc_module::Model`, on the configuration the
//! core was given), and every Update and Rx-HPCC feedback cc_module gives is checked against
//! the model's answer with cc_module's own board (`cc_module::Board`: per flow, any
//! interleaving of its engines' results, as cc_module may give them). flow_sched runs in
//! lockstep with its cycle-accurate model (`sim::flow_sched`) from the core's reset on: every
//! cycle the model takes the inputs the core drives into flow_sched, and its readies and
//! PktSend (valid and flow) must equal the RTL's.

use super::cc_module::{Board, Event, Feedback, Model, Update};
use super::hpcc_nic_core::{Core, CoreDut};
use super::{Outcome, Scenario};
use crate::verilated::models::HpccNicCore as Rtl;
use sim::flow_sched::{Ctrl, FlowSched, Inputs, Notify, Outputs, Sleep, Update as SchedUpdate};
use sim::layout::{word_of, SCHED_CFG};

/// flow_sched inside one core, cycle by cycle against its model.
pub struct SchedProbe {
    model: FlowSched,
    /// Cycles on which a ready or the PktSend differed, and the first.
    pub mismatches: u64,
    pub first: Option<String>,
    /// Cycles stepped and PktSends given.
    pub cycles: u64,
    pub pktsends: u64,
}

impl Default for SchedProbe {
    fn default() -> Self {
        SchedProbe { model: FlowSched::new(10), mismatches: 0, first: None, cycles: 0, pktsends: 0 }
    }
}

impl SchedProbe {
    /// One cycle, after the core's eval and before its clock edge.
    pub fn step(&mut self, d: &Rtl) {
        let cfg = [d.probe_regs_sched_cfg()];
        let i = Inputs {
            reset: d.reset() == 1,
            pkt_shift: SCHED_CFG.pkt_shift.get(&cfg) as u8,
            max_burst: SCHED_CFG.max_burst.get(&cfg) as u16,
            ctrl: (d.probe_seq_sched_ctrl_tvalid() == 1).then(|| Ctrl::from_tdata(word_of(d.probe_seq_sched_ctrl_tdata()))),
            update: (d.probe_sched_s_axis_update_tvalid() == 1)
                .then(|| SchedUpdate::from_tdata(word_of(d.probe_sched_s_axis_update_tdata()))),
            notify: (d.probe_notify_m_axis_notify_tvalid() == 1).then(|| Notify::from_tdata(d.probe_notify_m_axis_notify_tdata())),
            sleep: (d.probe_dp_m_axis_sleep_tvalid() == 1).then(|| Sleep::from_tdata(d.probe_dp_m_axis_sleep_tdata())),
            pktsend_ready: d.probe_dp_s_axis_pktsend_tready() == 1,
        };
        let want = self.model.step(&i);
        let got = Outputs {
            ctrl_ready: d.probe_sched_s_axis_ctrl_tready() == 1,
            update_ready: d.probe_sched_s_axis_update_tready() == 1,
            notify_ready: d.probe_sched_s_axis_notify_tready() == 1,
            sleep_ready: d.probe_sched_s_axis_sleep_tready() == 1,
            pktsend_valid: d.probe_sched_m_axis_pktsend_tvalid() == 1,
            pktsend_flow: d.probe_sched_m_axis_pktsend_tdata(),
        };
        if !super::flow_sched::outputs_agree(&got, &want) {
            self.mismatches += 1;
            if self.first.is_none() {
                self.first = Some(format!("core cycle {}: rtl {got:?} model {want:?} inputs {i:?}", d.cycles()));
            }
        }
        self.pktsends += (got.pktsend_valid && i.pktsend_ready) as u64;
        self.cycles += 1;
    }

    /// Mismatches, as a problem line.
    pub fn problems(&self) -> Vec<String> {
        match &self.first {
            Some(f) => vec![format!("flow_sched inside the core: {} cycles differ from the model, the first {f}", self.mismatches)],
            None => vec![],
        }
    }
}

/// More outputs owed than this means cc_module lost some: 3 x 128 result FIFO entries and
/// the pipelines in front of them.
const MAX_OWED: usize = 3 * 128 + 3 * 64;

/// The CC module's check inside one core.
pub struct CcProbe {
    model: Model,
    board: Board,
    /// Mismatches (and the first one) as an Outcome of its own, folded into a scenario's.
    pub outcome: Outcome,
    /// Events cc_module took, Updates and feedbacks it gave.
    pub events: u64,
    pub updates: u64,
    pub feedbacks: u64,
}

impl CcProbe {
    /// A check for a core configured with `m`'s CC configuration, from reset.
    pub fn new(m: &Model) -> CcProbe {
        CcProbe {
            model: Model::fresh(m),
            board: Board::default(),
            outcome: Outcome::new(Scenario::CoreRandom, 0),
            events: 0,
            updates: 0,
            feedbacks: 0,
        }
    }

    /// The core's CC configuration is now `m`'s; flows created before keep their state.
    pub fn configure(&mut self, m: &Model) {
        self.model.take_config(m);
    }

    /// Reads the probes after the core's eval, before its clock edge.
    pub fn observe(&mut self, d: &Rtl, cycle: u64) {
        if d.probe_cc_m_axis_update_tvalid() == 1 && d.probe_cc_m_axis_update_tready() == 1 {
            self.updates += 1;
            self.board.got_update(&mut self.outcome, cycle, Update::from_words(d.probe_cc_m_axis_update_tdata()));
        }
        if d.probe_cc_m_axis_feedback_tvalid() == 1 && d.probe_dp_s_axis_feedback_tready() == 1 {
            self.feedbacks += 1;
            self.board.got_feedback(&mut self.outcome, cycle, Feedback::from_bits(d.probe_cc_m_axis_feedback_tdata()));
        }
        if d.probe_events_m_axis_event_tvalid() == 1 && d.probe_cc_s_axis_event_tready() == 1 {
            self.events += 1;
            let out = self.model.apply(&Event::from_words(d.probe_events_m_axis_event_tdata()));
            self.board.expect(out);
        }
    }

    /// Outputs the model expects that cc_module has not given yet.
    pub fn pending(&self) -> usize {
        self.board.pending
    }

    /// Problems so far: mismatches, outputs with nothing expected for their flow, and more
    /// outputs owed than cc_module can hold (its three engines' 128-entry result FIFOs and
    /// their pipelines: past `MAX_OWED` some were lost). With `idle` (no event can be in
    /// flight) any output owed is one.
    pub fn problems(&self, idle: bool) -> Vec<String> {
        let mut v = vec![];
        if self.outcome.mismatches > 0 {
            v.push(format!(
                "cc_module inside the core: {} mismatches with the model, the first {}",
                self.outcome.mismatches,
                self.outcome.first_mismatch.as_deref().unwrap_or("?")
            ));
        }
        if self.board.unexpected > 0 {
            v.push(format!("cc_module inside the core: {} outputs with nothing expected", self.board.unexpected));
        }
        if self.board.pending > MAX_OWED || (idle && self.board.pending > 0) {
            v.push(format!("cc_module inside the core: {} outputs expected and never given", self.board.pending));
        }
        v
    }
}

/// Both probes' problems in core `c` so far (outputs still owed are allowed: timer events
/// keep coming); a core never configured has no cc_module check, and that is one too. The
/// model NIC has no inside to check: none.
pub fn problems<M: CoreDut>(c: &Core<M>) -> Vec<String> {
    let k = &c.checks;
    if !k.on {
        return vec![];
    }
    let mut v = match &k.cc {
        Some(cc) => cc.problems(false),
        None => vec!["cc_module inside the core: not checked (the core was never configured)".into()],
    };
    v.extend(k.sched.problems());
    if let Some(e) = k.lockstep.as_ref().and_then(|l| l.differs.as_ref()) {
        v.push(format!("the core's cycle model (sim::hpcc_nic_core) differs at {e}"));
    }
    v
}

/// Folds the probes of the named `cores` into a scenario's outcome: a failure for every
/// problem (outputs still owed are allowed: timer events keep coming), and the metrics
/// `cc_events_checked` and `pktsends_checked`.
pub fn report<'a>(o: &mut Outcome, cores: impl IntoIterator<Item = (String, &'a Core)>) {
    let (mut events, mut pktsends, mut model) = (0, 0, 0);
    for (name, c) in cores {
        model += c.checks.lockstep.as_ref().map_or(0, |l| l.cycles);
        events += c.checks.cc.as_ref().map_or(0, |cc| cc.events);
        pktsends += c.checks.sched.pktsends;
        for e in problems(c) {
            o.fail(format!("core {name}: {e}"));
        }
    }
    o.metric("cc_events_checked", events as f64);
    o.metric("pktsends_checked", pktsends as f64);
    o.metric("model_cycles", model as f64);
}
