//! Wide words as one number (num-bigint): the plain reference for `layout::Field`'s word
//! arithmetic. A field is bits [lo + width - 1 : lo] of the word, so reading it is a shift and
//! a mask of the whole word, written here without splitting it into 32-bit pieces.
//!
//! `Field::get` / `Field::set` stay on 32-bit words: they sit on every port access of every
//! harness, and `hpcc-nic bench --module layout` measures them against these (figures in
//! docs/benchmarks.md). These are for checking them (`tests/layout_wide.rs`) and for reading
//! fields wider than 64 bits in one piece.

use crate::layout::Field;
use num_bigint::BigUint;

/// The word `words` (32-bit words, word 0 = bits 31:0, Verilator's order) as one number.
pub fn number(words: &[u32]) -> BigUint {
    BigUint::from_slice(words)
}

/// The number as `n` 32-bit words (`number`'s inverse; bits above 32n are dropped).
pub fn words(v: &BigUint, n: usize) -> Vec<u32> {
    let mut w = v.to_u32_digits();
    w.resize(n, 0);
    w
}

/// All ones in the low `width` bits.
fn ones(width: usize) -> BigUint {
    (BigUint::from(1u8) << width) - 1u8
}

/// The field's value, any width.
pub fn get(f: &Field, words: &[u32]) -> BigUint {
    (number(words) >> f.lo) & ones(f.width)
}

/// `words` with the field set to the low `width` bits of `v`, every other bit kept.
pub fn set(f: &Field, words: &[u32], v: &BigUint) -> Vec<u32> {
    let keep = number(words) & (ones(32 * words.len()) ^ (ones(f.width) << f.lo));
    let put = (v & ones(f.width)) << f.lo;
    self::words(&(keep | put), words.len())
}
