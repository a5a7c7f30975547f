//! Golden model of the Rx pipe's parse stage (`hdl/src/rx/rx_pipe.rs`): AXI-Stream beats in, one
//! verdict record per frame out, and per-reason counters.
//!
//! A frame is the beats up to and including the one with tlast. Stream-level faults are checked
//! first, in this order: the MAC flagged the frame (tuser on any beat, `MAC_ERROR`), a tkeep
//! that is not all ones on a non-final beat or not contiguous from lane 0 on the final beat
//! (`KEEP_HOLE`), a frame longer than `MAX_FRAME` bytes (`TOO_LONG`). A frame without those is
//! handed to `RocePacket::parse_with_layout`, whose `ParseError::code` (1-24) is the drop
//! reason; code 0 is "accepted". Fields are reported for accepted frames only (zero otherwise).
//!
//! A zero-length frame is one beat with tkeep all zero and tlast (AXI4-Stream null bytes): not
//! a keep hole but a frame too short for an Ethernet header, `truncated` (code 1). An empty
//! last beat after other beats stays a keep hole.
//!
//! The record is `Verdict::words`, the RTL's `m_axis_verdict_tdata` (docs/modules/rx_pipe.md).

pub mod cycle;

use crate::layout::VERDICT;
use crate::packet::{Layout, RocePacket};
use serde::Serialize;

/// Bytes per beat (512-bit tdata).
pub const BEAT_BYTES: usize = 64;
/// Longest frame accepted (without FCS): a 9 KB jumbo frame. Longer ones are dropped as
/// `TOO_LONG`.
pub const MAX_FRAME: usize = 9216;
/// The reported frame length counts at most this many beats before the last one (so it fits
/// 16 bits); frames that long are `TOO_LONG` anyway.
pub const MAX_BEAT_INDEX: usize = 255;
/// Drop reason: the MAC set tuser (bad FCS) on a beat of the frame.
pub const MAC_ERROR: u8 = 25;
/// Drop reason: tkeep not all ones on a non-final beat, or not contiguous from lane 0 (or
/// empty, unless it is the only beat: a zero-length frame) on the final beat.
pub const KEEP_HOLE: u8 = 26;
/// Drop reason: frame longer than `MAX_FRAME`.
pub const TOO_LONG: u8 = 27;
/// Counters: index 0 counts accepted frames, index c the frames dropped with code c.
pub const REASONS: usize = 28;
/// 32-bit words of a verdict record.
pub const VERDICT_WORDS: usize = crate::layout::VerdictLayout::WIDTH / 32;

/// Short name of a verdict code (0 = "accepted"), for reports.
pub fn reason(code: u8) -> &'static str {
    const NAMES: [&str; REASONS] = [
        "accepted",
        "truncated",
        "unsupported_ethertype",
        "not_ipv4",
        "ipv4_options",
        "bad_ipv4_checksum",
        "ipv4_length_mismatch",
        "ipv4_fragmented",
        "not_udp",
        "udp_length_mismatch",
        "wrong_udp_port",
        "bad_udp_checksum",
        "bad_bth_version",
        "unknown_opcode",
        "bad_aeth_syndrome",
        "unexpected_telemetry",
        "missing_telemetry",
        "bad_telemetry_version",
        "telemetry_mode_mismatch",
        "hop_count_out_of_range",
        "unknown_line_rate",
        "bad_cnp_length",
        "unexpected_payload",
        "bad_pad_count",
        "bad_icrc",
        "mac_error",
        "keep_hole",
        "too_long",
    ];
    NAMES.get(code as usize).copied().unwrap_or("unknown_code")
}

/// One AXI-Stream beat: lane i of `data` is tdata[8i+7:8i], bit i of `keep` is tkeep[i].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beat {
    pub data: [u8; BEAT_BYTES],
    pub keep: u64,
    pub last: bool,
    pub user: bool,
}

/// A frame as the MAC shim sends it: full beats, the last one keeping its bytes from lane 0.
/// A zero-length frame is one beat keeping nothing (tkeep 0, tlast).
pub fn beats(frame: &[u8]) -> Vec<Beat> {
    let mut chunks: Vec<&[u8]> = frame.chunks(BEAT_BYTES).collect();
    if chunks.is_empty() {
        chunks.push(&[]);
    }
    let n = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            let mut data = [0u8; BEAT_BYTES];
            data[..c.len()].copy_from_slice(c);
            Beat {
                data,
                keep: if c.len() == 64 {
                    u64::MAX
                } else {
                    (1u64 << c.len()) - 1
                },
                last: k + 1 == n,
                user: false,
            }
        })
        .collect()
}

/// What the Rx pipe says about one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// 0 = accepted, 1-24 = `ParseError::code`, 25-27 the stream faults above.
    pub code: u8,
    /// Frame length: 64 x (beats - 1, at most `MAX_BEAT_INDEX`) + 1 + the highest kept lane of
    /// the last beat (0 if tkeep is empty).
    pub len: u16,
    /// The rest is zero unless accepted.
    pub opcode: u8,
    pub ack_req: bool,
    pub fecn: bool,
    pub becn: bool,
    pub solicited: bool,
    /// IPv4 ECN bits.
    pub ecn: u8,
    pub telemetry: bool,
    pub echo: bool,
    /// The echo carries Rx-HPCC feedback (telemetry F, read only in an echo without hops):
    /// hop word 0 is then W (`hops[0]`, slot 0's bytes 4-7), the rest of slot 0 is dropped.
    pub feedback: bool,
    pub nhop: u8,
    /// BTH PadCnt.
    pub pad: u8,
    pub dest_qp: u32,
    pub psn: u32,
    pub aeth_syndrome: u8,
    pub aeth_msn: u32,
    pub reth_va: u64,
    pub reth_rkey: u32,
    pub reth_len: u32,
    /// Frame offset of the payload (CNP: of its reserved bytes).
    pub payload_at: u8,
    /// Payload bytes, pad excluded.
    pub payload_len: u16,
    pub udp_src_port: u16,
    /// Hop words as on the wire (big-endian 64-bit), unused slots zero.
    pub hops: [u64; 5],
}

impl Verdict {
    /// The record of a frame that parsed.
    pub fn accepted(len: u16, p: &RocePacket, l: &Layout) -> Verdict {
        let b = &p.bth;
        let payload = p.body.payload().len();
        let mut v = Verdict {
            code: 0,
            len,
            opcode: p.opcode() as u8,
            ack_req: b.ack_req,
            fecn: b.fecn,
            becn: b.becn,
            solicited: b.solicited,
            ecn: p.ip.ecn as u8,
            dest_qp: b.dest_qp,
            psn: b.psn,
            payload_at: l.payload as u8,
            payload_len: payload as u16,
            pad: if p.opcode().has_payload() {
                (l.icrc - l.payload - payload) as u8
            } else {
                0
            },
            udp_src_port: p.udp_src_port,
            ..Default::default()
        };
        if let Some(a) = p.body.aeth() {
            v.aeth_syndrome = a.syndrome.bits();
            v.aeth_msn = a.msn;
        }
        if let Some(r) = p.body.reth() {
            v.reth_va = r.va;
            v.reth_rkey = r.rkey;
            v.reth_len = r.dma_len;
        }
        if let Some(t) = &p.telemetry {
            v.telemetry = true;
            v.echo = t.echo;
            v.nhop = t.hops.len() as u8;
            for (i, h) in t.hops.iter().enumerate() {
                v.hops[i] = h.word();
            }
            if let Some(w) = t.feedback {
                v.feedback = true;
                v.hops[0] = w as u64;
            }
        }
        v
    }

    /// The 640-bit record, word 0 = bits 31:0 (`layout::VERDICT`, docs/modules/rx_pipe.md).
    pub fn words(&self) -> [u32; VERDICT_WORDS] {
        let l = &VERDICT;
        let mut w = [0u32; VERDICT_WORDS];
        l.code.set(&mut w, self.code as u64);
        l.opcode.set(&mut w, self.opcode as u64);
        l.ack_req.set(&mut w, self.ack_req as u64);
        l.becn.set(&mut w, self.becn as u64);
        l.fecn.set(&mut w, self.fecn as u64);
        l.solicited.set(&mut w, self.solicited as u64);
        l.telemetry.set(&mut w, self.telemetry as u64);
        l.echo.set(&mut w, self.echo as u64);
        l.ecn.set(&mut w, self.ecn as u64);
        l.nhop.set(&mut w, self.nhop as u64);
        l.feedback.set(&mut w, self.feedback as u64);
        l.pad.set(&mut w, self.pad as u64);
        l.len.set(&mut w, self.len as u64);
        l.payload_at.set(&mut w, self.payload_at as u64);
        l.dest_qp.set(&mut w, self.dest_qp as u64);
        l.aeth_syndrome.set(&mut w, self.aeth_syndrome as u64);
        l.psn.set(&mut w, self.psn as u64);
        l.aeth_msn.set(&mut w, self.aeth_msn as u64);
        l.payload_len.set(&mut w, self.payload_len as u64);
        l.udp_src_port.set(&mut w, self.udp_src_port as u64);
        // RETH and hop words in wire byte order (first byte in the low bits).
        l.reth_va.set(&mut w, self.reth_va.swap_bytes());
        l.reth_rkey.set(&mut w, self.reth_rkey.swap_bytes() as u64);
        l.reth_len.set(&mut w, self.reth_len.swap_bytes() as u64);
        for (i, h) in self.hops.iter().enumerate() {
            l.hops.part(i, 64).set(&mut w, h.swap_bytes());
        }
        w
    }

    /// Inverse of `words`.
    pub fn from_words(w: &[u32]) -> Verdict {
        let l = &VERDICT;
        let mut hops = [0u64; 5];
        for (i, h) in hops.iter_mut().enumerate() {
            *h = l.hops.part(i, 64).get(w).swap_bytes();
        }
        Verdict {
            code: l.code.get(w) as u8,
            opcode: l.opcode.get(w) as u8,
            ack_req: l.ack_req.get(w) == 1,
            becn: l.becn.get(w) == 1,
            fecn: l.fecn.get(w) == 1,
            solicited: l.solicited.get(w) == 1,
            telemetry: l.telemetry.get(w) == 1,
            echo: l.echo.get(w) == 1,
            ecn: l.ecn.get(w) as u8,
            nhop: l.nhop.get(w) as u8,
            feedback: l.feedback.get(w) == 1,
            pad: l.pad.get(w) as u8,
            len: l.len.get(w) as u16,
            payload_at: l.payload_at.get(w) as u8,
            dest_qp: l.dest_qp.get(w) as u32,
            aeth_syndrome: l.aeth_syndrome.get(w) as u8,
            psn: l.psn.get(w) as u32,
            aeth_msn: l.aeth_msn.get(w) as u32,
            payload_len: l.payload_len.get(w) as u16,
            udp_src_port: l.udp_src_port.get(w) as u16,
            reth_va: l.reth_va.get(w).swap_bytes(),
            reth_rkey: (l.reth_rkey.get(w) as u32).swap_bytes(),
            reth_len: (l.reth_len.get(w) as u32).swap_bytes(),
            hops,
        }
    }
}

/// The verdict on one frame's beats (the last one carrying tlast).
pub fn judge(frame: &[Beat]) -> Verdict {
    let last = frame.last().expect("a frame has at least one beat");
    let top_lane = 64 - last.keep.leading_zeros() as usize;
    let n = frame.len() - 1;
    let len = BEAT_BYTES * n.min(MAX_BEAT_INDEX) + top_lane;
    let fault = if frame.iter().any(|b| b.user) {
        Some(MAC_ERROR)
    } else if frame[..n].iter().any(|b| b.keep != u64::MAX)
        || (last.keep == 0 && n > 0)
        || last.keep & last.keep.wrapping_add(1) != 0
    {
        Some(KEEP_HOLE)
    } else if BEAT_BYTES * n + top_lane > MAX_FRAME {
        Some(TOO_LONG)
    } else {
        None
    };
    if let Some(code) = fault {
        return Verdict {
            code,
            len: len as u16,
            ..Default::default()
        };
    }
    let bytes: Vec<u8> = frame
        .iter()
        .flat_map(|b| {
            (0..BEAT_BYTES)
                .filter(|i| b.keep >> i & 1 == 1)
                .map(|i| b.data[i])
        })
        .collect();
    match RocePacket::parse_with_layout(&bytes) {
        Ok((p, l)) => Verdict::accepted(len as u16, &p, &l),
        Err(e) => Verdict {
            code: e.code(),
            len: len as u16,
            ..Default::default()
        },
    }
}

/// The Rx pipe model: beats in, verdicts out, counters.
#[derive(Clone, Debug)]
pub struct RxPipe {
    pending: Vec<Beat>,
    /// `counters[0]` accepted frames, `counters[c]` frames dropped with code c.
    pub counters: [u64; REASONS],
}

impl Default for RxPipe {
    fn default() -> Self {
        RxPipe {
            pending: Vec::new(),
            counters: [0; REASONS],
        }
    }
}

impl RxPipe {
    pub fn new() -> RxPipe {
        RxPipe::default()
    }

    /// One accepted beat; the verdict when it ends a frame.
    pub fn beat(&mut self, b: Beat) -> Option<Verdict> {
        let last = b.last;
        self.pending.push(b);
        if !last {
            return None;
        }
        let v = judge(&self.pending);
        self.pending.clear();
        self.counters[v.code as usize] += 1;
        Some(v)
    }

    /// A whole frame of any length, 0 included (split by `beats`).
    pub fn frame(&mut self, frame: &[u8]) -> Verdict {
        let mut v = None;
        for b in beats(frame) {
            v = self.beat(b);
        }
        v.expect("beats() ends with tlast")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{examples, ipv4_id_for_zero_checksum, ETH_LEN};

    #[test]
    fn examples_are_accepted_and_records_round_trip() {
        let mut rx = RxPipe::new();
        for (name, p) in examples() {
            let f = p.build();
            let v = rx.frame(&f);
            assert_eq!(v.code, 0, "{name}");
            assert_eq!(v.len as usize, f.len(), "{name}");
            assert_eq!(v.opcode, p.opcode() as u8, "{name}");
            assert_eq!(Verdict::from_words(&v.words()), v, "{name}");
        }
        assert_eq!(rx.counters[0], examples().len() as u64);
    }

    #[test]
    fn stream_faults_come_first() {
        let f = examples()[0].1.build();
        let mut b = beats(&f);
        b[0].user = true;
        assert_eq!(judge(&b).code, MAC_ERROR);
        let mut b = beats(&f);
        b[0].keep ^= 1 << 5;
        assert_eq!(judge(&b).code, KEEP_HOLE);
        let long: Vec<u8> = f.iter().cycle().take(MAX_FRAME + 1).copied().collect();
        assert_eq!(judge(&beats(&long)).code, TOO_LONG);
        let mut short = f.clone();
        short.truncate(20);
        assert_eq!(judge(&beats(&short)).code, 1);
    }

    #[test]
    fn zero_length_frame_is_one_empty_beat_dropped_as_truncated() {
        let b = beats(&[]);
        assert_eq!(b.len(), 1);
        assert_eq!((b[0].keep, b[0].last, b[0].user), (0, true, false));
        let mut rx = RxPipe::new();
        let v = rx.frame(&[]);
        assert_eq!(
            v,
            Verdict {
                code: 1,
                len: 0,
                ..Default::default()
            }
        );
        assert_eq!(reason(v.code), "truncated");
        // The pipe goes on: the next frame is judged on its own.
        let f = examples()[0].1.build();
        assert_eq!(rx.frame(&f).code, 0);
        assert_eq!((rx.counters[1], rx.counters[0]), (1, 1));
        // tuser still comes first; an empty last beat after other beats is still a keep hole.
        let mut b = beats(&[]);
        b[0].user = true;
        assert_eq!(judge(&b).code, MAC_ERROR);
        let mut b = beats(&f[..64]);
        b[0].last = false;
        b.extend(beats(&[]));
        assert_eq!(
            judge(&b),
            Verdict {
                code: KEEP_HOLE,
                len: 64,
                ..Default::default()
            }
        );
    }

    #[test]
    fn ipv4_checksum_ffff_is_taken_for_zero() {
        let mut p = examples()[0].1.clone();
        let total_len = (p.build().len() - ETH_LEN) as u16;
        p.ip.identification = ipv4_id_for_zero_checksum(&p.ip, total_len);
        let mut f = p.build();
        assert_eq!(&f[24..26], &[0, 0], "the computed checksum is 0x0000");
        let mut rx = RxPipe::new();
        assert_eq!(rx.frame(&f).code, 0, "0x0000");
        // The ICRC does not cover the IPv4 checksum, so only the field changes.
        f[24..26].copy_from_slice(&[0xFF, 0xFF]);
        assert_eq!(
            rx.frame(&f).code,
            0,
            "0xFFFF, the other one's-complement zero"
        );
        f[24..26].copy_from_slice(&[0xFF, 0xFE]);
        assert_eq!(reason(rx.frame(&f).code), "bad_ipv4_checksum");
        // Where the computed value is not 0, 0xFFFF is just wrong.
        let mut g = examples()[0].1.build();
        assert_ne!(&g[24..26], &[0, 0]);
        g[24..26].copy_from_slice(&[0xFF, 0xFF]);
        assert_eq!(reason(rx.frame(&g).code), "bad_ipv4_checksum");
    }
}
