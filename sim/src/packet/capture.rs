//! Frames to and from pcap files (Ethernet link type, no FCS), and reading tshark's fields:
//! what the packet, Tx and Rx tests and `hpcc-nic rx --pcap` share.

use pcap_file::pcap::{PcapPacket, PcapReader, PcapWriter};
use std::path::Path;
use std::process::Command;

/// An I/O or pcap format error.
pub type Error = Box<dyn std::error::Error>;

/// Writes `frames` to a pcap file, one microsecond apart.
pub fn write_pcap(path: &Path, frames: &[Vec<u8>]) -> Result<(), Error> {
    let mut w = PcapWriter::new(std::fs::File::create(path)?)?; // linktype 1 (Ethernet)
    for (i, f) in frames.iter().enumerate() {
        let ts = std::time::Duration::from_micros(i as u64);
        w.write_packet(&PcapPacket::new(ts, f.len() as u32, f))?;
    }
    Ok(())
}

/// The frames of a pcap file.
pub fn read_pcap(path: &Path) -> Result<Vec<Vec<u8>>, Error> {
    let mut r = PcapReader::new(std::fs::File::open(path)?)?;
    let mut frames = vec![];
    while let Some(p) = r.next_packet() {
        frames.push(p?.data.into_owned());
    }
    Ok(frames)
}

/// Whether tshark runs here; tests that need it print `SKIPPED` and pass when it does not
/// (`.ci/deps` installs it).
pub fn tshark_available() -> bool {
    Command::new("tshark").arg("-v").output().is_ok()
}

/// A tshark field: some print in hex (0x...), some in decimal; None when empty. Panics on
/// anything else.
pub fn tshark_number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => Some(u64::from_str_radix(h, 16).unwrap()),
        None if s.is_empty() => None,
        None => Some(s.parse().unwrap_or_else(|_| panic!("not a number: {s}"))),
    }
}
