//! nic_datapath's PktRecv gate: everything that goes into tx_ctx's PktRecv input. rx_ctx's
//! PktRecvs (through read_split) wait in a placement gate until the payloads before them are
//! in host memory; a released ACK / NAK may take the flow's Rx-HPCC feedback W, and may be
//! followed by a CNP (DCQCN's notification point); probe requests fill the cycles the gate
//! leaves free. docs/modules/nic_datapath.md says what each part does and why.
//!
//! Every input is a port of nic_datapath or an output of one of its blocks, so no signal
//! computed in nic_datapath's own update feeds this block.

use crate::layout::{CnpStateNamed, DmaCmdFields, FbStateNamed, FeedbackFields, PktRecvNamed, TxCreateNamed};
use crate::tx_ctx::{RECV_ACK, RECV_CNP, RECV_PROBE, TX_OP_CREATE, TX_OP_REMOVE};
use rust_hdl::prelude::*;

/// See the module doc. `F`: log2 of the flow count.
#[derive(LogicBlock, Default)]
pub struct NicDatapathGate<const F: usize> {
    pub clock: Signal<In, Clock>,
    /// Clears the gate, the CNP slot and the counters, and starts the sweep of both RAMs (2^F
    /// cycles, during which the feedback input is not ready and no CNP is decided).
    pub reset: Signal<In, bool>,
    /// Time in ns, its low 32 bits (nic_datapath's `now_ns`): they time the CNPs.
    pub now_ns: Signal<In, Bits<32>>,
    /// At most one CNP per flow per this many ns; 0: one for every ECN-Echo ACK / NAK.
    pub cfg_cnp_interval_ns: Signal<In, Bits<32>>,
    /// rx_ctx's PktRecvs after read_split (`sim::layout::PKT_RECV`).
    pub s_axis_tdata: Signal<In, Bits<512>>,
    pub s_axis_tvalid: Signal<In, bool>,
    /// The gate takes one: it is empty, or releases its PktRecv this cycle.
    pub s_axis_tready: Signal<Out, bool>,
    /// Probe requests (nic_datapath's `s_axis_probe`): [15:0] the flow.
    pub s_axis_probe_tdata: Signal<In, Bits<16>>,
    pub s_axis_probe_tvalid: Signal<In, bool>,
    /// Taken when tx_ctx takes a PktRecv and neither the gate nor a CNP offers one.
    pub s_axis_probe_tready: Signal<Out, bool>,
    /// Rx-HPCC feedback (nic_datapath's `s_axis_feedback`, `sim::layout::FEEDBACK`).
    pub s_axis_feedback_tdata: Signal<In, Bits<48>>,
    pub s_axis_feedback_tvalid: Signal<In, bool>,
    /// Low during the sweep, a create / remove write or an ACK taking a W.
    pub s_axis_feedback_tready: Signal<Out, bool>,
    /// To tx_ctx's PktRecv input: a CNP first, then the released PktRecv, then a probe request.
    pub m_axis_tdata: Signal<Out, Bits<512>>,
    pub m_axis_tvalid: Signal<Out, bool>,
    pub m_axis_tready: Signal<In, bool>,
    /// tx_ctx's control stream as tx_ctx sees it (`sim::layout::TX_CREATE`): a create or
    /// remove taken rewrites the flow's CNP and feedback entries the next cycle.
    pub ctrl_tdata: Signal<In, Bits<512>>,
    pub ctrl_tvalid: Signal<In, bool>,
    pub ctrl_tready: Signal<In, bool>,
    /// rx_ctx's DMA command stream to rx_dma (`sim::layout::DMA_CMD`): the data commands it
    /// has issued.
    pub cmd_tdata: Signal<In, Bits<128>>,
    pub cmd_tvalid: Signal<In, bool>,
    pub cmd_tready: Signal<In, bool>,
    /// rx_dma's DMA write stream: its tlast handshakes count finished payloads.
    pub wr_tvalid: Signal<In, bool>,
    pub wr_tlast: Signal<In, bool>,
    pub wr_tready: Signal<In, bool>,
    /// rx_dma's `stat_short`: write commands it refused (they will never finish).
    pub short: Signal<In, Bits<32>>,
    /// Payloads finished (wraps): nic_datapath's `stat_rx_payloads`.
    pub stat_payloads: Signal<Out, Bits<32>>,
    /// CNPs given to tx_ctx (wraps).
    pub stat_cnps: Signal<Out, Bits<32>>,
    /// ACKs / NAKs that carried a feedback W (wraps).
    pub stat_fb_acks: Signal<Out, Bits<32>>,

    probe_word: Signal<Local, Bits<512>>,
    // Placement gate: the PktRecv held, the data commands issued when it came in; data
    // commands issued and payloads finished so far.
    g_valid: DFF<bool>,
    g_data: DFF<Bits<512>>,
    g_cd: DFF<Bits<32>>,
    data_cmds: DFF<Bits<32>>,
    wr_lasts: DFF<Bits<32>>,
    g_rel: Signal<Local, bool>,
    g_take: Signal<Local, bool>,
    g_left: Signal<Local, Bits<32>>,
    cd_now: Signal<Local, Bits<32>>,
    cmd_data: Signal<Local, bool>,
    g_flow: Signal<Local, Bits<F>>,
    g_out: Signal<Local, Bits<512>>,
    // CNPs: per flow [0] enabled (create word `cnp`), [1] one was sent, [33:2] its time (now_ns
    // low 32 bits); cleared after reset (cn_swept), written by a create / remove the cycle
    // after tx_ctx takes it (sn_*, which holds the gate meanwhile) or by a CNP decision; the
    // last write is forwarded (cl_*). c_*: the CNP for tx_ctx, ahead of the gate.
    cn: RAM<Bits<34>, F>,
    cn_swept: DFF<bool>,
    cn_at: DFF<Bits<F>>,
    sn_valid: DFF<bool>,
    sn_flow: DFF<Bits<F>>,
    sn_en: DFF<bool>,
    c_valid: DFF<bool>,
    c_flow: DFF<Bits<16>>,
    cn_count: DFF<Bits<32>>,
    cl_valid: DFF<bool>,
    cl_flow: DFF<Bits<F>>,
    cl_data: DFF<Bits<34>>,
    cn_word: Signal<Local, Bits<34>>,
    cn_age: Signal<Local, Bits<32>>,
    cn_due: Signal<Local, bool>,
    cn_send: Signal<Local, bool>,
    c_word: Signal<Local, Bits<512>>,
    // Rx-HPCC feedback: per flow [0] a W waits, [32:1] W; written by the sweep, a create /
    // remove (cleared), an ACK that takes it (cleared) or a feedback word, one a cycle in that
    // order (the feedback input waits); the last write is forwarded (fl_*).
    fbr: RAM<Bits<33>, F>,
    fl_valid: DFF<bool>,
    fl_flow: DFF<Bits<F>>,
    fl_data: DFF<Bits<33>>,
    fb_count: DFF<Bits<32>>,
    fb_word: Signal<Local, Bits<33>>,
    fb_due: Signal<Local, bool>,
    fb_take: Signal<Local, bool>,
    fb_in: Signal<Local, bool>,
    fb_w: Signal<Local, Bits<32>>,
    fb_w_be: Signal<Local, Bits<32>>,
    // Fields copied to read a part of them (`_fld`): the flows' low F bits.
    fb_flow_fld: Signal<Local, Bits<16>>,
    g_flow_fld: Signal<Local, Bits<16>>,
    t_flow_fld: Signal<Local, Bits<16>>,
}

impl<const F: usize> Logic for NicDatapathGate<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, g_valid, g_data, g_cd, data_cmds, wr_lasts, cn_swept, cn_at, sn_valid, sn_flow, sn_en,
            c_valid, c_flow, cn_count, cl_valid, cl_flow, cl_data, fl_valid, fl_flow, fl_data, fb_count
        );
        self.cn.read_clock.next = self.clock.val();
        self.cn.write_clock.next = self.clock.val();
        self.fbr.read_clock.next = self.clock.val();
        self.fbr.write_clock.next = self.clock.val();
        // Kind 3 is tx_ctx's probe request.
        self.probe_word.next = 0.into();
        self.probe_word.next.set_value_pkt_recv_flow(self.s_axis_probe_tdata.val());
        self.probe_word.next.set_value_pkt_recv_kind(RECV_PROBE.into());
        // Placement gate: data commands issued (rx_ctx's pending one included: it belongs to
        // the verdict of the PktRecv rx_ctx offers, or a later one while read_split still holds
        // a READ: then the gate waits for a payload more than it must, never less) against
        // payloads finished.
        self.cmd_data.next = self.cmd_tvalid.val()
            & self.cmd_tdata.val().get_value_write()
            & self.cmd_tdata.val().get_value_len().any();
        self.cd_now.next = self.data_cmds.q.val();
        if self.cmd_data.val() {
            self.cd_now.next = self.data_cmds.q.val() + 1;
        }
        if self.cmd_data.val() & self.cmd_tready.val() {
            self.data_cmds.d.next = self.data_cmds.q.val() + 1;
        }
        if self.wr_tvalid.val() & self.wr_tready.val() & self.wr_tlast.val() {
            self.wr_lasts.d.next = self.wr_lasts.q.val() + 1;
        }
        self.stat_payloads.next = self.wr_lasts.q.val();
        self.g_left.next = self.wr_lasts.q.val() + self.short.val() - self.g_cd.q.val();
        // The gate releases while no CNP waits and no create / remove writes the CNP RAM.
        self.g_rel.next = self.g_valid.q.val() & !self.g_left.val().get_bit(31) & !self.c_valid.q.val() & !self.sn_valid.q.val();
        // DCQCN's notification point: the released PktRecv is an ACK / NAK (kind 0) with
        // ECN-Echo (`ece`) for a flow with CNPs enabled whose last CNP is old enough (or none was
        // sent): a CNP follows it.
        self.g_flow_fld.next = self.g_data.q.val().get_value_pkt_recv_flow();
        self.g_flow.next = self.g_flow_fld.val().get_bits::<F>(0);
        self.cn_word.next = self.cn.read_data.val();
        if self.cl_valid.q.val() & (self.cl_flow.q.val() == self.g_flow.val()) {
            self.cn_word.next = self.cl_data.q.val();
        }
        self.cn_age.next = self.now_ns.val() - self.cn_word.val().get_value_cnp_state_at();
        self.cn_due.next = (self.g_data.q.val().get_value_pkt_recv_kind() == RECV_ACK)
            & self.g_data.q.val().get_value_pkt_recv_ece()
            & self.cn_word.val().get_value_cnp_state_enabled()
            & (!self.cn_word.val().get_value_cnp_state_sent() | (self.cn_age.val() >= self.cfg_cnp_interval_ns.val()));
        self.cn_send.next = self.g_rel.val() & self.m_axis_tready.val() & self.cn_due.val() & self.cn_swept.q.val();
        // Kind 5 is tx_ctx's CNP.
        self.c_word.next = 0.into();
        self.c_word.next.set_value_pkt_recv_flow(self.c_flow.q.val());
        self.c_word.next.set_value_pkt_recv_kind(RECV_CNP.into());
        self.m_axis_tvalid.next = self.c_valid.q.val() | self.g_rel.val() | self.s_axis_probe_tvalid.val();
        // Rx-HPCC feedback: a released ACK / NAK (kind 0) of a flow with a W waiting carries it
        // (`echo`, `feedback`, no hops, W in hop slot 0's bytes 4-7, big-endian as on the
        // wire; the request's own hops, if any, are not echoed: an Rx-HPCC sender has no use
        // for them) and clears it.
        self.fb_word.next = self.fbr.read_data.val();
        if self.fl_valid.q.val() & (self.fl_flow.q.val() == self.g_flow.val()) {
            self.fb_word.next = self.fl_data.q.val();
        }
        self.fb_w.next = self.fb_word.val().get_value_fb_state_w();
        self.fb_w_be.next = (bit_cast::<32, 8>(self.fb_w.val().get_bits::<8>(0)) << 24)
            | (bit_cast::<32, 8>(self.fb_w.val().get_bits::<8>(8)) << 16)
            | (bit_cast::<32, 8>(self.fb_w.val().get_bits::<8>(16)) << 8)
            | bit_cast::<32, 8>(self.fb_w.val().get_bits::<8>(24));
        self.fb_due.next = (self.g_data.q.val().get_value_pkt_recv_kind() == RECV_ACK)
            & self.fb_word.val().get_value_fb_state_waiting()
            & self.cn_swept.q.val();
        self.fb_take.next = self.g_rel.val() & self.m_axis_tready.val() & self.fb_due.val();
        self.g_out.next = self.g_data.q.val();
        if self.fb_due.val() {
            // The ACK's fields kept (flow, kind, ECN-Echo, PSN, AETH), an echo with nhop 0.
            self.g_out.next = 0.into();
            self.g_out.next.set_value_pkt_recv_flow(self.g_data.q.val().get_value_pkt_recv_flow());
            self.g_out.next.set_value_pkt_recv_kind(self.g_data.q.val().get_value_pkt_recv_kind());
            self.g_out.next.set_value_pkt_recv_ece(self.g_data.q.val().get_value_pkt_recv_ece());
            self.g_out.next.set_value_pkt_recv_psn(self.g_data.q.val().get_value_pkt_recv_psn());
            self.g_out.next.set_value_pkt_recv_aeth(self.g_data.q.val().get_value_pkt_recv_aeth());
            self.g_out.next.set_value_pkt_recv_echo(true);
            self.g_out.next.set_value_pkt_recv_feedback(true);
            self.g_out.next.set_value_pkt_recv_hops(bit_cast::<320, 32>(self.fb_w_be.val()) << 32);
        }
        self.m_axis_tdata.next = self.probe_word.val();
        if self.g_rel.val() {
            self.m_axis_tdata.next = self.g_out.val();
        }
        if self.c_valid.q.val() {
            self.m_axis_tdata.next = self.c_word.val();
        }
        if self.c_valid.q.val() & self.m_axis_tready.val() {
            self.c_valid.d.next = false;
            self.cn_count.d.next = self.cn_count.q.val() + 1;
        }
        if self.cn_send.val() {
            self.c_valid.d.next = true;
            self.c_flow.d.next = bit_cast::<16, F>(self.g_flow.val());
        }
        // The CNP RAM: one write a cycle (sweep, create / remove, or a CNP sent now).
        self.sn_valid.d.next = self.ctrl_tvalid.val()
            & self.ctrl_tready.val()
            & ((self.ctrl_tdata.val().get_value_tx_create_op() == TX_OP_CREATE) | (self.ctrl_tdata.val().get_value_tx_create_op() == TX_OP_REMOVE));
        self.t_flow_fld.next = self.ctrl_tdata.val().get_value_tx_create_flow();
        self.sn_flow.d.next = self.t_flow_fld.val().get_bits::<F>(0);
        self.sn_en.d.next = (self.ctrl_tdata.val().get_value_tx_create_op() == TX_OP_CREATE) & self.ctrl_tdata.val().get_value_tx_create_cnp();
        self.cn.write_enable.next = false;
        self.cn.write_address.next = self.g_flow.val();
        // A CNP sent now (sim::layout::CNP_STATE).
        self.cn.write_data.next = 0.into();
        self.cn.write_data.next.set_value_cnp_state_enabled(true);
        self.cn.write_data.next.set_value_cnp_state_sent(true);
        self.cn.write_data.next.set_value_cnp_state_at(self.now_ns.val());
        if !self.cn_swept.q.val() {
            self.cn.write_enable.next = true;
            self.cn.write_address.next = self.cn_at.q.val();
            self.cn.write_data.next = 0.into();
            self.cn_at.d.next = self.cn_at.q.val() + 1;
            if self.cn_at.q.val().all() {
                self.cn_swept.d.next = true;
            }
        } else if self.sn_valid.q.val() {
            self.cn.write_enable.next = true;
            self.cn.write_address.next = self.sn_flow.q.val();
            self.cn.write_data.next = 0.into();
            self.cn.write_data.next.set_value_cnp_state_enabled(self.sn_en.q.val());
        } else if self.cn_send.val() {
            self.cn.write_enable.next = true;
        }
        // The feedback RAM: sweep (with the CNP RAM's), create / remove, an ACK taking its W,
        // else a feedback word.
        self.fb_in.next = self.cn_swept.q.val() & !self.sn_valid.q.val() & !self.fb_take.val();
        self.s_axis_feedback_tready.next = self.fb_in.val();
        self.fb_flow_fld.next = self.s_axis_feedback_tdata.val().get_value_flow();
        self.fbr.write_enable.next = false;
        self.fbr.write_address.next = self.g_flow.val();
        self.fbr.write_data.next = 0.into();
        if !self.cn_swept.q.val() {
            self.fbr.write_enable.next = true;
            self.fbr.write_address.next = self.cn_at.q.val();
        } else if self.sn_valid.q.val() {
            self.fbr.write_enable.next = true;
            self.fbr.write_address.next = self.sn_flow.q.val();
        } else if self.fb_take.val() {
            self.fbr.write_enable.next = true;
            self.fb_count.d.next = self.fb_count.q.val() + 1;
        } else if self.s_axis_feedback_tvalid.val() {
            self.fbr.write_enable.next = true;
            self.fbr.write_address.next = self.fb_flow_fld.val().get_bits::<F>(0);
            self.fbr.write_data.next.set_value_fb_state_waiting(true);
            self.fbr.write_data.next.set_value_fb_state_w(self.s_axis_feedback_tdata.val().get_value_w());
        }
        self.fl_valid.d.next = self.fbr.write_enable.val() & self.cn_swept.q.val();
        self.fl_flow.d.next = self.fbr.write_address.val();
        self.fl_data.d.next = self.fbr.write_data.val();
        self.stat_fb_acks.next = self.fb_count.q.val();
        self.cl_valid.d.next = self.cn.write_enable.val() & self.cn_swept.q.val();
        self.cl_flow.d.next = self.cn.write_address.val();
        self.cl_data.d.next = self.cn.write_data.val();
        self.stat_cnps.next = self.cn_count.q.val();
        // The gate takes a PktRecv when it is empty or releases its own this cycle.
        self.s_axis_tready.next = !self.g_valid.q.val() | (self.g_rel.val() & self.m_axis_tready.val());
        self.g_take.next = self.s_axis_tvalid.val() & self.s_axis_tready.val();
        // The CNP RAM reads the flow entering the gate, else the one in it.
        self.cn.read_address.next = self.g_flow.val();
        if self.g_take.val() {
            self.cn.read_address.next = self.s_axis_tdata.val().get_bits::<F>(0);
        }
        self.fbr.read_address.next = self.cn.read_address.val();
        if self.g_take.val() {
            self.g_valid.d.next = true;
            self.g_data.d.next = self.s_axis_tdata.val();
            self.g_cd.d.next = self.cd_now.val();
        } else if self.g_rel.val() & self.m_axis_tready.val() {
            self.g_valid.d.next = false;
        }
        self.s_axis_probe_tready.next = self.m_axis_tready.val() & !self.g_rel.val() & !self.c_valid.q.val();
        if self.reset.val() {
            self.g_valid.d.next = false;
            self.c_valid.d.next = false;
            self.sn_valid.d.next = false;
            self.cl_valid.d.next = false;
            self.fl_valid.d.next = false;
            self.fb_count.d.next = 0.into();
            self.cn_count.d.next = 0.into();
            self.cn_swept.d.next = false;
            self.cn_at.d.next = 0.into();
            self.data_cmds.d.next = 0.into();
            self.wr_lasts.d.next = 0.into();
        }
    }
}
