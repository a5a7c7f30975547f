//! hpcc_nic (the NIC: PCIe shim, host queues, core, MAC shim) end to end: a random seed of
//! `nic-pair` (printed), and the exported top's structure.

use testbench::harness::Scenario;

/// Two NICs wire to wire behind two PCIe hosts: queue pairs and queues set up through BAR0,
/// WRITE and READ WQEs rung by doorbell, every completion entry and every byte checked at the
/// hosts, the counters read through BAR0 equal to the hosts' counts, bad BAR0 accesses refused.
#[test]
fn two_nics_run_wqes_end_to_end_through_pcie_and_the_wire() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::NicPair.run(seed, 100_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    // 100 000 cycles: 10 WQEs per flow, 2 to 4 flows, all completed.
    assert_eq!(g("messages"), 10.0 * g("flows"), "{o:?}");
    assert!(g("write_bytes") > 0.0 && g("read_bytes") > 0.0 && g("frames") > g("messages"), "{o:?}");
}

/// One NIC talking to itself through a looped wire (the cocotb cross-check's topology): each
/// flow is its own requester and responder.
#[test]
fn one_nic_runs_wqes_to_itself_through_a_looped_wire() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::NicLoopback.run(seed, 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert_eq!(g("messages"), 6.0 * g("flows"), "{o:?}");
    assert!(g("write_bytes") + g("read_bytes") > 0.0, "{o:?}");
}

/// The top only instantiates its blocks (each once, by name) and wires them: no logic, no
/// registers, no copy of a block's module.
#[test]
fn exported_top_instantiates_each_block_once() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let v = std::fs::read_to_string(dir.join("hpcc_nic.v")).unwrap();
    for inst in [
        "pcie_shim shim(",
        "axil_split split(",
        "dma_rd_mux rd_mux(",
        "dma_wr_mux wr_mux(",
        "host_queues queues(",
        "hpcc_nic_core core(",
        "nic_stats stats(",
        "mac_shim mac(",
    ] {
        assert_eq!(v.matches(inst).count(), 1, "{inst}");
    }
    assert_eq!(v.matches("\nmodule ").count(), 1, "one module per file");
    assert!(!v.contains("always @(posedge"), "the top has no registers of its own");
    let list = std::fs::read_to_string(dir.join("hpcc_nic.f")).unwrap();
    assert!(list.lines().last() == Some("hpcc_nic.v"), "the top comes last in the filelist");
}
