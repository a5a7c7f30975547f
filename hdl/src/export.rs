//! Verilog export: rust-hdl's `generate_verilog` output made fit for vendor tools.
//!
//! rust-hdl names the top `top`, names submodules and their nets `top$ram`, `r$d`, and writes no
//! header. Here every module gets the exported name, `$` becomes `_` (checked not to merge two
//! names), and each file gets the standard header and footer, so the output is byte-for-byte
//! reproducible from the Rust source.

use rust_hdl::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

/// One exported Verilog file.
#[derive(Clone)]
pub struct Exported {
    /// Module and file name (`flow_sched` -> `flow_sched.v`).
    pub name: String,
    /// The Rust file it comes from, relative to the workspace root.
    pub source: String,
    /// Full file text.
    pub text: String,
    /// The other files of rtl-out/ whose modules this one instantiates, directly or not, in
    /// filelist order (empty for a self-contained file).
    pub needs: Vec<String>,
}

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// Two identifiers map to the same name once `$` is replaced.
    NameClash(String, String, String),
    /// The design failed rust-hdl's own checks (unconnected or doubly driven signals...).
    Check(String),
    /// Writing rtl-out/ failed.
    Io(std::io::Error),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::NameClash(a, b, to) => {
                write!(f, "identifiers `{a}` and `{b}` would both become `{to}`")
            }
            ExportError::Check(m) => write!(f, "rust-hdl check failed: {m}"),
            ExportError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ExportError {}

/// The flow counts users build; the default export is the first.
pub const FLOW_SCHED_BITS: [usize; 2] = [10, 12];

/// Exported Verilog of the flow scheduler for `2^bits` flows, under `name`.
pub fn flow_sched(bits: usize, name: &str) -> Result<Exported, ExportError> {
    let raw = match bits {
        10 => raw_verilog(crate::flow_sched::FlowSched::<10>::default())?,
        11 => raw_verilog(crate::flow_sched::FlowSched::<11>::default())?,
        12 => raw_verilog(crate::flow_sched::FlowSched::<12>::default())?,
        _ => return Err(ExportError::Check(format!("flow_sched: unsupported flow bits {bits}"))),
    };
    finish(&raw, name, "hdl/src/sched/flow_sched.rs")
}

/// `e` as rtl-out/ holds its modules: registers folded, named constants declared, each module
/// once (shared cells in `export_once::CELLS`, which the top then `needs`). For the builds at
/// other flow counts (`hpcc-nic synth --flows 4096`), which rtl-out/ does not hold.
pub fn folded(e: Exported) -> Result<Vec<Exported>, ExportError> {
    crate::export_once::once(vec![e])
}

/// Divider configurations exported on their own: `div_pipe`, the widest the CC module uses
/// (HPCC line 13: 49-bit numerator, 24-bit divisor, 32-bit quotient), and small ones that the
/// test bench checks exhaustively, one per shape of the overflow compare (numerator bits above
/// the quotient: fewer than, as many as, more than the divisor's, and none).
pub fn div_pipes() -> Result<Vec<Exported>, ExportError> {
    use crate::div_pipe::DivPipe;
    const SRC: &str = "hdl/src/prim/div_pipe.rs";
    Ok(vec![
        finish(&raw_verilog(DivPipe::<49, 24, 32, 8>::default())?, "div_pipe", SRC)?,
        finish(&raw_verilog(DivPipe::<8, 4, 6, 4>::default())?, "div_pipe_n8_d4_q6", SRC)?,
        finish(&raw_verilog(DivPipe::<9, 3, 6, 4>::default())?, "div_pipe_n9_d3_q6", SRC)?,
        finish(&raw_verilog(DivPipe::<10, 3, 6, 4>::default())?, "div_pipe_n10_d3_q6", SRC)?,
        finish(&raw_verilog(DivPipe::<6, 5, 8, 4>::default())?, "div_pipe_n6_d5_q8", SRC)?,
    ])
}

/// Multiplier configurations exported on their own: `mul_pipe`, 32 x 32 bits in 4 cycles (the
/// shape of the CC module's widest products), and a small one for exhaustive tests.
pub fn mul_pipes() -> Result<Vec<Exported>, ExportError> {
    use crate::mul_pipe::MulPipe;
    const SRC: &str = "hdl/src/prim/mul_pipe.rs";
    Ok(vec![
        finish(&raw_verilog(MulPipe::<32, 32, 64, 4, 8>::default())?, "mul_pipe", SRC)?,
        finish(&raw_verilog(MulPipe::<7, 6, 13, 2, 4>::default())?, "mul_pipe_a7_b6", SRC)?,
    ])
}

/// The HPCC++ datapath of the CC module for `2^bits` flows (10 or 12).
pub fn cc_hpcc(bits: usize, name: &str) -> Result<Exported, ExportError> {
    let raw = match bits {
        10 => raw_verilog(crate::cc_hpcc::CcHpcc::<10>::default())?,
        12 => raw_verilog(crate::cc_hpcc::CcHpcc::<12>::default())?,
        _ => return Err(ExportError::Check(format!("cc_hpcc: unsupported flow bits {bits}"))),
    };
    finish(&raw, name, "hdl/src/cc/cc_hpcc.rs")
}

/// The LDCP datapath of the CC module for `2^bits` flows (10 or 12).
pub fn cc_ldcp(bits: usize, name: &str) -> Result<Exported, ExportError> {
    let raw = match bits {
        10 => raw_verilog(crate::cc_ldcp::CcLdcp::<10>::default())?,
        12 => raw_verilog(crate::cc_ldcp::CcLdcp::<12>::default())?,
        _ => return Err(ExportError::Check(format!("cc_ldcp: unsupported flow bits {bits}"))),
    };
    finish(&raw, name, "hdl/src/cc/cc_ldcp.rs")
}

/// flow_park in cc_ldcp's shape (16-bit flows, 128-bit events, 8 slots, 52-cycle window),
/// exported on its own for its unit test and synthesis figures.
pub fn flow_park() -> Result<Exported, ExportError> {
    let park = crate::flow_park::FlowPark::<16, 128, 8, 52>::default();
    finish(&raw_verilog(park)?, "flow_park", "hdl/src/cc/flow_park.rs")
}

/// The DCQCN reaction-point datapath of the CC module for `2^bits` flows (10 or 12).
pub fn cc_dcqcn(bits: usize, name: &str) -> Result<Exported, ExportError> {
    let raw = match bits {
        10 => raw_verilog(crate::cc_dcqcn::CcDcqcn::<10>::default())?,
        12 => raw_verilog(crate::cc_dcqcn::CcDcqcn::<12>::default())?,
        _ => return Err(ExportError::Check(format!("cc_dcqcn: unsupported flow bits {bits}"))),
    };
    finish(&raw, name, "hdl/src/cc/cc_dcqcn.rs")
}

/// The CC module's top (algorithm select, the three datapaths, the Update stream) for
/// `2^bits` flows (10 or 12).
pub fn cc_module(bits: usize, name: &str) -> Result<Exported, ExportError> {
    let raw = match bits {
        10 => raw_verilog(crate::cc_module::CcModule::<10>::default())?,
        12 => raw_verilog(crate::cc_module::CcModule::<12>::default())?,
        _ => return Err(ExportError::Check(format!("cc_module: unsupported flow bits {bits}"))),
    };
    finish(&raw, name, "hdl/src/cc/cc_module.rs")
}

/// Every file of rtl-out/, in filelist order: the shared cells, then each block, every module
/// body defined once (`export_once`).
pub fn all() -> Result<Vec<Exported>, ExportError> {
    crate::export_once::once(blocks()?)
}

/// Stack for building the blocks: a top holds every block by value (hpcc_nic_core's struct
/// is 768 KB of signals, rx_ctx's 77 KB) and is built and moved on the stack more than once,
/// which outgrew a test thread's 2 MiB default when rx_ctx was split into blocks.
const EXPORT_STACK: usize = 64 << 20;

/// Every exported block, each file self-contained as rust-hdl writes it, in filelist order.
/// Built on a thread of its own with `EXPORT_STACK` bytes of stack, whichever thread asks.
pub fn blocks() -> Result<Vec<Exported>, ExportError> {
    std::thread::Builder::new()
        .name("export".into())
        .stack_size(EXPORT_STACK)
        .spawn(build_blocks)
        .expect("spawn the export thread")
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn build_blocks() -> Result<Vec<Exported>, ExportError> {
    let mut v = vec![flow_sched(FLOW_SCHED_BITS[0], "flow_sched")?];
    v.extend(div_pipes()?);
    v.extend(mul_pipes()?);
    v.push(finish(
        &raw_verilog(crate::cc_hop_util::CcHopUtil::default())?,
        "cc_hop_util",
        "hdl/src/cc/cc_hop_util.rs",
    )?);
    v.push(flow_park()?);
    v.push(finish(
        &raw_verilog(crate::icrc_pipe::IcrcPipe::default())?,
        "icrc_pipe",
        "hdl/src/prim/icrc_pipe.rs",
    )?);
    v.push(finish(
        &raw_verilog(crate::roce_op_class::RoceOpClass::default())?,
        "roce_op_class",
        "hdl/src/prim/roce_op_class.rs",
    )?);
    v.push(cc_hpcc(10, "cc_hpcc")?);
    v.push(cc_ldcp(10, "cc_ldcp")?);
    v.push(cc_dcqcn(10, "cc_dcqcn")?);
    v.push(cc_module(10, "cc_module")?);
    v.push(finish(&raw_verilog(crate::tx_pipe::TxPipe::default())?, "tx_pipe", "hdl/src/tx/tx_pipe.rs")?);
    v.push(rx_pipe()?);
    v.push(finish(&raw_verilog(crate::tx_ctx::TxCtx::<10>::default())?, "tx_ctx", "hdl/src/tx/tx_ctx.rs")?);
    v.push(finish(&raw_verilog(crate::rx_ctx::RxCtx::<10>::default())?, "rx_ctx", "hdl/src/rx/rx_ctx.rs")?);
    v.push(finish(&raw_verilog(crate::read_split::ReadSplit::default())?, "read_split", "hdl/src/tx/read_split.rs")?);
    v.push(rx_dma()?);
    v.push(finish(
        &raw_verilog(crate::nic_datapath::NicDatapath::<10, RX_DMA_BANK_BITS>::new())?,
        "nic_datapath",
        "hdl/src/top/nic_datapath.rs",
    )?);
    v.push(finish(
        &raw_verilog(crate::axil_slave::AxilSlave::<{ crate::hpcc_nic_core::AXIL_ADDR_BITS }>::default())?,
        "axil_slave",
        "hdl/src/top/axil_slave.rs",
    )?);
    v.push(finish(
        &raw_verilog(crate::hpcc_nic_core::HpccNicCore::<10, RX_DMA_BANK_BITS>::new())?,
        "hpcc_nic_core",
        "hdl/src/top/hpcc_nic_core.rs",
    )?);
    // The clock-crossing word in the two widths the MAC shim uses (cdc_frame_fifo's committed
    // pointer, the receive counters), each a file of its own so both instantiate it by name.
    v.push(finish(&raw_verilog(crate::cdc_word::CdcWord::<9>::default())?, "cdc_word_w9", "hdl/src/mac/cdc_word.rs")?);
    v.push(finish(&raw_verilog(crate::cdc_word::CdcWord::<96>::default())?, "cdc_word_w96", "hdl/src/mac/cdc_word.rs")?);
    v.push(finish(
        &raw_verilog(crate::cdc_frame_fifo::CdcFrameFifo::default())?,
        "cdc_frame_fifo",
        "hdl/src/mac/cdc_frame_fifo.rs",
    )?);
    v.push(finish(&raw_verilog(crate::mac_shim::MacShim::default())?, "mac_shim", "hdl/src/mac/mac_shim.rs")?);
    // A request's byte enables, in a file of its own: both DMA engines instantiate it by name.
    v.push(finish(&raw_verilog(crate::pcie_be::PcieBe::default())?, "pcie_be", "hdl/src/pcie/pcie_be.rs")?);
    v.push(finish(&raw_verilog(crate::pcie_rd::PcieRd::default())?, "pcie_rd", "hdl/src/pcie/pcie_rd.rs")?);
    v.push(finish(&raw_verilog(crate::pcie_wr::PcieWr::default())?, "pcie_wr", "hdl/src/pcie/pcie_wr.rs")?);
    v.push(finish(&raw_verilog(crate::pcie_axil::PcieAxil::default())?, "pcie_axil", "hdl/src/pcie/pcie_axil.rs")?);
    v.push(finish(&raw_verilog(crate::pcie_rq_mux::PcieRqMux::default())?, "pcie_rq_mux", "hdl/src/pcie/pcie_rq_mux.rs")?);
    v.push(finish(&raw_verilog(crate::pcie_shim::PcieShim::default())?, "pcie_shim", "hdl/src/pcie/pcie_shim.rs")?);
    v.push(finish(&raw_verilog(crate::dma_rd_mux::DmaRdMux::default())?, "dma_rd_mux", "hdl/src/host/dma_rd_mux.rs")?);
    v.push(finish(&raw_verilog(crate::dma_wr_mux::DmaWrMux::default())?, "dma_wr_mux", "hdl/src/host/dma_wr_mux.rs")?);
    v.push(finish(&raw_verilog(crate::host_queues::HostQueues::<10>::new())?, "host_queues", "hdl/src/host/host_queues.rs")?);
    v.push(finish(&raw_verilog(crate::axil_split::AxilSplit::default())?, "axil_split", "hdl/src/top/axil_split.rs")?);
    v.push(finish(&raw_verilog(crate::nic_stats::NicStats::default())?, "nic_stats", "hdl/src/top/nic_stats.rs")?);
    v.push(finish(
        &raw_verilog(crate::hpcc_nic::HpccNic::<10, RX_DMA_BANK_BITS>::new())?,
        "hpcc_nic",
        "hdl/src/top/hpcc_nic.rs",
    )?);
    Ok(v)
}

/// The Rx pipe's parse stage (with its icrc_pipe and ones_sum).
pub fn rx_pipe() -> Result<Exported, ExportError> {
    finish(&raw_verilog(crate::rx_pipe::RxPipe::default())?, "rx_pipe", "hdl/src/rx/rx_pipe.rs")
}

/// Log2 of the beats per bank of the exported rx_dma: 2 x 512 beats = 64 KiB.
pub const RX_DMA_BANK_BITS: usize = 9;

/// The Rx pipe's frame store and payload path to DMA.
pub fn rx_dma() -> Result<Exported, ExportError> {
    finish(&raw_verilog(crate::rx_dma::RxDma::<RX_DMA_BANK_BITS>::new())?, "rx_dma", "hdl/src/rx/rx_dma.rs")
}

fn raw_verilog<U: Block>(mut uut: U) -> Result<String, ExportError> {
    uut.connect_all();
    check_all(&uut).map_err(|e| ExportError::Check(format!("{e:?}")))?;
    Ok(generate_verilog(&uut))
}

/// Renames `top`, removes `$`, adds header and footer.
pub fn finish(raw: &str, name: &str, source: &str) -> Result<Exported, ExportError> {
    let mut mapping: BTreeMap<String, String> = BTreeMap::new();
    let mut body = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_ascii_alphabetic() || c == '_' {
            let mut end = start + c.len_utf8();
            while let Some(&(i, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' || d == '$' {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let ident = &raw[start..end];
            let renamed = rename(ident, name);
            if renamed != ident {
                mapping.insert(ident.to_string(), renamed.clone());
            }
            body.push_str(&renamed);
        } else {
            body.push(c);
        }
    }
    check_injective(raw, &mapping)?;
    let mut text = format!(
        "// SPDX-License-Identifier: MIT OR Apache-2.0\n\
         // Generated by `hpcc-nic export` from {source} (rust-hdl 0.46.0). Do not edit:\n\
         // change the Rust source and export again.\n\
         `resetall\n`timescale 1ns / 1ps\n`default_nettype none\n\n"
    );
    let mut blank = true;
    for line in body.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            if !blank {
                text.push('\n');
            }
            blank = true;
            continue;
        }
        blank = false;
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("\n`resetall\n");
    Ok(Exported { name: name.to_string(), source: source.to_string(), text, needs: vec![] })
}

fn rename(ident: &str, name: &str) -> String {
    let ident = if ident == "top" {
        name.to_string()
    } else if let Some(rest) = ident.strip_prefix("top$") {
        format!("{name}${rest}")
    } else {
        ident.to_string()
    };
    ident.replace('$', "_")
}

/// Fails when two distinct identifiers would share one exported name where it matters: within
/// one module (nets, ports, instances), or among the module names of the file. (The same name
/// may stand for different things in different modules: cc_hpcc's `now_d` and flow_sched's
/// register `now$d` never meet.)
fn check_injective(raw: &str, mapping: &BTreeMap<String, String>) -> Result<(), ExportError> {
    // A submodule's port name in a connection (`.p(`) is in the submodule's scope, not this
    // one's: cc_hpcc's port `cfg$inv_b` and its hop unit's port `cfg_inv_b` never meet.
    let words = |text: &str| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut prev = ' ';
        for w in text.split_inclusive(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')) {
            let word = w.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'));
            if !word.is_empty() && prev != '.' {
                out.insert(word.to_string());
            }
            prev = w.chars().last().unwrap_or(' ');
        }
        out
    };
    let mut scopes: Vec<BTreeSet<String>> = Vec::new();
    let mut modules = BTreeSet::new();
    let mut cur = String::new();
    for line in raw.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            scopes.push(words(&cur));
            cur.clear();
            modules.insert(rest.split('(').next().unwrap_or("").trim().to_string());
        }
        cur.push_str(line);
        cur.push('\n');
    }
    scopes.push(words(&cur));
    scopes.push(modules);
    for scope in &scopes {
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        for w in scope {
            let to = mapping.get(w).cloned().unwrap_or_else(|| w.clone());
            if let Some(prev) = seen.insert(to.clone(), w) {
                return Err(ExportError::NameClash(prev.to_string(), w.clone(), to));
            }
        }
    }
    Ok(())
}

/// Filelist of the exported modules, one path per line relative to rtl-out/.
pub fn filelist(modules: &[Exported]) -> String {
    let mut s = String::from("// Generated by `hpcc-nic export`: the Verilog files of hpcc-nic, in compile order.\n");
    for m in modules {
        s.push_str(&format!("{}.v\n", m.name));
    }
    s
}

/// The lint waivers, `rtl-out/hpcc_nic.vlt`: `hdl/src/hpcc_nic.vlt` with each waiver for every
/// exported file (`-file "@exported@"`) written once per file of `modules`, by file name, so the
/// waivers hold wherever rtl-out/ is copied and for no file of another name.
pub fn waivers(modules: &[Exported]) -> String {
    const TEMPLATE: &str = include_str!("hpcc_nic.vlt");
    let mut s = String::from(
        "`verilator_config\n// Generated by `hpcc-nic export` from hdl/src/hpcc_nic.vlt: edit that file, not this one.\n",
    );
    for line in TEMPLATE.lines() {
        if line.starts_with("lint_off") && line.contains("\"@exported@\"") {
            for m in modules {
                s.push_str(&line.replace("\"@exported@\"", &format!("\"*{}.v\"", m.name)));
                s.push('\n');
            }
        } else {
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// What `write_all` changed.
pub struct WriteReport {
    /// Files whose content differed (or were missing) and were rewritten.
    pub changed: Vec<String>,
    /// Files left as they were.
    pub unchanged: Vec<String>,
}

/// Every file of rtl-out/ that the export owns, name and text.
pub fn files(modules: &[Exported]) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> =
        modules.iter().map(|m| (format!("{}.v", m.name), m.text.clone())).collect();
    files.push(("hpcc_nic.f".to_string(), filelist(modules)));
    files.push(("hpcc_nic.vlt".to_string(), waivers(modules)));
    // The driver's header: from the same register map and layouts as the RTL.
    files.push(("hpcc_nic_regs.h".to_string(), sim::csr_header::c_header()));
    files
}

/// Files of `dir` that differ from (or are missing in) a fresh export.
pub fn stale(dir: &Path, modules: &[Exported]) -> Vec<String> {
    files(modules)
        .into_iter()
        .filter(|(f, text)| std::fs::read_to_string(dir.join(f)).ok().as_deref() != Some(text))
        .map(|(f, _)| f)
        .collect()
}

/// Writes every module and the filelist into `dir`, touching only files whose text changed.
pub fn write_all(dir: &Path, modules: &[Exported]) -> Result<WriteReport, ExportError> {
    std::fs::create_dir_all(dir).map_err(ExportError::Io)?;
    let files = files(modules);
    let mut report = WriteReport { changed: vec![], unchanged: vec![] };
    for (file, text) in files {
        let path = dir.join(&file);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            report.unchanged.push(file);
        } else {
            std::fs::write(&path, text).map_err(ExportError::Io)?;
            report.changed.push(file);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_top_and_dollars() {
        let raw = "module top(a);\n  top$r r(.d(r$d));\nendmodule // top\nmodule top$r(d);\nendmodule\n";
        let e = finish(raw, "m", "x.rs").unwrap();
        assert!(e.text.contains("module m(a);"));
        assert!(e.text.contains("m_r r(.d(r_d));"));
        assert!(e.text.contains("module m_r(d);"));
        assert!(!e.text.contains('$'));
        assert!(!e.text.contains("top"));
        assert!(e.text.contains("`default_nettype none"));
    }

    #[test]
    fn refuses_name_clash() {
        let raw = "module top(a_b, a$b);\nendmodule\n";
        assert!(matches!(finish(raw, "m", "x.rs"), Err(ExportError::NameClash(..))));
    }

    #[test]
    fn every_block_exports() {
        let files = all().unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names[0], crate::export_once::CELLS);
        assert!(names.contains(&"hpcc_nic_core"), "{names:?}");
        let core = files.iter().find(|f| f.name == "hpcc_nic_core").unwrap();
        for block in ["flow_sched", "cc_module", "nic_datapath", "axil_slave"] {
            assert!(core.needs.iter().any(|n| n == block), "hpcc_nic_core does not use {block}: {:?}", core.needs);
        }
    }

    #[test]
    fn waivers_name_every_exported_file() {
        let files = all().unwrap();
        let vlt = waivers(&files);
        let rules: Vec<&str> = vlt.lines().filter(|l| l.starts_with("lint_off")).collect();
        assert!(rules.iter().all(|l| !l.contains("@exported@") && !l.contains("rtl-out/")), "{vlt}");
        for f in &files {
            let line = format!("lint_off -rule DECLFILENAME -file \"*{}.v\"", f.name);
            assert!(vlt.lines().any(|l| l == line), "no DECLFILENAME waiver for {}.v", f.name);
        }
    }

    #[test]
    fn export_is_deterministic() {
        let a = flow_sched(10, "flow_sched").unwrap().text;
        let b = flow_sched(10, "flow_sched").unwrap().text;
        assert_eq!(a, b);
    }
}
