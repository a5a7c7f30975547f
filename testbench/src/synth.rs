//! Synthesis figures from yosys's `synth_xilinx`: resource counts, logic depth and
//! a review of yosys's warnings.
//!
//! [`synth`] runs yosys non-interactively on a set of Verilog files:
//!
//! ```text
//! read_verilog <file>...
//! synth_xilinx -flatten -family <family> -top <top>
//! tee -o stat.txt stat
//! write_json net.json
//! ```
//!
//! in a private temporary directory (removed afterwards), then
//!
//! * counts cells by type from `stat` (cross-checked against the JSON netlist) and
//!   groups them into LUTs, flip-flops, block RAMs, DSPs, LUT memories, carry
//!   cells and wide muxes ([`SynthReport`]);
//! * measures the logic depth of the mapped netlist with its own longest-path
//!   search ([`logic_depth`]): yosys's `ltp` cannot be used after
//!   `synth_xilinx`, as it does not know that `FDRE` or `RAMB36E2` are registers;
//! * collects every yosys `Warning:` line and sorts each into a documented
//!   known-benign class ([`KNOWN_BENIGN_WARNINGS`]) or `unexplained_warnings`.
//!
//! The depth is a count of logic levels, not a timing analysis: no yosys flow gives
//! placed-and-routed delays. See [`logic_depth`] for exactly what is counted.
//!
//! The binary is `$YOSYS`, or `yosys` from `PATH`.

use regex::Regex;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Lines of a tool's log kept in [`ToolError::Failed`].
const LOG_TAIL_LINES: usize = 40;

// ---------------------------------------------------------------------------
// Errors and process plumbing shared with `lint`.
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// The report.
// ---------------------------------------------------------------------------

/// What one `synth_xilinx` run of a design gave.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthReport {
    pub top: String,
    /// `synth_xilinx -family`, e.g. `xcup` (UltraScale+) or `xc7`.
    pub family: String,
    /// `LUT1`..`LUT6` cells (logic LUTs; LUTs used as memory are in `lutram`).
    pub luts: u64,
    /// Flip-flops: every `FD*` cell (FDRE, FDSE, FDCE, FDPE, ...).
    pub ffs: u64,
    /// `RAMB36*` cells.
    pub bram36: u64,
    /// `RAMB18*` cells.
    pub bram18: u64,
    /// `DSP*` cells.
    pub dsps: u64,
    /// LUTs used as memory, counted in cells (not LUTs): distributed RAM
    /// (`RAM32M`, `RAM32M16`, `RAM64M`, `RAM32X1D`, `RAM128X1D`, `RAM256X1S`, ...)
    /// and SRL shift registers (`SRL16E`, `SRLC32E`), as Vivado's "LUT as Memory".
    pub lutram: u64,
    /// `CARRY4` / `CARRY8` cells.
    pub carry: u64,
    /// `MUXF7` / `MUXF8` / `MUXF9` cells.
    pub muxf: u64,
    /// Every cell type of the flattened top module and its count (I/O buffers included).
    pub cells: BTreeMap<String, u64>,
    /// The most logic levels between two registers (or ports); see [`logic_depth`].
    pub logic_levels: u32,
    /// One deepest path, start to end: `"<cell type> <name>"` per hop, the start
    /// register or port first and the capturing register or port last.
    pub critical_path: Vec<String>,
    /// Every distinct yosys (and ABC) `Warning:` line, first line only, in log order.
    pub warnings: Vec<String>,
    /// The `warnings` that match no [`KNOWN_BENIGN_WARNINGS`] entry, plus a note for
    /// each cell type the depth search did not model (it treats those as registers).
    pub unexplained_warnings: Vec<String>,
    /// Wall-clock time of the yosys run.
    pub seconds: f64,
    /// `yosys -V`, if it answered.
    pub yosys_version: Option<String>,
    /// A command line that reproduces the run (with the files as given).
    pub command: String,
}

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
        warnings,
        unexplained_warnings: unexplained,
        seconds,
        yosys_version: yosys_version(),
        command,
    })
}

fn is_lut(t: &str) -> bool {
    matches!(t, "LUT1" | "LUT2" | "LUT3" | "LUT4" | "LUT5" | "LUT6")
}

/// Distributed RAM (`RAM32M`, `RAM64X1D`, ..., not `RAMB*`) and SRL shift registers.
fn is_lut_memory(t: &str) -> bool {
    (t.starts_with("RAM") && !t.starts_with("RAMB")) || t.starts_with("SRL")
}

/// Cell counts of module `top` from yosys `stat` output.
pub fn parse_stat(text: &str, top: &str) -> Result<BTreeMap<String, u64>, ToolError> {
    let err = |detail: String| ToolError::Parse { what: "yosys stat output".into(), detail };
    let header = format!("=== {top} ===");
    let mut lines = text.lines().skip_while(|l| l.trim() != header);
    if lines.next().is_none() {
        return Err(err(format!("no `{header}` section")));
    }
    let total_line = lines
        .by_ref()
        .find(|l| l.trim_start().starts_with("Number of cells:"))
        .ok_or_else(|| err("no `Number of cells:` line".into()))?;
    let total: u64 = total_line
        .split(':')
        .nth(1)
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| err(format!("bad line {total_line:?}")))?;
    let mut cells = BTreeMap::new();
    for l in lines {
        let mut words = l.split_whitespace();
        let (Some(ty), Some(n), None) = (words.next(), words.next(), words.next()) else { break };
        let Ok(n) = n.parse::<u64>() else { break };
        *cells.entry(ty.to_string()).or_insert(0) += n;
    }
    let listed: u64 = cells.values().sum();
    if listed != total {
        return Err(err(format!("{top}: cells by type add up to {listed}, not {total}")));
    }
    Ok(cells)
}

fn top_module<'a>(netlist: &'a Value, top: &str) -> Result<&'a Value, ToolError> {
    netlist.get("modules").and_then(|m| m.get(top)).ok_or_else(|| ToolError::Parse {
        what: "yosys JSON netlist".into(),
        detail: format!("no module `{top}`"),
    })
}

fn count_cells(netlist: &Value, top: &str) -> Result<BTreeMap<String, u64>, ToolError> {
    let mut counts = BTreeMap::new();
    if let Some(cells) = top_module(netlist, top)?.get("cells").and_then(Value::as_object) {
        for c in cells.values() {
            let ty = c.get("type").and_then(Value::as_str).unwrap_or("?");
            *counts.entry(ty.to_string()).or_insert(0) += 1;
        }
    }
    Ok(counts)
}

// ---------------------------------------------------------------------------
// Warnings.
// ---------------------------------------------------------------------------

/// A class of yosys warning that says nothing about the design.
#[derive(Debug)]
pub struct KnownWarning {
    /// Regex for the whole warning line. If it has named groups `from` and `to`
    /// (bit widths), the warning only matches when `from > to`.
    pub pattern: &'static str,
    /// Why it is harmless.
    pub reason: &'static str,
}

/// The warnings yosys 0.23's `synth_xilinx` gives on correct designs.
///
/// Anything else lands in [`SynthReport::unexplained_warnings`], to be fixed in the
/// design or, once understood, added here with its reason. Checked against the
/// flow_sched scheduler (1024 flows, xcup), whose 103 warnings all fall in these
/// classes.
pub const KNOWN_BENIGN_WARNINGS: &[KnownWarning] = &[
    KnownWarning {
        // e.g. `Warning: Resizing cell port flow_sched.pace_ram.mem.0.0.DINADIN from 64 bits to 16 bits.`
        pattern: r"^Warning: Resizing cell port \S+\.(ADDRARDADDR|ADDRBWRADDR|WEA|WEBWE|DINADIN|DINBDIN|DINPADINP|DINPBDINP|DOUTADOUT|DOUTBDOUT|DOUTPADOUTP|DOUTPBDOUTP|DIADI|DIBDI|DIPADIP|DIPBDIP|DOADO|DOBDO|DOPADOP|DOPBDOP) from (?P<from>\d+) bits to (?P<to>\d+) bits\.$",
        reason: "block-RAM mapping: yosys's Xilinx BRAM techmap (brams_xcu_map.v etc.) wires every RAMB18/RAMB36 through one template with the family's widest ports (16-bit address, 64+8-bit data, 4-bit write enable), then trims each port to the primitive's real width; the trimmed bits are unused padding (a 114-bit x 1024 RAM uses 7 RAMB18 = 7 x 18 bits, so no data sits in them)",
    },
    KnownWarning {
        pattern: r#"^ABC: Warning: The network is combinational \(run "fraig" or "fraig_sweep"\)\.$"#,
        reason: "ABC's `scorr` step (sequential equivalence) has nothing to do because yosys hands ABC only the combinational logic between flip-flops; the message is always true and harmless",
    },
];

fn known_regexes() -> &'static [Regex] {
    static RES: OnceLock<Vec<Regex>> = OnceLock::new();
    RES.get_or_init(|| KNOWN_BENIGN_WARNINGS.iter().map(|k| Regex::new(k.pattern).expect("known-warning regex")).collect())
}

/// The known-benign class of warning line `w`, if any.
pub fn classify_warning(w: &str) -> Option<&'static KnownWarning> {
    KNOWN_BENIGN_WARNINGS.iter().zip(known_regexes()).find_map(|(k, re)| {
        let caps = re.captures(w)?;
        if let (Some(from), Some(to)) = (caps.name("from"), caps.name("to")) {
            let (from, to): (u64, u64) = (from.as_str().parse().ok()?, to.as_str().parse().ok()?);
            if from <= to {
                return None;
            }
        }
        Some(k)
    })
}

/// Distinct `Warning:` / `ABC: Warning:` lines of a yosys log, in order.
pub fn extract_warnings(log: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for l in log.lines() {
        let l = l.trim();
        if (l.starts_with("Warning:") || l.starts_with("ABC: Warning:")) && seen.insert(l) {
            out.push(l.to_string());
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Logic depth.
// ---------------------------------------------------------------------------

/// The result of [`logic_depth`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogicDepth {
    /// Logic levels on the deepest path.
    pub levels: u32,
    /// That path, start to end (see [`SynthReport::critical_path`]); empty if the
    /// module has no path at all.
    pub path: Vec<String>,
    /// Cell types the search does not know, treated as registers.
    pub unmodelled: Vec<String>,
}

/// How the depth search sees a cell type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Every output is a function of the inputs; adds this many levels.
    Comb(u32),
    /// Register or register-like: outputs start paths, inputs end them.
    Seq,
    /// LUT memory: read data is combinational from the read address (one level),
    /// everything else (write port, SRL cascade output) is sequential.
    LutMem,
    /// I/O and clock buffers: path boundaries like ports.
    Buffer,
    /// Constant drivers.
    Const,
    /// Not known: treated like `Seq` and reported.
    Unknown,
}

fn param_nonzero(cell: &Value, name: &str) -> bool {
    match cell.get("parameters").and_then(|p| p.get(name)) {
        Some(Value::String(s)) => s.contains('1'),
        Some(Value::Number(n)) => n.as_u64() != Some(0),
        _ => false,
    }
}

fn kind_of(ty: &str, cell: &Value) -> Kind {
    match ty {
        t if is_lut(t) => Kind::Comb(1),
        "MUXF7" | "MUXF8" | "MUXF9" | "CARRY4" | "CARRY8" => Kind::Comb(1),
        "INV" | "BUF" => Kind::Comb(0),
        "DSP48E1" | "DSP48E2" => {
            if ["AREG", "BREG", "MREG", "PREG"].iter().any(|p| param_nonzero(cell, p)) {
                Kind::Seq
            } else {
                Kind::Comb(1)
            }
        }
        "GND" | "VCC" => Kind::Const,
        t if t.starts_with("FD") || t.starts_with("LD") => Kind::Seq,
        t if t.starts_with("RAMB") || t.starts_with("URAM") || t.starts_with("FIFO") => Kind::Seq,
        t if is_lut_memory(t) => Kind::LutMem,
        t if t.starts_with("IBUF")
            || t.starts_with("OBUF")
            || t.starts_with("IOBUF")
            || t.starts_with("BUFG")
            || t.starts_with("BUFH")
            || t.starts_with("BUFR")
            || t.starts_with("BUFIO")
            || t.starts_with("BUFCE") =>
        {
            Kind::Buffer
        }
        _ => Kind::Unknown,
    }
}

fn is_clock_pin(pin: &str) -> bool {
    pin == "C" || pin.contains("CLK")
}

/// A net bit; constants (`"0"`, `"1"`, `"x"`, `"z"`) are `None`.
fn net_bit(v: &Value) -> Option<u64> {
    v.as_u64()
}

#[derive(Clone, Copy, Debug)]
enum Driver {
    Port(usize),
    /// Cell index, output pin index in that cell's pin list, bit index.
    Cell(usize, usize, usize),
}

struct Pin<'a> {
    name: &'a str,
    input: bool,
    bits: Vec<Option<u64>>,
}

struct Cell<'a> {
    name: &'a str,
    ty: &'a str,
    public: bool,
    /// The first `src` location in the design's own files, as `file.v:line.col`.
    src: Option<String>,
    kind: Kind,
    pins: Vec<Pin<'a>>,
}

impl Cell<'_> {
    fn pin(&self, name: &str) -> Option<&Pin<'_>> {
        self.pins.iter().find(|p| p.name == name)
    }

    /// The nets that output `pin[bit]` depends on combinationally, or `None` if
    /// that output starts a path (a register output).
    fn arcs(&self, pin: &str, bit: usize) -> Option<Vec<u64>> {
        let inputs = |pred: &dyn Fn(&str) -> bool| -> Vec<u64> {
            self.pins.iter().filter(|p| p.input && pred(p.name)).flat_map(|p| p.bits.iter().flatten().copied()).collect()
        };
        let first = |name: &str, n: usize| -> Vec<u64> {
            self.pin(name).map_or_else(Vec::new, |p| p.bits.iter().take(n).flatten().copied().collect())
        };
        match self.kind {
            Kind::Comb(_) => match self.ty {
                "CARRY4" | "CARRY8" => {
                    // O[i] and CO[i] see the carry in and the S / DI bits 0..=i.
                    let mut v = inputs(&|p| p == "CI" || p == "CYINIT" || (p == "CI_TOP" && bit >= 4));
                    v.extend(first("S", bit + 1));
                    v.extend(first("DI", bit + 1));
                    Some(v)
                }
                t if t.starts_with("DSP") => {
                    Some(inputs(&|p| !is_clock_pin(p) && !p.starts_with("CE") && !p.starts_with("RST")))
                }
                _ => Some(inputs(&|_| true)),
            },
            Kind::LutMem => {
                if pin.ends_with("31") || pin.ends_with("15") || pin.starts_with("MC") {
                    return None; // SRL cascade outputs come straight from a register.
                }
                // RAM32M-style: DOx is read through ADDRx.
                if let Some(letter) = pin.strip_prefix("DO") {
                    let addr = format!("ADDR{letter}");
                    if self.pin(&addr).is_some() {
                        return Some(inputs(&|p| p == addr));
                    }
                }
                // RAMnnX1S/D, SRL: A*/DPRA* are the read addresses.
                Some(inputs(&|p| p.starts_with('A') || p.starts_with("DPRA")))
            }
            _ => None,
        }
    }
}

/// The deepest register-to-register path of module `top` of a yosys JSON netlist
/// of Xilinx primitives (the output of `synth_xilinx`).
///
/// Levels: each `LUT1`..`LUT6`, `MUXF7`/`MUXF8`/`MUXF9` and `CARRY4`/`CARRY8` on the
/// path is one level (every carry cell of a chain is its own level). Also one level
/// each: a LUT-RAM or SRL read (address to data), and a `DSP48E1`/`DSP48E2` whose
/// AREG, BREG, MREG and PREG are all 0 (a purely combinational multiplier, much
/// slower than a LUT, so the count flatters such paths). `INV` is zero levels.
/// The reverse holds for carry chains: a `CARRY4` adds far less delay than a LUT,
/// so a path with a long ripple chain looks deeper than it is slow.
///
/// Path ends: flip-flops (`FD*`), block RAMs (`RAMB*`, `URAM*`), DSPs with any of
/// AREG/BREG/MREG/PREG set, LUT-RAM write ports, I/O and clock buffers, and the
/// module's ports. Clock pins (`C`, `*CLK*`) are not path ends, so the clock tree is
/// ignored. Unknown cell types are treated as registers and listed in `unmodelled`.
///
/// A combinational loop is an error ([`ToolError::CombinationalLoop`]); the search
/// is iterative and visits each net once.
pub fn logic_depth(netlist: &Value, top: &str) -> Result<LogicDepth, ToolError> {
    let perr = |detail: String| ToolError::Parse { what: "yosys JSON netlist".into(), detail };
    let module = top_module(netlist, top)?;

    // Public names of each net bit, best first: top-level names (no '.') before
    // names inside flattened submodules, then shorter ones.
    let mut aliases: HashMap<u64, Vec<String>> = HashMap::new();
    if let Some(nets) = module.get("netnames").and_then(Value::as_object) {
        for (name, n) in nets {
            if n.get("hide_name").and_then(Value::as_u64).unwrap_or(0) != 0 || name.starts_with('$') {
                continue;
            }
            let bits = n.get("bits").and_then(Value::as_array).map_or(&[][..], |v| v.as_slice());
            let offset = n.get("offset").and_then(Value::as_i64).unwrap_or(0);
            let upto = n.get("upto").and_then(Value::as_u64).unwrap_or(0) != 0;
            for (i, b) in bits.iter().enumerate() {
                let Some(b) = net_bit(b) else { continue };
                let full = if bits.len() == 1 {
                    name.clone()
                } else {
                    let idx = if upto { offset + (bits.len() - 1 - i) as i64 } else { offset + i as i64 };
                    format!("{name}[{idx}]")
                };
                aliases.entry(b).or_default().push(full);
            }
        }
    }
    for v in aliases.values_mut() {
        v.sort_by(|a, b| (a.contains('.'), a.len(), a).cmp(&(b.contains('.'), b.len(), b)));
    }
    let net_name = |b: u64| aliases.get(&b).and_then(|v| v.first()).cloned();
    // A register output carries the names of everything it feeds by wire as well
    // (in rust-hdl: s2_flow_q is also lw_flow_d); prefer the register's own name,
    // `x_q` / `x.q` / `x_q[3]`.
    let reg_name = |b: u64| {
        let v = aliases.get(&b)?;
        let is_q = |n: &&String| {
            let base = n.split('[').next().unwrap_or(n);
            base.ends_with("_q") || base.ends_with(".q") || base == "q"
        };
        v.iter().find(is_q).or(v.first()).cloned()
    };

    // Ports.
    struct Port<'a> {
        name: &'a str,
        input: bool,
        bits: Vec<Option<u64>>,
    }
    let mut ports = Vec::new();
    if let Some(ps) = module.get("ports").and_then(Value::as_object) {
        for (name, p) in ps {
            let dir = p.get("direction").and_then(Value::as_str).unwrap_or("");
            let bits = p.get("bits").and_then(Value::as_array).map_or_else(Vec::new, |v| v.iter().map(net_bit).collect());
            ports.push(Port { name, input: dir == "input", bits });
            if dir == "inout" {
                // An inout is both; record it again as an output end.
                let bits = ports.last().map(|p| p.bits.clone()).unwrap_or_default();
                ports.push(Port { name, input: false, bits });
            }
        }
    }

    // Cells.
    let mut cells: Vec<Cell> = Vec::new();
    let mut unmodelled: Vec<String> = Vec::new();
    if let Some(cs) = module.get("cells").and_then(Value::as_object) {
        for (name, c) in cs {
            let ty = c.get("type").and_then(Value::as_str).ok_or_else(|| perr(format!("cell {name} has no type")))?;
            let public = c.get("hide_name").and_then(Value::as_u64).unwrap_or(0) == 0 && !name.starts_with('$');
            let mut kind = kind_of(ty, c);
            let dirs = c.get("port_directions").and_then(Value::as_object);
            if dirs.is_none() && kind != Kind::Const {
                kind = Kind::Unknown;
            }
            if kind == Kind::Unknown && !unmodelled.iter().any(|u| u == ty) {
                unmodelled.push(ty.to_string());
            }
            let mut pins = Vec::new();
            if let Some(conns) = c.get("connections").and_then(Value::as_object) {
                for (pin, bits) in conns {
                    let dir = dirs.and_then(|d| d.get(pin)).and_then(Value::as_str).unwrap_or("input");
                    let bits = bits.as_array().map_or_else(Vec::new, |v| v.iter().map(net_bit).collect());
                    pins.push(Pin { name: pin, input: dir == "input", bits });
                    if dir == "inout" {
                        let bits = pins.last().map(|p| p.bits.clone()).unwrap_or_default();
                        pins.push(Pin { name: pin, input: false, bits });
                    }
                }
            }
            let src = c.get("attributes").and_then(|a| a.get("src")).and_then(Value::as_str).and_then(design_src);
            cells.push(Cell { name, ty, public, src, kind, pins });
        }
    }

    // Drivers.
    let mut driver: HashMap<u64, Driver> = HashMap::new();
    for (pi, p) in ports.iter().enumerate().filter(|(_, p)| p.input) {
        for b in p.bits.iter().flatten() {
            driver.insert(*b, Driver::Port(pi));
        }
    }
    for (ci, c) in cells.iter().enumerate() {
        for (pi, p) in c.pins.iter().enumerate().filter(|(_, p)| !p.input) {
            for (i, b) in p.bits.iter().enumerate() {
                if let Some(b) = b {
                    driver.insert(*b, Driver::Cell(ci, pi, i));
                }
            }
        }
    }

    let weight = |c: &Cell| match c.kind {
        Kind::Comb(w) => w,
        Kind::LutMem => 1,
        _ => 0,
    };
    // The combinational fan-in of a net, or None if it starts a path.
    let fanin = |b: u64| -> Option<(u32, Vec<u64>)> {
        let Some(Driver::Cell(ci, pi, i)) = driver.get(&b).copied() else { return None };
        let c = &cells[ci];
        c.arcs(c.pins[pi].name, i).map(|ins| (weight(c), ins))
    };
    let describe_cell = |ci: usize, bit: Option<u64>| -> String {
        let c = &cells[ci];
        let name = if c.ty.starts_with("IBUF") {
            c.pin("I").and_then(|p| p.bits.first().copied().flatten()).and_then(&net_name)
        } else {
            None
        }
        .or_else(|| if c.public { Some(c.name.to_string()) } else { None })
        .or_else(|| bit.and_then(|b| if c.kind == Kind::Seq { reg_name(b) } else { net_name(b) }));
        // Where in the design a piece of logic came from (not for registers and
        // memories, whose names say it).
        let src = if matches!(c.kind, Kind::Comb(_) | Kind::LutMem) { c.src.as_deref() } else { None };
        match (name, src) {
            (Some(n), Some(s)) => format!("{} {n} @{s}", c.ty),
            (Some(n), None) => format!("{} {n}", c.ty),
            (None, Some(s)) => format!("{} @{s}", c.ty),
            (None, None) => format!("{} {}", c.ty, short_internal_name(c.name)),
        }
    };
    let describe_net = |b: u64| -> String {
        match driver.get(&b) {
            Some(Driver::Port(pi)) => format!("port {}", net_name(b).unwrap_or_else(|| ports[*pi].name.to_string())),
            Some(Driver::Cell(ci, _, _)) => describe_cell(*ci, Some(b)),
            None => format!("undriven {}", net_name(b).unwrap_or_else(|| format!("net {b}"))),
        }
    };

    // Path ends.
    enum End {
        Port(usize, usize),
        Pin(usize, usize, usize),
    }
    let mut ends: Vec<(u64, End)> = Vec::new();
    for (pi, p) in ports.iter().enumerate().filter(|(_, p)| !p.input) {
        for (i, b) in p.bits.iter().enumerate() {
            if let Some(b) = b {
                ends.push((*b, End::Port(pi, i)));
            }
        }
    }
    for (ci, c) in cells.iter().enumerate() {
        if matches!(c.kind, Kind::Comb(_) | Kind::Const) {
            continue;
        }
        for (pi, p) in c.pins.iter().enumerate().filter(|(_, p)| p.input && !is_clock_pin(p.name)) {
            for (i, b) in p.bits.iter().enumerate() {
                if let Some(b) = b {
                    ends.push((*b, End::Pin(ci, pi, i)));
                }
            }
        }
    }

    // Arrival levels, by iterative depth-first search with colouring: a net met
    // again while still open is on a loop.
    #[derive(Clone, Copy)]
    struct Arrival {
        levels: u32,
        from: Option<u64>,
    }
    let mut done: HashMap<u64, Arrival> = HashMap::new();
    let mut open: HashMap<u64, Option<u64>> = HashMap::new(); // net -> the net that asked for it
    for (root, _) in &ends {
        if done.contains_key(root) {
            continue;
        }
        let mut stack: Vec<(u64, bool, Option<u64>)> = vec![(*root, false, None)];
        while let Some((b, expanded, parent)) = stack.pop() {
            if done.contains_key(&b) {
                continue;
            }
            let Some((w, ins)) = fanin(b) else {
                done.insert(b, Arrival { levels: 0, from: None });
                continue;
            };
            if !expanded {
                open.insert(b, parent);
                stack.push((b, true, parent));
                for i in ins {
                    if done.contains_key(&i) {
                        continue;
                    }
                    if open.contains_key(&i) {
                        // Loop: walk the askers from b back to i.
                        let mut lp = vec![b];
                        let mut cur = b;
                        while cur != i {
                            match open.get(&cur).copied().flatten() {
                                Some(p) => {
                                    lp.push(p);
                                    cur = p;
                                }
                                None => break,
                            }
                        }
                        // Each asker is fed by the net before it, so lp is in signal
                        // order: b -> ... -> i, and i feeds b.
                        let cells_on_loop = lp.into_iter().map(&describe_net).collect();
                        return Err(ToolError::CombinationalLoop { cells: cells_on_loop });
                    }
                    stack.push((i, false, Some(b)));
                }
            } else {
                let mut best = Arrival { levels: w, from: None };
                for i in ins {
                    let a = done[&i];
                    if best.from.is_none() || a.levels + w > best.levels {
                        best = Arrival { levels: a.levels + w, from: Some(i) };
                    }
                }
                open.remove(&b);
                done.insert(b, best);
            }
        }
    }

    let Some((end_net, end)) = ends.iter().max_by(|(a, _), (b, _)| {
        // Deepest first; on a tie the first end in netlist order.
        done[a].levels.cmp(&done[b].levels).then(std::cmp::Ordering::Greater)
    }) else {
        return Ok(LogicDepth { levels: 0, path: Vec::new(), unmodelled });
    };
    let levels = done[end_net].levels;
    let mut nets = vec![*end_net];
    while let Some(prev) = done[nets.last().unwrap()].from {
        nets.push(prev);
    }
    nets.reverse();
    let mut path: Vec<String> = nets.iter().map(|b| describe_net(*b)).collect();
    path.push(match end {
        End::Port(pi, i) => {
            let p = &ports[*pi];
            if p.bits.len() == 1 { format!("port {}", p.name) } else { format!("port {}[{i}]", p.name) }
        }
        End::Pin(ci, pi, i) => {
            let c = &cells[*ci];
            // A flip-flop is best named by the register it is (its Q net).
            let q = c.pins.iter().find(|p| !p.input).and_then(|p| p.bits.first().copied().flatten());
            let pin = &c.pins[*pi];
            let pin_name = if pin.bits.len() == 1 { pin.name.to_string() } else { format!("{}[{i}]", pin.name) };
            format!("{} ({pin_name})", describe_cell(*ci, q))
        }
    });
    Ok(LogicDepth { levels, path, unmodelled })
}

/// `$abc$11515$auto$blifparse.cc:525:parse_blif$11517.genblk1...` -> `$11517`.
fn short_internal_name(name: &str) -> String {
    match name.rfind('$') {
        Some(i) => {
            let id: String = name[i + 1..].chars().take_while(char::is_ascii_digit).collect();
            if id.is_empty() { name.to_string() } else { format!("${id}") }
        }
        None => name.to_string(),
    }
}

/// The first location of a yosys `src` attribute that is not in yosys's own
/// techmap files: `/tmp/flow_sched.v:635.31-635.77|.../arith_map.v:186.1-...` ->
/// `flow_sched.v:635.31`.
fn design_src(src: &str) -> Option<String> {
    src.split('|').find(|part| !part.contains("/share/yosys/") && !part.contains("techlibs/")).map(|part| {
        let (file, pos) = part.rsplit_once(':').unwrap_or((part, ""));
        let pos = pos.split('-').next().unwrap_or(pos);
        let base = file.rsplit('/').next().unwrap_or(file);
        if pos.is_empty() { base.to_string() } else { format!("{base}:{pos}") }
    })
}

// ---------------------------------------------------------------------------
// Presentation.
// ---------------------------------------------------------------------------

impl SynthReport {
    /// The header of [`SynthReport::table_row`]'s Markdown table (two lines).
    pub fn table_header() -> String {
        "| top | family | LUT | FF | RAMB36 | RAMB18 | DSP | LUTRAM | CARRY | MUXF | levels | yosys s |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            .to_string()
    }

    /// One Markdown table row of the counts (header: [`SynthReport::table_header`]).
    pub fn table_row(&self) -> String {
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} |",
            self.top,
            self.family,
            self.luts,
            self.ffs,
            self.bram36,
            self.bram18,
            self.dsps,
            self.lutram,
            self.carry,
            self.muxf,
            self.logic_levels,
            self.seconds
        )
    }

    /// A Markdown section: the counts, the critical path, the warnings, and the
    /// command that produced it.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("#### `{}` on {} (yosys synth_xilinx)\n\n", self.top, self.family));
        s.push_str(&Self::table_header());
        s.push('\n');
        s.push_str(&self.table_row());
        s.push_str("\n\n");
        let other: Vec<String> = self
            .cells
            .iter()
            .filter(|(t, _)| {
                !(is_lut(t)
                    || t.starts_with("FD")
                    || t.starts_with("RAMB")
                    || t.starts_with("DSP")
                    || is_lut_memory(t)
                    || matches!(t.as_str(), "CARRY4" | "CARRY8" | "MUXF7" | "MUXF8" | "MUXF9"))
            })
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        let by_type = |pred: &dyn Fn(&str) -> bool| -> String {
            self.cells.iter().filter(|(t, _)| pred(t)).map(|(t, n)| format!("{t} {n}")).collect::<Vec<_>>().join(", ")
        };
        s.push_str(&format!("- LUTs by size: {}\n", by_type(&|t| is_lut(t))));
        if self.lutram > 0 {
            s.push_str(&format!("- LUT memories (cells): {}\n", by_type(&|t| is_lut_memory(t))));
        }
        if !other.is_empty() {
            s.push_str(&format!("- other cells: {}\n", other.join(", ")));
        }
        if self.critical_path.is_empty() {
            s.push_str("- logic depth: no register-to-register path\n");
        } else {
            let first = &self.critical_path[0];
            let last = &self.critical_path[self.critical_path.len() - 1];
            // Levels on the path by cell type, and the path with repeated hops
            // (carry chains) folded.
            let mut by_ty: BTreeMap<&str, usize> = BTreeMap::new();
            for h in &self.critical_path[1..self.critical_path.len() - 1] {
                *by_ty.entry(h.split(' ').next().unwrap_or(h)).or_default() += 1;
            }
            let mix: Vec<String> = by_ty.iter().map(|(t, n)| format!("{n} {t}")).collect();
            s.push_str(&format!(
                "- logic depth: {} levels (each LUT, MUXF, CARRY and combinational DSP cell is one), from `{first}` to `{last}`; \
                 cells on the path: {}\n",
                self.logic_levels,
                mix.join(", ")
            ));
            let mut folded: Vec<(String, usize)> = Vec::new();
            for h in &self.critical_path {
                match folded.last_mut() {
                    Some((last, n)) if last == h => *n += 1,
                    _ => folded.push((h.clone(), 1)),
                }
            }
            let hops: Vec<String> = folded
                .into_iter()
                .map(|(h, n)| if n == 1 { format!("`{h}`") } else { format!("`{h}` ×{n}") })
                .collect();
            s.push_str(&format!("  {}\n", hops.join(" → ")));
        }
        let mut classes: Vec<(&KnownWarning, usize)> = Vec::new();
        for w in &self.warnings {
            if let Some(k) = classify_warning(w) {
                match classes.iter_mut().find(|(c, _)| std::ptr::eq(*c, k)) {
                    Some((_, n)) => *n += 1,
                    None => classes.push((k, 1)),
                }
            }
        }
        s.push_str(&format!(
            "- yosys warnings: {} distinct, {} unexplained\n",
            self.warnings.len(),
            self.unexplained_warnings.len()
        ));
        for (k, n) in classes {
            s.push_str(&format!("  - {n} known benign: {}\n", k.reason));
        }
        for w in &self.unexplained_warnings {
            s.push_str(&format!("  - **unexplained**: `{w}`\n"));
        }
        s.push_str(&format!(
            "- produced by: `{}`{} in {:.1} s\n",
            self.command,
            self.yosys_version.as_deref().map(|v| format!(" ({v})")).unwrap_or_default(),
            self.seconds
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    // ---- hand-written netlists: the depth search itself, no yosys needed.

    fn lut(name: &str, ins: &[u64], out: u64) -> (String, Value) {
        let mut dirs = serde_json::Map::new();
        let mut conns = serde_json::Map::new();
        for (i, b) in ins.iter().enumerate() {
            dirs.insert(format!("I{i}"), json!("input"));
            conns.insert(format!("I{i}"), json!([b]));
        }
        dirs.insert("O".into(), json!("output"));
        conns.insert("O".into(), json!([out]));
        (
            name.to_string(),
            json!({"hide_name": 0, "type": format!("LUT{}", ins.len()), "parameters": {},
                   "port_directions": dirs, "connections": conns}),
        )
    }

    fn fdre(name: &str, d: u64, q: u64) -> (String, Value) {
        (
            name.to_string(),
            json!({"hide_name": 0, "type": "FDRE", "parameters": {"INIT": "0"},
                   "port_directions": {"C": "input", "CE": "input", "D": "input", "Q": "output", "R": "input"},
                   "connections": {"C": [2], "CE": ["1"], "D": [d], "Q": [q], "R": ["0"]}}),
        )
    }

    fn netlist(cells: Vec<(String, Value)>) -> Value {
        let cells: serde_json::Map<String, Value> = cells.into_iter().collect();
        json!({"modules": {"t": {
            "ports": {"clk": {"direction": "input", "bits": [2]},
                      "a": {"direction": "input", "bits": [3]},
                      "y": {"direction": "output", "bits": [4]}},
            "cells": cells,
            "netnames": {"mid": {"hide_name": 0, "bits": [11]}}
        }}})
    }

    #[test]
    fn depth_counts_luts_between_registers() {
        // a -> r1 -> lut1 -> lut2 -> lut3 -> r2 -> y
        let n = netlist(vec![
            fdre("r1", 3, 10),
            lut("l1", &[10], 11),
            lut("l2", &[11, 10], 12),
            lut("l3", &[12, 11], 13),
            fdre("r2", 13, 4),
        ]);
        let d = logic_depth(&n, "t").unwrap();
        assert_eq!(d.levels, 3);
        assert_eq!(d.path, vec!["FDRE r1", "LUT1 l1", "LUT2 l2", "LUT2 l3", "FDRE r2 (D)"]);
        assert!(d.unmodelled.is_empty());
    }

    #[test]
    fn depth_of_register_to_register_wire_is_zero() {
        let n = netlist(vec![fdre("r1", 3, 10), fdre("r2", 10, 4)]);
        let d = logic_depth(&n, "t").unwrap();
        assert_eq!(d.levels, 0);
        assert_eq!(d.path.len(), 2, "{:?}", d.path);
    }

    #[test]
    fn depth_reports_combinational_loop() {
        let n = netlist(vec![lut("l1", &[3, 12], 11), lut("l2", &[11], 12), fdre("r", 12, 4)]);
        match logic_depth(&n, "t") {
            Err(ToolError::CombinationalLoop { cells }) => {
                assert_eq!(cells.len(), 2, "{cells:?}");
                assert!(cells.iter().any(|c| c.starts_with("LUT2 l1")), "{cells:?}");
                assert!(cells.iter().any(|c| c.starts_with("LUT1 l2")), "{cells:?}");
            }
            other => panic!("want a loop error, got {other:?}"),
        }
    }

    #[test]
    fn depth_treats_registered_dsp_as_boundary() {
        let dsp = |preg: &str| {
            (
                "m".to_string(),
                json!({"hide_name": 0, "type": "DSP48E2",
                       "parameters": {"AREG": "0", "BREG": "0", "MREG": "0", "PREG": preg},
                       "port_directions": {"A": "input", "CLK": "input", "P": "output"},
                       "connections": {"A": [10], "CLK": [2], "P": [11]}}),
            )
        };
        let comb = netlist(vec![fdre("r1", 3, 10), dsp("0"), lut("l", &[11], 12), fdre("r2", 12, 4)]);
        assert_eq!(logic_depth(&comb, "t").unwrap().levels, 2);
        let reg = netlist(vec![fdre("r1", 3, 10), dsp("1"), lut("l", &[11], 12), fdre("r2", 12, 4)]);
        assert_eq!(logic_depth(&reg, "t").unwrap().levels, 1);
    }

    #[test]
    fn unknown_cells_are_reported() {
        let odd = ("o".to_string(), json!({"hide_name": 0, "type": "MYSTERY", "connections": {"X": [10]}}));
        let d = logic_depth(&netlist(vec![odd, fdre("r", 3, 4)]), "t").unwrap();
        assert_eq!(d.unmodelled, vec!["MYSTERY"]);
    }

    #[test]
    fn hop_names() {
        assert_eq!(
            design_src("/tmp/x-y/flow_sched.v:635.31-635.77|/usr/bin/../share/yosys/xilinx/arith_map.v:186.1-1.2"),
            Some("flow_sched.v:635.31".to_string())
        );
        assert_eq!(design_src("/usr/share/yosys/xilinx/lut_map.v:61.26-63.41"), None);
        assert_eq!(short_internal_name("$abc$11515$auto$blifparse.cc:525:parse_blif$11544.genblk1.lut0"), "$11544");
        // A register output that also feeds another register by wire is named as
        // the register it is: s2_q, not the shorter-sorting b_d alias.
        let mut n = netlist(vec![fdre("r1", 3, 10), lut("l", &[10], 12), fdre("r2", 12, 4)]);
        n["modules"]["t"]["cells"]["r1"]["hide_name"] = json!(1);
        n["modules"]["t"]["netnames"] = json!({
            "b_d": {"hide_name": 0, "bits": [10]},
            "s2_q": {"hide_name": 0, "bits": [10]},
            "$auto$x": {"hide_name": 1, "bits": [12]}});
        let d = logic_depth(&n, "t").unwrap();
        assert_eq!(d.path[0], "FDRE s2_q");
        assert_eq!(d.path[1], "LUT1 l");
    }

    #[test]
    fn stat_parsing_and_its_cross_check() {
        let text = "\n3. Printing statistics.\n\n=== t ===\n\n   Number of wires:   5\n   Number of cells:  6\n     FDRE   2\n     LUT6   3\n     IBUF   1\n\n";
        let cells = parse_stat(text, "t").unwrap();
        assert_eq!(cells.get("LUT6"), Some(&3));
        assert_eq!(cells.len(), 3);
        assert!(parse_stat(&text.replace("cells:  6", "cells:  7"), "t").is_err());
        assert!(parse_stat(text, "other").is_err());
    }

    #[test]
    fn warning_classification() {
        let bram = "Warning: Resizing cell port flow_sched.pace_ram.mem.0.0.DINADIN from 64 bits to 16 bits.";
        assert!(classify_warning(bram).is_some());
        // Widening a port is not the BRAM template's trimming.
        assert!(classify_warning(&bram.replace("from 64 bits to 16", "from 16 bits to 64")).is_none());
        // Nor is resizing some other port.
        assert!(classify_warning("Warning: Resizing cell port t.u.A from 64 bits to 16 bits.").is_none());
        assert!(classify_warning(r#"ABC: Warning: The network is combinational (run "fraig" or "fraig_sweep")."#).is_some());
        assert!(classify_warning("Warning: Replacing memory \\mem with list of registers.").is_none());
        let log = "x\nWarning: a\n  Warning: a\nABC: Warning: b\nWarnings: 2 unique messages\n";
        assert_eq!(extract_warnings(log), vec!["Warning: a", "ABC: Warning: b"]);
    }

    #[test]
    fn bad_arguments_are_refused_before_running() {
        let f = vec![PathBuf::from("x.v")];
        assert!(matches!(synth(&f, "top; shell rm", "xcup"), Err(ToolError::Parse { .. })));
        assert!(matches!(synth(&f, "top", "xcup\nstat"), Err(ToolError::Parse { .. })));
    }

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
