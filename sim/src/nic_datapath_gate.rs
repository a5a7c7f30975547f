//! nic_datapath_gate cycle by cycle (hdl/src/top/nic_datapath_gate.rs, docs/modules/
//! nic_datapath.md): the same ports on every cycle as the RTL, for the core's model. The gate
//! has no values beyond its timing, so this is its only model: a register and a RAM here for
//! each of the RTL's.
//!
//! - Placement gate: one PktRecv held with the data commands issued when it came in; released
//!   once that many payloads are finished (DMA write tlasts plus rx_dma's refused commands), no
//!   CNP waits and no create / remove is being written.
//! - CNP point: a released ACK / NAK with ECN-Echo for a flow with CNPs enabled and no CNP in
//!   the last `cnp_interval_ns` (or none yet) is followed by a CNP, kind 5.
//! - Rx-HPCC feedback: a released ACK / NAK of a flow with a W waiting carries it, as an echo
//!   without hops.
//! - Probe requests fill the cycles the gate and the CNP slot leave free.
//!
//! Both per-flow RAMs read one cycle after their address and miss the write of that cycle,
//! which the RTL forwards from a register of the last write; both are swept to 0 for 2^F
//! cycles after a reset, during which no CNP or W is attached and the feedback input waits.

use crate::cc_module::Feedback;
use crate::ram::Ram;
use crate::rx_dma::Cmd;
use crate::tx_ctx::{PktRecv, Recv};

/// A create or remove tx_ctx takes this cycle: its flow, and for a create whether the flow
/// answers CE-marked requests with CNPs (the create word's `cnp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtrlTaken {
    pub flow: u16,
    pub cnp: bool,
}

/// Everything driven into the gate during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    /// `now_ns`'s low 32 bits.
    pub now_ns: u32,
    pub cnp_interval_ns: u32,
    /// `s_axis` (read_split's output) valid with its item.
    pub recv: Option<&'a Recv>,
    /// `s_axis_probe` valid with its flow.
    pub probe: Option<u16>,
    pub feedback: Option<Feedback>,
    /// `m_axis_tready` (tx_ctx's PktRecv ready).
    pub ready: bool,
    pub ctrl: Option<CtrlTaken>,
    /// rx_ctx's DMA command offered, and rx_dma's ready for it.
    pub cmd: Option<&'a Cmd>,
    pub cmd_ready: bool,
    /// A tlast handshake on the DMA write stream.
    pub wr_last: bool,
    /// rx_dma's `stat_short`.
    pub short: u32,
}

/// What the gate shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_ready: bool,
    pub probe_ready: bool,
    pub feedback_ready: bool,
    /// `m_axis` valid with its item: a CNP, else the released PktRecv, else a probe request.
    pub recv: Option<Recv>,
}

/// The CNP RAM's word (`layout::CNP_STATE`) and the feedback RAM's (`FB_STATE`, W if waiting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cnp {
    enabled: bool,
    sent: bool,
    at: u32,
}

/// What one cycle decides, from the registers and the inputs.
struct Comb {
    rel: bool,
    cn_send: bool,
    fb_take: bool,
    fb_in: bool,
    s_ready: bool,
    /// The CNP and feedback entries of the held flow, forwarded.
    fb: Option<u32>,
}

/// nic_datapath_gate, cycle by cycle.
pub struct NicDatapathGate {
    flow_bits: usize,
    g: Option<(Recv, u32)>,
    data_cmds: u32,
    wr_lasts: u32,
    cn: Ram<Cnp>,
    cn_swept: bool,
    cn_at: usize,
    sn: Option<(usize, bool)>,
    c: Option<u16>,
    cn_count: u32,
    cl: Option<(usize, Cnp)>,
    fbr: Ram<Option<u32>>,
    fl: Option<(usize, Option<u32>)>,
    fb_count: u32,
}

impl NicDatapathGate {
    /// The gate for 2^`flow_bits` flows, before its reset.
    pub fn new(flow_bits: usize) -> NicDatapathGate {
        NicDatapathGate {
            flow_bits,
            g: None,
            data_cmds: 0,
            wr_lasts: 0,
            cn: Ram::new(flow_bits),
            cn_swept: false,
            cn_at: 0,
            sn: None,
            c: None,
            cn_count: 0,
            cl: None,
            fbr: Ram::new(flow_bits),
            fl: None,
            fb_count: 0,
        }
    }

    /// No PktRecv held and no CNP waiting.
    pub fn idle(&self) -> bool {
        self.g.is_none() && self.c.is_none()
    }

    /// `stat_payloads`, `stat_cnps`, `stat_fb_acks`.
    pub fn counters(&self) -> [u32; 3] {
        [self.wr_lasts, self.cn_count, self.fb_count]
    }

    fn slot(&self, flow: u16) -> usize {
        flow as usize & ((1 << self.flow_bits) - 1)
    }

    fn comb(&self, i: &Inputs) -> Comb {
        let left = self.wr_lasts.wrapping_add(i.short).wrapping_sub(self.g.as_ref().map_or(0, |g| g.1));
        let rel = self.g.is_some() && left >> 31 == 0 && self.c.is_none() && self.sn.is_none();
        let (mut cn_due, mut fb) = (false, None);
        if let Some((r, _)) = &self.g {
            let f = self.slot(r.flow());
            let cn = self.cl.filter(|c| c.0 == f).map_or(self.cn.data(), |c| c.1);
            let fw = self.fl.filter(|c| c.0 == f).map_or(self.fbr.data(), |c| c.1);
            let ack = match r {
                Recv::Ack(a) => Some(a.ece),
                _ => None,
            };
            let old = !cn.sent || i.now_ns.wrapping_sub(cn.at) >= i.cnp_interval_ns;
            cn_due = ack == Some(true) && cn.enabled && old;
            fb = fw.filter(|_| ack.is_some() && self.cn_swept);
        }
        let go = rel && i.ready;
        let fb_take = go && fb.is_some();
        let fb_in = self.cn_swept && self.sn.is_none() && !fb_take;
        Comb { rel, cn_send: go && cn_due && self.cn_swept, fb_take, fb_in, s_ready: self.g.is_none() || go, fb }
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let c = self.comb(i);
        let recv = if let Some(f) = self.c {
            Some(Recv::Cnp(f))
        } else if c.rel {
            let r = &self.g.as_ref().unwrap().0;
            Some(match (r, c.fb) {
                // The ACK's flow, kind, ECN-Echo, PSN and AETH kept; an echo carrying W.
                (Recv::Ack(a), Some(w)) => {
                    Recv::Ack(PktRecv { flow: a.flow, psn: a.psn, aeth: a.aeth, echo: Some(vec![]), ece: a.ece, feedback: Some(w) })
                }
                _ => r.clone(),
            })
        } else {
            i.probe.map(Recv::Probe)
        };
        Outputs {
            s_ready: c.s_ready,
            probe_ready: i.ready && !c.rel && self.c.is_none(),
            feedback_ready: c.fb_in,
            recv,
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        let c = self.comb(i);
        let go = c.rel && i.ready;
        let taken = i.recv.filter(|_| c.s_ready);
        // The RAMs read the flow entering the gate, else the one in it (with neither, what
        // they read is never used: the next cycle holds nothing).
        let read = taken.map(|r| r.flow()).or(self.g.as_ref().map(|g| g.0.flow())).map_or(0, |f| self.slot(f));
        if i.reset {
            self.cn.clock(read, None);
            self.fbr.clock(read, None);
            let (cn, fbr) = (std::mem::replace(&mut self.cn, Ram::new(0)), std::mem::replace(&mut self.fbr, Ram::new(0)));
            *self = NicDatapathGate { cn, fbr, ..NicDatapathGate::new(self.flow_bits) };
            return out;
        }
        let data = i.cmd.is_some_and(|d| d.write && d.len > 0);
        let cd_now = self.data_cmds.wrapping_add(data as u32);
        if data && i.cmd_ready {
            self.data_cmds = cd_now;
        }
        if i.wr_last {
            self.wr_lasts = self.wr_lasts.wrapping_add(1);
        }
        let held = self.g.as_ref().map(|g| self.slot(g.0.flow())).unwrap_or(0);
        let (sn, c_was) = (self.sn, self.c);
        if c_was.is_some() && i.ready {
            self.c = None;
            self.cn_count = self.cn_count.wrapping_add(1);
        }
        if c.cn_send {
            self.c = Some(held as u16);
        }
        // One write a cycle to each RAM, forwarded the next cycle (not during the sweep).
        let cn_w = if !self.cn_swept {
            Some((self.cn_at, Cnp::default()))
        } else if let Some((f, en)) = sn {
            Some((f, Cnp { enabled: en, ..Cnp::default() }))
        } else if c.cn_send {
            Some((held, Cnp { enabled: true, sent: true, at: i.now_ns }))
        } else {
            None
        };
        let fb_w = if !self.cn_swept {
            Some((self.cn_at, None))
        } else if let Some((f, _)) = sn {
            Some((f, None))
        } else if c.fb_take {
            self.fb_count = self.fb_count.wrapping_add(1);
            Some((held, None))
        } else {
            i.feedback.map(|f| (self.slot(f.flow), Some(f.w)))
        };
        self.cl = cn_w.filter(|_| self.cn_swept);
        self.fl = fb_w.filter(|_| self.cn_swept);
        self.cn.clock(read, cn_w);
        self.fbr.clock(read, fb_w);
        if !self.cn_swept {
            self.cn_swept = self.cn_at == self.cn.mask();
            self.cn_at = (self.cn_at + 1) & self.cn.mask();
        }
        self.sn = i.ctrl.map(|t| (self.slot(t.flow), t.cnp));
        if let Some(r) = taken {
            self.g = Some((r.clone(), cd_now));
        } else if go {
            self.g = None;
        }
        out
    }
}
