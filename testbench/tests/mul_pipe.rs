//! mul_pipe against its golden model (sim::mul_pipe) in Verilator, cycle by cycle: every
//! operand pair of the small configuration, random and extreme operands of the full one,
//! reset; the same pipeline in rust-hdl's simulator.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::mul_pipe::MulPipe as Model;
use testbench::harness::Scenario;
use testbench::verilated::models::MulPipeA7B6;

type Input = (bool, u64, u64, u64, bool);

macro_rules! drive {
    ($ty:ty, $lat:expr, $inputs:expr) => {{
        let mut dut = <$ty>::new();
        let mut model = Model::new($lat);
        let mut checked = 0u64;
        for (cycle, &(valid, a, b, tag, reset)) in $inputs.iter().enumerate() {
            dut.set_in_valid(valid as u8);
            dut.set_in_a(a as _);
            dut.set_in_b(b as _);
            dut.set_in_tag(tag as _);
            dut.set_reset(reset as u8);
            dut.tick();
            let want = model.step(valid.then_some((a, b, tag as u128)), reset);
            let got =
                (dut.out_valid() == 1).then(|| (dut.out_prod() as u128, dut.out_tag() as u128));
            assert_eq!(
                got,
                want,
                "{} cycle {cycle}: ({valid}, {a}, {b}, {tag}, {reset})",
                stringify!($ty)
            );
            checked += want.is_some() as u64;
        }
        checked
    }};
}

#[test]
fn small_configuration_is_exact_for_every_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut v: Vec<Input> = Vec::new();
    for a in 0..1 << 7 {
        for b in 0..1 << 6 {
            if rng.gen_bool(0.1) {
                v.push((false, 0, 0, 0, false));
            }
            v.push((true, a, b, rng.gen_range(0..16), false));
        }
    }
    v.extend(std::iter::repeat_n((false, 0, 0, 0, false), 4));
    assert_eq!(drive!(MulPipeA7B6, 2, v), 1 << 13);
}

/// 10^6 products of the full configuration (32 x 32), the regression's generator.
#[test]
fn full_configuration_matches_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::MulPipeRandom.run(seed, 1_000_000, None);
    assert!(
        o.passed() && o.transactions > 850_000,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

#[test]
fn rust_hdl_simulation_matches_the_model() {
    use hdl::mul_pipe::MulPipe as Hdl;
    use rust_hdl::prelude::*;
    let mut uut = Hdl::<7, 6, 13, 2, 4>::default();
    uut.connect_all();
    let mut model = Model::new(2);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for cycle in 0..300u64 {
        let (valid, a, b) = (
            rng.gen_bool(0.8),
            rng.gen_range(0..128u64),
            rng.gen_range(0..64u64),
        );
        uut.in_valid.next = valid;
        uut.in_a.next = a.into();
        uut.in_b.next = b.into();
        uut.in_tag.next = (cycle % 16).into();
        uut.reset.next = false;
        uut.clock.next = Clock { clk: false };
        uut.update_all();
        uut.clock.next = Clock { clk: true };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        let want = model.step(valid.then_some((a, b, (cycle % 16) as u128)), false);
        let got = uut
            .out_valid
            .val()
            .then(|| (uut.out_prod.val().to_u128(), uut.out_tag.val().to_u128()));
        assert_eq!(got, want, "cycle {cycle}");
    }
}
