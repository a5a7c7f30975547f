//! Rx pipe, receive context (issue 5, Rx step 2): per-QP state behind `rx_pipe`. Each verdict
//! record becomes a DMA command for `rx_dma` (write the payload at an address, or discard the
//! frame) and, by opcode, a PktRecv for `tx_ctx` (ACK / NAK or telemetry response to send, or
//! go-back-N), a CC event for `cc_module` and a Notify for `flow_sched`. Golden model `sim::rx_ctx`
//! (docs/modules/rx_ctx.md).
//!
//! ```text
//! S1  s_axis_ctrl / s_axis_sent / s_axis_verdict -> priority, address -> QP BRAM read,
//!     input -> P registers (the verdict's syndrome decoded), forwarding select
//! S2  word (BRAM, or last cycle's write forwarded: rx_ctx_fwd) -> responder / requester
//!     rules (rx_ctx_rules) -> BRAM write; output words (rx_ctx_words) -> m_axis_pktrecv /
//!     m_axis_event / m_axis_notify (+1 register) / m_axis_dma_cmd
//! ```
//!
//! One input per clock, priority control > sent > verdict. The flow's word is read in S1 and
//! written in S2; the write of the previous cycle is forwarded, so same-flow inputs back to
//! back need no spacing. A verdict waits in S2 (and S1 takes nothing) while an output register
//! it needs is full. After reset the block sweeps the RAM for 2^F cycles with every input not
//! ready.

use crate::layout::{NotifyFields, RxCreateNamed, SentFields, VerdictFields};
use crate::rx_ctx_ctrl::RxCtxCtrl;
use crate::ram_fwd::RamFwd;
use crate::rx_ctx_rules::{RxCtxDecision, RxCtxRules};
use crate::rx_ctx_pick::RxCtxPick;
use crate::rx_ctx_words::RxCtxWords;
use sim::rx_ctx::stat;
use rust_hdl::prelude::*;

/// Bits of `p_kind`: which input S1 took.
pub const PICK_BITS: usize = 2;

codes! {
    /// Control word ops (`layout::RX_CREATE.op`; 0, 5, 6 and 7 are bad).
    RX_OPS;
    RX_OP_CREATE = sim::rx_ctx::OP_CREATE,
    RX_OP_REMOVE = sim::rx_ctx::OP_REMOVE,
    RX_OP_READ = sim::rx_ctx::OP_READ,
    RX_OP_TIMEOUT = sim::rx_ctx::OP_TIMEOUT,
}

codes! {
    /// Which input S1 took (`p_kind`; 0 none), in priority order.
    RX_PICKS;
    RX_PICK_CTRL = 1,
    RX_PICK_SENT = 2,
    RX_PICK_VERDICT = 3,
}

codes! {
    /// Counters (`stat_addr`, `sim::rx_ctx::stat`): bit positions of `inc`, one per counter.
    RX_STATS;
    RX_STAT_RECORDS = stat::RECORDS,
    RX_STAT_PIPE_DROPPED = stat::PIPE_DROPPED,
    RX_STAT_UNKNOWN_QP = stat::UNKNOWN_QP,
    RX_STAT_OOS_DROPPED = stat::OOS_DROPPED,
    RX_STAT_DUPLICATE = stat::DUPLICATE,
    RX_STAT_BAD_REQUEST = stat::BAD_REQUEST,
    RX_STAT_STALE_ACK = stat::STALE_ACK,
    RX_STAT_NAK_OTHER = stat::NAK_OTHER,
    RX_STAT_UNSUPPORTED = stat::UNSUPPORTED,
    RX_STAT_CTRL_BAD = stat::CTRL_BAD,
    RX_STAT_SENT_DROP = stat::SENT_DROP,
    RX_STAT_NAK_SENT = stat::NAK_SENT,
    RX_STAT_BAD_RESPONSE = stat::BAD_RESPONSE,
    RX_STAT_READ_GAP = stat::READ_GAP,
    RX_STAT_SENT_STALE = stat::SENT_STALE,
    RX_STAT_TIMEOUTS = stat::TIMEOUTS,
}

/// Bits of `stat_addr`: one counter per value.
pub const STAT_BITS: usize = 4;
const _: () = assert!(stat::COUNT == 1 << STAT_BITS);

// hdl_gen takes only a literal as a part-select offset, so the one read of part of a field
// (the verdict's dest_qp, for the flow address) is written with its offset; this fails to
// compile if the layout moves the field.
const _: () = assert!(sim::layout::VERDICT.dest_qp.lo == 64);

/// QP word width: the fields are `sim::layout::RX_QP` (docs/modules/rx_ctx.md, "QP word").
pub const QP_BITS: usize = sim::layout::RxQpLayout::WIDTH;

/// See the module doc. `F`: log2 of the flow count; a frame's flow is its DestQP's low F bits.
#[derive(LogicBlock, Default)]
pub struct RxCtx<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the output registers, clears the counters and starts the
    /// 2^F-cycle sweep that clears every QP.
    pub reset: Signal<In, bool>,
    /// Notify bytes = packets << `cfg_pkt_shift` (flow_sched's packet size, 2^shift bytes).
    pub cfg_pkt_shift: Signal<In, Bits<4>>,
    /// Time in ns, stamped on the CC events of the verdicts taken in this cycle.
    pub now_ns: Signal<In, Bits<64>>,
    /// Control word: [2:0] op (1 create, 2 remove, 3 READ posted, 4 retransmission timeout),
    /// [29:16] MTU of the QP's packets, [55:32] QPN (flow = its low F bits; op 4 checks only
    /// those), [87:64] first expected PSN, [119:96] first PSN sent; op 3: [127:64] the local
    /// address the READ's responses are written from. A timeout with packets in flight waits,
    /// as a verdict does, until the output registers it needs are free.
    pub s_axis_ctrl_tdata: Signal<In, Bits<128>>,
    /// A control word is offered.
    pub s_axis_ctrl_tvalid: Signal<In, bool>,
    /// The control word is taken (low only during the reset sweep).
    pub s_axis_ctrl_tready: Signal<Out, bool>,
    /// tx_ctx sent a data packet: [15:0] flow, [39:16] its PSN.
    pub s_axis_sent_tdata: Signal<In, Bits<40>>,
    /// A sent event is offered.
    pub s_axis_sent_tvalid: Signal<In, bool>,
    /// The sent event is taken: no control word offered and no sweep.
    pub s_axis_sent_tready: Signal<Out, bool>,
    /// rx_pipe's 640-bit verdict record (docs/modules/rx_pipe.md).
    pub s_axis_verdict_tdata: Signal<In, Bits<640>>,
    /// A verdict is offered.
    pub s_axis_verdict_tvalid: Signal<In, bool>,
    /// The verdict is taken: no control word or sent event offered, no sweep, and all four
    /// output registers free or emptied this cycle (combinational from their tready).
    pub s_axis_verdict_tready: Signal<Out, bool>,
    /// PktRecv for tx_ctx (its `s_axis_pktrecv` format): an ACK / NAK to send (kind 0),
    /// go-back-N (kind 1), or a telemetry response to a received probe (kind 2).
    pub m_axis_pktrecv_tdata: Signal<Out, Bits<512>>,
    /// A PktRecv is offered (registered).
    pub m_axis_pktrecv_tvalid: Signal<Out, bool>,
    /// tx_ctx takes the PktRecv.
    pub m_axis_pktrecv_tready: Signal<In, bool>,
    /// CC event for cc_module (its `s_axis_event` format): ACK, receiver telemetry, loss, CNP.
    pub m_axis_event_tdata: Signal<Out, Bits<512>>,
    /// A CC event is offered (registered).
    pub m_axis_event_tvalid: Signal<Out, bool>,
    /// cc_module takes the event.
    pub m_axis_event_tready: Signal<In, bool>,
    /// Notify for flow_sched: [31:0] bytes released from the window, [47:32] flow.
    pub m_axis_notify_tdata: Signal<Out, Bits<48>>,
    /// A Notify is offered (registered; a second register behind the first holds the shift).
    pub m_axis_notify_tvalid: Signal<Out, bool>,
    /// flow_sched takes the Notify.
    pub m_axis_notify_tready: Signal<In, bool>,
    /// DMA command for rx_dma, one per verdict in frame order: [63:0] address, [70:64] payload
    /// offset in the frame, [93:80] length, [96] write (0: discard the frame), [127:112] flow.
    pub m_axis_dma_cmd_tdata: Signal<Out, Bits<128>>,
    /// A DMA command is offered (registered).
    pub m_axis_dma_cmd_tvalid: Signal<Out, bool>,
    /// rx_dma takes the command.
    pub m_axis_dma_cmd_tready: Signal<In, bool>,
    /// Counter select (sim::rx_ctx::stat): 0 records, 1 dropped by rx_pipe, 2 unknown QP,
    /// 3 out of sequence dropped, 4 duplicates, 5 bad requests, 6 stale ACKs, 7 other NAKs,
    /// 8 unsupported opcodes, 9 bad control words, 10 sent events dropped, 11 NAKs sent,
    /// 12 READ responses longer than the MTU, 13 READ response gaps (go-back-N), 14 stale sent
    /// events, 15 timeouts that went back (control op 4 with packets in flight).
    pub stat_addr: Signal<In, Bits<4>>,
    /// The selected counter (wraps), combinational.
    pub stat_count: Signal<Out, Bits<32>>,

    qp: RAM<Bits<QP_BITS>, F>,
    fwd: RamFwd<QP_BITS>,
    rules: RxCtxRules,
    ctrl: RxCtxCtrl<F>,
    words: RxCtxWords<F>,
    /// S1's arbitration and S2's handshake.
    pick: RxCtxPick<F>,
    swept: DFF<bool>,
    sweep_at: DFF<Bits<F>>,
    r_valid: DFF<bool>,
    r_data: DFF<Bits<512>>,
    e_valid: DFF<bool>,
    e_data: DFF<Bits<512>>,
    n_valid: DFF<bool>,
    n_data: DFF<Bits<48>>,
    m_valid: DFF<bool>,
    m_data: DFF<Bits<48>>,
    d_valid: DFF<bool>,
    d_data: DFF<Bits<128>>,
    /// The counters, by `stat::*`.
    st: [DFF<Bits<32>>; stat::COUNT],
    /// This cycle's counter increments, bit `RX_STAT_*` for counter `stat::*`.
    inc: Signal<Local, Bits<{ stat::COUNT }>>,
    // Control op 4 with packets in flight: a go-back-N with outputs, taken when they are free.
    c_tmo: Signal<Local, bool>,
    do_t: Signal<Local, bool>,
    i_pdrop: Signal<Local, bool>,
    i_cbad: Signal<Local, bool>,
    i_sdrop: Signal<Local, bool>,
    i_sstale: Signal<Local, bool>,
    one32: Signal<Local, Bits<32>>,

    // Inputs and arbitration.
    do_c: Signal<Local, bool>,
    do_s: Signal<Local, bool>,
    do_v: Signal<Local, bool>,
    a2: Signal<Local, Bits<F>>,
    q_we: Signal<Local, bool>,
    q_wd: Signal<Local, Bits<QP_BITS>>,
    p_valid: DFF<bool>,
    p_kind: DFF<Bits<PICK_BITS>>,
    p_addr: DFF<Bits<F>>,
    p_ctrl: DFF<Bits<128>>,
    p_sent: DFF<Bits<40>>,
    p_vd: DFF<Bits<640>>,
    p_now: DFF<Bits<64>>,
    /// The verdict's NAK-sequence-error and other-NAK flags and its acknowledged-up-to PSN,
    /// decoded in S1 (they headed S2's longest path).
    p_seq: DFF<bool>,
    p_nko: DFF<bool>,
    p_upto: DFF<Bits<24>>,
    /// S1 took a timeout (control op 4): a register, so that rx_ctx_rules is fed by wires.
    p_tmo: DFF<bool>,
    /// The word in S2 is the one written last cycle (decided then, so that S2 starts with a
    /// registered select rather than an address compare).
    lw_hit: DFF<bool>,
    lw_data: DFF<Bits<QP_BITS>>,
    /// The flow S2 takes next cycle.
    next_a2: Signal<Local, Bits<F>>,
    wr_addr: Signal<Local, Bits<F>>,

    // Output words.
    n_bytes: Signal<Local, Bits<32>>,
    n_move: Signal<Local, bool>,
    /// Notify words: this record's packets, one packet (a stale sent event), the output's bytes.
    n_word: Signal<Local, Bits<48>>,
    n_one: Signal<Local, Bits<48>>,
    m_word: Signal<Local, Bits<48>>,
}

impl<const F: usize> Logic for RxCtx<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, swept, sweep_at, r_valid, r_data, e_valid, e_data, n_valid, n_data,
            m_valid, m_data, d_valid, d_data, p_valid, p_kind, p_addr, p_ctrl, p_sent, p_vd, p_now, p_seq, p_nko, p_upto,
            p_tmo, lw_hit, lw_data
        );
        for c in 0..stat::COUNT {
            self.st[c].clock.next = self.clock.val();
            self.st[c].d.next = self.st[c].q.val();
        }
        self.qp.write_clock.next = self.clock.val();
        self.qp.read_clock.next = self.clock.val();
        self.one32.next = 1.into();

        // ---- S1, arbitration (rx_ctx_pick): control word, then sent event, then verdict; one
        // per clock, taken into the P registers while the BRAM reads the flow's word.
        self.pick.swept.next = self.swept.q.val();
        self.pick.p_valid.next = self.p_valid.q.val();
        self.pick.p_kind.next = self.p_kind.q.val();
        self.pick.p_addr.next = self.p_addr.q.val();
        self.pick.p_op.next = self.p_ctrl.q.val().get_value_rx_create_op();
        self.pick.r_valid.next = self.r_valid.q.val();
        self.pick.r_ready.next = self.m_axis_pktrecv_tready.val();
        self.pick.e_valid.next = self.e_valid.q.val();
        self.pick.e_ready.next = self.m_axis_event_tready.val();
        self.pick.n_valid.next = self.n_valid.q.val();
        self.pick.m_valid.next = self.m_valid.q.val();
        self.pick.m_ready.next = self.m_axis_notify_tready.val();
        self.pick.d_valid.next = self.d_valid.q.val();
        self.pick.d_ready.next = self.m_axis_dma_cmd_tready.val();
        self.pick.ctrl_valid.next = self.s_axis_ctrl_tvalid.val();
        self.pick.ctrl_op.next = self.s_axis_ctrl_tdata.val().get_value_rx_create_op();
        self.pick.ctrl_qpn.next = self.s_axis_ctrl_tdata.val().get_value_rx_create_qpn();
        self.pick.sent_valid.next = self.s_axis_sent_tvalid.val();
        self.pick.sent_flow.next = self.s_axis_sent_tdata.val().get_value_flow();
        self.pick.vd_valid.next = self.s_axis_verdict_tvalid.val();
        // The flow: the low F bits of dest_qp (its offset is checked against the layout at the top).
        self.pick.vd_flow.next = self.s_axis_verdict_tdata.val().get_bits::<F>(64);
        self.pick.vd_syn.next = self.s_axis_verdict_tdata.val().get_value_aeth_syndrome();
        self.pick.vd_psn.next = self.s_axis_verdict_tdata.val().get_value_psn();
        self.s_axis_ctrl_tready.next = self.pick.ctrl_ready.val();
        self.s_axis_sent_tready.next = self.pick.sent_ready.val();
        self.s_axis_verdict_tready.next = self.pick.vd_ready.val();
        if self.pick.go.val() {
            self.p_valid.d.next = self.swept.q.val() & (self.pick.in_kind.val() != 0);
            self.p_kind.d.next = self.pick.in_kind.val();
            self.p_addr.d.next = self.pick.addr.val();
            self.p_ctrl.d.next = self.s_axis_ctrl_tdata.val();
            self.p_sent.d.next = self.s_axis_sent_tdata.val();
            self.p_vd.d.next = self.s_axis_verdict_tdata.val();
            self.p_now.d.next = self.now_ns.val();
            self.p_seq.d.next = self.pick.seq.val();
            self.p_nko.d.next = self.pick.nko.val();
            self.p_upto.d.next = self.pick.upto.val();
            self.p_tmo.d.next = self.pick.tmo.val();
        }
        self.next_a2.next = self.pick.next_a2.val();
        self.qp.read_address.next = self.next_a2.val();

        // ---- S2: what the P registers hold, done this cycle.
        self.a2.next = self.p_addr.q.val();
        self.do_c.next = self.pick.take_c.val();
        self.do_s.next = self.pick.take_s.val();
        self.do_v.next = self.pick.take_v.val();

        // ---- The flow's word (rx_ctx_fwd): the BRAM's, or the one written last cycle (the
        // BRAM read it before that write landed).
        self.fwd.ram.next = self.qp.read_data.val();
        self.fwd.last.next = self.lw_data.q.val();
        self.fwd.use_last.next = self.lw_hit.q.val();

        // ---- A verdict (or a timeout): rx_ctx_rules decides, rx_ctx_words packs the words.
        self.rules.vd.next = self.p_vd.q.val();
        self.rules.w.next = self.fwd.w.val();
        self.rules.seq.next = self.p_seq.q.val();
        self.rules.nko.next = self.p_nko.q.val();
        self.rules.upto.next = self.p_upto.q.val();
        self.rules.tmo_op.next = self.p_tmo.q.val();
        self.words.vd.next = self.p_vd.q.val();
        self.words.w.next = self.fwd.w.val();
        self.words.flow.next = self.p_addr.q.val();
        self.words.now.next = self.p_now.q.val();
        RxCtxDecision::join(&mut self.rules.dec, &mut self.words.dec);

        // ---- A control word or a sent event: rx_ctx_ctrl. A timeout with packets in flight
        // (rx_ctx_rules) is taken, with its go-back-N's outputs, when they are free.
        self.ctrl.control.next = self.p_ctrl.q.val();
        self.ctrl.sent.next = self.p_sent.q.val();
        self.ctrl.w.next = self.fwd.w.val();
        self.ctrl.tmo.next = self.rules.tmo.val();
        self.c_tmo.next = self.rules.tmo.val();
        self.do_t.next = self.do_c.val() & self.c_tmo.val();

        // ---- RAM write: sweep, control word, sent event or the record's new state.
        self.wr_addr.next = self.a2.val();
        if !self.swept.q.val() {
            self.wr_addr.next = self.sweep_at.q.val();
        }
        self.qp.write_address.next = self.wr_addr.val();
        self.q_we.next = false;
        self.q_wd.next = self.fwd.w.val();
        self.i_cbad.next = false;
        self.i_sdrop.next = false;
        self.i_sstale.next = false;
        if !self.swept.q.val() {
            self.q_we.next = true;
            self.q_wd.next = 0.into();
            self.sweep_at.d.next = self.sweep_at.q.val() + 1;
            if self.sweep_at.q.val().all() {
                self.swept.d.next = true;
            }
        } else if self.do_c.val() {
            self.q_we.next = self.ctrl.c_we.val();
            self.q_wd.next = self.ctrl.c_word.val();
            self.i_cbad.next = self.ctrl.c_bad.val();
        } else if self.do_s.val() {
            self.q_we.next = self.ctrl.s_we.val();
            self.q_wd.next = self.ctrl.s_word.val();
            self.i_sstale.next = self.ctrl.s_stale.val();
            self.i_sdrop.next = self.ctrl.s_drop.val();
        } else if self.do_v.val() & self.rules.hit.val() {
            self.q_we.next = true;
            self.q_wd.next = self.rules.new_w.val();
        }

        self.qp.write_enable.next = self.q_we.val();
        self.qp.write_data.next = self.q_wd.val();
        self.lw_hit.d.next =
            self.q_we.val() & self.swept.q.val() & (self.next_a2.val() == self.a2.val());
        self.lw_data.d.next = self.q_wd.val();

        // ---- Output registers. Notify goes through two: packets, then bytes, so that the
        // shifter is not behind the RAM read and the PSN arithmetic. The shift in its own signal:
        // inside the wider bit_cast Verilog would shift at 48 bits and keep the overflow.
        self.n_bytes.next = self.n_data.q.val().get_value_bytes() << self.cfg_pkt_shift.val();
        self.n_move.next = self.n_valid.q.val() & (!self.m_valid.q.val() | self.m_axis_notify_tready.val());
        if self.m_axis_pktrecv_tready.val() {
            self.r_valid.d.next = false;
        }
        if self.m_axis_event_tready.val() {
            self.e_valid.d.next = false;
        }
        if self.m_axis_notify_tready.val() {
            self.m_valid.d.next = false;
        }
        self.n_word.next = 0.into();
        self.n_word.next.set_value_bytes(self.rules.n_pkts.val());
        self.n_word.next.set_value_flow(bit_cast::<16, F>(self.a2.val()));
        self.n_one.next = 0.into();
        self.n_one.next.set_value_bytes(self.one32.val());
        self.n_one.next.set_value_flow(bit_cast::<16, F>(self.a2.val()));
        self.m_word.next = 0.into();
        self.m_word.next.set_value_bytes(self.n_bytes.val());
        self.m_word.next.set_value_flow(self.n_data.q.val().get_value_flow());
        if self.n_move.val() {
            self.m_valid.d.next = true;
            self.m_data.d.next = self.m_word.val();
            self.n_valid.d.next = false;
        }
        if self.m_axis_dma_cmd_tready.val() {
            self.d_valid.d.next = false;
        }
        if self.do_t.val() {
            self.r_valid.d.next = true;
            self.r_data.d.next = self.words.recv_word.val();
            self.e_valid.d.next = true;
            self.e_data.d.next = self.words.ev_word.val();
            self.n_valid.d.next = true;
            self.n_data.d.next = self.n_word.val();
        }
        if self.do_v.val() {
            self.d_valid.d.next = true;
            self.d_data.d.next = self.words.dma_word.val();
            if self.rules.r_send.val() {
                self.r_valid.d.next = true;
                self.r_data.d.next = self.words.recv_word.val();
            }
            if self.rules.e_send.val() {
                self.e_valid.d.next = true;
                self.e_data.d.next = self.words.ev_word.val();
            }
            if self.rules.n_send.val() {
                self.n_valid.d.next = true;
                self.n_data.d.next = self.n_word.val();
            }
        }

        // A stale sent event's packet goes back to the window.
        if self.i_sstale.val() {
            self.n_valid.d.next = true;
            self.n_data.d.next = self.n_one.val();
        }

        // ---- Counters: bit RX_STAT_* of inc adds one to counter stat::*.
        self.i_pdrop.next = self.do_v.val() & !self.rules.ok.val();
        self.inc.next = 0.into();
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>(self.do_v.val().into()) << RX_STAT_RECORDS);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>(self.i_pdrop.val().into()) << RX_STAT_PIPE_DROPPED);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.unk.val()).into()) << RX_STAT_UNKNOWN_QP);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.oos.val()).into()) << RX_STAT_OOS_DROPPED);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.dup.val()).into()) << RX_STAT_DUPLICATE);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.bad.val()).into()) << RX_STAT_BAD_REQUEST);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.stale.val()).into()) << RX_STAT_STALE_ACK);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.nakoth.val()).into()) << RX_STAT_NAK_OTHER);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.unsup.val()).into()) << RX_STAT_UNSUPPORTED);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>(self.i_cbad.val().into()) << RX_STAT_CTRL_BAD);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>(self.i_sdrop.val().into()) << RX_STAT_SENT_DROP);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.naks.val()).into()) << RX_STAT_NAK_SENT);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.badresp.val()).into()) << RX_STAT_BAD_RESPONSE);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>((self.do_v.val() & self.rules.gap.val()).into()) << RX_STAT_READ_GAP);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>(self.i_sstale.val().into()) << RX_STAT_SENT_STALE);
        self.inc.next = self.inc.val() | (bit_cast::<16, 1>(self.do_t.val().into()) << RX_STAT_TIMEOUTS);
        self.stat_count.next = 0.into();
        for c in 0..stat::COUNT {
            if self.inc.val().get_bit(c) {
                self.st[c].d.next = self.st[c].q.val() + 1;
            }
            if self.stat_addr.val().index() == c {
                self.stat_count.next = self.st[c].q.val();
            }
        }

        if self.reset.val() {
            self.swept.d.next = false;
            self.sweep_at.d.next = 0.into();
            self.p_valid.d.next = false;
            self.p_tmo.d.next = false;
            self.lw_hit.d.next = false;
            self.r_valid.d.next = false;
            self.e_valid.d.next = false;
            self.n_valid.d.next = false;
            self.m_valid.d.next = false;
            self.d_valid.d.next = false;
            for c in 0..stat::COUNT {
                self.st[c].d.next = 0.into();
            }
        }
        self.m_axis_pktrecv_tvalid.next = self.r_valid.q.val();
        self.m_axis_pktrecv_tdata.next = self.r_data.q.val();
        self.m_axis_event_tvalid.next = self.e_valid.q.val();
        self.m_axis_event_tdata.next = self.e_data.q.val();
        self.m_axis_notify_tvalid.next = self.m_valid.q.val();
        self.m_axis_notify_tdata.next = self.m_data.q.val();
        self.m_axis_dma_cmd_tvalid.next = self.d_valid.q.val();
        self.m_axis_dma_cmd_tdata.next = self.d_data.q.val();
    }
}
