//! Cache keys: each model and the runtime are rebuilt only when something that goes into them
//! changes.

use crate::verilate::Verilator;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::{env, fs};

/// What every cached artefact depends on besides its own Verilog.
pub fn salt(vl: &Verilator, csrc: &Path) -> Vec<u8> {
    let mut h = Sha256::new();
    for s in crate::SOURCES {
        h.update(s);
    }
    h.update(format!(
        "{}\0{}\0{}\0",
        vl.version,
        vl.bin.display(),
        vl.root.display()
    ));
    for var in ["CXX", "CXXFLAGS", "TARGET"] {
        h.update(format!("{var}={:?}\0", env::var(var).ok()));
    }
    let mut files: Vec<PathBuf> = fs::read_dir(csrc)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        h.update(f.file_name().unwrap().as_encoded_bytes());
        h.update(fs::read(&f).unwrap());
    }
    h.finalize().to_vec()
}

/// Runs `build` unless `dir` holds the library from a build with the same key.
pub fn cached(dir: &Path, lib: &str, key: &[u8], build: impl FnOnce()) {
    let stamp = dir.join("stamp");
    let key = hex(key);
    let hit = dir.join(format!("lib{lib}.a")).is_file()
        && fs::read_to_string(&stamp).is_ok_and(|s| s == key);
    if !hit {
        let _ = fs::remove_file(&stamp);
        build();
        fs::write(&stamp, key).unwrap();
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
