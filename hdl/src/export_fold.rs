//! Readable Verilog (issue 14, item 4): rust-hdl's register wrappers folded into their parent,
//! the clock used directly, and bit offsets in decimal.
//!
//! rust-hdl writes every `DFF` as an instance of a one-register module whose clock input is a
//! `reg` the parent sets in a combinational block (`r_clock = clock;`). Vendor tools and
//! 4-state simulators then see a clock that passes through logic, and a reader sees five lines
//! of instance per register. This pass, run on each module's text before the bodies are
//! shared (`export_once`), rewrites exactly three things and refuses anything it does not
//! recognise:
//!
//! - every instance of a DFF module (checked against rust-hdl's DFF text, line for line) becomes
//!   a `reg` declared with the DFF's initial value, updated in one `always @(posedge clock)`
//!   block per module and clock: `r_q <= r_d;`;
//! - every 1-bit `reg` whose only assignment is `x = clock;` is replaced by `clock` itself, so
//!   submodules and RAMs are clocked by the port and not by a copy. A module's clocks are its
//!   1-bit inputs named `clock` or `*_clock` (a clock crossing has two: `cdc_frame_fifo`);
//! - part-select offsets `[(32'h3d)+:(3)]` and constant shift amounts `<< 32'h140` are written
//!   in decimal: `[61+:3]`, `<< 320`. Both are self-determined in Verilog, so the value and
//!   width of every expression are unchanged.
//!
//! It then hands the text to `export_mask` (width-change masks that change nothing written
//! as zero extensions).
//!
//! Behaviour is unchanged by construction: a DFF module is `initial q = init; always
//! @(posedge clock) q <= d;`, which is what the folded `reg` is. The regressions re-check it on
//! the folded text.

use crate::export::ExportError;
use crate::export_once::rename;
use sim::layout::{CC_EVENT, CPL, DCQCN_EVENT, DCQCN_STATE, HPCC_RESULT, LDCP_EVENT, PKT_RECV, READ_RESP, RX_CREATE, TX_CREATE, TX_HDR, VERDICT};
use std::collections::{BTreeMap, BTreeSet};

/// A DFF module's declaration (`[23:0] `, empty for one bit) and initial value (`24'h0`).
#[derive(Clone, Debug, PartialEq)]
pub struct DffShape {
    pub decl: String,
    pub init: String,
}

/// The shape of module `name` if its text is exactly rust-hdl's DFF.
pub fn dff_shape(name: &str, text: &str) -> Option<DffShape> {
    let q = text.lines().find_map(|l| l.strip_prefix("    output reg  ")?.strip_suffix("q;"))?;
    let init = text.lines().find_map(|l| l.strip_prefix("       q = ")?.strip_suffix(';'))?;
    let shape = DffShape { decl: q.to_string(), init: init.to_string() };
    (text == dff_text(name, &shape)).then_some(shape)
}

/// rust-hdl's DFF module text for a shape.
fn dff_text(name: &str, s: &DffShape) -> String {
    format!(
        "module {name}(d,q,clock);\n\n    // Module arguments\n    input wire  {d}d;\n    \
         output reg  {d}q;\n    input wire  clock;\n\n    // Update code (custom)\n    \
         initial begin\n       q = {i};\n    end\n\n    always @(posedge clock) begin\n       \
         q <= d;\n    end\n\nendmodule // {name}\n",
        d = s.decl,
        i = s.init
    )
}

fn err(module: &str, what: String) -> ExportError {
    ExportError::Check(format!("export_fold: module {module}: {what}"))
}

/// One DFF instance: its data and output nets, and the net on its clock input.
struct Reg {
    d: String,
    q: String,
    clock: String,
    shape: DffShape,
}

/// Folds the DFF instances of one module (`dffs`: the DFF modules of its file by name),
/// removes its copies of the clock and writes offsets in decimal.
pub fn fold(text: &str, dffs: &BTreeMap<String, DffShape>) -> Result<String, ExportError> {
    let lines: Vec<&str> = text.lines().collect();
    let module = lines.first().and_then(|l| l.strip_prefix("module ")).unwrap_or("?");
    let module = module.split('(').next().unwrap_or("?").to_string();
    let mut drop = vec![false; lines.len()];

    // 1. DFF instances: `    <dff> <inst>(` `.d(x),` `.q(y),` `.clock(z)` `);`.
    let mut regs: Vec<Reg> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut w = lines[i].split_whitespace();
        let (Some(m), Some(inst), None) = (w.next(), w.next(), w.next()) else {
            i += 1;
            continue;
        };
        let Some(shape) = dffs.get(m).filter(|_| inst.ends_with('(')) else {
            i += 1;
            continue;
        };
        let mut ports = BTreeMap::new();
        let mut j = i + 1;
        while j < lines.len() && lines[j].trim() != ");" {
            let p = lines[j].trim().trim_end_matches(',');
            let (port, net) = p
                .strip_prefix('.')
                .and_then(|p| p.strip_suffix(')'))
                .and_then(|p| p.split_once('('))
                .ok_or_else(|| err(&module, format!("unexpected line in DFF instance: {}", lines[j])))?;
            ports.insert(port.to_string(), net.to_string());
            j += 1;
        }
        let keys: Vec<&str> = ports.keys().map(String::as_str).collect();
        if j == lines.len() || keys != ["clock", "d", "q"] {
            return Err(err(&module, format!("DFF instance {inst} has ports {keys:?}")));
        }
        for d in drop.iter_mut().take(j + 1).skip(i) {
            *d = true;
        }
        regs.push(Reg {
            d: ports["d"].clone(),
            q: ports["q"].clone(),
            clock: ports["clock"].clone(),
            shape: shape.clone(),
        });
        i = j + 1;
    }

    // 2. Copies of the clock: a 1-bit `reg` assigned once, `x = clock;`. One pass counts the
    // assignments to each name and finds the 1-bit `reg` declarations.
    let mut assigned: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bit_regs: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, l) in lines.iter().enumerate() {
        if let Some(x) = l.strip_prefix("    reg  ").and_then(|r| r.strip_suffix(';')) {
            bit_regs.insert(x, k);
        }
        let t = l.trim_start();
        if let Some(sp) = t.find(' ') {
            if t[sp..].starts_with(" = ") || t[sp..].starts_with(" <= ") {
                *assigned.entry(&t[..sp]).or_default() += 1;
            }
        }
    }
    // The module's clocks: 1-bit inputs named `clock` or `*_clock` (a clock crossing has two).
    let clocks: BTreeSet<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("    input wire  ").and_then(|r| r.strip_suffix(';')))
        .filter(|x| *x == "clock" || x.ends_with("_clock"))
        .collect();
    // Each copy and the clock it copies.
    let mut copies: BTreeMap<String, String> = BTreeMap::new();
    for (k, l) in lines.iter().enumerate() {
        let Some((x, src)) = l.trim_start().strip_suffix(';').and_then(|t| t.split_once(" = ")) else { continue };
        if !clocks.contains(src) {
            continue;
        }
        let Some(&dk) = bit_regs.get(x) else { continue };
        if x.contains(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) || assigned.get(x) != Some(&1) {
            continue;
        }
        drop[k] = true;
        drop[dk] = true;
        copies.insert(x.to_string(), src.to_string());
    }
    for r in &regs {
        if !copies.contains_key(&r.clock) {
            return Err(err(&module, format!("register {} is clocked by {}, not a copy of clock", r.q, r.clock)));
        }
    }
    // The registers by clock, each clock's in their order.
    let mut by_clock: BTreeMap<&str, Vec<&Reg>> = BTreeMap::new();
    for r in &regs {
        by_clock.entry(copies[&r.clock].as_str()).or_default().push(r);
    }

    // 3. The registers' outputs become `reg`s with their initial values.
    let mut decls: BTreeMap<String, String> = BTreeMap::new();
    for r in &regs {
        let wire = format!("    wire  {}{};", r.shape.decl, r.q);
        decls.insert(wire, format!("    reg  {}{} = {};", r.shape.decl, r.q, r.shape.init));
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut found = 0;
    let mut placed = false;
    for (k, l) in lines.iter().enumerate() {
        if drop[k] {
            continue;
        }
        if let Some(r) = decls.get(*l) {
            out.push(r.clone());
            found += 1;
            continue;
        }
        if l.trim_start().starts_with("// Update code") && !l.contains("custom") && !regs.is_empty() && !placed {
            placed = true;
            out.push("    // Registers (rust-hdl DFFs, folded by hdl/src/export_fold.rs)".into());
            for (clock, rs) in &by_clock {
                out.push(format!("    always @(posedge {clock}) begin"));
                for r in rs {
                    out.push(format!("        {} <= {};", r.q, r.d));
                }
                out.push("    end".into());
                out.push(String::new());
            }
        }
        out.push(l.to_string());
    }
    if found != regs.len() {
        return Err(err(&module, format!("{} of {} register outputs declared as wires", found, regs.len())));
    }
    if !regs.is_empty() && !placed {
        return Err(err(&module, "no `// Update code` section to put the registers before".into()));
    }
    // An instance section left empty loses its heading.
    let mut k = 0;
    while k + 1 < out.len() {
        if out[k] == "    // Sub module instances" && (out[k + 1].is_empty() || out[k + 1].starts_with("    //")) {
            out.remove(k);
            if k < out.len() && out[k].is_empty() {
                out.remove(k);
            }
        } else {
            k += 1;
        }
    }
    let mut text = out.join("\n");
    text.push('\n');

    // 4. The copies' remaining uses (port connections) name the clock itself.
    let map: BTreeMap<&str, String> = copies.iter().map(|(c, src)| (c.as_str(), src.clone())).collect();
    let text = rename(&text, &map);
    Ok(declare_constants(&crate::export_mask::zero_extend(&decimal(&text))))
}

/// `[(32'hN)+:(W)]` -> `[n+:W]` (also with 64'h, as part-select writes print it, and with a
/// constant expression, as an unrolled loop prints one), `[32'hN]` -> `[n]`, and
/// `<< 32'hN` / `>> 32'hN` / `<< (32'h40 * 2)` -> `<< n` / `>> n`.
pub fn decimal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let a = rest.find("[(");
        let i = rest.find("[32'h");
        let b = rest.find("< 32'h").map(|i| i.saturating_sub(1));
        let c = rest.find("> 32'h").map(|i| i.saturating_sub(1));
        let d = rest.find("< (").map(|i| i.saturating_sub(1));
        let e = rest.find("> (").map(|i| i.saturating_sub(1));
        let Some(at) = [a, i, b, c, d, e].into_iter().flatten().min() else { break };
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(t) = tail.strip_prefix("[(") {
            // `[(e)+:(W)]` with e constant: `[(32'h3d)+:(3)]`, or `[(32'h40 * 2)+:(64)]` from
            // an unrolled loop.
            let e_end = t.find(|c: char| c == ']' || c == ';' || c == '\n').unwrap_or(t.len());
            if let Some((e, w)) = t[..e_end].split_once(")+:(") {
                let w_end = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
                let closed = w_end > 0 && w[w_end..] == *")" && t[e_end..].starts_with(']');
                if let (Some(n), true) = (const_value(e), closed) {
                    out.push_str(&format!("[{n}+:{}]", &w[..w_end]));
                    rest = &t[e_end + 1..];
                    continue;
                }
            }
            out.push_str("[(");
            rest = &tail[2..];
            continue;
        }
        if let Some(t) = tail.strip_prefix("[32'h") {
            // `[32'hN]`, a bit select.
            let hex_end = t.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(t.len());
            if let (Ok(n), true) = (u64::from_str_radix(&t[..hex_end], 16), t[hex_end..].starts_with(']')) {
                out.push_str(&format!("[{n}]"));
                rest = &t[hex_end + 1..];
                continue;
            }
            out.push('[');
            rest = &tail[1..];
            continue;
        }
        // `<< 32'hN` or `>> 32'hN`, but not `>>> 32'hN` and not a comparison.
        let op = &tail[..2];
        let before = out.chars().last();
        if (op == "<<" || op == ">>") && before != Some('>') && before != Some('<') {
            // The amount: `32'hN`, or `(32'h40 * 2)` as an unrolled loop prints one. A decimal
            // without size is a signed 32-bit integer: const_value keeps to 0..2^31.
            let t = &tail[3..];
            let end = if t.starts_with('(') {
                t.find(')').map(|e| e + 1)
            } else {
                Some(t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '\'')).unwrap_or(t.len()))
            };
            if let Some((n, end)) = end.and_then(|e| const_value(&t[..e]).map(|n| (n, e))) {
                out.push_str(&format!("{op} {n}"));
                rest = &t[end..];
                continue;
            }
        }
        out.push_str(&tail[..3]);
        rest = &tail[3..];
    }
    out.push_str(rest);
    out
}

/// The value of a constant index expression as rust-hdl prints one after unrolling a loop,
/// `32'ha0 + 32'h40 * 2`: sized hex literals, decimals, `+ - *` and parentheses. None for
/// anything else (a name, another operator), or a value outside 0..2^31, where Verilog's
/// 32-bit arithmetic could differ from this one's.
fn const_value(e: &str) -> Option<u64> {
    let mut toks: Vec<Tok> = Vec::new();
    let b = e.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' => i += 1,
            b'+' | b'-' | b'*' | b'(' | b')' => {
                toks.push(Tok::Op(b[i]));
                i += 1;
            }
            b'0'..=b'9' => {
                let s = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let v = if e[i..].starts_with("'h") {
                    i += 2;
                    let h = i;
                    while i < b.len() && b[i].is_ascii_hexdigit() {
                        i += 1;
                    }
                    u64::from_str_radix(&e[h..i], 16).ok()?
                } else {
                    e[s..i].parse().ok()?
                };
                toks.push(Tok::Num(v));
            }
            _ => return None,
        }
    }
    let mut at = 0;
    let v = sum(&toks, &mut at)?;
    (at == toks.len() && v < 1 << 31).then_some(v)
}

#[derive(Clone, Copy)]
enum Tok {
    Num(u64),
    Op(u8),
}

fn sum(t: &[Tok], at: &mut usize) -> Option<u64> {
    let mut v = product(t, at)?;
    while let Some(Tok::Op(op @ (b'+' | b'-'))) = t.get(*at).copied() {
        *at += 1;
        let r = product(t, at)?;
        v = if op == b'+' { v.checked_add(r)? } else { v.checked_sub(r)? };
    }
    (v < 1 << 31).then_some(v)
}

fn product(t: &[Tok], at: &mut usize) -> Option<u64> {
    let mut v = atom(t, at)?;
    while let Some(Tok::Op(b'*')) = t.get(*at).copied() {
        *at += 1;
        v = v.checked_mul(atom(t, at)?)?;
        if v >= 1 << 31 {
            return None;
        }
    }
    Some(v)
}

fn atom(t: &[Tok], at: &mut usize) -> Option<u64> {
    match t.get(*at).copied()? {
        Tok::Num(v) => {
            *at += 1;
            Some(v)
        }
        Tok::Op(b'(') => {
            *at += 1;
            let v = sum(t, at)?;
            matches!(t.get(*at), Some(Tok::Op(b')'))).then(|| *at += 1)?;
            Some(v)
        }
        _ => None,
    }
}

/// The named constants hdl writes by name: a comment for their block, their width in bits,
/// and each name with its value.
const CONSTANTS: &[(&str, usize, &[(&str, u64)])] = &[
    ("RoCE BTH opcodes (sim::packet::Opcode)", VERDICT.opcode.width, crate::roce_op::ALL),
    ("Frame offsets after the transport headers (sim::packet)", crate::roce_op_class::AFTER_BITS, crate::roce_op_class::AFTER_HEADERS),
    ("Header word bit offsets after the transport headers", crate::roce_op_class::AFTER_BIT_BITS, crate::roce_op_class::AFTER_HEADERS_BIT),
    ("Header words in wire byte order (sim::packet)", TX_HDR.ethertype.width, crate::frame::WIRE_WORDS),
    ("Header versions and lengths (sim::packet)", TX_HDR.version.width, crate::frame::NIBBLES),
    ("IPv4 protocol numbers (sim::packet)", TX_HDR.protocol.width, crate::frame::PROTOCOLS),
    ("Tx beat FIFO levels", 6, crate::tx_pipe::FIFO_LEVELS),
    ("IPv4 header words that are constant, big-endian (sim::packet)", 16, crate::frame::IPV4_WORDS),
    ("Header block lengths after the transport headers (sim::packet)", crate::roce_op_class::AFTER_BITS, crate::tx_pipe_desc::HEADER_BLOCK_LENS),
    ("flow_sched's op kinds (sim::flow_sched::Kind)", 3, crate::flow_sched::OP_KINDS),
    ("flow_sched's ring pop limit (sim::flow_sched)", 5, &[("BURST_POP_LIMIT", crate::flow_sched::BURST_POP_LIMIT)]),
    ("CC event types (the cc_event word's kind; sim, cc_codes)", CC_EVENT.kind.width, crate::cc_codes::EVENT_TYPES),
    ("CC algorithms (the cc_event word's alg; sim, cc_codes)", CC_EVENT.alg.width, crate::cc_codes::ALGORITHMS),
    ("cc_hpcc result actions (the hpcc_result word's action; sim, cc_codes)", HPCC_RESULT.action.width, crate::cc_codes::HPCC_ACTIONS),
    ("LDCP engine event kinds (sim, cc_codes)", LDCP_EVENT.kind.width, crate::cc_codes::LDCP_KINDS),
    ("DCQCN engine event kinds (sim, cc_codes)", DCQCN_EVENT.kind.width, crate::cc_codes::DCQCN_KINDS),
    ("Completion status (the cpl word's status)", CPL.status.width, crate::hpcc_nic_core::csr::CPL_STATUS),
    ("DCQCN increase stages (the dcqcn_state word's last_stage; sim, cc_codes)", DCQCN_STATE.last_stage.width, crate::cc_codes::DCQCN_STAGES),
    ("DCQCN decay step widths and bit offsets", 6, crate::cc_dcqcn_decay::DECAY_OFFSETS),
    ("DCQCN decay step shifts", 6, crate::cc_dcqcn_decay::DECAY_SHIFTS),
    ("Rx stream fault drop codes (sim)", crate::rx_pipe::CODE_BITS, crate::rx_pipe::FAULTS),
    ("Rx frame check drop codes (sim::packet::ParseError)", crate::rx_pipe::CODE_BITS, crate::rx_pipe::DROP_CODES),
    ("Rx frame limit in whole beats (sim)", crate::rx_pipe::BEAT_INDEX_BITS, crate::rx_pipe::FRAME_LIMITS),
    ("Tx control word ops (sim)", TX_CREATE.op.width, crate::tx_ctx::TX_OPS),
    ("PktRecv kinds (sim)", PKT_RECV.kind.width, crate::tx_ctx::RECV_KINDS),
    ("READ response positions (sim::tx_ctx::ReadPos)", READ_RESP.pos.width, crate::tx_ctx::READ_POSITIONS),
    ("Tx input picks", crate::tx_ctx::PICK_BITS, crate::tx_ctx::TX_PICKS),
    ("Rx control word ops (sim)", RX_CREATE.op.width, crate::rx_ctx::RX_OPS),
    ("Rx input picks", crate::rx_ctx::PICK_BITS, crate::rx_ctx::RX_PICKS),
    ("Rx context counters (sim)", crate::rx_ctx::STAT_BITS, crate::rx_ctx::RX_STATS),
    ("AETH syndromes (sim::packet)", VERDICT.aeth_syndrome.width, crate::rx_ctx_rules::AETH_SYNDROMES),
    ("Sequencer states", crate::hpcc_nic_core::SEQ_BITS, crate::hpcc_nic_core::SEQ_STATES),
    ("Command ops (CSR CMD, and internal)", crate::hpcc_nic_core::CMD_OP_BITS, crate::hpcc_nic_core::CMD_OPS),
    ("Command errors (CSR STATUS)", crate::hpcc_nic_core::ERR_BITS, crate::hpcc_nic_core::CMD_ERRORS),
    ("Register word addresses (csr.rs)", crate::hpcc_nic_core::AXIL_ADDR_BITS, crate::hpcc_nic_core::REG_ADDRS),
    ("Register word ranges (csr.rs)", crate::hpcc_nic_core::AXIL_ADDR_BITS, crate::hpcc_nic_core::REG_RANGES),
    ("Register values (csr.rs)", 32, crate::hpcc_nic_core::REG_VALUES),
    ("Register fields (csr.rs)", 5, crate::hpcc_nic_core::REG_FIELDS),
    ("tkeep of a frame padded to the Ethernet minimum (sim::mac_shim)", 64, crate::mac_shim::PAD_CONSTANTS),
    ("Host queue register word addresses (csr.rs)", 12, crate::host_queues::HQ_REG_ADDRS),
    ("Host queue engine events", 3, crate::host_queues::HQ_OPS),
    ("WQE opcodes (csr.rs)", 8, crate::host_queues::HQ_WQE_OPS),
    ("NIC counter register word addresses (csr.rs)", 12, crate::nic_stats::NIC_STAT_ADDRS),
];

/// Declares each named constant of `CONSTANTS` that a module's code names as a `localparam`
/// of its list's width after its port declarations,
/// one block per kind. rust-hdl writes a Rust constant's name into the Verilog as if it were a
/// signal; this gives it its value there.
pub fn declare_constants(text: &str) -> String {
    // The declarations go after the port block; a module without one is left alone.
    let Some(args) = text.find("    // Module arguments\n") else { return text.to_string() };
    let Some(end) = text[args..].find("\n\n").map(|e| args + e + 1) else { return text.to_string() };
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let names = |name: &str| {
        text.match_indices(name)
            .any(|(i, _)| !text[..i].ends_with(ident) && !text[i + name.len()..].starts_with(ident))
    };
    let mut block = String::new();
    for (what, width, list) in CONSTANTS {
        let used: Vec<&(&str, u64)> = list.iter().filter(|(name, _)| names(name)).collect();
        if used.is_empty() {
            continue;
        }
        block += &format!("\n    // {what}\n");
        let digits = (width + 3) / 4;
        for (name, v) in used {
            block += &format!("    localparam [{}:0] {name} = {width}'h{v:0digits$x};\n", width - 1);
        }
    }
    format!("{}{}{}", &text[..end], block, &text[end..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape() -> DffShape {
        DffShape { decl: "[7:0] ".into(), init: "8'h5".into() }
    }

    #[test]
    fn recognises_only_rust_hdl_dffs() {
        let t = dff_text("m_r", &shape());
        assert_eq!(dff_shape("m_r", &t), Some(shape()));
        assert_eq!(dff_shape("m_r", &t.replace("q <= d;", "q <= ~d;")), None);
        assert_eq!(dff_shape("m_r", &t.replace("posedge", "negedge")), None);
    }

    const PARENT: &str = "module m(clock,a,b);\n\n    // Module arguments\n    input wire  clock;\n    \
        input wire  [7:0] a;\n    output reg  [7:0] b;\n\n    // Stub signals\n    reg  [7:0] r_d;\n    \
        wire  [7:0] r_q;\n    reg  r_clock;\n\n    // Sub module instances\n    m_r r(\n        .d(r_d),\n        \
        .q(r_q),\n        .clock(r_clock)\n    );\n\n    // Update code\n    always @(*) begin\n        \
        r_clock = clock;\n        r_d = r_q;\n        r_d = a[(32'h0)+:(8)] << 32'h2;\n        \
        r_d[(64'h1)+:(2)] = a[32'h7];\n        b = r_q >> 32'h1 > 32'ha;\n    end\n\nendmodule // m\n";

    #[test]
    fn folds_a_register() {
        let dffs = BTreeMap::from([("m_r".to_string(), shape())]);
        let t = fold(PARENT, &dffs).unwrap();
        assert!(t.contains("    reg  [7:0] r_q = 8'h5;\n"), "{t}");
        assert!(t.contains("    always @(posedge clock) begin\n        r_q <= r_d;\n    end\n"), "{t}");
        assert!(!t.contains("r_clock") && !t.contains("m_r ") && !t.contains("Sub module"), "{t}");
        assert!(t.contains("r_d = a[0+:8] << 2;"), "{t}");
        assert!(t.contains("r_d[1+:2] = a[7];"), "{t}");
        assert!(t.contains("b = r_q >> 1 > 32'ha;"), "{t}");
    }

    #[test]
    fn declares_the_opcodes_a_module_names_and_no_others() {
        let m = "module m(a,b);\n\n    // Module arguments\n    input wire  [7:0] a;\n    output reg  b;\n\n    \
            // Update code\n    always @(*) begin\n        b = a == OP_CNP | a == XOP_ACKNOWLEDGE;\n    end\n\nendmodule // m\n";
        let t = declare_constants(m);
        assert!(t.contains("    output reg  b;\n\n    // RoCE BTH opcodes (sim::packet::Opcode)\n    localparam [7:0] OP_CNP = 8'h81;\n\n"), "{t}");
        assert!(!t.contains("localparam [7:0] OP_ACKNOWLEDGE"), "{t}");
        let none = m.replace("OP_CNP", "8'h81");
        assert_eq!(declare_constants(&none), none);
    }

    #[test]
    fn declares_cc_codes_at_their_widths() {
        let m = "module m(a,b);\n\n    // Module arguments\n    input wire  [3:0] a;\n    output reg  b;\n\n    \
            // Update code\n    always @(*) begin\n        b = (a == EV_CREATE) & (a[1:0] == ALG_DCQCN);\n    end\n\nendmodule // m\n";
        let t = declare_constants(m);
        assert!(t.contains("    // CC event types (the cc_event word's kind; sim, cc_codes)\n    localparam [3:0] EV_CREATE = 4'h6;\n"), "{t}");
        assert!(t.contains("    // CC algorithms (the cc_event word's alg; sim, cc_codes)\n    localparam [1:0] ALG_DCQCN = 2'h3;\n"), "{t}");
        assert!(!t.contains("RoCE") && !t.contains("EV_ACK"), "{t}");
    }

    /// A module that names a constant gets it from every list that has the name, so a name in
    /// two lists would be declared twice; each value must fit the width it is declared at; and
    /// within a list (one field's codes) no two names share a value.
    #[test]
    fn constant_names_are_unique_and_values_fit() {
        let mut seen = BTreeSet::new();
        for (what, width, list) in CONSTANTS {
            for (i, (name, v)) in list.iter().enumerate() {
                assert!(seen.insert(*name), "{name} is in two lists");
                assert!(u128::from(*v) < 1u128 << width, "{name} = {v} does not fit {width} bits ({what})");
                assert!(list[i + 1..].iter().all(|(_, w)| w != v), "{name} shares its value {v} ({what})");
            }
        }
    }

    #[test]
    fn refuses_a_register_on_another_clock() {
        let dffs = BTreeMap::from([("m_r".to_string(), shape())]);
        let t = PARENT.replace("r_clock = clock;", "r_clock = a[0];");
        assert!(fold(&t, &dffs).is_err());
    }

    #[test]
    fn constant_offsets_of_unrolled_loops_are_decimal() {
        assert_eq!(decimal("y = x[(32'h40 * 3)+:(64)];"), "y = x[192+:64];");
        assert_eq!(decimal("y = x[(32'ha0 + 32'h40 * 2)+:(64)];"), "y = x[288+:64];");
        assert_eq!(decimal("y = x[((32'h2 + 1) * 8)+:(8)];"), "y = x[24+:8];");
        // Not constant, or not a plain part-select: left as it is.
        for keep in ["y = x[(k * 32'h40)+:(64)];", "y = x[(32'h1 - 32'h2)+:(8)];", "y = x[(32'h1 / 2)+:(8)];"] {
            assert_eq!(decimal(keep), keep);
        }
    }

    #[test]
    fn constant_shifts_of_unrolled_loops_are_decimal() {
        assert_eq!(decimal("h = h | ({256'd0, s} << (32'h40 * 2));"), "h = h | ({256'd0, s} << 128);");
        assert_eq!(decimal("h = s >> (32'h20 * 1);"), "h = s >> 32;");
        // A shift by a signal, a comparison, an arithmetic shift: left as they are.
        for keep in ["h = s << (k * 32'h8);", "b = a < (32'h2 * 2);", "h = s >>> (32'h1 * 2);"] {
            assert_eq!(decimal(keep), keep);
        }
    }
}
