//! hpcc_nic_core_timer cycle by cycle (hdl/src/top/hpcc_nic_core_timer.rs): the timer scan.
//! It stays `TIMER_GAP` cycles at each flow id while the per-flow RAMs read it, then decides:
//! a timer event for a created LDCP or DCQCN flow (waiting until cc_module takes it), the
//! retransmission timeout (a message out whose snd_una has not moved for `RTO_CFG[7:0]`
//! visits; past `RTO_CFG[11:8]` timeouts it fails), and a probe request for an HPCC++ flow in
//! probe mode with a message out. It waits at a flow while its last timeout waits for the
//! sequencer, and during the sweep; `TIMER_GAP` 0 stops it.

use crate::cc_module::HPCC;
use crate::ram::Ram;

/// Everything driven into the scan during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    pub gap: u32,
    pub rto_rounds: u8,
    pub rto_retries: u8,
    /// The sequencer's algorithm write: (flow, create with this algorithm; None: a remove).
    pub alg: Option<(usize, Option<u8>)>,
    /// The created flow is in probe mode.
    pub alg_probe: bool,
    /// The flow table's write: (flow, a message out, snd_una).
    pub ft: Option<(usize, bool, u32)>,
    pub sweep: Option<usize>,
    pub tm_take: bool,
    pub rq_take: bool,
    pub pq_take: bool,
}

/// The per-flow visit state: snd_una at the last visit, visits since it moved, timeouts.
#[derive(Clone, Copy, Debug, Default)]
struct Rto {
    last: u32,
    idle: u8,
    retr: u8,
}

/// hpcc_nic_core_timer, cycle by cycle. Its outputs are registers, read before a step.
pub struct HpccNicCoreTimer {
    /// [0] created, [1] timer events, [2] HPCC++ probe mode.
    algs: Ram<u8>,
    rv: Ram<(bool, u32)>,
    rto: Ram<Rto>,
    /// The flow the scan is at (`flow`), cycles left there.
    pub at: usize,
    pub(crate) wait: u32,
    /// A timer event offered for `at`.
    pub tm: bool,
    /// A timeout waiting for the sequencer: (flow, it fails).
    pub rq: Option<(usize, bool)>,
    /// A probe request offered.
    pub pq: Option<u16>,
    /// `stat_events`, `stat_probes`.
    pub events: u32,
    pub probes: u32,
}

impl HpccNicCoreTimer {
    pub fn new(flow_bits: usize) -> HpccNicCoreTimer {
        HpccNicCoreTimer {
            algs: Ram::new(flow_bits),
            rv: Ram::new(flow_bits),
            rto: Ram::new(flow_bits),
            at: 0,
            wait: 0,
            tm: false,
            rq: None,
            pq: None,
            events: 0,
            probes: 0,
        }
    }

    /// One clock cycle.
    pub fn step(&mut self, i: &Inputs) {
        let m = self.algs.mask();
        let (algs, (busy, una), r) = (self.algs.data(), self.rv.data(), self.rto.data());
        let (mut decide, mut next) = (false, false);
        if self.tm {
            if i.tm_take {
                self.tm = false;
                self.events = self.events.wrapping_add(1);
                next = true;
            }
        } else if i.gap != 0 && i.sweep.is_none() {
            if self.wait != 0 {
                self.wait -= 1;
            } else if self.rq.is_none() {
                decide = true;
                if algs & 3 == 3 {
                    self.tm = true; // created, LDCP or DCQCN
                } else {
                    next = true;
                }
            }
        }
        // Probe requests.
        let pq_was = self.pq.is_some();
        if pq_was && i.pq_take {
            self.pq = None;
        }
        if decide && algs & 4 != 0 && busy && !pq_was {
            self.pq = Some(self.at as u16);
            self.probes = self.probes.wrapping_add(1);
        }
        // Retransmission timeout.
        if self.rq.is_some() && i.rq_take {
            self.rq = None;
        }
        let mut rto_w = decide.then_some(Rto { last: una, idle: 0, retr: 0 });
        if decide && busy && una == r.last && i.rto_rounds != 0 {
            let idle = r.idle as u16 + 1;
            if idle >= i.rto_rounds as u16 {
                self.rq = Some((self.at, r.retr >= i.rto_retries));
                if r.retr < i.rto_retries {
                    rto_w = Some(Rto { last: una, idle: 0, retr: (r.retr + 1) & 15 });
                }
            } else {
                rto_w = Some(Rto { last: una, idle: idle as u8, retr: r.retr });
            }
        }
        let at = self.at;
        if next {
            self.at = (self.at + 1) & m;
            self.wait = i.gap;
        }
        let mut algs_w = i.alg.map(|(f, alg)| {
            let v = match alg {
                None => 0,
                Some(a) if a == HPCC && i.alg_probe => 1 | 4,
                Some(a) => 1 | (a >> 1 & 1) << 1,
            };
            (f, v)
        });
        let mut rv_w = i.ft.map(|(f, out, una)| (f, (out, una & 0xFF_FFFF)));
        let mut rto_w = rto_w.map(|w| (at, w));
        if let Some(a) = i.sweep {
            algs_w = Some((a, 0));
            rv_w = Some((a, (false, 0)));
            rto_w = Some((a, Rto::default()));
        }
        self.algs.clock(at, algs_w);
        self.rv.clock(at, rv_w);
        self.rto.clock(at, rto_w);
        if i.reset {
            self.at = 0;
            self.wait = 0;
            self.tm = false;
            self.events = 0;
            self.rq = None;
            self.pq = None;
            self.probes = 0;
        }
    }
}
