//! InfiniBand transport headers as RoCEv2 carries them: BTH, RETH, AETH, and the opcodes the
//! NIC sends or accepts.

/// BTH length.
pub const BTH_LEN: usize = 12;
/// RETH length.
pub const RETH_LEN: usize = 16;
/// AETH length.
pub const AETH_LEN: usize = 4;
/// CNP body: 16 reserved bytes after the BTH.
pub const CNP_BODY_LEN: usize = 16;
/// BTH byte 8 bit 6 (first reserved bit after AckReq): a telemetry header follows the
/// opcode's transport headers. See docs/packet-formats.md for why this bit.
pub const BTH_TELEMETRY_FLAG: u8 = 0x40;

/// BTH opcodes the NIC handles: RC RDMA WRITE and READ, Acknowledge, CNP, and two
/// manufacturer-specific opcodes for HPCC++ probes and telemetry responses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Opcode {
    RdmaWriteFirst = 0x06,
    RdmaWriteMiddle = 0x07,
    RdmaWriteLast = 0x08,
    RdmaWriteOnly = 0x0A,
    RdmaReadRequest = 0x0C,
    RdmaReadResponseFirst = 0x0D,
    RdmaReadResponseMiddle = 0x0E,
    RdmaReadResponseLast = 0x0F,
    RdmaReadResponseOnly = 0x10,
    Acknowledge = 0x11,
    /// RoCEv2 Congestion Notification Packet.
    Cnp = 0x81,
    /// HPCC++ probe (telemetry request), draft 004 sections 6.2.1 and 7.1.
    HpccProbe = 0xC0,
    /// HPCC++ telemetry response (notification), draft 004 sections 6.2.2 and 7.1.
    HpccTelemetryResponse = 0xC1,
}

impl Opcode {
    pub const ALL: [Opcode; 13] = [
        Opcode::RdmaWriteFirst,
        Opcode::RdmaWriteMiddle,
        Opcode::RdmaWriteLast,
        Opcode::RdmaWriteOnly,
        Opcode::RdmaReadRequest,
        Opcode::RdmaReadResponseFirst,
        Opcode::RdmaReadResponseMiddle,
        Opcode::RdmaReadResponseLast,
        Opcode::RdmaReadResponseOnly,
        Opcode::Acknowledge,
        Opcode::Cnp,
        Opcode::HpccProbe,
        Opcode::HpccTelemetryResponse,
    ];

    pub fn from_u8(v: u8) -> Option<Opcode> {
        Opcode::ALL.into_iter().find(|o| *o as u8 == v)
    }

    /// A RETH follows the BTH.
    pub fn has_reth(self) -> bool {
        matches!(
            self,
            Opcode::RdmaWriteFirst | Opcode::RdmaWriteOnly | Opcode::RdmaReadRequest
        )
    }

    /// An AETH follows the BTH.
    pub fn has_aeth(self) -> bool {
        matches!(
            self,
            Opcode::RdmaReadResponseFirst
                | Opcode::RdmaReadResponseLast
                | Opcode::RdmaReadResponseOnly
                | Opcode::Acknowledge
        )
    }

    /// Carries data payload (WRITE and READ response packets).
    pub fn has_payload(self) -> bool {
        matches!(
            self,
            Opcode::RdmaWriteFirst
                | Opcode::RdmaWriteMiddle
                | Opcode::RdmaWriteLast
                | Opcode::RdmaWriteOnly
                | Opcode::RdmaReadResponseFirst
                | Opcode::RdmaReadResponseMiddle
                | Opcode::RdmaReadResponseLast
                | Opcode::RdmaReadResponseOnly
        )
    }

    /// May carry a telemetry header (all but CNP).
    pub fn may_carry_telemetry(self) -> bool {
        self != Opcode::Cnp
    }

    /// Must carry a telemetry header (probe and response).
    pub fn must_carry_telemetry(self) -> bool {
        matches!(self, Opcode::HpccProbe | Opcode::HpccTelemetryResponse)
    }

    /// Telemetry on this opcode is an echo (E=1) rather than being collected (E=0).
    pub fn telemetry_echoes(self) -> bool {
        matches!(self, Opcode::Acknowledge | Opcode::HpccTelemetryResponse)
    }
}

/// BTH fields set by the sender. OpCode, PadCnt, TVer (0) and the telemetry flag are derived
/// from the rest of the packet when it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bth {
    /// SE: solicited event.
    pub solicited: bool,
    /// M: migration request.
    pub mig_req: bool,
    /// Partition key (0xFFFF = default partition).
    pub pkey: u16,
    /// F: FECN (byte 4 bit 7).
    pub fecn: bool,
    /// B: BECN (byte 4 bit 6), set in CNPs.
    pub becn: bool,
    /// 24-bit destination QP.
    pub dest_qp: u32,
    /// A: acknowledge request.
    pub ack_req: bool,
    /// 24-bit packet sequence number.
    pub psn: u32,
}

impl Bth {
    pub(crate) fn build(&self, opcode: Opcode, pad: u8, telemetry: bool) -> [u8; BTH_LEN] {
        assert!(
            self.dest_qp < 1 << 24,
            "DestQP {:#x} does not fit 24 bits",
            self.dest_qp
        );
        assert!(
            self.psn < 1 << 24,
            "PSN {:#x} does not fit 24 bits",
            self.psn
        );
        let mut b = [0u8; BTH_LEN];
        b[0] = opcode as u8;
        b[1] = (self.solicited as u8) << 7 | (self.mig_req as u8) << 6 | (pad & 3) << 4;
        b[2..4].copy_from_slice(&self.pkey.to_be_bytes());
        b[4] = (self.fecn as u8) << 7 | (self.becn as u8) << 6;
        b[5..8].copy_from_slice(&self.dest_qp.to_be_bytes()[1..]);
        b[8] = (self.ack_req as u8) << 7 | if telemetry { BTH_TELEMETRY_FLAG } else { 0 };
        b[9..12].copy_from_slice(&self.psn.to_be_bytes()[1..]);
        b
    }

    pub(crate) fn parse(b: &[u8]) -> Bth {
        Bth {
            solicited: b[1] & 0x80 != 0,
            mig_req: b[1] & 0x40 != 0,
            pkey: u16::from_be_bytes([b[2], b[3]]),
            fecn: b[4] & 0x80 != 0,
            becn: b[4] & 0x40 != 0,
            dest_qp: u32::from_be_bytes([0, b[5], b[6], b[7]]),
            ack_req: b[8] & 0x80 != 0,
            psn: u32::from_be_bytes([0, b[9], b[10], b[11]]),
        }
    }
}

/// RDMA Extended Transport Header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reth {
    pub va: u64,
    pub rkey: u32,
    pub dma_len: u32,
}

impl Reth {
    pub fn build(&self) -> [u8; RETH_LEN] {
        let mut b = [0u8; RETH_LEN];
        b[0..8].copy_from_slice(&self.va.to_be_bytes());
        b[8..12].copy_from_slice(&self.rkey.to_be_bytes());
        b[12..16].copy_from_slice(&self.dma_len.to_be_bytes());
        b
    }

    pub fn parse(b: &[u8]) -> Reth {
        Reth {
            va: u64::from_be_bytes(b[0..8].try_into().unwrap()),
            rkey: u32::from_be_bytes(b[8..12].try_into().unwrap()),
            dma_len: u32::from_be_bytes(b[12..16].try_into().unwrap()),
        }
    }
}

/// NAK codes (AETH syndrome 0b011_xxxxx).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NakCode {
    PsnSequenceError,
    InvalidRequest,
    RemoteAccessError,
    RemoteOperationalError,
    InvalidRdRequest,
    /// Codes 5-31, reserved by IBA; kept so that a NAK always parses.
    Reserved(u8),
}

impl NakCode {
    pub fn bits(self) -> u8 {
        match self {
            NakCode::PsnSequenceError => 0,
            NakCode::InvalidRequest => 1,
            NakCode::RemoteAccessError => 2,
            NakCode::RemoteOperationalError => 3,
            NakCode::InvalidRdRequest => 4,
            NakCode::Reserved(c) => c & 0x1F,
        }
    }

    pub fn from_bits(c: u8) -> NakCode {
        match c & 0x1F {
            0 => NakCode::PsnSequenceError,
            1 => NakCode::InvalidRequest,
            2 => NakCode::RemoteAccessError,
            3 => NakCode::RemoteOperationalError,
            4 => NakCode::InvalidRdRequest,
            c => NakCode::Reserved(c),
        }
    }
}

/// AETH syndrome: bit 7 reserved (0), bits 6:5 type, bits 4:0 value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syndrome {
    /// 0b00: ACK with a 5-bit credit count (31 = no end-to-end credits).
    Ack { credits: u8 },
    /// 0b01: RNR NAK with a 5-bit timer code.
    RnrNak { timer: u8 },
    /// 0b11: NAK.
    Nak(NakCode),
}

/// ACK credit count meaning "end-to-end flow control not used".
pub const ACK_CREDITS_INVALID: u8 = 31;

/// The syndrome bytes the RTL writes and tests by name (`Syndrome::bits` is not `const`;
/// the test below ties them to it): an ACK with no credit count, NAK PSN sequence error,
/// NAK invalid request.
pub const SYN_ACK: u8 = ACK_CREDITS_INVALID;
pub const SYN_NAK_SEQ: u8 = 0x60;
pub const SYN_NAK_INVALID: u8 = 0x61;

#[test]
fn syndrome_bytes_are_the_enums() {
    assert_eq!(Syndrome::Ack { credits: ACK_CREDITS_INVALID }.bits(), SYN_ACK);
    assert_eq!(Syndrome::Nak(NakCode::PsnSequenceError).bits(), SYN_NAK_SEQ);
    assert_eq!(Syndrome::Nak(NakCode::InvalidRequest).bits(), SYN_NAK_INVALID);
}

impl Syndrome {
    pub fn bits(self) -> u8 {
        match self {
            Syndrome::Ack { credits } => {
                assert!(
                    credits < 32,
                    "ACK credit count {credits} does not fit 5 bits"
                );
                credits
            }
            Syndrome::RnrNak { timer } => {
                assert!(timer < 32, "RNR timer {timer} does not fit 5 bits");
                0x20 | timer
            }
            Syndrome::Nak(code) => 0x60 | code.bits(),
        }
    }

    /// `None` for the reserved encodings (bit 7 set, or type 0b10).
    pub fn from_bits(s: u8) -> Option<Syndrome> {
        match s >> 5 {
            0 => Some(Syndrome::Ack { credits: s & 0x1F }),
            1 => Some(Syndrome::RnrNak { timer: s & 0x1F }),
            3 => Some(Syndrome::Nak(NakCode::from_bits(s))),
            _ => None,
        }
    }
}

/// ACK Extended Transport Header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aeth {
    pub syndrome: Syndrome,
    /// 24-bit message sequence number.
    pub msn: u32,
}

impl Aeth {
    pub fn build(&self) -> [u8; AETH_LEN] {
        assert!(
            self.msn < 1 << 24,
            "MSN {:#x} does not fit 24 bits",
            self.msn
        );
        let m = self.msn.to_be_bytes();
        [self.syndrome.bits(), m[1], m[2], m[3]]
    }

    /// `Err(syndrome byte)` for a reserved syndrome.
    pub fn parse(b: &[u8]) -> Result<Aeth, u8> {
        let syndrome = Syndrome::from_bits(b[0]).ok_or(b[0])?;
        Ok(Aeth {
            syndrome,
            msn: u32::from_be_bytes([0, b[1], b[2], b[3]]),
        })
    }
}
