//! icrc_pipe: the Verilated RTL against `sim::packet::icrc` on real frames of every opcode and
//! size (random gaps between beats, garbage past the frame end, Ethernet padding), against the
//! block's own beat-level model on garbage offsets, and the rust-hdl model on a few frames.
//! Seeds are printed; `ICRC_SEED=n` replays one.

use hdl::icrc_pipe::{IcrcModel, IcrcPipe};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use sim::packet::{icrc, RocePacket};
use std::collections::VecDeque;
use testbench::harness::rx_pipe::valid_frame;
use testbench::verilated::models::IcrcPipe as Rtl;

fn seed() -> u64 {
    let s = std::env::var("ICRC_SEED").map_or_else(|_| rand::random::<u32>() as u64, |v| v.parse().unwrap());
    println!("seed {s} (ICRC_SEED={s} replays it)");
    s
}

/// A random valid frame (the Rx regression's: every opcode, random fields, payload and hops),
/// with its ICRC offset, telemetry offset and ICRC.
fn random_frame(rng: &mut ChaCha8Rng) -> (Vec<u8>, u16, u8, u32) {
    let f = valid_frame(rng);
    let (p, layout) = RocePacket::parse_with_layout(&f).unwrap();
    let collecting = layout.telemetry.filter(|_| !p.telemetry.as_ref().unwrap().echo);
    let want = icrc(&f[..layout.icrc], collecting);
    (f, layout.icrc as u16, layout.telemetry.unwrap_or(0) as u8, want)
}

/// One beat on the block's inputs: data, last, icrc_at, tele_at.
type Beat = ([u8; 64], bool, u16, u8);

/// The beats of frames (bytes, icrc_at, tele_at): garbage past each frame's end and in the
/// offsets of all but the first beat, which the block must ignore.
fn beats_of(rng: &mut ChaCha8Rng, frames: &[(Vec<u8>, u16, u8)]) -> Vec<Beat> {
    let mut beats = Vec::new();
    for (f, at, tele) in frames {
        for (k, chunk) in f.chunks(64).enumerate() {
            let mut b: [u8; 64] = std::array::from_fn(|_| rng.gen());
            b[..chunk.len()].copy_from_slice(chunk);
            let last = (k + 1) * 64 >= f.len();
            let (a, t) = if k == 0 { (*at, *tele) } else { (rng.gen(), rng.gen::<u8>() & 127) };
            beats.push((b, last, a, t));
        }
    }
    beats
}

/// Drives beats with random gaps; returns the results in order, checking each comes exactly
/// LATENCY cycles after its last beat.
fn run(rtl: &mut Rtl, rng: &mut ChaCha8Rng, beats: Vec<Beat>, seed: u64) -> Vec<(u32, u32)> {
    let mut beats = VecDeque::from(beats);
    rtl.set_reset(1);
    rtl.tick();
    rtl.set_reset(0);
    let (mut out, mut due) = (Vec::new(), VecDeque::new());
    let mut cycle = 0u64;
    while !beats.is_empty() || !due.is_empty() {
        let send = !beats.is_empty() && rng.gen_bool(0.8);
        if send {
            let (b, last, a, t) = beats.pop_front().unwrap();
            let words: Vec<u32> = b.chunks(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect();
            rtl.s_data_mut().copy_from_slice(&words);
            rtl.set_s_last(last as u8);
            rtl.set_s_icrc_at(a);
            rtl.set_s_tele_at(t);
            if last {
                due.push_back(cycle + IcrcPipe::LATENCY as u64);
            }
        }
        rtl.set_s_valid(send as u8);
        rtl.eval();
        if rtl.m_valid() == 1 {
            assert_eq!(due.pop_front(), Some(cycle), "result timing, seed {seed}");
            out.push((rtl.m_crc(), rtl.m_found()));
        }
        assert!(due.front().is_none_or(|&d| d > cycle), "missing result at cycle {cycle}, seed {seed}");
        rtl.tick();
        cycle += 1;
    }
    out
}

#[test]
fn rtl_equals_the_icrc_of_real_frames() {
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut frames = Vec::new();
    let mut want = Vec::new();
    for _ in 0..20_000 {
        let (mut f, at, tele, crc) = random_frame(&mut rng);
        want.push((crc, u32::from_le_bytes(f[at as usize..at as usize + 4].try_into().unwrap())));
        // Ethernet padding or trailing bytes past the IPv4 length are not covered.
        if rng.gen_bool(0.1) {
            f.extend((0..rng.gen_range(1..70)).map(|_| rng.gen::<u8>()));
        }
        frames.push((f, at, tele));
    }
    let beats = beats_of(&mut rng, &frames);
    let mut rtl = Rtl::new();
    let got = run(&mut rtl, &mut rng, beats, seed);
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "frame {i} ({} bytes), seed {seed}", frames[i].0.len());
    }
    assert_eq!(got.len(), want.len());
}

#[test]
fn rtl_equals_the_beat_model_on_garbage() {
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut frames = Vec::new();
    for _ in 0..20_000 {
        let len = rng.gen_range(1..700);
        let f: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        let at = match rng.gen_range(0..4) {
            0 => rng.gen(),
            1 => rng.gen_range(0..800),
            _ => (len as u16).saturating_sub(rng.gen_range(0..8)),
        };
        let tele = [0, 54, 58, 70, rng.gen::<u8>() & 127][rng.gen_range(0..5)];
        frames.push((f, at, tele));
    }
    let beats = beats_of(&mut rng, &frames);
    let mut model = IcrcModel::default();
    let want: Vec<_> = beats.iter().filter_map(|(b, last, a, t)| model.beat(b, *last, *a, *t)).collect();
    let mut rtl = Rtl::new();
    let got = run(&mut rtl, &mut rng, beats, seed);
    assert_eq!(got.len(), want.len(), "seed {seed}");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "frame {i}, seed {seed}");
    }
}

#[test]
fn rust_hdl_model_gives_the_icrc_with_the_latency() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut m = IcrcPipe::default();
    m.connect_all();
    let settle = |m: &mut IcrcPipe| {
        m.update_all();
        while m.has_changed() {
            m.update_all();
        }
    };
    let frames: Vec<_> = (0..3).map(|_| random_frame(&mut rng)).collect();
    let mut beats = VecDeque::new();
    for (f, at, tele, _) in &frames {
        for (k, c) in f.chunks(64).enumerate() {
            let mut d = Bits::<512>::default();
            for (i, &b) in c.iter().enumerate() {
                d.set_bits::<8>(8 * i, (b as u64).into());
            }
            beats.push_back((d, (k + 1) * 64 >= f.len(), *at, *tele));
        }
    }
    let (mut got, mut due, mut cycle) = (Vec::new(), VecDeque::new(), 0usize);
    while cycle < 200 {
        let beat = beats.pop_front();
        m.reset.next = false;
        m.s_valid.next = beat.is_some();
        if let Some((d, last, at, tele)) = beat {
            m.s_data.next = d;
            m.s_last.next = last;
            m.s_icrc_at.next = (at as u64).into();
            m.s_tele_at.next = (tele as u64).into();
            if last {
                due.push_back(cycle + IcrcPipe::LATENCY);
            }
        }
        m.clock.next = Clock { clk: false };
        settle(&mut m);
        if m.m_valid.val() {
            assert_eq!(due.pop_front(), Some(cycle));
            got.push(m.m_crc.val().to_u64() as u32);
        }
        m.clock.next = Clock { clk: true };
        settle(&mut m);
        cycle += 1;
    }
    assert_eq!(got, frames.iter().map(|f| f.3).collect::<Vec<_>>());
}
