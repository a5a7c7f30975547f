//! tx_pipe against its golden model (sim::tx_pipe) in Verilator: random frames of every opcode
//! and size with input gaps and backpressure, payload length mismatches, line rate; the emitted
//! frames decoded by tshark from a pcap; a few frames in rust-hdl's own simulator.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sim::packet::capture::*;
use sim::packet::*;
use sim::rx_pipe::Beat;
use sim::tx_pipe::tx_frame;
use std::process::Command;
use testbench::harness::tx_pipe::{random_desc, run, throughput, throughput_of, Shape};
use testbench::harness::stream::{Sink, Source};
use testbench::harness::Scenario;

#[test]
fn random_frames_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::TxPipeRandom.run(seed, 300_000, None);
    println!("{o:?}");
    assert!(o.passed() && o.transactions > 10_000, "{o:?}; re-run: {}", o.rerun_command());
}

#[test]
fn payload_length_mismatch_is_padded_or_truncated_and_flagged() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::TxPipeBadInput.run(seed, 200_000, None);
    println!("{o:?}");
    assert!(
        o.passed() && o.get("bad_frames").unwrap() > 500.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

/// Back to back, no backpressure: one beat per clock for every size of the sweep, so every
/// frame with 60 bytes of payload or more leaves at 100 Gb/s or better.
#[test]
fn line_rate_without_backpressure() {
    for payload in [60u16, 61, 62, 63, 64, 100, 127, 256, 512, 1024, 1500, 4096] {
        for tele in [false, true] {
            let (frames, cycles, bpr, _fpc, gbps, bad) = throughput(payload, tele, 1.0, 300, 7);
            assert_eq!(bad, 0);
            assert!(frames >= 290, "{payload}: {frames} frames");
            assert!(bpr > 0.999, "payload {payload} tele {tele}: {bpr} beats per cycle over {cycles}");
            assert!(gbps >= 100.0, "payload {payload} tele {tele}: {gbps} Gb/s");
        }
    }
}

/// Streams of the short frames: one-beat ACKs (62 bytes) leave one per clock; two-beat READ
/// requests and CNPs (74 bytes) and ACKs with telemetry (106) one per two clocks.
#[test]
fn short_frames_back_to_back() {
    for (op, tele, beats) in [
        (Opcode::Acknowledge, false, 1.0),
        (Opcode::Acknowledge, true, 2.0),
        (Opcode::RdmaReadRequest, false, 2.0),
        (Opcode::Cnp, false, 2.0),
        (Opcode::HpccProbe, true, 2.0),
    ] {
        let (frames, cycles, bpr, fpc, _, bad) = throughput_of(op, 0, tele, 1.0, 500, 3);
        println!("{op:?} tele {tele}: {frames} frames in {cycles} cycles, {bpr} beats per ready cycle");
        assert_eq!(bad, 0);
        assert!(bpr > 0.999 && (fpc * beats - 1.0).abs() < 0.01, "{op:?}: {fpc} frames per cycle");
    }
}

/// The frames the RTL emitted, in a pcap, decoded by tshark: opcode, PSN, DestQP, IPv4 checksum
/// status and ICRC of every frame as built, nothing malformed.
#[test]
fn wireshark_decodes_the_emitted_frames() {
    if !tshark_available() {
        println!("SKIPPED: tshark not installed (.ci/deps installs it)");
        return;
    }
    let r = run(Scenario::TxPipeRandom, 11, 40_000, &Shape::RANDOM, None, true);
    assert!(r.outcome.passed(), "{:?}", r.outcome);
    assert!(r.frames.len() > 1000);
    let dir = std::env::temp_dir().join(format!("hpcc-nic-tx-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("tx_pipe.pcap");
    write_pcap(&pcap, &r.frames).unwrap();
    let mut cmd = Command::new("tshark");
    cmd.arg("-r").arg(&pcap).args(["-d", "udp.port==4791,infiniband", "-o", "ip.check_checksum:TRUE"]);
    cmd.args(["-T", "fields", "-E", "separator=|", "-E", "occurrence=f"]);
    for f in [
        "infiniband.bth.opcode",
        "infiniband.bth.psn",
        "infiniband.bth.destqp",
        "ip.checksum.status",
        "infiniband.invariant.crc",
        "_ws.malformed",
    ] {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "tshark: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), r.frames.len());
    let mut icrc_shown = 0;
    for (i, (f, line)) in r.frames.iter().zip(&lines).enumerate() {
        let p = RocePacket::parse(f).unwrap_or_else(|e| panic!("frame {i}: {e:?}"));
        let got: Vec<Option<u64>> = line.split('|').map(tshark_number).collect();
        assert_eq!(got[0], Some(p.opcode() as u64), "frame {i} opcode: {line}");
        assert_eq!(got[1], Some(p.bth.psn as u64), "frame {i} PSN: {line}");
        assert_eq!(got[2], Some(p.bth.dest_qp as u64), "frame {i} DestQP: {line}");
        assert_eq!(got[3], Some(1), "frame {i} IPv4 checksum status: {line}");
        let wire = u32::from_be_bytes(f[f.len() - 4..].try_into().unwrap()) as u64;
        assert!(got[4].is_none_or(|v| v == wire), "frame {i} ICRC: {line}");
        if p.opcode().has_payload() {
            assert_eq!(got[4], Some(wire), "frame {i} ICRC: {line}");
        }
        icrc_shown += got[4].is_some() as u32;
        assert_eq!(got[5], None, "frame {i}: Wireshark calls it malformed: {line}");
    }
    println!("{} frames decoded, ICRC shown and equal on {icrc_shown}", r.frames.len());
    std::fs::remove_dir_all(&dir).ok();
}

/// rust-hdl's own simulator (the rust-hdl model of icrc_pipe inside): a few small frames.
#[test]
fn rust_hdl_simulation_builds_small_frames() {
    use hdl::tx_pipe::TxPipe;
    use rust_hdl::prelude::*;
    let mut uut = TxPipe::default();
    uut.connect_all();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut want = Vec::new();
    let mut descs = Vec::new();
    let mut beats = Vec::new();
    for len in [0u16, 13, 70] {
        let mut d = random_desc(&mut rng);
        d.opcode = Opcode::RdmaWriteMiddle;
        d.telemetry = (len == 13).then(Telemetry::collecting);
        d.payload_len = len;
        let payload: Vec<u8> = (0..len).map(|i| i as u8 ^ 0x5A).collect();
        want.push(tx_frame(&d, &payload).bytes);
        descs.push(d.to_bytes());
        for (j, c) in payload.chunks(64).enumerate() {
            let mut b = [0u8; 64];
            b[..c.len()].copy_from_slice(c);
            let keep = if c.len() == 64 { u64::MAX } else { (1u64 << c.len()) - 1 };
            beats.push((b, keep, (j + 1) * 64 >= payload.len()));
        }
    }
    let to1024 = |b: &[u8]| -> Bits<1024> {
        b.iter().rev().fold(Bits::<1024>::default(), |acc, &x| (acc << 8) | (x as u64))
    };
    let to512 = |b: &[u8]| -> Bits<512> {
        b.iter().rev().fold(Bits::<512>::default(), |acc, &x| (acc << 8) | (x as u64))
    };
    let (mut di, mut pi) = (0, 0);
    let mut frames = Vec::new();
    let mut frame = Vec::new();
    for cycle in 0..200 {
        uut.reset.next = cycle == 0;
        uut.s_axis_desc_tvalid.next = di < descs.len() && cycle > 0;
        uut.s_axis_desc_tdata.next = to1024(&descs[di.min(descs.len() - 1)]);
        let (b, keep, last) = beats[pi.min(beats.len() - 1)];
        uut.s_axis_payload_tvalid.next = pi < beats.len() && cycle > 0;
        uut.s_axis_payload_tdata.next = to512(&b);
        uut.s_axis_payload_tkeep.next = keep.into();
        uut.s_axis_payload_tlast.next = last;
        uut.m_axis_tready.next = true;
        uut.clock.next = Clock { clk: false };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        let took_desc = uut.s_axis_desc_tvalid.val() && uut.s_axis_desc_tready.val();
        let took_pay = uut.s_axis_payload_tvalid.val() && uut.s_axis_payload_tready.val();
        if uut.m_axis_tvalid.val() {
            let d = uut.m_axis_tdata.val();
            let n = uut.m_axis_tkeep.val().to_u64().trailing_ones() as usize;
            frame.extend((0..n).map(|i| d.get_bits::<8>(8 * i).to_u64() as u8));
            if uut.m_axis_tlast.val() {
                frames.push(std::mem::take(&mut frame));
            }
        }
        uut.clock.next = Clock { clk: true };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        di += took_desc as usize;
        pi += took_pay as usize;
    }
    assert_eq!(frames, want);
}


/// Cycles from the descriptor's handshake to the first `m_axis_tvalid` of a frame sent alone
/// (pipe idle, payload waiting, tready high): a frame shorter than START_LEVEL beats is stored
/// until its ICRC is known; a longer one starts once START_LEVEL beats are queued.
#[test]
fn latency_of_a_frame_sent_alone() {
    use testbench::verilated::models::TxPipe;
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut measured = vec![];
    for (op, len) in [(Opcode::Acknowledge, 0u16), (Opcode::RdmaWriteMiddle, 256), (Opcode::RdmaWriteMiddle, 4096)] {
        let mut d = random_desc(&mut rng);
        d.opcode = op;
        d.telemetry = None;
        d.payload_len = len;
        let frame = tx_frame(&d, &vec![7u8; d.effective_payload_len()]).bytes;
        let beats = frame.len().div_ceil(64);
        let mut dut = TxPipe::new();
        dut.set_reset(1);
        dut.tick();
        dut.set_reset(0);
        let mut desc: Source<TxPipe, [u8; 128]> = Source::new(TxPipe::S_AXIS_DESC);
        desc.push(d.to_bytes());
        // Whole beats of 7s, the last one flagged (the frame's length comes from the descriptor).
        let mut payload: Source<TxPipe, Beat> = Source::new(TxPipe::S_AXIS_PAYLOAD);
        let n = d.effective_payload_len().div_ceil(64);
        (0..n).for_each(|k| payload.push(Beat { data: [7; 64], keep: u64::MAX, last: k + 1 == n, user: false }));
        let mut sink = Sink::new(TxPipe::M_AXIS, 0.0);
        sink.set_ready(&mut dut, true);
        let mut first = None;
        let mut out = 0;
        for cycle in 0..400 {
            desc.offer(&mut dut, &mut rng);
            payload.offer(&mut dut, &mut rng);
            dut.eval();
            if cycle == 0 {
                assert!(desc.taken(&dut).is_some(), "descriptor taken on the first cycle");
            }
            if sink.take(&dut).is_some() {
                first.get_or_insert(cycle);
                out += 1;
            }
            payload.taken(&dut);
            dut.tick();
        }
        assert_eq!(out, beats, "{op:?} {len}: beats out");
        let first = first.unwrap();
        // Idle: the output beats of the frame are back to back.
        measured.push((op, len, beats, first));
    }
    println!("{measured:?}");
    let [(_, _, b0, l0), (_, _, b1, l1), (_, _, _, l2)] = measured[..] else { unreachable!() };
    let icrc = hdl::icrc_pipe::IcrcPipe::LATENCY;
    // A, B, F, then the frame's beats, icrc_pipe, CRC FIFO, output register.
    assert_eq!(l0, 3 + b0 + icrc + 1, "1-beat frame");
    assert_eq!(l1, 3 + b1 + icrc + 1, "5-beat frame");
    assert_eq!(l2, 3 + hdl::tx_pipe::START_LEVEL as usize + 1, "66-beat frame");
}

/// Every frame the NIC transaction model (`sim::nic_model`) sends on a lossy link, both
/// directions: WRITE First/Middle/Last/Only, READ requests and responses, ACKs, NAKs and the
/// go-back-N retransmissions after them, as descriptor + payload through the RTL (with input
/// gaps and backpressure): every one byte-identical to what the model sent. The frames step 2's
/// flow context must produce, built by step 1.
#[test]
fn nic_model_traffic_through_the_rtl() {
    let mut total = std::collections::BTreeMap::new();
    for seed in 1..=6 {
        for (k, n) in nic_model_run(seed) {
            *total.entry(k).or_insert(0) += n;
        }
    }
    println!("NIC model frames through the RTL, all identical: {total:?}");
    assert!(total["NAK"] > 0 && total["RdmaWriteFirst"] > 0 && total["RdmaReadResponseMiddle"] > 0);
}

/// One lossy-link run (seeded); returns the frames sent by kind.
fn nic_model_run(seed: u64) -> std::collections::BTreeMap<String, u32> {
    use sim::nic_model::*;
    use sim::tx_pipe::TxDesc;
    const MTU: u32 = 1024;
    let wire = |seed| WireConfig {
        delay: 30,
        loss_ppm: 50_000,
        reorder_ppm: 10_000,
        reorder_extra: 40,
        corrupt_ppm: 0,
        seed,
    };
    let mut l = Link::new(Nic::new(NicConfig::numbered(1)), Nic::new(NicConfig::numbered(2)), wire(seed), wire(seed + 100));
    l.connect(&Connection {
        qpn_a: 0x11,
        qpn_b: 0x22,
        flow_a: 1,
        flow_b: 2,
        mtu: MTU,
        psn_a: if seed % 2 == 1 { (1 << 24) - 20 } else { 1000 },
        psn_b: 7,
        window: 16 * MTU,
        rate: 256 << 16,
    })
    .unwrap();
    let mut rng = sim::nic_model::XorShift::new(seed);
    for k in 0..12u64 {
        let op = if k % 3 == 2 { Op::Read } else { Op::Write };
        let len = 1 + rng.below(20 * MTU as u64) as u32;
        let (local, remote) = (0x1000_0000 + k * 0x10_0000, 0x2000_0000 + k * 0x10_0000);
        match op {
            Op::Write => {
                l.a.mem.fill(local, len as u64, k).unwrap();
                l.b.mem.map(remote, len as u64).unwrap();
            }
            Op::Read => {
                l.a.mem.map(local, len as u64).unwrap();
                l.b.mem.fill(remote, len as u64, k).unwrap();
            }
        }
        l.a.post(0x11, WorkRequest { id: k, op, local_addr: local, remote_addr: remote, len }).unwrap();
    }
    // Link::step, keeping every frame a NIC sends.
    let mut sent: Vec<Vec<u8>> = Vec::new();
    let mut done = 0;
    for cycle in 0..400_000u64 {
        let to_a = l.ba.deliver(cycle);
        let to_b = l.ab.deliver(cycle);
        for f in l.a.step(to_a) {
            sent.push(f.clone());
            l.ab.send(cycle, f);
        }
        for f in l.b.step(to_b) {
            sent.push(f.clone());
            l.ba.send(cycle, f);
        }
        done += l.a.take_completions().len();
        if done == 12 {
            break;
        }
    }
    assert_eq!(done, 12, "seed {seed}: the model did not complete its work");
    let items: Vec<(TxDesc, Vec<u8>)> =
        sent.iter().map(|f| TxDesc::from_packet(&RocePacket::parse(f).unwrap())).collect();
    let r = testbench::harness::tx_pipe::send(seed, &items, &Shape::RANDOM, true);
    assert!(r.outcome.passed(), "seed {seed}: {:?}", r.outcome);
    assert_eq!(r.frames, sent, "seed {seed}: RTL frames differ from the model's");
    let mut ops = std::collections::BTreeMap::new();
    for f in &sent {
        let p = RocePacket::parse(f).unwrap();
        let key = match p.body.aeth().map(|a| a.syndrome) {
            Some(Syndrome::Nak(_)) => "NAK".to_string(),
            _ => format!("{:?}", p.opcode()),
        };
        *ops.entry(key).or_insert(0u32) += 1;
    }
    println!("seed {seed}: {} frames: {ops:?}", sent.len());
    ops
}

/// The cycle model's levels and latency are the RTL's (sim cannot read hdl's constants).
#[test]
fn cycle_model_constants_are_the_rtls() {
    use sim::tx_pipe::cycle as c;
    assert_eq!(c::FIFO_DEPTH as u64, hdl::tx_pipe::FIFO_DEPTH as u64);
    assert_eq!(c::START_LEVEL as u64, hdl::tx_pipe::START_LEVEL as u64);
    assert_eq!(c::CRC_LATENCY, hdl::icrc_pipe::IcrcPipe::LATENCY as u64 + 1);
}
