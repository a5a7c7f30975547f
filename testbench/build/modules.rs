//! Which Verilog files to verilate: every file of rtl-out/hpcc_nic.f, then the fixtures in
//! verilog/.

use crate::deps::file_deps;
use crate::gen_rust::camel;
use std::fs;
use std::path::{Path, PathBuf};

/// One Verilog file to verilate; its top module is the file stem.
pub struct Module {
    /// Files (relative to `dir`) that define modules it instantiates, in filelist order.
    pub deps: Vec<String>,
    pub name: String,
    /// Directory verilator runs in, and the file relative to it (so that
    /// $fatal messages name `flow_sched.v:12`, not a long absolute path).
    pub dir: PathBuf,
    pub file: String,
    /// Where it comes from, for the docs: `rtl-out/...` or `testbench/verilog/...`.
    pub label: String,
}

pub fn collect_modules(manifest: &Path) -> Vec<Module> {
    let rtl = manifest.parent().unwrap().join("rtl-out");
    let list = rtl.join("hpcc_nic.f");
    let mut modules = Vec::new();
    match fs::read_to_string(&list) {
        Ok(text) => {
            println!("cargo:rerun-if-changed={}", list.display());
            let mut files = Vec::new();
            for line in text.lines().map(str::trim) {
                if line.is_empty() || line.starts_with("//") || line.starts_with('#') {
                    continue;
                }
                let path = rtl.join(line);
                if !path.is_file() {
                    panic!(
                        "{} lists {line}, but {} does not exist",
                        list.display(),
                        path.display()
                    );
                }
                println!("cargo:rerun-if-changed={}", path.display());
                files.push((line.to_string(), fs::read_to_string(&path).unwrap()));
            }
            let deps = file_deps(&files);
            for (i, (line, text)) in files.iter().enumerate() {
                let name = stem(&rtl.join(line));
                // A file without a module of its own name (the shared cells) is no model.
                if !text.contains(&format!("module {name}(")) {
                    continue;
                }
                modules.push(Module {
                    deps: deps[i].iter().map(|&d| files[d].0.clone()).collect(),
                    name,
                    dir: rtl.clone(),
                    file: line.clone(),
                    label: format!("rtl-out/{line}"),
                });
            }
        }
        // No list yet: watch the folder so that creating it triggers a rebuild
        // (a missing file would make cargo rerun this script on every build).
        Err(_) if rtl.is_dir() => println!("cargo:rerun-if-changed={}", rtl.display()),
        Err(_) => println!("cargo:rerun-if-changed={}", list.display()),
    }
    let fixtures = manifest.join("verilog");
    println!("cargo:rerun-if-changed={}", fixtures.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&fixtures)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "v"));
    files.sort();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let label = format!("testbench/verilog/{file}");
        modules.push(Module {
            deps: Vec::new(),
            name: stem(&path),
            dir: fixtures.clone(),
            file,
            label,
        });
    }
    modules
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Every model is verilated with `--prefix V<module>`; two files with the same
/// stem would give two C++ classes of the same name.
pub fn check_names(modules: &[Module]) {
    let mut prefixes = std::collections::BTreeMap::new();
    let mut structs = std::collections::BTreeMap::new();
    for m in modules {
        let ok = m
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && m.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !ok {
            panic!(
                "{}/{}: module name {:?} is not a plain identifier",
                m.dir.display(),
                m.file,
                m.name
            );
        }
        let path = m.dir.join(&m.file);
        if let Some(prev) = prefixes.insert(format!("V{}", m.name), path.clone()) {
            panic!(
                "two Verilog files would be verilated with the same --prefix V{}: {} and {}",
                m.name,
                prev.display(),
                path.display()
            );
        }
        if let Some(prev) = structs.insert(camel(&m.name), path.clone()) {
            panic!(
                "{} and {} both map to the Rust type {}: rename one module",
                prev.display(),
                path.display(),
                camel(&m.name)
            );
        }
    }
}
