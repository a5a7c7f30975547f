//! RTL cores on the switch model (`harness::fabric`): small HPCC++ and Rx-HPCC incasts, at
//! once and staggered, whose queue the algorithm must keep low, and whose messages all
//! complete.

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

/// 3 senders of 300 KB, HPCC++, one every 10 us (2 base RTTs): each newcomer starts at one
/// BDP into a bottleneck the others already fill, and HPCC++ must absorb it: every message
/// completes, nothing is lost, the queue stays under 1.5 BDPs at its peak and under 25 KB on
/// average (windows fixed at one BDP would stand at 2 BDPs, 125 KB, with all three sending),
/// and every sender gets a real share while all send (Jain's index well above the 1/3 of one
/// sender taking all; HPCC++ converges by W_AI only: docs/modules/hpcc_nic_core.md,
/// "Congestion"). Measured with seed 3: peak 71.4 KB, mean 12.8 KB, Jain 0.93, 78%.
#[test]
fn staggered_hpcc_arrivals_are_absorbed() {
    use testbench::harness::fabric::{run, Spec};
    let r = run(&Spec { stagger: 2500, ..Spec::new(0, 3, 300_000, 400_000, 3) });
    println!("{r:?}");
    assert_eq!((r.completed, r.failed, r.dropped, r.timeouts), (3, 0, 0, 0));
    assert!(r.max_queue_bytes < 93_750, "peak queue {} B", r.max_queue_bytes);
    assert!(r.mean_queue_bytes < 25_000.0, "mean queue {:.0} B", r.mean_queue_bytes);
    assert!(r.jain > 0.7, "Jain {:.3}", r.jain);
}
