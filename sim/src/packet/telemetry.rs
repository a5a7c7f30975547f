//! In-band telemetry: a 4-byte header and 5 preallocated 8-byte hop records.
//!
//! The hop record has the field widths and units of the HPCC reference simulator's `IntHop`
//! (3-bit line-rate code, 24-bit timestamp in ns, 20-bit txBytes in 128-byte units, 17-bit
//! qlen in 80-byte units), packed MSB-first into one big-endian 64-bit word. Timestamp and
//! txBytes are free-running counters truncated to their width: use `ts_delta_ns` and
//! `tx_bytes_delta`, which are exact as long as fewer than 2^24 ns (16.8 ms) and 2^20 * 128
//! bytes (128 MiB) pass between the two samples.

use crate::layout::{word_of, words_of, INT_HOP};

/// Hop slots in every telemetry header (HPCC++ drafts: paths are at most 5 hops).
pub const MAX_HOPS: usize = 5;
/// Bytes of one hop record.
pub const HOP_LEN: usize = 8;
/// Bytes of the telemetry header before the hop slots.
pub const TELEMETRY_FIXED_LEN: usize = 4;
/// Whole telemetry header: 4 + 5 * 8 = 44 bytes.
pub const TELEMETRY_LEN: usize = TELEMETRY_FIXED_LEN + MAX_HOPS * HOP_LEN;
/// Telemetry header version.
pub const TELEMETRY_VERSION: u8 = 1;
/// Byte 0 bit 2: F, slot 0 carries Rx-HPCC feedback (only with E = 1 and no hops).
pub const TELEMETRY_FEEDBACK: u8 = 0x04;
/// Header offset of the feedback W (big-endian, UQ24.8 bytes): slot 0's bytes 4-7, so the
/// slot read as a 64-bit word is W.
pub const FEEDBACK_AT: usize = TELEMETRY_FIXED_LEN + 4;

// A hop record's fields are sim::layout::INT_HOP; the widths are its fields'.
pub const TS_BITS: u32 = INT_HOP.ts.width as u32;
pub const TX_BYTES_BITS: u32 = INT_HOP.tx_bytes.width as u32;
pub const QLEN_BITS: u32 = INT_HOP.qlen.width as u32;
pub const LINE_RATE_BITS: u32 = INT_HOP.rate.width as u32;
/// Bytes per txBytes unit.
pub const TX_BYTES_UNIT: u64 = 128;
/// Bytes per qlen unit.
pub const QLEN_UNIT: u64 = 80;

/// A timestamp, txBytes and qlen field's largest value.
pub const TS_MASK: u32 = (1 << TS_BITS) - 1;
pub const TX_MASK: u32 = (1 << TX_BYTES_BITS) - 1;
pub const QLEN_MAX: u32 = (1 << QLEN_BITS) - 1;

/// Egress link speed, 3-bit code. Codes 5-7 are undefined and rejected by the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRate {
    G25 = 0,
    G50 = 1,
    G100 = 2,
    G200 = 3,
    G400 = 4,
}

impl LineRate {
    pub fn from_code(code: u8) -> Option<LineRate> {
        match code {
            0 => Some(LineRate::G25),
            1 => Some(LineRate::G50),
            2 => Some(LineRate::G100),
            3 => Some(LineRate::G200),
            4 => Some(LineRate::G400),
            _ => None,
        }
    }

    /// Speed in bits per second.
    pub fn bits_per_second(self) -> u64 {
        25_000_000_000 << self as u32
    }

    /// Speed in bytes per nanosecond (the unit the CC arithmetic wants: B * T in bytes).
    pub fn bytes_per_ns(self) -> f64 {
        self.bits_per_second() as f64 / 8e9
    }
}

/// One switch hop, in wire units. Fields wider than their width are masked when built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntHop {
    pub line_rate: LineRate,
    /// Egress timestamp in ns, modulo 2^24.
    pub ts: u32,
    /// Egress port's transmitted bytes / 128, modulo 2^20.
    pub tx_bytes: u32,
    /// Egress queue length / 80, saturating at 2^17 - 1.
    pub qlen: u32,
}

impl IntHop {
    /// What a switch writes given its full-width counters: timestamp and byte counter are
    /// truncated to the field (they wrap), the queue length saturates.
    pub fn from_counters(
        now_ns: u64,
        tx_bytes_total: u64,
        qlen_bytes: u64,
        line_rate: LineRate,
    ) -> IntHop {
        IntHop {
            line_rate,
            ts: (now_ns & TS_MASK as u64) as u32,
            tx_bytes: ((tx_bytes_total / TX_BYTES_UNIT) & TX_MASK as u64) as u32,
            qlen: (qlen_bytes / QLEN_UNIT).min(QLEN_MAX as u64) as u32,
        }
    }

    /// Queue length in bytes.
    pub fn qlen_bytes(&self) -> u64 {
        self.qlen as u64 * QLEN_UNIT
    }

    /// The 64-bit record (sim::layout::INT_HOP): line-rate code, ts, txBytes, qlen.
    pub fn word(&self) -> u64 {
        hop_word(self.line_rate as u8, self.ts, self.tx_bytes, self.qlen)
    }

    /// `Err(code)` if the line-rate code is undefined.
    pub fn from_word(w: u64) -> Result<IntHop, u8> {
        let (code, ts, tx_bytes, qlen) = hop_fields(w);
        Ok(IntHop { line_rate: LineRate::from_code(code).ok_or(code)?, ts, tx_bytes, qlen })
    }
}

/// A hop record's fields (sim::layout::INT_HOP) as they are, any rate code: (rate code, ts,
/// txBytes, qlen). `IntHop` and the fixed-point model's `FxHop` both read records with it.
pub fn hop_fields(w: u64) -> (u8, u32, u32, u32) {
    let w = words_of(w as u128);
    let f = |x: &crate::layout::Field| x.get(&w) as u32;
    (f(&INT_HOP.rate) as u8, f(&INT_HOP.ts), f(&INT_HOP.tx_bytes), f(&INT_HOP.qlen))
}

/// The record of those fields, each cut to its width: the inverse of `hop_fields`.
pub fn hop_word(rate_code: u8, ts: u32, tx_bytes: u32, qlen: u32) -> u64 {
    let mut w = [0u32; 2];
    INT_HOP.rate.set(&mut w, rate_code as u64);
    INT_HOP.ts.set(&mut w, ts as u64);
    INT_HOP.tx_bytes.set(&mut w, tx_bytes as u64);
    INT_HOP.qlen.set(&mut w, qlen as u64);
    word_of(&w) as u64
}

/// Nanoseconds from `old` to `new` timestamp fields, across at most one wrap.
pub fn ts_delta_ns(new: u32, old: u32) -> u32 {
    new.wrapping_sub(old) & TS_MASK
}

/// Bytes transmitted from `old` to `new` txBytes fields, across at most one wrap (multiple of
/// 128).
pub fn tx_bytes_delta(new: u32, old: u32) -> u64 {
    (new.wrapping_sub(old) & TX_MASK) as u64 * TX_BYTES_UNIT
}

/// The telemetry header: byte 0 = version << 4 | E << 3 | F << 2, byte 1 = hop count, bytes
/// 2-3 reserved, then 5 hop slots (unused ones zero). F (Rx-HPCC feedback) counts only in an
/// echo with no hops: slot 0 then carries the receiver's window W in its bytes 4-7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Telemetry {
    /// E bit: 0 = being collected (switches push hops: data, probes), 1 = echoed back to the
    /// sender (ACKs, telemetry responses; switches leave it alone).
    pub echo: bool,
    /// Hops pushed so far, first switch first; at most `MAX_HOPS`.
    pub hops: Vec<IntHop>,
    /// Rx-HPCC feedback: the receiver's window W (UQ24.8 bytes, draft 004 line 31) sent back
    /// in an ACK. Only in an echo without hops (`build` panics otherwise; `parse` reads F only
    /// there and ignores it elsewhere, as a reserved bit).
    pub feedback: Option<u32>,
}

impl Telemetry {
    /// An empty header for a data packet or probe.
    pub fn collecting() -> Telemetry {
        Telemetry {
            echo: false,
            hops: Vec::new(),
            feedback: None,
        }
    }

    /// The same hops, marked as an echo (receiver side: ACK or response).
    pub fn echoed(&self) -> Telemetry {
        Telemetry {
            echo: true,
            hops: self.hops.clone(),
            feedback: self.feedback,
        }
    }

    /// What a switch does: append a hop if a slot is free and the header is collecting.
    /// Returns whether the hop was written.
    pub fn push_hop(&mut self, hop: IntHop) -> bool {
        if self.echo || self.hops.len() >= MAX_HOPS {
            return false;
        }
        self.hops.push(hop);
        true
    }

    pub fn build(&self) -> [u8; TELEMETRY_LEN] {
        assert!(
            self.hops.len() <= MAX_HOPS,
            "{} hops, at most {MAX_HOPS}",
            self.hops.len()
        );
        assert!(
            self.feedback.is_none() || (self.echo && self.hops.is_empty()),
            "Rx-HPCC feedback only in an echo without hops"
        );
        let mut b = [0u8; TELEMETRY_LEN];
        b[0] = TELEMETRY_VERSION << 4 | (self.echo as u8) << 3;
        b[1] = self.hops.len() as u8;
        if let Some(w) = self.feedback {
            b[0] |= TELEMETRY_FEEDBACK;
            b[FEEDBACK_AT..FEEDBACK_AT + 4].copy_from_slice(&w.to_be_bytes());
        }
        for (i, h) in self.hops.iter().enumerate() {
            let o = TELEMETRY_FIXED_LEN + i * HOP_LEN;
            b[o..o + HOP_LEN].copy_from_slice(&h.word().to_be_bytes());
        }
        b
    }
}
