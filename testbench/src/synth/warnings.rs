//! yosys's warnings: extracted from its log and sorted into documented known-benign classes.

use regex::Regex;
use std::sync::OnceLock;

/// A class of yosys warning that says nothing about the design.
#[derive(Debug)]
pub struct KnownWarning {
    /// Regex for the whole warning line. If it has named groups `from` and `to`
    /// (bit widths), the warning only matches when `from > to`.
    pub pattern: &'static str,
    /// Why it is harmless.
    pub reason: &'static str,
}

/// The warnings yosys 0.23's `synth_xilinx` gives on correct designs.
///
/// Anything else lands in [`SynthReport::unexplained_warnings`](super::SynthReport::unexplained_warnings), to be fixed in the
/// design or, once understood, added here with its reason. Checked against the
/// flow_sched scheduler (1024 flows, xcup), whose 103 warnings all fall in these
/// classes.
pub const KNOWN_BENIGN_WARNINGS: &[KnownWarning] = &[
    KnownWarning {
        // e.g. `Warning: Resizing cell port flow_sched.pace_ram.mem.0.0.DINADIN from 64 bits to 16 bits.`
        pattern: r"^Warning: Resizing cell port \S+\.(ADDRARDADDR|ADDRBWRADDR|WEA|WEBWE|DINADIN|DINBDIN|DINPADINP|DINPBDINP|DOUTADOUT|DOUTBDOUT|DOUTPADOUTP|DOUTPBDOUTP|DIADI|DIBDI|DIPADIP|DIPBDIP|DOADO|DOBDO|DOPADOP|DOPBDOP) from (?P<from>\d+) bits to (?P<to>\d+) bits\.$",
        reason: "block-RAM mapping: yosys's Xilinx BRAM techmap (brams_xcu_map.v etc.) wires every RAMB18/RAMB36 through one template with the family's widest ports (16-bit address, 64+8-bit data, 4-bit write enable), then trims each port to the primitive's real width; the trimmed bits are unused padding (a 114-bit x 1024 RAM uses 7 RAMB18 = 7 x 18 bits, so no data sits in them)",
    },
    KnownWarning {
        pattern: r#"^ABC: Warning: The network is combinational \(run "fraig" or "fraig_sweep"\)\.$"#,
        reason: "ABC's `scorr` step (sequential equivalence) has nothing to do because yosys hands ABC only the combinational logic between flip-flops; the message is always true and harmless",
    },
];

fn known_regexes() -> &'static [Regex] {
    static RES: OnceLock<Vec<Regex>> = OnceLock::new();
    RES.get_or_init(|| KNOWN_BENIGN_WARNINGS.iter().map(|k| Regex::new(k.pattern).expect("known-warning regex")).collect())
}

/// The known-benign class of warning line `w`, if any.
pub fn classify_warning(w: &str) -> Option<&'static KnownWarning> {
    KNOWN_BENIGN_WARNINGS.iter().zip(known_regexes()).find_map(|(k, re)| {
        let caps = re.captures(w)?;
        if let (Some(from), Some(to)) = (caps.name("from"), caps.name("to")) {
            let (from, to): (u64, u64) = (from.as_str().parse().ok()?, to.as_str().parse().ok()?);
            if from <= to {
                return None;
            }
        }
        Some(k)
    })
}

/// Distinct `Warning:` / `ABC: Warning:` lines of a yosys log, in order.
pub fn extract_warnings(log: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for l in log.lines() {
        let l = l.trim();
        if (l.starts_with("Warning:") || l.starts_with("ABC: Warning:")) && seen.insert(l) {
            out.push(l.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warning_classification() {
        let bram = "Warning: Resizing cell port flow_sched.pace_ram.mem.0.0.DINADIN from 64 bits to 16 bits.";
        assert!(classify_warning(bram).is_some());
        // Widening a port is not the BRAM template's trimming.
        assert!(classify_warning(&bram.replace("from 64 bits to 16", "from 16 bits to 64")).is_none());
        // Nor is resizing some other port.
        assert!(classify_warning("Warning: Resizing cell port t.u.A from 64 bits to 16 bits.").is_none());
        assert!(classify_warning(r#"ABC: Warning: The network is combinational (run "fraig" or "fraig_sweep")."#).is_some());
        assert!(classify_warning("Warning: Replacing memory \\mem with list of registers.").is_none());
        let log = "x\nWarning: a\n  Warning: a\nABC: Warning: b\nWarnings: 2 unique messages\n";
        assert_eq!(extract_warnings(log), vec!["Warning: a", "ABC: Warning: b"]);
    }
}
