//! dma_rd_mux and dma_wr_mux in Verilator: a random seed of `dma-rd-mux-random` and of
//! `dma-wr-mux-random` (printed).

use testbench::harness::Scenario;

/// Each requester gets back exactly its own requests' data, in order, with the FIFO filled.
#[test]
fn read_data_goes_back_to_whoever_asked() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::DmaRdMuxRandom.run(seed, 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    assert!(o.get("requests").unwrap() > 3000.0 && o.get("empty").unwrap() > 10.0, "{o:?}");
}

/// Each write reaches the engine whole, its command paired with its own payload.
#[test]
fn writes_stay_whole_and_paired() {
    let seed = rand::random::<u32>() as u64;
    let o = Scenario::DmaWrMuxRandom.run(seed, 60_000, None);
    println!("{o:?}");
    assert!(o.passed(), "{:?} {:?}; re-run: {}", o.first_mismatch, o.failures, o.rerun_command());
    assert!(o.get("writer0").unwrap() > 1000.0 && o.get("writer1").unwrap() > 1000.0, "{o:?}");
}
