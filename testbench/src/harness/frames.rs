//! Pieces shared by the harnesses of blocks with several clocks and 512-bit frame streams
//! (`cdc_frame_fifo`, `mac_shim`): free-running clocks toggled by the harness, a frame source
//! and a frame sink that check the AXI-Stream rules on their own clock's rising edges.

use crate::verilated::{MAxis, SAxis};
use sim::cdc_frame_fifo::{Beat, Frame};

/// A free-running clock: `period` ps, its first rising edge at `first_rise` ps, high for
/// `period / 2` (the odd picosecond goes to the low half).
#[derive(Clone, Copy, Debug)]
pub struct EdgeClock {
    period: u64,
    next: u64,
    rising: bool,
}

impl EdgeClock {
    pub fn new(period: u64, first_rise: u64) -> EdgeClock {
        assert!(period >= 2, "a clock period of {period} ps");
        EdgeClock { period, next: first_rise, rising: true }
    }

    /// The time of the next edge.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// If the clock has an edge at `t`: its level after the edge (true on a rising one), and
    /// the clock moves on to its next edge.
    pub fn take(&mut self, t: u64) -> Option<bool> {
        if self.next != t {
            return None;
        }
        let level = self.rising;
        self.next += if level { self.period / 2 } else { self.period - self.period / 2 };
        self.rising = !level;
        Some(level)
    }
}

/// The core's clock (250 MHz) and the CMAC's 100G user clock (322.266 MHz), in ps.
pub const CORE_PS: u64 = 4000;
pub const CMAC_PS: u64 = 3103;

/// Bytes a frame takes on an Ethernet wire (the switch model's count: FCS, minimum size,
/// preamble and gap).
pub use sim::switch::wire_bytes;

/// The bytes a frame's beats keep.
pub fn frame_bytes(f: &[Beat]) -> usize {
    f.iter().map(|b| b.keep.count_ones() as usize).sum()
}

/// A frame of `len` bytes (1 or more) of random data, its lanes past the length random too
/// (they are not kept, so nothing may depend on them).
pub fn random_frame(rng: &mut impl rand::Rng, len: usize, bad: bool) -> Frame {
    let n = len.div_ceil(64);
    let beats = (0..n)
        .map(|i| {
            let mut data = [0u8; 64];
            rng.fill(&mut data[..]);
            let bytes = if i + 1 == n { len - 64 * i } else { 64 };
            let keep = if bytes == 64 { !0u64 } else { (1u64 << bytes) - 1 };
            Beat { data, keep, last: i + 1 == n }
        })
        .collect();
    Frame { beats, bad }
}

/// A beat's data as a 512-bit port's words, word 0 first.
fn words(b: &Beat) -> [u32; 16] {
    std::array::from_fn(|k| u32::from_le_bytes(b.data[4 * k..4 * k + 4].try_into().unwrap()))
}

/// What an output frame stream offers now: tvalid, the beat, and tuser.
pub fn offered<M>(d: &M, p: &MAxis<M>) -> (bool, Beat, bool) {
    let mut w = [0u32; 16];
    (p.tdata)(d, &mut w);
    let mut data = [0u8; 64];
    for (k, x) in w.iter().enumerate() {
        data[4 * k..4 * k + 4].copy_from_slice(&x.to_le_bytes());
    }
    let get = |f: Option<fn(&M) -> u64>| f.map_or(0, |f| f(d));
    let last = p.tlast.is_some_and(|f| f(d));
    ((p.tvalid)(d), Beat { data, keep: get(p.tkeep), last }, get(p.tuser) != 0)
}

/// The driver of a frame stream: one frame at a time, beat by beat.
#[derive(Default)]
pub struct FrameSource {
    frame: Option<(Frame, usize)>,
    /// tvalid as driven now.
    pub valid: bool,
}

impl FrameSource {
    /// No frame loaded (a new one may be).
    pub fn idle(&self) -> bool {
        self.frame.is_none()
    }

    pub fn load(&mut self, f: Frame) {
        assert!(self.frame.is_none() && !f.beats.is_empty());
        self.frame = Some((f, 0));
    }

    /// The beat to offer and whether it is a bad frame's last (tuser).
    pub fn beat(&self) -> Option<(&Beat, bool)> {
        self.frame.as_ref().map(|(f, i)| (&f.beats[*i], f.bad && *i + 1 == f.beats.len()))
    }

    /// Drives the stream's ports: the beat to offer (if any) and tvalid.
    pub fn drive<M>(&self, d: &mut M, p: &SAxis<M>) {
        if let Some((b, bad)) = self.beat() {
            (p.set_tdata)(d, &words(b));
            p.set_tkeep.expect("a frame stream has tkeep")(d, b.keep);
            p.set_tlast.expect("a frame stream has tlast")(d, b.last);
            p.set_tuser.expect("a frame stream has tuser")(d, bad as u64);
        }
        (p.set_tvalid)(d, self.valid);
    }

    /// The offered beat was taken on this edge: the frame, once its last beat is.
    pub fn taken(&mut self) -> Option<Frame> {
        let (f, i) = self.frame.as_mut().expect("a beat taken belongs to a frame");
        *i += 1;
        if *i == f.beats.len() {
            self.frame.take().map(|(f, _)| f)
        } else {
            None
        }
    }
}

/// The receiver of a frame stream, checking on each rising edge of its clock that tvalid
/// never falls inside a frame (no underrun: what a CMAC's transmit side needs) and that a beat
/// offered and not taken is offered again unchanged.
#[derive(Default)]
pub struct FrameSink {
    /// tready as driven now.
    pub ready: bool,
    got: Vec<Beat>,
    held: Option<Beat>,
    /// Beats taken.
    pub beats: u64,
}

impl FrameSink {
    /// Inside a frame (a beat of it taken, or one offered and not taken).
    pub fn in_frame(&self) -> bool {
        !self.got.is_empty() || self.held.is_some()
    }

    /// One rising edge with the stream's `valid` and `beat` as they stood before it: a
    /// protocol fault, and the frame whose last beat this edge took.
    pub fn edge(&mut self, valid: bool, beat: Beat) -> (Option<String>, Option<Vec<Beat>>) {
        let mut fault = None;
        if self.in_frame() && !valid {
            fault = Some("tvalid fell inside a frame (an underrun)".to_string());
        }
        if let Some(h) = self.held {
            if valid && beat != h {
                fault = Some("a beat offered and not taken changed".to_string());
            }
        }
        let take = valid && self.ready;
        self.held = (valid && !take).then_some(beat);
        if !take {
            return (fault, None);
        }
        self.beats += 1;
        self.got.push(beat);
        (fault, if beat.last { Some(std::mem::take(&mut self.got)) } else { None })
    }
}
