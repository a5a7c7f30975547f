//! The model of `hdl/src/pcie/pcie_axil.rs`, the PCIe shim's completer: what a request on CQ
//! becomes (an AXI4-Lite write or read of the core's registers, or nothing) and the completion
//! it gets on CC. [`Request::cq_beats`] puts a request on CQ as the hard block does
//! (DWORD-aligned, straddling off), for the test benches.

use crate::layout::{PCIE_CC_DESC as CC, PCIE_CQ_DESC as CQ, PCIE_CQ_USER as CQU};

/// Request types the completer serves (PCIe's, as the hard block codes them).
pub const MEM_READ: u8 = 0;
pub const MEM_WRITE: u8 = 1;

/// A request from the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub req_type: u8,
    pub addr: u64,
    pub dwords: u32,
    pub first_be: u8,
    pub last_be: u8,
    pub bar: u8,
    pub tag: u8,
    pub requester_id: u16,
    pub tc: u8,
    pub attr: u8,
    /// A write's payload dwords.
    pub data: Vec<u32>,
}

/// What the completer does with it on the register port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Write `data` to byte address `addr` with strobes `strb`.
    Write { addr: u16, data: u32, strb: u8 },
    /// Read byte address `addr`.
    Read { addr: u16 },
    /// Nothing (not served).
    None,
}

impl Request {
    /// Posted: memory writes and messages (request types 12-14).
    pub fn posted(&self) -> bool {
        self.req_type == MEM_WRITE || self.req_type >= 12
    }

    /// Served: a one-dword memory read or write to BAR0.
    pub fn served(&self) -> bool {
        self.dwords == 1 && self.bar == 0 && (self.req_type == MEM_READ || self.req_type == MEM_WRITE)
    }

    /// The register access it becomes.
    pub fn access(&self) -> Access {
        let addr = (self.addr & 0xffc) as u16;
        match (self.served(), self.req_type) {
            (true, MEM_WRITE) => Access::Write { addr, data: self.data[0], strb: self.first_be },
            (true, _) => Access::Read { addr },
            _ => Access::None,
        }
    }

    /// Its completion's CC words (descriptor in 0-2, data in 3), for a read that returned
    /// `data` with AXI4-Lite response `resp`; None for a request that gets none.
    pub fn completion(&self, data: u32, resp: u8) -> Option<[u32; 4]> {
        if self.posted() {
            return None;
        }
        let mut w = [0u32; 4];
        let be = self.first_be;
        let lo = if be == 0 { 0 } else { be.trailing_zeros() };
        let hi = if be == 0 { 0 } else { 7 - be.leading_zeros() };
        CC.lower_addr.set(&mut w, (self.addr & 0x7c) | lo as u64);
        CC.byte_count.set(&mut w, if self.served() { (hi - lo + 1) as u64 } else { 4 * self.dwords as u64 });
        CC.requester_id.set(&mut w, self.requester_id as u64);
        CC.tag.set(&mut w, self.tag as u64);
        CC.tc.set(&mut w, self.tc as u64);
        CC.attr.set(&mut w, self.attr as u64);
        if !self.served() {
            CC.status.set(&mut w, 1);
        } else if resp != 0 {
            CC.status.set(&mut w, 4);
        } else {
            CC.dwords.set(&mut w, 1);
            w[3] = data;
        }
        Some(w)
    }

    /// Its CQ beats: (tdata words, tkeep, tlast, tuser words).
    pub fn cq_beats(&self) -> Vec<([u32; 16], u16, bool, [u32; 6])> {
        let mut d = vec![0u32; 4];
        CQ.addr.set(&mut d, self.addr >> 2);
        CQ.dwords.set(&mut d, self.dwords as u64);
        CQ.req_type.set(&mut d, self.req_type as u64);
        CQ.requester_id.set(&mut d, self.requester_id as u64);
        CQ.tag.set(&mut d, self.tag as u64);
        CQ.bar_id.set(&mut d, self.bar as u64);
        CQ.bar_aperture.set(&mut d, 12);
        CQ.tc.set(&mut d, self.tc as u64);
        CQ.attr.set(&mut d, self.attr as u64);
        d.extend(&self.data);
        let n = d.len().div_ceil(16);
        (0..n)
            .map(|k| {
                let lanes = (d.len() - 16 * k).min(16);
                let mut data = [0u32; 16];
                data[..lanes].copy_from_slice(&d[16 * k..16 * k + lanes]);
                let mut user = [0u32; 6];
                if k == 0 {
                    CQU.first_be.set(&mut user, self.first_be as u64);
                    CQU.last_be.set(&mut user, self.last_be as u64);
                    CQU.is_sop.set(&mut user, 1);
                }
                if k + 1 == n {
                    CQU.is_eop.set(&mut user, 1);
                    CQU.is_eop_ptr.set(&mut user, lanes as u64 - 1);
                }
                (data, ((1u32 << lanes) - 1) as u16, k + 1 == n, user)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(req_type: u8, dwords: u32, first_be: u8) -> Request {
        Request {
            req_type,
            addr: 0xf7c0_0000_0000_0a48,
            dwords,
            first_be,
            last_be: 0,
            bar: 0,
            tag: 0x5a,
            requester_id: 0x0100,
            tc: 0,
            attr: 2,
            data: vec![0x1234_5678; if req_type == MEM_WRITE { dwords as usize } else { 0 }],
        }
    }

    #[test]
    fn one_dword_accesses_become_register_accesses() {
        assert_eq!(req(MEM_WRITE, 1, 0xf).access(), Access::Write { addr: 0xa48, data: 0x1234_5678, strb: 0xf });
        assert_eq!(req(MEM_READ, 1, 0xf).access(), Access::Read { addr: 0xa48 });
        assert_eq!(req(MEM_READ, 2, 0xf).access(), Access::None);
        assert_eq!(req(MEM_WRITE, 1, 0xf).completion(0, 0), None);
    }

    #[test]
    fn completions_carry_the_span_of_the_byte_enables() {
        let c = req(MEM_READ, 1, 0x6).completion(0xdead_beef, 0).unwrap();
        assert_eq!((CC.lower_addr.get(&c), CC.byte_count.get(&c), CC.dwords.get(&c), c[3]), (0x49, 2, 1, 0xdead_beef));
        assert_eq!((CC.tag.get(&c), CC.requester_id.get(&c), CC.attr.get(&c)), (0x5a, 0x100, 2));
        let c = req(MEM_READ, 1, 0).completion(0, 0).unwrap();
        assert_eq!(CC.byte_count.get(&c), 1);
        let c = req(MEM_READ, 1, 0xf).completion(7, 2).unwrap();
        assert_eq!((CC.status.get(&c), CC.dwords.get(&c), c[3]), (4, 0, 0));
        let c = req(MEM_READ, 4, 0xf).completion(0, 0).unwrap();
        assert_eq!((CC.status.get(&c), CC.byte_count.get(&c)), (1, 16));
        let c = req(2, 1, 0xf).completion(0, 0).unwrap();
        assert_eq!(CC.status.get(&c), 1);
    }
}
