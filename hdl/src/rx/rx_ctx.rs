//! Rx pipe, receive context (issue 5, Rx step 2): per-QP state behind `rx_pipe`. Each verdict
//! record becomes a DMA command for `rx_dma` (write the payload at an address, or discard the
//! frame) and, by opcode, a PktRecv for `tx_ctx` (ACK / NAK or telemetry response to send, or
//! go-back-N), a CC event for `cc_module` and a Notify for `flow_sched`. Golden model `sim::rx_ctx`
//! (docs/modules/rx_ctx.md).
//!
//! ```text
//! S1  s_axis_ctrl / s_axis_sent / s_axis_verdict -> priority, address -> QP BRAM read,
//!     input -> P registers (the verdict's syndrome decoded), forwarding select
//! S2  word (BRAM, or last cycle's write forwarded) -> responder / requester rules
//!     -> BRAM write, m_axis_pktrecv / m_axis_event / m_axis_notify (+1 register) / m_axis_dma_cmd
//! ```
//!
//! One input per clock, priority control > sent > verdict. The flow's word is read in S1 and
//! written in S2; the write of the previous cycle is forwarded, so same-flow inputs back to
//! back need no spacing. A verdict waits in S2 (and S1 takes nothing) while an output register
//! it needs is full. After reset the block sweeps the RAM for 2^F cycles with every input not
//! ready.

use crate::byte_swap::ByteSwap64;
use crate::cc_codes::*;
use crate::layout::{
    CcEventFields, DmaCmdFields, NotifyFields, PktRecvNamed, ReadRespNamed, RxCreateNamed, RxQpFields, RxReadNamed, SentFields,
    VerdictFields,
};
use crate::roce_op::*;
use crate::tx_ctx::RECV_REWIND;
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

/// QP word width: the fields are `sim::layout::RX_QP` (docs/modules/rx_ctx.md, "QP word").
const QP_BITS: usize = sim::layout::RxQpLayout::WIDTH;
// hdl_gen takes only a literal as a part-select offset, so the one read of part of a field
// (the verdict's dest_qp, for the flow address) is written with its offset; this fails to
// compile if the layout moves the field.
const _: () = assert!(sim::layout::VERDICT.dest_qp.lo == 64);

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
    sw_va: ByteSwap64,
    sw_h0: ByteSwap64,
    sw_h1: ByteSwap64,
    sw_h2: ByteSwap64,
    sw_h3: ByteSwap64,
    sw_h4: ByteSwap64,
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
    st0: DFF<Bits<32>>,
    st1: DFF<Bits<32>>,
    st2: DFF<Bits<32>>,
    st3: DFF<Bits<32>>,
    st4: DFF<Bits<32>>,
    st5: DFF<Bits<32>>,
    st6: DFF<Bits<32>>,
    st7: DFF<Bits<32>>,
    st8: DFF<Bits<32>>,
    st9: DFF<Bits<32>>,
    st10: DFF<Bits<32>>,
    st11: DFF<Bits<32>>,
    st12: DFF<Bits<32>>,
    st13: DFF<Bits<32>>,
    st14: DFF<Bits<32>>,
    st15: DFF<Bits<32>>,
    // Control op 4 with packets in flight: a go-back-N with outputs, taken when they are free.
    c_tmo: Signal<Local, bool>,
    // Back to snd_una (READ gap, sequence NAK during a READ, timeout): one set of outputs.
    to_una: Signal<Local, bool>,
    do_t: Signal<Local, bool>,
    i_rec: Signal<Local, bool>,
    i_pdrop: Signal<Local, bool>,
    i_unk: Signal<Local, bool>,
    i_oos: Signal<Local, bool>,
    i_dup: Signal<Local, bool>,
    i_bad: Signal<Local, bool>,
    i_stale: Signal<Local, bool>,
    i_nakoth: Signal<Local, bool>,
    i_unsup: Signal<Local, bool>,
    i_cbad: Signal<Local, bool>,
    i_sdrop: Signal<Local, bool>,
    i_naks: Signal<Local, bool>,
    i_badresp: Signal<Local, bool>,
    i_gap: Signal<Local, bool>,
    i_sstale: Signal<Local, bool>,
    one32: Signal<Local, Bits<32>>,
    q_gap: Signal<Local, Bits<1>>,
    n_gap: Signal<Local, Bits<1>>,
    q_ract: Signal<Local, Bits<1>>,
    q_log: Signal<Local, Bits<4>>,
    c_log: Signal<Local, Bits<4>>,
    rr_multi: Signal<Local, bool>,
    rr_lm1: Signal<Local, Bits<24>>,
    rr_nm1: Signal<Local, Bits<24>>,
    rr_adv: Signal<Local, Bits<24>>,
    rr_epsn: Signal<Local, Bits<24>>,
    rs_bad: Signal<Local, bool>,
    n_ract: Signal<Local, Bits<1>>,
    s_next: Signal<Local, bool>,

    // Inputs and arbitration.
    vd: Signal<Local, Bits<640>>,
    free: Signal<Local, bool>,
    go: Signal<Local, bool>,
    in_kind: Signal<Local, Bits<PICK_BITS>>,
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
    i_syn: Signal<Local, Bits<8>>,
    i_seq: Signal<Local, bool>,
    i_psn: Signal<Local, Bits<24>>,
    /// The word in S2 is the one written last cycle (decided then, so that S2 starts with a
    /// registered select rather than an address compare).
    lw_hit: DFF<bool>,
    lw_data: DFF<Bits<QP_BITS>>,
    /// The flow S2 takes next cycle.
    next_a2: Signal<Local, Bits<F>>,
    addr: Signal<Local, Bits<F>>,
    wr_addr: Signal<Local, Bits<F>>,
    c_op: Signal<Local, Bits<3>>,
    c_mtu: Signal<Local, Bits<14>>,
    c_qpn: Signal<Local, Bits<24>>,
    c_spsn: Signal<Local, Bits<24>>,
    c_create: Signal<Local, bool>,
    c_remove: Signal<Local, bool>,
    s_flow: Signal<Local, Bits<16>>,
    s_id_ok: Signal<Local, bool>,
    s_sent1: Signal<Local, Bits<32>>,

    // The flow's word.
    w: Signal<Local, Bits<QP_BITS>>,
    q_valid: Signal<Local, bool>,
    q_qpn: Signal<Local, Bits<24>>,
    q_mtu: Signal<Local, Bits<32>>,
    q_epsn: Signal<Local, Bits<24>>,
    q_nak: Signal<Local, bool>,
    q_act: Signal<Local, bool>,
    q_addr: Signal<Local, Bits<64>>,
    q_left: Signal<Local, Bits<32>>,
    q_msn: Signal<Local, Bits<24>>,
    q_una: Signal<Local, Bits<32>>,
    q_sent: Signal<Local, Bits<32>>,

    // Record fields.
    v_ok: Signal<Local, bool>,
    v_op: Signal<Local, Bits<8>>,
    v_qpn: Signal<Local, Bits<24>>,
    v_psn: Signal<Local, Bits<24>>,
    v_n: Signal<Local, Bits<32>>,
    v_rlen: Signal<Local, Bits<32>>,
    /// RETH DMA length as the verdict carries it (wire byte order).
    v_rlen_w: Signal<Local, Bits<32>>,
    /// The verdict's hop area.
    v_hops: Signal<Local, Bits<320>>,
    v_nhop: Signal<Local, Bits<3>>,
    v_fb: Signal<Local, Bits<1>>,
    v_tele: Signal<Local, bool>,
    v_coll: Signal<Local, bool>,
    hit: Signal<Local, bool>,
    is_req: Signal<Local, bool>,
    is_ack: Signal<Local, bool>,
    is_cnp: Signal<Local, bool>,
    is_tresp: Signal<Local, bool>,
    is_probe: Signal<Local, bool>,
    r_resp: Signal<Local, Bits<1>>,
    is_rreq: Signal<Local, bool>,
    is_rresp: Signal<Local, bool>,
    rr_bad: Signal<Local, bool>,
    r_rd: Signal<Local, Bits<1>>,
    r_ece: Signal<Local, Bits<1>>,
    v_ce: Signal<Local, bool>,
    r_psn_be: Signal<Local, Bits<24>>,
    rw_psn_be: Signal<Local, Bits<24>>,
    r_aeth: Signal<Local, Bits<32>>,
    r_kind3: Signal<Local, Bits<3>>,
    in_sflow_fld: Signal<Local, Bits<16>>,
    in_qpn_fld: Signal<Local, Bits<24>>,
    rw_psn: Signal<Local, Bits<24>>,
    c_read: Signal<Local, bool>,
    q_rd: Signal<Local, Bits<64>>,
    n_rd: Signal<Local, Bits<64>>,
    rd_n: Signal<Local, Bits<64>>,
    una1: Signal<Local, Bits<32>>,
    dr: Signal<Local, Bits<24>>,
    er: Signal<Local, Bits<24>>,
    dma_a: Signal<Local, Bits<64>>,
    wire_hops: Signal<Local, Bits<320>>,
    num_hops: Signal<Local, Bits<320>>,

    // Responder.
    dq: Signal<Local, Bits<24>>,
    ahead: Signal<Local, bool>,
    behind: Signal<Local, bool>,
    first: Signal<Local, bool>,
    req_ok: Signal<Local, bool>,
    wa: Signal<Local, Bits<64>>,
    wl: Signal<Local, Bits<32>>,
    wa_n: Signal<Local, Bits<64>>,
    wl_n: Signal<Local, Bits<32>>,
    act_n: Signal<Local, Bits<1>>,
    epsn1: Signal<Local, Bits<24>>,
    msn1: Signal<Local, Bits<24>>,

    // Requester.
    seq_err: Signal<Local, bool>,
    nak_other: Signal<Local, bool>,
    upto: Signal<Local, Bits<24>>,
    da: Signal<Local, Bits<24>>,
    ea: Signal<Local, Bits<24>>,
    stale: Signal<Local, bool>,
    upto32: Signal<Local, Bits<32>>,
    released: Signal<Local, Bits<32>>,
    acked16: Signal<Local, Bits<16>>,

    // Results.
    r_syn: Signal<Local, Bits<8>>,
    r_psn: Signal<Local, Bits<24>>,
    r_msn: Signal<Local, Bits<24>>,
    r_send: Signal<Local, bool>,
    r_rewind: Signal<Local, bool>,
    r_word: Signal<Local, Bits<512>>,
    n_bytes: Signal<Local, Bits<32>>,
    n_move: Signal<Local, bool>,
    one: Signal<Local, Bits<1>>,
    e_kind: Signal<Local, Bits<4>>,
    e_send: Signal<Local, bool>,
    e_ece: Signal<Local, Bits<1>>,
    e_seq: Signal<Local, Bits<32>>,
    e_nxt: Signal<Local, Bits<32>>,
    e_acked: Signal<Local, Bits<16>>,
    e_word: Signal<Local, Bits<512>>,
    /// Notify words: this record's packets, one packet (a stale sent event), the output's bytes.
    n_word: Signal<Local, Bits<48>>,
    n_one: Signal<Local, Bits<48>>,
    m_word: Signal<Local, Bits<48>>,
    n_send: Signal<Local, bool>,
    n_pkts: Signal<Local, Bits<32>>,
    dma_word: Signal<Local, Bits<128>>,
    write: Signal<Local, bool>,
    n_epsn: Signal<Local, Bits<24>>,
    n_nak: Signal<Local, Bits<1>>,
    n_act: Signal<Local, Bits<1>>,
    n_addr: Signal<Local, Bits<64>>,
    n_left: Signal<Local, Bits<32>>,
    n_msn: Signal<Local, Bits<24>>,
    n_una: Signal<Local, Bits<32>>,
    n_sent: Signal<Local, Bits<32>>,
}

impl<const F: usize> Logic for RxCtx<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, swept, sweep_at, r_valid, r_data, e_valid, e_data, n_valid, n_data,
            m_valid, m_data, d_valid, d_data, p_valid, p_kind, p_addr, p_ctrl, p_sent, p_vd, p_now, p_seq, p_nko, p_upto,
            lw_hit, lw_data, st0, st1, st2, st3, st4, st5, st6, st7, st8, st9, st10, st11,
            st12, st13, st14, st15
        );
        self.qp.write_clock.next = self.clock.val();
        self.qp.read_clock.next = self.clock.val();
        self.one.next = 1.into();
        self.one32.next = 1.into();

        // ---- S1, arbitration: control word, then sent event, then verdict; one per clock,
        // taken into the P registers while the BRAM reads the flow's word.
        self.vd.next = self.p_vd.q.val();
        self.free.next = (!self.r_valid.q.val() | self.m_axis_pktrecv_tready.val())
            & (!self.e_valid.q.val() | self.m_axis_event_tready.val())
            & (!self.n_valid.q.val() | !self.m_valid.q.val() | self.m_axis_notify_tready.val())
            & (!self.d_valid.q.val() | self.m_axis_dma_cmd_tready.val());
        // S2 holds a verdict, or a timeout (control op 4), only while an output register it
        // needs is full. (A sent event may give a Notify too.)
        self.c_op.next = self.p_ctrl.q.val().get_value_rx_create_op();
        self.go.next = !self.p_valid.q.val()
            | ((self.p_kind.q.val() == RX_PICK_CTRL) & (self.c_op.val() != RX_OP_TIMEOUT))
            | self.free.val();
        self.s_axis_ctrl_tready.next = self.swept.q.val() & self.go.val();
        self.s_axis_sent_tready.next =
            !self.s_axis_ctrl_tvalid.val() & self.swept.q.val() & self.go.val();
        self.s_axis_verdict_tready.next = !self.s_axis_ctrl_tvalid.val()
            & !self.s_axis_sent_tvalid.val()
            & self.swept.q.val()
            & self.go.val();
        // The verdict's AETH syndrome (read here only) and PSN (as v_psn in S2).
        self.i_syn.next = self.s_axis_verdict_tdata.val().get_value_aeth_syndrome();
        self.i_psn.next = self.s_axis_verdict_tdata.val().get_value_psn();
        self.i_seq.next = self.i_syn.val() == 0x60;
        self.in_kind.next = 0.into();
        self.in_sflow_fld.next = self.s_axis_sent_tdata.val().get_value_flow();
        self.in_qpn_fld.next = self.s_axis_ctrl_tdata.val().get_value_rx_create_qpn();
        // The flow: the low F bits of dest_qp (its offset is checked against the layout at the top).
        self.addr.next = self.s_axis_verdict_tdata.val().get_bits::<F>(64);
        if self.s_axis_verdict_tvalid.val() {
            self.in_kind.next = RX_PICK_VERDICT.into();
        }
        if self.s_axis_sent_tvalid.val() {
            self.in_kind.next = RX_PICK_SENT.into();
            self.addr.next = self.in_sflow_fld.val().get_bits::<F>(0);
        }
        if self.s_axis_ctrl_tvalid.val() {
            self.in_kind.next = RX_PICK_CTRL.into();
            self.addr.next = self.in_qpn_fld.val().get_bits::<F>(0);
        }
        self.next_a2.next = self.p_addr.q.val();
        if self.go.val() {
            self.next_a2.next = self.addr.val();
            self.p_valid.d.next = self.swept.q.val() & (self.in_kind.val() != 0);
            self.p_kind.d.next = self.in_kind.val();
            self.p_addr.d.next = self.addr.val();
            self.p_ctrl.d.next = self.s_axis_ctrl_tdata.val();
            self.p_sent.d.next = self.s_axis_sent_tdata.val();
            self.p_vd.d.next = self.s_axis_verdict_tdata.val();
            self.p_now.d.next = self.now_ns.val();
            // NAK PSN sequence error (syndrome 0x60); any other non-ACK syndrome (bits 6:5).
            self.p_seq.d.next = self.i_seq.val();
            self.p_nko.d.next = (self.i_syn.val().get_bits::<2>(5) != 0) & !self.i_seq.val();
            self.p_upto.d.next = self.i_psn.val() + 1;
            if self.i_seq.val() {
                self.p_upto.d.next = self.i_psn.val();
            }
        }
        self.qp.read_address.next = self.next_a2.val();

        // ---- S2: what the P registers hold, done this cycle.
        self.a2.next = self.p_addr.q.val();
        self.do_c.next = self.p_valid.q.val()
            & (self.p_kind.q.val() == RX_PICK_CTRL)
            & ((self.c_op.val() != RX_OP_TIMEOUT) | self.free.val());
        self.do_s.next = self.p_valid.q.val() & (self.p_kind.q.val() == RX_PICK_SENT) & self.free.val();
        self.do_v.next = self.p_valid.q.val() & (self.p_kind.q.val() == RX_PICK_VERDICT) & self.free.val();

        self.c_mtu.next = self.p_ctrl.q.val().get_value_rx_create_mtu();
        self.c_qpn.next = self.p_ctrl.q.val().get_value_rx_create_qpn();
        self.c_spsn.next = self.p_ctrl.q.val().get_value_rx_create_spsn();
        self.s_flow.next = self.p_sent.q.val().get_value_flow();
        self.s_id_ok.next =
            bit_cast::<16, F>(bit_cast::<F, 16>(self.s_flow.val())) == self.s_flow.val();
        self.v_qpn.next = self.vd.val().get_value_dest_qp();

        // ---- The flow's word: the BRAM's, or the one written last cycle (the BRAM read it
        // before that write landed).
        self.w.next = self.qp.read_data.val();
        if self.lw_hit.q.val() {
            self.w.next = self.lw_data.q.val();
        }
        self.q_valid.next = self.w.val().get_value_valid();
        self.q_qpn.next = self.w.val().get_value_qpn();
        self.q_mtu.next = bit_cast::<32, 14>(self.w.val().get_value_mtu());
        self.q_epsn.next = self.w.val().get_value_epsn();
        self.q_nak.next = self.w.val().get_value_nak();
        self.q_act.next = self.w.val().get_value_act();
        self.q_addr.next = self.w.val().get_value_addr();
        self.q_left.next = self.w.val().get_value_left();
        self.q_msn.next = self.w.val().get_value_msn();
        self.q_una.next = self.w.val().get_value_una();
        self.q_sent.next = self.w.val().get_value_sent();
        self.q_rd.next = self.w.val().get_value_rd();
        self.q_gap.next = self.w.val().get_value_gap().into();
        self.q_ract.next = self.w.val().get_value_ract().into();
        self.q_log.next = self.w.val().get_value_mtu_log();
        // log2 of a create's MTU, 15 if it is not a power of two.
        self.c_log.next = 15.into();
        if self.c_mtu.val() == 1 {
            self.c_log.next = 0.into();
        }
        if self.c_mtu.val() == 2 {
            self.c_log.next = 1.into();
        }
        if self.c_mtu.val() == 4 {
            self.c_log.next = 2.into();
        }
        if self.c_mtu.val() == 8 {
            self.c_log.next = 3.into();
        }
        if self.c_mtu.val() == 16 {
            self.c_log.next = 4.into();
        }
        if self.c_mtu.val() == 32 {
            self.c_log.next = 5.into();
        }
        if self.c_mtu.val() == 64 {
            self.c_log.next = 6.into();
        }
        if self.c_mtu.val() == 128 {
            self.c_log.next = 7.into();
        }
        if self.c_mtu.val() == 256 {
            self.c_log.next = 8.into();
        }
        if self.c_mtu.val() == 512 {
            self.c_log.next = 9.into();
        }
        if self.c_mtu.val() == 1024 {
            self.c_log.next = 10.into();
        }
        if self.c_mtu.val() == 2048 {
            self.c_log.next = 11.into();
        }
        if self.c_mtu.val() == 4096 {
            self.c_log.next = 12.into();
        }
        if self.c_mtu.val() == 8192 {
            self.c_log.next = 13.into();
        }

        // ---- Control word.
        self.c_create.next = (self.c_op.val() == RX_OP_CREATE) & (self.c_mtu.val() != 0);
        self.c_remove.next =
            (self.c_op.val() == RX_OP_REMOVE) & self.q_valid.val() & (self.q_qpn.val() == self.c_qpn.val());
        self.c_read.next =
            (self.c_op.val() == RX_OP_READ) & self.q_valid.val() & (self.q_qpn.val() == self.c_qpn.val());
        // Timeout: what is in flight (sent - snd_una packets) is released and sent again from
        // snd_una, as for a READ gap; with nothing in flight nothing happens.
        self.c_tmo.next = self.p_valid.q.val()
            & (self.p_kind.q.val() == RX_PICK_CTRL)
            & (self.c_op.val() == RX_OP_TIMEOUT)
            & self.q_valid.val()
            & (self.q_sent.val() != self.q_una.val());
        self.do_t.next = self.do_c.val() & self.c_tmo.val();

        // ---- Sent event: sent + 1 if it is for the flow's next PSN, else stale (a packet sent
        // before a go-back-N decided here reached tx_ctx: already released).
        self.s_next.next = self.p_sent.q.val().get_value_psn() == self.q_sent.val().get_bits::<24>(0);
        self.s_sent1.next = self.q_sent.val() + 1;

        // ---- Record fields (docs/modules/rx_pipe.md); RETH and hop words are in wire order.
        self.v_ok.next = self.vd.val().get_value_code() == 0;
        self.v_op.next = self.vd.val().get_value_opcode();
        self.v_ce.next = self.vd.val().get_value_ecn() == 3;
        self.v_tele.next = self.vd.val().get_value_telemetry();
        self.v_coll.next = self.v_tele.val() & !self.vd.val().get_value_echo();
        self.v_nhop.next = self.vd.val().get_value_nhop();
        self.v_fb.next = (self.v_tele.val() & self.vd.val().get_value_feedback()).into();
        self.v_psn.next = self.vd.val().get_value_psn();
        self.v_n.next = bit_cast::<32, 16>(self.vd.val().get_value_payload_len());
        self.sw_va.a.next = self.vd.val().get_value_reth_va();
        // The DMA length in wire order, made a number.
        self.v_rlen_w.next = self.vd.val().get_value_reth_len();
        self.v_rlen.next = (bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.v_rlen_w.val().get_bits::<8>(24));
        // Hop word k is bits 64k+63:64k of the hop area.
        self.v_hops.next = self.vd.val().get_value_hops();
        self.sw_h0.a.next = self.v_hops.val().get_bits::<64>(0);
        self.sw_h1.a.next = self.v_hops.val().get_bits::<64>(64);
        self.sw_h2.a.next = self.v_hops.val().get_bits::<64>(128);
        self.sw_h3.a.next = self.v_hops.val().get_bits::<64>(192);
        self.sw_h4.a.next = self.v_hops.val().get_bits::<64>(256);
        // Slots at or past nhop count as 0 (the echo and the CC event carry only used hops).
        self.wire_hops.next = 0.into();
        self.num_hops.next = 0.into();
        if self.v_fb.val().any() {
            // Rx-HPCC feedback (rx_pipe sets it only with no hops): hop word 0 is W.
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h0.y.val());
        }
        if self.v_nhop.val() > 0 {
            self.wire_hops.next = bit_cast::<320, 64>(self.v_hops.val().get_bits::<64>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h0.y.val());
        }
        if self.v_nhop.val() > 1 {
            self.wire_hops.next = bit_cast::<320, 128>(self.v_hops.val().get_bits::<128>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h0.y.val())
                | (bit_cast::<320, 64>(self.sw_h1.y.val()) << 64);
        }
        if self.v_nhop.val() > 2 {
            self.wire_hops.next = bit_cast::<320, 192>(self.v_hops.val().get_bits::<192>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h0.y.val())
                | (bit_cast::<320, 64>(self.sw_h1.y.val()) << 64)
                | (bit_cast::<320, 64>(self.sw_h2.y.val()) << 128);
        }
        if self.v_nhop.val() > 3 {
            self.wire_hops.next = bit_cast::<320, 256>(self.v_hops.val().get_bits::<256>(0));
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h0.y.val())
                | (bit_cast::<320, 64>(self.sw_h1.y.val()) << 64)
                | (bit_cast::<320, 64>(self.sw_h2.y.val()) << 128)
                | (bit_cast::<320, 64>(self.sw_h3.y.val()) << 192);
        }
        if self.v_nhop.val() > 4 {
            self.wire_hops.next = self.v_hops.val();
            self.num_hops.next = bit_cast::<320, 64>(self.sw_h0.y.val())
                | (bit_cast::<320, 64>(self.sw_h1.y.val()) << 64)
                | (bit_cast::<320, 64>(self.sw_h2.y.val()) << 128)
                | (bit_cast::<320, 64>(self.sw_h3.y.val()) << 192)
                | (bit_cast::<320, 64>(self.sw_h4.y.val()) << 256);
        }
        self.hit.next =
            self.v_ok.val() & self.q_valid.val() & (self.q_qpn.val() == self.v_qpn.val());
        self.is_req.next = (self.v_op.val() == OP_RDMA_WRITE_FIRST)
            | (self.v_op.val() == OP_RDMA_WRITE_MIDDLE)
            | (self.v_op.val() == OP_RDMA_WRITE_LAST)
            | (self.v_op.val() == OP_RDMA_WRITE_ONLY);
        self.is_ack.next = self.v_op.val() == OP_ACKNOWLEDGE;
        self.is_cnp.next = self.v_op.val() == OP_CNP;
        self.is_tresp.next = self.v_op.val() == OP_HPCC_TELEMETRY_RESPONSE;
        self.is_probe.next = self.v_op.val() == OP_HPCC_PROBE;
        self.is_rreq.next = self.v_op.val() == OP_RDMA_READ_REQUEST;
        self.is_rresp.next = (self.v_op.val() == OP_RDMA_READ_RESPONSE_FIRST)
            | (self.v_op.val() == OP_RDMA_READ_RESPONSE_MIDDLE)
            | (self.v_op.val() == OP_RDMA_READ_RESPONSE_LAST)
            | (self.v_op.val() == OP_RDMA_READ_RESPONSE_ONLY);

        // ---- Responder (sim::rx_ctx::RxCtx::request).
        self.dq.next = self.v_psn.val() - self.q_epsn.val();
        self.ahead.next = (self.dq.val() != 0) & !self.dq.val().get_bit(23);
        self.behind.next = self.dq.val().get_bit(23);
        self.first.next = (self.v_op.val() == OP_RDMA_WRITE_FIRST) | (self.v_op.val() == OP_RDMA_WRITE_ONLY);
        self.req_ok.next = !self.q_act.val()
            & (self.v_n.val() <= self.q_mtu.val())
            & (self.v_n.val() == self.v_rlen.val());
        if self.v_op.val() == OP_RDMA_WRITE_FIRST {
            self.req_ok.next = !self.q_act.val()
                & (self.v_n.val() == self.q_mtu.val())
                & (self.v_rlen.val() > self.q_mtu.val());
        } else if self.v_op.val() == OP_RDMA_WRITE_MIDDLE {
            self.req_ok.next = self.q_act.val()
                & (self.v_n.val() == self.q_mtu.val())
                & (self.v_n.val() < self.q_left.val());
        } else if self.v_op.val() == OP_RDMA_WRITE_LAST {
            self.req_ok.next = self.q_act.val()
                & (self.v_n.val() != 0)
                & (self.v_n.val() <= self.q_mtu.val())
                & (self.v_n.val() == self.q_left.val());
        }
        self.wa.next = self.q_addr.val();
        self.wl.next = self.q_left.val();
        if self.first.val() {
            self.wa.next = self.sw_va.y.val();
            self.wl.next = self.v_rlen.val();
        }
        self.wa_n.next = self.wa.val() + bit_cast::<64, 32>(self.v_n.val());
        self.wl_n.next = self.wl.val() - self.v_n.val();
        self.act_n.next = 0.into();
        if (self.v_op.val() == OP_RDMA_WRITE_FIRST) | (self.v_op.val() == OP_RDMA_WRITE_MIDDLE) {
            self.act_n.next = 1.into();
        }
        self.epsn1.next = self.q_epsn.val() + 1;
        // READ request (sim::rx_ctx::RxCtx::read_request, read_packets): longer than the MTU,
        // it takes ((length - 1) >> log2 MTU) + 1 PSNs; the MTU must be a power of two of at
        // least 256 bytes and the length at most 2^30, so at most 2^22 PSNs. The bounds are
        // checked without the shift, which only feeds the expected PSN.
        self.rr_multi.next = self.v_rlen.val() > self.q_mtu.val();
        // (length - 1) >> log2 MTU for the six MTUs that may be cut (256..8192): first
        // (length - 1) >> 8, as length >> 8 less the borrow of its low byte, then constant
        // shifts and a 6:1 mux; 24 bits (length <= 2^30).
        self.rr_lm1.next = self.v_rlen.val().get_bits::<24>(8);
        if !self.v_rlen.val().get_bits::<8>(0).any() {
            self.rr_lm1.next = self.v_rlen.val().get_bits::<24>(8) - 1;
        }
        self.rr_nm1.next = self.rr_lm1.val();
        if self.q_log.val() == 9 {
            self.rr_nm1.next = bit_cast::<24, 23>(self.rr_lm1.val().get_bits::<23>(1));
        }
        if self.q_log.val() == 10 {
            self.rr_nm1.next = bit_cast::<24, 22>(self.rr_lm1.val().get_bits::<22>(2));
        }
        if self.q_log.val() == 11 {
            self.rr_nm1.next = bit_cast::<24, 21>(self.rr_lm1.val().get_bits::<21>(3));
        }
        if self.q_log.val() == 12 {
            self.rr_nm1.next = bit_cast::<24, 20>(self.rr_lm1.val().get_bits::<20>(4));
        }
        if self.q_log.val() == 13 {
            self.rr_nm1.next = bit_cast::<24, 19>(self.rr_lm1.val().get_bits::<19>(5));
        }
        self.rr_bad.next = (self.rr_multi.val()
            & ((self.q_log.val() == 15) | (self.q_log.val() < 8) | (self.v_rlen.val() > 0x4000_0000)))
            | (!self.behind.val() & self.q_act.val());
        self.rr_adv.next = 1.into();
        if self.rr_multi.val() {
            self.rr_adv.next = self.rr_nm1.val() + 1;
        }
        self.rr_epsn.next = self.q_epsn.val() + self.rr_adv.val();
        // READ response: First and Middle a whole MTU, Last and Only at most one.
        self.rs_bad.next = (self.v_n.val() > self.q_mtu.val())
            | (((self.v_op.val() == OP_RDMA_READ_RESPONSE_FIRST) | (self.v_op.val() == OP_RDMA_READ_RESPONSE_MIDDLE)) & (self.v_n.val() != self.q_mtu.val()));
        // READ response (read_response): snd_una <= PSN < sent.
        self.dr.next = self.v_psn.val() - self.q_una.val().get_bits::<24>(0);
        self.er.next = self.v_psn.val() - self.q_sent.val().get_bits::<24>(0);
        self.una1.next = self.q_una.val() + 1;
        self.rd_n.next = self.q_rd.val() + bit_cast::<64, 32>(self.v_n.val());
        self.msn1.next = self.q_msn.val() + 1;

        // ---- Requester (sim::rx_ctx::RxCtx::acknowledge): only [snd_una, sent] counts.
        // A NAK sequence error acknowledges up to its PSN, anything else through it (S1).
        self.seq_err.next = self.p_seq.q.val();
        self.nak_other.next = self.p_nko.q.val();
        self.upto.next = self.p_upto.q.val();
        self.da.next = self.upto.val() - self.q_una.val().get_bits::<24>(0);
        self.ea.next = self.upto.val() - self.q_sent.val().get_bits::<24>(0);
        self.stale.next = self.da.val().get_bit(23)
            | ((self.da.val() == 0) & !self.seq_err.val())
            | ((self.ea.val() != 0) & !self.ea.val().get_bit(23));
        self.upto32.next = self.q_una.val() + bit_cast::<32, 24>(self.da.val());
        self.released.next = self.q_sent.val() - self.q_una.val();
        self.acked16.next = self.da.val().get_bits::<16>(0);
        if self.da.val().get_bits::<8>(16) != 0 {
            self.acked16.next = 0xFFFF.into();
        }

        // ---- What the record does: defaults, then by opcode.
        self.n_epsn.next = self.q_epsn.val();
        self.n_nak.next = self.w.val().get_bits::<1>(63);
        self.n_act.next = self.w.val().get_bits::<1>(64);
        self.n_addr.next = self.q_addr.val();
        self.n_left.next = self.q_left.val();
        self.n_msn.next = self.q_msn.val();
        self.n_una.next = self.q_una.val();
        self.n_sent.next = self.q_sent.val();
        self.r_send.next = false;
        self.r_rewind.next = false;
        self.r_resp.next = 0.into();
        self.r_rd.next = 0.into();
        self.rw_psn.next = self.upto.val();
        self.n_rd.next = self.q_rd.val();
        self.i_badresp.next = false;
        self.i_gap.next = false;
        self.to_una.next = false;
        self.n_gap.next = self.q_gap.val();
        self.n_ract.next = self.q_ract.val();
        self.r_syn.next = 0x1F.into();
        self.r_psn.next = self.v_psn.val();
        self.r_msn.next = self.q_msn.val();
        self.e_send.next = false;
        self.e_kind.next = EV_ACK.into();
        self.e_ece.next = 0.into();
        self.e_seq.next = self.q_una.val();
        self.e_nxt.next = self.q_sent.val();
        self.e_acked.next = 0.into();
        self.n_send.next = false;
        self.n_pkts.next = 0.into();
        self.write.next = false;
        self.i_unk.next = false;
        self.i_oos.next = false;
        self.i_dup.next = false;
        self.i_bad.next = false;
        self.i_stale.next = false;
        self.i_nakoth.next = false;
        self.i_unsup.next = false;
        self.i_naks.next = false;
        if self.v_ok.val() & !self.hit.val() {
            self.i_unk.next = true;
        }
        if self.hit.val() {
            // Requests, WRITE or READ: receiver telemetry, and the same rule ahead of the
            // expected PSN (sim::rx_ctx::RxCtx::ahead).
            if self.is_req.val() | self.is_rreq.val() {
                if self.v_coll.val() {
                    self.e_send.next = true;
                    self.e_kind.next = EV_RX.into();
                }
                if self.ahead.val() {
                    if self.q_nak.val() {
                        self.i_oos.next = true;
                    } else {
                        self.i_naks.next = true;
                        self.n_nak.next = 1.into();
                        self.r_send.next = true;
                        self.r_syn.next = 0x60.into();
                        self.r_psn.next = self.q_epsn.val();
                    }
                } else if self.is_rreq.val() & self.rr_bad.val() {
                    self.i_bad.next = true;
                    if !self.behind.val() {
                        self.n_act.next = 0.into();
                    }
                    self.r_send.next = true;
                    self.r_syn.next = 0x61.into();
                } else if self.is_rreq.val() {
                    // The whole READ to answer (PktRecv kind 4, for read_split); a duplicate is
                    // executed again.
                    self.r_send.next = true;
                    self.r_rd.next = 1.into();
                    if self.behind.val() {
                        self.i_dup.next = true;
                    } else {
                        self.n_msn.next = self.msn1.val();
                        self.r_msn.next = self.msn1.val();
                        self.n_epsn.next = self.rr_epsn.val();
                        self.n_nak.next = 0.into();
                    }
                } else if self.behind.val() {
                    self.i_dup.next = true;
                    self.r_send.next = true;
                } else if !self.req_ok.val() {
                    self.i_bad.next = true;
                    self.n_act.next = 0.into();
                    self.r_send.next = true;
                    self.r_syn.next = 0x61.into();
                } else {
                    self.r_send.next = true;
                    self.n_addr.next = self.wa_n.val();
                    self.n_left.next = self.wl_n.val();
                    self.n_act.next = self.act_n.val();
                    if self.act_n.val() == 0 {
                        self.n_msn.next = self.msn1.val();
                        self.r_msn.next = self.msn1.val();
                    }
                    self.n_epsn.next = self.epsn1.val();
                    self.n_nak.next = 0.into();
                    self.write.next = self.v_n.val() != 0;
                }
            } else if self.is_ack.val() {
                if self.nak_other.val() {
                    self.i_nakoth.next = true;
                } else if self.stale.val() {
                    self.i_stale.next = true;
                } else if self.seq_err.val() & (self.q_ract.val() == 1) {
                    // A READ is out: the NAK acknowledges no response (the NIC model's
                    // ack_barrier); back to snd_una.
                    self.to_una.next = true;
                } else if self.seq_err.val() {
                    self.n_send.next = self.released.val() != 0;
                    self.n_pkts.next = self.released.val();
                    self.r_send.next = self.ea.val() != 0;
                    self.r_rewind.next = true;
                    self.n_una.next = self.upto32.val();
                    self.n_sent.next = self.upto32.val();
                    self.e_send.next = true;
                    self.e_kind.next = EV_LOSS.into();
                    self.e_seq.next = self.upto32.val();
                    self.e_nxt.next = self.upto32.val();
                } else {
                    self.n_ract.next = 0.into();
                    self.n_send.next = true;
                    self.n_pkts.next = bit_cast::<32, 24>(self.da.val());
                    self.n_una.next = self.upto32.val();
                    self.e_send.next = true;
                    self.e_seq.next = self.upto32.val();
                    self.e_acked.next = self.acked16.val();
                    self.e_ece.next = self.vd.val().get_value_becn().into();
                }
            } else if self.is_cnp.val() {
                self.e_send.next = true;
                self.e_kind.next = EV_CNP.into();
            } else if self.is_tresp.val() {
                self.e_send.next = true;
            } else if self.is_rresp.val() {
                if self.dr.val().get_bit(23) | !self.er.val().get_bit(23) {
                    self.i_stale.next = true;
                } else if (self.dr.val() != 0) & (self.q_gap.val() == 1) {
                    self.i_oos.next = true;
                } else if self.dr.val() != 0 {
                    // A response was lost: everything in flight (at least this one's PSN) is
                    // released and resent from snd_una.
                    self.i_gap.next = true;
                    self.n_gap.next = 1.into();
                    self.to_una.next = true;
                } else if self.rs_bad.val() {
                    self.i_badresp.next = true;
                } else {
                    self.write.next = self.v_n.val() != 0;
                    self.n_rd.next = self.rd_n.val();
                    self.n_gap.next = 0.into();
                    self.n_una.next = self.una1.val();
                    self.n_send.next = true;
                    self.n_pkts.next = 1.into();
                    self.e_send.next = true;
                    self.e_seq.next = self.una1.val();
                    self.e_acked.next = 1.into();
                    // A response's own CE mark (responses carry no ECN-Echo).
                    if self.v_ce.val() {
                        self.e_ece.next = 1.into();
                    }
                }
            } else if self.is_probe.val() {
                // Telemetry response (PktRecv kind 2): the probe's PSN and hops, AETH 0.
                self.r_send.next = true;
                self.r_resp.next = 1.into();
                self.r_syn.next = 0.into();
                self.r_msn.next = 0.into();
            } else {
                self.i_unsup.next = true;
            }
        }
        // Back to snd_una (sim::rx_ctx's back_to_una): a READ gap, a sequence NAK during a
        // READ, or a timeout (control op 4) with packets in flight. Everything in flight is
        // released (Notify) and, if anything was, sent again from snd_una (go-back-N); sent =
        // snd_una; a loss event. The PktRecv and event fields are all set here, so a timeout
        // ignores whatever the P registers' stale verdict made of them above.
        if self.c_tmo.val() {
            self.to_una.next = true;
        }
        if self.to_una.val() {
            self.n_send.next = self.released.val() != 0;
            self.n_pkts.next = self.released.val();
            self.r_send.next = self.released.val() != 0;
            self.r_rewind.next = true;
            self.r_resp.next = 0.into();
            self.r_rd.next = 0.into();
            self.rw_psn.next = self.q_una.val().get_bits::<24>(0);
            self.n_sent.next = self.q_una.val();
            self.e_send.next = true;
            self.e_kind.next = EV_LOSS.into();
            self.e_ece.next = 0.into();
            self.e_acked.next = 0.into();
            self.e_seq.next = self.q_una.val();
            self.e_nxt.next = self.q_una.val();
        }

        // ---- Output words.
        // PktRecv (layout::PKT_RECV): ACK / NAK (PSN big-endian and AETH as on the wire, echo
        // with nhop and hop slots), telemetry response (the same with kind 2, AETH 0), the
        // whole READ to answer (kind 4, layout::READ_RESP: sim::tx_ctx::ReadResp's first form,
        // MTU log2, length, host address; position Only, packet length 0), or go-back-N (kind
        // 1, PSN).
        // ECN-Echo for an ACK / NAK (kind 0) of a CE-marked request (the LDCP receiver).
        self.r_ece.next = 0.into();
        if self.v_ce.val() & (self.r_resp.val() == 0) & (self.r_rd.val() == 0) {
            self.r_ece.next = 1.into();
        }
        self.r_psn_be.next = (bit_cast::<24, 8>(self.r_psn.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.r_psn.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.r_psn.val().get_bits::<8>(16));
        self.rw_psn_be.next = (bit_cast::<24, 8>(self.rw_psn.val().get_bits::<8>(0)) << 16)
            | (bit_cast::<24, 8>(self.rw_psn.val().get_bits::<8>(8)) << 8)
            | bit_cast::<24, 8>(self.rw_psn.val().get_bits::<8>(16));
        self.r_aeth.next = bit_cast::<32, 8>(self.r_syn.val())
            | (bit_cast::<32, 8>(self.r_msn.val().get_bits::<8>(16)) << 8)
            | (bit_cast::<32, 8>(self.r_msn.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.r_msn.val().get_bits::<8>(0)) << 24);
        self.r_kind3.next = (bit_cast::<3, 1>(self.r_rd.val()) << 2) | (bit_cast::<3, 1>(self.r_resp.val()) << 1);
        self.r_word.next = 0.into();
        self.r_word.next.set_value_pkt_recv_flow(bit_cast::<16, F>(self.a2.val()));
        if self.r_rewind.val() {
            self.r_word.next.set_value_pkt_recv_kind(RECV_REWIND.into());
            self.r_word.next.set_value_pkt_recv_psn(self.rw_psn_be.val());
        } else {
            self.r_word.next.set_value_pkt_recv_kind(self.r_kind3.val());
            self.r_word.next.set_value_pkt_recv_psn(self.r_psn_be.val());
            self.r_word.next.set_value_pkt_recv_aeth(self.r_aeth.val());
            self.r_word.next.set_value_pkt_recv_ece_bits(self.r_ece.val());
            if self.v_coll.val() & (self.r_rd.val() == 0) {
                self.r_word.next.set_value_pkt_recv_echo(true);
                self.r_word.next.set_value_pkt_recv_nhop(bit_cast::<8, 3>(self.v_nhop.val()));
                self.r_word.next.set_value_pkt_recv_hops(self.wire_hops.val());
            }
            if self.r_rd.val() == 1 {
                self.r_word.next.set_value_read_resp_mtu_log(self.q_log.val());
                self.r_word.next.set_value_read_resp_total(self.v_rlen.val());
                self.r_word.next.set_value_read_resp_va(self.sw_va.y.val());
            }
        }
        // CC event (cc_module's format); hops only from a telemetry header, none on a CNP.
        self.e_word.next = 0.into();
        self.e_word.next.set_value_flow(bit_cast::<16, F>(self.a2.val()));
        self.e_word.next.set_value_kind(self.e_kind.val());
        self.e_word.next.set_value_ece_bits(self.e_ece.val());
        self.e_word.next.set_value_seq(self.e_seq.val());
        self.e_word.next.set_value_snd_nxt(self.e_nxt.val());
        self.e_word.next.set_value_now(self.p_now.q.val());
        self.e_word.next.set_value_acked(self.e_acked.val());
        if self.v_tele.val() & !self.is_cnp.val() & !self.c_tmo.val() {
            self.e_word.next.set_value_count(self.v_nhop.val());
            self.e_word.next.set_value_feedback_bits(self.v_fb.val());
            self.e_word.next.set_value_hops(self.num_hops.val());
        }
        self.dma_a.next = self.wa.val();
        if self.is_rresp.val() {
            self.dma_a.next = self.q_rd.val();
        }
        self.dma_word.next = 0.into();
        if self.write.val() {
            self.dma_word.next.set_value_addr(self.dma_a.val());
            self.dma_word.next.set_value_offset(self.vd.val().get_value_payload_at());
            self.dma_word.next.set_value_len(self.v_n.val().get_bits::<14>(0));
            self.dma_word.next.set_value_write(true);
            self.dma_word.next.set_value_flow(bit_cast::<16, F>(self.a2.val()));
        }

        // ---- RAM write: sweep, control word, sent event or the record's new state.
        self.wr_addr.next = self.a2.val();
        if !self.swept.q.val() {
            self.wr_addr.next = self.sweep_at.q.val();
        }
        self.qp.write_address.next = self.wr_addr.val();
        self.q_we.next = false;
        self.q_wd.next = self.w.val();
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
            if self.c_create.val() {
                self.q_we.next = true;
                self.q_wd.next = 0.into();
                self.q_wd.next.set_value_valid(self.one.val().into());
                self.q_wd.next.set_value_qpn(self.c_qpn.val());
                self.q_wd.next.set_value_mtu(self.c_mtu.val());
                self.q_wd.next.set_value_epsn(self.p_ctrl.q.val().get_value_rx_create_epsn());
                self.q_wd.next.set_value_una(bit_cast::<32, 24>(self.c_spsn.val()));
                self.q_wd.next.set_value_sent(bit_cast::<32, 24>(self.c_spsn.val()));
                self.q_wd.next.set_value_mtu_log(self.c_log.val());
            } else if self.c_remove.val() {
                self.q_we.next = true;
                self.q_wd.next = 0.into();
            } else if self.c_read.val() {
                self.q_we.next = true;
                self.q_wd.next.set_value_rd(self.p_ctrl.q.val().get_value_rx_read_addr());
                self.q_wd.next.set_value_ract(self.one.val().into());
            } else if self.c_tmo.val() {
                // sent = snd_una.
                self.q_we.next = true;
                self.q_wd.next.set_value_sent(self.q_una.val());
            } else if (self.c_op.val() == RX_OP_TIMEOUT) & self.q_valid.val() {
                // A timeout with nothing in flight: nothing to do.
                self.q_we.next = false;
            } else {
                self.i_cbad.next = true;
            }
        } else if self.do_s.val() {
            if self.s_id_ok.val() & self.q_valid.val() {
                if self.s_next.val() {
                    self.q_we.next = true;
                    self.q_wd.next.set_value_sent(self.s_sent1.val());
                } else {
                    self.i_sstale.next = true;
                }
            } else {
                self.i_sdrop.next = true;
            }
        } else if self.do_v.val() & self.hit.val() {
            self.q_we.next = true;
            // Valid, QPN, MTU and its log stay; the rules decided the rest.
            self.q_wd.next.set_value_epsn(self.n_epsn.val());
            self.q_wd.next.set_value_nak(self.n_nak.val().into());
            self.q_wd.next.set_value_act(self.n_act.val().into());
            self.q_wd.next.set_value_addr(self.n_addr.val());
            self.q_wd.next.set_value_left(self.n_left.val());
            self.q_wd.next.set_value_msn(self.n_msn.val());
            self.q_wd.next.set_value_una(self.n_una.val());
            self.q_wd.next.set_value_sent(self.n_sent.val());
            self.q_wd.next.set_value_rd(self.n_rd.val());
            self.q_wd.next.set_value_gap(self.n_gap.val().into());
            self.q_wd.next.set_value_ract(self.n_ract.val().into());
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
        self.n_word.next.set_value_bytes(self.n_pkts.val());
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
            self.r_data.d.next = self.r_word.val();
            self.e_valid.d.next = true;
            self.e_data.d.next = self.e_word.val();
            self.n_valid.d.next = true;
            self.n_data.d.next = self.n_word.val();
        }
        if self.do_v.val() {
            self.d_valid.d.next = true;
            self.d_data.d.next = self.dma_word.val();
            if self.r_send.val() {
                self.r_valid.d.next = true;
                self.r_data.d.next = self.r_word.val();
            }
            if self.e_send.val() {
                self.e_valid.d.next = true;
                self.e_data.d.next = self.e_word.val();
            }
            if self.n_send.val() {
                self.n_valid.d.next = true;
                self.n_data.d.next = self.n_word.val();
            }
        }

        // A stale sent event's packet goes back to the window.
        if self.i_sstale.val() {
            self.n_valid.d.next = true;
            self.n_data.d.next = self.n_one.val();
        }

        // ---- Counters.
        self.i_rec.next = self.do_v.val();
        self.i_pdrop.next = self.do_v.val() & !self.v_ok.val();
        if self.i_rec.val() {
            self.st0.d.next = self.st0.q.val() + 1;
        }
        if self.i_pdrop.val() {
            self.st1.d.next = self.st1.q.val() + 1;
        }
        if self.do_v.val() & self.i_unk.val() {
            self.st2.d.next = self.st2.q.val() + 1;
        }
        if self.do_v.val() & self.i_oos.val() {
            self.st3.d.next = self.st3.q.val() + 1;
        }
        if self.do_v.val() & self.i_dup.val() {
            self.st4.d.next = self.st4.q.val() + 1;
        }
        if self.do_v.val() & self.i_bad.val() {
            self.st5.d.next = self.st5.q.val() + 1;
        }
        if self.do_v.val() & self.i_stale.val() {
            self.st6.d.next = self.st6.q.val() + 1;
        }
        if self.do_v.val() & self.i_nakoth.val() {
            self.st7.d.next = self.st7.q.val() + 1;
        }
        if self.do_v.val() & self.i_unsup.val() {
            self.st8.d.next = self.st8.q.val() + 1;
        }
        if self.i_cbad.val() {
            self.st9.d.next = self.st9.q.val() + 1;
        }
        if self.i_sdrop.val() {
            self.st10.d.next = self.st10.q.val() + 1;
        }
        if self.do_v.val() & self.i_naks.val() {
            self.st11.d.next = self.st11.q.val() + 1;
        }
        if self.do_v.val() & self.i_badresp.val() {
            self.st12.d.next = self.st12.q.val() + 1;
        }
        if self.do_v.val() & self.i_gap.val() {
            self.st13.d.next = self.st13.q.val() + 1;
        }
        if self.i_sstale.val() {
            self.st14.d.next = self.st14.q.val() + 1;
        }
        if self.do_t.val() {
            self.st15.d.next = self.st15.q.val() + 1;
        }
        if self.reset.val() {
            self.swept.d.next = false;
            self.sweep_at.d.next = 0.into();
            self.p_valid.d.next = false;
            self.lw_hit.d.next = false;
            self.r_valid.d.next = false;
            self.e_valid.d.next = false;
            self.n_valid.d.next = false;
            self.m_valid.d.next = false;
            self.d_valid.d.next = false;
            self.st0.d.next = 0.into();
            self.st1.d.next = 0.into();
            self.st2.d.next = 0.into();
            self.st3.d.next = 0.into();
            self.st4.d.next = 0.into();
            self.st5.d.next = 0.into();
            self.st6.d.next = 0.into();
            self.st7.d.next = 0.into();
            self.st8.d.next = 0.into();
            self.st9.d.next = 0.into();
            self.st10.d.next = 0.into();
            self.st11.d.next = 0.into();
            self.st12.d.next = 0.into();
            self.st13.d.next = 0.into();
            self.st14.d.next = 0.into();
            self.st15.d.next = 0.into();
        }
        self.m_axis_pktrecv_tvalid.next = self.r_valid.q.val();
        self.m_axis_pktrecv_tdata.next = self.r_data.q.val();
        self.m_axis_event_tvalid.next = self.e_valid.q.val();
        self.m_axis_event_tdata.next = self.e_data.q.val();
        self.m_axis_notify_tvalid.next = self.m_valid.q.val();
        self.m_axis_notify_tdata.next = self.m_data.q.val();
        self.m_axis_dma_cmd_tvalid.next = self.d_valid.q.val();
        self.m_axis_dma_cmd_tdata.next = self.d_data.q.val();
        self.stat_count.next = 0.into();
        if self.stat_addr.val() == 0 {
            self.stat_count.next = self.st0.q.val();
        }
        if self.stat_addr.val() == 1 {
            self.stat_count.next = self.st1.q.val();
        }
        if self.stat_addr.val() == 2 {
            self.stat_count.next = self.st2.q.val();
        }
        if self.stat_addr.val() == 3 {
            self.stat_count.next = self.st3.q.val();
        }
        if self.stat_addr.val() == 4 {
            self.stat_count.next = self.st4.q.val();
        }
        if self.stat_addr.val() == 5 {
            self.stat_count.next = self.st5.q.val();
        }
        if self.stat_addr.val() == 6 {
            self.stat_count.next = self.st6.q.val();
        }
        if self.stat_addr.val() == 7 {
            self.stat_count.next = self.st7.q.val();
        }
        if self.stat_addr.val() == 8 {
            self.stat_count.next = self.st8.q.val();
        }
        if self.stat_addr.val() == 9 {
            self.stat_count.next = self.st9.q.val();
        }
        if self.stat_addr.val() == 10 {
            self.stat_count.next = self.st10.q.val();
        }
        if self.stat_addr.val() == 11 {
            self.stat_count.next = self.st11.q.val();
        }
        if self.stat_addr.val() == 12 {
            self.stat_count.next = self.st12.q.val();
        }
        if self.stat_addr.val() == 13 {
            self.stat_count.next = self.st13.q.val();
        }
        if self.stat_addr.val() == 14 {
            self.stat_count.next = self.st14.q.val();
        }
        if self.stat_addr.val() == 15 {
            self.stat_count.next = self.st15.q.val();
        }
    }
}
