//! rx_ctx against its golden model (`sim::rx_ctx`), transaction by transaction: random control
//! words, sent events and verdict records over a few hot QPs out of 1024, with the peer's
//! PSNs mostly right and sometimes ahead, behind or random; WRITE sequences mostly valid and
//! sometimes broken; ACKs and NAKs inside and outside [snd_una, sent]; CNPs, telemetry
//! responses, probes, READ requests and READ responses (and READ posts on the control port),
//! unsupported opcodes; records of frames rx_pipe dropped. Random input gaps and
//! backpressure on all four outputs; every PktRecv, CC event, Notify and DMA command the RTL
//! emits is compared with the model's in order, and one counter per cycle. The bad-input shape
//! adds bad control words, sent events for unknown flows, unknown QPNs and resets.

use super::stream::{Beat, Sink, Source};
use super::{get_wide, hex, Outcome, Scenario};
use crate::verilated::models::RxCtx as Rtl;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::flow_sched::Notify;
use sim::rx_ctx::{stat, Ctrl, Out, RxCtx, Sent, OP_CREATE, OP_READ, OP_REMOVE, OP_TIMEOUT};
use sim::rx_ctx::cycle::{Inputs as CycleInputs, Outputs as CycleOutputs, RxCtx as RxCtxCycle};
use sim::rx_pipe::Verdict;
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// Flow ids of the exported RTL: 2^10.
pub const FLOW_BITS: usize = 10;

/// Stimulus shape.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Probability that an idle input starts offering its next item on a cycle.
    pub ctrl_rate: f64,
    pub sent_rate: f64,
    pub verdict_rate: f64,
    /// Probability that each output's tready is high on a cycle.
    pub ready: f64,
    /// Probability that a generated item is bad input.
    pub bad: f64,
    /// Probability of a one-cycle reset on a cycle.
    pub reset_rate: f64,
    /// Number of hot flows the traffic uses.
    pub hot: usize,
}

impl Shape {
    pub const RANDOM: Shape = Shape {
        ctrl_rate: 0.003,
        sent_rate: 0.3,
        verdict_rate: 0.8,
        ready: 0.8,
        bad: 0.0,
        reset_rate: 0.0,
        hot: 24,
    };
    pub const BAD_INPUT: Shape = Shape {
        bad: 0.1,
        reset_rate: 3e-5,
        ..Shape::RANDOM
    };
    /// Verdicts offered every cycle, outputs always ready, nothing else.
    pub const LINE_RATE: Shape = Shape {
        ctrl_rate: 0.0,
        sent_rate: 0.0,
        verdict_rate: 1.0,
        ready: 1.0,
        bad: 0.0,
        reset_rate: 0.0,
        hot: 64,
    };
}

/// A QPN of `flow`: its low F bits are the flow, the rest random.
fn qpn_of(rng: &mut ChaCha8Rng, flow: u16) -> u32 {
    (rng.gen_range(0..1u32 << (24 - FLOW_BITS)) << FLOW_BITS) | flow as u32
}

fn near_wrap(rng: &mut ChaCha8Rng) -> u32 {
    if rng.gen() {
        0xFF_FFFF - rng.gen_range(0..8)
    } else {
        rng.gen_range(0..1 << 24)
    }
}

fn next_ctrl(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &RxCtx) -> Ctrl {
    let flow = hot[rng.gen_range(0..hot.len())];
    let mtu = match rng.gen_range(0..3) {
        // The powers of two around the READ cut's bounds (256..8192) among them.
        0 => [128, 256, 512, 1024, 4096, 8192][rng.gen_range(0..6)],
        1 => rng.gen_range(1..=64),
        _ => rng.gen_range(1..=0x3FFF),
    };
    let create = Ctrl {
        op: OP_CREATE,
        qpn: qpn_of(rng, flow),
        epsn: near_wrap(rng),
        spsn: near_wrap(rng),
        mtu,
        addr: rng.gen(),
    };
    if rng.gen_bool(shape.bad) {
        return match rng.gen_range(0..4) {
            0 => Ctrl {
                op: [0, 3, 4, 5, 6, 7][rng.gen_range(0..6)],
                ..create
            },
            1 => Ctrl { mtu: 0, ..create },
            // Remove of a QPN that is not (or no longer) bound.
            _ => Ctrl {
                op: OP_REMOVE,
                ..create
            },
        };
    }
    // Removes and re-creates (a new QPN for the flow, new PSNs) of live QPs, creates of the
    // removed ones.
    match model.qpn(flow) {
        Some(q) if rng.gen_bool(0.15) => Ctrl {
            op: OP_REMOVE,
            qpn: q,
            ..create
        },
        // A READ posted: its responses go to a new local address.
        Some(q) if rng.gen_bool(0.25) => Ctrl {
            op: OP_READ,
            qpn: q,
            ..create
        },
        // A retransmission timeout (the flow's bits only are checked).
        Some(_) if rng.gen_bool(0.3) => Ctrl {
            op: OP_TIMEOUT,
            ..create
        },
        _ => create,
    }
}

fn next_sent(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &RxCtx) -> Sent {
    if rng.gen_bool(shape.bad) {
        let flow = if rng.gen() {
            rng.gen_range(1 << FLOW_BITS..=u16::MAX)
        } else {
            rng.gen_range(0..1 << FLOW_BITS)
        };
        return Sent {
            flow,
            psn: rng.gen_range(0..1 << 24),
        };
    }
    let flow = hot[rng.gen_range(0..hot.len())];
    let sent = model.psns(flow).map_or(0, |p| p.2);
    // Mostly the next PSN (tx_ctx sends in order); stale ones behind and ahead.
    let psn = match rng.gen_range(0..10) {
        0 => sent.wrapping_sub(rng.gen_range(1..4)),
        1 => rng.gen_range(0..1 << 24),
        2 => sent.wrapping_add(rng.gen_range(1..3)),
        _ => sent,
    };
    Sent {
        flow,
        psn: psn & 0xFF_FFFF,
    }
}

/// A random record of an accepted frame, fields not used by rx_ctx random too.
fn base_verdict(rng: &mut ChaCha8Rng, qpn: u32) -> Verdict {
    let telemetry = rng.gen_bool(0.5);
    let echo = telemetry && rng.gen_bool(0.3);
    // Rx-HPCC feedback: rx_pipe sets it only in an echo without hops, W in hop word 0.
    let feedback = echo && rng.gen_bool(0.4);
    let nhop = if telemetry && !feedback { rng.gen_range(0..=5) } else { 0 };
    let mut hops = [0u64; 5];
    for (i, h) in hops.iter_mut().enumerate() {
        // Used slots are defined hops; unused ones garbage, which rx_ctx must not pass on.
        *h = if i < nhop as usize {
            super::tx_pipe::hop(rng).word()
        } else if rng.gen_bool(0.3) {
            rng.gen()
        } else {
            0
        };
    }
    if feedback {
        hops[0] = rng.gen::<u32>() as u64;
    }
    Verdict {
        code: 0,
        len: rng.gen_range(60..9216),
        opcode: 0,
        ack_req: rng.gen(),
        fecn: rng.gen(),
        becn: rng.gen(),
        solicited: rng.gen(),
        ecn: rng.gen_range(0..4),
        telemetry,
        echo,
        feedback,
        nhop,
        pad: rng.gen_range(0..4),
        dest_qp: qpn,
        psn: rng.gen_range(0..1 << 24),
        aeth_syndrome: 0,
        aeth_msn: rng.gen_range(0..1 << 24),
        reth_va: rng.gen(),
        reth_rkey: rng.gen(),
        reth_len: rng.gen(),
        payload_at: rng.gen_range(0..128),
        payload_len: rng.gen_range(0..9000),
        udp_src_port: rng.gen(),
        hops,
    }
}

/// A WRITE packet that mostly fits the responder's state (opcode, length, PSN).
fn write_request(rng: &mut ChaCha8Rng, v: &mut Verdict, st: (u32, bool, u32, u16)) {
    let (epsn, active, left, mtu) = st;
    let mtu = mtu as u32;
    let (op, n, rlen) = if active {
        if left > mtu {
            (0x07, mtu, 0)
        } else {
            (0x08, left, 0)
        }
    } else if rng.gen() || mtu > 9000 {
        let n = rng.gen_range(0..=mtu.min(9000));
        (0x0A, n, n)
    } else {
        (
            0x06,
            mtu,
            mtu * rng.gen_range(1..5) + rng.gen_range(1..=mtu),
        )
    };
    v.opcode = op;
    v.payload_len = n as u16;
    v.reth_len = rlen;
    if rng.gen_bool(0.08) {
        // Broken: another opcode or length.
        match rng.gen_range(0..3) {
            0 => v.opcode = [0x06, 0x07, 0x08, 0x0A][rng.gen_range(0..4)],
            1 => v.payload_len = rng.gen_range(0..9000),
            _ => v.reth_len = rng.gen_range(0..20_000),
        }
    }
    let psn = match rng.gen_range(0..20) {
        0..=1 => epsn.wrapping_add(rng.gen_range(1..6)),
        2..=3 => epsn.wrapping_sub(rng.gen_range(1..6)),
        4 => rng.gen(),
        _ => epsn,
    };
    v.psn = psn & 0xFF_FFFF;
}

fn next_verdict(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &RxCtx) -> Verdict {
    let flow = hot[rng.gen_range(0..hot.len())];
    let qpn = match model.qpn(flow) {
        Some(q) if !rng.gen_bool(shape.bad.max(0.02)) => q,
        _ => qpn_of(rng, flow),
    };
    let mut v = base_verdict(rng, qpn);
    let k = rng.gen_range(0..100);
    if k < 4 {
        // A frame rx_pipe dropped: only code and length.
        return Verdict {
            code: rng.gen_range(1..=27),
            len: v.len,
            ..Verdict::from_words(&[0; 20])
        };
    }
    let (epsn, _, _, mtu) = model.responder(flow).unwrap_or((0, false, 0, 1024));
    let mtu = mtu as u32;
    match k {
        4..=45 => match model.responder(flow) {
            Some(st) => write_request(rng, &mut v, st),
            None => v.opcode = 0x06,
        },
        // READ request: no payload; up to one MTU, up to 64 MTUs (several response packets
        // where the MTU is a power of two of 256..8192, else a NAK), just over one MTU, at
        // sim::rx_ctx::MAX_READ_LEN or one past, or any length.
        46..=53 => {
            v.opcode = 0x0C;
            v.payload_len = 0;
            v.reth_len = match rng.gen_range(0..20) {
                0..=10 => rng.gen_range(0..=mtu),
                11..=16 => rng.gen_range(mtu + 1..=mtu * 64),
                17..=18 => rng.gen_range(mtu + 1..=mtu + 100),
                19 if rng.gen() => sim::rx_ctx::MAX_READ_LEN + rng.gen_range(0..2),
                _ => rng.gen(),
            };
            let psn = match rng.gen_range(0..10) {
                0 => epsn.wrapping_add(rng.gen_range(1..4)),
                1 => epsn.wrapping_sub(rng.gen_range(1..4)),
                _ => epsn,
            };
            v.psn = psn & 0xFF_FFFF;
        }
        // READ response (Only, First, Middle or Last) near snd_una, at most one MTU of payload
        // (5% more), a whole MTU half the time (what First and Middle must carry).
        78..=83 => {
            v.opcode = [0x0D, 0x0E, 0x0F, 0x10][rng.gen_range(0..4)];
            let (_, una, sent) = model.psns(flow).unwrap_or((0, 0, 0));
            let inflight = sent.wrapping_sub(una) & 0xFF_FFFF;
            let psn = match rng.gen_range(0..10) {
                0 => rng.gen(),
                1 => una.wrapping_sub(rng.gen_range(1..4)),
                2 => sent.wrapping_add(rng.gen_range(0..2)),
                3 => una.wrapping_add(rng.gen_range(0..inflight.max(1))),
                _ => una,
            };
            v.psn = psn & 0xFF_FFFF;
            v.payload_len = match rng.gen_range(0..20) {
                0 => rng.gen_range(mtu + 1..=mtu + 100),
                1..=10 => mtu,
                _ => rng.gen_range(0..=mtu),
            } as u16;
        }
        54..=77 => {
            v.opcode = 0x11;
            let (_, una, sent) = model.psns(flow).unwrap_or((0, 0, 0));
            let inflight = sent.wrapping_sub(una) & 0xFF_FFFF;
            let psn = match rng.gen_range(0..10) {
                0 => rng.gen(),
                1 => una.wrapping_sub(rng.gen_range(1..4)),
                2 => sent.wrapping_add(rng.gen_range(0..3)),
                _ => una.wrapping_add(rng.gen_range(0..inflight.max(1))),
            };
            v.psn = psn & 0xFF_FFFF;
            v.aeth_syndrome = match rng.gen_range(0..10) {
                0..=5 => [0x1F, rng.gen_range(0..32)][rng.gen_range(0..2)],
                6..=7 => 0x60,
                8 => rng.gen_range(0x20..0x40),
                _ => rng.gen_range(0x61..0x80),
            };
        }
        84..=91 => v.opcode = 0x81,
        92..=93 => v.opcode = 0xC1,
        // A probe: rx_pipe accepts it only with a collecting telemetry header.
        94..=95 => {
            v.opcode = 0xC0;
            v.telemetry = true;
            v.echo = false;
        }
        _ => v.opcode = [0x0C, 0x0D, 0x0E, 0x0F, 0x10][rng.gen_range(0..5)],
    }
    v
}




/// The four output streams: what the model says must come, in order.
#[derive(Default)]
struct Expected {
    recv: VecDeque<Vec<u8>>,
    event: VecDeque<Vec<u8>>,
    notify: VecDeque<Vec<u8>>,
    dma: VecDeque<Vec<u8>>,
}

impl Expected {
    fn push(&mut self, o: &Out) {
        if let Some(r) = &o.recv {
            self.recv.push_back(r.to_bytes().to_vec());
        }
        if let Some(e) = &o.event {
            self.event.push_back(e.to_bytes().to_vec());
        }
        self.push_notify(o.notify);
        self.dma.push_back(o.dma.to_bytes().to_vec());
    }

    /// A control word's outputs (a timeout's go-back-N): no DMA command.
    fn push_ctrl(&mut self, o: &Out) {
        if let Some(r) = &o.recv {
            self.recv.push_back(r.to_bytes().to_vec());
        }
        if let Some(e) = &o.event {
            self.event.push_back(e.to_bytes().to_vec());
        }
        self.push_notify(o.notify);
    }

    fn push_notify(&mut self, n: Option<(u16, u32)>) {
        self.notify.extend(n.map(notify_bytes));
    }

    fn is_empty(&self) -> bool {
        self.recv.is_empty()
            && self.event.is_empty()
            && self.notify.is_empty()
            && self.dma.is_empty()
    }

    fn clear(&mut self) {
        *self = Expected::default();
    }
}

impl Beat for Ctrl {
    fn write(&self, tdata: &mut [u32]) {
        self.to_bytes().write(tdata);
    }
}

impl Beat for Sent {
    fn write(&self, tdata: &mut [u32]) {
        self.to_bytes().write(tdata);
    }
}

super::stream::beat_of_words!(Verdict);

/// rx_ctx's streams: the three inputs and the four outputs (PktRecv, event, Notify, DMA
/// command).
struct Ports {
    ctrl: Source<Rtl, Ctrl>,
    sent: Source<Rtl, Sent>,
    verdict: Source<Rtl, Verdict>,
    out: [Sink<Rtl>; 4],
}

impl Ports {
    fn new() -> Self {
        Ports {
            ctrl: Source::new(Rtl::S_AXIS_CTRL),
            sent: Source::new(Rtl::S_AXIS_SENT),
            verdict: Source::new(Rtl::S_AXIS_VERDICT),
            out: [Rtl::M_AXIS_PKTRECV, Rtl::M_AXIS_EVENT, Rtl::M_AXIS_NOTIFY, Rtl::M_AXIS_DMA_CMD].map(|p| Sink::new(p, 0.0)),
        }
    }

    /// Before `eval()`: every input's item (or none: the gaps come from when items are
    /// queued), each output's tready as given.
    fn drive(&mut self, dut: &mut Rtl, ready: [bool; 4]) {
        self.ctrl.offer_now(dut);
        self.sent.offer_now(dut);
        self.verdict.offer_now(dut);
        for (s, r) in self.out.iter_mut().zip(ready) {
            s.set_ready(dut, r);
        }
    }

    fn inputs_empty(&self) -> bool {
        self.ctrl.is_empty() && self.sent.is_empty() && self.verdict.is_empty()
    }

    /// After `eval()`: the outputs transferred this cycle, as bytes (Notify's 48 bits as 6).
    fn outputs(&mut self, dut: &Rtl) -> [Option<Vec<u8>>; 4] {
        let mut got = self.out.each_mut().map(|s| s.take(dut).map(get_wide));
        if let Some(n) = &mut got[2] {
            n.truncate(6);
        }
        got
    }

    /// After `eval()`, for the cycle model: the three treadys and each output's bytes while
    /// its tvalid is high (Notify's 48 bits as 6).
    fn shown(&mut self, dut: &Rtl) -> ([bool; 3], [Option<Vec<u8>>; 4]) {
        let mut o = self.out.each_mut().map(|s| s.peek(dut).map(get_wide));
        if let Some(n) = &mut o[2] {
            n.truncate(6);
        }
        ([dut.s_axis_ctrl_tready() == 1, dut.s_axis_sent_tready() == 1, dut.s_axis_verdict_tready() == 1], o)
    }

    fn stop(&mut self, dut: &mut Rtl) {
        self.ctrl.stop(dut);
        self.sent.stop(dut);
        self.verdict.stop(dut);
    }
}

/// A Notify's 48-bit word as the output's 6 bytes.
fn notify_bytes((flow, bytes): (u16, u32)) -> Vec<u8> {
    Notify { flow, bytes }.tdata().to_le_bytes()[..6].to_vec()
}

/// The cycle model's outputs as [`Ports::shown`] gives the RTL's.
fn shown(o: &CycleOutputs) -> ([bool; 3], [Option<Vec<u8>>; 4]) {
    let notify = o.notify.map(notify_bytes);
    (
        [o.ctrl_ready, o.sent_ready, o.verdict_ready],
        [
            o.pktrecv.as_ref().map(|r| r.to_bytes().to_vec()),
            o.event.as_ref().map(|e| e.to_bytes().to_vec()),
            notify,
            o.dma_cmd.as_ref().map(|d| d.to_bytes().to_vec()),
        ],
    )
}

/// Stops the inputs, lets S2 finish (two clocks) and reads every counter.
fn drain_counters(dut: &mut Rtl, ports: &mut Ports) -> [u32; stat::COUNT] {
    ports.stop(dut);
    for _ in 0..2 {
        dut.tick();
    }
    std::array::from_fn(|k| {
        dut.set_stat_addr(k as u8);
        dut.eval();
        dut.stat_count()
    })
}

/// Takes an output beat if offered and ready, and compares it with the next expected one.
fn compare(
    o: &mut Outcome,
    cycle: u64,
    name: &str,
    got: Option<Vec<u8>>,
    want: &mut VecDeque<Vec<u8>>,
) -> bool {
    let Some(got) = got else { return false };
    match want.pop_front() {
        Some(w) => {
            o.transactions += 1;
            o.check(cycle, (name, hex(&got)), (name, hex(&w)));
        }
        None => o.check(cycle, (name, hex(&got)), (name, "nothing".to_string())),
    }
    true
}

/// Runs about `cycles` cycles, then drains. Metrics: records, pktrecvs, rewinds, events,
/// notifies, dma_writes, every counter by name, resets, `records_per_cycle_offered`.
pub fn run(
    scenario: Scenario,
    seed: u64,
    cycles: u64,
    shape: &Shape,
    vcd: Option<&Path>,
) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: Rtl = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mut model = RxCtx::new(FLOW_BITS);
    model.pkt_shift = rng.gen_range(0..16);
    let t0: u64 = rng.gen::<u64>() >> 1;
    let mut hot: Vec<u16> = (0..shape.hot)
        .map(|_| rng.gen_range(0..1 << FLOW_BITS))
        .collect();
    hot.extend([0, (1 << FLOW_BITS) - 1]);
    dut.set_cfg_pkt_shift(model.pkt_shift);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut cm = RxCtxCycle::new(FLOW_BITS, model.pkt_shift);
    cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
    // Set-up: every hot flow gets a QP while the sweep runs (control words wait for it).
    let mut setup: VecDeque<Ctrl> = hot
        .iter()
        .map(|&f| Ctrl {
            op: OP_CREATE,
            qpn: qpn_of(&mut rng, f),
            epsn: near_wrap(&mut rng),
            spsn: near_wrap(&mut rng),
            mtu: [256, 1024, 4096, 37][rng.gen_range(0..4)],
            addr: 0,
        })
        .collect();

    let mut p = Ports::new();
    let mut exp = Expected::default();
    let (mut n_rec, mut n_recv, mut n_rew, mut n_ev, mut n_not, mut n_dma, mut resets) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut offered, mut taken) = (0u64, 0u64);
    let (mut n_resp, mut n_rdresp, mut n_multi) = (0u64, 0u64, 0u64);
    let mut totals = [0u64; stat::COUNT];
    let mut idle = 0u64;
    let (mut since_take, mut counter_checks) = (0u64, 0u64);
    let mut started = false;
    let mut cycle = 0u64;
    loop {
        let running = cycle < cycles;
        if !running && exp.is_empty() && p.inputs_empty() {
            break;
        }
        if idle > 5_000 {
            o.fail(format!("cycle {cycle}: no progress for 5000 cycles"));
            break;
        }
        if running && shape.reset_rate > 0.0 && rng.gen_bool(shape.reset_rate) {
            dut.set_reset(1);
            dut.tick();
            dut.set_reset(0);
            cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
            p.ctrl.clear(&mut dut);
            p.sent.clear(&mut dut);
            p.verdict.clear(&mut dut);
            cycle += 1;
            resets += 1;
            started = false;
            for (t, s) in totals.iter_mut().zip(model.stats) {
                *t += s as u64;
            }
            let shift = model.pkt_shift;
            model = RxCtx::new(FLOW_BITS);
            model.pkt_shift = shift;
            exp.clear();
            continue;
        }
        // An item is made from the model's state when its input is free (set-up words
        // first), and stays on the port until taken.
        if p.ctrl.is_empty() {
            if let Some(c) = setup.pop_front() {
                p.ctrl.push(c);
            }
        }
        if running && p.ctrl.is_empty() && rng.gen_bool(shape.ctrl_rate) {
            p.ctrl.push(next_ctrl(&mut rng, shape, &hot, &model));
        }
        if running && p.sent.is_empty() && rng.gen_bool(shape.sent_rate) {
            p.sent.push(next_sent(&mut rng, shape, &hot, &model));
        }
        if running && p.verdict.is_empty() && rng.gen_bool(shape.verdict_rate) {
            p.verdict.push(next_verdict(&mut rng, shape, &hot, &model));
        }
        let now = t0.wrapping_add(cycle * 4);
        dut.set_now_ns(now);
        let k = (cycle % stat::COUNT as u64) as usize;
        dut.set_stat_addr(k as u8);
        let ready: [bool; 4] = std::array::from_fn(|_| rng.gen_bool(shape.ready));
        p.drive(&mut dut, ready);
        // After the reset sweep (the first take), every cycle a verdict is offered alone.
        let alone = !p.verdict.is_empty() && p.ctrl.is_empty() && p.sent.is_empty() && started;
        dut.eval();
        // The cycle model on the same inputs: every port equal on every cycle.
        let stat_shown = cm.stats[k];
        let want = cm.step(&CycleInputs {
            reset: false,
            now_ns: now,
            ctrl: p.ctrl.front(),
            sent: p.sent.front(),
            verdict: p.verdict.front(),
            ready,
        });
        let got = p.shown(&dut);
        if got != shown(&want) || dut.stat_count() != stat_shown {
            o.fail(format!(
                "cycle {cycle}: RTL {got:?} stat[{k}] {}, cycle model {:?} stat[{k}] {stat_shown}",
                dut.stat_count(),
                shown(&want),
            ));
            break;
        }
        // Counters count in S2, a cycle or more after the take: compared when the pipeline is
        // empty (nothing taken for two cycles, every expected output out).
        if since_take >= 2 && exp.is_empty() {
            o.check(cycle, ("stat", k, dut.stat_count()), ("stat", k, model.stats[k]));
            counter_checks += 1;
        }
        let took_c = p.ctrl.taken(&dut);
        let took_s = p.sent.taken(&dut);
        let took_v = p.verdict.taken(&dut);
        let took_any = took_c.is_some() || took_s.is_some() || took_v.is_some();
        if alone {
            offered += 1;
            taken += took_v.is_some() as u64;
        }
        idle += 1;
        let [r, e, n, d] = p.outputs(&dut);
        if compare(&mut o, cycle, "pktrecv", r, &mut exp.recv) {
            n_recv += 1;
            idle = 0;
        }
        if compare(&mut o, cycle, "event", e, &mut exp.event) {
            n_ev += 1;
            idle = 0;
        }
        if compare(&mut o, cycle, "notify", n, &mut exp.notify) {
            n_not += 1;
            idle = 0;
        }
        if let Some(d) = &d {
            n_dma += (d[12] & 1) as u64;
        }
        if compare(&mut o, cycle, "dma_cmd", d, &mut exp.dma) {
            idle = 0;
        }
        if took_any || (exp.is_empty() && cycle < 2_000) {
            idle = 0;
        }
        dut.tick();
        cycle += 1;
        since_take = if took_any { 0 } else { since_take + 1 };
        started |= took_any;
        if let Some(c) = took_c {
            let out = model.ctrl_at(&c, now).1;
            n_rew += out.recv.is_some() as u64;
            exp.push_ctrl(&out);
        }
        if let Some(s) = took_s {
            exp.push_notify(model.sent(&s));
        }
        if let Some(v) = took_v {
            n_rec += 1;
            let out = model.verdict(&v, now);
            n_rew += matches!(out.recv, Some(sim::tx_ctx::Recv::Rewind(_))) as u64;
            n_resp += matches!(out.recv, Some(sim::tx_ctx::Recv::Response(_))) as u64;
            n_rdresp += matches!(out.recv, Some(sim::tx_ctx::Recv::ReadResp(_))) as u64;
            n_multi += matches!(out.recv, Some(sim::tx_ctx::Recv::ReadResp(r)) if r.total as u64 > 1 << r.mtu_log) as u64;
            exp.push(&out);
        }
    }
    o.check(cycle, ("final counters", drain_counters(&mut dut, &mut p)), ("final counters", model.stats));
    for (t, s) in totals.iter_mut().zip(model.stats) {
        *t += s as u64;
    }
    o.metric("counter_checks", counter_checks as f64);
    o.cycles = cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o.metric("records", n_rec as f64);
    o.metric("pktrecvs", n_recv as f64);
    o.metric("rewinds", n_rew as f64);
    o.metric("responses", n_resp as f64);
    o.metric("read_responses", n_rdresp as f64);
    o.metric("multi_packet_reads", n_multi as f64);
    o.metric("events", n_ev as f64);
    o.metric("notifies", n_not as f64);
    o.metric("dma_writes", n_dma as f64);
    for (i, name) in STAT_NAMES.iter().enumerate() {
        o.metric(name, totals[i] as f64);
    }
    o.metric("resets", resets as f64);
    o.metric(
        "records_per_cycle_offered",
        taken as f64 / offered.max(1) as f64,
    );
    o
}

/// One input of rx_ctx, for `feed`.
#[derive(Clone, Debug)]
pub enum Input {
    Ctrl(Ctrl),
    Sent(Sent),
    Verdict(Verdict),
}

/// What `feed` saw leave the RTL (each stream in order; equal to the model's, or `feed` panics).
#[derive(Default)]
pub struct Fed {
    pub recv: Vec<Vec<u8>>,
    pub event: Vec<Vec<u8>>,
    pub notify: Vec<Vec<u8>>,
    pub dma: Vec<Vec<u8>>,
    pub stats: [u32; stat::COUNT],
    /// The model's outputs, one per verdict in order (what the RTL's bytes were checked
    /// against), for tests that want them as values.
    pub model: Vec<Out>,
}

/// Drives `inputs` through the RTL one at a time in order (every output ready), checks every
/// output against the model and returns the RTL's outputs. `pkt_shift` as `cfg_pkt_shift`.
pub fn feed(inputs: &[Input], pkt_shift: u8) -> Fed {
    let mut dut = Rtl::new();
    let mut model = RxCtx::new(FLOW_BITS);
    model.pkt_shift = pkt_shift;
    dut.set_cfg_pkt_shift(pkt_shift);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut p = Ports::new();
    let mut o = Outcome::new(Scenario::RxCtxRandom, 0);
    let mut exp = Expected::default();
    let mut fed = Fed::default();
    let mut next = 0;
    let mut cycle = 0u64;
    while next < inputs.len() || !exp.is_empty() {
        assert!(cycle < 100 * inputs.len() as u64 + 5_000, "rx_ctx stopped at input {next}");
        // One input at a time, each on its own port until taken.
        if p.inputs_empty() {
            match inputs.get(next) {
                Some(Input::Ctrl(c)) => p.ctrl.push(*c),
                Some(Input::Sent(s)) => p.sent.push(*s),
                Some(Input::Verdict(v)) => p.verdict.push(v.clone()),
                None => {}
            }
        }
        p.drive(&mut dut, [true; 4]);
        dut.set_now_ns(cycle * 4);
        dut.eval();
        let took = p.ctrl.taken(&dut).is_some() || p.sent.taken(&dut).is_some() || p.verdict.taken(&dut).is_some();
        let [r, e, n, d] = p.outputs(&dut);
        compare(&mut o, cycle, "pktrecv", r.clone(), &mut exp.recv);
        compare(&mut o, cycle, "event", e.clone(), &mut exp.event);
        compare(&mut o, cycle, "notify", n.clone(), &mut exp.notify);
        compare(&mut o, cycle, "dma_cmd", d.clone(), &mut exp.dma);
        fed.recv.extend(r);
        fed.event.extend(e);
        fed.notify.extend(n);
        fed.dma.extend(d);
        dut.tick();
        if took {
            match &inputs[next] {
                Input::Ctrl(c) => {
                    let out = model.ctrl_at(c, cycle * 4).1;
                    exp.push_ctrl(&out);
                }
                Input::Sent(s) => exp.push_notify(model.sent(s)),
                Input::Verdict(v) => {
                    let out = model.verdict(v, cycle * 4);
                    exp.push(&out);
                    fed.model.push(out);
                }
            }
            next += 1;
        }
        cycle += 1;
    }
    fed.stats = drain_counters(&mut dut, &mut p);
    assert!(o.passed() && fed.stats == model.stats, "RTL != model: {:?}", o.first_mismatch);
    fed
}

/// `sim::rx_ctx::stat`'s counters by index, as metric names.
pub const STAT_NAMES: [&str; stat::COUNT] = [
    "stat_records",
    "stat_pipe_dropped",
    "stat_unknown_qp",
    "stat_oos_dropped",
    "stat_duplicate",
    "stat_bad_request",
    "stat_stale_ack",
    "stat_nak_other",
    "stat_unsupported",
    "stat_ctrl_bad",
    "stat_sent_drop",
    "stat_nak_sent",
    "stat_bad_response",
    "stat_read_gap",
    "stat_sent_stale",
    "stat_timeouts",
];

/// The regression scenarios.
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::RxCtxRandom, seed, cycles, &Shape::RANDOM, vcd)
}

pub fn bad_input(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(
        Scenario::RxCtxBadInput,
        seed,
        cycles,
        &Shape::BAD_INPUT,
        vcd,
    )
}
