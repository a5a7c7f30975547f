//! cc_module cycle by cycle (hdl/src/cc/cc_module.rs, docs/modules/cc_module.md "cc_module
//! (top)"): the same ports on every cycle as the RTL, for composing into the whole core's
//! model. The values come from [`Model`] (the engines' block models), applied when the module
//! takes an event; what is modelled here is when things move:
//!
//! ```text
//! IN    s_axis_event_tready = not initializing and S1 free or leaving; bad flows dropped
//! S1    the event waits for its engine's ready (cc_hpcc: no event of its flow taken in the
//!       last HAZARD - 1 cycles, and credit; cc_ldcp / cc_dcqcn: flow_park takes it);
//!       types its algorithm does not use leave in one cycle
//! ENG   fixed latency from issue to the result FIFO (`ResultFifo`); cc_ldcp and cc_dcqcn
//!       issue from their flow_park while they have credit
//! OUT   round robin over the three FIFOs into the Update register; Rx-HPCC results into the
//!       feedback register (those without feedback are read and dropped)
//! ```
//!
//! Applying [`Model`] at the module's input rather than at each engine's issue gives the same
//! values: an engine keeps each flow's events in order and flows do not share state.
//! A reset clears every register here; results that the RTL's engine pipelines still carry
//! at a reset are not modelled (the core resets cc_module only with everything else).

use super::{Event, Feedback, Model, Out, Update, DCQCN, FLOWS, HPCC, LDCP};
use crate::flow_park::FlowPark;
use crate::result_fifo::ResultFifo;

/// hdl `cc_hpcc::HAZARD`: cycles between two events of a flow taken by cc_hpcc, at least.
pub const HPCC_HAZARD: usize = 4;
/// hdl `cc_hpcc::LATENCY`: cc_hpcc's accepting cycle to its result on `m_axis_result_*`.
pub const HPCC_LATENCY: u64 = 92;
/// hdl `cc_ldcp::HAZARD` and `cc_dcqcn::HAZARD`: their flow_parks' D is one less.
pub const LDCP_HAZARD: usize = 53;
pub const DCQCN_HAZARD: usize = 60;
/// hdl `cc_ldcp::LATENCY` and `cc_dcqcn::LATENCY`: accepting cycle to result with no wait in
/// flow_park (whose slot is one of those cycles).
pub const LDCP_LATENCY: u64 = 58;
pub const DCQCN_LATENCY: u64 = 64;
/// hdl `cc_intake::PARK_SLOTS`.
pub const PARK_SLOTS: usize = 8;

/// What an engine's result becomes at the output stage.
#[derive(Clone, Copy, Debug)]
enum Res {
    Update(Update),
    /// An Rx-HPCC result: feedback or nothing.
    Rx(Option<Feedback>),
}

/// The engine an event in S1 goes to, and its result; or a type its algorithm does not use.
#[derive(Clone, Copy, Debug)]
enum Route {
    Hpcc(Res),
    Ldcp(Update),
    Dcqcn(Update),
    Unused,
}

/// Everything driven into cc_module during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    /// `s_axis_event_tvalid` with its data.
    pub event: Option<&'a Event>,
    pub update_ready: bool,
    pub feedback_ready: bool,
}

/// What cc_module shows during a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub event_ready: bool,
    /// `m_axis_update_tvalid` with its data.
    pub update: Option<Update>,
    pub feedback: Option<Feedback>,
}

/// cc_module, cycle by cycle.
pub struct CcModule {
    /// The values: algorithm map and engine states.
    pub model: Model,
    /// What the event taken in the last step produced (None: none taken).
    pub taken: Option<Out>,
    pub stat_bad_flow: u32,
    pub stat_unused: u32,
    cycle: u64,
    init_left: usize,
    s1: Option<(u16, Route)>,
    /// cc_hpcc's history: the flow taken in each of the last HAZARD - 1 cycles, newest first.
    hist: [Option<u16>; HPCC_HAZARD - 1],
    h: ResultFifo<Res>,
    l_park: FlowPark<Update>,
    l: ResultFifo<Update>,
    d_park: FlowPark<Update>,
    d: ResultFifo<Update>,
    upd: Option<Update>,
    fb: Option<Feedback>,
    /// The engine granted last (0 HPCC, 1 LDCP, 2 DCQCN).
    rr_last: u8,
}

impl CcModule {
    /// cc_module as at power-up, before its reset, with `model`'s configurations.
    pub fn new(model: Model) -> CcModule {
        CcModule {
            model,
            taken: None,
            stat_bad_flow: 0,
            stat_unused: 0,
            cycle: 0,
            init_left: 0,
            s1: None,
            hist: [None; HPCC_HAZARD - 1],
            h: ResultFifo::new(HPCC_LATENCY),
            l_park: FlowPark::new(PARK_SLOTS, LDCP_HAZARD - 1),
            // Issued from the park one cycle after it took the event.
            l: ResultFifo::new(LDCP_LATENCY - 1),
            d_park: FlowPark::new(PARK_SLOTS, DCQCN_HAZARD - 1),
            d: ResultFifo::new(DCQCN_LATENCY - 1),
            upd: None,
            fb: None,
            rr_last: 0,
        }
    }

    /// Nothing inside: S1, the parks, the engines and the output registers all empty.
    pub fn idle(&self) -> bool {
        self.s1.is_none()
            && self.l_park.is_empty()
            && self.d_park.is_empty()
            && self.h.owed() + self.l.owed() + self.d.owed() == 0
            && self.upd.is_none()
            && self.fb.is_none()
    }

    fn hazard(&self, flow: u16) -> bool {
        self.hist.contains(&Some(flow))
    }

    /// S1 leaves (or is empty) this cycle.
    fn s1_go(&self) -> bool {
        match self.s1 {
            None | Some((_, Route::Unused)) => true,
            Some((f, Route::Hpcc(_))) => !self.hazard(f) && self.h.credit(),
            Some((f, Route::Ldcp(_))) => self.l_park.ready(f as u64),
            Some((f, Route::Dcqcn(_))) => self.d_park.ready(f as u64),
        }
    }

    /// The outputs during a cycle with inputs `i` (no state change).
    pub fn outputs(&self, i: &Inputs) -> Outputs {
        Outputs {
            event_ready: !i.reset && self.init_left == 0 && self.s1_go(),
            update: self.upd,
            feedback: self.fb,
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        let c = self.cycle;
        self.cycle += 1;
        self.taken = None;
        if i.reset {
            *self = CcModule { cycle: self.cycle, init_left: FLOWS, ..CcModule::new(Model::fresh(&self.model)) };
            return out;
        }
        if self.init_left > 0 {
            self.init_left -= 1;
            return out;
        }

        // OUT: the heads as they are before this edge.
        let (upd_free, fb_free) = (self.upd.is_none() || i.update_ready, self.fb.is_none() || i.feedback_ready);
        let h_head = self.h.head(c).copied();
        let req = [
            matches!(h_head, Some(Res::Update(_))),
            self.l.head(c).is_some(),
            self.d.head(c).is_some(),
        ];
        // Round robin: the engine after the last granted first.
        let gnt = upd_free.then(|| (1..=3).map(|k| (self.rr_last as usize + k) % 3).find(|&e| req[e])).flatten();
        let h_rx_pop = match h_head {
            Some(Res::Rx(None)) => true,
            Some(Res::Rx(Some(_))) => fb_free,
            _ => false,
        };
        if self.upd.is_some() && i.update_ready {
            self.upd = None;
        }
        if let Some(e) = gnt {
            self.upd = Some(match e {
                0 => match h_head {
                    Some(Res::Update(u)) => u,
                    _ => unreachable!(),
                },
                1 => *self.l.head(c).unwrap(),
                _ => *self.d.head(c).unwrap(),
            });
            self.rr_last = e as u8;
        }
        if self.fb.is_some() && i.feedback_ready {
            self.fb = None;
        }
        if let (true, Some(Res::Rx(Some(f)))) = (h_rx_pop, h_head) {
            self.fb = Some(f);
        }

        // ENG: what the engines take and issue, from the state before this edge.
        let s1_go = self.s1_go();
        let (l_credit, d_credit) = (self.l.credit(), self.d.credit());
        let mut h_taken = None;
        let (mut l_in, mut d_in) = (None, None);
        match self.s1 {
            Some((f, Route::Hpcc(r))) if s1_go => {
                self.h.issue(c, r);
                h_taken = Some(f);
            }
            Some((f, Route::Ldcp(u))) if s1_go => l_in = Some((f as u64, u)),
            Some((f, Route::Dcqcn(u))) if s1_go => d_in = Some((f as u64, u)),
            Some((_, Route::Unused)) => self.stat_unused += 1,
            _ => {}
        }
        if gnt == Some(0) || h_rx_pop {
            self.h.pop();
        }
        if gnt == Some(1) {
            self.l.pop();
        }
        if gnt == Some(2) {
            self.d.pop();
        }
        if let Some(u) = self.l_park.step(l_in, l_credit) {
            self.l.issue(c, u);
        }
        if let Some(u) = self.d_park.step(d_in, d_credit) {
            self.d.issue(c, u);
        }
        self.hist.rotate_right(1);
        self.hist[0] = h_taken;

        // IN: the event taken into S1, its result from the model now.
        if s1_go {
            self.s1 = None;
            if let Some(e) = i.event.filter(|_| out.event_ready) {
                let o = self.model.apply(e);
                self.taken = Some(o);
                let route = match o {
                    Out::BadFlow => None,
                    Out::Unused => Some(Route::Unused),
                    Out::Nothing => Some(Route::Hpcc(Res::Rx(None))),
                    Out::Feedback(f) => Some(Route::Hpcc(Res::Rx(Some(f)))),
                    Out::Update(HPCC, u) => Some(Route::Hpcc(Res::Update(u))),
                    Out::Update(LDCP, u) => Some(Route::Ldcp(u)),
                    Out::Update(DCQCN, u) => Some(Route::Dcqcn(u)),
                    Out::Update(..) => unreachable!("an Update from no engine"),
                };
                self.stat_bad_flow += route.is_none() as u32;
                self.s1 = route.map(|r| (e.flow, r));
            }
        }
        out
    }
}
