//! Tx pipe -> Rx pipe: the frames the Tx RTL builds from random descriptors, fed to the Rx RTL,
//! are all accepted, with the descriptor's fields in the verdicts. The two blocks were written
//! separately from `sim::packet`; this checks they agree through the wire and not only each
//! with its own model. A bit flipped in flight is dropped. Seeds are printed; `LOOP_SEED=n`
//! replays one.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::rx_pipe::{beats, judge};
use testbench::harness::{rx_pipe, tx_pipe};

fn seed() -> u64 {
    let s = std::env::var("LOOP_SEED").map_or_else(|_| rand::random::<u32>() as u64, |v| v.parse().unwrap());
    println!("seed {s} (LOOP_SEED={s} replays it)");
    s
}

#[test]
fn rx_accepts_every_frame_tx_builds() {
    let seed = seed();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let items: Vec<_> = (0..4000)
        .map(|_| {
            let d = tx_pipe::random_desc(&mut rng);
            let payload: Vec<u8> = (0..d.effective_payload_len()).map(|_| rng.gen()).collect();
            (d, payload)
        })
        .collect();
    let tx = tx_pipe::send(seed, &items, &tx_pipe::Shape::RANDOM, true);
    assert_eq!(tx.outcome.mismatches, 0, "tx: {:?}, seed {seed}", tx.outcome.first_mismatch);
    assert_eq!(tx.frames.len(), items.len(), "seed {seed}");

    // Every tenth frame gets one bit flipped outside the MAC addresses and the ICRC-masked bytes.
    let mut flipped = vec![false; items.len()];
    let frames: Vec<Vec<u8>> = tx
        .frames
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut f = f.clone();
            if i % 10 == 9 {
                let at = rng.gen_range(12..f.len());
                if ![15, 22, 46].contains(&at) && !(24..26).contains(&at) && !(40..42).contains(&at)
                {
                    f[at] ^= 1 << rng.gen_range(0..8);
                    flipped[i] = items[i].0.telemetry.as_ref().is_none_or(|t| t.echo) || at < 54;
                }
            }
            f
        })
        .collect();
    let mut rx = rx_pipe::open(None);
    let s = rx_pipe::stream(&mut rx, frames.iter().map(|f| beats(f)), 0.1, 0.2, &mut rng, 50_000_000);
    assert_eq!(s.verdicts.len(), items.len(), "seed {seed}");
    let (mut accepted, mut dropped) = (0, 0);
    for (i, (((d, payload), f), v)) in items.iter().zip(&frames).zip(&s.verdicts).enumerate() {
        let ctx = format!("frame {i} ({:?}, {} bytes), seed {seed}", d.opcode, f.len());
        assert_eq!(*v, judge(&beats(f)), "RTL verdict != model, {ctx}");
        if flipped[i] {
            assert_ne!(v.code, 0, "flipped bit accepted, {ctx}");
            dropped += 1;
            continue;
        }
        if v.code != 0 {
            // A flip that only hit collecting telemetry (ICRC-masked by design) may pass or not.
            assert!(i % 10 == 9, "dropped with code {}, {ctx}", v.code);
            continue;
        }
        accepted += 1;
        assert_eq!(v.opcode, d.opcode as u8, "{ctx}");
        assert_eq!((v.dest_qp, v.psn, v.ack_req), (d.bth.dest_qp, d.bth.psn, d.bth.ack_req), "{ctx}");
        assert_eq!((v.ecn, v.udp_src_port), (d.ip.ecn as u8, d.udp_src_port), "{ctx}");
        assert_eq!(v.payload_len as usize, payload.len(), "{ctx}");
        assert_eq!(v.telemetry, d.telemetry.is_some(), "{ctx}");
        if let Some(t) = d.telemetry.as_ref().filter(|t| t.echo) {
            assert_eq!(v.nhop as usize, t.hops.len(), "{ctx}");
            for (h, w) in t.hops.iter().zip(v.hops) {
                assert_eq!(h.word(), w, "{ctx}");
            }
        }
        if d.opcode.has_reth() {
            assert_eq!((v.reth_va, v.reth_rkey, v.reth_len), (d.reth.va, d.reth.rkey, d.reth.dma_len), "{ctx}");
        }
        if d.opcode.has_aeth() {
            assert_eq!((v.aeth_syndrome, v.aeth_msn), (d.aeth.syndrome.bits(), d.aeth.msn), "{ctx}");
        }
    }
    println!("{accepted} accepted with the descriptor's fields, {dropped} flipped frames dropped");
    assert!(accepted > 3000 && dropped > 100, "seed {seed}");
}
