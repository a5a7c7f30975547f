//! A NIC's surroundings in the two-NIC harnesses: host memory behind the DMA read and write
//! streams, and the MAC's transmit and receive streams, for any Verilated top that has
//! nic_datapath's DMA and MAC ports (nic_datapath, hpcc_nic_core). Random backpressure on
//! every port the host or the MAC drives.

use super::{get_wide, set_wide};
use sim::rx_pipe::Beat;
use sim::tx_ctx::DmaRead;
use std::collections::{HashMap, VecDeque};

/// Offset of the BTH opcode in a frame (Ethernet 14 + IPv4 20 + UDP 8).
const ROCE_OPCODE_AT: usize = 42;

/// The DMA and MAC ports of a Verilated NIC top.
pub trait HostPorts {
    fn set_m_axis_dma_rd_tready(&mut self, v: u8);
    fn m_axis_dma_rd_tvalid(&self) -> u8;
    fn m_axis_dma_rd_tdata(&self) -> &[u32];
    fn set_s_axis_dma_rd_data_tvalid(&mut self, v: u8);
    fn s_axis_dma_rd_data_tdata_mut(&mut self) -> &mut [u32];
    fn set_s_axis_dma_rd_data_tkeep(&mut self, v: u64);
    fn set_s_axis_dma_rd_data_tlast(&mut self, v: u8);
    fn s_axis_dma_rd_data_tready(&self) -> u8;
    fn set_m_axis_tx_tready(&mut self, v: u8);
    fn m_axis_tx_tvalid(&self) -> u8;
    fn m_axis_tx_tdata(&self) -> &[u32];
    fn m_axis_tx_tkeep(&self) -> u64;
    fn m_axis_tx_tlast(&self) -> u8;
    fn m_axis_tx_tuser(&self) -> u8;
    fn set_s_axis_rx_tvalid(&mut self, v: u8);
    fn s_axis_rx_tdata_mut(&mut self) -> &mut [u32];
    fn set_s_axis_rx_tkeep(&mut self, v: u64);
    fn set_s_axis_rx_tlast(&mut self, v: u8);
    fn set_s_axis_rx_tuser(&mut self, v: u8);
    fn s_axis_rx_tready(&self) -> u8;
    fn set_m_axis_dma_wr_cmd_tready(&mut self, v: u8);
    fn m_axis_dma_wr_cmd_tvalid(&self) -> u8;
    fn m_axis_dma_wr_cmd_tdata(&self) -> &[u32];
    fn set_m_axis_dma_wr_tready(&mut self, v: u8);
    fn m_axis_dma_wr_tvalid(&self) -> u8;
    fn m_axis_dma_wr_tdata(&self) -> &[u32];
    fn m_axis_dma_wr_tkeep(&self) -> u64;
    fn m_axis_dma_wr_tlast(&self) -> u8;
}

/// Implements [`HostPorts`] for a generated model by forwarding to its port methods.
macro_rules! host_ports {
    ($t:ty) => {
        impl $crate::harness::host::HostPorts for $t {
            fn set_m_axis_dma_rd_tready(&mut self, v: u8) { <$t>::set_m_axis_dma_rd_tready(self, v) }
            fn m_axis_dma_rd_tvalid(&self) -> u8 { <$t>::m_axis_dma_rd_tvalid(self) }
            fn m_axis_dma_rd_tdata(&self) -> &[u32] { <$t>::m_axis_dma_rd_tdata(self) }
            fn set_s_axis_dma_rd_data_tvalid(&mut self, v: u8) { <$t>::set_s_axis_dma_rd_data_tvalid(self, v) }
            fn s_axis_dma_rd_data_tdata_mut(&mut self) -> &mut [u32] { <$t>::s_axis_dma_rd_data_tdata_mut(self) }
            fn set_s_axis_dma_rd_data_tkeep(&mut self, v: u64) { <$t>::set_s_axis_dma_rd_data_tkeep(self, v) }
            fn set_s_axis_dma_rd_data_tlast(&mut self, v: u8) { <$t>::set_s_axis_dma_rd_data_tlast(self, v) }
            fn s_axis_dma_rd_data_tready(&self) -> u8 { <$t>::s_axis_dma_rd_data_tready(self) }
            fn set_m_axis_tx_tready(&mut self, v: u8) { <$t>::set_m_axis_tx_tready(self, v) }
            fn m_axis_tx_tvalid(&self) -> u8 { <$t>::m_axis_tx_tvalid(self) }
            fn m_axis_tx_tdata(&self) -> &[u32] { <$t>::m_axis_tx_tdata(self) }
            fn m_axis_tx_tkeep(&self) -> u64 { <$t>::m_axis_tx_tkeep(self) }
            fn m_axis_tx_tlast(&self) -> u8 { <$t>::m_axis_tx_tlast(self) }
            fn m_axis_tx_tuser(&self) -> u8 { <$t>::m_axis_tx_tuser(self) }
            fn set_s_axis_rx_tvalid(&mut self, v: u8) { <$t>::set_s_axis_rx_tvalid(self, v) }
            fn s_axis_rx_tdata_mut(&mut self) -> &mut [u32] { <$t>::s_axis_rx_tdata_mut(self) }
            fn set_s_axis_rx_tkeep(&mut self, v: u64) { <$t>::set_s_axis_rx_tkeep(self, v) }
            fn set_s_axis_rx_tlast(&mut self, v: u8) { <$t>::set_s_axis_rx_tlast(self, v) }
            fn set_s_axis_rx_tuser(&mut self, v: u8) { <$t>::set_s_axis_rx_tuser(self, v) }
            fn s_axis_rx_tready(&self) -> u8 { <$t>::s_axis_rx_tready(self) }
            fn set_m_axis_dma_wr_cmd_tready(&mut self, v: u8) { <$t>::set_m_axis_dma_wr_cmd_tready(self, v) }
            fn m_axis_dma_wr_cmd_tvalid(&self) -> u8 { <$t>::m_axis_dma_wr_cmd_tvalid(self) }
            fn m_axis_dma_wr_cmd_tdata(&self) -> &[u32] { <$t>::m_axis_dma_wr_cmd_tdata(self) }
            fn set_m_axis_dma_wr_tready(&mut self, v: u8) { <$t>::set_m_axis_dma_wr_tready(self, v) }
            fn m_axis_dma_wr_tvalid(&self) -> u8 { <$t>::m_axis_dma_wr_tvalid(self) }
            fn m_axis_dma_wr_tdata(&self) -> &[u32] { <$t>::m_axis_dma_wr_tdata(self) }
            fn m_axis_dma_wr_tkeep(&self) -> u64 { <$t>::m_axis_dma_wr_tkeep(self) }
            fn m_axis_dma_wr_tlast(&self) -> u8 { <$t>::m_axis_dma_wr_tlast(self) }
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

/// The host and the MAC of one NIC.
#[derive(Default)]
pub struct Host {
    /// Host memory (None = never written).
    pub mem: Mem,
    rd_beats: VecDeque<Beat>,
    wr_cmds: VecDeque<(u64, usize)>,
    wr_buf: Vec<u8>,
    wr_done: VecDeque<Vec<u8>>,
    tx_buf: Vec<u8>,
    /// Beats the MAC has yet to deliver.
    pub rx_beats: VecDeque<Beat>,
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
    /// Wire bytes the MAC sent (with the overhead above), for rate measurements.
    pub wire_bytes: u64,
}

/// Wire bytes of an Ethernet frame of `len` bytes without FCS: FCS, minimum size, preamble,
/// SFD and inter-frame gap (the switch model's count, so MACs and switch ports agree).
pub use sim::switch::wire_bytes;

/// What the host and the MAC offered or took this cycle.
pub struct Offer {
    rd_ready: bool,
    rd_data: Option<Beat>,
    tx_ready: bool,
    rx: Option<Beat>,
    wc_ready: bool,
    wd_ready: bool,
}

impl Host {
    pub fn new() -> Host {
        Host { keep: true, ..Default::default() }
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
        self.rd_beats.is_empty()
    }

    /// Drives the DMA read, MAC transmit and MAC receive ports (`ready` draws one random
    /// decision per port); the write ports come from [`Host::drive_writes`].
    pub fn drive(&mut self, d: &mut impl HostPorts, ready: &mut impl FnMut() -> bool) -> Offer {
        let rd_ready = ready();
        d.set_m_axis_dma_rd_tready(rd_ready as u8);
        let rd_data = self.rd_beats.front().filter(|_| ready()).cloned();
        d.set_s_axis_dma_rd_data_tvalid(rd_data.is_some() as u8);
        if let Some(b) = &rd_data {
            set_wide(d.s_axis_dma_rd_data_tdata_mut(), &b.data);
            d.set_s_axis_dma_rd_data_tkeep(b.keep);
            d.set_s_axis_dma_rd_data_tlast(b.last as u8);
        }
        if let Some(r) = self.mac_rate {
            self.mac_credit = (self.mac_credit + r).min(64.0);
        }
        let tx_ready = ready() && (self.mac_rate.is_none() || self.mac_credit > 0.0);
        d.set_m_axis_tx_tready(tx_ready as u8);
        let rx = self.rx_beats.front().filter(|_| ready()).cloned();
        d.set_s_axis_rx_tvalid(rx.is_some() as u8);
        if let Some(b) = &rx {
            set_wide(d.s_axis_rx_tdata_mut(), &b.data);
            d.set_s_axis_rx_tkeep(b.keep);
            d.set_s_axis_rx_tlast(b.last as u8);
            d.set_s_axis_rx_tuser(b.user as u8);
        }
        Offer { rd_ready, rd_data, tx_ready, rx, wc_ready: false, wd_ready: false }
    }

    /// Drives the DMA write command and data readies.
    pub fn drive_writes(&mut self, d: &mut impl HostPorts, o: &mut Offer, wc_ready: bool, wd_ready: bool) {
        o.wc_ready = wc_ready;
        o.wd_ready = wd_ready;
        d.set_m_axis_dma_wr_cmd_tready(wc_ready as u8);
        d.set_m_axis_dma_wr_tready(wd_ready as u8);
    }

    /// After eval: serves DMA reads, takes DMA writes into memory and collects transmitted
    /// frames; returns the frames finished this cycle.
    pub fn collect(&mut self, d: &impl HostPorts, o: &Offer) -> Vec<Vec<u8>> {
        if o.rd_ready && d.m_axis_dma_rd_tvalid() == 1 {
            let r = get_wide(d.m_axis_dma_rd_tdata());
            let DmaRead { addr, len, .. } = DmaRead::of(&r);
            let bytes: Vec<u8> = (0..len as u64).map(|i| self.mem.get(addr + i).unwrap_or(0)).collect();
            self.rd_beats.extend(sim::rx_pipe::beats(&bytes));
        }
        if o.rd_data.is_some() && d.s_axis_dma_rd_data_tready() == 1 {
            self.rd_beats.pop_front();
        }
        let mut done = vec![];
        if o.tx_ready && d.m_axis_tx_tvalid() == 1 {
            let data = get_wide(d.m_axis_tx_tdata());
            let keep = d.m_axis_tx_tkeep();
            self.tx_buf.extend((0..64).filter(|i| keep >> i & 1 == 1).map(|i| data[i]));
            self.mac_credit -= keep.count_ones() as f64;
            if d.m_axis_tx_tlast() == 1 {
                let f = std::mem::take(&mut self.tx_buf);
                let wire = wire_bytes(f.len());
                self.wire_bytes += wire;
                self.mac_credit -= (wire - f.len() as u64) as f64;
                if d.m_axis_tx_tuser() == 1 {
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
        if o.rx.is_some() && d.s_axis_rx_tready() == 1 {
            self.rx_beats.pop_front();
        }
        if o.wc_ready && d.m_axis_dma_wr_cmd_tvalid() == 1 {
            let (addr, len) = sim::rx_dma::DmaWrite::addr_len_of(&get_wide(d.m_axis_dma_wr_cmd_tdata()));
            self.wr_cmds.push_back((addr, len));
        }
        if o.wd_ready && d.m_axis_dma_wr_tvalid() == 1 {
            let data = get_wide(d.m_axis_dma_wr_tdata());
            let keep = d.m_axis_dma_wr_tkeep();
            self.wr_buf.extend((0..64).filter(|i| keep >> i & 1 == 1).map(|i| data[i]));
            if d.m_axis_dma_wr_tlast() == 1 {
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
