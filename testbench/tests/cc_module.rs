//! cc_module (the CC module's top) against the algorithm map plus the three engines' golden
//! models: a short random run, a directed run over the four algorithms, create-then-event
//! read-after-write, unused event types, bad flow ids, throughput and latency. Random seeds are
//! fresh each run and printed on failure with the command that replays them.

use testbench::harness::cc_module::{
    self as h, Board, Event, Model, Out, Shape, Update, ACK, CNP, CREATE, DCQCN, HPCC, LDCP, LOSS,
    RX, RX_HPCC, TIMER, TX,
};
use testbench::harness::{Outcome, Scenario};

fn assert_passed(o: &Outcome) {
    assert!(o.passed(), "{o:?}\nre-run: {}", o.rerun_command());
}

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
    let m = Model::new();
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
