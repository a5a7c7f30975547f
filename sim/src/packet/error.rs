//! Why a frame was rejected: the reference for the Rx pipe's drop reasons.
//!
//! The variants are listed in the order `RocePacket::parse` checks them; the first failing check
//! wins. `ParseError::code` is the stable number the RTL reports (never renumber, only append).

use std::fmt;

/// Which header a truncation hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    Ethernet,
    Ipv4,
    Udp,
    Bth,
    Reth,
    Aeth,
    Telemetry,
    Icrc,
}

/// Everything `RocePacket::parse` can reject, in check order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The header starting at byte `offset` of the frame does not fit before `end`: the frame
    /// end (Ethernet, IPv4), the datagram end (BTH, which needs 12 + 4 ICRC bytes), or the
    /// ICRC offset (RETH, AETH, telemetry).
    Truncated {
        header: Header,
        offset: usize,
        end: usize,
    },
    /// EtherType is not IPv4 (0x0800); VLAN tags (0x8100) are not supported.
    UnsupportedEtherType(u16),
    /// IP version nibble is not 4.
    NotIpv4 { version: u8 },
    /// IHL is not 5: IPv4 options are not supported.
    Ipv4Options { ihl: u8 },
    /// Header checksum wrong: the one's-complement sum of the 20 header bytes, checksum
    /// included, is not 0xFFFF (so 0xFFFF is taken where 0x0000 is expected). `expected` is
    /// what the other 18 bytes give.
    BadIpv4Checksum { found: u16, expected: u16 },
    /// Total length below 28 or beyond the frame (`available` = frame length - 14).
    Ipv4LengthMismatch { total_len: u16, available: usize },
    /// MF set or fragment offset nonzero.
    Ipv4Fragmented,
    /// Protocol is not UDP (17).
    NotUdp { protocol: u8 },
    /// UDP length differs from IPv4 total length - 20.
    UdpLengthMismatch { udp_len: u16, expected: u16 },
    /// Destination port is not 4791 (RoCEv2).
    WrongUdpPort { port: u16 },
    /// UDP checksum nonzero and wrong (zero means "not computed", RoCEv2's choice).
    BadUdpChecksum { found: u16, expected: u16 },
    /// BTH TVer is not 0.
    BadBthVersion { tver: u8 },
    /// BTH opcode the NIC does not handle.
    UnknownOpcode(u8),
    /// AETH syndrome with the reserved bit 7 set or the reserved type 0b10.
    BadAethSyndrome(u8),
    /// Telemetry flag set on an opcode that must not carry telemetry (CNP).
    UnexpectedTelemetry { opcode: u8 },
    /// Telemetry flag clear on an opcode that must carry it (probe, telemetry response).
    MissingTelemetry { opcode: u8 },
    /// Telemetry header version is not 1.
    BadTelemetryVersion(u8),
    /// Echo bit wrong for the opcode: data and probes collect (E=0), ACKs and responses echo
    /// (E=1).
    TelemetryModeMismatch { opcode: u8, echo: bool },
    /// Hop count above `MAX_HOPS` (5).
    HopCountOutOfRange { nhop: u8 },
    /// A used hop record has a line-rate code with no defined speed (5-7).
    UnknownLineRate { hop: u8, code: u8 },
    /// CNP body is not exactly 16 reserved bytes.
    BadCnpLength { len: usize },
    /// Payload bytes on an opcode that has none (READ request, ACK, probe, response).
    UnexpectedPayload { opcode: u8, len: usize },
    /// PadCnt larger than the payload, or nonzero where there is no payload.
    BadPadCount { pad: u8, payload_len: usize },
    /// ICRC wrong. Both values as the CRC register (the wire carries them little-endian).
    BadIcrc { found: u32, expected: u32 },
}

impl ParseError {
    // The codes, by name: hdl's rx_pipe writes them as these names (`hdl::rx_pipe::DROP_CODES`).
    pub const TRUNCATED: u8 = 1;
    pub const UNSUPPORTED_ETHER_TYPE: u8 = 2;
    pub const NOT_IPV4: u8 = 3;
    pub const IPV4_OPTIONS: u8 = 4;
    pub const BAD_IPV4_CHECKSUM: u8 = 5;
    pub const IPV4_LENGTH_MISMATCH: u8 = 6;
    pub const IPV4_FRAGMENTED: u8 = 7;
    pub const NOT_UDP: u8 = 8;
    pub const UDP_LENGTH_MISMATCH: u8 = 9;
    pub const WRONG_UDP_PORT: u8 = 10;
    pub const BAD_UDP_CHECKSUM: u8 = 11;
    pub const BAD_BTH_VERSION: u8 = 12;
    pub const UNKNOWN_OPCODE: u8 = 13;
    pub const BAD_AETH_SYNDROME: u8 = 14;
    pub const UNEXPECTED_TELEMETRY: u8 = 15;
    pub const MISSING_TELEMETRY: u8 = 16;
    pub const BAD_TELEMETRY_VERSION: u8 = 17;
    pub const TELEMETRY_MODE_MISMATCH: u8 = 18;
    pub const HOP_COUNT_OUT_OF_RANGE: u8 = 19;
    pub const UNKNOWN_LINE_RATE: u8 = 20;
    pub const BAD_CNP_LENGTH: u8 = 21;
    pub const UNEXPECTED_PAYLOAD: u8 = 22;
    pub const BAD_PAD_COUNT: u8 = 23;
    pub const BAD_ICRC: u8 = 24;

    /// Stable drop-reason code (1-based, in check order). 0 is reserved for "accepted".
    pub fn code(&self) -> u8 {
        use ParseError::*;
        match self {
            Truncated { .. } => Self::TRUNCATED,
            UnsupportedEtherType(_) => Self::UNSUPPORTED_ETHER_TYPE,
            NotIpv4 { .. } => Self::NOT_IPV4,
            Ipv4Options { .. } => Self::IPV4_OPTIONS,
            BadIpv4Checksum { .. } => Self::BAD_IPV4_CHECKSUM,
            Ipv4LengthMismatch { .. } => Self::IPV4_LENGTH_MISMATCH,
            Ipv4Fragmented => Self::IPV4_FRAGMENTED,
            NotUdp { .. } => Self::NOT_UDP,
            UdpLengthMismatch { .. } => Self::UDP_LENGTH_MISMATCH,
            WrongUdpPort { .. } => Self::WRONG_UDP_PORT,
            BadUdpChecksum { .. } => Self::BAD_UDP_CHECKSUM,
            BadBthVersion { .. } => Self::BAD_BTH_VERSION,
            UnknownOpcode(_) => Self::UNKNOWN_OPCODE,
            BadAethSyndrome(_) => Self::BAD_AETH_SYNDROME,
            UnexpectedTelemetry { .. } => Self::UNEXPECTED_TELEMETRY,
            MissingTelemetry { .. } => Self::MISSING_TELEMETRY,
            BadTelemetryVersion(_) => Self::BAD_TELEMETRY_VERSION,
            TelemetryModeMismatch { .. } => Self::TELEMETRY_MODE_MISMATCH,
            HopCountOutOfRange { .. } => Self::HOP_COUNT_OUT_OF_RANGE,
            UnknownLineRate { .. } => Self::UNKNOWN_LINE_RATE,
            BadCnpLength { .. } => Self::BAD_CNP_LENGTH,
            UnexpectedPayload { .. } => Self::UNEXPECTED_PAYLOAD,
            BadPadCount { .. } => Self::BAD_PAD_COUNT,
            BadIcrc { .. } => Self::BAD_ICRC,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseError::*;
        match self {
            Truncated {
                header,
                offset,
                end,
            } => {
                write!(f, "truncated: {header:?} header at offset {offset} does not fit before byte {end}")
            }
            UnsupportedEtherType(t) => write!(f, "unsupported EtherType {t:#06x} (want 0x0800)"),
            NotIpv4 { version } => write!(f, "IP version {version}, want 4"),
            Ipv4Options { ihl } => write!(f, "IPv4 IHL {ihl}: options not supported"),
            BadIpv4Checksum { found, expected } => {
                write!(
                    f,
                    "bad IPv4 header checksum {found:#06x}, expected {expected:#06x}"
                )
            }
            Ipv4LengthMismatch {
                total_len,
                available,
            } => {
                write!(
                    f,
                    "IPv4 total length {total_len} but {available} bytes after Ethernet"
                )
            }
            Ipv4Fragmented => write!(f, "IPv4 fragment"),
            NotUdp { protocol } => write!(f, "IP protocol {protocol}, want 17 (UDP)"),
            UdpLengthMismatch { udp_len, expected } => {
                write!(f, "UDP length {udp_len}, expected {expected}")
            }
            WrongUdpPort { port } => write!(f, "UDP destination port {port}, want 4791"),
            BadUdpChecksum { found, expected } => {
                write!(f, "bad UDP checksum {found:#06x}, expected {expected:#06x}")
            }
            BadBthVersion { tver } => write!(f, "BTH TVer {tver}, want 0"),
            UnknownOpcode(op) => write!(f, "unknown BTH opcode {op:#04x}"),
            BadAethSyndrome(s) => write!(f, "reserved AETH syndrome {s:#04x}"),
            UnexpectedTelemetry { opcode } => {
                write!(f, "telemetry flag set on opcode {opcode:#04x}")
            }
            MissingTelemetry { opcode } => write!(f, "no telemetry on opcode {opcode:#04x}"),
            BadTelemetryVersion(v) => write!(f, "telemetry version {v}, want 1"),
            TelemetryModeMismatch { opcode, echo } => {
                write!(
                    f,
                    "telemetry echo bit {} wrong for opcode {opcode:#04x}",
                    *echo as u8
                )
            }
            HopCountOutOfRange { nhop } => {
                write!(f, "telemetry hop count {nhop} out of range 0..=5")
            }
            UnknownLineRate { hop, code } => write!(f, "hop {hop}: unknown line-rate code {code}"),
            BadCnpLength { len } => write!(f, "CNP body {len} bytes, want 16"),
            UnexpectedPayload { opcode, len } => {
                write!(
                    f,
                    "{len} payload bytes on opcode {opcode:#04x}, which has none"
                )
            }
            BadPadCount { pad, payload_len } => {
                write!(f, "PadCnt {pad} with {payload_len} payload bytes")
            }
            BadIcrc { found, expected } => {
                write!(f, "bad ICRC {found:#010x}, expected {expected:#010x}")
            }
        }
    }
}

impl std::error::Error for ParseError {}
