//! `hpcc-nic driver`: the register writes a driver makes to set the NIC up, as text, for
//! drivers outside this workspace (the cocotb cross-check, testbench/cocotb/): one write a
//! line, `<BAR0 byte offset> <value>` in hex, a `#` comment line before each group. The CC
//! configuration (the CC module's defaults, 4 KiB packets, bursts of 16), then a create per
//! flow, each the same words `hpcc-nic regress` writes (harness::core_net::create_side): a
//! random header to the peer from the seed, 100 Gb/s, the given window and algorithm. The
//! host queues' registers are plain words (`HQ_*` in rtl-out/hpcc_nic_regs.h); a driver writes
//! those itself.

use crate::Result;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use testbench::harness::cc_module::default_model;
use testbench::harness::core_net::{create_side, Side};
use testbench::harness::fabric::ip_of;
use testbench::harness::hpcc_nic_core::{configure_regs, Regs};

#[derive(clap::Args)]
pub struct Args {
    /// Flows to create, comma separated (decimal or 0x hex; below 1024).
    #[arg(long, value_delimiter = ',', required = true)]
    flows: Vec<String>,
    /// The flows' algorithm: 0 HPCC++, 1 Rx-HPCC, 2 LDCP, 3 DCQCN.
    #[arg(long, default_value_t = 1)]
    alg: u32,
    /// Their MTU (256 to 4096, a power of two).
    #[arg(long, default_value_t = 1024)]
    mtu: u16,
    /// Their first PSN (the requester's; the responder's expected one with --looped).
    #[arg(long, default_value_t = 0)]
    psn: u32,
    /// Their window, bytes.
    #[arg(long, default_value_t = 1 << 20)]
    window: u32,
    /// Requester and responder of each flow in this NIC, its wire looped back to itself.
    #[arg(long)]
    looped: bool,
    /// Seed of the headers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The writes, in order.
#[derive(Default)]
struct Script(Vec<(u32, u32)>);

impl Regs for Script {
    fn write(&mut self, word: u32, value: u32) {
        self.0.push((word, value));
    }
}

pub fn run(a: Args) -> Result<ExitCode> {
    if !(256..=4096).contains(&a.mtu) || !a.mtu.is_power_of_two() || a.alg > 3 || a.psn >= 1 << 24 {
        return Err(format!("--mtu {} --alg {} --psn {}: an MTU of 256 to 4096 (a power of two), an algorithm 0-3, a 24-bit PSN", a.mtu, a.alg, a.psn).into());
    }
    let mut flows = Vec::new();
    for f in &a.flows {
        let v = match f.strip_prefix("0x") {
            Some(h) => u16::from_str_radix(h, 16),
            None => f.parse(),
        };
        match v {
            Ok(v) if v < 1024 => flows.push(v),
            _ => return Err(format!("--flows: {f} is no flow id below 1024").into()),
        }
    }
    let mut s = Script::default();
    configure_regs(&mut s, &default_model(), 12, 16);
    println!("# CC configuration and scheduler (CC_CFG, SCHED_CFG)");
    emit(&mut s);
    for flow in flows {
        let mut rng = ChaCha8Rng::seed_from_u64(a.seed ^ flow as u64);
        let side = Side { flow, alg: a.alg, mtu: a.mtu, telemetry: false, window: a.window, psn: a.psn, requester: true, looped: a.looped };
        let peer = if a.looped { ip_of(0) } else { ip_of(1) };
        create_side(&mut s, &mut rng, &side, ip_of(0), peer);
        println!("# create flow {flow:#x} (ARG_*, then CMD; poll STATUS until not busy, error 0)");
        emit(&mut s);
    }
    Ok(ExitCode::SUCCESS)
}

fn emit(s: &mut Script) {
    for (w, v) in s.0.drain(..) {
        println!("{:#05x} {v:#010x}", 4 * w);
    }
}
