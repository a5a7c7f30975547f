//! `layout::Field`'s 32-bit-word arithmetic (`get`, `set`, `get_le`, `set_le`, `bytes`)
//! against the whole word as one number (`sim::wide`, num-bigint), on every field of every
//! layout, with random words and values.

use num_bigint::BigUint;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{le_bytes, Layout, ALL};
use sim::wide;

/// Random words for a layout (its width rounded up to 32-bit words).
fn random_words(l: &Layout, rng: &mut ChaCha8Rng) -> Vec<u32> {
    (0..l.width.div_ceil(32)).map(|_| rng.gen()).collect()
}

/// The words as little-endian bytes (a port's tdata order).
fn bytes_of(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn low_u64(v: &BigUint) -> u64 {
    v.iter_u64_digits().next().unwrap_or(0)
}

proptest! {
    #[test]
    fn every_field_reads_and_writes_as_the_whole_word_does(seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for l in ALL {
            for f in l.fields {
                let w = random_words(l, &mut rng);
                let want = wide::get(f, &w);
                if f.width <= 64 {
                    let v: u64 = rng.gen();
                    prop_assert_eq!(f.get(&w), low_u64(&want), "get {}.{}", l.name, f.name);
                    let b = bytes_of(&w);
                    prop_assert_eq!(f.get_le(&b), low_u64(&want), "get_le {}.{}", l.name, f.name);
                    let mut got = w.clone();
                    f.set(&mut got, v);
                    let set = wide::set(f, &w, &BigUint::from(v));
                    prop_assert_eq!(&got, &set, "set {}.{}", l.name, f.name);
                    let mut got_le = b.clone();
                    f.set_le(&mut got_le, v);
                    prop_assert_eq!(got_le, bytes_of(&set), "set_le {}.{}", l.name, f.name);
                }
                if f.lo % 8 == 0 && f.width % 8 == 0 {
                    let mut bytes = want.to_bytes_le();
                    bytes.resize(f.width / 8, 0);
                    prop_assert_eq!(&bytes_of(&w)[f.bytes()], &bytes[..], "bytes {}.{}", l.name, f.name);
                }
            }
        }
    }
}

#[test]
fn words_and_numbers_round_trip() {
    let w = [0x8765_4321, 0xdead_beef, 0, 1];
    assert_eq!(wide::words(&wide::number(&w), 4), w);
    assert_eq!(le_bytes::<16>(&w).to_vec(), bytes_of(&w));
    // Bits above the word count are dropped, as a port of that width drops them.
    assert_eq!(wide::words(&(wide::number(&w) << 32u32), 2), [0, 0x8765_4321]);
}
