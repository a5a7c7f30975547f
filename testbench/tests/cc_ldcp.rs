//! cc_ldcp (LDCP datapath of the CC module) against the fixed-point model
//! `sim::cc_module::ldcp`, result by result; directed LDCP cases, throughput, hazard spacing,
//! latency, and rust-hdl's simulator. Seeds are fresh each run and printed on failure with the
//! command that replays them.

use hdl::cc_ldcp::{HAZARD, LATENCY};
use sim::cc_module::ldcp::{LdcpConfig, LdcpState, ONE_PKT};
use testbench::harness::cc_ldcp::{self as h, Event, Kind, Result, Shape};
use testbench::harness::{Outcome, Scenario};
use testbench::verilated::models::CcLdcp;

fn assert_passed(o: &Outcome) {
    assert!(o.passed(), "{o:?}\nre-run: {}", o.rerun_command());
}

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
    let mut out = vec![];
    for e in events {
        dut.s_axis_event_tdata_mut().copy_from_slice(&e.words());
        dut.set_s_axis_event_tvalid(1);
        let mut n = 0;
        loop {
            dut.eval();
            let fire = dut.s_axis_event_tready() == 1;
            dut.tick();
            if fire {
                break;
            }
            n += 1;
            assert!(n < 5000, "event never accepted");
        }
        dut.set_s_axis_event_tvalid(0);
        for _ in 0..200 {
            dut.eval();
            if dut.m_axis_result_tvalid() == 1 {
                out.push(Result::from_words(dut.m_axis_result_tdata()));
                dut.tick();
                break;
            }
            dut.tick();
        }
    }
    out
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

/// One flow offered every cycle is taken once per HAZARD cycles; distinct flows once per
/// cycle; the result comes LATENCY cycles after the accepting edge.
#[test]
fn hazard_spacing_throughput_and_latency() {
    let c = h::config(0);
    let mut dut = h::open(&c, None);
    assert_eq!(ready(&mut dut), h::FLOWS, "initialization takes one cycle per flow");
    let mut accepted = vec![];
    let mut first_result = None;
    for cycle in 0..400 {
        let flow = if cycle < 200 { 9 } else { (cycle % 300) as u16 };
        let e = Event { flow, ..ack(1000 + cycle, false, 1) };
        dut.s_axis_event_tdata_mut().copy_from_slice(&e.words());
        dut.set_s_axis_event_tvalid(1);
        dut.eval();
        if dut.s_axis_event_tready() == 1 {
            accepted.push(cycle);
        }
        if first_result.is_none() && dut.m_axis_result_tvalid() == 1 {
            first_result = Some(cycle);
        }
        dut.tick();
    }
    let same: Vec<u64> = accepted.iter().filter(|&&c| c < 200).copied().collect();
    assert!(same.windows(2).all(|w| w[1] - w[0] == HAZARD as u64), "{same:?}");
    assert_eq!(same[0], 0);
    assert_eq!(first_result, Some(LATENCY as u64));
    // Flows 200..299 after the last flow-9 event: every cycle except a flow-9 repeat.
    let distinct = accepted.iter().filter(|&&c| c >= 200).count();
    assert!(distinct >= 199, "{distinct} of 200");
}

/// Flows drawn at random from 1024, an event offered every cycle: an event whose flow is in
/// its HAZARD window waits at the head of the input and holds the ones behind it. This
/// records what that costs (docs/modules/cc_module.md).
#[test]
fn saturated_random_flows_throughput() {
    let seed = rand::random::<u32>() as u64;
    let o = h::run(Scenario::CcLdcpRandom, seed, 100_000, &Shape::SATURATED, None);
    assert_passed(&o);
    let rate = o.get("events_per_cycle").unwrap();
    println!("seed {seed}: {rate:.3} events per cycle");
    assert!(rate > 0.4, "seed {seed}: {rate} events per cycle");
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
