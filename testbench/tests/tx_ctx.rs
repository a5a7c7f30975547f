//! tx_ctx against its golden model (sim::tx_ctx) in Verilator, event by event: random control
//! words and PktSends with input gaps and backpressure on both outputs, bad input and resets,
//! one PktSend per clock; a few events in rust-hdl's own simulator.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::packet::*;
use sim::tx_ctx::{Ctrl, FlowConfig, Post, TxCtx};
use sim::tx_pipe::TxDesc;
use testbench::harness::tx_ctx::{run, Shape};
use testbench::harness::tx_pipe::random_desc;
use testbench::harness::Scenario;

#[test]
fn random_events_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::TxCtxRandom.run(seed, 300_000, None);
    println!("{o:?}");
    assert!(
        o.passed() && o.get("descriptors").unwrap() > 50_000.0 && o.get("dma_reads").unwrap() > 40_000.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

#[test]
fn bad_input_is_counted_and_ignored() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::TxCtxBadInput.run(seed, 300_000, None);
    println!("{o:?}");
    assert!(
        o.passed() && o.get("drops").unwrap() > 1_000.0 && o.get("ctrl_bad").unwrap() > 500.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

/// PktSend offered on every cycle, both outputs always ready: every PktSend not beside a
/// control word is taken in its cycle (one per clock, same flow or not).
#[test]
fn one_pktsend_per_clock() {
    let seed = rand::random::<u32>() as u64;
    let o = run(Scenario::TxCtxRandom, seed, 100_000, &Shape::LINE_RATE, None);
    println!("{o:?}");
    assert!(o.passed(), "{o:?}");
    assert_eq!(o.get("taken_per_cycle_offered").unwrap(), 1.0, "{o:?}");
    assert!(o.get("descriptors_per_cycle").unwrap() > 0.9, "{o:?}");
}

/// The same block at F = 2 in rust-hdl's simulator (4-cycle reset sweep): create, post, four
/// PktSends (one too many), compared with the model.
#[test]
fn rust_hdl_simulation_small_case() {
    use hdl::tx_ctx::TxCtx as Hdl;
    use rust_hdl::prelude::*;
    let mut uut = Hdl::<2>::default();
    uut.connect_all();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut model = TxCtx::new(2);
    let cfg = FlowConfig { header: random_desc(&mut rng), mtu: 100, telemetry: true, probe: false, fast_start: 2 };
    let post = Post { local_addr: rng.gen(), remote_addr: rng.gen(), rkey: rng.gen(), len: 250, first_psn: 0xFF_FFFE };
    let ctrls = [Ctrl::Create { flow: 3, cfg: FlowConfig { header: TxDesc { ip: Ipv4 { dscp: 5, ..cfg.header.ip }, ..cfg.header.clone() }, ..cfg } }, Ctrl::Post { flow: 3, post }];
    let mut want = vec![];
    for c in &ctrls {
        assert!(model.ctrl(c));
    }
    for _ in 0..4 {
        if let Some((d, r)) = model.pkt_send(3) {
            want.push((d.to_bytes().to_vec(), r.map(|r| r.to_bytes().to_vec())));
        }
    }
    let to_bits = |b: &[u8]| -> Bits<512> { b.iter().rev().fold(Bits::<512>::default(), |acc, &x| (acc << 8) | (x as u64)) };
    let bytes_of = |v: Bits<1024>, n: usize| -> Vec<u8> { (0..n).map(|i| v.get_bits::<8>(8 * i).to_u64() as u8).collect() };
    let (mut ci, mut pi) = (0, 0);
    let (mut descs, mut dmas) = (vec![], vec![]);
    for cycle in 0..30 {
        uut.reset.next = cycle == 0;
        uut.s_axis_ctrl_tvalid.next = cycle > 0 && ci < ctrls.len();
        uut.s_axis_ctrl_tdata.next = to_bits(&ctrls[ci.min(1)].to_bytes());
        uut.s_axis_pktsend_tvalid.next = cycle > 0 && ci == ctrls.len() && pi < 4;
        uut.s_axis_pktsend_tdata.next = 3.into();
        uut.m_axis_desc_tready.next = true;
        uut.m_axis_dma_rd_tready.next = true;
        uut.clock.next = Clock { clk: false };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        let took_c = uut.s_axis_ctrl_tvalid.val() && uut.s_axis_ctrl_tready.val();
        let took_p = uut.s_axis_pktsend_tvalid.val() && uut.s_axis_pktsend_tready.val();
        if uut.m_axis_desc_tvalid.val() {
            descs.push(bytes_of(uut.m_axis_desc_tdata.val(), 128));
        }
        if uut.m_axis_dma_rd_tvalid.val() {
            let v: Bits<1024> = bit_cast::<1024, 128>(uut.m_axis_dma_rd_tdata.val());
            dmas.push(bytes_of(v, 16));
        }
        uut.clock.next = Clock { clk: true };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        ci += took_c as usize;
        pi += took_p as usize;
    }
    assert_eq!(want.len(), 3);
    assert_eq!(descs, want.iter().map(|w| w.0.clone()).collect::<Vec<_>>());
    assert_eq!(dmas, want.iter().filter_map(|w| w.1.clone()).collect::<Vec<_>>());
    assert_eq!(uut.stat_drop.val().to_u64(), 1);
}
