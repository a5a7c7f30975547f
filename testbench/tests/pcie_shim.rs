//! pcie_shim (the whole PCIe shim) in Verilator against its engines' models: a random seed of
//! `pcie-shim-random` (printed).

use testbench::harness::Scenario;

/// Reads, writes and register accesses at once: every TLP whole and equal to its engine's
/// model, data and registers exact, both engines sharing RQ.
#[test]
fn reads_writes_and_registers_share_the_hard_block() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::PcieShimRandom.run(seed, 40_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert!(g("read_tlps") > 1000.0 && g("write_tlps") > 1000.0 && g("register_accesses") > 500.0, "{o:?}");
    // RQ went back and forth between the engines, not one engine's TLPs then the other's.
    assert!(g("rq_switches") > 1000.0, "{o:?}");
}
