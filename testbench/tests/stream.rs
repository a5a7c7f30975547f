//! The generated AXI-Stream handles and harness::stream's source and sink, on the FIFO
//! fixture (testbench/verilog/axis_fixture.v).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use testbench::harness::stream::{Beat, Sink, Source};
use testbench::verilated::{low_u64, AxisFixture};

/// A 100-bit beat and its tlast.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Wide([u32; 4], bool);

impl Beat for Wide {
    fn write(&self, tdata: &mut [u32]) {
        tdata.copy_from_slice(&self.0);
    }
    fn last(&self) -> bool {
        self.1
    }
}

struct Narrow(u64);

impl Beat for Narrow {
    fn write(&self, tdata: &mut [u32]) {
        testbench::verilated::put_u64(self.0, tdata);
    }
}

fn open() -> AxisFixture {
    let mut m = AxisFixture::new();
    m.set_reset(1);
    m.tick();
    m.set_reset(0);
    m
}

#[test]
fn handles_are_generated_per_port_triple() {
    let (s, m) = (AxisFixture::S_AXIS, AxisFixture::M_AXIS);
    assert_eq!((s.name, s.bits, s.words()), ("s_axis", 100, 4));
    assert_eq!((m.name, m.bits, m.words()), ("m_axis", 100, 4));
    assert!(s.set_tlast.is_some() && m.tlast.is_some());
    assert!(s.set_tkeep.is_none() && m.tuser.is_none());
    let (s, m) = (AxisFixture::S_AXIS_N, AxisFixture::M_AXIS_N);
    assert_eq!((s.name, s.bits, s.words(), m.name, m.words()), ("s_axis_n", 40, 2, "m_axis_n", 2));
    assert!(s.set_tlast.is_none() && m.tlast.is_none());
}

/// Random gaps in, random stalls out: every beat comes out once, in order, with its tlast,
/// and an offered beat stays on the port, unchanged, until it is taken.
#[test]
fn source_and_sink_move_every_beat_in_order() {
    let seed = rand::random::<u32>() as u64;
    println!("seed {seed:#x}");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut m = open();
    let mut src: Source<AxisFixture, Wide> = Source::new(AxisFixture::S_AXIS);
    src.rate = 0.7;
    let mut sink = Sink::new(AxisFixture::M_AXIS, 0.4);
    let sent: Vec<Wide> = (0..2000)
        .map(|_| Wide([rng.gen(), rng.gen(), rng.gen(), rng.gen::<u32>() & 0xF], rng.gen()))
        .collect();
    for w in &sent {
        src.push(*w);
    }
    let (mut got, mut held) = (Vec::new(), None::<[u32; 4]>);
    for cycle in 0..20_000 {
        sink.ready(&mut m, &mut rng);
        src.offer(&mut m, &mut rng);
        m.eval();
        let on_port: [u32; 4] = m.s_axis_tdata().try_into().unwrap();
        if let Some(h) = held {
            assert_eq!(m.s_axis_tvalid(), 1, "seed {seed:#x} cycle {cycle}: tvalid dropped before the beat was taken");
            assert_eq!(on_port, h, "seed {seed:#x} cycle {cycle}: tdata changed before the beat was taken");
        }
        let taken = src.taken(&m).is_some();
        held = (m.s_axis_tvalid() == 1 && !taken).then_some(on_port);
        let last = m.m_axis_tlast() == 1;
        if let Some(w) = sink.take(&m) {
            got.push(Wide(w.try_into().unwrap(), last));
        }
        m.tick();
        if got.len() == sent.len() {
            break;
        }
    }
    assert!(src.is_empty() && src.taken == 2000, "seed {seed:#x}: {} taken", src.taken);
    assert_eq!(sink.beats, 2000);
    assert_eq!(got, sent, "seed {seed:#x}");
}

/// The narrow stream (tdata in a u64): each value comes out plus one, modulo 2^40, and
/// `refill` makes an item only when the source is empty.
#[test]
fn narrow_ports_and_refill() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut m = open();
    let mut src: Source<AxisFixture, Narrow> = Source::new(AxisFixture::S_AXIS_N);
    let mut sink = Sink::new(AxisFixture::M_AXIS_N, 0.5);
    let (mut made, mut got) = (Vec::new(), Vec::new());
    for cycle in 0..5000u64 {
        if cycle < 4000 {
            src.refill(&mut rng, 0.7, |rng: &mut ChaCha8Rng| {
                let v = if rng.gen_bool(0.1) { (1 << 40) - 1 } else { rng.gen::<u64>() >> 24 };
                made.push(v);
                Narrow(v)
            });
        }
        assert!(made.len() as u64 <= src.taken + 1, "refill queued a second item");
        sink.ready(&mut m, &mut rng);
        src.offer(&mut m, &mut rng);
        m.eval();
        src.taken(&m);
        if let Some(w) = sink.take(&m) {
            got.push(low_u64(w));
        }
        m.tick();
    }
    let want: Vec<u64> = made.iter().map(|v| (v + 1) & ((1 << 40) - 1)).collect();
    assert!(want.len() > 1000 && want.contains(&0), "{} items", want.len());
    assert_eq!(got, want);
}
