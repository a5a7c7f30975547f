//! Flow scheduler: credit-based pacing over an active ring, window check, PktSend bursts.
//!
//! Design (docs/modules/flow_sched.md has the full story):
//! - Only created flows sit in the *ring* (a FIFO of flow ids in block RAM), so a lone flow is
//!   revisited every 6 cycles instead of every 2^F cycles of a full table scan.
//! - A visit settles credit lazily, `credit += rate * (now - t_last)`, capped at
//!   `cfg_max_burst` packets, then grants `n = min(credit, window room, max_burst)` packets at
//!   once (a burst). Packet size is a power of two, so counts are shifts, never divisions.
//! - Bursts queue in a 16-deep FIFO and leave one PktSend per clock, so the scheduler as a whole
//!   can issue a PktSend every cycle.
//! - Every per-flow RAM has exactly one writer. Unacknowledged bytes are `sent - acked`, with
//!   `sent` owned by the visit pipeline and `acked` by the Notify pipeline, so neither waits on
//!   the other.

use crate::flow_sched_burst::FlowSchedBurst;
use crate::flow_sched_credit::FlowSchedCredit;
use crate::flow_sched_grant::FlowSchedGrant;
use crate::flow_sched_notify::FlowSchedNotify;
use crate::layout::{FlowCfgNamed, FlowPaceNamed, SchedCtrlFields, SleepFields, UpdateFields};
use rust_hdl::prelude::*;

codes! {
    /// The visit pipeline's op kinds (`sN_kind`), from the model's `Kind`.
    OP_KINDS;
    /// A flow popped from the ring: settle its credit, grant a burst.
    OP_VISIT = sim::flow_sched::Kind::Visit,
    /// Create a flow.
    OP_CREATE = sim::flow_sched::Kind::Create,
    /// Remove a flow.
    OP_REMOVE = sim::flow_sched::Kind::Remove,
    /// A PktSend found nothing to send: the packet returned, the flow asleep.
    OP_IDLE = sim::flow_sched::Kind::Idle,
    /// The flow has something to send again.
    OP_WAKE = sim::flow_sched::Kind::Wake,
}

/// No ring pop while the burst FIFO holds more than this many bursts (16 entries, 5 ops in
/// flight), from the model.
pub const BURST_POP_LIMIT: u64 = sim::flow_sched::BURST_FIFO_POP_LIMIT as u64;

/// Flow scheduler for `2^F` flows (F = 10 gives 1024; F <= 15).
#[derive(LogicBlock, Default)]
pub struct FlowSched<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high. After it the state RAMs are cleared in `2^F` cycles,
    /// during which every `tready` is low.
    pub reset: Signal<In, bool>,
    /// log2 of the packet size in bytes (RoCE path MTUs are powers of two: 8 = 256 B ... 12 = 4 KB),
    /// for flows created without their own (ctrl `[84:81]` = 0).
    pub cfg_pkt_shift: Signal<In, Bits<4>>,
    /// Most packets granted to one flow per visit; also the credit cap (in packets).
    pub cfg_max_burst: Signal<In, Bits<12>>,
    /// Create/remove: `[31:0]` rate (bytes/cycle, UQ16.16), `[63:32]` window (bytes),
    /// `[79:64]` flow, `[80]` 1 = create, 0 = remove, `[84:81]` the flow's log2 packet bytes
    /// (create; 0 = `cfg_pkt_shift`), `[87:85]` zero. Ops with an out-of-range flow or nonzero
    /// reserved bits are accepted and ignored.
    pub s_axis_ctrl_tdata: Signal<In, Bits<88>>,
    /// Create/remove valid.
    pub s_axis_ctrl_tvalid: Signal<In, bool>,
    /// Create/remove ready (high except during reset and RAM clearing).
    pub s_axis_ctrl_tready: Signal<Out, bool>,
    /// Update from the CC module: `[31:0]` rate (UQ16.16 bytes/cycle), `[63:32]` window, `[79:64]` flow.
    pub s_axis_update_tdata: Signal<In, Bits<80>>,
    /// Update valid.
    pub s_axis_update_tvalid: Signal<In, bool>,
    /// Update ready; low while a create/remove is offered (they share the config RAM port).
    pub s_axis_update_tready: Signal<Out, bool>,
    /// Notify (acknowledged bytes): `[31:0]` bytes, `[47:32]` flow.
    pub s_axis_notify_tdata: Signal<In, Bits<48>>,
    /// Notify valid.
    pub s_axis_notify_tvalid: Signal<In, bool>,
    /// Notify ready (high except during reset and RAM clearing).
    pub s_axis_notify_tready: Signal<Out, bool>,
    /// Sleep / wake from the Tx pipe (tx_ctx's `m_axis_sleep`, in the order tx_ctx saw its
    /// events): `[15:0]` flow, `[16]` 0 = idle: a PktSend of this flow found nothing to send, so
    /// its packet of window is returned and the flow gets no grants until woken; 1 = wake: the
    /// flow has something to send again (a post or a go-back-N). Out-of-range flows are ignored.
    pub s_axis_sleep_tdata: Signal<In, Bits<17>>,
    /// Sleep / wake valid.
    pub s_axis_sleep_tvalid: Signal<In, bool>,
    /// Sleep / wake ready; low while a create/remove is offered (they share the pipeline entry).
    pub s_axis_sleep_tready: Signal<Out, bool>,
    /// PktSend: the flow that may send one packet now.
    pub m_axis_pktsend_tdata: Signal<Out, Bits<16>>,
    /// PktSend valid.
    pub m_axis_pktsend_tvalid: Signal<Out, bool>,
    /// PktSend ready from the Tx pipe.
    pub m_axis_pktsend_tready: Signal<In, bool>,

    // Per-flow state. pace: [47:0] credit UQ32.16 bytes, [79:48] t_last, [111:80] sent bytes,
    // [112] active, [113] in ring, [114] asleep, [118:115] log2 packet bytes (0: cfg_pkt_shift).
    pace_ram: RAM<Bits<119>, F>,
    cfg_ram: RAM<Bits<64>, F>,
    // Acked bytes as the visits read them (flow_sched_notify keeps the copy it adds to).
    acked_s_ram: RAM<Bits<32>, F>,
    ring_ram: RAM<Bits<F>, F>,
    credit: FlowSchedCredit<F>,
    grant: FlowSchedGrant<F>,
    burst: FlowSchedBurst<F>,
    notify: FlowSchedNotify<F>,

    now: DFF<Bits<32>>,
    init_busy: DFF<bool>,
    init_addr: DFF<Bits<F>>,
    // Ring of created flows.
    ring_rd: DFF<Bits<F>>,
    ring_wr: DFF<Bits<F>>,
    ring_cnt: DFF<Bits<16>>,
    // Visit/ctrl pipeline: S0 reads the state RAMs, S1 elapsed time, S2 multiplies, S3 credit
    // and window room, S4 grants and writes. Each sK_pace merges the last write on entry.
    s0_valid: DFF<bool>,
    s0_kind: DFF<Bits<3>>,
    s0_flow: DFF<Bits<F>>,
    s0_cshift: DFF<Bits<4>>,
    s1_cshift: DFF<Bits<4>>,
    s2_cshift: DFF<Bits<4>>,
    s3_cshift: DFF<Bits<4>>,
    s4_cshift: DFF<Bits<4>>,
    s1_valid: DFF<bool>,
    s1_kind: DFF<Bits<3>>,
    s1_flow: DFF<Bits<F>>,
    s2_valid: DFF<bool>,
    s2_kind: DFF<Bits<3>>,
    s2_flow: DFF<Bits<F>>,
    s2_pace: DFF<Bits<119>>,
    s2_rate: DFF<Bits<32>>,
    s2_window: DFF<Bits<32>>,
    s2_acked: DFF<Bits<32>>,
    s2_e16: DFF<Bits<16>>,
    s2_now: DFF<Bits<32>>,
    s3_valid: DFF<bool>,
    s3_kind: DFF<Bits<3>>,
    s3_flow: DFF<Bits<F>>,
    s3_pace: DFF<Bits<119>>,
    s3_p_hi: DFF<Bits<32>>,
    s3_p_lo: DFF<Bits<32>>,
    s3_inflight: DFF<Bits<32>>,
    s3_window: DFF<Bits<32>>,
    s3_acked: DFF<Bits<32>>,
    s3_now: DFF<Bits<32>>,
    s3_shift: DFF<Bits<4>>,
    s3_st: DFF<Bits<6>>,
    s3_cap: DFF<Bits<48>>,
    s4_valid: DFF<bool>,
    s4_kind: DFF<Bits<3>>,
    s4_flow: DFF<Bits<F>>,
    s4_pace: DFF<Bits<119>>,
    s4_acked: DFF<Bits<32>>,
    s4_c1: DFF<Bits<48>>,
    s4_n_c: DFF<Bits<12>>,
    s4_n_w: DFF<Bits<12>>,
    s4_now: DFF<Bits<32>>,
    s4_shift: DFF<Bits<4>>,
    s4_st: DFF<Bits<6>>,
    s4_ret: DFF<Bits<32>>,
    // Last pace write, merged by every stage after the RAM read.
    lw_valid: DFF<bool>,
    lw_flow: DFF<Bits<F>>,
    lw_pace: DFF<Bits<119>>,

    ctrl_fire: Signal<Local, bool>,
    ctrl_ok: Signal<Local, bool>,
    sleep_fire: Signal<Local, bool>,
    sleep_ok: Signal<Local, bool>,
    upd_fire: Signal<Local, bool>,
    /// The flow fields of the ctrl, update and sleep words (16 bits; >= 2^F is ignored).
    c_flow: Signal<Local, Bits<16>>,
    u_flow: Signal<Local, Bits<16>>,
    sl_flow: Signal<Local, Bits<16>>,
    pop: Signal<Local, bool>,
    s0_flow_eff: Signal<Local, Bits<F>>,
    s1_pace: Signal<Local, Bits<119>>,
    elapsed: Signal<Local, Bits<32>>,
    s2_pace_f: Signal<Local, Bits<119>>,
    inflight: Signal<Local, Bits<32>>,
    shift: Signal<Local, Bits<4>>,
    st: Signal<Local, Bits<6>>,
}

impl<const F: usize> Logic for FlowSched<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, now, init_busy, init_addr, ring_rd, ring_wr, ring_cnt, s0_valid, s0_kind, s0_flow, s0_cshift, s1_cshift, s2_cshift, s3_cshift, s4_cshift, s1_valid,
            s1_kind, s1_flow, s2_valid, s2_kind, s2_flow, s2_pace, s2_rate, s2_window, s2_acked,
            s2_e16, s2_now, s3_valid, s3_kind, s3_flow, s3_pace, s3_p_hi, s3_p_lo, s3_inflight,
            s3_window, s3_acked, s3_now, s3_shift, s3_st, s3_cap, s4_valid, s4_kind, s4_flow,
            s4_pace, s4_acked, s4_c1, s4_n_c, s4_n_w, s4_now, s4_shift, s4_st, s4_ret, lw_valid, lw_flow,
            lw_pace
        );
        self.pace_ram.read_clock.next = self.clock.val();
        self.pace_ram.write_clock.next = self.clock.val();
        self.cfg_ram.read_clock.next = self.clock.val();
        self.cfg_ram.write_clock.next = self.clock.val();
        self.acked_s_ram.read_clock.next = self.clock.val();
        self.acked_s_ram.write_clock.next = self.clock.val();
        self.ring_ram.read_clock.next = self.clock.val();
        self.ring_ram.write_clock.next = self.clock.val();
        self.now.d.next = self.now.q.val() + 1;

        // ---- Input handshakes. Ctrl has the config RAM port before Update.
        self.s_axis_ctrl_tready.next = !self.reset.val() & !self.init_busy.q.val();
        self.s_axis_update_tready.next =
            !self.reset.val() & !self.init_busy.q.val() & !self.s_axis_ctrl_tvalid.val();
        self.ctrl_fire.next = self.s_axis_ctrl_tvalid.val() & self.s_axis_ctrl_tready.val();
        self.c_flow.next = self.s_axis_ctrl_tdata.val().get_value_flow();
        self.u_flow.next = self.s_axis_update_tdata.val().get_value_flow();
        self.sl_flow.next = self.s_axis_sleep_tdata.val().get_value_flow();
        self.ctrl_ok.next = self.ctrl_fire.val()
            & (self.s_axis_ctrl_tdata.val().get_value_reserved() == 0)
            & (bit_cast::<16, F>(self.c_flow.val().get_bits::<F>(0)) == self.c_flow.val());
        self.s_axis_sleep_tready.next =
            !self.reset.val() & !self.init_busy.q.val() & !self.s_axis_ctrl_tvalid.val();
        self.sleep_fire.next = self.s_axis_sleep_tvalid.val() & self.s_axis_sleep_tready.val();
        self.sleep_ok.next = self.sleep_fire.val()
            & (bit_cast::<16, F>(self.sl_flow.val().get_bits::<F>(0)) == self.sl_flow.val());
        self.upd_fire.next = self.s_axis_update_tvalid.val()
            & self.s_axis_update_tready.val()
            & (bit_cast::<16, F>(self.u_flow.val().get_bits::<F>(0)) == self.u_flow.val());

        // ---- Config RAM (sim::layout::FLOW_CFG): one write port shared by create and update.
        self.cfg_ram.write_enable.next = false;
        self.cfg_ram.write_address.next = self.u_flow.val().get_bits::<F>(0);
        self.cfg_ram.write_data.next.set_value_flow_cfg_rate(self.s_axis_update_tdata.val().get_value_rate());
        self.cfg_ram.write_data.next.set_value_flow_cfg_window(self.s_axis_update_tdata.val().get_value_window());
        if self.ctrl_ok.val() & self.s_axis_ctrl_tdata.val().get_value_create() {
            self.cfg_ram.write_enable.next = true;
            self.cfg_ram.write_address.next = self.c_flow.val().get_bits::<F>(0);
            self.cfg_ram.write_data.next.set_value_flow_cfg_rate(self.s_axis_ctrl_tdata.val().get_value_rate());
            self.cfg_ram.write_data.next.set_value_flow_cfg_window(self.s_axis_ctrl_tdata.val().get_value_window());
        } else if self.upd_fire.val() {
            self.cfg_ram.write_enable.next = true;
        }

        // ---- Notify: acked bytes, into both copies (flow_sched_notify).
        self.notify.clock.next = self.clock.val();
        self.notify.reset.next = self.reset.val();
        self.notify.init_busy.next = self.init_busy.q.val();
        self.notify.init_addr.next = self.init_addr.q.val();
        self.notify.s_axis_notify_tdata.next = self.s_axis_notify_tdata.val();
        self.notify.s_axis_notify_tvalid.next = self.s_axis_notify_tvalid.val();
        self.s_axis_notify_tready.next = self.notify.s_axis_notify_tready.val();
        self.acked_s_ram.write_enable.next = self.notify.acked_we.val();
        self.acked_s_ram.write_address.next = self.notify.acked_addr.val();
        self.acked_s_ram.write_data.next = self.notify.acked_data.val();

        // ---- P: a ctrl op, else a sleep / wake, else a ring pop. No pop while a create or
        // remove is in S0..S3: then none of them lands between a visit's RAM read and its own
        // write, so a visit's credit and clock never need the bypass. Idle and wake ops only
        // change sent, asleep and in-ring, which the visit takes merged (S2, S4). No pop either
        // while the burst FIFO could overflow from ops in flight.
        self.pop.next = !self.ctrl_fire.val()
            & !self.sleep_fire.val()
            & !self.init_busy.q.val()
            & (self.ring_cnt.q.val() != 0)
            & (self.burst.count.val() <= BURST_POP_LIMIT)
            & !(self.s0_valid.q.val() & ((self.s0_kind.q.val() == OP_CREATE) | (self.s0_kind.q.val() == OP_REMOVE)))
            & !(self.s1_valid.q.val() & ((self.s1_kind.q.val() == OP_CREATE) | (self.s1_kind.q.val() == OP_REMOVE)))
            & !(self.s2_valid.q.val() & ((self.s2_kind.q.val() == OP_CREATE) | (self.s2_kind.q.val() == OP_REMOVE)))
            & !(self.s3_valid.q.val() & ((self.s3_kind.q.val() == OP_CREATE) | (self.s3_kind.q.val() == OP_REMOVE)));
        self.ring_ram.read_address.next = self.ring_rd.q.val();
        if self.pop.val() {
            self.ring_rd.d.next = self.ring_rd.q.val() + 1;
        }
        self.s0_valid.d.next = self.pop.val() | self.ctrl_ok.val() | self.sleep_ok.val();
        self.s0_flow.d.next = self.c_flow.val().get_bits::<F>(0);
        self.s0_cshift.d.next = self.s_axis_ctrl_tdata.val().get_value_pkt_shift();
        self.s1_cshift.d.next = self.s0_cshift.q.val();
        self.s2_cshift.d.next = self.s1_cshift.q.val();
        self.s3_cshift.d.next = self.s2_cshift.q.val();
        self.s4_cshift.d.next = self.s3_cshift.q.val();
        if self.ctrl_ok.val() {
            if self.s_axis_ctrl_tdata.val().get_value_create() {
                self.s0_kind.d.next = OP_CREATE.into();
            } else {
                self.s0_kind.d.next = OP_REMOVE.into();
            }
        } else if self.sleep_ok.val() {
            self.s0_flow.d.next = self.sl_flow.val().get_bits::<F>(0);
            if self.s_axis_sleep_tdata.val().get_value_wake() {
                self.s0_kind.d.next = OP_WAKE.into();
            } else {
                self.s0_kind.d.next = OP_IDLE.into();
            }
        } else {
            self.s0_kind.d.next = OP_VISIT.into();
        }

        // ---- S0: the flow is known; read its state.
        self.s0_flow_eff.next = self.s0_flow.q.val();
        if self.s0_kind.q.val() == OP_VISIT {
            self.s0_flow_eff.next = self.ring_ram.read_data.val();
        }
        self.pace_ram.read_address.next = self.s0_flow_eff.val();
        self.cfg_ram.read_address.next = self.s0_flow_eff.val();
        self.acked_s_ram.read_address.next = self.s0_flow_eff.val();
        self.s1_valid.d.next = self.s0_valid.q.val();
        self.s1_kind.d.next = self.s0_kind.q.val();
        self.s1_flow.d.next = self.s0_flow_eff.val();

        // ---- S1: merge the write the RAM read missed; cycles since the last write.
        self.s1_pace.next = self.pace_ram.read_data.val();
        if self.lw_valid.q.val() & (self.lw_flow.q.val() == self.s1_flow.q.val()) {
            self.s1_pace.next = self.lw_pace.q.val();
        }
        self.elapsed.next = self.now.q.val() - self.s1_pace.val().get_value_flow_pace_t_last();
        self.s2_e16.d.next = self.elapsed.val().get_bits::<16>(0);
        if self.elapsed.val().get_bits::<16>(16) != 0 {
            self.s2_e16.d.next = 0xFFFF.into();
        }
        self.s2_valid.d.next = self.s1_valid.q.val();
        self.s2_kind.d.next = self.s1_kind.q.val();
        self.s2_flow.d.next = self.s1_flow.q.val();
        self.s2_pace.d.next = self.s1_pace.val();
        self.s2_rate.d.next = self.cfg_ram.read_data.val().get_value_flow_cfg_rate();
        self.s2_window.d.next = self.cfg_ram.read_data.val().get_value_flow_cfg_window();
        self.s2_acked.d.next = self.acked_s_ram.read_data.val();
        self.s2_now.d.next = self.now.q.val();

        // ---- S2: rate * elapsed (two DSPs), bytes in flight, configuration sampled.
        self.s2_pace_f.next = self.s2_pace.q.val();
        if self.lw_valid.q.val() & (self.lw_flow.q.val() == self.s2_flow.q.val()) {
            self.s2_pace_f.next = self.lw_pace.q.val();
        }
        self.s3_p_hi.d.next = self.s2_rate.q.val().get_bits::<16>(16) * self.s2_e16.q.val();
        self.s3_p_lo.d.next = self.s2_rate.q.val().get_bits::<16>(0) * self.s2_e16.q.val();
        // Bytes in flight from the merged sent (an idle op may have just returned a packet);
        // a write landing after this (S3, S4) is not seen: the model samples sent here too.
        self.inflight.next = self.s2_pace_f.val().get_value_flow_pace_sent() - self.s2_acked.q.val();
        self.s3_inflight.d.next = self.inflight.val();
        if self.inflight.val().get_bit(31) {
            self.s3_inflight.d.next = 0.into();
        }
        // The flow's packet size, or the configured one.
        self.shift.next = self.s2_pace_f.val().get_value_flow_pace_shift();
        if self.shift.val() == 0 {
            self.shift.next = self.cfg_pkt_shift.val();
        }
        self.st.next = bit_cast::<6, 4>(self.shift.val()) + 16;
        self.s3_st.d.next = self.st.val();
        self.s3_shift.d.next = self.shift.val();
        self.s3_cap.d.next = bit_cast::<48, 12>(self.cfg_max_burst.val()) << self.st.val();
        self.s3_valid.d.next = self.s2_valid.q.val();
        self.s3_kind.d.next = self.s2_kind.q.val();
        self.s3_flow.d.next = self.s2_flow.q.val();
        self.s3_pace.d.next = self.s2_pace_f.val();
        self.s3_window.d.next = self.s2_window.q.val();
        self.s3_acked.d.next = self.s2_acked.q.val();
        self.s3_now.d.next = self.s2_now.q.val();

        // ---- S3: credit (capped) and window room, each as a packet count (flow_sched_credit).
        self.credit.op_flow.next = self.s3_flow.q.val();
        self.credit.op_pace.next = self.s3_pace.q.val();
        self.credit.lw_valid.next = self.lw_valid.q.val();
        self.credit.lw_flow.next = self.lw_flow.q.val();
        self.credit.lw_pace.next = self.lw_pace.q.val();
        self.credit.p_hi.next = self.s3_p_hi.q.val();
        self.credit.p_lo.next = self.s3_p_lo.q.val();
        self.credit.inflight.next = self.s3_inflight.q.val();
        self.credit.window.next = self.s3_window.q.val();
        self.credit.shift.next = self.s3_shift.q.val();
        self.credit.st.next = self.s3_st.q.val();
        self.credit.cap.next = self.s3_cap.q.val();
        self.s4_c1.d.next = self.credit.c1.val();
        self.s4_n_c.d.next = self.credit.n_c.val();
        self.s4_n_w.d.next = self.credit.n_w.val();
        self.s4_ret.d.next = self.credit.ret.val();
        self.s4_valid.d.next = self.s3_valid.q.val();
        self.s4_kind.d.next = self.s3_kind.q.val();
        self.s4_flow.d.next = self.s3_flow.q.val();
        self.s4_pace.d.next = self.credit.pace.val();
        self.s4_acked.d.next = self.s3_acked.q.val();
        self.s4_now.d.next = self.s3_now.q.val();
        self.s4_shift.d.next = self.s3_shift.q.val();
        self.s4_st.d.next = self.s3_st.q.val();

        // ---- S4: grant, write back, queue the burst (flow_sched_grant).
        self.grant.op_valid.next = self.s4_valid.q.val();
        self.grant.op_kind.next = self.s4_kind.q.val();
        self.grant.op_flow.next = self.s4_flow.q.val();
        self.grant.op_pace.next = self.s4_pace.q.val();
        self.grant.lw_valid.next = self.lw_valid.q.val();
        self.grant.lw_flow.next = self.lw_flow.q.val();
        self.grant.lw_pace.next = self.lw_pace.q.val();
        self.grant.acked.next = self.s4_acked.q.val();
        self.grant.c1.next = self.s4_c1.q.val();
        self.grant.n_c.next = self.s4_n_c.q.val();
        self.grant.n_w.next = self.s4_n_w.q.val();
        self.grant.now.next = self.s4_now.q.val();
        self.grant.shift.next = self.s4_shift.q.val();
        self.grant.st.next = self.s4_st.q.val();
        self.grant.ret.next = self.s4_ret.q.val();
        self.grant.cshift.next = self.s4_cshift.q.val();
        self.pace_ram.write_enable.next = self.s4_valid.q.val();
        self.pace_ram.write_address.next = self.s4_flow.q.val();
        self.pace_ram.write_data.next = self.grant.new_pace.val();
        self.lw_valid.d.next = self.s4_valid.q.val();
        self.lw_flow.d.next = self.s4_flow.q.val();
        self.lw_pace.d.next = self.grant.new_pace.val();

        self.ring_ram.write_enable.next = self.grant.ring_push.val();
        self.ring_ram.write_address.next = self.ring_wr.q.val();
        self.ring_ram.write_data.next = self.s4_flow.q.val();
        if self.grant.ring_push.val() {
            self.ring_wr.d.next = self.ring_wr.q.val() + 1;
        }
        if self.grant.ring_push.val() & !self.pop.val() {
            self.ring_cnt.d.next = self.ring_cnt.q.val() + 1;
        }
        if !self.grant.ring_push.val() & self.pop.val() {
            self.ring_cnt.d.next = self.ring_cnt.q.val() - 1;
        }

        // ---- Burst FIFO and expander (flow_sched_burst).
        self.burst.clock.next = self.clock.val();
        self.burst.reset.next = self.reset.val();
        self.burst.push.next = self.grant.burst_push.val();
        self.burst.push_flow.next = self.s4_flow.q.val();
        self.burst.push_n.next = self.grant.n.val();
        self.m_axis_pktsend_tdata.next = self.burst.m_axis_pktsend_tdata.val();
        self.m_axis_pktsend_tvalid.next = self.burst.m_axis_pktsend_tvalid.val();
        self.burst.m_axis_pktsend_tready.next = self.m_axis_pktsend_tready.val();

        // ---- RAM clearing after reset: every RAM is zero before the first op.
        if self.init_busy.q.val() {
            self.init_addr.d.next = self.init_addr.q.val() + 1;
            if self.init_addr.q.val().all() {
                self.init_busy.d.next = false;
            }
            self.pace_ram.write_enable.next = true;
            self.pace_ram.write_address.next = self.init_addr.q.val();
            self.pace_ram.write_data.next = 0.into();
            self.cfg_ram.write_enable.next = true;
            self.cfg_ram.write_address.next = self.init_addr.q.val();
            self.cfg_ram.write_data.next = 0.into();
            self.acked_s_ram.write_enable.next = true;
            self.acked_s_ram.write_address.next = self.init_addr.q.val();
            self.acked_s_ram.write_data.next = 0.into();
        }
        if self.reset.val() {
            self.now.d.next = 0.into();
            self.init_busy.d.next = true;
            self.init_addr.d.next = 0.into();
            self.ring_rd.d.next = 0.into();
            self.ring_wr.d.next = 0.into();
            self.ring_cnt.d.next = 0.into();
            self.s0_valid.d.next = false;
            self.s1_valid.d.next = false;
            self.s2_valid.d.next = false;
            self.s3_valid.d.next = false;
            self.s4_valid.d.next = false;
            self.lw_valid.d.next = false;
        }
    }
}
