//! Regressions of the CC module's building blocks (div_pipe, mul_pipe, cc_hop_util): random
//! operands every cycle, every output compared with the golden model after every edge.

use super::{Outcome, Scenario};
use crate::verilated::models::{CcHopUtil, DivPipe, MulPipe};
use crate::verilated::Model;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::hpcc::HpccParams;
use sim::cc_hpcc::{FxHop, HpccConfig};
use std::path::Path;
use std::time::Instant;

fn open<M: Model>(vcd: Option<&Path>) -> M {
    vcd.map_or_else(M::new, M::with_vcd)
}

/// A divisor or operand of `w` bits: often tiny, zero or all-ones, else of random width.
fn operand(rng: &mut ChaCha8Rng, w: u32) -> u64 {
    let mask = u64::MAX >> (64 - w);
    match rng.gen_range(0..8) {
        0 => 0,
        1 => mask,
        2 => rng.gen_range(1..4),
        _ => rng.gen::<u64>() & mask >> rng.gen_range(0..w),
    }
}

/// div_pipe (49/24 -> 32): random, zero and saturating divisions, rare resets.
pub fn div_random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(Scenario::DivPipeRandom, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: DivPipe = open(vcd);
    let mut model = sim::div_pipe::DivPipe::new(32);
    // Power-up: the valid bits hold anything until the first reset.
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    model.step(None, true);
    for cycle in 0..cycles {
        let den = operand(&mut rng, 24);
        let num = if den > 0 && rng.gen_bool(0.2) {
            // Quotients around the 2^32 saturation boundary.
            ((1u64 << 32) - 2 + rng.gen_range(0..3)) * den + rng.gen_range(0..den)
        } else {
            operand(&mut rng, 49)
        } & ((1 << 49) - 1);
        let (valid, tag, reset) = (
            rng.gen_bool(0.9),
            rng.gen_range(0..256u64),
            rng.gen_bool(1e-5),
        );
        dut.set_in_valid(valid as u8);
        dut.set_in_num(num);
        dut.set_in_den(den as u32);
        dut.set_in_tag(tag as u8);
        dut.set_reset(reset as u8);
        dut.tick();
        let want = model.step(valid.then_some((num, den, tag as u128)), reset);
        let got = (dut.out_valid() == 1).then(|| (dut.out_quo() as u64, dut.out_tag() as u128));
        o.transactions += want.is_some() as u64;
        o.check(cycle, got, want);
    }
    o.cycles = cycles;
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// mul_pipe (32 x 32, 4 cycles): random, zero and all-ones operands, rare resets.
pub fn mul_random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(Scenario::MulPipeRandom, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: MulPipe = open(vcd);
    let mut model = sim::mul_pipe::MulPipe::new(4);
    // Power-up: the valid bits hold anything until the first reset.
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    model.step(None, true);
    for cycle in 0..cycles {
        let (a, b) = (operand(&mut rng, 32), operand(&mut rng, 32));
        let (valid, tag, reset) = (
            rng.gen_bool(0.9),
            rng.gen_range(0..256u64),
            rng.gen_bool(1e-5),
        );
        dut.set_in_valid(valid as u8);
        dut.set_in_a(a as u32);
        dut.set_in_b(b as u32);
        dut.set_in_tag(tag as u8);
        dut.set_reset(reset as u8);
        dut.tick();
        let want = model.step(valid.then_some((a, b, tag as u128)), reset);
        let got = (dut.out_valid() == 1).then(|| (dut.out_prod() as u128, dut.out_tag() as u128));
        o.transactions += want.is_some() as u64;
        o.check(cycle, got, want);
    }
    o.cycles = cycles;
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// A hop's previous record and a plausible or hostile new one: small forward, zero and
/// backward timestamp steps, wrapping txBytes, saturated qlen, undefined rate codes, random
/// words.
pub fn hop_pair(rng: &mut ChaCha8Rng) -> (u64, u64) {
    let last: u64 = rng.gen();
    if rng.gen_bool(0.25) {
        return (rng.gen(), last);
    }
    let code = if rng.gen_bool(0.9) {
        rng.gen_range(0..5u8)
    } else {
        rng.gen_range(5..8u8)
    };
    let step = match rng.gen_range(0..6) {
        0 => 0,
        1 => rng.gen_range(1u32 << 23..1 << 24),
        _ => rng.gen_range(1..20_000u32),
    };
    let prev = FxHop::from_word(last);
    let tx_bits = rng.gen_range(1..21);
    let q_bits = rng.gen_range(1..18);
    let now = FxHop {
        rate_code: code,
        // word() keeps the low 24 and 20 bits: the counters wrap.
        ts: prev.ts.wrapping_add(step),
        tx_bytes: prev
            .tx_bytes
            .wrapping_add(rng.gen_range(0..1u32 << tx_bits)),
        qlen: if rng.gen_bool(0.1) {
            0x1_FFFF
        } else {
            rng.gen_range(0..1u32 << q_bits)
        },
    };
    (now.word(), last)
}

/// cc_hop_util with the drafts' tables (100G, T = 5 us) or, on odd seeds, random ones.
pub fn hop_random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(Scenario::CcHopUtilRandom, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let c = HpccConfig::new(&HpccParams::new(12.5, 5000.0), Default::default())
        .expect("the drafts' defaults fit the fixed point");
    let (mut inv_bt, mut inv_b) = (c.inv_bt, c.inv_b);
    if seed % 2 == 1 {
        for x in inv_bt.iter_mut().chain(inv_b.iter_mut()) {
            *x = operand(&mut rng, 32) as u32;
        }
    }
    let mut dut: CcHopUtil = open(vcd);
    dut.cfg_inv_bt_mut().copy_from_slice(&inv_bt);
    dut.cfg_inv_b_mut().copy_from_slice(&inv_b);
    let mut model = sim::cc_hop_util::CcHopUtil::new(inv_bt, inv_b);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    model.step(None, true);
    for cycle in 0..cycles {
        let (now, last) = hop_pair(&mut rng);
        let (valid, tag, reset) = (rng.gen_bool(0.9), rng.gen::<u16>(), rng.gen_bool(1e-5));
        dut.set_in_valid(valid as u8);
        dut.set_in_now(now);
        dut.set_in_last(last);
        dut.set_in_tag(tag);
        dut.set_reset(reset as u8);
        dut.tick();
        let want = model
            .step(valid.then_some((now, last, tag)), reset)
            .map(|(h, t)| (h.usable, h.u, h.tau, t));
        let got = (dut.out_valid() == 1).then(|| {
            (
                dut.out_usable() == 1,
                dut.out_u(),
                dut.out_tau(),
                dut.out_tag(),
            )
        });
        o.transactions += want.is_some() as u64;
        o.check(cycle, got, want);
    }
    o.cycles = cycles;
    o.seconds = start.elapsed().as_secs_f64();
    o
}
