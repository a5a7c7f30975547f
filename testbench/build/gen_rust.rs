//! The typed Rust wrapper of a model, appended to $OUT_DIR/models.rs.

use crate::gen_axis::gen_axis;
use crate::modules::Module;
use crate::ports::Port;
use std::fmt::Write as _;

pub fn camel(name: &str) -> String {
    name.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| w[..1].to_ascii_uppercase() + &w[1..])
        .collect()
}

pub fn gen_rust(out: &mut String, m: &Module, ports: &[Port]) {
    let (n, ty, np) = (&m.name, camel(&m.name), ports.len());
    let clock = ports.iter().any(|p| p.cname == "clock" && p.input);
    let mut consts = String::new();
    let mut access = String::new();
    let mut clean = String::new();
    // Every input set to 0 when the model is made: with --x-initial unique Verilator fills
    // them with random bits, and a harness must not depend on that (only the design's own
    // state is what a randomized-initial-state run is meant to shake).
    let mut zero = String::new();
    for (i, p) in ports.iter().enumerate() {
        let r = &p.rname;
        let _ = writeln!(
            consts,
            "    pub const {}_WIDTH: usize = {};",
            r.to_uppercase(),
            p.width
        );
        let dir = if p.input { "input" } else { "output" };
        let doc = format!(
            "    /// `{}`: {dir}, {} bit{}.\n",
            p.cname,
            p.width,
            if p.width == 1 { "" } else { "s" }
        );
        if p.bits == 0 {
            let words = p.width.div_ceil(32);
            access += &doc;
            let _ = writeln!(
                access,
                "    #[inline]\n    pub fn {r}(&self) -> &[u32] {{\n        \
                 unsafe {{ ::std::slice::from_raw_parts(self.p[{i}] as *const u32, {words}) }}\n    }}"
            );
            if p.input {
                access += &doc;
                let _ = writeln!(
                    access,
                    "    #[inline]\n    pub fn {r}_mut(&mut self) -> &mut [u32] {{\n        \
                     unsafe {{ ::std::slice::from_raw_parts_mut(self.p[{i}] as *mut u32, {words}) }}\n    }}"
                );
                let _ = writeln!(
                    zero,
                    "        unsafe {{ ::std::slice::from_raw_parts_mut(self.p[{i}] as *mut u32, {words}) }}.fill(0);"
                );
                if p.width % 32 != 0 {
                    let mask = (1u64 << (p.width % 32)) - 1;
                    let _ = writeln!(
                        clean,
                        "        unsafe {{ *(self.p[{i}] as *mut u32).add({}) &= {mask:#x} }};",
                        words - 1
                    );
                }
            }
        } else {
            let t = format!("u{}", p.bits);
            access += &doc;
            let _ = writeln!(
                access,
                "    #[inline]\n    pub fn {r}(&self) -> {t} {{\n        unsafe {{ *(self.p[{i}] as *const {t}) }}\n    }}"
            );
            if p.input {
                // Verilator expects the bits above the port width to be zero.
                let v = if p.width < p.bits {
                    format!("v & {:#x}", (1u64 << p.width) - 1)
                } else {
                    "v".into()
                };
                access += &doc;
                let _ = writeln!(
                    access,
                    "    #[inline]\n    pub fn set_{r}(&mut self, v: {t}) {{\n        unsafe {{ *(self.p[{i}] as *mut {t}) = {v} }}\n    }}"
                );
                let _ = writeln!(zero, "        unsafe {{ *(self.p[{i}] as *mut {t}) = 0 }};");
            }
        }
    }
    // Only a model with a clock gets an inherent tick(); Model::tick() of one
    // without evaluates and moves time on by a period.
    let tick = if clock {
        "\n    /// One clock cycle: `clock` low, eval, +2 ns, dump; `clock` high, eval, +2 ns, dump.
    pub fn tick(&mut self) {
        self.clean_inputs();
        self.raw.tick();
    }\n"
    } else {
        ""
    };
    let _ = write!(
        out,
        r#"extern "C" {{
    fn hpcc_{n}_new(vcd: *const ::std::ffi::c_char, ports: *mut *mut u8) -> *mut ::std::ffi::c_void;
}}

/// The Verilated module `{n}` ({file}).
pub struct {ty} {{
    raw: crate::verilated::Raw,
    /// Port storage inside the model (which `raw` owns), in header order.
    p: [*mut u8; {np}],
}}

// SAFETY: the model is reached only through `raw` and `p`, both owned by this
// value; a Verilated model with its own context has no thread affinity.
unsafe impl Send for {ty} {{}}

#[allow(non_snake_case, clippy::unnecessary_cast)]
impl {ty} {{
    pub const NAME: &'static str = "{n}";
{consts}
    pub fn new() -> Self {{
        Self::open(::std::option::Option::None)
    }}

    /// Also writes every signal to a VCD file (ps resolution, 4 ns clock).
    pub fn with_vcd(path: impl AsRef<::std::path::Path>) -> Self {{
        Self::open(::std::option::Option::Some(path.as_ref()))
    }}

    fn open(vcd: ::std::option::Option<&::std::path::Path>) -> Self {{
        let mut p = [::std::ptr::null_mut(); {np}];
        // SAFETY: the shim fills `p` with {np} pointers, as generated.
        let raw = crate::verilated::Raw::new(Self::NAME, vcd, |v| unsafe {{ hpcc_{n}_new(v, p.as_mut_ptr()) }});
        let mut s = Self {{ raw, p }};
        s.zero_inputs();
        s
    }}

    /// Sets every input port to 0 (done once when the model is made).
    pub fn zero_inputs(&mut self) {{
{zero}    }}

    fn clean_inputs(&mut self) {{
{clean}    }}

    pub fn eval(&mut self) {{
        self.clean_inputs();
        self.raw.eval();
    }}
{tick}
    pub fn cycles(&self) -> u64 {{
        self.raw.cycles()
    }}

    pub fn time_ps(&self) -> u64 {{
        self.raw.time_ps()
    }}

    pub fn finished(&self) -> bool {{
        self.raw.finished()
    }}

    pub fn fatal(&self) -> ::std::option::Option<::std::string::String> {{
        self.raw.fatal()
    }}

    pub fn flush_vcd(&mut self) {{
        self.raw.flush_vcd();
    }}

    // Port accessors. SAFETY (all): `p[i]` points to the port's storage, of
    // the type used here, for as long as `self` lives.
{access}}}

impl ::std::default::Default for {ty} {{
    fn default() -> Self {{
        Self::open(::std::option::Option::None)
    }}
}}

impl crate::verilated::Model for {ty} {{
    const NAME: &'static str = "{n}";
    fn new() -> Self {{
        Self::open(::std::option::Option::None)
    }}
    fn with_vcd(path: &::std::path::Path) -> Self {{
        Self::open(::std::option::Option::Some(path))
    }}
    fn eval(&mut self) {{
        {ty}::eval(self)
    }}
    fn tick(&mut self) {{
        self.clean_inputs();
        self.raw.tick();
    }}
    fn eval_at(&mut self, ps: u64) {{
        self.clean_inputs();
        self.raw.eval_at(ps);
    }}
    fn cycles(&self) -> u64 {{
        self.raw.cycles()
    }}
    fn time_ps(&self) -> u64 {{
        self.raw.time_ps()
    }}
    fn finished(&self) -> bool {{
        self.raw.finished()
    }}
    fn fatal(&self) -> ::std::option::Option<::std::string::String> {{
        self.raw.fatal()
    }}
    fn flush_vcd(&mut self) {{
        self.raw.flush_vcd()
    }}
}}

"#,
        file = m.label,
    );
    out.push_str(&gen_axis(&ty, ports));
}
