//! rx_pipe: the rust-hdl model of the block on a few frames (rust-hdl's simulator is slow), the
//! Verilated RTL on the edge cases (zero-length frames, IPv4 checksum 0xFFFF for a computed
//! 0x0000), and the capture path: a pcap of the regression's frames (valid and fuzzed) that
//! tshark must decode, fed through `hpcc-nic rx --model rtl` and `--model golden`, whose JSON
//! lines must be equal, and a pcap of the edge cases. Seeds are printed. The 10^5-frame
//! regressions are `hpcc-nic regress --only rx-random` and `--only rx-fuzz`.

use hdl::rx_pipe::RxPipe as Hdl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use sim::packet::capture::{tshark_available, tshark_number, write_pcap};
use sim::packet::{examples, RocePacket};
use sim::rx_pipe::{beats, Beat, RxPipe, Verdict};
use std::process::Command;
use testbench::harness::rx_pipe as h;

fn settle(m: &mut Hdl) {
    m.update_all();
    while m.has_changed() {
        m.update_all();
    }
}

fn drive(m: &mut Hdl, b: Option<&Beat>) {
    let mut data = Bits::<512>::default();
    if let Some(b) = b {
        for (i, byte) in b.data.iter().enumerate() {
            data = data | (bit_cast::<512, 8>((*byte as u64).into()) << (8 * i as u64));
        }
    }
    m.s_axis_tdata.next = data;
    m.s_axis_tkeep.next = b.map_or(0, |b| b.keep).into();
    m.s_axis_tlast.next = b.is_some_and(|b| b.last);
    m.s_axis_tuser.next = b.is_some_and(|b| b.user);
    m.s_axis_tvalid.next = b.is_some();
}

fn verdict_of(m: &Hdl) -> Verdict {
    let d = m.m_axis_verdict_tdata.val();
    let words: Vec<u32> = (0..20)
        .map(|i| d.get_bits::<32>(32 * i).to_u64() as u32)
        .collect();
    Verdict::from_words(&words)
}

#[test]
fn rust_hdl_model_judges_a_few_frames_like_the_golden_model() {
    let mut frames: Vec<Vec<Beat>> = examples()
        .iter()
        .take(4)
        .map(|(_, p)| beats(&p.build()))
        .collect();
    let mut bad = beats(&examples()[1].1.build());
    bad[0].data[24] ^= 1; // IPv4 checksum
    frames.push(bad);
    let mut hole = beats(&examples()[2].1.build());
    hole[0].keep &= !(1 << 9);
    frames.push(hole);
    frames.push(beats(&[])); // zero-length: truncated
    let mut ffff = examples()[3].1.build();
    h::zero_ip_checksum(&mut ffff, true); // accepted
    frames.push(beats(&ffff));
    let mut model = RxPipe::new();
    let want: Vec<Verdict> = frames
        .iter()
        .flatten()
        .filter_map(|b| model.beat(b.clone()))
        .collect();

    let mut m = Hdl::default();
    m.connect_all();
    let queue: Vec<Beat> = frames.into_iter().flatten().collect();
    let (mut next, mut got) = (0usize, vec![]);
    for cycle in 0..90 {
        let reset = cycle < 2;
        let beat = if reset { None } else { queue.get(next) };
        m.reset.next = reset;
        m.m_axis_verdict_tready.next = true;
        m.stat_addr.next = 0.into();
        drive(&mut m, beat);
        m.clock.next = Clock { clk: false };
        settle(&mut m);
        if beat.is_some() && m.s_axis_tready.val() {
            next += 1;
        }
        if !reset && m.m_axis_verdict_tvalid.val() {
            got.push(verdict_of(&m));
        }
        m.clock.next = Clock { clk: true };
        settle(&mut m);
    }
    assert_eq!(got, want);
    assert_eq!(
        got.iter().map(|v| v.code).collect::<Vec<_>>(),
        [0, 0, 0, 0, 5, 26, 1, 0]
    );
    m.stat_addr.next = 5.into();
    settle(&mut m);
    assert_eq!(
        m.stat_count.val().to_u64(),
        1,
        "one IPv4 checksum drop counted"
    );
}

/// The edge cases of the two fixes, as frames (bytes): zero-length frames alone, back to back
/// and between others; IPv4 checksums of 0x0000 sent as 0xFFFF and as 0x0000 on every example;
/// 0xFFFF where the computed checksum is not 0 (wrong); and their verdict codes.
fn edge_frames() -> Vec<(Vec<u8>, u8)> {
    let mut out = vec![(vec![], 1)];
    for (i, (_, p)) in examples().iter().enumerate() {
        let f = p.build();
        let mut ffff = f.clone();
        h::zero_ip_checksum(&mut ffff, true);
        let mut zero = f.clone();
        h::zero_ip_checksum(&mut zero, false);
        let mut wrong = f.clone();
        assert_ne!(&f[24..26], &[0, 0]);
        wrong[24..26].copy_from_slice(&[0xFF, 0xFF]);
        out.extend([(ffff, 0), (vec![], 1), (zero, 0), (wrong, 5), (f, 0)]);
        if i % 3 == 0 {
            out.extend([(vec![], 1), (vec![], 1)]);
        }
    }
    out.push((vec![], 1));
    out
}

#[test]
fn verilated_rtl_judges_zero_length_and_0xffff_checksum_frames_like_the_model() {
    let cases = edge_frames();
    // As beats, plus a zero-length frame with tuser (25) and a frame ending on an empty beat
    // after a full one (26, a keep hole: only a frame's only beat may keep nothing).
    let mut frames: Vec<(Vec<Beat>, u8)> = cases.iter().map(|(f, c)| (beats(f), *c)).collect();
    let mut user = beats(&[]);
    user[0].user = true;
    frames.insert(3, (user, 25));
    let mut trailing = beats(&examples()[0].1.build()[..64]);
    trailing[0].last = false;
    trailing.extend(beats(&[]));
    frames.insert(5, (trailing, 26));
    let mut model = RxPipe::new();
    let want: Vec<Verdict> = frames
        .iter()
        .flat_map(|(b, _)| b.clone())
        .filter_map(|b| model.beat(b))
        .collect();
    let codes: Vec<u8> = frames.iter().map(|(_, c)| *c).collect();
    assert_eq!(want.iter().map(|v| v.code).collect::<Vec<_>>(), codes);
    assert!(want.iter().filter(|v| v.code == 1).all(|v| v.len == 0));
    // At one beat per clock with the output always ready, then with gaps and backpressure.
    for (gap, bp) in [(0.0, 0.0), (0.1, 0.3)] {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut dut = h::open(None);
        let s = h::stream(
            &mut dut,
            frames.iter().map(|(b, _)| b.clone()),
            gap,
            bp,
            &mut rng,
            100_000,
        );
        assert_eq!(s.first_cycle_error, None);
        assert_eq!(
            s.verdicts.len(),
            want.len(),
            "a verdict per frame (gap {gap})"
        );
        for (i, (r, m)) in s.verdicts.iter().zip(&want).enumerate() {
            assert_eq!(r, m, "frame {i} (gap {gap}, backpressure {bp})");
        }
        assert_eq!(h::counters(&mut dut), model.counters);
    }
}

#[test]
fn rx_cli_prints_a_line_for_zero_length_and_0xffff_checksum_frames() {
    let cases = edge_frames();
    let frames: Vec<Vec<u8>> = cases.iter().map(|(f, _)| f.clone()).collect();
    let dir = std::env::temp_dir().join(format!("hpcc-nic-rx-edge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("edge.pcap");
    write_pcap(&pcap, &frames).unwrap();
    let p = pcap.to_str().unwrap();
    let golden = hpcc_nic(&["rx", "--pcap", p, "--model", "golden"]);
    let rtl = hpcc_nic(&["rx", "--pcap", p, "--model", "rtl"]);
    assert_eq!(golden.lines().count(), frames.len());
    assert_eq!(rtl, golden);
    for (i, (line, (_, code))) in golden.lines().zip(&cases).enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["frame"], i, "{line}");
        assert_eq!(v["code"], *code, "{line}");
        let name = match code {
            0 => "accepted",
            1 => "truncated",
            _ => "bad_ipv4_checksum",
        };
        assert_eq!(v["verdict"], name, "{line}");
        if *code == 1 {
            assert_eq!(v["len"], 0, "{line}");
        }
    }
    // Wireshark agrees on every IPv4 checksum: Good (1) where accepted, Bad (0) where not.
    if !tshark_available() {
        println!("SKIPPED: tshark not installed (.ci/deps installs it)");
    } else {
        let out = Command::new("tshark")
            .arg("-r")
            .arg(&pcap)
            .args(["-o", "ip.check_checksum:TRUE", "-T", "fields"])
            .args(["-e", "ip.checksum.status"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), frames.len());
        for (i, (status, (_, code))) in text.lines().zip(&cases).enumerate() {
            let want = match code {
                0 => "1",
                5 => "0",
                _ => "",
            };
            assert_eq!(status, want, "frame {i}: Wireshark's IPv4 checksum status");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A tshark field that must be a number.
fn number(s: &str, line: &str) -> u64 {
    tshark_number(s).unwrap_or_else(|| panic!("not a number: {s:?} in {line:?}"))
}

fn hpcc_nic(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hpcc-nic"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "hpcc-nic {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn capture_decodes_in_tshark_and_rx_rtl_equals_golden() {
    // RX_SEED=<n> replays a run.
    let seed = std::env::var("RX_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| rand::random::<u32>() as u64);
    println!(
        "seed {seed} (replay: RX_SEED={seed} cargo test --release -p testbench --test rx_pipe)"
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The regression's frames, as bytes: valid ones and byte-level fuzz (a pcap has no tkeep,
    // tuser or tlast).
    let frames: Vec<Vec<u8>> = (0..600)
        .map(|i| {
            if i % 2 == 0 {
                h::valid_frame(&mut rng)
            } else {
                let b = h::fuzz_frame(&mut rng);
                let mut f: Vec<u8> = b.iter().flat_map(|b| b.data).collect();
                f.truncate(
                    64 * (b.len() - 1) + (64 - b.last().unwrap().keep.leading_zeros() as usize),
                );
                if rng.gen_bool(0.01) {
                    f.push(rng.gen());
                }
                f
            }
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("hpcc-nic-rx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("rx.pcap");
    write_pcap(&pcap, &frames).unwrap();

    let rtl = hpcc_nic(&["rx", "--pcap", pcap.to_str().unwrap(), "--model", "rtl"]);
    let golden = hpcc_nic(&["rx", "--pcap", pcap.to_str().unwrap(), "--model", "golden"]);
    assert_eq!(rtl.lines().count(), frames.len(), "seed {seed}");
    for (i, (r, g)) in rtl.lines().zip(golden.lines()).enumerate() {
        assert_eq!(r, g, "frame {i}, seed {seed}");
    }
    let accepted = golden
        .lines()
        .filter(|l| l.contains("\"verdict\":\"accepted\""))
        .count();
    assert!(accepted >= 300, "{accepted} accepted, seed {seed}");

    if !tshark_available() {
        println!("SKIPPED: tshark not installed (.ci/deps installs it)");
        return;
    }
    let out = Command::new("tshark")
        .arg("-r")
        .arg(&pcap)
        .args([
            "-d",
            "udp.port==4791,infiniband",
            "-T",
            "fields",
            "-E",
            "separator=|",
        ])
        .args([
            "-E",
            "occurrence=f",
            "-e",
            "frame.len",
            "-e",
            "infiniband.bth.opcode",
        ])
        .args([
            "-e",
            "infiniband.bth.destqp",
            "-e",
            "infiniband.bth.psn",
            "-e",
            "_ws.malformed",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tshark: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), frames.len(), "tshark reads every frame");
    for (i, f) in frames.iter().enumerate().step_by(2) {
        let p = RocePacket::parse(f).unwrap();
        let got: Vec<&str> = lines[i].split('|').collect();
        assert_eq!(number(got[0], lines[i]), f.len() as u64, "frame {i}");
        assert_eq!(
            number(got[1], lines[i]),
            p.opcode() as u64,
            "frame {i}: opcode"
        );
        assert_eq!(
            number(got[2], lines[i]),
            p.bth.dest_qp as u64,
            "frame {i}: QPN"
        );
        assert_eq!(number(got[3], lines[i]), p.bth.psn as u64, "frame {i}: PSN");
        assert_eq!(
            got[4], "",
            "frame {i}: Wireshark calls a valid frame malformed"
        );
    }
}

/// The cycle model's latency is the RTL's (sim cannot read hdl's constants).
#[test]
fn cycle_model_latency_is_the_rtls() {
    assert_eq!(sim::rx_pipe::cycle::LATENCY, hdl::rx_pipe::LATENCY as u64 + 1);
    assert_eq!(sim::result_fifo::DEPTH, 1 << hdl::result_fifo::DEPTH_BITS);
}
