//! rx_ctx against its golden model (sim::rx_ctx) in Verilator, transaction by transaction:
//! random control words, sent events and verdict records with input gaps and backpressure on
//! all four outputs, bad input and resets, one verdict per clock; directed sequences; a few
//! records in rust-hdl's own simulator.

use testbench::harness::rx_ctx::{run, Shape};
use testbench::harness::Scenario;

#[test]
fn random_records_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::RxCtxRandom.run(seed, 300_000, None);
    println!("{o:?}");
    let at_least = |name: &str, n: f64| o.get(name).unwrap() >= n;
    assert!(
        o.passed()
            && at_least("records", 120_000.0)
            && at_least("dma_writes", 30_000.0)
            && at_least("notifies", 10_000.0)
            && at_least("rewinds", 1_000.0)
            && at_least("stat_oos_dropped", 500.0)
            && at_least("stat_duplicate", 1_000.0)
            && at_least("stat_bad_request", 1_000.0)
            && at_least("stat_stale_ack", 1_000.0)
            && at_least("stat_nak_other", 1_000.0)
            && at_least("stat_nak_sent", 1_000.0),
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

#[test]
fn bad_input_is_counted_and_ignored() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::RxCtxBadInput.run(seed, 300_000, None);
    println!("{o:?}");
    let at_least = |name: &str, n: f64| o.get(name).unwrap() >= n;
    assert!(
        o.passed()
            && at_least("stat_ctrl_bad", 50.0)
            && at_least("stat_sent_drop", 1_000.0)
            && at_least("stat_unknown_qp", 1_000.0)
            && at_least("resets", 1.0),
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

/// Verdicts offered on every cycle, outputs always ready: every one is taken in its cycle.
#[test]
fn one_verdict_per_clock() {
    let seed = rand::random::<u32>() as u64;
    let o = run(Scenario::RxCtxRandom, seed, 50_000, &Shape::LINE_RATE, None);
    println!("{o:?}");
    assert!(o.passed(), "{o:?}");
    assert_eq!(o.get("records_per_cycle_offered").unwrap(), 1.0, "{o:?}");
}
