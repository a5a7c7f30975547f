//! Names for the hops of a critical path: the public names of each net bit, and short forms of
//! yosys's internal cell names and `src` locations.

use super::netlist::net_bit;
use serde_json::Value;
use std::collections::HashMap;

/// Public names of each net bit, best first: top-level names (no '.') before
/// names inside flattened submodules, then shorter ones.
pub(super) fn aliases(module: &Value) -> HashMap<u64, Vec<String>> {
    let mut aliases: HashMap<u64, Vec<String>> = HashMap::new();
    if let Some(nets) = module.get("netnames").and_then(Value::as_object) {
        for (name, n) in nets {
            if n.get("hide_name").and_then(Value::as_u64).unwrap_or(0) != 0 || name.starts_with('$') {
                continue;
            }
            let bits = n.get("bits").and_then(Value::as_array).map_or(&[][..], |v| v.as_slice());
            let offset = n.get("offset").and_then(Value::as_i64).unwrap_or(0);
            let upto = n.get("upto").and_then(Value::as_u64).unwrap_or(0) != 0;
            for (i, b) in bits.iter().enumerate() {
                let Some(b) = net_bit(b) else { continue };
                let full = if bits.len() == 1 {
                    name.clone()
                } else {
                    let idx = if upto { offset + (bits.len() - 1 - i) as i64 } else { offset + i as i64 };
                    format!("{name}[{idx}]")
                };
                aliases.entry(b).or_default().push(full);
            }
        }
    }
    for v in aliases.values_mut() {
        v.sort_by(|a, b| (a.contains('.'), a.len(), a).cmp(&(b.contains('.'), b.len(), b)));
    }
    aliases
}

/// `$abc$11515$auto$blifparse.cc:525:parse_blif$11517.genblk1...` -> `$11517`.
pub(super) fn short_internal_name(name: &str) -> String {
    match name.rfind('$') {
        Some(i) => {
            let id: String = name[i + 1..].chars().take_while(char::is_ascii_digit).collect();
            if id.is_empty() { name.to_string() } else { format!("${id}") }
        }
        None => name.to_string(),
    }
}

/// The first location of a yosys `src` attribute that is not in yosys's own
/// techmap files: `/tmp/flow_sched.v:635.31-635.77|.../arith_map.v:186.1-...` ->
/// `flow_sched.v:635.31`.
pub(super) fn design_src(src: &str) -> Option<String> {
    src.split('|').find(|part| !part.contains("/share/yosys/") && !part.contains("techlibs/")).map(|part| {
        let (file, pos) = part.rsplit_once(':').unwrap_or((part, ""));
        let pos = pos.split('-').next().unwrap_or(pos);
        let base = file.rsplit('/').next().unwrap_or(file);
        if pos.is_empty() { base.to_string() } else { format!("{base}:{pos}") }
    })
}
