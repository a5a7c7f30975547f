//! Readable Verilog (issue 14, item 4): comments that lead from the Verilog back to the Rust.
//!
//! rust-hdl drops every comment, so a timing path reported in a 400-line `always @(*)` has
//! no landmark. This pass, run on each module after `export_fold`, adds three kinds of
//! comment and changes nothing else:
//!
//! - under the `module` line, the Rust block it was made from: `// Rust: RxPipe,
//!   hdl/src/rx/rx_pipe.rs:64`;
//! - in the register and local-signal lists, the struct's group comments (`// E0: ...`), each
//!   before the first signal of its group, with the line it is on;
//! - in the update code, the comments written at the top level of `update()` (stage headings
//!   such as `// ---- E1: decode the headers.`), each before the Verilog statement that
//!   begins the Rust statements it heads, with its line.
//!
//! Which block a module comes from is found as rust-hdl names it: a file's top is the struct
//! named like the file (or the first struct of its source with a `Logic` impl), and a
//! submodule `<parent>_<field>` is the type of the parent's field `<field>` (`_<i>` for the
//! elements of an array field). A stage comment is placed by the first signal that the one
//! Rust statement under it assigns by name (`self.x.y.next = ...` is Verilog `x_y = ...`,
//! `self.c[0]` is `c_0`), found in the Verilog at the same depth of `if`s: the anchor goes
//! before the top-level Verilog statement that holds that assignment. A comment whose
//! statement assigns nothing by name (a macro, a loop over an array), or whose statement does
//! not come after the previous anchor, is left out rather than put in the wrong place.

use crate::export::ExportError;
use std::collections::BTreeMap;
use std::path::Path;

/// A Rust struct that is a block: where it is, its fields, and its `update()`.
#[derive(Clone, Debug, Default)]
struct Block {
    /// Path from the repository root, `hdl/src/rx/rx_pipe.rs`.
    path: String,
    /// Line of `struct`.
    line: usize,
    /// Fields in order.
    fields: Vec<Field>,
    /// Group comments of the struct: first line number and text lines.
    groups: Vec<(usize, Vec<String>)>,
    /// Top-level comments of `update()`: line, text lines, and the first signal assigned by
    /// the statement they head (Verilog name, indented four spaces per level below the top
    /// of `update()`), if any.
    stages: Vec<(usize, Vec<String>, Option<String>)>,
    /// It has an `update()`: it is a block, not a plain struct.
    update: bool,
}

#[derive(Clone, Debug)]
struct Field {
    name: String,
    ty: String,
    array: bool,
    group: Option<usize>,
}

/// Every struct of the hdl sources, by name, and which block each exported module is.
pub struct Sources {
    blocks: BTreeMap<String, Block>,
    /// Module name -> struct name, filled as files are walked.
    modules: BTreeMap<String, String>,
}

impl Sources {
    /// Reads every `.rs` file under `hdl/src` (`root` is the repository root).
    pub fn load(root: &Path) -> Result<Sources, ExportError> {
        let mut files = Vec::new();
        let mut dirs = vec![root.join("hdl/src")];
        while let Some(d) = dirs.pop() {
            let rd = std::fs::read_dir(&d).map_err(|e| ExportError::Check(format!("{}: {e}", d.display())))?;
            for e in rd {
                let p = e.map_err(|e| ExportError::Check(e.to_string()))?.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    files.push(p);
                }
            }
        }
        files.sort();
        let mut blocks = BTreeMap::new();
        for p in files {
            let text = std::fs::read_to_string(&p).map_err(|e| ExportError::Check(format!("{}: {e}", p.display())))?;
            let rel = p.strip_prefix(root).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            for (name, b) in parse_file(&rel, &text) {
                blocks.entry(name).or_insert(b);
            }
        }
        Ok(Sources { blocks, modules: BTreeMap::new() })
    }

    /// Names every module below `top` (made from `source`) after its block.
    pub fn walk(&mut self, top: &str, source: &str) {
        let camel: String = top
            .split('_')
            .map(|w| {
                let mut c = w.chars();
                c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
            })
            .collect();
        let name = if self.blocks.get(&camel).is_some_and(|b| b.path == source) {
            Some(camel)
        } else {
            self.blocks.iter().find(|(_, b)| b.path == source && b.update).map(|(n, _)| n.clone())
        };
        let Some(name) = name else { return };
        let mut stack = vec![(top.to_string(), name)];
        while let Some((m, s)) = stack.pop() {
            for f in &self.blocks[&s].fields {
                if self.blocks.contains_key(&f.ty) {
                    let child = format!("{m}_{}", f.name);
                    let key = if f.array { format!("{child}_#") } else { child.clone() };
                    if !self.modules.contains_key(&key) {
                        stack.push((key.clone(), f.ty.clone()));
                    }
                }
            }
            self.modules.insert(m, s);
        }
    }

    /// The block module `name` is made from. An array element's index is `_#` in the map
    /// (`cc_hpcc_hop_4_div` is `cc_hpcc_hop_#_div`).
    fn block(&self, name: &str) -> Option<(&str, &Block)> {
        let s = self.modules.get(name).or_else(|| self.modules.get(&any_index(name)))?;
        Some((s.as_str(), &self.blocks[s]))
    }

    /// Module `text` (named `name`) with its comments from the Rust source.
    pub fn annotate(&self, name: &str, text: &str) -> String {
        let Some((sname, b)) = self.block(name) else { return text.to_string() };
        let file = b.path.rsplit('/').next().unwrap_or(&b.path);
        let lines: Vec<&str> = text.lines().collect();
        let mut out: Vec<String> = Vec::with_capacity(lines.len() + 32);
        let field_of = |sig: &str| -> Option<&Field> {
            let f = |n: &str| b.fields.iter().find(|f| f.name == n);
            f(sig).or_else(|| f(any_index(sig).strip_suffix("_#")?).filter(|f| f.array))
        };
        let mut section = "";
        let mut group_shown: Option<usize> = None;
        let mut k = 0;
        while k < lines.len() {
            let l = lines[k];
            if k == 0 && l.starts_with("module ") {
                out.push(l.to_string());
                out.push(format!("    // Rust: {sname}, {}:{}", b.path, b.line));
                k += 1;
                continue;
            }
            if let Some(s) = l.strip_prefix("    // ") {
                section = s;
                group_shown = None;
            }
            if l == "    always @(*) begin" && section == "Update code" {
                let end = (k + 1..lines.len()).find(|&j| lines[j] == "    end").unwrap_or(lines.len());
                out.push(l.to_string());
                out.extend(stage_comments(&lines[k + 1..end], &b.stages, file));
                k = end;
                continue;
            }
            // A signal of the list in hand: a register update or a local declaration.
            let sig = if section.starts_with("Registers") {
                l.trim_start().split(" <= ").next().and_then(|q| q.strip_suffix("_q"))
            } else if section == "Local signals" {
                l.trim_end_matches(';').rsplit(' ').next()
            } else {
                None
            };
            if let Some(g) = sig.and_then(field_of).and_then(|f| f.group) {
                if group_shown != Some(g) {
                    let indent = &l[..l.len() - l.trim_start().len()];
                    out.extend(comment(indent, file, &b.groups[g]));
                    group_shown = Some(g);
                }
            }
            out.push(l.to_string());
            k += 1;
        }
        let mut s = out.join("\n");
        s.push('\n');
        s
    }
}

/// `name` with every index of an array element (a `_<digits>` part) as `_#`:
/// `cc_hpcc_hop_4_div` -> `cc_hpcc_hop_#_div`, `cnt_12` -> `cnt_#`.
pub(crate) fn any_index(name: &str) -> String {
    let parts: Vec<&str> =
        name.split('_').map(|w| if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) { "#" } else { w }).collect();
    parts.join("_")
}

/// A comment block as Verilog lines, the source line on the first.
fn comment(indent: &str, file: &str, (line, text): &(usize, Vec<String>)) -> Vec<String> {
    text.iter()
        .enumerate()
        .map(|(i, t)| if i == 0 { format!("{indent}// {file}:{line}: {t}") } else { format!("{indent}// {t}") })
        .collect()
}

/// The update code `body` (the lines inside `always @(*)`) with the stage comments placed.
fn stage_comments(body: &[&str], stages: &[(usize, Vec<String>, Option<String>)], file: &str) -> Vec<String> {
    const TOP: &str = "        ";
    let top_level = |l: &str| l.starts_with(TOP) && !l[TOP.len()..].starts_with(' ');
    // rust-hdl opens with the registers' defaults (`x_d = x_q;`): no stage starts there.
    let mut cursor = 0;
    while cursor < body.len() && is_default(body[cursor]) {
        cursor += 1;
    }
    let mut at: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (line, text, sig) in stages {
        let Some(sig) = sig else { continue };
        // `sig` is indented by its depth: the Verilog assignment must sit as deep (rust-hdl
        // keeps the nesting), or it is another statement's.
        let head = format!("{TOP}{sig} = ");
        let Some(k) = (cursor..body.len()).find(|&j| body[j].starts_with(&head)) else { continue };
        let mut j = k;
        while j > 0 && !(top_level(body[j]) && !body[j][TOP.len()..].starts_with("end") && !body[j][TOP.len()..].starts_with("else")) {
            j -= 1;
        }
        if j < cursor {
            continue;
        }
        at.entry(j).or_default().extend(comment(TOP, file, &(*line, text.clone())));
        cursor = j + 1;
    }
    let mut out = Vec::with_capacity(body.len());
    for (i, l) in body.iter().enumerate() {
        if let Some(c) = at.remove(&i) {
            out.extend(c);
        }
        out.push(l.to_string());
    }
    out
}

/// `        x_d = x_q;`
fn is_default(l: &str) -> bool {
    let t = l.trim();
    t.strip_suffix("_q;")
        .and_then(|t| t.split_once("_d = "))
        .is_some_and(|(a, b)| a == b && !a.contains(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
}

/// Every struct of one file that has fields, with its update's stage comments if any.
fn parse_file(path: &str, text: &str) -> Vec<(String, Block)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<(String, Block)> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let l = lines[k];
        let Some(rest) = l.strip_prefix("pub struct ").or_else(|| l.strip_prefix("struct ")) else {
            k += 1;
            continue;
        };
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let mut b = Block { path: path.to_string(), line: k + 1, ..Block::default() };
        let mut pending: Option<(usize, Vec<String>)> = None;
        k += 1;
        while k < lines.len() && lines[k] != "}" {
            let t = lines[k];
            if let Some(c) = t.strip_prefix("    // ") {
                match &mut pending {
                    Some((_, v)) => v.push(c.to_string()),
                    None => pending = Some((k + 1, vec![c.to_string()])),
                }
            } else if let Some(f) = field(t) {
                if let Some(g) = pending.take() {
                    b.groups.push(g);
                }
                let group = b.groups.len().checked_sub(1);
                b.fields.push(Field { group, ..f });
            } else if !t.trim_start().starts_with("//") {
                pending = None;
            }
            k += 1;
        }
        if !b.fields.is_empty() {
            out.push((name, b));
        }
    }
    // `impl ... Logic for Name... {` (on one line or several), then `fn update(&mut self) {`.
    for (name, b) in out.iter_mut() {
        let Some(i) = (0..lines.len()).find(|&i| {
            if !lines[i].starts_with("impl") {
                return false;
            }
            let mut head = String::new();
            for l in &lines[i..lines.len().min(i + 4)] {
                head.push(' ');
                head.push_str(l.trim());
                if l.contains('{') {
                    break;
                }
            }
            head.find(&format!(" Logic for {name}")).is_some_and(|at| {
                let after = &head[at + " Logic for ".len() + name.len()..];
                after.starts_with([' ', '<', '{'])
            })
        }) else {
            continue;
        };
        let Some(u) = (i..lines.len()).find(|&j| lines[j].trim() == "fn update(&mut self) {") else { continue };
        let end = (u + 1..lines.len()).find(|&j| lines[j] == "    }").unwrap_or(lines.len());
        b.stages = stages(&lines, u + 1, end);
        b.update = true;
    }
    out
}

/// `    pub name: Type<..>,` -> the field.
fn field(t: &str) -> Option<Field> {
    let t = t.strip_prefix("    ")?;
    let t = t.strip_prefix("pub ").unwrap_or(t);
    let (name, ty) = t.split_once(": ")?;
    if name.is_empty() || name.contains(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        return None;
    }
    let array = ty.starts_with('[');
    let ty: String = ty.trim_start_matches('[').chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    Some(Field { name: name.to_string(), ty, array, group: None })
}

/// The comment blocks at the top level of `update()` (lines `from..to`), each with the first
/// signal the one statement under it assigns by name, indented by its depth.
fn stages(lines: &[&str], from: usize, to: usize) -> Vec<(usize, Vec<String>, Option<String>)> {
    const TOP: &str = "        // ";
    let mut out: Vec<(usize, Vec<String>, Option<String>)> = Vec::new();
    let mut k = from;
    while k < to {
        if !lines[k].starts_with(TOP) {
            k += 1;
            continue;
        }
        let line = k + 1;
        let mut text = Vec::new();
        while k < to && lines[k].starts_with(TOP) {
            text.push(lines[k][TOP.len()..].to_string());
            k += 1;
        }
        // The statement the comment heads: up to the next line that starts a top-level
        // statement or comment (eight spaces, then a letter or `//`; `} else` continues it).
        let starts = |l: &str| {
            l.strip_prefix("        ").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/'))
        };
        let first = (k..to).find(|&j| !lines[j].trim().is_empty()).unwrap_or(to);
        let next = (first + 1..to).find(|&j| starts(lines[j])).unwrap_or(to);
        // The first assignment by name, with its depth below the top level.
        let sig = lines[first..next.max(first)].iter().find_map(|l| {
            let depth = (l.len() - l.trim_start().len()).saturating_sub(8) / 4;
            assigned(l).map(|s| format!("{}{s}", "    ".repeat(depth)))
        });
        out.push((line, text, sig));
    }
    out
}

/// `self.a.b.next = ...` -> `a_b`, `self.c[2].next = ...` -> `c_2`; none for an index that
/// is not a number (a loop's).
fn assigned(l: &str) -> Option<String> {
    let t = l.trim_start().strip_prefix("self.")?;
    let (mut rest, _) = t.split_once(".next = ")?;
    let mut name = String::new();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let (idx, r) = r.split_once(']')?;
            if idx.is_empty() || !idx.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            name.push('_');
            name.push_str(idx);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('.') {
            name.push('_');
            rest = r;
        } else {
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            if end == 0 {
                return None;
            }
            name.push_str(&rest[..end]);
            rest = &rest[end..];
        }
    }
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUST: &str = "\
pub struct Top {
    /// Clock.
    pub clock: Signal<In, Clock>,
    // S1: the first stage.
    s1_x: DFF<Bits<8>>,
    s1_y: Signal<Local, Bit>,
    // S2: the second.
    s2_x: DFF<Bits<8>>,
    sub: Sub,
    subs: [Sub; 2],
}

impl Logic for Top {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s1_x, s2_x);
        // ---- S1: take the input.
        self.s1_y.next = true;
        self.s1_x.d.next = 2.into();
        // An override.
        if self.s1_y.val() {
            self.s1_x.d.next = 1.into();
        }
        // ---- S2: a macro only.
        clock!(self, clock, sub);
        // ---- S2: the register.
        self.s2_x.d.next = self.s1_x.q.val();
    }
}

pub struct Sub {
    pub a: Signal<In, Bit>,
    inner: Inner,
}

pub struct Inner {
    pub b: Signal<In, Bit>,
}
";

    const VERILOG: &str = "\
module top(clock);
    // Local signals
    reg  s1_y;

    // Registers (rust-hdl DFFs, folded by hdl/src/export_fold.rs)
    always @(posedge clock) begin
        s1_x_q <= s1_x_d;
        s2_x_q <= s2_x_d;
    end

    // Update code
    always @(*) begin
        s1_x_d = s1_x_q;
        s2_x_d = s2_x_q;
        s1_y = 1'b1;
        s1_x_d = 32'h2;
        if (s1_y) begin
            s1_x_d = 32'h1;
        end
        s2_x_d = s1_x_q;
    end
endmodule // top
";

    fn sources() -> Sources {
        let blocks = parse_file("hdl/src/top.rs", RUST).into_iter().collect();
        let mut s = Sources { blocks, modules: BTreeMap::new() };
        s.walk("top", "hdl/src/top.rs");
        s
    }

    #[test]
    fn blocks_and_submodules_are_found() {
        let s = sources();
        assert_eq!(s.block("top").map(|b| b.0), Some("Top"));
        assert_eq!(s.block("top_sub").map(|b| b.0), Some("Sub"));
        assert_eq!(s.block("top_subs_1").map(|b| b.0), Some("Sub"));
        assert_eq!(s.block("top_subs_1_inner").map(|b| b.0), Some("Inner"));
        assert!(s.block("top_other").is_none());
    }

    #[test]
    fn comments_land_before_their_statements() {
        let got = sources().annotate("top", VERILOG);
        let ours = |l: &str| l.contains("// top.rs:") || l.contains("// Rust: ");
        // Nothing but comments added.
        let rest: String = got.lines().filter(|l| !ours(l)).map(|l| format!("{l}\n")).collect();
        assert_eq!(rest, VERILOG);
        // Each comment, and the line it stands before.
        let lines: Vec<&str> = got.lines().map(str::trim).collect();
        let placed: Vec<(&str, &str)> = lines.windows(2).filter(|w| ours(w[0])).map(|w| (w[0], w[1])).collect();
        assert_eq!(
            placed,
            [
                ("// Rust: Top, hdl/src/top.rs:1", "// Local signals"),
                ("// top.rs:4: S1: the first stage.", "reg  s1_y;"),
                ("// top.rs:4: S1: the first stage.", "s1_x_q <= s1_x_d;"),
                ("// top.rs:7: S2: the second.", "s2_x_q <= s2_x_d;"),
                ("// top.rs:17: ---- S1: take the input.", "s1_y = 1'b1;"),
                ("// top.rs:20: An override.", "if (s1_y) begin"),
                ("// top.rs:26: ---- S2: the register.", "s2_x_d = s1_x_q;"),
            ]
        );
    }

    #[test]
    fn assignments_name_their_verilog_signal() {
        assert_eq!(assigned("        self.e0_keep.d.next = x;").as_deref(), Some("e0_keep_d"));
        assert_eq!(assigned("            self.c[2].next = x;").as_deref(), Some("c_2"));
        assert_eq!(assigned("self.hop[0].in_valid.next = x;").as_deref(), Some("hop_0_in_valid"));
        assert_eq!(assigned("self.hop[k].in_valid.next = x;"), None);
        assert_eq!(assigned("let x = 1;"), None);
    }

    #[test]
    fn a_module_of_no_known_block_is_unchanged() {
        assert_eq!(sources().annotate("elsewhere", VERILOG), VERILOG);
    }
}
