//! Each module body exported once (issue 13, item 7).
//!
//! rust-hdl writes a design as one file holding every submodule under a name made from its
//! path (`nic_datapath_tx_ctx_ctx`), so a top carries a renamed copy of each block it uses and
//! thousands of identical register wrappers. This pass, run over the files of rtl-out/ in
//! filelist order, keeps one definition per distinct module body:
//!
//! - a body equal to another exported file's top is that top: `nic_datapath` instantiates
//!   `tx_ctx` from `tx_ctx.v` and carries no copy of it;
//! - rust-hdl's `RAM` primitive goes to `hpcc_nic_cells.v` (first in the filelist) under a name
//!   that says its shape: `hpcc_ram_w320_d1024`. Its `DFF` is folded into the parent as a `reg`
//!   before the bodies are compared (`export_fold`), so no DFF module is left;
//! - any other body is defined once, in the earliest file (in compile order) that uses it,
//!   under its name there, and later files instantiate it by that name.
//!
//! Two bodies are the same when their text is the same once the module's own name and the
//! names of the modules it instantiates are replaced by those modules' canonical names. rust-hdl
//! writes every parameter into the text (widths, literals), so equal text is equal hardware.

use crate::export::{ExportError, Exported};
use std::collections::{BTreeMap, BTreeSet};

/// The file that holds the shared primitive cells.
pub const CELLS: &str = "hpcc_nic_cells";

/// One `module ... endmodule` of a file.
struct Module {
    file: usize,
    name: String,
    text: String,
    /// Names of the modules it instantiates (defined in the same raw file).
    children: Vec<String>,
}

/// Splits a file's text (after `finish`) into its header and its modules.
fn split(text: &str) -> Result<(String, Vec<(String, String)>, String), ExportError> {
    let mut header = String::new();
    let mut footer = String::new();
    let mut modules = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in text.lines() {
        match &mut cur {
            None => {
                if let Some(rest) = line.strip_prefix("module ") {
                    let name = rest.split('(').next().unwrap_or("").trim().to_string();
                    cur = Some((name, format!("{line}\n")));
                    // What stood between two modules was blank lines: the footer is what
                    // follows the last one.
                    footer.clear();
                } else if modules.is_empty() {
                    header.push_str(line);
                    header.push('\n');
                } else {
                    footer.push_str(line);
                    footer.push('\n');
                }
            }
            Some((name, body)) => {
                body.push_str(line);
                body.push('\n');
                if line.starts_with("endmodule") {
                    modules.push((std::mem::take(name), std::mem::take(body)));
                    cur = None;
                }
            }
        }
    }
    if let Some((name, _)) = cur {
        return Err(ExportError::Check(format!("module {name} has no endmodule")));
    }
    Ok((header, modules, footer))
}

/// Identifier tokens of `s` with their byte ranges. Comments are text, not names (a stage
/// comment may cite `cc_hop_util.rs`), except `endmodule // <name>`, which names the module.
pub(crate) fn idents(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") && !s[..i].ends_with("endmodule ") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            // `32'h1f`-style literals: an identifier right after a quote is a literal's digits.
            if start == 0 || b[start - 1] != b'\'' {
                out.push((start, i));
            }
        } else if b[i].is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// `text` with every identifier found in `map` replaced.
pub(crate) fn rename(text: &str, map: &BTreeMap<&str, String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in idents(text) {
        if let Some(to) = map.get(&text[s..e]) {
            out.push_str(&text[at..s]);
            out.push_str(to);
            at = e;
        }
    }
    out.push_str(&text[at..]);
    out
}

/// Names of the modules a module's text instantiates: lines `    <module> <instance>(`.
fn instantiated<'a>(text: &'a str, defined: &BTreeSet<&str>) -> Vec<&'a str> {
    let mut v = Vec::new();
    for line in text.lines().skip(1) {
        let mut words = line.split_whitespace();
        if let (Some(m), Some(inst)) = (words.next(), words.next()) {
            if inst.ends_with('(') && defined.contains(m) && !v.contains(&m) {
                v.push(m);
            }
        }
    }
    v
}

/// The name of a body first used as an element of a block array: rust-hdl names element i
/// of field `decay` `<parent>_decay_<i>` (and what it holds `<parent>_decay_<i>_mul`), but the
/// elements share one body, so it is named after the array: `<parent>_decay`. A name that is
/// not an element's, or whose array name rust-hdl gave another module or another body has,
/// stays.
fn array_name(name: &str, taken: &BTreeSet<String>, home: &BTreeMap<usize, (usize, String)>) -> String {
    // The element indices are the `_<digits>` parts export_source marks `_#`.
    let joined = crate::export_source::any_index(name).replace("_#", "");
    if joined == name || taken.contains(&joined) || home.values().any(|(_, n)| *n == joined) {
        name.to_string()
    } else {
        joined
    }
}

/// Stands for a module's own name in its key text.
const SELF: char = '\u{1}';
/// `REF n END` stands for the name of the module whose key is n.
const REF: char = '\u{2}';
const END: char = '\u{3}';

/// The shape (width, address bits) of a rust-hdl `RAM` body (key text), if it is one.
fn cell_shape(body: &str) -> Option<(usize, usize)> {
    let first = body.lines().next()?;
    // The declared widths, as the mask pass reads them.
    let widths = crate::export_mask::widths(body);
    let width = |port: &str| widths.get(port).copied();
    // rust-hdl's DFFs never get here: `export_fold` has folded them into their parents.
    if first
        == "module \u{1}(read_address,read_clock,read_data,write_address,write_clock,write_data,write_enable);"
    {
        let w = width("read_data")?;
        let a = width("read_address")?;
        // A RAM with initial contents is not a plain shape: keep it with its block.
        if body.contains("initial") {
            return None;
        }
        return Some((w, a));
    }
    None
}

/// Rewrites `files` (the exported files in filelist order) so that each module body is
/// defined once; returns the cells file first, then the files in their order. `needs` of each
/// file lists the files it instantiates modules from, in filelist order.
pub fn once(files: Vec<Exported>) -> Result<Vec<Exported>, ExportError> {
    // 1. Every module of every file.
    let mut mods: Vec<Module> = Vec::new();
    let mut heads = Vec::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut sources = crate::export_source::Sources::load(&root)?;
    for (fi, f) in files.iter().enumerate() {
        let (header, ms, footer) = split(&f.text)?;
        sources.walk(&f.name, &f.source);
        heads.push((header, footer));
        let defined: BTreeSet<&str> = ms.iter().map(|(n, _)| n.as_str()).collect();
        // rust-hdl's DFFs are folded into their parents (`export_fold`), so no module
        // instantiates them any more and they are not exported.
        let dffs: BTreeMap<String, crate::export_fold::DffShape> = ms
            .iter()
            .filter_map(|(n, t)| crate::export_fold::dff_shape(n, t).map(|s| (n.clone(), s)))
            .collect();
        for (name, text) in &ms {
            let text = if dffs.contains_key(name) {
                text.clone()
            } else {
                crate::export_wire::direct(&sources.annotate(name, &crate::export_fold::fold(text, &dffs)?))
            };
            let children = instantiated(&text, &defined).into_iter().map(String::from).collect();
            mods.push(Module { file: fi, name: name.clone(), text, children });
        }
        if ms.first().map(|(n, _)| n.as_str()) != Some(f.name.as_str()) {
            return Err(ExportError::Check(format!("{}.v: the first module is not {}", f.name, f.name)));
        }
    }
    let index: BTreeMap<(usize, &str), usize> =
        mods.iter().enumerate().map(|(i, m)| ((m.file, m.name.as_str()), i)).collect();

    // 2. Canonical key of every module, children first: its text with its own name as `@` and
    // its children's names as their keys' numbers.
    let mut key_of: Vec<Option<usize>> = vec![None; mods.len()];
    let mut keys: BTreeMap<String, usize> = BTreeMap::new();
    let mut key_text: Vec<String> = Vec::new();
    fn key(
        i: usize,
        mods: &[Module],
        index: &BTreeMap<(usize, &str), usize>,
        key_of: &mut Vec<Option<usize>>,
        keys: &mut BTreeMap<String, usize>,
        key_text: &mut Vec<String>,
    ) -> usize {
        if let Some(k) = key_of[i] {
            return k;
        }
        let m = &mods[i];
        let mut map: BTreeMap<&str, String> = BTreeMap::new();
        map.insert(m.name.as_str(), SELF.into());
        for c in &m.children {
            let ci = index[&(m.file, c.as_str())];
            let k = key(ci, mods, index, key_of, keys, key_text);
            map.insert(c.as_str(), format!("{REF}{k}{END}"));
        }
        let text = rename(&m.text, &map);
        let n = keys.len();
        let k = *keys.entry(text.clone()).or_insert(n);
        if k == n {
            key_text.push(text);
        }
        key_of[i] = Some(k);
        k
    }
    for i in 0..mods.len() {
        key(i, &mods, &index, &mut key_of, &mut keys, &mut key_text);
    }
    let key_of: Vec<usize> = key_of.into_iter().map(Option::unwrap).collect();

    // 3. Homes: every file's top first, then (walking each file's tree in filelist order) the
    // cells and the first user of every other body.
    let mut home: BTreeMap<usize, (usize, String)> = BTreeMap::new(); // key -> (file, name)
    for (fi, f) in files.iter().enumerate() {
        let k = key_of[index[&(fi, f.name.as_str())]];
        if let Some((other, _)) = home.insert(k, (fi, f.name.clone())) {
            return Err(ExportError::Check(format!(
                "{}.v and {}.v export the same module body",
                files[other].name,
                f.name
            )));
        }
    }
    // Every name rust-hdl gave a module: an array's name may not take one of them.
    let taken: BTreeSet<String> = mods.iter().map(|m| m.name.clone()).collect();
    let cells_file = files.len();
    let names: Vec<String> = files.iter().map(|f| f.name.clone()).collect();
    let mut order: Vec<Vec<usize>> = vec![Vec::new(); files.len() + 1]; // keys per file, in order
    let mut cell_names: BTreeMap<String, usize> = BTreeMap::new();
    for (fi, f) in files.iter().enumerate() {
        let mut stack = vec![index[&(fi, f.name.as_str())]];
        order[fi].push(key_of[stack[0]]);
        while let Some(i) = stack.pop() {
            for c in mods[i].children.iter().rev() {
                let ci = index[&(fi, c.as_str())];
                let k = key_of[ci];
                if home.contains_key(&k) {
                    continue;
                }
                if let Some((w, a)) = cell_shape(&key_text[k]) {
                    let name = crate::export_ram::name(w, a);
                    if let Some(prev) = cell_names.insert(name.clone(), k) {
                        return Err(ExportError::NameClash(format!("key {prev}"), format!("key {k}"), name));
                    }
                    home.insert(k, (cells_file, name));
                    order[cells_file].push(k);
                } else {
                    let name = array_name(&mods[ci].name, &taken, &home);
                    home.insert(k, (fi, name));
                    order[fi].push(k);
                    stack.push(ci);
                }
            }
        }
    }

    // 4. Each file's text: its modules in first-use order, names canonical.
    let mut out = Vec::new();
    let mut cells: Vec<usize> = order[cells_file].clone();
    cells.sort_by(|a, b| home[a].1.cmp(&home[b].1));
    let module_text = |k: usize| -> String {
        let mut text = String::with_capacity(key_text[k].len());
        let mut rest = key_text[k].as_str();
        while let Some(i) = rest.find([SELF, REF]) {
            text.push_str(&rest[..i]);
            if rest[i..].starts_with(SELF) {
                text.push_str(&home[&k].1);
                rest = &rest[i + 1..];
            } else {
                let j = rest[i..].find(END).unwrap() + i;
                let c: usize = rest[i + 1..j].parse().unwrap();
                text.push_str(&home[&c].1);
                rest = &rest[j + 1..];
            }
        }
        text.push_str(rest);
        text
    };
    // Files each key refers to directly.
    let refs_of = |k: usize| -> Vec<usize> {
        let t = &key_text[k];
        t.match_indices(REF)
            .map(|(i, _)| {
                let j = t[i..].find(END).unwrap() + i;
                home[&t[i + 1..j].parse::<usize>().unwrap()].0
            })
            .collect()
    };
    let mut direct: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len() + 1];
    for (fi, keys) in order.iter().enumerate() {
        for &k in keys {
            direct[fi].extend(refs_of(k).into_iter().filter(|&f| f != fi));
        }
    }
    // Every file a file needs, itself excluded, in filelist order (cells first).
    let needs_of = |fi: usize| -> Vec<String> {
        let mut all = BTreeSet::new();
        let mut todo: Vec<usize> = direct[fi].iter().copied().collect();
        while let Some(f) = todo.pop() {
            if all.insert(f) {
                todo.extend(direct[f].iter().copied());
            }
        }
        let mut v: Vec<usize> = all.into_iter().collect();
        v.sort_by_key(|&f| if f == cells_file { 0 } else { f + 1 });
        v.into_iter().map(|f| if f == cells_file { CELLS.to_string() } else { names[f].clone() }).collect()
    };
    // The instances are rewritten to one clock (`export_ram`), or to the two-clock cell where
    // their clocks differ; the cells file then holds each cell some instance uses.
    let mut files_out = Vec::new();
    let mut used = BTreeSet::new();
    for (fi, f) in files.into_iter().enumerate() {
        let body: Vec<String> = order[fi].iter().map(|&k| module_text(k)).collect();
        let needs = needs_of(fi);
        let (header, footer) = &heads[fi];
        let (text, cells_used) = crate::export_ram::one_clock(&format!("{header}{}{footer}", body.join("\n")), &f.name)?;
        used.extend(cells_used);
        files_out.push(Exported { name: f.name, source: f.source, text, needs });
    }
    let cell_text: String = cells
        .iter()
        .flat_map(|&k| {
            let (w, a) = cell_shape(&key_text[k]).expect("a cell is a RAM shape");
            let one = used.contains(&(w, a, false)).then(|| crate::export_ram::cell(w, a) + "\n");
            let two = used.contains(&(w, a, true)).then(|| crate::export_ram::cell2(w, a) + "\n");
            one.into_iter().chain(two)
        })
        .collect();
    out.push(Exported {
        name: CELLS.to_string(),
        source: "hdl/src/export_once.rs".to_string(),
        text: format!(
            "// SPDX-License-Identifier: MIT OR Apache-2.0\n\
             // Generated by `hpcc-nic export` (hdl/src/export_once.rs, export_ram.rs): rust-hdl's RAM\n\
             // primitive with one clock (two for a clock crossing), one module per shape and kind,\n\
             // shared by every file of rtl-out/.\n\
             // Do not edit.\n\
             `resetall\n`timescale 1ns / 1ps\n`default_nettype none\n\n{cell_text}`resetall\n"
        ),
        needs: vec![],
    });
    out.extend(files_out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_not_renamed_but_the_endmodule_name_is() {
        let map: BTreeMap<&str, String> = [("m", "n".to_string())].into_iter().collect();
        let text = "module m(a);\n    // from m.rs: m\n    m x(a); // m\nendmodule // m\n";
        assert_eq!(rename(text, &map), "module n(a);\n    // from m.rs: m\n    n x(a); // m\nendmodule // n\n");
    }

    #[test]
    fn an_array_element_is_named_after_its_array_unless_that_name_is_taken() {
        let taken: BTreeSet<String> = ["cc_dcqcn_decay_15", "x_hop_0", "x_hop"].iter().map(|s| s.to_string()).collect();
        let mut home = BTreeMap::new();
        assert_eq!(array_name("cc_dcqcn_decay_15", &taken, &home), "cc_dcqcn_decay");
        assert_eq!(array_name("cc_dcqcn_decay_15_mul", &taken, &home), "cc_dcqcn_decay_mul");
        assert_eq!(array_name("mul_pipe_a7_b6", &taken, &home), "mul_pipe_a7_b6");
        assert_eq!(array_name("x_hop_0", &taken, &home), "x_hop_0"); // rust-hdl named a module x_hop
        home.insert(0, (0, "cc_dcqcn_decay".to_string()));
        assert_eq!(array_name("cc_dcqcn_decay_15", &taken, &home), "cc_dcqcn_decay_15"); // another body has it
    }
}
