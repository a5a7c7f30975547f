//! rx_ctx against its golden model (sim::rx_ctx) in Verilator, transaction by transaction:
//! random control words, sent events and verdict records with input gaps and backpressure on
//! all four outputs, bad input and resets, one verdict per clock; directed sequences; a few
//! records in rust-hdl's own simulator.

use rand::SeedableRng;
use testbench::harness::rx_ctx::{run, Shape};
use testbench::harness::Scenario;

#[test]
fn random_records_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::RxCtxRandom.run(seed, 300_000, None);
    println!("{o:?}");
    let at_least = |name: &str, n: f64| o.get(name).unwrap() >= n;
    assert!(
        o.passed()
            && at_least("records", 120_000.0)
            && at_least("dma_writes", 30_000.0)
            && at_least("notifies", 10_000.0)
            && at_least("rewinds", 1_000.0)
            && at_least("responses", 1_000.0)
            && at_least("read_responses", 1_000.0)
            && at_least("stat_read_gap", 100.0)
            && at_least("stat_bad_response", 50.0)
            && at_least("stat_oos_dropped", 500.0)
            && at_least("stat_duplicate", 1_000.0)
            && at_least("stat_bad_request", 1_000.0)
            && at_least("stat_stale_ack", 1_000.0)
            && at_least("stat_nak_other", 1_000.0)
            && at_least("stat_nak_sent", 1_000.0),
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

#[test]
fn bad_input_is_counted_and_ignored() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::RxCtxBadInput.run(seed, 300_000, None);
    println!("{o:?}");
    let at_least = |name: &str, n: f64| o.get(name).unwrap() >= n;
    assert!(
        o.passed()
            && at_least("stat_ctrl_bad", 50.0)
            && at_least("stat_sent_drop", 1_000.0)
            && at_least("stat_unknown_qp", 1_000.0)
            && at_least("resets", 1.0),
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

/// Verdicts offered on every cycle, outputs always ready: every one is taken in its cycle.
#[test]
fn one_verdict_per_clock() {
    let seed = rand::random::<u32>() as u64;
    let o = run(Scenario::RxCtxRandom, seed, 50_000, &Shape::LINE_RATE, None);
    println!("{o:?}");
    assert!(o.passed(), "{o:?}");
    assert_eq!(o.get("records_per_cycle_offered").unwrap(), 1.0, "{o:?}");
}

/// The NIC transaction model (`sim::nic_model`) runs WRITEs from A (QP 0x11) to B (QP 0x22)
/// over a lossy, reordering link. Every frame delivered to either NIC goes through rx_pipe's
/// RTL and then rx_ctx's RTL (checked against sim::rx_ctx inside `feed`), with A's data
/// packets as sent events in the model's cycle order, and into rx_dma's RTL with rx_ctx's DMA
/// commands. Against the NIC model, written
/// independently: rx_ctx asks for exactly the ACKs and NAKs B sent (PSN, syndrome, MSN, in
/// order); rx_dma's writes on its DMA commands are exactly B's memory; every
/// go-back-N it asks of tx_ctx is at the PSN of a sequence NAK A received; and its PktRecvs,
/// through tx_ctx and tx_pipe's RTL, are B's ACK / NAK frames byte for byte.
#[test]
fn nic_model_traffic_through_rx_pipe_and_rx_ctx() {
    use sim::nic_model::*;
    use sim::packet::*;
    use sim::rx_ctx::{Ctrl, Sent, OP_CREATE};
    use std::collections::BTreeMap;
    use testbench::harness::rx_ctx::{feed, Input};
    const MTU: u32 = 1024;
    let (mut acks_checked, mut bytes_checked, mut rewinds) = (0, 0, 0);
    for seed in 1..=8u64 {
        let wire = |seed| WireConfig { delay: 30, loss_ppm: 40_000, reorder_ppm: 10_000, reorder_extra: 40, corrupt_ppm: 0, seed };
        let mut l = Link::new(Nic::new(NicConfig::numbered(1)), Nic::new(NicConfig::numbered(2)), wire(seed), wire(seed + 100));
        let psn_a = if seed % 2 == 1 { (1 << 24) - 20 } else { 1000 };
        let c = Connection { qpn_a: 0x11, qpn_b: 0x22, flow_a: 1, flow_b: 2, mtu: MTU, psn_a, psn_b: 7, window: 16 * MTU, rate: 256 << 16 };
        l.connect(&c).unwrap();
        let mut rng = XorShift::new(seed);
        let mut written = vec![];
        for k in 0..10u64 {
            let len = 1 + rng.below(12 * MTU as u64) as u32;
            let (local, remote) = (0x1000_0000 + k * 0x10_0000, 0x2000_0000 + k * 0x10_0000);
            l.a.mem.fill(local, len as u64, k).unwrap();
            l.b.mem.map(remote, len as u64).unwrap();
            written.push((remote, len));
            l.a.post(0x11, WorkRequest { id: k, op: Op::Write, local_addr: local, remote_addr: remote, len }).unwrap();
        }
        // Link::step, keeping what each NIC receives and what it sends, in cycle order.
        let mut frames: Vec<Vec<u8>> = vec![];
        let mut inputs: Vec<Option<Sent>> = vec![];
        let (mut b_sent, mut a_naks, mut b_frames) = (vec![], vec![], vec![]);
        let mut done = 0;
        for cycle in 0..400_000u64 {
            let (to_a, to_b) = (l.ba.deliver(cycle), l.ab.deliver(cycle));
            for f in to_a.iter().chain(&to_b) {
                let p = RocePacket::parse(f).unwrap();
                if p.bth.dest_qp == 0x11 && p.body.aeth().is_some_and(|a| a.syndrome.bits() == 0x60) {
                    a_naks.push(p.bth.psn);
                }
                frames.push(f.clone());
                inputs.push(None);
            }
            for f in l.a.step(to_a) {
                let p = RocePacket::parse(&f).unwrap();
                inputs.push(Some(Sent { flow: 0x11, psn: p.bth.psn }));
                l.ab.send(cycle, f);
            }
            for f in l.b.step(to_b) {
                let p = RocePacket::parse(&f).unwrap();
                let a = p.body.aeth().unwrap();
                b_sent.push((p.bth.psn, a.syndrome.bits(), a.msn));
                b_frames.push(f.clone());
                l.ba.send(cycle, f);
            }
            done += l.a.take_completions().len();
            if done == 10 {
                break;
            }
        }
        assert_eq!(done, 10, "seed {seed}: the model did not complete its work");

        let mut rx = testbench::harness::rx_pipe::open(None);
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let s = testbench::harness::rx_pipe::stream(&mut rx, frames.iter().map(|f| sim::rx_pipe::beats(f)), 0.1, 0.2, &mut r, 50_000_000);
        assert_eq!(s.verdicts.len(), frames.len());
        assert!(s.verdicts.iter().all(|v| v.code == 0), "seed {seed}: rx_pipe dropped a model frame");
        let mut verdicts = s.verdicts.iter();
        let mut seq = vec![
            Input::Ctrl(Ctrl { op: OP_CREATE, qpn: 0x11, epsn: 7, spsn: psn_a, mtu: MTU as u16, addr: 0 }),
            Input::Ctrl(Ctrl { op: OP_CREATE, qpn: 0x22, epsn: psn_a, spsn: 7, mtu: MTU as u16, addr: 0 }),
        ];
        seq.extend(inputs.iter().map(|x| match x {
            Some(s) => Input::Sent(*s),
            None => Input::Verdict(verdicts.next().unwrap().clone()),
        }));
        let fed = feed(&seq, 10);
        assert_eq!(fed.stats[sim::rx_ctx::stat::UNKNOWN_QP], 0);

        // Responder: PktRecvs of flow 0x22 = B's ACK / NAK frames.
        let b_recv: Vec<(u32, u8, u32)> = fed
            .recv
            .iter()
            .filter(|w| u16::from_le_bytes([w[0], w[1]]) == 0x22)
            .map(|w| (u32::from_be_bytes([0, w[4], w[5], w[6]]), w[8], u32::from_be_bytes([0, w[9], w[10], w[11]])))
            .collect();
        assert_eq!(b_recv, b_sent, "seed {seed}: rx_ctx's ACK/NAK decisions differ from the NIC model's");
        acks_checked += b_recv.len();

        // Closing the loop: those PktRecvs (as the model's values, equal to the RTL's bytes)
        // through tx_ctx (its model, equal to its RTL in txctx-random) and tx_pipe's RTL are
        // B's ACK / NAK frames, byte for byte.
        let template = sim::tx_pipe::TxDesc::from_packet(&RocePacket::parse(&b_frames[0]).unwrap()).0;
        let mut tx_model = sim::tx_ctx::TxCtx::new(10);
        let cfg = sim::tx_ctx::FlowConfig { header: template, mtu: MTU as u16, telemetry: false, probe: false, fast_start: 0, cnp: false };
        assert!(tx_model.ctrl(&sim::tx_ctx::Ctrl::Create { flow: 0x22, cfg }));
        let items: Vec<_> = fed
            .model
            .iter()
            .filter_map(|o| match &o.recv {
                Some(sim::tx_ctx::Recv::Ack(r)) if r.flow == 0x22 => Some((tx_model.pkt_recv(r).unwrap(), vec![])),
                _ => None,
            })
            .collect();
        let tx = testbench::harness::tx_pipe::send(seed, &items, &testbench::harness::tx_pipe::Shape::RANDOM, true);
        assert!(tx.outcome.passed(), "seed {seed}: {:?}", tx.outcome.first_mismatch);
        assert_eq!(tx.frames, b_frames, "seed {seed}: ACK frames differ from B's");

        // Payload: the frames and rx_ctx's DMA commands through rx_dma's RTL; its writes
        // rebuild B's memory.
        let cmds: Vec<[u8; 16]> = fed.dma.iter().map(|c| c[..16].try_into().unwrap()).collect();
        let writes = testbench::harness::rx_dma::transfer(&frames, &cmds, seed);
        assert_eq!(writes.len(), cmds.iter().filter(|c| c[12] & 1 == 1).count());
        let mut mem: BTreeMap<u64, u8> = BTreeMap::new();
        for w in &writes {
            for (i, b) in w.payload.iter().enumerate() {
                mem.insert(w.addr + i as u64, *b);
            }
        }
        let mut message_bytes = 0;
        for (remote, len) in written {
            let want = l.b.mem.read(remote, len as u64).unwrap();
            let got: Vec<u8> = (0..len as u64).map(|i| *mem.get(&(remote + i)).expect("byte never written")).collect();
            assert_eq!(got, want, "seed {seed}: memory at {remote:#x}");
            message_bytes += len as usize;
        }
        // Every message byte is in `mem`, so any other address makes it larger.
        assert_eq!(mem.len(), message_bytes, "seed {seed}: bytes written outside the messages");
        bytes_checked += message_bytes;

        // Requester: go-back-N only at the PSN of a received sequence NAK.
        for w in fed.recv.iter().filter(|w| w[2] & 2 != 0) {
            assert_eq!(u16::from_le_bytes([w[0], w[1]]), 0x11);
            let psn = u32::from_be_bytes([0, w[4], w[5], w[6]]);
            assert!(a_naks.contains(&psn), "seed {seed}: go-back-N to {psn:#x}, no NAK had it");
            rewinds += 1;
        }
    }
    println!("{acks_checked} ACK/NAK decisions = the NIC model's, {bytes_checked} bytes written by rx_dma = B's memory, {rewinds} go-back-Ns");
    assert!(acks_checked > 400 && rewinds > 0);
}

/// The same block at F = 2 in rust-hdl's simulator (4-cycle sweep): a create, then a WRITE
/// Only in order (ACK + DMA write), one ahead (NAK), a sent event and an ACK for it (Notify,
/// CC event); every output compared with the model's bytes.
#[test]
fn rust_hdl_simulation_small_case() {
    use hdl::rx_ctx::RxCtx as Hdl;
    use rust_hdl::prelude::*;
    use sim::rx_ctx::{Ctrl, RxCtx, Sent, OP_CREATE};
    use sim::rx_pipe::Verdict;
    let mut uut = Hdl::<2>::default();
    uut.connect_all();
    let mut model = RxCtx::new(2);
    model.pkt_shift = 3;
    let qpn = 0x12_3456; // flow 2
    let ctrl = Ctrl { op: OP_CREATE, qpn, epsn: 40, spsn: 0xFF_FFFF, mtu: 512, addr: 0 };
    let mut v = Verdict::from_words(&[0; 20]);
    (v.opcode, v.dest_qp, v.psn, v.payload_len, v.reth_len, v.reth_va, v.payload_at) = (0x0A, qpn, 40, 300, 300, 0xDEAD_0000, 62);
    let mut ahead = v.clone();
    ahead.psn = 45;
    let mut ack = Verdict::from_words(&[0; 20]);
    (ack.opcode, ack.dest_qp, ack.psn, ack.aeth_syndrome) = (0x11, qpn, 0xFF_FFFF, 0x1F);
    let sent = Sent { flow: 2, psn: 0xFF_FFFF };
    // Items in order: (0 ctrl | 1 sent | 2 verdict, bytes).
    let items: Vec<(u8, Vec<u8>)> = vec![
        (0, ctrl.to_bytes().to_vec()),
        (2, v.words().iter().flat_map(|w| w.to_le_bytes()).collect()),
        (2, ahead.words().iter().flat_map(|w| w.to_le_bytes()).collect()),
        (1, sent.to_bytes().to_vec()),
        (2, ack.words().iter().flat_map(|w| w.to_le_bytes()).collect()),
    ];
    assert!(model.ctrl(&ctrl));
    let mut want: [Vec<Vec<u8>>; 4] = Default::default();
    for (i, x) in [&v, &ahead].into_iter().enumerate() {
        let o = model.verdict(x, 100 + i as u64);
        want[0].extend(o.recv.map(|r| r.to_bytes().to_vec()));
        want[3].push(o.dma.to_bytes().to_vec());
    }
    model.sent(&sent);
    let o = model.verdict(&ack, 0);
    want[1].extend(o.event.map(|e| e.to_bytes().to_vec()));
    want[2].extend(o.notify.map(|(f, b)| (b as u64 | (f as u64) << 32).to_le_bytes()[..6].to_vec()));
    want[3].push(o.dma.to_bytes().to_vec());
    fn bits<const N: usize>(b: &[u8]) -> Bits<N> {
        b.iter().rev().fold(Bits::<N>::default(), |acc, &x| (acc << 8) | (x as u64))
    }
    fn bytes<const N: usize>(v: Bits<N>) -> Vec<u8> {
        (0..N / 8).map(|i| v.get_bits::<8>(8 * i).to_u64() as u8).collect()
    }
    let mut got: [Vec<Vec<u8>>; 4] = Default::default();
    let mut next = 0;
    let (mut took_at, mut first_dma, mut first_notify) = (vec![], None, None);
    // The verdicts of the two requests are stamped 100 and 101 ns; the ACK's event gets 0.
    for cycle in 0..30 {
        uut.reset.next = cycle == 0;
        uut.cfg_pkt_shift.next = 3.into();
        let item = items.get(next);
        uut.now_ns.next = match next {
            1 => 100.into(),
            2 => 101.into(),
            _ => 0.into(),
        };
        uut.s_axis_ctrl_tvalid.next = cycle > 0 && item.is_some_and(|i| i.0 == 0);
        uut.s_axis_sent_tvalid.next = cycle > 0 && item.is_some_and(|i| i.0 == 1);
        uut.s_axis_verdict_tvalid.next = cycle > 0 && item.is_some_and(|i| i.0 == 2);
        if let Some((k, b)) = item {
            match k {
                0 => uut.s_axis_ctrl_tdata.next = bits::<128>(b),
                1 => uut.s_axis_sent_tdata.next = bits::<40>(&b[..5]),
                _ => uut.s_axis_verdict_tdata.next = bits::<640>(b),
            }
        }
        uut.m_axis_pktrecv_tready.next = true;
        uut.m_axis_event_tready.next = true;
        uut.m_axis_notify_tready.next = true;
        uut.m_axis_dma_cmd_tready.next = true;
        uut.clock.next = Clock { clk: false };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        let took = (uut.s_axis_ctrl_tvalid.val() && uut.s_axis_ctrl_tready.val())
            || (uut.s_axis_sent_tvalid.val() && uut.s_axis_sent_tready.val())
            || (uut.s_axis_verdict_tvalid.val() && uut.s_axis_verdict_tready.val());
        if uut.m_axis_pktrecv_tvalid.val() {
            got[0].push(bytes(uut.m_axis_pktrecv_tdata.val()));
        }
        if uut.m_axis_event_tvalid.val() {
            got[1].push(bytes(uut.m_axis_event_tdata.val()));
        }
        if uut.m_axis_notify_tvalid.val() {
            got[2].push(bytes(uut.m_axis_notify_tdata.val()));
        }
        if uut.m_axis_dma_cmd_tvalid.val() {
            got[3].push(bytes(uut.m_axis_dma_cmd_tdata.val()));
            first_dma.get_or_insert(cycle);
        }
        if uut.m_axis_notify_tvalid.val() {
            first_notify.get_or_insert(cycle);
        }
        if took {
            took_at.push(cycle);
        }
        uut.clock.next = Clock { clk: true };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        next += took as usize;
    }
    assert_eq!(next, items.len());
    assert_eq!(want.iter().map(|w| w.len()).collect::<Vec<_>>(), [2, 1, 1, 3]);
    assert_eq!(got, want);
    // Latency: outputs 2 cycles after the verdict is taken (S1, S2), Notify 3.
    assert_eq!(first_dma, Some(took_at[1] + 2));
    assert_eq!(first_notify, Some(took_at[4] + 3));
    for (k, n) in [(0, 3), (11, 1), (6, 0)] {
        uut.stat_addr.next = k.into();
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        assert_eq!(uut.stat_count.val().to_u64(), n, "counter {k}");
    }
}

/// The HPCC++ probe loop (draft 004 section 7.1) through the RTL. A's probe (tx_ctx's model,
/// at the flow's next PSN, which the probe does not consume) is built by tx_pipe's RTL, picks
/// up three hops at the "switches", and goes through B's rx_pipe and rx_ctx RTL. B's PktRecv
/// (a telemetry response), through tx_ctx's model and tx_pipe's RTL, is a 0xC1 frame echoing
/// those hops at the probe's PSN; through A's rx_pipe and rx_ctx RTL that frame is a CC event
/// (ACK type, nothing acknowledged) carrying the hops as the switches wrote them.
#[test]
fn probe_round_trip_through_the_pipes() {
    use sim::packet::*;
    use sim::rx_ctx::{Ctrl, EV_ACK, OP_CREATE};
    use sim::tx_ctx::{Ctrl as TxCtrl, FlowConfig, Post, Recv, Response, TxCtx};
    use testbench::harness::rx_ctx::{feed, Input};
    use testbench::harness::rx_pipe::verdicts;
    use testbench::harness::tx_pipe::{header_to, hop, send, Shape};
    let seed = rand::random::<u32>() as u64;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (a_hdr, b_hdr) = (header_to(&mut rng, 0x22), header_to(&mut rng, 0x11));
    // A: two WRITE packets at PSNs 0xFFFFFE, 0xFFFFFF, then a probe at PSN 0.
    let mut a_tx = TxCtx::new(10);
    let cfg = FlowConfig { header: a_hdr, mtu: 1024, telemetry: false, probe: true, fast_start: 0, cnp: false };
    assert!(a_tx.ctrl(&TxCtrl::Create { flow: 0x11, cfg }));
    let post = Post { local_addr: 0, remote_addr: 0x4000, rkey: 1, len: 5000, first_psn: 0xFF_FFFE };
    assert!(a_tx.ctrl(&TxCtrl::Post { flow: 0x11, post }));
    a_tx.pkt_send(0x11).unwrap();
    a_tx.pkt_send(0x11).unwrap();
    let probe = a_tx.probe(0x11).unwrap();
    let tx = send(seed, &[(probe, vec![])], &Shape::RANDOM, true);
    assert!(tx.outcome.passed(), "{:?}", tx.outcome.first_mismatch);
    let mut p = RocePacket::parse(&tx.frames[0]).unwrap();
    assert_eq!((p.opcode(), p.bth.psn, p.bth.ack_req), (Opcode::HpccProbe, 0, false));
    let hops: Vec<IntHop> = (0..3).map(|_| hop(&mut rng)).collect();
    for h in &hops {
        assert!(p.telemetry.as_mut().unwrap().push_hop(*h));
    }
    let rx_verdict = |frame: &[u8], rng: &mut rand_chacha::ChaCha8Rng| verdicts(&[frame.to_vec()], rng).remove(0);

    // B: rx_pipe, rx_ctx -> a telemetry response PktRecv.
    let v = rx_verdict(&p.build(), &mut rng);
    let create = |qpn, epsn, spsn| Input::Ctrl(Ctrl { op: OP_CREATE, qpn, epsn, spsn, mtu: 1024, addr: 0 });
    let fed = feed(&[create(0x22, 0xFF_FFFE, 7), Input::Verdict(v)], 0);
    let want = Response { flow: 0x22, psn: 0, hops: hops.clone() };
    assert_eq!(fed.model[0].recv, Some(Recv::Response(want.clone())));
    assert_eq!(fed.recv, vec![Recv::Response(want.clone()).to_bytes().to_vec()]);
    assert!(fed.event.is_empty() && fed.notify.is_empty());
    assert_eq!(fed.dma[0][12] & 1, 0, "a probe is not written to memory");

    // B: tx_ctx, tx_pipe -> the 0xC1 frame.
    let mut b_tx = TxCtx::new(10);
    let cfg = FlowConfig { header: b_hdr, mtu: 1024, telemetry: false, probe: false, fast_start: 0, cnp: false };
    assert!(b_tx.ctrl(&TxCtrl::Create { flow: 0x22, cfg }));
    let tx = send(seed, &[(b_tx.response(&want).unwrap(), vec![])], &Shape::RANDOM, true);
    assert!(tx.outcome.passed(), "{:?}", tx.outcome.first_mismatch);
    let r = RocePacket::parse(&tx.frames[0]).unwrap();
    assert_eq!((r.opcode(), r.bth.psn, r.bth.dest_qp), (Opcode::HpccTelemetryResponse, 0, 0x11));
    assert_eq!(r.telemetry, Some(Telemetry { echo: true, hops: hops.clone(), feedback: None }));

    // A: rx_pipe, rx_ctx -> the CC event with the switches' hops, nothing acknowledged.
    let v = rx_verdict(&tx.frames[0], &mut rng);
    let fed = feed(&[create(0x11, 7, 0xFF_FFFE), Input::Verdict(v)], 0);
    assert_eq!(fed.event.len(), 1);
    let e = &fed.event[0];
    let word = |i: usize| u64::from_le_bytes(e[20 + 8 * i..28 + 8 * i].try_into().unwrap());
    assert_eq!((e[2] & 15, e[3], u16::from_le_bytes([e[60], e[61]])), (EV_ACK, 3, 0));
    assert_eq!((0..3).map(word).collect::<Vec<_>>(), hops.iter().map(|h| h.word()).collect::<Vec<_>>());
    assert!(fed.recv.is_empty() && fed.notify.is_empty());
}

/// RDMA READ through the RTL, with a lost response. A's READ of 2,500 bytes (tx_ctx's model:
/// one READ request per MTU) is built by tx_pipe's RTL and goes through B's rx_pipe and rx_ctx
/// RTL, whose READ-response PktRecvs, through read_split's and tx_ctx's models (DMA reads of
/// B's memory) and
/// tx_pipe's RTL, are READ Response Only frames. The second response is lost: A's rx_pipe and
/// rx_ctx RTL see the third one, ask tx_ctx to go back to the second PSN, tx_ctx asks again,
/// B answers the duplicates again, and rx_dma's RTL, on A's DMA commands, writes exactly B's
/// bytes at A's local address.
#[test]
fn read_round_trip_with_a_lost_response() {
    use sim::packet::*;
    use sim::rx_ctx::{Ctrl, Sent, OP_CREATE, OP_READ};
    use sim::tx_ctx::{Ctrl as TxCtrl, FlowConfig, Post, Recv, Rewind, TxCtx};
    use testbench::harness::rx_ctx::{feed, Input};
    use testbench::harness::rx_pipe::verdicts;
    use testbench::harness::tx_pipe::{header_to, send, Shape};
    let seed = rand::random::<u32>() as u64;
    println!("seed {seed:#x}");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (a_hdr, b_hdr) = (header_to(&mut rng, 0x22), header_to(&mut rng, 0x11));
    let b_mem = |a: u64| (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8;
    let (local, remote, len) = (0x8000_0000u64, 0x4000_0123u64, 2500u32);
    let create = |qpn, epsn, spsn| Input::Ctrl(Ctrl { op: OP_CREATE, qpn, epsn, spsn, mtu: 1024, addr: 0 });

    // A: three READ requests, then (as A's rx_ctx will ask below) go back to the second PSN.
    let mut a_tx = TxCtx::new(10);
    let cfg = FlowConfig { header: a_hdr, mtu: 1024, telemetry: false, probe: false, fast_start: 0, cnp: false };
    assert!(a_tx.ctrl(&TxCtrl::Create { flow: 0x11, cfg }));
    let post = Post { local_addr: local, remote_addr: remote, rkey: 9, len, first_psn: 0xFF_FFFF };
    assert!(a_tx.ctrl(&TxCtrl::Read { flow: 0x11, post }));
    let mut reqs: Vec<_> = (0..3).map(|_| a_tx.pkt_send(0x11).unwrap()).collect();
    assert!(a_tx.rewind(&Rewind { flow: 0x11, psn: 0 }));
    reqs.extend((0..2).map(|_| a_tx.pkt_send(0x11).unwrap()));
    assert!(reqs.iter().all(|(d, dma)| d.opcode == Opcode::RdmaReadRequest && dma.is_none()));
    let items: Vec<_> = reqs.iter().map(|(d, _)| (d.clone(), vec![])).collect();
    let tx = send(seed, &items, &Shape::RANDOM, true);
    assert!(tx.outcome.passed(), "{:?}", tx.outcome.first_mismatch);

    // B: READ responses for all five (the last two are duplicates, executed again).
    let mut seq = vec![create(0x22, 0xFF_FFFF, 7)];
    seq.extend(verdicts(&tx.frames, &mut rng).into_iter().map(Input::Verdict));
    let fed = feed(&seq, 0);
    let asks: Vec<_> = fed
        .model
        .iter()
        .map(|o| match &o.recv {
            Some(Recv::ReadResp(r)) => *r,
            r => panic!("not a READ response: {r:?}"),
        })
        .collect();
    let got: Vec<_> = asks.iter().map(|r| (r.psn, r.va, r.total, r.aeth.msn)).collect();
    assert_eq!(got, [
        (0xFF_FFFF, remote, 1024, 1),
        (0, remote + 1024, 1024, 2),
        (1, remote + 2048, 452, 3),
        (0, remote + 1024, 1024, 3),
        (1, remote + 2048, 452, 3),
    ]);
    assert_eq!(fed.stats[sim::rx_ctx::stat::DUPLICATE], 2);
    let mut b_tx = TxCtx::new(10);
    let cfg = FlowConfig { header: b_hdr, mtu: 1024, telemetry: false, probe: false, fast_start: 0, cnp: false };
    assert!(b_tx.ctrl(&TxCtrl::Create { flow: 0x22, cfg }));
    let items: Vec<_> = asks
        .iter()
        .map(|r| {
            // read_split: each READ fits one packet, so it is an Only of its whole length.
            let only = sim::tx_ctx::ReadResp { len: r.total as u16, ..*r };
            assert_eq!(sim::read_split::split(&Recv::ReadResp(*r).to_bytes()), [Recv::ReadResp(only).to_bytes()]);
            let (d, dma) = b_tx.read_response(&only).unwrap();
            let dma = dma.unwrap();
            (d, (0..dma.len as u64).map(|i| b_mem(dma.addr + i)).collect::<Vec<u8>>())
        })
        .collect();
    let tx = send(seed + 1, &items, &Shape::RANDOM, true);
    assert!(tx.outcome.passed(), "{:?}", tx.outcome.first_mismatch);
    assert!(tx.frames.iter().all(|f| RocePacket::parse(f).unwrap().opcode() == Opcode::RdmaReadResponseOnly));

    // A: responses 0 and 2 (1 lost) -> go-back-N to PSN 0; then the resent requests and the
    // answers to them.
    let arrived = vec![tx.frames[0].clone(), tx.frames[2].clone(), tx.frames[3].clone(), tx.frames[4].clone()];
    let v = verdicts(&arrived, &mut rng);
    let sent = |psn| Input::Sent(Sent { flow: 0x11, psn });
    let read = Input::Ctrl(Ctrl { op: OP_READ, qpn: 0x11, epsn: 0, spsn: 0, mtu: 0, addr: local });
    let seq = vec![
        create(0x11, 7, 0xFF_FFFF), read, sent(0xFF_FFFF), sent(0), sent(1),
        Input::Verdict(v[0].clone()), Input::Verdict(v[1].clone()),
        sent(0), sent(1), Input::Verdict(v[2].clone()), Input::Verdict(v[3].clone()),
    ];
    let fed = feed(&seq, 0);
    assert_eq!(fed.model[1].recv, Some(Recv::Rewind(Rewind { flow: 0x11, psn: 0 })));
    assert_eq!(fed.stats[sim::rx_ctx::stat::READ_GAP], 1);
    let cmds: Vec<[u8; 16]> = fed.dma.iter().map(|c| c[..16].try_into().unwrap()).collect();
    let writes = testbench::harness::rx_dma::transfer(&arrived, &cmds, seed);
    let mut mem = std::collections::BTreeMap::new();
    for w in &writes {
        for (i, b) in w.payload.iter().enumerate() {
            assert!(mem.insert(w.addr + i as u64, *b).is_none(), "byte {:#x} written twice", w.addr + i as u64);
        }
    }
    let want: Vec<(u64, u8)> = (0..len as u64).map(|i| (local + i, b_mem(remote + i))).collect();
    assert_eq!(mem.into_iter().collect::<Vec<_>>(), want);
}
