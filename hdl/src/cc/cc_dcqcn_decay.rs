//! One step of DCQCN's alpha decay (cc_dcqcn stages 23..55; docs/modules/cc_module.md):
//! alpha x decay >> 24 if bit 0 of n is set, else alpha unchanged, two cycles later.
//!
//! cc_dcqcn chains `DECAY_STEPS` of these: step i holds `decay[i]` = (1 - g)^(2^i) in Q24
//! and sees n >> i, so alpha leaves the chain multiplied by (1 - g)^n for n < 2^16 (the
//! model's `decay_alpha`). n moves down one bit per step, so every step is the same module.

use crate::mul_pipe::MulPipe;
use rust_hdl::prelude::*;

/// Steps of the chain: one per bit of n below 2^16 (n >= 2^16 decays alpha to 0).
pub const DECAY_STEPS: usize = 16;
/// Bits of alpha (Q24: 1.0 is 2^24).
pub const ALPHA_BITS: usize = 25;
/// Bits of n (elapsed alpha periods, saturated by the divider), bit 16 meaning n >= 2^16.
pub const N_BITS: usize = DECAY_STEPS + 1;
/// Bits of alpha x decay.
pub const PROD_BITS: usize = ALPHA_BITS + DECAY_BITS;
/// Bits of the multiplier's tag: {alpha, n}.
pub const TAG_BITS: usize = ALPHA_BITS + N_BITS;
/// Cycles from `in_*` to `out_*` (the multiplier's).
pub const LATENCY: usize = 2;

codes! {
    /// Widths and bit offsets the Verilog names.
    DECAY_OFFSETS: usize;
    /// Bits of a decay factor (Q24, below 1.0): cc_dcqcn's `cfg_decay` holds one per step.
    DECAY_BITS = 24,
    /// alpha in the multiplier's tag (n below it).
    TAG_ALPHA = N_BITS,
}

codes! {
    /// `TAG_ALPHA` as a shift amount (rust-hdl shifts `Bits` by a u64).
    DECAY_SHIFTS;
    TAG_ALPHA_SHIFT = TAG_ALPHA,
}

/// One decay step: `out_alpha` = n[0] ? alpha x decay >> 24 : alpha; `out_n` = n >> 1.
#[derive(LogicBlock, Default)]
pub struct CcDcqcnDecay {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the valid bit in flight.
    pub reset: Signal<In, bool>,
    /// A value enters this cycle.
    pub in_valid: Signal<In, bool>,
    /// alpha (Q24).
    pub in_alpha: Signal<In, Bits<ALPHA_BITS>>,
    /// n seen by this step: bit 0 says whether it multiplies.
    pub in_n: Signal<In, Bits<N_BITS>>,
    /// This step's factor (Q24), a slice of cc_dcqcn's `cfg_decay`.
    pub in_decay: Signal<In, Bits<DECAY_BITS>>,
    /// The value that entered `LATENCY` cycles ago.
    pub out_valid: Signal<Out, bool>,
    /// alpha after this step.
    pub out_alpha: Signal<Out, Bits<ALPHA_BITS>>,
    /// n >> 1, for the next step.
    pub out_n: Signal<Out, Bits<N_BITS>>,
    /// alpha x decay, with {alpha, n} as the tag.
    mul: MulPipe<ALPHA_BITS, DECAY_BITS, PROD_BITS, LATENCY, TAG_BITS>,
}

impl Logic for CcDcqcnDecay {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, mul);
        self.mul.reset.next = self.reset.val();
        self.mul.in_valid.next = self.in_valid.val();
        self.mul.in_a.next = self.in_alpha.val();
        self.mul.in_b.next = self.in_decay.val();
        // Tag: [16:0] n, [41:17] alpha.
        self.mul.in_tag.next =
            bit_cast::<TAG_BITS, N_BITS>(self.in_n.val()) | (bit_cast::<TAG_BITS, ALPHA_BITS>(self.in_alpha.val()) << TAG_ALPHA_SHIFT);
        self.out_valid.next = self.mul.out_valid.val();
        self.out_n.next = self.mul.out_tag.val().get_bits::<N_BITS>(0) >> 1;
        self.out_alpha.next = self.mul.out_tag.val().get_bits::<ALPHA_BITS>(TAG_ALPHA);
        // alpha x decay is Q24 x Q24: its bits from DECAY_BITS up are alpha again (floored).
        if self.mul.out_tag.val().get_bit(0) {
            self.out_alpha.next = self.mul.out_prod.val().get_bits::<ALPHA_BITS>(DECAY_BITS);
        }
    }
}
