//! Clock-domain crossings of a mapped netlist: every register whose inputs reach, through
//! combinational logic, a register (or memory) of another clock.
//!
//! A design with more than one clock must cross only through structures made for it (a
//! synchronizer's first flip-flop, a handshake's capture register); any other register fed
//! from another clock is a bug that a two-state simulator never shows. This lists them all, so
//! that a test can say which are allowed.
//!
//! Clocks: a register's clock pin (`C`, a block RAM's `CLKARDCLK` / `CLKBWRCLK`, a LUT RAM's
//! `WCLK`) traced back through clock and I/O buffers and inverters to a top input port, whose
//! name is the domain; a clock made by logic is its net's name. Sources: flip-flops (by their
//! clock), block RAM outputs (by the read clock, `CLKARDCLK`: yosys maps a simple dual-port RAM
//! with port A reading), LUT RAM read data (by the write clock: the contents were written on
//! it). Ends: flip-flop inputs; block RAM inputs by port (the read address, enable and output
//! register pins on the read clock, the rest on the write clock); LUT RAM write pins. Top input
//! ports are not sources: their timing is the top's user's to constrain.

use super::netlist::{is_clock_pin, Cell, Kind};
use super::{drivers, names, netlist, reg_name, Driver};
use crate::synth::stat::top_module;
use crate::synth::ToolError;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Registers of one clock that take data from registers of others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossing {
    /// The register (bits grouped: `tx_fifo.rsync0_q`) or memory cell that takes the data.
    pub to: String,
    /// Its clock (the top's clock port).
    pub to_clock: String,
    /// The registers of other clocks in its input cone, each with its clock, grouped likewise.
    pub from: BTreeSet<(String, String)>,
}

/// A register's name without its bit index: `rsync0_q[3]` -> `rsync0_q`.
fn base(name: &str) -> String {
    name.split('[').next().unwrap_or(name).to_string()
}

/// Which clock pin of a memory cell an input pin belongs to.
fn ram_clock_pin(ty: &str, pin: &str) -> &'static str {
    if ty.starts_with("RAMB") {
        let read = pin.contains("ARDADDR") || pin.contains("ARDEN") || pin.starts_with("REGCEA") || pin.starts_with("RSTRAMA") || pin.starts_with("RSTREGA");
        if read {
            "CLKARDCLK"
        } else {
            "CLKBWRCLK"
        }
    } else {
        "WCLK"
    }
}

/// Every crossing of module `top`, in order of destination name. A design with one clock has
/// none.
pub fn clock_crossings(netlist: &Value, top: &str) -> Result<Vec<Crossing>, ToolError> {
    let module = top_module(netlist, top)?;
    let aliases = names::aliases(module);
    let ports = netlist::ports(module);
    let (cells, _) = netlist::cells(module)?;
    let driver = drivers(&ports, &cells);
    // A register with no name of its own that drives an output buffer is named by its port.
    let mut buffered: HashMap<u64, u64> = HashMap::new();
    for c in cells.iter().filter(|c| c.kind == Kind::Buffer) {
        let bit = |input: bool| c.pins.iter().find(|p| p.input == input).and_then(|p| p.bits.first().copied().flatten());
        if let (Some(i), Some(o)) = (bit(true), bit(false)) {
            buffered.insert(i, o);
        }
    }
    let name_of = |b: u64| {
        reg_name(&aliases, b)
            .or_else(|| buffered.get(&b).and_then(|o| reg_name(&aliases, *o)))
            .unwrap_or_else(|| format!("net {b}"))
    };

    // A clock net's domain: back through buffers and inverters to a port.
    let clock_of = |mut b: u64| -> String {
        for _ in 0..16 {
            match driver.get(&b) {
                Some(Driver::Port(pi)) => return ports[*pi].name.to_string(),
                Some(Driver::Cell(ci, _, _)) => {
                    let c = &cells[*ci];
                    let through = matches!(c.kind, Kind::Buffer) || c.ty == "INV" || c.ty == "BUF";
                    match c.pins.iter().find(|p| p.input).and_then(|p| p.bits.first().copied().flatten()) {
                        Some(i) if through => b = i,
                        _ => break,
                    }
                }
                None => break,
            }
        }
        aliases.get(&b).and_then(|v| v.first()).cloned().unwrap_or_else(|| format!("net {b}"))
    };
    let pin_clock = |c: &Cell, pin: &str| -> Option<String> {
        c.pin(pin).and_then(|p| p.bits.first().copied().flatten()).map(clock_of)
    };
    // A sequential cell's clock for the data it gives (None: not a source, e.g. a buffer).
    let source_clock = |ci: usize| -> Option<String> {
        let c = &cells[ci];
        match c.kind {
            Kind::Seq if c.ty.starts_with("FD") => pin_clock(c, "C"),
            Kind::Seq if c.ty.starts_with("RAMB") => pin_clock(c, "CLKARDCLK"),
            Kind::Seq => c.pins.iter().find(|p| p.input && is_clock_pin(p.name)).and_then(|p| pin_clock(c, p.name)),
            Kind::LutMem => pin_clock(c, "WCLK"),
            _ => None,
        }
    };

    // One clock (every block of the core): nothing can cross, and the walk below, which keeps
    // every net's sources, would only cost memory on a large design.
    let clocks: BTreeSet<String> = (0..cells.len()).filter_map(source_clock).collect();
    if clocks.len() < 2 {
        return Ok(Vec::new());
    }

    // The sources of each net: (name, clock), memoized; iterative, as the depth search.
    let mut memo: HashMap<u64, BTreeSet<(String, String)>> = HashMap::new();
    let sources = |root: u64, memo: &mut HashMap<u64, BTreeSet<(String, String)>>| {
        let mut stack = vec![(root, false)];
        while let Some((b, expanded)) = stack.pop() {
            if memo.contains_key(&b) {
                continue;
            }
            let Some(Driver::Cell(ci, pi, i)) = driver.get(&b).copied() else {
                memo.insert(b, BTreeSet::new());
                continue;
            };
            let c = &cells[ci];
            let ins = match c.kind {
                Kind::Comb(_) | Kind::LutMem => c.arcs(c.pins[pi].name, i).unwrap_or_default(),
                _ => vec![],
            };
            let own = match c.kind {
                Kind::Comb(_) => None,
                Kind::LutMem | Kind::Seq => source_clock(ci).map(|k| {
                    let n = if c.kind == Kind::LutMem || c.ty.starts_with("RAMB") { c.name.to_string() } else { name_of(b) };
                    (base(&n), k)
                }),
                _ => None,
            };
            if !expanded && !ins.is_empty() {
                stack.push((b, true));
                stack.extend(ins.iter().filter(|x| !memo.contains_key(x)).map(|&x| (x, false)));
                continue;
            }
            let mut set: BTreeSet<(String, String)> = own.into_iter().collect();
            for x in &ins {
                if let Some(s) = memo.get(x) {
                    set.extend(s.iter().cloned());
                }
            }
            memo.insert(b, set);
        }
    };

    let mut found: BTreeMap<(String, String), BTreeSet<(String, String)>> = BTreeMap::new();
    for c in &cells {
        let end_clock = |pin: &str| -> Option<String> {
            match c.kind {
                Kind::Seq if c.ty.starts_with("FD") => pin_clock(c, "C"),
                Kind::Seq | Kind::LutMem => pin_clock(c, ram_clock_pin(c.ty, pin)),
                _ => None,
            }
        };
        if !matches!(c.kind, Kind::Seq | Kind::LutMem) {
            continue;
        }
        let q = c.pins.iter().find(|p| !p.input).and_then(|p| p.bits.first().copied().flatten());
        let to = if c.ty.starts_with("FD") { q.map(name_of).map(|n| base(&n)) } else { None }.unwrap_or_else(|| c.name.to_string());
        for p in c.pins.iter().filter(|p| p.input && !is_clock_pin(p.name)) {
            let Some(k) = end_clock(p.name) else { continue };
            for b in p.bits.iter().flatten() {
                sources(*b, &mut memo);
                for (n, sk) in &memo[b] {
                    if *sk != k {
                        found.entry((to.clone(), k.clone())).or_default().insert((n.clone(), sk.clone()));
                    }
                }
            }
        }
    }
    Ok(found.into_iter().map(|((to, to_clock), from)| Crossing { to, to_clock, from }).collect())
}
