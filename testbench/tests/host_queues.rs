//! host_queues (the host queue engine) in Verilator against its model: a random seed of
//! `host-queues-random` (printed).

use testbench::harness::Scenario;

/// WQEs fetched, posted and completed as the model says, bad input included, with the
/// completion queue filling up.
#[test]
fn send_queues_post_and_every_completion_gets_its_entry() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::HostQueuesRandom.run(seed, 100_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    // Floor at about half the lowest of 40 seeds (443 posts): 500 failed one seed in 40.
    assert!(g("posts") > 200.0 && g("cqes") > g("posts"), "{o:?}");
    assert!(g("refused_wqes") + g("error_completions") > 0.0 && g("slverr") == 3.0, "{o:?}");
}

/// A 2-entry completion ring (a seed that is a multiple of 4): completions wait for room, and
/// none is lost or written over an entry the driver has not consumed.
#[test]
fn completions_wait_on_a_full_completion_queue() {
    let seed = rand::random::<u32>() as u64 & !3;
    let o = Scenario::HostQueuesRandom.run(seed, 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert_eq!(g("cq_entries"), 2.0, "{o:?}");
    assert!(g("cq_full_cycles") > 100.0 && g("cqes") > 100.0, "{o:?}");
}
