//! Logic-level distribution and an estimated delay per path end: what Vivado's design analysis
//! gives as "logic level distribution", from yosys's netlist and a stated delay model.
//!
//! Unlike [`logic_depth`](super::logic_depth), which counts every cell as one level, this keeps
//! LUT levels, MUXF levels and carry cells apart, because they cost very different times: a LUT
//! level includes a trip through the routing, a MUXF7/8 and a CARRY8 stage are wired inside the
//! slice. Each path end (a register or RAM input, an output port) gets the path into it with the
//! largest estimated delay under [`DelayModel`]; the histogram counts ends by that path's LUT +
//! MUXF levels. The paths are found in `logic_depth`'s one walk of the netlist, beside its level
//! count (`cell_cost`, `worst`); `level_profile` sums them up per end.

use super::netlist::{Cell, Kind};

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

/// What crossing cell `c` adds to a path.
pub(super) fn cell_cost(c: &Cell, m: &DelayModel) -> PathCost {
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

impl PathCost {
    /// This path followed by `b`.
    pub(super) fn plus(self, b: PathCost) -> PathCost {
        PathCost {
            luts: self.luts + b.luts,
            muxf: self.muxf + b.muxf,
            carry: self.carry + b.carry,
            other: self.other + b.other,
            ns: self.ns + b.ns,
        }
    }
}

/// The slowest of `paths` (the first of equals; none: the empty path).
pub(super) fn worst(paths: impl Iterator<Item = PathCost>) -> PathCost {
    paths.fold(None, |w: Option<PathCost>, a| match w {
        Some(w) if w.ns >= a.ns => Some(w),
        _ => Some(a),
    })
    .unwrap_or_default()
}

/// The profile of the path ends whose worst paths into them are `ends` (without `base_ns`),
/// in `logic_depth`'s end order (which also computes them, in its one walk of the netlist).
pub(super) fn level_profile(ends: impl Iterator<Item = PathCost>, model: DelayModel, budget_ns: f64) -> LevelProfile {
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
    for (i, e) in ends.enumerate() {
        let c = e.plus(PathCost { ns: model.base_ns, ..Default::default() });
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
    p
}
