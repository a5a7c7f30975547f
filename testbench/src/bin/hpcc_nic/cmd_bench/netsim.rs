//! `hpcc-nic bench --module netsim`: the model NIC against the RTL in the same network run.
//! An incast of 16 senders x `bytes` on one switch (17 hosts, HPCC++, 100 Gb/s, 1 us links),
//! run five times: Verilated cores with nothing checked inside (the RTL alone), as
//! `--nic rtl` runs them (each with the model beside it), and the model NIC (`--nic model`),
//! on one thread; then the RTL alone and the model NIC on one thread per CPU.
//! Each run's wall time and simulated microseconds per wall second; the model's records and
//! queue samples must equal the RTL's, else the bench fails.

use std::time::Instant;
use sim::net::network::NetConfig;
use sim::net::topo::Topology;
use sim::net::traffic::incast;
use testbench::harness::cc_module::default_model;
use testbench::harness::hpcc_nic_core::Core;
use testbench::harness::netsim::{run, run_with, NicKind, Run, Spec};

/// One run: its name, wall seconds, the run.
pub struct Timed {
    pub name: &'static str,
    pub seconds: f64,
    pub run: Run,
}

fn spec(bytes: u64, nic: NicKind, threads: usize) -> Spec {
    let topo = Topology::incast(16, 100_000_000_000, 1000);
    let flows = incast(&(0..16).collect::<Vec<_>>(), 16, bytes, 0);
    Spec { algs: vec![0; flows.len()], topo, flows, model: default_model(), mtu: 4096, net: NetConfig::g100(1), max_cycles: 10_000_000, sample_cycles: 250, nic, threads }
}

/// The five runs; Err if a run fails or differs from the first.
pub fn run_all(bytes: u64) -> Result<Vec<Timed>, String> {
    let mut out = vec![];
    let t = Instant::now();
    let r = run_with(&spec(bytes, NicKind::Rtl, 1), &|_| Core::unchecked(), &mut |_| {})?;
    out.push(Timed { name: "RTL alone (Verilator, nothing checked)", seconds: t.elapsed().as_secs_f64(), run: r });
    for (name, nic) in [("--nic rtl (RTL + model beside each core)", NicKind::Rtl), ("--nic model", NicKind::Model)] {
        let t = Instant::now();
        let r = run(&spec(bytes, nic, 1), &mut |_| {})?;
        out.push(Timed { name, seconds: t.elapsed().as_secs_f64(), run: r });
    }
    let t = Instant::now();
    let r = run_with(&spec(bytes, NicKind::Rtl, 0), &|_| Core::unchecked(), &mut |_| {})?;
    out.push(Timed { name: "RTL alone, a thread per CPU", seconds: t.elapsed().as_secs_f64(), run: r });
    let t = Instant::now();
    let r = run(&spec(bytes, NicKind::Model, 0), &mut |_| {})?;
    out.push(Timed { name: "--nic model, a thread per CPU", seconds: t.elapsed().as_secs_f64(), run: r });
    let base = &out[0].run;
    for x in &out[1..] {
        if x.run.records != base.records || x.run.samples != base.samples {
            return Err(format!("{}: the run differs from the RTL's", x.name));
        }
        if !x.run.probe_problems.is_empty() {
            return Err(format!("{}: {:?}", x.name, x.run.probe_problems));
        }
    }
    if base.records.len() != 16 {
        return Err(format!("{} of 16 flows completed", base.records.len()));
    }
    Ok(out)
}

pub fn print(runs: &[Timed], bytes: u64, markdown: bool) {
    let us = runs[0].run.cycles as f64 * 0.004;
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("netsim, incast 16 -> 1 x {} KB, 17 hosts, {us:.1} us simulated (+ setup), {cpus} CPUs; the same records and queues from every run", bytes / 1000);
    if markdown {
        println!("\n| NICs | wall s | simulated us / wall s | x RTL alone |\n|---|---:|---:|---:|");
    }
    for r in runs {
        let per = us / r.seconds;
        let x = runs[0].seconds / r.seconds;
        if markdown {
            println!("| {} | {:.1} | {per:.1} | {x:.1} |", r.name, r.seconds);
        } else {
            println!("  {:<44} {:>8.1} s {:>10.1} us/s {:>7.1}x", r.name, r.seconds, per, x);
        }
    }
}
