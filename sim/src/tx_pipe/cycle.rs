//! tx_pipe cycle by cycle (hdl/src/tx/tx_pipe.rs and tx_pipe_out.rs, docs/modules/tx_pipe.md
//! "Structure, latency"): the same ports on every cycle as the RTL, for the whole core's
//! model. A frame's bytes are [`tx_frame`]'s over the payload as the RTL took it (each taken
//! beat masked as the builder masks it, missing beats zero); the timing is the RTL's:
//!
//! ```text
//! A, B   descriptor registers (A takes one while A or B is free or B loads into F)
//! F      one frame beat per cycle while the beat FIFO has room and, for a beat that needs a
//!        payload beat, one is offered; a short stream ends the payload (zeros follow), a
//!        long one is drained to its tlast before the next frame loads
//! O      beat FIFO (32): a frame's first beat leaves once its CRC is known (12 cycles after
//!        its last beat was built) or 14 beats are queued, a beat holding ICRC bytes once the
//!        CRC is known; then the output register
//! ```

use super::{tx_frame, TxDesc};
use crate::rx_pipe::Beat;
use std::collections::{HashMap, VecDeque};

/// hdl `tx_pipe::FIFO_DEPTH`, `START_LEVEL`; icrc_pipe's latency + 1 (the CRC FIFO's count).
pub const FIFO_DEPTH: usize = 32;
pub const START_LEVEL: usize = 14;
pub const CRC_LATENCY: u64 = 12;

/// Everything driven into tx_pipe during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs<'a> {
    pub reset: bool,
    pub desc: Option<&'a TxDesc>,
    pub payload: Option<&'a Beat>,
    pub ready: bool,
}

/// One output beat (lanes past `keep` are zero here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutBeat {
    pub data: [u8; 64],
    pub keep: u64,
    pub last: bool,
    pub user: bool,
}

/// What tx_pipe shows during a cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub desc_ready: bool,
    pub payload_ready: bool,
    pub beat: Option<OutBeat>,
}

/// A frame from its descriptor on: what stages A and B compute, and the payload taken.
struct Frame {
    desc: TxDesc,
    /// Payload bytes and beats, beats of the frame less one, header of 64 bytes or more.
    plen: usize,
    npb: usize,
    kl: usize,
    two: bool,
    /// The ICRC's beat, and whether it straddles into the next beat.
    ib: usize,
    straddle: bool,
    pay_keep: u64,
    last_keep: u64,
    /// The header bytes (they do not depend on the payload), the payload as the builder took
    /// it (64 x npb bytes), and the whole frame once it is complete (for its ICRC).
    header: Vec<u8>,
    payload: Vec<u8>,
    built: Option<Vec<u8>>,
}

impl Frame {
    fn new(desc: &TxDesc) -> Frame {
        let plen = desc.effective_payload_len();
        let zeros = tx_frame(desc, &vec![0; plen]).bytes;
        let len = zeros.len();
        let icrc_at = len - 4;
        let pad = (4 - plen % 4) % 4;
        let hlen = icrc_at - plen - pad;
        let npb = plen.div_ceil(64);
        let mask = |n: usize| if n % 64 == 0 { u64::MAX } else { (1u64 << (n % 64)) - 1 };
        Frame {
            desc: desc.clone(),
            plen,
            npb,
            kl: len.div_ceil(64) - 1,
            two: hlen >= 64,
            ib: icrc_at / 64,
            straddle: icrc_at % 64 > 60,
            pay_keep: mask(plen),
            last_keep: mask(len),
            header: zeros[..hlen].to_vec(),
            payload: vec![0; 64 * npb],
            built: None,
        }
    }

    /// Bytes 64k.. of the frame: header and payload as taken so far, or, for a beat that holds
    /// ICRC bytes (it leaves only once the frame is complete), the whole frame, built once.
    fn beat(&mut self, k: usize, icrc: bool) -> [u8; 64] {
        let mut out = [0u8; 64];
        if icrc {
            let (desc, plen) = (&self.desc, self.plen);
            let b = self.built.get_or_insert_with(|| tx_frame(desc, &self.payload[..plen]).bytes);
            let end = b.len().min(64 * k + 64);
            out[..end - 64 * k].copy_from_slice(&b[64 * k..end]);
            return out;
        }
        let h = self.header.len();
        for (i, o) in out.iter_mut().enumerate() {
            let x = 64 * k + i;
            *o = if x < h { self.header[x] } else if x - h < self.plen { self.payload[x - h] } else { 0 };
        }
        out
    }
}

/// A beat in the FIFO: its frame, index and side word.
#[derive(Clone, Copy, Debug)]
struct Side {
    frame: u64,
    k: usize,
    last: bool,
    user: bool,
    keep: u64,
    icrc: bool,
    first: bool,
}

/// The builder's frame.
struct Build {
    frame: u64,
    k: usize,
    ended: bool,
    bad: bool,
}

/// tx_pipe, cycle by cycle.
#[derive(Default)]
pub struct TxPipe {
    /// Frames whose payload length differed from the descriptor's (`stat_len_err`).
    pub len_err: u32,
    pub(crate) cycle: u64,
    next_id: u64,
    frames: HashMap<u64, Frame>,
    a: Option<u64>,
    b: Option<u64>,
    f: Option<Build>,
    drain: bool,
    q: VecDeque<Side>,
    /// Cycle from which each frame's CRC is in the CRC FIFO, in order.
    crc: VecDeque<u64>,
    o: Option<OutBeat>,
}

impl TxPipe {
    pub fn new() -> TxPipe {
        TxPipe::default()
    }

    /// Nothing held, building, queued or on the output.
    pub fn idle(&self) -> bool {
        self.a.is_none() && self.b.is_none() && self.f.is_none() && !self.drain && self.q.is_empty() && self.o.is_none()
    }

    /// The builder's combinational values for this cycle: (need a payload beat, writes a beat,
    /// loads B, B moves on, drains the stream next cycle).
    fn builder(&self, i: &Inputs) -> (bool, bool, bool, bool, bool) {
        let room = self.q.len() < FIFO_DEPTH;
        let (need, wr, last, long_now) = match &self.f {
            Some(f) => {
                let fr = &self.frames[&f.frame];
                let j = if fr.two { f.k.wrapping_sub(1) } else { f.k };
                let need = j < fr.npb && !f.ended;
                let wr = room && (!need || i.payload.is_some());
                let long_now = wr && need && j + 1 == fr.npb && !i.payload.is_some_and(|b| b.last);
                (need, wr, f.k == fr.kl, long_now)
            }
            None => (false, false, false, false),
        };
        let drain_pop = self.drain && i.payload.is_some();
        let drain_next = (self.drain && !(drain_pop && i.payload.is_some_and(|b| b.last))) || long_now;
        let load = (self.f.is_none() || (wr && last)) && self.b.is_some() && !drain_next;
        (need, wr, load, self.a.is_some() && (self.b.is_none() || load), drain_next)
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        let (need, _, load, _, _) = self.builder(i);
        Outputs {
            desc_ready: self.a.is_none() || self.b.is_none() || load,
            payload_ready: (need && self.q.len() < FIFO_DEPTH) || self.drain,
            beat: self.o.clone(),
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        let c = self.cycle;
        self.cycle += 1;
        if i.reset {
            *self = TxPipe { cycle: self.cycle, ..TxPipe::new() };
            return out;
        }
        let (need, wr, load, a_to_b, drain_next) = self.builder(i);

        // O: the FIFO's head, before this edge's write.
        let crc_known = self.crc.front().is_some_and(|&at| at <= c);
        let h_ok = self.q.front().is_some_and(|h| {
            (!h.first || crc_known || self.q.len() >= START_LEVEL) && (!h.icrc || crc_known)
        });
        let pop = h_ok && (self.o.is_none() || i.ready);
        if pop {
            let h = self.q.pop_front().unwrap();
            let data = self.frames.get_mut(&h.frame).unwrap().beat(h.k, h.icrc);
            let mut masked = [0u8; 64];
            (0..64).filter(|l| h.keep >> l & 1 == 1).for_each(|l| masked[l] = data[l]);
            self.o = Some(OutBeat { data: masked, keep: h.keep, last: h.last, user: h.user });
            if h.last {
                self.crc.pop_front();
                self.frames.remove(&h.frame);
            }
        } else if i.ready {
            self.o = None;
        }

        // F: the beat written this cycle.
        if wr {
            let f = self.f.as_mut().unwrap();
            let fr = self.frames.get_mut(&f.frame).unwrap();
            let j = if fr.two { f.k.wrapping_sub(1) } else { f.k };
            let (last, last_pay) = (f.k == fr.kl, j.wrapping_add(1) == fr.npb);
            let mut bad_now = false;
            if need {
                let b = i.payload.unwrap();
                let exp = if last_pay { fr.pay_keep } else { u64::MAX };
                let keep = if b.last { exp & b.keep } else { exp };
                for l in (0..64).filter(|l| keep >> l & 1 == 1) {
                    fr.payload[64 * j + l] = b.data[l];
                }
                let short = b.last && !last_pay;
                bad_now = short || (last_pay && !b.last) || (last_pay && b.last && b.keep != fr.pay_keep);
                f.ended |= short;
            }
            let user = f.bad || bad_now;
            let straddle_rest = fr.straddle && f.k == fr.ib + 1;
            self.q.push_back(Side {
                frame: f.frame,
                k: f.k,
                last,
                user,
                keep: if last { fr.last_keep } else { u64::MAX },
                icrc: f.k == fr.ib || straddle_rest,
                first: f.k == 0,
            });
            f.bad = user;
            f.k += 1;
            if last {
                self.crc.push_back(c + CRC_LATENCY);
                self.len_err = self.len_err.wrapping_add(user as u32);
                self.f = None;
            }
        }
        self.drain = drain_next;

        // A and B.
        if load {
            self.f = Some(Build { frame: self.b.take().unwrap(), k: 0, ended: false, bad: false });
        }
        if a_to_b {
            self.b = self.a.take();
        }
        if let Some(d) = i.desc.filter(|_| out.desc_ready) {
            let id = self.next_id;
            self.next_id += 1;
            self.frames.insert(id, Frame::new(d));
            self.a = Some(id);
        }
        out
    }
}
