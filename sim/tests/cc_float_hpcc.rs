//! HPCC++ floating-point reference (sim::cc_float::hpcc). Expected values are worked out by
//! hand from the drafts' formulas (line 5: u' = min(qlen)/(B*T) + txRate/B; line 9:
//! U = (1 - tau/T)U + tau/T u'; line 13: W = Wc/(U/eta) + W_ai; line 17: W = Wc + W_ai),
//! with numbers chosen so that u' is exact in binary floating point.

use sim::cc_float::hpcc::*;
use sim::packet::{IntHop, LineRate};

/// 100 Gb/s = 12.5 bytes/ns, T = 5000 ns: BDP = 62500 bytes.
const B: f64 = 12.5;
const T: f64 = 5000.0;
const BDP: f64 = 62500.0;
const ETA: f64 = 0.95;
const W_AI: f64 = 500.0;
const W_MIN: f64 = 1024.0;

fn params() -> HpccParams {
    HpccParams {
        t_ns: T,
        eta: ETA,
        max_stage: 5,
        line_rate: B,
        w_ai: W_AI,
        w_min: W_MIN,
        u_init: 1.0,
    }
}

fn hop(ts: u64, tx: u64, qlen: u64) -> Hop {
    Hop::new(ts, tx, qlen, B)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[track_caller]
fn assert_close(a: f64, b: f64) {
    assert!(close(a, b), "{a} != {b}");
}

#[track_caller]
fn assert_sane(o: &Output, p: &HpccParams) {
    let bdp = p.line_rate * p.t_ns;
    for v in [
        o.window_bytes,
        o.wc_bytes,
        o.rate_bytes_per_ns,
        o.rate_bps,
        o.u,
    ] {
        assert!(v.is_finite(), "{o:?}");
    }
    assert!(o.window_bytes >= p.w_min && o.window_bytes <= bdp, "{o:?}");
    assert!(o.wc_bytes >= p.w_min && o.wc_bytes <= bdp, "{o:?}");
    assert!(
        o.rate_bytes_per_ns >= p.w_min / p.t_ns * (1.0 - 1e-12),
        "{o:?}"
    );
    assert!(o.rate_bytes_per_ns <= p.line_rate * (1.0 + 1e-12), "{o:?}");
    assert!(o.u >= 0.0, "{o:?}");
}

#[test]
fn defaults_follow_the_drafts() {
    let p = HpccParams::default();
    assert_eq!(p.t_ns, 5000.0);
    assert_eq!(p.eta, 0.95);
    assert_eq!(p.max_stage, 5);
    assert_eq!(p.bdp(), 62500.0);
    assert_eq!(p.w_init(), 62500.0);
    // W_ai = W_init * (1 - eta) / N, N = 16: 62500 * 0.05 / 16 = 195.3125
    assert_close(p.w_ai, 195.3125);
    assert!(p.validate().is_ok());
    let h = Hpcc::new(p);
    assert_eq!(h.window(), 62500.0);
    assert_eq!(h.wc(), 62500.0);
    assert_eq!(h.rate(), 12.5); // line-rate start: R = BDP / T
    assert_eq!(h.inc_stage(), 0);
    assert_eq!(h.output().rate_bps, 100e9);
}

#[test]
fn hop_from_record_units() {
    let r = IntHop::from_counters(1_000_123, 1_000_000, 8000, LineRate::G100);
    let h = Hop::from_record(&r);
    assert_eq!(h.ts_ns, 1_000_123); // < 2^24: not wrapped
    assert_eq!(h.tx_bytes, 1_000_000 / 128 * 128);
    assert_eq!(h.qlen_bytes, 8000);
    assert_eq!(h.link_bytes_per_ns, 12.5);
    assert_eq!(h.wrap, Wrap::IntHop);
    assert_eq!(
        Hop::from_record(&IntHop::from_counters(0, 0, 0, LineRate::G25)).link_bytes_per_ns,
        3.125
    );
}

/// (4) The first telemetry of a flow only records L; so does a change in the hop count.
#[test]
fn first_telemetry_only_records() {
    let mut h = Hpcc::new(params());
    // Heavily congested telemetry, but nothing to difference against.
    let o = h.on_ack(1, 10_000, &[hop(10_000, 1_000_000, 5_000_000)]);
    assert_eq!(o.action, Action::Recorded);
    assert_eq!(o.window_bytes, BDP);
    assert_eq!(o.wc_bytes, BDP);
    assert_eq!(o.u, 1.0);
    assert_eq!(o.inc_stage, 0);
    assert_eq!(h.last_update_seq(), 0, "line 24 not run");
    assert_eq!(h.last_hops().len(), 1);

    // Next ACK, seq 2 > lastUpdateSeq = 0: a Wc update. Half-RTT elapsed, line rate, queue
    // min(5e6, 5e6) = 5e6: u' = 5e6 / 62500 + 12.5 / 12.5 = 81; tau = 2500:
    // U = 0.5 * 1 + 0.5 * 81 = 41; W = 62500 / (41 / 0.95) + 500.
    let o = h.on_ack(2, 20_000, &[hop(12_500, 1_031_250, 5_000_000)]);
    assert_eq!(o.action, Action::UpdatedWc);
    assert_close(o.u, 41.0);
    assert_close(o.window_bytes, 62500.0 * 0.95 / 41.0 + 500.0); // 1948.17...
    assert_close(o.window_bytes, 1948.1707317073171);
    assert_eq!(h.last_update_seq(), 20_000);

    // Path change: 2 hops now. Only recorded, nothing else moves.
    let before = h.output();
    let o = h.on_ack(
        30_000,
        40_000,
        &[hop(0, 0, 9_999_999), hop(0, 0, 9_999_999)],
    );
    assert_eq!(o.action, Action::Recorded);
    assert_eq!(
        (o.window_bytes, o.wc_bytes, o.u),
        (before.window_bytes, before.wc_bytes, before.u)
    );
    assert_eq!(h.last_update_seq(), 20_000);
    assert_eq!(h.last_hops().len(), 2);
    // ... and the next 2-hop ACK measures against it.
    let o = h.on_ack(30_000, 40_000, &[hop(5000, 62_500, 0), hop(5000, 0, 0)]);
    assert_eq!(o.action, Action::UpdatedWc);
    assert_close(o.u, 1.0); // tau = T, u' = max(1, 0)
}

/// (1) 8:1 incast: eight line-rate senders into one 100G port, the queue grows by
/// 7 * 12.5 B/ns. Each sender sees U >> eta and cuts W to Wc * eta / U + W_ai in one update.
#[test]
fn incast_ramp_down() {
    // 3-hop path: sender ToR uplink (lightly loaded), the bottleneck, the last hop (idle).
    // Sample 1 at bottleneck ts 10_000: qlen 200_000; sample 2 one T later: 200_000 +
    // 7 * 12.5 * 5000 = 637_500, port sent 62_500 bytes (line rate).
    let s1 = [
        hop(9_000, 0, 0),
        hop(10_000, 1_000_000, 200_000),
        hop(11_000, 7, 0),
    ];
    let s2 = [
        hop(13_000, 25_000, 0),          // dt 4000, 6.25 B/ns: u' = 0.5
        hop(15_000, 1_062_500, 637_500), // dt 5000: u' = 200_000/62_500 + 1 = 4.2
        hop(17_000, 7, 0),               // dt 6000, idle: u' = 0
    ];
    let mut flows: Vec<Hpcc> = (0..8).map(|_| Hpcc::new(params())).collect();
    for f in &mut flows {
        assert_eq!(f.on_ack(1, 1000, &s1).action, Action::Recorded);
        let o = f.on_ack(1000, 70_000, &s2);
        assert_eq!(o.action, Action::UpdatedWc);
        // Lines 6-7: the most loaded hop is the bottleneck; tau is ITS elapsed time (5000 = T),
        // so U = u' = 4.2 whatever U was. (tau from hop 0 would give 0.2 * 1 + 0.8 * 4.2.)
        assert_close(o.u, 4.2);
        // Line 13: W = Wc / (U / eta) + W_ai = 62500 / (4.2 / 0.95) + 500 = 14636.90...
        assert_close(o.window_bytes, 62500.0 / (4.2 / 0.95) + 500.0);
        assert_close(o.window_bytes, 14636.904761904761);
        assert_eq!(o.wc_bytes, o.window_bytes);
        assert_eq!(o.inc_stage, 0);
        assert_close(o.rate_bytes_per_ns, o.window_bytes / T);
        assert!(o.window_bytes < BDP * ETA / 4.2 * 1.05);
    }
    // Together the eight windows are 8 * 14636.9 = 117095 bytes: about the BDP plus the
    // standing queue times eta / U, no longer 8 * BDP.
    let total: f64 = flows.iter().map(|f| f.window()).sum();
    assert_close(total, 8.0 * 14636.904761904761);

    // Within the same RTT (seq <= lastUpdateSeq) the queue keeps growing: 637_500 -> 1_075_000.
    // u' = 637_500 / 62_500 + 1 = 11.2, tau = T -> U = 11.2. W = Wc / (U/eta) + W_ai uses the
    // committed Wc (14636.9), not the current W: no compounding within the RTT.
    let s3 = [
        hop(18_000, 50_000, 0),
        hop(20_000, 1_125_000, 1_075_000),
        hop(23_000, 7, 0),
    ];
    let f = &mut flows[0];
    let o = f.on_ack(2000, 80_000, &s3);
    assert_eq!(o.action, Action::UpdatedW);
    assert_close(o.u, 11.2);
    assert_close(o.wc_bytes, 14636.904761904761);
    assert_close(o.window_bytes, 14636.904761904761 / (11.2 / 0.95) + 500.0);
    assert_eq!(f.last_update_seq(), 70_000);
}

/// (2) Recovery: U = 0.5 < eta for several RTTs -> maxStage AI steps of W_ai, then one
/// multiplicative step W = Wc / (U / eta) + W_ai, then AI again.
#[test]
fn recovery_ai_stages_then_mi() {
    let mut h = Hpcc::new(params());
    h.on_ack(1, 1, &[hop(0, 0, 200_000)]);
    // Congestion first: u' = 200_000/62_500 + 1 = 4.2, tau = T. W1 = 62500/(4.2/0.95) + 500.
    let o = h.on_ack(2, 1000, &[hop(5000, 62_500, 200_000)]);
    let w1 = 62500.0 / (4.2 / 0.95) + 500.0;
    assert_close(o.window_bytes, w1);

    // Then the queue is gone and the link runs at 6.25 B/ns: u' = 0.5, tau = T -> U = 0.5.
    let mut ts = 5000;
    let mut tx = 62_500;
    let mut seq = 1000;
    let mut wc = w1;
    for step in 1..=5u32 {
        ts += 5000;
        tx += 31_250;
        let o = h.on_ack(seq + 1, seq + 1000, &[hop(ts, tx, 0)]);
        seq += 1000;
        assert_eq!(o.action, Action::UpdatedWc);
        assert_close(o.u, 0.5);
        // Line 17: W = Wc + W_ai; line 19: incStage++, Wc = W.
        wc += 500.0;
        assert_eq!(o.inc_stage, step);
        assert_close(o.window_bytes, wc);
        assert_close(o.window_bytes, w1 + 500.0 * step as f64);
        assert_close(o.wc_bytes, wc);
    }
    // incStage = maxStage: line 12 takes the MI branch although U < eta.
    // W = (w1 + 2500) / (0.5 / 0.95) + 500 = 17136.90... * 1.9 + 500 = 33060.119...
    ts += 5000;
    tx += 31_250;
    let o = h.on_ack(seq + 1, seq + 1000, &[hop(ts, tx, 0)]);
    seq += 1000;
    assert_eq!(o.inc_stage, 0);
    assert_close(o.window_bytes, (w1 + 2500.0) / (0.5 / 0.95) + 500.0);
    assert_close(o.window_bytes, 33060.119047619046);
    assert_close(o.wc_bytes, o.window_bytes);
    // And AI again: stage 1.
    ts += 5000;
    tx += 31_250;
    let o = h.on_ack(seq + 1, seq + 1000, &[hop(ts, tx, 0)]);
    assert_eq!(o.inc_stage, 1);
    assert_close(o.window_bytes, 33060.119047619046 + 500.0);
}

/// Recovery hitting the upper clamp: the MI step never exceeds BDP (R never exceeds line rate).
#[test]
fn mi_step_clamped_to_bdp() {
    let mut h = Hpcc::new(params());
    h.on_ack(1, 1, &[hop(0, 0, 0)]);
    // Idle link: u' = 0, tau = T -> U = 0. Start at BDP: AI is clamped to BDP.
    let mut ts = 0;
    for i in 1..=6u64 {
        ts += 5000;
        let o = h.on_ack(i * 10, i * 10 + 5, &[hop(ts, 0, 0)]);
        assert_eq!(o.u, 0.0);
        assert_eq!(o.window_bytes, BDP);
        assert_eq!(o.rate_bytes_per_ns, B);
        assert_eq!(
            o.inc_stage,
            if i <= 5 { i as u32 } else { 0 },
            "U = 0: line 13 is Wc/0"
        );
    }
}

/// (3) Wc (and incStage) is committed once per RTT: only when ack.seq > lastUpdateSeq, which
/// line 24 sets to snd_nxt.
#[test]
fn wc_updated_once_per_rtt() {
    let mut h = Hpcc::new(params());
    h.on_ack(1, 1, &[hop(0, 0, 200_000)]);
    let o = h.on_ack(5, 100_000, &[hop(5000, 62_500, 200_000)]); // U = 4.2
    let w1 = 62500.0 / (4.2 / 0.95) + 500.0;
    assert_eq!(o.action, Action::UpdatedWc);
    assert_close(o.wc_bytes, w1);
    assert_eq!(h.last_update_seq(), 100_000);

    // ACKs of packets sent before the update: U = 0.5 each (tau = T), AI without commit.
    let mut ts = 5000;
    let mut tx = 62_500;
    for seq in [2_000, 50_000, 99_999, 100_000] {
        ts += 5000;
        tx += 31_250;
        let o = h.on_ack(seq, 150_000, &[hop(ts, tx, 0)]);
        assert_eq!(o.action, Action::UpdatedW);
        assert_close(o.u, 0.5);
        // Line 17 from the unchanged Wc: W = w1 + 500 every time, not accumulating.
        assert_close(o.window_bytes, w1 + 500.0);
        assert_close(o.wc_bytes, w1);
        assert_eq!(o.inc_stage, 0);
        assert_eq!(h.last_update_seq(), 100_000);
    }
    // The first ACK beyond lastUpdateSeq commits: incStage 1, Wc = W = w1 + 500.
    ts += 5000;
    tx += 31_250;
    let o = h.on_ack(100_001, 160_000, &[hop(ts, tx, 0)]);
    assert_eq!(o.action, Action::UpdatedWc);
    assert_eq!(o.inc_stage, 1);
    assert_close(o.wc_bytes, w1 + 500.0);
    assert_eq!(h.last_update_seq(), 160_000);
    // And then not again until seq > 160_000.
    ts += 5000;
    tx += 31_250;
    let o = h.on_ack(150_000, 170_000, &[hop(ts, tx, 0)]);
    assert_eq!(o.action, Action::UpdatedW);
    assert_eq!(o.inc_stage, 1);
    assert_close(o.window_bytes, w1 + 1000.0);
    assert_close(o.wc_bytes, w1 + 500.0);
}

/// EWMA (line 9) with tau < T, and tau capped at T (line 8).
#[test]
fn ewma_weighs_by_elapsed_time() {
    let mut h = Hpcc::new(params());
    h.on_ack(1, 1, &[hop(0, 0, 0)]);
    // Same ts (dt = 0): rate term skipped, tau = 0, U stays at u_init = 1.
    h.on_ack(2, 2, &[hop(0, 0, 125_000)]);
    assert_eq!(h.u(), 1.0);
    // tau = 1250 = T/4; u' = 125_000/62_500 + (15_625/1250)/12.5 = 2 + 1 = 3:
    // U = 0.75 * 1 + 0.25 * 3 = 1.5.
    let o = h.on_ack(3, 3, &[hop(1250, 15_625, 125_000)]);
    assert_close(o.u, 0.75 * 1.0 + 0.25 * 3.0); // 1.5
                                                // tau = 20_000 > T: capped at T, U = u' = 2 + (125_000/20_000)/12.5 = 2.5
    let o = h.on_ack(4, 4, &[hop(21_250, 15_625 + 125_000, 125_000)]);
    assert_close(o.u, 2.5);
}

/// Probe mode: a telemetry response updates the state exactly as an ACK does.
#[test]
fn probe_response_same_as_ack() {
    let mut a = Hpcc::new(params());
    let mut b = Hpcc::new(params());
    let samples = [
        (1, 1, hop(0, 0, 100_000)),
        (2, 1000, hop(5000, 62_500, 150_000)),
        (3, 1000, hop(8000, 70_000, 10_000)), // same RTT (3 <= 1000)
        (1001, 2000, hop(13_000, 90_000, 0)),
    ];
    for (seq, nxt, hp) in samples {
        let oa = a.on_ack(seq, nxt, &[hp]);
        let ob = b.on_telemetry_response(seq, nxt, &[hp]);
        assert_eq!(oa, ob);
    }
    // A probe sent with nothing new in flight carries seq = snd_nxt = lastUpdateSeq: no commit.
    let o = b.on_telemetry_response(2000, 2000, &[hop(18_000, 100_000, 0)]);
    assert_eq!(o.action, Action::UpdatedW);
}

/// (5) Bad input: never a panic, NaN or inf; W within [W_min, BDP].
#[test]
fn bad_input_is_harmless() {
    let p = params();

    // B = 0 (and other unusable B) on the only hop: nothing measurable, U unchanged,
    // ComputeWind still runs (U = 1 >= eta: W = 62500 / (1/0.95) + 500 = 59875).
    for bad_b in [0.0, -12.5, f64::NAN, f64::INFINITY, 1e-320] {
        let mut h = Hpcc::new(p);
        h.on_ack(1, 1, &[Hop::new(0, 0, 1000, bad_b)]);
        let o = h.on_ack(2, 2, &[Hop::new(5000, 62_500, 1000, bad_b)]);
        assert_sane(&o, &p);
        assert_eq!(o.u, 1.0, "B = {bad_b}");
        assert_close(o.window_bytes, 62500.0 * 0.95 + 500.0);
    }
    // B = 0 on one hop of two: the other hop decides (u' = 0.5, tau = T).
    let mut h = Hpcc::new(p);
    h.on_ack(1, 1, &[Hop::new(0, 0, 0, 0.0), hop(0, 0, 0)]);
    let o = h.on_ack(
        2,
        2,
        &[Hop::new(5000, 1 << 40, 1 << 40, 0.0), hop(5000, 31_250, 0)],
    );
    assert_close(o.u, 0.5);

    // Backwards and repeated timestamps: rate term skipped, tau = 0: U unchanged even with
    // a large queue.
    for (ts, tx) in [
        (9_000, 1_100_000),
        (10_000, 1_200_000),
        (10_000, 1_000_000),
        (0, 0),
    ] {
        let mut h = Hpcc::new(p);
        h.on_ack(1, 1, &[hop(10_000, 1_000_000, 500_000)]);
        let o = h.on_ack(2, 2, &[hop(ts, tx, 500_000)]);
        assert_sane(&o, &p);
        assert_eq!(o.u, 1.0);
    }

    // Wrapped counters in wire records: ts and txBytes both wrap between the samples.
    // dt = 5000 ns, dtx = 488 * 128 = 62464 bytes: u' = 62464 / 5000 / 12.5 = 0.999424.
    let ts1 = (1u64 << 24) - 2000;
    let tx1 = (1u64 << 27) - 100 * 128;
    let r1 = IntHop::from_counters(ts1, tx1, 0, LineRate::G100);
    let r2 = IntHop::from_counters(ts1 + 5000, tx1 + 488 * 128, 0, LineRate::G100);
    assert!(
        r2.ts < r1.ts && r2.tx_bytes < r1.tx_bytes,
        "both fields wrapped"
    );
    let mut h = Hpcc::new(p);
    h.on_ack(1, 1, &[Hop::from_record(&r1)]);
    let o = h.on_ack(2, 2, &[Hop::from_record(&r2)]);
    assert_close(o.u, 0.999424);
    assert_close(o.window_bytes, 62500.0 / (0.999424 / 0.95) + 500.0);

    // Wrapped 64-bit counters: txBytes crosses 2^64: 31_250 bytes in T -> u' = 0.5.
    let mut h = Hpcc::new(p);
    h.on_ack(1, 1, &[hop(u64::MAX - 1000, u64::MAX - 100, 0)]);
    // dt = 3999 + 1001 = 5000, dtx = 31_149 + 101 = 31_250
    let o = h.on_ack(2, 2, &[hop(3999, 31_149, 0)]);
    assert_close(o.u, 0.5);

    // txBytes going backwards (counter reset) with forward time: rate term dropped, tau kept:
    // u' = queue term only = 62_500 / 62_500 = 1 with tau = T.
    let mut h = Hpcc::new(p);
    h.on_ack(1, 1, &[hop(0, 1_000_000, 62_500)]);
    let o = h.on_ack(2, 2, &[hop(5000, 0, 62_500)]);
    assert_close(o.u, 1.0);

    // 0 hops and 6 hops: ignored, nothing changes (L included).
    let mut h = Hpcc::new(p);
    h.on_ack(1, 1, &[hop(0, 0, 200_000)]);
    h.on_ack(2, 100, &[hop(5000, 62_500, 200_000)]);
    let before = h.output();
    let six = [hop(10_000, 0, 1 << 30); 6];
    for hops in [&[][..], &six[..]] {
        let o = h.on_ack(1000, 2000, hops);
        assert_eq!(o.action, Action::Ignored);
        assert_eq!(
            (o.window_bytes, o.wc_bytes, o.u, o.inc_stage),
            (
                before.window_bytes,
                before.wc_bytes,
                before.u,
                before.inc_stage
            )
        );
        assert_eq!(h.last_update_seq(), 100);
        assert_eq!(h.last_hops(), &[hop(5000, 62_500, 200_000)]);
    }

    // Absurd queue: U ~ 3e14, W = Wc / (U/eta) + W_ai ~ 500 -> clamped to W_min.
    let mut h = Hpcc::new(p);
    h.on_ack(1, 1, &[hop(0, 0, u64::MAX)]);
    let o = h.on_ack(2, 2, &[hop(5000, u64::MAX / 2, u64::MAX)]);
    assert_sane(&o, &p);
    assert!(o.u > 1e14);
    assert_eq!(o.window_bytes, W_MIN);
    assert_eq!(o.rate_bytes_per_ns, W_MIN / T);
    // ... and it recovers: the next clean sample with tau = T resets U to u'.
    let o = h.on_ack(3, 3, &[hop(10_000, u64::MAX / 2 + 31_250, 0)]);
    assert_close(o.u, 0.5);
}

/// (5, continued) A pseudo-random storm of hop lists of every length and every bad value.
#[test]
fn random_garbage_keeps_invariants() {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let bs = [
        0.0,
        -1.0,
        f64::NAN,
        f64::INFINITY,
        1e-320,
        1e-300,
        3.125,
        12.5,
        50.0,
        1e300,
    ];
    for p in [
        params(),
        HpccParams::default(),
        HpccParams::new(50.0, 2000.0),
    ] {
        let mut h = Hpcc::new(p);
        let mut rx = RxHpcc::new(p);
        let mut now = 0u64;
        for _ in 0..20_000 {
            let n = (next() % 8) as usize; // 0..=7 hops
            let hops: Vec<Hop> = (0..n)
                .map(|_| {
                    let r = next();
                    let pick = |x: u64| match r % 4 {
                        0 => x,
                        1 => x % 100_000,
                        2 => x % 16,
                        _ => u64::MAX - x % 1000,
                    };
                    if next() % 3 == 0 {
                        let w = next();
                        let code = LineRate::from_code((w % 5) as u8).unwrap();
                        Hop::from_record(&IntHop::from_counters(w, w >> 7, w >> 40, code))
                    } else {
                        Hop::new(
                            pick(next()),
                            pick(next()),
                            pick(next()),
                            bs[(next() % 10) as usize],
                        )
                    }
                })
                .collect();
            let o = h.on_ack(next() % 1000, next() % 1000, &hops);
            assert_sane(&o, &p);
            now = now.wrapping_add(next() % 20_000);
            if let Some(w) = rx.on_int(now, &hops) {
                assert!(w.is_finite() && w >= p.w_min && w <= p.bdp());
            }
            assert_sane(&rx.output(), &p);
        }
    }
}

/// (6) Rx-HPCC (lines 28-34): Wc is committed and W sent back only when more than T passed
/// since the last commit; in between W is recomputed locally from the unchanged Wc.
#[test]
fn rx_hpcc_commits_once_per_t() {
    let mut rx = RxHpcc::new(params());
    // First INT: record only, nothing sent.
    assert_eq!(rx.on_int(1_000, &[hop(0, 0, 200_000)]), None);
    assert_eq!(rx.last_update_time(), None);
    assert_eq!(rx.window(), BDP);

    // First measurement: lastUpdateTime is "never", so line 30-32 run at once.
    // u' = 200_000/62_500 + 62_500/5000/12.5 = 4.2, tau = T -> U = 4.2.
    let w1 = 62500.0 / (4.2 / 0.95) + 500.0;
    let sent = rx.on_int(6_000, &[hop(5000, 62_500, 200_000)]).unwrap();
    assert_close(sent, w1);
    assert_close(rx.wc(), w1);
    assert_eq!(rx.last_update_time(), Some(6_000));

    // now = 8_500 and 11_000 (= last + T, not >): line 34, W = Wc + W_ai (U = 0.5 < eta),
    // Wc and incStage unchanged, nothing sent.
    let mut ts = 5000;
    let mut tx = 62_500;
    for now in [8_500, 11_000] {
        ts += 5000;
        tx += 31_250;
        assert_eq!(rx.on_int(now, &[hop(ts, tx, 0)]), None);
        assert_close(rx.u(), 0.5);
        assert_close(rx.window(), w1 + 500.0);
        assert_close(rx.wc(), w1);
        assert_eq!(rx.inc_stage(), 0);
    }
    // A receiver clock going backwards does not count as T elapsed.
    ts += 5000;
    tx += 31_250;
    assert_eq!(rx.on_int(100, &[hop(ts, tx, 0)]), None);
    assert_close(rx.wc(), w1);

    // now = 11_001 > 6_000 + 5_000: commit, incStage 1, send W = w1 + 500.
    ts += 5000;
    tx += 31_250;
    let sent = rx.on_int(11_001, &[hop(ts, tx, 0)]).unwrap();
    assert_close(sent, w1 + 500.0);
    assert_close(rx.wc(), w1 + 500.0);
    assert_eq!(rx.inc_stage(), 1);
    assert_eq!(rx.last_update_time(), Some(11_001));

    // Bad INTs: ignored, nothing sent, nothing changed.
    assert_eq!(rx.on_int(1_000_000, &[]), None);
    assert_eq!(rx.on_int(1_000_000, &[hop(0, 0, 0); 6]), None);
    assert_eq!(rx.last_update_time(), Some(11_001));
    assert_close(rx.wc(), w1 + 500.0);
}
