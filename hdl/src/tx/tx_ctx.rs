//! Tx pipe, flow context (issue 5, Tx step 2, part 1): per-flow context RAM in front of
//! `tx_pipe`. PktSend(flow) -> the flow's next RDMA WRITE packet as a 1024-bit `tx_pipe`
//! descriptor on `m_axis_desc` plus a DMA read request (address, length) for its payload on
//! `m_axis_dma_rd`. Golden model `sim::tx_ctx` (docs/modules/tx_ctx.md).
//!
//! ```text
//! S1  s_axis_ctrl (create / remove / post) > s_axis_pktrecv > s_axis_pktsend: priority,
//!     address -> ctx BRAM, msg BRAM read; the input into the P registers; forwarding selects
//! S2  words (BRAM, or last cycle's writes forwarded) -> next packet (opcode, length, PSN, ECN,
//!     RETH) or ACK / NAK -> BRAM write-back + output registers -> m_axis_desc, m_axis_dma_rd
//! ```
//!
//! A PktRecv of kind 1 is a go-back-N (a NAK received for the flow's requests): if its PSN
//! lies in the posted message's sent range the flow's next PSN and byte offset go back to it
//! (k x MTU, k = PSN - first PSN), so the next PktSend resends from there. Kind 2 (a probe
//! received) gives a telemetry response descriptor (0xC1) and kind 3 (a probe request from the
//! CC module) a probe descriptor (0xC0) at the flow's next PSN, for flows in probe mode.
//! A flow whose posted message is a READ sends READ requests (0x0C), one per PktSend, each for
//! the next MTU of the message; kind 4 (one packet of a READ request received, cut by
//! read_split) gives a READ response (Only 0x10, or First / Middle / Last) with its payload
//! read over the DMA read interface.
//!
//! Every event reads the flow's words in S1 and writes them in S2; the writes of the previous
//! cycle are forwarded, so back-to-back PktSends of one flow need no spacing. A PktRecv or
//! PktSend waits in S2 (and S1 takes nothing) while an output register it needs is full. After
//! reset (and at power-up) the block sweeps the msg RAM for 2^F cycles, clearing every flow,
//! with every input not ready.

use crate::layout::{DmaRdFields, PktRecvNamed, ReadRespNamed, SentFields, SleepFields, TxCreateNamed, TxFlowFields, TxMsgFields};
use crate::tx_ctx_ack::TxCtxAck;
use crate::tx_ctx_ctrl::TxCtxCtrl;
use crate::tx_ctx_pick::TxCtxPick;
use crate::tx_ctx_pkt::TxCtxPkt;
use crate::tx_ctx_rewind::TxCtxRewind;
use crate::ram_fwd::RamFwd;
use rust_hdl::prelude::*;

/// Bits of `p_kind`: which input S1 took.
pub const PICK_BITS: usize = 2;

codes! {
    /// Control word ops (`layout::TX_CREATE.op`; 0 is bad).
    TX_OPS;
    TX_OP_CREATE = sim::tx_ctx::OP_CREATE,
    TX_OP_REMOVE = sim::tx_ctx::OP_REMOVE,
    TX_OP_POST = sim::tx_ctx::OP_POST,
}

codes! {
    /// PktRecv kinds (`layout::PKT_RECV.kind`; 6 and 7 are dropped).
    RECV_KINDS;
    RECV_ACK = sim::tx_ctx::RECV_ACK,
    RECV_REWIND = sim::tx_ctx::RECV_REWIND,
    RECV_RESPONSE = sim::tx_ctx::RECV_RESPONSE,
    RECV_PROBE = sim::tx_ctx::RECV_PROBE,
    RECV_READ = sim::tx_ctx::RECV_READ,
    RECV_CNP = sim::tx_ctx::RECV_CNP,
}

codes! {
    /// A READ response's position (`layout::READ_RESP.pos`, `sim::tx_ctx::ReadPos`), which
    /// picks its opcode; read_split writes it.
    READ_POSITIONS;
    POS_ONLY = sim::tx_ctx::ReadPos::Only,
    POS_FIRST = sim::tx_ctx::ReadPos::First,
    POS_MIDDLE = sim::tx_ctx::ReadPos::Middle,
    POS_LAST = sim::tx_ctx::ReadPos::Last,
}

codes! {
    /// Which input S1 took (`p_kind`; 0 none), in priority order.
    TX_PICKS;
    TX_PICK_CTRL = 1,
    TX_PICK_RECV = 2,
    TX_PICK_SEND = 3,
}

/// ctx RAM word (`sim::layout::TX_FLOW`).
pub const CTX_BITS: usize = 320;
/// msg RAM word (`sim::layout::TX_MSG`).
pub const MSG_BITS: usize = 323;

/// See the module doc. `F`: log2 of the flow count.
#[derive(LogicBlock)]
pub struct TxCtx<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empties the output registers, clears the counters and starts the
    /// 2^F-cycle sweep that clears every flow.
    pub reset: Signal<In, bool>,
    /// Control word (layout in docs/modules/tx_ctx.md): [1:0] op (1 create, 2 remove, 3 post),
    /// [31:16] flow, then the op's fields from bit 64.
    pub s_axis_ctrl_tdata: Signal<In, Bits<512>>,
    /// A control word is offered.
    pub s_axis_ctrl_tvalid: Signal<In, bool>,
    /// The control word is taken: no sweep, and S2 not holding a PktRecv or PktSend that waits
    /// for an output register.
    pub s_axis_ctrl_tready: Signal<Out, bool>,
    /// PktSend: [15:0] the flow allowed to send one packet (flow_sched's format).
    pub s_axis_pktsend_tdata: Signal<In, Bits<16>>,
    /// A PktSend is offered.
    pub s_axis_pktsend_tvalid: Signal<In, bool>,
    /// The PktSend is taken: no control word or PktRecv offered, no sweep, S2 not waiting
    /// (combinational from the `m_axis_*_tready` when S2 holds a PktRecv or PktSend).
    pub s_axis_pktsend_tready: Signal<Out, bool>,
    /// PktRecv from the Rx pipe (kinds 0-2, 4) or the CC module (kind 3); layout in
    /// docs/modules/tx_ctx.md: [15:0] flow, [16] telemetry echo, [19:17] kind, [55:32] PSN and
    /// [95:64] AETH as descriptor bytes 36..38 and 40..43, [103:96] nhop, [447:128] hop slots
    /// as descriptor bytes 64..103. Kind 0: send this ACK / NAK. Kind 1: go-back-N (a NAK
    /// received for the flow's requests), no descriptor; the flow sends again from PSN [55:32]
    /// if it lies in the sent range. Kind 2: send a telemetry response (0xC1) with this PSN and
    /// these hops, AETH ignored. Kind 3: send a probe (0xC0) at the flow's next PSN if the flow
    /// is in probe mode; only the flow is used. Kind 4: send a READ response, opcode by [25:24]
    /// (0 Only 0x10, 1 First 0x0D, 2 Middle 0x0E, 3 Last 0x0F), with this PSN and AETH and
    /// [125:112] bytes read from host address [511:448] (a DMA read).
    /// Kind 5: send a CNP (0x81) to the flow's peer; only the flow is used. Kinds 6 and 7 are
    /// dropped.
    pub s_axis_pktrecv_tdata: Signal<In, Bits<512>>,
    /// A PktRecv is offered.
    pub s_axis_pktrecv_tvalid: Signal<In, bool>,
    /// The PktRecv is taken: no control word offered, no sweep, S2 not waiting. It has priority
    /// over PktSend.
    pub s_axis_pktrecv_tready: Signal<Out, bool>,
    /// tx_pipe descriptor, 128 bytes, byte i at [8i+7:8i] (`sim::tx_pipe::TxDesc::to_bytes`).
    pub m_axis_desc_tdata: Signal<Out, Bits<1024>>,
    /// A descriptor is offered (registered).
    pub m_axis_desc_tvalid: Signal<Out, bool>,
    /// tx_pipe takes the descriptor.
    pub m_axis_desc_tready: Signal<In, bool>,
    /// DMA read request: [63:0] host address, [77:64] length in bytes (1..16383),
    /// [95:80] flow; one per descriptor with a nonzero payload, in descriptor order.
    pub m_axis_dma_rd_tdata: Signal<Out, Bits<128>>,
    /// A DMA read request is offered (registered).
    pub m_axis_dma_rd_tvalid: Signal<Out, bool>,
    /// The DMA engine takes the request.
    pub m_axis_dma_rd_tready: Signal<In, bool>,
    /// Sent event for rx_ctx's `s_axis_sent`: [15:0] flow, [39:16] PSN of every WRITE packet
    /// or READ request a PktSend produced, in descriptor order.
    pub m_axis_sent_tdata: Signal<Out, Bits<40>>,
    /// A sent event is offered (registered).
    pub m_axis_sent_tvalid: Signal<Out, bool>,
    /// rx_ctx takes the sent event.
    pub m_axis_sent_tready: Signal<In, bool>,
    /// For flow_sched's `s_axis_sleep`: [15:0] flow, [16] 0 = idle (a PktSend found nothing to
    /// send: the one counted in `stat_drop`), 1 = wake (a post, or a go-back-N that rewound).
    /// In the order the events were done, so a wake always follows the idles it cancels.
    pub m_axis_sleep_tdata: Signal<Out, Bits<17>>,
    /// A sleep / wake report is offered (registered).
    pub m_axis_sleep_tvalid: Signal<Out, bool>,
    /// flow_sched takes the report.
    pub m_axis_sleep_tready: Signal<In, bool>,
    /// PktSends dropped: flow id >= 2^F, no context, or nothing left to send (wraps).
    pub stat_drop: Signal<Out, Bits<32>>,
    /// PktRecvs other than go-back-N dropped: flow id >= 2^F, no context, a probe request for a
    /// flow not in probe mode, kinds 6 and 7 (wraps).
    pub stat_recv_drop: Signal<Out, Bits<32>>,
    /// Go-back-N events ignored: flow id >= 2^F, no context, or PSN outside the posted
    /// message's sent range (wraps).
    pub stat_nak_ignored: Signal<Out, Bits<32>>,
    /// Control words ignored: op 0, flow id >= 2^F, MTU 0 on create, post or remove of a flow
    /// without context (wraps).
    pub stat_ctrl_bad: Signal<Out, Bits<32>>,

    ctx: RAM<Bits<CTX_BITS>, F>,
    msg: RAM<Bits<MSG_BITS>, F>,
    p_valid: DFF<bool>,
    p_kind: DFF<Bits<PICK_BITS>>,
    p_addr: DFF<Bits<F>>,
    p_ctrl: DFF<Bits<512>>,
    p_recv: DFF<Bits<512>>,
    /// The descriptor of an answer to a PktRecv (combinational, S2).
    ack: TxCtxAck,
    /// S1's choice and S2's go-ahead (combinational).
    pick: TxCtxPick<F>,
    /// The next request packet, go-back-N, and control words (combinational, S2).
    pkt: TxCtxPkt,
    rewind: TxCtxRewind,
    ctrl: TxCtxCtrl,
    /// The flow's words: BRAM or last written (combinational, S2).
    ctx_fwd: RamFwd<CTX_BITS>,
    msg_fwd: RamFwd<MSG_BITS>,
    p_send: DFF<Bits<16>>,
    /// S2's flow's context / message word is the one written last cycle (decided then, so
    /// that S2 starts with registered selects rather than an address compare).
    lw_ctx: DFF<bool>,
    lw_msg: DFF<bool>,
    /// The flow S2 takes next cycle is the one it holds now.
    same_a2: Signal<Local, bool>,
    lw_cdata: DFF<Bits<CTX_BITS>>,
    lw_mdata: DFF<Bits<MSG_BITS>>,
    a2: Signal<Local, Bits<F>>,
    c_we: Signal<Local, bool>,
    c_wd: Signal<Local, Bits<CTX_BITS>>,
    m_we: Signal<Local, bool>,
    m_wd: Signal<Local, Bits<MSG_BITS>>,
    swept: DFF<bool>,
    sweep_at: DFF<Bits<F>>,
    d_valid: DFF<bool>,
    d_data: DFF<Bits<1024>>,
    r_valid: DFF<bool>,
    r_data: DFF<Bits<128>>,
    s_valid: DFF<bool>,
    s_data: DFF<Bits<40>>,
    s2_valid: DFF<bool>,
    s2_data: DFF<Bits<40>>,
    s_word: Signal<Local, Bits<40>>,
    w_valid: DFF<bool>,
    w_data: DFF<Bits<17>>,
    a16: Signal<Local, Bits<16>>,
    drops: DFF<Bits<32>>,
    ctrl_bad: DFF<Bits<32>>,
    recv_drops: DFF<Bits<32>>,
    nak_ign: DFF<Bits<32>>,
    g_rew: Signal<Local, bool>,
    g_ok: Signal<Local, bool>,
    r_flow: Signal<Local, Bits<16>>,
    r_id_ok: Signal<Local, bool>,
    ack_send: Signal<Local, bool>,
    r_kind: Signal<Local, Bits<3>>,
    t_probe: Signal<Local, bool>,

    c_op: Signal<Local, Bits<2>>,
    c_flow: Signal<Local, Bits<16>>,
    p_flow: Signal<Local, Bits<16>>,
    wr_addr: Signal<Local, Bits<F>>,
    c_id_ok: Signal<Local, bool>,
    p_id_ok: Signal<Local, bool>,
    c_ok: Signal<Local, bool>,
    // Read words and their fields.
    mw: Signal<Local, Bits<MSG_BITS>>,
    m_valid: Signal<Local, bool>,
    m_pend: Signal<Local, bool>,
    m_psn: Signal<Local, Bits<24>>,
    // The next packet.
    send: Signal<Local, bool>,
}

impl<const F: usize> Default for TxCtx<F> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            s_axis_ctrl_tdata: Default::default(),
            s_axis_ctrl_tvalid: Default::default(),
            s_axis_ctrl_tready: Default::default(),
            s_axis_pktsend_tdata: Default::default(),
            s_axis_pktsend_tvalid: Default::default(),
            s_axis_pktsend_tready: Default::default(),
            s_axis_pktrecv_tdata: Default::default(),
            s_axis_pktrecv_tvalid: Default::default(),
            s_axis_pktrecv_tready: Default::default(),
            stat_recv_drop: Default::default(),
            m_axis_desc_tdata: Default::default(),
            m_axis_desc_tvalid: Default::default(),
            m_axis_desc_tready: Default::default(),
            m_axis_dma_rd_tdata: Default::default(),
            m_axis_dma_rd_tvalid: Default::default(),
            m_axis_dma_rd_tready: Default::default(),
            m_axis_sent_tdata: Default::default(),
            m_axis_sent_tvalid: Default::default(),
            m_axis_sent_tready: Default::default(),
            m_axis_sleep_tdata: Default::default(),
            m_axis_sleep_tvalid: Default::default(),
            m_axis_sleep_tready: Default::default(),
            w_valid: Default::default(),
            w_data: Default::default(),
            a16: Default::default(),
            s_valid: Default::default(),
            s_data: Default::default(),
            s2_valid: Default::default(),
            s2_data: Default::default(),
            s_word: Default::default(),
            stat_drop: Default::default(),
            stat_ctrl_bad: Default::default(),
            ctx: Default::default(),
            msg: Default::default(),
            p_valid: Default::default(),
            p_kind: Default::default(),
            p_addr: Default::default(),
            p_ctrl: Default::default(),
            p_recv: Default::default(),
            ack: Default::default(),
            pick: Default::default(),
            pkt: Default::default(),
            rewind: Default::default(),
            ctrl: Default::default(),
            ctx_fwd: Default::default(),
            msg_fwd: Default::default(),
            p_send: Default::default(),
            lw_ctx: Default::default(),
            lw_msg: Default::default(),
            same_a2: Default::default(),
            lw_cdata: Default::default(),
            lw_mdata: Default::default(),
            a2: Default::default(),
            c_we: Default::default(),
            c_wd: Default::default(),
            m_we: Default::default(),
            m_wd: Default::default(),
            swept: Default::default(),
            sweep_at: Default::default(),
            d_valid: Default::default(),
            d_data: Default::default(),
            r_valid: Default::default(),
            r_data: Default::default(),
            drops: Default::default(),
            ctrl_bad: Default::default(),
            recv_drops: Default::default(),
            nak_ign: Default::default(),
            stat_nak_ignored: Default::default(),
            g_rew: Default::default(),
            g_ok: Default::default(),
            r_flow: Default::default(),
            r_id_ok: Default::default(),
            ack_send: Default::default(),
            r_kind: Default::default(),
            t_probe: Default::default(),
            c_op: Default::default(),
            c_flow: Default::default(),
            p_flow: Default::default(),
            wr_addr: Default::default(),
            c_id_ok: Default::default(),
            p_id_ok: Default::default(),
            c_ok: Default::default(),
            mw: Default::default(),
            m_valid: Default::default(),
            m_pend: Default::default(),
            m_psn: Default::default(),
            send: Default::default(),
        }
    }
}

impl<const F: usize> Logic for TxCtx<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, swept, sweep_at, d_valid, d_data, r_valid, r_data, s_valid, s_data, s2_valid, s2_data, w_valid, w_data, drops, ctrl_bad, recv_drops, nak_ign,
            p_valid, p_kind, p_addr, p_ctrl, p_recv, p_send, lw_ctx, lw_msg, lw_cdata, lw_mdata
        );
        self.ctx.write_clock.next = self.clock.val();
        self.msg.write_clock.next = self.clock.val();
        self.ctx.read_clock.next = self.clock.val();
        self.msg.read_clock.next = self.clock.val();

        // ---- S1: priority control word, then PktRecv (ACK / NAK), then PktSend; one per clock,
        // taken into the P registers while the BRAMs read the flow's words (tx_ctx_pick, which
        // also decides whether S2 is done this cycle).
        self.pick.swept.next = self.swept.q.val();
        self.pick.p_valid.next = self.p_valid.q.val();
        self.pick.p_kind.next = self.p_kind.q.val();
        self.pick.p_addr.next = self.p_addr.q.val();
        self.pick.p_recv_kind.next = self.p_recv.q.val().get_value_pkt_recv_kind();
        self.pick.d_valid.next = self.d_valid.q.val();
        self.pick.d_ready.next = self.m_axis_desc_tready.val();
        self.pick.r_valid.next = self.r_valid.q.val();
        self.pick.r_ready.next = self.m_axis_dma_rd_tready.val();
        self.pick.s_valid.next = self.s_valid.q.val();
        self.pick.s2_valid.next = self.s2_valid.q.val();
        self.pick.s_ready.next = self.m_axis_sent_tready.val();
        self.pick.w_valid.next = self.w_valid.q.val();
        self.pick.w_ready.next = self.m_axis_sleep_tready.val();
        self.pick.ctrl_valid.next = self.s_axis_ctrl_tvalid.val();
        self.pick.ctrl_flow.next = self.s_axis_ctrl_tdata.val().get_value_tx_create_flow();
        self.pick.recv_valid.next = self.s_axis_pktrecv_tvalid.val();
        self.pick.recv_flow.next = self.s_axis_pktrecv_tdata.val().get_value_pkt_recv_flow();
        self.pick.send_valid.next = self.s_axis_pktsend_tvalid.val();
        self.pick.send_flow.next = self.s_axis_pktsend_tdata.val();
        self.s_axis_ctrl_tready.next = self.pick.ctrl_ready.val();
        self.s_axis_pktrecv_tready.next = self.pick.recv_ready.val();
        self.s_axis_pktsend_tready.next = self.pick.send_ready.val();
        if self.pick.go.val() {
            self.p_valid.d.next = self.swept.q.val() & (self.pick.in_kind.val() != 0);
            self.p_kind.d.next = self.pick.in_kind.val();
            self.p_addr.d.next = self.pick.addr.val();
            self.p_ctrl.d.next = self.s_axis_ctrl_tdata.val();
            self.p_recv.d.next = self.s_axis_pktrecv_tdata.val();
            self.p_send.d.next = self.s_axis_pktsend_tdata.val();
        }
        self.ctx.read_address.next = self.pick.next_a2.val();
        self.msg.read_address.next = self.pick.next_a2.val();

        // ---- S2: what the P registers hold, done this cycle.
        self.a2.next = self.p_addr.q.val();
        self.a16.next = bit_cast::<16, F>(self.p_addr.q.val());
        self.r_kind.next = self.p_recv.q.val().get_value_pkt_recv_kind();
        self.c_op.next = self.p_ctrl.q.val().get_value_tx_create_op();
        self.c_flow.next = self.p_ctrl.q.val().get_value_tx_create_flow();
        self.p_flow.next = self.p_send.q.val();
        self.c_id_ok.next = bit_cast::<16, F>(bit_cast::<F, 16>(self.c_flow.val())) == self.c_flow.val();
        self.p_id_ok.next = bit_cast::<16, F>(bit_cast::<F, 16>(self.p_flow.val())) == self.p_flow.val();
        self.r_flow.next = self.p_recv.q.val().get_value_pkt_recv_flow();
        self.g_rew.next = self.r_kind.val() == RECV_REWIND;
        self.r_id_ok.next = bit_cast::<16, F>(bit_cast::<F, 16>(self.r_flow.val())) == self.r_flow.val();

        // ---- The flow's words: the BRAMs', or the ones written last cycle (the BRAMs read
        // before those writes landed).
        self.ctx_fwd.ram.next = self.ctx.read_data.val();
        self.ctx_fwd.last.next = self.lw_cdata.q.val();
        self.ctx_fwd.use_last.next = self.lw_ctx.q.val();
        self.msg_fwd.ram.next = self.msg.read_data.val();
        self.msg_fwd.last.next = self.lw_mdata.q.val();
        self.msg_fwd.use_last.next = self.lw_msg.q.val();
        self.mw.next = self.msg_fwd.w.val();
        self.m_valid.next = self.mw.val().get_value_valid();
        self.m_pend.next = self.mw.val().get_value_pending();
        self.m_psn.next = self.mw.val().get_value_psn();
        self.t_probe.next = self.ctx_fwd.w.val().get_value_probe();

        // ---- The flow's next request packet (tx_ctx_pkt), sent on a PktSend.
        self.pkt.flow.next = self.ctx_fwd.w.val();
        self.pkt.msg.next = self.msg_fwd.w.val();
        self.send.next = self.pick.take_p.val() & self.p_id_ok.val() & self.m_valid.val() & self.m_pend.val();

        // Answers to PktRecvs (ACK / NAK, telemetry response, probe, CNP, READ response): their
        // descriptor and READ payload length are tx_ctx_ack's.
        self.ack_send.next = self.pick.take_r.val()
            & self.r_id_ok.val()
            & self.m_valid.val()
            & ((self.r_kind.val() == RECV_ACK)
                | (self.r_kind.val() == RECV_RESPONSE)
                | ((self.r_kind.val() == RECV_PROBE) & self.t_probe.val())
                | (self.r_kind.val() == RECV_READ)
                | (self.r_kind.val() == RECV_CNP));
        self.ack.recv.next = self.p_recv.q.val();
        self.ack.flow.next = self.ctx_fwd.w.val();
        self.ack.msg.next = self.msg_fwd.w.val();

        // ---- Go-back-N (tx_ctx_rewind) on a PktRecv of kind RECV_REWIND.
        self.rewind.psn.next = self.p_recv.q.val().get_value_pkt_recv_psn();
        self.rewind.mtu.next = self.ctx_fwd.w.val().get_value_mtu();
        self.rewind.msg.next = self.msg_fwd.w.val();
        self.g_ok.next = self.pick.take_r.val()
            & self.g_rew.val()
            & self.r_id_ok.val()
            & self.m_valid.val()
            & self.rewind.in_range.val();

        // ---- Control words (tx_ctx_ctrl); tx_ctx checks the flow id.
        self.ctrl.word.next = self.p_ctrl.q.val();
        self.ctrl.exists.next = self.msg_fwd.w.val().get_value_valid();
        self.ctrl.sent.next = self.msg_fwd.w.val().get_value_sent();
        self.c_ok.next = self.c_id_ok.val() & self.ctrl.ok.val();

        // ---- RAM writes: sweep, control word, or the packet's progress.
        self.wr_addr.next = self.a2.val();
        if !self.swept.q.val() {
            self.wr_addr.next = self.sweep_at.q.val();
        }
        self.ctx.write_address.next = self.wr_addr.val();
        self.c_we.next = self.pick.take_c.val() & self.c_ok.val() & (self.c_op.val() == TX_OP_CREATE);
        self.c_wd.next = self.ctrl.flow_wd.val();
        self.msg.write_address.next = self.wr_addr.val();
        self.m_we.next = false;
        self.m_wd.next = self.mw.val();
        if !self.swept.q.val() {
            self.m_we.next = true;
            self.m_wd.next = 0.into();
            self.sweep_at.d.next = self.sweep_at.q.val() + 1;
            if self.sweep_at.q.val().all() {
                self.swept.d.next = true;
            }
        } else if self.pick.take_c.val() & self.c_ok.val() {
            self.m_we.next = true;
            self.m_wd.next = self.ctrl.msg_wd.val();
        } else if self.send.val() {
            self.m_we.next = true;
            self.m_wd.next = self.pkt.after.val();
        } else if self.g_ok.val() {
            self.m_we.next = true;
            self.m_wd.next = self.rewind.after.val();
        }

        self.ctx.write_enable.next = self.c_we.val();
        self.ctx.write_data.next = self.c_wd.val();
        self.msg.write_enable.next = self.m_we.val();
        self.msg.write_data.next = self.m_wd.val();
        // Forwarded next cycle if S2 then holds this flow again (S1's choice, or a wait).
        self.same_a2.next = self.pick.next_a2.val() == self.a2.val();
        self.lw_ctx.d.next = self.c_we.val() & self.swept.q.val() & self.same_a2.val();
        self.lw_msg.d.next = self.m_we.val() & self.swept.q.val() & self.same_a2.val();
        self.lw_cdata.d.next = self.c_wd.val();
        self.lw_mdata.d.next = self.m_wd.val();

        // ---- Output registers.
        if self.m_axis_desc_tready.val() {
            self.d_valid.d.next = false;
        }
        if self.m_axis_dma_rd_tready.val() {
            self.r_valid.d.next = false;
        }
        if self.pick.s_pop.val() {
            self.s_valid.d.next = self.s2_valid.q.val();
            self.s_data.d.next = self.s2_data.q.val();
            self.s2_valid.d.next = false;
        }
        if self.m_axis_sleep_tready.val() {
            self.w_valid.d.next = false;
        }
        // Reports to flow_sched: idle for a PktSend that sent nothing, wake for a post or a
        // go-back-N that rewound (at most one per event, in event order).
        if self.pick.take_p.val() & !self.send.val() {
            self.w_valid.d.next = true;
            self.w_data.d.next = 0.into();
            self.w_data.d.next.set_value_flow(self.p_flow.val());
        }
        if (self.pick.take_c.val() & self.c_ok.val() & (self.c_op.val() == TX_OP_POST)) | self.g_ok.val() {
            self.w_valid.d.next = true;
            self.w_data.d.next = 0.into();
            self.w_data.d.next.set_value_flow(self.a16.val());
            self.w_data.d.next.set_value_wake(true);
        }
        self.s_word.next = 0.into();
        self.s_word.next.set_value_flow(self.p_flow.val());
        self.s_word.next.set_value_psn(self.m_psn.val());
        if self.send.val() {
            self.d_valid.d.next = true;
            self.d_data.d.next = self.pkt.desc.val();
            if (self.pick.s_pop.val() & !self.s2_valid.q.val()) | (!self.pick.s_pop.val() & !self.s_valid.q.val()) {
                self.s_valid.d.next = true;
                self.s_data.d.next = self.s_word.val();
            } else {
                self.s2_valid.d.next = true;
                self.s2_data.d.next = self.s_word.val();
            }
            if self.pkt.dma.val() {
                self.r_valid.d.next = true;
                self.r_data.d.next = 0.into();
                self.r_data.d.next.set_value_addr(self.pkt.dma_addr.val());
                self.r_data.d.next.set_value_len(self.pkt.plen.val());
                self.r_data.d.next.set_value_flow(self.p_flow.val());
            }
        }
        if self.ack_send.val() {
            self.d_valid.d.next = true;
            self.d_data.d.next = self.ack.desc.val();
            if self.ack.plen.val() != 0 {
                self.r_valid.d.next = true;
                self.r_data.d.next = 0.into();
                self.r_data.d.next.set_value_addr(self.p_recv.q.val().get_value_read_resp_va());
                self.r_data.d.next.set_value_len(self.ack.plen.val());
                self.r_data.d.next.set_value_flow(self.r_flow.val());
            }
        }
        if self.pick.take_r.val() & !self.g_rew.val() & !self.ack_send.val() {
            self.recv_drops.d.next = self.recv_drops.q.val() + 1;
        }
        if self.pick.take_r.val() & self.g_rew.val() & !self.g_ok.val() {
            self.nak_ign.d.next = self.nak_ign.q.val() + 1;
        }
        if self.pick.take_p.val() & !self.send.val() {
            self.drops.d.next = self.drops.q.val() + 1;
        }
        if self.pick.take_c.val() & !self.c_ok.val() {
            self.ctrl_bad.d.next = self.ctrl_bad.q.val() + 1;
        }
        if self.reset.val() {
            self.swept.d.next = false;
            self.sweep_at.d.next = 0.into();
            self.p_valid.d.next = false;
            self.lw_ctx.d.next = false;
            self.lw_msg.d.next = false;
            self.d_valid.d.next = false;
            self.r_valid.d.next = false;
            self.s_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.w_valid.d.next = false;
            self.drops.d.next = 0.into();
            self.ctrl_bad.d.next = 0.into();
            self.recv_drops.d.next = 0.into();
            self.nak_ign.d.next = 0.into();
        }
        self.m_axis_desc_tvalid.next = self.d_valid.q.val();
        self.m_axis_desc_tdata.next = self.d_data.q.val();
        self.m_axis_dma_rd_tvalid.next = self.r_valid.q.val();
        self.m_axis_dma_rd_tdata.next = self.r_data.q.val();
        self.m_axis_sent_tvalid.next = self.s_valid.q.val();
        self.m_axis_sent_tdata.next = self.s_data.q.val();
        self.m_axis_sleep_tvalid.next = self.w_valid.q.val();
        self.m_axis_sleep_tdata.next = self.w_data.q.val();
        self.stat_drop.next = self.drops.q.val();
        self.stat_ctrl_bad.next = self.ctrl_bad.q.val();
        self.stat_recv_drop.next = self.recv_drops.q.val();
        self.stat_nak_ignored.next = self.nak_ign.q.val();
    }
}
