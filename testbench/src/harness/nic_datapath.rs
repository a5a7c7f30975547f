//! Two `nic_datapath` RTL instances, A and B, back to back: each with a host memory behind its
//! DMA read and write ports, and a link between their MAC ports that delays frames, can drop
//! chosen ones and, like a switch, pushes one telemetry hop into every collecting header
//! (data frames of flows with telemetry, probes). The test bench drives control words,
//! PktSends and probe requests and records what leaves each NIC: frames, CC events, Notifies.
//! Random backpressure on every port the host or the MAC drives. Each NIC's cycle model
//! (`sim::nic_datapath`, [`cycle`]) runs beside it and must show the same ports on every cycle.

pub mod cycle;

use super::host::Host;
use super::get_wide;
use super::stream::{put, Sink, Source};
use crate::verilated::models::NicDatapath as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::CC_EVENT;
use sim::cc_module::Feedback;
use sim::flow_sched::Notify;
use sim::rx_ctx::Ctrl as RxCtrl;
use sim::tx_ctx::Ctrl as TxCtrl;
use sim::packet::{Ecn, IntHop, LineRate, RocePacket};
use sim::rx_pipe::{beats, Beat};
use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// Flow count of the exported top: 2^10.
pub const FLOW_BITS: usize = 10;
/// Cycles of an RTL sweep after reset (tx_ctx and rx_ctx clear 2^F words).
pub const SWEEP: u64 = (1 << FLOW_BITS) + 4;

/// One NIC and its host.
pub struct Nic {
    pub dut: Rtl,
    /// Host memory, DMA and MAC.
    pub host: Host<Rtl>,
    tx_ctrl: Source<Rtl, TxCtrl>,
    rx_ctrl: Source<Rtl, RxCtrl>,
    probes: Source<Rtl, u16>,
    /// Rx-HPCC feedback words (`layout::FEEDBACK`: W, flow), as cc_module would give them.
    feedback: Source<Rtl, u64>,
    /// The cycle model beside the RTL.
    pub lockstep: cycle::Lockstep,
    /// Flows offered a PktSend on every cycle, round robin. The harness stands in for the
    /// scheduler and may change this list on any cycle, so the PktSend port is driven as
    /// the list says each cycle (`stream::put`), not held like a queued item.
    pub sending: Vec<u16>,
    next_send: usize,
    event: Sink<Rtl>,
    notify: Sink<Rtl>,
    sleep: Sink<Rtl>,
    /// Per flow: the seq (snd_una) of the latest ACK-type CC event.
    pub acked: HashMap<u16, u32>,
    /// CC events (`m_axis_event_tdata`, 64 bytes each).
    pub events: Vec<Vec<u8>>,
    /// Notifies: (flow, bytes), if `keep`; and their bytes summed.
    pub notifies: Vec<(u16, u32)>,
    pub notified: u64,
}

impl Nic {
    fn new(vcd: Option<&Path>) -> Nic {
        Nic {
            dut: vcd.map_or_else(Rtl::new, Rtl::with_vcd),
            host: Host::new(),
            tx_ctrl: Source::new(Rtl::S_AXIS_TX_CTRL),
            rx_ctrl: Source::new(Rtl::S_AXIS_RX_CTRL),
            probes: Source::new(Rtl::S_AXIS_PROBE),
            feedback: Source::new(Rtl::S_AXIS_FEEDBACK),
            lockstep: cycle::Lockstep::new(),
            sending: vec![],
            next_send: 0,
            event: Sink::new(Rtl::M_AXIS_EVENT, 0.0),
            notify: Sink::new(Rtl::M_AXIS_NOTIFY, 0.0),
            sleep: Sink::new(Rtl::M_AXIS_SLEEP, 0.0),
            acked: HashMap::new(),
            events: vec![],
            notifies: vec![],
            notified: 0,
        }
    }

    /// Queues a tx_ctx control word.
    pub fn tx_ctrl(&mut self, c: TxCtrl) {
        self.tx_ctrl.push(c);
    }

    /// Queues an rx_ctx control word.
    pub fn rx_ctrl(&mut self, c: RxCtrl) {
        self.rx_ctrl.push(c);
    }

    /// Queues an Rx-HPCC feedback word: W (UQ24.8 bytes) for `flow`'s next ACK.
    pub fn feedback(&mut self, flow: u16, w: u32) {
        self.feedback.push((flow as u64) << 32 | w as u64);
    }

    /// Queues a probe request for `flow`.
    pub fn probe(&mut self, flow: u16) {
        self.probes.push(flow);
    }

    /// `bytes` at `addr` in host memory.
    pub fn fill(&mut self, addr: u64, bytes: &[u8]) {
        self.host.fill(addr, bytes);
    }

    /// `len` bytes at `addr` (None where never written).
    pub fn read(&self, addr: u64, len: usize) -> Vec<Option<u8>> {
        self.host.read(addr, len)
    }

    /// Every control word, probe request and DMA transfer has been taken.
    pub fn idle(&self) -> bool {
        self.tx_ctrl.is_empty() && self.rx_ctrl.is_empty() && self.probes.is_empty() && self.feedback.is_empty() && self.host.idle()
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

/// One NIC of a pair as the link sees it: a clock of it and its host, and where the frames it
/// receives go.
pub trait Side {
    /// One clock; returns the frames it finished sending.
    fn clock(&mut self, now: u64, rng: &mut ChaCha8Rng, backpressure: f64) -> Vec<Vec<u8>>;
    /// A frame arrives at its MAC (its beats).
    fn receive(&mut self, beats: Vec<Beat>);
}

impl Side for Nic {
    fn clock(&mut self, now: u64, rng: &mut ChaCha8Rng, backpressure: f64) -> Vec<Vec<u8>> {
        cycle(self, now, rng, backpressure)
    }

    fn receive(&mut self, beats: Vec<Beat>) {
        self.host.receive(beats);
    }
}

/// A and B and the link.
pub struct Pair<N: Side = Nic> {
    pub a: N,
    pub b: N,
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
    /// Probability that the link marks an ECN-capable frame CE, as a congested switch would.
    pub ce: f64,
    /// Frames marked CE per direction.
    pub marked: [u64; 2],
    pub cycle: u64,
    rng: ChaCha8Rng,
    ce_rng: ChaCha8Rng,
}

impl Pair<Nic> {
    /// Both NICs reset and swept.
    pub fn new(seed: u64, delay: u64, backpressure: f64) -> Pair {
        Pair::with_vcd(seed, delay, backpressure, None)
    }

    /// The same, A's waveform written to `vcd`.
    pub fn with_vcd(seed: u64, delay: u64, backpressure: f64, vcd: Option<&Path>) -> Pair {
        let mut p = Pair::of(Nic::new(vcd), Nic::new(None), seed, delay, backpressure);
        for n in [&mut p.a, &mut p.b] {
            idle(&mut n.dut);
            n.dut.set_reset(1);
            n.dut.tick();
            n.dut.set_reset(0);
            for _ in 0..SWEEP {
                n.dut.tick();
            }
        }
        p
    }
}

impl<N: Side> Pair<N> {
    /// `a` and `b` joined by a link of `delay` cycles that drops nothing (see `drop`).
    pub fn of(a: N, b: N, seed: u64, delay: u64, backpressure: f64) -> Pair<N> {
        Pair {
            a,
            b,
            ab: VecDeque::new(),
            ba: VecDeque::new(),
            carried: [0; 2],
            dropped: [0; 2],
            delay,
            backpressure,
            drop: Box::new(|_, _, _| false),
            hops: [vec![], vec![]],
            ce: 0.0,
            marked: [0; 2],
            cycle: 0,
            rng: ChaCha8Rng::seed_from_u64(seed),
            ce_rng: ChaCha8Rng::seed_from_u64(seed ^ 0xCE),
        }
    }

    /// Runs until `done` holds (checked every cycle) or `max` cycles pass; true if it held.
    pub fn run_until(&mut self, max: u64, mut done: impl FnMut(&Pair<N>) -> bool) -> bool {
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
        self.b.receive(to_b.iter().flat_map(|f| beats(f)).collect());
        self.a.receive(to_a.iter().flat_map(|f| beats(f)).collect());
        let mut out = [vec![], vec![]];
        for (k, n) in [&mut self.a, &mut self.b].into_iter().enumerate() {
            out[k] = n.clock(now, &mut self.rng, self.backpressure);
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
                let mut rebuild = false;
                if let Some(t) = p.telemetry.as_mut().filter(|t| !t.echo) {
                    let hop = IntHop::from_counters(now * 4, now * 100, (now % 97) * 1000, LineRate::G100);
                    if t.push_hop(hop) {
                        self.hops[!ab as usize].push(hop);
                        rebuild = true;
                    }
                }
                let ect = matches!(p.ip.ecn, Ecn::Ect0 | Ecn::Ect1);
                if ect && self.ce > 0.0 && self.ce_rng.gen_bool(self.ce) {
                    p.ip.ecn = Ecn::Ce;
                    self.marked[!ab as usize] += 1;
                    rebuild = true;
                }
                if rebuild {
                    frame = p.build();
                }
                let q = if ab { &mut self.ab } else { &mut self.ba };
                q.push_back(InFlight { at: now + self.delay, frame });
            }
        }
        self.cycle += 1;
    }
}

/// Notify unit: 2^0 bytes per packet, so Notifies count packets (what `notified` adds up).
pub const NOTIFY_SHIFT: u8 = 0;

/// DCQCN's CNP interval both NICs are given: at most one CNP per flow per 50 us.
pub const CNP_INTERVAL_NS: u32 = 50_000;

/// Every input driven: configuration, counter selects, nothing offered, nothing taken.
fn idle(d: &mut Rtl) {
    d.set_cfg_pkt_shift(NOTIFY_SHIFT);
    d.set_cfg_cnp_interval_ns(CNP_INTERVAL_NS);
    d.set_now_ns(0);
    d.set_stat_rx_pipe_addr(0);
    d.set_stat_rx_ctx_addr(0);
    d.set_s_axis_tx_ctrl_tvalid(0);
    d.s_axis_tx_ctrl_tdata_mut().fill(0);
    d.set_s_axis_rx_ctrl_tvalid(0);
    d.s_axis_rx_ctrl_tdata_mut().fill(0);
    d.set_s_axis_pktsend_tvalid(0);
    d.set_s_axis_pktsend_tdata(0);
    d.set_s_axis_probe_tvalid(0);
    d.set_s_axis_probe_tdata(0);
    d.set_s_axis_feedback_tvalid(0);
    d.set_s_axis_feedback_tdata(0);
    d.set_m_axis_dma_rd_tready(0);
    d.set_s_axis_dma_rd_data_tvalid(0);
    d.s_axis_dma_rd_data_tdata_mut().fill(0);
    d.set_s_axis_dma_rd_data_tkeep(0);
    d.set_s_axis_dma_rd_data_tlast(0);
    d.set_m_axis_tx_tready(0);
    d.set_s_axis_rx_tvalid(0);
    d.s_axis_rx_tdata_mut().fill(0);
    d.set_s_axis_rx_tkeep(0);
    d.set_s_axis_rx_tlast(0);
    d.set_s_axis_rx_tuser(0);
    d.set_m_axis_event_tready(0);
    d.set_m_axis_notify_tready(0);
    d.set_m_axis_sleep_tready(0);
    d.set_m_axis_dma_wr_cmd_tready(0);
    d.set_m_axis_dma_wr_tready(0);
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
    let d = &mut n.dut;
    d.set_now_ns(now * 4);
    n.tx_ctrl.offer(d, rng);
    n.rx_ctrl.offer(d, rng);
    let send = (!n.sending.is_empty()).then(|| n.sending[n.next_send % n.sending.len()]);
    put(&Rtl::S_AXIS_PKTSEND, d, send.as_ref());
    n.probes.offer(d, rng);
    n.feedback.offer(d, rng);
    n.host.drive(d, rng, bp);
    n.event.stall = bp;
    n.event.ready(d, rng);
    n.notify.stall = bp;
    n.notify.ready(d, rng);
    // PktSends here come round-robin from the harness, not a scheduler: reports are taken
    // and dropped.
    n.sleep.set_ready(d, true);
    let (wc_ready, wd_ready) = (!rng.gen_bool(bp), !rng.gen_bool(bp));
    n.host.drive_writes(d, wc_ready, wd_ready);
    d.eval();
    let offered = cycle::Offered {
        tx_ctrl: n.tx_ctrl.front().filter(|_| n.tx_ctrl.on_port()),
        rx_ctrl: n.rx_ctrl.front().filter(|_| n.rx_ctrl.on_port()),
        pktsend: send,
        probe: n.probes.front().copied().filter(|_| n.probes.on_port()),
        feedback: n.feedback.front().filter(|_| n.feedback.on_port()).map(|&v| Feedback { flow: (v >> 32) as u16, w: v as u32 }),
    };
    n.lockstep.step(d, now, offered);

    n.tx_ctrl.taken(d);
    n.rx_ctrl.taken(d);
    if send.is_some() && (Rtl::S_AXIS_PKTSEND.tready)(d) {
        n.next_send += 1;
    }
    n.probes.taken(d);
    n.feedback.taken(d);
    let done = n.host.collect(d);
    if let Some(w) = n.event.take(d) {
        let e = get_wide(w);
        if event_kind(&e) == 0 {
            n.acked.insert(CC_EVENT.flow.get_le(&e) as u16, event_seq(&e));
        }
        if n.host.keep {
            n.events.push(e);
        }
    }
    if let Some(w) = n.notify.take(d) {
        let w = Notify::from_tdata(crate::verilated::low_u64(w));
        n.notified += w.bytes as u64;
        if n.host.keep {
            n.notifies.push((w.flow, w.bytes));
        }
    }
    n.sleep.take(d);
    d.tick();
    done
}

/// The 32-bit seq field of a CC event's bytes (`layout::CC_EVENT`).
pub fn event_seq(e: &[u8]) -> u32 {
    CC_EVENT.seq.get_le(e) as u32
}

/// The event type of a CC event's bytes.
pub fn event_kind(e: &[u8]) -> u8 {
    CC_EVENT.kind.get_le(e) as u8
}

/// One queue pair between A and B for the random scenario: the requester posts messages one
/// after another, each a WRITE or a READ.
struct Conn {
    req_a: bool,
    req: u16,
    resp: u16,
    mtu: u16,
    /// 32-bit extended next PSN (rx_ctx's seq counts from the first PSN this way).
    next: u32,
    count: u64,
    cur: Option<Msg>,
}

struct Msg {
    read: bool,
    /// Where the bytes must end up: (on A?, address).
    dst: (bool, u64),
    data: Vec<u8>,
    end: u32,
}

/// `datapath-random`: four queue pairs (two with A requesting, two with B), each posting
/// WRITEs and READs (30%) of 0-12,000 bytes at MTU 256, 1024, 1500 or 4096 back to back until
/// the cycle budget, over a link of random delay that drops 1% of frames: only first
/// transmissions, never a NAK or the last packet, ACK or response of a message (there is no
/// retransmission timeout yet). Every message must complete, every destination buffer equal its data, and
/// each NIC's Notifies add up to the requests it sent.
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> super::Outcome {
    let start = std::time::Instant::now();
    let mut o = super::Outcome::new(super::Scenario::NicDatapathRandom, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = Pair::with_vcd(seed, rng.gen_range(20..200), 0.2, vcd);
    p.a.host.keep = false;
    p.b.host.keep = false;
    // Some CE marks, CNP intervals down to 0 (one per ECN-Echo ACK) and Rx-HPCC feedback for
    // random flows (any 16-bit id), so the gate's CNP point and feedback RAM work too.
    p.ce = 0.05;
    for n in [&mut p.a, &mut p.b] {
        n.dut.set_cfg_cnp_interval_ns(if rng.gen() { 0 } else { rng.gen_range(1..20_000) });
    }
    let mut conns: Vec<Conn> = (0..4u16)
        .map(|k| {
            let psn = if rng.gen() { 0xFF_FFFF - rng.gen_range(0..50) } else { rng.gen_range(0..1 << 24) };
            Conn { req_a: k % 2 == 0, req: 0x100 + k, resp: 0x200 + k, mtu: [256, 1024, 1500, 4096][rng.gen_range(0..4)], next: psn, count: 0, cur: None }
        })
        .collect();
    for c in &conns {
        let (req, resp) = if c.req_a { (&mut p.a, &mut p.b) } else { (&mut p.b, &mut p.a) };
        let cfg = |header, telemetry, cnp| sim::tx_ctx::FlowConfig { header, mtu: c.mtu, telemetry, probe: false, fast_start: 0, cnp };
        let (hq, hr) = (super::tx_pipe::header_to(&mut rng, c.resp as u32), super::tx_pipe::header_to(&mut rng, c.req as u32));
        req.tx_ctrl(sim::tx_ctx::Ctrl::Create { flow: c.req, cfg: cfg(hq, rng.gen(), false) });
        // The responder's flow sends the ACKs, so CNPs for its CE-marked requests.
        resp.tx_ctrl(sim::tx_ctx::Ctrl::Create { flow: c.resp, cfg: cfg(hr, false, rng.gen()) });
        let create = |qpn: u16, epsn, spsn| sim::rx_ctx::Ctrl { op: sim::rx_ctx::OP_CREATE, qpn: qpn as u32, epsn, spsn, mtu: c.mtu, addr: 0 };
        req.rx_ctrl(create(c.req, 0, c.next));
        resp.rx_ctrl(create(c.resp, c.next, 0));
    }
    // Frames the link may not drop: NAKs, each message's last request / ACK / response (by
    // destination QP and PSN), and anything sent before (same direction, opcode, QP, PSN).
    // Without a retransmission timeout a lost retransmission can stall a flow for good: a
    // go-back-N for a READ gap whose first re-request is lost gets only duplicate responses
    // past snd_una, which the gap rule drops (found by this scenario before the rule).
    let last: std::rc::Rc<std::cell::RefCell<HashMap<u32, u32>>> = Default::default();
    let mut seen = std::collections::HashSet::new();
    let (last_l, mut drop_rng) = (last.clone(), ChaCha8Rng::seed_from_u64(seed ^ 0xD509));
    p.drop = Box::new(move |ab, f, _| {
        let nak = f.body.aeth().is_some_and(|a| a.syndrome.bits() >> 5 == 3);
        let protected = nak || last_l.borrow().get(&f.bth.dest_qp) == Some(&f.bth.psn);
        let first = seen.insert((ab, f.opcode() as u8, f.bth.dest_qp, f.bth.psn));
        first && !protected && drop_rng.gen_bool(0.01)
    });
    let mut done: Vec<Msg> = vec![];
    let mut stuck = 0u64;
    let limit = cycles + 400_000;
    while p.cycle < limit {
        for c in conns.iter_mut() {
            let (req, resp) = if c.req_a { (&mut p.a, &mut p.b) } else { (&mut p.b, &mut p.a) };
            if c.cur.as_ref().is_some_and(|m| req.acked.get(&c.req) == Some(&m.end)) {
                done.push(c.cur.take().unwrap());
                req.sending.retain(|&f| f != c.req);
                stuck = 0;
            }
            if c.cur.is_some() || p.cycle >= cycles {
                continue;
            }
            let read = rng.gen_bool(0.3);
            let len: u32 = if rng.gen_bool(0.1) { 0 } else { rng.gen_range(1..=12_000) };
            let npkts = len.div_ceil(c.mtu as u32).max(1);
            let base = 0x1_0000_0000 * (c.req as u64) + c.count * 0x1_0000;
            let (local, remote) = (base, base + 0x8000_0000);
            let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            let post = sim::tx_ctx::Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn: c.next & 0xFF_FFFF };
            if read {
                resp.fill(remote, &data);
                req.tx_ctrl(sim::tx_ctx::Ctrl::Read { flow: c.req, post });
                let w = sim::rx_ctx::Ctrl { op: sim::rx_ctx::OP_READ, qpn: c.req as u32, epsn: 0, spsn: 0, mtu: c.mtu, addr: local };
                req.rx_ctrl(w);
            } else {
                req.fill(local, &data);
                req.tx_ctrl(sim::tx_ctx::Ctrl::Post { flow: c.req, post });
            }
            let end = c.next.wrapping_add(npkts);
            let mut l = last.borrow_mut();
            l.insert(c.resp as u32, end.wrapping_sub(1) & 0xFF_FFFF);
            l.insert(c.req as u32, end.wrapping_sub(1) & 0xFF_FFFF);
            let dst = if read { (c.req_a, local) } else { (!c.req_a, remote) };
            c.cur = Some(Msg { read, dst, data, end });
            c.next = end;
            c.count += 1;
            req.sending.push(c.req);
        }
        if p.cycle >= cycles && conns.iter().all(|c| c.cur.is_none()) {
            break;
        }
        if rng.gen_bool(0.002) {
            let c = &conns[rng.gen_range(0..conns.len())];
            let resp = if c.req_a { &mut p.b } else { &mut p.a };
            let flow = if rng.gen_bool(0.9) { c.resp } else { rng.gen() };
            resp.feedback(flow, rng.gen());
        }
        stuck += 1;
        if stuck > 200_000 {
            break;
        }
        p.step();
    }
    for c in conns.iter().filter(|c| c.cur.is_some()) {
        o.fail(format!("cycle {}: QP {:#x}'s message {} never completed", p.cycle, c.req, c.count - 1));
    }
    p.run_until(5_000, |_| false);
    for m in &done {
        let n = if m.dst.0 { &p.a } else { &p.b };
        let got: Vec<u8> = n.read(m.dst.1, m.data.len()).into_iter().map(|b| b.unwrap_or(!0)).collect();
        o.transactions += 1;
        if got != m.data {
            let at = got.iter().zip(&m.data).position(|(a, b)| a != b).unwrap_or(0);
            o.check(p.cycle, format!("{} at {:#x}+{at}: {:02x?}", if m.read { "READ" } else { "WRITE" }, m.dst.1, &got[at..(at + 8).min(got.len())]), format!("{:02x?}", &m.data[at..(at + 8).min(m.data.len())]));
        }
    }
    for (name, n) in [("A", &p.a), ("B", &p.b)] {
        if let Some(e) = &n.lockstep.differs {
            o.fail(format!("{name}: the cycle model differs at {e}"));
        }
        o.check(p.cycle, (name, "notified", n.notified), (name, "notified", n.host.requests));
        o.check(p.cycle, (name, "bad frames, DMA length errors", n.host.bad_frames + n.host.wr_len_errors), (name, "bad frames, DMA length errors", 0));
    }
    o.cycles = p.cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o.metric("messages", done.len() as f64);
    o.metric("reads", done.iter().filter(|m| m.read).count() as f64);
    o.metric("bytes", done.iter().map(|m| m.data.len()).sum::<usize>() as f64);
    o.metric("frames", (p.carried[0] + p.carried[1]) as f64);
    o.metric("dropped", (p.dropped[0] + p.dropped[1]) as f64);
    o.metric("requests", (p.a.host.requests + p.b.host.requests) as f64);
    o.metric("model_cycles", (p.a.lockstep.cycles + p.b.lockstep.cycles) as f64);
    o.metric("cnps", (p.a.dut.stat_cnps() + p.b.dut.stat_cnps()) as f64);
    o.metric("fb_acks", (p.a.dut.stat_fb_acks() + p.b.dut.stat_fb_acks()) as f64);
    o
}
