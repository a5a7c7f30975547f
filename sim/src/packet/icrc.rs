//! RoCEv2 invariant CRC (IBA Annex A17 over IPv4).
//!
//! CRC-32 (Ethernet polynomial, reflected, init and final XOR all ones: `CRC_32_ISO_HDLC`) over
//! 8 bytes of 0xFF standing in for the masked LRH, then the IPv4 header, UDP header, BTH and
//! everything after it up to the ICRC, with the variant fields replaced by ones: IPv4 TOS
//! (DSCP + ECN), TTL and header checksum; UDP checksum; BTH byte 4 (FECN, BECN, resv6a). The
//! 32-bit result goes on the wire least significant byte first, like the Ethernet FCS.
//!
//! hpcc-nic extension: when the telemetry header is collecting (E=0) its hop count and hop slots
//! (bytes 1 and 4-43) are variant too, since switches write them in flight.

use super::ip::{BTH_OFFSET, ETH_LEN};
use super::telemetry::{TELEMETRY_FIXED_LEN, TELEMETRY_LEN};
use crc::{Crc, Table, CRC_32_ISO_HDLC};

/// Sixteen tables (slice-by-16): the model NIC computes an ICRC for every frame it sends and
/// checks one for every frame it takes, and the one-table default was 3% of a netsim run.
const CRC32: Crc<u32, Table<16>> = Crc::<u32, Table<16>>::new(&CRC_32_ISO_HDLC);

/// ICRC of `frame` = Ethernet header .. last byte before the ICRC. `collecting_telemetry_at`
/// is the frame offset of a collecting (E=0) telemetry header, if any.
pub fn icrc(frame: &[u8], collecting_telemetry_at: Option<usize>) -> u32 {
    let mut m = frame[ETH_LEN..].to_vec();
    let ip = 0;
    m[ip + 1] = 0xFF; // TOS
    m[ip + 8] = 0xFF; // TTL
    m[ip + 10] = 0xFF; // header checksum
    m[ip + 11] = 0xFF;
    let udp = 20;
    m[udp + 6] = 0xFF; // UDP checksum
    m[udp + 7] = 0xFF;
    m[BTH_OFFSET - ETH_LEN + 4] = 0xFF; // BTH resv8a: F, B, resv6a
    if let Some(t) = collecting_telemetry_at {
        let t = t - ETH_LEN;
        m[t + 1] = 0xFF;
        m[t + TELEMETRY_FIXED_LEN..t + TELEMETRY_LEN].fill(0xFF);
    }
    let mut d = CRC32.digest();
    d.update(&[0xFF; 8]);
    d.update(&m);
    d.finalize()
}

/// Plain RoCEv2 ICRC of a frame without telemetry (what any RoCEv2 NIC computes).
pub fn rocev2_icrc(frame_without_icrc: &[u8]) -> u32 {
    icrc(frame_without_icrc, None)
}
