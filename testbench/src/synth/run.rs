//! Running yosys: the script, the process, and the report assembled from its outputs.

use super::depth::{clock_crossings, logic_depth};
use super::stat::{count_cells, is_lut, is_lut_memory, parse_stat};
use super::warnings::{classify_warning, extract_warnings};
use super::{io_err, spawn_error, tail, tool_binary, SynthReport, TempDir, ToolError};
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Lines of a tool's log kept in [`ToolError::Failed`].
const LOG_TAIL_LINES: usize = 40;

/// `yosys -V` (e.g. `Yosys 0.23 (git sha1 7ce5011c24b)`), or `None` if yosys cannot run.
pub fn yosys_version() -> Option<String> {
    let out = Command::new(tool_binary("YOSYS", "yosys")).arg("-V").stdin(Stdio::null()).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (!v.is_empty()).then_some(v)
}

/// yosys script arguments are words; reject anything that could break out of one.
fn check_word(what: &str, s: &str) -> Result<(), ToolError> {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$') {
        Ok(())
    } else {
        Err(ToolError::Parse { what: format!("synth {what}"), detail: format!("{s:?} is not a plain identifier") })
    }
}

/// Synthesize `files` with `synth_xilinx -flatten -family <family> -top <top>`.
///
/// Errors: yosys missing, yosys failing (with the end of its log), an output
/// that cannot be parsed, or a combinational loop in the result.
pub fn synth(files: &[PathBuf], top: &str, family: &str) -> Result<SynthReport, ToolError> {
    check_word("top", top)?;
    check_word("family", family)?;
    if files.is_empty() {
        return Err(ToolError::Parse { what: "synth files".into(), detail: "no Verilog files given".into() });
    }
    let yosys = tool_binary("YOSYS", "yosys");
    let tmp = TempDir::new("hpcc-synth")?;

    // yosys runs in the temporary directory, so inputs are made absolute; outputs
    // are relative names there (`tee -o` does not take quoted paths).
    let mut script = String::new();
    for f in files {
        let abs = std::path::absolute(f).map_err(io_err(format!("cannot resolve {}", f.display())))?;
        let s = abs.to_str().ok_or_else(|| ToolError::Parse {
            what: "synth files".into(),
            detail: format!("{} is not UTF-8", abs.display()),
        })?;
        if s.contains('"') || s.contains('\n') {
            return Err(ToolError::Parse { what: "synth files".into(), detail: format!("unusable path {s:?}") });
        }
        script.push_str(&format!("read_verilog \"{s}\"\n"));
    }
    let synth_cmd = format!("synth_xilinx -flatten -family {family} -top {top}");
    script.push_str(&format!("{synth_cmd}\ntee -o stat.txt stat\nwrite_json net.json\n"));
    let script_path = tmp.path().join("synth.ys");
    std::fs::write(&script_path, &script).map_err(io_err(format!("cannot write {}", script_path.display())))?;

    let start = Instant::now();
    let out = Command::new(&yosys)
        .current_dir(tmp.path())
        .args(["-q", "-l", "yosys.log", "-s", "synth.ys"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| spawn_error("yosys", &yosys, "yosys", e))?;
    let seconds = start.elapsed().as_secs_f64();
    let log = std::fs::read_to_string(tmp.path().join("yosys.log")).unwrap_or_default();
    if !out.status.success() {
        let mut text = log;
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        return Err(ToolError::Failed {
            tool: "yosys",
            status: out.status.to_string(),
            log_tail: tail(&text, LOG_TAIL_LINES),
        });
    }
    let read = |name: &str| {
        let p = tmp.path().join(name);
        std::fs::read_to_string(&p).map_err(io_err(format!("yosys wrote no {}", p.display())))
    };
    let stat = read("stat.txt")?;
    let json = read("net.json")?;
    let netlist: Value = serde_json::from_str(&json)
        .map_err(|e| ToolError::Parse { what: "yosys write_json output".into(), detail: e.to_string() })?;
    drop(json);

    let cells = parse_stat(&stat, top)?;
    let json_cells = count_cells(&netlist, top)?;
    if cells != json_cells {
        return Err(ToolError::Parse {
            what: "yosys stat output".into(),
            detail: format!("cell counts {cells:?} disagree with the JSON netlist's {json_cells:?}"),
        });
    }
    let depth = logic_depth(&netlist, top)?;
    let crossings = clock_crossings(&netlist, top)?;

    let warnings = extract_warnings(&log);
    let mut unexplained: Vec<String> =
        warnings.iter().filter(|w| classify_warning(w).is_none()).cloned().collect();
    for ty in &depth.unmodelled {
        unexplained.push(format!(
            "logic depth: cell type {ty} is not modelled; its pins were treated as register boundaries"
        ));
    }

    let files_shown: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let command = format!(
        "{} -p \"read_verilog {}; {synth_cmd}; tee -o stat.txt stat; write_json net.json\"",
        yosys.display(),
        files_shown.join(" ")
    );
    let sum = |pred: &dyn Fn(&str) -> bool| cells.iter().filter(|(t, _)| pred(t)).map(|(_, n)| n).sum::<u64>();
    Ok(SynthReport {
        top: top.to_string(),
        family: family.to_string(),
        luts: sum(&|t| is_lut(t)),
        ffs: sum(&|t| t.starts_with("FD")),
        bram36: sum(&|t| t.starts_with("RAMB36")),
        bram18: sum(&|t| t.starts_with("RAMB18")),
        dsps: sum(&|t| t.starts_with("DSP")),
        lutram: sum(&|t| is_lut_memory(t)),
        carry: sum(&|t| t == "CARRY4" || t == "CARRY8"),
        muxf: sum(&|t| matches!(t, "MUXF7" | "MUXF8" | "MUXF9")),
        cells,
        logic_levels: depth.levels,
        critical_path: depth.path,
        profile: depth.profile,
        crossings,
        warnings,
        unexplained_warnings: unexplained,
        seconds,
        yosys_version: yosys_version(),
        command,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yosys_available(test: &str) -> bool {
        if yosys_version().is_some() {
            return true;
        }
        eprintln!("SKIPPED {test}: yosys not found (apt-get install yosys, or set $YOSYS)");
        false
    }

    fn write_design(name: &str, text: &str) -> (TempDir, PathBuf) {
        let dir = TempDir::new("hpcc-synth-test").unwrap();
        let f = dir.path().join(format!("{name}.v"));
        std::fs::write(&f, text).unwrap();
        (dir, f)
    }

    #[test]
    fn bad_arguments_are_refused_before_running() {
        let f = vec![PathBuf::from("x.v")];
        assert!(matches!(synth(&f, "top; shell rm", "xcup"), Err(ToolError::Parse { .. })));
        assert!(matches!(synth(&f, "top", "xcup\nstat"), Err(ToolError::Parse { .. })));
    }

    // ---- real yosys runs (a few seconds each).

    #[test]
    fn yosys_registered_adder_has_carry_levels() {
        if !yosys_available("yosys_registered_adder_has_carry_levels") {
            return;
        }
        let (_dir, f) = write_design(
            "add32",
            "module add32(input wire clk, input wire [31:0] a, input wire [31:0] b, output reg [31:0] s);\n\
             reg [31:0] ra, rb;\n\
             always @(posedge clk) begin ra <= a; rb <= b; s <= ra + rb; end\n\
             endmodule\n",
        );
        let r = synth(&[f], "add32", "xcup").unwrap();
        assert_eq!(r.ffs, 96, "{r:#?}");
        assert_eq!(r.carry, 8, "{r:#?}");
        // The 32-bit sum ripples through all 8 CARRY4s after the LUT that makes S.
        assert!(r.logic_levels >= 8, "{r:#?}");
        assert!(r.critical_path.iter().filter(|h| h.starts_with("CARRY4")).count() >= 2, "{r:#?}");
        assert!(r.critical_path.first().unwrap().starts_with("FDRE"), "{r:#?}");
        assert!(r.critical_path.last().unwrap().starts_with("FDRE"), "{r:#?}");
        assert!(r.unexplained_warnings.is_empty(), "{r:#?}");
        assert!(r.table_row().starts_with("| add32 | xcup |"));
        assert!(r.markdown().contains("synth_xilinx -flatten -family xcup -top add32"));
    }

    #[test]
    fn yosys_register_to_register_is_depth_zero() {
        if !yosys_available("yosys_register_to_register_is_depth_zero") {
            return;
        }
        let (_dir, f) = write_design(
            "pipe",
            "module pipe(input wire clk, input wire [7:0] a, output reg [7:0] y);\n\
             reg [7:0] r;\n\
             always @(posedge clk) begin r <= a; y <= r; end\n\
             endmodule\n",
        );
        let r = synth(&[f], "pipe", "xcup").unwrap();
        assert_eq!((r.ffs, r.luts, r.logic_levels), (16, 0, 0), "{r:#?}");
    }

    #[test]
    fn yosys_lists_a_register_fed_from_another_clock() {
        if !yosys_available("yosys_lists_a_register_fed_from_another_clock") {
            return;
        }
        // rb samples ra (another clock) through logic: a crossing; ra2 samples ra on its own
        // clock: none.
        let (_dir, f) = write_design(
            "two",
            "module two(input wire clk_a, input wire clk_b, input wire [3:0] x, output reg [3:0] ra2, output reg [3:0] rb);\n\
             reg [3:0] ra;\n\
             always @(posedge clk_a) begin ra <= x; ra2 <= ra; end\n\
             always @(posedge clk_b) rb <= ra ^ x;\n\
             endmodule\n",
        );
        let r = synth(&[f], "two", "xcup").unwrap();
        assert_eq!(r.crossings.len(), 1, "{:#?}", r.crossings);
        let c = &r.crossings[0];
        assert_eq!((c.to.as_str(), c.to_clock.as_str()), ("rb", "clk_b"), "{c:?}");
        assert_eq!(c.from.iter().map(|(n, k)| (n.as_str(), k.as_str())).collect::<Vec<_>>(), [("ra", "clk_a")], "{c:?}");
        assert!(r.markdown().contains("clock crossings: 1 registers"), "{}", r.markdown());
    }

    #[test]
    fn yosys_failure_carries_log_tail() {
        if !yosys_available("yosys_failure_carries_log_tail") {
            return;
        }
        let (_dir, f) = write_design("broken", "module broken(input wire a; endmodule\n");
        match synth(&[f], "broken", "xcup") {
            Err(ToolError::Failed { tool: "yosys", log_tail, .. }) => {
                assert!(log_tail.contains("ERROR"), "{log_tail}");
            }
            other => panic!("want Failed, got {other:?}"),
        }
    }
}
