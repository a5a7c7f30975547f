//! The frame-level model of `hdl/src/mac/mac_shim.rs`, the MAC shim: what it does to a frame
//! on its way to the CMAC (padding); the clock crossings' rules (frames whole, in order,
//! drops counted) are `crate::cdc_frame_fifo`'s.

use crate::cdc_frame_fifo::Frame;

/// The Ethernet minimum frame without its FCS, in bytes.
pub const MIN_FRAME: usize = 60;

/// A frame as the CMAC gets it: one of a single beat whose lane 59 is not kept (fewer than 60
/// bytes, tkeep contiguous from lane 0) keeps its kept bytes, has every other byte zeroed and
/// lanes 0..59 kept; any other frame is unchanged.
pub fn pad(f: &Frame) -> Frame {
    let mut f = f.clone();
    if let [b] = f.beats.as_mut_slice() {
        if b.keep & (1 << (MIN_FRAME - 1)) == 0 {
            for (i, byte) in b.data.iter_mut().enumerate() {
                if b.keep & (1 << i) == 0 {
                    *byte = 0;
                }
            }
            b.keep |= (1 << MIN_FRAME) - 1;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdc_frame_fifo::Beat;

    fn frame(len: usize) -> Frame {
        let n = len.div_ceil(64);
        let beats = (0..n)
            .map(|i| {
                let bytes = if i + 1 == n { len - 64 * i } else { 64 };
                Beat { data: [0xa5; 64], keep: if bytes == 64 { !0 } else { (1 << bytes) - 1 }, last: i + 1 == n }
            })
            .collect();
        Frame { beats, bad: false }
    }

    #[test]
    fn short_frames_are_padded_with_zeros_to_60() {
        for len in 1..MIN_FRAME {
            let p = pad(&frame(len));
            assert_eq!(p.beats[0].keep, (1 << 60) - 1, "{len}");
            assert!(p.beats[0].data[..len].iter().all(|&b| b == 0xa5), "{len}");
            assert!(p.beats[0].data[len..].iter().all(|&b| b == 0), "{len}");
        }
        for len in [60, 61, 64, 65, 130, 4096] {
            assert_eq!(pad(&frame(len)), frame(len), "{len}");
        }
    }
}
