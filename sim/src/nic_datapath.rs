//! nic_datapath cycle by cycle (hdl/src/top/nic_datapath.rs, docs/modules/nic_datapath.md):
//! the same ports on every cycle as the RTL, for the core's model. It is the blocks' cycle
//! models wired as the RTL wires the blocks (tx_ctx -> tx_pipe; rx_pipe and rx_dma side by
//! side -> rx_ctx -> read_split -> the gate -> tx_ctx), plus nic_datapath's own registers: the
//! two-entry slice on the sent events and the count of DMA commands taken.
//!
//! Some readies are combinational through several blocks (tx_pipe's descriptor ready ->
//! tx_ctx's PktRecv ready -> the gate's input ready -> read_split's -> rx_ctx's verdict
//! ready -> rx_pipe's output), so a cycle is evaluated in that order: every block's registered
//! outputs first, then the readies from the MAC side inwards, then every block steps on the
//! inputs so found.

use crate::cc_module::Feedback;
use crate::flow_sched::Sleep;
use crate::nic_datapath_gate::{self as gate, CtrlTaken, NicDatapathGate};
use crate::rx_ctx::{self, CcEvent, Ctrl as RxCtrl, Sent};
use crate::rx_pipe::Beat;
use crate::tx_ctx::{self, Ctrl as TxCtrl, DmaRead, Recv};
use crate::{read_split, rx_dma, rx_pipe, tx_pipe};

/// Everything driven into nic_datapath during one cycle (the port names without `s_axis_` /
/// `m_axis_`; a stream's tvalid with its data as an Option).
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub now_ns: u64,
    pub cnp_interval_ns: u32,
    pub tx_ctrl: Option<&'a TxCtrl>,
    pub rx_ctrl: Option<&'a RxCtrl>,
    pub pktsend: Option<u16>,
    pub probe: Option<u16>,
    pub feedback: Option<Feedback>,
    pub dma_rd_ready: bool,
    pub dma_rd_data: Option<&'a Beat>,
    pub tx_ready: bool,
    pub rx: Option<&'a Beat>,
    pub event_ready: bool,
    pub notify_ready: bool,
    pub sleep_ready: bool,
    pub wr_cmd_ready: bool,
    pub wr_ready: bool,
}

/// What nic_datapath shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub tx_ctrl_ready: bool,
    pub rx_ctrl_ready: bool,
    pub pktsend_ready: bool,
    pub probe_ready: bool,
    pub feedback_ready: bool,
    pub sleep: Option<Sleep>,
    pub dma_rd: Option<DmaRead>,
    pub dma_rd_data_ready: bool,
    pub tx: Option<tx_pipe::cycle::OutBeat>,
    pub rx_ready: bool,
    pub event: Option<CcEvent>,
    /// (flow, bytes).
    pub notify: Option<(u16, u32)>,
    /// (address, length, flow).
    pub wr_cmd: Option<(u64, u16, u16)>,
    pub wr: Option<rx_dma::cycle::OutBeat>,
    /// `stat_rx_cmds`: DMA commands taken by rx_dma, plus one waiting in rx_ctx.
    pub rx_cmds: u32,
}

/// nic_datapath, cycle by cycle. The blocks are public for their counters.
pub struct NicDatapath {
    pub tx_ctx: tx_ctx::cycle::TxCtx,
    pub tx_pipe: tx_pipe::cycle::TxPipe,
    pub rx_pipe: rx_pipe::cycle::RxPipe,
    pub rx_ctx: rx_ctx::cycle::RxCtx,
    pub read_split: read_split::cycle::ReadSplit,
    pub rx_dma: rx_dma::cycle::RxDma,
    pub gate: NicDatapathGate,
    /// The sent-event slice: main register (rx_ctx's input), skid register.
    sl_main: Option<Sent>,
    sl_skid: Option<Sent>,
    cmds_taken: u32,
}

/// Every block's inputs for one cycle, and what nic_datapath shows (`wires`; `clock` steps
/// on them).
pub struct Wires<'a> {
    tx_ctx: tx_ctx::cycle::Inputs<'a>,
    tx_pipe: tx_pipe::cycle::Inputs<'a>,
    rx_pipe: rx_pipe::cycle::Inputs<'a>,
    rx_ctx: rx_ctx::cycle::Inputs<'a>,
    read_split: read_split::cycle::Inputs<'a>,
    rx_dma: rx_dma::cycle::Inputs<'a>,
    gate: gate::Inputs<'a>,
    pub out: Outputs,
    /// rx_ctx takes the slice's sent event; the slice takes tx_ctx's.
    sent_ready: bool,
    sent_take: Option<Sent>,
}

/// The outputs of the blocks' registers that the wiring reads, owned so the wires can borrow
/// them. None of them depends on a ready (`regs`).
pub struct Regs {
    pub(crate) tx: tx_ctx::cycle::Outputs,
    pub(crate) rx: rx_ctx::cycle::Outputs,
    /// rx_ctx's PktRecv as read_split takes it.
    rx_word: Option<read_split::Word>,
    /// read_split's output as the gate takes it.
    split: Option<Recv>,
    /// The gate's output (a probe request from this cycle's input included).
    gate: Option<Recv>,
    verdict: Option<rx_pipe::Verdict>,
    dma: rx_dma::cycle::Outputs,
    /// The slice's main register, rx_ctx's sent input.
    sent: Option<Sent>,
}

impl NicDatapath {
    /// nic_datapath for 2^`flow_bits` flows, Notify bytes = packets << `pkt_shift`, before its
    /// reset.
    pub fn new(flow_bits: usize, pkt_shift: u8) -> NicDatapath {
        NicDatapath {
            tx_ctx: tx_ctx::cycle::TxCtx::new(flow_bits),
            tx_pipe: tx_pipe::cycle::TxPipe::new(),
            rx_pipe: rx_pipe::cycle::RxPipe::new(),
            rx_ctx: rx_ctx::cycle::RxCtx::new(flow_bits, pkt_shift),
            read_split: read_split::cycle::ReadSplit::new(),
            rx_dma: rx_dma::cycle::RxDma::new(),
            gate: NicDatapathGate::new(flow_bits),
            sl_main: None,
            sl_skid: None,
            cmds_taken: 0,
        }
    }

    /// Every block idle and the slice empty.
    pub fn idle(&self) -> bool {
        self.tx_ctx.idle()
            && self.tx_pipe.idle()
            && self.rx_pipe.idle()
            && self.rx_ctx.idle()
            && self.read_split.idle()
            && self.rx_dma.idle()
            && self.gate.idle()
            && self.sl_main.is_none()
            && self.sl_skid.is_none()
    }

    /// A cycle of an idle datapath with nothing coming in (`idle()`, and it stays idle): only
    /// the blocks' cycle counts move, which their latency queues are timed by.
    pub fn idle_cycle(&mut self) {
        self.tx_pipe.cycle += 1;
        self.rx_pipe.cycle += 1;
        self.rx_dma.cycle += 1;
    }

    /// The blocks' registered outputs this cycle: they depend on `now_ns` and `probe` only.
    pub fn regs(&self, i: &Inputs) -> Regs {
        let tx = self.tx_ctx.outputs(&tx_ctx::cycle::Inputs::default());
        let rx = self.rx_ctx.outputs(&rx_ctx::cycle::Inputs { now_ns: i.now_ns, ..Default::default() });
        // read_split's words come from rx_ctx's items, so they always read back as items.
        let split = self.read_split.outputs(&read_split::cycle::Inputs::default()).word;
        let split = split.map(|w| Recv::of(&w).expect("read_split gives the words of rx_ctx's items"));
        let gate = self.gate.outputs(&gate::Inputs { probe: i.probe, ..Default::default() }).recv;
        let verdict = self.rx_pipe.outputs(&rx_pipe::cycle::Inputs::default()).verdict;
        let rx_word = rx.pktrecv.as_ref().map(Recv::to_bytes);
        Regs { tx, rx, rx_word, split, gate, verdict, dma: self.rx_dma.outputs(), sent: self.sl_main }
    }

    /// The readies, from the MAC side inwards, and so every block's inputs; `r` is `regs(i)`.
    pub fn wires<'a>(&self, i: &Inputs<'a>, r: &'a Regs) -> Wires<'a> {
        let reset = i.reset;
        let tx_pipe = tx_pipe::cycle::Inputs { reset, desc: r.tx.desc.as_ref(), payload: i.dma_rd_data, ready: i.tx_ready };
        let tp = self.tx_pipe.outputs(&tx_pipe);
        let tx_ctx = tx_ctx::cycle::Inputs {
            reset,
            ctrl: i.tx_ctrl,
            pktrecv: r.gate.as_ref(),
            pktsend: i.pktsend,
            ready: [tp.desc_ready, i.dma_rd_ready, self.sl_skid.is_none(), i.sleep_ready],
        };
        let tc = self.tx_ctx.outputs(&tx_ctx);
        let gate = gate::Inputs {
            reset,
            now_ns: i.now_ns as u32,
            cnp_interval_ns: i.cnp_interval_ns,
            recv: r.split.as_ref(),
            probe: i.probe,
            feedback: i.feedback,
            ready: tc.pktrecv_ready,
            ctrl: i.tx_ctrl.filter(|_| tc.ctrl_ready).and_then(|c| match c {
                TxCtrl::Create { flow, cfg } => Some(CtrlTaken { flow: *flow, cnp: cfg.cnp }),
                TxCtrl::Remove { flow } => Some(CtrlTaken { flow: *flow, cnp: false }),
                _ => None,
            }),
            cmd: r.rx.dma_cmd.as_ref(),
            cmd_ready: r.dma.cmd_ready,
            wr_last: r.dma.wr.as_ref().is_some_and(|b| b.last) && i.wr_ready,
            short: self.rx_dma.counters.short,
        };
        let go = self.gate.outputs(&gate);
        let read_split = read_split::cycle::Inputs { reset, word: r.rx_word.as_ref(), ready: go.s_ready };
        let rs = self.read_split.outputs(&read_split);
        let rx_ctx = rx_ctx::cycle::Inputs {
            reset,
            now_ns: i.now_ns,
            ctrl: i.rx_ctrl,
            sent: r.sent.as_ref(),
            verdict: r.verdict.as_ref(),
            ready: [rs.s_ready, i.event_ready, i.notify_ready, r.dma.cmd_ready],
        };
        let rc = self.rx_ctx.outputs(&rx_ctx);
        // The MAC's beat goes to rx_pipe and rx_dma together: each sees it while the other is ready.
        let rp_ready = self.rx_pipe.outputs(&rx_pipe::cycle::Inputs { reset, ..Default::default() }).s_ready;
        let rx_pipe = rx_pipe::cycle::Inputs { reset, beat: i.rx.filter(|_| r.dma.s_ready), verdict_ready: rc.verdict_ready };
        let rx_dma = rx_dma::cycle::Inputs {
            reset,
            beat: i.rx.filter(|_| rp_ready),
            cmd: r.rx.dma_cmd.as_ref(),
            wr_cmd_ready: i.wr_cmd_ready,
            wr_ready: i.wr_ready,
        };
        let out = Outputs {
            tx_ctrl_ready: tc.ctrl_ready,
            rx_ctrl_ready: rc.ctrl_ready,
            pktsend_ready: tc.pktsend_ready,
            probe_ready: go.probe_ready,
            feedback_ready: go.feedback_ready,
            sleep: r.tx.sleep,
            dma_rd: r.tx.dma_rd,
            dma_rd_data_ready: tp.payload_ready,
            tx: tp.beat,
            rx_ready: rp_ready && r.dma.s_ready,
            event: r.rx.event.clone(),
            notify: r.rx.notify,
            wr_cmd: r.dma.wr_cmd,
            wr: r.dma.wr.clone(),
            rx_cmds: self.cmds_taken.wrapping_add(r.rx.dma_cmd.is_some() as u32),
        };
        let sent_take = r.tx.sent.filter(|_| self.sl_skid.is_none()).map(|(flow, psn)| Sent { flow, psn });
        Wires { tx_ctx, tx_pipe, rx_pipe, rx_ctx, read_split, rx_dma, gate, out, sent_ready: rc.sent_ready, sent_take }
    }

    /// The counters nic_datapath shows besides `stat_rx_cmds` (an output): `stat_tx_drop`,
    /// `stat_tx_recv_drop`, `stat_tx_nak_ignored`, `stat_tx_ctrl_bad`, `stat_tx_len_err`,
    /// `stat_rx_written`, `stat_rx_discarded`, `stat_rx_short`, `stat_rx_jobs`,
    /// `stat_rx_payloads`, `stat_cnps`, `stat_fb_acks`.
    pub fn counters(&self) -> [u32; 12] {
        let [drops, ctrl_bad, recv_drops, nak_ignored] = self.tx_ctx.counters;
        let d = self.rx_dma.counters;
        let [payloads, cnps, fb_acks] = self.gate.counters();
        [drops, recv_drops, nak_ignored, ctrl_bad, self.tx_pipe.len_err, d.written, d.discarded, d.short, self.rx_dma.jobs, payloads, cnps, fb_acks]
    }

    /// What nic_datapath shows this cycle on these inputs.
    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let r = self.regs(i);
        self.wires(i, &r).out
    }

    /// rx_pipe's counter `addr` and rx_ctx's (`stat_rx_pipe_count`, `stat_rx_ctx_count`; 0
    /// past the last). rx_pipe's model counts a frame at its last beat, the RTL when its
    /// verdict is made: the two agree once no frame is in flight.
    pub fn stat(&self, rx_pipe_addr: usize, rx_ctx_addr: usize) -> (u32, u32) {
        let p = self.rx_pipe.frames.counters.get(rx_pipe_addr).map_or(0, |&c| c as u32);
        let c = self.rx_ctx.stats.get(rx_ctx_addr).copied().unwrap_or(0);
        (p, c)
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let r = self.regs(i);
        let w = self.wires(i, &r);
        self.clock(i.reset, &r, w)
    }

    /// The clock of `step`, on the registers and wires already found for this cycle
    /// (`regs`, `wires`): hpcc_nic_core's model evaluates them once a cycle and reads them
    /// before the clock.
    pub fn clock(&mut self, reset: bool, r: &Regs, w: Wires) -> Outputs {
        let cmd_taken = r.rx.dma_cmd.is_some() && r.dma.cmd_ready;
        self.tx_ctx.step(&w.tx_ctx);
        self.tx_pipe.step(&w.tx_pipe);
        self.gate.step(&w.gate);
        self.read_split.step(&w.read_split);
        self.rx_ctx.step(&w.rx_ctx);
        self.rx_pipe.step(&w.rx_pipe);
        self.rx_dma.step(&w.rx_dma);
        if reset {
            self.sl_main = None;
            self.sl_skid = None;
            self.cmds_taken = 0;
            return w.out;
        }
        if w.sent_ready || self.sl_main.is_none() {
            // main empties or is empty: refill from the skid entry, else from the input.
            self.sl_main = self.sl_skid.take().or(w.sent_take);
        } else if w.sent_take.is_some() {
            self.sl_skid = w.sent_take;
        }
        if cmd_taken {
            self.cmds_taken = self.cmds_taken.wrapping_add(1);
        }
        w.out
    }
}
