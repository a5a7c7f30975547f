//! RTL cores on the switch model (`harness::fabric`): a small HPCC++ incast whose queue the
//! algorithm must keep low, and whose messages all complete.

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
