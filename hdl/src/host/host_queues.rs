//! The host queue engine (docs/modules/host_queues.md; golden model `sim::host_queues`): per-flow
//! send queues of work descriptors (WQEs) in host memory, rung by doorbells, and one completion
//! queue of entries (CQEs) in host memory.
//!
//! One state machine runs one event at a time on the send queues' context RAM
//! (`sim::layout::HQ_SQ_CTX`, one BRAM word per flow), three cycles an event: IDLE picks an
//! event and reads its flow's context; LOAD registers the context and a WQE's packet count (so
//! that no path runs from the block RAM's output through EXEC's arithmetic back into it);
//! EXEC acts on it and writes the context back. The events, in priority order:
//!
//! 1. `HQ_SQ_CMD`: enable a queue with the `HQ_SQ_*` values, or disable it (not while busy);
//! 2. a doorbell from the doorbell FIFO (16): the queue's producer index;
//! 3. a completion from the core (`s_axis_cpl`): a CQE; the flow's message is no longer out;
//! 4. a fetched WQE (the WQE FIFO's head): a post for the core (`m_axis_post`), or, for a bad
//!    opcode, a refused CQE;
//! 5. a fetch: the ready FIFO's head flow; a DMA read of its next WQE.
//!
//! A flow joins the ready FIFO (2^F deep, each flow in it at most once: `queued`) when it has
//! WQEs not fetched, is on, and has nothing out (`busy`). At most 16 fetches are out or
//! buffered (enough to cover a host's read round trip: with 4, 64-byte messages were bound at
//! one per 38 cycles by 500 ns reads, docs/benchmarks.md), and the WQE FIFO has room for them
//! all, so the read data stream is never held
//! (the core's payloads share it, `dma_rd_mux`). Each event waits until the outputs it needs
//! are free: a post for the post register, a CQE for the write command and beat registers and
//! room in the completion queue (with the queue off, completions are dropped and counted).

use crate::axil_slave::{AxilPort, AxilSlave};
use crate::axis::{AxisBeatsIn, AxisBeatsOut, AxisWordIn, AxisWordOut};
use crate::byte_swap::ByteSwap64;
use crate::dist_ram::DistRam;
use crate::hpcc_nic_core::csr::{self, CPL_OK, CPL_REFUSED};
use crate::hpcc_nic_core::{ERR_BUSY, ERR_OP};
use crate::layout::{CplNamed, DmaRdFields, DmaWrNamed, HqCqeNamed, HqSqCtxNamed, HqWqeNamed, RxReadNamed, TxPostNamed};
use rust_hdl::prelude::*;

codes! {
    /// The engine's register words (csr.rs `HQ_*`), as its read mux and write decode use them.
    HQ_REG_ADDRS: usize;
    HQ_REG_SQ_SEL = csr::HQ_SQ_SEL,
    HQ_REG_SQ_BASE_LO = csr::HQ_SQ_BASE_LO,
    HQ_REG_SQ_BASE_HI = csr::HQ_SQ_BASE_HI,
    HQ_REG_SQ_CFG = csr::HQ_SQ_CFG,
    HQ_REG_SQ_PSN = csr::HQ_SQ_PSN,
    HQ_REG_SQ_QPN = csr::HQ_SQ_QPN,
    HQ_REG_SQ_CMD = csr::HQ_SQ_CMD,
    HQ_REG_SQ_DOORBELL = csr::HQ_SQ_DOORBELL,
    HQ_REG_CQ_BASE_LO = csr::HQ_CQ_BASE_LO,
    HQ_REG_CQ_BASE_HI = csr::HQ_CQ_BASE_HI,
    HQ_REG_CQ_CFG = csr::HQ_CQ_CFG,
    HQ_REG_CQ_HEAD = csr::HQ_CQ_HEAD,
    HQ_REG_CQ_TAIL = csr::HQ_CQ_TAIL,
    HQ_REG_SQ_STATUS = csr::HQ_SQ_STATUS,
    HQ_REG_STAT_WQES = csr::HQ_STAT_WQES,
    HQ_REG_STAT_CQES = csr::HQ_STAT_CQES,
    HQ_REG_STAT_DB_IGNORED = csr::HQ_STAT_DB_IGNORED,
    HQ_REG_STAT_CQ_DROPPED = csr::HQ_STAT_CQ_DROPPED,
}

codes! {
    /// WQE opcodes (csr.rs).
    HQ_WQE_OPS;
    HQ_OPC_WRITE = csr::HQ_WQE_WRITE,
    HQ_OPC_READ = csr::HQ_WQE_READ,
}

codes! {
    /// The engine's events (`op` in EXEC).
    HQ_OPS;
    HQ_OP_CMD = 0,
    HQ_OP_DB = 1,
    HQ_OP_CPL = 2,
    HQ_OP_WQE = 3,
    HQ_OP_FETCH = 4,
}


/// The engine for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HostQueues<const F: usize> {
    /// The 250 MHz clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: registers to 0, FIFOs empty, every queue off (the context RAM is
    /// cleared by a sweep of 2^F cycles after reset; events wait for it).
    pub reset: Signal<In, bool>,
    /// The engine's registers (`csr::HQ_*`, byte addresses; other addresses SLVERR).
    pub s_axil: AxilPort<12>,
    /// WQE fetches (`sim::layout::DMA_RD`: address, 64 bytes, flow), to `dma_rd_mux`'s 1.
    pub m_axis_rd_req: AxisWordOut<128>,
    /// Their data, one 64-byte beat each, in order (always taken).
    pub s_axis_rd_data: AxisBeatsIn,
    /// CQE writes (`sim::layout::DMA_WR`: address, 16 bytes, flow), to `dma_wr_mux`'s 1.
    pub m_axis_wr_cmd: AxisWordOut<128>,
    /// Their payloads: one beat, 16 bytes in lanes 0-15.
    pub m_axis_wr: AxisBeatsOut,
    /// Posts to the core's post port (`sim::layout::CORE_POST`), held until taken.
    pub m_axis_post: AxisWordOut<432>,
    /// The core's completions (`sim::layout::CPL`).
    pub s_axis_cpl: AxisWordIn<64>,

    axil: AxilSlave<12>,
    ctx: RAM<Bits<149>, F>,
    ready: DistRam<Bits<F>, F>,
    dbq: DistRam<Bits<32>, 4>,
    fq: DistRam<Bits<F>, 4>,
    wq: DistRam<Bits<224>, 4>,
    /// The RETH's big-endian bytes: the remote address; the R_Key and the length.
    sw_remote: ByteSwap64,
    sw_key_len: ByteSwap64,
    // Registers.
    sq_sel: DFF<Bits<16>>,
    sq_base_lo: DFF<Bits<32>>,
    sq_base_hi: DFF<Bits<32>>,
    sq_cfg: DFF<Bits<12>>,
    sq_psn: DFF<Bits<24>>,
    sq_qpn: DFF<Bits<24>>,
    sq_cmd: DFF<Bits<32>>,
    cmd_pend: DFF<bool>,
    sq_err: DFF<Bits<4>>,
    cq_base_lo: DFF<Bits<32>>,
    cq_base_hi: DFF<Bits<32>>,
    cq_cfg: DFF<Bits<9>>,
    cq_head: DFF<Bits<16>>,
    cq_tail: DFF<Bits<16>>,
    n_wqes: DFF<Bits<32>>,
    n_cqes: DFF<Bits<32>>,
    n_db_ignored: DFF<Bits<32>>,
    n_cq_dropped: DFF<Bits<32>>,
    // FIFOs' pointers.
    db_wr: DFF<Bits<5>>,
    db_rd: DFF<Bits<5>>,
    /// The ready FIFO's pointers (mod 2^16; it never holds more than 2^F: each flow once).
    rf_wr: DFF<Bits<16>>,
    rf_rd: DFF<Bits<16>>,
    /// The fetch and WQE FIFOs' pointers (16 entries, one bit more).
    fq_wr: DFF<Bits<5>>,
    fq_rd: DFF<Bits<5>>,
    wq_wr: DFF<Bits<5>>,
    wq_rd: DFF<Bits<5>>,
    /// Fetches out plus WQEs buffered: at most 16 (the WQE FIFO's depth; bit 4 set: full).
    infl: DFF<Bits<5>>,
    // The state machine: LOAD, EXEC, the event, its flow and words, the context registered.
    load: DFF<bool>,
    exec: DFF<bool>,
    c_q: DFF<Bits<149>>,
    npk_q: DFF<Bits<24>>,
    /// Found in LOAD from the context (EXEC's compares, registered): the ring's index mask; a
    /// doorbell's producer index is within the ring of the consumer index (and the queue on);
    /// it differs from the consumer index; the context's producer index differs from it.
    mask_q: DFF<Bits<16>>,
    db_ok_q: DFF<bool>,
    db_ne_q: DFF<bool>,
    pc_ne_q: DFF<bool>,
    /// The completion queue's index mask (from `HQ_CQ_CFG`).
    cq_mask_q: DFF<Bits<16>>,
    op: DFF<Bits<3>>,
    e_flow: DFF<Bits<16>>,
    e_prod: DFF<Bits<16>>,
    /// The sweep after reset: the context RAM's words cleared, one a cycle.
    sweep: DFF<bool>,
    sweep_at: DFF<Bits<F>>,
    // Outputs held until taken.
    rd_valid: DFF<bool>,
    rd_word: DFF<Bits<128>>,
    wr_cmd_valid: DFF<bool>,
    wr_cmd_word: DFF<Bits<128>>,
    wr_valid: DFF<bool>,
    wr_word: DFF<Bits<128>>,
    post_valid: DFF<bool>,
    post_word: DFF<Bits<432>>,

    // Locals.
    db_used: Signal<Local, Bits<5>>,
    cfg_ok: Signal<Local, bool>,
    sel_ok: Signal<Local, bool>,
    db_flow_ok: Signal<Local, bool>,
    cq_on: Signal<Local, bool>,
    cq_mask: Signal<Local, Bits<16>>,
    cq_room: Signal<Local, bool>,
    cqe_free: Signal<Local, bool>,
    cpl_flow: Signal<Local, Bits<16>>,
    db_head: Signal<Local, Bits<32>>,
    start: Signal<Local, bool>,
    c: Signal<Local, Bits<149>>,
    n: Signal<Local, Bits<149>>,
    ring_mask: Signal<Local, Bits<16>>,
    ahead: Signal<Local, Bits<16>>,
    limit: Signal<Local, Bits<17>>,
    wake: Signal<Local, bool>,
    cqe_go: Signal<Local, bool>,
    cqe_cpl: Signal<Local, Bits<64>>,
    cqe_index: Signal<Local, Bits<16>>,
    cqe: Signal<Local, Bits<128>>,
    wqe: Signal<Local, Bits<512>>,
    sq_base: Signal<Local, Bits<64>>,
    cq_base: Signal<Local, Bits<64>>,
    tail_sh: Signal<Local, Bits<16>>,
    tx288: Signal<Local, Bits<288>>,
    one14: Signal<Local, Bits<14>>,
    lc: Signal<Local, Bits<149>>,
    wr_cmd96: Signal<Local, Bits<96>>,
    opcode: Signal<Local, Bits<8>>,
    len: Signal<Local, Bits<32>>,
    npkts: Signal<Local, Bits<33>>,
    mtu_m1: Signal<Local, Bits<33>>,
    tx: Signal<Local, Bits<512>>,
    rx: Signal<Local, Bits<128>>,
    reth: Signal<Local, Bits<128>>,
    refused: Signal<Local, Bits<64>>,
    ok: Signal<Local, bool>,
}

impl<const F: usize> HostQueues<F> {
    pub fn new() -> Self {
        Self::default()
    }
}

impl<const F: usize> Logic for HostQueues<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, sq_sel, sq_base_lo, sq_base_hi, sq_cfg, sq_psn, sq_qpn, sq_cmd, cmd_pend, sq_err, cq_base_lo, cq_base_hi, cq_cfg, cq_head,
            cq_tail, n_wqes, n_cqes, n_db_ignored, n_cq_dropped, db_wr, db_rd, rf_wr, rf_rd, fq_wr, fq_rd, wq_wr, wq_rd,
            infl, load, exec, c_q, npk_q, mask_q, db_ok_q, db_ne_q, pc_ne_q, cq_mask_q, op, e_flow, e_prod, sweep, sweep_at, rd_valid, rd_word, wr_cmd_valid, wr_cmd_word, wr_valid,
            wr_word, post_valid, post_word
        );
        clock!(self, clock, axil);
        self.axil.reset.next = self.reset.val();
        AxilPort::<12>::link(&mut self.s_axil, &mut self.axil.s_axil);
        self.ctx.read_clock.next = self.clock.val();
        self.ctx.write_clock.next = self.clock.val();
        self.ready.write_clock.next = self.clock.val();
        self.dbq.write_clock.next = self.clock.val();
        self.fq.write_clock.next = self.clock.val();
        self.wq.write_clock.next = self.clock.val();

        // ---- Registers. Writes: the staging values, SQ_CMD (checked here), doorbells into
        // their FIFO, the completion queue's.
        self.db_used.next = self.db_wr.q.val() - self.db_rd.q.val();
        self.sel_ok.next = bit_cast::<16, F>(self.sq_sel.q.val().get_bits::<F>(0)) == self.sq_sel.q.val();
        self.cfg_ok.next = (self.sq_cfg.q.val().get_bits::<4>(0) >= 1)
            & (self.sq_cfg.q.val().get_bits::<4>(0) <= 12)
            & (self.sq_cfg.q.val().get_bits::<4>(8) >= 8)
            & (self.sq_cfg.q.val().get_bits::<4>(8) <= 12);
        self.db_flow_ok.next =
            bit_cast::<16, F>(self.axil.wr_data.val().get_bits::<F>(16)) == self.axil.wr_data.val().get_bits::<16>(16);
        self.axil.wr_err.next = self.axil.wr_strb.val() != 0xF;
        self.dbq.write_enable.next = false;
        self.dbq.write_address.next = self.db_wr.q.val().get_bits::<4>(0);
        self.dbq.write_data.next = self.axil.wr_data.val();
        match self.axil.wr_addr.val().index() {
            HQ_REG_SQ_SEL => {}
            HQ_REG_SQ_BASE_LO => {}
            HQ_REG_SQ_BASE_HI => {}
            HQ_REG_SQ_CFG => {}
            HQ_REG_SQ_PSN => {}
            HQ_REG_SQ_QPN => {}
            HQ_REG_CQ_BASE_LO => {}
            HQ_REG_CQ_BASE_HI => {}
            HQ_REG_CQ_HEAD => {}
            HQ_REG_SQ_CMD => {
                if self.cmd_pend.q.val() | !self.sel_ok.val() | (self.axil.wr_data.val().get_bit(0) & !self.cfg_ok.val()) {
                    self.axil.wr_err.next = true;
                }
            }
            HQ_REG_SQ_DOORBELL => {
                if !self.db_flow_ok.val() | self.db_used.val().get_bit(4) {
                    self.axil.wr_err.next = true;
                }
            }
            HQ_REG_CQ_CFG => {
                if self.axil.wr_data.val().get_bit(8) & (self.axil.wr_data.val().get_bits::<4>(0) == 0) {
                    self.axil.wr_err.next = true;
                }
            }
            _ => {
                self.axil.wr_err.next = true;
            }
        }
        if self.axil.wr_en.val() & !self.axil.wr_err.val() {
            match self.axil.wr_addr.val().index() {
                HQ_REG_SQ_SEL => self.sq_sel.d.next = self.axil.wr_data.val().get_bits::<16>(0),
                HQ_REG_SQ_BASE_LO => self.sq_base_lo.d.next = self.axil.wr_data.val(),
                HQ_REG_SQ_BASE_HI => self.sq_base_hi.d.next = self.axil.wr_data.val(),
                HQ_REG_SQ_CFG => self.sq_cfg.d.next = self.axil.wr_data.val().get_bits::<12>(0),
                HQ_REG_SQ_PSN => self.sq_psn.d.next = self.axil.wr_data.val().get_bits::<24>(0),
                HQ_REG_SQ_QPN => self.sq_qpn.d.next = self.axil.wr_data.val().get_bits::<24>(0),
                HQ_REG_SQ_CMD => {
                    self.sq_cmd.d.next = self.axil.wr_data.val();
                    self.cmd_pend.d.next = true;
                    self.sq_err.d.next = 0.into();
                }
                HQ_REG_SQ_DOORBELL => {
                    self.dbq.write_enable.next = true;
                    self.db_wr.d.next = self.db_wr.q.val() + 1;
                }
                HQ_REG_CQ_BASE_LO => self.cq_base_lo.d.next = self.axil.wr_data.val(),
                HQ_REG_CQ_BASE_HI => self.cq_base_hi.d.next = self.axil.wr_data.val(),
                HQ_REG_CQ_CFG => {
                    self.cq_cfg.d.next = self.axil.wr_data.val().get_bits::<9>(0);
                    self.cq_mask_q.d.next = (bit_cast::<16, 1>(1.into()) << self.axil.wr_data.val().get_bits::<4>(0)) - 1;
                    self.cq_tail.d.next = 0.into();
                    self.cq_head.d.next = 0.into();
                }
                HQ_REG_CQ_HEAD => self.cq_head.d.next = self.axil.wr_data.val().get_bits::<16>(0),
                _ => {}
            }
        }
        self.axil.rd_err.next = false;
        self.axil.rd_data.next = 0.into();
        match self.axil.rd_addr.val().index() {
            HQ_REG_SQ_SEL => self.axil.rd_data.next = bit_cast::<32, 16>(self.sq_sel.q.val()),
            HQ_REG_SQ_BASE_LO => self.axil.rd_data.next = self.sq_base_lo.q.val(),
            HQ_REG_SQ_BASE_HI => self.axil.rd_data.next = self.sq_base_hi.q.val(),
            HQ_REG_SQ_CFG => self.axil.rd_data.next = bit_cast::<32, 12>(self.sq_cfg.q.val()),
            HQ_REG_SQ_PSN => self.axil.rd_data.next = bit_cast::<32, 24>(self.sq_psn.q.val()),
            HQ_REG_SQ_QPN => self.axil.rd_data.next = bit_cast::<32, 24>(self.sq_qpn.q.val()),
            HQ_REG_SQ_CMD => self.axil.rd_data.next = self.sq_cmd.q.val(),
            HQ_REG_CQ_BASE_LO => self.axil.rd_data.next = self.cq_base_lo.q.val(),
            HQ_REG_CQ_BASE_HI => self.axil.rd_data.next = self.cq_base_hi.q.val(),
            HQ_REG_CQ_CFG => self.axil.rd_data.next = bit_cast::<32, 9>(self.cq_cfg.q.val()),
            HQ_REG_CQ_HEAD => self.axil.rd_data.next = bit_cast::<32, 16>(self.cq_head.q.val()),
            HQ_REG_CQ_TAIL => self.axil.rd_data.next = bit_cast::<32, 16>(self.cq_tail.q.val()),
            HQ_REG_SQ_STATUS => {
                self.axil.rd_data.next =
                    (bit_cast::<32, 4>(self.sq_err.q.val()) << 4) | bit_cast::<32, 1>(self.cmd_pend.q.val().into())
            }
            HQ_REG_STAT_WQES => self.axil.rd_data.next = self.n_wqes.q.val(),
            HQ_REG_STAT_CQES => self.axil.rd_data.next = self.n_cqes.q.val(),
            HQ_REG_STAT_DB_IGNORED => self.axil.rd_data.next = self.n_db_ignored.q.val(),
            HQ_REG_STAT_CQ_DROPPED => self.axil.rd_data.next = self.n_cq_dropped.q.val(),
            _ => self.axil.rd_err.next = true,
        }

        // ---- The outputs held until taken.
        self.m_axis_rd_req.tvalid.next = self.rd_valid.q.val();
        self.m_axis_rd_req.tdata.next = self.rd_word.q.val();
        if self.m_axis_rd_req.tready.val() {
            self.rd_valid.d.next = false;
        }
        self.m_axis_wr_cmd.tvalid.next = self.wr_cmd_valid.q.val();
        self.m_axis_wr_cmd.tdata.next = self.wr_cmd_word.q.val();
        if self.m_axis_wr_cmd.tready.val() {
            self.wr_cmd_valid.d.next = false;
        }
        self.m_axis_wr.tvalid.next = self.wr_valid.q.val();
        self.m_axis_wr.tdata.next = bit_cast::<512, 128>(self.wr_word.q.val());
        self.m_axis_wr.tkeep.next = 0xFFFF.into();
        self.m_axis_wr.tlast.next = true;
        if self.m_axis_wr.tready.val() {
            self.wr_valid.d.next = false;
        }
        self.m_axis_post.tvalid.next = self.post_valid.q.val();
        self.m_axis_post.tdata.next = self.post_word.q.val();
        if self.m_axis_post.tready.val() {
            self.post_valid.d.next = false;
        }

        // ---- WQE data: always taken (room reserved at the fetch).
        self.s_axis_rd_data.tready.next = true;
        self.wq.write_enable.next = false;
        self.wq.write_address.next = self.wq_wr.q.val().get_bits::<4>(0);
        self.wq.write_data.next = self.s_axis_rd_data.tdata.val().get_bits::<224>(0);
        if self.s_axis_rd_data.tvalid.val() {
            self.wq.write_enable.next = true;
            self.wq_wr.d.next = self.wq_wr.q.val() + 1;
        }

        // ---- IDLE: the next event, its flow's context read.
        self.sq_base.next = (bit_cast::<64, 32>(self.sq_base_hi.q.val()) << 32) | bit_cast::<64, 32>(self.sq_base_lo.q.val());
        self.cq_base.next = (bit_cast::<64, 32>(self.cq_base_hi.q.val()) << 32) | bit_cast::<64, 32>(self.cq_base_lo.q.val());
        self.cq_on.next = self.cq_cfg.q.val().get_bit(8);
        self.cq_mask.next = self.cq_mask_q.q.val();
        self.cq_room.next = !self.cq_on.val() | ((self.cq_tail.q.val() - self.cq_head.q.val()) <= self.cq_mask.val());
        self.cqe_free.next = !self.wr_cmd_valid.q.val() & !self.wr_valid.q.val() & self.cq_room.val();
        self.cpl_flow.next = self.s_axis_cpl.tdata.val().get_value_cpl_flow();
        self.dbq.read_address.next = self.db_rd.q.val().get_bits::<4>(0);
        self.db_head.next = self.dbq.read_data.val();
        self.ready.read_address.next = self.rf_rd.q.val().get_bits::<F>(0);
        self.fq.read_address.next = self.fq_rd.q.val().get_bits::<4>(0);
        self.wq.read_address.next = self.wq_rd.q.val().get_bits::<4>(0);
        self.ctx.read_address.next = self.sq_sel.q.val().get_bits::<F>(0);
        self.start.next = !self.load.q.val() & !self.exec.q.val() & !self.sweep.q.val();
        if self.start.val() {
            if self.cmd_pend.q.val() {
                self.op.d.next = HQ_OP_CMD.into();
                self.e_flow.d.next = self.sq_sel.q.val();
                self.load.d.next = true;
            } else if self.db_used.val() != 0 {
                self.op.d.next = HQ_OP_DB.into();
                self.e_flow.d.next = self.db_head.val().get_bits::<16>(16);
                self.e_prod.d.next = self.db_head.val().get_bits::<16>(0);
                self.ctx.read_address.next = self.db_head.val().get_bits::<F>(16);
                self.db_rd.d.next = self.db_rd.q.val() + 1;
                self.load.d.next = true;
            } else if self.s_axis_cpl.tvalid.val() & self.cqe_free.val() {
                self.op.d.next = HQ_OP_CPL.into();
                self.e_flow.d.next = self.cpl_flow.val();
                self.ctx.read_address.next = self.cpl_flow.val().get_bits::<F>(0);
                self.load.d.next = true;
            } else if (self.wq_wr.q.val() != self.wq_rd.q.val()) & !self.post_valid.q.val() & self.cqe_free.val() {
                self.op.d.next = HQ_OP_WQE.into();
                self.e_flow.d.next = bit_cast::<16, F>(self.fq.read_data.val());
                self.ctx.read_address.next = self.fq.read_data.val();
                self.load.d.next = true;
            } else if (self.rf_wr.q.val() != self.rf_rd.q.val()) & !self.rd_valid.q.val() & !self.infl.q.val().get_bit(4) {
                self.op.d.next = HQ_OP_FETCH.into();
                self.e_flow.d.next = bit_cast::<16, F>(self.ready.read_data.val());
                self.ctx.read_address.next = self.ready.read_data.val();
                self.rf_rd.d.next = self.rf_rd.q.val() + 1;
                self.load.d.next = true;
            }
        }

        // ---- LOAD: the context read, and a WQE's packets: ceil(length / MTU), at least 1.
        self.lc.next = self.ctx.read_data.val();
        self.wqe.next = bit_cast::<512, 224>(self.wq.read_data.val());
        self.len.next = self.wqe.val().get_value_hq_wqe_len();
        self.mtu_m1.next = (bit_cast::<33, 1>(1.into()) << self.lc.val().get_value_hq_sq_ctx_mtu_log()) - 1;
        self.npkts.next = (bit_cast::<33, 32>(self.len.val()) + self.mtu_m1.val()) >> self.lc.val().get_value_hq_sq_ctx_mtu_log();
        if self.len.val() == 0 {
            self.npkts.next = 1.into();
        }
        self.ring_mask.next = (bit_cast::<16, 1>(1.into()) << self.lc.val().get_value_hq_sq_ctx_size_log()) - 1;
        self.ahead.next = self.e_prod.q.val() - self.lc.val().get_value_hq_sq_ctx_cons();
        self.limit.next = bit_cast::<17, 16>(self.ring_mask.val()) + 1;
        if self.load.q.val() {
            self.load.d.next = false;
            self.exec.d.next = true;
            self.c_q.d.next = self.lc.val();
            self.npk_q.d.next = self.npkts.val().get_bits::<24>(0);
            self.mask_q.d.next = self.ring_mask.val();
            self.db_ok_q.d.next = self.lc.val().get_value_hq_sq_ctx_on() & (bit_cast::<17, 16>(self.ahead.val()) <= self.limit.val());
            self.db_ne_q.d.next = self.e_prod.q.val() != self.lc.val().get_value_hq_sq_ctx_cons();
            self.pc_ne_q.d.next = self.lc.val().get_value_hq_sq_ctx_prod() != self.lc.val().get_value_hq_sq_ctx_cons();
        }

        // ---- EXEC: the event on its flow's context.
        self.c.next = self.c_q.q.val();
        self.n.next = self.c.val();
        self.ctx.write_enable.next = false;
        self.ctx.write_address.next = self.e_flow.q.val().get_bits::<F>(0);
        self.wake.next = false;
        self.cqe_go.next = false;
        self.cqe_cpl.next = self.s_axis_cpl.tdata.val();
        self.cqe_index.next = 0xFFFF.into();
        self.s_axis_cpl.tready.next = false;
        self.opcode.next = self.wqe.val().get_value_hq_wqe_opcode();
        self.ok.next = self.s_axis_cpl.tdata.val().get_value_cpl_status() == CPL_OK;
        self.refused.next = 0.into();
        self.refused.next.set_value_cpl_flow(self.e_flow.q.val());
        self.refused.next.set_value_cpl_tag(self.wqe.val().get_value_hq_wqe_tag());
        self.refused.next.set_value_cpl_status(CPL_REFUSED.into());
        self.refused.next.set_value_cpl_error(ERR_OP.into());
        // The post word: tx_ctx's post (RETH big-endian: remote address, R_Key, length).
        self.sw_remote.a.next = self.wqe.val().get_value_hq_wqe_remote();
        self.sw_key_len.a.next =
            (bit_cast::<64, 32>(self.wqe.val().get_value_hq_wqe_rkey()) << 32) | bit_cast::<64, 32>(self.len.val());
        self.reth.next = (bit_cast::<128, 64>(self.sw_key_len.y.val()) << 64) | bit_cast::<128, 64>(self.sw_remote.y.val());
        self.tx.next = 0.into();
        self.rx.next = 0.into();
        self.ready.write_enable.next = false;
        self.ready.write_address.next = self.rf_wr.q.val().get_bits::<F>(0);
        self.ready.write_data.next = self.e_flow.q.val().get_bits::<F>(0);
        self.fq.write_enable.next = false;
        self.fq.write_address.next = self.fq_wr.q.val().get_bits::<4>(0);
        self.fq.write_data.next = self.e_flow.q.val().get_bits::<F>(0);
        if self.exec.q.val() {
            self.exec.d.next = false;
            if self.op.q.val() == HQ_OP_CMD {
                self.cmd_pend.d.next = false;
                if self.c.val().get_value_hq_sq_ctx_busy() {
                    self.sq_err.d.next = ERR_BUSY.into();
                } else {
                    self.ctx.write_enable.next = true;
                    self.n.next.set_value_hq_sq_ctx_on(false);
                    if self.sq_cmd.q.val().get_bit(0) {
                        self.n.next = 0.into();
                        self.n.next.set_value_hq_sq_ctx_queued(self.c.val().get_value_hq_sq_ctx_queued());
                        self.n.next.set_value_hq_sq_ctx_on(true);
                        self.n.next.set_value_hq_sq_ctx_base(self.sq_base.val().get_bits::<58>(6));
                        self.n.next.set_value_hq_sq_ctx_size_log(self.sq_cfg.q.val().get_bits::<4>(0));
                        self.n.next.set_value_hq_sq_ctx_mtu_log(self.sq_cfg.q.val().get_bits::<4>(8));
                        self.n.next.set_value_hq_sq_ctx_psn(self.sq_psn.q.val());
                        self.n.next.set_value_hq_sq_ctx_qpn(self.sq_qpn.q.val());
                    }
                }
            } else if self.op.q.val() == HQ_OP_DB {
                if !self.db_ok_q.q.val() {
                    self.n_db_ignored.d.next = self.n_db_ignored.q.val() + 1;
                } else {
                    self.ctx.write_enable.next = true;
                    self.n.next.set_value_hq_sq_ctx_prod(self.e_prod.q.val());
                    self.wake.next =
                        !self.c.val().get_value_hq_sq_ctx_busy() & !self.c.val().get_value_hq_sq_ctx_queued() & self.db_ne_q.q.val();
                }
            } else if self.op.q.val() == HQ_OP_CPL {
                self.s_axis_cpl.tready.next = true;
                self.cqe_go.next = true;
                if (bit_cast::<16, F>(self.e_flow.q.val().get_bits::<F>(0)) == self.e_flow.q.val()) & self.c.val().get_value_hq_sq_ctx_busy() {
                    self.ctx.write_enable.next = true;
                    self.cqe_index.next = self.c.val().get_value_hq_sq_ctx_cons() - 1;
                    self.n.next.set_value_hq_sq_ctx_busy(false);
                    self.n.next.set_value_hq_sq_ctx_on(self.c.val().get_value_hq_sq_ctx_on() & self.ok.val());
                    self.wake.next = self.c.val().get_value_hq_sq_ctx_on()
                        & self.ok.val()
                        & !self.c.val().get_value_hq_sq_ctx_queued()
                        & self.pc_ne_q.q.val();
                }
            } else if self.op.q.val() == HQ_OP_WQE {
                self.ctx.write_enable.next = true;
                self.fq_rd.d.next = self.fq_rd.q.val() + 1;
                self.wq_rd.d.next = self.wq_rd.q.val() + 1;
                self.infl.d.next = self.infl.q.val() - 1;
                self.n.next.set_value_hq_sq_ctx_cons(self.c.val().get_value_hq_sq_ctx_cons() + 1);
                if (self.opcode.val() == HQ_OPC_WRITE) | (self.opcode.val() == HQ_OPC_READ) {
                    self.n.next.set_value_hq_sq_ctx_psn(self.c.val().get_value_hq_sq_ctx_psn() + self.npk_q.q.val());
                    self.post_valid.d.next = true;
                } else {
                    // Not posted: a refused completion; the queue in error.
                    self.cqe_go.next = true;
                    self.cqe_cpl.next = self.refused.val();
                    self.cqe_index.next = self.c.val().get_value_hq_sq_ctx_cons();
                    self.n.next.set_value_hq_sq_ctx_busy(false);
                    self.n.next.set_value_hq_sq_ctx_on(false);
                }
            } else {
                // Fetch: the flow leaves the ready FIFO; its next WQE is read if it still may.
                self.ctx.write_enable.next = true;
                self.n.next.set_value_hq_sq_ctx_queued(false);
                if self.c.val().get_value_hq_sq_ctx_on() & !self.c.val().get_value_hq_sq_ctx_busy() & self.pc_ne_q.q.val() {
                    self.n.next.set_value_hq_sq_ctx_busy(true);
                    self.rd_valid.d.next = true;
                    self.rd_word.d.next = 0.into();
                    self.rd_word.d.next.set_value_addr(
                        (bit_cast::<64, 58>(self.c.val().get_value_hq_sq_ctx_base())
                            + bit_cast::<64, 16>(self.c.val().get_value_hq_sq_ctx_cons() & self.mask_q.q.val()))
                            << 6,
                    );
                    self.rd_word.d.next.set_value_len(64.into());
                    self.rd_word.d.next.set_value_flow(self.e_flow.q.val());
                    self.fq.write_enable.next = true;
                    self.fq_wr.d.next = self.fq_wr.q.val() + 1;
                    self.infl.d.next = self.infl.q.val() + 1;
                    self.n_wqes.d.next = self.n_wqes.q.val() + 1;
                }
            }
        }
        // A queue with WQEs not fetched, on, idle and not queued joins the ready FIFO (`wake`:
        // a doorbell's or a completion's, found from LOAD's registered compares).
        if self.wake.val() {
            self.n.next.set_value_hq_sq_ctx_queued(true);
            self.ready.write_enable.next = true;
            self.rf_wr.d.next = self.rf_wr.q.val() + 1;
        }
        self.ctx.write_data.next = self.n.val();
        // The post: tx_ctx's post word and, for a READ, rx_ctx's READ word.
        self.tx.next.set_value_tx_post_op(3.into());
        self.tx.next.set_value_tx_post_flow(self.e_flow.q.val());
        self.tx.next.set_value_tx_post_first_psn(self.c.val().get_value_hq_sq_ctx_psn());
        self.tx.next.set_value_tx_post_local(self.wqe.val().get_value_hq_wqe_local());
        self.tx.next.set_value_tx_post_read(self.opcode.val() == HQ_OPC_READ);
        self.tx.next.set_value_tx_post_reth(self.reth.val());
        self.rx.next.set_value_rx_read_op(3.into());
        self.one14.next = 1.into();
        self.rx.next.set_value_rx_read_mtu(self.one14.val() << self.c.val().get_value_hq_sq_ctx_mtu_log());
        self.rx.next.set_value_rx_read_qpn(self.c.val().get_value_hq_sq_ctx_qpn());
        self.rx.next.set_value_rx_read_addr(self.wqe.val().get_value_hq_wqe_local());
        self.tx288.next = self.tx.val().get_bits::<288>(0);
        // A WRITE's rx word is ignored by the core: 0, as the model leaves it.
        if self.opcode.val() != HQ_OPC_READ {
            self.rx.next = 0.into();
        }
        if self.exec.q.val() & (self.op.q.val() == HQ_OP_WQE) {
            self.post_word.d.next = bit_cast::<432, 288>(self.tx288.val())
                | (bit_cast::<432, 128>(self.rx.val()) << 288)
                | (bit_cast::<432, 16>(self.wqe.val().get_value_hq_wqe_tag()) << 416);
        }
        // The CQE: the completion word, the WQE's index, the phase; at the ring's tail.
        self.cqe.next = 0.into();
        self.cqe.next.set_value_hq_cqe_cpl(self.cqe_cpl.val());
        self.cqe.next.set_value_hq_cqe_index(self.cqe_index.val());
        self.tail_sh.next = self.cq_tail.q.val() >> self.cq_cfg.q.val().get_bits::<4>(0);
        self.cqe.next.set_value_hq_cqe_phase(!self.tail_sh.val().get_bit(0));
        self.wr_cmd96.next = 0.into();
        self.wr_cmd96.next.set_value_dma_wr_addr(self.cq_base.val() + (bit_cast::<64, 16>(self.cq_tail.q.val() & self.cq_mask.val()) << 4));
        self.wr_cmd96.next.set_value_dma_wr_len(16.into());
        self.wr_cmd96.next.set_value_dma_wr_flow(self.e_flow.q.val());
        if self.cqe_go.val() {
            if self.cq_on.val() {
                self.wr_valid.d.next = true;
                self.wr_word.d.next = self.cqe.val();
                self.wr_cmd_valid.d.next = true;
                self.wr_cmd_word.d.next = bit_cast::<128, 96>(self.wr_cmd96.val());
                self.cq_tail.d.next = self.cq_tail.q.val() + 1;
                self.n_cqes.d.next = self.n_cqes.q.val() + 1;
            } else {
                self.n_cq_dropped.d.next = self.n_cq_dropped.q.val() + 1;
            }
        }

        // ---- The sweep after reset: every context word cleared (every queue off).
        if self.sweep.q.val() {
            self.ctx.write_enable.next = true;
            self.ctx.write_address.next = self.sweep_at.q.val();
            self.ctx.write_data.next = 0.into();
            self.sweep_at.d.next = self.sweep_at.q.val() + 1;
            if self.sweep_at.q.val().all() {
                self.sweep.d.next = false;
            }
        }
        if self.reset.val() {
            self.sweep.d.next = true;
            self.sweep_at.d.next = 0.into();
            self.load.d.next = false;
            self.exec.d.next = false;
            self.cmd_pend.d.next = false;
            self.sq_err.d.next = 0.into();
            self.sq_sel.d.next = 0.into();
            self.sq_base_lo.d.next = 0.into();
            self.sq_base_hi.d.next = 0.into();
            self.sq_cfg.d.next = 0.into();
            self.sq_psn.d.next = 0.into();
            self.sq_qpn.d.next = 0.into();
            self.sq_cmd.d.next = 0.into();
            self.cq_base_lo.d.next = 0.into();
            self.cq_base_hi.d.next = 0.into();
            self.cq_cfg.d.next = 0.into();
            self.cq_mask_q.d.next = 0.into();
            self.cq_head.d.next = 0.into();
            self.cq_tail.d.next = 0.into();
            self.n_wqes.d.next = 0.into();
            self.n_cqes.d.next = 0.into();
            self.n_db_ignored.d.next = 0.into();
            self.n_cq_dropped.d.next = 0.into();
            self.db_wr.d.next = 0.into();
            self.db_rd.d.next = 0.into();
            self.rf_wr.d.next = 0.into();
            self.rf_rd.d.next = 0.into();
            self.fq_wr.d.next = 0.into();
            self.fq_rd.d.next = 0.into();
            self.wq_wr.d.next = 0.into();
            self.wq_rd.d.next = 0.into();
            self.infl.d.next = 0.into();
            self.rd_valid.d.next = false;
            self.wr_cmd_valid.d.next = false;
            self.wr_valid.d.next = false;
            self.post_valid.d.next = false;
        }
    }
}
