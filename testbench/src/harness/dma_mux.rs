//! dma_rd_mux and dma_wr_mux (hdl/src/host/) against what they must do: their model is the
//! requesters' own queues (each requester gets back exactly its requests' data, in its order;
//! the write engine gets each writer's command with that writer's payload, in each writer's
//! order), so the harness keeps those queues and checks every beat against them.
//!
//! `rd`: two requesters offer read requests at random (2% of length 0, which get no data);
//! a read engine takes them with random backpressure and answers each with one packet of
//! ceil(length / 64) beats, in request order, after a random latency, each beat's bytes naming
//! the requester, the request and the beat; the two data outputs take beats with random
//! `tready`. `wr`: two writers each offer a command and its payload (1 to 10 beats whose bytes
//! name the writer, the write and the beat) on their own streams with independent random gaps,
//! so a command comes before, with or after its payload; the write engine takes commands and
//! beats with random readies. Checked: every beat and command is where it belongs, in order,
//! nothing lost or duplicated, and the idle detector: no stall of 5,000 cycles.

use super::{Outcome, Scenario};
use crate::verilated::models::{DmaRdMux, DmaWrMux};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sim::layout::{le_bytes, DMA_RD, DMA_WR};
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// A beat's bytes: who, which request or write, which beat.
fn beat(who: u8, n: u64, k: u64) -> [u32; 16] {
    let mut w = [0u32; 16];
    w[0] = who as u32;
    w[1] = n as u32;
    w[2] = k as u32;
    w[15] = 0xA5A5_0000 | who as u32;
    w
}

/// `rd`: see the module doc.
pub fn rd(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(DmaRdMux::new, DmaRdMux::with_vcd);
    // Per requester: the request on its port, its count, and the packets it is owed (beats).
    let mut req: [Option<(u64, u32)>; 2] = [None, None];
    let mut n_req = [0u64; 2];
    let mut owed: [VecDeque<(u64, u64)>; 2] = Default::default();
    let mut at = [0u64; 2];
    // The read engine: packets due (ready cycle, requester, request, beats), the one being sent.
    let mut engine: VecDeque<(u64, u8, u64, u64)> = VecDeque::new();
    let mut sent_k = 0u64;
    let (mut idle, mut cycle, mut tail, mut beats, mut empties) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut most_out = 0usize;
    d.set_reset(1);
    d.tick();
    d.set_reset(0);
    loop {
        let running = cycle < cycles;
        let busy = req.iter().any(Option::is_some) || !engine.is_empty() || owed.iter().any(|q| !q.is_empty());
        if !running && !busy {
            tail += 1;
            if tail > 32 {
                break;
            }
        }
        if idle > 5_000 {
            o.fail(format!("cycle {cycle}: no progress for 5000 cycles ({} packets at the engine)", engine.len()));
            break;
        }
        for (r, slot) in req.iter_mut().enumerate() {
            if running && slot.is_none() && rng.gen_bool(0.3) {
                let len = if rng.gen_bool(0.02) { 0 } else { rng.gen_range(1..=700) };
                *slot = Some((n_req[r], len));
                n_req[r] += 1;
            }
        }
        let set = |d: &mut DmaRdMux, r: usize, x: Option<(u64, u32)>| {
            let mut w = [0u32; 4];
            if let Some((n, len)) = x {
                DMA_RD.addr.set(&mut w, n << 8 | r as u64);
                DMA_RD.len.set(&mut w, len as u64);
            }
            if r == 0 {
                d.set_s_axis_req0_tvalid(x.is_some() as u8);
                d.s_axis_req0_tdata_mut().copy_from_slice(&w);
            } else {
                d.set_s_axis_req1_tvalid(x.is_some() as u8);
                d.s_axis_req1_tdata_mut().copy_from_slice(&w);
            }
        };
        set(&mut d, 0, req[0]);
        set(&mut d, 1, req[1]);
        let req_ready = rng.gen_bool(0.7);
        d.set_m_axis_req_tready(req_ready as u8);
        // Every other 20,000 cycles the engine is slow, so requests pile up past the FIFO's 64.
        let slow = cycle / 20_000 % 2 == 1;
        let data_on = engine.front().is_some_and(|e| e.0 <= cycle) && rng.gen_bool(if slow { 0.03 } else { 0.8 });
        d.set_s_axis_data_tvalid(data_on as u8);
        if let Some(&(_, who, n, nb)) = engine.front() {
            d.s_axis_data_tdata_mut().copy_from_slice(&beat(who, n, sent_k));
            d.set_s_axis_data_tkeep(u64::MAX);
            d.set_s_axis_data_tlast((sent_k + 1 == nb) as u8);
        }
        let ready = [rng.gen_bool(0.7), rng.gen_bool(0.7)];
        d.set_m_axis_data0_tready(ready[0] as u8);
        d.set_m_axis_data1_tready(ready[1] as u8);
        d.eval();
        idle += 1;

        if d.m_axis_req_tvalid() == 1 && req_ready {
            idle = 0;
            let w = d.m_axis_req_tdata().to_vec();
            let (tag, len) = (DMA_RD.addr.get(&w), DMA_RD.len.get(&w));
            let (who, n) = ((tag & 0xff) as usize, tag >> 8);
            let taken = [d.s_axis_req0_tready() == 1 && req[0].is_some(), d.s_axis_req1_tready() == 1 && req[1].is_some()];
            // The request out is the one requester `who`'s, and only it was taken.
            o.check(cycle, (who < 2 && taken[who] && !taken[1 - who], req[who.min(1)].map(|x| x.0)), (true, Some(n)));
            o.transactions += 1;
            req[who.min(1)] = None;
            if len == 0 {
                empties += 1;
            } else {
                let nb = len.div_ceil(64);
                engine.push_back((cycle + rng.gen_range(1..60), who as u8, n, nb));
                owed[who.min(1)].push_back((n, nb));
                most_out = most_out.max(owed[0].len() + owed[1].len());
            }
        } else if (d.s_axis_req0_tready() == 1 && req[0].is_some()) || (d.s_axis_req1_tready() == 1 && req[1].is_some()) {
            o.fail(format!("cycle {cycle}: a request taken that did not go out"));
        }
        for r in 0..2 {
            let (valid, data, last) = if r == 0 {
                (d.m_axis_data0_tvalid(), d.m_axis_data0_tdata().to_vec(), d.m_axis_data0_tlast())
            } else {
                (d.m_axis_data1_tvalid(), d.m_axis_data1_tdata().to_vec(), d.m_axis_data1_tlast())
            };
            if valid == 1 && ready[r] {
                idle = 0;
                beats += 1;
                match owed[r].front() {
                    None => o.check(cycle, format!("requester {r}: {:08x?}", &data[..3]), "nothing owed".into()),
                    Some(&(n, nb)) => {
                        let want = beat(r as u8, n, at[r]);
                        o.check(cycle, (r, &data[..], last == 1), (r, &want[..], at[r] + 1 == nb));
                        at[r] += 1;
                        if at[r] == nb {
                            at[r] = 0;
                            owed[r].pop_front();
                        }
                    }
                }
            }
        }
        if data_on && d.s_axis_data_tready() == 1 {
            sent_k += 1;
            if sent_k == engine.front().unwrap().3 {
                engine.pop_front();
                sent_k = 0;
            }
        }
        if !busy {
            idle = 0;
        }
        d.tick();
        cycle += 1;
        if o.mismatches > 0 || !o.failures.is_empty() {
            break;
        }
    }
    o.cycles = cycle;
    o.metric("requests", (n_req[0] + n_req[1]) as f64);
    o.metric("empty", empties as f64);
    o.metric("beats", beats as f64);
    // Requests whose data had not all come back, at most: 64 is the FIFO's depth.
    o.metric("most_out", most_out as f64);
    if cycles >= 40_000 && most_out != 64 {
        o.fail(format!("at most {most_out} requests out: the slow phases never filled the FIFO (64)"));
    }
    o.seconds = start.elapsed().as_secs_f64();
    o
}

/// `wr`: see the module doc.
pub fn wr(scenario: Scenario, seed: u64, cycles: u64, vcd: Option<&Path>) -> Outcome {
    let start = Instant::now();
    let mut o = Outcome::new(scenario, seed);
    o.budget = cycles;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut d = vcd.map_or_else(DmaWrMux::new, DmaWrMux::with_vcd);
    // Per writer: commands and beats waiting to be offered, and its writes' count.
    let mut cmds: [VecDeque<(u64, u64)>; 2] = Default::default();
    let mut data: [VecDeque<(u64, u64, bool)>; 2] = Default::default();
    let mut n_wr = [0u64; 2];
    // What the engine has received: commands not yet matched by a whole payload, and the
    // payload being received (writer, write, beats so far).
    let mut got_cmds: VecDeque<(u8, u64, u64)> = VecDeque::new();
    let mut got_pl: VecDeque<(u8, u64, u64)> = VecDeque::new();
    let mut cur: Option<(u8, u64, u64)> = None;
    let mut next = [0u64; 2];
    let (mut idle, mut cycle, mut tail, mut writes) = (0u64, 0u64, 0u64, 0u64);
    d.set_reset(1);
    d.tick();
    d.set_reset(0);
    loop {
        let running = cycle < cycles;
        let busy = cmds.iter().any(|q| !q.is_empty())
            || data.iter().any(|q| !q.is_empty())
            || !got_cmds.is_empty()
            || !got_pl.is_empty()
            || cur.is_some();
        if !running && !busy {
            tail += 1;
            if tail > 32 {
                break;
            }
        }
        if idle > 5_000 {
            o.fail(format!("cycle {cycle}: no progress for 5000 cycles"));
            break;
        }
        for w in 0..2 {
            if running && cmds[w].len() < 4 && rng.gen_bool(0.2) {
                let nb = rng.gen_range(1..=10u64);
                cmds[w].push_back((n_wr[w], nb));
                for k in 0..nb {
                    data[w].push_back((n_wr[w], k, k + 1 == nb));
                }
                n_wr[w] += 1;
            }
        }
        let mut on = [[false; 2]; 2];
        for w in 0..2 {
            on[w][0] = !cmds[w].is_empty() && rng.gen_bool(0.6);
            on[w][1] = !data[w].is_empty() && rng.gen_bool(0.6);
            let mut c = [0u32; 4];
            if let Some(&(n, nb)) = cmds[w].front() {
                DMA_WR.addr.set(&mut c, n << 8 | w as u64);
                DMA_WR.len.set(&mut c, nb * 64);
            }
            let (b, last) = data[w].front().map_or(([0u32; 16], false), |&(n, k, l)| (beat(w as u8, n, k), l));
            if w == 0 {
                d.set_s_axis_cmd0_tvalid(on[0][0] as u8);
                d.s_axis_cmd0_tdata_mut().copy_from_slice(&c);
                d.set_s_axis_data0_tvalid(on[0][1] as u8);
                d.s_axis_data0_tdata_mut().copy_from_slice(&b);
                d.set_s_axis_data0_tkeep(u64::MAX);
                d.set_s_axis_data0_tlast(last as u8);
            } else {
                d.set_s_axis_cmd1_tvalid(on[1][0] as u8);
                d.s_axis_cmd1_tdata_mut().copy_from_slice(&c);
                d.set_s_axis_data1_tvalid(on[1][1] as u8);
                d.s_axis_data1_tdata_mut().copy_from_slice(&b);
                d.set_s_axis_data1_tkeep(u64::MAX);
                d.set_s_axis_data1_tlast(last as u8);
            }
        }
        let (cr, dr) = (rng.gen_bool(0.6), rng.gen_bool(0.6));
        d.set_m_axis_cmd_tready(cr as u8);
        d.set_m_axis_data_tready(dr as u8);
        d.eval();
        idle += 1;
        let taken = [
            [d.s_axis_cmd0_tready() == 1 && on[0][0], d.s_axis_data0_tready() == 1 && on[0][1]],
            [d.s_axis_cmd1_tready() == 1 && on[1][0], d.s_axis_data1_tready() == 1 && on[1][1]],
        ];
        if d.m_axis_cmd_tvalid() == 1 && cr {
            idle = 0;
            let c = d.m_axis_cmd_tdata().to_vec();
            let (tag, nb) = (DMA_WR.addr.get(&c), DMA_WR.len.get(&c) / 64);
            got_cmds.push_back(((tag & 0xff) as u8, tag >> 8, nb));
        }
        if d.m_axis_data_tvalid() == 1 && dr {
            idle = 0;
            let b = le_bytes::<64>(d.m_axis_data_tdata());
            let (who, n, k) = (b[0], u32::from_le_bytes(b[4..8].try_into().unwrap()) as u64, u32::from_le_bytes(b[8..12].try_into().unwrap()) as u64);
            let last = d.m_axis_data_tlast() == 1;
            // A payload's beats in order, from one writer; at its last, it must be that writer's
            // next write. The engine pairs commands and payloads by order: the i-th of each.
            match cur {
                None => cur = Some((who, n, 0)),
                Some(c) if c.0 != who || c.1 != n => o.check(cycle, (who, n), (c.0, c.1)),
                _ => {}
            }
            if let Some(c) = cur.as_mut() {
                o.check(cycle, k, c.2);
                c.2 += 1;
            }
            if last {
                let (w, n, nb) = cur.take().unwrap();
                o.transactions += 1;
                writes += 1;
                o.check(cycle, (w, n, nb), (w, next[(w as usize).min(1)], nb));
                next[(w as usize).min(1)] += 1;
                got_pl.push_back((w, n, nb));
            }
        }
        while !got_cmds.is_empty() && !got_pl.is_empty() {
            let (c, p) = (got_cmds.pop_front().unwrap(), got_pl.pop_front().unwrap());
            o.check(cycle, c, p);
        }
        for w in 0..2 {
            if taken[w][0] {
                cmds[w].pop_front();
            }
            if taken[w][1] {
                data[w].pop_front();
            }
        }
        if !busy {
            idle = 0;
        }
        d.tick();
        cycle += 1;
        if o.mismatches > 0 || !o.failures.is_empty() {
            break;
        }
    }
    o.cycles = cycle;
    o.metric("writes", writes as f64);
    o.metric("writer0", next[0] as f64);
    o.metric("writer1", next[1] as f64);
    o.seconds = start.elapsed().as_secs_f64();
    o
}
