//! The model of `hdl/src/pcie/pcie_shim.rs`, the PCIe shim: its read engine's TLPs
//! (`sim::pcie_rd`) and its write engine's (`sim::pcie_wr`) share the hard block's RQ, whole
//! TLPs, in each engine's own order; which engine goes next depends on timing (round robin
//! when both wait), so a check follows each engine's order, not one merged order.
//!
//! [`RqIntake`] is the host's side of RQ: it puts beats back together into TLPs, checking the
//! interface's rules on the way (a TLP starts in lane 0 of a beat with `is_sop`, every beat
//! but its last is full, its last has `tlast`, `is_eop` and the right end pointer, the
//! descriptor's dword count and byte enables agree with its beats). [`Memory`] is host memory
//! for the test benches: bytes never written read as [`pattern`].

use crate::layout::{PCIE_RQ_DESC as RQ, PCIE_RQ_USER as RQU};
use crate::pcie_rd::ReadTlp;
use crate::pcie_wr::WriteTlp;
use std::collections::HashMap;

/// A TLP as the host receives it on RQ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RqTlp {
    Read(ReadTlp),
    Write(WriteTlp),
}

/// RQ beats to TLPs.
#[derive(Default)]
pub struct RqIntake {
    /// The TLP's dwords so far (descriptor first), and its first beat's byte enables.
    dw: Vec<u32>,
    be: (u8, u8),
}

/// The first byte's address and the length in bytes of a request of `dwords` dwords from
/// dword address `dw_addr` with byte enables `first`, `last` (contiguous, as the engines send).
fn span(dw_addr: u64, dwords: u32, first: u8, last: u8) -> Result<(u64, u32), String> {
    let contiguous = |be: u8| be != 0 && {
        let s = be >> be.trailing_zeros();
        s & (s + 1) == 0
    };
    if !contiguous(first) {
        return Err(format!("first byte enables {first:x}: empty or not contiguous"));
    }
    let lead = first.trailing_zeros();
    if dwords == 1 {
        if last != 0 {
            return Err(format!("one-dword request with last byte enables {last:x}"));
        }
        return Ok((dw_addr * 4 + lead as u64, first.count_ones()));
    }
    if first >> lead != 0xf >> lead || !contiguous(last) || last.trailing_zeros() != 0 {
        return Err(format!("byte enables {first:x} / {last:x} leave a hole"));
    }
    Ok((dw_addr * 4 + lead as u64, 4 * dwords - lead - (4 - last.count_ones())))
}

impl RqIntake {
    /// Takes one RQ beat (`data` as 16 little-endian words, `user` the 137-bit tuser as 5
    /// words); returns the TLP it ends, or what is wrong with it. After an error the intake
    /// starts over at the next beat.
    pub fn beat(&mut self, data: &[u32], keep: u16, last: bool, user: &[u32]) -> Result<Option<RqTlp>, String> {
        let r = self.take(data, keep, last, user);
        if !matches!(r, Ok(None)) {
            self.dw.clear();
        }
        r
    }

    fn take(&mut self, data: &[u32], keep: u16, last: bool, user: &[u32]) -> Result<Option<RqTlp>, String> {
        let first = self.dw.is_empty();
        let lanes = 16 - keep.leading_zeros();
        if keep == 0 || keep.count_ones() != lanes {
            return Err(format!("tkeep {keep:04x} is not lanes 0.. n"));
        }
        if (RQU.is_sop.get(user) & 1 == 1) != first || RQU.is_sop0_ptr.get(user) != 0 {
            return Err(format!("is_sop {} (ptr {}) on a {} beat", RQU.is_sop.get(user), RQU.is_sop0_ptr.get(user), if first { "first" } else { "later" }));
        }
        if RQU.discontinue.get(user) != 0 {
            return Err("discontinue set".into());
        }
        if (RQU.is_eop.get(user) & 1 == 1) != last || (last && RQU.is_eop0_ptr.get(user) != lanes as u64 - 1) {
            return Err(format!("is_eop {} ptr {} on a beat of {lanes} lanes, tlast {last}", RQU.is_eop.get(user), RQU.is_eop0_ptr.get(user)));
        }
        if !last && lanes != 16 {
            return Err(format!("a beat of {lanes} lanes before the TLP's last"));
        }
        if first {
            self.be = (RQU.first_be.get(user) as u8 & 0xf, RQU.last_be.get(user) as u8 & 0xf);
        }
        self.dw.extend_from_slice(&data[..lanes as usize]);
        if self.dw.len() < 4 {
            return Err("a TLP shorter than its descriptor".into());
        }
        let d = &self.dw[..4];
        let (addr, dwords, kind) = (RQ.addr.get(d), RQ.dwords.get(d) as u32, RQ.req_type.get(d));
        let total = match kind {
            0 => 4,
            1 => 4 + dwords as usize,
            k => return Err(format!("request type {k}: the shim sends only memory reads (0) and writes (1)")),
        };
        if dwords == 0 || RQ.poisoned.get(d) != 0 || RQ.at.get(d) != 0 {
            return Err(format!("descriptor {d:08x?}: no dwords, poisoned or translated"));
        }
        if self.dw.len() > total || (last && self.dw.len() != total) || (!last && self.dw.len() == total) {
            return Err(format!("{} dwords by tlast, the descriptor says {total}", self.dw.len()));
        }
        if !last {
            return Ok(None);
        }
        let (a, len) = span(addr, dwords, self.be.0, self.be.1)?;
        Ok(Some(if kind == 0 {
            RqTlp::Read(ReadTlp { addr: a, len, tag: RQ.tag.get(d) as u8 })
        } else {
            let bytes: Vec<u8> = self.dw[4..].iter().flat_map(|w| w.to_le_bytes()).collect();
            let off = (a & 3) as usize;
            RqTlp::Write(WriteTlp { addr: a, data: bytes[off..off + len as usize].to_vec() })
        }))
    }
}

/// Host memory's bytes that were never written: a function of the address, so reads anywhere
/// in 2^64 need no storage and a misplaced byte shows.
pub fn pattern(a: u64) -> u8 {
    let x = a.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (x >> 56) as u8 ^ (a as u8)
}

/// Host memory: the bytes written, over [`pattern`].
#[derive(Default)]
pub struct Memory {
    bytes: HashMap<u64, u8>,
}

impl Memory {
    pub fn write(&mut self, addr: u64, data: &[u8]) {
        for (i, b) in data.iter().enumerate() {
            self.bytes.insert(addr + i as u64, *b);
        }
    }

    pub fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        (0..len as u64).map(|i| self.bytes.get(&(addr + i)).copied().unwrap_or_else(|| pattern(addr + i))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

/// A write TLP's RQ beats as (tdata words, tkeep, tlast, tuser words), undefined bytes 0.
fn write_beats(t: &WriteTlp) -> Vec<([u32; 16], u16, bool, [u32; 5])> {
    t.beats()
        .iter()
        .map(|b| {
            let w: [u32; 16] = std::array::from_fn(|i| u32::from_le_bytes(b.data[4 * i..4 * i + 4].try_into().unwrap()));
            (w, b.keep, b.last, b.user)
        })
        .collect()
}

    fn intake(beats: &[([u32; 16], u16, bool, [u32; 5])]) -> Result<Option<RqTlp>, String> {
        let mut q = RqIntake::default();
        let mut out = Ok(None);
        for (d, k, l, u) in beats {
            out = q.beat(d, *k, *l, u);
            if out.is_err() {
                break;
            }
        }
        out
    }

    #[test]
    fn reads_and_writes_come_back_as_sent() {
        for (addr, len) in [(0x1000u64, 1u32), (0x1003, 2), (0x1001, 7), (0x7ff2, 300), (0xffc, 512)] {
            let t = ReadTlp { addr, len, tag: 9 };
            let beat = (t.rq_data(), 0xf, true, t.rq_user());
            assert_eq!(intake(&[beat]), Ok(Some(RqTlp::Read(t))));
        }
        for (addr, len) in [(0x2000u64, 1usize), (0x2003, 2), (0x2001, 60), (0x2002, 61), (0x2f00, 1024)] {
            let t = WriteTlp { addr, data: (0..len).map(|i| (i * 7) as u8).collect() };
            assert_eq!(intake(&write_beats(&t)), Ok(Some(RqTlp::Write(t))));
        }
    }

    #[test]
    fn broken_framing_is_reported() {
        let t = WriteTlp { addr: 0x2001, data: vec![1; 100] };
        let mut b = write_beats(&t);
        assert_eq!(b.len(), 2);
        // tlast one beat early.
        let mut early = b.clone();
        early[0].2 = true;
        assert!(intake(&early[..1]).is_err());
        // A second TLP starting inside the first.
        let r = ReadTlp { addr: 0, len: 4, tag: 0 };
        assert!(intake(&[b[0], (r.rq_data(), 0xf, true, r.rq_user())]).is_err());
        // Wrong end pointer.
        RQU.is_eop0_ptr.set(&mut b[1].3, 0);
        assert!(intake(&b).is_err());
        // A read with a hole in its byte enables.
        let mut u = r.rq_user();
        RQU.first_be.set(&mut u, 0x5);
        assert!(intake(&[(r.rq_data(), 0xf, true, u)]).is_err());
    }

    #[test]
    fn memory_reads_its_writes_over_the_pattern() {
        let mut m = Memory::default();
        m.write(10, &[1, 2, 3]);
        assert_eq!(m.read(9, 5), vec![pattern(9), 1, 2, 3, pattern(13)]);
    }
}
