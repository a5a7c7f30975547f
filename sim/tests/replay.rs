//! Trace replay (sim::replay): directed traces under tests/traces/ with their outputs kept as
//! insta snapshots (tests/snapshots/), a malformed-line error, and a property test over random
//! traces.

use proptest::prelude::*;
use serde_json::json;
use sim::replay::{replay, Algo, Model, Output, ReplayConfig, ReplayError};

fn cfg(algo: Algo) -> ReplayConfig {
    ReplayConfig::new(algo, 100.0, 5000, 1024)
}

fn run(trace: &str, c: &ReplayConfig) -> (String, Vec<Output>) {
    let mut out = Vec::new();
    replay(trace.as_bytes(), &mut out, c).expect("replay");
    let s = String::from_utf8(out).unwrap();
    let lines = s.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (s, lines)
}

fn trace(name: &str) -> String {
    let p = format!("{}/tests/traces/{name}.jsonl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn hpcc_incast_ramp_down() {
    let (s, out) = run(&trace("hpcc_incast"), &cfg(Algo::Hpcc));
    insta::assert_snapshot!("hpcc_incast", s);
    let f0: Vec<f64> = out.iter().filter(|o| o.flow == 0).map(|o| o.window_bytes).collect();
    assert!(f0.windows(2).skip(1).all(|w| w[1] < w[0]), "window falls: {f0:?}");
    assert!(*f0.last().unwrap() < 62500.0 / 10.0);
    let f1: Vec<f64> = out.iter().filter(|o| o.flow == 1).map(|o| o.window_bytes).collect();
    assert_eq!(f0, f1, "same telemetry, same trajectory, independent state");
}

#[test]
fn hpcc_recovery_stages_then_jump() {
    let (s, out) = run(&trace("hpcc_recovery"), &cfg(Algo::Hpcc));
    insta::assert_snapshot!("hpcc_recovery", s);
    let stages: Vec<u32> = out.iter().map(|o| o.inc_stage.unwrap()).collect();
    assert_eq!(stages, [0, 0, 0, 0, 1, 2, 3, 4, 5, 0, 1, 2]);
    let w: Vec<f64> = out.iter().map(|o| o.window_bytes).collect();
    let w_ai = 62500.0 * 0.05 / 16.0;
    for i in 4..9 {
        assert!((w[i] - w[i - 1] - w_ai).abs() < 1e-9, "additive step {i}: {w:?}");
    }
    // incStage = maxStage: W = Wc / (U / eta) + W_ai with U = 0.5.
    assert!((w[9] - (w[8] / (0.5 / 0.95) + w_ai)).abs() < 1e-9);
}

#[test]
fn hpcc_wc_once_per_rtt() {
    let (s, out) = run(&trace("hpcc_wc_once_per_rtt"), &cfg(Algo::Hpcc));
    insta::assert_snapshot!("hpcc_wc_once_per_rtt", s);
    let actions: Vec<&str> = out.iter().map(|o| o.action.as_deref().unwrap()).collect();
    assert_eq!(actions[1], "updated_wc");
    assert!(actions[2..7].iter().all(|a| *a == "updated_w"));
    assert!(out[2..7].iter().all(|o| o.wc_bytes == out[1].wc_bytes));
    assert_eq!(actions[7], "updated_wc");
    assert_eq!(actions[8], "updated_w");
}

#[test]
fn ldcp_below_one_packet() {
    let (s, out) = run(&trace("ldcp_sub_packet"), &cfg(Algo::Ldcp));
    insta::assert_snapshot!("ldcp_sub_packet", s);
    let min = out.iter().map(|o| o.cwnd_pkts.unwrap()).fold(f64::INFINITY, f64::min);
    assert_eq!(min, 0.125);
    assert_eq!(out.iter().filter_map(|o| o.grant).sum::<u32>(), 2);
    assert_eq!(out.iter().filter(|o| o.skipped.is_some()).count(), 1);
}

#[test]
fn dcqcn_cut_and_recovery() {
    let (s, out) = run(&trace("dcqcn_cut_recovery"), &cfg(Algo::Dcqcn));
    insta::assert_snapshot!("dcqcn_cut_recovery", s);
    assert_eq!(out[1].rate_bps, 50e9, "first cut halves (alpha = 1)");
    assert_eq!(out[2].rate_bps, 50e9, "CNP within 4 us is coalesced");
    let stages: Vec<&str> = out.iter().filter_map(|o| o.stage.as_deref()).collect();
    assert!(stages.contains(&"fast_recovery") && stages.contains(&"additive"));
    assert!(stages.contains(&"hyper"));
}

#[test]
fn malformed_line_names_its_number() {
    let t = "{\"flow\":0,\"t_ns\":1,\"event\":\"timer\"}\n\n{\"flow\":0,\"t_ns\":\"x\",\"event\":\"ack\"}\n";
    let mut out = Vec::new();
    match replay(t.as_bytes(), &mut out, &cfg(Algo::Hpcc)) {
        Err(ReplayError::Parse { line, message }) => {
            assert_eq!(line, 3);
            assert!(message.contains("invalid type"), "{message}");
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1, "earlier lines written");
    let mut out = Vec::new();
    let e = replay("not json\n".as_bytes(), &mut out, &cfg(Algo::Ldcp)).unwrap_err();
    assert!(e.to_string().starts_with("trace line 1: "), "{e}");
}

fn hop() -> impl Strategy<Value = serde_json::Value> {
    let ts = prop_oneof![0u64..20_000, any::<u64>(), Just(u64::MAX)];
    let tx = prop_oneof![0u64..1_000_000, any::<u64>()];
    let q = prop_oneof![0u64..200_000, any::<u64>()];
    let g = prop_oneof![Just(0.0), Just(100.0), 0.0f64..1000.0, Just(1e-300), Just(1e300)];
    (ts, tx, q, g).prop_map(|(ts, tx, q, g)| {
        json!({"ts_ns": ts, "tx_bytes": tx, "qlen_bytes": q, "link_gbps": g})
    })
}

fn event() -> impl Strategy<Value = serde_json::Value> {
    let kind = prop_oneof![
        Just("ack"), Just("int"), Just("timer"), Just("cnp"), Just("loss"), Just("tx"), Just("x")
    ];
    let t = prop_oneof![0u64..50_000, any::<u64>(), Just(0u64)];
    (
        0u64..3,
        t,
        kind,
        proptest::option::of(prop_oneof![0u64..200_000, any::<u64>()]),
        proptest::option::of(any::<u64>()),
        proptest::collection::vec(hop(), 0..8),
        proptest::option::of(any::<bool>()),
        proptest::option::of(prop_oneof![0u32..100, any::<u32>()]),
        proptest::option::of(any::<u64>()),
    )
        .prop_map(|(flow, t, kind, seq, snd, hops, ece, acked, bytes)| {
            let mut v = json!({"flow": flow, "t_ns": t, "event": kind, "hops": hops, "junk": [1]});
            let m = v.as_object_mut().unwrap();
            if let Some(s) = seq {
                m.insert("seq".into(), json!(s));
            }
            if let Some(s) = snd {
                m.insert("snd_nxt".into(), json!(s));
            }
            if let Some(e) = ece {
                m.insert("ece".into(), json!(e));
            }
            if let Some(a) = acked {
                m.insert("acked_pkts".into(), json!(a));
            }
            if let Some(b) = bytes {
                m.insert("bytes".into(), json!(b));
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_traces_stay_in_bounds(
        algo in prop_oneof![Just(Algo::Hpcc), Just(Algo::HpccRx), Just(Algo::Ldcp), Just(Algo::Dcqcn)],
        events in proptest::collection::vec(event(), 0..60),
    ) {
        let c = cfg(algo);
        let t: String = events.iter().map(|e| format!("{e}\n")).collect();
        let (_, out) = run(&t, &c);
        prop_assert_eq!(out.len(), events.len());
        let line = 100e9;
        for o in &out {
            prop_assert!(o.window_bytes.is_finite() && o.rate_bps.is_finite());
            prop_assert!(o.rate_bps <= line * (1.0 + 1e-12), "{:?}", o);
            match algo {
                Algo::Hpcc | Algo::HpccRx => {
                    let (lo, hi) = (c.hpcc.w_min, c.hpcc.bdp());
                    prop_assert!(o.window_bytes >= lo && o.window_bytes <= hi, "{:?}", o);
                    prop_assert!(o.rate_bps >= lo / c.hpcc.t_ns * 8e9 * (1.0 - 1e-12), "{:?}", o);
                    prop_assert!(o.u.unwrap().is_finite() && o.u.unwrap() >= 0.0);
                }
                Algo::Ldcp => {
                    let cw = o.cwnd_pkts.unwrap();
                    prop_assert!(cw >= c.ldcp.gamma && cw <= c.ldcp.max_cwnd_pkts, "{:?}", o);
                    prop_assert!(o.rate_bps > 0.0);
                }
                Algo::Dcqcn => {
                    prop_assert!(o.rate_bps >= c.dcqcn.min_rate_bps, "{:?}", o);
                }
            }
        }
    }
}

/// `trace` with every hop's counters rounded down to the telemetry record's units.
fn wire_units(trace: &str) -> String {
    let mut out = String::new();
    for line in trace.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        for h in v["hops"].as_array_mut().into_iter().flatten() {
            let down = |x: &serde_json::Value, unit: u64| json!(x.as_u64().unwrap() / unit * unit);
            h["tx_bytes"] = down(&h["tx_bytes"], 128);
            h["qlen_bytes"] = down(&h["qlen_bytes"], 80);
            assert!(h["ts_ns"].as_u64().unwrap() < 1 << 24, "trace wraps the ts field");
        }
        out += &(v.to_string() + "\n");
    }
    out
}

/// `--model fixed` on every directed trace: its own snapshot, and line by line the same
/// decisions as the float replay with the window within the bound of docs/fixed-point.md.
#[test]
fn fixed_model_follows_the_float_model_on_the_directed_traces() {
    for (name, algo) in [
        ("hpcc_incast", Algo::Hpcc),
        ("hpcc_recovery", Algo::Hpcc),
        ("hpcc_wc_once_per_rtt", Algo::Hpcc),
        ("hpcc_incast", Algo::HpccRx),
        ("ldcp_sub_packet", Algo::Ldcp),
        ("dcqcn_cut_recovery", Algo::Dcqcn),
    ] {
        let t = trace(name);
        // The float replay sees the hops in the wire units the fixed model gets, so that
        // only the arithmetic differs.
        let (_, float) = run(&wire_units(&t), &cfg(algo));
        let mut c = cfg(algo);
        c.model = Model::Fixed;
        let (s, fixed) = run(&t, &c);
        insta::assert_snapshot!(format!("fixed_{}_{name}", algo.name()), s);
        assert_eq!(float.len(), fixed.len());
        // The fixed DCQCN applies one byte-counter expiry per tx event (docs/fixed-point.md);
        // the directed trace's 20 MB tx event has two, so the models part there.
        let comparable = t
            .lines()
            .position(|l| l.contains("\"bytes\":20000000"))
            .unwrap_or(float.len());
        for (i, (f, x)) in float.iter().zip(&fixed).enumerate().take(comparable) {
            let at = format!("{name} ({}) line {}: float {f:?}\nfixed {x:?}", algo.name(), i + 1);
            assert_eq!(
                (&f.action, f.inc_stage, f.feedback, &f.phase, f.grant, &f.stage, &f.skipped),
                (&x.action, x.inc_stage, x.feedback, &x.phase, x.grant, &x.stage, &x.skipped),
                "{at}"
            );
            let rel = |a: f64, b: f64| (a - b).abs() / b.abs().max(1.0);
            assert!(rel(x.window_bytes, f.window_bytes) < 2e-3, "window, {at}");
            assert!(rel(x.rate_bps, f.rate_bps) < 2e-3, "rate, {at}");
            assert!(x.rate_q16.is_some() && f.rate_q16.is_none(), "{at}");
        }
    }
}
