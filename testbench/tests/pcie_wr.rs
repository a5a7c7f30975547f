//! pcie_wr (the PCIe shim's DMA write engine) in Verilator against its model: a random seed
//! of `pcie-wr-random` and of `pcie-wr-bad-input` (printed), and the exported Verilog's
//! structure.

use testbench::harness::Scenario;

/// Writes of 1 B to 9 KiB split at the max payload size: every RQ beat is the model's, byte
/// for byte where the byte enables write.
#[test]
fn writes_become_the_models_tlps() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::PcieWrRandom.run(seed, 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert!(g("writes") > 800.0 && g("tlps") > 2.0 * g("writes") && g("rq_bytes") > 1e6, "{o:?}");
}

/// Payloads of the wrong length, commands of length 0 and payloads longer than the store are
/// dropped and counted; the writes around them come out right.
#[test]
fn bad_writes_are_dropped_and_counted() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::PcieWrBadInput.run(seed, 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert!(g("len_errors") > 20.0 && g("writes") > 500.0, "{o:?}");
}

/// The engine reuses rx_dma's combine stage by name and copies none of it; one clock.
#[test]
fn exported_verilog_reuses_rx_dmas_combine() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let v = std::fs::read_to_string(dir.join("pcie_wr.v")).unwrap();
    for inst in ["rx_dma_combine combine(", "hpcc_ram_w512_d128 even(", "hpcc_ram_w512_d128 odd("] {
        assert_eq!(v.matches(inst).count(), 1, "{inst}");
    }
    assert!(!v.contains("module rx_dma_combine"));
    let clocked: Vec<&str> = v.lines().filter(|l| l.contains("always @(posedge")).map(str::trim).collect();
    assert!(clocked.iter().all(|l| *l == "always @(posedge clock) begin" || *l == "always @(posedge write_clock) begin"), "{clocked:?}");
}
