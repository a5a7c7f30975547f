//! rx_dma against its golden model (sim::rx_dma) in Verilator: random frames and commands with
//! gaps and backpressure, bad input and resets, the line-rate sweep; a few small frames in
//! rust-hdl's own simulator.

use sim::rx_dma::{beats, Cmd, RxDma};
use testbench::harness::rx_dma::line_rate;
use testbench::harness::Scenario;

#[test]
fn random_frames_match_the_model() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::RxDmaRandom.run(seed, 400_000, None);
    println!("{o:?}");
    assert!(
        o.passed()
            && o.get("frames").unwrap() > 5_000.0
            && o.get("writes").unwrap() > 2_000.0
            && o.get("discarded").unwrap() > 1_000.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

#[test]
fn bad_input_is_counted_and_never_written() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::RxDmaBadInput.run(seed, 400_000, None);
    println!("{o:?}");
    assert!(
        o.passed() && o.get("short").unwrap() > 100.0 && o.get("writes").unwrap() > 1_000.0,
        "{o:?}; re-run: {}",
        o.rerun_command()
    );
}

/// Frame-size sweep, every frame written, commands 12 cycles after each frame: one beat per
/// clock in without output backpressure; the output keeps up (all frames compared).
#[test]
fn line_rate_sweep() {
    let mut sizes: Vec<usize> = (60..=127).collect();
    sizes.extend([256, 512, 1024, 1500, 4096]);
    for &p in &sizes {
        let (rin, rout, n, bad) = line_rate(p, 300, 0.0, p as u64);
        let (rin_bp, rout_bp, _, bad_bp) = line_rate(p, 300, 0.3, p as u64);
        // Payload beats per frame beat: what the output carries when the input runs at 1.
        let frame = 54 + p + (4 - p % 4) % 4 + 4;
        let ratio = p.div_ceil(64) as f64 / frame.div_ceil(64) as f64;
        println!("payload {p}: in {rin:.4} out {rout:.4} beats/cycle; 30% backpressure: in {rin_bp:.4} out {rout_bp:.4}");
        assert_eq!((bad, bad_bp), (0, 0), "payload {p}: {bad} / {bad_bp} of {n} writes differ");
        assert!(rin > 0.999, "payload {p}: input {rin} beats/cycle");
        assert!(rout > 0.99 * ratio, "payload {p}: output {rout} beats/cycle, {ratio} expected");
        let cap = ratio.min(0.7);
        assert!(rout_bp > 0.95 * cap, "payload {p}: output {rout_bp} beats/cycle under 30% backpressure, {cap} possible");
    }
}

/// The block at B = 7 in rust-hdl's simulator: three frames (write at offset 5, discard,
/// write at offset 70 of a 3-beat frame), one command before its frame, the others after.
#[test]
fn rust_hdl_simulation_small_case() {
    use hdl::rx_dma::RxDma as Hdl;
    use rust_hdl::prelude::*;
    let mut uut = Hdl::<7>::new();
    uut.connect_all();
    let frames: Vec<Vec<u8>> = [100usize, 64, 150].iter().map(|&n| (0..n).map(|i| (i * 13 + n) as u8).collect()).collect();
    let cmds = [
        Cmd { addr: 0x1000, offset: 5, len: 90, write: true, flow: 7 },
        Cmd { addr: 0x2000, offset: 0, len: 10, write: false, flow: 8 },
        Cmd { addr: 0x3000, offset: 70, len: 77, write: true, flow: 9 },
    ];
    let mut model = RxDma::default();
    let want: Vec<_> = frames.iter().zip(&cmds).filter_map(|(f, c)| model.frame(&beats(f), c)).collect();
    let beats: Vec<_> = frames.iter().flat_map(|f| beats(f)).collect();
    let to_bits = |b: &[u8]| -> Bits<512> { b.iter().rev().fold(Bits::<512>::default(), |acc, &x| (acc << 8) | (x as u64)) };
    let to_bits128 = |b: &[u8]| -> Bits<128> { b.iter().rev().fold(Bits::<128>::default(), |acc, &x| (acc << 8) | (x as u64)) };
    let (mut bi, mut ci) = (0usize, 0usize);
    let (mut got_cmds, mut payload, mut got) = (vec![], vec![], vec![]);
    let mut frames_in = 0;
    for cycle in 0..60 {
        uut.reset.next = cycle == 0;
        let on = cycle > 1;
        uut.s_axis_tvalid.next = on && bi < beats.len();
        let b = &beats[bi.min(beats.len() - 1)];
        uut.s_axis_tdata.next = to_bits(&b.data);
        uut.s_axis_tkeep.next = b.keep.into();
        uut.s_axis_tlast.next = b.last;
        // Command 0 before its frame; the others once their frame is in.
        uut.s_axis_cmd_tvalid.next = on && ci < 3 && (ci == 0 || frames_in > ci);
        uut.s_axis_cmd_tdata.next = to_bits128(&cmds[ci.min(2)].to_bytes());
        uut.m_axis_dma_wr_tready.next = cycle % 3 != 0;
        uut.m_axis_dma_wr_cmd_tready.next = true;
        uut.clock.next = Clock { clk: false };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        let took = uut.s_axis_tvalid.val() && uut.s_axis_tready.val();
        let took_c = uut.s_axis_cmd_tvalid.val() && uut.s_axis_cmd_tready.val();
        if uut.m_axis_dma_wr_cmd_tvalid.val() {
            let v = uut.m_axis_dma_wr_cmd_tdata.val();
            got_cmds.push((0..16).map(|i| v.get_bits::<8>(8 * i).to_u64() as u8).collect::<Vec<u8>>());
        }
        if uut.m_axis_dma_wr_tvalid.val() && uut.m_axis_dma_wr_tready.val() {
            let v = uut.m_axis_dma_wr_tdata.val();
            let k = uut.m_axis_dma_wr_tkeep.val().to_u64();
            for i in 0..64 {
                if k >> i & 1 == 1 {
                    payload.push(v.get_bits::<8>(8 * i).to_u64() as u8);
                }
            }
            if uut.m_axis_dma_wr_tlast.val() {
                got.push(std::mem::take(&mut payload));
            }
        }
        uut.clock.next = Clock { clk: true };
        while {
            uut.update_all();
            uut.has_changed()
        } {}
        if took {
            frames_in += beats[bi].last as usize;
            bi += 1;
        }
        ci += took_c as usize;
    }
    assert_eq!((bi, ci), (beats.len(), 3));
    assert_eq!(got, want.iter().map(|w| w.payload.clone()).collect::<Vec<_>>());
    assert_eq!(got_cmds, want.iter().map(|w| w.cmd_bytes().to_vec()).collect::<Vec<_>>());
    assert_eq!(uut.stat_written.val().to_u64(), 2);
    assert_eq!(uut.stat_discarded.val().to_u64(), 1);
    assert_eq!(uut.stat_short.val().to_u64(), 0);
}

/// Discards at one per clock; the command-to-output latency of an idle block.
#[test]
fn discard_rate_and_latency() {
    let (discard, to_cmd, to_beat) = testbench::harness::rx_dma::latency(40);
    println!("40 discards in {discard} cycles; write command taken -> DMA command offered {to_cmd}, first payload beat {to_beat}");
    // Command k is decided on the cycle after it is taken (1 per clock).
    assert_eq!(discard, 40);
    assert_eq!((to_cmd, to_beat), (2, 5));
    let from_frame = testbench::harness::rx_dma::frame_to_output();
    println!("command first: last beat taken -> first payload beat offered {from_frame}");
    assert_eq!(from_frame, 7);
}

/// The cycle model's sizes are the exported RTL's (sim cannot read hdl's constants).
#[test]
fn cycle_model_sizes_are_the_rtls() {
    assert_eq!(sim::rx_dma::cycle::BANK_BITS as usize, hdl::export::RX_DMA_BANK_BITS);
    assert_eq!(sim::rx_dma::cycle::QUEUE, 1 << hdl::rx_dma::QUEUE_BITS);
    assert_eq!(sim::rx_dma::MAX_BEATS as u64, hdl::rx_dma::MAX_BEATS);
}
