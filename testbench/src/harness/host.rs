//! A NIC's surroundings in the two-NIC harnesses: host memory behind the DMA read and write
//! streams, and the MAC's transmit and receive streams, for any Verilated top that has
//! nic_datapath's DMA and MAC ports (nic_datapath, hpcc_nic_core). Random backpressure on
//! every port the host or the MAC drives.

use super::get_wide;
use super::stream::{Sink, Source};
use crate::verilated::{MAxis, SAxis};
use rand::Rng;
use sim::rx_pipe::Beat;
use sim::tx_ctx::DmaRead;
use std::collections::{HashMap, VecDeque};

/// Offset of the BTH opcode in a frame (Ethernet 14 + IPv4 20 + UDP 8).
const ROCE_OPCODE_AT: usize = 42;

/// The DMA and MAC streams of a Verilated NIC top: its generated handles.
pub trait HostPorts: Sized {
    const DMA_RD: MAxis<Self>;
    const DMA_RD_DATA: SAxis<Self>;
    const TX: MAxis<Self>;
    const RX: SAxis<Self>;
    const DMA_WR_CMD: MAxis<Self>;
    const DMA_WR: MAxis<Self>;
}

/// [`HostPorts`] of a model with nic_datapath's port names.
macro_rules! host_ports {
    ($t:ty) => {
        impl HostPorts for $t {
            const DMA_RD: MAxis<Self> = <$t>::M_AXIS_DMA_RD;
            const DMA_RD_DATA: SAxis<Self> = <$t>::S_AXIS_DMA_RD_DATA;
            const TX: MAxis<Self> = <$t>::M_AXIS_TX;
            const RX: SAxis<Self> = <$t>::S_AXIS_RX;
            const DMA_WR_CMD: MAxis<Self> = <$t>::M_AXIS_DMA_WR_CMD;
            const DMA_WR: MAxis<Self> = <$t>::M_AXIS_DMA_WR;
        }
    };
}

host_ports!(crate::verilated::models::NicDatapath);
host_ports!(crate::verilated::models::HpccNicCore);

/// Sparse host memory in 4 KiB pages.
#[derive(Default)]
pub struct Mem {
    pages: HashMap<u64, Box<[Option<u8>; 4096]>>,
}

impl Mem {
    pub fn get(&self, a: u64) -> Option<u8> {
        self.pages.get(&(a >> 12)).and_then(|p| p[(a & 4095) as usize])
    }

    pub fn set(&mut self, a: u64, b: u8) {
        self.pages.entry(a >> 12).or_insert_with(|| Box::new([None; 4096]))[(a & 4095) as usize] = Some(b);
    }
}

/// The host and the MAC of one NIC (a Verilated top `M`).
pub struct Host<M> {
    /// Host memory (None = never written).
    pub mem: Mem,
    /// DMA read requests in, their data out (a request's bytes queued as beats at once).
    rd_req: Sink<M>,
    rd_data: Source<M, Beat>,
    /// DMA writes: commands and data come on separate streams and are paired in order.
    wr_cmd: Sink<M>,
    wr_data: Sink<M>,
    wr_cmds: VecDeque<(u64, usize)>,
    wr_buf: Vec<u8>,
    wr_done: VecDeque<Vec<u8>>,
    /// The MAC: frames out, frames in (beats it has yet to deliver wait in `rx`).
    tx: Sink<M>,
    tx_buf: Vec<u8>,
    rx: Source<M, Beat>,
    /// Frames this NIC sent (before the link touched them), in order, if `keep` is set.
    pub sent: Vec<Vec<u8>>,
    pub keep: bool,
    /// Frames sent, and of them requests (WRITE packets, READ requests).
    pub frames: u64,
    pub requests: u64,
    /// Frames the MAC marked bad (tuser) on the way out.
    pub bad_frames: u64,
    /// DMA writes whose data length differed from the command's.
    pub wr_len_errors: u64,
    /// The MAC's line rate in bytes per cycle (None: a beat whenever ready, 128 Gb/s at
    /// 250 MHz). Each frame costs its wire bytes: max(length + 4 FCS, 64) + 20 (preamble,
    /// SFD, inter-frame gap); a token bucket of this rate, holding at most one beat, paces them.
    pub mac_rate: Option<f64>,
    mac_credit: f64,
    /// PFC: the link partner has paused this MAC; it finishes the frame it is sending and
    /// starts no other until resumed.
    pub paused: bool,
    /// Wire bytes the MAC sent (with the overhead above), for rate measurements.
    pub wire_bytes: u64,
}

/// Wire bytes of an Ethernet frame of `len` bytes without FCS: FCS, minimum size, preamble,
/// SFD and inter-frame gap (the switch model's count, so MACs and switch ports agree).
pub use sim::switch::wire_bytes;

impl<M: HostPorts> Default for Host<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: HostPorts> Host<M> {
    pub fn new() -> Host<M> {
        Host {
            mem: Mem::default(),
            rd_req: Sink::new(M::DMA_RD, 0.0),
            rd_data: Source::new(M::DMA_RD_DATA),
            wr_cmd: Sink::new(M::DMA_WR_CMD, 0.0),
            wr_data: Sink::new(M::DMA_WR, 0.0),
            wr_cmds: VecDeque::new(),
            wr_buf: vec![],
            wr_done: VecDeque::new(),
            tx: Sink::new(M::TX, 0.0),
            tx_buf: vec![],
            rx: Source::new(M::RX),
            sent: vec![],
            keep: true,
            frames: 0,
            requests: 0,
            bad_frames: 0,
            wr_len_errors: 0,
            mac_rate: None,
            mac_credit: 0.0,
            paused: false,
            wire_bytes: 0,
        }
    }

    /// A frame arrives at the MAC: its beats, delivered in order after those before them.
    pub fn receive(&mut self, beats: impl IntoIterator<Item = Beat>) {
        beats.into_iter().for_each(|b| self.rx.push(b));
    }

    /// `bytes` at `addr` in host memory.
    pub fn fill(&mut self, addr: u64, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.mem.set(addr + i as u64, *b);
        }
    }

    /// `len` bytes at `addr` (None where never written).
    pub fn read(&self, addr: u64, len: usize) -> Vec<Option<u8>> {
        (0..len as u64).map(|i| self.mem.get(addr + i)).collect()
    }

    /// Whether `bytes` are at `addr`, every one of them written (a byte never written is no
    /// match, whatever it is expected to be).
    pub fn holds(&self, addr: u64, bytes: &[u8]) -> bool {
        bytes.iter().enumerate().all(|(i, &b)| self.mem.get(addr + i as u64) == Some(b))
    }

    /// No DMA read data is waiting to go in.
    pub fn idle(&self) -> bool {
        self.rd_data.is_empty()
    }

    /// Before eval: drives the DMA read, MAC transmit and MAC receive ports, each ready or
    /// offering with chance 1 - `bp` (a beat once offered stays until taken); the write ports
    /// come from [`Host::drive_writes`].
    pub fn drive<R: Rng>(&mut self, d: &mut M, rng: &mut R, bp: f64) {
        self.rd_req.stall = bp;
        self.rd_req.ready(d, rng);
        self.rd_data.rate = 1.0 - bp;
        self.rd_data.offer(d, rng);
        if let Some(r) = self.mac_rate {
            self.mac_credit = (self.mac_credit + r).min(64.0);
        }
        let held = self.paused && self.tx_buf.is_empty();
        let tx_ready = !rng.gen_bool(bp) && (self.mac_rate.is_none() || self.mac_credit > 0.0) && !held;
        self.tx.set_ready(d, tx_ready);
        self.rx.rate = 1.0 - bp;
        self.rx.offer(d, rng);
    }

    /// Before eval: the DMA write command and data readies.
    pub fn drive_writes(&mut self, d: &mut M, wc_ready: bool, wd_ready: bool) {
        self.wr_cmd.set_ready(d, wc_ready);
        self.wr_data.set_ready(d, wd_ready);
    }

    /// After eval: serves DMA reads, takes DMA writes into memory and collects transmitted
    /// frames; returns the frames finished this cycle.
    pub fn collect(&mut self, d: &M) -> Vec<Vec<u8>> {
        if let Some(w) = self.rd_req.take(d) {
            let DmaRead { addr, len, .. } = DmaRead::of(&get_wide(w));
            let bytes: Vec<u8> = (0..len as u64).map(|i| self.mem.get(addr + i).unwrap_or(0)).collect();
            sim::rx_pipe::beats(&bytes).into_iter().for_each(|b| self.rd_data.push(b));
        }
        self.rd_data.taken(d);
        let mut done = vec![];
        if let Some(w) = self.tx.take(d) {
            let data = get_wide(w);
            let (keep, last, bad) = (self.tx.keep, self.tx.last, self.tx.user == 1);
            self.tx_buf.extend((0..64).filter(|i| keep >> i & 1 == 1).map(|i| data[i]));
            self.mac_credit -= keep.count_ones() as f64;
            if last {
                let f = std::mem::take(&mut self.tx_buf);
                let wire = wire_bytes(f.len());
                self.wire_bytes += wire;
                self.mac_credit -= (wire - f.len() as u64) as f64;
                if bad {
                    self.bad_frames += 1;
                } else {
                    self.frames += 1;
                    self.requests +=
                        f.get(ROCE_OPCODE_AT).is_some_and(|op| matches!(op, 0x06..=0x08 | 0x0A | 0x0C)) as u64;
                    if self.keep {
                        self.sent.push(f.clone());
                    }
                    done.push(f);
                }
            }
        }
        self.rx.taken(d);
        if let Some(w) = self.wr_cmd.take(d) {
            self.wr_cmds.push_back(sim::rx_dma::DmaWrite::addr_len_of(&get_wide(w)));
        }
        if let Some(w) = self.wr_data.take(d) {
            let data = get_wide(w);
            let (keep, last) = (self.wr_data.keep, self.wr_data.last);
            self.wr_buf.extend((0..64).filter(|i| keep >> i & 1 == 1).map(|i| data[i]));
            if last {
                self.wr_done.push_back(std::mem::take(&mut self.wr_buf));
            }
        }
        // Commands and data leave rx_dma on separate streams: paired in order.
        while !self.wr_cmds.is_empty() && !self.wr_done.is_empty() {
            let (addr, len) = self.wr_cmds.pop_front().unwrap();
            let buf = self.wr_done.pop_front().unwrap();
            if buf.len() != len {
                self.wr_len_errors += 1;
            }
            for (i, b) in buf.iter().enumerate() {
                self.mem.set(addr + i as u64, *b);
            }
        }
        done
    }
}
