//! rx_ctx cycle by cycle (hdl/src/rx/rx_ctx.rs and rx_ctx_pick.rs, docs/modules/rx_ctx.md
//! "How it works"): the same ports on every cycle as the RTL, for the whole core's model.
//! The values are [`RxCtx`]'s (`ctrl_at`, `sent`, `verdict`), applied when S1 takes an input,
//! with that cycle's `now_ns` (the RTL registers it beside the input); the timing is the RTL's:
//!
//! ```text
//! S1   one input per clock, control word > sent event > verdict, taken while S2 moves on
//! S2   does its input when every output register it may fill is free (free: each of
//!      PktRecv, event and DMA command empty or read this cycle, the Notify pair able to
//!      move); a control word other than a timeout needs nothing; counters count here
//! OUT  PktRecv, event and DMA command registers; Notify through two (packets, bytes)
//! ```
//!
//! After a reset S1 takes nothing for the 2^F cycles of the RAM sweep.

use super::{stat, CcEvent, Ctrl, Out, RxCtx as Values, Sent, OP_TIMEOUT};
use crate::rx_dma::Cmd;
use crate::rx_pipe::Verdict;
use crate::tx_ctx::Recv;

/// Everything driven into rx_ctx during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub now_ns: u64,
    pub ctrl: Option<&'a Ctrl>,
    pub sent: Option<&'a Sent>,
    pub verdict: Option<&'a Verdict>,
    /// tready of PktRecv, event, Notify, DMA command.
    pub ready: [bool; 4],
}

/// What rx_ctx shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub ctrl_ready: bool,
    pub sent_ready: bool,
    pub verdict_ready: bool,
    pub pktrecv: Option<Recv>,
    pub event: Option<CcEvent>,
    /// (flow, bytes).
    pub notify: Option<(u16, u32)>,
    pub dma_cmd: Option<Cmd>,
}

/// The input S2 holds: what it is and what the model made of it.
#[derive(Clone, Debug)]
struct Held {
    /// A timeout waits for free outputs like a verdict; other control words never wait.
    waits: bool,
    out: Out,
    /// A verdict gives a DMA command.
    dma: bool,
    /// The counters once it is done.
    stats: [u32; stat::COUNT],
}

/// rx_ctx, cycle by cycle.
pub struct RxCtx {
    /// The values (QP words and the counters as the inputs are taken).
    pub model: Values,
    /// The counters as `stat_count` shows them (counted in S2).
    pub stats: [u32; stat::COUNT],
    sweep_left: usize,
    p: Option<Held>,
    r: Option<Recv>,
    e: Option<CcEvent>,
    n: Option<(u16, u32)>,
    m: Option<(u16, u32)>,
    d: Option<Cmd>,
}

impl RxCtx {
    /// rx_ctx for 2^`flow_bits` flows before its reset, Notify bytes = packets << `pkt_shift`.
    pub fn new(flow_bits: usize, pkt_shift: u8) -> RxCtx {
        let mut model = Values::new(flow_bits);
        model.pkt_shift = pkt_shift;
        RxCtx { model, stats: [0; stat::COUNT], sweep_left: 0, p: None, r: None, e: None, n: None, m: None, d: None }
    }

    /// Nothing held and every output register empty.
    pub fn idle(&self) -> bool {
        self.p.is_none() && self.r.is_none() && self.e.is_none() && self.n.is_none() && self.m.is_none() && self.d.is_none()
    }

    fn free(&self, ready: [bool; 4]) -> bool {
        (self.r.is_none() || ready[0])
            && (self.e.is_none() || ready[1])
            && (self.n.is_none() || self.m.is_none() || ready[2])
            && (self.d.is_none() || ready[3])
    }

    /// S2 does its input this cycle, or holds none (S1 may take one).
    fn go(&self, ready: [bool; 4]) -> bool {
        self.p.as_ref().is_none_or(|p| !p.waits) || self.free(ready)
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let take = self.sweep_left == 0 && self.go(i.ready);
        Outputs {
            ctrl_ready: take,
            sent_ready: take && i.ctrl.is_none(),
            verdict_ready: take && i.ctrl.is_none() && i.sent.is_none(),
            pktrecv: self.r.clone(),
            event: self.e.clone(),
            notify: self.m,
            dma_cmd: self.d.clone(),
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        if i.reset {
            let flows = self.model.qp_slots();
            *self = RxCtx { sweep_left: flows, ..RxCtx::new(flows.trailing_zeros() as usize, self.model.pkt_shift) };
            return out;
        }
        if self.sweep_left > 0 {
            self.sweep_left -= 1;
            return out;
        }
        let go = self.go(i.ready);
        // OUT: reads, the Notify pair's move, then what S2 does.
        if i.ready[0] {
            self.r = None;
        }
        if i.ready[1] {
            self.e = None;
        }
        if i.ready[2] {
            self.m = None;
        }
        if self.n.is_some() && self.m.is_none() {
            self.m = self.n.take();
        }
        if i.ready[3] {
            self.d = None;
        }
        if go {
            if let Some(p) = self.p.take() {
                if p.out.recv.is_some() {
                    self.r = p.out.recv;
                }
                if p.out.event.is_some() {
                    self.e = p.out.event;
                }
                if p.out.notify.is_some() {
                    self.n = p.out.notify;
                }
                if p.dma {
                    self.d = Some(p.out.dma);
                }
                self.stats = p.stats;
            }
            // S1: the input by priority, its outputs from the model now.
            let (waits, o, dma) = if let Some(c) = i.ctrl {
                (c.op == OP_TIMEOUT, Some(self.model.ctrl_at(c, i.now_ns).1), false)
            } else if let Some(s) = i.sent {
                let notify = self.model.sent(s);
                (true, Some(Out { notify, ..Out::default() }), false)
            } else if let Some(v) = i.verdict {
                (true, Some(self.model.verdict(v, i.now_ns)), true)
            } else {
                (false, None, false)
            };
            self.p = o.map(|out| Held { waits, out, dma, stats: self.model.stats });
        }
        out
    }
}
