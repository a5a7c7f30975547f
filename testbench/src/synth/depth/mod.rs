//! Logic depth: the deepest register-to-register path of a netlist mapped to Xilinx primitives.

mod crossings;
mod names;
mod netlist;
mod profile;
#[cfg(test)]
mod tests;

use super::stat::top_module;
use super::ToolError;
use names::short_internal_name;
use netlist::{is_clock_pin, Cell, Kind};
use serde_json::Value;
use std::collections::HashMap;

pub use crossings::{clock_crossings, Crossing};
pub use profile::{DelayModel, LevelProfile, PathCost};

/// The budget `LevelProfile::over` counts against: one cycle at 250 MHz, ns.
pub const BUDGET_NS: f64 = 4.0;

/// The result of [`logic_depth`].
#[derive(Debug, Clone, PartialEq)]
pub struct LogicDepth {
    /// Logic levels on the deepest path.
    pub levels: u32,
    /// That path, start to end (see [`SynthReport::critical_path`](super::SynthReport::critical_path)); empty if the
    /// module has no path at all.
    pub path: Vec<String>,
    /// Cell types the search does not know, treated as registers.
    pub unmodelled: Vec<String>,
    /// Every path end's worst path: LUT, MUXF and carry levels apart, estimated delay
    /// ([`DelayModel::ULTRASCALE_PLUS`], budget [`BUDGET_NS`]).
    pub profile: LevelProfile,
}

#[derive(Clone, Copy, Debug)]
enum Driver {
    Port(usize),
    /// Cell index, output pin index in that cell's pin list, bit index.
    Cell(usize, usize, usize),
}

/// The driver of every net: a top input port's bit or a cell's output pin bit.
fn drivers(ports: &[netlist::Port], cells: &[Cell]) -> HashMap<u64, Driver> {
    let mut driver: HashMap<u64, Driver> = HashMap::new();
    for (pi, p) in ports.iter().enumerate().filter(|(_, p)| p.input) {
        for b in p.bits.iter().flatten() {
            driver.insert(*b, Driver::Port(pi));
        }
    }
    for (ci, c) in cells.iter().enumerate() {
        for (pi, p) in c.pins.iter().enumerate().filter(|(_, p)| !p.input) {
            for (i, b) in p.bits.iter().enumerate() {
                if let Some(b) = b {
                    driver.insert(*b, Driver::Cell(ci, pi, i));
                }
            }
        }
    }
    driver
}

/// A register output's name. It carries the names of everything it feeds by wire as well (in
/// rust-hdl: s2_flow_q is also lw_flow_d); the register's own name is preferred, `x_q` /
/// `x.q` / `x_q[3]`.
fn reg_name(aliases: &HashMap<u64, Vec<String>>, b: u64) -> Option<String> {
    let v = aliases.get(&b)?;
    let is_q = |n: &&String| {
        let base = n.split('[').next().unwrap_or(n);
        base.ends_with("_q") || base.ends_with(".q") || base == "q"
    };
    v.iter().find(is_q).or(v.first()).cloned()
}

/// The deepest register-to-register path of module `top` of a yosys JSON netlist
/// of Xilinx primitives (the output of `synth_xilinx`).
///
/// Levels: each `LUT1`..`LUT6`, `MUXF7`/`MUXF8`/`MUXF9` and `CARRY4`/`CARRY8` on the
/// path is one level (every carry cell of a chain is its own level). Also one level
/// each: a LUT-RAM or SRL read (address to data), and a `DSP48E1`/`DSP48E2` whose
/// AREG, BREG, MREG and PREG are all 0 (a purely combinational multiplier, much
/// slower than a LUT, so the count flatters such paths). `INV` is zero levels.
/// The reverse holds for carry chains: a `CARRY4` adds far less delay than a LUT,
/// so a path with a long ripple chain looks deeper than it is slow.
///
/// Path ends: flip-flops (`FD*`), block RAMs (`RAMB*`, `URAM*`), DSPs with any of
/// AREG/BREG/MREG/PREG set, LUT-RAM write ports, I/O and clock buffers, and the
/// module's ports. Clock pins (`C`, `*CLK*`) are not path ends, so the clock tree is
/// ignored. Unknown cell types are treated as registers and listed in `unmodelled`.
///
/// A combinational loop is an error ([`ToolError::CombinationalLoop`]); the search
/// is iterative and visits each net once.
pub fn logic_depth(netlist: &Value, top: &str) -> Result<LogicDepth, ToolError> {
    let module = top_module(netlist, top)?;

    let aliases = names::aliases(module);
    let net_name = |b: u64| aliases.get(&b).and_then(|v| v.first()).cloned();
    let reg_name = |b: u64| reg_name(&aliases, b);

    let ports = netlist::ports(module);
    let (cells, unmodelled) = netlist::cells(module)?;

    let driver = drivers(&ports, &cells);

    let weight = |c: &Cell| match c.kind {
        Kind::Comb(w) => w,
        Kind::LutMem => 1,
        _ => 0,
    };
    // The combinational fan-in of a net, or None if it starts a path.
    // The cell driving a net and the nets that output depends on, or None if it starts a path.
    let fanin = |b: u64| -> Option<(usize, Vec<u64>)> {
        let Some(Driver::Cell(ci, pi, i)) = driver.get(&b).copied() else { return None };
        let c = &cells[ci];
        c.arcs(c.pins[pi].name, i).map(|ins| (ci, ins))
    };
    let model = DelayModel::ULTRASCALE_PLUS;
    let describe_cell = |ci: usize, bit: Option<u64>| -> String {
        let c = &cells[ci];
        let name = if c.ty.starts_with("IBUF") {
            c.pin("I").and_then(|p| p.bits.first().copied().flatten()).and_then(&net_name)
        } else {
            None
        }
        .or_else(|| if c.public { Some(c.name.to_string()) } else { None })
        .or_else(|| bit.and_then(|b| if c.kind == Kind::Seq { reg_name(b) } else { net_name(b) }));
        // Where in the design a piece of logic came from (not for registers and
        // memories, whose names say it).
        let src = if matches!(c.kind, Kind::Comb(_) | Kind::LutMem) { c.src.as_deref() } else { None };
        match (name, src) {
            (Some(n), Some(s)) => format!("{} {n} @{s}", c.ty),
            (Some(n), None) => format!("{} {n}", c.ty),
            (None, Some(s)) => format!("{} @{s}", c.ty),
            (None, None) => format!("{} {}", c.ty, short_internal_name(c.name)),
        }
    };
    let describe_net = |b: u64| -> String {
        match driver.get(&b) {
            Some(Driver::Port(pi)) => format!("port {}", net_name(b).unwrap_or_else(|| ports[*pi].name.to_string())),
            Some(Driver::Cell(ci, _, _)) => describe_cell(*ci, Some(b)),
            None => format!("undriven {}", net_name(b).unwrap_or_else(|| format!("net {b}"))),
        }
    };

    // Path ends.
    enum End {
        Port(usize, usize),
        Pin(usize, usize, usize),
    }
    let mut ends: Vec<(u64, End)> = Vec::new();
    for (pi, p) in ports.iter().enumerate().filter(|(_, p)| !p.input) {
        for (i, b) in p.bits.iter().enumerate() {
            if let Some(b) = b {
                ends.push((*b, End::Port(pi, i)));
            }
        }
    }
    for (ci, c) in cells.iter().enumerate() {
        if matches!(c.kind, Kind::Comb(_) | Kind::Const) {
            continue;
        }
        for (pi, p) in c.pins.iter().enumerate().filter(|(_, p)| p.input && !is_clock_pin(p.name)) {
            for (i, b) in p.bits.iter().enumerate() {
                if let Some(b) = b {
                    ends.push((*b, End::Pin(ci, pi, i)));
                }
            }
        }
    }

    // Arrival levels, by iterative depth-first search with colouring: a net met
    // again while still open is on a loop.
    #[derive(Clone, Copy)]
    struct Arrival {
        levels: u32,
        from: Option<u64>,
        /// The path into the net with the largest estimated delay (the profile's).
        cost: PathCost,
    }
    let mut done: HashMap<u64, Arrival> = HashMap::new();
    let mut open: HashMap<u64, Option<u64>> = HashMap::new(); // net -> the net that asked for it
    for (root, _) in &ends {
        if done.contains_key(root) {
            continue;
        }
        let mut stack: Vec<(u64, bool, Option<u64>)> = vec![(*root, false, None)];
        while let Some((b, expanded, parent)) = stack.pop() {
            if done.contains_key(&b) {
                continue;
            }
            let Some((ci, ins)) = fanin(b) else {
                done.insert(b, Arrival { levels: 0, from: None, cost: PathCost::default() });
                continue;
            };
            if !expanded {
                open.insert(b, parent);
                stack.push((b, true, parent));
                for i in ins {
                    if done.contains_key(&i) {
                        continue;
                    }
                    if open.contains_key(&i) {
                        // Loop: walk the askers from b back to i.
                        let mut lp = vec![b];
                        let mut cur = b;
                        while cur != i {
                            match open.get(&cur).copied().flatten() {
                                Some(p) => {
                                    lp.push(p);
                                    cur = p;
                                }
                                None => break,
                            }
                        }
                        // Each asker is fed by the net before it, so lp is in signal
                        // order: b -> ... -> i, and i feeds b.
                        let cells_on_loop = lp.into_iter().map(&describe_net).collect();
                        return Err(ToolError::CombinationalLoop { cells: cells_on_loop });
                    }
                    stack.push((i, false, Some(b)));
                }
            } else {
                let w = weight(&cells[ci]);
                let mut best = Arrival { levels: w, from: None, cost: PathCost::default() };
                for i in &ins {
                    let a = done[i];
                    if best.from.is_none() || a.levels + w > best.levels {
                        best = Arrival { levels: a.levels + w, from: Some(*i), cost: best.cost };
                    }
                }
                best.cost = profile::worst(ins.iter().map(|i| done[i].cost)).plus(profile::cell_cost(&cells[ci], &model));
                open.remove(&b);
                done.insert(b, best);
            }
        }
    }

    let profile = profile::level_profile(ends.iter().map(|e| done[&e.0].cost), model, BUDGET_NS);
    let Some((end_net, end)) = ends.iter().max_by(|(a, _), (b, _)| {
        // Deepest first; on a tie the first end in netlist order.
        done[a].levels.cmp(&done[b].levels).then(std::cmp::Ordering::Greater)
    }) else {
        return Ok(LogicDepth { levels: 0, path: Vec::new(), unmodelled, profile });
    };
    let levels = done[end_net].levels;
    let mut nets = vec![*end_net];
    while let Some(prev) = done[nets.last().unwrap()].from {
        nets.push(prev);
    }
    nets.reverse();
    let mut path: Vec<String> = nets.iter().map(|b| describe_net(*b)).collect();
    let describe_end = |end: &End| match end {
        End::Port(pi, i) => {
            let p = &ports[*pi];
            if p.bits.len() == 1 { format!("port {}", p.name) } else { format!("port {}[{i}]", p.name) }
        }
        End::Pin(ci, pi, i) => {
            let c = &cells[*ci];
            // A flip-flop is best named by the register it is (its Q net).
            let q = c.pins.iter().find(|p| !p.input).and_then(|p| p.bits.first().copied().flatten());
            let pin = &c.pins[*pi];
            let pin_name = if pin.bits.len() == 1 { pin.name.to_string() } else { format!("{}[{i}]", pin.name) };
            format!("{} ({pin_name})", describe_cell(*ci, q))
        }
    };
    path.push(describe_end(end));
    let mut profile = profile;
    profile.worst_end = describe_end(&ends[profile.worst_index].1);
    Ok(LogicDepth { levels, path, unmodelled, profile })
}
