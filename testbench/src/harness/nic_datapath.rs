//! Two `nic_datapath` RTL instances, A and B, back to back: each with a host memory behind its
//! DMA read and write ports, and a link between their MAC ports that delays frames, can drop
//! chosen ones and, like a switch, pushes one telemetry hop into every collecting header
//! (data frames of flows with telemetry, probes). The test bench drives control words,
//! PktSends and probe requests and records what leaves each NIC: frames, CC events, Notifies.
//! Random backpressure on every port the host or the MAC drives.

use super::{get_wide, set_wide};
use crate::verilated::models::NicDatapath as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::{IntHop, LineRate, RocePacket};
use sim::rx_pipe::{beats, Beat};
use std::collections::{HashMap, VecDeque};

/// Flow count of the exported top: 2^10.
pub const FLOW_BITS: usize = 10;
/// Cycles of an RTL sweep after reset (tx_ctx and rx_ctx clear 2^F words).
const SWEEP: u64 = (1 << FLOW_BITS) + 4;

/// One NIC and its host.
pub struct Nic {
    pub dut: Rtl,
    /// Host memory, byte by byte (absent = never written).
    pub mem: HashMap<u64, u8>,
    tx_ctrl: VecDeque<[u8; 64]>,
    rx_ctrl: VecDeque<[u8; 16]>,
    probes: VecDeque<u16>,
    /// Flows offered a PktSend on every cycle, round robin.
    pub sending: Vec<u16>,
    next_send: usize,
    rd_beats: VecDeque<Beat>,
    wr_cmds: VecDeque<(u64, usize)>,
    wr_buf: Vec<u8>,
    wr_done: VecDeque<Vec<u8>>,
    tx_buf: Vec<u8>,
    rx_beats: VecDeque<Beat>,
    /// Frames this NIC sent (before the link touched them), in order.
    pub sent: Vec<Vec<u8>>,
    /// Frames the MAC marked bad (tuser) on the way out.
    pub bad_frames: u64,
    /// CC events (`m_axis_event_tdata`, 64 bytes each).
    pub events: Vec<Vec<u8>>,
    /// Notifies: (flow, bytes).
    pub notifies: Vec<(u16, u32)>,
    /// DMA writes whose data length differed from the command's.
    pub wr_len_errors: u64,
}

impl Nic {
    fn new() -> Nic {
        Nic {
            dut: Rtl::new(),
            mem: HashMap::new(),
            tx_ctrl: VecDeque::new(),
            rx_ctrl: VecDeque::new(),
            probes: VecDeque::new(),
            sending: vec![],
            next_send: 0,
            rd_beats: VecDeque::new(),
            wr_cmds: VecDeque::new(),
            wr_buf: vec![],
            wr_done: VecDeque::new(),
            tx_buf: vec![],
            rx_beats: VecDeque::new(),
            sent: vec![],
            bad_frames: 0,
            events: vec![],
            notifies: vec![],
            wr_len_errors: 0,
        }
    }

    /// Queues a tx_ctx control word (`sim::tx_ctx::Ctrl::to_bytes`).
    pub fn tx_ctrl(&mut self, w: [u8; 64]) {
        self.tx_ctrl.push_back(w);
    }

    /// Queues an rx_ctx control word (`sim::rx_ctx::Ctrl::to_bytes`).
    pub fn rx_ctrl(&mut self, w: [u8; 16]) {
        self.rx_ctrl.push_back(w);
    }

    /// Queues a probe request for `flow`.
    pub fn probe(&mut self, flow: u16) {
        self.probes.push_back(flow);
    }

    /// `bytes` at `addr` in host memory.
    pub fn fill(&mut self, addr: u64, bytes: &[u8]) {
        for (i, b) in bytes.iter().enumerate() {
            self.mem.insert(addr + i as u64, *b);
        }
    }

    /// `len` bytes at `addr` (None where never written).
    pub fn read(&self, addr: u64, len: usize) -> Vec<Option<u8>> {
        (0..len as u64).map(|i| self.mem.get(&(addr + i)).copied()).collect()
    }

    /// Every control word, probe request and DMA transfer has been taken.
    pub fn idle(&self) -> bool {
        self.tx_ctrl.is_empty() && self.rx_ctrl.is_empty() && self.probes.is_empty() && self.rd_beats.is_empty()
    }
}

/// A frame on the link, delivered at `at`.
struct InFlight {
    at: u64,
    frame: Vec<u8>,
}

/// Decides whether the link drops a frame: (direction A->B, the parsed frame, how many frames
/// that direction has carried before it).
pub type DropFn = Box<dyn FnMut(bool, &RocePacket, u64) -> bool>;

/// A and B and the link.
pub struct Pair {
    pub a: Nic,
    pub b: Nic,
    ab: VecDeque<InFlight>,
    ba: VecDeque<InFlight>,
    /// Frames carried / dropped per direction (A->B, B->A).
    pub carried: [u64; 2],
    pub dropped: [u64; 2],
    /// Link delay in cycles.
    pub delay: u64,
    /// Probability that a port the host or MAC drives is not ready (or has no data) on a cycle.
    pub backpressure: f64,
    pub drop: DropFn,
    /// Hops the "switch" wrote, in order, per direction.
    pub hops: [Vec<IntHop>; 2],
    pub cycle: u64,
    rng: ChaCha8Rng,
}

impl Pair {
    /// Both NICs reset and swept.
    pub fn new(seed: u64, delay: u64, backpressure: f64) -> Pair {
        let mut p = Pair {
            a: Nic::new(),
            b: Nic::new(),
            ab: VecDeque::new(),
            ba: VecDeque::new(),
            carried: [0; 2],
            dropped: [0; 2],
            delay,
            backpressure,
            drop: Box::new(|_, _, _| false),
            hops: [vec![], vec![]],
            cycle: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        for n in [&mut p.a, &mut p.b] {
            n.dut.set_reset(1);
            n.dut.tick();
            n.dut.set_reset(0);
            for _ in 0..SWEEP {
                n.dut.tick();
            }
        }
        p
    }

    /// Runs until `done` holds (checked every cycle) or `max` cycles pass; true if it held.
    pub fn run_until(&mut self, max: u64, mut done: impl FnMut(&Pair) -> bool) -> bool {
        for _ in 0..max {
            if done(self) {
                return true;
            }
            self.step();
        }
        done(self)
    }

    /// One clock of both NICs and the link.
    pub fn step(&mut self) {
        let now = self.cycle;
        let (to_b, to_a) = (deliver(&mut self.ab, now), deliver(&mut self.ba, now));
        self.b.rx_beats.extend(to_b.iter().flat_map(|f| beats(f)));
        self.a.rx_beats.extend(to_a.iter().flat_map(|f| beats(f)));
        let mut out = [vec![], vec![]];
        for (k, n) in [&mut self.a, &mut self.b].into_iter().enumerate() {
            out[k] = cycle(n, now, &mut self.rng, self.backpressure);
        }
        for (k, frames) in out.into_iter().enumerate() {
            for f in frames {
                let ab = k == 0;
                let Ok(mut p) = RocePacket::parse(&f) else {
                    panic!("cycle {now}: {} sent a frame that does not parse: {f:02x?}", if ab { "A" } else { "B" })
                };
                let n = self.carried[!ab as usize];
                self.carried[!ab as usize] += 1;
                if (self.drop)(ab, &p, n) {
                    self.dropped[!ab as usize] += 1;
                    continue;
                }
                let mut frame = f;
                if let Some(t) = p.telemetry.as_mut().filter(|t| !t.echo) {
                    let hop = IntHop::from_counters(now * 4, now * 100, (now % 97) * 1000, LineRate::G100);
                    if t.push_hop(hop) {
                        self.hops[!ab as usize].push(hop);
                        frame = p.build();
                    }
                }
                let q = if ab { &mut self.ab } else { &mut self.ba };
                q.push_back(InFlight { at: now + self.delay, frame });
            }
        }
        self.cycle += 1;
    }
}

fn deliver(q: &mut VecDeque<InFlight>, now: u64) -> Vec<Vec<u8>> {
    let mut v = vec![];
    while q.front().is_some_and(|f| f.at <= now) {
        v.push(q.pop_front().unwrap().frame);
    }
    v
}

/// One clock of one NIC and its host; returns the frames it finished sending.
fn cycle(n: &mut Nic, now: u64, rng: &mut ChaCha8Rng, bp: f64) -> Vec<Vec<u8>> {
    let mut ready = || !rng.gen_bool(bp);
    let d = &mut n.dut;
    d.set_now_ns(now * 4);
    d.set_s_axis_tx_ctrl_tvalid(n.tx_ctrl.front().is_some() as u8);
    if let Some(w) = n.tx_ctrl.front() {
        set_wide(d.s_axis_tx_ctrl_tdata_mut(), w);
    }
    d.set_s_axis_rx_ctrl_tvalid(n.rx_ctrl.front().is_some() as u8);
    if let Some(w) = n.rx_ctrl.front() {
        set_wide(d.s_axis_rx_ctrl_tdata_mut(), w);
    }
    let send = (!n.sending.is_empty()).then(|| n.sending[n.next_send % n.sending.len()]);
    d.set_s_axis_pktsend_tvalid(send.is_some() as u8);
    d.set_s_axis_pktsend_tdata(send.unwrap_or(0));
    d.set_s_axis_probe_tvalid(n.probes.front().is_some() as u8);
    d.set_s_axis_probe_tdata(n.probes.front().copied().unwrap_or(0));
    let rd_ready = ready();
    d.set_m_axis_dma_rd_tready(rd_ready as u8);
    let rd_data = n.rd_beats.front().filter(|_| ready()).cloned();
    d.set_s_axis_dma_rd_data_tvalid(rd_data.is_some() as u8);
    if let Some(b) = &rd_data {
        set_wide(d.s_axis_dma_rd_data_tdata_mut(), &b.data);
        d.set_s_axis_dma_rd_data_tkeep(b.keep);
        d.set_s_axis_dma_rd_data_tlast(b.last as u8);
    }
    let tx_ready = ready();
    d.set_m_axis_tx_tready(tx_ready as u8);
    let rx = n.rx_beats.front().filter(|_| ready()).cloned();
    d.set_s_axis_rx_tvalid(rx.is_some() as u8);
    if let Some(b) = &rx {
        set_wide(d.s_axis_rx_tdata_mut(), &b.data);
        d.set_s_axis_rx_tkeep(b.keep);
        d.set_s_axis_rx_tlast(b.last as u8);
        d.set_s_axis_rx_tuser(b.user as u8);
    }
    let (ev_ready, no_ready, wc_ready, wd_ready) = (ready(), ready(), ready(), ready());
    d.set_m_axis_event_tready(ev_ready as u8);
    d.set_m_axis_notify_tready(no_ready as u8);
    d.set_m_axis_dma_wr_cmd_tready(wc_ready as u8);
    d.set_m_axis_dma_wr_tready(wd_ready as u8);
    d.eval();

    if d.s_axis_tx_ctrl_tvalid() == 1 && d.s_axis_tx_ctrl_tready() == 1 {
        n.tx_ctrl.pop_front();
    }
    if d.s_axis_rx_ctrl_tvalid() == 1 && d.s_axis_rx_ctrl_tready() == 1 {
        n.rx_ctrl.pop_front();
    }
    if send.is_some() && d.s_axis_pktsend_tready() == 1 {
        n.next_send += 1;
    }
    if d.s_axis_probe_tvalid() == 1 && d.s_axis_probe_tready() == 1 {
        n.probes.pop_front();
    }
    if rd_ready && d.m_axis_dma_rd_tvalid() == 1 {
        let r = get_wide(d.m_axis_dma_rd_tdata());
        let addr = u64::from_le_bytes(r[..8].try_into().unwrap());
        let len = (u16::from_le_bytes([r[8], r[9]]) & 0x3FFF) as u64;
        let bytes: Vec<u8> = (0..len).map(|i| n.mem.get(&(addr + i)).copied().unwrap_or(0)).collect();
        n.rd_beats.extend(beats(&bytes));
    }
    if rd_data.is_some() && d.s_axis_dma_rd_data_tready() == 1 {
        n.rd_beats.pop_front();
    }
    let mut done = vec![];
    if tx_ready && d.m_axis_tx_tvalid() == 1 {
        let data = get_wide(d.m_axis_tx_tdata());
        let keep = d.m_axis_tx_tkeep();
        n.tx_buf.extend((0..64).filter(|i| keep >> i & 1 == 1).map(|i| data[i]));
        if d.m_axis_tx_tlast() == 1 {
            let f = std::mem::take(&mut n.tx_buf);
            if d.m_axis_tx_tuser() == 1 {
                n.bad_frames += 1;
            } else {
                n.sent.push(f.clone());
                done.push(f);
            }
        }
    }
    if rx.is_some() && d.s_axis_rx_tready() == 1 {
        n.rx_beats.pop_front();
    }
    if ev_ready && d.m_axis_event_tvalid() == 1 {
        n.events.push(get_wide(d.m_axis_event_tdata()));
    }
    if no_ready && d.m_axis_notify_tvalid() == 1 {
        let w = d.m_axis_notify_tdata();
        n.notifies.push(((w >> 32) as u16, w as u32));
    }
    if wc_ready && d.m_axis_dma_wr_cmd_tvalid() == 1 {
        let c = get_wide(d.m_axis_dma_wr_cmd_tdata());
        let addr = u64::from_le_bytes(c[..8].try_into().unwrap());
        let len = (u16::from_le_bytes([c[8], c[9]]) & 0x3FFF) as usize;
        n.wr_cmds.push_back((addr, len));
    }
    if wd_ready && d.m_axis_dma_wr_tvalid() == 1 {
        let data = get_wide(d.m_axis_dma_wr_tdata());
        let keep = d.m_axis_dma_wr_tkeep();
        n.wr_buf.extend((0..64).filter(|i| keep >> i & 1 == 1).map(|i| data[i]));
        if d.m_axis_dma_wr_tlast() == 1 {
            n.wr_done.push_back(std::mem::take(&mut n.wr_buf));
        }
    }
    // Commands and data leave rx_dma on separate streams: paired in order.
    while !n.wr_cmds.is_empty() && !n.wr_done.is_empty() {
        let (addr, len) = n.wr_cmds.pop_front().unwrap();
        let buf = n.wr_done.pop_front().unwrap();
        if buf.len() != len {
            n.wr_len_errors += 1;
        }
        for (i, b) in buf.iter().enumerate() {
            n.mem.insert(addr + i as u64, *b);
        }
    }
    d.tick();
    done
}

/// The 32-bit seq field of a CC event (`sim::rx_ctx::CcEvent`): bytes 4..8.
pub fn event_seq(e: &[u8]) -> u32 {
    u32::from_le_bytes(e[4..8].try_into().unwrap())
}

/// The event type (low 4 bits of byte 2).
pub fn event_kind(e: &[u8]) -> u8 {
    e[2] & 15
}
