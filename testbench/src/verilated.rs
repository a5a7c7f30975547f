//! Typed bindings to the Verilated RTL.
//!
//! build.rs verilates every module listed in `rtl-out/hpcc_nic.f` and every
//! fixture in `testbench/verilog/`, and generates one wrapper per module in
//! [`models`]: `flow_sched` becomes `FlowSched`, with
//!
//! - `new()`, `with_vcd(path)`; dropping it frees the model and closes the VCD;
//! - per port `<port>()` and, for inputs, `set_<port>(v)` (u8/u16/u32/u64 by
//!   width), or for ports wider than 64 bits `<port>() -> &[u32]` and
//!   `<port>_mut() -> &mut [u32]` (word 0 = bits 31:0) straight into the model;
//!   and `<PORT>_WIDTH`;
//! - `eval()`, `tick()` (modules with a `clock` input; 4 ns period), `cycles()`,
//!   `time_ps()`, `finished()`, `fatal()`, `flush_vcd()`, and [`Model`];
//! - per AXI-Stream port triple (`<prefix>_tdata`, `_tvalid`, `_tready`) a typed handle,
//!   `S_AXIS_EVENT: SAxis<Self>` or `M_AXIS_RESULT: MAxis<Self>` ([`SAxis`], [`MAxis`]),
//!   which the generic source and sink of `harness::stream` drive.
//!
//! Every instance has its own Verilator context, so instances are independent
//! and may run on different threads. `$finish`, `$stop` and `$fatal` do not end
//! the process: they set [`Model::finished`] (and [`Model::fatal`]). What the
//! design prints (`$display`, the `$fatal` text) goes to the process's stdout.
//!
//! To add a model, list its file in `rtl-out/hpcc_nic.f` (module name = file
//! stem), or for a binding test put it in `testbench/verilog/`.
//!
//! Environment: `VERILATOR`, `VERILATOR_ROOT` and `HPCC_VL_EXTRA` (extra
//! verilator arguments, e.g. `--x-assign unique --x-initial unique`) at build
//! time; `HPCC_VL_RAND_RESET` (0 zeros, 1 ones, 2 random) and
//! `HPCC_VL_RAND_SEED` at run time, for how such a build fills X bits. Every input port
//! is set to 0 when a model is made (`zero_inputs`), whatever that fill: a harness sets the
//! inputs it needs, and a randomized-initial-state run shakes only the design's own state.

use std::ffi::{c_char, c_void, CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr::{self, NonNull};

/// The generated wrappers, one per Verilated module.
pub mod models {
    include!(concat!(env!("OUT_DIR"), "/models.rs"));
}

pub use models::*;

/// What every generated wrapper offers, for harness code generic over models.
pub trait Model: Send + Sized {
    /// The Verilog module name.
    const NAME: &'static str;
    fn new() -> Self;
    /// Also writes every signal to a VCD file (1 ps resolution).
    fn with_vcd(path: &Path) -> Self;
    /// Evaluates the model for the inputs as they are now; time does not move.
    fn eval(&mut self);
    /// One 4 ns clock cycle: `clock` low, eval, +2 ns, VCD dump; `clock` high,
    /// eval, +2 ns, VCD dump. A model without a `clock` port is evaluated once
    /// and time moves on by 4 ns. Does nothing after a fatal error.
    fn tick(&mut self);
    /// Moves time on to `ps` (if later), evaluates and writes the VCD at that time: for a
    /// harness that toggles its clocks itself (several clocks at their own periods). Does
    /// not count a cycle.
    fn eval_at(&mut self, ps: u64);
    /// Number of tick() calls that ran.
    fn cycles(&self) -> u64;
    /// Simulated time in ps (4000 per tick).
    fn time_ps(&self) -> u64;
    /// True after `$finish`, `$stop`, `$fatal` or a fatal Verilator error.
    fn finished(&self) -> bool;
    /// The message of `$fatal`, `$stop` or a fatal Verilator error, if any.
    fn fatal(&self) -> Option<String>;
    fn flush_vcd(&mut self);
}

/// An input stream of model `M` (`s_axis_*`), generated for every port triple. The data is
/// little-endian 32-bit words (word 0 = bits 31:0), whatever the port's storage.
pub struct SAxis<M> {
    /// Port prefix, e.g. `s_axis_event`.
    pub name: &'static str,
    /// Width of `tdata`.
    pub bits: usize,
    pub set_tvalid: fn(&mut M, bool),
    pub tready: fn(&M) -> bool,
    /// Takes exactly [`SAxis::words`] words.
    pub set_tdata: fn(&mut M, &[u32]),
    pub set_tlast: Option<fn(&mut M, bool)>,
    pub set_tkeep: Option<fn(&mut M, u64)>,
    pub set_tuser: Option<fn(&mut M, u64)>,
}

/// An output stream of model `M` (`m_axis_*`), generated for every port triple.
pub struct MAxis<M> {
    /// Port prefix, e.g. `m_axis_result`.
    pub name: &'static str,
    /// Width of `tdata`.
    pub bits: usize,
    pub tvalid: fn(&M) -> bool,
    pub set_tready: fn(&mut M, bool),
    /// Fills exactly [`MAxis::words`] words.
    pub tdata: fn(&M, &mut [u32]),
    pub tlast: Option<fn(&M) -> bool>,
    pub tkeep: Option<fn(&M) -> u64>,
    pub tuser: Option<fn(&M) -> u64>,
}

// Handles are plain function tables: copyable whatever `M` is (a derive would ask M: Copy).
impl<M> Clone for SAxis<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M> Copy for SAxis<M> {}
impl<M> Clone for MAxis<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M> Copy for MAxis<M> {}

impl<M> SAxis<M> {
    /// 32-bit words of `tdata`.
    pub const fn words(&self) -> usize {
        self.bits.div_ceil(32)
    }
}

impl<M> MAxis<M> {
    /// 32-bit words of `tdata`.
    pub const fn words(&self) -> usize {
        self.bits.div_ceil(32)
    }
}

/// Words 0 and 1 of `w` as one value (for ports of at most 64 bits).
#[doc(hidden)]
pub fn low_u64(w: &[u32]) -> u64 {
    w.iter().take(2).rev().fold(0, |v, &x| v << 32 | x as u64)
}

/// `v` into `w` (one or two words), low word first.
#[doc(hidden)]
pub fn put_u64(v: u64, w: &mut [u32]) {
    for (k, x) in w.iter_mut().take(2).enumerate() {
        *x = (v >> (32 * k)) as u32;
    }
}

extern "C" {
    fn hpcc_vl_free(i: *mut c_void);
    fn hpcc_vl_eval(i: *mut c_void);
    fn hpcc_vl_tick(i: *mut c_void);
    fn hpcc_vl_eval_at(i: *mut c_void, ps: u64);
    fn hpcc_vl_flush_vcd(i: *mut c_void);
    fn hpcc_vl_cycles(i: *const c_void) -> u64;
    fn hpcc_vl_time_ps(i: *const c_void) -> u64;
    fn hpcc_vl_finished(i: *const c_void) -> bool;
    fn hpcc_vl_fatal(i: *const c_void) -> *const c_char;
}

/// Owner of one C++ model instance (csrc/hpcc_vl.h); used by the generated code.
#[doc(hidden)]
pub struct Raw(NonNull<c_void>);

// SAFETY: an instance has its own VerilatedContext and no thread affinity;
// all access goes through &self / &mut self.
unsafe impl Send for Raw {}

#[doc(hidden)]
impl Raw {
    /// `make` is the generated constructor; it gets the VCD path or null.
    /// Panics if the model cannot be created (e.g. the VCD file cannot be opened).
    pub fn new(
        name: &str,
        vcd: Option<&Path>,
        make: impl FnOnce(*const c_char) -> *mut c_void,
    ) -> Raw {
        let path = vcd
            .map(|p| CString::new(p.as_os_str().as_bytes()).expect("VCD path contains a NUL byte"));
        let raw =
            Raw(NonNull::new(make(path.as_ref().map_or(ptr::null(), |c| c.as_ptr()))).unwrap());
        if let Some(msg) = raw.fatal() {
            panic!("cannot create the Verilated model {name}: {msg}");
        }
        raw
    }

    pub fn eval(&mut self) {
        unsafe { hpcc_vl_eval(self.0.as_ptr()) }
    }

    pub fn tick(&mut self) {
        unsafe { hpcc_vl_tick(self.0.as_ptr()) }
    }

    pub fn eval_at(&mut self, ps: u64) {
        unsafe { hpcc_vl_eval_at(self.0.as_ptr(), ps) }
    }

    pub fn flush_vcd(&mut self) {
        unsafe { hpcc_vl_flush_vcd(self.0.as_ptr()) }
    }

    pub fn cycles(&self) -> u64 {
        unsafe { hpcc_vl_cycles(self.0.as_ptr()) }
    }

    pub fn time_ps(&self) -> u64 {
        unsafe { hpcc_vl_time_ps(self.0.as_ptr()) }
    }

    pub fn finished(&self) -> bool {
        unsafe { hpcc_vl_finished(self.0.as_ptr()) }
    }

    pub fn fatal(&self) -> Option<String> {
        // SAFETY: null, or a C string that lives until the next call on self.
        let msg = unsafe { hpcc_vl_fatal(self.0.as_ptr()) };
        (!msg.is_null()).then(|| {
            unsafe { CStr::from_ptr(msg) }
                .to_string_lossy()
                .into_owned()
        })
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        unsafe { hpcc_vl_free(self.0.as_ptr()) }
    }
}
