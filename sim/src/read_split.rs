//! read_split: one READ to answer becomes its response packets. rx_ctx answers an in-order or
//! duplicate READ request with one PktRecv of kind 4 carrying the whole READ (`ReadResp`'s
//! first form: PSN, host address, length `total`, packet size 2^`mtu_log`); tx_ctx sends one
//! frame per PktRecv. This block sits between them (in nic_datapath) and turns the first form
//! into one PktRecv per response packet, READ Response Only when `total` fits one packet, else
//! First, Middle..., Last, each with its PSN (24-bit, wrapping), host address and length.
//! Every other word passes unchanged. The RTL is `hdl/src/tx/read_split.rs`
//! (docs/modules/read_split.md); this model is the word-by-word reference it is compared with.

pub mod cycle;

use crate::tx_ctx::{kind_of, ReadPacket, ReadPos, ReadResp, CTRL_LEN, RECV_READ};

/// One PktRecv word.
pub type Word = [u8; CTRL_LEN];

/// The words that leave for one word that comes in, in order.
pub fn split(w: &Word) -> Vec<Word> {
    if kind_of(w) != RECV_READ {
        return vec![*w];
    }
    let (total, mtu_log) = ReadResp::whole_of(w);
    let (total, mtu) = (total as u64, 1u64 << mtu_log);
    let first = ReadPacket::of(w);
    let n = total.div_ceil(mtu).max(1);
    (0..n)
        .map(|k| {
            let pos = match k {
                _ if n == 1 => ReadPos::Only,
                0 => ReadPos::First,
                _ if k == n - 1 => ReadPos::Last,
                _ => ReadPos::Middle,
            };
            let len = mtu.min(total - k * mtu) as u16;
            let mut o = *w;
            ReadPacket { pos, psn: first.psn.wrapping_add(k as u32), va: first.va.wrapping_add(k * mtu), len }.put(&mut o);
            o
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Aeth, Syndrome};
    use crate::tx_ctx::{ReadResp, Recv};

    fn whole(psn: u32, total: u32, mtu_log: u8) -> Word {
        let aeth = Aeth { syndrome: Syndrome::Ack { credits: 31 }, msn: 5 };
        let r = ReadResp { flow: 3, psn, aeth, va: 0x1_0000, len: 0, pos: ReadPos::Only, total, mtu_log };
        Recv::ReadResp(r).to_bytes()
    }

    fn fields(w: &Word) -> (u8, u32, u64, u16) {
        let p = ReadPacket::of(w);
        (p.pos as u8, p.psn, p.va, p.len)
    }

    #[test]
    fn a_long_read_becomes_first_middle_last_across_the_psn_wrap() {
        let out: Vec<_> = split(&whole(0xFF_FFFE, 2500, 10)).iter().map(fields).collect();
        assert_eq!(out, [(1, 0xFF_FFFE, 0x1_0000, 1024), (2, 0xFF_FFFF, 0x1_0400, 1024), (3, 0, 0x1_0800, 452)]);
        let two: Vec<_> = split(&whole(7, 2048, 10)).iter().map(fields).collect();
        assert_eq!(two, [(1, 7, 0x1_0000, 1024), (3, 8, 0x1_0400, 1024)]);
    }

    #[test]
    fn one_packet_or_less_is_an_only_and_other_kinds_pass() {
        for total in [0, 1, 1024] {
            assert_eq!(split(&whole(9, total, 10)).iter().map(fields).collect::<Vec<_>>(), [(0, 9, 0x1_0000, total as u16)]);
        }
        // MTU not a power of two (mtu_log 15): rx_ctx sends only what fits one packet.
        assert_eq!(split(&whole(9, 1000, 15)).len(), 1);
        let probe = Recv::Probe(4).to_bytes();
        assert_eq!(split(&probe), [probe]);
    }
}
