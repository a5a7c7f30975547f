//! rtl-out/ defines each module once (issue 13, item 7): no two modules with the same body under
//! different names, no module defined twice, tops instantiate the blocks of other files instead
//! of copying them, and the filelist works from any directory.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use testbench::rtl_files::{file_deps, listed, rtl_files};

fn rtl() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out")
}

/// (file, module name, body with its own name blanked) of every module in rtl-out/.
fn modules() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (file, text) in listed(&rtl()).unwrap() {
        let mut cur: Option<(String, String)> = None;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("module ") {
                cur = Some((rest.split('(').next().unwrap().trim().to_string(), String::new()));
            }
            if let Some((name, body)) = &mut cur {
                body.push_str(line);
                body.push('\n');
                if line.starts_with("endmodule") {
                    let blank = body.replace(&format!("module {name}("), "module (");
                    let blank = blank.replace(&format!("endmodule // {name}\n"), "endmodule\n");
                    out.push((file.clone(), name.clone(), blank));
                    cur = None;
                }
            }
        }
        assert!(cur.is_none(), "{file}: a module without endmodule");
    }
    out
}

#[test]
fn no_two_modules_share_a_body_or_a_name() {
    let mods = modules();
    assert!(mods.len() > 50, "only {} modules parsed", mods.len());
    let mut by_body: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    let mut by_name: BTreeMap<&str, &str> = BTreeMap::new();
    for (file, name, body) in &mods {
        if let Some((f, n)) = by_body.insert(body, (file, name)) {
            panic!("{f}: {n} and {file}: {name} have the same body");
        }
        if let Some(f) = by_name.insert(name, file) {
            panic!("module {name} is defined in {f} and in {file}");
        }
    }
}

#[test]
fn tops_instantiate_their_blocks_from_their_own_files() {
    let files = listed(&rtl()).unwrap();
    let deps = file_deps(&files);
    let names: Vec<&str> = files.iter().map(|(f, _)| f.as_str()).collect();
    let needs = |top: &str| -> Vec<&str> {
        let i = names.iter().position(|n| *n == format!("{top}.v")).unwrap();
        deps[i].iter().map(|&d| names[d]).collect()
    };
    for block in ["tx_ctx.v", "tx_pipe.v", "rx_pipe.v", "rx_ctx.v", "rx_dma.v", "icrc_pipe.v"] {
        assert!(needs("nic_datapath").contains(&block), "nic_datapath does not use {block}: {:?}", needs("nic_datapath"));
    }
    for block in ["cc_hpcc.v", "cc_ldcp.v", "cc_dcqcn.v", "cc_hop_util.v"] {
        assert!(needs("cc_module").contains(&block), "cc_module does not use {block}");
    }
    // Compile order: every file comes after the files it needs.
    for (i, d) in deps.iter().enumerate() {
        assert!(d.iter().all(|&j| j < i), "{} needs a file listed after it", names[i]);
    }
    // No copies left: the tops' files are a fraction of what rust-hdl writes.
    let lines = |f: &str| files.iter().find(|(n, _)| n == f).unwrap().1.lines().count();
    assert!(lines("nic_datapath.v") < 1000, "nic_datapath.v has {} lines", lines("nic_datapath.v"));
    assert!(lines("cc_module.v") < 1500, "cc_module.v has {} lines", lines("cc_module.v"));
}

#[test]
fn build_script_dependencies_equal_the_exports() {
    let exported = hdl::export::all().unwrap();
    let files = listed(&rtl()).unwrap();
    let deps = file_deps(&files);
    for m in &exported {
        let i = files.iter().position(|(f, _)| *f == format!("{}.v", m.name)).unwrap();
        let scanned: Vec<String> = deps[i].iter().map(|&d| files[d].0.trim_end_matches(".v").to_string()).collect();
        assert_eq!(scanned, m.needs, "{}", m.name);
    }
}

#[test]
fn filelist_lints_from_another_directory() {
    // -F: paths in the list are relative to the list itself.
    let list = std::path::absolute(rtl().join("hpcc_nic.f")).unwrap();
    let vlt = std::path::absolute(rtl().join("hpcc_nic.vlt")).unwrap();
    let out = std::process::Command::new(std::env::var("VERILATOR").unwrap_or("verilator".into()))
        .current_dir(std::env::temp_dir())
        .args(["--lint-only", "-Wall"])
        .arg(&vlt)
        .arg("-F")
        .arg(&list)
        .args(["--top-module", "nic_datapath"])
        .output()
        .expect("verilator");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_copy_of_rtl_out_lints_clean_under_another_name() {
    // The waivers name the exported files, not rtl-out/: copy every file into a directory of
    // another name and lint the core (every block under it) through the copy's filelist,
    // by relative paths from the directory above it.
    let base = std::env::temp_dir().join(format!("hpcc-nic-ip-copy-{}", std::process::id()));
    let ip = base.join("vendor_ip");
    std::fs::create_dir_all(&ip).unwrap();
    for e in std::fs::read_dir(rtl()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, ip.join(p.file_name().unwrap())).unwrap();
    }
    let out = std::process::Command::new(std::env::var("VERILATOR").unwrap_or("verilator".into()))
        .current_dir(&base)
        .args(["--lint-only", "-Wall", "vendor_ip/hpcc_nic.vlt", "-F", "vendor_ip/hpcc_nic.f"])
        .args(["--top-module", "hpcc_nic_core"])
        .output()
        .expect("verilator");
    std::fs::remove_dir_all(&base).ok();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn every_block_compiles_from_its_files_alone() {
    // What rtl_files gives is enough for Verilator: no module is missing.
    let rtl = rtl();
    for name in ["flow_sched", "cc_module", "nic_datapath"] {
        let files = rtl_files(&rtl, name).unwrap();
        let r = testbench::lint::lint(&files, name, Some(&rtl.join("hpcc_nic.vlt"))).expect("verilator");
        assert!(r.clean, "{}: {:#?}", r.command, r.warnings);
    }
}
