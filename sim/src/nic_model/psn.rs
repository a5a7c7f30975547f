//! 24-bit packet sequence numbers: every comparison goes through `psn_diff` so that a
//! connection can run across the wrap at 2^24.

/// PSNs are 24 bits.
pub const PSN_MASK: u32 = 0xFF_FFFF;

/// `psn + n` modulo 2^24.
pub fn psn_add(psn: u32, n: u32) -> u32 {
    psn.wrapping_add(n) & PSN_MASK
}

/// `a - b` as a signed distance in `[-2^23, 2^23)`: positive when `a` is ahead of `b`. This is
/// the InfiniBand split of the PSN space into a half ahead and a half behind.
pub fn psn_diff(a: u32, b: u32) -> i32 {
    ((a.wrapping_sub(b) << 8) as i32) >> 8
}

/// The later of two PSNs (by `psn_diff`).
pub fn psn_max(a: u32, b: u32) -> u32 {
    if psn_diff(a, b) >= 0 {
        a
    } else {
        b
    }
}

/// The earlier of two PSNs (by `psn_diff`).
pub fn psn_min(a: u32, b: u32) -> u32 {
    if psn_diff(a, b) <= 0 {
        a
    } else {
        b
    }
}

/// Whether `psn` lies in `[from, to)`.
pub fn psn_in(psn: u32, from: u32, to: u32) -> bool {
    psn_diff(psn, from) >= 0 && psn_diff(psn, to) < 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap() {
        assert_eq!(psn_add(PSN_MASK, 1), 0);
        assert_eq!(psn_diff(0, PSN_MASK), 1);
        assert_eq!(psn_diff(PSN_MASK, 0), -1);
        assert_eq!(psn_diff(5, 5), 0);
        assert!(psn_in(2, PSN_MASK - 3, 4));
        assert!(!psn_in(4, PSN_MASK - 3, 4));
        assert_eq!(psn_max(1, PSN_MASK), 1);
        assert_eq!(psn_min(1, PSN_MASK), PSN_MASK);
    }
}
