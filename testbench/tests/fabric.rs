//! RTL cores on the switch model (`harness::fabric`): small HPCC++ and Rx-HPCC incasts whose
//! queue the algorithm must keep low, and whose messages all complete.

use testbench::harness::fabric::incast;

/// 4 -> 1, 128 KB each, HPCC++: every message completes without loss or timeout, and the
/// bottleneck queue stays far below the incast's size (HPCC++ starts each sender at one BDP,
/// 62.5 KB, so the first RTT can queue up to 3 BDPs; after that it should drain).
#[test]
fn hpcc_incast_completes_and_keeps_the_queue_low() {
    let r = incast(0, 4, 128_000, 400_000, 1);
    println!("{r:?}");
    assert_eq!((r.completed, r.failed, r.dropped, r.timeouts), (4, 0, 0, 0));
    assert!(r.max_queue_bytes < 4 * 62_500, "peak queue {} B", r.max_queue_bytes);
    assert!(r.utilization > 0.8, "utilization {:.2}", r.utilization);
}

/// 4 -> 1, 128 KB each, Rx-HPCC: the receiver's W reaches the senders in ACKs (every one sent
/// is applied, none ignored) and closes the loop: with W fixed at BDP (before the feedback
/// was on the wire) the queue stood at 3 BDPs, 183 KB mean. Now it drains within 4-5 RTTs
/// (37 KB mean with seed 1). Utilization is only about half: W is computed once per RTT from
/// telemetry an RTT old, so while the first burst drains it is cut again each RTT, down to
/// W_min (1 KB), and climbs back by W_AI (195 B) per RTT until the multiplicative stage; the
/// bound checks that the senders do send, not HPCC++'s figure.
#[test]
fn rx_hpcc_feedback_closes_the_loop_in_an_incast() {
    let r = incast(1, 4, 128_000, 400_000, 1);
    println!("{r:?}");
    assert_eq!((r.completed, r.failed, r.dropped, r.timeouts), (4, 0, 0, 0));
    assert!(r.fb_acks >= 20 && r.fb_applied == r.fb_acks && r.fb_ignored == 0, "{r:?}");
    assert!(r.mean_queue_bytes < 60_000.0, "mean queue {:.0} B", r.mean_queue_bytes);
    assert!(r.utilization > 0.4, "utilization {:.2}", r.utilization);
}
