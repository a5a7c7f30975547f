//! The model of `hdl/src/pcie/pcie_wr.rs`, the PCIe shim's DMA write engine: each DMA write
//! (address, payload) becomes memory write TLPs on the hard block's RQ interface, split at
//! multiples of the max payload size, DWORD-aligned, straddling off. [`tlps`] gives the TLPs of
//! a write, [`WriteTlp::beats`] the RQ beats of one, with the bytes that are defined.

use crate::layout::{PCIE_RQ_DESC as RQ, PCIE_RQ_USER as RQU};
use crate::pcie_rd::byte_enables;

/// Bytes per TLP for the hard block's `cfg_max_payload` (0: 128 .. 3: 1024).
pub fn max_payload(cfg: u8) -> u64 {
    128 << cfg.min(3)
}

/// One memory write TLP: `data` goes to `addr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteTlp {
    pub addr: u64,
    pub data: Vec<u8>,
}

/// One RQ beat, and which of its bytes are defined (`care`, one bit per byte): the
/// descriptor's, and the payload bytes the byte enables write. The others are whatever the
/// engine's shifter leaves there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RqBeat {
    pub data: [u8; 64],
    pub care: u64,
    pub keep: u16,
    pub last: bool,
    pub user: [u32; 5],
}

/// The TLPs of a write of `data` at `addr`: to the next multiple of the max payload size,
/// then that size each, the last to the write's end.
pub fn tlps(addr: u64, data: &[u8], cfg_max_payload: u8) -> Vec<WriteTlp> {
    let p = max_payload(cfg_max_payload);
    let (mut a, end) = (addr, addr + data.len() as u64);
    let mut v = vec![];
    while a < end {
        let e = ((a / p + 1) * p).min(end);
        v.push(WriteTlp { addr: a, data: data[(a - addr) as usize..(e - addr) as usize].to_vec() });
        a = e;
    }
    v
}

impl WriteTlp {
    /// Payload dwords.
    pub fn dwords(&self) -> u32 {
        ((self.addr & 3) as u32 + self.data.len() as u32).div_ceil(4)
    }

    /// The TLP on RQ: dwords 0-3 the descriptor, the payload from dword 4 with its first byte
    /// at byte addr mod 4 of that dword.
    pub fn beats(&self) -> Vec<RqBeat> {
        let mut desc = [0u32; 4];
        RQ.addr.set(&mut desc, self.addr >> 2);
        RQ.dwords.set(&mut desc, self.dwords() as u64);
        RQ.req_type.set(&mut desc, 1);
        let total = 4 + self.dwords() as usize;
        let mut bytes = vec![0u8; 4 * total];
        let mut care = vec![false; 4 * total];
        for i in 0..16 {
            bytes[i] = (desc[i / 4] >> (8 * (i % 4))) as u8;
            care[i] = true;
        }
        let off = 16 + (self.addr & 3) as usize;
        for (i, b) in self.data.iter().enumerate() {
            bytes[off + i] = *b;
            care[off + i] = true;
        }
        let (first_be, last_be) = byte_enables(self.addr, self.data.len() as u32);
        let n = total.div_ceil(16);
        (0..n)
            .map(|k| {
                let lanes = (total - 16 * k).min(16);
                let mut data = [0u8; 64];
                let mut c = 0u64;
                for i in 0..4 * lanes {
                    data[i] = bytes[64 * k + i];
                    c |= (care[64 * k + i] as u64) << i;
                }
                let mut user = [0u32; 5];
                if k == 0 {
                    RQU.first_be.set(&mut user, first_be as u64);
                    RQU.last_be.set(&mut user, last_be as u64);
                    RQU.is_sop.set(&mut user, 1);
                }
                if k + 1 == n {
                    RQU.is_eop.set(&mut user, 1);
                    RQU.is_eop0_ptr.set(&mut user, lanes as u64 - 1);
                }
                RqBeat { data, care: c, keep: ((1u32 << lanes) - 1) as u16, last: k + 1 == n, user }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_split_at_the_max_payload_size() {
        let data: Vec<u8> = (0..1000).map(|i| i as u8).collect();
        let v = tlps(0x1f3e, &data, 1);
        let parts: Vec<(u64, usize)> = v.iter().map(|t| (t.addr, t.data.len())).collect();
        assert_eq!(parts, [(0x1f3e, 194), (0x2000, 256), (0x2100, 256), (0x2200, 256), (0x2300, 38)]);
        assert_eq!(tlps(0, &data, 7).len(), 1);
    }

    #[test]
    fn beats_put_the_payload_after_the_descriptor() {
        let t = WriteTlp { addr: 0x1002, data: (1..=60).collect() };
        let b = t.beats();
        // 4 + ceil((2 + 60) / 4) = 20 dwords: two beats, 4 dwords in the second.
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].keep, b[1].keep, b[1].last), (0xffff, 0xf, true));
        assert_eq!(&b[0].data[16..20], &[0, 0, 1, 2]);
        assert_eq!(b[0].care >> 16 & 0xf, 0b1100);
        assert_eq!(b[1].data[13], 60);
        assert_eq!(b[1].care, 0x3fff);
        let desc: Vec<u32> = b[0].data[..16].chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!((RQ.req_type.get(&desc), RQ.addr.get(&desc) << 2, RQ.dwords.get(&desc)), (1, 0x1000, 16));
        assert_eq!(RQU.first_be.get(&b[0].user), 0xc);
        assert_eq!(RQU.is_eop0_ptr.get(&b[1].user), 3);
    }
}
