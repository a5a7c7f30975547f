//! Tests of the Verilator binding itself, on the fixtures in testbench/verilog/.

use rayon::prelude::*;
use std::path::PathBuf;
use testbench::verilated::{BindFixture, CombFixture, Model, MODELS};
use vcd::{Command, ScopeItem, TimescaleUnit};

fn reset(m: &mut BindFixture) {
    m.set_reset(1);
    m.tick();
    m.set_reset(0);
}

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn models_are_listed() {
    assert!(MODELS.contains(&"bind_fixture"), "{MODELS:?}");
    assert!(MODELS.contains(&"comb_fixture"), "{MODELS:?}");
    assert_eq!(<BindFixture as Model>::NAME, "bind_fixture");
    assert_eq!(BindFixture::NAME, "bind_fixture");
}

#[test]
fn port_widths() {
    assert_eq!(BindFixture::CLOCK_WIDTH, 1);
    assert_eq!(BindFixture::IN8_WIDTH, 8);
    assert_eq!(BindFixture::IN16_WIDTH, 16);
    assert_eq!(BindFixture::IN33_WIDTH, 33);
    assert_eq!(BindFixture::OUT64_WIDTH, 64);
    assert_eq!(BindFixture::IN100_WIDTH, 100);
    assert_eq!(BindFixture::OUT100_WIDTH, 100);
    assert_eq!(CombFixture::SUM_WIDTH, 17);
    assert_eq!(CombFixture::LOOP_PORT_WIDTH, 4);
}

#[test]
fn values_round_trip() {
    let mut m = BindFixture::new();
    m.set_in8(0xff);
    m.set_in16(0x1234);
    m.set_in33(0x1_2345_6789);
    m.set_in64(u64::MAX - 1);
    m.in100_mut()
        .copy_from_slice(&[0xffff_ffff, 0xffff_ffff, 0x1, 0xa]);
    assert_eq!(
        (m.in8(), m.in16(), m.in33(), m.in64()),
        (0xff, 0x1234, 0x1_2345_6789, u64::MAX - 1)
    );
    assert_eq!(m.in100(), &[0xffff_ffff, 0xffff_ffff, 0x1, 0xa]);
    m.tick();
    assert_eq!(m.out8(), 0x00);
    assert_eq!(m.out16(), 0x1235);
    assert_eq!(m.out33(), 0x1_2345_678a);
    assert_eq!(m.out64(), u64::MAX);
    // The +1 carries across two 32-bit words.
    assert_eq!(m.out100(), &[0, 0, 0x2, 0xa]);

    // Bits above the width are dropped, as Verilator needs them clean.
    m.set_in33(u64::MAX);
    m.in100_mut().copy_from_slice(&[u32::MAX; 4]);
    m.tick();
    assert_eq!(m.in33(), (1 << 33) - 1);
    assert_eq!(m.in100()[3], 0xf);
    assert_eq!(m.out33(), 0);
    assert_eq!(m.out100(), &[0, 0, 0, 0]);
}

#[test]
fn eval_without_clock_edge() {
    let mut m = BindFixture::new();
    m.set_in8(0x0f);
    m.eval();
    assert_eq!(m.inv8(), 0xf0);
    assert_eq!((m.cycles(), m.time_ps()), (0, 0));

    let mut c = CombFixture::new();
    c.set_a(0xffff);
    c.set_b(2);
    c.set_nib_in(0b1010);
    c.eval();
    assert_eq!(c.sum(), 0x1_0001);
    assert_eq!(c.loop_port(), 0b0101);
    Model::tick(&mut c);
    assert_eq!((c.cycles(), c.time_ps()), (1, 4000));
}

#[test]
fn counter_cycles_and_time() {
    let mut m = BindFixture::new();
    reset(&mut m);
    for _ in 0..10 {
        m.tick();
    }
    assert_eq!(m.count(), 10);
    assert_eq!(m.cycles(), 11);
    assert_eq!(m.time_ps(), 11 * 4000);
    assert!(!m.finished());
    assert_eq!(m.fatal(), None);
}

/// Generic harness code: runs any model until it finishes.
fn run_until_finished<M: Model>(m: &mut M, limit: u64) -> u64 {
    while !m.finished() && m.cycles() < limit {
        m.tick();
    }
    m.cycles()
}

#[test]
fn finish_sets_flag_and_process_goes_on() {
    let mut m = BindFixture::new();
    reset(&mut m);
    m.set_finish_at(5);
    assert_eq!(run_until_finished(&mut m, 100), 7);
    assert!(m.finished());
    assert_eq!(m.fatal(), None);
    // Still usable after $finish.
    m.tick();
    assert_eq!(m.cycles(), 8);
    assert_eq!(m.count(), 7);
}

#[test]
fn fatal_sets_flag_and_message() {
    let mut m = BindFixture::new();
    reset(&mut m);
    m.set_fatal_at(3);
    assert_eq!(run_until_finished(&mut m, 100), 5);
    assert!(m.finished());
    let msg = m.fatal().expect("$fatal must set the message");
    assert!(msg.contains("fatal_at reached, count=3"), "{msg}");
    assert!(msg.contains("bind_fixture.v:"), "{msg}");
    // A model that hit a fatal error is left alone.
    m.tick();
    assert_eq!(m.cycles(), 5);
    // Other instances are not affected.
    let mut other = BindFixture::new();
    reset(&mut other);
    other.tick();
    assert_eq!(other.fatal(), None);
}

fn scope_names(items: &[ScopeItem], out: &mut Vec<String>) {
    for item in items {
        match item {
            ScopeItem::Scope(s) => {
                out.push(s.identifier.clone());
                scope_names(&s.items, out);
            }
            ScopeItem::Var(v) => out.push(v.reference.clone()),
            _ => {}
        }
    }
}

#[test]
fn vcd_is_readable() {
    let path = tmp("bind_fixture.vcd");
    {
        let mut m = BindFixture::with_vcd(&path);
        reset(&mut m);
        m.set_in8(1);
        for _ in 0..9 {
            m.tick();
        }
        m.flush_vcd();
    } // drop closes the file
    let mut p = vcd::Parser::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let header = p.parse_header().unwrap();
    assert_eq!(header.timescale, Some((1, TimescaleUnit::PS)));
    let roots: Vec<_> = header
        .items
        .iter()
        .filter(|i| !matches!(i, ScopeItem::Comment(_)))
        .collect();
    let [ScopeItem::Scope(root)] = roots[..] else {
        panic!("want one root scope: {roots:?}")
    };
    assert_eq!(root.identifier, "bind_fixture");
    let mut names = Vec::new();
    scope_names(&header.items, &mut names);
    assert!(names.iter().all(|n| !n.contains('$')), "{names:?}");
    assert!(names.iter().any(|n| n == "odd_name"), "{names:?}");
    assert!(names.iter().any(|n| n == "inc"), "{names:?}");

    let clock = root
        .items
        .iter()
        .find_map(|i| match i {
            ScopeItem::Var(v) if v.reference == "clock" => Some(v.code),
            _ => None,
        })
        .expect("clock in the root scope");
    let (mut t, mut last_t, mut edges) = (0, 0, Vec::new());
    for cmd in p {
        match cmd.unwrap() {
            Command::Timestamp(ts) => {
                assert!(ts > last_t || last_t == 0, "time must increase");
                (t, last_t) = (ts, ts);
            }
            Command::ChangeScalar(id, v) if id == clock => edges.push((t, v == vcd::Value::V1)),
            _ => {}
        }
    }
    assert_eq!(last_t, 10 * 4000);
    // Rising edges on whole 4 ns periods, falling edges half way.
    assert!(edges.len() >= 19, "{edges:?}");
    assert!(
        edges
            .iter()
            .all(|&(t, high)| t % 4000 == if high { 0 } else { 2000 }),
        "{edges:?}"
    );
}

#[test]
fn vcd_flush_while_running() {
    let path = tmp("bind_fixture_flush.vcd");
    let mut m = BindFixture::with_vcd(&path);
    m.tick();
    m.flush_vcd();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("$enddefinitions"));
    assert!(text.contains("#4000"), "{text}");
}

#[test]
#[should_panic(expected = "cannot open VCD file")]
fn vcd_bad_path_panics() {
    BindFixture::with_vcd("/nonexistent-dir/x.vcd");
}

/// A run whose result depends on every output, for `seed`.
fn checksum(seed: u64) -> u64 {
    let mut m = BindFixture::new();
    reset(&mut m);
    let mut sum = 0u64;
    for i in 0..20_000u64 {
        let x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(i);
        m.set_in8(x as u8);
        m.set_in16((x >> 8) as u16);
        m.set_in33(x >> 3);
        m.set_in64(x.rotate_left(17));
        m.in100_mut()
            .copy_from_slice(&[x as u32, (x >> 32) as u32, !(x as u32), seed as u32]);
        m.tick();
        let w = m.out100();
        let outs = [
            m.out8() as u64,
            m.out16() as u64,
            m.out33(),
            m.out64(),
            w[0] as u64,
            w[3] as u64,
        ];
        for o in outs {
            sum = sum.rotate_left(5) ^ o;
        }
    }
    sum ^ m.count() as u64
}

#[test]
fn instances_run_in_parallel() {
    let seeds = [1u64, 2, 3, 4];
    let seq: Vec<u64> = seeds.iter().map(|&s| checksum(s)).collect();
    let par: Vec<u64> = seeds.par_iter().map(|&s| checksum(s)).collect();
    assert_eq!(seq, par);
    assert!(
        seq.windows(2).all(|w| w[0] != w[1]),
        "seeds must give different runs"
    );
    // Models also move between threads.
    let mut m = BindFixture::new();
    reset(&mut m);
    let m = std::thread::spawn(move || {
        m.tick();
        m
    })
    .join()
    .unwrap();
    assert_eq!(m.count(), 1);
}

#[test]
fn fatal_in_parallel_stays_per_instance() {
    let results: Vec<(u64, Option<String>)> = (0..4u32)
        .into_par_iter()
        .map(|i| {
            let mut m = BindFixture::new();
            reset(&mut m);
            if i % 2 == 0 {
                m.set_fatal_at(10 + i);
            }
            run_until_finished(&mut m, 50);
            (m.cycles(), m.fatal())
        })
        .collect();
    let cycles: Vec<u64> = results.iter().map(|r| r.0).collect();
    assert_eq!(cycles, [12, 50, 14, 50]);
    for (cycles, msg) in &results[..] {
        let Some(msg) = msg else { continue };
        // `[%0t]` is the instance's own time: the falling half of the last tick.
        let t = (cycles - 1) * 4000 + 2000;
        assert!(msg.starts_with(&format!("[{t}] ")), "{msg}");
        assert!(msg.contains(&format!("count={}", cycles - 2)), "{msg}");
    }
    assert!(results[1].1.is_none() && results[3].1.is_none());
}
