//! Golden model of the Rx pipe's frame store (hdl/src/rx/rx_dma.rs, docs/modules/rx_dma.md):
//! frames (as the beats that arrived) and their commands, in order -> the DMA writes and the
//! counters. Naive on purpose: the frame's bytes are its beats' tdata, cut to its length.

pub mod cycle;

/// Bytes kept per frame (9 KB jumbo frame): 144 beats; a frame of more beats is truncated.
pub const MAX_FRAME: usize = 9216;
/// Beats kept per frame.
pub const MAX_BEATS: usize = MAX_FRAME / 64;

/// The frame stream is rx_pipe's (the MAC stream reaches both); rx_dma has no tuser, so a
/// beat's `user` is ignored here.
pub use crate::rx_pipe::{beats, Beat};

use crate::layout::{le_bytes, DMA_CMD, DMA_WR};

/// Command for one frame (`s_axis_cmd_tdata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cmd {
    /// Host address.
    pub addr: u64,
    /// Payload offset in the frame, 0..127.
    pub offset: u8,
    /// Payload length, 0..16383.
    pub len: u16,
    /// Write the payload (false: discard the frame).
    pub write: bool,
    /// Flow id, passed through.
    pub flow: u16,
}

impl Cmd {
    /// `s_axis_cmd_tdata` (`layout::DMA_CMD`), byte i at [8i+7:8i].
    pub fn to_bytes(&self) -> [u8; 16] {
        let l = &DMA_CMD;
        let mut w = [0u32; 4];
        l.addr.set(&mut w, self.addr);
        l.offset.set(&mut w, self.offset as u64);
        l.len.set(&mut w, self.len as u64);
        l.write.set(&mut w, self.write as u64);
        l.flow.set(&mut w, self.flow as u64);
        le_bytes(&w)
    }
}

/// One DMA write: the command (`m_axis_dma_wr_cmd_tdata`) and the payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DmaWrite {
    pub addr: u64,
    pub flow: u16,
    pub payload: Vec<u8>,
}

impl DmaWrite {
    /// `m_axis_dma_wr_cmd_tdata`: `layout::DMA_WR` in its low 96 bits, the rest 0.
    pub fn cmd_bytes(&self) -> [u8; 16] {
        wr_cmd_bytes(self.addr, self.payload.len() as u16, self.flow)
    }

    /// The address and length of a `m_axis_dma_wr_cmd_tdata` (16 bytes, little-endian).
    pub fn addr_len_of(cmd: &[u8]) -> (u64, usize) {
        let w: Vec<u32> = cmd.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        (DMA_WR.addr.get(&w), DMA_WR.len.get(&w) as usize)
    }
}

/// The counters (`stat_*`).
/// A DMA write command's word (`m_axis_dma_wr_cmd_tdata`, `layout::DMA_WR`) as bytes.
pub fn wr_cmd_bytes(addr: u64, len: u16, flow: u16) -> [u8; 16] {
    let l = &DMA_WR;
    let mut w = [0u32; 4];
    l.addr.set(&mut w, addr);
    l.len.set(&mut w, len as u64);
    l.flow.set(&mut w, flow as u64);
    le_bytes(&w)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub written: u32,
    pub discarded: u32,
    pub short: u32,
}

/// A frame as the store keeps it: its first 9216 bytes and whether there were more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub bytes: Vec<u8>,
    pub truncated: bool,
}

/// The frame's length is 64 x (beats - 1) + the highest kept lane of its last beat + 1 (0 if
/// that beat keeps nothing); tkeep holes elsewhere are ignored (the bytes are tdata's). A
/// frame of more than 144 beats is truncated (even if its last beat keeps nothing).
pub fn store(beats: &[Beat]) -> Stored {
    let mut bytes: Vec<u8> = beats.iter().flat_map(|b| b.data).collect();
    let last = beats.last().expect("a frame has a beat");
    let top = if last.keep == 0 { 0 } else { 64 - last.keep.leading_zeros() as usize };
    let len = 64 * (beats.len() - 1) + top;
    bytes.truncate(len);
    let truncated = beats.len() > MAX_BEATS;
    bytes.truncate(MAX_FRAME);
    Stored { bytes, truncated }
}

/// The store and its counters.
#[derive(Clone, Debug, Default)]
pub struct RxDma {
    pub counters: Counters,
}

impl RxDma {
    /// One frame and its command: the DMA write it gives, if any (a write of length 0 is
    /// counted as written and gives none).
    pub fn frame(&mut self, beats: &[Beat], cmd: &Cmd) -> Option<DmaWrite> {
        let s = store(beats);
        if !cmd.write {
            self.counters.discarded = self.counters.discarded.wrapping_add(1);
            return None;
        }
        let start = cmd.offset as usize;
        let end = start + cmd.len as usize;
        if s.truncated || end > s.bytes.len() {
            self.counters.short = self.counters.short.wrapping_add(1);
            return None;
        }
        self.counters.written = self.counters.written.wrapping_add(1);
        if cmd.len == 0 {
            return None;
        }
        Some(DmaWrite { addr: cmd.addr, flow: cmd.flow, payload: s.bytes[start..end].to_vec() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 + 3) as u8).collect()
    }

    #[test]
    fn write_discard_short() {
        let mut m = RxDma::default();
        let f = frame(200);
        let w = m.frame(&beats(&f), &Cmd { addr: 9, offset: 70, len: 100, write: true, flow: 5 }).unwrap();
        assert_eq!(w.payload, f[70..170].to_vec());
        assert_eq!(w.cmd_bytes()[8..12], [100, 0, 5, 0]);
        assert!(m.frame(&beats(&f), &Cmd { offset: 100, len: 101, write: true, ..Cmd::default() }).is_none());
        assert!(m.frame(&beats(&f), &Cmd { offset: 100, len: 100, write: false, ..Cmd::default() }).is_none());
        assert_eq!(m.counters, Counters { written: 1, discarded: 1, short: 1 });
    }

    #[test]
    fn lengths() {
        assert_eq!(store(&beats(&frame(64))).bytes.len(), 64);
        assert_eq!(store(&beats(&frame(65))).bytes.len(), 65);
        let mut b = beats(&frame(100));
        b[1].keep = 0b1000_0001; // a hole: the highest kept lane counts
        assert_eq!(store(&b).bytes.len(), 72);
        b[1].keep = 0;
        assert_eq!(store(&b).bytes.len(), 64);
        let long = store(&beats(&frame(9217)));
        assert!(long.truncated && long.bytes.len() == MAX_FRAME);
        assert!(!store(&beats(&frame(9216))).truncated);
    }

    #[test]
    fn cmd_layout() {
        let c = Cmd { addr: 0x1122, offset: 0x55, len: 0x1234, write: true, flow: 0xBEEF };
        let w = u128::from_le_bytes(c.to_bytes());
        assert_eq!((w >> 64) & 0x7F, 0x55);
        assert_eq!((w >> 80) & 0x3FFF, 0x1234);
        assert_eq!((w >> 96) & 1, 1);
        assert_eq!(w >> 112, 0xBEEF);
    }
}
