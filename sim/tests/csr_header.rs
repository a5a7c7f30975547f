//! rtl-out/hpcc_nic_regs.h compiled by the C compiler (`$CC`, else `cc`): a program that
//! includes it prints every macro the tables define, and each must have the table's value.

use sim::csr_header::{c_header, macros};
use std::process::Command;

#[test]
fn the_header_compiles_and_every_macro_has_the_tables_value() {
    let dir = std::env::temp_dir().join(format!("hpcc-nic-regs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("hpcc_nic_regs.h"), c_header()).unwrap();
    let m = macros();
    let mut c = String::from("#include <stdio.h>\n#include \"hpcc_nic_regs.h\"\n#include \"hpcc_nic_regs.h\"\nint main(void) {\n");
    for (name, _, _) in &m {
        c += &format!("    printf(\"%s %llu\\n\", \"{name}\", (unsigned long long)({name}));\n");
    }
    c += "    return 0;\n}\n";
    std::fs::write(dir.join("t.c"), c).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = Command::new(&cc)
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-o"])
        .arg(dir.join("t"))
        .arg(dir.join("t.c"))
        .output()
        .unwrap_or_else(|e| panic!("{cc}: {e} (a C compiler is needed for this test)"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(dir.join("t")).output().unwrap();
    let text = String::from_utf8(run.stdout).unwrap();
    let got: Vec<(String, u64)> = text.lines().map(|l| {
        let (n, v) = l.split_once(' ').unwrap();
        (n.to_string(), v.parse().unwrap())
    }).collect();
    let want: Vec<(String, u64)> = m.into_iter().map(|(n, v, _)| (n, v)).collect();
    assert_eq!(got, want);
    // What rtl-out/ holds is this text (hdl's export writes it; `regress` checks it is fresh).
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../rtl-out/hpcc_nic_regs.h")).unwrap();
    assert_eq!(committed, c_header(), "rtl-out/hpcc_nic_regs.h is stale: run the export");
    let _ = std::fs::remove_dir_all(&dir);
}
