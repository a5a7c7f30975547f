//! `hpcc-nic bench --module layout`: how fast fields of wide words are read and written, on
//! 32-bit words (`layout::Field::get` / `set`: what the models and harnesses do on every port
//! access) and on the word as one number (`sim::wide`, num-bigint). Both run the same passes
//! over every field of at most 64 bits of every layout in `layout::ALL`, from the same random
//! words: read the field, fold it into a checksum, write it back rotated by one bit. The two
//! checksums and the final words must agree, or the command exits 1. Only the passes are
//! timed. Results: docs/benchmarks.md.

use num_bigint::BigUint;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{Field, ALL};
use sim::wide;
use std::time::Instant;

/// Every field `get` can read, with the index of its layout in `ALL`.
fn fields() -> Vec<(usize, Field)> {
    ALL.iter()
        .enumerate()
        .flat_map(|(i, l)| l.fields.iter().filter(|f| f.width <= 64).map(move |f| (i, *f)))
        .collect()
}

/// One word per layout, random.
fn words(seed: u64) -> Vec<Vec<u32>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    ALL.iter().map(|l| (0..l.width.div_ceil(32)).map(|_| rng.gen()).collect()).collect()
}

/// `passes` passes on 32-bit words: (checksum, seconds).
fn on_words(w: &mut [Vec<u32>], fields: &[(usize, Field)], passes: u64) -> (u64, f64) {
    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..passes {
        for (l, f) in fields {
            let v = f.get(&w[*l]);
            sum = sum.rotate_left(5) ^ v;
            f.set(&mut w[*l], v.rotate_left(1));
        }
    }
    (sum, t.elapsed().as_secs_f64())
}

/// The same passes on whole-word numbers: (checksum, seconds).
fn on_numbers(w: &mut [Vec<u32>], fields: &[(usize, Field)], passes: u64) -> (u64, f64) {
    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..passes {
        for (l, f) in fields {
            let v = wide::get(f, &w[*l]).iter_u64_digits().next().unwrap_or(0);
            sum = sum.rotate_left(5) ^ v;
            w[*l] = wide::set(f, &w[*l], &BigUint::from(v.rotate_left(1)));
        }
    }
    (sum, t.elapsed().as_secs_f64())
}

/// Runs both, `passes` each; false if they disagree.
pub fn run(passes: u64, markdown: bool) -> bool {
    let fields = fields();
    let seed = 0x1a70_0001;
    let (mut a, mut b) = (words(seed), words(seed));
    let (sum_w, secs_w) = on_words(&mut a, &fields, passes);
    let (sum_n, secs_n) = on_numbers(&mut b, &fields, passes);
    let ops = 2.0 * passes as f64 * fields.len() as f64;
    let (ns_w, ns_n) = (secs_w * 1e9 / ops, secs_n * 1e9 / ops);
    let same = sum_w == sum_n && a == b;
    println!(
        "layout fields, {} fields of <= 64 bits in {} layouts, {passes} passes (a read and a write per field), seed {seed:#x}",
        fields.len(),
        ALL.len()
    );
    if markdown {
        println!("| representation | ns per field access | accesses/s |");
        println!("|---|---:|---:|");
        println!("| 32-bit words (`Field::get` / `set`) | {ns_w:.1} | {:.3e} |", 1e9 / ns_w);
        println!("| one number (`sim::wide`, num-bigint) | {ns_n:.1} | {:.3e} |", 1e9 / ns_n);
    } else {
        println!("  32-bit words      {ns_w:>8.1} ns/access {:>12.3e} accesses/s", 1e9 / ns_w);
        println!("  num-bigint        {ns_n:>8.1} ns/access {:>12.3e} accesses/s", 1e9 / ns_n);
    }
    println!("  num-bigint / words: {:.1}x the time", ns_n / ns_w);
    if !same {
        eprintln!("bench: the two representations disagree (checksums {sum_w:#x} / {sum_n:#x})");
    }
    same
}
