//! hpcc_nic_core_feedback cycle by cycle (hdl/src/top/hpcc_nic_core_feedback.rs): Rx-HPCC at
//! the sender. An event with the receiver's W becomes, three registers later, an Update of
//! rate min((W x rate_mul + 2^31) >> 32, line) and window W >> 8, if the flow is Rx-HPCC (a
//! per-flow bit read as the event is taken); else it is counted as ignored. The product is
//! exact here; the RTL's four 16 x 16 partial products sum to the same 64 bits.

use crate::flow_sched::Update;
use crate::ram::Ram;

/// Everything driven into the block during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    /// The core takes an Rx pipe event: (flow, carries feedback, W).
    pub ev: Option<(u16, bool, u32)>,
    /// The event's flow (the RAM reads it whether or not the event is taken).
    pub ev_flow: u16,
    /// cc_hpcc's rate_mul (read in F2) and line rate (in F3).
    pub rate_mul: u32,
    pub line: u32,
    /// The sequencer's algorithm write: (flow, an Rx-HPCC create).
    pub alg: Option<(usize, bool)>,
    pub sweep: Option<usize>,
    pub ready: bool,
}

/// hpcc_nic_core_feedback, cycle by cycle.
pub struct HpccNicCoreFeedback {
    rxh: Ram<bool>,
    f1: Option<(u16, u32)>,
    f2: Option<(u16, u32, u64)>,
    f3: Option<(u16, u32, u64)>,
    /// The Update offered.
    pub fu: Option<Update>,
    /// `stat_applied`, `stat_ignored`.
    pub applied: u32,
    pub ignored: u32,
}

impl HpccNicCoreFeedback {
    pub fn new(flow_bits: usize) -> HpccNicCoreFeedback {
        HpccNicCoreFeedback { rxh: Ram::new(flow_bits), f1: None, f2: None, f3: None, fu: None, applied: 0, ignored: 0 }
    }

    /// `busy`: a feedback in a stage (the core holds its events).
    pub fn busy(&self) -> bool {
        self.f1.is_some() || self.f2.is_some() || self.f3.is_some() || self.fu.is_some()
    }

    /// One clock cycle (the outputs, `fu` and `busy`, are registers read before it).
    pub fn step(&mut self, i: &Inputs) {
        let rxh = self.rxh.data();
        if self.f1.is_some() && !rxh {
            self.ignored = self.ignored.wrapping_add(1);
        }
        if self.fu.is_some() && i.ready {
            self.fu = None;
        }
        if let Some((flow, w, sum)) = self.f3 {
            let rate = ((sum >> 32) as u64).min(i.line as u64) as u32;
            self.fu = Some(Update { flow, window: w >> 8, rate });
            self.applied = self.applied.wrapping_add(1);
        }
        self.f3 = self.f2;
        self.f2 = self.f1.filter(|_| rxh).map(|(f, w)| (f, w, (w as u64 * i.rate_mul as u64) + (1 << 31)));
        self.f1 = i.ev.filter(|e| e.1).map(|(f, _, w)| (f, w));
        let mut write = i.alg;
        if let Some(a) = i.sweep {
            write = Some((a, false));
        }
        self.rxh.clock(i.ev_flow as usize, write);
        if i.reset {
            (self.f1, self.f2, self.f3, self.fu, self.applied, self.ignored) = (None, None, None, None, 0, 0);
        }
    }
}
