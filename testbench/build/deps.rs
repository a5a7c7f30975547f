//! Which files of rtl-out/ a file needs: shared by build.rs (what to verilate with each model)
//! and the testbench's export tests (which check it against hdl::export's own `needs`).

/// For each file, the other files whose modules it instantiates, directly or not, in list
/// order. An instantiation is a line `<module> <instance>(` naming a module defined in another
/// file (hdl/src/export_once.rs writes them so; hpcc-nic's tests check the two agree).
pub fn file_deps(files: &[(String, String)]) -> Vec<Vec<usize>> {
    let mut home = std::collections::BTreeMap::new();
    for (i, (_, text)) in files.iter().enumerate() {
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("module ") {
                home.insert(rest.split('(').next().unwrap_or("").trim().to_string(), i);
            }
        }
    }
    let direct: Vec<Vec<usize>> = files
        .iter()
        .enumerate()
        .map(|(i, (_, text))| {
            let mut d: Vec<usize> = text
                .lines()
                .filter_map(|line| {
                    let mut w = line.split_whitespace();
                    let (m, inst) = (w.next()?, w.next()?);
                    let f = *home.get(m)?;
                    (inst.ends_with('(') && f != i).then_some(f)
                })
                .collect();
            d.sort_unstable();
            d.dedup();
            d
        })
        .collect();
    (0..files.len())
        .map(|i| {
            let mut all = std::collections::BTreeSet::new();
            let mut todo = direct[i].clone();
            while let Some(f) = todo.pop() {
                if all.insert(f) {
                    todo.extend(direct[f].iter().copied());
                }
            }
            all.into_iter().collect()
        })
        .collect()
}
