//! cc_dcqcn (DCQCN reaction point of the CC module) against the fixed-point model
//! `sim::cc_dcqcn`, result by result; hazard spacing, throughput, latency, a directed
//! cut-and-recovery scenario, bad input, and rust-hdl's simulator. Seeds are fresh each run and
//! printed on failure with the command that replays them.

use hdl::cc_dcqcn::{HAZARD, LATENCY};
use sim::cc_float::dcqcn::IncreaseStage;
use sim::cc_dcqcn::{self as xd, DcqcnState};
use testbench::harness::cc_dcqcn::{self as h, Event, Result, Shape, CNP, INIT, TIMER, TX};
use testbench::harness::Scenario;

use testbench::harness::assert_passed;
use testbench::harness::stream::{put, Sink};
use testbench::verilated::models::CcDcqcn;

#[test]
fn rtl_out_is_fresh() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let stale = hdl::export::stale(&dir, &hdl::export::all().unwrap());
    assert!(stale.is_empty(), "stale in rtl-out/: {stale:?}: run `hpcc-nic export`");
}

/// Both configurations (even seeds A, odd seeds B), every kind of edge reached.
#[test]
fn random_events_match_the_model() {
    let base = rand::random::<u32>() as u64 & !1;
    for seed in [base, base + 1] {
        let o = Scenario::CcDcqcnRandom.run(seed, 200_000, None);
        println!("seed {seed:#x}: {} events, {} mismatches, {:?}", o.transactions, o.mismatches, o.metrics);
        assert_passed(&o);
        assert!(o.transactions > 100_000, "{o:?}");
        let mut want = vec![
            "cuts",
            "cnp_coalesced",
            "timer_increases",
            "fast_recovery",
            "additive",
            "hyper",
            "alpha_decayed",
            "alpha_zero",
            "time_backwards",
            "huge_gaps",
            "flow_inits",
            "bad_flow_dropped",
            "rc_at_min",
        ];
        if seed % 2 == 0 {
            want.push("byte_increases");
        }
        for m in want {
            assert!(o.get(m).unwrap() > 20.0, "too few {m}: {o:?}");
        }
    }
}

#[test]
fn same_flow_bursts_match_the_model() {
    let o = Scenario::CcDcqcnBursts.run(rand::random::<u32>() as u64, 100_000, None);
    assert_passed(&o);
    assert!(o.get("same_flow_events").unwrap() > 1000.0, "{o:?}");
}

/// Results read one cycle in ten: the 128 result slots fill, the input waits for credit, and
/// nothing is lost or reordered.
#[test]
fn heavy_result_backpressure_loses_nothing() {
    let shape = Shape { stall: 0.9, ..Shape::RANDOM };
    let seed = rand::random::<u32>() as u64;
    let o = h::run(Scenario::CcDcqcnRandom, seed, 60_000, &shape, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    assert!((0.08..0.12).contains(&rate), "seed {seed}: {rate} events per cycle, want ~0.1");
}

/// One event per clock across flows: events offered every cycle, flows drawn uniformly from
/// 1024; about 6% find their flow in its 60-cycle window and wait in flow_park while the others
/// pass.
#[test]
fn takes_an_event_per_clock_across_flows() {
    let seed = rand::random::<u32>() as u64;
    let o = h::run(Scenario::CcDcqcnRandom, seed, 100_000, &Shape::SATURATED, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    println!("seed {seed:#x}: {rate:.4} events/cycle (uniform random flows)");
    assert!(rate >= 0.98, "seed {seed}: {rate} events per cycle");
}

#[test]
fn latency_is_fixed() {
    let c = h::config();
    let mut dut = h::open(&c, None);
    assert_eq!(h::wait_ready(&mut dut), h::FLOWS, "initialization takes one cycle per flow");
    let e = Event { flow: 7, kind: CNP, bytes: 0, now: 1000 };
    let mut sink = Sink::new(CcDcqcn::M_AXIS_RESULT, 0.0);
    sink.set_ready(&mut dut, true);
    // Offered for one cycle (it is ready), then the result's cycle counted.
    put(&CcDcqcn::S_AXIS_EVENT, &mut dut, Some(&e));
    dut.tick();
    put::<_, Event>(&CcDcqcn::S_AXIS_EVENT, &mut dut, None);
    let mut cycles = 1;
    while {
        dut.eval();
        !sink.valid(&dut)
    } {
        dut.tick();
        cycles += 1;
        assert!(cycles < 500, "no result");
    }
    assert_eq!(cycles, LATENCY);
    let r = Result::from_words(sink.take(&dut).expect("the result is taken"));
    let mut s = DcqcnState::new(&c);
    assert_eq!(r, Result::model(&c, &mut s, &e));
}

/// One flow's events offered back to back: its results come exactly HAZARD cycles apart.
/// Different flows: taken one per clock.
#[test]
fn hazard_spacing() {
    let c = h::config();
    let mut dut = h::open(&c, None);
    h::wait_ready(&mut dut);
    let same: Vec<Event> =
        (0..6).map(|k| Event { flow: 3, kind: TIMER, bytes: 0, now: 100 * k }).collect();
    let (results, _, out) = h::drive(&mut dut, &same);
    assert_eq!(results.len(), same.len());
    for w in out.windows(2) {
        assert_eq!(w[1] - w[0], HAZARD as u64, "result cycles {out:?}");
    }
    let many: Vec<Event> =
        (0..200).map(|k| Event { flow: k as u16, kind: CNP, bytes: 0, now: 5000 }).collect();
    let (results, taken, _) = h::drive(&mut dut, &many);
    assert_eq!(results.len(), many.len());
    assert_eq!(taken.last().unwrap() - taken[0], 199, "accept cycles {taken:?}");
    // A flow returns after HAZARD accepts of others without waiting.
    let mut ring: Vec<Event> = Vec::new();
    for round in 0..3u64 {
        for f in 0..HAZARD as u16 {
            ring.push(Event { flow: 500 + f, kind: TIMER, bytes: 0, now: 10_000 * round });
        }
    }
    let (_, taken, _) = h::drive(&mut dut, &ring);
    assert_eq!(taken.last().unwrap() - taken[0], ring.len() as u64 - 1);
}

/// CNP cut, fast recovery, additive and hyper increase on one flow of configuration A
/// (100G at 250 MHz: line = 50 B/cycle, F = 1, B = 10 MB, T = 300 us, g = 1/256, K = 1 us):
/// every result against the model, and the simple ones against values worked by hand.
#[test]
fn cut_and_recovery() {
    let c = h::config();
    assert_eq!((c.line_q24, c.fast_recovery_times, c.g_shift), (50 << 24, 1, 8));
    let t = c.rate_increase_timer_ns as u64;
    let b = c.byte_counter_bytes;
    let f = 9;
    let ev = |kind, bytes, now| Event { flow: f, kind, bytes, now };
    let events = vec![
        ev(TIMER, 0, 500),          // 0: inactive, nothing happens
        ev(CNP, 0, 1000),           // 1: first cut, alpha = 1: Rc = line / 2
        ev(CNP, 0, 2000),           // 2: coalesced (1 us after the cut): alpha decays once
        ev(TIMER, 0, 1000 + t),     // 3: T expires: fast recovery
        ev(TX, b, 1000 + t + 10),   // 4: byte counter: t = 1, bc = 1 -> fast recovery
        ev(TIMER, 0, 1000 + 2 * t), // 5: t = 2 > F, bc = 1 -> additive
        ev(TX, b, 1000 + 2 * t + 5), // 6: bc = 2: both > F -> hyper
        ev(TX, b - 1, 1000 + 2 * t + 6), // 7: below B: bytes carry
        ev(TX, 1, 1000 + 2 * t + 7), // 8: reaches B: hyper again
        ev(CNP, 0, 1000 + 2 * t + 8), // 9: second cut, alpha decayed over ~600 us
        ev(INIT, 0, 7),             // 10: back to the initial state
    ];
    let mut dut = h::open(&c, None);
    h::wait_ready(&mut dut);
    let (got, _, _) = h::drive(&mut dut, &events);
    let mut s = DcqcnState::new(&c);
    let want: Vec<Result> = events.iter().map(|e| Result::model(&c, &mut s, e)).collect();
    assert_eq!(got, want);
    let line = 50u64 << 24;
    let g = |i: usize| got[i].state;
    assert_eq!((g(0).rc_q24, g(0).active), (line, false));
    assert_eq!((g(1).rc_q24, g(1).rt_q24, g(1).alpha_q24), (line / 2, line, xd::ALPHA_ONE));
    assert_eq!(got[1].rate_q16, 25 << 16);
    assert_eq!((g(2).rc_q24, g(2).alpha_q24, g(2).last_cnp), (line / 2, 16_711_680, 2000));
    assert_eq!((g(3).rc_q24, g(3).t_count), (line * 3 / 4, 1));
    assert_eq!(g(3).last_stage, Some(IncreaseStage::FastRecovery));
    assert_eq!((g(4).rc_q24, g(4).bc_count, g(4).bytes), (line * 7 / 8, 1, 0));
    assert_eq!(g(4).last_stage, Some(IncreaseStage::FastRecovery));
    // Rt + R_AI clamps to the line rate.
    assert_eq!((g(5).rt_q24, g(5).rc_q24), (line, line * 15 / 16));
    assert_eq!(g(5).last_stage, Some(IncreaseStage::Additive));
    assert_eq!((g(6).rc_q24, g(6).bc_count), (line * 31 / 32, 2));
    assert_eq!(g(6).last_stage, Some(IncreaseStage::Hyper));
    assert_eq!((g(7).bytes, g(7).bc_count), (b as u64 - 1, 2));
    assert_eq!((g(8).bytes, g(8).bc_count, g(8).rc_q24), (0, 3, line * 63 / 64));
    assert!(g(9).rc_q24 < g(8).rc_q24 && g(9).rt_q24 == g(8).rc_q24 && g(9).t_count == 0);
    assert_eq!(g(10), DcqcnState::new(&c));
}

/// Flow ids >= 2^F are dropped and counted; time going backwards leaves the flow's clock where
/// it was; both as the model says.
#[test]
fn bad_input() {
    let c = h::config();
    let mut dut = h::open(&c, None);
    h::wait_ready(&mut dut);
    let events = vec![
        Event { flow: 1, kind: CNP, bytes: 0, now: 1_000_000 },
        Event { flow: 1024, kind: CNP, bytes: 0, now: 5 },
        Event { flow: 0xFFFF, kind: TX, bytes: 7, now: 5 },
        Event { flow: 1, kind: CNP, bytes: 0, now: 10 }, // backwards: coalesced at 1 ms
        Event { flow: 1, kind: TIMER, bytes: 0, now: 0 },
        Event { flow: 1, kind: TX, bytes: u32::MAX, now: u64::MAX }, // now + T saturates
        Event { flow: 1, kind: CNP, bytes: 0, now: u64::MAX },
    ];
    let (got, _, _) = h::drive(&mut dut, &events);
    assert_eq!(dut.stat_bad_flow(), 2);
    let mut s = DcqcnState::new(&c);
    let want: Vec<Result> = events
        .iter()
        .filter(|e| (e.flow as usize) < h::FLOWS)
        .map(|e| Result::model(&c, &mut s, e))
        .collect();
    assert_eq!(got, want);
    assert_eq!(got[1].state.now, 1_000_000);
    assert_eq!(got[1].state.last_cut, 1_000_000);
}

/// rust-hdl's own simulator on the same block with 16 flows (slow, so a handful of events):
/// results equal the model's.
#[test]
fn rust_hdl_simulation_matches_the_model() {
    use hdl::cc_dcqcn::CcDcqcn;
    use testbench::harness::cc_cfg::wide;
    use rust_hdl::prelude::*;
    fn cycle(uut: &mut CcDcqcn<4>) {
        for clk in [false, true] {
            uut.clock.next = Clock { clk };
            uut.update_all();
            while uut.has_changed() {
                uut.update_all();
            }
        }
    }
    let c = h::config();
    let mut uut = CcDcqcn::<4>::default();
    uut.connect_all();
    testbench::harness::cc_cfg::set_dcqcn(&mut uut.cfg, &c);
    uut.m_axis_result_tready.next = true;
    uut.reset.next = true;
    cycle(&mut uut);
    uut.reset.next = false;
    for _ in 0..16 {
        cycle(&mut uut);
    }
    let t = c.rate_increase_timer_ns as u64;
    let events = [
        Event { flow: 2, kind: CNP, bytes: 0, now: 1000 },
        Event { flow: 3, kind: TX, bytes: 5, now: 1000 },
        Event { flow: 2, kind: CNP, bytes: 0, now: 2500 }, // coalesced, alpha decays
        Event { flow: 2, kind: TIMER, bytes: 0, now: 1000 + t },
        Event { flow: 2, kind: TX, bytes: c.byte_counter_bytes, now: 1000 + t + 1 },
        Event { flow: 2, kind: CNP, bytes: 0, now: 1000 + 2 * t }, // second cut
    ];
    let mut model = [DcqcnState::new(&c); 16];
    let want: Vec<Result> =
        events.iter().map(|e| Result::model(&c, &mut model[e.flow as usize], e)).collect();
    let mut got = Vec::new();
    let mut next = 0;
    for _ in 0..(events.len() + 1) * HAZARD + LATENCY {
        uut.s_axis_event_tvalid.next = next < events.len();
        if next < events.len() {
            uut.s_axis_event_tdata.next = wide(&events[next].words());
        }
        // Settle the combinational tready for this event before the edge.
        uut.update_all();
        while uut.has_changed() {
            uut.update_all();
        }
        if next < events.len() && uut.s_axis_event_tready.val() {
            next += 1;
        }
        if uut.m_axis_result_tvalid.val() {
            let d = uut.m_axis_result_tdata.val();
            let mut words: Vec<u32> =
                (0..18).map(|i| d.get_bits::<32>(32 * i).to_u64() as u32).collect();
            words.push(d.get_bits::<12>(576).to_u64() as u32);
            got.push(Result::from_words(&words));
        }
        cycle(&mut uut);
    }
    assert_eq!(got, want);
}

/// Configuration B (no byte counter, F = 5, g = 1/16): after a cut, timer expiries 1..=5 are
/// fast recovery, the 6th additive, then hyper; tx events change nothing but the clock.
/// Against the model and the stage rule by hand.
#[test]
fn timer_only_stages_without_byte_counter() {
    let c = h::config_b();
    assert_eq!((c.byte_counter_bytes, c.fast_recovery_times, c.g_shift), (0, 5, 4));
    let t = c.rate_increase_timer_ns as u64;
    let mut events = vec![Event { flow: 77, kind: CNP, bytes: 0, now: 10 }];
    for k in 1..=8u64 {
        events.push(Event { flow: 77, kind: TX, bytes: u32::MAX, now: 10 + k * t - 1 });
        events.push(Event { flow: 77, kind: TIMER, bytes: 0, now: 10 + k * t });
    }
    let mut dut = h::open(&c, None);
    h::wait_ready(&mut dut);
    let (got, _, _) = h::drive(&mut dut, &events);
    let mut s = DcqcnState::new(&c);
    let want: Vec<Result> = events.iter().map(|e| Result::model(&c, &mut s, e)).collect();
    assert_eq!(got, want);
    // alpha = 1 at the first cut: Rc halves; alpha stays 1 (1 - 1/16 + 1/16).
    assert_eq!((got[0].state.rc_q24, got[0].state.alpha_q24), (c.line_q24 / 2, xd::ALPHA_ONE));
    for k in 1..=8usize {
        let tx = got[2 * k - 1].state;
        assert_eq!((tx.bytes, tx.bc_count, tx.t_count), (0, 0, k as u32 - 1), "tx {k}");
        let r = got[2 * k].state;
        let stage = match k {
            1..=5 => IncreaseStage::FastRecovery,
            6 => IncreaseStage::Additive,
            _ => IncreaseStage::Hyper,
        };
        assert_eq!((r.t_count, r.last_stage), (k as u32, Some(stage)), "expiry {k}");
    }
}

/// `replay --model rtl --algo dcqcn` prints exactly what `--model fixed` prints, on the
/// directed trace and on a random trace (CNP bursts, timers, tx with and without bytes,
/// events DCQCN does not use).
#[test]
fn replay_rtl_prints_what_the_fixed_model_prints() {
    use rand::{Rng, SeedableRng};
    use serde_json::json;
    use sim::replay::{replay, Algo, Model, ReplayConfig};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/traces");
    let mut traces = vec![std::fs::read_to_string(dir.join("dcqcn_cut_recovery.jsonl")).unwrap()];
    let seed = rand::random::<u32>() as u64;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut random = String::new();
    let mut t = 0u64;
    for _ in 0..3000 {
        t += rng.gen_range(0..20_000u64);
        let flow = rng.gen_range(0..20usize);
        let event = ["cnp", "cnp", "timer", "tx", "tx", "ack"][rng.gen_range(0..6)];
        let mut e = json!({"flow": flow, "t_ns": t, "event": event});
        if event == "tx" && rng.gen_bool(0.95) {
            e["bytes"] = json!(rng.gen_range(0..20_000_000u64));
        }
        random += &(e.to_string() + "\n");
    }
    traces.push(random);
    for (n, t) in traces.iter().enumerate() {
        for (gbps, rtt) in [(100.0, 5_000), (25.0, 8_000)] {
            let mut cfg = ReplayConfig::new(Algo::Dcqcn, gbps, rtt, 1000);
            cfg.model = Model::Fixed;
            let (mut fixed, mut rtl) = (Vec::new(), Vec::new());
            replay(t.as_bytes(), &mut fixed, &cfg).unwrap();
            testbench::replay_rtl::replay_rtl(t.as_bytes(), &mut rtl, &cfg).unwrap();
            let (fixed, rtl) = (String::from_utf8(fixed).unwrap(), String::from_utf8(rtl).unwrap());
            for (i, (f, r)) in fixed.lines().zip(rtl.lines()).enumerate() {
                assert_eq!(f, r, "trace {n} at {gbps}G line {}, random seed {seed}", i + 1);
            }
            assert_eq!(fixed.lines().count(), rtl.lines().count());
        }
    }
}
