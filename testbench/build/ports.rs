//! A model's ports, read from the header Verilator wrote, and their Rust names.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

pub struct Port {
    pub cname: String,
    pub rname: String,
    pub input: bool,
    pub width: usize,
    /// Storage: 8, 16, 32 or 64 bits, or 0 for a slice of u32 words.
    pub bits: usize,
}

/// Ports from the model header, e.g. `VL_IN8(&clock,0,0);` or
/// `VL_OUTW(&wide,99,0,4);`. The macro gives the storage type Verilator chose.
pub fn parse_ports(mdir: &Path, prefix: &str) -> Vec<Port> {
    let header = fs::read_to_string(mdir.join(format!("{prefix}.h"))).unwrap();
    let mut ports = Vec::new();
    for line in header.lines().map(str::trim) {
        let Some(rest) = line.strip_prefix("VL_") else {
            continue;
        };
        let Some((mac, args)) = rest.split_once("(&") else {
            continue;
        };
        let (input, size) = if let Some(s) = mac.strip_prefix("INOUT") {
            (true, s)
        } else if let Some(s) = mac.strip_prefix("IN") {
            (true, s)
        } else if let Some(s) = mac.strip_prefix("OUT") {
            (false, s)
        } else {
            continue;
        };
        let bits = match size {
            "8" => 8,
            "16" => 16,
            "" => 32,
            "64" => 64,
            "W" => 0,
            _ => panic!("{prefix}.h: unknown port macro in `{line}`"),
        };
        let args: Vec<&str> = args
            .trim_end_matches(");")
            .split(',')
            .map(str::trim)
            .collect();
        let num = |i: usize| -> i64 {
            args[i]
                .parse()
                .unwrap_or_else(|_| panic!("{prefix}.h: `{line}`"))
        };
        let width = (num(1) - num(2)).unsigned_abs() as usize + 1;
        let class = match width {
            0..=8 => 8,
            9..=16 => 16,
            17..=32 => 32,
            33..=64 => 64,
            _ => 0,
        };
        assert_eq!(class, bits, "{prefix}.h: unexpected storage for `{line}`");
        let cname = args[0].to_string();
        ports.push(Port {
            rname: rust_name(&cname),
            cname,
            input,
            width,
            bits,
        });
    }
    let mut seen = BTreeSet::new();
    for p in &ports {
        if !seen.insert(p.rname.to_lowercase()) {
            panic!("{prefix}: two ports map to the Rust name {}", p.rname);
        }
    }
    ports
}

/// Verilog port name as a Rust identifier. Verilator writes a character it
/// cannot put in C++ as `__0XX` (hex); decode those, then map what Rust cannot
/// take to `_`. Names that clash with a keyword or a wrapper method get `_port`.
fn rust_name(cname: &str) -> String {
    let b = cname.as_bytes();
    let mut s = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"__0") && i + 5 <= b.len() {
            if let Ok(c) = u8::from_str_radix(&cname[i + 3..i + 5], 16) {
                s.push(if c.is_ascii_alphanumeric() || c == b'_' {
                    c as char
                } else {
                    '_'
                });
                i += 5;
                continue;
            }
        }
        s.push(b[i] as char);
        i += 1;
    }
    const RESERVED: &[&str] = &[
        "new",
        "with_vcd",
        "eval",
        "tick",
        "cycles",
        "time_ps",
        "finished",
        "fatal",
        "flush_vcd",
        "open",
        "clean_inputs",
        "as",
        "async",
        "await",
        "box",
        "break",
        "const",
        "continue",
        "crate",
        "do",
        "dyn",
        "else",
        "enum",
        "extern",
        "false",
        "final",
        "fn",
        "for",
        "gen",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "priv",
        "pub",
        "ref",
        "return",
        "self",
        "static",
        "struct",
        "super",
        "trait",
        "true",
        "try",
        "type",
        "typeof",
        "unsafe",
        "use",
        "where",
        "while",
        "yield",
        "abstract",
        "become",
        "macro",
        "override",
        "unsized",
        "virtual",
    ];
    if RESERVED.contains(&s.as_str()) || s.ends_with("_mut") || s.starts_with("set_") {
        s.push_str("_port");
    }
    s
}

/// The probes a module's `verilog/probes/<module>.vlt` names (`-var "<name>"`), as read-only
/// ports: each is a member `<module>__DOT__<name>` of the model's root class, declared in
/// `<prefix>___024root.h` as e.g. `CData/*0:0*/ hpcc_nic_core__DOT__events_m_axis_event_tvalid;`
/// or `VlWide<16>/*511:0*/ ...`. The Rust name is `probe_<name>`.
pub fn parse_probes(mdir: &Path, prefix: &str, module: &str, vlt: Option<&str>) -> Vec<Port> {
    let Some(vlt) = vlt else {
        return Vec::new();
    };
    let root = fs::read_to_string(mdir.join(format!("{prefix}___024root.h"))).unwrap();
    let mut probes = Vec::new();
    for line in vlt.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
        let Some((_, rest)) = line.split_once("-var \"") else {
            continue;
        };
        let name = rest.split('"').next().unwrap();
        let member = format!("{module}__DOT__{name}");
        let decl = root
            .lines()
            .map(str::trim)
            .find(|l| l.ends_with(&format!(" {member};")))
            .unwrap_or_else(|| panic!("{prefix}: probe `{name}` is not a member of the root ({member})"));
        let (ty, range) = decl.split_once("/*").expect("a type with a /*hi:lo*/ range");
        let (hi, lo) = range.split("*/").next().unwrap().split_once(':').unwrap();
        let width = (hi.parse::<i64>().unwrap() - lo.parse::<i64>().unwrap()).unsigned_abs() as usize + 1;
        let bits = match ty.trim() {
            "CData" => 8,
            "SData" => 16,
            "IData" => 32,
            "QData" => 64,
            t if t.starts_with("VlWide<") => 0,
            t => panic!("{prefix}: probe `{name}` has type {t}"),
        };
        probes.push(Port { cname: format!("rootp->{member}"), rname: format!("probe_{name}"), input: false, width, bits });
    }
    probes
}
