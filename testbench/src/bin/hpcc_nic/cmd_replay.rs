//! `hpcc-nic replay`: a JSON-lines trace of CC events through one algorithm, one JSON line per
//! event on stdout (docs/replay.md). The work is `sim::replay`; this maps the options onto the
//! references' parameters.

use crate::Result;
use sim::cc_float::dcqcn::DcqcnParams;
use sim::cc_float::hpcc::{HpccParams, DEFAULT_N_FLOWS};
use sim::cc_float::ldcp::LdcpParams;
use sim::cc_fixed::Clock;
use sim::replay::{replay, Algo, ReplayConfig};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum AlgoArg {
    Hpcc,
    HpccRx,
    Ldcp,
    Dcqcn,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Model {
    /// Floating-point references (sim::cc_float).
    Float,
    /// Fixed-point golden models (sim::cc_fixed), bit-exact with the CC module RTL.
    Fixed,
    /// The CC module's Verilated RTL (`rtl-out/cc_hpcc.v`, `cc_ldcp.v`, `cc_dcqcn.v`).
    Rtl,
}

/// HPCC++'s options, shared by `replay` and `netsim`.
#[derive(clap::Args, Clone)]
pub struct HpccOpts {
    /// HPCC target utilization eta.
    #[arg(long, default_value_t = 0.95)]
    pub eta: f64,
    /// HPCC maxStage.
    #[arg(long, default_value_t = 5)]
    pub max_stage: u32,
    /// HPCC W_ai, bytes [default: BDP * (1 - eta) / 16, the drafts' rule of thumb].
    #[arg(long)]
    pub wai_bytes: Option<f64>,
    /// HPCC initial U.
    #[arg(long, default_value_t = 1.0)]
    pub u_init: f64,
}

impl HpccOpts {
    /// Sets `p`'s eta, maxStage, initial U and W_ai (the rule of thumb on `p`'s W_init unless
    /// given).
    pub fn apply(&self, p: &mut HpccParams) {
        p.u_init = self.u_init;
        p.eta = self.eta;
        p.max_stage = self.max_stage;
        p.w_ai = self.wai_bytes.unwrap_or_else(|| HpccParams::w_ai_rule_of_thumb(p.w_init(), self.eta, DEFAULT_N_FLOWS));
    }
}

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, value_enum)]
    algo: AlgoArg,
    #[arg(long, value_enum, default_value = "float")]
    model: Model,
    /// JSON-lines trace; `-` reads stdin.
    #[arg(long)]
    trace: PathBuf,
    /// Clock of the CC module and flow scheduler, MHz (`--model fixed`: rates are bytes per
    /// cycle of it).
    #[arg(long, default_value_t = 250.0)]
    clock_mhz: f64,
    /// Line rate of the NIC, Gb/s.
    #[arg(long, default_value_t = 100.0)]
    line_gbps: f64,
    /// Base RTT, ns (HPCC's T; LDCP's RTT; DCQCN's window = rate * RTT).
    #[arg(long, default_value_t = 5000)]
    base_rtt_ns: u64,
    #[command(flatten)]
    hpcc: HpccOpts,
    /// Path MTU (payload), bytes: HPCC's W_min, LDCP's packet size.
    #[arg(long, default_value_t = 1024)]
    mtu: u32,
    #[command(flatten)]
    ldcp: LdcpOpts,
    #[command(flatten)]
    dcqcn: DcqcnOpts,
}

/// LDCP's options, shared by `replay` and `netsim`.
#[derive(clap::Args, Clone)]
pub struct LdcpOpts {
    /// LDCP additive increase alpha.
    #[arg(long, default_value_t = 1.0)]
    pub ldcp_alpha: f64,
    /// LDCP decrease per marked packet beta.
    #[arg(long, default_value_t = 0.5)]
    pub ldcp_beta: f64,
    /// LDCP sub-packet step and minimum window gamma, packets.
    #[arg(long, default_value_t = 0.125)]
    pub ldcp_gamma: f64,
    /// LDCP: start in the stable stage (cw = IW) instead of the zero-RTT fast start.
    #[arg(long)]
    pub ldcp_no_fast_start: bool,
}

impl LdcpOpts {
    pub fn apply(&self, p: &mut LdcpParams) {
        p.alpha = self.ldcp_alpha;
        p.beta = self.ldcp_beta;
        p.gamma = self.ldcp_gamma;
        p.fast_start = !self.ldcp_no_fast_start;
    }
}

/// DCQCN's options, shared by `replay` and `netsim`; each left out keeps the default
/// (`DcqcnParams::hpcc_run_py`).
#[derive(clap::Args, Clone)]
pub struct DcqcnOpts {
    /// DCQCN EWMA gain g [default: 1/256].
    #[arg(long)]
    pub dcqcn_g: Option<f64>,
    /// DCQCN minimum rate, Gb/s [default: 1].
    #[arg(long)]
    pub dcqcn_min_gbps: Option<f64>,
    /// DCQCN alpha timer K, ns [default: 1000].
    #[arg(long)]
    pub dcqcn_alpha_timer_ns: Option<u64>,
    /// DCQCN rate-increase timer T, ns [default: 300000].
    #[arg(long)]
    pub dcqcn_increase_timer_ns: Option<u64>,
    /// DCQCN minimum time between cuts, ns [default: 4000].
    #[arg(long)]
    pub dcqcn_min_cut_interval_ns: Option<u64>,
    /// DCQCN byte counter B, bytes; 0 disables it [default: 10000000].
    #[arg(long)]
    pub dcqcn_byte_counter: Option<u64>,
    /// DCQCN fast-recovery steps F [default: 1].
    #[arg(long)]
    pub dcqcn_fast_recovery: Option<u32>,
    /// DCQCN additive increase R_AI, Mb/s [default: line * 2e-4].
    #[arg(long)]
    pub dcqcn_rai_mbps: Option<f64>,
    /// DCQCN hyper increase R_HAI, Mb/s [default: line * 2e-3].
    #[arg(long)]
    pub dcqcn_rhai_mbps: Option<f64>,
}

impl DcqcnOpts {
    pub fn apply(&self, d: &mut DcqcnParams) {
        if let Some(v) = self.dcqcn_g {
            d.g = v;
        }
        if let Some(v) = self.dcqcn_min_gbps {
            d.min_rate_bps = v * 1e9;
        }
        if let Some(v) = self.dcqcn_alpha_timer_ns {
            d.alpha_timer_ns = v;
        }
        if let Some(v) = self.dcqcn_increase_timer_ns {
            d.rate_increase_timer_ns = v;
        }
        if let Some(v) = self.dcqcn_min_cut_interval_ns {
            d.min_cut_interval_ns = v;
        }
        if let Some(v) = self.dcqcn_byte_counter {
            d.byte_counter_bytes = v;
        }
        if let Some(v) = self.dcqcn_fast_recovery {
            d.fast_recovery_times = v;
        }
        if let Some(v) = self.dcqcn_rai_mbps {
            d.rate_ai_bps = v * 1e6;
        }
        if let Some(v) = self.dcqcn_rhai_mbps {
            d.rate_hai_bps = v * 1e6;
        }
    }
}

fn config(a: &Args) -> ReplayConfig {
    let algo = match a.algo {
        AlgoArg::Hpcc => Algo::Hpcc,
        AlgoArg::HpccRx => Algo::HpccRx,
        AlgoArg::Ldcp => Algo::Ldcp,
        AlgoArg::Dcqcn => Algo::Dcqcn,
    };
    let mut c = ReplayConfig::new(algo, a.line_gbps, a.base_rtt_ns, a.mtu);
    c.clock = Clock { mhz: a.clock_mhz };
    if matches!(a.model, Model::Fixed) {
        c.model = sim::replay::Model::Fixed;
    }
    a.hpcc.apply(&mut c.hpcc);
    a.ldcp.apply(&mut c.ldcp);
    a.dcqcn.apply(&mut c.dcqcn);
    c
}

pub fn run(_root: &Path, a: Args) -> Result<ExitCode> {
    let cfg = config(&a);
    let rtl = matches!(a.model, Model::Rtl);
    let run = |r: &mut dyn std::io::BufRead, w: std::io::BufWriter<std::io::StdoutLock<'_>>| {
        if rtl {
            testbench::replay_rtl::replay_rtl(r, w, &cfg)
        } else {
            replay(r, w, &cfg)
        }
    };
    let stdout = std::io::stdout().lock();
    let out = std::io::BufWriter::new(stdout);
    let stats = if a.trace.as_os_str() == "-" {
        run(&mut std::io::stdin().lock(), out)?
    } else {
        let f = std::fs::File::open(&a.trace)
            .map_err(|e| format!("{}: {e}", a.trace.display()))?;
        run(&mut BufReader::new(f), out)?
    };
    if stats.skipped > 0 {
        eprintln!(
            "hpcc-nic replay: {} events, {} skipped (see \"skipped\" in the output)",
            stats.events, stats.skipped
        );
    }
    Ok(ExitCode::SUCCESS)
}
