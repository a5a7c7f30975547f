//! Ethernet II, IPv4 and UDP: the fixed 42-byte outer headers of every RoCEv2 frame.

/// EtherType of IPv4.
pub const ETHERTYPE_IPV4: u16 = 0x0800;
/// RoCEv2's UDP destination port.
pub const ROCEV2_UDP_PORT: u16 = 4791;
/// Ethernet header length (no VLAN tag).
pub const ETH_LEN: usize = 14;
/// IPv4 header length (no options).
pub const IPV4_LEN: usize = 20;
/// UDP header length.
pub const UDP_LEN: usize = 8;
/// Offset of the BTH in the frame.
pub const BTH_OFFSET: usize = ETH_LEN + IPV4_LEN + UDP_LEN;
/// IPv4 header byte 0, high nibble.
pub const IPV4_VERSION: u8 = 4;
/// IPv4 header byte 0, low nibble: the header length in 32-bit words (no options).
pub const IPV4_IHL: u8 = (IPV4_LEN / 4) as u8;
/// IPv4 protocol number of UDP.
pub const IP_PROTO_UDP: u8 = 17;

/// Ethernet II header; the EtherType is always IPv4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ethernet {
    pub dst: [u8; 6],
    pub src: [u8; 6],
}

/// The two ECN bits of the IPv4 TOS byte (RFC 3168).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ecn {
    /// 0b00: not ECN-capable (LDCP's first-RTT packets).
    NotEct = 0,
    /// 0b01: ECT(1).
    Ect1 = 1,
    /// 0b10: ECT(0), what RoCEv2 NICs send.
    Ect0 = 2,
    /// 0b11: congestion experienced, set by a switch.
    Ce = 3,
}

impl Ecn {
    pub fn from_bits(bits: u8) -> Ecn {
        match bits & 3 {
            0 => Ecn::NotEct,
            1 => Ecn::Ect1,
            2 => Ecn::Ect0,
            _ => Ecn::Ce,
        }
    }
}

/// IPv4 header without options. Version, IHL, total length, protocol and checksum are derived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ipv4 {
    /// 6-bit DSCP (TOS bits 7:2).
    pub dscp: u8,
    pub ecn: Ecn,
    pub identification: u16,
    /// DF flag; the reserved flag is sent as 0 and ignored.
    pub dont_fragment: bool,
    pub ttl: u8,
    pub src: [u8; 4],
    pub dst: [u8; 4],
}

impl Ipv4 {
    /// The TOS byte: DSCP << 2 | ECN.
    pub fn tos(&self) -> u8 {
        assert!(self.dscp < 64, "DSCP {} does not fit 6 bits", self.dscp);
        self.dscp << 2 | self.ecn as u8
    }

    /// The 20 header bytes for a datagram of `total_len` bytes, checksum filled in.
    pub fn build(&self, total_len: u16) -> [u8; IPV4_LEN] {
        let mut h = [0u8; IPV4_LEN];
        h[0] = IPV4_VERSION << 4 | IPV4_IHL;
        h[1] = self.tos();
        h[2..4].copy_from_slice(&total_len.to_be_bytes());
        h[4..6].copy_from_slice(&self.identification.to_be_bytes());
        h[6] = if self.dont_fragment { 0x40 } else { 0 };
        h[8] = self.ttl;
        h[9] = IP_PROTO_UDP;
        h[12..16].copy_from_slice(&self.src);
        h[16..20].copy_from_slice(&self.dst);
        let c = ipv4_checksum(&h);
        h[10..12].copy_from_slice(&c.to_be_bytes());
        h
    }
}

/// One's-complement sum of big-endian 16-bit words (odd tail padded with a zero byte).
fn ones_sum(mut acc: u32, bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    for w in &mut chunks {
        acc += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = chunks.remainder() {
        acc += (*last as u32) << 8;
    }
    acc
}

fn fold(mut acc: u32) -> u16 {
    while acc > 0xFFFF {
        acc = (acc & 0xFFFF) + (acc >> 16);
    }
    acc as u16
}

/// The IPv4 header checksum of a 20-byte header, computed with bytes 10-11 taken as zero
/// (so it is the value that belongs there, whatever they hold).
pub fn ipv4_checksum(header: &[u8]) -> u16 {
    let mut h = [0u8; IPV4_LEN];
    h.copy_from_slice(&header[..IPV4_LEN]);
    h[10] = 0;
    h[11] = 0;
    !fold(ones_sum(0, &h))
}

/// Whether a 20-byte IPv4 header's checksum is right: the one's-complement sum of all ten
/// words, the checksum field included, folds to 0xFFFF (RFC 1071). Where `ipv4_checksum` is
/// 0x0000 this also takes 0xFFFF, the other one's-complement zero (RFC 1624: what incremental
/// updates such as a switch's TTL decrement can leave), as Linux and Wireshark do.
pub fn ipv4_header_sum_ok(header: &[u8]) -> bool {
    fold(ones_sum(0, &header[..IPV4_LEN])) == 0xFFFF
}

/// The identification that gives `ip`'s header for a datagram of `total_len` bytes a
/// checksum of 0x0000 (so it may be sent as 0x0000 or 0xFFFF): tests use it to make such
/// headers.
pub fn ipv4_id_for_zero_checksum(ip: &Ipv4, total_len: u16) -> u16 {
    let mut h = Ipv4 {
        identification: 0,
        ..*ip
    }
    .build(total_len);
    h[10] = 0;
    h[11] = 0;
    // The other nine words sum to s; identification !s makes the sum 0xFFFF, the checksum 0.
    !fold(ones_sum(0, &h))
}

/// RFC 768 UDP checksum over the IPv4 pseudo-header and `udp` (header + data), computed with
/// bytes 6-7 taken as zero; a result of 0 is sent as 0xFFFF.
pub fn udp_checksum(src: [u8; 4], dst: [u8; 4], udp: &[u8]) -> u16 {
    let mut acc = ones_sum(0, &src);
    acc = ones_sum(acc, &dst);
    acc += IP_PROTO_UDP as u32 + udp.len() as u32;
    acc = ones_sum(acc, &udp[..6]);
    acc = ones_sum(acc, &udp[8..]);
    match !fold(acc) {
        0 => 0xFFFF,
        c => c,
    }
}
