//! The CC module's top (hdl `cc_module`, docs/modules/cc_module.md "cc_module (top)"): one
//! unified event stream in, the per-flow algorithm map, the three engines, Updates for
//! flow_sched and Rx-HPCC feedback out. This model keeps the map and every flow's state in
//! each engine, and answers each accepted event as the RTL does, through the engines' block
//! models (`crate::cc_hpcc::block`, `crate::cc_ldcp::block`, `crate::cc_dcqcn::block`). The
//! RTL may reorder outputs across flows; [`cycle::CcModule`] says exactly when each comes out
//! (the module cycle by cycle, for the whole core's model). The fixed point the engines share
//! is `crate::cc_fixed`.

pub mod cycle;

use crate::cc_dcqcn::block as hd;
use crate::cc_dcqcn::{DcqcnConfig, DcqcnState};
use crate::cc_hpcc::block as hh;
use crate::cc_hpcc::{HpccConfig, HpccState};
use crate::cc_ldcp::block as hl;
use crate::cc_ldcp::{LdcpConfig, LdcpState};
use crate::layout::{words_of, CC_EVENT, FEEDBACK};

/// Flows of the Verilated configuration (`rtl-out/cc_module.v`, F = 10).
pub const FLOWS: usize = 1024;

/// Unified event types (`[19:16]`).
pub const ACK: u8 = 0;
pub const RX: u8 = 1;
pub const LOSS: u8 = 2;
pub const TIMER: u8 = 3;
pub const CNP: u8 = 4;
pub const TX: u8 = 5;
pub const CREATE: u8 = 6;

/// Algorithm codes.
pub const HPCC: u8 = 0;
pub const RX_HPCC: u8 = 1;
pub const LDCP: u8 = 2;
pub const DCQCN: u8 = 3;

/// The event types algorithm `alg` uses.
pub fn used_types(alg: u8) -> &'static [u8] {
    match alg {
        HPCC => &[ACK, CREATE],
        RX_HPCC => &[RX, CREATE],
        LDCP => &[ACK, LOSS, TIMER, CREATE],
        _ => &[CNP, TIMER, TX, CREATE],
    }
}

/// One unified event as the module takes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub flow: u16,
    /// Type, 0..=15 (7..=15 unused by every algorithm).
    pub ty: u8,
    pub ece: bool,
    /// Hop count field (0..=7).
    pub count: u8,
    /// ACK seq (type 0) or tx bytes (type 5).
    pub seq: u32,
    pub snd_nxt: u32,
    pub now: u64,
    pub hops: [u64; 5],
    /// Packets acknowledged (LDCP ACK).
    pub acked: u16,
    /// Algorithm (create).
    pub alg: u8,
}

impl Event {
    /// A create of `flow` with algorithm `alg`.
    pub fn create(flow: u16, alg: u8) -> Event {
        Event { flow, ty: CREATE, alg, ..Default::default() }
    }

    /// The 512-bit `s_axis_event_tdata` as 16 little-endian words (`layout::CC_EVENT`).
    pub fn words(&self) -> [u32; 16] {
        let l = &CC_EVENT;
        let mut w = [0u32; 16];
        l.flow.set(&mut w, self.flow as u64);
        l.kind.set(&mut w, self.ty as u64);
        l.ece.set(&mut w, self.ece as u64);
        l.count.set(&mut w, self.count as u64);
        l.seq.set(&mut w, self.seq as u64);
        l.snd_nxt.set(&mut w, self.snd_nxt as u64);
        l.now.set(&mut w, self.now);
        for (k, &h) in self.hops.iter().enumerate() {
            l.hops.part(k, 64).set(&mut w, h);
        }
        l.acked.set(&mut w, self.acked as u64);
        l.alg.set(&mut w, self.alg as u64);
        w
    }

    /// The event of a 512-bit `s_axis_event_tdata` (16 little-endian words): the inverse of
    /// `words` over the fields cc_module reads (`feedback` is hpcc_nic_core's, not read here).
    pub fn from_words(w: &[u32]) -> Event {
        let l = &CC_EVENT;
        Event {
            flow: l.flow.get(w) as u16,
            ty: l.kind.get(w) as u8,
            ece: l.ece.get(w) == 1,
            count: l.count.get(w) as u8,
            seq: l.seq.get(w) as u32,
            snd_nxt: l.snd_nxt.get(w) as u32,
            now: l.now.get(w),
            hops: std::array::from_fn(|k| l.hops.part(k, 64).get(w)),
            acked: l.acked.get(w) as u16,
            alg: l.alg.get(w) as u8,
        }
    }

    /// From a cc_hpcc event: ACK or telemetry at the receiver; its `init` becomes a create of
    /// the same algorithm.
    pub fn from_hpcc(e: &hh::Event) -> Event {
        let alg = if e.rx { RX_HPCC } else { HPCC };
        Event {
            flow: e.flow,
            ty: if e.init { CREATE } else if e.rx { RX } else { ACK },
            ece: false,
            count: e.count,
            seq: e.seq,
            snd_nxt: e.snd_nxt,
            now: e.now,
            hops: e.hops,
            acked: 0,
            alg,
        }
    }

    /// From a cc_ldcp event (packets acknowledged saturated to the 16-bit field).
    pub fn from_ldcp(e: &hl::Event) -> Event {
        let ty = match e.kind {
            hl::Kind::Ack => ACK,
            hl::Kind::Loss => LOSS,
            hl::Kind::Timer => TIMER,
            hl::Kind::Init => CREATE,
        };
        Event {
            flow: e.flow,
            ty,
            ece: e.ece,
            acked: e.acked.min(65535) as u16,
            now: e.now,
            alg: LDCP,
            ..Default::default()
        }
    }

    /// From a cc_dcqcn event.
    pub fn from_dcqcn(e: &hd::Event) -> Event {
        let ty = match e.kind {
            hd::CNP => CNP,
            hd::TIMER => TIMER,
            hd::TX => TX,
            _ => CREATE,
        };
        Event { flow: e.flow, ty, seq: e.bytes, now: e.now, alg: DCQCN, ..Default::default() }
    }
}

/// One Update (`m_axis_update_tdata`): flow_sched's `s_axis_update` word, one type for both.
pub use crate::flow_sched::Update;

/// One Rx-HPCC feedback (`m_axis_feedback_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feedback {
    pub flow: u16,
    /// W, UQ24.8 bytes.
    pub w: u32,
}

impl Feedback {
    /// The feedback of a 48-bit `m_axis_feedback_tdata` (`layout::FEEDBACK`).
    pub fn from_bits(d: u64) -> Feedback {
        let w = words_of(d as u128);
        Feedback { flow: FEEDBACK.flow.get(&w) as u16, w: FEEDBACK.w.get(&w) as u32 }
    }
}

/// What the model says one accepted event produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// Flow id >= 2^F: dropped, `stat_bad_flow`.
    BadFlow,
    /// Type unused by the flow's algorithm: dropped, `stat_unused`.
    Unused,
    /// Sent to an engine, no output (Rx-HPCC without feedback).
    Nothing,
    /// An Update from engine `alg` (0 HPCC, 2 LDCP, 3 DCQCN).
    Update(u8, Update),
    /// A feedback.
    Feedback(Feedback),
}

/// The module's model: the per-flow algorithm map and the three engines' per-flow states.
pub struct Model {
    pub hc: HpccConfig,
    pub lc: LdcpConfig,
    pub dc: DcqcnConfig,
    pub alg: Vec<u8>,
    pub hs: Vec<HpccState>,
    pub ls: Vec<LdcpState>,
    pub ds: Vec<DcqcnState>,
}

impl Model {
    /// Every flow HPCC++ from reset, on these configurations.
    pub fn new(hc: HpccConfig, lc: LdcpConfig, dc: DcqcnConfig) -> Model {
        Model {
            alg: vec![HPCC; FLOWS],
            hs: vec![HpccState::new(&hc); FLOWS],
            ls: vec![LdcpState::new(&lc); FLOWS],
            ds: vec![DcqcnState::new(&dc); FLOWS],
            hc,
            lc,
            dc,
        }
    }

    /// A fresh model (every flow HPCC++ from reset) on `m`'s configurations.
    pub fn fresh(m: &Model) -> Model {
        Model::new(m.hc, m.lc, m.dc)
    }

    /// Takes `m`'s configurations and keeps every flow's algorithm and state, as the RTL does
    /// when the host rewrites `CC_CFG`: the engines' `cfg` ports change, their per-flow RAMs
    /// do not (a flow created earlier keeps its state; a create from now on uses the new
    /// configuration).
    pub fn take_config(&mut self, m: &Model) {
        (self.hc, self.lc, self.dc) = (m.hc, m.lc, m.dc);
    }

    /// Applies one accepted event.
    pub fn apply(&mut self, e: &Event) -> Out {
        let f = e.flow as usize;
        if f >= FLOWS {
            return Out::BadFlow;
        }
        if e.ty == CREATE {
            self.alg[f] = e.alg & 3;
        }
        let alg = self.alg[f];
        if !used_types(alg).contains(&e.ty) {
            return Out::Unused;
        }
        let init = e.ty == CREATE;
        match alg {
            HPCC | RX_HPCC => {
                let he = hh::Event {
                    flow: e.flow,
                    rx: alg == RX_HPCC,
                    init,
                    seq: e.seq,
                    snd_nxt: e.snd_nxt,
                    now: e.now,
                    count: e.count & 7,
                    hops: e.hops,
                };
                let r = hh::Result::model(&self.hc, &mut self.hs[f], &he);
                if alg == HPCC {
                    Out::Update(HPCC, Update { flow: e.flow, rate: r.rate, window: r.w >> 8 })
                } else if r.feedback {
                    Out::Feedback(Feedback { flow: e.flow, w: r.w })
                } else {
                    Out::Nothing
                }
            }
            LDCP => {
                let kind = match e.ty {
                    ACK => hl::Kind::Ack,
                    LOSS => hl::Kind::Loss,
                    TIMER => hl::Kind::Timer,
                    _ => hl::Kind::Init,
                };
                let le = hl::Event { flow: e.flow, kind, ece: e.ece, acked: e.acked as u32, now: e.now };
                let r = hl::Result::model(&self.lc, &mut self.ls[f], &le);
                Out::Update(LDCP, Update { flow: e.flow, rate: r.rate, window: r.window })
            }
            _ => {
                let kind = match e.ty {
                    CNP => hd::CNP,
                    TIMER => hd::TIMER,
                    TX => hd::TX,
                    _ => hd::INIT,
                };
                let de = hd::Event { flow: e.flow, kind, bytes: e.seq, now: e.now };
                let r = hd::Result::model(&self.dc, &mut self.ds[f], &de);
                Out::Update(DCQCN, Update { flow: e.flow, rate: r.rate_q16, window: r.window_bytes })
            }
        }
    }
}
