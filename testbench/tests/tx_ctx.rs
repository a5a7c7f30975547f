//! tx_ctx against its golden model (sim::tx_ctx) in Verilator, event by event: random control
//! words and PktSends with input gaps and backpressure on both outputs, bad input and resets,
//! one PktSend per clock; a few events in rust-hdl's own simulator.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::*;
use sim::tx_ctx::{Ctrl, FlowConfig, PktRecv, Post, Recv, TxCtx};
use sim::tx_pipe::TxDesc;
use testbench::harness::get_wide;
use testbench::harness::stream::{put, Sink};
use testbench::harness::tx_ctx::{feed, run, Input, Shape};
use testbench::harness::tx_pipe::random_desc;
use testbench::harness::Scenario;

#[test]
fn random_events_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::TxCtxRandom.run(seed, 300_000, None);
    println!("{o:?}");
    assert!(
        o.passed()
            && o.get("descriptors").unwrap() > 50_000.0
            && o.get("dma_reads").unwrap() > 40_000.0
            && o.get("acks").unwrap() > 8_000.0
            && o.get("responses").unwrap() > 2_000.0
            && o.get("cnps").unwrap() > 1_000.0
            && o.get("probes").unwrap() > 1_000.0
            && o.get("read_requests").unwrap() > 10_000.0
            && o.get("sent_events").unwrap() > 40_000.0
            && o.get("read_responses").unwrap() > 2_000.0
            && o.get("rewinds").unwrap() > 1_000.0
            && o.get("nak_ignored").unwrap() > 1_000.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

#[test]
fn bad_input_is_counted_and_ignored() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::TxCtxBadInput.run(seed, 300_000, None);
    println!("{o:?}");
    assert!(
        o.passed()
            && o.get("drops").unwrap() > 1_000.0
            && o.get("recv_drops").unwrap() > 500.0
            && o.get("ctrl_bad").unwrap() > 500.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

/// PktSend offered on every cycle, both outputs always ready: every PktSend not beside a
/// control word is taken in its cycle (one per clock, same flow or not).
#[test]
fn one_pktsend_per_clock() {
    let seed = rand::random::<u32>() as u64;
    let o = run(Scenario::TxCtxRandom, seed, 100_000, &Shape::LINE_RATE, None);
    println!("{o:?}");
    assert!(o.passed(), "{o:?}");
    assert_eq!(o.get("taken_per_cycle_offered").unwrap(), 1.0, "{o:?}");
    assert!(o.get("descriptors_per_cycle").unwrap() > 0.9, "{o:?}");
}

/// The same block at F = 2 in rust-hdl's simulator (4-cycle reset sweep): create, post, four
/// PktSends (one too many), a go-back-N, two PktSends resending, compared with the model.
#[test]
fn rust_hdl_simulation_small_case() {
    use hdl::tx_ctx::TxCtx as Hdl;
    use rust_hdl::prelude::*;
    let mut uut = Hdl::<2>::default();
    uut.connect_all();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut model = TxCtx::new(2);
    let cfg = FlowConfig { header: random_desc(&mut rng), mtu: 100, telemetry: true, probe: false, fast_start: 2, cnp: false };
    let post = Post { local_addr: rng.gen(), remote_addr: rng.gen(), rkey: rng.gen(), len: 250, first_psn: 0xFF_FFFE };
    let ctrls = [Ctrl::Create { flow: 3, cfg: FlowConfig { header: TxDesc { ip: Ipv4 { dscp: 5, ..cfg.header.ip }, ..cfg.header.clone() }, ..cfg } }, Ctrl::Post { flow: 3, post }];
    let mut want = vec![];
    for c in &ctrls {
        assert!(model.ctrl(c));
    }
    // Four PktSends (the last finds nothing), a go-back-N to PSN 0xFFFFFF (packet 1), two
    // PktSends (packets 1 and 2 again).
    let rewind = sim::tx_ctx::Rewind { flow: 3, psn: 0xFF_FFFF };
    for i in 0..6 {
        if i == 4 {
            assert!(model.rewind(&rewind));
        }
        if let Some((d, r)) = model.pkt_send(3) {
            want.push((d.to_bytes().to_vec(), r.map(|r| r.to_bytes().to_vec())));
        }
    }
    let to_bits = |b: &[u8]| -> Bits<512> { b.iter().rev().fold(Bits::<512>::default(), |acc, &x| (acc << 8) | (x as u64)) };
    let bytes_of = |v: Bits<1024>, n: usize| -> Vec<u8> { (0..n).map(|i| v.get_bits::<8>(8 * i).to_u64() as u8).collect() };
    let (mut ci, mut pi, mut ri) = (0, 0, 0);
    let (mut descs, mut dmas) = (vec![], vec![]);
    for cycle in 0..40 {
        uut.reset.next = cycle == 0;
        uut.s_axis_ctrl_tvalid.next = cycle > 0 && ci < ctrls.len();
        uut.s_axis_ctrl_tdata.next = to_bits(&ctrls[ci.min(1)].to_bytes());
        uut.s_axis_pktsend_tvalid.next = cycle > 0 && ci == ctrls.len() && (pi < 4 || (ri == 1 && pi < 6));
        uut.s_axis_pktrecv_tvalid.next = cycle > 0 && pi == 4 && ri == 0;
        uut.s_axis_pktrecv_tdata.next = to_bits(&rewind.to_bytes());
        uut.s_axis_pktsend_tdata.next = 3.into();
        uut.m_axis_desc_tready.next = true;
        uut.m_axis_dma_rd_tready.next = true;
        uut.m_axis_sent_tready.next = true;
        uut.m_axis_sleep_tready.next = true;
        uut.clock.next = Clock { clk: false };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        let took_c = uut.s_axis_ctrl_tvalid.val() && uut.s_axis_ctrl_tready.val();
        let took_p = uut.s_axis_pktsend_tvalid.val() && uut.s_axis_pktsend_tready.val();
        let took_r = uut.s_axis_pktrecv_tvalid.val() && uut.s_axis_pktrecv_tready.val();
        if uut.m_axis_desc_tvalid.val() {
            descs.push(bytes_of(uut.m_axis_desc_tdata.val(), 128));
        }
        if uut.m_axis_dma_rd_tvalid.val() {
            let v: Bits<1024> = bit_cast::<1024, 128>(uut.m_axis_dma_rd_tdata.val());
            dmas.push(bytes_of(v, 16));
        }
        uut.clock.next = Clock { clk: true };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        ci += took_c as usize;
        pi += took_p as usize;
        ri += took_r as usize;
    }
    assert_eq!((want.len(), ri, pi), (5, 1, 6));
    assert_eq!(descs, want.iter().map(|w| w.0.clone()).collect::<Vec<_>>());
    assert_eq!(dmas, want.iter().filter_map(|w| w.1.clone()).collect::<Vec<_>>());
    assert_eq!(uut.stat_drop.val().to_u64(), 1);
    assert_eq!(uut.stat_nak_ignored.val().to_u64(), 0);
}

/// End to end: tx_ctx's RTL turns three flows' WRITE messages into descriptors and DMA reads,
/// and two PktRecvs into an ACK (with a telemetry echo) and a NAK;
/// the payloads are read from a model memory and, with the descriptors (the model's, checked
/// byte-equal to the RTL's), go through tx_pipe's RTL; every frame parses, with the expected
/// opcode / PSN sequence per flow, RETH on First / Only, the ECN and the memory's bytes.
#[test]
fn descriptors_through_tx_pipe_parse() {
    use testbench::verilated::models::TxCtx as Rtl;
    let mem = |a: u64| (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8;
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut model = TxCtx::new(10);
    let flows: [(u16, u16, bool, u16, u32, u32); 3] =
        [(7, 256, false, 4, 3000, 0xFF_FFFC), (300, 1024, true, 0, 1000, 5), (1023, 100, false, 2, 0, 77)];
    let mut ctrls = vec![];
    for &(flow, mtu, telemetry, fast_start, len, first_psn) in &flows {
        let mut header = random_desc(&mut rng);
        header.ip.dscp = 26;
        ctrls.push(Ctrl::Create { flow, cfg: FlowConfig { header, mtu, telemetry, probe: false, fast_start, cnp: false } });
        let post = Post { local_addr: rng.gen::<u32>() as u64, remote_addr: rng.gen(), rkey: rng.gen(), len, first_psn };
        ctrls.push(Ctrl::Post { flow, post });
    }
    let mut dut = Rtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    // 15 PktSends for flow 7, 3 for 300, 2 for 1023, interleaved.
    let sends: Vec<u16> = (0..20).map(|i| if i % 4 == 3 { flows[1 + (i / 4) % 2].0 } else { flows[0].0 }).collect();
    let hops: Vec<IntHop> = (0..3).map(|_| testbench::harness::tx_pipe::hop(&mut rng)).collect();
    let recvs = [
        PktRecv { flow: 300, psn: 0x12345, aeth: Aeth { syndrome: Syndrome::Ack { credits: 31 }, msn: 9 }, echo: Some(hops.clone()), ece: false, feedback: None },
        PktRecv { flow: 1023, psn: 0xFF_FFFF, aeth: Aeth { syndrome: Syndrome::Nak(NakCode::PsnSequenceError), msn: 3 }, echo: None, ece: true, feedback: None },
    ];
    // The control words, the PktSends, then two PktRecvs once the data is out: an ACK with a
    // 3-hop echo and a NAK without one.
    let inputs: Vec<Input> = ctrls
        .iter()
        .map(|c| Input::Ctrl(c.clone()))
        .chain(sends.iter().map(|&f| Input::Send(f)))
        .chain(recvs.iter().map(|r| Input::Recv(Recv::Ack(r.clone()))))
        .collect();
    let (mut want_desc, mut want_dma, mut owner) = (vec![], vec![], vec![]);
    let fed = feed(&mut dut, &inputs, 1200, |i| match i {
        Input::Ctrl(c) => assert!(model.ctrl(c)),
        Input::Recv(Recv::Ack(r)) => {
            want_desc.push(model.pkt_recv(r).unwrap());
            owner.push(r.flow);
        }
        Input::Send(f) => {
            if let Some((d, r)) = model.pkt_send(*f) {
                owner.push(*f);
                want_desc.push(d);
                want_dma.extend(r);
            }
        }
        Input::Recv(_) => unreachable!(),
    });
    let (got_desc, got_dma) = (fed.desc, fed.dma);
    assert_eq!(fed.taken, inputs.len());
    // 3000 / 256 = 12 packets, 1000 / 1024 = 1, an empty message = 1: 14 of the 20 PktSends,
    // the other 6 dropped.
    assert_eq!(want_desc.len(), 16);
    assert_eq!((model.drops, dut.stat_drop()), (6, 6));
    assert_eq!(got_desc, want_desc.iter().map(|d| d.to_bytes().to_vec()).collect::<Vec<_>>());
    // ECN-Echo: the NAK answers a CE-marked request and sets BECN; the ACK does not.
    let n = want_desc.len();
    assert!(!want_desc[n - 2].bth.becn && want_desc[n - 1].bth.becn);
    assert_eq!(got_dma, want_dma.iter().map(|r| r.to_bytes().to_vec()).collect::<Vec<_>>());
    // The DMA engine: one payload packet per request, from the memory.
    let mut dma = want_dma.iter();
    let items: Vec<(TxDesc, Vec<u8>)> = want_desc
        .iter()
        .map(|d| {
            let payload = if d.payload_len > 0 {
                let r = dma.next().unwrap();
                assert_eq!(r.len, d.payload_len);
                (0..r.len as u64).map(|i| mem(r.addr + i)).collect()
            } else {
                vec![]
            };
            (d.clone(), payload)
        })
        .collect();
    let run = testbench::harness::tx_pipe::send(5, &items, &testbench::harness::tx_pipe::Shape::RANDOM, true);
    assert!(run.outcome.passed(), "{:?}", run.outcome);
    assert_eq!(run.frames.len(), 16);
    let mut next_psn = std::collections::HashMap::new();
    let mut sent = std::collections::HashMap::new();
    let mut ops = vec![];
    for ((f, (_, payload)), owner) in run.frames.iter().zip(&items).zip(&owner) {
        let p = RocePacket::parse(f).expect("frame parses");
        if p.opcode() == Opcode::Acknowledge {
            let r = recvs.iter().find(|r| r.flow == *owner).unwrap();
            assert_eq!((p.bth.psn, p.body.aeth().copied(), p.ip.ecn), (r.psn, Some(r.aeth), Ecn::Ect0));
            assert_eq!(p.telemetry.as_ref().map(|t| (t.echo, t.hops.clone())), r.echo.clone().map(|h| (true, h)));
            continue;
        }
        let &(flow, _, tele, fs, len, first) = flows.iter().find(|x| x.0 == *owner).unwrap();
        let psn = next_psn.entry(flow).or_insert(first);
        assert_eq!(p.bth.psn, *psn);
        *psn = (*psn + 1) & 0xFF_FFFF;
        let k = sent.entry(flow).or_insert(0u16);
        let ecn = if *k + 1 < fs { Ecn::NotEct } else { Ecn::Ect0 };
        *k += 1;
        assert_eq!(p.ip.ecn, ecn);
        assert!(p.bth.ack_req);
        assert_eq!(p.telemetry.is_some(), tele);
        assert_eq!(p.body.payload(), &payload[..]);
        if matches!(p.opcode(), Opcode::RdmaWriteFirst | Opcode::RdmaWriteOnly) {
            assert_eq!(p.body.reth().unwrap().dma_len, len);
        }
        ops.push((flow, p.opcode()));
    }
    let of = |flow: u16| ops.iter().filter(|o| o.0 == flow).map(|o| o.1 as u8).collect::<Vec<u8>>();
    assert_eq!(of(7), [vec![0x06], vec![0x07; 10], vec![0x08]].concat());
    assert_eq!(of(300), [0x0A]);
    assert_eq!(of(1023), [0x0A]);
}


/// Go-back-N in the RTL: five packets of a five-packet message (MTU 1000, 4,500 bytes), a NAK
/// for PSN 2 (go-back-N on the PktRecv input), then PktSends give PSN 2, 3, 4 as Middle,
/// Middle, Last with the DMA addresses of packets 2..4; a fourth PktSend is dropped; a NAK
/// PSN just past the sent range (5) and one before it are ignored and counted. Every
/// descriptor and DMA read also equal to the model's.
#[test]
fn go_back_n_resends_from_the_nak_psn() {
    use sim::tx_ctx::Rewind;
    use testbench::verilated::models::TxCtx as Rtl;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (flow, local) = (5u16, 0x10_0000u64);
    let cfg = FlowConfig { header: random_desc(&mut rng), mtu: 1000, telemetry: false, probe: false, fast_start: 0, cnp: false };
    let post = Post { local_addr: local, remote_addr: 0xABCD_0000, rkey: 0x77, len: 4500, first_psn: 0xFF_FFFE };
    let psn = |k: u32| (0xFF_FFFE + k) & 0xFF_FFFF;
    let nak = |psn| Input::Recv(Recv::Rewind(Rewind { flow, psn }));
    let mut evs = vec![Input::Ctrl(Ctrl::Create { flow, cfg }), Input::Ctrl(Ctrl::Post { flow, post })];
    evs.extend((0..5).map(|_| Input::Send(flow)));
    evs.extend([nak(psn(5)), nak(psn(0xFF_FFFF)), nak(psn(2))]);
    evs.extend((0..4).map(|_| Input::Send(flow)));
    let mut model = TxCtx::new(10);
    let mut dut = Rtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let (mut want_desc, mut want_dma) = (vec![], vec![]);
    let fed = feed(&mut dut, &evs, 2000, |e| match e {
        Input::Ctrl(c) => assert!(model.ctrl(c)),
        Input::Recv(Recv::Rewind(r)) => {
            model.rewind(r);
        }
        Input::Send(f) => {
            if let Some((d, r)) = model.pkt_send(*f) {
                want_desc.push(d.to_bytes().to_vec());
                want_dma.extend(r.map(|r| r.to_bytes().to_vec()));
            }
        }
        Input::Recv(_) => unreachable!(),
    });
    let (got_desc, got_dma) = (fed.desc, fed.dma);
    assert_eq!(fed.taken, evs.len(), "every event taken");
    assert_eq!(got_desc, want_desc);
    assert_eq!(got_dma, want_dma);
    // Descriptor byte 27 = opcode, bytes 36..38 = PSN (big-endian); DMA {address, length}.
    let seen: Vec<(u8, u32)> =
        got_desc.iter().map(|d| (d[27], u32::from_be_bytes([0, d[36], d[37], d[38]]))).collect();
    let want: Vec<(u8, u32)> = [(0x06, 0), (0x07, 1), (0x07, 2), (0x07, 3), (0x08, 4), (0x07, 2), (0x07, 3), (0x08, 4)]
        .iter()
        .map(|&(op, k)| (op, psn(k)))
        .collect();
    assert_eq!(seen, want);
    let dma: Vec<(u64, u16)> = got_dma
        .iter()
        .map(|r| (u64::from_le_bytes(r[..8].try_into().unwrap()), u16::from_le_bytes([r[8], r[9]])))
        .collect();
    let k_addr = |k: u64| local + k * 1000;
    let want_dma: Vec<(u64, u16)> = [0, 1, 2, 3, 4, 2, 3, 4]
        .iter()
        .map(|&k| (k_addr(k), if k == 4 { 500 } else { 1000 }))
        .collect();
    assert_eq!(dma, want_dma);
    assert_eq!((dut.stat_nak_ignored(), dut.stat_drop(), dut.stat_recv_drop()), (2, 1, 0));
    assert_eq!((model.nak_ignored, model.drops), (2, 1));
}

/// Go-back-N far into a long message, so the rewind offset uses the k[23:16] x MTU product:
/// MTU 13, 70,000 packets sent, NAK for packet 66,666 -> the next PktSend is packet 66,666
/// (Middle) at local + 866,658, equal to the model's.
#[test]
fn go_back_n_past_packet_65536() {
    use sim::tx_ctx::Rewind;
    use testbench::verilated::models::TxCtx as Rtl;
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let (flow, local, n, k) = (9u16, 0x4000_0000u64, 70_000u32, 66_666u32);
    let cfg = FlowConfig { header: random_desc(&mut rng), mtu: 13, telemetry: false, probe: false, fast_start: 0, cnp: false };
    let post = Post { local_addr: local, remote_addr: 1, rkey: 2, len: 13 * n, first_psn: 0xFF_0000 };
    let mut model = TxCtx::new(10);
    let mut dut = Rtl::new();
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let (mut desc, mut dma_rd) = (Sink::new(Rtl::M_AXIS_DESC, 0.0), Sink::new(Rtl::M_AXIS_DMA_RD, 0.0));
    desc.set_ready(&mut dut, true);
    dma_rd.set_ready(&mut dut, true);
    for s in [Rtl::M_AXIS_SENT, Rtl::M_AXIS_SLEEP] {
        (s.set_tready)(&mut dut, true);
    }
    for _ in 0..1100 {
        dut.tick(); // reset sweep
    }
    // Every input is taken on the cycle it is offered: one per clock.
    for c in [Ctrl::Create { flow, cfg }, Ctrl::Post { flow, post }] {
        put(&Rtl::S_AXIS_CTRL, &mut dut, Some(&c));
        dut.eval();
        assert!((Rtl::S_AXIS_CTRL.tready)(&dut));
        dut.tick();
        assert!(model.ctrl(&c));
    }
    put::<_, Ctrl>(&Rtl::S_AXIS_CTRL, &mut dut, None);
    put(&Rtl::S_AXIS_PKTSEND, &mut dut, Some(&flow));
    for _ in 0..n {
        dut.eval();
        assert!((Rtl::S_AXIS_PKTSEND.tready)(&dut));
        dut.tick();
        model.pkt_send(flow).unwrap();
    }
    put::<_, u16>(&Rtl::S_AXIS_PKTSEND, &mut dut, None);
    dut.tick();
    let r = Recv::Rewind(Rewind { flow, psn: (0xFF_0000 + k) & 0xFF_FFFF });
    put(&Rtl::S_AXIS_PKTRECV, &mut dut, Some(&r));
    dut.eval();
    assert!((Rtl::S_AXIS_PKTRECV.tready)(&dut));
    dut.tick();
    let Recv::Rewind(r) = r else { unreachable!() };
    assert!(model.rewind(&r));
    put::<_, Recv>(&Rtl::S_AXIS_PKTRECV, &mut dut, None);
    put(&Rtl::S_AXIS_PKTSEND, &mut dut, Some(&flow));
    dut.eval();
    assert!((Rtl::S_AXIS_PKTSEND.tready)(&dut));
    dut.tick();
    put::<_, u16>(&Rtl::S_AXIS_PKTSEND, &mut dut, None);
    // Taken in S1, done in S2: the outputs one clock later.
    dut.tick();
    dut.eval();
    let (d, dma) = model.pkt_send(flow).unwrap();
    let dma = dma.unwrap();
    assert_eq!((d.bth.psn, d.opcode, dma.addr, dma.len), (r.psn, Opcode::RdmaWriteMiddle, local + (13 * k) as u64, 13));
    assert_eq!(desc.take(&dut).map(get_wide), Some(d.to_bytes().to_vec()));
    assert_eq!(dma_rd.take(&dut).map(get_wide), Some(dma.to_bytes().to_vec()));
    assert_eq!(dut.stat_nak_ignored(), 0);
}
