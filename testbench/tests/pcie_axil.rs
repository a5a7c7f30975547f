//! pcie_axil (the PCIe shim's completer) in Verilator against its model: a random seed of
//! `pcie-axil-random` and of `pcie-axil-bad-input` (printed).

use testbench::harness::Scenario;

/// BAR0 reads and writes become the model's register accesses and completions, SLVERR
/// answers included.
#[test]
fn register_accesses_and_completions_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::PcieAxilRandom.run(seed, 40_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert!(g("writes") > 1000.0 && g("reads") > 1000.0 && g("axil_errors") > 100.0, "{o:?}");
}

/// Requests it does not serve get no register access, an unsupported-request completion when
/// non-posted, and are counted.
#[test]
fn unserved_requests_are_answered_and_counted() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::PcieAxilBadInput.run(seed, 40_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    assert!(o.get("unsupported").unwrap() > 500.0, "{o:?}");
}
