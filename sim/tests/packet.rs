//! Packet formats: round trips, every drop reason, ICRC test vectors, telemetry wrap, the
//! generated examples of docs/packet-formats.md, and Wireshark's decoding of every example.

use sim::packet::capture::*;
use sim::packet::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn example(name: &str) -> RocePacket {
    examples()
        .into_iter()
        .find(|(n, _)| n.starts_with(name))
        .unwrap()
        .1
}

/// Rewrites IPv4 bytes 10-11 after an in-flight edit, as a router does.
fn fix_ip_checksum(f: &mut [u8]) {
    let c = ipv4_checksum(&f[14..34]);
    f[24..26].copy_from_slice(&c.to_be_bytes());
}

/// Rewrites IPv4 total length, UDP length and the IPv4 checksum after a length change.
fn fix_lengths(f: &mut [u8]) {
    let n = f.len();
    f[16..18].copy_from_slice(&((n - 14) as u16).to_be_bytes());
    f[38..40].copy_from_slice(&((n - 34) as u16).to_be_bytes());
    fix_ip_checksum(f);
}

/// Recomputes the ICRC of an edited frame so that only the edit under test is wrong.
fn fix_icrc(f: &mut [u8], collecting_telemetry_at: Option<usize>) {
    let n = f.len() - 4;
    let c = icrc(&f[..n], collecting_telemetry_at);
    f[n..].copy_from_slice(&c.to_le_bytes());
}

#[test]
fn every_example_round_trips() {
    for (name, p) in examples() {
        let bytes = p.build();
        let back = RocePacket::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, p, "{name}");
        assert_eq!(back.build(), bytes, "{name}");
        assert_eq!(bytes.len() % 2, 0, "{name}: IB payload is 4-byte aligned");
        assert_eq!((bytes.len() - BTH_OFFSET) % 4, 0, "{name}");
    }
}

#[test]
fn opcodes_and_offsets() {
    for (name, p) in examples() {
        let bytes = p.build();
        let (_, layout) = RocePacket::parse_with_layout(&bytes).unwrap();
        let op = p.opcode();
        assert_eq!(bytes[BTH_OFFSET], op as u8, "{name}");
        assert_eq!(Opcode::from_u8(op as u8), Some(op));
        let ext = if op.has_reth() {
            RETH_LEN
        } else if op.has_aeth() {
            AETH_LEN
        } else {
            0
        };
        assert_eq!(layout.ext.is_some(), ext > 0, "{name}");
        let t = layout.telemetry.map_or(0, |_| TELEMETRY_LEN);
        assert_eq!(layout.payload, BTH_OFFSET + BTH_LEN + ext + t, "{name}");
        assert_eq!(layout.icrc, bytes.len() - ICRC_LEN, "{name}");
        assert_eq!(
            bytes[BTH_OFFSET + 8] & BTH_TELEMETRY_FLAG != 0,
            p.telemetry.is_some(),
            "{name}"
        );
    }
    for v in 0..=255u8 {
        if let Some(op) = Opcode::from_u8(v) {
            assert_eq!(op as u8, v);
        }
    }
}

/// A frame a ConnectX-4 Lx sent (a CNP; published in scapy's RoCE tests): our parser accepts
/// it, so the ICRC, its masks and its byte order match real hardware.
#[test]
fn icrc_matches_captured_connectx4_cnp() {
    let hex = "e41d2dab2bc27cfe90643b32080045c2003c718c4000401191610a0011010a001201\
               000012b700280000\
               8100ffff4000011800000000\
               00000000000000000000000000000000\
               82fd002a";
    let f: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    assert_eq!(rocev2_icrc(&f[..f.len() - 4]), 0x2a00fd82);
    let p = RocePacket::parse(&f).unwrap();
    assert_eq!(p.opcode(), Opcode::Cnp);
    assert!(p.bth.becn && !p.bth.fecn);
    assert_eq!(p.bth.dest_qp, 0x118);
    assert_eq!((p.ip.dscp, p.ip.ecn), (48, Ecn::Ect0));
    assert_eq!(
        p.build(),
        f,
        "our CNP builder reproduces the captured frame"
    );
}

/// scapy's RoCE UC SEND Only test vector (opcode 0x24, which the NIC does not use, so checked
/// with the checksum and ICRC functions directly): IPv4 checksum 0xb4d5, UDP checksum 0xaca2,
/// ICRC bytes 78 f3 53 f3.
#[test]
fn icrc_matches_scapy_uc_send_only() {
    let mut f = vec![
        0x24, 0x8a, 0x07, 0xa8, 0xfa, 0x22, 0x24, 0x8a, 0x07, 0xa8, 0xfa, 0x22, 0x08, 0x00,
    ];
    let ip = Ipv4 {
        dscp: 0,
        ecn: Ecn::Ect1,
        identification: 1144,
        dont_fragment: true,
        ttl: 64,
        src: [192, 168, 0, 7],
        dst: [192, 168, 0, 7],
    };
    let iph = ip.build(64);
    assert_eq!(u16::from_be_bytes([iph[10], iph[11]]), 0xb4d5);
    f.extend_from_slice(&iph);
    f.extend_from_slice(&[0xc0, 0x00, 0x12, 0xb7, 0x00, 44, 0, 0]);
    f.extend_from_slice(&[
        0x24, 0x60, 0xff, 0xff, 0x00, 0x00, 0x00, 211, 0x00, 0xCF, 0x17, 0x10,
    ]);
    f.extend_from_slice(b"F0\x81\x8b\xe2\x895\xd9\x0e\x9a\x95PT\x01\xbe\x88^P\x00\x00");
    let c = rocev2_icrc(&f);
    f.extend_from_slice(&c.to_le_bytes());
    assert_eq!(&f[f.len() - 4..], &[0x78, 0xf3, 0x53, 0xf3]);
    let u = udp_checksum(ip.src, ip.dst, &f[34..]);
    assert_eq!(u, 0xaca2);
    // The UDP checksum is masked out of the ICRC: filling it in changes nothing.
    f[40..42].copy_from_slice(&u.to_be_bytes());
    assert_eq!(rocev2_icrc(&f[..f.len() - 4]), c);
    // Our parser checks the nonzero UDP checksum before it meets the unknown opcode.
    assert_eq!(RocePacket::parse(&f), Err(ParseError::UnknownOpcode(0x24)));
    f[40] ^= 1;
    assert!(
        matches!(RocePacket::parse(&f), Err(ParseError::BadUdpChecksum { found, expected: 0xaca2 }) if found == 0xaca2 ^ 0x100)
    );
}

#[test]
fn outer_headers_agree_with_etherparse() {
    use etherparse::{NetHeaders, PacketHeaders, TransportHeader};
    for (name, p) in examples() {
        let bytes = p.build();
        let h =
            PacketHeaders::from_ethernet_slice(&bytes).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let Some(NetHeaders::Ipv4(ip, _)) = h.net else {
            panic!("{name}: no IPv4")
        };
        assert_eq!(ip.header_checksum, ip.calc_header_checksum(), "{name}");
        assert_eq!(ip.total_len as usize, bytes.len() - ETH_LEN, "{name}");
        assert_eq!(ip.dscp.value(), p.ip.dscp, "{name}");
        assert_eq!(ip.ecn.value(), p.ip.ecn as u8, "{name}");
        assert_eq!(ip.time_to_live, p.ip.ttl);
        let Some(TransportHeader::Udp(udp)) = h.transport else {
            panic!("{name}: no UDP")
        };
        assert_eq!(udp.destination_port, ROCEV2_UDP_PORT);
        assert_eq!(
            udp.length as usize,
            bytes.len() - BTH_OFFSET + UDP_LEN,
            "{name}"
        );
        assert_eq!(udp.checksum, 0);
    }
}

#[test]
fn variant_fields_do_not_change_the_icrc() {
    let p = example("RDMA WRITE Middle");
    let (_, layout) = RocePacket::parse_with_layout(&p.build()).unwrap();
    let t = layout.telemetry.unwrap();
    let mut f = p.build();
    // A switch: TTL down, DSCP remarked, CE marked, FECN set, a third hop pushed.
    f[22] -= 1;
    f[15] = 10 << 2 | Ecn::Ce as u8;
    fix_ip_checksum(&mut f);
    f[BTH_OFFSET + 4] |= 0x80;
    let hop = IntHop::from_counters(2_000_000, 5_000, 0, LineRate::G400);
    f[t + 1] = 3;
    f[t + 4 + 16..t + 4 + 24].copy_from_slice(&hop.word().to_be_bytes());
    let q = RocePacket::parse(&f).expect("ICRC survives in-flight edits");
    assert_eq!(q.ip.ttl, 63);
    assert_eq!((q.ip.dscp, q.ip.ecn), (10, Ecn::Ce));
    assert!(q.bth.fecn);
    assert_eq!(q.telemetry.unwrap().hops[2], hop);
    // Echoed telemetry is covered: editing it breaks the ICRC.
    let mut f = example("Acknowledge: ACK").build();
    let t = RocePacket::parse_with_layout(&f)
        .unwrap()
        .1
        .telemetry
        .unwrap();
    f[t + 5] ^= 1;
    assert!(matches!(
        RocePacket::parse(&f),
        Err(ParseError::BadIcrc { .. })
    ));
    // So are the invariant fields (PSN here).
    let mut f = p.build();
    f[BTH_OFFSET + 11] ^= 1;
    assert!(matches!(
        RocePacket::parse(&f),
        Err(ParseError::BadIcrc { .. })
    ));
}

#[test]
fn every_drop_reason() {
    use ParseError::*;
    let good = example("RDMA WRITE First").build();
    let (_, layout) = RocePacket::parse_with_layout(&good).unwrap();
    let t = layout.telemetry.unwrap();
    let err = |f: &[u8]| RocePacket::parse(f).unwrap_err();
    // Edits inside the IPv4 header keep its checksum right; the ICRC is fixed up too unless
    // the test is about it.
    let edit = |at: usize, v: u8, ip: bool, icrc_at: Option<Option<usize>>| {
        let mut f = good.clone();
        f[at] = v;
        if ip {
            fix_ip_checksum(&mut f);
        }
        if let Some(tel) = icrc_at {
            fix_icrc(&mut f, tel);
        }
        f
    };
    let mut seen = Vec::new();
    let mut check = |e: ParseError, want: ParseError| {
        assert_eq!(e, want);
        seen.push(e.code());
    };

    check(
        err(&good[..10]),
        Truncated {
            header: Header::Ethernet,
            offset: 0,
            end: 10,
        },
    );
    check(
        err(&edit(12, 0x81, false, None)),
        UnsupportedEtherType(0x8100),
    );
    check(
        err(&good[..30]),
        Truncated {
            header: Header::Ipv4,
            offset: 14,
            end: 30,
        },
    );
    check(err(&edit(14, 0x65, true, None)), NotIpv4 { version: 6 });
    check(err(&edit(14, 0x46, true, None)), Ipv4Options { ihl: 6 });
    let mut f = good.clone();
    f[25] ^= 0xFF;
    let expected = ipv4_checksum(&good[14..34]);
    check(
        err(&f),
        BadIpv4Checksum {
            found: expected ^ 0xFF,
            expected,
        },
    );
    let total = (good.len() - 14) as u16;
    check(
        err(&good[..good.len() - 1]),
        Ipv4LengthMismatch {
            total_len: total,
            available: total as usize - 1,
        },
    );
    check(err(&edit(20, 0x20, true, None)), Ipv4Fragmented);
    check(err(&edit(23, 6, true, None)), NotUdp { protocol: 6 });
    check(
        err(&edit(39, good[39] + 1, false, None)),
        UdpLengthMismatch {
            udp_len: total - 20 + 1,
            expected: total - 20,
        },
    );
    check(
        err(&edit(37, 0xb8, false, None)),
        WrongUdpPort { port: 4792 },
    );
    let mut f = good.clone();
    f[40] = 0x12;
    let expected = udp_checksum([10, 0, 0, 1], [10, 0, 0, 2], &f[34..]);
    check(
        err(&f),
        BadUdpChecksum {
            found: 0x1200,
            expected,
        },
    );
    // A datagram too short for BTH + ICRC.
    let mut f = good[..BTH_OFFSET + 8].to_vec();
    fix_lengths(&mut f);
    check(
        err(&f),
        Truncated {
            header: Header::Bth,
            offset: BTH_OFFSET,
            end: BTH_OFFSET + 8,
        },
    );
    check(
        err(&edit(BTH_OFFSET + 1, 0x01, false, Some(Some(t)))),
        BadBthVersion { tver: 1 },
    );
    check(
        err(&edit(BTH_OFFSET, 0x04, false, Some(Some(t)))),
        UnknownOpcode(0x04),
    );
    let ack = example("Acknowledge: NAK").build();
    let mut f = ack.clone();
    f[BTH_OFFSET + BTH_LEN] = 0x40;
    fix_icrc(&mut f, None);
    check(err(&f), BadAethSyndrome(0x40));
    f[BTH_OFFSET + BTH_LEN] = 0x80;
    check(err(&f), BadAethSyndrome(0x80));
    let mut f = example("CNP").build();
    f[BTH_OFFSET + 8] |= BTH_TELEMETRY_FLAG;
    check(err(&f), UnexpectedTelemetry { opcode: 0x81 });
    let mut f = example("HPCC++ probe").build();
    f[BTH_OFFSET + 8] &= !BTH_TELEMETRY_FLAG;
    check(err(&f), MissingTelemetry { opcode: 0xC0 });
    check(err(&edit(t, 0x20, false, None)), BadTelemetryVersion(2));
    check(
        err(&edit(t, 0x18, false, None)),
        TelemetryModeMismatch {
            opcode: 0x06,
            echo: true,
        },
    );
    check(
        err(&edit(t + 1, 6, false, None)),
        HopCountOutOfRange { nhop: 6 },
    );
    let mut f = good.clone();
    f[t + 1] = 1;
    f[t + 4] = 5 << 5;
    check(err(&f), UnknownLineRate { hop: 0, code: 5 });
    // CNP with 20 body bytes instead of 16.
    let mut f = example("CNP").build();
    f.splice(f.len() - 4..f.len() - 4, [0u8; 4]);
    fix_lengths(&mut f);
    check(err(&f), BadCnpLength { len: 20 });
    // ACK with 4 stray bytes.
    let mut f = ack.clone();
    f.splice(f.len() - 4..f.len() - 4, [0u8; 4]);
    fix_lengths(&mut f);
    check(
        err(&f),
        UnexpectedPayload {
            opcode: 0x11,
            len: 4,
        },
    );
    let mut f = ack.clone();
    f[BTH_OFFSET + 1] |= 0x10;
    check(
        err(&f),
        BadPadCount {
            pad: 1,
            payload_len: 0,
        },
    );
    // PadCnt on a data packet without payload.
    let mut p = example("RDMA WRITE Middle");
    p.body = Body::WriteMiddle { payload: vec![] };
    p.telemetry = None;
    let mut f = p.build();
    f[BTH_OFFSET + 1] |= 0x20;
    check(
        err(&f),
        BadPadCount {
            pad: 2,
            payload_len: 0,
        },
    );
    let mut f = good.clone();
    let n = f.len();
    f[n - 1] ^= 0x80;
    let expected = u32::from_le_bytes(good[n - 4..].try_into().unwrap());
    check(
        err(&f),
        BadIcrc {
            found: expected ^ 0x8000_0000,
            expected,
        },
    );

    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        (1..=24).collect::<Vec<u8>>(),
        "every drop reason exercised"
    );
}

#[test]
fn ipv4_checksum_0xffff_is_taken_where_0x0000_is_computed() {
    // A header whose computed checksum is 0x0000: both one's-complement zeros are right.
    let mut p = example("RDMA WRITE First");
    let total_len = (p.build().len() - 14) as u16;
    p.ip.identification = ipv4_id_for_zero_checksum(&p.ip, total_len);
    let mut f = p.build();
    assert_eq!(ipv4_checksum(&f[14..34]), 0);
    assert_eq!(RocePacket::parse(&f).as_ref(), Ok(&p), "0x0000");
    f[24..26].copy_from_slice(&[0xFF, 0xFF]); // outside the ICRC
    assert_eq!(RocePacket::parse(&f).as_ref(), Ok(&p), "0xFFFF");
    // The rule on any header: right is the computed value, or 0xFFFF for a computed 0.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut zeros = 0;
    for i in 0..200_000 {
        let mut h: Vec<u8> = (0..20).map(|_| next() as u8).collect();
        if i % 2 == 0 {
            // Half of them with a computed checksum of 0 (identification chosen for it).
            h[4] = 0;
            h[5] = 0;
            let c = ipv4_checksum(&h);
            h[4..6].copy_from_slice(&c.to_be_bytes());
        }
        let expected = ipv4_checksum(&h);
        zeros += (expected == 0) as u32;
        let r = next() as u16;
        for found in [expected, 0x0000, 0xFFFF, r, expected ^ 1] {
            h[10..12].copy_from_slice(&found.to_be_bytes());
            assert_eq!(
                ipv4_header_sum_ok(&h),
                found == expected || (expected == 0 && found == 0xFFFF),
                "header {h:02x?}, found {found:#06x}, expected {expected:#06x}"
            );
        }
    }
    assert!(zeros >= 100_000, "{zeros}: every other header has a computed 0");
}

#[test]
fn feedback_is_read_only_in_an_echo_without_hops() {
    // The example: E = 1, F = 1, nhop 0, W big-endian in header bytes 8-11 (slot 0's 4-7).
    let p = example("Acknowledge: ACK with Rx-HPCC feedback");
    let (_, l) = RocePacket::parse_with_layout(&p.build()).unwrap();
    let (f, t) = (p.build(), l.telemetry.unwrap());
    assert_eq!(f[t], 0x1C);
    assert_eq!(f[t + 1], 0);
    assert_eq!(f[t + 4..t + 8], [0; 4]);
    assert_eq!(f[t + 8..t + 12], (100_000u32 << 8).to_be_bytes());
    assert_eq!(RocePacket::parse(&f).unwrap(), p);
    // F beside hops is the reserved bit it always was: ignored, the hops stand.
    let two = example("Acknowledge: ACK echoing two hops");
    let mut g = two.build();
    g[t] |= TELEMETRY_FEEDBACK;
    fix_icrc(&mut g, None);
    assert_eq!(RocePacket::parse(&g).unwrap(), two);
    // F in a collecting header (a WRITE First): ignored too.
    let w = example("RDMA WRITE First");
    let (_, lw) = RocePacket::parse_with_layout(&w.build()).unwrap();
    let mut g = w.build();
    let at = lw.telemetry.unwrap();
    g[at] |= TELEMETRY_FEEDBACK;
    fix_icrc(&mut g, Some(at));
    assert_eq!(RocePacket::parse(&g).unwrap(), w);
}

#[test]
fn trailing_ethernet_padding_is_ignored() {
    let p = example("Acknowledge: NAK");
    let mut f = p.build();
    f.extend_from_slice(&[0; 6]);
    assert_eq!(RocePacket::parse(&f).unwrap(), p);
}

#[test]
fn hop_record_layout_and_wrap() {
    let h = IntHop {
        line_rate: LineRate::G400,
        ts: 0xABCDEF,
        tx_bytes: 0xFEDCB,
        qlen: 0x1_2345,
    };
    assert_eq!(
        h.word(),
        4 << 61 | 0xABCDEF << 37 | 0xFEDCB << 17 | 0x1_2345
    );
    assert_eq!(IntHop::from_word(h.word()), Ok(h));
    assert_eq!(IntHop::from_word(7 << 61), Err(7));
    // Counters wrap at the field width; the queue saturates.
    let h = IntHop::from_counters(
        (1 << 24) + 5,
        (1 << 27) + 128 * 7 + 100,
        80 << 20,
        LineRate::G100,
    );
    assert_eq!((h.ts, h.tx_bytes, h.qlen), (5, 7, (1 << 17) - 1));
    assert_eq!(h.qlen_bytes(), ((1 << 17) - 1) * 80);
    assert_eq!(LineRate::G100.bits_per_second(), 100_000_000_000);
    assert_eq!(LineRate::G25.bytes_per_ns(), 3.125);
    // Deltas across the wrap.
    assert_eq!(ts_delta_ns(3, (1 << 24) - 2), 5);
    assert_eq!(ts_delta_ns(10, 4), 6);
    assert_eq!(tx_bytes_delta(1, (1 << 20) - 1), 256);
    assert_eq!(tx_bytes_delta(0, 0), 0);
    // Against full-width counters: any interval shorter than the wrap period is exact.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..10_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let t0 = x >> 20;
        let b0 = x >> 3;
        let dt = x % (1 << 24);
        let db = (x >> 30) % (1 << 27) / 128 * 128;
        let a = IntHop::from_counters(t0, b0 / 128 * 128, 0, LineRate::G100);
        let b = IntHop::from_counters(t0 + dt, b0 / 128 * 128 + db, 0, LineRate::G100);
        assert_eq!(ts_delta_ns(b.ts, a.ts) as u64, dt);
        assert_eq!(tx_bytes_delta(b.tx_bytes, a.tx_bytes), db);
    }
    // Five slots; echoed headers are read-only for switches.
    let mut t = Telemetry::collecting();
    for i in 0..5 {
        assert!(t.push_hop(IntHop::from_counters(i, i, i, LineRate::G25)));
    }
    assert!(!t.push_hop(IntHop::from_counters(9, 9, 9, LineRate::G25)));
    assert_eq!(t.hops.len(), MAX_HOPS);
    let mut e = t.echoed();
    assert!(!e.push_hop(IntHop::from_counters(9, 9, 9, LineRate::G25)));
    let mut p = example("HPCC++ probe");
    p.telemetry = Some(t);
    assert_eq!(RocePacket::parse(&p.build()).unwrap(), p);
    e.hops.truncate(0);
    let mut r = example("HPCC++ telemetry response");
    r.telemetry = Some(e);
    assert_eq!(RocePacket::parse(&r.build()).unwrap(), r);
}

#[test]
fn random_packets_round_trip() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let bodies = examples();
    for _ in 0..2000 {
        let mut p = bodies[next() as usize % bodies.len()].1.clone();
        let r = next();
        p.ip.dscp = (r & 63) as u8;
        p.ip.ecn = Ecn::from_bits((r >> 6) as u8);
        p.ip.ttl = (r >> 8) as u8;
        p.ip.identification = (r >> 16) as u16;
        p.udp_src_port = (r >> 32) as u16;
        p.bth.psn = (r >> 40) as u32 & 0xFF_FFFF;
        p.bth.dest_qp = next() as u32 & 0xFF_FFFF;
        p.bth.fecn = r & 1 != 0;
        let len = next() as usize % 64;
        if let Some(payload) = p.body.payload_mut() {
            *payload = (0..len).map(|_| next() as u8).collect();
        }
        if let Some(t) = p.telemetry.as_mut().filter(|t| t.feedback.is_some()) {
            t.feedback = Some(next() as u32);
        } else if let Some(t) = &mut p.telemetry {
            t.hops.clear();
            for _ in 0..next() % 6 {
                let w = next();
                t.hops
                    .push(IntHop::from_word(w & !(7 << 61) | (w % 5) << 61).unwrap());
            }
        }
        let f = p.build();
        assert_eq!(RocePacket::parse(&f).as_ref(), Ok(&p));
        // Any single bit flip in the invariant part is caught (by some check).
        let bit = next() as usize % (f.len() * 8);
        let mut g = f.clone();
        g[bit / 8] ^= 1 << (bit % 8);
        let (_, layout) = RocePacket::parse_with_layout(&f).unwrap();
        // Undetectable: MACs (the MAC's business), BTH byte 4 and collecting telemetry's hop
        // count and slots (ICRC-masked, written in flight). Everything else, pad bytes and
        // reserved bits included, is caught by a checksum, the ICRC or a structural check.
        let i = bit / 8;
        let variant = i < 12
            || i == BTH_OFFSET + 4
            || layout.telemetry.is_some_and(|t| {
                !p.telemetry.as_ref().unwrap().echo
                    && (i == t + 1 || (t + 4..t + TELEMETRY_LEN).contains(&i))
            });
        if !variant {
            assert!(
                RocePacket::parse(&g).is_err(),
                "flip of bit {bit} in {:?} undetected",
                p.opcode()
            );
        }
    }
}

/// The examples section of docs/packet-formats.md, generated.
fn examples_markdown() -> String {
    let mut s = String::from("<!-- examples:begin (generated by sim/tests/packet.rs; BLESS=1 cargo test -p sim --test packet rewrites it) -->\n");
    for (name, p) in examples() {
        let f = p.build();
        let hops = p
            .telemetry
            .as_ref()
            .map_or("no telemetry".to_string(), |t| {
                let f = t.feedback.map_or(String::new(), |w| format!(" F=1 W={w:#010x} ({} bytes)", w >> 8));
                format!("telemetry E={} nhop={}{f}", t.echo as u8, t.hops.len())
            });
        s += &format!(
            "\n#### {name}\n\nopcode {:#04x}, DestQP {:#08x}, PSN {}, {hops}, {} bytes, ICRC {:#010x}\n\n```\n{}```\n",
            p.opcode() as u8,
            p.bth.dest_qp,
            p.bth.psn,
            f.len(),
            u32::from_le_bytes(f[f.len() - 4..].try_into().unwrap()),
            hexdump(&f)
        );
    }
    s + "\n<!-- examples:end -->"
}

fn docs_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/packet-formats.md")
}

#[test]
fn docs_examples_are_current() {
    let path = docs_path();
    let doc = std::fs::read_to_string(&path).expect("docs/packet-formats.md");
    let begin = doc
        .find("<!-- examples:begin")
        .expect("examples:begin marker");
    let end = doc
        .find("<!-- examples:end -->")
        .expect("examples:end marker")
        + "<!-- examples:end -->".len();
    let want = examples_markdown();
    if doc[begin..end] != want {
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&path, format!("{}{}{}", &doc[..begin], want, &doc[end..])).unwrap();
        } else {
            panic!("docs/packet-formats.md examples are stale: run BLESS=1 cargo test -p sim --test packet");
        }
    }
}

const TSHARK_FIELDS: [&str; 15] = [
    "infiniband.bth.opcode",
    "infiniband.bth.reserved7",
    "infiniband.bth.psn",
    "infiniband.bth.destqp",
    "infiniband.bth.p_key",
    "infiniband.bth.padcnt",
    "infiniband.bth.a",
    "infiniband.aeth.syndrome",
    "infiniband.aeth.msn",
    "infiniband.reth.va",
    "infiniband.reth.r_key",
    "infiniband.reth.dmalen",
    "ip.checksum.status",
    "ip.dsfield.dscp",
    "ip.dsfield.ecn",
];

/// What Wireshark should print for each field of `TSHARK_FIELDS`.
fn expected_fields(p: &RocePacket) -> Vec<String> {
    let b = &p.bth;
    let pad = (4 - p.body.payload().len() % 4) % 4;
    let reth = p.body.reth();
    let aeth = p.body.aeth();
    vec![
        (p.opcode() as u8).to_string(),
        if p.telemetry.is_some() { "64" } else { "0" }.into(), // our telemetry flag
        b.psn.to_string(),
        b.dest_qp.to_string(),
        b.pkey.to_string(),
        pad.to_string(),
        (b.ack_req as u8).to_string(),
        aeth.map_or(String::new(), |a| a.syndrome.bits().to_string()),
        aeth.map_or(String::new(), |a| a.msn.to_string()),
        reth.map_or(String::new(), |r| r.va.to_string()),
        reth.map_or(String::new(), |r| r.rkey.to_string()),
        reth.map_or(String::new(), |r| r.dma_len.to_string()),
        "1".into(), // PROTO_CHECKSUM_E_GOOD
        p.ip.dscp.to_string(),
        (p.ip.ecn as u8).to_string(),
    ]
}

#[test]
fn wireshark_decodes_every_example() {
    if !tshark_available() {
        println!("SKIPPED: tshark not installed (.ci/deps installs it)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("hpcc-nic-packet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pcap = dir.join("examples.pcap");
    let ex = examples();
    write_pcap(
        &pcap,
        &ex.iter().map(|(_, p)| p.build()).collect::<Vec<_>>(),
    )
    .unwrap();
    let mut cmd = Command::new("tshark");
    cmd.arg("-r").arg(&pcap).args([
        "-d",
        "udp.port==4791,infiniband",
        "-o",
        "ip.check_checksum:TRUE",
    ]);
    cmd.args(["-T", "fields", "-E", "separator=|", "-E", "occurrence=f"]);
    for f in TSHARK_FIELDS.iter().chain(&[
        "infiniband.invariant.crc",
        "_ws.malformed",
        "_ws.expert.severity",
    ]) {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tshark: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), ex.len(), "{text}");
    for ((name, p), line) in ex.iter().zip(&lines) {
        let got: Vec<&str> = line.split('|').collect();
        let want = expected_fields(p);
        for (i, field) in TSHARK_FIELDS.iter().enumerate() {
            assert_eq!(
                tshark_number(got[i]),
                tshark_number(&want[i]),
                "{name}: {field} (line: {line})"
            );
        }
        // Wireshark shows the ICRC as the 4 wire bytes read big-endian, where it finds one
        // (not after a telemetry header on an ACK, nor on opcodes it does not know).
        let f = p.build();
        let wire = u32::from_be_bytes(f[f.len() - 4..].try_into().unwrap()) as u64;
        let icrc_shown = tshark_number(got[TSHARK_FIELDS.len()]);
        assert!(
            icrc_shown.is_none_or(|v| v == wire),
            "{name}: ICRC (line: {line})"
        );
        if p.opcode().has_payload() {
            assert_eq!(icrc_shown, Some(wire), "{name}: ICRC (line: {line})");
        }
        assert_eq!(
            got[TSHARK_FIELDS.len() + 1],
            "",
            "{name}: Wireshark calls it malformed"
        );
        assert_eq!(
            got[TSHARK_FIELDS.len() + 2],
            "",
            "{name}: Wireshark has expert info"
        );
        println!("{name}: {line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
