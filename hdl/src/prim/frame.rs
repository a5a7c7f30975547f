//! The protocol values of a RoCEv2 frame's headers, for the RTL: sim::packet's constants, in
//! the form the header fields of `sim::layout::TX_HDR` and `TELEMETRY` hold them. tx_pipe
//! writes them and rx_pipe_decode checks them. Each list is one field width, so the export
//! declares every value as a `localparam` of exactly its field's width.

// The names are sim's (one name per value); the values are given by path, as the constants
// here take those names.
use sim::packet as p;

codes! {
    /// 16-bit fields in wire byte order (the first byte in the low bits), as `tx_hdr`'s
    /// `ethertype` and `udp_dport` hold them.
    WIRE_WORDS;
    WIRE_ETHERTYPE_IPV4 = p::ETHERTYPE_IPV4.swap_bytes(),
    WIRE_ROCEV2_PORT = p::ROCEV2_UDP_PORT.swap_bytes(),
}

codes! {
    /// 4-bit header fields: IPv4 version and IHL, the telemetry header's version.
    NIBBLES;
    IPV4_VERSION = p::IPV4_VERSION,
    IPV4_IHL = p::IPV4_IHL,
    TELEMETRY_VERSION = p::TELEMETRY_VERSION,
}

codes! {
    /// The IPv4 protocol byte.
    PROTOCOLS;
    IP_PROTO_UDP = p::IP_PROTO_UDP,
}

codes! {
    /// The IPv4 header's 16-bit words that are constant, as numbers (big-endian: the first
    /// wire byte high), for the header checksum: version and IHL with a zero TOS, and a zero
    /// TTL with the protocol.
    IPV4_WORDS;
    IPV4_WORD_VER_IHL = ((p::IPV4_VERSION as u16) << 12) | ((p::IPV4_IHL as u16) << 8),
    IPV4_WORD_PROTO_UDP = p::IP_PROTO_UDP,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_words_are_the_first_bytes_low() {
        assert_eq!(WIRE_ETHERTYPE_IPV4, 0x0008);
        assert_eq!(WIRE_ROCEV2_PORT, 0xB712);
    }

    #[test]
    fn ipv4_words_are_the_first_bytes_high() {
        assert_eq!((IPV4_WORD_VER_IHL, IPV4_WORD_PROTO_UDP), (0x4500, 0x0011));
    }
}
