//! cc_hop_util against its golden model (sim::cc_hop_util, i.e. `hop_arithmetic` of the
//! fixed-point HPCC model): in Verilator through the regression's generator (realistic
//! consecutive records, wrapped and backwards counters, random words, the drafts' tables and
//! random ones), and in rust-hdl's simulator.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::hpcc::HpccParams;
use sim::cc_hop_util::{CcHopUtil as Model, LATENCY};
use sim::cc_hpcc::HpccConfig;
use testbench::harness::{cc_units, Scenario};

/// 10^6 hops through the regression's generator: the drafts' tables on even seeds, random
/// ones on odd seeds.
#[test]
fn matches_model_on_random_hops() {
    let seed = rand::random::<u32>() as u64;
    for seed in [seed & !1, seed | 1] {
        let o = Scenario::CcHopUtilRandom.run(seed, 500_000, None);
        assert!(
            o.passed() && o.transactions > 400_000,
            "{o:?}; re-run: {}",
            o.rerun_command()
        );
    }
}

#[test]
fn rust_hdl_simulation_matches_the_model() {
    use hdl::cc_hop_util::CcHopUtil as Hdl;
    use hdl::div_pipe::bits_from_u128;
    use rust_hdl::prelude::*;
    assert_eq!(hdl::cc_hop_util::LATENCY, LATENCY);
    let c = HpccConfig::new(
        &HpccParams::new(12.5, 5000.0),
        sim::cc_fixed::Clock::default(),
    )
    .unwrap();
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
        let (now, last) = cc_units::hop_pair(&mut rng);
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
