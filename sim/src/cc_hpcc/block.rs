//! cc_hpcc as a block: the event and result words of its streams (`sim::layout::HPCC_EVENT`,
//! `HPCC_RESULT`) and the result the block gives for one event, from the fixed-point model
//! (`super`). The regression (testbench/src/harness/cc_hpcc.rs) and the CC module's top model
//! (`crate::cc_module`) use these.

use super::{self as xh, FxHop, HpccConfig, HpccState};
use crate::layout::{HPCC_EVENT, HPCC_RESULT};

/// One event as the module takes it.
#[derive(Clone, Debug)]
pub struct Event {
    pub flow: u16,
    /// true: Rx-HPCC (a data packet's telemetry at the receiver).
    pub rx: bool,
    /// true: (re)initialize the flow instead.
    pub init: bool,
    pub seq: u32,
    pub snd_nxt: u32,
    pub now: u64,
    /// Hop count field (0..=7) and the five slots.
    pub count: u8,
    pub hops: [u64; 5],
}

impl Event {
    /// The 480-bit `s_axis_event_tdata` as 15 little-endian words (`sim::layout::HPCC_EVENT`).
    pub fn words(&self) -> [u32; 15] {
        let l = &HPCC_EVENT;
        let mut w = [0u32; 15];
        l.flow.set(&mut w, self.flow as u64);
        l.rx.set(&mut w, self.rx as u64);
        l.init.set(&mut w, self.init as u64);
        l.count.set(&mut w, self.count as u64);
        l.seq.set(&mut w, self.seq as u64);
        l.snd_nxt.set(&mut w, self.snd_nxt as u64);
        l.now.set(&mut w, self.now);
        for (k, &h) in self.hops.iter().enumerate() {
            l.hops.part(k, 64).set(&mut w, h);
        }
        w
    }
}

/// What the module reports for one event (`m_axis_result_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub flow: u16,
    pub action: u8,
    pub feedback: bool,
    pub rx: bool,
    pub w: u32,
    pub wc: u32,
    pub u: u32,
    pub inc_stage: u8,
    pub rate: u32,
}

impl Result {
    /// The result of `m_axis_result_tdata` (`sim::layout::HPCC_RESULT`).
    pub fn from_words(d: &[u32]) -> Result {
        let l = &HPCC_RESULT;
        Result {
            flow: l.flow.get(d) as u16,
            action: l.action.get(d) as u8,
            feedback: l.feedback.get(d) == 1,
            rx: l.rx.get(d) == 1,
            w: l.w.get(d) as u32,
            wc: l.wc.get(d) as u32,
            u: l.u.get(d) as u32,
            inc_stage: l.inc_stage.get(d) as u8,
            rate: l.rate.get(d) as u32,
        }
    }

    /// The model's answer: apply `e` to `s`.
    pub fn model(c: &HpccConfig, s: &mut HpccState, e: &Event) -> Result {
        if e.init {
            *s = HpccState::new(c);
            return Result::of_state(e, 0, false, s);
        }
        let hops: Vec<FxHop> = if e.count == 0 || e.count > 5 {
            // Out of range: the model sees a count it ignores (0 or 6..7 hops).
            vec![FxHop::default(); e.count as usize]
        } else {
            e.hops[..e.count as usize]
                .iter()
                .map(|&w| FxHop::from_word(w))
                .collect()
        };
        let before = s.hops as usize;
        let (action, feedback) = if e.rx {
            // on_int tells only whether W was sent; the rest follows the admission rule.
            let fb = xh::on_int(c, s, e.now, &hops);
            let a = match hops.len() {
                0 | 6.. => 0,
                n if n != before => 1,
                _ => 2 + fb as u8,
            };
            (a, fb)
        } else {
            (
                xh::on_ack(c, s, e.seq, e.snd_nxt, &hops) as u8,
                false,
            )
        };
        Result::of_state(e, action, feedback, s)
    }

    /// The result of event `e` that leaves the flow in state `s`.
    pub fn of_state(e: &Event, action: u8, feedback: bool, s: &HpccState) -> Result {
        Result {
            flow: e.flow,
            action,
            feedback,
            rx: e.rx,
            w: s.w_q8,
            wc: s.wc_q8,
            u: s.u_q16,
            inc_stage: s.inc_stage,
            rate: s.rate_q16,
        }
    }
}
