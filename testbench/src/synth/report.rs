//! What a synthesis run gave, and how it is shown: a Markdown table row or section.

use super::stat::{is_lut, is_lut_memory};
use super::warnings::{classify_warning, KnownWarning};
use std::collections::BTreeMap;


/// What one `synth_xilinx` run of a design gave.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthReport {
    pub top: String,
    /// `synth_xilinx -family`, e.g. `xcup` (UltraScale+) or `xc7`.
    pub family: String,
    /// `LUT1`..`LUT6` cells (logic LUTs; LUTs used as memory are in `lutram`).
    pub luts: u64,
    /// Flip-flops: every `FD*` cell (FDRE, FDSE, FDCE, FDPE, ...).
    pub ffs: u64,
    /// `RAMB36*` cells.
    pub bram36: u64,
    /// `RAMB18*` cells.
    pub bram18: u64,
    /// `DSP*` cells.
    pub dsps: u64,
    /// LUTs used as memory, counted in cells (not LUTs): distributed RAM
    /// (`RAM32M`, `RAM32M16`, `RAM64M`, `RAM32X1D`, `RAM128X1D`, `RAM256X1S`, ...)
    /// and SRL shift registers (`SRL16E`, `SRLC32E`), as Vivado's "LUT as Memory".
    pub lutram: u64,
    /// `CARRY4` / `CARRY8` cells.
    pub carry: u64,
    /// `MUXF7` / `MUXF8` / `MUXF9` cells.
    pub muxf: u64,
    /// Every cell type of the flattened top module and its count (I/O buffers included).
    pub cells: BTreeMap<String, u64>,
    /// The most logic levels between two registers (or ports); see [`logic_depth`](super::logic_depth).
    pub logic_levels: u32,
    /// One deepest path, start to end: `"<cell type> <name>"` per hop, the start
    /// register or port first and the capturing register or port last.
    pub critical_path: Vec<String>,
    /// Every path end's worst path under a delay model: levels histogram, estimate, ends over
    /// budget.
    pub profile: super::LevelProfile,
    /// Registers fed from another clock's registers (none in a one-clock design); see
    /// [`clock_crossings`](super::clock_crossings).
    pub crossings: Vec<super::Crossing>,
    /// Every distinct yosys (and ABC) `Warning:` line, first line only, in log order.
    pub warnings: Vec<String>,
    /// The `warnings` that match no [`KNOWN_BENIGN_WARNINGS`](super::KNOWN_BENIGN_WARNINGS) entry, plus a note for
    /// each cell type the depth search did not model (it treats those as registers).
    pub unexplained_warnings: Vec<String>,
    /// Wall-clock time of the yosys run.
    pub seconds: f64,
    /// `yosys -V`, if it answered.
    pub yosys_version: Option<String>,
    /// A command line that reproduces the run (with the files as given).
    pub command: String,
}

impl SynthReport {
    /// The header of [`SynthReport::table_row`]'s Markdown table (two lines).
    pub fn table_header() -> String {
        "| top | family | LUT | FF | RAMB36 | RAMB18 | DSP | LUTRAM | CARRY | MUXF | levels | LUT+MUXF levels | est. ns | ends > 4 ns | yosys s |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            .to_string()
    }

    /// One Markdown table row of the counts (header: [`SynthReport::table_header`]).
    pub fn table_row(&self) -> String {
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {} | {:.1} |",
            self.top,
            self.family,
            self.luts,
            self.ffs,
            self.bram36,
            self.bram18,
            self.dsps,
            self.lutram,
            self.carry,
            self.muxf,
            self.logic_levels,
            self.profile.histogram.len().saturating_sub(1),
            self.profile.worst.ns,
            self.profile.over,
            self.seconds
        )
    }

    /// A Markdown section: the counts, the critical path, the warnings, and the
    /// command that produced it.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("#### `{}` on {} (yosys synth_xilinx)\n\n", self.top, self.family));
        s.push_str(&Self::table_header());
        s.push('\n');
        s.push_str(&self.table_row());
        s.push_str("\n\n");
        let other: Vec<String> = self
            .cells
            .iter()
            .filter(|(t, _)| {
                !(is_lut(t)
                    || t.starts_with("FD")
                    || t.starts_with("RAMB")
                    || t.starts_with("DSP")
                    || is_lut_memory(t)
                    || matches!(t.as_str(), "CARRY4" | "CARRY8" | "MUXF7" | "MUXF8" | "MUXF9"))
            })
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let by_type = |pred: &dyn Fn(&str) -> bool| -> String {
            self.cells.iter().filter(|(t, _)| pred(t)).map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>().join(", ")
        };
        s.push_str(&format!("- LUTs by size: {}\n", by_type(&|t| is_lut(t))));
        if self.lutram > 0 {
            s.push_str(&format!("- LUT memories (cells): {}\n", by_type(&|t| is_lut_memory(t))));
        }
        if !other.is_empty() {
            s.push_str(&format!("- other cells: {}\n", other.join(", ")));
        }
        if self.critical_path.is_empty() {
            s.push_str("- logic depth: no register-to-register path\n");
        } else {
            let first = &self.critical_path[0];
            let last = &self.critical_path[self.critical_path.len() - 1];
            // Levels on the path by cell type, and the path with repeated hops
            // (carry chains) folded.
            let mut by_ty: BTreeMap<&str, usize> = BTreeMap::new();
            for h in &self.critical_path[1..self.critical_path.len() - 1] {
                *by_ty.entry(h.split(' ').next().unwrap_or(h)).or_default() += 1;
            }
            let mix: Vec<String> = by_ty.iter().map(|(t, n)| format!("{n} {t}")).collect();
            s.push_str(&format!(
                "- logic depth: {} levels (each LUT, MUXF, CARRY and combinational DSP cell is one), from `{first}` to `{last}`; \
                 cells on the path: {}\n",
                self.logic_levels,
                mix.join(", ")
            ));
            let mut folded: Vec<(String, usize)> = Vec::new();
            for h in &self.critical_path {
                match folded.last_mut() {
                    Some((last, n)) if last == h => *n += 1,
                    _ => folded.push((h.clone(), 1)),
                }
            }
            let hops: Vec<String> = folded
                .into_iter()
                .map(|(h, n)| if n == 1 { format!("`{h}`") } else { format!("`{h}` ×{n}") })
                .collect();
            s.push_str(&format!("  {}\n", hops.join(" → ")));
        }
        let p = &self.profile;
        let m = p.model;
        s.push_str(&format!(
            "- logic levels (LUT + MUXF, carry cells apart) of each path end's worst path, ends per level: {}\n\
             - estimated delay (base {} ns, LUT {} ns, MUXF {} ns, carry cell {} ns, LUT-RAM read {} ns, combinational DSP {} ns): \
             worst {:.2} ns ({} LUT, {} MUXF, {} carry, {} other) into `{}`; {} of {} ends over {} ns\n",
            p.histogram_text(), m.base_ns, m.lut_ns, m.muxf_ns, m.carry_ns, m.lutram_ns, m.dsp_ns,
            p.worst.ns, p.worst.luts, p.worst.muxf, p.worst.carry, p.worst.other, p.worst_end, p.over, p.ends, p.budget_ns
        ));
        if !self.crossings.is_empty() {
            s.push_str(&format!("- clock crossings: {} registers take data from another clock
", self.crossings.len()));
            for c in &self.crossings {
                let from: Vec<String> = c.from.iter().map(|(n, k)| format!("`{n}` ({k})")).collect();
                s.push_str(&format!("  - `{}` ({}) from {}\n", c.to, c.to_clock, from.join(", ")));
            }
        }
        let mut classes: Vec<(&KnownWarning, usize)> = Vec::new();
        for w in &self.warnings {
            if let Some(k) = classify_warning(w) {
                match classes.iter_mut().find(|(c, _)| std::ptr::eq(*c, k)) {
                    Some((_, n)) => *n += 1,
                    None => classes.push((k, 1)),
                }
            }
        }
        s.push_str(&format!(
            "- yosys warnings: {} distinct, {} unexplained\n",
            self.warnings.len(),
            self.unexplained_warnings.len()
        ));
        for (k, n) in classes {
            s.push_str(&format!("  - {n} known benign: {}\n", k.reason));
        }
        for w in &self.unexplained_warnings {
            s.push_str(&format!("  - **unexplained**: `{w}`\n"));
        }
        s.push_str(&format!(
            "- produced by: `{}`{} in {:.1} s\n",
            self.command,
            self.yosys_version.as_deref().map(|v| format!(" ({v})")).unwrap_or_default(),
            self.seconds
        ));
        s
    }
}
