//! Rx pipe step 3: store-and-forward frame store in front of the DMA write engine. Every
//! frame is kept until its command (from rx_ctx, one per frame, in frame order) arrives; then
//! its payload goes out realigned to lane 0 (write) or the frame is dropped (discard). Nothing
//! leaves before its command says write. Golden model `sim::rx_dma` (docs/modules/rx_dma.md).
//!
//! ```text
//! s_axis beats -> two BRAM banks (even / odd beats, 2^B x 512 each); at tlast a descriptor
//!                 (stored beats, byte length, truncated) -> desc FIFO (64, LUT RAM)
//! s_axis_cmd  ------------------------------------------------> cmd FIFO (64, LUT RAM)
//! decide: head desc + head cmd -> discard (free the beats) or load a job (DMA command out)
//! fetch:  job beat j reads stored beats b0+j and b0+j+1 (one per bank) in one cycle
//! combine: (hi:lo) >> 8 x (offset % 64), keep -> register -> out FIFO (16, LUT RAM) -> m_axis
//! ```
//!
//! Frames longer than 144 beats (9216 bytes) keep their first 144 beats and a truncated flag;
//! the rest is consumed at line rate without being stored. A write command whose
//! offset + length exceeds the stored length, or for a truncated frame, is a contract
//! violation: the frame is discarded and counted in `stat_short`. Fetches are issued only with
//! credit in the out FIFO, so the fetch pipeline never stalls and a frame's beats are freed as
//! soon as its last fetch is issued.

use crate::dist_ram::DistRam;
use crate::layout::{DmaCmdFields, DmaWrFields, RxDmaFrameNamed};
use crate::rx_dma_combine::RxDmaCombine;
use crate::rx_dma_frame::RxDmaFrame;
use crate::rx_dma_out::RxDmaOut;
use rust_hdl::prelude::*;

/// Beats kept per frame: 9216 bytes.
pub const MAX_BEATS: u64 = 144;
/// Descriptor and command FIFO depth (log2).
pub const QUEUE_BITS: usize = 6;

/// See the module doc. `B`: log2 of the beats per bank; the store holds 2^(B+1) beats
/// (B >= 7, so that a 144-beat frame fits; rtl-out has B = 9: 1024 beats, 64 KiB).
#[derive(LogicBlock, Default)]
pub struct RxDma<const B: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: forgets stored frames, the frame in progress, pending commands,
    /// queued output and the counters.
    pub reset: Signal<In, bool>,
    /// Frame beat: byte 64k + i of beat k at [8i+7:8i].
    pub s_axis_tdata: Signal<In, Bits<512>>,
    /// Byte enables; only the last beat's are used: its highest kept lane sets the length.
    pub s_axis_tkeep: Signal<In, Bits<64>>,
    /// A beat is offered.
    pub s_axis_tvalid: Signal<In, bool>,
    /// The beat is taken: room for a beat in the store (or the frame is past 144 beats) and
    /// fewer than 60 frames waiting in the desc FIFO; registered, independent of tvalid.
    pub s_axis_tready: Signal<Out, bool>,
    /// Last beat of a frame.
    pub s_axis_tlast: Signal<In, bool>,
    /// Command for the oldest frame without one: [63:0] host address, [70:64] payload offset,
    /// [93:80] payload length, [96] write (0: discard), [127:112] flow id.
    pub s_axis_cmd_tdata: Signal<In, Bits<128>>,
    /// A command is offered.
    pub s_axis_cmd_tvalid: Signal<In, bool>,
    /// The command is taken: fewer than 64 commands waiting (registered).
    pub s_axis_cmd_tready: Signal<Out, bool>,
    /// DMA write command: [63:0] address, [77:64] length (1..9216), [95:80] flow; offered at
    /// least two cycles before its first data beat is.
    pub m_axis_dma_wr_cmd_tdata: Signal<Out, Bits<128>>,
    /// A DMA write command is offered.
    pub m_axis_dma_wr_cmd_tvalid: Signal<Out, bool>,
    /// The DMA engine takes the command.
    pub m_axis_dma_wr_cmd_tready: Signal<In, bool>,
    /// Payload beat: payload byte j of the write at beat j / 64, lane j % 64.
    pub m_axis_dma_wr_tdata: Signal<Out, Bits<512>>,
    /// All ones, except on the last beat: lanes 0 .. (length - 1) % 64.
    pub m_axis_dma_wr_tkeep: Signal<Out, Bits<64>>,
    /// A payload beat is offered.
    pub m_axis_dma_wr_tvalid: Signal<Out, bool>,
    /// The DMA engine takes the beat.
    pub m_axis_dma_wr_tready: Signal<In, bool>,
    /// Last beat of a payload.
    pub m_axis_dma_wr_tlast: Signal<Out, bool>,
    /// Write commands carried out (length 0 included: no DMA command then) (wraps).
    pub stat_written: Signal<Out, Bits<32>>,
    /// Frames discarded by their command (wraps).
    pub stat_discarded: Signal<Out, Bits<32>>,
    /// Write commands refused: offset + length beyond the stored frame, or the frame was
    /// longer than 9216 bytes; the frame is discarded (wraps).
    pub stat_short: Signal<Out, Bits<32>>,
    /// Write commands with data taken into the write queue (wraps): each gives one payload
    /// ending with `m_axis_dma_wr_tlast`, in order. A top that must know when a command's
    /// payload has left (hpcc_nic_core's READ completions) compares it with the tlasts.
    pub stat_jobs: Signal<Out, Bits<32>>,

    even: RAM<Bits<512>, B>,
    odd: RAM<Bits<512>, B>,
    dq: DistRam<Bits<23>, QUEUE_BITS>,
    cq: DistRam<Bits<143>, QUEUE_BITS>,
    wq: DistRam<Bits<96>, 4>,
    out: RxDmaOut,
    // Writer.
    wr_ptr: DFF<Bits<16>>,
    w_cnt: DFF<Bits<8>>,
    w_trunc: DFF<bool>,
    p_push: DFF<bool>,
    p_cnt: DFF<Bits<8>>,
    p_keep: DFF<Bits<64>>,
    p_trunc: DFF<bool>,
    /// A fetch's two stored beats into one payload beat (combinational).
    combine: RxDmaCombine,
    /// The frame's descriptor from its last beat (p registers, then rx_dma_frame's own).
    frame: RxDmaFrame,
    used: DFF<Bits<16>>,
    fr: DFF<Bits<16>>,
    in_ready: DFF<bool>,
    dq_wr: DFF<Bits<QUEUE_BITS>>,
    dq_rd: DFF<Bits<QUEUE_BITS>>,
    dq_n: DFF<Bits<7>>,
    cq_wr: DFF<Bits<QUEUE_BITS>>,
    cq_rd: DFF<Bits<QUEUE_BITS>>,
    cq_n: DFF<Bits<7>>,
    // Decide and fetch.
    dec_base: DFF<Bits<16>>,
    j_active: DFF<bool>,
    j_lo: DFF<Bits<16>>,
    j_left: DFF<Bits<8>>,
    j_beats: DFF<Bits<8>>,
    j_shift: DFF<Bits<6>>,
    j_kcnt: DFF<Bits<6>>,
    f_valid: DFF<bool>,
    f_odd: DFF<bool>,
    f_shift: DFF<Bits<6>>,
    f_last: DFF<bool>,
    f_kcnt: DFF<Bits<6>>,
    owed: DFF<Bits<5>>,
    wq_wr: DFF<Bits<4>>,
    wq_rd: DFF<Bits<4>>,
    wq_n: DFF<Bits<5>>,
    n_written: DFF<Bits<32>>,
    n_jobs: DFF<Bits<32>>,
    n_discarded: DFF<Bits<32>>,
    n_short: DFF<Bits<32>>,

    take: Signal<Local, bool>,
    w_cnt_n: Signal<Local, Bits<8>>,
    push_w: Signal<Local, bool>,
    store: Signal<Local, bool>,
    w_cnt1: Signal<Local, Bits<8>>,
    take_cmd: Signal<Local, bool>,
    d_word: Signal<Local, Bits<23>>,
    d_beats: Signal<Local, Bits<8>>,
    d_len: Signal<Local, Bits<14>>,
    d_trunc: Signal<Local, bool>,
    c_cmd: Signal<Local, Bits<128>>,
    c_off: Signal<Local, Bits<7>>,
    c_len: Signal<Local, Bits<14>>,
    c_wr: Signal<Local, bool>,
    end_sum: Signal<Local, Bits<15>>,
    short: Signal<Local, bool>,
    is_job: Signal<Local, bool>,
    fetch: Signal<Local, bool>,
    j_end: Signal<Local, bool>,
    pop: Signal<Local, bool>,
    base1: Signal<Local, Bits<16>>,
    lo0: Signal<Local, Bits<16>>,
    len63: Signal<Local, Bits<15>>,
    lo1: Signal<Local, Bits<16>>,
    w_cmd: Signal<Local, Bits<96>>,
    u_add: Signal<Local, Bits<16>>,
    u_free_j: Signal<Local, Bits<16>>,
    u_free_d: Signal<Local, Bits<16>>,
    in_end: Signal<Local, Bits<15>>,
    u_half: Signal<Local, Bits<16>>,
    room: Signal<Local, bool>,
    dq_n1: Signal<Local, Bits<7>>,
    pop_w: Signal<Local, bool>,
}

impl<const B: usize> RxDma<B> {
    const CHECK: () = assert!(B >= 7 && B <= 14, "the store must hold a 144-beat frame");

    /// The block (checks B).
    pub fn new() -> Self {
        let () = Self::CHECK;
        Self::default()
    }
}

impl<const B: usize> Logic for RxDma<B> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, wr_ptr, w_cnt, w_trunc, p_push, p_cnt, p_keep, p_trunc, used, fr, in_ready, dq_wr,
            dq_rd, dq_n, cq_wr, cq_rd, cq_n, dec_base, j_active, j_lo, j_left, j_beats, j_shift, j_kcnt,
            f_valid, f_odd, f_shift, f_last, f_kcnt, owed, wq_wr,
            wq_rd, wq_n, n_written, n_jobs, n_discarded, n_short
        );
        self.even.read_clock.next = self.clock.val();
        self.even.write_clock.next = self.clock.val();
        self.odd.read_clock.next = self.clock.val();
        self.odd.write_clock.next = self.clock.val();
        self.dq.write_clock.next = self.clock.val();
        self.cq.write_clock.next = self.clock.val();
        self.wq.write_clock.next = self.clock.val();

        // ---- Writer: beats into the banks (beat p: bank p % 2, word p / 2).
        self.s_axis_tready.next = self.in_ready.q.val();
        self.take.next = self.s_axis_tvalid.val() & self.in_ready.q.val();
        // 144 = MAX_BEATS (hdl_gen takes literals, not Rust constants).
        self.store.next = self.take.val() & (self.w_cnt.q.val() != 144);
        self.even.write_enable.next = self.store.val() & !self.wr_ptr.q.val().get_bit(0);
        self.odd.write_enable.next = self.store.val() & self.wr_ptr.q.val().get_bit(0);
        self.even.write_address.next = self.wr_ptr.q.val().get_bits::<B>(1);
        self.odd.write_address.next = self.wr_ptr.q.val().get_bits::<B>(1);
        self.even.write_data.next = self.s_axis_tdata.val();
        self.odd.write_data.next = self.s_axis_tdata.val();
        self.w_cnt1.next = self.w_cnt.q.val() + 1;
        self.w_cnt_n.next = self.w_cnt.q.val();
        if self.store.val() {
            self.wr_ptr.d.next = self.wr_ptr.q.val() + 1;
            self.w_cnt_n.next = self.w_cnt1.val();
        }
        if self.take.val() & !self.store.val() {
            self.w_trunc.d.next = true;
        }
        // The last beat: its keep and the beat count go to a register; the descriptor is
        // pushed two cycles later.
        self.p_push.d.next = self.take.val() & self.s_axis_tlast.val();
        self.p_keep.d.next = self.s_axis_tkeep.val();
        self.p_cnt.d.next = self.w_cnt.q.val();
        if self.store.val() {
            self.p_cnt.d.next = self.w_cnt1.val();
        }
        self.p_trunc.d.next = self.w_trunc.q.val() | (self.take.val() & !self.store.val());
        if self.take.val() & self.s_axis_tlast.val() {
            self.w_cnt_n.next = 0.into();
            self.w_trunc.d.next = false;
        }
        self.w_cnt.d.next = self.w_cnt_n.val();

        // The frame's descriptor for the desc FIFO, two cycles later (rx_dma_frame: the last
        // beat's highest kept lane, the byte length).
        self.frame.clock.next = self.clock.val();
        self.frame.reset.next = self.reset.val();
        self.frame.push.next = self.p_push.q.val();
        self.frame.beats.next = self.p_cnt.q.val();
        self.frame.keep.next = self.p_keep.q.val();
        self.frame.trunc.next = self.p_trunc.q.val();
        self.dq.write_enable.next = self.frame.word_valid.val();
        self.dq.write_address.next = self.dq_wr.q.val();
        self.dq.write_data.next = self.frame.word.val();
        if self.frame.word_valid.val() {
            self.dq_wr.d.next = self.dq_wr.q.val() + 1;
        }

        // ---- Commands.
        self.s_axis_cmd_tready.next = !self.cq_n.q.val().get_bit(6);
        self.take_cmd.next = self.s_axis_cmd_tvalid.val() & !self.cq_n.q.val().get_bit(6);
        self.cq.write_enable.next = self.take_cmd.val();
        self.cq.write_address.next = self.cq_wr.q.val();
        // The payload's end (offset + length) is added on the way in, off the decision path.
        self.in_end.next = bit_cast::<15, 7>(self.s_axis_cmd_tdata.val().get_value_offset())
            + bit_cast::<15, 14>(self.s_axis_cmd_tdata.val().get_value_len());
        self.cq.write_data.next =
            bit_cast::<143, 128>(self.s_axis_cmd_tdata.val()) | (bit_cast::<143, 15>(self.in_end.val()) << 128);
        if self.take_cmd.val() {
            self.cq_wr.d.next = self.cq_wr.q.val() + 1;
        }

        // ---- Decide: the head frame and the head command.
        self.dq.read_address.next = self.dq_rd.q.val();
        self.cq.read_address.next = self.cq_rd.q.val();
        self.d_word.next = self.dq.read_data.val();
        self.d_beats.next = self.d_word.val().get_value_rx_dma_frame_beats();
        self.d_len.next = self.d_word.val().get_value_rx_dma_frame_len();
        self.d_trunc.next = self.d_word.val().get_value_rx_dma_frame_trunc();
        self.c_cmd.next = self.cq.read_data.val().get_bits::<128>(0);
        self.end_sum.next = self.cq.read_data.val().get_bits::<15>(128);
        self.c_off.next = self.c_cmd.val().get_value_offset();
        self.c_len.next = self.c_cmd.val().get_value_len();
        self.c_wr.next = self.c_cmd.val().get_value_write();
        self.short.next = self.d_trunc.val() | (self.end_sum.val() > bit_cast::<15, 14>(self.d_len.val()));
        self.is_job.next = self.c_wr.val() & !self.short.val() & (self.c_len.val() != 0);
        // A fetch is issued only if its output beat is sure to find room in the out FIFO.
        self.fetch.next = self.j_active.q.val() & !self.owed.q.val().get_bit(4);
        self.j_end.next = self.fetch.val() & (self.j_left.q.val() == 1);
        self.pop.next = (self.dq_n.q.val() != 0)
            & (self.cq_n.q.val() != 0)
            & (!self.j_active.q.val() | self.j_end.val())
            & (!self.is_job.val() | !self.wq_n.q.val().get_bit(4));
        self.base1.next = self.dec_base.q.val() + bit_cast::<16, 8>(self.d_beats.val());
        self.lo0.next = self.dec_base.q.val() + bit_cast::<16, 1>(self.c_off.val().get_bits::<1>(6));
        self.len63.next = bit_cast::<15, 14>(self.c_len.val()) + 63;
        self.w_cmd.next = 0.into();
        self.w_cmd.next.set_value_addr(self.c_cmd.val().get_value_addr());
        self.w_cmd.next.set_value_len(self.c_len.val());
        self.w_cmd.next.set_value_flow(self.c_cmd.val().get_value_flow());
        self.push_w.next = self.pop.val() & self.is_job.val();
        self.wq.write_enable.next = self.push_w.val();
        if self.push_w.val() {
            self.n_jobs.d.next = self.n_jobs.q.val() + 1;
        }
        self.wq.write_address.next = self.wq_wr.q.val();
        self.wq.write_data.next = self.w_cmd.val();
        if self.pop.val() {
            self.dq_rd.d.next = self.dq_rd.q.val() + 1;
            self.cq_rd.d.next = self.cq_rd.q.val() + 1;
            self.dec_base.d.next = self.base1.val();
            if self.is_job.val() {
                self.wq_wr.d.next = self.wq_wr.q.val() + 1;
                self.n_written.d.next = self.n_written.q.val() + 1;
            } else if !self.c_wr.val() {
                self.n_discarded.d.next = self.n_discarded.q.val() + 1;
            } else if self.short.val() {
                self.n_short.d.next = self.n_short.q.val() + 1;
            } else {
                self.n_written.d.next = self.n_written.q.val() + 1;
            }
        }

        // ---- Fetch: job beat j = stored beats lo and lo + 1: the odd bank at lo / 2, the even
        // bank at (lo + 1) / 2.
        self.lo1.next = self.j_lo.q.val() + 1;
        self.even.read_address.next = self.lo1.val().get_bits::<B>(1);
        self.odd.read_address.next = self.j_lo.q.val().get_bits::<B>(1);
        self.f_valid.d.next = self.fetch.val();
        self.f_odd.d.next = self.j_lo.q.val().get_bit(0);
        self.f_shift.d.next = self.j_shift.q.val();
        self.f_last.d.next = self.j_left.q.val() == 1;
        self.f_kcnt.d.next = self.j_kcnt.q.val();
        if self.fetch.val() {
            self.j_lo.d.next = self.lo1.val();
            self.j_left.d.next = self.j_left.q.val() - 1;
        }
        if self.j_end.val() {
            self.j_active.d.next = false;
        }
        if self.pop.val() & self.is_job.val() {
            self.j_active.d.next = true;
            self.j_lo.d.next = self.lo0.val();
            self.j_left.d.next = self.len63.val().get_bits::<8>(6);
            self.j_beats.d.next = self.d_beats.val();
            self.j_shift.d.next = self.c_off.val().get_bits::<6>(0);
            self.j_kcnt.d.next = self.c_len.val().get_bits::<6>(0);
        }

        // ---- Store occupancy: + a stored beat, - a job's beats at its last fetch, - a
        // frame's beats when it is decided without a job. The frees are registered (`fr`)
        // and subtracted a cycle later, which keeps the decision off the occupancy path.
        self.u_add.next = self.used.q.val() - self.fr.q.val();
        if self.store.val() {
            self.u_add.next = self.used.q.val() - self.fr.q.val() + 1;
        }
        self.u_free_j.next = 0.into();
        if self.j_end.val() {
            self.u_free_j.next = bit_cast::<16, 8>(self.j_beats.q.val());
        }
        self.u_free_d.next = 0.into();
        if self.pop.val() & !self.is_job.val() {
            self.u_free_d.next = bit_cast::<16, 8>(self.d_beats.val());
        }
        self.fr.d.next = self.u_free_j.val() + self.u_free_d.val();
        self.used.d.next = self.u_add.val();
        // Room for a beat next cycle: used' < 2^(B+1), i.e. used' / 2 < 2^B; or the frame in
        // progress is past 144 beats (its beats are not stored). And room for a descriptor.
        // Both leave out this cycle's frees and pop (seen a cycle or two later): the decision
        // logic stays off the tready path.
        self.u_half.next = self.u_add.val() >> 1;
        self.room.next = bit_cast::<16, B>(bit_cast::<B, 16>(self.u_half.val())) == self.u_half.val();
        self.dq_n1.next = self.dq_n.q.val();
        if self.frame.word_valid.val() & !self.pop.val() {
            self.dq_n1.next = self.dq_n.q.val() + 1;
        }
        if !self.frame.word_valid.val() & self.pop.val() {
            self.dq_n1.next = self.dq_n.q.val() - 1;
        }
        self.dq_n.d.next = self.dq_n1.val();
        // At most three descriptors are on their way (p_push, rx_dma_frame's register and this
        // cycle's tlast).
        self.in_ready.d.next = (self.room.val() | (self.w_cnt_n.val() == 144)) & (self.dq_n.q.val() < 60);
        if self.take_cmd.val() & !self.pop.val() {
            self.cq_n.d.next = self.cq_n.q.val() + 1;
        }
        if !self.take_cmd.val() & self.pop.val() {
            self.cq_n.d.next = self.cq_n.q.val() - 1;
        }

        // ---- Combine (rx_dma_combine): lo = stored beat lo, hi = the next; payload beat =
        // (hi:lo) >> 8 x shift, with its keep and last.
        self.combine.even.next = self.even.read_data.val();
        self.combine.odd.next = self.odd.read_data.val();
        self.combine.lo_odd.next = self.f_odd.q.val();
        self.combine.shift.next = self.f_shift.q.val();
        self.combine.last.next = self.f_last.q.val();
        self.combine.kcnt.next = self.f_kcnt.q.val();

        // ---- Out FIFO (rx_dma_out: the combined beat registered, then queued) and DMA command
        // FIFO. `owed` counts the beats fetched and not yet gone: a fetch needs room for it.
        self.out.clock.next = self.clock.val();
        self.out.reset.next = self.reset.val();
        self.out.in_valid.next = self.f_valid.q.val();
        self.out.in_word.next = self.combine.word.val();
        self.m_axis_dma_wr_tdata.next = self.out.m_axis_dma_wr_tdata.val();
        self.m_axis_dma_wr_tkeep.next = self.out.m_axis_dma_wr_tkeep.val();
        self.m_axis_dma_wr_tvalid.next = self.out.m_axis_dma_wr_tvalid.val();
        self.m_axis_dma_wr_tlast.next = self.out.m_axis_dma_wr_tlast.val();
        self.out.m_axis_dma_wr_tready.next = self.m_axis_dma_wr_tready.val();
        if self.fetch.val() & !self.out.pop.val() {
            self.owed.d.next = self.owed.q.val() + 1;
        }
        if !self.fetch.val() & self.out.pop.val() {
            self.owed.d.next = self.owed.q.val() - 1;
        }
        self.wq.read_address.next = self.wq_rd.q.val();
        self.m_axis_dma_wr_cmd_tvalid.next = self.wq_n.q.val() != 0;
        self.m_axis_dma_wr_cmd_tdata.next = bit_cast::<128, 96>(self.wq.read_data.val());
        self.pop_w.next = (self.wq_n.q.val() != 0) & self.m_axis_dma_wr_cmd_tready.val();
        if self.pop_w.val() {
            self.wq_rd.d.next = self.wq_rd.q.val() + 1;
        }
        if self.push_w.val() & !self.pop_w.val() {
            self.wq_n.d.next = self.wq_n.q.val() + 1;
        }
        if !self.push_w.val() & self.pop_w.val() {
            self.wq_n.d.next = self.wq_n.q.val() - 1;
        }

        self.stat_written.next = self.n_written.q.val();
        self.stat_discarded.next = self.n_discarded.q.val();
        self.stat_short.next = self.n_short.q.val();
        self.stat_jobs.next = self.n_jobs.q.val();

        if self.reset.val() {
            self.wr_ptr.d.next = 0.into();
            self.w_cnt.d.next = 0.into();
            self.w_trunc.d.next = false;
            self.p_push.d.next = false;
            self.used.d.next = 0.into();
            self.fr.d.next = 0.into();
            self.in_ready.d.next = false;
            self.dq_wr.d.next = 0.into();
            self.dq_rd.d.next = 0.into();
            self.dq_n.d.next = 0.into();
            self.cq_wr.d.next = 0.into();
            self.cq_rd.d.next = 0.into();
            self.cq_n.d.next = 0.into();
            self.dec_base.d.next = 0.into();
            self.j_active.d.next = false;
            self.f_valid.d.next = false;
            self.owed.d.next = 0.into();
            self.wq_wr.d.next = 0.into();
            self.wq_rd.d.next = 0.into();
            self.wq_n.d.next = 0.into();
            self.n_written.d.next = 0.into();
            self.n_jobs.d.next = 0.into();
            self.n_discarded.d.next = 0.into();
            self.n_short.d.next = 0.into();
        }
    }
}
