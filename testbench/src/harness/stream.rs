//! One way to drive and read AXI-Stream ports of a Verilated model, for every harness: a
//! [`Source`] that offers items on an `s_axis` handle (a queue, random gaps, each item held
//! until taken), a [`Sink`] that reads an `m_axis` handle (random `tready`), and [`Expect`],
//! the model's answers waiting for the RTL's, matched in order or per key.
//!
//! A cycle of a harness is: [`Source::offer`] and [`Sink::ready`] before `eval()`, then
//! [`Source::taken`] and [`Sink::take`] after it, then `tick()`.

use crate::verilated::{MAxis, Model, SAxis};
use rand::Rng;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// An item as stream beats: writes its `tdata` words (little-endian, word 0 = bits 31:0).
pub trait Beat {
    fn write(&self, tdata: &mut [u32]);
    /// `tlast` of the beat, for streams that have one.
    fn last(&self) -> bool {
        true
    }
    /// `tkeep` of the beat, for streams that have one (all ones: every byte).
    fn keep(&self) -> u64 {
        u64::MAX
    }
    /// `tuser` of the beat, for streams that have one.
    fn user(&self) -> u64 {
        0
    }
}

/// A word as bytes, byte i in tdata[8i+7:8i] (the layout of every wide stream word in sim).
impl<const N: usize> Beat for [u8; N] {
    fn write(&self, tdata: &mut [u32]) {
        super::set_wide(tdata, self);
    }
}

/// `impl Beat` for a type whose `words()` returns its whole `tdata` (the CC engines' and the CC
/// module's events, `sim::*::block::Event`, `sim::cc_module::Event`), one beat per item.
macro_rules! beat_of_words {
    ($t:ty) => {
        impl $crate::harness::stream::Beat for $t {
            fn write(&self, tdata: &mut [u32]) {
                tdata.copy_from_slice(&self.words());
            }
        }
    };
}
pub(crate) use beat_of_words;

/// A value as tdata, bit 0 = tdata[0] (the scheduler's words, sim's `tdata()`).
macro_rules! beat_of_uint {
    ($($t:ty),*) => {$(
        impl Beat for $t {
            fn write(&self, tdata: &mut [u32]) {
                let v = *self as u128;
                for (k, w) in tdata.iter_mut().enumerate() {
                    *w = if k < 4 { (v >> (32 * k)) as u32 } else { 0 };
                }
            }
        }
    )*};
}
beat_of_uint!(u16, u32, u64, u128);

/// A beat of a frame on the MACs' 512-bit streams, as sim's models cut frames.
impl Beat for sim::rx_pipe::Beat {
    fn write(&self, tdata: &mut [u32]) {
        self.data.write(tdata);
    }
    fn last(&self) -> bool {
        self.last
    }
    fn keep(&self) -> u64 {
        self.keep
    }
    fn user(&self) -> u64 {
        self.user as u64
    }
}

/// `item` on `port` with `tvalid` high, or `tvalid` low (tdata then left as it was).
/// `buf` holds the port's tdata words.
fn drive<M, T: Beat>(p: &SAxis<M>, m: &mut M, item: Option<&T>, buf: &mut [u32]) {
    match item {
        Some(item) => {
            item.write(buf);
            (p.set_tdata)(m, buf);
            if let Some(f) = p.set_tlast {
                f(m, item.last());
            }
            if let Some(f) = p.set_tkeep {
                f(m, item.keep());
            }
            if let Some(f) = p.set_tuser {
                f(m, item.user());
            }
            (p.set_tvalid)(m, true);
        }
        None => (p.set_tvalid)(m, false),
    }
}

/// For lockstep harnesses, whose model decides what every port shows on every cycle: drives
/// `item` on `port` (`tvalid` high), or `tvalid` low.
pub fn put<M, T: Beat>(port: &SAxis<M>, m: &mut M, item: Option<&T>) {
    let mut buf = [0u32; MAX_WORDS];
    drive(port, m, item, &mut buf[..port.words()]);
}

/// For lockstep harnesses: an output's `tvalid` and its tdata's low 64 bits, whatever `tready` is.
pub fn peek<M>(port: &MAxis<M>, m: &M) -> (bool, u64) {
    let mut buf = [0u32; MAX_WORDS];
    let w = &mut buf[..port.words()];
    (port.tdata)(m, w);
    ((port.tvalid)(m), crate::verilated::low_u64(w))
}

/// The widest tdata [`put`] and [`peek`] handle, in words (tx_pipe's 1024-bit descriptor).
const MAX_WORDS: usize = 32;

/// Offers queued items on an input stream. Once an item is on the port it stays there, and
/// `tvalid` stays high, until the model takes it (AXI-Stream's rule); a gap can only come
/// between items.
pub struct Source<M, T> {
    port: SAxis<M>,
    queue: VecDeque<T>,
    /// Chance that a waiting item goes on the port on a given cycle; at 1.0 (the default) it
    /// goes at once and nothing is drawn.
    pub rate: f64,
    on_port: bool,
    buf: Vec<u32>,
    /// Items taken so far.
    pub taken: u64,
}

impl<M, T: Beat> Source<M, T> {
    /// A source with no gaps: a queued item is offered on the next cycle.
    pub fn new(port: SAxis<M>) -> Self {
        Source { port, queue: VecDeque::new(), rate: 1.0, on_port: false, buf: vec![0; port.words()], taken: 0 }
    }

    pub fn push(&mut self, item: T) {
        self.queue.push_back(item);
    }

    /// Nothing queued and nothing on the port.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Items queued, the one on the port included.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// The item on the port, or the next to go there.
    pub fn front(&self) -> Option<&T> {
        self.queue.front()
    }

    /// Whether an item is on the port (`tvalid` high) this cycle.
    pub fn on_port(&self) -> bool {
        self.on_port
    }

    /// When nothing is queued, queues `make(rng)` with chance `load`: items made as they are
    /// needed, for stimulus that depends on the model's state at that time. The chance is
    /// drawn only when the source is empty.
    pub fn refill<R: Rng>(&mut self, rng: &mut R, load: f64, make: impl FnOnce(&mut R) -> T) {
        if self.queue.is_empty() && rng.gen_bool(load) {
            let item = make(rng);
            self.queue.push_back(item);
        }
    }

    /// Before `eval()`: drives the front item, or `tvalid` low. A waiting item goes on the
    /// port with chance `rate` (drawn only between items, and only when `rate < 1`).
    pub fn offer<R: Rng>(&mut self, m: &mut M, rng: &mut R) {
        if !self.on_port && !self.queue.is_empty() {
            self.on_port = self.rate >= 1.0 || rng.gen_bool(self.rate);
        }
        drive(&self.port, m, self.queue.front().filter(|_| self.on_port), &mut self.buf);
    }

    /// Before `eval()`, for a source without gaps: drives the front item at once, or `tvalid`
    /// low; `rate` is not consulted and nothing is drawn (directed tests, benches, tools).
    pub fn offer_now(&mut self, m: &mut M) {
        self.on_port |= !self.queue.is_empty();
        drive(&self.port, m, self.queue.front().filter(|_| self.on_port), &mut self.buf);
    }

    /// After `eval()`: the item the model took on this cycle, if it took one.
    pub fn taken(&mut self, m: &M) -> Option<T> {
        if !(self.on_port && (self.port.tready)(m)) {
            return None;
        }
        self.on_port = false;
        self.taken += 1;
        self.queue.pop_front()
    }

    /// Drops `tvalid` (e.g. once stimulus ends); what is still queued stays queued.
    pub fn stop(&mut self, m: &mut M) {
        (self.port.set_tvalid)(m, false);
    }

    /// For a reset of the model: `tvalid` low, and what was queued or on the port is forgotten.
    pub fn clear(&mut self, m: &mut M) {
        self.queue.clear();
        self.on_port = false;
        self.stop(m);
    }
}

/// Reads an output stream with random backpressure.
pub struct Sink<M> {
    port: MAxis<M>,
    /// Chance that `tready` is low on a cycle.
    pub stall: f64,
    ready: bool,
    buf: Vec<u32>,
    /// Beats read so far.
    pub beats: u64,
    /// `tlast`, `tkeep` and `tuser` of the last beat [`Sink::take`] read (true, all ones and 0
    /// on a stream without them).
    pub last: bool,
    pub keep: u64,
    pub user: u64,
}

impl<M> Sink<M> {
    pub fn new(port: MAxis<M>, stall: f64) -> Self {
        Sink { port, stall, ready: false, buf: vec![0; port.words()], beats: 0, last: true, keep: u64::MAX, user: 0 }
    }

    /// Before `eval()`: `tready` high except with chance `stall`. Always draws, so a run's
    /// random sequence does not depend on the stall chance being 0.
    pub fn ready<R: Rng>(&mut self, m: &mut M, rng: &mut R) {
        self.ready = !rng.gen_bool(self.stall);
        (self.port.set_tready)(m, self.ready);
    }

    /// Before `eval()`: `tready` as given (no draw).
    pub fn set_ready(&mut self, m: &mut M, ready: bool) {
        self.ready = ready;
        (self.port.set_tready)(m, ready);
    }

    /// After `eval()`: the beat's `tdata` words if one was transferred on this cycle (its
    /// `tlast`, `tkeep` and `tuser` in the fields of those names).
    pub fn take(&mut self, m: &M) -> Option<&[u32]> {
        if !(self.ready && (self.port.tvalid)(m)) {
            return None;
        }
        (self.port.tdata)(m, &mut self.buf);
        self.last = self.port.tlast.is_none_or(|f| f(m));
        self.keep = self.port.tkeep.map_or(u64::MAX, |f| f(m));
        self.user = self.port.tuser.map_or(0, |f| f(m));
        self.beats += 1;
        Some(&self.buf)
    }

    /// `tvalid` now, whatever `tready` is.
    pub fn valid(&self, m: &M) -> bool {
        (self.port.tvalid)(m)
    }

    /// The `tready` driven this cycle.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// After `eval()`, for lockstep harnesses: the `tdata` words on the port if `tvalid` is
    /// high, whatever `tready` is (nothing is counted as read).
    pub fn peek(&mut self, m: &M) -> Option<&[u32]> {
        if !(self.port.tvalid)(m) {
            return None;
        }
        (self.port.tdata)(m, &mut self.buf);
        Some(&self.buf)
    }
}

/// One request through a request/response block: offers `item` on `input` until the model
/// takes it, then reads the next beat of `output` (`tready` high) and returns its tdata words,
/// or None if none came within `limit` cycles. For tools and tests that feed one event at a
/// time and wait for its answer (`hpcc-nic replay --model rtl`).
pub fn transact<M: Model, T: Beat>(m: &mut M, input: SAxis<M>, output: MAxis<M>, item: T, limit: u64) -> Option<Vec<u32>> {
    let mut src = Source::new(input);
    src.push(item);
    let mut sink = Sink::new(output, 0.0);
    sink.set_ready(m, true);
    for _ in 0..limit {
        src.offer_now(m);
        m.eval();
        src.taken(m);
        let got = sink.take(m).map(<[u32]>::to_vec);
        m.tick();
        if got.is_some() {
            return got;
        }
    }
    src.stop(m);
    None
}

/// How the RTL's outputs are matched with the model's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One sequence: outputs come out in the order their inputs went in.
    InOrder,
    /// In order per key (e.g. per flow); different keys may pass each other.
    PerKey,
}

/// The model's outputs not yet matched by the RTL's.
pub struct Expect<K, R> {
    order: Order,
    queue: VecDeque<R>,
    keyed: HashMap<K, VecDeque<R>>,
    owed: usize,
}

impl<K: Hash + Eq, R> Expect<K, R> {
    pub fn new(order: Order) -> Self {
        Expect { order, queue: VecDeque::new(), keyed: HashMap::new(), owed: 0 }
    }

    pub fn push(&mut self, key: K, r: R) {
        match self.order {
            Order::InOrder => self.queue.push_back(r),
            Order::PerKey => self.keyed.entry(key).or_default().push_back(r),
        }
        self.owed += 1;
    }

    /// The next expected output for `key` (in order: the next one of all), if any.
    pub fn pop(&mut self, key: &K) -> Option<R> {
        let r = match self.order {
            Order::InOrder => self.queue.pop_front(),
            Order::PerKey => self.keyed.get_mut(key).and_then(VecDeque::pop_front),
        };
        self.owed -= r.is_some() as usize;
        r
    }

    /// Outputs still expected.
    pub fn owed(&self) -> usize {
        self.owed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expect_matches_per_key_and_in_order() {
        let mut e = Expect::new(Order::PerKey);
        e.push(1, 'a');
        e.push(2, 'b');
        e.push(1, 'c');
        assert_eq!((e.pop(&2), e.pop(&1), e.pop(&3), e.owed()), (Some('b'), Some('a'), None, 1));
        let mut e = Expect::new(Order::InOrder);
        e.push(1, 'a');
        e.push(2, 'b');
        assert_eq!((e.pop(&2), e.owed()), (Some('a'), 1));
    }
}
