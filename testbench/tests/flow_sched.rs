//! flow_sched against its golden model in Verilator, plus the export, lint and synthesis checks.
//! Seeds are fixed so failures replay; `hpcc-nic regress` draws fresh ones and runs longer.

use std::path::{Path, PathBuf};
use testbench::harness::{assert_passed, flow_sched, Scenario};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}


#[test]
fn rtl_out_is_a_fresh_export() {
    let modules = hdl::export::all().unwrap();
    let dir = root().join("rtl-out");
    let stale = hdl::export::stale(&dir, &modules);
    assert!(stale.is_empty(), "stale in rtl-out/: {stale:?}: run `hpcc-nic export`");
    for m in &modules {
        assert!(!m.text.contains('$'), "{}: `$` in exported Verilog", m.name);
        assert!(!m.text.contains("module top"), "{}: module still called top", m.name);
        assert!(m.text.contains("`timescale 1ns / 1ps") && m.text.contains("`default_nettype none"));
    }
}

#[test]
fn random_traffic_matches_model_every_cycle() {
    for seed in [1, 0xC0FFEE] {
        let o = Scenario::FlowSchedRandom.run(seed, 200_000, None);
        assert!(o.transactions > 20_000, "too little traffic: {o:?}");
        assert!(o.get("pktsends").unwrap() > 10_000.0, "too few PktSends: {o:?}");
        assert_passed(&o);
    }
}

#[test]
fn bad_input_matches_model_every_cycle() {
    assert_passed(&Scenario::FlowSchedBadInput.run(7, 200_000, None));
}

#[test]
fn one_flow_gets_line_rate_and_the_scheduler_one_pktsend_per_clock() {
    let o = Scenario::FlowSchedLineRate.run(3, 150_000, None);
    assert_passed(&o);
    let full = o.get("one_flow_1pkt_pkts_per_cycle").unwrap();
    assert!(full > 0.999, "one flow at 1 packet/cycle got {full}");
}

#[test]
fn pacing_1024_flows_within_one_percent() {
    let o = Scenario::FlowSchedPacing.run(11, 600_000, None);
    assert_passed(&o);
    assert!(o.get("min_pkts_per_flow").unwrap() > 100.0);
}

#[test]
fn window_never_exceeded() {
    let o = Scenario::FlowSchedWindow.run(5, 200_000, None);
    assert_passed(&o);
}

#[test]
fn a_diverging_model_is_caught() {
    // The comparison itself must be able to fail: the model alone is offered one extra create.
    let mut ls = flow_sched::Lockstep::new(None);
    let mut t = flow_sched::Traffic::new(9, flow_sched::Profile::random());
    t.reset(&mut ls);
    let create = sim::flow_sched::Ctrl { create: true, flow: 5, window: 1 << 20, rate: 8 << 16, pkt_shift: 0, reserved: 0 };
    let extra = sim::flow_sched::Inputs { ctrl: Some(create), pkt_shift: 10, max_burst: 64, ..Default::default() };
    ls.model.step(&extra);
    for _ in 0..20_000 {
        t.step(&mut ls);
    }
    assert!(ls.mismatches > 0, "a model that diverged went unnoticed");
}

#[test]
fn vcd_of_a_rerun_opens() {
    let path = std::env::temp_dir().join(format!("flow_sched_{}.vcd", std::process::id()));
    let o = Scenario::FlowSchedRandom.run(2, 3_000, Some(&path));
    assert_passed(&o);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(text.contains("$scope module flow_sched $end"), "root scope not named after the module");
    assert!(text.contains("m_axis_pktsend_tvalid"));
}

#[test]
fn create_to_first_pktsend_latency() {
    use sim::flow_sched::{Ctrl, Inputs};
    let mut ls = flow_sched::Lockstep::new(None);
    let idle = Inputs { pkt_shift: 6, max_burst: 16, pktsend_ready: true, ..Default::default() };
    let mut t = flow_sched::Traffic::new(0, flow_sched::Profile { p_create: 0.0, p_remove: 0.0, ..flow_sched::Profile::random() });
    t.reset(&mut ls);
    let create = Ctrl { create: true, flow: 3, window: 1 << 20, rate: 64 << 16, pkt_shift: 0, reserved: 0 };
    use flow_sched::Sched;
    assert!(ls.cycle(&Inputs { ctrl: Some(create), ..idle }).ctrl_ready);
    let first = (1..100).find(|_| ls.cycle(&idle).pktsend_valid).expect("no PktSend");
    assert_eq!(first, 13, "create -> first PktSend latency changed: update docs/modules/flow_sched.md");
    // One flow at one packet per cycle then sends every cycle.
    assert!((0..1000).all(|_| ls.cycle(&idle).pktsend_valid));
    assert_eq!(ls.mismatches, 0, "{:?}", ls.first);
}

#[test]
fn idle_returns_a_packet_and_sleeps_until_woken() {
    use flow_sched::Sched;
    use sim::flow_sched::{Ctrl, Inputs, Sleep};
    let mut ls = flow_sched::Lockstep::new(None);
    let idle = Inputs { pkt_shift: 6, max_burst: 16, pktsend_ready: true, ..Default::default() };
    let mut t = flow_sched::Traffic::new(0, flow_sched::Profile { p_create: 0.0, p_remove: 0.0, ..flow_sched::Profile::random() });
    t.reset(&mut ls);
    let run = |ls: &mut flow_sched::Lockstep, i: Inputs, n: usize| {
        let mut sends = 0;
        for k in 0..n {
            let i = if k == 0 { i } else { idle };
            sends += ls.cycle(&i).pktsend_valid as usize;
        }
        sends
    };
    // Window of four 64-byte packets, no acks: four PktSends, then the window is full.
    let create = Ctrl { create: true, flow: 3, window: 4 << 6, rate: 64 << 16, pkt_shift: 0, reserved: 0 };
    assert_eq!(run(&mut ls, Inputs { ctrl: Some(create), ..idle }, 200), 4);
    // An idle returns one packet of window, but the flow sleeps: no grant.
    let sleep = |wake| Some(Sleep { flow: 3, wake });
    assert_eq!(run(&mut ls, Inputs { sleep: sleep(false), ..idle }, 200), 0);
    // A wake: exactly the returned packet goes.
    assert_eq!(run(&mut ls, Inputs { sleep: sleep(true), ..idle }, 200), 1);
    // This grant found nothing either (idle), and the three packets really sent are
    // acknowledged: the whole window is free, but nothing goes until the wake.
    let ack = sim::flow_sched::Notify { flow: 3, bytes: 3 << 6 };
    assert_eq!(run(&mut ls, Inputs { sleep: sleep(false), notify: Some(ack), ..idle }, 200), 0);
    assert_eq!(run(&mut ls, Inputs { sleep: sleep(true), ..idle }, 200), 4);
    assert_eq!(ls.mismatches, 0, "{:?}", ls.first);
}

#[test]
fn lint_is_clean_with_the_committed_waivers() {
    let rtl = root().join("rtl-out");
    let files = testbench::rtl_files::rtl_files(&rtl, "flow_sched").unwrap();
    let r = testbench::lint::lint(&files, "flow_sched", Some(&rtl.join("hpcc_nic.vlt"))).expect("verilator");
    assert!(r.clean, "{}: {:#?}", r.command, r.warnings);
}

#[test]
fn synthesizes_at_1024_and_4096_flows() {
    let dir = std::env::temp_dir().join(format!("flow_sched_synth_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (bits, name) in [(10, "flow_sched"), (12, "flow_sched_4096")] {
        // Folded as rtl-out/ is: the named constants declared, shared cells in their own file.
        let files = hdl::export::folded(hdl::export::flow_sched(bits, name).unwrap()).unwrap();
        let mut paths = vec![];
        for m in &files {
            paths.push(dir.join(format!("{}.v", m.name)));
            std::fs::write(paths.last().unwrap(), &m.text).unwrap();
        }
        let r = testbench::synth::synth(&paths, name, "xcup").expect("yosys");
        assert!(r.unexplained_warnings.is_empty(), "{name}: {:#?}", r.unexplained_warnings);
        assert!(r.bram36 + r.bram18 > 0, "{name}: per-flow state is not in block RAM: {}", r.table_row());
        assert_eq!(r.dsps, 2, "{name}: the two rate multipliers should map to DSPs");
        // 23 levels today (docs/modules/flow_sched.md); fail on a large regression.
        assert!(r.logic_levels <= 28, "{name}: logic depth {} levels", r.logic_levels);
    }
    std::fs::remove_dir_all(&dir).ok();
}
