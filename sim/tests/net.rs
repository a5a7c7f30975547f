//! sim::net: the network's inputs and outputs in the HPCC reference simulator's formats.

use sim::net::cdf::Cdf;
use sim::net::fct::{base_path, fct_line, slowdown_bins, standalone_ns, FctRecord};
use sim::net::flows::{self, Flow};
use sim::net::topo::Topology;
use sim::net::traffic::{self, Poisson};
use sim::net::{host_ip, ParseError};

const G100: u64 = 100_000_000_000;

/// A small file in the reference's shape: 4 hosts, 2 leaves, 1 spine.
const SMALL: &str = "7 3 6\n4 5 6\n0 4 100Gbps 1000ns 0\n1 4 100Gbps 1000ns 0\n2 5 100Gbps 1us 0\n\
                     3 5 100Gbps 1us 0.000000\n4 6 400Gbps 1000ns 0\n5 6 400Gbps 1000ns 0\n";

fn refused(r: Result<impl std::fmt::Debug, ParseError>) -> (usize, String) {
    let e = r.expect_err("must be refused");
    assert!(e.to_string().starts_with(&e.file), "{e}");
    (e.line, e.msg)
}

#[test]
fn topology_file_reads_and_writes_back() {
    let t = Topology::parse("small.txt", SMALL).unwrap();
    assert_eq!(t.hosts(), vec![0, 1, 2, 3]);
    assert_eq!(t.links[2].delay_ns, 1000);
    assert_eq!(t.links[4].bps, 4 * G100);
    let again = Topology::parse("again", &t.to_text()).unwrap();
    assert_eq!(again, t);
    let r = t.routes();
    // Host 0 to host 3: leaf 4, spine 6, leaf 5, host 3.
    assert_eq!(r.hops[0][3], 4);
    assert_eq!(r.hops[1][0], 2);
}

#[test]
fn topology_builders_route_every_pair() {
    let ls = Topology::leaf_spine(16, 4, 2, G100, 4 * G100, 1000).unwrap();
    assert_eq!(ls.hosts().len(), 16);
    let r = ls.routes();
    // Across leaves: two equal-cost spines at the first leaf.
    assert_eq!(r.next[16][15].len(), 2);
    assert_eq!(r.hops[0][15], 4);
    assert_eq!(r.hops[0][1], 2);
    // The builders' topologies are valid files.
    for t in [ls, Topology::incast(16, G100, 1000), Topology::dumbbell(4, G100, G100, 1000)] {
        assert_eq!(Topology::parse("built", &t.to_text()).unwrap(), t);
    }
    assert!(Topology::leaf_spine(15, 4, 2, G100, G100, 1000).is_err());
}

#[test]
fn bad_topologies_name_the_line() {
    let cases: [(&str, usize, &str); 10] = [
        ("", 0, "empty"),
        ("7 3\n", 1, "3 numbers"),
        ("7 3 6\n4 5\n", 2, "2 switch ids"),
        ("7 3 6\n4 5 9\n", 2, "not a node"),
        ("7 3 6\n4 5 5\n", 2, "twice"),
        ("7 3 1\n4 5 6\n0 4 100Gbps 1000ns\n", 3, "4 words"),
        ("7 3 1\n4 5 6\n0 4 100GBps 1000ns 0\n", 3, "rate"),
        ("7 3 1\n4 5 6\n0 4 100Gbps 1000 0\n", 3, "delay"),
        ("7 3 1\n4 5 6\n0 0 100Gbps 1000ns 0\n", 3, "itself"),
        ("7 3 1\n4 5 6\n0 4 100Gbps 1000ns 2\n", 3, "error rate"),
    ];
    for (text, line, word) in cases {
        let (l, msg) = refused(Topology::parse("t.txt", text));
        assert_eq!(l, line, "{text:?}: {msg}");
        assert!(msg.contains(word), "{text:?}: {msg}");
    }
    // Whole-file checks: link count, a host with two links, a host cut off.
    let count = SMALL.replacen("7 3 6", "7 3 7", 1);
    assert!(refused(Topology::parse("t", &count)).1.contains("first line says 7"));
    let two = "4 1 3\n3\n0 3 1Gbps 1ns 0\n1 3 1Gbps 1ns 0\n0 2 1Gbps 1ns 0\n";
    assert!(refused(Topology::parse("t", two)).1.contains("host 0 has 2 links"));
    let cut = "5 2 2\n3 4\n0 3 1Gbps 1ns 0\n1 4 1Gbps 1ns 0\n2 4 1Gbps 1ns 0\n";
    assert!(refused(Topology::parse("t", cut)).1.contains("first line says 2"));
    let cut = "5 2 3\n3 4\n0 3 1Gbps 1ns 0\n1 4 1Gbps 1ns 0\n2 4 1Gbps 1ns 0\n";
    assert!(refused(Topology::parse("t", cut)).1.contains("cannot reach"));
}

#[test]
fn flow_file_reads_exact_times_and_writes_back() {
    let t = Topology::parse("small.txt", SMALL).unwrap();
    let text = "3\n0 3 3 100 1000 2\n1 3 3 100 5000 2.000000001\n2 0 3 101 7 2.5\n";
    let f = flows::parse("flow.txt", text, Some(&t)).unwrap();
    assert_eq!(f[0], Flow { src: 0, dst: 3, pg: 3, dport: 100, size: 1000, start_ns: 2_000_000_000 });
    assert_eq!(f[1].start_ns, 2_000_000_001);
    assert_eq!(f[2].start_ns, 2_500_000_000);
    assert_eq!(flows::parse("again", &flows::to_text(&f), Some(&t)).unwrap(), f);
}

#[test]
fn bad_flow_files_name_the_line() {
    let t = Topology::parse("small.txt", SMALL).unwrap();
    let cases: [(&str, usize, &str); 9] = [
        ("", 0, "empty"),
        ("x\n", 1, "not a number"),
        ("1\n0 3 3 100 1000\n", 2, "5 words"),
        ("1\n0 4 3 100 1000 0\n", 2, "not a host"),
        ("1\n0 0 3 100 1000 0\n", 2, "itself"),
        ("1\n0 3 3 70000 1000 0\n", 2, "dport"),
        ("1\n0 3 3 100 0 0\n", 2, "size"),
        ("1\n0 3 3 100 10 0.0000000001\n", 2, "ns resolution"),
        ("2\n0 3 3 100 10 1\n1 3 3 100 10 0.5\n", 3, "ascending"),
    ];
    for (text, line, word) in cases {
        let (l, msg) = refused(flows::parse("f.txt", text, Some(&t)));
        assert_eq!(l, line, "{text:?}: {msg}");
        assert!(msg.contains(word), "{text:?}: {msg}");
    }
    assert!(refused(flows::parse("f", "3\n0 3 3 100 10 0\n", None)).1.contains("count line says 3"));
    assert_eq!(refused(flows::parse("f", "1\n0 3 3 100 10 0\n1 3 3 100 10 0\n", None)).0, 3);
}

#[test]
fn shipped_cdfs_parse_and_sample() {
    let ws = Cdf::named("websearch").unwrap();
    let fb = Cdf::named("fb_hadoop").unwrap();
    assert!(Cdf::named("nope").is_none());
    // Between two points the size is linear: WebSearch's 15% is 10 kB, 20% is 20 kB.
    assert_eq!(ws.sample(0.175), 15_000);
    assert_eq!(ws.sample(1.0), 30_000_000);
    assert_eq!(fb.sample(0.0), 1);
    // The mean by segments, each its share times its midpoint, summed by hand:
    // 0.15 x 5 k + 0.05 x 15 k + 0.1 x 25 k + 0.1 x 40 k + 0.13 x 65 k + 0.07 x 140 k
    // + 0.1 x 600 k + 0.1 x 1.5 M + 0.1 x 3.5 M + 0.07 x 7.5 M + 0.03 x 20 M = 1,711,250.
    assert!((ws.mean() - 1_711_250.0).abs() < 1.0, "{}", ws.mean());
    // Sampling follows the CDF: the fraction of samples <= 1 MB is 70%.
    let n = 100_000;
    let below = (0..n).filter(|i| ws.sample((*i as f64 + 0.5) / n as f64) <= 1_000_000).count();
    assert!((below as f64 / n as f64 - 0.70).abs() < 0.001, "{below}");
}

#[test]
fn bad_cdfs_name_the_line() {
    let cases: [(&str, usize, &str); 5] = [
        ("", 0, "no points"),
        ("0 0\n10 50 1\n", 2, "3 words"),
        ("0 0\nx 50\n", 2, "not a number"),
        ("0 0\n10 120\n", 2, "0..100"),
        ("0 0\n10 50\n5 100\n", 3, "only grows"),
    ];
    for (text, line, word) in cases {
        let (l, msg) = refused(Cdf::parse("c.txt", text));
        assert_eq!(l, line, "{text:?}: {msg}");
        assert!(msg.contains(word), "{text:?}: {msg}");
    }
    assert!(refused(Cdf::parse("c", "0 0\n10 90\n")).1.contains("not 100"));
}

#[test]
fn poisson_traffic_offers_its_load_and_repeats_by_seed() {
    let hosts: Vec<usize> = (0..16).collect();
    let ws = Cdf::named("websearch").unwrap();
    let p = Poisson { load: 0.3, host_bps: G100, start_ns: 2_000_000_000, duration_ns: 200_000_000, seed: 7 };
    let f = traffic::poisson(&hosts, &ws, &p).unwrap();
    assert_eq!(f, traffic::poisson(&hosts, &ws, &p).unwrap());
    assert_ne!(f, traffic::poisson(&hosts, &ws, &Poisson { seed: 8, ..p.clone() }).unwrap());
    assert!(f.windows(2).all(|w| w[0].start_ns <= w[1].start_ns));
    assert!(f.iter().all(|x| x.src != x.dst && x.start_ns >= p.start_ns && x.start_ns < p.start_ns + p.duration_ns));
    // Offered bytes against load x rate x time x hosts: within 10% over 0.2 s (~3,600 flows;
    // WebSearch's heavy tail makes the sum noisy).
    let offered: u64 = f.iter().map(|x| x.size).sum();
    let want = 0.3 * G100 as f64 / 8.0 * 0.2 * 16.0;
    assert!((offered as f64 / want - 1.0).abs() < 0.10, "{offered} vs {want}");
    // It writes a valid flow file.
    assert_eq!(flows::parse("gen", &flows::to_text(&f), None).unwrap(), f);
    assert!(traffic::poisson(&hosts[..1], &ws, &p).is_err());
    assert!(traffic::poisson(&hosts, &ws, &Poisson { load: 0.0, ..p }).is_err());
}

#[test]
fn incast_on_background() {
    let inc = traffic::incast(&[0, 1, 2, 3], 3, 500_000, 10);
    assert_eq!(inc.len(), 3);
    let bg = vec![Flow { src: 5, dst: 6, pg: 3, dport: 100, size: 1, start_ns: 10 }];
    let all = traffic::merge(bg, inc);
    assert_eq!(all[0].src, 5);
    assert_eq!(all.len(), 4);
}

#[test]
fn fct_lines_and_slowdown() {
    let t = Topology::incast(2, G100, 1000);
    let r = t.routes();
    // Host 0 -> switch 3 -> host 2: 2 links, 1 us each way each.
    let (rtt, bw) = base_path(&t, &r, 0, 2, 1000, 64);
    assert_eq!(bw, G100);
    assert_eq!(rtt, 2 * (2000 + 80 + 6)); // 1000 B: 80 ns, 64 B: 5.12 -> 6 ns per hop
    let sa = standalone_ns(rtt, 1_000_000, bw);
    assert_eq!(sa, rtt + 80_000);
    let rec = |size, fct_ns| FctRecord {
        flow: Flow { src: 0, dst: 2, pg: 3, dport: 100, size, start_ns: 5 },
        sport: 7,
        fct_ns,
        standalone_ns: standalone_ns(rtt, size, bw),
    };
    assert_eq!(host_ip(2), [11, 0, 2, 1]);
    assert_eq!(fct_line(&rec(1_000_000, sa)), format!("0b000001 0b000201 7 100 1000000 5 {sa} {sa}"));
    // And back, host 300 (11.1.44.1) included.
    let mut far = rec(5, 9);
    far.flow.src = 300;
    let text: String = [rec(1_000_000, sa), far].iter().map(|r| fct_line(r) + "\n").collect();
    assert_eq!(sim::net::fct::parse_fct("fct.txt", &text).unwrap(), vec![rec(1_000_000, sa), { let mut f = rec(5, 9); f.flow.src = 300; f }]);
    assert_eq!(refused(sim::net::fct::parse_fct("fct.txt", "0b000001 0b000201 7 100\n")).0, 1);
    let recs: Vec<FctRecord> = (1..=100).map(|i| rec(1000 * i, standalone_ns(rtt, 1000 * i, bw) * (1 + i % 10))).collect();
    let (all, bins) = slowdown_bins(&recs);
    assert_eq!(all.flows, 100);
    assert!(all.p50 >= 5.0 && all.p50 <= 6.0 && all.p99 >= 10.0 - 1e-9, "{all:?}");
    assert_eq!(bins.len(), 5);
    assert_eq!(bins[0].slowdown.flows, 9); // 1..9 kB
    assert_eq!(bins[1].slowdown.flows, 90);
    assert_eq!(bins[2].slowdown.flows, 1);
    assert_eq!(bins[4].below_bytes, None);
}

mod network {
    use super::*;
    use sim::net::network::{NetConfig, Network};
    use sim::packet::{examples, RocePacket};
    use sim::switch::wire_bytes;

    /// A WRITE frame from host `src` to host `dst` with UDP source port `sport`.
    fn frame(src: usize, dst: usize, sport: u16) -> Vec<u8> {
        let (_, mut p) = examples().into_iter().find(|(n, p)| n.starts_with("RDMA WRITE") && p.telemetry.is_some()).unwrap();
        p.ip.src = host_ip(src);
        p.ip.dst = host_ip(dst);
        p.udp_src_port = sport;
        p.build()
    }

    /// Steps `net` from `now` until `want` frames are delivered or `limit` cycles pass.
    fn run(net: &mut Network, now: &mut u64, want: usize, limit: u64) -> Vec<(u64, usize, Vec<u8>)> {
        let mut got = vec![];
        let end = *now + limit;
        while got.len() < want && *now < end {
            got.extend(net.deliver(*now).into_iter().map(|(h, f)| (*now, h, f)));
            net.tick(*now);
            *now += 1;
        }
        got
    }

    #[test]
    fn frames_cross_two_tiers_with_delay_serialization_and_a_hop_per_switch() {
        let t = Topology::parse("small.txt", SMALL).unwrap();
        let mut net = Network::new(t, &NetConfig::g100(1)).unwrap();
        let f = frame(0, 3, 7);
        net.send(0, f.clone(), 0);
        let mut now = 0;
        let got = run(&mut net, &mut now, 1, 10_000);
        assert_eq!(got.len(), 1);
        let (at, host, out) = &got[0];
        assert_eq!(*host, 3);
        // Four links of 250 cycles; three egresses: two at 400 Gb/s (200 B/cycle), one at 100
        // (50 B/cycle), each frame a little longer than the last by its telemetry hop.
        let p = RocePacket::parse(out).unwrap();
        assert_eq!(p.telemetry.as_ref().unwrap().hops.len(), 3, "one hop per switch");
        let ser: f64 = [(f.len(), 200.0), (f.len() + 8, 200.0), (f.len() + 16, 50.0)].iter().map(|&(l, r)| wire_bytes(l) as f64 / r).sum();
        let least = 4 * 250 + ser.ceil() as u64;
        assert!(*at >= least && *at <= least + 3, "arrived at {at}, least {least}");
        assert!(net.idle());
        assert_eq!((net.lost, net.unroutable()), (0, 0));
    }

    #[test]
    fn ecmp_spreads_flows_and_keeps_each_on_one_path() {
        let t = Topology::leaf_spine(8, 2, 4, G100, 4 * G100, 1000).unwrap();
        let mut net = Network::new(t, &NetConfig::g100(1)).unwrap();
        let uplinks: Vec<usize> = (0..net.topo.links.len()).filter(|&l| net.topo.links[l].a == 8).collect();
        let mut now = 0;
        // 64 flows, one frame each: every uplink of leaf 8 carries some.
        for sport in 0..64 {
            net.send(0, frame(0, 7, sport), now);
        }
        assert_eq!(run(&mut net, &mut now, 64, 100_000).len(), 64);
        let used = uplinks.iter().filter(|&&l| net.port_stats(8, l).unwrap().tx_wire_bytes > 0).count();
        assert_eq!(used, 4, "64 flows over 4 spines");
        // One flow, 16 frames: all on one uplink, in order.
        let before: Vec<u64> = uplinks.iter().map(|&l| net.port_stats(8, l).unwrap().tx_wire_bytes).collect();
        for _ in 0..16 {
            net.send(0, frame(0, 7, 1000), now);
        }
        assert_eq!(run(&mut net, &mut now, 16, 100_000).len(), 16);
        let moved = uplinks.iter().zip(&before).filter(|(&l, &b)| net.port_stats(8, l).unwrap().tx_wire_bytes > b).count();
        assert_eq!(moved, 1);
    }

    #[test]
    fn lossy_links_lose_and_unknown_rates_are_refused() {
        let mut t = Topology::incast(2, G100, 1000);
        t.links[0].error_rate = 1.0;
        let mut net = Network::new(t.clone(), &NetConfig::g100(1)).unwrap();
        net.send(0, frame(0, 2, 1), 0);
        let mut now = 0;
        assert!(run(&mut net, &mut now, 1, 5_000).is_empty());
        assert_eq!(net.lost, 1);
        t.links[1].bps = 10_000_000_000;
        assert!(Network::new(t.clone(), &NetConfig::g100(1)).err().unwrap().contains("line-rate code"));
        t.links[1].bps = G100;
        t.links[1].delay_ns = 1001;
        assert!(Network::new(t, &NetConfig::g100(1)).err().unwrap().contains("whole number"));
    }
}
