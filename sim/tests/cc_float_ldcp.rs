//! LDCP floating-point reference: expected values worked out by hand from
//! draft-dai-tsvwg-pfc-free-congestion-control-01, eq. 1, eq. 2, the sub-packet rule of
//! section 2.2 and the fast start of sections 2.3 / 3.1.

use sim::cc_float::ldcp::*;

const LINE: f64 = 100e9;
const RTT: u64 = 10_000;
const MSS: u32 = 1000;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

/// Stable stage from the start with `cw = iw` (no fast start), max window 125 packets.
fn stable(iw: u32) -> Ldcp {
    let mut p = LdcpParams::new(LINE, RTT, MSS);
    p.fast_start = false;
    p.iw_pkts = iw;
    Ldcp::new(p)
}

#[test]
fn defaults() {
    let p = LdcpParams::new(LINE, RTT, MSS);
    // BDP = 100 Gb/s * 10 us / 8 = 125 000 bytes = 125 packets of 1000 bytes.
    assert_eq!(p.iw_pkts, 125);
    assert_eq!(p.max_cwnd_pkts, 125.0);
    assert_eq!((p.alpha, p.beta, p.gamma, p.eta), (1.0, 0.5, 0.125, 0.5));
    let l = Ldcp::new(p);
    assert_eq!(l.phase(), LdcpPhase::FastStart);
    assert_eq!(l.cwnd_pkts(), 125.0);
    assert_eq!(l.window_bytes(), 125_000.0);
    assert!(close(l.rate_bps(), LINE));
}

#[test]
fn fast_start_ecn_marking_of_first_rtt() {
    let l = Ldcp::new(LdcpParams::new(LINE, RTT, MSS));
    // Message larger than IW: packets 0..=123 ECN-incapable, the IW-th (index 124) capable,
    // later (second-RTT) packets capable.
    for i in 0..124 {
        assert!(!l.first_rtt_packet_ecn_capable(i, 1000), "{i}");
    }
    assert!(l.first_rtt_packet_ecn_capable(124, 1000));
    assert!(l.first_rtt_packet_ecn_capable(125, 1000));
    assert!(l.first_rtt_packet_ecn_capable(999, 1000));
    // Message shorter than IW: only its last packet is ECN-capable.
    for i in 0..9 {
        assert!(!l.first_rtt_packet_ecn_capable(i, 10));
    }
    assert!(l.first_rtt_packet_ecn_capable(9, 10));
    // Exactly IW packets, and a one-packet message.
    assert!(!l.first_rtt_packet_ecn_capable(123, 125));
    assert!(l.first_rtt_packet_ecn_capable(124, 125));
    assert!(l.first_rtt_packet_ecn_capable(0, 1));
    assert!(l.first_rtt_packet_ecn_capable(0, 0));
}

#[test]
fn fast_start_ends_when_full_iw_is_acked() {
    let mut l = Ldcp::new(LdcpParams::new(LINE, RTT, MSS));
    for i in 0..124u64 {
        l.on_ack(RTT + i * 80, false, 1);
    }
    assert_eq!(l.phase(), LdcpPhase::FastStart);
    assert_eq!(l.fast_start_acked(), 124);
    assert_eq!(l.cwnd_pkts(), 125.0);
    // ECE during fast start is not applied.
    l.on_ack(2 * RTT, true, 1);
    assert_eq!(l.phase(), LdcpPhase::Stable);
    assert_eq!(l.cwnd_pkts(), 125.0);
    // From now on PAWA: 125 - 0.5.
    l.on_ack(2 * RTT + 80, true, 1);
    assert_eq!(l.cwnd_pkts(), 124.5);
}

#[test]
fn fast_start_ack_crossing_iw_applies_rest_to_stable() {
    let mut l = Ldcp::new(LdcpParams::new(LINE, RTT, MSS));
    l.on_ack(RTT, false, 120);
    l.on_ack(RTT + 1, true, 8); // 5 complete the IW, 3 marked stable packets: 125 - 3 * 0.5
    assert_eq!(l.phase(), LdcpPhase::Stable);
    assert_eq!(l.cwnd_pkts(), 123.5);
}

#[test]
fn fast_start_loss_sets_cw_to_acked_count() {
    let mut l = Ldcp::new(LdcpParams::new(LINE, RTT, MSS));
    l.on_ack(RTT, false, 30);
    l.on_ack(RTT + 100, false, 10);
    l.on_loss(RTT + 200);
    assert_eq!(l.phase(), LdcpPhase::Stable);
    assert_eq!(l.cwnd_pkts(), 40.0);
    // A loss in the stable stage leaves cw alone.
    l.on_loss(RTT + 300);
    assert_eq!(l.cwnd_pkts(), 40.0);
    // Loss before any ACK: minimum window gamma.
    let mut l = Ldcp::new(LdcpParams::new(LINE, RTT, MSS));
    l.on_loss(5);
    assert_eq!(l.cwnd_pkts(), 0.125);
}

#[test]
fn additive_increase_per_ack_eq1_and_eq2() {
    let mut l = stable(10);
    assert_eq!(l.phase(), LdcpPhase::Stable);
    l.on_ack(0, false, 1);
    assert!(close(l.cwnd_pkts(), 10.1)); // 10 + 1/10
    l.on_ack(1, false, 1);
    let cw = 10.1 + 1.0 / 10.1;
    assert!(close(l.cwnd_pkts(), cw));
    l.on_ack(2, false, 4); // delayed ACK, eq. 2: cw + 4 * 1/cw
    let cw = cw + 4.0 / cw;
    assert!(close(l.cwnd_pkts(), cw));
    // Roughly +1 packet per window of ACKs: 10 ACKs from 10 give about 11.
    let mut l = stable(10);
    for t in 0..10 {
        l.on_ack(t, false, 1);
    }
    assert!(l.cwnd_pkts() > 10.9 && l.cwnd_pkts() < 11.0);
}

#[test]
fn ece_decrease_eq1_and_eq2() {
    let mut l = stable(10);
    l.on_ack(0, true, 1);
    assert_eq!(l.cwnd_pkts(), 9.5); // 10 - 0.5
    l.on_ack(1, true, 3);
    assert_eq!(l.cwnd_pkts(), 8.0); // 9.5 - 3 * 0.5
    assert_eq!(l.sub_packet_period_ns(), None);
    assert_eq!(l.next_timer_ns(), None);
}

#[test]
fn window_falls_below_one_packet_and_timer_ticks() {
    let mut l = stable(2);
    l.on_ack(0, true, 1); // 1.5
    l.on_ack(0, true, 1); // 1.0
    assert_eq!(l.cwnd_pkts(), 1.0);
    assert_eq!(l.on_timer(1_000_000), 0); // ACK clocked: no timer
    l.on_ack(1_000_000, true, 1); // eq. 1 at cw = 1: 0.5
    assert_eq!(l.cwnd_pkts(), 0.5);
    // Timer period RTT / cw = 20 us, armed at 1 ms.
    assert_eq!(l.sub_packet_period_ns(), Some(20_000));
    assert_eq!(l.next_timer_ns(), Some(1_020_000));
    assert!(close(l.rate_bps(), 500.0 * 8.0 / 10e-6)); // 400 Mb/s
    assert_eq!(l.on_timer(1_019_999), 0);
    assert_eq!(l.on_timer(1_020_000), 1);
    assert_eq!(l.next_timer_ns(), Some(1_040_000));
    // Sub-packet decrease: max(gamma, cw / 2).
    l.on_ack(1_030_000, true, 1);
    assert_eq!(l.cwnd_pkts(), 0.25);
    // The timer is re-armed with the new period at its next expiry: RTT / 0.25 = 40 us.
    assert_eq!(l.on_timer(1_040_000), 1);
    assert_eq!(l.next_timer_ns(), Some(1_080_000));
    l.on_ack(1_050_000, true, 1);
    assert_eq!(l.cwnd_pkts(), 0.125);
    l.on_ack(1_060_000, true, 1);
    assert_eq!(l.cwnd_pkts(), 0.125); // floor gamma
    assert_eq!(l.sub_packet_period_ns(), Some(80_000));
    // Several periods late: one packet only.
    assert_eq!(l.on_timer(2_000_000), 1);
    assert_eq!(l.on_timer(2_000_000), 0);
    assert_eq!(l.next_timer_ns(), Some(2_080_000));
    // Sub-packet increase: + gamma per unmarked ACK, up to one packet.
    let mut expect = 0.125;
    for k in 0..7 {
        l.on_ack(2_100_000 + k, false, 1);
        expect += 0.125;
        assert_eq!(l.cwnd_pkts(), expect);
    }
    assert_eq!(l.cwnd_pkts(), 1.0);
    assert_eq!(l.next_timer_ns(), None); // back to ACK clocking
    l.on_ack(2_200_000, false, 1);
    assert_eq!(l.cwnd_pkts(), 2.0); // eq. 1 at cw = 1: 1 + 1/1
}

#[test]
fn delayed_ack_in_sub_packet_regime_steps_per_packet() {
    let mut l = stable(1);
    l.on_ack(0, true, 1); // 0.5
    l.on_ack(0, true, 2); // 0.25, 0.125
    assert_eq!(l.cwnd_pkts(), 0.125);
    // 9 unmarked packets: 7 steps of gamma reach 1.0, then eq. 2 with n = 2: 1 + 2/1 = 3.
    l.on_ack(0, false, 9);
    assert_eq!(l.cwnd_pkts(), 3.0);
}

#[test]
fn bad_inputs() {
    let mut l = stable(10);
    l.on_ack(5, false, 0);
    l.on_ack(5, true, 0);
    assert_eq!(l.cwnd_pkts(), 10.0);
    l.on_ack(6, true, u32::MAX);
    assert_eq!(l.cwnd_pkts(), 0.125); // clamped to the minimum window
    l.on_ack(7, false, u32::MAX);
    assert_eq!(l.cwnd_pkts(), 125.0); // clamped to the maximum window
    assert!(close(l.rate_bps(), LINE));
    // Time going backwards: treated as the latest time seen.
    l.on_ack(1_000_000, true, u32::MAX);
    assert_eq!(l.next_timer_ns(), Some(1_000_000 + 80_000));
    assert_eq!(l.on_timer(0), 0);
    assert_eq!(l.on_timer(1_079_999), 0);
    assert_eq!(l.on_timer(1_080_000), 1);
    assert_eq!(l.on_timer(u64::MAX), 1);
    assert_eq!(l.next_timer_ns(), Some(u64::MAX));
    assert_eq!(l.on_timer(u64::MAX), 1);
    l.on_ack(u64::MAX, false, 3);
    l.on_loss(0);
    for x in [l.cwnd_pkts(), l.window_bytes(), l.rate_bps()] {
        assert!(x.is_finite() && x > 0.0);
    }
    // Unusable parameters are replaced by safe ones.
    let mut p = LdcpParams::new(f64::NAN, 0, 0);
    p.alpha = f64::INFINITY;
    p.beta = -1.0;
    p.gamma = 0.0;
    p.max_cwnd_pkts = f64::NAN;
    let mut l = Ldcp::new(p);
    l.on_ack(0, false, 1);
    l.on_ack(0, true, 100);
    l.on_ack(0, true, 100);
    l.on_timer(1);
    l.on_timer(u64::MAX);
    for x in [l.cwnd_pkts(), l.window_bytes(), l.rate_bps()] {
        assert!(x.is_finite() && x > 0.0);
    }
}
