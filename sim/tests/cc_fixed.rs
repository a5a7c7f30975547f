//! Fixed point (sim::cc_fixed) against the float references (sim::cc_float): randomized
//! traces through both, error of the window reported and bounded. The bounds are the ones
//! stated in docs/fixed-point.md; seeds are printed (`CC_SEED=<n>` replays one).
//!
//! Two measures per algorithm:
//! * step error: before every event the fixed state is set from the float state (rounded to
//!   the fixed formats), then both take the event. This is the arithmetic error of one event.
//! * trajectory error: both run the whole trace on their own. Rounding can tip a threshold
//!   (U >= eta, cw >= 1) one event earlier or later, so the max is loose and the mean is the
//!   useful figure.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::cc_float::{dcqcn as fd, hpcc as fh, ldcp as fl};
use sim::cc_fixed::Clock;
use sim::{cc_dcqcn as xd, cc_hpcc as xh, cc_ldcp as xl};
use sim::packet::{IntHop, LineRate, QLEN_UNIT, TX_BYTES_UNIT};

/// Relative-error statistics of one trace.
#[derive(Default, Debug)]
struct Err {
    max: f64,
    sum: f64,
    n: u64,
    /// Events with an error above 0.1%.
    over: u64,
}

impl Err {
    fn add(&mut self, fixed: f64, float: f64) {
        let e = (fixed - float).abs() / float.abs().max(1e-300);
        self.max = self.max.max(e);
        self.sum += e;
        self.n += 1;
        self.over += (e > 1e-3) as u64;
    }
    fn over_frac(&self) -> f64 {
        self.over as f64 / self.n.max(1) as f64
    }
    fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }
    fn merge(&mut self, o: &Err) {
        self.max = self.max.max(o.max);
        self.sum += o.sum;
        self.n += o.n;
        self.over += o.over;
    }
}

fn seeds(n: u64) -> Vec<u64> {
    if let Ok(s) = std::env::var("CC_SEED") {
        return vec![s.parse().expect("CC_SEED must be a number")];
    }
    let base: u64 = rand::random::<u32>() as u64;
    println!("seeds {base}..{} (CC_SEED=<seed> replays one)", base + n - 1);
    (0..n).map(|i| base + i).collect()
}

const RATES: [LineRate; 3] = [LineRate::G100, LineRate::G200, LineRate::G400];

/// A path of switches whose load changes phase every few hundred ACKs: congested (queues
/// build), draining, and near the target utilization.
struct Path {
    hops: Vec<(LineRate, u64, f64)>, // rate, txBytes total, qlen bytes
    now: u64,
    load: f64,
    seq: u64,
}

impl Path {
    fn new(rng: &mut ChaCha8Rng) -> Path {
        let n = rng.gen_range(1..=5);
        Path {
            hops: (0..n)
                .map(|_| (RATES[rng.gen_range(0..3)], rng.gen::<u32>() as u64, 0.0))
                .collect(),
            now: rng.gen::<u32>() as u64,
            load: 1.0,
            seq: 0,
        }
    }

    /// Advances time and returns (seq, hop records).
    fn next(&mut self, rng: &mut ChaCha8Rng, i: usize) -> (u64, Vec<IntHop>) {
        if i % 300 == 0 {
            self.load = [0.3, 0.8, 0.95, 1.0, 1.3, 2.0][rng.gen_range(0..6)];
        }
        let dt = rng.gen_range(100..4000u64);
        self.now += dt;
        self.seq += rng.gen_range(1000..5000u64);
        let now = self.now;
        let load = self.load;
        let recs = self
            .hops
            .iter_mut()
            .enumerate()
            .map(|(k, (rate, tx, q))| {
                let b = rate.bytes_per_ns();
                let offered = b * dt as f64 * load * rng.gen_range(0.9..1.1);
                let sent = offered.min(b * dt as f64 + *q);
                *q = (*q + offered - sent).clamp(0.0, 8e6);
                *tx += sent as u64;
                IntHop::from_counters(now + 37 * k as u64, *tx, *q as u64, *rate)
            })
            .collect();
        (self.seq, recs)
    }
}

fn hpcc_params() -> fh::HpccParams {
    fh::HpccParams::new(12.5, 5000.0)
}

/// The fixed state closest to a float one (what the step measure starts each event from).
fn hpcc_fixed_from_float(c: &xh::HpccConfig, f: &fh::Hpcc) -> xh::HpccState {
    let mut s = xh::HpccState::new(c);
    s.w_q8 = (f.window() * 256.0).round() as u32;
    s.wc_q8 = (f.wc() * 256.0).round() as u32;
    s.u_q16 = ((f.u() * 65536.0).round() as u32).min(xh::U_MAX);
    s.inc_stage = f.inc_stage() as u8;
    s.last_update_seq = f.last_update_seq() as u32;
    let l = f.last_hops();
    s.hops = l.len() as u8;
    for (x, h) in s.l.iter_mut().zip(l) {
        let code = RATES
            .iter()
            .find(|r| r.bytes_per_ns() == h.link_bytes_per_ns)
            .map_or(7, |r| *r as u8);
        *x = xh::FxHop {
            rate_code: code,
            ts: h.ts_ns as u32,
            tx_bytes: (h.tx_bytes / TX_BYTES_UNIT) as u32,
            qlen: (h.qlen_bytes / QLEN_UNIT) as u32,
        };
    }
    s
}

/// (step error, trajectory error) of the window over one random trace.
fn hpcc_trace(seed: u64, events: usize, cover: &mut [u64; 3]) -> (Err, Err) {
    let p = hpcc_params();
    let c = xh::HpccConfig::new(&p, Clock::default()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut path = Path::new(&mut rng);
    let mut float = fh::Hpcc::new(p);
    let mut fixed = xh::HpccState::new(&c);
    let (mut step, mut traj) = (Err::default(), Err::default());
    for i in 0..events {
        let (seq, recs) = path.next(&mut rng, i);
        let snd_nxt = seq + float.window() as u64;
        let hops_f: Vec<fh::Hop> = recs.iter().map(fh::Hop::from_record).collect();
        let hops_x: Vec<xh::FxHop> = recs.iter().map(xh::FxHop::from_int_hop).collect();

        let mut synced = hpcc_fixed_from_float(&c, &float);
        let before = float.clone();
        let o = float.on_ack(seq, snd_nxt, &hops_f);
        xh::on_ack(&c, &mut synced, seq as u32, snd_nxt as u32, &hops_x);
        // A step that tips U across eta is a threshold decision, not arithmetic error.
        let tipped = (synced.inc_stage as u32 == 0) != (o.inc_stage == 0)
            || (before.u() - p.eta).abs() < 1e-4;
        if !tipped {
            step.add(synced.w_q8 as f64 / 256.0, o.window_bytes);
        }

        let snd_nxt_x = seq as u32 + (fixed.w_q8 >> 8);
        xh::on_ack(&c, &mut fixed, seq as u32, snd_nxt_x, &hops_x);
        traj.add(fixed.w_q8 as f64 / 256.0, o.window_bytes);
        // Coverage: windows below half the BDP, additive steps, multiplicative steps.
        cover[0] += (o.window_bytes < p.bdp() / 2.0) as u64;
        cover[1] += (o.inc_stage > 0) as u64;
        cover[2] += (o.inc_stage == 0 && o.window_bytes < p.bdp()) as u64;
        let r_bps = c.clock.q16_to_bps(fixed.rate_q16);
        let w_min_rate = p.w_min / p.t_ns * 8e9;
        assert!(r_bps <= 100e9 * (1.0 + 1e-6) && r_bps >= w_min_rate * (1.0 - 1e-3));
    }
    (step, traj)
}

/// The fixed-vs-float bound of docs/fixed-point.md, HPCC++ sender.
#[test]
fn hpcc_fixed_point_error_is_bounded() {
    let (mut step, mut traj) = (Err::default(), Err::default());
    let mut cover = [0u64; 3];
    let seeds = seeds(200);
    for &seed in &seeds {
        let (s, t) = hpcc_trace(seed, 5000, &mut cover);
        if s.max > 1e-4 {
            println!("hpcc seed {seed}: step max {:.2e}", s.max);
        }
        step.merge(&s);
        traj.merge(&t);
    }
    println!(
        "hpcc all: step max {:.3e} mean {:.3e} ({} events); trajectory max {:.3e} mean {:.3e}, \
         {:.4}% of events off by more than 0.1%",
        step.max,
        step.mean(),
        step.n,
        traj.max,
        traj.mean(),
        100.0 * traj.over_frac()
    );
    println!("hpcc coverage (W < BDP/2, additive, multiplicative): {cover:?}");
    assert!(cover.iter().all(|&c| c > step.n / 20), "trace misses a regime: {cover:?}");
    assert!(step.n > seeds.len() as u64 * 4500, "too few comparable steps: {}", step.n);
    assert!(step.max < 2e-4 && step.mean() < 1e-5, "{step:?}");
    assert!(traj.mean() < 3e-3 && traj.over_frac() < 0.02, "{traj:?}");
}

/// Window error of LDCP over one random trace: ACKs (marked with a probability that changes
/// phase), multi-packet ACKs, sub-packet timers and a loss in some fast starts.
fn ldcp_trace(seed: u64, events: usize, cover: &mut [u64; 3]) -> Err {
    let mut p = fl::LdcpParams::new(100e9, 5000, 1024);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    p.fast_start = rng.gen_bool(0.7);
    let c = xl::LdcpConfig::new(&p, Clock::default()).unwrap();
    let mut float = fl::Ldcp::new(p);
    let mut fixed = xl::LdcpState::new(&c);
    let mut err = Err::default();
    let (mut now, mut mark) = (0u64, 0.0);
    for i in 0..events {
        if i % 200 == 0 {
            mark = [0.0, 0.01, 0.1, 0.5, 0.95][rng.gen_range(0..5)];
        }
        now += rng.gen_range(10..3000);
        match rng.gen_range(0..100) {
            0 => {
                float.on_loss(now);
                xl::on_loss(&c, &mut fixed, now);
            }
            1..=20 => {
                // Timer periods differ by rounding, so a grant can come one event apart.
                let g = float.on_timer(now);
                cover[2] += (xl::on_timer(&c, &mut fixed, now) != g) as u64;
            }
            _ => {
                let ece = rng.gen_bool(mark);
                let n = if rng.gen_bool(0.8) { 1 } else { rng.gen_range(2..8) };
                float.on_ack(now, ece, n);
                xl::on_ack(&c, &mut fixed, now, ece, n);
            }
        }
        err.add(fixed.cw_q16 as f64 / 65536.0, float.cwnd_pkts());
        cover[0] += (float.cwnd_pkts() < 1.0) as u64;
        cover[1] += (float.cwnd_pkts() >= 4.0) as u64;
        let r = c.clock.q16_to_bps(xl::rate_q16(&c, &fixed));
        assert!(r <= 100e9 * (1.0 + 1e-6), "seed {seed}: rate {r}");
    }
    err
}

/// The fixed-vs-float bound of docs/fixed-point.md, LDCP.
#[test]
fn ldcp_fixed_point_error_is_bounded() {
    let mut all = Err::default();
    let mut cover = [0u64; 3];
    for seed in seeds(200) {
        let e = ldcp_trace(seed, 5000, &mut cover);
        if e.max > 5e-2 {
            println!("ldcp seed {seed}: max {:.2e}", e.max);
        }
        all.merge(&e);
    }
    println!(
        "ldcp all: window max {:.3e} mean {:.3e} ({} events), {:.4}% off by more than 0.1%; \
         coverage (cw < 1, cw >= 4, timer grants that differ): {cover:?}",
        all.max,
        all.mean(),
        all.n,
        100.0 * all.over_frac()
    );
    assert!(cover[..2].iter().all(|&c| c > all.n / 20), "trace misses a regime: {cover:?}");
    assert!(cover[2] < all.n / 1000, "timer grants differ too often: {cover:?}");
    assert!(all.mean() < 5e-4 && all.over_frac() < 0.02, "{all:?}");
}

/// Rate error of DCQCN over one random trace: CNP bursts and quiet phases, timer events at
/// least once per increase period, tx events feeding the byte counter.
fn dcqcn_trace(seed: u64, events: usize, cover: &mut [u64; 3]) -> Err {
    let mut p = fd::DcqcnParams::hpcc_run_py(100e9, 5000);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if rng.gen_bool(0.3) {
        p.byte_counter_bytes = 0;
    }
    let c = xd::DcqcnConfig::new(&p, Clock::default()).unwrap();
    let mut float = fd::Dcqcn::new(p);
    let mut fixed = xd::DcqcnState::new(&c);
    let mut err = Err::default();
    let (mut now, mut cnp) = (0u64, 0.0);
    for i in 0..events {
        if i % 100 == 0 {
            cnp = [0.0, 0.0, 0.05, 0.3][rng.gen_range(0..4)];
        }
        now += rng.gen_range(100..50_000);
        if rng.gen_bool(cnp) {
            float.on_cnp(now);
            xd::on_cnp(&c, &mut fixed, now);
        } else if rng.gen_bool(0.5) {
            float.on_timer(now);
            xd::on_timer(&c, &mut fixed, now);
        } else {
            let bytes = rng.gen_range(0..2_000_000);
            float.on_timer(now);
            float.on_bytes_sent(bytes);
            xd::on_tx(&c, &mut fixed, now, bytes);
        }
        let rc_bps = fixed.rc_q24 as f64 / 16777216.0 * 8.0 * c.clock.mhz * 1e6;
        err.add(rc_bps, float.rate_bps());
        let alpha = xd::alpha_at(&c, &fixed, now) as f64 / 16777216.0;
        assert!((alpha - float.alpha()).abs() < 1e-4, "seed {seed} event {i}: alpha {alpha}");
        match float.last_stage() {
            Some(fd::IncreaseStage::FastRecovery) => cover[0] += 1,
            Some(fd::IncreaseStage::Additive) => cover[1] += 1,
            Some(fd::IncreaseStage::Hyper) => cover[2] += 1,
            None => {}
        }
    }
    err
}

/// The fixed-vs-float bound of docs/fixed-point.md, DCQCN.
#[test]
fn dcqcn_fixed_point_error_is_bounded() {
    let mut all = Err::default();
    let mut cover = [0u64; 3];
    for seed in seeds(100) {
        let e = dcqcn_trace(seed, 5000, &mut cover);
        if e.max > 1e-3 {
            println!("dcqcn seed {seed}: max {:.2e}", e.max);
        }
        all.merge(&e);
    }
    println!(
        "dcqcn all: rate max {:.3e} mean {:.3e} ({} events); coverage (fast recovery, \
         additive, hyper): {cover:?}",
        all.max,
        all.mean(),
        all.n
    );
    assert!(cover.iter().all(|&c| c > all.n / 50), "trace misses a stage: {cover:?}");
    assert!(all.max < 2e-4 && all.mean() < 5e-5, "{all:?}");
}

/// Rx-HPCC: the receiver runs lines 28-34 on every data packet's telemetry.
#[test]
fn hpcc_rx_fixed_point_error_is_bounded() {
    let p = hpcc_params();
    let c = xh::HpccConfig::new(&p, Clock::default()).unwrap();
    let (mut all, mut feedback) = (Err::default(), [0u64; 2]);
    for seed in seeds(100) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut path = Path::new(&mut rng);
        let mut float = fh::RxHpcc::new(p);
        let mut fixed = xh::HpccState::new(&c);
        for i in 0..5000 {
            let (_, recs) = path.next(&mut rng, i);
            let now = path.now;
            let hops_f: Vec<fh::Hop> = recs.iter().map(fh::Hop::from_record).collect();
            let hops_x: Vec<xh::FxHop> = recs.iter().map(xh::FxHop::from_int_hop).collect();
            let sent = float.on_int(now, &hops_f).is_some();
            // lastUpdateTime compares integer times: the decision is exact.
            assert_eq!(xh::on_int(&c, &mut fixed, now, &hops_x), sent, "seed {seed} event {i}");
            feedback[sent as usize] += 1;
            all.add(fixed.w_q8 as f64 / 256.0, float.window());
        }
    }
    println!(
        "hpcc-rx all: window max {:.3e} mean {:.3e} ({} events), {:.4}% off by more than \
         0.1%; (no feedback, feedback): {feedback:?}",
        all.max,
        all.mean(),
        all.n,
        100.0 * all.over_frac()
    );
    assert!(feedback.iter().all(|&n| n > all.n / 20), "{feedback:?}");
    assert!(all.mean() < 1e-3 && all.over_frac() < 0.02, "{all:?}");
}
