//! The CC module's top (docs/modules/cc_module.md, `## cc_module (top)`): one unified event
//! stream, a per-flow algorithm select, the three verified datapaths (`CcHpcc`, `CcLdcp`,
//! `CcDcqcn`), and one Update stream toward the flow scheduler (flow_sched's
//! `s_axis_update_tdata` format) plus the Rx-HPCC feedback stream.
//!
//! ```text
//! IN   accept an event (tready: not initializing, S1 free or leaving); read the flow's
//!      algorithm (alg RAM, 1 cycle); a create writes the alg RAM on this same edge
//! S1   the event and its flow's algorithm; route: offer the engine's event to the
//!      flow's engine, hold while that engine's tready is low; unused types are dropped
//! ENG  cc_hpcc / cc_ldcp / cc_dcqcn (their own latencies and result FIFOs)
//! OUT  round-robin over the three result streams into the Update register; Rx-HPCC
//!      results with the feedback bit into the feedback register, others dropped
//! ```
//!
//! Read-after-write on the alg RAM needs no bypass: a create writes the RAM on the edge that
//! accepts it, and every later event reads the RAM on its own, strictly later, accepting edge
//! (an event held in S1 re-reads its own flow each cycle, and no event is accepted meanwhile).
//! The only same-edge read and write of one address is a create's own, whose algorithm comes
//! from the event itself.
//!
//! Per-flow order: each engine keeps a flow's results in its events' order and the arbiter
//! keeps each engine's order, so a flow's Updates follow its events while it stays with one
//! engine. Across a re-create that moves the flow to another engine, Updates of events still
//! in flight in the old engine may come out after the new engine's first Updates.

use crate::cc_codes::*;
use crate::cc_dcqcn::{CcDcqcn, DcqcnCfg};
use crate::cc_module_route::CcModuleRoute;
use crate::cc_hpcc::{CcHpcc, HpccCfg};
use crate::cc_ldcp::{CcLdcp, LdcpCfg};
use crate::layout::{
    CcEventFields, DcqcnEventNamed, DcqcnResultFields, FeedbackFields, HpccEventFields,
    HpccResultFields, LdcpEventNamed, LdcpResultFields, UpdateFields,
};
use rust_hdl::prelude::*;

// Event types and algorithm codes: `crate::cc_codes` (EV_*, ALG_*), from sim::cc_module.

/// Cycles from the module's accepting edge to the engine's accepting edge when the engine is
/// ready (the S1 register).
pub const ROUTE_LATENCY: usize = 1;
/// Cycles added after an engine's result appears (the Update / feedback register).
pub const OUT_LATENCY: usize = 1;

/// The CC module for `2^F` flows (F <= 12).
#[derive(LogicBlock, Default)]
pub struct CcModule<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset. Afterwards every flow is set to algorithm 0 (HPCC++ sender) and every
    /// engine's per-flow state to its initial state in `2^F` cycles (from the `cfg_*` values
    /// then), during which `s_axis_event_tready` is low.
    pub reset: Signal<In, bool>,
    /// cc_hpcc's configuration (`HpccCfg`), linked to its `cfg`.
    pub cfg_hpcc: HpccCfg,
    /// cc_ldcp's configuration (`LdcpCfg`), linked to its `cfg`.
    pub cfg_ldcp: LdcpCfg,
    /// cc_dcqcn's configuration (`DcqcnCfg`), linked to its `cfg`.
    pub cfg_dcqcn: DcqcnCfg,
    /// Event: `[15:0]` flow, `[19:16]` type (0 ACK, 1 data-packet telemetry at the receiver,
    /// 2 loss/NAK, 3 timer tick, 4 CNP, 5 tx bytes, 6 create flow, 7..15 unused by every
    /// algorithm), `[20]` ECN-Echo, `[26:24]` hop count, `[63:32]` ACK seq (type 0) or tx bytes
    /// (type 5), `[95:64]` snd_nxt, `[159:96]` time ns, `[479:160]` five 64-bit hop records
    /// (cc_hpcc's layout), `[495:480]` packets acknowledged (type 0, LDCP), `[497:496]`
    /// algorithm (type 6: 0 HPCC++ sender, 1 Rx-HPCC, 2 LDCP, 3 DCQCN). Other bits are
    /// reserved. An event type the flow's algorithm does not use is dropped and counted in
    /// `stat_unused`; a flow >= 2^F is dropped and counted in `stat_bad_flow`.
    pub s_axis_event_tdata: Signal<In, Bits<512>>,
    /// Event valid.
    pub s_axis_event_tvalid: Signal<In, bool>,
    /// Event ready: low during reset and initialization, and while the previous event waits
    /// for its engine (that engine's `s_axis_event_tready` low).
    pub s_axis_event_tready: Signal<Out, bool>,
    /// Update toward flow_sched (its `s_axis_update_tdata`), one per result of the HPCC++
    /// sender, LDCP and DCQCN: `[31:0]` rate UQ16.16 bytes/cycle, `[63:32]` window bytes,
    /// `[79:64]` flow.
    pub m_axis_update_tdata: Signal<Out, Bits<80>>,
    /// Update valid.
    pub m_axis_update_tvalid: Signal<Out, bool>,
    /// Update ready (backpressure reaches the engines' result FIFOs).
    pub m_axis_update_tready: Signal<In, bool>,
    /// Rx-HPCC feedback (the Tx pipe echoes W in ACKs), one per Rx-HPCC result with the
    /// feedback bit set: `[31:0]` W, UQ24.8 bytes, `[47:32]` flow.
    pub m_axis_feedback_tdata: Signal<Out, Bits<48>>,
    /// Feedback valid.
    pub m_axis_feedback_tvalid: Signal<Out, bool>,
    /// Feedback ready (backpressure reaches cc_hpcc's result FIFO).
    pub m_axis_feedback_tready: Signal<In, bool>,
    /// Events dropped for a flow id >= 2^F (never sent to an engine).
    pub stat_bad_flow: Signal<Out, Bits<32>>,
    /// Events dropped because the flow's algorithm does not use their type.
    pub stat_unused: Signal<Out, Bits<32>>,
    hpcc: CcHpcc<F>,
    ldcp: CcLdcp<F>,
    dcqcn: CcDcqcn<F>,
    alg_ram: RAM<Bits<2>, F>,
    init_busy: DFF<bool>,
    init_addr: DFF<Bits<F>>,
    s1_valid: DFF<bool>,
    s1_data: DFF<Bits<512>>,
    bad_cnt: DFF<Bits<32>>,
    unused_cnt: DFF<Bits<32>>,
    upd_valid: DFF<bool>,
    upd_data: DFF<Bits<80>>,
    fb_valid: DFF<bool>,
    fb_data: DFF<Bits<48>>,
    rr_last: DFF<Bits<2>>,
    in_flow: Signal<Local, Bits<16>>,
    in_ok: Signal<Local, bool>,
    fire: Signal<Local, bool>,
    s1_flow: Signal<Local, Bits<16>>,
    s1_type: Signal<Local, Bits<4>>,
    /// Which engine takes the held event (cc_module_route).
    route: CcModuleRoute,
    s1_alg: Signal<Local, Bits<2>>,
    unused: Signal<Local, bool>,
    s1_go: Signal<Local, bool>,
    h_event: Signal<Local, Bits<480>>,
    h_upd: Signal<Local, Bits<80>>,
    l_upd: Signal<Local, Bits<80>>,
    d_upd: Signal<Local, Bits<80>>,
    h_feedback: Signal<Local, Bits<48>>,
    h_res: Signal<Local, Bits<152>>,
    l_res: Signal<Local, Bits<224>>,
    d_res: Signal<Local, Bits<588>>,
    h_is_rx: Signal<Local, bool>,
    h_fb: Signal<Local, bool>,
    req_h: Signal<Local, bool>,
    req_l: Signal<Local, bool>,
    req_d: Signal<Local, bool>,
    gnt_h: Signal<Local, bool>,
    gnt_l: Signal<Local, bool>,
    gnt_d: Signal<Local, bool>,
    upd_free: Signal<Local, bool>,
    fb_free: Signal<Local, bool>,
}

impl<const F: usize> Logic for CcModule<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, init_busy, init_addr, s1_valid, s1_data, bad_cnt, unused_cnt, upd_valid,
            upd_data, fb_valid, fb_data, rr_last
        );
        clock!(self, clock, hpcc, ldcp, dcqcn);
        self.alg_ram.read_clock.next = self.clock.val();
        self.alg_ram.write_clock.next = self.clock.val();
        self.hpcc.reset.next = self.reset.val();
        self.ldcp.reset.next = self.reset.val();
        self.dcqcn.reset.next = self.reset.val();

        // ---- Configuration, passed through.
        HpccCfg::link(&mut self.cfg_hpcc, &mut self.hpcc.cfg);
        LdcpCfg::link(&mut self.cfg_ldcp, &mut self.ldcp.cfg);
        DcqcnCfg::link(&mut self.cfg_dcqcn, &mut self.dcqcn.cfg);

        // ---- Reset: every flow to algorithm 0, one per cycle (the engines do the same).
        if self.init_busy.q.val() {
            self.init_addr.d.next = self.init_addr.q.val() + 1;
            if self.init_addr.q.val().all() {
                self.init_busy.d.next = false;
            }
        }

        // ---- S1: the held event, its flow's algorithm, its engine.
        self.s1_flow.next = self.s1_data.q.val().get_value_flow();
        self.s1_type.next = self.s1_data.q.val().get_value_kind();
        self.s1_alg.next = self.alg_ram.read_data.val();
        if self.s1_type.val() == EV_CREATE {
            self.s1_alg.next = self.s1_data.q.val().get_value_alg();
        }
        self.route.kind.next = self.s1_type.val();
        self.route.alg.next = self.s1_alg.val();
        self.unused.next = !(self.route.to_h.val() | self.route.to_l.val() | self.route.to_d.val());
        self.s1_go.next = !self.s1_valid.q.val()
            | self.unused.val()
            | (self.route.to_h.val() & self.hpcc.s_axis_event_tready.val())
            | (self.route.to_l.val() & self.ldcp.s_axis_event_tready.val())
            | (self.route.to_d.val() & self.dcqcn.s_axis_event_tready.val());
        if self.s1_valid.q.val() & self.unused.val() {
            self.unused_cnt.d.next = self.unused_cnt.q.val() + 1;
        }

        // Engine events from the held one (cc_event's fields into each engine's event word;
        // cc_hpcc's seq, snd_nxt, now and hops sit at the same bits in both).
        self.h_event.next = 0.into();
        self.h_event.next.set_value_flow(self.s1_flow.val());
        self.h_event.next.set_value_rx(self.route.h_rx.val());
        self.h_event.next.set_value_init(self.route.h_init.val());
        self.h_event.next.set_value_count(self.s1_data.q.val().get_value_count());
        self.h_event.next.set_value_seq(self.s1_data.q.val().get_value_seq());
        self.h_event.next.set_value_snd_nxt(self.s1_data.q.val().get_value_snd_nxt());
        self.h_event.next.set_value_now(self.s1_data.q.val().get_value_now());
        self.h_event.next.set_value_hops(self.s1_data.q.val().get_value_hops());
        self.hpcc.s_axis_event_tdata.next = self.h_event.val();
        self.ldcp.s_axis_event_tdata.next = 0.into();
        self.ldcp.s_axis_event_tdata.next.set_value_ldcp_event_flow(self.s1_flow.val());
        self.ldcp.s_axis_event_tdata.next.set_value_ldcp_event_kind(self.route.l_kind.val());
        self.ldcp.s_axis_event_tdata.next.set_value_ldcp_event_ece(self.s1_data.q.val().get_value_ece());
        self.ldcp.s_axis_event_tdata.next.set_value_ldcp_event_acked(bit_cast::<32, 16>(
            self.s1_data.q.val().get_value_acked(),
        ));
        self.ldcp.s_axis_event_tdata.next.set_value_ldcp_event_now(self.s1_data.q.val().get_value_now());
        self.dcqcn.s_axis_event_tdata.next = 0.into();
        self.dcqcn.s_axis_event_tdata.next.set_value_dcqcn_event_flow(self.s1_flow.val());
        self.dcqcn.s_axis_event_tdata.next.set_value_dcqcn_event_kind(self.route.d_kind.val());
        self.dcqcn.s_axis_event_tdata.next.set_value_dcqcn_event_bytes(self.s1_data.q.val().get_value_seq());
        self.dcqcn.s_axis_event_tdata.next.set_value_dcqcn_event_now(self.s1_data.q.val().get_value_now());
        self.hpcc.s_axis_event_tvalid.next = self.s1_valid.q.val() & self.route.to_h.val();
        self.ldcp.s_axis_event_tvalid.next = self.s1_valid.q.val() & self.route.to_l.val();
        self.dcqcn.s_axis_event_tvalid.next = self.s1_valid.q.val() & self.route.to_d.val();

        // ---- IN: accept into S1; bad flows are taken and dropped here.
        self.in_flow.next = self.s_axis_event_tdata.val().get_value_flow();
        self.in_ok.next =
            bit_cast::<16, F>(self.in_flow.val().get_bits::<F>(0)) == self.in_flow.val();
        self.s_axis_event_tready.next =
            !self.reset.val() & !self.init_busy.q.val() & self.s1_go.val();
        self.fire.next = self.s_axis_event_tvalid.val() & self.s_axis_event_tready.val();
        if self.fire.val() & !self.in_ok.val() {
            self.bad_cnt.d.next = self.bad_cnt.q.val() + 1;
        }
        if self.s1_go.val() {
            self.s1_valid.d.next = self.fire.val() & self.in_ok.val();
            self.s1_data.d.next = self.s_axis_event_tdata.val();
        }
        // The alg RAM: read for the event entering S1, else re-read the held one's flow.
        self.alg_ram.read_address.next = self.s1_flow.val().get_bits::<F>(0);
        if self.s1_go.val() {
            self.alg_ram.read_address.next = self.in_flow.val().get_bits::<F>(0);
        }
        // A create writes on its accepting edge; initialization writes 0 everywhere.
        self.alg_ram.write_address.next = self.in_flow.val().get_bits::<F>(0);
        self.alg_ram.write_data.next = self.s_axis_event_tdata.val().get_value_alg();
        self.alg_ram.write_enable.next = self.fire.val()
            & self.in_ok.val()
            & (self.s_axis_event_tdata.val().get_value_kind() == EV_CREATE);
        if self.init_busy.q.val() {
            self.alg_ram.write_address.next = self.init_addr.q.val();
            self.alg_ram.write_data.next = 0.into();
            self.alg_ram.write_enable.next = true;
        }
        self.stat_bad_flow.next = self.bad_cnt.q.val();
        self.stat_unused.next = self.unused_cnt.q.val();

        // ---- OUT: results into the Update and feedback registers.
        self.h_res.next = self.hpcc.m_axis_result_tdata.val();
        self.l_res.next = self.ldcp.m_axis_result_tdata.val();
        self.d_res.next = self.dcqcn.m_axis_result_tdata.val();
        self.h_is_rx.next = self.h_res.val().get_value_rx();
        self.h_fb.next = self.h_res.val().get_value_feedback();
        // Each engine's result as an Update; rate = R, window = W >> 8 for HPCC (W is UQ24.8
        // bytes). Rx-HPCC's W goes back as feedback.
        self.h_upd.next = 0.into();
        self.h_upd.next.set_value_rate(self.h_res.val().get_value_rate());
        self.h_upd.next.set_value_window(self.h_res.val().get_value_w() >> 8);
        self.h_upd.next.set_value_flow(self.h_res.val().get_value_flow());
        self.l_upd.next = 0.into();
        self.l_upd.next.set_value_rate(self.l_res.val().get_value_rate());
        self.l_upd.next.set_value_window(self.l_res.val().get_value_window());
        self.l_upd.next.set_value_flow(self.l_res.val().get_value_flow());
        self.d_upd.next = 0.into();
        self.d_upd.next.set_value_rate(self.d_res.val().get_value_rate());
        self.d_upd.next.set_value_window(self.d_res.val().get_value_window());
        self.d_upd.next.set_value_flow(self.d_res.val().get_value_flow());
        self.h_feedback.next = 0.into();
        self.h_feedback.next.set_value_w(self.h_res.val().get_value_w());
        self.h_feedback.next.set_value_flow(self.h_res.val().get_value_flow());
        self.upd_free.next = !self.upd_valid.q.val() | self.m_axis_update_tready.val();
        self.fb_free.next = !self.fb_valid.q.val() | self.m_axis_feedback_tready.val();
        self.req_h.next = self.hpcc.m_axis_result_tvalid.val() & !self.h_is_rx.val();
        self.req_l.next = self.ldcp.m_axis_result_tvalid.val();
        self.req_d.next = self.dcqcn.m_axis_result_tvalid.val();
        self.gnt_h.next = false;
        self.gnt_l.next = false;
        self.gnt_d.next = false;
        if self.upd_free.val() {
            if self.rr_last.q.val() == 0 {
                // Last grant HPCC: LDCP, DCQCN, HPCC.
                if self.req_l.val() {
                    self.gnt_l.next = true;
                } else if self.req_d.val() {
                    self.gnt_d.next = true;
                } else if self.req_h.val() {
                    self.gnt_h.next = true;
                }
            } else if self.rr_last.q.val() == 1 {
                // Last grant LDCP: DCQCN, HPCC, LDCP.
                if self.req_d.val() {
                    self.gnt_d.next = true;
                } else if self.req_h.val() {
                    self.gnt_h.next = true;
                } else if self.req_l.val() {
                    self.gnt_l.next = true;
                }
            } else {
                // Last grant DCQCN: HPCC, LDCP, DCQCN.
                if self.req_h.val() {
                    self.gnt_h.next = true;
                } else if self.req_l.val() {
                    self.gnt_l.next = true;
                } else if self.req_d.val() {
                    self.gnt_d.next = true;
                }
            }
        }
        self.hpcc.m_axis_result_tready.next = self.gnt_h.val()
            | (self.h_is_rx.val() & (!self.h_fb.val() | self.fb_free.val()));
        self.ldcp.m_axis_result_tready.next = self.gnt_l.val();
        self.dcqcn.m_axis_result_tready.next = self.gnt_d.val();
        if self.upd_valid.q.val() & self.m_axis_update_tready.val() {
            self.upd_valid.d.next = false;
        }
        if self.gnt_h.val() {
            self.upd_valid.d.next = true;
            self.rr_last.d.next = 0.into();
            self.upd_data.d.next = self.h_upd.val();
        }
        if self.gnt_l.val() {
            self.upd_valid.d.next = true;
            self.rr_last.d.next = 1.into();
            self.upd_data.d.next = self.l_upd.val();
        }
        if self.gnt_d.val() {
            self.upd_valid.d.next = true;
            self.rr_last.d.next = 2.into();
            self.upd_data.d.next = self.d_upd.val();
        }
        if self.fb_valid.q.val() & self.m_axis_feedback_tready.val() {
            self.fb_valid.d.next = false;
        }
        if self.hpcc.m_axis_result_tvalid.val()
            & self.h_is_rx.val()
            & self.h_fb.val()
            & self.fb_free.val()
        {
            self.fb_valid.d.next = true;
            self.fb_data.d.next = self.h_feedback.val();
        }
        self.m_axis_update_tvalid.next = self.upd_valid.q.val();
        self.m_axis_update_tdata.next = self.upd_data.q.val();
        self.m_axis_feedback_tvalid.next = self.fb_valid.q.val();
        self.m_axis_feedback_tdata.next = self.fb_data.q.val();

        if self.reset.val() {
            self.init_busy.d.next = true;
            self.init_addr.d.next = 0.into();
            self.s1_valid.d.next = false;
            self.bad_cnt.d.next = 0.into();
            self.unused_cnt.d.next = 0.into();
            self.upd_valid.d.next = false;
            self.fb_valid.d.next = false;
            self.rr_last.d.next = 0.into();
        }
    }
}
