//! cc_hop_util against its golden model (sim::cc_hop_util, i.e. `hop_arithmetic` of the
//! fixed-point HPCC model) in Verilator, every output every cycle: realistic consecutive
//! records, wrapped and backwards counters, random words, the drafts' tables and random ones.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::hpcc::HpccParams;
use sim::cc_hop_util::{CcHopUtil as Model, LATENCY};
use sim::cc_module::hpcc::HpccConfig;
use sim::cc_module::Clock;
use testbench::verilated::models::CcHopUtil;

fn set_table(words: &mut [u32], table: &[u32; 8]) {
    words.copy_from_slice(table);
}

/// A pair of records: the previous one and a plausible or hostile successor.
fn hop_pair(rng: &mut ChaCha8Rng) -> (u64, u64) {
    let last: u64 = rng.gen();
    let now = match rng.gen_range(0..4) {
        0 => rng.gen(),
        _ => {
            let code = if rng.gen_bool(0.9) { rng.gen_range(0..5) } else { rng.gen_range(5..8) };
            let ts = (last >> 37 & 0xFF_FFFF).wrapping_add(match rng.gen_range(0..6) {
                0 => 0,
                1 => rng.gen_range(1u64 << 23..1 << 24), // backwards
                _ => rng.gen_range(1..20_000),
            }) & 0xFF_FFFF;
            let tx_bits = rng.gen_range(1..21);
            let tx = (last >> 17 & 0xF_FFFF).wrapping_add(rng.gen_range(0..1 << tx_bits)) & 0xF_FFFF;
            let q_bits = rng.gen_range(1..18);
            let q = if rng.gen_bool(0.1) { 0x1_FFFF } else { rng.gen_range(0..1 << q_bits) };
            code << 61 | ts << 37 | tx << 17 | q
        }
    };
    (now, last)
}

fn run(seed: u64, hops: usize, tables: ([u32; 8], [u32; 8])) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut = CcHopUtil::new();
    set_table(dut.cfg_inv_bt_mut(), &tables.0);
    set_table(dut.cfg_inv_b_mut(), &tables.1);
    let mut model = Model::new(tables.0, tables.1);
    let mut checked = 0;
    for cycle in 0..hops + LATENCY + 2 {
        let valid = cycle < hops && rng.gen_bool(0.9);
        let (now, last) = hop_pair(&mut rng);
        let tag: u16 = rng.gen();
        let reset = rng.gen_bool(1e-5);
        dut.set_in_valid(valid as u8);
        dut.set_in_now(now);
        dut.set_in_last(last);
        dut.set_in_tag(tag);
        dut.set_reset(reset as u8);
        dut.tick();
        let want = model.step(valid.then_some((now, last, tag)), reset);
        let got = (dut.out_valid() == 1).then(|| {
            (dut.out_usable() == 1, dut.out_u(), dut.out_tau(), dut.out_tag())
        });
        let want = want.map(|(h, t)| (h.usable, h.u, h.tau, t));
        assert_eq!(got, want, "seed {seed} cycle {cycle}: now {now:#x} last {last:#x}");
        checked += want.is_some() as u64;
    }
    checked
}

#[test]
fn matches_model_with_the_drafts_tables() {
    let c = HpccConfig::new(&HpccParams::new(12.5, 5000.0), Clock::default()).unwrap();
    let seed = rand::random::<u32>() as u64;
    println!("seed {seed}");
    let n = run(seed, 1_000_000, (c.inv_bt, c.inv_b));
    assert!(n > 850_000, "{n}");
}

#[test]
fn matches_model_with_random_tables() {
    for seed in [1u64, 2, 3] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut table = || {
            let mut t = [0u32; 8];
            for x in &mut t {
                *x = match rng.gen_range(0..4) {
                    0 => 0,
                    1 => u32::MAX,
                    _ => rng.gen::<u32>() >> rng.gen_range(0..32),
                };
            }
            t
        };
        let tables = (table(), table());
        assert!(run(seed, 100_000, tables) > 80_000);
    }
}

#[test]
fn rust_hdl_simulation_matches_the_model() {
    use hdl::cc_hop_util::CcHopUtil as Hdl;
    use hdl::div_pipe::bits_from_u128;
    use rust_hdl::prelude::*;
    assert_eq!(hdl::cc_hop_util::LATENCY, LATENCY);
    let c = HpccConfig::new(&HpccParams::new(12.5, 5000.0), sim::cc_module::Clock::default()).unwrap();
    let pack = |t: &[u32; 8]| {
        let lo = t[..4].iter().rev().fold(0u128, |a, &w| a << 32 | w as u128);
        let hi = t[4..].iter().rev().fold(0u128, |a, &w| a << 32 | w as u128);
        (bits_from_u128::<256>(hi) << 128) | bits_from_u128::<256>(lo)
    };
    let mut uut = Hdl::default();
    uut.connect_all();
    let mut model = Model::new(c.inv_bt, c.inv_b);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for cycle in 0..150 {
        let (now, last) = hop_pair(&mut rng);
        let valid = rng.gen_bool(0.8);
        uut.cfg_inv_bt.next = pack(&c.inv_bt);
        uut.cfg_inv_b.next = pack(&c.inv_b);
        uut.in_valid.next = valid;
        uut.in_now.next = now.into();
        uut.in_last.next = last.into();
        uut.in_tag.next = (cycle as u64).into();
        uut.reset.next = false;
        uut.clock.next = Clock { clk: false };
        uut.update_all();
        while uut.has_changed() {
            uut.update_all();
        }
        uut.clock.next = Clock { clk: true };
        uut.update_all();
        while uut.has_changed() {
            uut.update_all();
        }
        let want = model
            .step(valid.then_some((now, last, cycle as u16)), false)
            .map(|(h, t)| (h.usable, h.u as u64, h.tau as u64, t as u64));
        let got = uut.out_valid.val().then(|| {
            (
                uut.out_usable.val(),
                uut.out_u.val().to_u64(),
                uut.out_tau.val().to_u64(),
                uut.out_tag.val().to_u64(),
            )
        });
        assert_eq!(got, want, "cycle {cycle}");
    }
}
