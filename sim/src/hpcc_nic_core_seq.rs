//! hpcc_nic_core_seq cycle by cycle (hdl/src/top/hpcc_nic_core_seq.rs): the command sequencer,
//! one command at a time through every block (docs/modules/hpcc_nic_core.md, "Commands"):
//!
//! ```text
//! IDLE -> READ (the flow's entry, events held) -> CHECK (against the entry)
//!   create: CC -> TX -> RX -> SCHED -> ENTRY     remove: SCHED -> TX -> RX -> ENTRY
//!   post:   ENTRY -> TX; a READ: ENTRY -> RX -> TX        probe: PROBE
//!   timeout: RX;  failure: (error completion, entry cleared) SCHED -> TX -> RX -> ENTRY
//! ```
//!
//! A host command waits behind an internal one (the timer scan's timeout or failure) or a queue
//! post; one written while another runs or waits is dropped with `ERR_OVERRUN`. A queue post
//! (the core's post port, `layout::CORE_POST`) runs as a host post with its words from the
//! port; refused, it gets an error completion (`CPL_REFUSED`) instead of `STATUS`.

use crate::cc_module::Event;
use crate::csr;
use crate::flow_sched::Ctrl as SchedCtrl;
use crate::hpcc_nic_core_seq_words::{words, From, Words, CMD_RTO, CMD_RTO_FAIL};
use crate::hpcc_nic_core_cpl as cpl;
use crate::layout::{CORE_FLOW, CORE_POST, TX_POST};

/// The states (hpcc_nic_core's `SEQ_*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Idle,
    Read,
    Check,
    Cc,
    Tx,
    Rx,
    Sched,
    Entry,
    Probe,
    Refuse,
}

/// Everything driven into the sequencer during one cycle.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    pub reset: bool,
    /// The host writes `CMD` with this word.
    pub cmd: Option<u32>,
    pub tx_word: &'a [u8; 64],
    pub rx_word: &'a [u8; 16],
    pub rate: u32,
    pub window: u32,
    pub alg: u8,
    pub tag: u16,
    pub now_ns: u64,
    /// The flow table's read data.
    pub entry: u128,
    pub t1_valid: bool,
    pub sweep: bool,
    pub slot_full: bool,
    pub cpl_busy: bool,
    /// The timer scan's request: (flow, a failure).
    pub rq: Option<(u16, bool)>,
    /// The post port's word (`layout::CORE_POST`, 54 bytes), while offered.
    pub qp: Option<&'a [u8; 54]>,
    pub cr_ready: bool,
    pub tx_ready: bool,
    pub rx_ready: bool,
    pub sched_ready: bool,
    pub probe_ready: bool,
}

/// What the sequencer shows during a cycle.
#[derive(Clone, Debug)]
pub struct Outputs {
    pub rq_take: bool,
    /// The post port's word is taken (sent to tx_ctx, or refused).
    pub qp_take: bool,
    pub hold: bool,
    pub cmd_op: u8,
    pub cmd_flow: u16,
    pub cr: Option<Event>,
    pub tx_ctrl: Option<[u8; 64]>,
    pub rx_ctrl: Option<[u8; 16]>,
    pub sched: Option<SchedCtrl>,
    pub probe: bool,
    /// The flow table's write: (entry, snd_una).
    pub ft: Option<(u128, u32)>,
    pub alg_we: bool,
    /// An error completion.
    pub fail: Option<u64>,
    pub status: u32,
}

/// hpcc_nic_core_seq, cycle by cycle.
#[derive(Clone, Default)]
pub struct HpccNicCoreSeq {
    flow_bits: usize,
    state: State,
    err: u8,
    /// `CMD` as last written (`stat_cmd`), `CMD_ERRORS`.
    pub cmd_word: u32,
    pub cmd_errors: u32,
    /// The internal command: (op, flow, QPN).
    ic: Option<(u8, u16, u32)>,
    cmd_pend: bool,
    /// A queue post runs; its refusal's error code.
    qc: bool,
    qerr: u8,
    /// `RTO_TIMEOUTS`, `RTO_FAILED`.
    pub rto_count: u32,
    pub rto_failed: u32,
}

impl HpccNicCoreSeq {
    /// For 2^`flow_bits` flows, before its reset.
    pub fn new(flow_bits: usize) -> HpccNicCoreSeq {
        HpccNicCoreSeq { flow_bits, ..HpccNicCoreSeq::default() }
    }

    /// No command under way or pending: a cycle without a command or a timeout changes
    /// nothing.
    pub fn quiet(&self) -> bool {
        self.state == State::Idle && !self.cmd_pend && self.ic.is_none()
    }

    /// The words the sequencer may send this cycle: they depend on no ready, so hpcc_nic_core's
    /// model finds them once a cycle for both its `step_on` calls.
    pub fn words(&self, i: &Inputs) -> Words {
        let (tx, rx, _) = self.args(i);
        let host = if self.qc {
            (csr::OP_POST as u8, TX_POST.flow.get_le(&tx) as u16)
        } else {
            ((self.cmd_word & 7) as u8, (self.cmd_word >> 16) as u16)
        };
        words(&From {
            host,
            ic: self.ic,
            tx_word: &tx,
            rx_word: &rx,
            rate: i.rate,
            window: i.window,
            alg: i.alg,
            now_ns: i.now_ns,
            mtu_log: CORE_FLOW.mtu_log.of(i.entry) as u8,
        })
    }

    /// The command's tx word, rx word and tag: the argument registers', or the queue post's
    /// while one runs (its tx part zero-extended).
    fn args(&self, i: &Inputs) -> ([u8; 64], [u8; 16], u16) {
        match i.qp.filter(|_| self.qc) {
            Some(q) => {
                let mut tx = [0u8; 64];
                tx[..36].copy_from_slice(&q[CORE_POST.tx.bytes()]);
                (tx, q[CORE_POST.rx.bytes()].try_into().unwrap(), CORE_POST.tag.get_le(q) as u16)
            }
            None => (*i.tx_word, *i.rx_word, i.tag),
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let w = self.words(i);
        self.step_on(i, &w)
    }

    /// `step` with this cycle's `words(i)` already found.
    pub fn step_on(&mut self, i: &Inputs, w: &Words) -> Outputs {
        let flow_bits = self.flow_bits;
        use State::*;
        let s = self.state;
        let e = |f: crate::layout::Field| f.of(i.entry);
        let op = w.op as u32;
        let (tx_word, _, tag) = self.args(i);
        let mut out = Outputs {
            rq_take: false,
            qp_take: false,
            hold: matches!(s, Read | Check | Cc | Entry | Refuse),
            cmd_op: w.op,
            cmd_flow: w.flow,
            cr: (s == Cc && !i.slot_full).then_some(w.cr),
            tx_ctrl: (s == Tx).then_some(w.tx_ctrl),
            rx_ctrl: (s == Rx).then_some(w.rx_ctrl),
            sched: (s == Sched).then_some(w.sched),
            probe: s == Probe,
            ft: None,
            alg_we: s == Entry
                && !i.t1_valid
                && (op == csr::OP_CREATE || op == csr::OP_REMOVE || w.op == CMD_RTO_FAIL),
            fail: None,
            status: 0,
        };
        let fail_word = if s == Refuse {
            cpl::word(w.flow, tag, csr::CPL_REFUSED, self.qerr as u32)
        } else {
            cpl::word(w.flow, e(CORE_FLOW.tag) as u16, csr::CPL_RETRY_EXCEEDED, 0)
        };
        // Each register's next value, assigned in the RTL's order (a later one wins).
        let mut n = self.clone();
        // Starting a command.
        if s == Idle {
            n.ic = None;
            n.qc = false;
            if self.cmd_pend {
                n.cmd_pend = false;
                n.state = Read;
            } else if let (None, Some((flow, fail))) = (i.cmd, i.rq) {
                n.ic = Some((if fail { CMD_RTO_FAIL } else { CMD_RTO }, flow, self.ic.map_or(0, |c| c.2)));
                out.rq_take = true;
                n.state = Read;
            } else if i.cmd.is_none() && i.qp.is_some() {
                n.qc = true;
                n.qerr = 0;
                n.state = Read;
            }
        }
        if let Some(c) = i.cmd {
            if s == Idle && !self.cmd_pend {
                n.cmd_word = c;
                n.err = 0;
                n.state = Read;
            } else if (self.ic.is_some() || self.qc) && !self.cmd_pend {
                n.cmd_word = c;
                n.err = 0;
                n.cmd_pend = true;
            } else {
                n.err = csr::ERR_OVERRUN as u8;
                n.cmd_errors = self.cmd_errors.wrapping_add(1);
            }
        }
        // A refusal: a host command's error goes to STATUS, a queue post's to its completion.
        let qc = self.qc;
        let refuse = |n: &mut HpccNicCoreSeq, code: u32| {
            n.cmd_errors = self.cmd_errors.wrapping_add(1);
            if qc {
                n.qerr = code as u8;
                n.state = Refuse;
            } else {
                n.err = code as u8;
                n.state = Idle;
            }
        };
        let created = e(CORE_FLOW.created) == 1;
        let msg_out = e(CORE_FLOW.out) == 1;
        let in_range = |f: u32| (f as usize & ((1 << flow_bits) - 1)) as u32 == w.flow as u32;
        match s {
            Read => {
                if !in_range(w.flow as u32) {
                    refuse(&mut n, csr::ERR_FLOW);
                } else if !i.t1_valid && !i.sweep {
                    n.state = Check;
                }
            }
            Check if self.ic.is_some() => {
                n.state = Idle;
                let qpn = e(CORE_FLOW.qpn) as u32;
                n.ic = n.ic.map(|(o, f, _)| (o, f, qpn));
                if created && msg_out {
                    if w.op == CMD_RTO {
                        n.state = Rx;
                    } else if !i.cpl_busy {
                        out.ft = Some((0, 0));
                        out.fail = Some(fail_word);
                        n.rto_failed = self.rto_failed.wrapping_add(1);
                        n.state = Sched;
                    } else {
                        n.state = Check;
                    }
                }
            }
            Check => {
                let is_post = op == csr::OP_POST;
                let code = if op == csr::OP_CREATE {
                    if created {
                        csr::ERR_EXISTS
                    } else if !w.mtu_ok || w.rx_mtu != w.mtu || !in_range(w.rx_qpn) || i.rate == 0 || i.window == 0 {
                        csr::ERR_CONFIG
                    } else {
                        0
                    }
                } else if op == csr::OP_REMOVE || is_post || op == csr::OP_PROBE {
                    if !created {
                        csr::ERR_UNKNOWN
                    } else if msg_out && op != csr::OP_PROBE {
                        csr::ERR_BUSY
                    } else if is_post && w.is_read && !in_range(w.rx_qpn) {
                        csr::ERR_CONFIG
                    } else {
                        0
                    }
                } else {
                    csr::ERR_OP
                };
                if code != 0 {
                    refuse(&mut n, code);
                } else {
                    n.state = match op {
                        csr::OP_CREATE => Cc,
                        csr::OP_REMOVE => Sched,
                        csr::OP_POST => Entry,
                        _ => Probe,
                    };
                }
            }
            Cc => {
                if out.cr.is_some() && i.cr_ready {
                    n.state = Tx;
                }
            }
            Tx => {
                if i.tx_ready {
                    out.qp_take = op == csr::OP_POST && self.qc;
                    n.state = if op == csr::OP_POST { Idle } else { Rx };
                }
            }
            Rx => {
                if i.rx_ready {
                    n.state = if op == csr::OP_CREATE {
                        Sched
                    } else if op == csr::OP_REMOVE || w.op == CMD_RTO_FAIL {
                        Entry
                    } else if w.op == CMD_RTO {
                        n.rto_count = self.rto_count.wrapping_add(1);
                        Idle
                    } else {
                        Tx
                    };
                }
            }
            Sched => {
                if i.sched_ready {
                    n.state = if op == csr::OP_CREATE { Entry } else { Tx };
                }
            }
            Entry => {
                if !i.t1_valid {
                    if op == csr::OP_CREATE {
                        let mut ent = CORE_FLOW.created.with(0, 1);
                        ent = CORE_FLOW.mtu_log.with(ent, w.shift as u64);
                        ent = CORE_FLOW.qpn.with(ent, w.rx_qpn as u64);
                        out.ft = Some((ent, 0));
                        n.state = Idle;
                    } else if op == csr::OP_REMOVE || w.op == CMD_RTO_FAIL {
                        out.ft = Some((0, 0));
                        n.state = Idle;
                    } else {
                        let mut ent = CORE_FLOW.created.with(0, created as u64);
                        ent = CORE_FLOW.qpn.with(ent, e(CORE_FLOW.qpn));
                        ent = CORE_FLOW.mtu_log.with(ent, e(CORE_FLOW.mtu_log));
                        ent = CORE_FLOW.read.with(ent, w.is_read as u64);
                        ent = CORE_FLOW.out.with(ent, 1);
                        ent = CORE_FLOW.end_psn.with(ent, w.end_psn as u64);
                        ent = CORE_FLOW.tag.with(ent, tag as u64);
                        out.ft = Some((ent, TX_POST.first_psn.get_le(&tx_word) as u32));
                        n.state = if w.is_read { Rx } else { Tx };
                    }
                }
            }
            Probe => {
                if i.probe_ready {
                    n.state = Idle;
                }
            }
            Refuse => {
                if !i.t1_valid && !i.cpl_busy {
                    out.fail = Some(fail_word);
                    out.qp_take = true;
                    n.state = Idle;
                }
            }
            Idle => {}
        }
        let host_busy = (s != Idle && self.ic.is_none() && !self.qc) || self.cmd_pend;
        out.status = (self.err as u32) << csr::STATUS_ERR_SHIFT | host_busy as u32;
        *self = n;
        if i.reset {
            *self = HpccNicCoreSeq::new(flow_bits);
        }
        out
    }
}
