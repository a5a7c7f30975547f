//! Verilator's lint on the exported Verilog.
//!
//! [`lint`] runs `verilator --lint-only -Wall [waivers.vlt] <files> --top-module <top>`
//! (the binary is `$VERILATOR`, or `verilator` from `PATH`) in the current
//! directory and collects the first line of every `%Warning` / `%Error` message.
//!
//! The project's waiver file is `rtl-out/hpcc_nic.vlt` (written by the export from
//! `hdl/src/hpcc_nic.vlt`). Its waivers apply to the exported files by name, in any
//! directory, and to no file of another name.

pub use crate::synth::ToolError;
use crate::synth::{spawn_error, tail, tool_binary};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What Verilator's lint said about one top module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintReport {
    pub top: String,
    /// The first line of each `%Warning-...` / `%Error...` message, in order
    /// (Verilator's closing `%Error: Exiting due to N warning(s)` left out).
    pub warnings: Vec<String>,
    /// Verilator exited 0 and said nothing.
    pub clean: bool,
    /// The command line that was run.
    pub command: String,
}

/// Lint `files` with top module `top`, with the waivers of Verilator config file
/// `waivers` (a `.vlt`), if given.
///
/// Findings, including Verilator errors about the design, are a report with
/// `clean == false`; an `Err` means Verilator is missing or failed without saying
/// why.
pub fn lint(files: &[PathBuf], top: &str, waivers: Option<&Path>) -> Result<LintReport, ToolError> {
    let verilator = tool_binary("VERILATOR", "verilator");
    let mut args: Vec<String> = vec!["--lint-only".into(), "-Wall".into()];
    args.extend(waivers.map(|w| w.display().to_string()));
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.push("--top-module".into());
    args.push(top.to_string());
    let command = std::iter::once(verilator.display().to_string())
        .chain(args.iter().map(|a| shell_word(a)))
        .collect::<Vec<_>>()
        .join(" ");

    let out = Command::new(&verilator)
        .args(["--lint-only", "-Wall"])
        .args(waivers.map(Path::as_os_str))
        .args(files)
        .args(["--top-module", top])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| spawn_error("verilator", &verilator, "verilator", e))?;
    let mut text = String::from_utf8_lossy(&out.stderr).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stdout));
    let warnings = messages(&text);
    if !out.status.success() && warnings.is_empty() {
        return Err(ToolError::Failed { tool: "verilator", status: out.status.to_string(), log_tail: tail(&text, 40) });
    }
    Ok(LintReport { top: top.to_string(), clean: out.status.success() && warnings.is_empty(), warnings, command })
}

/// First lines of Verilator's `%Warning` / `%Error` messages.
pub fn messages(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|l| l.starts_with("%Warning") || l.starts_with("%Error"))
        .filter(|l| !l.starts_with("%Error: Exiting due to"))
        .map(str::to_string)
        .collect()
}

/// `s`, quoted for a POSIX shell if it needs it (for [`LintReport::command`]).
fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synth::TempDir;

    fn verilator_available(test: &str) -> bool {
        let ok = Command::new(tool_binary("VERILATOR", "verilator"))
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("SKIPPED {test}: verilator not found (apt-get install verilator, or set $VERILATOR)");
        }
        ok
    }

    /// Write `text` to `<dir>/<sub>/<module>.v`.
    fn write(dir: &TempDir, sub: &str, module: &str, text: &str) -> PathBuf {
        let d = dir.path().join(sub);
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join(format!("{module}.v"));
        std::fs::write(&f, text).unwrap();
        f
    }

    fn project_waivers() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../rtl-out/hpcc_nic.vlt")
    }

    #[test]
    fn message_first_lines_only() {
        let out = "%Warning-UNUSEDSIGNAL: a.v:1:30: Signal is not used: 'b'\n  \
                   : ... In instance t\n    1 | module\n%Error: Exiting due to 1 warning(s)\n";
        assert_eq!(messages(out), vec!["%Warning-UNUSEDSIGNAL: a.v:1:30: Signal is not used: 'b'"]);
    }

    #[test]
    fn clean_module_is_clean() {
        if !verilator_available("clean_module_is_clean") {
            return;
        }
        let dir = TempDir::new("hpcc-lint-test").unwrap();
        let f = write(
            &dir,
            ".",
            "clean_and",
            "module clean_and(input wire a, input wire b, output wire y);\n  assign y = a & b;\nendmodule\n",
        );
        let r = lint(&[f], "clean_and", None).unwrap();
        assert!(r.clean, "{r:#?}");
        assert!(r.warnings.is_empty(), "{r:#?}");
        assert!(r.command.contains("--lint-only -Wall") && r.command.ends_with("--top-module clean_and"), "{r:#?}");
    }

    #[test]
    fn unused_input_is_reported() {
        if !verilator_available("unused_input_is_reported") {
            return;
        }
        let dir = TempDir::new("hpcc-lint-test").unwrap();
        let f = write(
            &dir,
            ".",
            "unused_in",
            "module unused_in(input wire a, input wire b, output wire y);\n  assign y = a;\nendmodule\n",
        );
        let r = lint(&[f], "unused_in", None).unwrap();
        assert!(!r.clean, "{r:#?}");
        assert!(r.warnings.iter().any(|w| w.contains("UNUSED") && w.contains("'b'")), "{r:#?}");
    }

    #[test]
    fn syntax_error_is_a_finding_not_a_failure() {
        if !verilator_available("syntax_error_is_a_finding_not_a_failure") {
            return;
        }
        let dir = TempDir::new("hpcc-lint-test").unwrap();
        let f = write(&dir, ".", "broken", "module broken(input wire a;\nendmodule\n");
        let r = lint(&[f], "broken", None).unwrap();
        assert!(!r.clean && r.warnings.iter().any(|w| w.starts_with("%Error")), "{r:#?}");
    }

    /// rtl-out/hpcc_nic.vlt waives rust-hdl's idioms in the exported files only (by name,
    /// wherever they are), and only the idioms: another width mismatch there is still
    /// reported.
    #[test]
    fn project_waivers_are_narrow() {
        if !verilator_available("project_waivers_are_narrow") {
            return;
        }
        let vlt = project_waivers();
        assert!(vlt.exists(), "{} is missing", vlt.display());
        // Written the way rust-hdl writes: two modules in one file, 32'h literals,
        // bit_cast masks, replace_bit.
        let idioms = "module idioms(clock, x, k, m, r_q);\n\
                      input wire clock; input wire [3:0] x; output reg [1:0] k; output reg [15:0] m;\n\
                      output wire [7:0] r_q;\n\
                      reg [7:0] r_d;\n\
                      idioms_r r(.d(r_d), .q(r_q), .clock(clock));\n\
                      always @(*) begin\n\
                      k = 32'h1;\n\
                      if (x == 32'h0) k = 32'h2;\n\
                      m = ((x) & 16'hffff);\n\
                      r_d = (r_q & ~(1 << (32'h3)) | ((1'b0) << (32'h3)));\n\
                      end\n\
                      endmodule\n\
                      module idioms_r(d, q, clock);\n\
                      input wire [7:0] d; output reg [7:0] q; input wire clock;\n\
                      initial begin q = 8'h0; end\n\
                      always @(posedge clock) q <= d;\n\
                      endmodule\n";
        let dir = TempDir::new("hpcc-lint-test").unwrap();
        // Under an exported file's name (flow_park.v) in a directory that is not rtl-out/.
        let inside = write(&dir, "ip_copy", "flow_park", idioms);
        let outside = write(&dir, "elsewhere", "idioms", idioms);
        let r = lint(&[inside], "idioms", Some(&vlt)).unwrap();
        assert!(r.clean, "{r:#?}");
        // Same text in a file of another name: every waiver is off.
        let r = lint(&[outside], "idioms", Some(&vlt)).unwrap();
        assert!(r.warnings.iter().any(|w| w.starts_with("%Warning-DECLFILENAME")), "{r:#?}");
        assert!(r.warnings.iter().filter(|w| w.starts_with("%Warning-WIDTH")).count() >= 4, "{r:#?}");
        // A truncation that is no rust-hdl idiom, in an exported file: still reported.
        let bad = write(
            &dir,
            "ip_copy",
            "read_split",
            "module trunc(input wire [15:0] a, output wire [7:0] y);\n  assign y = a;\nendmodule\n",
        );
        let r = lint(&[bad], "trunc", Some(&vlt)).unwrap();
        assert!(r.warnings.iter().any(|w| w.starts_with("%Warning-WIDTH")), "{r:#?}");
    }

    #[test]
    fn missing_verilator_is_an_error_with_hint() {
        let e = spawn_error(
            "verilator",
            Path::new("/nonexistent/verilator"),
            "verilator",
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        assert!(e.to_string().contains("apt-get install verilator"), "{e}");
    }
}
