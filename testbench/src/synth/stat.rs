//! Cell counts: from yosys `stat` output and from the JSON netlist, which must agree, and the
//! cell-type classes the report groups them into.

use super::ToolError;
use serde_json::Value;
use std::collections::BTreeMap;

pub(super) fn is_lut(t: &str) -> bool {
    matches!(t, "LUT1" | "LUT2" | "LUT3" | "LUT4" | "LUT5" | "LUT6")
}

/// Distributed RAM (`RAM32M`, `RAM64X1D`, ..., not `RAMB*`) and SRL shift registers.
pub(super) fn is_lut_memory(t: &str) -> bool {
    (t.starts_with("RAM") && !t.starts_with("RAMB")) || t.starts_with("SRL")
}

/// Cell counts of module `top` from yosys `stat` output.
pub fn parse_stat(text: &str, top: &str) -> Result<BTreeMap<String, u64>, ToolError> {
    let err = |detail: String| ToolError::Parse { what: "yosys stat output".into(), detail };
    let header = format!("=== {top} ===");
    let mut lines = text.lines().skip_while(|l| l.trim() != header);
    if lines.next().is_none() {
        return Err(err(format!("no `{header}` section")));
    }
    let total_line = lines
        .by_ref()
        .find(|l| l.trim_start().starts_with("Number of cells:"))
        .ok_or_else(|| err("no `Number of cells:` line".into()))?;
    let total: u64 = total_line
        .split(':')
        .nth(1)
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| err(format!("bad line {total_line:?}")))?;
    let mut cells = BTreeMap::new();
    for l in lines {
        let mut words = l.split_whitespace();
        let (Some(ty), Some(n), None) = (words.next(), words.next(), words.next()) else { break };
        let Ok(n) = n.parse::<u64>() else { break };
        *cells.entry(ty.to_string()).or_insert(0) += n;
    }
    let listed: u64 = cells.values().sum();
    if listed != total {
        return Err(err(format!("{top}: cells by type add up to {listed}, not {total}")));
    }
    Ok(cells)
}

pub(super) fn top_module<'a>(netlist: &'a Value, top: &str) -> Result<&'a Value, ToolError> {
    netlist.get("modules").and_then(|m| m.get(top)).ok_or_else(|| ToolError::Parse {
        what: "yosys JSON netlist".into(),
        detail: format!("no module `{top}`"),
    })
}

pub(super) fn count_cells(netlist: &Value, top: &str) -> Result<BTreeMap<String, u64>, ToolError> {
    let mut counts = BTreeMap::new();
    if let Some(cells) = top_module(netlist, top)?.get("cells").and_then(Value::as_object) {
        for c in cells.values() {
            let ty = c.get("type").and_then(Value::as_str).unwrap_or("?");
            *counts.entry(ty.to_string()).or_insert(0) += 1;
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_parsing_and_its_cross_check() {
        let text = "\n3. Printing statistics.\n\n=== t ===\n\n   Number of wires:   5\n   Number of cells:  6\n     FDRE   2\n     LUT6   3\n     IBUF   1\n\n";
        let cells = parse_stat(text, "t").unwrap();
        assert_eq!(cells.get("LUT6"), Some(&3));
        assert_eq!(cells.len(), 3);
        assert!(parse_stat(&text.replace("cells:  6", "cells:  7"), "t").is_err());
        assert!(parse_stat(text, "other").is_err());
    }
}
