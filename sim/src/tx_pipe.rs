//! Golden model of the Tx pipe's frame builder (hdl/src/tx/tx_pipe.rs): one header descriptor and
//! the payload bytes a DMA read delivered -> the frame on the wire, through
//! `RocePacket::build` (the format is not re-implemented here).
//!
//! The descriptor is what `s_axis_desc_tdata` carries: 128 bytes, byte i at bits [8i+7:8i],
//! multi-byte fields big-endian as on the wire. `TxDesc::to_bytes` is the layout
//! (docs/modules/tx_pipe.md has it as a table).
//!
//! Payload length mismatch (the stream delivers more or fewer bytes than the descriptor's
//! payload length): the frame is still built with the descriptor's length, the payload
//! truncated or padded with zero bytes, and flagged bad (`tuser` on its last beat), so the MAC
//! shim can drop it.

pub mod cycle;

use crate::layout::{Field, TX_DESC};
use crate::packet::*;

/// Descriptor length in bytes (the width of `s_axis_desc_tdata` / 8).
pub const DESC_LEN: usize = 128;

/// Largest payload the pipe builds (14-bit length field).
pub const MAX_PAYLOAD: usize = (1 << 14) - 1;

/// Everything the Tx pipe needs to build one frame except the payload bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxDesc {
    pub eth: Ethernet,
    pub ip: Ipv4,
    pub udp_src_port: u16,
    pub opcode: Opcode,
    /// BTH fields; OpCode, PadCnt, TVer and T are derived.
    pub bth: Bth,
    /// Used by WRITE First / Only and READ Request.
    pub reth: Reth,
    /// Used by READ Response First / Last / Only and Acknowledge.
    pub aeth: Aeth,
    /// Telemetry header: for collecting opcodes the pipe writes E=0, nhop=0 and empty slots
    /// whatever `hops` holds; for echoing ones (ACK, telemetry response) E=1 and these hops.
    pub telemetry: Option<Telemetry>,
    /// Payload bytes (ignored for opcodes without payload).
    pub payload_len: u16,
}

impl TxDesc {
    /// The 128 descriptor bytes (`layout::TX_DESC`).
    pub fn to_bytes(&self) -> [u8; DESC_LEN] {
        let mut d = [0u8; DESC_LEN];
        let mut put = |f: Field, b: &[u8]| d[f.bytes()][..b.len()].copy_from_slice(b);
        put(TX_DESC.eth_dst, &self.eth.dst);
        put(TX_DESC.eth_src, &self.eth.src);
        put(TX_DESC.ip_src, &self.ip.src);
        put(TX_DESC.ip_dst, &self.ip.dst);
        put(TX_DESC.tos, &[self.ip.tos()]);
        put(TX_DESC.ttl, &[self.ip.ttl]);
        put(TX_DESC.ip_id, &self.ip.identification.to_be_bytes());
        put(TX_DESC.ip_flags, &[if self.ip.dont_fragment { 0x40 } else { 0 }]);
        put(TX_DESC.udp_sport, &self.udp_src_port.to_be_bytes());
        put(TX_DESC.opcode, &[self.opcode as u8]);
        put(TX_DESC.se_m, &[(self.bth.solicited as u8) << 7 | (self.bth.mig_req as u8) << 6]);
        put(TX_DESC.pkey, &self.bth.pkey.to_be_bytes());
        put(TX_DESC.fb, &[(self.bth.fecn as u8) << 7 | (self.bth.becn as u8) << 6]);
        put(TX_DESC.dest_qp, &self.bth.dest_qp.to_be_bytes()[1..]);
        put(TX_DESC.ack_req, &[(self.bth.ack_req as u8) << 7]);
        put(TX_DESC.psn, &self.bth.psn.to_be_bytes()[1..]);
        put(TX_DESC.tele, &[self.telemetry.is_some() as u8]);
        if self.opcode.has_reth() {
            put(TX_DESC.ext, &self.reth.build());
        } else if self.opcode.has_aeth() {
            put(TX_DESC.ext, &self.aeth.build());
        }
        put(TX_DESC.payload_len, &self.payload_len.to_be_bytes());
        if let Some(t) = &self.telemetry {
            let b = t.build();
            put(TX_DESC.nhop, &[b[1]]);
            put(TX_DESC.feedback, &[t.feedback.is_some() as u8]);
            put(TX_DESC.hops, &b[TELEMETRY_FIXED_LEN..]);
        }
        d
    }

    /// The header fields a tx_ctx create word's template holds (`to_bytes()[..36]`, through
    /// the BTH's AckReq byte): MACs, IPs, TOS, TTL, identification, DF, UDP source port, BTH
    /// opcode (any byte that is not one: WRITE Only, since tx_ctx replaces it), SE, M, P_Key,
    /// FECN, BECN, DestQP, AckReq; the rest zero. `of_template(&d.to_bytes()[..36])` gives back
    /// the template of `d`.
    pub fn of_template(t: &[u8]) -> TxDesc {
        let f = |f: Field| &t[f.bytes()];
        let b = |f: Field| t[f.bytes().start];
        let be16 = |f: Field| u16::from_be_bytes(t[f.bytes()].try_into().unwrap());
        let tos = b(TX_DESC.tos);
        let (se_m, fb) = (b(TX_DESC.se_m), b(TX_DESC.fb));
        let qp = f(TX_DESC.dest_qp);
        TxDesc {
            eth: Ethernet { dst: f(TX_DESC.eth_dst).try_into().unwrap(), src: f(TX_DESC.eth_src).try_into().unwrap() },
            ip: Ipv4 {
                dscp: tos >> 2,
                ecn: Ecn::from_bits(tos & 3),
                identification: be16(TX_DESC.ip_id),
                dont_fragment: b(TX_DESC.ip_flags) & 0x40 != 0,
                ttl: b(TX_DESC.ttl),
                src: f(TX_DESC.ip_src).try_into().unwrap(),
                dst: f(TX_DESC.ip_dst).try_into().unwrap(),
            },
            udp_src_port: be16(TX_DESC.udp_sport),
            opcode: Opcode::from_u8(b(TX_DESC.opcode)).unwrap_or(Opcode::RdmaWriteOnly),
            bth: Bth {
                solicited: se_m & 0x80 != 0,
                mig_req: se_m & 0x40 != 0,
                pkey: be16(TX_DESC.pkey),
                fecn: fb & 0x80 != 0,
                becn: fb & 0x40 != 0,
                dest_qp: u32::from_be_bytes([0, qp[0], qp[1], qp[2]]),
                ack_req: b(TX_DESC.ack_req) & 0x80 != 0,
                psn: 0,
            },
            reth: Reth { va: 0, rkey: 0, dma_len: 0 },
            aeth: Aeth { syndrome: Syndrome::Ack { credits: 0 }, msn: 0 },
            telemetry: None,
            payload_len: 0,
        }
    }

    /// The descriptor and payload that make `p` (`tx_frame` of them is `p.build()` for every
    /// packet a sender builds, i.e. no hops in a collecting telemetry header): how any packet
    /// of the NIC model goes through the Tx pipe.
    pub fn from_packet(p: &RocePacket) -> (TxDesc, Vec<u8>) {
        let none = Reth { va: 0, rkey: 0, dma_len: 0 };
        let desc = TxDesc {
            eth: p.eth,
            ip: p.ip,
            udp_src_port: p.udp_src_port,
            opcode: p.opcode(),
            bth: p.bth,
            reth: p.body.reth().copied().unwrap_or(none),
            aeth: p.body.aeth().copied().unwrap_or(Aeth { syndrome: Syndrome::Ack { credits: 0 }, msn: 0 }),
            telemetry: p.telemetry.clone(),
            payload_len: p.body.payload().len() as u16,
        };
        (desc, p.body.payload().to_vec())
    }

    /// Payload bytes the frame carries: `payload_len` for opcodes with payload, else 0.
    pub fn effective_payload_len(&self) -> usize {
        if self.opcode.has_payload() {
            self.payload_len as usize
        } else {
            0
        }
    }

    /// The packet for these header fields and exactly `payload`.
    pub fn packet(&self, payload: Vec<u8>) -> RocePacket {
        let (reth, aeth) = (self.reth, self.aeth);
        let body = match self.opcode {
            Opcode::RdmaWriteFirst => Body::WriteFirst { reth, payload },
            Opcode::RdmaWriteMiddle => Body::WriteMiddle { payload },
            Opcode::RdmaWriteLast => Body::WriteLast { payload },
            Opcode::RdmaWriteOnly => Body::WriteOnly { reth, payload },
            Opcode::RdmaReadRequest => Body::ReadRequest { reth },
            Opcode::RdmaReadResponseFirst => Body::ReadResponseFirst { aeth, payload },
            Opcode::RdmaReadResponseMiddle => Body::ReadResponseMiddle { payload },
            Opcode::RdmaReadResponseLast => Body::ReadResponseLast { aeth, payload },
            Opcode::RdmaReadResponseOnly => Body::ReadResponseOnly { aeth, payload },
            Opcode::Acknowledge => Body::Ack { aeth },
            Opcode::Cnp => Body::Cnp,
            Opcode::HpccProbe => Body::Probe,
            Opcode::HpccTelemetryResponse => Body::TelemetryResponse,
        };
        let echo = self.opcode.telemetry_echoes();
        let telemetry = self.telemetry.as_ref().map(|t| {
            if echo {
                t.echoed()
            } else {
                Telemetry::collecting()
            }
        });
        RocePacket {
            eth: self.eth,
            ip: self.ip,
            udp_src_port: self.udp_src_port,
            bth: self.bth,
            body,
            telemetry,
        }
    }
}

/// One frame as the Tx pipe emits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxFrame {
    /// The frame, ICRC included (no Ethernet FCS).
    pub bytes: Vec<u8>,
    /// The payload stream's length differed from the descriptor's (`tuser` on the last beat).
    pub bad: bool,
}

/// The frame for `desc` given the payload packet the stream delivered (`stream` is empty and
/// no packet is read when the effective payload length is 0).
pub fn tx_frame(desc: &TxDesc, stream: &[u8]) -> TxFrame {
    let len = desc.effective_payload_len();
    let mut payload = stream.to_vec();
    payload.resize(len, 0);
    TxFrame {
        bytes: desc.packet(payload).build(),
        bad: len > 0 && stream.len() != len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(opcode: Opcode, payload_len: u16, telemetry: Option<Telemetry>) -> TxDesc {
        let p = &examples()[0].1;
        TxDesc {
            eth: p.eth,
            ip: p.ip,
            udp_src_port: p.udp_src_port,
            opcode,
            bth: p.bth,
            reth: Reth {
                va: 0x1122_3344_5566_7788,
                rkey: 0xAABB_CCDD,
                dma_len: 4096,
            },
            aeth: Aeth {
                syndrome: Syndrome::Ack { credits: 31 },
                msn: 7,
            },
            telemetry,
            payload_len,
        }
    }

    #[test]
    fn frames_parse_back_with_their_fields() {
        for op in Opcode::ALL {
            let t = op.may_carry_telemetry().then(Telemetry::collecting);
            let d = desc(op, 13, t);
            let stream: Vec<u8> = (0..d.effective_payload_len() as u8).collect();
            let f = tx_frame(&d, &stream);
            assert!(!f.bad);
            let p = RocePacket::parse(&f.bytes).unwrap();
            assert_eq!(p, d.packet(stream));
        }
    }

    #[test]
    fn length_mismatch_pads_or_truncates_and_flags() {
        let d = desc(Opcode::RdmaWriteMiddle, 10, None);
        let short = tx_frame(&d, &[1, 2, 3]);
        assert!(short.bad);
        assert_eq!(
            RocePacket::parse(&short.bytes).unwrap().body.payload(),
            [1, 2, 3, 0, 0, 0, 0, 0, 0, 0]
        );
        let long = tx_frame(&d, &[5; 20]);
        assert!(long.bad);
        assert_eq!(
            RocePacket::parse(&long.bytes).unwrap().body.payload(),
            [5; 10]
        );
    }

    #[test]
    fn collecting_telemetry_ignores_descriptor_hops() {
        let mut t = examples()
            .iter()
            .find_map(|(_, p)| p.telemetry.clone().filter(|t| !t.hops.is_empty()))
            .unwrap();
        t.echo = false;
        let d = desc(Opcode::HpccProbe, 0, Some(t));
        let p = RocePacket::parse(&tx_frame(&d, &[]).bytes).unwrap();
        assert_eq!(p.telemetry, Some(Telemetry::collecting()));
    }

    #[test]
    fn every_example_goes_through_its_descriptor() {
        // Not the ones with hops in a collecting header: switches wrote those, a sender never does.
        for (name, p) in examples() {
            if p.telemetry.as_ref().is_some_and(|t| !t.echo && !t.hops.is_empty()) {
                continue;
            }
            let (d, payload) = TxDesc::from_packet(&p);
            assert_eq!(tx_frame(&d, &payload), TxFrame { bytes: p.build(), bad: false }, "{name}");
        }
    }

    #[test]
    fn descriptor_layout() {
        let d = desc(
            Opcode::RdmaWriteFirst,
            0x1234,
            Some(Telemetry::collecting()),
        );
        let b = d.to_bytes();
        // Byte offsets written out on purpose: this pins TX_DESC to the documented bytes.
        assert_eq!(&b[0..6], &d.eth.dst);
        assert_eq!(b[27], 0x06);
        assert_eq!(&b[58..60], &[0x12, 0x34]);
        assert_eq!(&b[40..48], &0x1122_3344_5566_7788u64.to_be_bytes());
        assert_eq!(b[39], 1);
    }
}
