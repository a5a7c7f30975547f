//! hpcc_nic_core_tracker cycle by cycle (hdl/src/top/hpcc_nic_core_tracker.rs): the flow table
//! (`layout::CORE_FLOW` words) and the completion tracker. T0 reads the entry of an ACK or
//! loss event as the slot takes it (the sequencer's flow while it holds the events or during
//! the sweep); T1 completes a message whose end PSN is the event's snd_una and writes the
//! entry back (out cleared). One write a cycle, the sequencer's first; the last is forwarded
//! to a T1 of the same flow. After reset the table is cleared one entry a cycle for 2^F cycles.

use crate::layout::CORE_FLOW;
use crate::ram::Ram;

/// The event types T0 takes (`cc_module::ACK`, `LOSS`).
const ACK: u8 = crate::cc_module::ACK;
const LOSS: u8 = crate::cc_module::LOSS;

/// Everything driven into the tracker during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    /// The slot takes an Rx pipe event: (type, flow, seq's low 24 bits).
    pub ev: Option<(u8, u16, u32)>,
    /// The Rx pipe event's flow (the read address when the sequencer does not hold).
    pub ev_flow: u16,
    /// nic_datapath's `stat_rx_cmds`.
    pub rx_cmds: u32,
    pub seq_hold: bool,
    pub cmd_flow: u16,
    /// The sequencer's write: (entry, snd_una).
    pub seq_write: Option<(u128, u32)>,
    pub fail: bool,
}

/// What the tracker shows during a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub entry: u128,
    pub t1_busy: bool,
    /// The sweep clears this flow this cycle.
    pub sweep: Option<usize>,
    /// The table's write (not the sweep's): (flow, out, log2 MTU, snd_una).
    pub wr: Option<(usize, bool, u8, u32)>,
    /// A message complete: (READ, completion word, rx_ctx's DMA commands at its T1).
    pub done: Option<(bool, u64, u32)>,
    pub completions: u32,
}

/// hpcc_nic_core_tracker, cycle by cycle.
pub struct HpccNicCoreTracker {
    flows: Ram<u128>,
    sweep_on: bool,
    sweep_at: usize,
    /// T1: (flow, seq, DMA commands).
    t1: Option<(u16, u32, u32)>,
    lw: Option<(u16, u128)>,
    count: u32,
}

/// What one cycle decides.
struct Comb {
    out: Outputs,
    read: usize,
    write: Option<(u16, u128)>,
}

impl HpccNicCoreTracker {
    pub fn new(flow_bits: usize) -> HpccNicCoreTracker {
        HpccNicCoreTracker { flows: Ram::new(flow_bits), sweep_on: false, sweep_at: 0, t1: None, lw: None, count: 0 }
    }

    pub fn idle(&self) -> bool {
        self.t1.is_none()
    }

    /// Idle and no sweep under way.
    pub fn quiet(&self) -> bool {
        self.t1.is_none() && !self.sweep_on
    }

    fn comb(&self, i: &Inputs) -> Comb {
        let m = self.flows.mask();
        let read = if i.seq_hold || self.sweep_on { i.cmd_flow } else { i.ev_flow } as usize & m;
        let (mut done, mut write) = (None, None);
        let mut una = 0;
        if let Some((flow, seq, cmds)) = self.t1 {
            let e = match self.lw {
                Some((f, w)) if f == flow => w,
                _ => self.flows.data(),
            };
            let complete = CORE_FLOW.out.of(e) == 1 && CORE_FLOW.end_psn.of(e) as u32 == seq;
            if complete {
                let cpl = crate::hpcc_nic_core_cpl::word(flow, CORE_FLOW.tag.of(e) as u16, crate::csr::CPL_OK, 0);
                done = Some((CORE_FLOW.read.of(e) == 1, cpl, cmds));
            }
            write = Some((flow, if complete { CORE_FLOW.out.with(e, 0) } else { e }));
            una = seq;
        }
        if let Some((e, u)) = i.seq_write {
            write = Some((i.cmd_flow, e));
            una = u;
        }
        let out = Outputs {
            entry: self.flows.data(),
            t1_busy: self.t1.is_some(),
            sweep: self.sweep_on.then_some(self.sweep_at),
            wr: write.map(|(f, e)| (f as usize & m, CORE_FLOW.out.of(e) == 1, CORE_FLOW.mtu_log.of(e) as u8, una)),
            done,
            completions: self.count,
        };
        Comb { out, read, write }
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        self.comb(i).out
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let c = self.comb(i);
        if c.out.done.is_some() || i.fail {
            self.count = self.count.wrapping_add(1);
        }
        let m = self.flows.mask();
        let mut ram_w = c.write.map(|(f, e)| (f as usize & m, e));
        if let Some(w) = c.write {
            self.lw = Some(w);
        }
        if self.sweep_on {
            ram_w = Some((self.sweep_at, 0));
            self.sweep_on = self.sweep_at != m;
            self.sweep_at = (self.sweep_at + 1) & m;
        }
        self.flows.clock(c.read, ram_w);
        self.t1 = i.ev.filter(|e| e.0 == ACK || e.0 == LOSS).map(|(_, f, psn)| (f, psn & 0xFF_FFFF, i.rx_cmds));
        if i.reset {
            self.t1 = None;
            self.lw = None;
            self.count = 0;
            self.sweep_on = true;
            self.sweep_at = 0;
        }
        c.out
    }
}
