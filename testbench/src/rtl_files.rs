//! The files of rtl-out/ a block is compiled from: the files it instantiates modules from (the
//! shared cells first), then its own, as build.rs verilates it.

use std::path::{Path, PathBuf};

#[path = "../build/deps.rs"]
mod deps;
pub use deps::file_deps;

/// The files listed in `rtl/hpcc_nic.f`, in order, with their text.
pub fn listed(rtl: &Path) -> std::io::Result<Vec<(String, String)>> {
    let list = std::fs::read_to_string(rtl.join("hpcc_nic.f"))?;
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with('#'))
        .map(|l| Ok((l.to_string(), std::fs::read_to_string(rtl.join(l))?)))
        .collect()
}

/// The paths to compile for block `name` of `rtl` (rtl-out/), in compile order.
pub fn rtl_files(rtl: &Path, name: &str) -> std::io::Result<Vec<PathBuf>> {
    let files = listed(rtl)?;
    let file = format!("{name}.v");
    let Some(i) = files.iter().position(|(f, _)| *f == file) else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{} does not list {file}", rtl.join("hpcc_nic.f").display()),
        ));
    };
    let deps = file_deps(&files);
    Ok(deps[i].iter().map(|&d| rtl.join(&files[d].0)).chain([rtl.join(file)]).collect())
}
