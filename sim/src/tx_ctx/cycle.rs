//! tx_ctx cycle by cycle (hdl/src/tx/tx_ctx.rs and tx_ctx_pick.rs, docs/modules/tx_ctx.md
//! "Structure, latency, throughput"): the same ports on every cycle as the RTL, for the whole
//! core's model. The values are [`TxCtx`]'s (`ctrl`, `recv`, `rewind`, `pkt_send`), applied
//! when S1 takes an input; the timing is tx_ctx_pick's:
//!
//! ```text
//! S1   one input per clock, control word > PktRecv > PktSend; a PktSend only while the
//!      sent-event pair has room for what S2 may add
//! S2   a control word waits for the sleep register, a PktRecv also for the descriptor
//!      register (a READ response for the DMA read register too), a PktSend for all three
//! OUT  descriptor, DMA read and sleep registers; sent events through a pair of registers
//! ```
//!
//! After a reset S1 takes nothing for the 2^F cycles of the RAM sweep.

use super::{Ctrl, DmaRead, Recv, TxCtx as Values, TxDesc};
use crate::flow_sched::Sleep;

/// Everything driven into tx_ctx during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub ctrl: Option<&'a Ctrl>,
    pub pktrecv: Option<&'a Recv>,
    /// `s_axis_pktsend_tvalid` with its flow.
    pub pktsend: Option<u16>,
    /// tready of descriptor, DMA read, sent, sleep.
    pub ready: [bool; 4],
}

/// What tx_ctx shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub ctrl_ready: bool,
    pub pktrecv_ready: bool,
    pub pktsend_ready: bool,
    pub desc: Option<TxDesc>,
    pub dma_rd: Option<DmaRead>,
    /// (flow, PSN) of a data packet sent.
    pub sent: Option<(u16, u32)>,
    pub sleep: Option<Sleep>,
}

/// The counters: (drops, ctrl_bad, recv_drops, nak_ignored), as the `stat_*` ports show them.
pub type Counters = [u32; 4];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ctrl,
    Recv { read: bool },
    Send,
}

/// The input S2 holds and what the model made of it.
#[derive(Clone, Debug)]
struct Held {
    kind: Kind,
    desc: Option<TxDesc>,
    dma: Option<DmaRead>,
    sent: Option<(u16, u32)>,
    sleep: Option<Sleep>,
    counters: Counters,
}

/// tx_ctx, cycle by cycle.
pub struct TxCtx {
    /// The values (flow contexts, messages, the counters as the inputs are taken).
    pub model: Values,
    /// The counters as S2 counts them.
    pub counters: Counters,
    flow_bits: usize,
    sweep_left: usize,
    p: Option<Held>,
    d: Option<TxDesc>,
    r: Option<DmaRead>,
    s: Option<(u16, u32)>,
    s2: Option<(u16, u32)>,
    w: Option<Sleep>,
}

impl TxCtx {
    /// tx_ctx for 2^`flow_bits` flows, before its reset.
    pub fn new(flow_bits: usize) -> TxCtx {
        TxCtx { model: Values::new(flow_bits), counters: [0; 4], flow_bits, sweep_left: 0, p: None, d: None, r: None, s: None, s2: None, w: None }
    }

    /// Nothing held and every output register empty.
    pub fn idle(&self) -> bool {
        self.sweep_left == 0 && self.p.is_none() && self.d.is_none() && self.r.is_none() && self.s.is_none() && self.w.is_none()
    }

    /// S2 does its input this cycle, or holds none.
    fn go(&self, ready: [bool; 4]) -> bool {
        let d_free = self.d.is_none() || ready[0];
        let free = d_free && (self.r.is_none() || ready[1]);
        let w_free = self.w.is_none() || ready[3];
        match self.p.as_ref().map(|p| p.kind) {
            None => true,
            Some(Kind::Ctrl) => w_free,
            Some(Kind::Recv { read }) => w_free && d_free && (!read || free),
            Some(Kind::Send) => w_free && free,
        }
    }

    /// Room in the sent pair for what S2 may add, given this cycle's read of it.
    fn s_room(&self, ready: [bool; 4]) -> bool {
        let pop = self.s.is_some() && ready[2];
        let ps2 = matches!(self.p.as_ref().map(|p| p.kind), Some(Kind::Send));
        self.s.is_none() || (self.s2.is_none() && !(ps2 && !pop)) || (self.s2.is_some() && pop && !ps2)
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let take = self.sweep_left == 0 && self.go(i.ready);
        Outputs {
            ctrl_ready: take,
            pktrecv_ready: take && i.ctrl.is_none(),
            pktsend_ready: take && i.ctrl.is_none() && i.pktrecv.is_none() && self.s_room(i.ready),
            desc: self.d.clone(),
            dma_rd: self.r,
            sent: self.s,
            sleep: self.w,
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        if i.reset {
            *self = TxCtx { sweep_left: 1 << self.flow_bits, ..TxCtx::new(self.flow_bits) };
            return out;
        }
        if self.sweep_left > 0 {
            self.sweep_left -= 1;
            return out;
        }
        let go = self.go(i.ready);
        let s_room = self.s_room(i.ready);
        let s_pop = self.s.is_some() && i.ready[2];
        if i.ready[0] {
            self.d = None;
        }
        if i.ready[1] {
            self.r = None;
        }
        let had_s = self.s.is_some();
        if s_pop {
            self.s = self.s2.take();
        }
        if i.ready[3] {
            self.w = None;
        }
        if go {
            if let Some(p) = self.p.take() {
                if p.sleep.is_some() {
                    self.w = p.sleep;
                }
                if p.desc.is_some() {
                    self.d = p.desc;
                }
                if p.dma.is_some() {
                    self.r = p.dma;
                }
                if let Some(e) = p.sent {
                    // Into the first register if it is free after this cycle's read.
                    if (s_pop && self.s.is_none()) || (!s_pop && !had_s) {
                        self.s = Some(e);
                    } else {
                        self.s2 = Some(e);
                    }
                }
                self.counters = p.counters;
            }
            // S1: the input by priority, its outputs from the model now.
            let m = &mut self.model;
            let held = if let Some(c) = i.ctrl {
                m.ctrl(c);
                Some((Kind::Ctrl, None, None, None))
            } else if let Some(r) = i.pktrecv {
                let read = matches!(r, Recv::ReadResp(_));
                match r {
                    Recv::Rewind(x) => {
                        m.rewind(x);
                        Some((Kind::Recv { read }, None, None, None))
                    }
                    r => {
                        let (d, dma) = m.recv(r).map_or((None, None), |(d, dma)| (Some(d), dma));
                        Some((Kind::Recv { read }, d, dma, None))
                    }
                }
            } else if let Some(f) = i.pktsend.filter(|_| s_room) {
                let (d, dma) = m.pkt_send(f).map_or((None, None), |(d, dma)| (Some(d), dma));
                let sent = d.as_ref().map(|d| (f, d.bth.psn));
                Some((Kind::Send, d, dma, sent))
            } else {
                None
            };
            self.p = held.map(|(kind, desc, dma, sent)| Held {
                kind,
                desc,
                dma,
                sent,
                sleep: self.model.sleeps.pop(),
                counters: [self.model.drops, self.model.ctrl_bad, self.model.recv_drops, self.model.nak_ignored],
            });
            debug_assert!(self.model.sleeps.is_empty());
        }
        out
    }
}
