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
