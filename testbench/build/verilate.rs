//! Running Verilator on a module and compiling the C++ it writes, with the runtime, into
//! static libraries.

use crate::cache::cached;
use crate::gen_shim::gen_shim;
use crate::modules::Module;
use crate::ports::{parse_ports, parse_probes, Port};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

pub struct Verilator {
    pub bin: PathBuf,
    pub root: PathBuf,
    pub version: String,
}

pub fn find_verilator() -> Verilator {
    let bin = env::var_os("VERILATOR").map_or_else(|| PathBuf::from("verilator"), PathBuf::from);
    let run = |arg: &[&str]| {
        Command::new(&bin)
            .args(arg)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let Some(version) = run(&["--version"]) else {
        panic!(
            "cannot run verilator ({}): install it with `apt-get install verilator` \
             (Verilator 5), or set VERILATOR to its path",
            bin.display()
        );
    };
    if !version.starts_with("Verilator 5") {
        panic!(
            "{} is {version}; the testbench needs Verilator 5",
            bin.display()
        );
    }
    let root = match env::var_os("VERILATOR_ROOT") {
        Some(r) => PathBuf::from(r),
        None => PathBuf::from(run(&["--getenv", "VERILATOR_ROOT"]).unwrap_or_default()),
    };
    if !root.join("include/verilated.h").is_file() {
        panic!(
            "no include/verilated.h under VERILATOR_ROOT={}",
            root.display()
        );
    }
    Verilator { bin, root, version }
}

/// Flags shared by the runtime, the models and the shims: they must agree.
fn cxx(vl: &Verilator, csrc: &Path, dir: &Path) -> cc::Build {
    let inc = vl.root.join("include");
    let mut b = cc::Build::new();
    b.cpp(true)
        .std("c++17")
        .opt_level(2)
        .debug(false)
        .warnings(false)
        .flag("-w")
        .flag("-faligned-new")
        .flag("-include")
        .flag(csrc.join("hpcc_vl_user.h").to_str().unwrap())
        .include(&inc)
        .include(inc.join("vltstd"))
        .include(csrc)
        .cargo_metadata(false)
        .out_dir(dir);
    for (k, v) in [
        ("VM_COVERAGE", "0"),
        ("VM_SC", "0"),
        ("VM_TRACE", "1"),
        ("VM_TRACE_VCD", "1"),
        ("VM_TRACE_FST", "0"),
    ] {
        b.define(k, v);
    }
    for k in ["VL_USER_FINISH", "VL_USER_STOP", "VL_USER_FATAL"] {
        b.define(k, None);
    }
    b
}

pub fn build_runtime(vl: &Verilator, csrc: &Path, out: &Path, salt: &[u8]) {
    let dir = out.join("vl/_runtime");
    cached(&dir, "hpcc_vlrt", salt, || {
        fs::create_dir_all(&dir).unwrap();
        let inc = vl.root.join("include");
        cxx(vl, csrc, &dir)
            .file(inc.join("verilated.cpp"))
            .file(inc.join("verilated_vcd_c.cpp"))
            .file(inc.join("verilated_threads.cpp"))
            .file(csrc.join("hpcc_vl.cpp"))
            .compile("hpcc_vlrt");
    });
}

pub fn build_model(m: &Module, vl: &Verilator, csrc: &Path, out: &Path, salt: &[u8]) -> Vec<Port> {
    let dir = out.join("vl").join(&m.name);
    let mdir = dir.join("obj");
    let prefix = format!("V{}", m.name);
    let mut args: Vec<String> = vec!["--cc".into()];
    args.extend(m.deps.iter().cloned());
    args.extend([
        m.file.clone(),
        "--top-module".into(),
        m.name.clone(),
        "--prefix".into(),
        prefix.clone(),
        "-Mdir".into(),
        mdir.to_str().unwrap().into(),
    ]);
    // --no-timing: delays are ignored, the binding steps the clock itself.
    // The time scale is pinned so that VCD times are in ps for every model.
    let fixed = "--trace -O3 --x-assign fast --x-initial fast -Wno-fatal --no-timing \
                 --timescale 1ns/1ps --timescale-override /1ps";
    args.extend(fixed.split_whitespace().map(String::from));
    let extra = env::var("HPCC_VL_EXTRA").unwrap_or_default();
    args.extend(extra.split_whitespace().map(String::from));
    // Probes: internal signals the test bench reads (verilog/probes/<module>.vlt).
    let probe_file = csrc.parent().unwrap().join("verilog/probes").join(format!("{}.vlt", m.name));
    println!("cargo:rerun-if-changed={}", probe_file.display());
    let probe_vlt = fs::read_to_string(&probe_file).ok();
    if probe_vlt.is_some() {
        args.push(probe_file.to_str().unwrap().into());
    }

    let mut key = Sha256::new();
    key.update(salt);
    key.update(args.join("\0"));
    key.update(probe_vlt.as_deref().unwrap_or(""));
    for f in m.deps.iter().chain([&m.file]) {
        key.update(fs::read(m.dir.join(f)).unwrap());
    }
    let lib = format!("hpcc_{}", m.name);
    cached(&dir, &lib, &key.finalize(), || {
        let _ = fs::remove_dir_all(&dir); // stale generated files would be compiled too
        fs::create_dir_all(&dir).unwrap();
        let res = Command::new(&vl.bin)
            .args(&args)
            .current_dir(&m.dir)
            .output();
        let res = res.unwrap_or_else(|e| panic!("cannot run {}: {e}", vl.bin.display()));
        let log = String::from_utf8_lossy(&res.stderr).into_owned();
        fs::write(dir.join("verilator.log"), &log).unwrap();
        if !res.status.success() {
            panic!("verilator failed on {}/{}:\n{log}", m.dir.display(), m.file);
        }
        let mut ports = parse_ports(&mdir, &prefix);
        ports.extend(parse_probes(&mdir, &prefix, &m.name, probe_vlt.as_deref()));
        fs::write(mdir.join("hpcc_shim.cpp"), gen_shim(m, &ports)).unwrap();
        let mk = fs::read_to_string(mdir.join(format!("{prefix}_classes.mk"))).unwrap();
        let (fast, slow) = classes(&mk);
        // Like OPT_SLOW/OPT_FAST in verilated.mk: code run once at -O1.
        let slow_objs = cxx(vl, csrc, &dir)
            .opt_level(1)
            .files(slow.iter().map(|c| mdir.join(format!("{c}.cpp"))))
            .compile_intermediates();
        cxx(vl, csrc, &dir)
            .include(&mdir)
            .files(fast.iter().map(|c| mdir.join(format!("{c}.cpp"))))
            .file(mdir.join("hpcc_shim.cpp"))
            .objects(slow_objs)
            .compile(&lib);
    });
    let mut ports = parse_ports(&mdir, &prefix);
    ports.extend(parse_probes(&mdir, &prefix, &m.name, probe_vlt.as_deref()));
    ports
}

/// The model's C++ classes from V<m>_classes.mk, as (fast, slow).
fn classes(mk: &str) -> (Vec<String>, Vec<String>) {
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    let mut into: Option<bool> = None;
    for line in mk.lines() {
        if line.starts_with("VM_") {
            into = match line.split_whitespace().next() {
                Some("VM_CLASSES_FAST" | "VM_SUPPORT_FAST") => Some(false),
                Some("VM_CLASSES_SLOW" | "VM_SUPPORT_SLOW") => Some(true),
                _ => None,
            };
            continue;
        }
        let name = line.trim().trim_end_matches('\\').trim();
        match into {
            _ if name.is_empty() => into = None,
            Some(true) => slow.push(name.to_string()),
            Some(false) => fast.push(name.to_string()),
            None => {}
        }
    }
    (fast, slow)
}
