//! mac_shim (the MAC shim) in Verilator on its three clocks against its frame model: a random
//! seed of `mac-random` (printed), and the exported Verilog's structure.

use testbench::harness::Scenario;

/// Both directions at once on three clocks: padding, whole frames in order, no underrun to the
/// CMAC, nothing bad to the core, the counters exact; with enough of every case to mean it.
#[test]
fn random_traffic_both_ways_matches_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::MacShimRandom.run(seed, 150_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?}; re-run: {}", o.failures, o.rerun_command());
    let g = |n: &str| o.get(n).unwrap();
    assert!(g("tx_frames") > 2_000.0 && g("tx_bad") > 50.0 && g("tx_too_long") > 0.0, "{o:?}");
    assert!(g("rx_frames") > 2_000.0 && g("rx_bad") > 50.0 && g("rx_overflow") > 20.0, "{o:?}");
}

/// The shim instantiates its crossings from their own files (cdc_frame_fifo twice,
/// cdc_word_w96 once) and carries no copy of them; its only register is on `clock`.
#[test]
fn exported_verilog_instantiates_its_crossings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let v = std::fs::read_to_string(dir.join("mac_shim.v")).unwrap();
    let modules: Vec<&str> = v.lines().filter(|l| l.starts_with("module ")).collect();
    assert_eq!(modules.len(), 1, "{modules:?}");
    for (inst, n) in [("cdc_frame_fifo tx_fifo(", 1), ("cdc_frame_fifo rx_fifo(", 1), ("cdc_word_w96 rx_stats(", 1)] {
        assert_eq!(v.matches(inst).count(), n, "{inst}");
    }
    let clocked: Vec<&str> = v.lines().filter(|l| l.contains("always @(posedge")).map(str::trim).collect();
    assert_eq!(clocked, ["always @(posedge clock) begin"]);
    let f = std::fs::read_to_string(dir.join("hpcc_nic.f")).unwrap();
    let order: Vec<&str> = f.lines().filter(|l| l.starts_with("cdc_") || l.starts_with("mac_")).collect();
    assert_eq!(order, ["cdc_word_w9.v", "cdc_word_w96.v", "cdc_frame_fifo.v", "mac_shim.v"], "compile order");
}

/// The synthesized shim (yosys) crosses clocks only where it means to: into the first
/// flip-flop of a synchronizer (the Gray read pointers' `rsync0`, the handshakes' `req_m0` and
/// `ack_s0`) and into a handshake's capture register (`data`, from its own `hold` only). Any
/// other register fed from another clock fails this.
#[test]
fn the_only_clock_crossings_are_the_synchronizers() {
    if testbench::synth::yosys_version().is_none() {
        eprintln!("SKIPPED: yosys not found (.ci/deps installs it)");
        return;
    }
    let rtl = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let files = testbench::rtl_files::rtl_files(&rtl, "mac_shim").unwrap();
    let r = testbench::synth::synth(&files, "mac_shim", "xcup").unwrap();
    println!("{}", r.markdown());
    for c in &r.crossings {
        let (inst, reg) = c.to.rsplit_once('.').expect("every crossing is inside a crossing block");
        match reg {
            "rsync0_q" => assert!(c.from.iter().all(|(n, _)| *n == format!("{inst}.rd_gray_q")), "{c:?}"),
            "req_m0_q" => assert!(c.from.iter().all(|(n, _)| *n == format!("{inst}.req_q")), "{c:?}"),
            "ack_s0_q" => assert!(c.from.iter().all(|(n, _)| *n == format!("{inst}.ack_q")), "{c:?}"),
            "data_q" => assert!(c.from.iter().all(|(n, _)| *n == format!("{inst}.hold_q")), "{c:?}"),
            _ => panic!("{} ({}) takes data from another clock: {:?}", c.to, c.to_clock, c.from),
        }
    }
    // Two FIFOs (a Gray pointer and a handshake each) and the counters' handshake.
    assert_eq!(r.crossings.len(), 2 * 4 + 3, "{:#?}", r.crossings);
}
