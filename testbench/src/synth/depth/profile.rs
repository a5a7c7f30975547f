//! Logic-level distribution and an estimated delay per path end: what Vivado's design analysis
//! gives as "logic level distribution", from yosys's netlist and a stated delay model.
//!
//! Unlike [`logic_depth`](super::logic_depth), which counts every cell as one level, this keeps
//! LUT levels, MUXF levels and carry cells apart, because they cost very different times: a LUT
//! level includes a trip through the routing, a MUXF7/8 and a CARRY8 stage are wired inside the
//! slice. Each path end (a register or RAM input, an output port) gets the path into it with the
//! largest estimated delay under [`DelayModel`]; the histogram counts ends by that path's LUT +
//! MUXF levels.

use super::netlist::{Cell, Kind};
use crate::synth::ToolError;
use std::collections::HashMap;

/// A delay per cell kind, ns, plus a fixed cost per path. An estimate for comparing paths and
/// blocks, not a timing analysis: real delays depend on placement, fan-out and the speed grade.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DelayModel {
    /// Clock-to-out of the start register plus setup at the end (and clock uncertainty).
    pub base_ns: f64,
    /// A LUT and the net into it.
    pub lut_ns: f64,
    /// A MUXF7/8/9 (dedicated, in the slice).
    pub muxf_ns: f64,
    /// One CARRY4/CARRY8 cell of a chain (the chain's entry is through a LUT, counted there).
    pub carry_ns: f64,
    /// A LUT-RAM read (address to data) and a combinational DSP (no internal register).
    pub lutram_ns: f64,
    pub dsp_ns: f64,
}

impl DelayModel {
    /// UltraScale+ at a mid speed grade, rough: about 0.45 ns per LUT level with its routing
    /// (the figure the project's timing rule uses: 4 ns at 250 MHz is 8-10 LUT levels), 0.4 ns
    /// of register overhead, cheap in-slice MUXF and carry stages, a slow combinational DSP.
    pub const ULTRASCALE_PLUS: DelayModel =
        DelayModel { base_ns: 0.4, lut_ns: 0.45, muxf_ns: 0.1, carry_ns: 0.1, lutram_ns: 0.6, dsp_ns: 2.0 };
}

/// The cells on one path, by kind, and its estimated delay.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PathCost {
    pub luts: u32,
    pub muxf: u32,
    pub carry: u32,
    /// LUT-RAM reads and combinational DSPs.
    pub other: u32,
    /// `base_ns` plus the cells' delays.
    pub ns: f64,
}

impl PathCost {
    /// LUT + MUXF levels: Vivado's "logic levels" without carry cells.
    pub fn levels(&self) -> u32 {
        self.luts + self.muxf
    }
}

/// The result of [`level_profile`].
#[derive(Debug, Clone, PartialEq)]
pub struct LevelProfile {
    pub model: DelayModel,
    /// Path ends counted (register and RAM input bits, output port bits).
    pub ends: u64,
    /// `histogram[k]`: ends whose worst path has k LUT + MUXF levels.
    pub histogram: Vec<u64>,
    /// The worst end's path, and the end (filled in by `logic_depth`, which names cells).
    pub worst: PathCost,
    pub worst_end: String,
    /// Its index in the ends given.
    pub(super) worst_index: usize,
    /// The budget the `over` count is against, ns, and the ends estimated above it.
    pub budget_ns: f64,
    pub over: u64,
}

impl LevelProfile {
    /// `levels: ends` pairs of the non-empty bins, for a one-line summary.
    pub fn histogram_text(&self) -> String {
        let v: Vec<String> = self.histogram.iter().enumerate().filter(|(_, &n)| n > 0).map(|(k, n)| format!("{k}: {n}")).collect();
        v.join(", ")
    }
}

fn cell_cost(c: &Cell, m: &DelayModel) -> PathCost {
    let t = c.ty;
    match c.kind {
        Kind::Comb(0) => PathCost::default(),
        Kind::Comb(_) if t.starts_with("MUXF") => PathCost { muxf: 1, ns: m.muxf_ns, ..Default::default() },
        Kind::Comb(_) if t.starts_with("CARRY") => PathCost { carry: 1, ns: m.carry_ns, ..Default::default() },
        Kind::Comb(_) if t.starts_with("DSP") => PathCost { other: 1, ns: m.dsp_ns, ..Default::default() },
        Kind::Comb(_) => PathCost { luts: 1, ns: m.lut_ns, ..Default::default() },
        Kind::LutMem => PathCost { other: 1, ns: m.lutram_ns, ..Default::default() },
        _ => PathCost::default(),
    }
}

fn add(a: PathCost, b: PathCost) -> PathCost {
    PathCost { luts: a.luts + b.luts, muxf: a.muxf + b.muxf, carry: a.carry + b.carry, other: a.other + b.other, ns: a.ns + b.ns }
}

/// The profile of a netlist: `ends` are the path-end nets, `fanin(net)` the cell driving a net
/// (its index) and the nets that cell output depends on, or None where a path starts.
pub(super) fn level_profile(
    cells: &[Cell],
    ends: &[u64],
    fanin: &dyn Fn(u64) -> Option<(usize, Vec<u64>)>,
    model: DelayModel,
    budget_ns: f64,
) -> Result<LevelProfile, ToolError> {
    // Arrival cost at each net (the worst path into it, without `base_ns`), post-order.
    let mut done: HashMap<u64, PathCost> = HashMap::new();
    let mut open: HashMap<u64, ()> = HashMap::new();
    for &root in ends {
        let mut stack = vec![(root, false)];
        while let Some((b, expanded)) = stack.pop() {
            if done.contains_key(&b) {
                continue;
            }
            let Some((ci, ins)) = fanin(b) else {
                done.insert(b, PathCost::default());
                continue;
            };
            if !expanded {
                open.insert(b, ());
                stack.push((b, true));
                for i in ins.into_iter().filter(|i| !done.contains_key(i)) {
                    if open.contains_key(&i) {
                        return Err(ToolError::CombinationalLoop { cells: vec![format!("net {i}")] });
                    }
                    stack.push((i, false));
                }
            } else {
                let worst = ins.iter().map(|i| done[i]).fold(None, |w: Option<PathCost>, a| match w {
                    Some(w) if w.ns >= a.ns => Some(w),
                    _ => Some(a),
                });
                open.remove(&b);
                done.insert(b, add(worst.unwrap_or_default(), cell_cost(&cells[ci], &model)));
            }
        }
    }
    let mut p = LevelProfile {
        model,
        ends: 0,
        histogram: vec![],
        worst: PathCost::default(),
        worst_end: String::new(),
        worst_index: 0,
        budget_ns,
        over: 0,
    };
    for (i, e) in ends.iter().enumerate() {
        let c = add(done[e], PathCost { ns: model.base_ns, ..Default::default() });
        let k = c.levels() as usize;
        if p.histogram.len() <= k {
            p.histogram.resize(k + 1, 0);
        }
        p.histogram[k] += 1;
        p.ends += 1;
        p.over += (c.ns > budget_ns) as u64;
        if p.ends == 1 || c.ns > p.worst.ns {
            p.worst = c;
            p.worst_index = i;
        }
    }
    Ok(p)
}
