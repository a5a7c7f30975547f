//! Fixed-point CC models (sim::cc_fixed): values worked out by hand from docs/fixed-point.md,
//! the closed forms against their per-step definitions, and bad input (proptest): nothing
//! panics, windows and rates stay within their clamps.

use proptest::prelude::*;
use sim::cc_float::{dcqcn::DcqcnParams, hpcc::HpccParams, ldcp::LdcpParams};
use sim::cc_fixed::Clock;
use sim::{cc_dcqcn as xd, cc_hpcc as xh, cc_ldcp as xl};

fn hpcc() -> xh::HpccConfig {
    xh::HpccConfig::new(&HpccParams::new(12.5, 5000.0), Clock::default()).unwrap()
}

/// A 100G hop (code 2) in wire units.
fn hop(ts: u32, tx_units: u32, qlen_units: u32) -> xh::FxHop {
    xh::FxHop {
        rate_code: 2,
        ts,
        tx_bytes: tx_units,
        qlen: qlen_units,
    }
}

#[test]
fn hpcc_registers_at_the_drafts_defaults() {
    let c = hpcc();
    assert_eq!(c.eta_q16, 62259); // 0.95 x 2^16 = 62259.2
    assert_eq!(c.w_max_q8, 62500 * 256);
    assert_eq!(c.w_ai_q8, 50000); // 195.3125 x 256
    assert_eq!(c.inv_t, 219_902_326); // 2^40 / 5000 = 219902325.56
    assert_eq!(c.rate_mul, 879_609_302); // 2^40 x 4 / 5000
    assert_eq!(c.inv_bt[2], 17_592_186); // 2^40 / 62500
    assert_eq!(c.inv_b[2], 1_342_177); // 2^24 / 12.5
    assert_eq!(&c.inv_bt[5..], &[0, 0, 0]);
    assert_eq!(c.line_q16, 50 << 16); // 100 Gb/s at 250 MHz = 50 B/cycle
    let s = xh::HpccState::new(&c);
    assert_eq!(s.rate_q16, c.line_q16, "a line-rate start is exactly the line rate");
}

#[test]
fn hpcc_one_ack_by_hand() {
    let c = hpcc();
    let mut s = xh::HpccState::new(&c);
    assert_eq!(xh::on_ack(&c, &mut s, 1, 100, &[hop(0, 0, 625)]), xh::Action::Recorded);
    assert_eq!(s.w_q8, c.w_max_q8, "the first telemetry only records L");
    // 1000 ns later, 50 x 128 = 6400 bytes sent, qlen 625 x 80 = 50000 bytes on both samples.
    let a = xh::on_ack(&c, &mut s, 2, 200, &[hop(1000, 50, 625)]);
    assert_eq!(a, xh::Action::UpdatedWc);
    // u' = 50000 x 17592186 >> 24 (52428) + (6400 x 2^16 / 1000 = 419430) x 1342177 >> 24
    // (33554) = 85982 (1.31198); weight = 1000 x 219902326 >> 24 = 13107 (0.2);
    // U = 65536 + floor(20446 x 13107 / 2^16) = 69625.
    assert_eq!(s.u_q16, 69625);
    // U >= eta: r = floor(62259 x 2^24 / 69625) = 15002264 (0.8942 in UQ16.24);
    // W = (16000000 x r >> 24) + 50000 = 14307273 + 50000 = 14357273 (56083.1 bytes).
    assert_eq!((s.w_q8, s.wc_q8, s.inc_stage), (14_357_273, 14_357_273, 0));
    assert_eq!(s.last_update_seq, 200);
    // R = (14357273 x 879609302 + 2^31) >> 32 (44.87 B/cycle).
    assert_eq!(s.rate_q16, ((14_357_273u64 * 879_609_302 + (1 << 31)) >> 32) as u32);
    // seq 150 is not after lastUpdateSeq 200: W moves, Wc and incStage do not.
    assert_eq!(xh::on_ack(&c, &mut s, 150, 300, &[hop(2000, 100, 0)]), xh::Action::UpdatedW);
    assert_eq!(s.wc_q8, 14_357_273);
}

#[test]
fn hpcc_bad_telemetry() {
    let c = hpcc();
    let mut s = xh::HpccState::new(&c);
    let fresh = s;
    assert_eq!(xh::on_ack(&c, &mut s, 1, 2, &[]), xh::Action::Ignored);
    assert_eq!(xh::on_ack(&c, &mut s, 1, 2, &[hop(0, 0, 0); 6]), xh::Action::Ignored);
    assert_eq!(s, fresh, "0 or 6 hops change nothing");
    xh::on_ack(&c, &mut s, 1, 2, &[hop(0, 0, 100)]);
    // A path change (2 hops now) only records.
    assert_eq!(xh::on_ack(&c, &mut s, 3, 4, &[hop(9, 0, 0); 2]), xh::Action::Recorded);
    // No usable rate on any hop (code 7): U unchanged, W still computed from Wc.
    let mut bad = [hop(500, 10, 100); 2];
    bad.iter_mut().for_each(|h| h.rate_code = 7);
    let u = s.u_q16;
    assert_eq!(xh::on_ack(&c, &mut s, 5, 6, &bad), xh::Action::UpdatedWc);
    assert_eq!(s.u_q16, u);
    // Repeated timestamp: no rate term, tau = 0, U does not move.
    let mut s2 = xh::HpccState::new(&c);
    xh::on_ack(&c, &mut s2, 1, 2, &[hop(7, 0, 0)]);
    xh::on_ack(&c, &mut s2, 3, 4, &[hop(7, 1000, 1000)]);
    assert_eq!(s2.u_q16, c.u_init_q16);
}

#[test]
fn hpcc_counters_wrap() {
    let c = hpcc();
    let (mut a, mut b) = (xh::HpccState::new(&c), xh::HpccState::new(&c));
    xh::on_ack(&c, &mut a, 1, 2, &[hop(1000, 100, 300)]);
    xh::on_ack(&c, &mut a, 3, 4, &[hop(2000, 150, 300)]);
    // The same deltas across the 24-bit ts and 20-bit txBytes wrap, and a wrapped seq.
    xh::on_ack(&c, &mut b, 0xFFFF_FFF0, 2, &[hop(0xFF_FE00, 0xF_FFF0, 300)]);
    xh::on_ack(&c, &mut b, 3, 4, &[hop(0xFF_FE00 + 1000 - (1 << 24), 0x22, 300)]);
    assert_eq!((a.u_q16, a.w_q8, a.wc_q8), (b.u_q16, b.w_q8, b.wc_q8));
    assert!(xh::seq_after(5, 0xFFFF_FFF0) && !xh::seq_after(0xFFFF_FFF0, 5));
}

#[test]
fn hpcc_idle_path_at_max_stage_opens_to_the_bdp() {
    let c = hpcc();
    let mut s = xh::HpccState::new(&c);
    s.u_q16 = 0;
    s.inc_stage = c.max_stage;
    s.wc_q8 = c.w_min_q8;
    xh::on_ack(&c, &mut s, 1, 2, &[hop(0, 0, 0)]);
    xh::on_ack(&c, &mut s, 3, 4, &[hop(5000, 0, 0)]); // u' = 0, tau = T: U = 0
    assert_eq!((s.u_q16, s.w_q8), (0, c.w_max_q8), "U = 0: the divider saturates");
}

fn ldcp() -> xl::LdcpConfig {
    let mut p = LdcpParams::new(100e9, 5000, 1024);
    p.fast_start = false;
    xl::LdcpConfig::new(&p, Clock::default()).unwrap()
}

/// The per-packet definition of the sub-packet rules, for the closed form to match.
fn ldcp_per_packet(c: &xl::LdcpConfig, mut cw: u32, ece: bool, n: u32) -> (u32, u32) {
    let g = c.gamma_q16();
    let mut left = n;
    while left > 0 && cw < xl::ONE_PKT {
        cw = if ece { (cw / 2).max(g) } else { cw + g };
        left -= 1;
    }
    (cw, if ece { 0 } else { left })
}

#[test]
fn ldcp_sub_packet_closed_form_matches_per_packet_steps() {
    let c = ldcp();
    for cw in (c.gamma_q16()..xl::ONE_PKT).step_by(97) {
        for n in [1, 2, 3, 7, 8, 9, 40, 1000] {
            for ece in [false, true] {
                let (want, rest) = ldcp_per_packet(&c, cw, ece, n);
                let mut s = xl::LdcpState::new(&c);
                s.cw_q16 = cw;
                xl::on_ack(&c, &mut s, 0, ece, n);
                if rest == 0 {
                    assert_eq!(s.cw_q16, want, "cw {cw} n {n} ece {ece}");
                } else {
                    // The remaining packets went through eq. 2: cw + rest x alpha / cw.
                    let inc = ((rest as u64 * c.alpha_q16 as u64) << 16) / want as u64;
                    assert_eq!(s.cw_q16 as u64, (want as u64 + inc).min(c.max_cw_q16 as u64));
                }
            }
        }
    }
}

#[test]
fn ldcp_timer_period_and_rate_by_hand() {
    let c = ldcp();
    let mut s = xl::LdcpState::new(&c);
    s.cw_q16 = 3 << 13; // 3/8 packet
    assert_eq!(xl::sub_packet_period(&c, &s), Some(13334)); // ceil(5000 / 0.375)
    // R = 0.375 x 1024 B / 5000 ns x 4 ns = 0.3072 B/cycle.
    assert_eq!(xl::rate_q16(&c, &s), (0.3072f64 * 65536.0).round() as u32);
    s.cw_q16 = c.max_cw_q16;
    assert_eq!(xl::rate_q16(&c, &s), c.line_q16);
}

#[test]
fn dcqcn_cut_and_lazy_alpha_by_hand() {
    let p = DcqcnParams::hpcc_run_py(100e9, 5000);
    let c = xd::DcqcnConfig::new(&p, Clock::default()).unwrap();
    assert_eq!(c.g_shift, 8);
    let mut s = xd::DcqcnState::new(&c);
    xd::on_cnp(&c, &mut s, 1000);
    // alpha = 1: Rc halves, Rt = line, alpha stays 1 (1 - 1/256 + 1/256).
    assert_eq!((s.rc_q24, s.rt_q24, s.alpha_q24), (25 << 24, 50 << 24, xd::ALPHA_ONE));
    // One K later alpha has decayed once: round(255/256 x 2^24) = 16711680.
    assert_eq!(xd::alpha_at(&c, &s, 1999), xd::ALPHA_ONE);
    assert_eq!(xd::alpha_at(&c, &s, 2000), 16_711_680);
    // Closed form for n = 5 = 1 + 4: two multiplies, each floored.
    let want = ((xd::ALPHA_ONE as u64 * c.decay[0] as u64) >> 24) * c.decay[2] as u64 >> 24;
    assert_eq!(xd::alpha_at(&c, &s, 6000) as u64, want);
    assert_eq!(xd::alpha_at(&c, &s, 1000 + 65536 * 1000), 0);
    // A CNP 1 us after the cut is coalesced: no cut, but the alpha timer restarts.
    xd::on_cnp(&c, &mut s, 2000);
    assert_eq!((s.rc_q24, s.alpha_q24, s.last_cnp), (25 << 24, 16_711_680, 2000));
    // First increase timer expiry (300 us after the cut): fast recovery, Rc = (Rt + Rc) / 2.
    xd::on_timer(&c, &mut s, 301_000);
    assert_eq!(s.rc_q24, (75 << 24) / 2);
    assert_eq!(xd::rate_q16(&s), (75 << 16) / 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hpcc_never_leaves_its_clamps(
        events in prop::collection::vec(
            (any::<u32>(), any::<u32>(), any::<u64>(),
             prop::collection::vec(any::<u64>(), 0..8)), 1..60),
        t in 1024u32..100_000, eta in 0.05f64..1.0, wai in 0.0f64..5000.0, rx in any::<bool>(),
    ) {
        let mut p = HpccParams::new(12.5, t as f64);
        p.eta = eta;
        p.w_ai = wai;
        let c = xh::HpccConfig::new(&p, Clock::default()).unwrap();
        let mut s = xh::HpccState::new(&c);
        for (seq, snd_nxt, now, words) in events {
            let hops: Vec<xh::FxHop> = words.iter().map(|&w| xh::FxHop::from_word(w)).collect();
            if rx {
                xh::on_int(&c, &mut s, now, &hops);
            } else {
                xh::on_ack(&c, &mut s, seq, snd_nxt, &hops);
            }
            prop_assert!(s.w_q8 >= c.w_min_q8 && s.w_q8 <= c.w_max_q8);
            prop_assert!(s.wc_q8 >= c.w_min_q8 && s.wc_q8 <= c.w_max_q8);
            prop_assert!(s.u_q16 <= xh::U_MAX && s.inc_stage <= c.max_stage);
            prop_assert!(s.rate_q16 <= c.line_q16 && s.rate_q16 > 0);
        }
    }

    #[test]
    fn ldcp_never_leaves_its_clamps(
        events in prop::collection::vec((0u8..3, any::<u64>(), any::<bool>(), any::<u32>()), 1..80),
        gamma_shift in 0i32..=10, fast_start in any::<bool>(), rtt in 1u64..10_000_000,
    ) {
        let mut p = LdcpParams::new(100e9, rtt, 1024);
        p.gamma = 2f64.powi(-gamma_shift);
        p.fast_start = fast_start;
        let Ok(c) = xl::LdcpConfig::new(&p, Clock::default()) else { return Ok(()) };
        let mut s = xl::LdcpState::new(&c);
        for (kind, now, ece, n) in events {
            match kind {
                0 => xl::on_ack(&c, &mut s, now, ece, n),
                1 => { prop_assert!(xl::on_timer(&c, &mut s, now) <= 1); }
                _ => xl::on_loss(&c, &mut s, now),
            }
            prop_assert!(s.cw_q16 >= c.gamma_q16() && s.cw_q16 <= c.max_cw_q16);
            prop_assert!(xl::rate_q16(&c, &s) <= c.line_q16);
            prop_assert_eq!(s.next_tick.is_some(), xl::sub_packet_period(&c, &s).is_some());
        }
    }

    #[test]
    fn dcqcn_never_leaves_its_clamps(
        events in prop::collection::vec((0u8..3, any::<u64>(), any::<u64>()), 1..80),
        g_shift in 0i32..=12, bc in prop_oneof![Just(0u64), 1u64..20_000_000],
    ) {
        let mut p = DcqcnParams::hpcc_run_py(100e9, 5000);
        p.g = 2f64.powi(-g_shift);
        p.byte_counter_bytes = bc;
        let c = xd::DcqcnConfig::new(&p, Clock::default()).unwrap();
        let mut s = xd::DcqcnState::new(&c);
        for (kind, now, bytes) in events {
            match kind {
                0 => xd::on_cnp(&c, &mut s, now),
                1 => xd::on_timer(&c, &mut s, now),
                _ => xd::on_tx(&c, &mut s, now, bytes),
            }
            for r in [s.rc_q24, s.rt_q24] {
                prop_assert!(r >= c.min_q24 && r <= c.line_q24);
            }
            prop_assert!(xd::alpha_at(&c, &s, s.now) <= xd::ALPHA_ONE);
        }
    }
}
