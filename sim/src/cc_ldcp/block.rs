//! cc_ldcp as a block: the event and result words of its streams (`sim::layout::LDCP_EVENT`,
//! `LDCP_RESULT`) and the result the block gives for one event, from the fixed-point model
//! (`super`). The regression (testbench/src/harness/cc_ldcp.rs) and the CC module's top model
//! (`crate::cc_module`) use these.

use super::{self as xl, LdcpConfig, LdcpState};
use crate::layout::{LDCP_EVENT, LDCP_RESULT};

/// What an event asks for (`[17:16]` of the event).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ack = 0,
    Loss = 1,
    Timer = 2,
    Init = 3,
}

/// One event as the module takes it.
#[derive(Clone, Debug)]
pub struct Event {
    pub flow: u16,
    pub kind: Kind,
    pub ece: bool,
    /// Packets acknowledged (the module saturates it to 65535, as the model does).
    pub acked: u32,
    pub now: u64,
}

impl Event {
    /// The 128-bit `s_axis_event_tdata` as 4 little-endian words (`sim::layout::LDCP_EVENT`).
    pub fn words(&self) -> [u32; 4] {
        let l = &LDCP_EVENT;
        let mut w = [0u32; 4];
        l.flow.set(&mut w, self.flow as u64);
        l.kind.set(&mut w, self.kind as u64);
        l.ece.set(&mut w, self.ece as u64);
        l.acked.set(&mut w, self.acked as u64);
        l.now.set(&mut w, self.now);
        w
    }
}

/// What the module reports for one event (`m_axis_result_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub flow: u16,
    pub kind: u8,
    pub grant: bool,
    pub fast_start: bool,
    pub armed: bool,
    pub fs_acked: u16,
    pub cw: u32,
    pub window: u32,
    pub rate: u32,
    /// Next timer expiry, 0 when not armed.
    pub tick: u64,
}

impl Result {
    /// The result of `m_axis_result_tdata` (`sim::layout::LDCP_RESULT`).
    pub fn from_words(d: &[u32]) -> Result {
        let l = &LDCP_RESULT;
        Result {
            flow: l.flow.get(d) as u16,
            kind: l.kind.get(d) as u8,
            grant: l.grant.get(d) == 1,
            fast_start: l.fast_start.get(d) == 1,
            armed: l.armed.get(d) == 1,
            fs_acked: l.fs_acked.get(d) as u16,
            cw: l.cw.get(d) as u32,
            window: l.window.get(d) as u32,
            rate: l.rate.get(d) as u32,
            tick: l.tick.get(d),
        }
    }

    /// The model's answer: apply `e` to `s`.
    pub fn model(c: &LdcpConfig, s: &mut LdcpState, e: &Event) -> Result {
        let mut grant = false;
        match e.kind {
            Kind::Ack => xl::on_ack(c, s, e.now, e.ece, e.acked),
            Kind::Loss => xl::on_loss(c, s, e.now),
            Kind::Timer => grant = xl::on_timer(c, s, e.now) == 1,
            Kind::Init => *s = LdcpState::new(c),
        }
        Result {
            flow: e.flow,
            kind: e.kind as u8,
            grant,
            fast_start: s.fast_start,
            armed: s.next_tick.is_some(),
            fs_acked: s.fs_acked as u16,
            cw: s.cw_q16,
            window: xl::window_bytes(c, s),
            rate: xl::rate_q16(c, s),
            tick: s.next_tick.unwrap_or(0),
        }
    }
}
