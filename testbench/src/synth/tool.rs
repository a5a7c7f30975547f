//! Errors and process plumbing shared with `lint`.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Why a yosys or Verilator run gave no report.
#[derive(Debug)]
pub enum ToolError {
    /// The binary could not be started.
    Missing {
        /// `yosys` or `verilator`.
        tool: &'static str,
        /// What was run (`$YOSYS` / `$VERILATOR` or the default name).
        binary: PathBuf,
        /// How to install it, e.g. `apt-get install yosys`.
        hint: String,
    },
    /// The tool ran and failed.
    Failed {
        tool: &'static str,
        /// How it ended, e.g. `exit status: 1`.
        status: String,
        /// The last lines of its log.
        log_tail: String,
    },
    /// The tool succeeded but its output was not what this module understands.
    Parse { what: String, detail: String },
    /// The netlist has a combinational loop, so it has no longest path. The cells
    /// of the loop, in signal order.
    CombinationalLoop { cells: Vec<String> },
    /// A file or directory operation around the run failed.
    Io { context: String, source: std::io::Error },
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Missing { tool, binary, hint } => write!(
                f,
                "{tool} not found (tried to run `{}`; set ${} to use another binary): install it with `{hint}`",
                binary.display(),
                tool.to_uppercase()
            ),
            ToolError::Failed { tool, status, log_tail } => {
                write!(f, "{tool} failed ({status}); end of its log:\n{log_tail}")
            }
            ToolError::Parse { what, detail } => write!(f, "cannot understand {what}: {detail}"),
            ToolError::CombinationalLoop { cells } => write!(
                f,
                "combinational loop through {} cells: {} -> (back to start)",
                cells.len(),
                cells.join(" -> ")
            ),
            ToolError::Io { context, source } => write!(f, "{context}: {source}"),
        }
    }
}

impl std::error::Error for ToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ToolError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub(crate) fn io_err(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> ToolError {
    let context = context.into();
    move |source| ToolError::Io { context, source }
}

/// The binary named by environment variable `var`, else `default` (from `PATH`).
pub(crate) fn tool_binary(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(default), PathBuf::from)
}

/// A spawn error: `Missing` if the binary is not there, else `Io`.
pub(crate) fn spawn_error(tool: &'static str, binary: &Path, package: &str, e: std::io::Error) -> ToolError {
    if e.kind() == std::io::ErrorKind::NotFound {
        ToolError::Missing { tool, binary: binary.to_path_buf(), hint: format!("apt-get install {package}") }
    } else {
        ToolError::Io { context: format!("cannot run `{}`", binary.display()), source: e }
    }
}

/// The last `n` lines of `text`.
pub(crate) fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A directory under [`std::env::temp_dir`] with a name no other run uses; removed
/// (with its contents) on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(prefix: &str) -> Result<TempDir, ToolError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("{prefix}-{}-{nanos}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(TempDir(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_err(format!("cannot create {}", dir.display()))(e)),
            }
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_yosys_is_reported_with_install_hint() {
        let e = spawn_error(
            "yosys",
            Path::new("/nonexistent/yosys"),
            "yosys",
            std::io::Error::from(std::io::ErrorKind::NotFound),
        );
        let text = e.to_string();
        assert!(text.contains("apt-get install yosys") && text.contains("$YOSYS"), "{text}");
    }
}
