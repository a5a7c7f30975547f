//! The depth search on hand-written netlists.

use super::names::{design_src, short_internal_name};
use super::*;
use serde_json::json;

// ---- hand-written netlists: the depth search itself, no yosys needed.

fn lut(name: &str, ins: &[u64], out: u64) -> (String, Value) {
    let mut dirs = serde_json::Map::new();
    let mut conns = serde_json::Map::new();
    for (i, b) in ins.iter().enumerate() {
        dirs.insert(format!("I{i}"), json!("input"));
        conns.insert(format!("I{i}"), json!([b]));
    }
    dirs.insert("O".into(), json!("output"));
    conns.insert("O".into(), json!([out]));
    (
        name.to_string(),
        json!({"hide_name": 0, "type": format!("LUT{}", ins.len()), "parameters": {},
               "port_directions": dirs, "connections": conns}),
    )
}

fn fdre(name: &str, d: u64, q: u64) -> (String, Value) {
    (
        name.to_string(),
        json!({"hide_name": 0, "type": "FDRE", "parameters": {"INIT": "0"},
               "port_directions": {"C": "input", "CE": "input", "D": "input", "Q": "output", "R": "input"},
               "connections": {"C": [2], "CE": ["1"], "D": [d], "Q": [q], "R": ["0"]}}),
    )
}

fn netlist(cells: Vec<(String, Value)>) -> Value {
    let cells: serde_json::Map<String, Value> = cells.into_iter().collect();
    json!({"modules": {"t": {
        "ports": {"clk": {"direction": "input", "bits": [2]},
                  "a": {"direction": "input", "bits": [3]},
                  "y": {"direction": "output", "bits": [4]}},
        "cells": cells,
        "netnames": {"mid": {"hide_name": 0, "bits": [11]}}
    }}})
}

#[test]
fn depth_counts_luts_between_registers() {
    // a -> r1 -> lut1 -> lut2 -> lut3 -> r2 -> y
    let n = netlist(vec![
        fdre("r1", 3, 10),
        lut("l1", &[10], 11),
        lut("l2", &[11, 10], 12),
        lut("l3", &[12, 11], 13),
        fdre("r2", 13, 4),
    ]);
    let d = logic_depth(&n, "t").unwrap();
    assert_eq!(d.levels, 3);
    assert_eq!(d.path, vec!["FDRE r1", "LUT1 l1", "LUT2 l2", "LUT2 l3", "FDRE r2 (D)"]);
    assert!(d.unmodelled.is_empty());
}

#[test]
fn depth_of_register_to_register_wire_is_zero() {
    let n = netlist(vec![fdre("r1", 3, 10), fdre("r2", 10, 4)]);
    let d = logic_depth(&n, "t").unwrap();
    assert_eq!(d.levels, 0);
    assert_eq!(d.path.len(), 2, "{:?}", d.path);
}

#[test]
fn depth_reports_combinational_loop() {
    let n = netlist(vec![lut("l1", &[3, 12], 11), lut("l2", &[11], 12), fdre("r", 12, 4)]);
    match logic_depth(&n, "t") {
        Err(ToolError::CombinationalLoop { cells }) => {
            assert_eq!(cells.len(), 2, "{cells:?}");
            assert!(cells.iter().any(|c| c.starts_with("LUT2 l1")), "{cells:?}");
            assert!(cells.iter().any(|c| c.starts_with("LUT1 l2")), "{cells:?}");
        }
        other => panic!("want a loop error, got {other:?}"),
    }
}

#[test]
fn depth_treats_registered_dsp_as_boundary() {
    let dsp = |preg: &str| {
        (
            "m".to_string(),
            json!({"hide_name": 0, "type": "DSP48E2",
                   "parameters": {"AREG": "0", "BREG": "0", "MREG": "0", "PREG": preg},
                   "port_directions": {"A": "input", "CLK": "input", "P": "output"},
                   "connections": {"A": [10], "CLK": [2], "P": [11]}}),
        )
    };
    let comb = netlist(vec![fdre("r1", 3, 10), dsp("0"), lut("l", &[11], 12), fdre("r2", 12, 4)]);
    assert_eq!(logic_depth(&comb, "t").unwrap().levels, 2);
    let reg = netlist(vec![fdre("r1", 3, 10), dsp("1"), lut("l", &[11], 12), fdre("r2", 12, 4)]);
    assert_eq!(logic_depth(&reg, "t").unwrap().levels, 1);
}

#[test]
fn unknown_cells_are_reported() {
    let odd = ("o".to_string(), json!({"hide_name": 0, "type": "MYSTERY", "connections": {"X": [10]}}));
    let d = logic_depth(&netlist(vec![odd, fdre("r", 3, 4)]), "t").unwrap();
    assert_eq!(d.unmodelled, vec!["MYSTERY"]);
}

#[test]
fn hop_names() {
    assert_eq!(
        design_src("/tmp/x-y/flow_sched.v:635.31-635.77|/usr/bin/../share/yosys/xilinx/arith_map.v:186.1-1.2"),
        Some("flow_sched.v:635.31".to_string())
    );
    assert_eq!(design_src("/usr/share/yosys/xilinx/lut_map.v:61.26-63.41"), None);
    assert_eq!(short_internal_name("$abc$11515$auto$blifparse.cc:525:parse_blif$11544.genblk1.lut0"), "$11544");
    // A register output that also feeds another register by wire is named as
    // the register it is: s2_q, not the shorter-sorting b_d alias.
    let mut n = netlist(vec![fdre("r1", 3, 10), lut("l", &[10], 12), fdre("r2", 12, 4)]);
    n["modules"]["t"]["cells"]["r1"]["hide_name"] = json!(1);
    n["modules"]["t"]["netnames"] = json!({
        "b_d": {"hide_name": 0, "bits": [10]},
        "s2_q": {"hide_name": 0, "bits": [10]},
        "$auto$x": {"hide_name": 1, "bits": [12]}});
    let d = logic_depth(&n, "t").unwrap();
    assert_eq!(d.path[0], "FDRE s2_q");
    assert_eq!(d.path[1], "LUT1 l");
}

fn cell2(name: &str, ty: &str, ins: &[(&str, u64)], out: (&str, u64)) -> (String, Value) {
    let mut dirs = serde_json::Map::new();
    let mut conns = serde_json::Map::new();
    for (p, b) in ins {
        dirs.insert(p.to_string(), json!("input"));
        conns.insert(p.to_string(), json!([b]));
    }
    dirs.insert(out.0.into(), json!("output"));
    conns.insert(out.0.into(), json!([out.1]));
    (name.to_string(), json!({"hide_name": 0, "type": ty, "parameters": {}, "port_directions": dirs, "connections": conns}))
}

#[test]
fn profile_counts_lut_muxf_and_carry_apart_and_estimates_each_end() {
    // r1 -> LUT -> LUT -> MUXF7 -> r2 (2 LUT + 1 MUXF levels), r1 -> LUT -> CARRY4 -> CARRY4
    // -> r3 (1 LUT level, 2 carry cells), and port a -> r1, r2 -> port y: four ends.
    let n = netlist(vec![
        fdre("r1", 3, 10),
        lut("l1", &[10], 11),
        lut("l2", &[11], 12),
        lut("l3", &[11], 13),
        cell2("m", "MUXF7", &[("I0", 12), ("I1", 13), ("S", 10)], ("O", 14)),
        fdre("r2", 14, 4),
        lut("l4", &[10], 15),
        cell2("c1", "CARRY4", &[("S", 15)], ("CO", 16)),
        cell2("c2", "CARRY4", &[("CI", 16)], ("CO", 17)),
        fdre("r3", 17, 18),
    ]);
    let d = logic_depth(&n, "t").unwrap();
    let p = &d.profile;
    let m = DelayModel::ULTRASCALE_PLUS;
    // Ends: r1.D (0 levels: from port a), r2.D (3), r3.D (1, with 2 carry), port y (0).
    assert_eq!(p.ends, 4);
    assert_eq!(p.histogram, vec![2, 1, 0, 1]);
    assert_eq!((p.worst.luts, p.worst.muxf, p.worst.carry), (2, 1, 0));
    assert_eq!(p.worst_end, "FDRE r2 (D)");
    assert!((p.worst.ns - (m.base_ns + 2.0 * m.lut_ns + m.muxf_ns)).abs() < 1e-9, "{p:?}");
    assert_eq!(p.over, 0);
    // logic_depth's own count takes every cell as a level: the same path, 3.
    assert_eq!(d.levels, 3);
}

#[test]
fn profile_counts_ends_over_the_budget() {
    // Ten LUTs in a row: 0.4 + 10 x 0.45 = 4.9 ns > 4 ns; a second end of one LUT is not.
    let mut cells = vec![fdre("r1", 3, 10)];
    for k in 0..10 {
        cells.push(lut(&format!("l{k}"), &[10 + k], 11 + k));
    }
    cells.push(fdre("r2", 20, 4));
    cells.push(lut("short", &[10], 30));
    cells.push(fdre("r3", 30, 31));
    let p = logic_depth(&netlist(cells), "t").unwrap().profile;
    assert_eq!(p.histogram[10], 1);
    assert_eq!(p.histogram[1], 1);
    assert_eq!(p.over, 1);
    assert!((p.worst.ns - 4.9).abs() < 1e-9, "{p:?}");
}
