//! The netlist as the depth search sees it: yosys's JSON read into ports and cells, each cell
//! with the [`Kind`] that says how paths cross it.

use super::names::design_src;
use crate::synth::stat::{is_lut, is_lut_memory};
use crate::synth::ToolError;
use serde_json::Value;

/// How the depth search sees a cell type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
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

pub(super) fn is_clock_pin(pin: &str) -> bool {
    pin == "C" || pin.contains("CLK")
}

/// A net bit; constants (`"0"`, `"1"`, `"x"`, `"z"`) are `None`.
pub(super) fn net_bit(v: &Value) -> Option<u64> {
    v.as_u64()
}

pub(super) struct Pin<'a> {
    pub(super) name: &'a str,
    pub(super) input: bool,
    pub(super) bits: Vec<Option<u64>>,
}

pub(super) struct Cell<'a> {
    pub(super) name: &'a str,
    pub(super) ty: &'a str,
    pub(super) public: bool,
    /// The first `src` location in the design's own files, as `file.v:line.col`.
    pub(super) src: Option<String>,
    pub(super) kind: Kind,
    pub(super) pins: Vec<Pin<'a>>,
}

impl Cell<'_> {
    pub(super) fn pin(&self, name: &str) -> Option<&Pin<'_>> {
        self.pins.iter().find(|p| p.name == name)
    }

    /// The nets that output `pin[bit]` depends on combinationally, or `None` if
    /// that output starts a path (a register output).
    pub(super) fn arcs(&self, pin: &str, bit: usize) -> Option<Vec<u64>> {
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

/// A module port; an inout is listed twice, as an input and as an output.
pub(super) struct Port<'a> {
    pub(super) name: &'a str,
    pub(super) input: bool,
    pub(super) bits: Vec<Option<u64>>,
}

/// The ports of `module`.
pub(super) fn ports(module: &Value) -> Vec<Port<'_>> {
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
    ports
}

/// The cells of `module`, and the cell types among them that the search does not model.
pub(super) fn cells(module: &Value) -> Result<(Vec<Cell<'_>>, Vec<String>), ToolError> {
    let perr = |detail: String| ToolError::Parse { what: "yosys JSON netlist".into(), detail };
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
    Ok((cells, unmodelled))
}
