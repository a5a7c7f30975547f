//! hpcc_nic_core cycle by cycle (hdl/src/top/hpcc_nic_core.rs, docs/modules/hpcc_nic_core.md):
//! the model NIC of `netsim --nic model`. Its blocks' cycle models wired as the RTL wires the
//! blocks: axil_slave and the registers, flow_sched, cc_module, nic_datapath, the sequencer,
//! the flow table and tracker, the Notify stage, the event slot, the timer scan, DCQCN's
//! tx-byte events, Rx-HPCC's feedback unit and the completion queue.
//!
//! A cycle is evaluated in the order the signals run: the registered outputs of every block,
//! then the sequencer's words (its outputs depend on no ready), the event choice (on
//! cc_module's ready), nic_datapath (on flow_sched's, the Notify stage's and the event
//! slot's readies), the blocks that watch it (tracker, feedback, tx-byte events, timer,
//! completions), the register read; then every block steps on the inputs so found.
//!
//! cc_module's configuration is a `cc_module::Model` given with `configure` (the same one the
//! host writes into `CC_CFG`; the model does not decode the words).

use crate::axil_slave::{self, AxilSlave};
use crate::cc_module::{self, Event, Model, DCQCN, RX_HPCC};
use crate::csr;
use crate::flow_sched::{self, FlowSched, Notify};
use crate::hpcc_nic_core_cpl::{self as cpl, HpccNicCoreCpl};
use crate::hpcc_nic_core_events::{self as events, HpccNicCoreEvents};
use crate::hpcc_nic_core_feedback::{self as feedback, HpccNicCoreFeedback};
use crate::hpcc_nic_core_notify::{self as notify, HpccNicCoreNotify};
use crate::hpcc_nic_core_regs::HpccNicCoreRegs;
use crate::hpcc_nic_core_seq::{self as seq, HpccNicCoreSeq};
use crate::hpcc_nic_core_timer::{self as timer, HpccNicCoreTimer};
use crate::hpcc_nic_core_tracker::{self as tracker, HpccNicCoreTracker};
use crate::hpcc_nic_core_tx_bytes::{self as tx_bytes, HpccNicCoreTxBytes};
use crate::layout::{STAT_SEL, TX_CREATE};
use crate::nic_datapath::{self as dp, NicDatapath};
use crate::rx_ctx::Ctrl as RxCtrl;
use crate::rx_pipe::Beat;
use crate::tx_ctx::{Ctrl as TxCtrl, DmaRead};
use crate::{rx_dma, tx_pipe};

/// Everything driven into the core during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub axil: axil_slave::Inputs,
    pub dma_rd_ready: bool,
    pub dma_rd_data: Option<&'a Beat>,
    pub tx_ready: bool,
    pub rx: Option<&'a Beat>,
    pub wr_cmd_ready: bool,
    pub wr_ready: bool,
    pub cpl_ready: bool,
    /// The post port's word (`layout::CORE_POST`), while offered.
    pub post: Option<&'a [u8; 54]>,
}

/// What the core shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub axil: axil_slave::Outputs,
    pub dma_rd: Option<DmaRead>,
    pub dma_rd_data_ready: bool,
    pub tx: Option<tx_pipe::cycle::OutBeat>,
    pub rx_ready: bool,
    /// (address, length, flow).
    pub wr_cmd: Option<(u64, u16, u16)>,
    pub wr: Option<rx_dma::cycle::OutBeat>,
    pub cpl: Option<u64>,
    /// The post port's `tready`.
    pub post_ready: bool,
    /// Streams inside, as the test bench's probes read them (testbench/verilog/probes).
    pub inner: Inner,
}

/// The core's inner streams that the Verilated core's probes show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inner {
    /// The event offered to cc_module, and its ready.
    pub cc_event: Option<Event>,
    /// The event's word has the feedback bit (`layout::CC_EVENT`'s, not an `Event` field).
    pub cc_event_feedback: bool,
    pub cc_event_ready: bool,
    /// flow_sched's inputs: control word, Update (the feedback unit's first), Notify, sleep
    /// report, with their readies; its PktSend and the datapath's ready for it.
    pub sched_ctrl: Option<flow_sched::Ctrl>,
    pub sched_ctrl_ready: bool,
    pub update: Option<flow_sched::Update>,
    pub update_ready: bool,
    pub notify: Option<Notify>,
    pub notify_ready: bool,
    pub sleep: Option<flow_sched::Sleep>,
    pub sleep_ready: bool,
    pub pktsend: Option<u16>,
    pub pktsend_ready: bool,
    /// cc_module's Rx-HPCC feedback and the datapath's ready for it.
    pub feedback: Option<cc_module::Feedback>,
    pub feedback_ready: bool,
}

/// hpcc_nic_core, cycle by cycle. The blocks are public for their counters and state.
pub struct HpccNicCore {
    flow_bits: usize,
    pub axil: AxilSlave,
    pub regs: HpccNicCoreRegs,
    pub sched: FlowSched,
    pub cc: cc_module::cycle::CcModule,
    pub dp: NicDatapath,
    /// `FEEDBACK_IN`: Rx-HPCC feedback words the datapath took.
    pub fb_in: u32,
    pub tracker: HpccNicCoreTracker,
    pub notify: HpccNicCoreNotify,
    pub events: HpccNicCoreEvents,
    pub timer: HpccNicCoreTimer,
    pub tx_bytes: HpccNicCoreTxBytes,
    pub feedback: HpccNicCoreFeedback,
    pub cpl: HpccNicCoreCpl,
    pub seq: HpccNicCoreSeq,
    /// The last cycle was quiet (`quiet`) with these readies and was stepped in full: its
    /// outputs, which every following quiet cycle with the same readies shows again.
    still: Option<(Readies, Outputs)>,
    /// Cycles stepped the quiet way (`quiet_cycle`).
    pub quiet_cycles: u64,
}

/// The input readies of a cycle with no data coming in (`Readies::of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Readies([bool; 7]);

impl Readies {
    /// None when anything but a ready is driven: a reset, a register access, a beat.
    fn of(i: &Inputs) -> Option<Readies> {
        let a = &i.axil;
        let none = !i.reset && a.aw_w.is_none() && a.ar.is_none() && i.dma_rd_data.is_none() && i.rx.is_none() && i.post.is_none();
        let r = [a.bready, a.rready, i.dma_rd_ready, i.tx_ready, i.wr_cmd_ready, i.wr_ready, i.cpl_ready];
        none.then_some(Readies(r))
    }
}

impl HpccNicCore {
    /// The core for 2^`flow_bits` flows, before its reset; cc_module on `model`'s configuration.
    pub fn new(flow_bits: usize, model: Model) -> HpccNicCore {
        HpccNicCore {
            flow_bits,
            axil: AxilSlave::new(),
            regs: HpccNicCoreRegs::new(),
            sched: FlowSched::new(flow_bits as u32),
            cc: cc_module::cycle::CcModule::new(model),
            // Notifies count packets; the Notify stage makes them bytes.
            dp: NicDatapath::new(flow_bits, 0),
            fb_in: 0,
            tracker: HpccNicCoreTracker::new(flow_bits),
            notify: HpccNicCoreNotify::new(flow_bits),
            events: HpccNicCoreEvents::new(),
            timer: HpccNicCoreTimer::new(flow_bits),
            tx_bytes: HpccNicCoreTxBytes::new(flow_bits),
            feedback: HpccNicCoreFeedback::new(flow_bits),
            cpl: HpccNicCoreCpl::new(),
            seq: HpccNicCoreSeq::new(flow_bits),
            still: None,
            quiet_cycles: 0,
        }
    }

    /// cc_module's configuration from now on: `m`'s (what the host writes into `CC_CFG`).
    /// Created flows keep their state, as in the RTL. The new values apply to every event from
    /// here on, so write them while no event is in flight (the RTL's engines read `cfg` in
    /// several pipeline stages: an event in flight during a change may see a mix).
    pub fn configure(&mut self, m: &Model) {
        self.cc.model.take_config(m);
    }

    /// Every block idle, no sweep, no command, the timer scan waiting at a flow: a cycle with
    /// nothing coming in changes nothing but the counts of time (`quiet_cycle`).
    fn quiet(&self) -> bool {
        let t = &self.timer;
        self.axil.idle()
            && self.seq.quiet()
            && self.tracker.quiet()
            && self.events.idle()
            && self.cpl.idle()
            && self.notify.idle()
            && self.tx_bytes.idle()
            && !self.feedback.busy()
            && self.cc.idle()
            && self.sched.quiet()
            && self.dp.idle()
            && !t.tm
            && t.rq.is_none()
            && t.pq.is_none()
            && (t.wait != 0 || self.regs.timer_gap == 0)
    }

    /// One clock cycle; returns the outputs shown during it.
    ///
    /// Most cycles of a netsim host are quiet (88% of a WebSearch load at 30%): once a quiet
    /// cycle has been stepped in full, the next quiet ones with the same readies show its
    /// outputs again and step only what counts time (`quiet_cycle`). The first is stepped in
    /// full so that every RAM's read register has settled on the address a quiet cycle reads.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let readies = Readies::of(i).filter(|_| self.quiet());
        if let (Some(r), Some((was, out))) = (readies, &self.still) {
            if r == *was {
                let out = out.clone();
                self.quiet_cycle(&out);
                self.quiet_cycles += 1;
                return out;
            }
        }
        let out = self.step_all(i);
        self.still = readies.map(|r| (r, out.clone()));
        out
    }

    /// A quiet cycle (`quiet`) whose outputs were `out`: the registers' clock, the timer scan,
    /// flow_sched and cc_module step on no input (they count time: `now`, the scan's wait,
    /// flow_sched's clock, cc_module's cycle and history), the datapath's blocks count the
    /// cycle; every other block would not change.
    fn quiet_cycle(&mut self, out: &Outputs) {
        let r = &self.regs;
        let ((pkt_shift, max_burst), (rto_rounds, rto_retries)) = (r.sched(), r.rto());
        self.timer.step(&timer::Inputs { gap: r.timer_gap, rto_rounds, rto_retries, ..Default::default() });
        self.sched.step(&flow_sched::Inputs {
            pkt_shift,
            max_burst,
            pktsend_ready: out.inner.pktsend_ready,
            ..Default::default()
        });
        self.cc.step(&cc_module::cycle::Inputs {
            update_ready: out.inner.update_ready,
            feedback_ready: out.inner.feedback_ready,
            ..Default::default()
        });
        self.dp.idle_cycle();
        self.regs.step(false, None);
    }

    /// `step` with every block evaluated and stepped.
    fn step_all(&mut self, i: &Inputs) -> Outputs {
        let reset = i.reset;
        let m = (1usize << self.flow_bits) - 1;
        let r = &self.regs;
        let (tx_word, rx_word) = (r.tx_word(), r.rx_word());
        let (rate, window) = (r.arg(csr::ARG_RATE), r.arg(csr::ARG_WINDOW));
        let (alg, tag) = ((r.arg(csr::ARG_ALG) & 3) as u8, r.arg(csr::ARG_TAG) as u16);
        let now = r.now;
        let sel = [r.stat_sel];
        let ((pkt_shift, max_burst), (rto_rounds, rto_retries)) = (r.sched(), r.rto());

        // ---- Registered outputs, and the sequencer's words (no ready changes them).
        let wr = self.axil.wr(&i.axil);
        let cmd = wr.filter(|w| w.2 == 0xF && w.0 == csr::CMD).map(|w| w.1);
        let tr0 = self.tracker.outputs(&tracker::Inputs::default());
        let cpl0 = self.cpl.outputs();
        let slot_full = !self.events.idle();
        let rq = self.timer.rq.map(|(f, fail)| (f as u16, fail));
        let seq_in = seq::Inputs {
            reset,
            cmd,
            tx_word: &tx_word,
            rx_word: &rx_word,
            rate,
            window,
            alg,
            tag,
            now_ns: now,
            entry: tr0.entry,
            t1_valid: tr0.t1_busy,
            sweep: tr0.sweep.is_some(),
            slot_full,
            cpl_busy: cpl0.blocked,
            rq,
            qp: i.post,
            cr_ready: false,
            tx_ready: false,
            rx_ready: false,
            sched_ready: false,
            probe_ready: false,
        };
        let sw = self.seq.words(&seq_in);
        let so = self.seq.clone().step_on(&seq_in, &sw);
        let hold = so.hold || tr0.sweep.is_some() || cpl0.blocked || self.feedback.busy();
        let cc0 = self.cc.outputs(&cc_module::cycle::Inputs { reset, ..Default::default() });

        // ---- nic_datapath's inputs from the blocks around it.
        let tx_ctrl = so.tx_ctrl.as_ref().map(TxCtrl::of);
        let rx_ctrl = so.rx_ctrl.as_ref().map(RxCtrl::of);
        let sched_pktsend = self.sched.outputs(&flow_sched::Inputs { reset, ..Default::default() });
        let probe = if so.probe { Some(so.cmd_flow) } else { self.timer.pq };
        let mut di = dp::Inputs {
            reset,
            now_ns: now,
            cnp_interval_ns: r.cnp_interval,
            tx_ctrl: tx_ctrl.as_ref(),
            rx_ctrl: rx_ctrl.as_ref(),
            pktsend: sched_pktsend.pktsend_valid.then_some(sched_pktsend.pktsend_flow),
            probe,
            feedback: cc0.feedback,
            dma_rd_ready: i.dma_rd_ready,
            dma_rd_data: i.dma_rd_data,
            tx_ready: i.tx_ready,
            rx: i.rx,
            event_ready: false,
            notify_ready: false,
            sleep_ready: false,
            wr_cmd_ready: i.wr_cmd_ready,
            wr_ready: i.wr_ready,
        };
        // Its registered outputs (the event, Notify, sleep) first.
        let dr = self.dp.regs(&di);
        let (ev, d0_notify, d0_sleep) = (dr.rx.event.clone(), dr.rx.notify, dr.tx.sleep);
        let ev_in = events::Inputs {
            reset,
            hold,
            now_ns: now,
            merge_on: r.event_merge & 1 == 1,
            tm: self.timer.tm.then_some(self.timer.at as u16),
            tx: self.tx_bytes.ev.map(|(f, b)| (f as u16, b)),
            cr: so.cr.as_ref(),
            ev: ev.as_ref(),
            ready: cc0.event_ready,
        };
        let eo = self.events.outputs(&ev_in);
        let fu = self.feedback.fu;
        let sched_in = flow_sched::Inputs {
            reset,
            pkt_shift,
            max_burst,
            ctrl: so.sched,
            update: fu.or(cc0.update),
            notify: self.notify.outputs(&notify::Inputs::default()).notify.map(|(flow, bytes)| Notify { flow, bytes }),
            sleep: d0_sleep,
            pktsend_ready: false,
        };
        let sc = self.sched.outputs(&sched_in);
        let nt_in = notify::Inputs {
            reset,
            notify: d0_notify,
            ready: sc.notify_ready,
            mtu: None,
            sweep: tr0.sweep,
        };
        let nt = self.notify.outputs(&nt_in);
        di.event_ready = eo.s_ready;
        di.notify_ready = nt.s_ready;
        di.sleep_ready = sc.sleep_ready;
        let dw = self.dp.wires(&di, &dr);
        let d = dw.out.clone();

        // ---- The blocks that watch the datapath and the sequencer.
        let rx_ev = ev.filter(|_| eo.rx_take);
        let ev_flow = ev.map_or(0, |e| e.flow);
        let tr_in = tracker::Inputs {
            reset,
            ev: rx_ev.map(|e| (e.kind, e.flow, e.seq & 0xFF_FFFF)),
            ev_flow,
            rx_cmds: d.rx_cmds,
            seq_hold: so.hold,
            cmd_flow: so.cmd_flow,
            seq_write: so.ft,
            fail: so.fail.is_some(),
        };
        let tr = self.tracker.outputs(&tr_in);
        let create = so.cmd_op as u32 == csr::OP_CREATE;
        let alg_flow = so.cmd_flow as usize & m;
        let fb_in = feedback::Inputs {
            reset,
            ev: rx_ev.map(|e| (e.flow, e.feedback, e.hops[0] as u32)),
            ev_flow,
            rate_mul: r.cc[24],
            line: r.cc[25],
            alg: so.alg_we.then_some((alg_flow, create && alg == RX_HPCC)),
            sweep: tr0.sweep,
            ready: sc.update_ready,
        };
        let txb_in = tx_bytes::Inputs {
            reset,
            rd: d.dma_rd.filter(|_| i.dma_rd_ready).map(|r| (r.flow, r.len)),
            thr: r.tx_event_bytes,
            alg: so.alg_we.then_some((alg_flow, create && alg == DCQCN)),
            sweep: tr0.sweep,
            ev_take: eo.tx_take,
        };
        let tm_in = timer::Inputs {
            reset,
            gap: r.timer_gap,
            rto_rounds,
            rto_retries,
            alg: so.alg_we.then_some((alg_flow, create.then_some(alg))),
            alg_probe: TX_CREATE.probe.get_le(&tx_word) == 1,
            ft: tr.wr.map(|(f, out, _, una)| (f, out, una)),
            sweep: tr0.sweep,
            tm_take: eo.tm_take,
            rq_take: so.rq_take,
            pq_take: !so.probe && d.probe_ready,
        };
        let dc = self.dp.counters();
        let cpl_in = cpl::Inputs {
            reset,
            done: tr.done,
            fail: so.fail,
            rx: [dc[5], dc[6], dc[7], dc[9], dc[8]],
            ready: i.cpl_ready,
        };
        let nt_in = notify::Inputs { mtu: tr.wr.map(|(f, _, mtu_log, _)| (f, mtu_log)), ..nt_in };

        // ---- The register read, from the counters as they are before this clock.
        let rd = self.axil.rd(&i.axil).map(|a| {
            let (p, c) = self.dp.stat(STAT_SEL.rx_pipe.get(&sel) as usize, STAT_SEL.rx_ctx.get(&sel) as usize);
            self.regs.read(a, |reg| match reg {
                csr::STATUS => so.status,
                csr::CMD => self.seq.cmd_word,
                csr::CMD_ERRORS => self.seq.cmd_errors,
                csr::COMPLETIONS => tr0.completions,
                csr::FEEDBACK_IN => self.fb_in,
                csr::STAT_RX_PIPE => p,
                csr::STAT_RX_CTX => c,
                csr::STAT_TX_DROP => dc[0],
                csr::STAT_TX_RECV_DROP => dc[1],
                csr::STAT_TX_NAK_IGNORED => dc[2],
                csr::STAT_TX_CTRL_BAD => dc[3],
                csr::STAT_TX_LEN_ERR => dc[4],
                csr::STAT_RX_WRITTEN => dc[5],
                csr::STAT_RX_DISCARDED => dc[6],
                csr::STAT_RX_SHORT => dc[7],
                csr::STAT_CC_BAD_FLOW => self.cc.stat_bad_flow,
                csr::STAT_CC_UNUSED => self.cc.stat_unused,
                csr::TIMER_EVENTS => self.timer.events,
                csr::RTO_TIMEOUTS => self.seq.rto_count,
                csr::RTO_FAILED => self.seq.rto_failed,
                csr::STAT_CNPS => dc[10],
                csr::TX_EVENTS => self.tx_bytes.count,
                csr::FB_ACKS => dc[11],
                csr::FB_APPLIED => self.feedback.applied,
                csr::FB_IGNORED => self.feedback.ignored,
                csr::MERGED => self.events.merged,
                csr::EVENT_STALLS => self.events.stalls,
                csr::PROBES => self.timer.probes,
                _ => 0,
            })
        });
        let wr_err = wr.is_some_and(|(a, _, s)| HpccNicCoreRegs::wr_err(a, s));

        // ---- Every block steps.
        let seq_in = seq::Inputs {
            cr_ready: cc0.event_ready,
            tx_ready: d.tx_ctrl_ready,
            rx_ready: d.rx_ctrl_ready,
            sched_ready: sc.ctrl_ready,
            probe_ready: d.probe_ready,
            ..seq_in
        };
        let cc_event: Option<Event> = eo.event;
        let cc_in = cc_module::cycle::Inputs {
            reset,
            event: cc_event.as_ref(),
            update_ready: sc.update_ready && fu.is_none(),
            feedback_ready: d.feedback_ready,
        };
        let sched_in = flow_sched::Inputs { pktsend_ready: d.pktsend_ready, ..sched_in };
        if cc0.feedback.is_some() && d.feedback_ready {
            self.fb_in = self.fb_in.wrapping_add(1);
        }
        let axil_out = self.axil.step(&i.axil, wr_err, rd.unwrap_or((0, false)));
        self.regs.step(reset, wr);
        // The post port's ready is tx_ctx's (a post's last word): this step's, with the readies.
        let post_ready = self.seq.step_on(&seq_in, &sw).qp_take;
        self.tracker.step(&tr_in);
        self.cpl.step(&cpl_in);
        self.events.step(&ev_in);
        self.cc.step(&cc_in);
        self.sched.step(&sched_in);
        self.notify.step(&nt_in);
        self.feedback.step(&fb_in);
        self.tx_bytes.step(&txb_in);
        self.timer.step(&tm_in);
        self.dp.clock(reset, &dr, dw);
        if reset {
            self.fb_in = 0;
        }
        Outputs {
            axil: axil_out,
            dma_rd: d.dma_rd,
            dma_rd_data_ready: d.dma_rd_data_ready,
            tx: d.tx,
            rx_ready: d.rx_ready,
            wr_cmd: d.wr_cmd,
            wr: d.wr,
            cpl: cpl0.cpl,
            post_ready,
            inner: Inner {
                cc_event,
                cc_event_feedback: eo.event_feedback,
                cc_event_ready: cc0.event_ready,
                sched_ctrl: sched_in.ctrl,
                sched_ctrl_ready: sc.ctrl_ready,
                update: sched_in.update,
                update_ready: sc.update_ready,
                notify: sched_in.notify,
                notify_ready: sc.notify_ready,
                sleep: d0_sleep,
                sleep_ready: sc.sleep_ready,
                pktsend: di.pktsend,
                pktsend_ready: d.pktsend_ready,
                feedback: cc0.feedback,
                feedback_ready: d.feedback_ready,
            },
        }
    }
}
