//! cc_dcqcn as a block: the event and result words of its streams (`sim::layout::DCQCN_EVENT`,
//! `DCQCN_RESULT`, the flow's state as `DCQCN_STATE`) and the result the block gives for one
//! event, from the fixed-point model (`super`). The regression
//! (testbench/src/harness/cc_dcqcn.rs) and the CC module's top model (`crate::cc_module`) use
//! these.

use super::{self as xd, DcqcnConfig, DcqcnState};
use crate::cc_float::dcqcn::IncreaseStage;
use crate::layout::{Field, DCQCN_EVENT, DCQCN_RESULT, DCQCN_STATE};

/// Event kinds (`[17:16]` of the event).
pub const CNP: u8 = 0;
pub const TIMER: u8 = 1;
pub const TX: u8 = 2;
pub const INIT: u8 = 3;

/// The state's `last_stage` (`DCQCN_STATE`): the increase stage of the flow's last increase,
/// 0 for none yet.
pub const STAGE_FAST_RECOVERY: u8 = 1;
pub const STAGE_ADDITIVE: u8 = 2;
pub const STAGE_HYPER: u8 = 3;

/// One event as the module takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub flow: u16,
    /// CNP, TIMER, TX or INIT.
    pub kind: u8,
    /// Bytes sent (TX).
    pub bytes: u32,
    /// Time, ns.
    pub now: u64,
}

impl Event {
    /// The 128-bit `s_axis_event_tdata` as 4 little-endian words (`sim::layout::DCQCN_EVENT`).
    pub fn words(&self) -> [u32; 4] {
        let l = &DCQCN_EVENT;
        let mut w = [0u32; 4];
        l.flow.set(&mut w, self.flow as u64);
        l.kind.set(&mut w, self.kind as u64);
        l.bytes.set(&mut w, self.bytes as u64);
        l.now.set(&mut w, self.now);
        w
    }
}

/// What the module reports for one event (`m_axis_result_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub flow: u16,
    pub kind: u8,
    pub rate_q16: u32,
    pub window_bytes: u32,
    /// The flow's whole state after the event.
    pub state: DcqcnState,
}

/// The state of a `sim::layout::DCQCN_STATE` word that starts at bit `lo` of `d`.
pub fn state_from_words(d: &[u32], lo: usize) -> DcqcnState {
    let l = &DCQCN_STATE;
    let f = |x: &Field| x.at(lo).get(d);
    DcqcnState {
        rc_q24: f(&l.rc),
        rt_q24: f(&l.rt),
        alpha_q24: f(&l.alpha) as u32,
        active: f(&l.active) == 1,
        last_stage: match f(&l.last_stage) as u8 {
            STAGE_FAST_RECOVERY => Some(IncreaseStage::FastRecovery),
            STAGE_ADDITIVE => Some(IncreaseStage::Additive),
            STAGE_HYPER => Some(IncreaseStage::Hyper),
            _ => None,
        },
        t_count: f(&l.t_count) as u32,
        bc_count: f(&l.bc_count) as u32,
        bytes: f(&l.bytes),
        now: f(&l.now),
        last_cut: f(&l.last_cut),
        last_cnp: f(&l.last_cnp),
        next_increase: f(&l.next_increase),
    }
}

impl Result {
    /// The result of `m_axis_result_tdata` (`sim::layout::DCQCN_RESULT`).
    pub fn from_words(d: &[u32]) -> Result {
        let l = &DCQCN_RESULT;
        Result {
            flow: l.flow.get(d) as u16,
            kind: l.kind.get(d) as u8,
            rate_q16: l.rate.get(d) as u32,
            window_bytes: l.window.get(d) as u32,
            state: state_from_words(d, l.state.lo),
        }
    }

    /// The model's answer: apply `e` to `s`.
    pub fn model(c: &DcqcnConfig, s: &mut DcqcnState, e: &Event) -> Result {
        match e.kind {
            CNP => xd::on_cnp(c, s, e.now),
            TIMER => xd::on_timer(c, s, e.now),
            TX => xd::on_tx(c, s, e.now, e.bytes as u64),
            _ => *s = DcqcnState::new(c),
        }
        Result {
            flow: e.flow,
            kind: e.kind,
            rate_q16: xd::rate_q16(s),
            window_bytes: xd::window_bytes(c, s),
            state: *s,
        }
    }
}
