//! cc_module (the CC module's top) against the algorithm map plus the three engines' golden
//! models: a short random run, a directed run over the four algorithms, create-then-event
//! read-after-write, unused event types, bad flow ids, throughput and latency. Random seeds are
//! fresh each run and printed on failure with the command that replays them.

use testbench::harness::cc_module::{
    self as h, Board, Event, Model, Out, Shape, Update, ACK, CNP, CREATE, DCQCN, HPCC, LDCP, LOSS,
    RX, RX_HPCC, TIMER, TX,
};
use testbench::harness::{Outcome, Scenario};

use testbench::harness::assert_passed;

/// Checks a `drive` trace against the model's answers for `events`, in per-flow order.
fn check_trace(m: &mut Model, events: &[Event], t: &h::Trace) -> (Outcome, Vec<Out>) {
    let mut o = Outcome::new(Scenario::CcModuleRandom, 0);
    let mut b = Board::default();
    let outs: Vec<Out> = events.iter().map(|e| m.apply(e)).collect();
    for &out in &outs {
        b.expect(out);
    }
    for &(c, u) in &t.updates {
        b.got_update(&mut o, c, u);
    }
    for &(c, f) in &t.feedbacks {
        b.got_feedback(&mut o, c, f);
    }
    if b.pending != 0 || b.unexpected != 0 {
        o.fail(format!("{} outputs missing, {} unexpected", b.pending, b.unexpected));
    }
    (o, outs)
}

fn fresh() -> (Model, testbench::verilated::models::CcModule) {
    let m = testbench::harness::cc_module::default_model();
    let mut dut = h::open(&m, None);
    let wait = h::wait_ready(&mut dut);
    assert!((1024..1030).contains(&wait), "initialization took {wait} cycles");
    (m, dut)
}

#[test]
fn random_events_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::CcModuleRandom.run(seed, 100_000, None);
    println!("seed {seed:#x}: {} events, {} mismatches, {:?}", o.transactions, o.mismatches, o.metrics);
    assert_passed(&o);
    assert!(o.transactions > 70_000, "{o:?}");
    for name in [
        "updates",
        "feedbacks",
        "unused",
        "bad_flow",
        "creates",
        "algorithm_switches",
        "events_hpcc",
        "events_rx_hpcc",
        "events_ldcp",
        "events_dcqcn",
    ] {
        assert!(o.get(name).unwrap() > 20.0, "too few {name}: {o:?}");
    }
}

/// Flows of each algorithm created, one event of each used type per flow; every Update and
/// feedback equals the models'. Also measures the latency of each path.
#[test]
fn directed_each_algorithm() {
    let (mut m, mut dut) = fresh();
    let mut ev = vec![];
    // Flow 5 stays on algorithm 0 from reset (no create).
    ev.push(Event { flow: 5, ty: ACK, count: 0, now: 1000, ..Default::default() });
    for (flow, alg) in [(10u16, HPCC), (11, RX_HPCC), (12, LDCP), (13, DCQCN)] {
        ev.push(Event::create(flow, alg));
    }
    // An ACK and a telemetry packet with one hop each, LDCP ACK/loss/timer, DCQCN CNP/timer/tx.
    let hop = sim::packet::IntHop::from_counters(5000, 123_456, 20_000, sim::packet::LineRate::G100).word();
    let hops = [hop, 0, 0, 0, 0];
    ev.push(Event { flow: 10, ty: ACK, count: 1, seq: 100, snd_nxt: 5000, now: 6000, hops, ..Default::default() });
    ev.push(Event { flow: 11, ty: RX, count: 1, now: 6000, hops, ..Default::default() });
    ev.push(Event { flow: 12, ty: ACK, ece: true, acked: 3, now: 7000, ..Default::default() });
    ev.push(Event { flow: 12, ty: LOSS, now: 8000, ..Default::default() });
    ev.push(Event { flow: 12, ty: TIMER, now: 9000, ..Default::default() });
    ev.push(Event { flow: 13, ty: CNP, now: 7000, ..Default::default() });
    ev.push(Event { flow: 13, ty: TIMER, now: 400_000, ..Default::default() });
    ev.push(Event { flow: 13, ty: TX, seq: 20_000_000, now: 500_000, ..Default::default() });
    let t = h::drive(&mut dut, &ev, 300);
    let (o, outs) = check_trace(&mut m, &ev, &t);
    assert_passed(&o);
    let n_upd = outs.iter().filter(|x| matches!(x, Out::Update(..))).count();
    assert_eq!(t.updates.len(), n_upd);
    assert_eq!(n_upd, 11, "{outs:?}");
    println!("updates {:?}\nfeedbacks {:?}", t.updates, t.feedbacks);
    // Latency of each path: a lone event, accepted to its output.
    for (alg, e) in [
        (HPCC, Event { flow: 10, ty: ACK, count: 1, seq: 200, snd_nxt: 9000, now: 9000, hops, ..Default::default() }),
        (LDCP, Event { flow: 12, ty: ACK, acked: 1, now: 20_000, ..Default::default() }),
        (DCQCN, Event { flow: 13, ty: TIMER, now: 900_000, ..Default::default() }),
    ] {
        let t = h::drive(&mut dut, std::slice::from_ref(&e), 300);
        let out = m.apply(&e);
        assert_eq!(t.updates.len(), 1);
        assert_eq!(Out::Update(alg, t.updates[0].1), out);
        let lat = t.updates[0].0 - t.accepted[0];
        let engine = match alg {
            HPCC => hdl::cc_hpcc::LATENCY,
            LDCP => hdl::cc_ldcp::LATENCY,
            _ => hdl::cc_dcqcn::LATENCY,
        };
        println!("latency alg {alg}: {lat} cycles (engine {engine})");
        assert_eq!(lat as usize, hdl::cc_module::ROUTE_LATENCY + engine + hdl::cc_module::OUT_LATENCY);
    }
}

/// A create immediately followed (next cycle) by events of the same flow: the events see the
/// new algorithm. Every flow switches through all four algorithms back to back.
#[test]
fn create_then_event_reads_the_new_algorithm() {
    let (mut m, mut dut) = fresh();
    let mut ev = vec![];
    let mut now = 10_000u64;
    for flow in 100u16..108 {
        for alg in [LDCP, DCQCN, HPCC, LDCP, RX_HPCC, DCQCN] {
            now += 1000;
            ev.push(Event::create(flow, alg));
            // One event only the new algorithm uses, then one it does not use.
            let (used, unused) = match alg {
                HPCC => (ACK, CNP),
                RX_HPCC => (RX, ACK),
                LDCP => (LOSS, TX),
                _ => (TX, LOSS),
            };
            ev.push(Event { flow, ty: used, seq: 1500, now, ..Default::default() });
            ev.push(Event { flow, ty: unused, now, ..Default::default() });
        }
    }
    let t = h::drive(&mut dut, &ev, 2000);
    let (o, outs) = check_trace(&mut m, &ev, &t);
    assert_passed(&o);
    let unused = outs.iter().filter(|x| **x == Out::Unused).count();
    assert_eq!(unused, 48);
    assert_eq!(dut.stat_unused() as usize, unused);
    // The event right after each create was accepted one cycle after it (no stall needed)
    // in at least some cases, so the read-after-write path was exercised.
    let back_to_back = (0..ev.len())
        .filter(|&k| ev[k].ty == CREATE && t.accepted[k + 1] == t.accepted[k] + 1)
        .count();
    println!("create then event on the next cycle: {back_to_back} of 48");
    assert!(back_to_back >= 24, "{back_to_back}");
}

/// Every type not used by each algorithm (0..=15) is dropped and counted; nothing comes out.
#[test]
fn unused_types_are_counted() {
    let (mut m, mut dut) = fresh();
    let mut ev = vec![];
    for (flow, alg) in [(1u16, HPCC), (2, RX_HPCC), (3, LDCP), (4, DCQCN)] {
        ev.push(Event::create(flow, alg));
        for ty in 0..16u8 {
            if !h::used_types(alg).contains(&ty) {
                ev.push(Event { flow, ty, now: 77, ..Default::default() });
            }
        }
    }
    let t = h::drive(&mut dut, &ev, 300);
    let (o, outs) = check_trace(&mut m, &ev, &t);
    assert_passed(&o);
    let unused = outs.iter().filter(|x| **x == Out::Unused).count();
    assert_eq!(unused, 14 + 14 + 12 + 12);
    assert_eq!(dut.stat_unused() as usize, unused);
    // Only the creates of HPCC and LDCP and DCQCN produce Updates (Rx-HPCC's has no feedback).
    assert_eq!(t.updates.len(), 3);
    assert!(t.feedbacks.is_empty());
    assert_eq!(dut.stat_bad_flow(), 0);
}

/// Flow ids >= 2^F are taken, dropped and counted, never reach an engine (no output, and the
/// alias flow id & 1023 keeps its state), including creates.
#[test]
fn bad_flow_ids_are_dropped() {
    let (mut m, mut dut) = fresh();
    let mut ev = vec![Event::create(7, LDCP)];
    for k in 0..50u16 {
        let flow = 1024 + 7 + 1024 * (k % 60);
        let ty = [ACK, CREATE, LOSS, TIMER, CNP][k as usize % 5];
        ev.push(Event { flow, ty, alg: DCQCN, now: 5, ..Default::default() });
    }
    ev.push(Event { flow: 0xFFFF, ty: CREATE, alg: HPCC, ..Default::default() });
    ev.push(Event { flow: 7, ty: LOSS, now: 1000, ..Default::default() });
    let t = h::drive(&mut dut, &ev, 300);
    let (o, outs) = check_trace(&mut m, &ev, &t);
    assert_passed(&o);
    assert_eq!(outs.iter().filter(|x| **x == Out::BadFlow).count(), 51);
    assert_eq!(dut.stat_bad_flow(), 51);
    assert_eq!(dut.stat_unused(), 0);
    // The create of flow 7 and its loss, both LDCP.
    assert_eq!(t.updates.len(), 2);
    assert!(t.updates.iter().all(|(_, u)| u.flow == 7));
    let _: &Update = &t.updates[1].1;
}

/// Events over all 1024 flows offered every cycle, every flow created with a random algorithm
/// first: accepted events per cycle.
#[test]
fn throughput() {
    let o = h::run(Scenario::CcModuleRandom, 0x5eed, 40_000, &Shape::SATURATED, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    println!("events/cycle {rate:.3}: {:?}", o.metrics);
    assert!(rate > 0.9, "{rate}");
}

/// rust-hdl's own simulator on the same block with 16 flows (slow, so a handful of events):
/// it settles, and the Updates equal the model's.
#[test]
fn rust_hdl_simulation_matches_the_model() {
    use hdl::cc_module::CcModule;
    use testbench::harness::cc_cfg::wide;
    use rust_hdl::prelude::*;
    fn settle(uut: &mut CcModule<4>) {
        uut.update_all();
        while uut.has_changed() {
            uut.update_all();
        }
    }
    fn cycle(uut: &mut CcModule<4>) {
        for clk in [false, true] {
            uut.clock.next = Clock { clk };
            settle(uut);
        }
    }
    let mut m = testbench::harness::cc_module::default_model();
    let mut uut = CcModule::<4>::default();
    uut.connect_all();
    let c = &m.hc;
    testbench::harness::cc_cfg::set_hpcc(&mut uut.cfg_hpcc, c);
    let c = &m.lc;
    testbench::harness::cc_cfg::set_ldcp(&mut uut.cfg_ldcp, c);
    let c = &m.dc;
    testbench::harness::cc_cfg::set_dcqcn(&mut uut.cfg_dcqcn, c);
    uut.m_axis_update_tready.next = true;
    uut.m_axis_feedback_tready.next = true;
    uut.reset.next = true;
    cycle(&mut uut);
    uut.reset.next = false;
    for _ in 0..16 {
        cycle(&mut uut);
    }
    let events = [
        Event::create(1, LDCP),
        Event { flow: 1, ty: ACK, ece: true, acked: 2, now: 5000, ..Default::default() },
        Event::create(2, DCQCN),
        Event { flow: 2, ty: CNP, now: 7000, ..Default::default() },
        Event { flow: 1, ty: CNP, now: 7000, ..Default::default() }, // unused by LDCP
        Event { flow: 2000, ty: ACK, ..Default::default() },         // bad flow
        Event { flow: 3, ty: ACK, seq: 10, snd_nxt: 20, now: 100, ..Default::default() },
    ];
    let mut b = Board::default();
    for e in &events {
        b.expect(m.apply(e));
    }
    let want = b.pending;
    let mut o = Outcome::new(Scenario::CcModuleRandom, 0);
    let mut next = 0;
    let mut got = 0;
    for k in 0..300u64 {
        uut.s_axis_event_tvalid.next = next < events.len();
        if next < events.len() {
            uut.s_axis_event_tdata.next = wide(&events[next].words());
        }
        settle(&mut uut);
        if next < events.len() && uut.s_axis_event_tready.val() {
            next += 1;
        }
        if uut.m_axis_update_tvalid.val() {
            let d = uut.m_axis_update_tdata.val();
            let words = [
                d.get_bits::<32>(0).to_u64() as u32,
                d.get_bits::<32>(32).to_u64() as u32,
                d.get_bits::<16>(64).to_u64() as u32,
            ];
            b.got_update(&mut o, k, Update::from_words(&words));
            got += 1;
        }
        cycle(&mut uut);
    }
    assert_eq!(next, events.len());
    assert_eq!(got, want);
    assert_passed(&o);
    assert_eq!(uut.stat_unused.val().to_u64(), 1);
    assert_eq!(uut.stat_bad_flow.val().to_u64(), 1);
}

/// The board accepts any interleaving of a flow's engines' Updates, including one where equal
/// values leave the engine unknown for a while (the shape of module-random seed 0x7d58e979: a
/// re-create from DCQCN to HPCC while DCQCN's Updates, one of them a cut, are on their way),
/// and still fails an order no interleaving gives.
#[test]
fn board_reads_interleaved_engines_exactly() {
    let full = Update { flow: 314, rate: 3_276_800, window: 62_500 };
    let cut = Update { flow: 314, rate: 1_638_400, window: 31_250 };
    let expected =
        [Out::Update(DCQCN, full), Out::Update(DCQCN, full), Out::Update(DCQCN, cut), Out::Update(HPCC, full)];
    let run = |seen: &[Update]| {
        let mut o = Outcome::new(Scenario::CcModuleRandom, 0);
        let mut b = Board::default();
        for &e in &expected {
            b.expect(e);
        }
        for (c, &u) in seen.iter().enumerate() {
            b.got_update(&mut o, c as u64, u);
        }
        (o.mismatches, b.pending, b.ambiguous)
    };
    // HPCC's create Update first, between DCQCN's, or last: all are interleavings.
    assert_eq!(run(&[full, full, full, cut]), (0, 0, 2));
    assert_eq!(run(&[full, full, cut, full]), (0, 0, 2));
    // The cut before either full Update of DCQCN is not.
    let (mismatches, _, _) = run(&[cut, full, full, full]);
    assert!(mismatches >= 1);
    // Nor is a fourth full Update with the cut never coming.
    let (mismatches, pending, _) = run(&[full, full, full, full]);
    assert_eq!((mismatches, pending), (1, 0));
}

/// The cycle model's timing constants are the RTL's (sim cannot read hdl's, which are sums
/// of the pipelines' stages).
#[test]
fn cycle_model_constants_are_the_rtls() {
    use sim::cc_module::cycle as c;
    assert_eq!(c::HPCC_HAZARD, hdl::cc_hpcc::HAZARD);
    assert_eq!(c::HPCC_LATENCY, hdl::cc_hpcc::LATENCY as u64);
    assert_eq!(c::LDCP_HAZARD, hdl::cc_ldcp::HAZARD);
    assert_eq!(c::LDCP_LATENCY, hdl::cc_ldcp::LATENCY as u64);
    assert_eq!(c::DCQCN_HAZARD, hdl::cc_dcqcn::HAZARD);
    assert_eq!(c::DCQCN_LATENCY, hdl::cc_dcqcn::LATENCY as u64);
    assert_eq!(c::PARK_SLOTS, hdl::cc_intake::PARK_SLOTS);
    assert_eq!(sim::result_fifo::DEPTH, 1 << hdl::result_fifo::DEPTH_BITS);
}
