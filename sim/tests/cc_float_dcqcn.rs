//! DCQCN floating-point reference: expected values are worked out by hand in each test from the
//! equations of Zhu et al. (SIGCOMM 2015) section 3.1, with the HPCC simulator's parameter set.

use sim::cc_float::dcqcn::*;

const LINE: f64 = 100e9;
const RTT: u64 = 10_000;
const US: u64 = 1_000;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn params() -> DcqcnParams {
    DcqcnParams::hpcc_run_py(LINE, RTT)
}

#[test]
fn hpcc_run_py_values() {
    let p = params();
    assert_eq!(p.g, 0.00390625);
    assert_eq!(p.alpha_timer_ns, 1_000);
    assert_eq!(p.min_cut_interval_ns, 4_000);
    assert_eq!(p.rate_increase_timer_ns, 300_000);
    assert_eq!(p.fast_recovery_times, 1);
    assert_eq!(p.min_rate_bps, 1e9);
    // run.py: RATE_AI = 5 * bw / 25 Mb/s, RATE_HAI = 50 * bw / 25 Mb/s with bw = 100 (Gb/s).
    assert!(close(p.rate_ai_bps, 20e6));
    assert!(close(p.rate_hai_bps, 200e6));
    let d = DcqcnParams::hpcc_rdma_hw_defaults(LINE, RTT);
    assert_eq!((d.g, d.alpha_timer_ns, d.rate_increase_timer_ns), (1.0 / 16.0, 55_000, 1_500_000));
    assert_eq!((d.fast_recovery_times, d.rate_ai_bps, d.rate_hai_bps), (5, 5e6, 50e6));
}

#[test]
fn starts_at_line_rate_and_window_is_rate_times_rtt() {
    let d = Dcqcn::new(params());
    assert_eq!(d.rate_bps(), LINE);
    assert_eq!(d.target_rate_bps(), LINE);
    // 100 Gb/s * 10 us / 8 = 125 000 bytes.
    assert!(close(d.window_bytes(), 125_000.0));
    assert_eq!(d.next_timer_ns(), None);
}

#[test]
fn one_cnp_cuts_exactly() {
    let mut p = params();
    p.initial_alpha = 0.5;
    let mut d = Dcqcn::new(p);
    d.on_cnp(0);
    // Rt = Rc = 100 G; Rc = 100 G * (1 - 0.5/2) = 75 G; alpha = 0.5 * 255/256 + 1/256.
    assert_eq!(d.target_rate_bps(), 100e9);
    assert_eq!(d.rate_bps(), 75e9);
    assert_eq!(d.alpha(), 0.501953125);
    assert!(close(d.window_bytes(), 75e9 * 10e-6 / 8.0));
}

#[test]
fn first_cnp_with_alpha_one_halves() {
    let mut d = Dcqcn::new(params());
    d.on_cnp(5 * US);
    assert_eq!(d.rate_bps(), 50e9);
    assert_eq!(d.target_rate_bps(), 100e9);
    assert_eq!(d.alpha(), 1.0); // 1 * 255/256 + 1/256
}

#[test]
fn alpha_decays_once_per_k_without_cnp() {
    let mut p = params();
    p.initial_alpha = 0.5;
    let mut d = Dcqcn::new(p);
    d.on_cnp(0);
    let a1 = 0.501953125;
    d.on_timer(3 * US + 500); // expiries at 1, 2, 3 us
    let a = a1 * (255.0 / 256.0) * (255.0 / 256.0) * (255.0 / 256.0);
    assert!(close(d.alpha(), a), "{} {}", d.alpha(), a);
    // A CNP at 3.5 us is inside the 4 us cut interval: no cut, but the alpha timer restarts.
    d.on_cnp(3 * US + 500);
    assert_eq!(d.rate_bps(), 75e9);
    d.on_timer(4 * US + 400); // the old 4 us expiry was cancelled, the new one is at 4.5 us
    assert!(close(d.alpha(), a));
    d.on_timer(4 * US + 500);
    assert!(close(d.alpha(), a * 255.0 / 256.0));
}

#[test]
fn second_cut_uses_decayed_alpha() {
    let mut d = Dcqcn::new(params());
    d.on_cnp(0); // Rc = 50 G, Rt = 100 G, alpha = 1
    d.on_cnp(10 * US); // alpha decayed at 1..10 us: (255/256)^10
    let a = (255.0f64 / 256.0).powi(10);
    assert!(close(d.target_rate_bps(), 50e9));
    assert!(close(d.rate_bps(), 50e9 * (1.0 - a / 2.0)));
    assert!(close(d.alpha(), (1.0 - 1.0 / 256.0) * a + 1.0 / 256.0));
}

/// Timer only (byte counter disabled, like the HPCC simulator): F fast-recovery steps, one
/// additive step, then hyper increase.
#[test]
fn fast_recovery_then_additive_then_hyper_timer_only() {
    let mut p = params();
    p.byte_counter_bytes = 0;
    p.fast_recovery_times = 3;
    let mut d = Dcqcn::new(p);
    d.on_cnp(0); // Rc 50 G, Rt 100 G
    d.on_cnp(10 * US); // Rt 50 G, Rc = 50 G (1 - a/2)
    let a = (255.0f64 / 256.0).powi(10);
    let rt = 50e9;
    let mut rc = 50e9 * (1.0 - a / 2.0);
    let t0 = 10 * US;
    // Fast recovery: 3 timer expiries at t0 + 300, 600, 900 us, Rc = (Rt + Rc)/2, Rt fixed.
    for k in 1..=3u64 {
        d.on_timer(t0 + k * 300 * US);
        rc = (rt + rc) / 2.0;
        assert_eq!(d.last_stage(), Some(IncreaseStage::FastRecovery));
        assert!(close(d.rate_bps(), rc), "step {k}");
        assert!(close(d.target_rate_bps(), rt));
    }
    // Additive increase: Rt += 20 Mb/s.
    d.on_timer(t0 + 4 * 300 * US);
    let rt = rt + 20e6;
    rc = (rt + rc) / 2.0;
    assert_eq!(d.last_stage(), Some(IncreaseStage::Additive));
    assert!(close(d.target_rate_bps(), rt));
    assert!(close(d.rate_bps(), rc));
    // Hyper increase: Rt += 200 Mb/s per expiry.
    d.on_timer(t0 + 5 * 300 * US);
    let rt = rt + 200e6;
    rc = (rt + rc) / 2.0;
    assert_eq!(d.last_stage(), Some(IncreaseStage::Hyper));
    assert!(close(d.target_rate_bps(), rt));
    assert!(close(d.rate_bps(), rc));
    d.on_timer(t0 + 6 * 300 * US);
    let rt = rt + 200e6;
    rc = (rt + rc) / 2.0;
    assert!(close(d.target_rate_bps(), rt));
    assert!(close(d.rate_bps(), rc));
    assert_eq!(d.counters(), (6, 0));
}

/// Paper rule with both counters, F = 1: fast recovery while max(T, BC) <= F, hyper once
/// min(T, BC) > F, additive in between.
#[test]
fn stage_from_timer_and_byte_counter() {
    let p = params(); // B = 10 MB, F = 1
    let mut d = Dcqcn::new(p);
    d.on_cnp(0);
    d.on_cnp(10 * US);
    let a = (255.0f64 / 256.0).powi(10);
    let mut rt = 50e9;
    let mut rc = 50e9 * (1.0 - a / 2.0);
    d.on_bytes_sent(9_999_999); // not yet B
    assert_eq!(d.counters(), (0, 0));
    d.on_bytes_sent(1); // BC = 1: max(0, 1) <= 1 -> fast recovery
    rc = (rt + rc) / 2.0;
    assert_eq!(d.last_stage(), Some(IncreaseStage::FastRecovery));
    assert!(close(d.rate_bps(), rc));
    d.on_bytes_sent(10_000_000); // BC = 2, T = 0 -> additive
    rt += 20e6;
    rc = (rt + rc) / 2.0;
    assert_eq!(d.last_stage(), Some(IncreaseStage::Additive));
    assert!(close(d.target_rate_bps(), rt));
    assert!(close(d.rate_bps(), rc));
    d.on_timer(310 * US); // T = 1: min = 1, not > F -> additive
    rt += 20e6;
    rc = (rt + rc) / 2.0;
    assert_eq!(d.last_stage(), Some(IncreaseStage::Additive));
    d.on_timer(610 * US); // T = 2, BC = 2 -> hyper
    rt += 200e6;
    rc = (rt + rc) / 2.0;
    assert_eq!(d.last_stage(), Some(IncreaseStage::Hyper));
    assert!(close(d.target_rate_bps(), rt));
    assert!(close(d.rate_bps(), rc));
    assert_eq!(d.counters(), (2, 2));
    // A new cut resets both counters.
    d.on_cnp(700 * US);
    assert_eq!(d.counters(), (0, 0));
    assert!(close(d.target_rate_bps(), rc));
}

#[test]
fn recovers_to_line_rate_and_stays_clamped() {
    let mut d = Dcqcn::new(params());
    d.on_cnp(0);
    d.on_timer(1_000_000_000); // 1 s of increases
    assert!(d.rate_bps() <= LINE && d.target_rate_bps() <= LINE);
    assert!(close(d.rate_bps(), LINE));
}

#[test]
fn cnp_storm_never_goes_below_min_rate() {
    let mut d = Dcqcn::new(params());
    // Many CNPs at the same instant: one cut only.
    for _ in 0..1000 {
        d.on_cnp(0);
    }
    assert_eq!(d.rate_bps(), 50e9);
    // One CNP every 1 us for 20 ms: one cut per 4 us, floor at MIN_RATE.
    for t in 0..20_000u64 {
        d.on_cnp(t * US);
        assert!(d.rate_bps() >= 1e9 && d.rate_bps() <= LINE);
        assert!(d.alpha().is_finite() && (0.0..=1.0).contains(&d.alpha()));
    }
    assert_eq!(d.rate_bps(), 1e9);
    assert_eq!(d.target_rate_bps(), 1e9);
}

#[test]
fn time_going_backwards_is_ignored() {
    let mut d = Dcqcn::new(params());
    d.on_cnp(100 * US);
    let (rc, a) = (d.rate_bps(), d.alpha());
    d.on_cnp(50); // treated as 100 us: inside the cut interval, coalesced
    assert_eq!(d.rate_bps(), rc);
    d.on_timer(0);
    assert_eq!(d.alpha(), a);
    d.on_timer(100 * US);
    assert_eq!(d.alpha(), a);
}

#[test]
fn bad_inputs_never_panic_nor_nan() {
    let mut d = Dcqcn::new(params());
    d.on_bytes_sent(u64::MAX); // before any cut: ignored
    d.on_cnp(0);
    d.on_bytes_sent(0);
    d.on_bytes_sent(u64::MAX);
    d.on_bytes_sent(u64::MAX);
    d.on_timer(u64::MAX);
    d.on_cnp(u64::MAX);
    d.on_timer(u64::MAX);
    for x in [d.rate_bps(), d.target_rate_bps(), d.alpha(), d.window_bytes()] {
        assert!(x.is_finite());
    }
    assert!(d.rate_bps() >= 1e9 && d.rate_bps() <= LINE);

    let mut p = params();
    p.g = f64::NAN;
    p.line_rate_bps = f64::INFINITY;
    p.min_rate_bps = -5.0;
    p.rate_ai_bps = f64::NAN;
    p.alpha_timer_ns = 0;
    p.rate_increase_timer_ns = 0;
    let mut d = Dcqcn::new(p);
    d.on_cnp(0);
    d.on_timer(1_000_000);
    d.on_bytes_sent(123_456_789);
    for x in [d.rate_bps(), d.target_rate_bps(), d.alpha(), d.window_bytes()] {
        assert!(x.is_finite() && x >= 0.0);
    }
}
