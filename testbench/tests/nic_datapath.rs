//! Two nic_datapath RTL instances back to back (harness::nic_datapath): an RDMA WRITE with
//! data packets and an ACK lost on the link, a READ of the same bytes back with a response
//! lost, and an HPCC++ probe, all through the joined Tx and Rx pipes with host memories on
//! their DMA ports and random backpressure everywhere; each NIC's cycle model beside it.

use rand::SeedableRng;
use sim::packet::*;
use sim::rx_ctx::{Ctrl as RxCtrl, OP_CREATE, OP_READ};
use sim::tx_ctx::{Ctrl, FlowConfig, Post};
use std::collections::HashSet;
use testbench::harness::nic_datapath::{event_kind, event_seq, Pair};
use testbench::harness::tx_pipe::header_to;

const MTU: u16 = 1024;
const LEN: u32 = 20_000;
/// Packets per message: 19 x 1024 + 544.
const PKTS: u32 = 20;

fn acked_to(events: &[Vec<u8>], seq: u32) -> bool {
    events.iter().any(|e| event_kind(e) == 0 && event_seq(e) == seq)
}

#[test]
fn write_read_and_probe_between_two_nics() {
    let seed = rand::random::<u32>() as u64;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (a_hdr, b_hdr) = (header_to(&mut rng, 0x22), header_to(&mut rng, 0x11));
    let psn_a: u32 = 0xFF_FFF8;
    let data: Vec<u8> = (0..LEN).map(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).to_be_bytes()[0]).collect();
    let (a_src, b_dst, a_back) = (0x1000_0000u64, 0x2000_0000u64, 0x3000_0000u64);

    let mut p = Pair::new(seed, 40, 0.2);
    let cfg = |header, telemetry, probe| FlowConfig { header, mtu: MTU, telemetry, probe, fast_start: 0, cnp: false };
    p.a.tx_ctrl(Ctrl::Create { flow: 0x11, cfg: cfg(a_hdr, true, true) });
    p.b.tx_ctrl(Ctrl::Create { flow: 0x22, cfg: cfg(b_hdr, false, false) });
    let rx_create = |qpn, epsn, spsn| RxCtrl { op: OP_CREATE, qpn, epsn, spsn, mtu: MTU, addr: 0 };
    p.a.rx_ctrl(rx_create(0x11, 7, psn_a));
    p.b.rx_ctrl(rx_create(0x22, psn_a, 7));
    p.a.fill(a_src, &data);

    // Lost on the link, once each: WRITE packets 3 and 10, the ACK of packet 6, READ response 5.
    let psn = |k: u32| (psn_a + k) & 0xFF_FFFF;
    let mut lose: HashSet<(bool, u8, u32)> = HashSet::from([
        (true, Opcode::RdmaWriteMiddle as u8, psn(3)),
        (true, Opcode::RdmaWriteMiddle as u8, psn(10)),
        (false, Opcode::Acknowledge as u8, psn(6)),
        (false, Opcode::RdmaReadResponseOnly as u8, psn(PKTS + 5)),
    ]);
    p.drop = Box::new(move |ab, f, _| lose.remove(&(ab, f.opcode() as u8, f.bth.psn)));

    // WRITE A -> B.
    let post = Post { local_addr: a_src, remote_addr: b_dst, rkey: 1, len: LEN, first_psn: psn_a };
    p.a.tx_ctrl(Ctrl::Post { flow: 0x11, post });
    p.a.sending = vec![0x11];
    let end = psn_a + PKTS;
    assert!(p.run_until(200_000, |p| acked_to(&p.a.events, end)), "WRITE not acknowledged by cycle {}", p.cycle);
    p.a.sending.clear();
    // The last payload may still be on its way through rx_dma after the ACK came back.
    p.run_until(2_000, |_| false);
    let written: Vec<u8> = p.b.read(b_dst, LEN as usize).into_iter().map(|b| b.expect("byte not written")).collect();
    assert!(written == data, "B's memory differs from A's message");
    let write_cycles = p.cycle;

    // READ it back B -> A into another buffer.
    let post = Post { local_addr: a_back, remote_addr: b_dst, rkey: 1, len: LEN, first_psn: psn(PKTS) };
    p.a.tx_ctrl(Ctrl::Read { flow: 0x11, post });
    p.a.rx_ctrl(RxCtrl { op: OP_READ, qpn: 0x11, epsn: 0, spsn: 0, mtu: MTU, addr: a_back });
    p.a.sending = vec![0x11];
    let end = psn_a + 2 * PKTS;
    assert!(p.run_until(200_000, |p| acked_to(&p.a.events, end)), "READ not complete by cycle {}", p.cycle);
    p.a.sending.clear();
    // rx_dma writes a response's payload after rx_ctx's CC event for it.
    p.run_until(2_000, |_| false);
    let read: Vec<u8> = p.a.read(a_back, LEN as usize).into_iter().map(|b| b.expect("byte not read")).collect();
    assert!(read == data, "A's READ buffer differs from B's memory");

    // A probe: the switch's hop comes back to A's CC event stream, nothing acknowledged.
    let before = p.a.events.len();
    p.a.probe(0x11);
    assert!(p.run_until(10_000, |p| p.a.events.len() > before && p.a.idle()), "no probe answer");
    p.run_until(200, |_| false);
    let e = p.a.events.last().unwrap();
    let probe_hop = *p.hops[0].last().unwrap();
    assert_eq!((event_kind(e), e[3], u16::from_le_bytes([e[60], e[61]])), (0, 1, 0));
    assert_eq!(u64::from_le_bytes(e[20..28].try_into().unwrap()), probe_hop.word());
    let probes = p.a.host.sent.iter().filter(|f| RocePacket::parse(f).unwrap().opcode() == Opcode::HpccProbe).count();
    assert_eq!(probes, 1);

    // What happened on the way.
    let ops = |frames: &[Vec<u8>]| frames.iter().map(|f| RocePacket::parse(f).unwrap()).collect::<Vec<_>>();
    let (a_sent, b_sent) = (ops(&p.a.host.sent), ops(&p.b.host.sent));
    let naks = b_sent.iter().filter(|f| f.body.aeth().is_some_and(|a| a.syndrome.bits() == 0x60)).count();
    let resent = a_sent.len() - a_sent.iter().map(|f| (f.opcode() as u8, f.bth.psn)).collect::<HashSet<_>>().len();
    let acks_with_hops = p.a.events.iter().filter(|e| event_kind(e) == 0 && e[3] == 1).count();
    println!(
        "WRITE done at cycle {write_cycles}, READ + probe at {}; A sent {} frames ({resent} again), B {} ({naks} NAK 0x60); \
         dropped {:?} of {:?}; A's CC events {} ({acks_with_hops} with the switch's hop), Notifies {}",
        p.cycle, a_sent.len(), b_sent.len(), p.dropped, p.carried, p.a.events.len(), p.a.notifies.len()
    );
    assert_eq!(p.dropped, [2, 2]);
    assert!(naks >= 1 && resent >= 2);
    assert!(acks_with_hops >= PKTS as usize - 2, "ACKs should echo the switch's hop of A's telemetry");
    for n in [&p.a, &p.b] {
        assert_eq!(n.lockstep.differs, None, "nic_datapath's cycle model");
        assert!(n.lockstep.cycles >= p.cycle);
        assert_eq!((n.host.bad_frames, n.host.wr_len_errors), (0, 0));
        assert_eq!((n.dut.stat_tx_len_err(), n.dut.stat_rx_short()), (0, 0));
    }
    // Every packet the window gave out came back in Notifies (cfg_pkt_shift 0: bytes = packets).
    let notified: u32 = p.a.notifies.iter().map(|&(_, b)| b).sum();
    let data_sent = a_sent.iter().filter(|f| matches!(f.opcode() as u8, 0x06..=0x08 | 0x0A | 0x0C)).count() as u32;
    assert_eq!(notified, data_sent, "Notify must return every packet sent, once");
}
