//! tx_ctx against its golden model (`sim::tx_ctx`), event by event: random control words
//! (create, post, remove) and PktSends over a few hot flows out of 1024, random input gaps and
//! random backpressure on both outputs; every descriptor and DMA read request the RTL emits is
//! compared with the model's, in order, and the drop / bad-control counters after every cycle.
//! PktRecv items are ACK / NAKs, go-back-Ns, telemetry responses, probe requests (half the
//! flows are in probe mode) and READ responses; 30% of the posted messages are READs. The bad-input shape adds flow ids >= 2^F, op 0, MTU 0, posts and
//! removes of flows without context, PktSends of idle flows, and resets at random cycles.

use super::stream::{Beat, Sink, Source};
use super::{get_wide, hex, Outcome, Scenario};
use crate::verilated::{low_u64, models::TxCtx as Rtl};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::*;
use sim::tx_ctx::{Ctrl, DmaRead, FlowConfig, PktRecv, Post, ReadPos, ReadResp, Recv, Response, Rewind, TxCtx, MAX_MTU};
use sim::tx_ctx::cycle::{Inputs as CycleInputs, TxCtx as TxCtxCycle};
use sim::tx_pipe::TxDesc;
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
    pub pktsend_rate: f64,
    pub pktrecv_rate: f64,
    /// Probability that each output's tready is high on a cycle.
    pub desc_ready: f64,
    pub dma_ready: f64,
    /// Probability that a generated item is bad input.
    pub bad: f64,
    /// Probability of a one-cycle reset on a cycle.
    pub reset_rate: f64,
    /// Number of hot flows the traffic uses.
    pub hot: usize,
    /// Probability that a PktSend goes to a flow with something to send (if there is one).
    pub busy: f64,
    /// Probability that a PktRecv item is a go-back-N rather than an ACK / NAK to send.
    pub rewind: f64,
}

impl Shape {
    pub const RANDOM: Shape =
        Shape { ctrl_rate: 0.15, pktsend_rate: 0.8, pktrecv_rate: 0.15, desc_ready: 0.7, dma_ready: 0.7, bad: 0.0, reset_rate: 0.0, hot: 24, busy: 0.9, rewind: 0.3 };
    pub const BAD_INPUT: Shape = Shape { bad: 0.1, reset_rate: 5e-5, ..Shape::RANDOM };
    /// Line rate: PktSend offered every cycle, outputs always ready, few control words.
    pub const LINE_RATE: Shape =
        Shape { ctrl_rate: 0.02, pktsend_rate: 1.0, pktrecv_rate: 0.0, desc_ready: 1.0, dma_ready: 1.0, bad: 0.0, reset_rate: 0.0, hot: 64, busy: 1.0, rewind: 0.0 };
}

fn template(rng: &mut ChaCha8Rng) -> TxDesc {
    let mut d = super::tx_pipe::random_desc(rng);
    d.ip.dscp = rng.gen_range(0..64);
    d
}

fn config(rng: &mut ChaCha8Rng) -> FlowConfig {
    let mtu = match rng.gen_range(0..4) {
        0 => [256, 512, 1024, 2048, 4096][rng.gen_range(0..5)],
        1 => rng.gen_range(1..=64),
        2 => rng.gen_range(1..=MAX_MTU),
        _ => rng.gen_range(60..=1500),
    };
    FlowConfig {
        header: template(rng),
        mtu,
        telemetry: rng.gen(),
        probe: rng.gen(),
        fast_start: if rng.gen_bool(0.5) { rng.gen_range(0..12) } else { rng.gen() },
        // tx_ctx ignores it: either value gives the same flow.
        cnp: rng.gen(),
    }
}

fn post(rng: &mut ChaCha8Rng, mtu: Option<u16>) -> Post {
    let m = mtu.unwrap_or(1024) as u32;
    let len = match rng.gen_range(0..5) {
        0 => 0,
        1 => rng.gen_range(1..=m),
        2 => m * rng.gen_range(1..8) + rng.gen_range(0..2),
        3 => rng.gen_range(0..20_000),
        _ => rng.gen(),
    };
    Post {
        local_addr: rng.gen(),
        remote_addr: rng.gen(),
        rkey: rng.gen(),
        len,
        // Near the 24-bit wrap half the time.
        first_psn: if rng.gen() { 0xFF_FFFF - rng.gen_range(0..8) } else { rng.gen_range(0..1 << 24) },
    }
}

/// The next control word: mostly posts to hot flows (creating them first), some re-creates
/// and removes; bad ones with probability `shape.bad`.
fn next_ctrl(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &TxCtx) -> Ctrl {
    let flow = hot[rng.gen_range(0..hot.len())];
    if rng.gen_bool(shape.bad) {
        let cfg = config(rng);
        return match rng.gen_range(0..6) {
            0 => Ctrl::Nop { flow },
            1 => Ctrl::Create { flow, cfg: FlowConfig { mtu: 0, ..cfg } },
            2 => Ctrl::Post { flow: rng.gen_range(0..1 << FLOW_BITS), post: post(rng, None) },
            3 => Ctrl::Create { flow: rng.gen_range(1 << FLOW_BITS..=u16::MAX), cfg },
            4 => Ctrl::Post { flow: rng.gen_range(1 << FLOW_BITS..=u16::MAX), post: post(rng, None) },
            // Most likely a flow without context.
            _ => Ctrl::Remove { flow: rng.gen_range(0..1 << FLOW_BITS) },
        };
    }
    match model.mtu(flow) {
        None => Ctrl::Create { flow, cfg: config(rng) },
        Some(_) if rng.gen_bool(0.03) => Ctrl::Remove { flow },
        Some(_) if rng.gen_bool(0.05) => Ctrl::Create { flow, cfg: config(rng) },
        Some(m) if rng.gen_bool(0.3) => Ctrl::Read { flow, post: post(rng, Some(m)) },
        Some(m) => Ctrl::Post { flow, post: post(rng, Some(m)) },
    }
}

fn next_pktsend(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &TxCtx) -> u16 {
    if rng.gen_bool(shape.bad) {
        return if rng.gen() { rng.gen_range(1 << FLOW_BITS..=u16::MAX) } else { rng.gen_range(0..1 << FLOW_BITS) };
    }
    // Mostly flows with something to send.
    let busy: Vec<u16> = hot.iter().copied().filter(|&f| model.pending(f)).collect();
    if !busy.is_empty() && rng.gen_bool(shape.busy) {
        busy[rng.gen_range(0..busy.len())]
    } else {
        hot[rng.gen_range(0..hot.len())]
    }
}

/// A go-back-N for a hot flow: PSN inside the posted message's sent range (first, last,
/// random), just past it, just before it, or random.
fn next_rewind(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &TxCtx) -> Rewind {
    let flow = if rng.gen_bool(shape.bad) {
        if rng.gen() { rng.gen_range(1 << FLOW_BITS..=u16::MAX) } else { rng.gen_range(0..1 << FLOW_BITS) }
    } else {
        hot[rng.gen_range(0..hot.len())]
    };
    let (first, sent) = model.sent_range(flow).unwrap_or((rng.gen_range(0..1 << 24), 0));
    let k = match rng.gen_range(0..8) {
        0 => 0,
        1 => sent.wrapping_sub(1),
        2 => sent,
        3 => 0xFF_FFFF,
        4 => rng.gen(),
        _ => rng.gen_range(0..sent.max(1)),
    };
    Rewind { flow, psn: first.wrapping_add(k) & 0xFF_FFFF }
}

fn next_pktrecv(rng: &mut ChaCha8Rng, shape: &Shape, hot: &[u16], model: &TxCtx) -> Recv {
    if rng.gen_bool(shape.rewind) {
        return Recv::Rewind(next_rewind(rng, shape, hot, model));
    }
    let flow = if rng.gen_bool(shape.bad) {
        if rng.gen() { rng.gen_range(1 << FLOW_BITS..=u16::MAX) } else { rng.gen_range(0..1 << FLOW_BITS) }
    } else {
        hot[rng.gen_range(0..hot.len())]
    };
    let syndrome = match rng.gen_range(0..3) {
        0 => Syndrome::Ack { credits: rng.gen_range(0..32) },
        1 => Syndrome::RnrNak { timer: rng.gen_range(0..32) },
        _ => Syndrome::Nak(NakCode::from_bits(rng.gen_range(0..32))),
    };
    let hops = |rng: &mut ChaCha8Rng| (0..rng.gen_range(0..=MAX_HOPS)).map(|_| super::tx_pipe::hop(rng)).collect();
    match rng.gen_range(0..11) {
        0..=1 => return Recv::Probe(flow),
        10 => return Recv::Cnp(flow),
        2..=3 => return Recv::Response(Response { flow, psn: rng.gen_range(0..1 << 24), hops: hops(rng) }),
        4..=5 => {
            let aeth = Aeth { syndrome: Syndrome::Ack { credits: rng.gen_range(0..32) }, msn: rng.gen_range(0..1 << 24) };
            let len = if rng.gen_bool(0.1) { 0 } else { rng.gen() };
            // Any position (read_split's packets), and the whole-READ fields, which tx_ctx ignores.
            let pos = ReadPos::from_bits(rng.gen());
            let (total, mtu_log) = (rng.gen(), rng.gen_range(0..16));
            return Recv::ReadResp(ReadResp { flow, psn: rng.gen_range(0..1 << 24), aeth, va: rng.gen(), len, pos, total, mtu_log });
        }
        _ => {}
    }
    let mut echo = rng.gen_bool(0.5).then(|| hops(rng));
    let ece = rng.gen_bool(0.3);
    // Rx-HPCC feedback (an echo without hops, W in slot 0), as nic_datapath's gate attaches it.
    let feedback = rng.gen_bool(0.15).then(|| rng.gen());
    if feedback.is_some() {
        echo = Some(vec![]);
    }
    Recv::Ack(PktRecv { flow, psn: rng.gen_range(0..1 << 24), aeth: Aeth { syndrome, msn: rng.gen_range(0..1 << 24) }, echo, ece, feedback })
}



impl Beat for Ctrl {
    fn write(&self, tdata: &mut [u32]) {
        self.to_bytes().write(tdata);
    }
}

impl Beat for Recv {
    fn write(&self, tdata: &mut [u32]) {
        self.to_bytes().write(tdata);
    }
}

/// A sent event's `m_axis_sent_tdata` (`layout::SENT`, rx_ctx's input word).
fn sent_word(flow: u16, psn: u32) -> u64 {
    u64::from_le_bytes(sim::rx_ctx::Sent { flow, psn }.to_bytes())
}

/// Runs about `cycles` cycles, then drains. Metrics: descriptors, dma_reads, drops, ctrl_bad,
/// resets, `descriptors_per_cycle` (from the first one to the end of the stimulus) and
/// `taken_per_cycle_offered` (PktSends taken / cycles one was offered without a control word).
pub fn run(scenario: Scenario, seed: u64, cycles: u64, shape: &Shape, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut dut: Rtl = vcd.map_or_else(Rtl::new, Rtl::with_vcd);
    let mut model = TxCtx::new(FLOW_BITS);
    let mut hot: Vec<u16> = (0..shape.hot).map(|_| rng.gen_range(0..1 << FLOW_BITS)).collect();
    hot.extend([0, (1 << FLOW_BITS) - 1]);
    dut.set_reset(1);
    dut.tick();
    dut.set_reset(0);
    let mut cm = TxCtxCycle::new(FLOW_BITS);
    cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });

    let mut ctrl: Source<Rtl, Ctrl> = Source::new(Rtl::S_AXIS_CTRL);
    let mut pks: Source<Rtl, u16> = Source::new(Rtl::S_AXIS_PKTSEND);
    let mut rcv: Source<Rtl, Recv> = Source::new(Rtl::S_AXIS_PKTRECV);
    let mut desc_out = Sink::new(Rtl::M_AXIS_DESC, 0.0);
    let mut dma_out = Sink::new(Rtl::M_AXIS_DMA_RD, 0.0);
    let mut sent_out = Sink::new(Rtl::M_AXIS_SENT, 0.0);
    let mut sleep_out = Sink::new(Rtl::M_AXIS_SLEEP, 0.0);
    let (mut n_ack, mut recv_drops, mut n_rewind, mut nak_ignored) = (0u64, 0u64, 0u64, 0u64);
    let (mut n_resp, mut n_probe, mut n_rdresp, mut n_rdreq) = (0u64, 0u64, 0u64, 0u64);
    let mut n_cnp = 0u64;
    let mut exp_sent: VecDeque<(u16, u32)> = VecDeque::new();
    let mut n_sent = 0u64;
    let mut exp_sleep: VecDeque<sim::flow_sched::Sleep> = VecDeque::new();
    let (mut n_idle, mut n_wake) = (0u64, 0u64);
    let mut exp_desc: VecDeque<TxDesc> = VecDeque::new();
    let mut exp_dma: VecDeque<DmaRead> = VecDeque::new();
    let (mut n_desc, mut n_dma, mut resets, mut drops_total, mut bad_total) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut first_out, mut w_desc) = (None, 0u64);
    // Cycles a PktSend was offered with no control word beside it, and how many were taken.
    let (mut offered, mut taken) = (0u64, 0u64);
    let mut idle = 0u64;
    let (mut since_take, mut counter_checks) = (0u64, 0u64);
    let mut started = false;
    let mut cycle = 0u64;
    loop {
        let running = cycle < cycles;
        if !running && exp_desc.is_empty() && exp_dma.is_empty() && exp_sent.is_empty() && exp_sleep.is_empty() {
            break;
        }
        if idle > 5_000 {
            o.fail(format!("cycle {cycle}: no output for 5000 cycles, {} descriptors expected", exp_desc.len()));
            break;
        }
        if running && shape.reset_rate > 0.0 && rng.gen_bool(shape.reset_rate) {
            dut.set_reset(1);
            ctrl.clear(&mut dut);
            pks.clear(&mut dut);
            rcv.clear(&mut dut);
            dut.tick();
            dut.set_reset(0);
            cm.step(&CycleInputs { reset: true, ..CycleInputs::default() });
            cycle += 1;
            resets += 1;
            started = false;
            model = TxCtx::new(FLOW_BITS);
            exp_desc.clear();
            exp_dma.clear();
            exp_sent.clear();
            exp_sleep.clear();
            model.sleeps.clear();
            continue;
        }
        // An item is made from the model's state when its input is free, and stays on the
        // port until taken.
        if running && ctrl.is_empty() && rng.gen_bool(shape.ctrl_rate) {
            ctrl.push(next_ctrl(&mut rng, shape, &hot, &model));
        }
        if running && pks.is_empty() && rng.gen_bool(shape.pktsend_rate) {
            pks.push(next_pktsend(&mut rng, shape, &hot, &model));
        }
        if running && rcv.is_empty() && rng.gen_bool(shape.pktrecv_rate) {
            rcv.push(next_pktrecv(&mut rng, shape, &hot, &model));
        }
        rcv.offer(&mut dut, &mut rng);
        ctrl.offer(&mut dut, &mut rng);
        pks.offer(&mut dut, &mut rng);
        desc_out.set_ready(&mut dut, rng.gen_bool(shape.desc_ready));
        dma_out.set_ready(&mut dut, rng.gen_bool(shape.dma_ready));
        sent_out.set_ready(&mut dut, rng.gen_bool(shape.dma_ready));
        sleep_out.set_ready(&mut dut, rng.gen_bool(shape.dma_ready));
        // After the reset sweep (the first take), every cycle a PktSend is offered alone.
        let alone = !pks.is_empty() && ctrl.is_empty() && rcv.is_empty() && started;
        dut.eval();
        // The cycle model on the same inputs: every port equal on every cycle.
        let ready = [desc_out.is_ready(), dma_out.is_ready(), sent_out.is_ready(), sleep_out.is_ready()];
        let counters = cm.counters;
        let want = cm.step(&CycleInputs {
            reset: false,
            ctrl: ctrl.front().filter(|_| ctrl.on_port()),
            pktrecv: rcv.front().filter(|_| rcv.on_port()),
            pktsend: pks.front().copied().filter(|_| pks.on_port()),
            ready,
        });
        let got = (
            [dut.s_axis_ctrl_tready() == 1, dut.s_axis_pktrecv_tready() == 1, dut.s_axis_pktsend_tready() == 1],
            [desc_out.peek(&dut).map(get_wide), dma_out.peek(&dut).map(get_wide)],
            [sent_out.peek(&dut).map(low_u64), sleep_out.peek(&dut).map(low_u64)],
            [dut.stat_drop(), dut.stat_ctrl_bad(), dut.stat_recv_drop(), dut.stat_nak_ignored()],
        );
        let shown = (
            [want.ctrl_ready, want.pktrecv_ready, want.pktsend_ready],
            [want.desc.as_ref().map(|d| d.to_bytes().to_vec()), want.dma_rd.map(|r| r.to_bytes().to_vec())],
            [want.sent.map(|(f, psn)| sent_word(f, psn)), want.sleep.map(|w| w.tdata() as u64)],
            counters,
        );
        if got != shown {
            o.fail(format!("cycle {cycle}: RTL {got:?}, cycle model {shown:?}"));
            break;
        }
        let took_c = ctrl.taken(&dut);
        let took_p = pks.taken(&dut);
        let took_r = rcv.taken(&dut);
        let took_any = took_c.is_some() || took_p.is_some() || took_r.is_some();
        if alone {
            offered += 1;
            taken += took_p.is_some() as u64;
        }
        idle += 1;
        if let Some(d) = desc_out.take(&dut) {
            idle = 0;
            first_out.get_or_insert(cycle);
            let got = get_wide(d);
            match exp_desc.pop_front() {
                Some(want) => {
                    o.transactions += 1;
                    n_desc += 1;
                    o.check(cycle, hex(&got), hex(&want.to_bytes()));
                }
                None => o.check(cycle, hex(&got), "no descriptor".into()),
            }
            if running {
                w_desc += 1;
            }
        }
        if let Some(d) = sent_out.take(&dut) {
            idle = 0;
            let got = low_u64(d);
            match exp_sent.pop_front() {
                Some((flow, psn)) => {
                    o.transactions += 1;
                    n_sent += 1;
                    o.check(cycle, format!("sent {got:#012x}"), format!("sent {:#012x}", sent_word(flow, psn)));
                }
                None => o.check(cycle, format!("sent {got:#012x}"), "no sent event".into()),
            }
        }
        if let Some(d) = sleep_out.take(&dut) {
            idle = 0;
            let got = low_u64(d);
            match exp_sleep.pop_front() {
                Some(want) => {
                    o.transactions += 1;
                    if want.wake {
                        n_wake += 1;
                    } else {
                        n_idle += 1;
                    }
                    o.check(cycle, format!("sleep {got:#07x}"), format!("sleep {:#07x}", want.tdata()));
                }
                None => o.check(cycle, format!("sleep {got:#07x}"), "no sleep report".into()),
            }
        }
        if let Some(d) = dma_out.take(&dut) {
            idle = 0;
            let got = get_wide(d);
            match exp_dma.pop_front() {
                Some(want) => {
                    o.transactions += 1;
                    n_dma += 1;
                    o.check(cycle, hex(&got), hex(&want.to_bytes()));
                }
                None => o.check(cycle, hex(&got), "no DMA read".into()),
            }
        }
        if exp_desc.is_empty() && exp_dma.is_empty() && exp_sent.is_empty() && exp_sleep.is_empty() {
            idle = 0;
        }
        dut.tick();
        cycle += 1;
        if let Some(c) = took_c {
            bad_total += !model.ctrl(&c) as u64;
        }
        if let Some(r) = took_r {
            match r {
                Recv::Rewind(r) => {
                    if model.rewind(&r) {
                        n_rewind += 1;
                    } else {
                        nak_ignored += 1;
                    }
                }
                r => match model.recv(&r) {
                    Some((d, dma)) => {
                        match d.opcode {
                            Opcode::Acknowledge => n_ack += 1,
                            Opcode::HpccTelemetryResponse => n_resp += 1,
                            Opcode::RdmaReadResponseOnly
                            | Opcode::RdmaReadResponseFirst
                            | Opcode::RdmaReadResponseMiddle
                            | Opcode::RdmaReadResponseLast => n_rdresp += 1,
                            Opcode::Cnp => n_cnp += 1,
                            _ => n_probe += 1,
                        }
                        exp_desc.push_back(d);
                        exp_dma.extend(dma);
                    }
                    None => recv_drops += 1,
                },
            }
        }
        if let Some(f) = took_p {
            match model.pkt_send(f) {
                Some((d, r)) => {
                    n_rdreq += (d.opcode == Opcode::RdmaReadRequest) as u64;
                    exp_sent.push_back((f, d.bth.psn));
                    exp_desc.push_back(d);
                    exp_dma.extend(r);
                }
                None => drops_total += 1,
            }
        }
        exp_sleep.extend(model.sleeps.drain(..));
        // Counters count in S2, a cycle or more after the take: compared when the pipeline is
        // empty (nothing taken for two cycles, every expected output out), and at the end.
        since_take = if took_any { 0 } else { since_take + 1 };
        started |= took_any;
        if since_take >= 2 && exp_desc.is_empty() && exp_dma.is_empty() && exp_sent.is_empty() && exp_sleep.is_empty() {
            check_counters(&mut o, cycle, &dut, &model);
            counter_checks += 1;
        }
    }
    ctrl.stop(&mut dut);
    pks.stop(&mut dut);
    rcv.stop(&mut dut);
    for _ in 0..2 {
        dut.tick();
    }
    check_counters(&mut o, cycle, &dut, &model);
    o.metric("counter_checks", counter_checks as f64);
    let window = cycles.saturating_sub(first_out.unwrap_or(cycles));
    o.cycles = cycle;
    o.seconds = start.elapsed().as_secs_f64();
    o.metric("descriptors", n_desc as f64);
    o.metric("dma_reads", n_dma as f64);
    o.metric("acks", n_ack as f64);
    o.metric("responses", n_resp as f64);
    o.metric("probes", n_probe as f64);
    o.metric("cnps", n_cnp as f64);
    o.metric("read_requests", n_rdreq as f64);
    o.metric("sent_events", n_sent as f64);
    o.metric("idle_reports", n_idle as f64);
    o.metric("wake_reports", n_wake as f64);
    o.metric("read_responses", n_rdresp as f64);
    o.metric("drops", drops_total as f64);
    o.metric("recv_drops", recv_drops as f64);
    o.metric("rewinds", n_rewind as f64);
    o.metric("nak_ignored", nak_ignored as f64);
    o.metric("ctrl_bad", bad_total as f64);
    o.metric("resets", resets as f64);
    o.metric("descriptors_per_cycle", w_desc as f64 / window.max(1) as f64);
    o.metric("taken_per_cycle_offered", taken as f64 / offered.max(1) as f64);
    o
}

fn check_counters(o: &mut Outcome, cycle: u64, dut: &Rtl, model: &TxCtx) {
    o.check(cycle, ("stat_drop", dut.stat_drop()), ("stat_drop", model.drops));
    o.check(cycle, ("stat_recv_drop", dut.stat_recv_drop()), ("stat_recv_drop", model.recv_drops));
    o.check(cycle, ("stat_nak_ignored", dut.stat_nak_ignored()), ("stat_nak_ignored", model.nak_ignored));
    o.check(cycle, ("stat_ctrl_bad", dut.stat_ctrl_bad()), ("stat_ctrl_bad", model.ctrl_bad));
}


/// The regression scenarios.
pub fn random(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::TxCtxRandom, seed, cycles, &Shape::RANDOM, vcd)
}

pub fn bad_input(seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    run(Scenario::TxCtxBadInput, seed, cycles, &Shape::BAD_INPUT, vcd)
}

/// One input of tx_ctx, for [`feed`].
#[derive(Clone, Debug)]
pub enum Input {
    Ctrl(Ctrl),
    Send(u16),
    Recv(Recv),
}

/// What [`feed`] saw leave the RTL, each stream in order (tdata bytes).
#[derive(Default, Debug)]
pub struct Fed {
    pub desc: Vec<Vec<u8>>,
    pub dma: Vec<Vec<u8>>,
    /// Inputs taken (a prefix of the ones given).
    pub taken: usize,
}

/// Runs `dut` (reset, swept or not, as the caller left it) for `cycles` cycles, offering
/// `inputs` one at a time in order, each on its port until taken; every output ready.
/// `on_take` sees each input on the cycle it is taken (for a model to follow).
pub fn feed(dut: &mut Rtl, inputs: &[Input], cycles: u64, mut on_take: impl FnMut(&Input)) -> Fed {
    let mut ctrl: Source<Rtl, Ctrl> = Source::new(Rtl::S_AXIS_CTRL);
    let mut pks: Source<Rtl, u16> = Source::new(Rtl::S_AXIS_PKTSEND);
    let mut rcv: Source<Rtl, Recv> = Source::new(Rtl::S_AXIS_PKTRECV);
    let mut desc = Sink::new(Rtl::M_AXIS_DESC, 0.0);
    let mut dma = Sink::new(Rtl::M_AXIS_DMA_RD, 0.0);
    for s in [&mut desc, &mut dma, &mut Sink::new(Rtl::M_AXIS_SENT, 0.0), &mut Sink::new(Rtl::M_AXIS_SLEEP, 0.0)] {
        s.set_ready(dut, true);
    }
    let mut fed = Fed::default();
    for _ in 0..cycles {
        if ctrl.is_empty() && pks.is_empty() && rcv.is_empty() {
            match inputs.get(fed.taken) {
                Some(Input::Ctrl(c)) => ctrl.push(c.clone()),
                Some(Input::Send(f)) => pks.push(*f),
                Some(Input::Recv(r)) => rcv.push(r.clone()),
                None => {}
            }
        }
        ctrl.offer_now(dut);
        pks.offer_now(dut);
        rcv.offer_now(dut);
        dut.eval();
        if ctrl.taken(dut).is_some() | pks.taken(dut).is_some() | rcv.taken(dut).is_some() {
            on_take(&inputs[fed.taken]);
            fed.taken += 1;
        }
        if let Some(w) = desc.take(dut) {
            fed.desc.push(get_wide(w));
        }
        if let Some(w) = dma.take(dut) {
            fed.dma.push(get_wide(w));
        }
        dut.tick();
    }
    fed
}
