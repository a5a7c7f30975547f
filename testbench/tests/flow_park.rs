//! flow_park: the Verilated RTL against its model, output by output on every cycle, both as the
//! block's rust-hdl simulation runs it (the ports, in_drop and reset around `sim::flow_park`) and
//! as the cycle model of cc_module uses it (`sim::flow_park` alone),
//! under random traffic over a few flows (so waits, chains and full slots are common), random
//! drops and random datapath stalls; and the contract itself: a flow's events leave in order and
//! at least D + 1 cycles apart, nothing is lost or duplicated. Seeds are printed.

use hdl::div_pipe::bits_from_u128;
use hdl::flow_park::FlowPark;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_hdl::prelude::*;
use std::collections::{HashMap, VecDeque};
use testbench::verilated::models::FlowPark as Rtl;

const D: u64 = 52;

fn settle(m: &mut FlowPark<16, 128, 8, 52>) {
    m.update_all();
    while m.has_changed() {
        m.update_all();
    }
}

#[test]
fn rtl_matches_the_model_and_keeps_the_contract() {
    let seed = rand::random::<u32>() as u64;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut rtl = Rtl::new();
    let mut m = FlowPark::<16, 128, 8, 52>::default();
    m.connect_all();
    let mut plain = sim::flow_park::FlowPark::<u64>::new(8, D as usize);
    let (mut last_issue, mut queued): (HashMap<u16, u64>, HashMap<u16, VecDeque<u64>>) =
        (HashMap::new(), HashMap::new());
    let (mut offered, mut serial, mut issued, mut dropped) = (None::<(u16, u64)>, 0u64, 0u64, 0u64);
    let flows = 12u16;
    for cycle in 0..30_000u64 {
        let reset = cycle < 2;
        if offered.is_none() && rng.gen_bool(0.8) {
            serial += 1;
            offered = Some((rng.gen_range(0..flows), serial));
        }
        let drop = rng.gen_bool(0.05);
        let m_ready = rng.gen_bool(0.9);
        let (flow, tag) = offered.unwrap_or((0, 0));
        let data = (tag as u128) << 64 | flow as u128;
        let words = [flow as u32, 0, tag as u32, (tag >> 32) as u32];
        rtl.set_reset(reset as u8);
        rtl.s_axis_tdata_mut().copy_from_slice(&words);
        rtl.set_s_axis_tvalid(offered.is_some() as u8);
        rtl.set_in_drop(drop as u8);
        rtl.set_m_ready(m_ready as u8);
        rtl.eval();
        m.reset.next = reset;
        m.s_axis_tdata.next = bits_from_u128(data);
        m.s_axis_tvalid.next = offered.is_some();
        m.in_drop.next = drop;
        m.m_ready.next = m_ready;
        m.clock.next = Clock { clk: false };
        settle(&mut m);
        let got = (rtl.s_axis_tready() == 1, rtl.m_valid() == 1, rtl.m_data()[2]);
        let want = (m.s_axis_tready.val(), m.m_valid.val(), m.m_data.val().get_bits::<32>(64).to_u64() as u32);
        let got_data = if got.1 { got.2 } else { 0 };
        assert_eq!((got.0, got.1, got_data), (want.0, want.1, if want.1 { want.2 } else { 0 }), "cycle {cycle}, seed {seed}");
        let plain_ready = drop || plain.ready(flow as u64);
        assert_eq!((got.0, got.1.then_some(got.2 as u64)), (plain_ready, plain.head().copied()), "sim::flow_park, cycle {cycle}, seed {seed}");
        let plain_in = (!reset && offered.is_some() && plain_ready && !drop).then_some((flow as u64, tag));
        let plain_out = plain.step(plain_in, m_ready);
        assert_eq!(plain_out.is_some(), got.1 && m_ready, "sim::flow_park issued, cycle {cycle}, seed {seed}");
        if reset {
            plain.reset();
        }
        if !reset && offered.is_some() && got.0 {
            if drop {
                dropped += 1;
            } else {
                queued.entry(flow).or_default().push_back(tag);
            }
            offered = None;
        }
        if !reset && got.1 && m_ready {
            let f = rtl.m_data()[0] as u16;
            let t = rtl.m_data()[2] as u64 | (rtl.m_data()[3] as u64) << 32;
            assert_eq!(plain_out, Some(t), "sim::flow_park's issue, cycle {cycle}, seed {seed}");
            assert_eq!(queued.get_mut(&f).and_then(|q| q.pop_front()), Some(t), "order, cycle {cycle}, seed {seed}");
            if let Some(prev) = last_issue.insert(f, cycle) {
                assert!(cycle - prev > D, "flow {f} issued {} cycles apart, cycle {cycle}, seed {seed}", cycle - prev);
            }
            issued += 1;
        }
        rtl.tick();
        m.clock.next = Clock { clk: true };
        settle(&mut m);
    }
    println!("seed {seed}: {issued} issued, {dropped} dropped");
    assert!(issued > 2000 && dropped > 100, "seed {seed}");
}
