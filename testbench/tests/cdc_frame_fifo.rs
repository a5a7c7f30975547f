//! cdc_frame_fifo (the MAC shim's clock crossing) in Verilator with its two clocks toggled
//! apart, against its frame model (sim::cdc_frame_fifo): every clock pair waiting and
//! dropping when full, the line-rate sweep across the real clocks, and the exported Verilog's
//! two clock domains.

use testbench::harness::cdc_frame_fifo::{line_rate, stream_gbps, CORE_PS, LINE_RATE_SIZES};
use testbench::harness::{Outcome, Scenario};

/// One seed on every clock pair (the regression's run, so its re-run command replays it).
fn every_pair(scenario: Scenario) -> Outcome {
    let seed = rand::random::<u32>() as u64;
    let o = scenario.run(seed, 7 * 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?}; re-run: {}", o.failures, o.rerun_command());
    assert!(o.get("frames_read").unwrap() > 7.0 * 300.0, "{o:?}");
    o
}

/// Waiting when full (transmit): frames whole and in order on every clock pair; bad and
/// too-long frames dropped and counted exactly, nothing else lost.
#[test]
fn waiting_keeps_every_good_frame_on_every_clock_pair() {
    let o = every_pair(Scenario::CdcFifoWait);
    assert!(o.get("bad").unwrap() > 100.0 && o.get("too_long").unwrap() > 3.0, "{o:?}");
    assert_eq!(o.get("overflow"), Some(0.0));
}

/// Dropping when full (receive), with a sink slow enough to fill the FIFO: the frames read are
/// whole and in order, and the ones not read are counted once.
#[test]
fn dropping_counts_every_frame_it_drops_on_every_clock_pair() {
    let o = every_pair(Scenario::CdcFifoDrop);
    assert!(o.get("overflow").unwrap() > 100.0 && o.get("bad").unwrap() > 100.0, "{o:?}");
}

/// 100 Gb/s through 250 -> 322 MHz and 322 -> 250 MHz at every size of the sweep, within 2% of
/// what the streams can carry (the harness checks it and records the figures).
#[test]
fn line_rate_across_the_real_clocks() {
    let o = line_rate(Scenario::CdcFifoLineRate, 1, 440_000, None);
    for &len in &LINE_RATE_SIZES {
        let can = stream_gbps(len, CORE_PS).min(100.0);
        println!(
            "{len} B: tx {:.2} rx {:.2} Gb/s (streams carry {can:.2}), rx overflow {}",
            o.get(&format!("tx_{len}_gbps")).unwrap(),
            o.get(&format!("rx_{len}_gbps")).unwrap(),
            o.get(&format!("rx_{len}_overflow")).unwrap()
        );
    }
    assert!(o.passed(), "{:?}", o.failures);
    // The 65-75 byte band is the only one the 250 MHz stream cannot carry at 100 Gb/s.
    assert!(stream_gbps(65, CORE_PS) < 90.0 && stream_gbps(76, CORE_PS) >= 100.0 && stream_gbps(60, CORE_PS) >= 100.0);
}

/// The export gives the crossing two clock domains: one `always` block per clock, the RAM as
/// the two-clock cell (read on m_clock, written on s_clock), nothing clocked by anything else.
#[test]
fn exported_verilog_has_one_always_block_per_clock() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out");
    let v = std::fs::read_to_string(dir.join("cdc_frame_fifo.v")).unwrap();
    let clocked: Vec<&str> = v.lines().filter(|l| l.contains("always @(posedge")).map(str::trim).collect();
    assert_eq!(clocked, ["always @(posedge m_clock) begin", "always @(posedge s_clock) begin"], "{clocked:?}");
    let ram = &v[v.find("hpcc_ram_2clk_w577_d256 ram(").expect("the two-clock RAM cell")..];
    let ram = &ram[..ram.find(");").unwrap()];
    assert!(ram.contains(".read_clock(m_clock)") && ram.contains(".write_clock(s_clock)"), "{ram}");
    let cells = std::fs::read_to_string(dir.join("hpcc_nic_cells.v")).unwrap();
    assert!(cells.contains("module hpcc_ram_2clk_w577_d256("), "the cell is in hpcc_nic_cells.v");
}

/// The `reg`s of an exported file.
fn regs_of(file: &str) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let v = std::fs::read_to_string(root.join("rtl-out").join(file)).unwrap();
    v.lines()
        .filter_map(|l| l.trim().strip_prefix("reg "))
        .filter_map(|l| l.split(" = ").next())
        .map(|l| l.split_whitespace().last().unwrap().to_string())
        .collect()
}

/// Every register an XDC file names (`x_q_reg` or `x_q_reg[*]`, Vivado's names for the
/// exported `reg x_q`) must exist in each module it is read for, and every synchronizer stage
/// `syncs` must be marked ASYNC_REG. The registers named, in order.
fn check_xdc(xdc: &str, modules: &[&str], syncs: &[&str]) -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("fpga-constraints").join(xdc)).unwrap();
    let mut named = vec![];
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        for part in line.split(|c: char| c == '{' || c == '}' || c.is_whitespace()) {
            if let Some(base) = part.strip_suffix("_reg[*]").or_else(|| part.strip_suffix("_reg")) {
                for m in modules {
                    assert!(regs_of(&format!("{m}.v")).iter().any(|r| r == base), "{part} in {xdc}: no reg {base} in {m}.v");
                }
                named.push(base.to_string());
            }
        }
    }
    for sync in syncs {
        let marked = text.lines().any(|l| l.contains("ASYNC_REG TRUE") && l.contains(&format!("{sync}_reg")));
        assert!(marked, "{xdc}: {sync} is not marked ASYNC_REG");
    }
    named
}

/// fpga-constraints/cdc_frame_fifo.xdc and cdc_word.xdc name registers that exist (cdc_word.xdc
/// in both exported widths) and mark every synchronizer.
#[test]
fn the_constraints_name_registers_that_exist() {
    let fifo = check_xdc("cdc_frame_fifo.xdc", &["cdc_frame_fifo"], &["rsync0_q", "rsync1_q"]);
    assert!(fifo.len() >= 6, "{fifo:?}");
    let word = check_xdc("cdc_word.xdc", &["cdc_word_w9", "cdc_word_w96"], &["req_m0_q", "req_m1_q", "ack_s0_q", "ack_s1_q"]);
    assert!(word.len() >= 10, "{word:?}");
    // Every register of cdc_word that samples the other clock is constrained.
    for r in ["req_m0_q", "ack_s0_q", "data_q", "hold_q", "req_q", "ack_q"] {
        assert!(word.iter().any(|w| w == r), "cdc_word.xdc does not name {r}");
    }
}
