//! Readable Verilog (issue 14, item 4): a submodule's input port connected to its source,
//! not to a copy of it.
//!
//! rust-hdl gives every input of every submodule a `reg` in the parent and sets it in the
//! parent's combinational block, so a signal that only passes through takes three lines and
//! a second name: `reg [11:0] axil_s_axil_awaddr;`, `axil_s_axil_awaddr = s_axil_awaddr;`
//! and `.s_axil_awaddr(axil_s_axil_awaddr)`. A reader (or a Vivado path report) has to look
//! up the copy to find the net. This pass connects the port to the source instead,
//! `.s_axil_awaddr(s_axil_awaddr)`, and deletes the copy.
//!
//! It does so only where the copy is exactly the source, so that behaviour cannot change:
//! - the copy `W` appears exactly three times in the module: its declaration, one
//!   assignment `W = S;` at the top level of an `always @(*)` block (not under an `if`), and
//!   one port connection `.p(W)`;
//! - `S` is a net the module declares with the same width as `W` (a port, a submodule's
//!   output, a register, a localparam), or a constant part select `N[lo+:n]` of one (a
//!   layout field, `.op(hdr[336+:8])`) with `n` the width of `W`;
//! - no `always @(*)` block assigns `S` (or `N`: an input port, a submodule's output, or a register
//!   written only by `<=` under the clock), so `W = S` can never see a value of `S` that a
//!   later statement changes.
//!
//! Output ports keep rust-hdl's copy (`s_axil_rdata = axil_s_axil_rdata;`). Connecting a
//! submodule's output to the port directly was tried: Verilator 5.006 then reports
//! UNOPTFLAT (a combinational loop, at the granularity of always blocks) on the ready/valid
//! pairs through result_fifo in cc_module and nic_datapath; with the copy it does not.
//!
//! Every other copy is left as rust-hdl wrote it, and so is every comment: a stage comment
//! whose Rust statements were all such copies now stands right before the next stage's (it
//! still says where the wiring is in the Rust).

use crate::export_once::idents;
use std::collections::{BTreeMap, BTreeSet};

/// The module's net names with their byte ranges: identifiers outside comments, except a
/// submodule's port names (`.p(` in a connection), which name the child's nets.
fn nets(module: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    idents(module).into_iter().filter(|&(s, _)| s == 0 || module.as_bytes()[s - 1] != b'.')
}

/// Each net name's number of uses.
fn uses(module: &str) -> BTreeMap<&str, usize> {
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for (s, e) in nets(module) {
        *uses.entry(&module[s..e]).or_default() += 1;
    }
    uses
}

/// A copy's source: the whole net `S`, or its bits `lo+:n`.
#[derive(Clone, Copy)]
struct Source<'a> {
    net: &'a str,
    /// The source text as written (`S` or `S[lo+:n]`), what the port is connected to.
    text: &'a str,
    part: Option<(usize, usize)>,
}

/// Nets some combinational block assigns (`x = ...`, `x[..] = ...`), and the top-level
/// copies `W = S;` of those blocks with their line numbers.
fn scan<'a>(lines: &[&'a str]) -> (BTreeSet<&'a str>, Vec<(usize, &'a str, Source<'a>)>) {
    let mut comb_assigned: BTreeSet<&str> = BTreeSet::new();
    let mut copies = Vec::new();
    let mut in_comb = false;
    for (i, line) in lines.iter().enumerate() {
        // A join or link of rust-hdl interfaces: one line per signal, `always @(*) W = S;`.
        if let Some(t) = line.strip_prefix("    always @(*) ").filter(|t| !t.starts_with("begin")) {
            if let Some(lhs) = assigned(t) {
                comb_assigned.insert(lhs);
            }
            if let Some(copy) = top_copy(t) {
                copies.push((i, copy.0, copy.1));
            }
            in_comb = false;
            continue;
        }
        if line.starts_with("    always @(") {
            in_comb = line.starts_with("    always @(*)");
            continue;
        }
        if line.starts_with("    end") && !line.starts_with("    endmodule") {
            in_comb = false;
        }
        if !in_comb {
            continue;
        }
        if let Some(lhs) = assigned(line) {
            comb_assigned.insert(lhs);
        }
        if let Some(copy) = line.strip_prefix("        ").and_then(top_copy) {
            copies.push((i, copy.0, copy.1));
        }
    }
    (comb_assigned, copies)
}

/// `module` (one module's text) with every submodule input that is only a copy `W = S;`
/// connected to `S`.
pub fn direct(module: &str) -> String {
    let widths = crate::export_mask::widths(module);
    let uses = uses(module);
    let lines: Vec<&str> = module.lines().collect();
    let (comb_assigned, copies) = scan(&lines);
    let connected: BTreeSet<&str> = lines.iter().filter_map(|l| connection(l)).map(|c| c.arg).collect();

    // The copies this pass removes: W -> S.
    let mut to: BTreeMap<&str, &str> = BTreeMap::new();
    let mut drop_line: BTreeSet<usize> = BTreeSet::new();
    for &(i, w, s) in &copies {
        let Some(&bits) = widths.get(w) else { continue };
        let Some(&net_bits) = widths.get(s.net) else { continue };
        let fits = match s.part {
            None => net_bits == bits,
            Some((lo, n)) => n == bits && lo + n <= net_bits,
        };
        if uses.get(w) != Some(&3) || !fits || comb_assigned.contains(s.net) || !connected.contains(w) {
            continue;
        }
        to.insert(w, s.text);
        drop_line.insert(i);
    }
    for (i, line) in lines.iter().enumerate() {
        if let Some(w) = declared(line) {
            if to.contains_key(w) {
                drop_line.insert(i);
            }
        }
    }

    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for (i, line) in lines.iter().enumerate() {
        if drop_line.contains(&i) {
            continue;
        }
        out.push(connect(line, &to));
    }
    let mut text = out.join("\n");
    if module.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// `W` and `S` of a line `W = S;` or `W = S[lo+:n];` (after its indent), `W` and `S`
/// identifiers, `lo` and `n` decimal.
fn top_copy(t: &str) -> Option<(&str, Source<'_>)> {
    let (w, s) = t.strip_suffix(';')?.split_once(" = ")?;
    if !is_ident(w) {
        return None;
    }
    if is_ident(s) {
        return Some((w, Source { net: s, text: s, part: None }));
    }
    let (net, sel) = s.strip_suffix(']')?.split_once('[')?;
    let (lo, n) = sel.split_once("+:")?;
    let number = |x: &str| (!x.is_empty() && x.bytes().all(|b| b.is_ascii_digit())).then(|| x.parse().ok()).flatten();
    (is_ident(net)).then_some(())?;
    Some((w, Source { net, text: s, part: Some((number(lo)?, number(n)?)) }))
}

fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The net a blocking assignment writes: `x = ..` or `x[..] = ..`.
fn assigned(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let rest = t[end..].trim_start();
    let rest = if rest.starts_with('[') { &rest[rest.find(']')? + 1..] } else { rest };
    (end > 0 && rest.trim_start().starts_with("= ")).then_some(&t[..end])
}

/// The net a `reg` or `wire` line declares.
fn declared(line: &str) -> Option<&str> {
    let t = line.strip_prefix("    ")?;
    let t = t.strip_prefix("reg ").or_else(|| t.strip_prefix("wire "))?.trim_start();
    let t = if t.starts_with('[') { t[t.find(']')? + 1..].trim_start() } else { t };
    let t = t.strip_suffix(';')?;
    is_ident(t).then_some(t)
}

/// A port connection line, `<indent>.port(arg)` with or without its comma.
struct Connection<'a> {
    indent: &'a str,
    port: &'a str,
    arg: &'a str,
    comma: bool,
}

fn connection(line: &str) -> Option<Connection<'_>> {
    let t = line.trim_start();
    let comma = t.ends_with(',');
    let (port, arg) = t.strip_prefix('.')?.trim_end_matches(',').split_once('(')?;
    Some(Connection { indent: &line[..line.len() - t.len()], port, arg: arg.strip_suffix(')')?, comma })
}

/// A port connection line with its copy replaced by the source.
fn connect(line: &str, to: &BTreeMap<&str, &str>) -> String {
    match connection(line).and_then(|c| to.get(c.arg).map(|s| (c, s))) {
        Some((c, s)) => format!("{}.{}({s}){}", c.indent, c.port, if c.comma { "," } else { "" }),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARENT: &str = "module p(clock,a,b,y);
    input wire  clock;
    input wire  [3:0] a;
    input wire  [7:0] b;
    output reg  [3:0] y;
    reg  [3:0] u_x;
    reg  [3:0] u_n;
    reg  [3:0] u_m;
    reg  [7:0] u_k;
    reg  u_z;
    wire  [3:0] u_y;
    reg  [3:0] t;
    c u(
        .x(u_x),
        .n(u_n),
        .m(u_m),
        .k(u_k),
        .z(u_z),
        .y(u_y)
    );
    always @(*) begin
        // p.rs:10: ---- Inputs.
        u_x = a;
        u_z = 1'b0;
        // p.rs:12: ---- Narrowing and logic.
        u_k = a;
        u_m = t;
        t = a + 4'h1;
        if (b[0]) begin
            u_n = a;
        end
        y = u_y;
    end
endmodule // p
";

    #[test]
    fn connects_exact_copies_and_keeps_the_rest() {
        let out = direct(PARENT);
        // An exact copy of an input port goes; a copy of a literal stays.
        assert!(out.contains("        .x(a),\n") && !out.contains("u_x"), "{out}");
        assert!(out.contains("        u_z = 1'b0;\n") && out.contains(".z(u_z)"), "{out}");
        // Kept: a copy under an `if`, a width change, a source set later in the block.
        for kept in ["u_n = a;", "u_k = a;", "u_m = t;", ".n(u_n)", ".k(u_k)", ".m(u_m)", "reg  [3:0] u_m;"] {
            assert!(out.contains(kept), "{kept} lost:\n{out}");
        }
        // Comments stay, also one whose statements all went.
        assert!(out.contains("---- Inputs.") && out.contains("---- Narrowing and logic."), "{out}");
        // Output ports keep their copy.
        assert!(out.contains("        y = u_y;\n") && out.contains(".y(u_y)"), "{out}");
    }

    #[test]
    fn an_interface_join_is_connected_like_a_copy() {
        // rust-hdl writes a join of two interfaces as one `always @(*)` line per signal, after
        // the update block; the exact copy goes, and the block after it is still scanned.
        let t = PARENT.replace("        u_x = a;\n", "").replace(
            "endmodule // p",
            "    always @(*) u_x = a;\n    always @(*) begin\n        u_n = b[0+:4];\n        u_n = a;\n    end\nendmodule // p",
        );
        let out = direct(&t);
        assert!(out.contains("        .x(a),\n") && !out.contains("u_x"), "{out}");
        // u_n is assigned twice in the block: kept.
        assert!(out.contains(".n(u_n)"), "{out}");
    }

    #[test]
    fn a_field_of_a_net_is_connected_where_it_fits() {
        let out = direct(&PARENT.replace("        u_x = a;", "        u_x = b[4+:4];"));
        assert!(out.contains("        .x(b[4+:4]),\n") && !out.contains("u_x"), "{out}");
        // Past the net's end, another width, or not a constant select: kept.
        for keep in ["b[6+:4]", "b[0+:2]", "b[k+:4]", "t[0+:4]"] {
            let out = direct(&PARENT.replace("        u_x = a;", &format!("        u_x = {keep};")));
            assert!(out.contains(&format!("u_x = {keep};")) && out.contains(".x(u_x),"), "{keep}:\n{out}");
        }
    }

    #[test]
    fn a_copy_read_elsewhere_stays() {
        let text = PARENT.replace("        y = u_y;", "        y = u_y | u_x;");
        let out = direct(&text);
        assert!(out.contains("u_x = a;") && out.contains(".x(u_x),"), "{out}");
    }
}
