//! The frame-level model of `hdl/src/mac/cdc_frame_fifo.rs`, the two-clock store-and-forward
//! frame FIFO of the MAC shim. Its two clocks are asynchronous, so the model says what
//! becomes of each frame, not on which cycle: a frame comes out whole and unchanged, in
//! order, or is dropped and counted once. Which frames a full FIFO drops when it does not wait
//! (`s_drop_when_full`, the receive side) depends on the clocks' phases; `Tally` checks the
//! RTL's choice against every rule that holds whatever the phases.

/// Depth in beats (`hdl::cdc_frame_fifo::DEPTH`).
pub const DEPTH: usize = 256;

/// One 512-bit beat as the streams carry it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Beat {
    /// Lane 0 first.
    pub data: [u8; 64],
    /// Valid bytes (stored and given back as they are).
    pub keep: u64,
    pub last: bool,
}

/// A frame as written: its beats (the last one's `last` set) and its bad flag (`tuser` on
/// the last beat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub beats: Vec<Beat>,
    pub bad: bool,
}

/// What becomes of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Read out whole, `stat_frames`.
    Out,
    /// Dropped as bad, `stat_bad`.
    Bad,
    /// Dropped: longer than the FIFO, `stat_too_long` (waiting when full).
    TooLong,
    /// Dropped: it met a full FIFO, `stat_overflow` (dropping when full).
    Overflow,
}

/// The fate of a frame when the FIFO waits when full (`s_drop_when_full` low): decided by
/// the frame alone. Too long wins over bad (counted once).
pub fn fate_waiting(f: &Frame) -> Fate {
    if f.beats.len() > DEPTH {
        Fate::TooLong
    } else if f.bad {
        Fate::Bad
    } else {
        Fate::Out
    }
}

/// The four counters (`stat_frames`, `stat_bad`, `stat_overflow`, `stat_too_long`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub frames: u32,
    pub bad: u32,
    pub overflow: u32,
    pub too_long: u32,
}

/// The frames written and read so far, matched: every frame read must be the next frame
/// written that can still come out (frames skipped on the way are dropped ones).
#[derive(Default)]
pub struct Tally {
    /// Waiting when full (every fate known from the frame) or dropping.
    pub drop_when_full: bool,
    written: std::collections::VecDeque<Frame>,
    /// What the frames matched so far must have been counted as.
    pub want: Stats,
    /// Frames skipped that were good (only a full FIFO, dropping, may skip them), and bad.
    pub skipped_good: u32,
    pub skipped_bad: u32,
}

impl Tally {
    pub fn new(drop_when_full: bool) -> Tally {
        Tally { drop_when_full, ..Default::default() }
    }

    /// A frame written (its last beat taken).
    pub fn written(&mut self, f: Frame) {
        self.written.push_back(f);
    }

    /// A frame read: Err says why it cannot be one the FIFO gives.
    pub fn read(&mut self, got: &[Beat]) -> Result<(), String> {
        loop {
            let Some(f) = self.written.pop_front() else {
                return Err(format!("a frame of {} beats read that was never written (or read twice)", got.len()));
            };
            let fate = if self.drop_when_full { None } else { Some(fate_waiting(&f)) };
            let could_come_out = !f.bad && fate.map_or(true, |x| x == Fate::Out);
            if could_come_out && f.beats == got {
                self.want.frames += 1;
                return Ok(());
            }
            self.skip(&f, fate)?;
        }
    }

    fn skip(&mut self, f: &Frame, fate: Option<Fate>) -> Result<(), String> {
        match fate {
            Some(Fate::Out) => return Err(format!("a good frame of {} beats was lost (or changed)", f.beats.len())),
            Some(Fate::Bad) => self.want.bad += 1,
            Some(Fate::TooLong) => self.want.too_long += 1,
            Some(Fate::Overflow) => unreachable!(),
            None if f.bad => self.skipped_bad += 1,
            None => self.skipped_good += 1,
        }
        Ok(())
    }

    /// Once everything written has had time to come out: the frames left were dropped. Then
    /// the RTL's counters must agree: exactly when waiting; when dropping, every skipped good
    /// frame an overflow, every skipped bad one bad or an overflow.
    pub fn finish(&mut self, rtl: Stats) -> Result<(), String> {
        while let Some(f) = self.written.pop_front() {
            let fate = if self.drop_when_full { None } else { Some(fate_waiting(&f)) };
            self.skip(&f, fate)?;
        }
        if !self.drop_when_full {
            return if rtl == self.want { Ok(()) } else { Err(format!("counters: rtl {rtl:?}, model {:?}", self.want)) };
        }
        let ok = rtl.frames == self.want.frames
            && rtl.too_long == 0
            && rtl.overflow >= self.skipped_good
            && rtl.bad + rtl.overflow == self.skipped_good + self.skipped_bad;
        if ok {
            Ok(())
        } else {
            Err(format!(
                "counters: rtl {rtl:?}; read {} frames, skipped {} good and {} bad",
                self.want.frames, self.skipped_good, self.skipped_bad
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(n: usize, tag: u8, bad: bool) -> Frame {
        let beats = (0..n).map(|i| Beat { data: [tag ^ i as u8; 64], keep: !0, last: i + 1 == n }).collect();
        Frame { beats, bad }
    }

    #[test]
    fn waiting_knows_every_fate() {
        let mut t = Tally::new(false);
        for f in [frame(2, 1, false), frame(1, 2, true), frame(DEPTH + 1, 3, false), frame(3, 4, false)] {
            t.written(f);
        }
        t.read(&frame(2, 1, false).beats).unwrap();
        t.read(&frame(3, 4, false).beats).unwrap();
        t.finish(Stats { frames: 2, bad: 1, overflow: 0, too_long: 1 }).unwrap();
    }

    #[test]
    fn waiting_refuses_a_lost_good_frame_and_a_changed_one() {
        let mut t = Tally::new(false);
        t.written(frame(2, 1, false));
        t.written(frame(2, 5, false));
        assert!(t.read(&frame(2, 5, false).beats).is_err());
        let mut t = Tally::new(false);
        t.written(frame(2, 1, false));
        let mut b = frame(2, 1, false).beats;
        b[1].keep = 1;
        assert!(t.read(&b).is_err());
    }

    #[test]
    fn dropping_counts_skipped_frames_as_overflow() {
        let mut t = Tally::new(true);
        for f in [frame(2, 1, false), frame(2, 2, false), frame(1, 3, true), frame(2, 4, false)] {
            t.written(f);
        }
        t.read(&frame(2, 1, false).beats).unwrap();
        t.read(&frame(2, 4, false).beats).unwrap();
        t.finish(Stats { frames: 2, bad: 1, overflow: 1, too_long: 0 }).unwrap();
        let mut t = Tally::new(true);
        t.written(frame(2, 2, false));
        assert!(t.finish(Stats { frames: 0, bad: 1, overflow: 0, too_long: 0 }).is_err(), "a good frame counted bad");
    }

    #[test]
    fn a_frame_read_twice_is_refused() {
        let mut t = Tally::new(true);
        t.written(frame(1, 1, false));
        t.read(&frame(1, 1, false).beats).unwrap();
        assert!(t.read(&frame(1, 1, false).beats).is_err());
    }
}
