//! Typed AXI-Stream handles of a model: one associated constant per `tdata`/`tvalid`/`tready`
//! triple, appended to the model's wrapper in $OUT_DIR/models.rs. `s_axis_event_*` of
//! `cc_hpcc` becomes `CcHpcc::S_AXIS_EVENT: SAxis<CcHpcc>`, `m_axis_result_*` becomes
//! `CcHpcc::M_AXIS_RESULT: MAxis<CcHpcc>` (types in src/verilated.rs). `tlast`, `tkeep` and
//! `tuser` of the same prefix are part of the handle when present.
//!
//! Writes only Rust: not part of the models' cache key.

use crate::ports::Port;
use std::fmt::Write as _;

/// The handles of every stream among `ports`, as an `impl` block of `ty`.
pub fn gen_axis(ty: &str, ports: &[Port]) -> String {
    let find = |name: &str| ports.iter().find(|p| p.cname == name);
    let mut consts = String::new();
    for valid in ports.iter().filter(|p| p.cname.ends_with("_tvalid")) {
        let prefix = valid.cname.trim_end_matches("_tvalid");
        let slave = prefix.starts_with("s_axis");
        if !slave && !prefix.starts_with("m_axis") {
            continue;
        }
        let (Some(data), Some(ready)) = (find(&format!("{prefix}_tdata")), find(&format!("{prefix}_tready")))
        else {
            continue;
        };
        // Directions as AXI-Stream has them; a port that breaks them is not a stream.
        if valid.input != slave || data.input != slave || ready.input == slave {
            continue;
        }
        let side = |s: &str| find(&format!("{prefix}_{s}")).filter(|p| p.input == slave && p.width <= 64);
        let (v, d, r) = (&valid.rname, &data.rname, &ready.rname);
        let (konst, kind) = (prefix.to_uppercase(), if slave { "SAxis" } else { "MAxis" });
        let _ = writeln!(
            consts,
            "    /// `{prefix}_*`: tdata {} bits{}{}{}.",
            data.width,
            side("tlast").map_or("", |_| ", tlast"),
            side("tkeep").map_or("", |_| ", tkeep"),
            side("tuser").map_or("", |_| ", tuser"),
        );
        let _ = writeln!(
            consts,
            "    pub const {konst}: crate::verilated::{kind}<Self> = crate::verilated::{kind} {{\n        \
             name: \"{prefix}\",\n        bits: {},",
            data.width
        );
        // `as uN` only where the storage is narrower than the value (clippy: no same-type casts).
        let cast = |bits: usize| if bits == 64 { String::new() } else { format!(" as u{bits}") };
        let widen = |bits: usize| if bits == 64 { "" } else { " as u64" };
        let opt = |s: &str, f: &dyn Fn(&Port) -> String| match side(s) {
            Some(p) => format!("Some({})", f(p)),
            None => "None".into(),
        };
        if slave {
            let set_data = if data.bits == 0 {
                format!("|m, w| m.{d}_mut().copy_from_slice(w)")
            } else {
                format!("|m, w| m.set_{d}(crate::verilated::low_u64(w){})", cast(data.bits))
            };
            let _ = writeln!(
                consts,
                "        set_tvalid: |m, v| m.set_{v}(v as u8),\n        \
                 tready: |m| m.{r}() != 0,\n        set_tdata: {set_data},\n        \
                 set_tlast: {},\n        set_tkeep: {},\n        set_tuser: {},\n    }};",
                opt("tlast", &|p| format!("|m, v| m.set_{}(v as u8)", p.rname)),
                opt("tkeep", &|p| format!("|m, v| m.set_{}(v{})", p.rname, cast(p.bits))),
                opt("tuser", &|p| format!("|m, v| m.set_{}(v{})", p.rname, cast(p.bits))),
            );
        } else {
            let tdata = if data.bits == 0 {
                format!("|m, w| w.copy_from_slice(m.{d}())")
            } else {
                format!("|m, w| crate::verilated::put_u64(m.{d}(){}, w)", widen(data.bits))
            };
            let _ = writeln!(
                consts,
                "        tvalid: |m| m.{v}() != 0,\n        set_tready: |m, v| m.set_{r}(v as u8),\n        \
                 tdata: {tdata},\n        tlast: {},\n        tkeep: {},\n        tuser: {},\n    }};",
                opt("tlast", &|p| format!("|m| m.{}() != 0", p.rname)),
                opt("tkeep", &|p| format!("|m| m.{}(){}", p.rname, widen(p.bits))),
                opt("tuser", &|p| format!("|m| m.{}(){}", p.rname, widen(p.bits))),
            );
        }
    }
    if consts.is_empty() {
        return String::new();
    }
    format!("/// AXI-Stream handles of `{ty}`.\nimpl {ty} {{\n{consts}}}\n\n")
}
