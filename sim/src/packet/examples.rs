//! One example of every packet type the NIC emits: the hex dumps of docs/packet-formats.md and
//! the frames of the Wireshark test are generated from these.

use super::*;

const MAC_A: [u8; 6] = [0x02, 0, 0, 0, 0, 0x0A];
const MAC_B: [u8; 6] = [0x02, 0, 0, 0, 0, 0x0B];
const IP_A: [u8; 4] = [10, 0, 0, 1];
const IP_B: [u8; 4] = [10, 0, 0, 2];
/// Requester A's QP and responder B's QP.
const QP_A: u32 = 0x000A01;
const QP_B: u32 = 0x000B02;

fn a_to_b(dscp: u8, ecn: Ecn) -> (Ethernet, Ipv4) {
    (
        Ethernet {
            dst: MAC_B,
            src: MAC_A,
        },
        Ipv4 {
            dscp,
            ecn,
            identification: 0x1234,
            dont_fragment: true,
            ttl: 64,
            src: IP_A,
            dst: IP_B,
        },
    )
}

fn b_to_a(dscp: u8, ecn: Ecn) -> (Ethernet, Ipv4) {
    (
        Ethernet {
            dst: MAC_A,
            src: MAC_B,
        },
        Ipv4 {
            dscp,
            ecn,
            identification: 0x5678,
            dont_fragment: true,
            ttl: 64,
            src: IP_B,
            dst: IP_A,
        },
    )
}

fn bth(dest_qp: u32, psn: u32, ack_req: bool) -> Bth {
    Bth {
        solicited: false,
        mig_req: true,
        pkey: 0xFFFF,
        fecn: false,
        becn: false,
        dest_qp,
        ack_req,
        psn,
    }
}

fn pkt(dir: (Ethernet, Ipv4), bth: Bth, body: Body, telemetry: Option<Telemetry>) -> RocePacket {
    RocePacket {
        eth: dir.0,
        ip: dir.1,
        udp_src_port: 0xC001,
        bth,
        body,
        telemetry,
    }
}

/// Telemetry as it arrives after two switches (both 100G).
pub fn two_hops() -> Telemetry {
    let mut t = Telemetry::collecting();
    t.push_hop(IntHop::from_counters(
        1_000_000,
        1_280_000,
        800,
        LineRate::G100,
    ));
    t.push_hop(IntHop::from_counters(
        1_000_750,
        64_000_000_000,
        12_000,
        LineRate::G100,
    ));
    t
}

/// (name, packet) for every packet type the NIC emits, in the order of the docs.
pub fn examples() -> Vec<(&'static str, RocePacket)> {
    let data = |n: usize| (0..n).map(|i| i as u8).collect::<Vec<u8>>();
    let reth = Reth {
        va: 0x0000_7F00_0000_1000,
        rkey: 0x0000_1234,
        dma_len: 48,
    };
    let ack = Aeth {
        syndrome: Syndrome::Ack {
            credits: ACK_CREDITS_INVALID,
        },
        msn: 1,
    };
    let collect = Some(Telemetry::collecting());
    let d = 26; // AF31, the usual RoCE traffic class
    vec![
        (
            "RDMA WRITE First",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 100, false),
                Body::WriteFirst {
                    reth,
                    payload: data(16),
                },
                collect.clone(),
            ),
        ),
        (
            "RDMA WRITE Middle (after two switches)",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 101, false),
                Body::WriteMiddle { payload: data(16) },
                Some(two_hops()),
            ),
        ),
        (
            "RDMA WRITE Last (13 bytes, 3 pad)",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 102, true),
                Body::WriteLast { payload: data(13) },
                collect.clone(),
            ),
        ),
        (
            "RDMA WRITE Only",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 103, true),
                Body::WriteOnly {
                    reth: Reth { dma_len: 8, ..reth },
                    payload: data(8),
                },
                collect.clone(),
            ),
        ),
        (
            "RDMA WRITE Only, no telemetry",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 104, true),
                Body::WriteOnly {
                    reth: Reth { dma_len: 8, ..reth },
                    payload: data(8),
                },
                None,
            ),
        ),
        (
            "RDMA READ Request",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 105, true),
                Body::ReadRequest { reth },
                None,
            ),
        ),
        (
            "RDMA READ Response First",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 105, false),
                Body::ReadResponseFirst {
                    aeth: ack,
                    payload: data(16),
                },
                collect.clone(),
            ),
        ),
        (
            "RDMA READ Response Middle",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 106, false),
                Body::ReadResponseMiddle { payload: data(16) },
                collect.clone(),
            ),
        ),
        (
            "RDMA READ Response Last",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 107, false),
                Body::ReadResponseLast {
                    aeth: Aeth { msn: 2, ..ack },
                    payload: data(16),
                },
                collect.clone(),
            ),
        ),
        (
            "RDMA READ Response Only",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 108, false),
                Body::ReadResponseOnly {
                    aeth: Aeth { msn: 3, ..ack },
                    payload: data(8),
                },
                collect.clone(),
            ),
        ),
        (
            "Acknowledge: ACK echoing two hops",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 101, false),
                Body::Ack { aeth: ack },
                Some(two_hops().echoed()),
            ),
        ),
        (
            // W = 100,000 bytes (UQ24.8: 25,600,000), the receiver's window for this flow.
            "Acknowledge: ACK with Rx-HPCC feedback",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 101, false),
                Body::Ack { aeth: ack },
                Some(Telemetry {
                    echo: true,
                    hops: vec![],
                    feedback: Some(100_000 << 8),
                }),
            ),
        ),
        (
            "Acknowledge: NAK PSN sequence error",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 102, false),
                Body::Ack {
                    aeth: Aeth {
                        syndrome: Syndrome::Nak(NakCode::PsnSequenceError),
                        msn: 1,
                    },
                },
                None,
            ),
        ),
        (
            "Acknowledge: RNR NAK",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 102, false),
                Body::Ack {
                    aeth: Aeth {
                        syndrome: Syndrome::RnrNak { timer: 14 },
                        msn: 1,
                    },
                },
                None,
            ),
        ),
        (
            "CNP",
            pkt(
                b_to_a(48, Ecn::Ect0),
                Bth {
                    becn: true,
                    psn: 0,
                    mig_req: false,
                    ..bth(QP_A, 0, false)
                },
                Body::Cnp,
                None,
            ),
        ),
        (
            "HPCC++ probe",
            pkt(
                a_to_b(d, Ecn::Ect0),
                bth(QP_B, 106, false),
                Body::Probe,
                collect,
            ),
        ),
        (
            "HPCC++ telemetry response",
            pkt(
                b_to_a(d, Ecn::Ect0),
                bth(QP_A, 106, false),
                Body::TelemetryResponse,
                Some(two_hops().echoed()),
            ),
        ),
    ]
}

/// Offset + 16 hex bytes a line, as in `tshark -x`.
pub fn hexdump(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, line) in bytes.chunks(16).enumerate() {
        s += &format!("{:04x} ", i * 16);
        for b in line {
            s += &format!(" {b:02x}");
        }
        s += "\n";
    }
    s
}
