//! cc_hpcc (HPCC++ and Rx-HPCC datapath of the CC module) against the fixed-point model
//! `sim::cc_module::hpcc`, result by result; throughput, latency, and rust-hdl's simulator.
//! Seeds are fresh each run and printed on failure with the command that replays them.

use testbench::harness::cc_hpcc::{self, Event, Result, Shape};
use testbench::harness::Scenario;
use testbench::verilated::models::CcHpcc;

fn assert_passed(o: &testbench::harness::Outcome) {
    assert!(o.passed(), "{o:?}\nre-run: {}", o.rerun_command());
}

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
    let mut dut = CcHpcc::new();
    cc_hpcc::set_config(&mut dut, &c);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut waited = 0;
    while {
        dut.eval();
        dut.s_axis_event_tready() == 0
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
        seq: 1,
        snd_nxt: 2,
        now: 0,
        count: 1,
        hops: [0; 5],
    };
    dut.s_axis_event_tdata_mut().copy_from_slice(&e.words());
    dut.set_s_axis_event_tvalid(1);
    dut.tick();
    dut.set_s_axis_event_tvalid(0);
    let mut cycles = 1;
    while dut.m_axis_result_tvalid() == 0 {
        dut.tick();
        cycles += 1;
        assert!(cycles < 500, "no result");
    }
    assert_eq!(cycles, hdl::cc_hpcc::LATENCY);
    let r = Result::from_words(dut.m_axis_result_tdata());
    assert_eq!(
        (r.flow, r.action, r.w),
        (7, 1, c.w_max_q8),
        "first telemetry only records"
    );
}
