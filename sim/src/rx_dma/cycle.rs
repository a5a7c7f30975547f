//! rx_dma cycle by cycle (hdl/src/rx/rx_dma.rs, docs/modules/rx_dma.md "How it works"): the
//! same ports on every cycle as the RTL, for the whole core's model. The store keeps each
//! frame's bytes instead of two banks of beats; what is modelled is when things move:
//!
//! ```text
//! writer   a beat whenever in_ready (a register: room in the store after this cycle's
//!          beat, or the frame past 144 beats, and fewer than 60 descriptors); the frame's
//!          descriptor reaches the desc FIFO two edges after its last beat
//! commands a 64-entry FIFO, ready while not full
//! decide   head descriptor + head command, when no job runs or the running one fetches its
//!          last beat, and (for a write) the DMA command FIFO has room
//! fetch    one payload beat per cycle while fewer than 16 are owed; on the output 3 cycles
//!          later (BRAM read, combine register, out FIFO)
//! frees    a job's beats at its last fetch, a dropped frame's when decided; through a
//!          register, so the writer sees them two cycles later
//! ```

use super::{Beat, Cmd, Counters, MAX_BEATS};
use std::collections::VecDeque;

/// Bank address bits of the store (hdl export's `RX_DMA_BANK_BITS`): 2^(B+1) beats.
pub const BANK_BITS: u32 = 9;
/// Descriptor and command FIFOs (hdl `QUEUE_BITS` = 6), DMA command FIFO, out FIFO credit.
pub const QUEUE: usize = 64;
const DESC_LIMIT: usize = 60;
const WQ: usize = 16;
const OUT_CREDIT: usize = 16;
/// A fetch's beat on `m_axis_dma_wr` this many cycles later (out FIFO empty).
const FETCH_LATENCY: u64 = 3;

/// One output beat: data (lanes past `keep` are zero here; the RTL's are not defined).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutBeat {
    pub data: [u8; 64],
    pub keep: u64,
    pub last: bool,
}

/// Everything driven into rx_dma during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub beat: Option<&'a Beat>,
    pub cmd: Option<&'a Cmd>,
    pub wr_cmd_ready: bool,
    pub wr_ready: bool,
}

/// What rx_dma shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_ready: bool,
    pub cmd_ready: bool,
    /// `m_axis_dma_wr_cmd`: (address, length, flow).
    pub wr_cmd: Option<(u64, u16, u16)>,
    pub wr: Option<OutBeat>,
}

/// A stored frame: beats stored (1..=144), byte length as rx_dma_frame computes it, truncated,
/// and its bytes.
#[derive(Clone, Debug, Default)]
struct Desc {
    beats: u64,
    len: u64,
    trunc: bool,
    bytes: Vec<u8>,
}

/// The job being fetched.
#[derive(Clone, Debug)]
struct Job {
    payload: Vec<u8>,
    /// Next beat, beats left, the frame's stored beats (freed at the last fetch).
    at: usize,
    left: u64,
    beats: u64,
}

/// rx_dma, cycle by cycle.
#[derive(Default)]
pub struct RxDma {
    pub counters: Counters,
    /// Write jobs (`stat_jobs`).
    pub jobs: u32,
    pub(crate) cycle: u64,
    in_ready: bool,
    w_cnt: u64,
    w_trunc: bool,
    cur: Vec<u8>,
    /// The descriptor one and two edges after its last beat.
    p: Option<Desc>,
    q: Option<Desc>,
    dq: VecDeque<Desc>,
    cq: VecDeque<Cmd>,
    job: Option<Job>,
    used: u64,
    fr: u64,
    owed: usize,
    /// Fetched beats: (first cycle on the output, beat), in order.
    out: VecDeque<(u64, OutBeat)>,
    wq: VecDeque<(u64, u16, u16)>,
}

impl RxDma {
    pub fn new() -> RxDma {
        RxDma::default()
    }

    /// Nothing stored, queued or in flight.
    pub fn idle(&self) -> bool {
        self.cur.is_empty() && self.p.is_none() && self.q.is_none() && self.dq.is_empty() && self.cq.is_empty()
            && self.job.is_none() && self.out.is_empty() && self.wq.is_empty()
    }

    pub fn outputs(&self) -> Outputs {
        Outputs {
            s_ready: self.in_ready,
            cmd_ready: self.cq.len() < QUEUE,
            wr_cmd: self.wq.front().copied(),
            wr: self.out.front().filter(|(at, _)| *at <= self.cycle).map(|(_, b)| b.clone()),
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs();
        let c = self.cycle;
        self.cycle += 1;
        if i.reset {
            *self = RxDma { cycle: self.cycle, ..RxDma::new() };
            return out;
        }
        let dq_n = self.dq.len();
        // Writer.
        let take = i.beat.filter(|_| self.in_ready);
        let store = take.is_some() && self.w_cnt != MAX_BEATS as u64;
        let mut w_cnt_n = self.w_cnt + store as u64;
        if let (true, Some(b)) = (store, take) {
            self.cur.extend_from_slice(&b.data);
        }
        let trunc_now = take.is_some() && !store;
        let new_desc = take.filter(|b| b.last).map(|b| {
            let beats = w_cnt_n;
            let len = 64 * (beats - 1) + if b.keep == 0 { 0 } else { 64 - b.keep.leading_zeros() as u64 };
            Desc { beats, len, trunc: self.w_trunc || trunc_now, bytes: std::mem::take(&mut self.cur) }
        });
        self.w_trunc |= trunc_now;
        if new_desc.is_some() {
            w_cnt_n = 0;
            self.w_trunc = false;
        }

        // Decide, from the heads before this edge.
        let fetch = self.job.is_some() && self.owed < OUT_CREDIT;
        let j_end = fetch && self.job.as_ref().is_some_and(|j| j.left == 1);
        let decision = match (self.dq.front(), self.cq.front()) {
            (Some(d), Some(cmd)) => {
                let short = d.trunc || cmd.offset as u64 + cmd.len as u64 > d.len;
                let is_job = cmd.write && !short && cmd.len != 0;
                let go = (self.job.is_none() || j_end) && (!is_job || self.wq.len() < WQ);
                go.then_some((is_job, short))
            }
            _ => None,
        };
        let mut u_free = 0;
        // Fetch (before a new job replaces the ending one).
        if fetch {
            let j = self.job.as_mut().unwrap();
            let from = 64 * j.at;
            let n = (j.payload.len() - from).min(64);
            let mut data = [0u8; 64];
            data[..n].copy_from_slice(&j.payload[from..from + n]);
            let keep = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            self.out.push_back((c + FETCH_LATENCY, OutBeat { data, keep, last: j.left == 1 }));
            j.at += 1;
            j.left -= 1;
            if j_end {
                u_free += j.beats;
                self.job = None;
            }
        }
        let pop_out = out.wr.is_some() && i.wr_ready;
        if pop_out {
            self.out.pop_front();
        }
        self.owed = self.owed + fetch as usize - pop_out as usize;
        if out.wr_cmd.is_some() && i.wr_cmd_ready {
            self.wq.pop_front();
        }
        if let Some((is_job, short)) = decision {
            let d = self.dq.pop_front().unwrap();
            let cmd = self.cq.pop_front().unwrap();
            if is_job {
                let (from, len) = (cmd.offset as usize, cmd.len as usize);
                self.wq.push_back((cmd.addr, cmd.len, cmd.flow));
                self.job = Some(Job { payload: d.bytes[from..from + len].to_vec(), at: 0, left: (len as u64 + 63) >> 6, beats: d.beats });
                self.jobs = self.jobs.wrapping_add(1);
                self.counters.written = self.counters.written.wrapping_add(1);
            } else {
                u_free += d.beats;
                let n = if !cmd.write { &mut self.counters.discarded } else if short { &mut self.counters.short } else { &mut self.counters.written };
                *n = n.wrapping_add(1);
            }
        }
        // Commands.
        if let Some(cmd) = i.cmd.filter(|_| out.cmd_ready) {
            self.cq.push_back(*cmd);
        }
        // Occupancy, and the writer's ready for the next cycle.
        let u_add = self.used - self.fr + store as u64;
        self.fr = u_free;
        self.used = u_add;
        let room = (u_add >> 1) < 1 << BANK_BITS;
        self.in_ready = (room || w_cnt_n == MAX_BEATS as u64) && dq_n < DESC_LIMIT;
        self.w_cnt = w_cnt_n;
        // The descriptor pipe: written into the desc FIFO two edges after the last beat.
        if let Some(d) = self.q.take() {
            self.dq.push_back(d);
        }
        self.q = self.p.take();
        self.p = new_desc;
        out
    }
}
