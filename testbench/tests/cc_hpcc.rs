//! cc_hpcc (HPCC++ and Rx-HPCC datapath of the CC module) against the fixed-point model
//! `sim::cc_hpcc`, result by result; throughput, latency, and rust-hdl's simulator.
//! Seeds are fresh each run and printed on failure with the command that replays them.

use testbench::harness::cc_hpcc::{self, Event, Result, Shape};
use testbench::harness::Scenario;

use testbench::harness::assert_passed;
use testbench::harness::stream::{put, Sink};
use testbench::verilated::models::CcHpcc;

#[test]
fn random_events_match_the_model() {
    let o = Scenario::CcHpccRandom.run(rand::random::<u32>() as u64, 300_000, None);
    assert_passed(&o);
    assert!(o.transactions > 200_000, "{o:?}");
    for m in [
        "ignored",
        "recorded",
        "updated_w",
        "updated_wc",
        "inc_stage_gt0",
        "flow_inits",
    ] {
        assert!(o.get(m).unwrap() > 100.0, "too few {m}: {o:?}");
    }
}

#[test]
fn same_flow_bursts_match_the_model() {
    let o = Scenario::CcHpccBursts.run(rand::random::<u32>() as u64, 100_000, None);
    assert_passed(&o);
    assert!(o.get("same_flow_events").unwrap() > 15_000.0, "{o:?}");
}

/// One event per clock when the flows differ: offered every cycle, flows drawn uniformly from
/// 1024, so about 3 in 1024 events repeat a flow of the last HAZARD - 1 cycles and wait (up to
/// 3 cycles each): about 0.99 events per cycle.
#[test]
fn takes_an_event_per_clock_across_flows() {
    let seed = rand::random::<u32>() as u64;
    let o = cc_hpcc::run(
        Scenario::CcHpccRandom,
        seed,
        200_000,
        &Shape::SATURATED,
        None,
    );
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    assert!(rate > 0.985, "seed {seed}: {rate} events per cycle");
}

#[test]
fn latency_is_fixed() {
    let c = cc_hpcc::config();
    let mut dut = cc_hpcc::open(&c, None);
    let mut waited = 0;
    while {
        dut.eval();
        !(CcHpcc::S_AXIS_EVENT.tready)(&dut)
    } {
        dut.tick();
        waited += 1;
    }
    assert_eq!(
        waited,
        cc_hpcc::FLOWS,
        "initialization takes one cycle per flow"
    );
    let e = Event {
        flow: 7,
        rx: false,
        init: false,
        seq: 1,
        snd_nxt: 2,
        now: 0,
        count: 1,
        hops: [0; 5],
    };
    let mut sink = Sink::new(CcHpcc::M_AXIS_RESULT, 0.0);
    sink.set_ready(&mut dut, true);
    // Offered for one cycle (it is ready), then the result's cycle counted.
    put(&CcHpcc::S_AXIS_EVENT, &mut dut, Some(&e));
    dut.tick();
    put::<_, Event>(&CcHpcc::S_AXIS_EVENT, &mut dut, None);
    let mut cycles = 1;
    while {
        dut.eval();
        !sink.valid(&dut)
    } {
        dut.tick();
        cycles += 1;
        assert!(cycles < 500, "no result");
    }
    assert_eq!(cycles, hdl::cc_hpcc::LATENCY);
    let r = Result::from_words(sink.take(&dut).expect("the result is taken"));
    assert_eq!(
        (r.flow, r.action, r.w),
        (7, 1, c.w_max_q8),
        "first telemetry only records"
    );
}

/// rust-hdl's own simulator on the same block (slow, so a handful of events): results equal
/// the model's.
#[test]
fn rust_hdl_simulation_matches_the_model() {
    use testbench::harness::cc_cfg::wide;
    use rust_hdl::prelude::*;
    fn cycle(uut: &mut hdl::cc_hpcc::CcHpcc<10>) {
        for clk in [false, true] {
            uut.clock.next = Clock { clk };
            uut.update_all();
            while uut.has_changed() {
                uut.update_all();
            }
        }
    }
    let c = cc_hpcc::config();
    let mut uut = hdl::cc_hpcc::CcHpcc::<10>::default();
    uut.connect_all();
    testbench::harness::cc_cfg::set_hpcc(&mut uut.cfg, &c);
    uut.m_axis_result_tready.next = true;
    uut.reset.next = true;
    cycle(&mut uut);
    uut.reset.next = false;
    for _ in 0..cc_hpcc::FLOWS {
        cycle(&mut uut);
    }
    // Three flows, two ACKs each (record, then measure), 4 cycles apart.
    let mut model = vec![sim::cc_hpcc::HpccState::new(&c); 3];
    let mut want = Vec::new();
    let mut got = Vec::new();
    for k in 0..6u64 {
        let f = (k % 3) as usize;
        let hop = sim::packet::IntHop::from_counters(
            1000 * (k / 3 + 1),
            40_000 * (k / 3),
            5000 * f as u64,
            sim::packet::LineRate::G100,
        );
        let e = Event {
            flow: 100 + f as u16,
            rx: f == 2,
            init: false,
            seq: 10 * k as u32 + 1,
            snd_nxt: 10 * k as u32 + 5,
            now: 1000 * k,
            count: 1,
            hops: [hop.word(), 0, 0, 0, 0],
        };
        want.push(Result::model(&c, &mut model[f], &e));
        uut.s_axis_event_tdata.next = wide(&e.words());
        uut.s_axis_event_tvalid.next = true;
        cycle(&mut uut);
        uut.s_axis_event_tvalid.next = false;
        for _ in 0..3 {
            cycle(&mut uut);
        }
    }
    for _ in 0..hdl::cc_hpcc::LATENCY + 30 {
        if uut.m_axis_result_tvalid.val() {
            let d = uut.m_axis_result_tdata.val();
            let words: Vec<u32> = (0..5)
                .map(|i| d.get_bits::<32>(32 * i).to_u64() as u32)
                .collect();
            got.push(Result::from_words(&words));
        }
        cycle(&mut uut);
    }
    assert_eq!(got, want);
}

/// `replay --model rtl` prints exactly what `--model fixed` prints, on the directed traces and
/// on a random trace with skipped events, bad hop counts and odd link speeds.
#[test]
fn replay_rtl_prints_what_the_fixed_model_prints() {
    use rand::{Rng, SeedableRng};
    use serde_json::json;
    use sim::replay::{replay, Algo, Model, ReplayConfig};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/traces");
    let mut traces: Vec<String> = ["hpcc_incast", "hpcc_recovery", "hpcc_wc_once_per_rtt"]
        .iter()
        .map(|t| std::fs::read_to_string(dir.join(format!("{t}.jsonl"))).unwrap())
        .collect();
    let seed = rand::random::<u32>() as u64;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut random = String::new();
    let mut tx = [0u64; 20];
    for k in 0..3000u64 {
        let flow = rng.gen_range(0..20usize);
        tx[flow] += rng.gen_range(0..200_000);
        let n = if rng.gen_bool(0.9) {
            2
        } else {
            rng.gen_range(0..7)
        };
        let hops: Vec<_> = (0..n)
            .map(|h| {
                let gbps = [100.0, 400.0, 25.0, 0.0, 37.0][rng.gen_range(0..5)];
                json!({"ts_ns": 1000 * k + h, "tx_bytes": tx[flow] + 77 * h,
                       "qlen_bytes": rng.gen_range(0..300_000u64), "link_gbps": gbps})
            })
            .collect();
        let event = ["ack", "ack", "ack", "int", "cnp"][rng.gen_range(0..5)];
        let mut e = json!({"flow": flow, "t_ns": 1000 * k, "event": event, "hops": hops});
        if rng.gen_bool(0.97) {
            e["seq"] = json!(k * 1000 + rng.gen_range(0..5000u64));
            e["snd_nxt"] = json!(k * 1000 + 60_000);
        }
        random += &(e.to_string() + "\n");
    }
    traces.push(random);
    for (n, t) in traces.iter().enumerate() {
        for algo in [Algo::Hpcc, Algo::HpccRx] {
            let mut cfg = ReplayConfig::new(algo, 100.0, 5000, 1024);
            cfg.model = Model::Fixed;
            let (mut fixed, mut rtl) = (Vec::new(), Vec::new());
            replay(t.as_bytes(), &mut fixed, &cfg).unwrap();
            testbench::replay_rtl::replay_rtl(t.as_bytes(), &mut rtl, &cfg).unwrap();
            let (fixed, rtl) = (
                String::from_utf8(fixed).unwrap(),
                String::from_utf8(rtl).unwrap(),
            );
            for (i, (f, r)) in fixed.lines().zip(rtl.lines()).enumerate() {
                assert_eq!(
                    f,
                    r,
                    "trace {n} ({}) line {}, random seed {seed}",
                    algo.name(),
                    i + 1
                );
            }
            assert_eq!(fixed.lines().count(), rtl.lines().count());
        }
    }
}

/// Results read one cycle in ten: the 128 result slots fill, the input waits for credit, and
/// nothing is lost or reordered.
#[test]
fn heavy_result_backpressure_loses_nothing() {
    let shape = Shape {
        stall: 0.9,
        ..Shape::RANDOM
    };
    let seed = rand::random::<u32>() as u64;
    let o = cc_hpcc::run(Scenario::CcHpccRandom, seed, 100_000, &shape, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    assert!(
        (0.08..0.12).contains(&rate),
        "seed {seed}: {rate} events per cycle, want ~0.1"
    );
}
