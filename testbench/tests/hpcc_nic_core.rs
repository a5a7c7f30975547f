//! hpcc_nic_core: the register map through AXI4-Lite, bad commands, and WRITE and READ
//! messages between two cores whose CC loop (events -> cc_module -> Updates -> flow_sched ->
//! PktSends) runs inside the RTL.

use hdl::hpcc_nic_core::csr;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{RTO_CFG, STAT_SEL};
use sim::rx_ctx::{Ctrl as RxCtrl, OP_CREATE, OP_READ};
use sim::tx_ctx::{Ctrl as TxCtrl, FlowConfig, Post};
use testbench::harness::hpcc_nic_core::{
    command, configure, core, create, pair, post, post_port, reg_word, settle, status_when_done, CorePair, Cpl, Which,
};
use testbench::harness::tx_pipe::header_to;

/// 4 KiB packets for flow_sched's window accounting, bursts of 16.
const PKT_SHIFT: u32 = 12;
/// 100 Gb/s at 250 MHz: 50 bytes/cycle, UQ16.16.
const LINE_Q16: u32 = 50 << 16;

/// A queue pair: requester flow `req` on A, responder flow `resp` on B, both created.
fn connect(p: &mut CorePair, rng: &mut ChaCha8Rng, req: u16, resp: u16, mtu: u16, first_psn: u32, alg: u32) {
    connect_algs(p, rng, (req, resp), mtu, first_psn, (alg, alg), false);
}

/// `connect` with A's and B's algorithms given apart (a misconfigured pair).
/// `probe`: A's flow in HPCC++ probe mode.
fn connect_algs(p: &mut CorePair, rng: &mut ChaCha8Rng, (req, resp): (u16, u16), mtu: u16, first_psn: u32, (alg, alg_b): (u32, u32), probe: bool) {
    let m = testbench::harness::cc_module::default_model();
    for w in [Which::A, Which::B] {
        configure(core(p, w), &m, PKT_SHIFT, 16);
    }
    let cfg = |header, telemetry| FlowConfig { header, mtu, telemetry, probe: probe && telemetry, fast_start: 0, cnp: false };
    let (to_b, to_a) = (header_to(rng, resp as u32), header_to(rng, req as u32));
    let tx_a = TxCtrl::Create { flow: req, cfg: cfg(to_b, true) }.to_bytes();
    let tx_b = TxCtrl::Create { flow: resp, cfg: cfg(to_a, false) }.to_bytes();
    let rx = |qpn: u16, epsn, spsn| RxCtrl { op: OP_CREATE, qpn: qpn as u32, epsn, spsn, mtu, addr: 0 }.to_bytes();
    create(core(p, Which::A), req, &tx_a, &rx(req, 0, first_psn), LINE_Q16, 64 << 10, alg);
    create(core(p, Which::B), resp, &tx_b, &rx(resp, first_psn, 0), LINE_Q16, 64 << 10, alg_b);
    for w in [Which::A, Which::B] {
        assert!(settle(p, w, 50_000).iter().all(|r| r.2 == 0), "a configuration write was refused");
        assert_eq!(status_when_done(p, w), csr::ERR_NONE, "create on {w:?}");
    }
}

/// cc_module and flow_sched inside both cores agreed with their models (the harness's probes,
/// `harness::core_probe`) on every transaction so far.
fn assert_blocks_match_models(p: &CorePair) {
    for (name, c) in [("A", &p.a), ("B", &p.b)] {
        let problems = testbench::harness::core_probe::problems(c);
        assert!(problems.is_empty(), "core {name}: {problems:?}");
        assert!(c.checks.sched.cycles > 1000, "core {name}: flow_sched not stepped");
    }
}

/// Runs until A has `n` completions.
fn until_completions(p: &mut CorePair, n: usize, max: u64) {
    let ok = p.run_until(max, |p| p.a.completions.len() >= n);
    assert!(ok, "{} of {n} completions after {} cycles", p.a.completions.len(), p.cycle);
}

#[test]
fn registers_read_back_and_bad_accesses_get_slverr() {
    let mut p = pair(1, 20, 0.2, None);
    let c = core(&mut p, Which::A);
    for w in [csr::ID, csr::NS_PER_CYCLE_Q16, csr::SCHED_CFG, csr::STATUS, csr::CMD_ERRORS, csr::TIMER_GAP, csr::RTO_CFG, csr::CNP_INTERVAL_NS, csr::TX_EVENT_BYTES, csr::EVENT_MERGE] {
        c.read(w);
    }
    let r = settle(&mut p, Which::A, 10_000);
    let vals: Vec<u32> = r.iter().map(|x| x.1).collect();
    assert_eq!(vals, vec![csr::ID_VALUE, 4 << 16, PKT_SHIFT | 16 << 16, 0, 0, 12, csr::RTO_CFG_RESET, csr::CNP_INTERVAL_RESET, csr::TX_EVENT_BYTES_RESET, csr::EVENT_MERGE_RESET]);
    assert!(r.iter().all(|x| x.2 == 0));

    // Every read-write register keeps what was written.
    let rw: Vec<u32> = [csr::NS_PER_CYCLE_Q16, csr::SCHED_CFG, csr::STAT_SEL]
        .into_iter()
        .chain((0..csr::ARGS as u32).map(|i| csr::ARG_TX + i))
        .chain((0..csr::CC_WORDS as u32).map(|i| csr::CC_CFG + i))
        .chain([csr::TIMER_GAP, csr::RTO_CFG, csr::CNP_INTERVAL_NS, csr::TX_EVENT_BYTES, csr::EVENT_MERGE])
        .collect();
    let c = core(&mut p, Which::A);
    for (k, &w) in rw.iter().enumerate() {
        c.write(w, 0x9E37_79B9u32.wrapping_mul(k as u32 + 1));
    }
    for &w in &rw {
        c.read(w);
    }
    let r = settle(&mut p, Which::A, 100_000);
    assert!(r[..rw.len()].iter().all(|x| x.2 == 0), "a write to a read-write register was refused");
    for (k, x) in r[rw.len()..].iter().enumerate() {
        assert_eq!((x.0, x.1, x.2), (rw[k], 0x9E37_79B9u32.wrapping_mul(k as u32 + 1), 0), "register {:#x}", rw[k]);
    }

    // Read-only and unmapped writes, partial writes and unmapped reads: SLVERR, nothing changes.
    let c = core(&mut p, Which::A);
    c.write(csr::ID, 5);
    c.write(csr::NOW_NS_LO, 5);
    c.write(0x3FF, 5);
    c.write_strb(csr::ARG_TAG, 0x1234, 0x3);
    c.read(0x3FF);
    c.read(0x03F);
    c.read(csr::ARG_TAG);
    c.read(csr::ID);
    let r = settle(&mut p, Which::A, 10_000);
    let resp: Vec<u8> = r.iter().map(|x| x.2).collect();
    assert_eq!(resp, vec![2, 2, 2, 2, 2, 2, 0, 0]);
    assert_eq!(r[6].1, 0x9E37_79B9u32.wrapping_mul(3 + 24), "a partial write changed ARG_TAG");
    assert_eq!(r[7].1, csr::ID_VALUE);

    // The time base: 4 ns per cycle, then 2.5 ns per cycle once configured.
    let c = core(&mut p, Which::A);
    c.write(csr::NS_PER_CYCLE_Q16, 4 << 16);
    c.read(csr::NOW_NS_LO);
    c.read(csr::NOW_NS_LO);
    let r = settle(&mut p, Which::A, 10_000);
    let (t0, t1) = (r[1].1 as u64, r[2].1 as u64);
    assert!(t1 > t0 && (t1 - t0) % 4 == 0, "now_ns {t0} -> {t1}");
    let c = core(&mut p, Which::A);
    c.write(csr::NS_PER_CYCLE_Q16, 0x2_8000);
    for _ in 0..3 {
        c.read(csr::NOW_NS_LO);
    }
    let r = settle(&mut p, Which::A, 10_000);
    let d1 = r[2].1.wrapping_sub(r[1].1) as f64;
    let d2 = r[3].1.wrapping_sub(r[2].1) as f64;
    // Each read is the same number of cycles apart (no backpressure differences would matter
    // for the ratio: both are whole cycles times 2.5 ns, to within one ns).
    assert!(d1 > 0.0 && d2 > 0.0 && ((d1 / 2.5) - (d1 / 2.5).round()).abs() < 0.41, "{d1} {d2}");
}

/// The timer scan gives timer events to LDCP and DCQCN flows, once per round of the flow ids,
/// and none to HPCC++ flows (cc_module would count those as unused); TIMER_GAP 0 stops it.
#[test]
fn timer_events_go_to_ldcp_and_dcqcn_flows_only() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7133);
    let mut p = pair(3, 30, 0.0, None);
    connect(&mut p, &mut rng, 5, 5, 1024, 0, 0); // HPCC++
    connect(&mut p, &mut rng, 6, 6, 1024, 0, 2); // LDCP
    connect(&mut p, &mut rng, 7, 7, 1024, 0, 3); // DCQCN
    let read = |p: &mut CorePair, words: &[u32]| regs(p, Which::A, words);
    // 2 cycles per flow id: a round of the 1024 ids is 2048 cycles.
    core(&mut p, Which::A).write(csr::TIMER_GAP, 1);
    settle(&mut p, Which::A, 10_000);
    let before = read(&mut p, &[csr::TIMER_EVENTS, csr::STAT_CC_UNUSED]);
    for _ in 0..20 * 2048 {
        p.step();
    }
    let after = read(&mut p, &[csr::TIMER_EVENTS, csr::STAT_CC_UNUSED]);
    let ticks = after[0] - before[0];
    assert!((38..=42).contains(&ticks), "{ticks} timer events in 20 rounds for two flows");
    assert!(after[0] > 0 && before.len() == 2 && after.len() == 2);
    assert_eq!(after[1], before[1], "an HPCC++ flow got a timer event (cc_module counted it unused)");
    // Stopped: no more.
    core(&mut p, Which::A).write(csr::TIMER_GAP, 0);
    settle(&mut p, Which::A, 10_000);
    let stopped = read(&mut p, &[csr::TIMER_EVENTS]);
    for _ in 0..4 * 2048 {
        p.step();
    }
    assert_eq!(read(&mut p, &[csr::TIMER_EVENTS]), stopped);
}

/// The model NIC steps most cycles the quiet way (`sim::hpcc_nic_core`'s `quiet_cycle`: only
/// what counts time moves). With the timer scan at its reset gap, a DCQCN flow getting timer
/// events between messages, an LDCP flow getting them too, and messages on the DCQCN and the
/// HPCC++ flow, the model with its quiet cycles equals the RTL on every output and probe,
/// cycle by cycle, and cc_module and flow_sched inside match their models. The LDCP flow is
/// connected last, so its connect's `configure` comes after the other flows' creates: the
/// models must keep those flows (a fresh model there mistook the DCQCN flow for HPCC++).
#[test]
fn quiet_cycles_match_the_rtl_cycle_by_cycle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x9017);
    let mut p = pair(11, 30, 0.0, None);
    connect(&mut p, &mut rng, 5, 5, 1024, 0, 0); // HPCC++
    connect(&mut p, &mut rng, 7, 7, 1024, 0, 3); // DCQCN
    connect(&mut p, &mut rng, 6, 6, 1024, 0, 2); // LDCP
    // TIMER_GAP at its reset value: 13 cycles per flow id, quiet between its decisions.
    let before = regs(&mut p, Which::A, &[csr::TIMER_GAP, csr::TIMER_EVENTS]);
    assert_eq!(before[0], csr::TIMER_GAP_RESET);
    let round = 1024 * (csr::TIMER_GAP_RESET as u64 + 1);
    for (k, flow) in [7u16, 5].into_iter().enumerate() {
        for _ in 0..round + 777 * k as u64 {
            p.step();
        }
        let data: Vec<u8> = (0..6000).map(|_| rng.gen()).collect();
        let (local, remote) = (0x1000_0000u64 + (k as u64) * 0x10_0000, 0x2000_0000u64 + (k as u64) * 0x10_0000);
        p.a.host.fill(local, &data);
        let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len: data.len() as u32, first_psn: 0 };
        post(core(&mut p, Which::A), flow, &TxCtrl::Post { flow, post: w }.to_bytes(), None, k as u16);
        until_completions(&mut p, k + 1, 400_000);
        assert!(p.b.host.holds(remote, &data), "B's memory differs from WRITE {k}");
    }
    for _ in 0..round {
        p.step();
    }
    settle(&mut p, Which::A, 10_000);
    let events = regs(&mut p, Which::A, &[csr::TIMER_EVENTS])[0] - before[1];
    assert!(events >= 6, "{events} timer events in 3 rounds for the DCQCN and the LDCP flow");
    assert_blocks_match_models(&p);
    for (name, c) in [("A", &p.a), ("B", &p.b)] {
        let l = c.checks.lockstep.as_ref().expect("the model in lockstep");
        assert!(l.differs.is_none(), "core {name}: {:?}", l.differs);
        assert!(l.model.quiet_cycles * 2 > l.cycles, "core {name}: {} of {} cycles quiet", l.model.quiet_cycles, l.cycles);
    }
}

#[test]
fn bad_commands_give_errors_and_leave_flows_working() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut p = pair(7, 30, 0.1, None);
    let run = |p: &mut CorePair, op: u32, flow: u32| -> u32 {
        command(core(p, Which::A), op, flow);
        settle(p, Which::A, 10_000);
        status_when_done(p, Which::A)
    };
    assert_eq!(run(&mut p, csr::OP_POST, 1024), csr::ERR_FLOW);
    assert_eq!(run(&mut p, csr::OP_POST, 0xFFFF), csr::ERR_FLOW);
    assert_eq!(run(&mut p, csr::OP_POST, 5), csr::ERR_UNKNOWN);
    assert_eq!(run(&mut p, csr::OP_REMOVE, 5), csr::ERR_UNKNOWN);
    assert_eq!(run(&mut p, csr::OP_PROBE, 5), csr::ERR_UNKNOWN);
    assert_eq!(run(&mut p, 0, 5), csr::ERR_OP);
    assert_eq!(run(&mut p, 7, 5), csr::ERR_OP);

    // Creates with bad arguments: MTU 1500 (not a RoCE path MTU), rx MTU differing, the rx
    // QPN's low bits not the flow, rate 0, window 0.
    let hdr = header_to(&mut rng, 0x202);
    let tx = |mtu| TxCtrl::Create { flow: 0x102, cfg: FlowConfig { header: hdr.clone(), mtu, telemetry: false, probe: false, fast_start: 0, cnp: false } }.to_bytes();
    let rx = |qpn: u32, mtu| RxCtrl { op: OP_CREATE, qpn, epsn: 0, spsn: 0, mtu, addr: 0 }.to_bytes();
    for (t, r, rate, win) in [
        (tx(1500), rx(0x102, 1500), 1 << 16, 1 << 16),
        (tx(1024), rx(0x102, 2048), 1 << 16, 1 << 16),
        (tx(1024), rx(0x103, 1024), 1 << 16, 1 << 16),
        (tx(1024), rx(0x102, 1024), 0, 1 << 16),
        (tx(1024), rx(0x102, 1024), 1 << 16, 0),
    ] {
        create(core(&mut p, Which::A), 0x102, &t, &r, rate, win, 0);
        settle(&mut p, Which::A, 10_000);
        assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_CONFIG);
    }
    // A good create, then the same again.
    create(core(&mut p, Which::A), 0x102, &tx(1024), &rx(0x102, 1024), 1 << 16, 1 << 16, 0);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    create(core(&mut p, Which::A), 0x102, &tx(1024), &rx(0x102, 1024), 1 << 16, 1 << 16, 0);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_EXISTS);
    // Remove, and the flow is gone; create again works.
    assert_eq!(run(&mut p, csr::OP_REMOVE, 0x102), csr::ERR_NONE);
    assert_eq!(run(&mut p, csr::OP_POST, 0x102), csr::ERR_UNKNOWN);
    create(core(&mut p, Which::A), 0x102, &tx(1024), &rx(0x102, 1024), 1 << 16, 1 << 16, 0);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);

    core(&mut p, Which::A).read(csr::CMD_ERRORS);
    let errors = settle(&mut p, Which::A, 10_000)[0].1;
    assert_eq!(errors, 7 + 5 + 1 + 1, "CMD_ERRORS");
    // Nothing was sent by any of it (no message posted).
    assert_eq!(p.a.host.frames, 0);
}

/// A WRITE of `len` bytes from A to B and, with `read`, a READ of as many back; each completes
/// with its tag, lands byte for byte, and a second post while one is out is refused.
fn messages(seed: u64, alg: u32, len: u32, mtu: u16) -> CorePair {
    messages_algs(seed, (alg, alg), len, mtu)
}

/// `messages` with A's and B's algorithms apart; returns the pair for its counters.
fn messages_algs(seed: u64, (alg, alg_b): (u32, u32), len: u32, mtu: u16) -> CorePair {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = pair(seed, 40, 0.15, None);
    let (req, resp, psn) = (0x101u16, 0x201u16, 0xFF_FFF0u32);
    connect_algs(&mut p, &mut rng, (req, resp), mtu, psn, (alg, alg_b), false);
    let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    let (local, remote) = (0x1000_0000u64, 0x2000_0000u64);
    p.a.host.fill(local, &data);
    let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn: psn };
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 0x5A5A);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    // A second post while the first is out.
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 1);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_BUSY);

    until_completions(&mut p, 1, 400_000);
    assert_eq!(Cpl::of(p.a.completions[0]), Cpl::ok(req, 0x5A5A), "completion of the WRITE");
    assert!(p.b.host.holds(remote, &data), "B's memory differs from the WRITE");

    // A READ of B's bytes back into A at another address.
    let npkts = len.div_ceil(mtu as u32).max(1);
    let back = 0x3000_0000u64;
    let r = Post { local_addr: back, remote_addr: remote, rkey: 0, len, first_psn: (psn + npkts) & 0xFF_FFFF };
    let rx = RxCtrl { op: OP_READ, qpn: req as u32, epsn: 0, spsn: 0, mtu, addr: back }.to_bytes();
    post(core(&mut p, Which::A), req, &TxCtrl::Read { flow: req, post: r }.to_bytes(), Some(&rx), 0x0BAD);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 2, 400_000);
    assert_eq!(Cpl::of(p.a.completions[1]), Cpl::ok(req, 0x0BAD), "completion of the READ");
    // The READ's completion waits for rx_dma to have written its last response: the bytes
    // are all in A's memory when the completion is taken.
    assert!(p.a.host.holds(back, &data), "A's memory differs from the READ when its completion is taken");

    // The counters through the register port: two completions, no refused CC events.
    core(&mut p, Which::A).read(csr::COMPLETIONS);
    core(&mut p, Which::A).read(csr::STAT_CC_BAD_FLOW);
    let r = settle(&mut p, Which::A, 10_000);
    assert_eq!((r[0].1, r[1].1), (2, 0));
    assert_eq!((p.a.host.bad_frames, p.a.host.wr_len_errors, p.b.host.wr_len_errors), (0, 0, 0));
    assert_blocks_match_models(&p);
    assert!(p.a.checks.cc.as_ref().unwrap().events > 0 && p.a.checks.sched.pktsends > 0);
    println!(
        "alg {alg}, {len} bytes at MTU {mtu}: WRITE and READ complete by cycle {}; A sent {} frames, B {}",
        p.cycle, p.a.host.frames, p.b.host.frames
    );
    p
}

/// Rx-HPCC end to end: B's cc_module computes W from A's data telemetry once per RTT, B's
/// next ACK carries it (FB_ACKS), A turns each into an Update of the flow's rate and window
/// (FB_APPLIED: all of them, the link loses nothing). An HPCC++ sender facing an Rx-HPCC
/// receiver (misconfigured) ignores the feedback and counts it (FB_IGNORED), and its
/// messages still complete on its own Updates.
#[test]
fn rx_hpcc_feedback_rides_in_acks_to_the_sender() {
    let mut p = messages(15, 1, 200_000, 4096);
    let b = regs(&mut p, Which::B, &[csr::FEEDBACK_IN, csr::FB_ACKS]);
    let a = regs(&mut p, Which::A, &[csr::FB_APPLIED, csr::FB_IGNORED]);
    println!("Rx-HPCC: B took {} feedbacks, sent {} in ACKs; A applied {}, ignored {}", b[0], b[1], a[0], a[1]);
    assert!(b[1] >= 5 && b[1] <= b[0], "B: {b:?}");
    assert_eq!(a, vec![b[1], 0], "A applies every feedback B sent");

    let mut p = messages_algs(16, (0, 1), 100_000, 4096);
    let b = regs(&mut p, Which::B, &[csr::FB_ACKS]);
    let a = regs(&mut p, Which::A, &[csr::FB_APPLIED, csr::FB_IGNORED]);
    assert!(b[0] > 0, "B sent no feedback");
    assert_eq!(a, vec![0, b[0]], "an HPCC++ sender ignores (and counts) Rx-HPCC feedback");
}

#[test]
fn hpcc_write_and_read_complete_between_two_cores() {
    messages(11, 0, 40_000, 4096);
}

#[test]
fn ldcp_and_dcqcn_flows_complete_too() {
    messages(12, 2, 9_000, 1024);
    messages(13, 3, 3_000, 256);
}

#[test]
fn an_empty_write_is_one_packet_and_completes() {
    messages(14, 0, 0, 1024);
}

/// The post port (`s_axis_post`, what the host queue engine uses): a WRITE and a READ posted
/// there run as register posts do (completions with their tags, bytes landed); posts the
/// sequencer refuses each get a `CPL_REFUSED` completion with the error `STATUS` would have
/// had, in order, count in `CMD_ERRORS`, and leave `STATUS` alone.
#[test]
fn post_port_posts_run_and_refusals_complete_with_their_error() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut p = pair(21, 40, 0.15, None);
    let (req, resp, psn, mtu) = (0x101u16, 0x201u16, 0x10u32, 1024u16);
    connect(&mut p, &mut rng, req, resp, mtu, psn, 0);
    let len = 5000u32;
    let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    let (local, remote, back) = (0x1000_0000u64, 0x2000_0000u64, 0x3000_0000u64);
    p.a.host.fill(local, &data);
    let w = |flow, first_psn| TxCtrl::Post { flow, post: Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn } }.to_bytes();
    let a = core(&mut p, Which::A);
    post_port(a, &w(req, psn), None, 0x1111);
    // Refused: the same flow while its WRITE is out, a flow never created, a flow past the table.
    post_port(a, &w(req, psn), None, 0x2222);
    post_port(a, &w(0x155, 0), None, 0x3333);
    post_port(a, &w(0x400, 0), None, 0x4444);
    until_completions(&mut p, 4, 400_000);
    let got: Vec<Cpl> = p.a.completions.iter().map(|&c| Cpl::of(c)).collect();
    assert_eq!(
        got,
        [
            Cpl::refused(req, 0x2222, csr::ERR_BUSY),
            Cpl::refused(0x155, 0x3333, csr::ERR_UNKNOWN),
            Cpl::refused(0x400, 0x4444, csr::ERR_FLOW),
            Cpl::ok(req, 0x1111),
        ]
    );
    assert!(p.b.host.holds(remote, &data), "B's memory differs from the WRITE");

    // A READ whose rx word names another QP is refused; the right one reads B's bytes back.
    let npkts = len.div_ceil(mtu as u32);
    let r = Post { local_addr: back, remote_addr: remote, rkey: 0, len, first_psn: psn + npkts };
    let rx = |qpn: u16| RxCtrl { op: OP_READ, qpn: qpn as u32, epsn: 0, spsn: 0, mtu, addr: back }.to_bytes();
    let tx = TxCtrl::Read { flow: req, post: r }.to_bytes();
    post_port(core(&mut p, Which::A), &tx, Some(&rx(0x102)), 0x5555);
    post_port(core(&mut p, Which::A), &tx, Some(&rx(req)), 0x6666);
    until_completions(&mut p, 6, 400_000);
    assert_eq!(Cpl::of(p.a.completions[4]), Cpl::refused(req, 0x5555, csr::ERR_CONFIG));
    assert_eq!(Cpl::of(p.a.completions[5]), Cpl::ok(req, 0x6666));
    assert!(p.a.host.holds(back, &data), "A's memory differs from the READ");

    // STATUS shows no error and no command; CMD_ERRORS counts the four refusals; six
    // completions.
    assert_eq!(regs(&mut p, Which::A, &[csr::STATUS, csr::CMD_ERRORS, csr::COMPLETIONS]), vec![0, 4, 6]);
    assert!(p.a.posts.is_empty());
    assert_blocks_match_models(&p);
    let l = p.a.checks.lockstep.as_ref().unwrap();
    assert!(l.differs.is_none() && l.cycles > p.cycle, "{:?} after {} cycles", l.differs, l.cycles);
    println!("post port: 6 posts, 4 refused, by cycle {}; the cycle model matched for {} cycles", p.cycle, l.cycles);
}

/// Reads registers of one core.
fn regs(p: &mut CorePair, w: Which, words: &[u32]) -> Vec<u32> {
    for &x in words {
        core(p, w).read(x);
    }
    settle(p, w, 10_000).into_iter().map(|r| r.1).collect()
}

/// rx_ctx's counter `k` of core `w` (STAT_SEL's `rx_ctx`).
fn rx_ctx_stat(p: &mut CorePair, w: Which, k: u32) -> u32 {
    core(p, w).write(csr::STAT_SEL, reg_word(&[(STAT_SEL.rx_ctx, k.into())]));
    core(p, w).read(csr::STAT_RX_CTX);
    settle(p, w, 10_000).last().unwrap().1
}

/// The timeout at its quickest for tests: the scan at 2 cycles per flow id (2048-cycle rounds),
/// a timeout after `rounds` rounds without an acknowledgement, `limit` retries.
fn fast_timeout(p: &mut CorePair, rounds: u32, limit: u32) {
    for w in [Which::A, Which::B] {
        core(p, w).write(csr::TIMER_GAP, 1);
        core(p, w).write(csr::RTO_CFG, reg_word(&[(RTO_CFG.rounds, rounds.into()), (RTO_CFG.retries, limit.into())]));
        settle(p, w, 10_000);
    }
}

/// A WRITE and then a READ, each losing its last frame of one kind once (`lose`: the opcode
/// and direction, A -> B true): nothing after it would start a go-back-N, so only the
/// retransmission timeout finishes the message. Both complete, land byte for byte, and A
/// counts the timeouts.
fn lost_tail(seed: u64, alg: u32, mtu: u16, len: u32, lose: [(bool, u8); 2]) {
    use std::cell::RefCell;
    use std::rc::Rc;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = pair(seed, 40, 0.1, None);
    let (req, resp, psn) = (0x101u16, 0x201u16, 0xFF_FFFEu32);
    connect(&mut p, &mut rng, req, resp, mtu, psn, alg);
    fast_timeout(&mut p, 2, 3);
    let npkts = len.div_ceil(mtu as u32).max(1);
    // The frame to lose: (A -> B?, opcode, PSN), once.
    let target: Rc<RefCell<Option<(bool, u8, u32)>>> = Rc::new(RefCell::new(None));
    let t = target.clone();
    p.drop = Box::new(move |ab, f, _| {
        let hit = *t.borrow() == Some((ab, f.opcode() as u8, f.bth.psn));
        if hit {
            *t.borrow_mut() = None;
        }
        hit
    });
    let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    let (local, remote, back) = (0x1000_0000u64, 0x2000_0000u64, 0x3000_0000u64);
    p.a.host.fill(local, &data);
    let last = (psn + npkts - 1) & 0xFF_FFFF;
    *target.borrow_mut() = Some((lose[0].0, lose[0].1, last));
    let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn: psn };
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 0x1111);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 1, 200_000);
    assert!(target.borrow().is_none(), "the WRITE's frame to lose was never sent");
    assert_eq!(Cpl::of(p.a.completions[0]), Cpl::ok(req, 0x1111), "the WRITE completes ok");
    assert!(p.b.host.holds(remote, &data), "B's memory differs from the WRITE");
    let first_timeouts = regs(&mut p, Which::A, &[csr::RTO_TIMEOUTS])[0];
    assert!(first_timeouts >= 1, "the WRITE finished without a timeout");

    let psn2 = (psn + npkts) & 0xFF_FFFF;
    *target.borrow_mut() = Some((lose[1].0, lose[1].1, (psn2 + npkts - 1) & 0xFF_FFFF));
    let r = Post { local_addr: back, remote_addr: remote, rkey: 0, len, first_psn: psn2 };
    let rx = RxCtrl { op: OP_READ, qpn: req as u32, epsn: 0, spsn: 0, mtu, addr: back }.to_bytes();
    post(core(&mut p, Which::A), req, &TxCtrl::Read { flow: req, post: r }.to_bytes(), Some(&rx), 0x2222);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 2, 200_000);
    assert!(target.borrow().is_none(), "the READ's frame to lose was never sent");
    assert_eq!(Cpl::of(p.a.completions[1]), Cpl::ok(req, 0x2222), "the READ completes ok");
    assert!(p.a.host.holds(back, &data), "A's memory differs from the READ");
    let v = regs(&mut p, Which::A, &[csr::RTO_TIMEOUTS, csr::RTO_FAILED, csr::COMPLETIONS]);
    assert!(v[0] > first_timeouts, "the READ finished without a timeout");
    assert_eq!((v[1], v[2]), (0, 2));
    let went_back = rx_ctx_stat(&mut p, Which::A, sim::rx_ctx::stat::TIMEOUTS as u32);
    assert!(went_back >= 2 && went_back <= v[0], "rx_ctx went back {went_back} times for {} timeouts", v[0]);
    println!("alg {alg}: {} timeouts, rx_ctx went back {went_back} times, done by cycle {}", v[0], p.cycle);
}

#[test]
fn a_lost_last_packet_or_response_is_sent_again_after_the_timeout() {
    // WRITE Last (A -> B), READ Response Only of the last request (B -> A).
    lost_tail(21, 0, 1024, 5_000, [(true, 0x08), (false, 0x10)]);
    // The last ACK (B -> A), the last READ request (A -> B).
    lost_tail(22, 2, 512, 2_000, [(false, 0x11), (true, 0x0C)]);
}

/// A link that carries nothing from A: the message times out `limit` times, then ends with
/// CPL_RETRY_EXCEEDED; the flow is removed in every block (a post is ERR_UNKNOWN, no block
/// counts a bad control word), and created again it works.
#[test]
fn a_dead_link_ends_in_retry_exceeded_and_the_flow_can_be_created_again() {
    use std::cell::Cell;
    use std::rc::Rc;
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut p = pair(23, 40, 0.1, None);
    let (req, resp, psn, mtu) = (0x101u16, 0x201u16, 100u32, 1024u16);
    connect(&mut p, &mut rng, req, resp, mtu, psn, 0);
    fast_timeout(&mut p, 2, 2);
    let dead = Rc::new(Cell::new(true));
    let d = dead.clone();
    p.drop = Box::new(move |ab, _, _| ab && d.get());
    let data: Vec<u8> = (0..3000).map(|_| rng.gen()).collect();
    let (local, remote) = (0x1000_0000u64, 0x2000_0000u64);
    p.a.host.fill(local, &data);
    let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len: 3000, first_psn: psn };
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 0x7777);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    let t0 = p.cycle;
    until_completions(&mut p, 1, 200_000);
    let took = p.cycle - t0;
    assert_eq!(Cpl::of(p.a.completions[0]), Cpl { flow: req, tag: 0x7777, status: csr::CPL_RETRY_EXCEEDED, error: 0 });
    // Three expiries of 2-3 rounds of 2048 cycles each.
    assert!((3 * 2 * 2048..=3 * 3 * 2048 + 2048).contains(&took), "failed after {took} cycles");
    let v = regs(&mut p, Which::A, &[csr::RTO_TIMEOUTS, csr::RTO_FAILED, csr::COMPLETIONS, csr::STAT_TX_CTRL_BAD]);
    assert_eq!(v, vec![2, 1, 1, 0], "timeouts, failures, completions, tx_ctx bad control words");
    assert_eq!(rx_ctx_stat(&mut p, Which::A, sim::rx_ctx::stat::TIMEOUTS as u32), 2);
    assert_eq!(rx_ctx_stat(&mut p, Which::A, sim::rx_ctx::stat::CTRL_BAD as u32), 0);
    // The flow is gone: nothing more leaves A for it.
    command(core(&mut p, Which::A), csr::OP_POST, req as u32);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_UNKNOWN);
    let frames = p.a.host.frames;
    for _ in 0..10_000 {
        p.step();
    }
    assert_eq!(p.a.host.frames, frames, "a removed flow sent");

    // The link back, the flow created again (B still expects the first PSN): it works.
    dead.set(false);
    let hdr = header_to(&mut rng, resp as u32);
    let tx = TxCtrl::Create { flow: req, cfg: FlowConfig { header: hdr, mtu, telemetry: false, probe: false, fast_start: 0, cnp: false } }.to_bytes();
    let rx = RxCtrl { op: OP_CREATE, qpn: req as u32, epsn: 0, spsn: psn, mtu, addr: 0 }.to_bytes();
    create(core(&mut p, Which::A), req, &tx, &rx, LINE_Q16, 64 << 10, 0);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 0x8888);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 2, 200_000);
    assert_eq!(Cpl::of(p.a.completions[1]), Cpl::ok(req, 0x8888));
    assert!(p.b.host.holds(remote, &data), "B's memory differs from the WRITE after the re-create");
}

/// DCQCN's notification point: every ECN-capable frame A sends is marked CE; B answers a DCQCN
/// flow's marks with CNPs (opcode 0x81, BECN, P_Key 0xFFFF, PSN 0, DestQP = A's QP), at most
/// one per CNP_INTERVAL_NS, and none for an LDCP flow (its receiver's half is ECN-Echo in the
/// ACKs). A's DCQCN flow gets them as CC events and still completes its message.
#[test]
fn dcqcn_flows_get_cnps_for_ce_marks_at_most_one_per_interval() {
    use sim::packet::Opcode;
    use std::cell::RefCell;
    use std::rc::Rc;
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut p = pair(31, 40, 0.0, None);
    connect(&mut p, &mut rng, 0x101, 0x201, 1024, 0, 3); // DCQCN
    connect(&mut p, &mut rng, 0x102, 0x202, 1024, 0, 2); // LDCP
    // 2,000 ns: 500 cycles at 4 ns.
    core(&mut p, Which::B).write(csr::CNP_INTERVAL_NS, 2_000);
    settle(&mut p, Which::B, 10_000);
    p.ce = 1.0;
    // CNPs B sent: (cycle, DestQP).
    let cnps: Rc<RefCell<Vec<(u64, u32)>>> = Rc::new(RefCell::new(vec![]));
    let seen = cnps.clone();
    let bad = Rc::new(RefCell::new(0u32));
    let b2 = bad.clone();
    // The link sees every frame (and drops none): the CNPs' headers are checked here, their
    // cycles stamped in the loop below.
    p.drop = Box::new(move |ab, f, _| {
        if f.opcode() == Opcode::Cnp {
            let b = &f.bth;
            if ab || !b.becn || b.fecn || b.pkey != 0xFFFF || b.psn != 0 || b.ack_req || f.telemetry.is_some() {
                *b2.borrow_mut() += 1;
            }
            seen.borrow_mut().push((0, b.dest_qp));
        }
        false
    });
    let len = 120_000u32;
    let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    for (k, flow) in [0x101u16, 0x102].into_iter().enumerate() {
        let local = 0x1000_0000u64 * (k as u64 + 1);
        p.a.host.fill(local, &data);
        let w = Post { local_addr: local, remote_addr: local + 0x8000_0000, rkey: 0, len, first_psn: 0 };
        post(core(&mut p, Which::A), flow, &TxCtrl::Post { flow, post: w }.to_bytes(), None, flow);
        settle(&mut p, Which::A, 10_000);
        assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    }
    // Stamp each CNP with the cycle it left B.
    let mut stamped = 0;
    let mut times: Vec<(u64, u32)> = vec![];
    while p.a.completions.len() < 2 && p.cycle < 2_000_000 {
        p.step();
        let c = cnps.borrow();
        while stamped < c.len() {
            times.push((p.cycle, c[stamped].1));
            stamped += 1;
        }
    }
    assert_eq!(p.a.completions.len(), 2, "both messages complete");
    assert_eq!(*bad.borrow(), 0, "a CNP with a wrong header, or one from A");
    assert!(times.iter().all(|t| t.1 == 0x101), "CNPs only to the DCQCN flow's QP: {times:?}");
    assert!(times.len() >= 3, "{} CNPs for {} marked frames", times.len(), p.marked[0]);
    let min_gap = times.windows(2).map(|w| w[1].0 - w[0].0).min().unwrap();
    // Decisions are >= 500 cycles apart; the frames leave within a few cycles of them (no
    // backpressure here).
    assert!(min_gap >= 490, "two CNPs {min_gap} cycles apart");
    let b = regs(&mut p, Which::B, &[csr::STAT_CNPS]);
    assert_eq!(b[0] as usize, times.len(), "STAT_CNPS against the CNPs on the wire");
    println!("{} CNPs for {} CE-marked frames, closest {min_gap} cycles apart, done by cycle {}", times.len(), p.marked[0], p.cycle);
}

/// DCQCN's tx-byte events: a DCQCN flow's payload bytes add up per flow and go to cc_module in
/// sums of at least TX_EVENT_BYTES (reset 16 KiB). A 300,000-byte WRITE at MTU 4096 is 73
/// full packets and one of 992 bytes: a sum every 4 packets, 18 events, the rest waiting. The
/// responder's READ responses count at the responder the same way; an HPCC++ flow gives none,
/// and cc_module counts no tx event unused.
#[test]
fn dcqcn_flows_give_tx_byte_events_in_sums() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let mut p = pair(41, 40, 0.0, None);
    connect(&mut p, &mut rng, 0x101, 0x201, 4096, 0, 3); // DCQCN
    connect(&mut p, &mut rng, 0x102, 0x202, 4096, 0, 0); // HPCC++
    let unused = regs(&mut p, Which::A, &[csr::STAT_CC_UNUSED])[0];
    let len = 300_000u32;
    let w = |flow: u16, psn: u32| Post { local_addr: 0x1000_0000 * flow as u64, remote_addr: 0x2000_0000, rkey: 0, len, first_psn: psn };
    post(core(&mut p, Which::A), 0x102, &TxCtrl::Post { flow: 0x102, post: w(0x102, 0) }.to_bytes(), None, 2);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 1, 400_000);
    assert_eq!(regs(&mut p, Which::A, &[csr::TX_EVENTS])[0], 0, "an HPCC++ flow gave tx events");
    post(core(&mut p, Which::A), 0x101, &TxCtrl::Post { flow: 0x101, post: w(0x101, 0) }.to_bytes(), None, 1);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 2, 400_000);
    assert_eq!(regs(&mut p, Which::A, &[csr::TX_EVENTS])[0], 18);
    // A READ of as much: B's responses are B's flow's bytes.
    let back = 0x3000_0000u64;
    let r = Post { local_addr: back, remote_addr: 0x2000_0000, rkey: 0, len, first_psn: 74 };
    let rx = RxCtrl { op: OP_READ, qpn: 0x101, epsn: 0, spsn: 0, mtu: 4096, addr: back }.to_bytes();
    post(core(&mut p, Which::A), 0x101, &TxCtrl::Read { flow: 0x101, post: r }.to_bytes(), Some(&rx), 3);
    settle(&mut p, Which::A, 10_000);
    assert_eq!(status_when_done(&mut p, Which::A), csr::ERR_NONE);
    until_completions(&mut p, 3, 400_000);
    assert!(p.a.completions.iter().all(|c| c >> 32 & 3 == 0));
    assert_eq!(regs(&mut p, Which::B, &[csr::TX_EVENTS])[0], 18, "the responder's READ responses");
    // cc_module counts as unused only the DCQCN flow's ACK events (DCQCN takes CNPs, timers
    // and tx bytes): 74 ACKs of the WRITE and 74 READ responses; no tx event.
    assert_eq!(regs(&mut p, Which::A, &[csr::TX_EVENTS, csr::STAT_CC_UNUSED]), vec![18, unused + 2 * 74]);
}

/// One WRITE of `len` bytes on an LDCP flow at MTU 256 from A to B (no backpressure), with
/// EVENT_MERGE = `merge` on A; B's memory byte for byte. Returns A's (MERGED, EVENT_STALLS,
/// cycles from the post to the completion).
fn ldcp_write(merge: u32, len: u32) -> (u32, u32, u64) {
    let (r, c, _) = one_write(2, 256, false, merge, len, &[csr::MERGED, csr::EVENT_STALLS]);
    (r[0], r[1], c)
}

/// One WRITE of `len` bytes from A to B on algorithm `alg` at `mtu` (A's flow in probe mode
/// if `probe`; the scan at 2048-cycle rounds), EVENT_MERGE = `merge` on A, no backpressure;
/// B's memory byte for byte. Returns A's registers `words`, the cycles from the post to the
/// completion, and the frames B sent.
fn one_write(alg: u32, mtu: u16, probe: bool, merge: u32, len: u32, words: &[u32]) -> (Vec<u32>, u64, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut p = pair(21, 40, 0.0, None);
    let (req, resp) = (0x101u16, 0x201u16);
    connect_algs(&mut p, &mut rng, (req, resp), mtu, 0, (alg, alg), probe);
    core(&mut p, Which::A).write(csr::TIMER_GAP, 1);
    core(&mut p, Which::A).write(csr::EVENT_MERGE, merge);
    core(&mut p, Which::A).read(csr::EVENT_MERGE);
    assert_eq!(settle(&mut p, Which::A, 10_000).last().map(|r| (r.1, r.2)), Some((merge, 0)));
    let data: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
    let (local, remote) = (0x1000_0000u64, 0x2000_0000u64);
    p.a.host.fill(local, &data);
    let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len, first_psn: 0 };
    let start = p.cycle;
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 7);
    settle(&mut p, Which::A, 10_000);
    until_completions(&mut p, 1, 2_000_000);
    let cycles = p.cycle - start;
    assert_eq!(Cpl::of(p.a.completions[0]), Cpl::ok(req, 7));
    assert!(p.b.host.holds(remote, &data), "B's memory differs from the WRITE");
    (regs(&mut p, Which::A, words), cycles, p.b.host.frames)
}

/// HPCC++ probe mode (draft 004 section 6.2.1): the timer scan sends a probe request at each
/// visit of a probing flow with a message out (2048-cycle rounds here), tx_ctx sends the probe,
/// and B answers every one with a telemetry response: B sends exactly PROBES frames more than
/// for the same WRITE without probe mode, where the scan sends none.
#[test]
fn probe_mode_flows_probe_once_per_scan_visit() {
    let (on, cycles, frames_on) = one_write(0, 4096, true, 1, 100_000, &[csr::PROBES]);
    let (off, _, frames_off) = one_write(0, 4096, false, 1, 100_000, &[csr::PROBES]);
    println!("HPCC++ 100,000-byte WRITE, {cycles} cycles: {} probes, B sent {frames_on} frames (without probe mode {} probes, {frames_off} frames)", on[0], off[0]);
    assert_eq!(off[0], 0, "probes without probe mode");
    let rounds = cycles / 2048;
    assert!(on[0] as u64 >= rounds.saturating_sub(1) && on[0] as u64 <= rounds + 1, "{} probes in {rounds} rounds", on[0]);
    assert_eq!(frames_on, frames_off + on[0] as u64, "a telemetry response per probe");
}

/// ACK coalescing: an LDCP flow at MTU 256 gets an ACK every few cycles, far inside cc_ldcp's
/// 53-cycle per-flow hazard. With EVENT_MERGE on (its reset value) the ACKs that arrive while
/// one waits merge into it, and the Rx pipe's events wait far less; off, every ACK waits its
/// turn. The message lands byte for byte either way.
#[test]
fn ack_coalescing_bridges_the_per_flow_hazard() {
    let on = ldcp_write(1, 256 << 10);
    let off = ldcp_write(0, 256 << 10);
    println!("LDCP, MTU 256, 256 KiB WRITE: merging on (merged, stalls, cycles) {on:?}, off {off:?}");
    assert!(on.0 > 100, "only {} ACK events merged", on.0);
    assert_eq!(off.0, 0, "merged with EVENT_MERGE = 0");
    assert!(on.1 * 4 < off.1, "stalls with merging {} against {} without", on.1, off.1);
}

/// A READ asking for several MTUs, as another vendor's requester sends it (this NIC's own
/// requester asks one MTU per request), injected into B's MAC: B answers READ Response First,
/// Middle..., Last with consecutive PSNs across the 2^24 wrap, AETH (MSN) on First and Last
/// only, each a whole MTU but the Last, together B's bytes; its expected PSN moves past the
/// READ, so a READ at the next PSN is in order (MSN + 1: a duplicate would keep the MSN).
#[test]
fn a_multi_mtu_read_request_is_answered_first_middle_last() {
    use sim::packet::{Body, Opcode, Reth, RocePacket};
    use std::cell::RefCell;
    use std::rc::Rc;
    let mut rng = ChaCha8Rng::seed_from_u64(0x5EAD);
    let mut p = pair(0x5EAD, 40, 0.15, None);
    let (req, resp, psn, mtu) = (0x101u16, 0x201u16, 0xFF_FFFDu32, 1024u16);
    connect(&mut p, &mut rng, req, resp, mtu, psn, 0);
    // A's first frame to B is the template of the requests; B's READ responses are taken off
    // the link before A (which never asked for them).
    let template: Rc<RefCell<Option<RocePacket>>> = Rc::new(RefCell::new(None));
    let responses: Rc<RefCell<Vec<RocePacket>>> = Rc::new(RefCell::new(vec![]));
    let (t, r) = (template.clone(), responses.clone());
    p.drop = Box::new(move |ab, f, _| {
        if ab && t.borrow().is_none() {
            *t.borrow_mut() = Some(f.clone());
        }
        let resp = matches!(f.body, Body::ReadResponseFirst { .. } | Body::ReadResponseMiddle { .. } | Body::ReadResponseLast { .. } | Body::ReadResponseOnly { .. });
        if !ab && resp {
            r.borrow_mut().push(f.clone());
        }
        !ab && resp
    });
    let (local, remote) = (0x1000_0000u64, 0x2000_0000u64);
    p.a.host.fill(local, &[7; 100]);
    let w = Post { local_addr: local, remote_addr: remote, rkey: 0, len: 100, first_psn: psn };
    post(core(&mut p, Which::A), req, &TxCtrl::Post { flow: req, post: w }.to_bytes(), None, 1);
    settle(&mut p, Which::A, 10_000);
    until_completions(&mut p, 1, 200_000);

    let data: Vec<u8> = (0..5000).map(|_| rng.gen()).collect();
    p.b.host.fill(remote, &data);
    let inject = |p: &mut CorePair, psn: u32, len: u32| {
        let mut f = template.borrow().clone().expect("A sent nothing");
        f.bth.psn = psn;
        f.telemetry = None;
        f.body = Body::ReadRequest { reth: Reth { va: remote, rkey: 0, dma_len: len } };
        p.b.host.receive(sim::rx_pipe::beats(&f.build()));
    };
    // WRITE at 0xFFFFFD (MSN 1); the READ from 0xFFFFFE: five packets, 0xFFFFFE..=2.
    inject(&mut p, 0xFF_FFFE, 5000);
    assert!(p.run_until(100_000, |_| responses.borrow().len() >= 5), "{} responses", responses.borrow().len());
    let got = responses.borrow().clone();
    let ops: Vec<Opcode> = got.iter().map(|f| f.opcode()).collect();
    use Opcode::*;
    assert_eq!(ops, [RdmaReadResponseFirst, RdmaReadResponseMiddle, RdmaReadResponseMiddle, RdmaReadResponseMiddle, RdmaReadResponseLast]);
    let psns: Vec<u32> = got.iter().map(|f| f.bth.psn).collect();
    assert_eq!(psns, [0xFF_FFFE, 0xFF_FFFF, 0, 1, 2]);
    let msns: Vec<Option<u32>> = got.iter().map(|f| f.body.aeth().map(|a| a.msn)).collect();
    assert_eq!(msns, [Some(2), None, None, None, Some(2)]);
    let lens: Vec<usize> = got.iter().map(|f| f.body.payload().len()).collect();
    assert_eq!(lens, [1024, 1024, 1024, 1024, 904]);
    let bytes: Vec<u8> = got.iter().flat_map(|f| f.body.payload().to_vec()).collect();
    assert!(bytes == data, "the responses' payloads differ from B's memory");

    // The next READ, at PSN 3, is in order.
    inject(&mut p, 3, 512);
    assert!(p.run_until(100_000, |_| responses.borrow().len() >= 6));
    let f = responses.borrow()[5].clone();
    assert_eq!((f.opcode(), f.bth.psn, f.body.aeth().map(|a| a.msn)), (RdmaReadResponseOnly, 3, Some(3)));
    assert_eq!(f.body.payload(), &data[..512]);
    println!("5000-byte READ at MTU 1024: 5 responses by cycle {}", p.cycle);
}

/// The register block maps its CC words to cc_module's configuration ports by word index and
/// width, by hand (hdl_gen can neither iterate `csr::CC_FIELDS` nor write a slice at a
/// variable offset); this ties that mapping to CC_FIELDS. Every CC word gets a value of its
/// own through the register write port, then every `cfg_<engine>` port, found by name in
/// rust-hdl's walk of the block (its group `cfg_hpcc` and field `t_ns` are the CC_FIELDS name
/// `hpcc_t_ns`), must read exactly the words CC_FIELDS places it at, cut to its width.
#[test]
fn cc_words_reach_the_ports_csr_cc_fields_names() {
    use hdl::hpcc_nic_core_regs::HpccNicCoreRegs;
    use num_bigint::BigUint;
    use rust_hdl::prelude::*;
    use std::collections::BTreeMap;
    fn settle(uut: &mut HpccNicCoreRegs) {
        uut.update_all();
        while uut.has_changed() {
            uut.update_all();
        }
    }
    fn cycle(uut: &mut HpccNicCoreRegs) {
        for clk in [false, true] {
            uut.clock.next = Clock { clk };
            settle(uut);
        }
    }
    /// The value of every atom directly in a `cfg_*` group of the top block.
    #[derive(Default)]
    struct CfgPorts {
        path: Vec<String>,
        values: BTreeMap<String, BigUint>,
    }
    impl Probe for CfgPorts {
        fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
            self.path.push(name.to_string());
        }
        fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
            self.path.pop();
        }
        fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
            self.path.push(name.to_string());
        }
        fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
            self.path.pop();
        }
        fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
            if let [_, group] = self.path.as_slice() {
                if let Some(engine) = group.strip_prefix("cfg_") {
                    let text = format!("{:x}", signal.verilog());
                    let hex = text.split("'h").nth(1).expect("a hex literal");
                    let v = BigUint::parse_bytes(hex.as_bytes(), 16).expect("hex digits");
                    self.values.insert(format!("{engine}_{name}"), v);
                }
            }
        }
    }
    // A different value in every word, every bit position used across them.
    let word = |k: usize| (k as u32 + 1).wrapping_mul(0x9E37_79B9) ^ 0x5A5A_0000;
    let mut uut = HpccNicCoreRegs::default();
    uut.connect_all();
    uut.reset.next = true;
    cycle(&mut uut);
    uut.reset.next = false;
    uut.wr_strb.next = 0xF.into();
    for k in 0..csr::CC_WORDS {
        uut.wr_en.next = true;
        uut.wr_addr.next = (csr::CC_CFG as u64 + k as u64).into();
        uut.wr_data.next = (word(k) as u64).into();
        settle(&mut uut);
        assert!(!uut.wr_err.val(), "CC word {k} refused");
        cycle(&mut uut);
    }
    uut.wr_en.next = false;
    cycle(&mut uut);
    let mut ports = CfgPorts::default();
    uut.accept("regs", &mut ports);
    assert_eq!(ports.values.len(), csr::CC_FIELDS.len(), "ports: {:?}", ports.values.keys());
    for (name, off, width) in csr::CC_FIELDS {
        let words = (off as usize..(off + width.div_ceil(32)) as usize).map(word).collect::<Vec<_>>();
        let want = BigUint::from_slice(&words) & ((BigUint::from(1u8) << width) - 1u8);
        let got = ports.values.get(name).unwrap_or_else(|| panic!("no port cfg_.. for {name}"));
        assert_eq!(got, &want, "{name}: words {off}.. of the CC block");
    }
}
