//! The model of `hdl/src/pcie/pcie_rd.rs`, the PCIe shim's DMA read engine: the core's DMA
//! read requests become memory read TLPs on the hard block's requester request (RQ)
//! interface, and their completions (RC), in any order across tags, become the core's read
//! data stream, in request order, realigned to lane 0.
//!
//! What the RTL must do is a function of the requests alone: the TLPs (address, length, byte
//! enables, tag) and the bytes out. [`PcieRd::request`] gives the TLPs of one request; the
//! bytes are host memory's. [`rc_beats`] is the other side: a completion as the hard block
//! puts it on RC (DWORD-aligned, no straddling), for the test benches' completer.

use crate::layout::{PCIE_RC_DESC as RC, PCIE_RC_USER as RCU, PCIE_RQ_DESC as RQ, PCIE_RQ_USER as RQU};

/// Tags: 32, each owning a 512-byte slot of the reorder buffer (16 KiB). Tags 0-31 need no
/// Extended Tag Field Enable.
pub const TAGS: usize = 32;
/// Bytes per tag slot: the largest read TLP.
pub const SLOT: u64 = 512;
/// Request FIFO depth (requests accepted whose data has not all left).
pub const REQ_FIFO: usize = 32;

/// log2 of the read TLP size for the hard block's `cfg_max_read_req` (PCIe encoding: 0 = 128
/// bytes ... 5 = 4096): min(max read request, 512). Reads are split at multiples of it.
pub fn chunk_log(max_read_req: u8) -> u32 {
    7 + u32::from(max_read_req.min(2))
}

/// One memory read TLP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadTlp {
    pub addr: u64,
    /// Bytes, 1..=512.
    pub len: u32,
    pub tag: u8,
}

impl ReadTlp {
    /// Dwords the TLP reads: those holding bytes addr .. addr + len.
    pub fn dwords(&self) -> u32 {
        ((self.addr & 3) as u32 + self.len).div_ceil(4)
    }

    /// First and last dword byte enables (last 0 for a one-dword read).
    pub fn byte_enables(&self) -> (u8, u8) {
        byte_enables(self.addr, self.len)
    }

    /// The RQ beat's tdata (low 4 dwords; the rest 0), 16 words of 32 bits.
    pub fn rq_data(&self) -> [u32; 16] {
        let mut w = [0u32; 16];
        RQ.addr.set(&mut w, self.addr >> 2);
        RQ.dwords.set(&mut w, self.dwords() as u64);
        RQ.tag.set(&mut w, self.tag as u64);
        w
    }

    /// The RQ beat's tuser, 137 bits as 5 words: byte enables, start and end of one TLP in
    /// this beat (lane 0 to lane 3); parity, sequence number and TPH 0.
    pub fn rq_user(&self) -> [u32; 5] {
        let mut w = [0u32; 5];
        let (first, last) = self.byte_enables();
        RQU.first_be.set(&mut w, first as u64);
        RQU.last_be.set(&mut w, last as u64);
        RQU.is_sop.set(&mut w, 1);
        RQU.is_eop.set(&mut w, 1);
        RQU.is_eop0_ptr.set(&mut w, 3);
        w
    }
}

/// A request's first and last dword byte enables for `len` (>= 1) bytes at `addr` (PCIe: the
/// last is 0 when the request is one dword).
pub fn byte_enables(addr: u64, len: u32) -> (u8, u8) {
    let first = 0xfu8 << (addr & 3) & 0xf;
    let end = (addr + len as u64) & 3;
    let last = if end == 0 { 0xf } else { 0xfu8 >> (4 - end) };
    if ((addr & 3) as u32 + len).div_ceil(4) == 1 {
        (first & last, 0)
    } else {
        (first, last)
    }
}

/// The requester side: tags handed out in ring order, as the RTL does.
#[derive(Default)]
pub struct PcieRd {
    next_tag: u8,
}

impl PcieRd {
    /// The read TLPs of a request of `len` bytes (1..16383) at `addr`: split at multiples of
    /// the TLP size, so each lies inside one 512-byte block (its tag's slot).
    pub fn request(&mut self, addr: u64, len: u32, max_read_req: u8) -> Vec<ReadTlp> {
        let c = 1u64 << chunk_log(max_read_req);
        let (mut a, end) = (addr, addr + len as u64);
        let mut v = vec![];
        while a < end {
            let l = (c - (a & (c - 1))).min(end - a);
            v.push(ReadTlp { addr: a, len: l as u32, tag: self.next_tag });
            self.next_tag = (self.next_tag + 1) % TAGS as u8;
            a += l;
        }
        v
    }
}

/// A completion: the bytes `addr .. addr + len` of a read (`remaining` of it left, these
/// included), or an error status with no data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub tag: u8,
    pub addr: u64,
    pub remaining: u32,
    /// The payload, from `addr` on (empty for an error).
    pub data: Vec<u8>,
    /// Completion status (0 successful, 1 UR, 4 CA).
    pub status: u8,
    pub poisoned: bool,
    /// The hard block's error code (9: completion timeout, no data).
    pub error_code: u8,
}

/// A completion's beats on RC as (tdata words, tkeep, tlast, tuser words), DWORD-aligned:
/// the descriptor in lanes 0-2, the payload from lane 3, its first byte at addr mod 4 in its
/// dword.
pub fn rc_beats(c: &Completion) -> Vec<([u32; 16], u16, bool, [u32; 6])> {
    let off = (c.addr & 3) as usize;
    let dwords = if c.data.is_empty() { 0 } else { (off + c.data.len()).div_ceil(4) };
    let mut d = vec![0u32; 3 + dwords];
    RC.lower_addr.set(&mut d, c.addr & 0xfff);
    RC.error_code.set(&mut d, c.error_code as u64);
    RC.byte_count.set(&mut d, c.remaining as u64);
    RC.request_completed.set(&mut d, (c.status != 0 || c.data.len() as u32 >= c.remaining) as u64);
    RC.dwords.set(&mut d, dwords as u64);
    RC.status.set(&mut d, c.status as u64);
    RC.poisoned.set(&mut d, c.poisoned as u64);
    RC.tag.set(&mut d, c.tag as u64);
    for (i, b) in c.data.iter().enumerate() {
        let k = 12 + off + i;
        d[k / 4] |= (*b as u32) << (8 * (k % 4));
    }
    let n = d.len().div_ceil(16);
    (0..n)
        .map(|i| {
            let lanes = (d.len() - 16 * i).min(16);
            let mut data = [0u32; 16];
            data[..lanes].copy_from_slice(&d[16 * i..16 * i + lanes]);
            let mut user = [0u32; 6];
            if i == 0 {
                RCU.is_sop.set(&mut user, 1);
            }
            if i + 1 == n {
                RCU.is_eop.set(&mut user, 1);
                RCU.is_eop_ptr.set(&mut user, lanes as u64 - 1);
            }
            (data, ((1u32 << lanes) - 1) as u16, i + 1 == n, user)
        })
        .collect()
}

/// Splits a read TLP's bytes into completions at multiples of `rcb` (64 or 128), the sizes
/// chosen by `cut` (called with the room left, returns how many RCB blocks the next
/// completion takes, at least 1).
pub fn completions(t: &ReadTlp, data: &[u8], rcb: u64, mut cut: impl FnMut(u64) -> u64) -> Vec<Completion> {
    let end = t.addr + t.len as u64;
    let mut a = t.addr;
    let mut v = vec![];
    while a < end {
        let next_rcb = (a / rcb + 1) * rcb;
        let blocks = cut((end - next_rcb.min(end)).div_ceil(rcb) + 1).max(1);
        let e = (next_rcb + (blocks - 1) * rcb).min(end);
        v.push(Completion {
            tag: t.tag,
            addr: a,
            remaining: (end - a) as u32,
            data: data[(a - t.addr) as usize..(e - t.addr) as usize].to_vec(),
            status: 0,
            poisoned: false,
            error_code: 0,
        });
        a = e;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_split_at_the_tlp_size_and_tags_go_round() {
        let mut m = PcieRd::default();
        let v = m.request(0x1000_0000_0000_0f3e, 1100, 5);
        let parts: Vec<(u64, u32)> = v.iter().map(|t| (t.addr & 0xfff, t.len)).collect();
        assert_eq!(parts, [(0xf3e, 194), (0x000, 512), (0x200, 394)]);
        assert_eq!(v.iter().map(|t| t.tag).collect::<Vec<_>>(), [0, 1, 2]);
        let v = m.request(0x80, 300, 0);
        assert_eq!(v.iter().map(|t| (t.addr, t.len, t.tag)).collect::<Vec<_>>(), [(0x80, 128, 3), (0x100, 128, 4), (0x180, 44, 5)]);
        for _ in 0..26 {
            m.request(0, 1, 2);
        }
        assert_eq!(m.request(0, 1, 2)[0].tag, 0);
    }

    #[test]
    fn byte_enables_follow_the_pcie_rules() {
        let t = |addr, len| ReadTlp { addr, len, tag: 0 };
        assert_eq!(t(0, 1).byte_enables(), (0x1, 0));
        assert_eq!(t(1, 2).byte_enables(), (0x6, 0));
        assert_eq!(t(3, 2).byte_enables(), (0x8, 0x1));
        assert_eq!(t(4, 8).byte_enables(), (0xf, 0xf));
        assert_eq!(t(2, 7).byte_enables(), (0xc, 0x1));
        assert_eq!(t(2, 7).dwords(), 3);
        let d = t(0x1234_5678_9abc_def1, 512).rq_data();
        assert_eq!(RQ.addr.get(&d) << 2, 0x1234_5678_9abc_def0);
        assert_eq!(RQ.dwords.get(&d), 129);
    }

    #[test]
    fn completions_cover_the_read_at_rcb_boundaries() {
        let t = ReadTlp { addr: 0x1f3e, len: 300, tag: 7 };
        let data: Vec<u8> = (0..300).map(|i| i as u8).collect();
        let v = completions(&t, &data, 64, |_| 1);
        let spans: Vec<(u64, usize, u32)> = v.iter().map(|c| (c.addr, c.data.len(), c.remaining)).collect();
        assert_eq!(spans, [(0x1f3e, 2, 300), (0x1f40, 64, 298), (0x1f80, 64, 234), (0x1fc0, 64, 170), (0x2000, 64, 106), (0x2040, 42, 42)]);
        let all: Vec<u8> = v.iter().flat_map(|c| c.data.clone()).collect();
        assert_eq!(all, data);
        assert_eq!(completions(&t, &data, 128, |n| n).len(), 1);
        let beats = rc_beats(&v[1]);
        assert_eq!(beats.len(), 2);
        assert_eq!(RC.byte_count.get(&beats[0].0), 298);
        assert_eq!(RC.dwords.get(&beats[0].0), 16);
        assert_eq!(beats[0].0[3], 0x05040302);
        assert_eq!((beats[1].1, beats[1].2), (0x7, true));
    }
}
