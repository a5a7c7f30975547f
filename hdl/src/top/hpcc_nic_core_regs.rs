//! The register block of hpcc_nic_core (csr.rs, docs/modules/hpcc_nic_core.md): the
//! read-write registers and their reset values, the write decode (a whole word to a
//! read-write register, else SLVERR), the read mux over every register, and the time base
//! that `NS_PER_CYCLE_Q16` drives. The counters it reads are the core's blocks'.
//!
//! axil_slave gives it one register write and one register read a cycle; `wr_err`, `rd_data`
//! and `rd_err` are combinational from the address in that cycle, as axil_slave expects.

use crate::hpcc_nic_core::{
    csr, AXIL_ADDR_BITS, REG_ARGS_END, REG_ARGS_FIRST, REG_CC_END, REG_CC_FIRST, REG_CMD, REG_CMD_ERRORS,
    REG_CNP_INTERVAL_NS, REG_COMPLETIONS, REG_EVENT_MERGE, REG_EVENT_STALLS, REG_FB_ACKS, REG_FB_APPLIED,
    REG_FB_IGNORED, REG_FEEDBACK_IN, REG_ID, REG_ID_VALUE, REG_MERGED, REG_NOW_NS_HI, REG_NOW_NS_LO,
    REG_NS_PER_CYCLE_Q16, REG_PROBES, REG_RTO_CFG, REG_RTO_FAILED, REG_RTO_TIMEOUTS, REG_SCHED_CFG, REG_STATUS,
    REG_STAT_CC_BAD_FLOW, REG_STAT_CC_UNUSED, REG_STAT_CNPS, REG_STAT_RX_CTX, REG_STAT_RX_DISCARDED,
    REG_STAT_RX_PIPE, REG_STAT_RX_SHORT, REG_STAT_RX_WRITTEN, REG_STAT_SEL, REG_STAT_TX_CTRL_BAD,
    REG_STAT_TX_DROP, REG_STAT_TX_LEN_ERR, REG_STAT_TX_NAK_IGNORED, REG_STAT_TX_RECV_DROP, REG_TIMER_EVENTS,
    REG_TIMER_GAP, REG_TX_EVENTS, REG_TX_EVENT_BYTES, RESET_CNP_INTERVAL, RESET_EVENT_MERGE, RESET_NS_PER_CYCLE,
    RESET_RTO_CFG, RESET_SCHED_CFG, RESET_TIMER_GAP, RESET_TX_EVENT_BYTES,
};
use crate::cc_dcqcn::DcqcnCfgOut;
use crate::cc_hpcc::HpccCfgOut;
use crate::cc_ldcp::LdcpCfgOut;
use rust_hdl::prelude::*;

/// Argument words of tx_ctx's post word (`ARG_TX`, low word first).
const TX_ARG_WORDS: usize = 16;

// The argument words in the order the update code reads them.
const _: () = assert!(
    csr::ARG_RX as usize == csr::ARG_TX as usize + TX_ARG_WORDS
        && csr::ARG_RATE == csr::ARG_TX + 20
        && csr::ARG_WINDOW == csr::ARG_TX + 21
        && csr::ARG_ALG == csr::ARG_TX + 22
        && csr::ARG_TAG == csr::ARG_TX + 23
        && csr::ARGS == 24
);

/// The registers, the time base, and the read mux.
#[derive(LogicBlock)]
pub struct HpccNicCoreRegs {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every read-write register to its reset value (csr.rs), time 0.
    pub reset: Signal<In, bool>,
    /// axil_slave's register write: its word address, data and byte enables.
    pub wr_en: Signal<In, bool>,
    /// See `wr_en`.
    pub wr_addr: Signal<In, Bits<AXIL_ADDR_BITS>>,
    /// See `wr_en`.
    pub wr_data: Signal<In, Bits<32>>,
    /// See `wr_en`: anything but 0xF is refused.
    pub wr_strb: Signal<In, Bits<4>>,
    /// The write is refused (SLVERR): a read-only or unmapped address, or a partial write.
    pub wr_err: Signal<Out, bool>,
    /// A whole-word write to `CMD`: the sequencer takes `wr_data` as its command.
    pub cmd_we: Signal<Out, bool>,
    /// axil_slave's register read: its word address.
    pub rd_addr: Signal<In, Bits<AXIL_ADDR_BITS>>,
    /// The register at `rd_addr` (0 when unmapped).
    pub rd_data: Signal<Out, Bits<32>>,
    /// `rd_addr` is unmapped (SLVERR).
    pub rd_err: Signal<Out, bool>,
    /// Read-only registers, each named as in csr.rs: the sequencer's `STATUS`, `CMD` and
    /// `CMD_ERRORS`.
    pub status: Signal<In, Bits<32>>,
    /// See `status`.
    pub cmd: Signal<In, Bits<32>>,
    /// See `status`.
    pub cmd_errors: Signal<In, Bits<32>>,
    /// `COMPLETIONS`, `FEEDBACK_IN`, `MERGED`, `EVENT_STALLS`: the core's counters.
    pub completions: Signal<In, Bits<32>>,
    /// See `completions`.
    pub feedback_in: Signal<In, Bits<32>>,
    /// See `completions`.
    pub merged: Signal<In, Bits<32>>,
    /// See `completions`.
    pub event_stalls: Signal<In, Bits<32>>,
    /// `STAT_RX_PIPE`, `STAT_RX_CTX`: the counters `STAT_SEL` selects in rx_pipe and rx_ctx.
    pub stat_rx_pipe: Signal<In, Bits<32>>,
    /// See `stat_rx_pipe`.
    pub stat_rx_ctx: Signal<In, Bits<32>>,
    /// nic_datapath's counters: `STAT_TX_DROP`, `STAT_TX_RECV_DROP`, `STAT_TX_NAK_IGNORED`,
    /// `STAT_TX_CTRL_BAD`, `STAT_TX_LEN_ERR`, `STAT_RX_WRITTEN`, `STAT_RX_DISCARDED`,
    /// `STAT_RX_SHORT`, `STAT_CNPS`, `FB_ACKS`.
    pub stat_tx_drop: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_tx_recv_drop: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_tx_nak_ignored: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_tx_ctrl_bad: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_tx_len_err: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_rx_written: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_rx_discarded: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_rx_short: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub stat_cnps: Signal<In, Bits<32>>,
    /// See `stat_tx_drop`.
    pub fb_acks: Signal<In, Bits<32>>,
    /// cc_module's counters: `STAT_CC_BAD_FLOW`, `STAT_CC_UNUSED`.
    pub stat_cc_bad_flow: Signal<In, Bits<32>>,
    /// See `stat_cc_bad_flow`.
    pub stat_cc_unused: Signal<In, Bits<32>>,
    /// The blocks' counters: `TIMER_EVENTS`, `PROBES` (timer scan), `RTO_TIMEOUTS`,
    /// `RTO_FAILED` (sequencer), `TX_EVENTS` (tx-byte events), `FB_APPLIED`, `FB_IGNORED`
    /// (feedback unit).
    pub timer_events: Signal<In, Bits<32>>,
    /// See `timer_events`.
    pub probes: Signal<In, Bits<32>>,
    /// See `timer_events`.
    pub rto_timeouts: Signal<In, Bits<32>>,
    /// See `timer_events`.
    pub rto_failed: Signal<In, Bits<32>>,
    /// See `timer_events`.
    pub tx_events: Signal<In, Bits<32>>,
    /// See `timer_events`.
    pub fb_applied: Signal<In, Bits<32>>,
    /// See `timer_events`.
    pub fb_ignored: Signal<In, Bits<32>>,
    /// The read-write registers: `SCHED_CFG`, `STAT_SEL`, `TIMER_GAP`, `RTO_CFG`,
    /// `CNP_INTERVAL_NS`, `TX_EVENT_BYTES`, `EVENT_MERGE`.
    pub sched_cfg: Signal<Out, Bits<32>>,
    /// See `sched_cfg`.
    pub stat_sel: Signal<Out, Bits<32>>,
    /// See `sched_cfg`.
    pub timer_gap_cycles: Signal<Out, Bits<32>>,
    /// See `sched_cfg`.
    pub rto_cfg: Signal<Out, Bits<32>>,
    /// See `sched_cfg`.
    pub cnp_interval_ns: Signal<Out, Bits<32>>,
    /// See `sched_cfg`.
    pub tx_event_bytes: Signal<Out, Bits<32>>,
    /// See `sched_cfg`.
    pub event_merge: Signal<Out, Bits<32>>,
    /// The command's arguments: tx_ctx's control word (`ARG_TX`, 16 words).
    pub tx_word: Signal<Out, Bits<512>>,
    /// rx_ctx's control word (`ARG_RX`, 4 words).
    pub rx_word: Signal<Out, Bits<128>>,
    /// `ARG_RATE`.
    pub rate: Signal<Out, Bits<32>>,
    /// `ARG_WINDOW`.
    pub window: Signal<Out, Bits<32>>,
    /// `ARG_ALG` [1:0].
    pub alg: Signal<Out, Bits<2>>,
    /// `ARG_TAG` [15:0].
    pub tag: Signal<Out, Bits<16>>,
    /// cc_module's `cfg_hpcc` (`HpccCfg`): the CC words of csr::CC_FIELDS.
    pub cfg_hpcc: HpccCfgOut,
    /// cc_module's `cfg_ldcp` (`LdcpCfg`): the CC words of csr::CC_FIELDS.
    pub cfg_ldcp: LdcpCfgOut,
    /// cc_module's `cfg_dcqcn` (`DcqcnCfg`): the CC words of csr::CC_FIELDS.
    pub cfg_dcqcn: DcqcnCfgOut,
    /// The time, ns: the time base's.
    pub now_ns: Signal<Out, Bits<64>>,
    ns_q16_reg: DFF<Bits<32>>,
    sched_cfg_reg: DFF<Bits<32>>,
    stat_sel_reg: DFF<Bits<32>>,
    timer_gap_reg: DFF<Bits<32>>,
    rto_cfg_reg: DFF<Bits<32>>,
    cnp_reg: DFF<Bits<32>>,
    tx_bytes_reg: DFF<Bits<32>>,
    merge_reg: DFF<Bits<32>>,
    args_reg: [DFF<Bits<32>>; csr::ARGS],
    cc_reg: [DFF<Bits<32>>; csr::CC_WORDS],
    // Time base.
    now_frac: DFF<Bits<16>>,
    now_reg: DFF<Bits<64>>,
    frac_sum: Signal<Local, Bits<17>>,
    /// One argument word of the post word, as the loop reads it.
    arg: Signal<Local, Bits<32>>,
    wr_ok: Signal<Local, bool>,
}

// Arrays over 32 elements have no derived Default.
impl Default for HpccNicCoreRegs {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            wr_en: Default::default(),
            wr_addr: Default::default(),
            wr_data: Default::default(),
            wr_strb: Default::default(),
            wr_err: Default::default(),
            cmd_we: Default::default(),
            rd_addr: Default::default(),
            rd_data: Default::default(),
            rd_err: Default::default(),
            status: Default::default(),
            cmd: Default::default(),
            cmd_errors: Default::default(),
            completions: Default::default(),
            feedback_in: Default::default(),
            merged: Default::default(),
            event_stalls: Default::default(),
            stat_rx_pipe: Default::default(),
            stat_rx_ctx: Default::default(),
            stat_tx_drop: Default::default(),
            stat_tx_recv_drop: Default::default(),
            stat_tx_nak_ignored: Default::default(),
            stat_tx_ctrl_bad: Default::default(),
            stat_tx_len_err: Default::default(),
            stat_rx_written: Default::default(),
            stat_rx_discarded: Default::default(),
            stat_rx_short: Default::default(),
            stat_cnps: Default::default(),
            fb_acks: Default::default(),
            stat_cc_bad_flow: Default::default(),
            stat_cc_unused: Default::default(),
            timer_events: Default::default(),
            probes: Default::default(),
            rto_timeouts: Default::default(),
            rto_failed: Default::default(),
            tx_events: Default::default(),
            fb_applied: Default::default(),
            fb_ignored: Default::default(),
            sched_cfg: Default::default(),
            stat_sel: Default::default(),
            timer_gap_cycles: Default::default(),
            rto_cfg: Default::default(),
            cnp_interval_ns: Default::default(),
            tx_event_bytes: Default::default(),
            event_merge: Default::default(),
            tx_word: Default::default(),
            arg: Default::default(),
            rx_word: Default::default(),
            rate: Default::default(),
            window: Default::default(),
            alg: Default::default(),
            tag: Default::default(),
            cfg_hpcc: Default::default(),
            cfg_ldcp: Default::default(),
            cfg_dcqcn: Default::default(),
            now_ns: Default::default(),
            ns_q16_reg: Default::default(),
            sched_cfg_reg: Default::default(),
            stat_sel_reg: Default::default(),
            timer_gap_reg: Default::default(),
            rto_cfg_reg: Default::default(),
            cnp_reg: Default::default(),
            tx_bytes_reg: Default::default(),
            merge_reg: Default::default(),
            args_reg: std::array::from_fn(|_| Default::default()),
            cc_reg: std::array::from_fn(|_| Default::default()),
            now_frac: Default::default(),
            now_reg: Default::default(),
            frac_sum: Default::default(),
            wr_ok: Default::default(),
        }
    }
}

impl Logic for HpccNicCoreRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, ns_q16_reg, sched_cfg_reg, stat_sel_reg, timer_gap_reg, rto_cfg_reg, cnp_reg, tx_bytes_reg,
            merge_reg, now_frac, now_reg
        );
        for i in 0..csr::ARGS {
            self.args_reg[i].clock.next = self.clock.val();
            self.args_reg[i].d.next = self.args_reg[i].q.val();
        }
        for i in 0..csr::CC_WORDS {
            self.cc_reg[i].clock.next = self.clock.val();
            self.cc_reg[i].d.next = self.cc_reg[i].q.val();
        }
        self.sched_cfg.next = self.sched_cfg_reg.q.val();
        self.stat_sel.next = self.stat_sel_reg.q.val();
        self.timer_gap_cycles.next = self.timer_gap_reg.q.val();
        self.rto_cfg.next = self.rto_cfg_reg.q.val();
        self.cnp_interval_ns.next = self.cnp_reg.q.val();
        self.tx_event_bytes.next = self.tx_bytes_reg.q.val();
        self.event_merge.next = self.merge_reg.q.val();
        self.now_ns.next = self.now_reg.q.val();

        // ---- The argument words as the command's words (csr.rs: ARG_TX 16 words, ARG_RX 4,
        // ARG_RATE, ARG_WINDOW, ARG_ALG, ARG_TAG; the order is checked at the top of the file).
        self.tx_word.next = 0.into();
        for i in 0..TX_ARG_WORDS {
            self.arg.next = self.args_reg[i].q.val();
            self.tx_word.next = self.tx_word.val() | (bit_cast::<512, 32>(self.arg.val()) << (32 * i).to_bits::<9>());
        }
        self.rx_word.next = bit_cast::<128, 32>(self.args_reg[16].q.val())
            | (bit_cast::<128, 32>(self.args_reg[17].q.val()) << 32)
            | (bit_cast::<128, 32>(self.args_reg[18].q.val()) << 64)
            | (bit_cast::<128, 32>(self.args_reg[19].q.val()) << 96);
        self.rate.next = self.args_reg[20].q.val();
        self.window.next = self.args_reg[21].q.val();
        self.alg.next = self.args_reg[22].q.val().get_bits::<2>(0);
        self.tag.next = self.args_reg[23].q.val().get_bits::<16>(0);

        // ---- The CC configuration words as cc_module's ports (csr::CC_FIELDS: each port's
        // first word and width; a wider port takes consecutive words, low word first).
        self.cfg_hpcc.t_ns.next = self.cc_reg[0].q.val();
        self.cfg_hpcc.eta_q16.next = self.cc_reg[1].q.val().get_bits::<17>(0);
        self.cfg_hpcc.max_stage.next = self.cc_reg[2].q.val().get_bits::<8>(0);
        self.cfg_hpcc.w_ai_q8.next = self.cc_reg[3].q.val();
        self.cfg_hpcc.w_min_q8.next = self.cc_reg[4].q.val();
        self.cfg_hpcc.w_max_q8.next = self.cc_reg[5].q.val();
        self.cfg_hpcc.u_init_q16.next = self.cc_reg[6].q.val().get_bits::<24>(0);
        self.cfg_hpcc.inv_bt.next = bit_cast::<256, 32>(self.cc_reg[7].q.val())
            | (bit_cast::<256, 32>(self.cc_reg[8].q.val()) << 32)
            | (bit_cast::<256, 32>(self.cc_reg[9].q.val()) << 64)
            | (bit_cast::<256, 32>(self.cc_reg[10].q.val()) << 96)
            | (bit_cast::<256, 32>(self.cc_reg[11].q.val()) << 128)
            | (bit_cast::<256, 32>(self.cc_reg[12].q.val()) << 160)
            | (bit_cast::<256, 32>(self.cc_reg[13].q.val()) << 192)
            | (bit_cast::<256, 32>(self.cc_reg[14].q.val()) << 224);
        self.cfg_hpcc.inv_b.next = bit_cast::<256, 32>(self.cc_reg[15].q.val())
            | (bit_cast::<256, 32>(self.cc_reg[16].q.val()) << 32)
            | (bit_cast::<256, 32>(self.cc_reg[17].q.val()) << 64)
            | (bit_cast::<256, 32>(self.cc_reg[18].q.val()) << 96)
            | (bit_cast::<256, 32>(self.cc_reg[19].q.val()) << 128)
            | (bit_cast::<256, 32>(self.cc_reg[20].q.val()) << 160)
            | (bit_cast::<256, 32>(self.cc_reg[21].q.val()) << 192)
            | (bit_cast::<256, 32>(self.cc_reg[22].q.val()) << 224);
        self.cfg_hpcc.inv_t.next = self.cc_reg[23].q.val();
        self.cfg_hpcc.rate_mul.next = self.cc_reg[24].q.val();
        self.cfg_hpcc.line_q16.next = self.cc_reg[25].q.val();
        self.cfg_ldcp.rtt_ns.next = self.cc_reg[26].q.val();
        self.cfg_ldcp.mss.next = self.cc_reg[27].q.val();
        self.cfg_ldcp.alpha_q16.next = self.cc_reg[28].q.val().get_bits::<17>(0);
        self.cfg_ldcp.beta_q16.next = self.cc_reg[29].q.val().get_bits::<17>(0);
        self.cfg_ldcp.gamma_shift.next = self.cc_reg[30].q.val().get_bits::<4>(0);
        self.cfg_ldcp.iw.next = self.cc_reg[31].q.val().get_bits::<16>(0);
        self.cfg_ldcp.max_cw_q16.next = self.cc_reg[32].q.val();
        self.cfg_ldcp.fast_start.next = self.cc_reg[33].q.val().get_bit(0);
        self.cfg_ldcp.rate_mul.next =
            bit_cast::<48, 32>(self.cc_reg[34].q.val()) | (bit_cast::<48, 16>(self.cc_reg[35].q.val().get_bits::<16>(0)) << 32);
        self.cfg_ldcp.line_q16.next = self.cc_reg[36].q.val();
        self.cfg_dcqcn.line_q24.next =
            bit_cast::<40, 32>(self.cc_reg[37].q.val()) | (bit_cast::<40, 8>(self.cc_reg[38].q.val().get_bits::<8>(0)) << 32);
        self.cfg_dcqcn.min_q24.next =
            bit_cast::<40, 32>(self.cc_reg[39].q.val()) | (bit_cast::<40, 8>(self.cc_reg[40].q.val().get_bits::<8>(0)) << 32);
        self.cfg_dcqcn.ai_q24.next =
            bit_cast::<40, 32>(self.cc_reg[41].q.val()) | (bit_cast::<40, 8>(self.cc_reg[42].q.val().get_bits::<8>(0)) << 32);
        self.cfg_dcqcn.hai_q24.next =
            bit_cast::<40, 32>(self.cc_reg[43].q.val()) | (bit_cast::<40, 8>(self.cc_reg[44].q.val().get_bits::<8>(0)) << 32);
        self.cfg_dcqcn.g_shift.next = self.cc_reg[45].q.val().get_bits::<5>(0);
        self.cfg_dcqcn.initial_alpha_q24.next = self.cc_reg[46].q.val().get_bits::<25>(0);
        self.cfg_dcqcn.alpha_timer_ns.next = self.cc_reg[47].q.val();
        self.cfg_dcqcn.decay.next = bit_cast::<384, 32>(self.cc_reg[48].q.val())
            | (bit_cast::<384, 32>(self.cc_reg[49].q.val()) << 32)
            | (bit_cast::<384, 32>(self.cc_reg[50].q.val()) << 64)
            | (bit_cast::<384, 32>(self.cc_reg[51].q.val()) << 96)
            | (bit_cast::<384, 32>(self.cc_reg[52].q.val()) << 128)
            | (bit_cast::<384, 32>(self.cc_reg[53].q.val()) << 160)
            | (bit_cast::<384, 32>(self.cc_reg[54].q.val()) << 192)
            | (bit_cast::<384, 32>(self.cc_reg[55].q.val()) << 224)
            | (bit_cast::<384, 32>(self.cc_reg[56].q.val()) << 256)
            | (bit_cast::<384, 32>(self.cc_reg[57].q.val()) << 288)
            | (bit_cast::<384, 32>(self.cc_reg[58].q.val()) << 320)
            | (bit_cast::<384, 32>(self.cc_reg[59].q.val()) << 352);
        self.cfg_dcqcn.min_cut_interval_ns.next = self.cc_reg[60].q.val();
        self.cfg_dcqcn.rate_increase_timer_ns.next = self.cc_reg[61].q.val();
        self.cfg_dcqcn.byte_counter_bytes.next = self.cc_reg[62].q.val();
        self.cfg_dcqcn.fast_recovery_times.next = self.cc_reg[63].q.val().get_bits::<8>(0);
        self.cfg_dcqcn.win_mul.next = self.cc_reg[64].q.val();

        // ---- Writes: whole words to the read-write registers (csr.rs), else SLVERR.
        self.wr_ok.next = self.wr_strb.val() == 0xF;
        self.wr_err.next = true;
        if self.wr_ok.val() {
            if (self.wr_addr.val().index() == REG_CMD)
                | (self.wr_addr.val().index() == REG_NS_PER_CYCLE_Q16)
                | (self.wr_addr.val().index() == REG_SCHED_CFG)
                | (self.wr_addr.val().index() == REG_STAT_SEL)
                | (self.wr_addr.val().index() == REG_TIMER_GAP)
                | (self.wr_addr.val().index() == REG_RTO_CFG)
                | (self.wr_addr.val().index() == REG_CNP_INTERVAL_NS)
                | (self.wr_addr.val().index() == REG_TX_EVENT_BYTES)
                | (self.wr_addr.val().index() == REG_EVENT_MERGE)
            {
                self.wr_err.next = false;
            }
            if (self.wr_addr.val().index() >= REG_ARGS_FIRST) & (self.wr_addr.val().index() < REG_ARGS_END) {
                self.wr_err.next = false; // the arguments
            }
            if (self.wr_addr.val().index() >= REG_CC_FIRST) & (self.wr_addr.val().index() < REG_CC_END) {
                self.wr_err.next = false; // the CC configuration
            }
        }
        self.cmd_we.next = self.wr_en.val() & self.wr_ok.val() & (self.wr_addr.val().index() == REG_CMD);
        if self.wr_en.val() & self.wr_ok.val() {
            match self.wr_addr.val().index() {
                REG_NS_PER_CYCLE_Q16 => self.ns_q16_reg.d.next = self.wr_data.val(),
                REG_SCHED_CFG => self.sched_cfg_reg.d.next = self.wr_data.val(),
                REG_STAT_SEL => self.stat_sel_reg.d.next = self.wr_data.val(),
                REG_TIMER_GAP => self.timer_gap_reg.d.next = self.wr_data.val(),
                REG_EVENT_MERGE => self.merge_reg.d.next = self.wr_data.val(),
                REG_RTO_CFG => self.rto_cfg_reg.d.next = self.wr_data.val(),
                REG_CNP_INTERVAL_NS => self.cnp_reg.d.next = self.wr_data.val(),
                REG_TX_EVENT_BYTES => self.tx_bytes_reg.d.next = self.wr_data.val(),
                _ => {}
            }
            for i in 0..csr::ARGS {
                if self.wr_addr.val().index() == REG_ARGS_FIRST + i {
                    self.args_reg[i].d.next = self.wr_data.val();
                }
            }
            for i in 0..csr::CC_WORDS {
                if self.wr_addr.val().index() == REG_CC_FIRST + i {
                    self.cc_reg[i].d.next = self.wr_data.val();
                }
            }
        }

        // ---- Reads: one case per register; the argument and CC words by range.
        self.rd_data.next = 0.into();
        self.rd_err.next = false;
        match self.rd_addr.val().index() {
            REG_ID => self.rd_data.next = REG_ID_VALUE.into(),
            REG_STATUS => self.rd_data.next = self.status.val(),
            REG_CMD => self.rd_data.next = self.cmd.val(),
            REG_CMD_ERRORS => self.rd_data.next = self.cmd_errors.val(),
            REG_NS_PER_CYCLE_Q16 => self.rd_data.next = self.ns_q16_reg.q.val(),
            REG_SCHED_CFG => self.rd_data.next = self.sched_cfg_reg.q.val(),
            REG_NOW_NS_LO => self.rd_data.next = self.now_reg.q.val().get_bits::<32>(0),
            REG_NOW_NS_HI => self.rd_data.next = self.now_reg.q.val().get_bits::<32>(32),
            REG_COMPLETIONS => self.rd_data.next = self.completions.val(),
            REG_FEEDBACK_IN => self.rd_data.next = self.feedback_in.val(),
            REG_STAT_SEL => self.rd_data.next = self.stat_sel_reg.q.val(),
            REG_STAT_RX_PIPE => self.rd_data.next = self.stat_rx_pipe.val(),
            REG_STAT_RX_CTX => self.rd_data.next = self.stat_rx_ctx.val(),
            REG_STAT_TX_DROP => self.rd_data.next = self.stat_tx_drop.val(),
            REG_STAT_TX_RECV_DROP => self.rd_data.next = self.stat_tx_recv_drop.val(),
            REG_STAT_TX_NAK_IGNORED => self.rd_data.next = self.stat_tx_nak_ignored.val(),
            REG_STAT_TX_CTRL_BAD => self.rd_data.next = self.stat_tx_ctrl_bad.val(),
            REG_STAT_TX_LEN_ERR => self.rd_data.next = self.stat_tx_len_err.val(),
            REG_STAT_RX_WRITTEN => self.rd_data.next = self.stat_rx_written.val(),
            REG_STAT_RX_DISCARDED => self.rd_data.next = self.stat_rx_discarded.val(),
            REG_STAT_RX_SHORT => self.rd_data.next = self.stat_rx_short.val(),
            REG_STAT_CC_BAD_FLOW => self.rd_data.next = self.stat_cc_bad_flow.val(),
            REG_STAT_CC_UNUSED => self.rd_data.next = self.stat_cc_unused.val(),
            REG_TIMER_GAP => self.rd_data.next = self.timer_gap_reg.q.val(),
            REG_TIMER_EVENTS => self.rd_data.next = self.timer_events.val(),
            REG_RTO_CFG => self.rd_data.next = self.rto_cfg_reg.q.val(),
            REG_RTO_TIMEOUTS => self.rd_data.next = self.rto_timeouts.val(),
            REG_RTO_FAILED => self.rd_data.next = self.rto_failed.val(),
            REG_CNP_INTERVAL_NS => self.rd_data.next = self.cnp_reg.q.val(),
            REG_STAT_CNPS => self.rd_data.next = self.stat_cnps.val(),
            REG_TX_EVENT_BYTES => self.rd_data.next = self.tx_bytes_reg.q.val(),
            REG_TX_EVENTS => self.rd_data.next = self.tx_events.val(),
            REG_FB_ACKS => self.rd_data.next = self.fb_acks.val(),
            REG_FB_APPLIED => self.rd_data.next = self.fb_applied.val(),
            REG_FB_IGNORED => self.rd_data.next = self.fb_ignored.val(),
            REG_EVENT_MERGE => self.rd_data.next = self.merge_reg.q.val(),
            REG_MERGED => self.rd_data.next = self.merged.val(),
            REG_EVENT_STALLS => self.rd_data.next = self.event_stalls.val(),
            REG_PROBES => self.rd_data.next = self.probes.val(),
            _ => {
                if (self.rd_addr.val().index() >= REG_ARGS_FIRST) & (self.rd_addr.val().index() < REG_ARGS_END) {
                    for i in 0..csr::ARGS {
                        if self.rd_addr.val().index() == REG_ARGS_FIRST + i {
                            self.rd_data.next = self.args_reg[i].q.val();
                        }
                    }
                } else if (self.rd_addr.val().index() >= REG_CC_FIRST) & (self.rd_addr.val().index() < REG_CC_END) {
                    for i in 0..csr::CC_WORDS {
                        if self.rd_addr.val().index() == REG_CC_FIRST + i {
                            self.rd_data.next = self.cc_reg[i].q.val();
                        }
                    }
                } else {
                    self.rd_err.next = true;
                }
            }
        }

        // ---- Time base: now_ns += ns per cycle (UQ16.16), the fraction carried.
        self.frac_sum.next =
            bit_cast::<17, 16>(self.now_frac.q.val()) + bit_cast::<17, 16>(self.ns_q16_reg.q.val().get_bits::<16>(0));
        self.now_frac.d.next = self.frac_sum.val().get_bits::<16>(0);
        self.now_reg.d.next = self.now_reg.q.val()
            + bit_cast::<64, 16>(self.ns_q16_reg.q.val().get_bits::<16>(16))
            + bit_cast::<64, 1>(self.frac_sum.val().get_bits::<1>(16));

        // ---- Reset: the registers to their reset values (csr.rs), time 0.
        if self.reset.val() {
            self.ns_q16_reg.d.next = RESET_NS_PER_CYCLE.into();
            self.sched_cfg_reg.d.next = RESET_SCHED_CFG.into();
            self.stat_sel_reg.d.next = 0.into();
            self.timer_gap_reg.d.next = RESET_TIMER_GAP.into();
            self.rto_cfg_reg.d.next = RESET_RTO_CFG.into();
            self.cnp_reg.d.next = RESET_CNP_INTERVAL.into();
            self.tx_bytes_reg.d.next = RESET_TX_EVENT_BYTES.into();
            self.merge_reg.d.next = RESET_EVENT_MERGE.into();
            for i in 0..csr::ARGS {
                self.args_reg[i].d.next = 0.into();
            }
            for i in 0..csr::CC_WORDS {
                self.cc_reg[i].d.next = 0.into();
            }
            self.now_frac.d.next = 0.into();
            self.now_reg.d.next = 0.into();
        }
    }
}
