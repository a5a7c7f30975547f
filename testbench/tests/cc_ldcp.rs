//! cc_ldcp (LDCP datapath of the CC module) against the fixed-point model
//! `sim::cc_ldcp`, result by result; directed LDCP cases, throughput, hazard spacing,
//! latency, and rust-hdl's simulator. Seeds are fresh each run and printed on failure with the
//! command that replays them.

use hdl::cc_ldcp::{HAZARD, LATENCY};
use sim::cc_ldcp::{LdcpConfig, LdcpState, ONE_PKT};
use testbench::harness::cc_ldcp::{self as h, Event, Kind, Result, Shape};
use testbench::harness::Scenario;
use testbench::verilated::models::CcLdcp;

use testbench::harness::assert_passed;
use testbench::harness::stream::{put, transact, Sink};

/// Waits out the initialization (one cycle per flow).
fn ready(dut: &mut CcLdcp) -> usize {
    let mut waited = 0;
    while {
        dut.eval();
        dut.s_axis_event_tready() == 0
    } {
        dut.tick();
        waited += 1;
        assert!(waited < 5000, "never ready");
    }
    waited
}

/// Offers `events` one at a time (each waits for its result) and returns the results.
fn drive(dut: &mut CcLdcp, events: &[Event]) -> Vec<Result> {
    let one = |dut: &mut CcLdcp, e: &Event| transact(dut, CcLdcp::S_AXIS_EVENT, CcLdcp::M_AXIS_RESULT, e.clone(), 5200);
    events.iter().map(|e| Result::from_words(&one(dut, e).expect("no result"))).collect()
}

fn model(c: &LdcpConfig, events: &[Event]) -> Vec<Result> {
    let mut s = LdcpState::new(c);
    events.iter().map(|e| Result::model(c, &mut s, e)).collect()
}

fn ack(now: u64, ece: bool, acked: u32) -> Event {
    Event { flow: 5, kind: Kind::Ack, ece, acked, now }
}

fn timer(now: u64) -> Event {
    Event { flow: 5, kind: Kind::Timer, ece: false, acked: 0, now }
}

#[test]
fn random_events_match_the_model() {
    for k in 0..2 {
        // Both configurations (seed parity picks one).
        let seed = (rand::random::<u32>() as u64) << 1 | k;
        let o = Scenario::CcLdcpRandom.run(seed, 200_000, None);
        assert_passed(&o);
        assert!(o.transactions > 30_000, "{o:?}");
        for m in ["timer_grants", "cw_below_one_packet", "cw_at_clamp"] {
            assert!(o.get(m).unwrap() > 50.0, "too few {m}: {o:?}");
        }
        if k == 0 {
            assert!(o.get("in_fast_start").unwrap() > 1000.0, "{o:?}");
        }
    }
}

#[test]
fn same_flow_bursts_match_the_model() {
    let o = Scenario::CcLdcpBursts.run(rand::random::<u32>() as u64, 100_000, None);
    assert_passed(&o);
    assert!(o.get("same_flow_events").unwrap() > 1000.0, "{o:?}");
}

/// The fast start (IW = 3 here), then ECN marks: eq. 2's decrease (beta = 1) to one packet,
/// below it the sub-packet window with its floor gamma = 1/1024, the timer armed at
/// RTT / cw = 3 us x 1024, a grant only at expiry, unmarked ACKs climbing back in steps of gamma
/// to one packet, then eq. 2's increase alpha / cw. Checked against the model and by hand.
#[test]
fn sub_packet_window_and_timer() {
    let c = h::config(1);
    assert_eq!((c.iw_pkts, c.gamma_q16(), c.rtt_ns, c.fast_start), (3, 64, 3000, false));
    let mut dut = h::open(&c, None);
    ready(&mut dut);
    let period = 3000 * 1024;
    let mut ev = vec![ack(1000, true, 1), ack(2000, true, 1), ack(3000, true, 1)];
    ev.push(timer(3000 + period - 1)); // not yet
    ev.push(timer(3000 + period)); // expiry: one packet, re-armed from now
    ev.push(ack(3000 + period + 10, false, 5)); // cw = 6 gamma, timer keeps its expiry
    ev.push(timer(3000 + 2 * period)); // the period is now RTT / (6 gamma)
    ev.push(ack(3000 + 2 * period + 1, false, 1118)); // 1018 steps to one packet, then eq. 2
    ev.push(timer(3000 + 3 * period)); // cw >= 1: the timer is off
    let got = drive(&mut dut, &ev);
    assert_eq!(got, model(&c, &ev));
    let cw: Vec<u32> = got.iter().map(|r| r.cw).collect();
    assert_eq!(&cw[..6], &[2 * ONE_PKT, ONE_PKT, 64, 64, 64, 6 * 64]);
    assert!(!got[1].armed && got[2].armed && got[2].tick == 3000 + period);
    assert!(!got[3].grant && got[4].grant && got[4].tick == 3000 + 2 * period);
    assert_eq!(got[5].tick, got[4].tick, "an ACK does not move an armed timer");
    assert!(got[6].grant);
    assert_eq!(got[6].tick, 3000 + 2 * period + (3000u64 << 16).div_ceil(384));
    // 1118 unmarked packets: 1018 gamma steps reach one packet, then eq. 2 with n = 100:
    // cw = 1 + 100 x 0.25 / 1 = 26 packets.
    assert_eq!(got[7].cw, 26 * ONE_PKT);
    assert!(!got[7].armed && !got[8].grant && got[8].tick == 0);
}

/// The zero-RTT fast start: IW (125) packets acknowledged in pieces, then transition 2 to
/// cw = IW; a second flow loses a packet after 40 and falls to cw = 40.
#[test]
fn fast_start_and_loss() {
    let c = h::config(0);
    assert_eq!((c.iw_pkts, c.fast_start), (125, true));
    let mut dut = h::open(&c, None);
    ready(&mut dut);
    let mut ev: Vec<Event> = (0..5).map(|i| ack(100 * (i + 1), false, 30)).collect();
    ev.push(Event { flow: 6, ..ack(600, false, 40) });
    ev.push(Event { flow: 6, kind: Kind::Loss, ..ack(700, false, 0) });
    ev.push(Event { flow: 6, kind: Kind::Init, ..ack(800, false, 0) });
    let got = drive(&mut dut, &ev);
    let mut want = model(&c, &ev[..5]);
    let mut s6 = LdcpState::new(&c);
    want.extend(ev[5..].iter().map(|e| Result::model(&c, &mut s6, e)));
    assert_eq!(got, want);
    assert_eq!(got[3].fs_acked, 120);
    assert!(got[3].fast_start && !got[4].fast_start);
    // 150 acknowledged: IW = 125 ends the fast start, the other 25 go through eq. 2.
    assert!(got[4].cw > 125 * ONE_PKT - 1 || got[4].cw == c.max_cw_q16);
    assert_eq!((got[6].cw, got[6].fast_start), (40 * ONE_PKT, false));
    assert_eq!((got[7].cw, got[7].fast_start, got[7].fs_acked), (125 * ONE_PKT, true, 0));
}

/// One flow offered every cycle: its results come exactly HAZARD cycles apart, the first
/// LATENCY cycles after the accepting edge. Then distinct flows: taken every cycle.
#[test]
fn hazard_spacing_throughput_and_latency() {
    let c = h::config(0);
    let mut dut = h::open(&c, None);
    assert_eq!(ready(&mut dut), h::FLOWS, "initialization takes one cycle per flow");
    let (mut accepted, mut results) = (vec![], vec![]);
    let mut sink = Sink::new(CcLdcp::M_AXIS_RESULT, 0.0);
    sink.set_ready(&mut dut, true);
    for cycle in 0..600 {
        let flow = if cycle < 300 { 9 } else { (cycle % 300) as u16 + 10 };
        let e = Event { flow, ..ack(1000 + cycle, false, 1) };
        put(&CcLdcp::S_AXIS_EVENT, &mut dut, Some(&e));
        dut.eval();
        if (CcLdcp::S_AXIS_EVENT.tready)(&dut) {
            accepted.push(cycle);
        }
        if sink.take(&dut).is_some_and(|w| Result::from_words(w).flow == 9) {
            results.push(cycle);
        }
        dut.tick();
    }
    assert_eq!(accepted[0], 0);
    assert_eq!(results[0], LATENCY as u64);
    assert!(results.len() >= 5 && results.windows(2).all(|w| w[1] - w[0] == HAZARD as u64), "{results:?}");
    let distinct = accepted.iter().filter(|&&c| c >= 300).count();
    assert!(distinct >= 299, "{distinct} of 300");
}

/// Flows drawn at random from 1024, an event offered every cycle: about 5% find their flow in
/// its HAZARD window and wait in flow_park while the others pass, so the input still takes
/// nearly one event per clock.
#[test]
fn takes_an_event_per_clock_across_flows() {
    let seed = rand::random::<u32>() as u64;
    let o = h::run(Scenario::CcLdcpRandom, seed, 100_000, &Shape::SATURATED, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    println!("seed {seed}: {rate:.4} events per cycle");
    assert!(rate > 0.98, "seed {seed}: {rate} events per cycle");
}

/// Results read one cycle in ten: nothing lost or reordered.
#[test]
fn heavy_result_backpressure_loses_nothing() {
    let shape = Shape { stall: 0.9, ..Shape::RANDOM };
    let seed = rand::random::<u32>() as u64;
    let o = h::run(Scenario::CcLdcpRandom, seed, 100_000, &shape, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    assert!((0.05..0.12).contains(&rate), "seed {seed}: {rate} events per cycle");
}

/// `replay --model rtl --algo ldcp` prints exactly what `--model fixed` prints, on the directed
/// trace and on a random trace (marks, multi-packet ACKs, timers, losses, skipped events).
#[test]
fn replay_rtl_prints_what_the_fixed_model_prints() {
    use rand::{Rng, SeedableRng};
    use serde_json::json;
    use sim::replay::{replay, Algo, Model, ReplayConfig};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../sim/tests/traces");
    let mut traces = vec![std::fs::read_to_string(dir.join("ldcp_sub_packet.jsonl")).unwrap()];
    let seed = rand::random::<u32>() as u64;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut random = String::new();
    for k in 0..3000u64 {
        let flow = rng.gen_range(0..20usize);
        let event = ["ack", "ack", "ack", "ack", "timer", "loss", "cnp"][rng.gen_range(0..7)];
        let mut e = json!({"flow": flow, "t_ns": 700 * k + rng.gen_range(0..600u64), "event": event});
        if rng.gen_bool(0.5) {
            e["ece"] = json!(rng.gen_bool(0.4));
        }
        if rng.gen_bool(0.3) {
            e["acked_pkts"] = json!(rng.gen_range(0..40u32));
        }
        random += &(e.to_string() + "\n");
    }
    traces.push(random);
    for (n, t) in traces.iter().enumerate() {
        for (gbps, rtt, mtu) in [(100.0, 10_000, 1000), (25.0, 3_000, 4096)] {
            let mut cfg = ReplayConfig::new(Algo::Ldcp, gbps, rtt, mtu);
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

/// rust-hdl's own simulator on the same block, flow_park's model included (slow, so a handful
/// of events offered back to back: a flow's second and third events wait in the park, chained,
/// while another flow passes): results equal the model's, per flow in order.
#[test]
fn rust_hdl_simulation_matches_the_model() {
    use hdl::div_pipe::bits_from_u128;
    use rust_hdl::prelude::*;
    fn cycle(uut: &mut hdl::cc_ldcp::CcLdcp<10>) {
        for clk in [false, true] {
            uut.clock.next = Clock { clk };
            uut.update_all();
            while uut.has_changed() {
                uut.update_all();
            }
        }
    }
    let c = h::config(1);
    let mut uut = hdl::cc_ldcp::CcLdcp::<10>::default();
    uut.connect_all();
    testbench::harness::cc_cfg::set_ldcp(&mut uut.cfg, &c);
    uut.m_axis_result_tready.next = true;
    uut.reset.next = true;
    cycle(&mut uut);
    uut.reset.next = false;
    for _ in 0..h::FLOWS {
        cycle(&mut uut);
    }
    let ev = [
        Event { flow: 3, ..ack(100, true, 1) },
        Event { flow: 3, ..ack(200, true, 2) },
        Event { flow: 3, ..ack(300, false, 1) },
        Event { flow: 4, ..ack(400, true, 1) },
        Event { flow: 3, ..timer(5_000_000) },
        Event { flow: 4, kind: Kind::Loss, ..ack(500, false, 0) },
    ];
    let mut states = [LdcpState::new(&c), LdcpState::new(&c)];
    let mut want: Vec<Vec<Result>> = vec![vec![], vec![]];
    for e in &ev {
        let f = (e.flow - 3) as usize;
        want[f].push(Result::model(&c, &mut states[f], e));
    }
    let mut got: Vec<Vec<Result>> = vec![vec![], vec![]];
    let mut next = 0;
    for _ in 0..6 * HAZARD + LATENCY {
        if next < ev.len() {
            let w = ev[next].words();
            let v = w.iter().rev().fold(0u128, |a, &x| a << 32 | x as u128);
            uut.s_axis_event_tdata.next = bits_from_u128(v);
            uut.s_axis_event_tvalid.next = true;
        } else {
            uut.s_axis_event_tvalid.next = false;
        }
        uut.update_all();
        while uut.has_changed() {
            uut.update_all();
        }
        if next < ev.len() && uut.s_axis_event_tready.val() {
            next += 1;
        }
        if uut.m_axis_result_tvalid.val() {
            let d = uut.m_axis_result_tdata.val();
            let words: Vec<u32> = (0..7).map(|i| d.get_bits::<32>(32 * i).to_u64() as u32).collect();
            let r = Result::from_words(&words);
            got[(r.flow - 3) as usize].push(r);
        }
        cycle(&mut uut);
    }
    assert_eq!(next, ev.len());
    assert_eq!(got, want);
}
