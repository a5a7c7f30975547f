//! rust-hdl's simulator on `hdl::flow_sched::FlowSched<10>`, as in hdl/tests/flow_sched.rs.

use super::stimulus::{Check, Stimulus};
use hdl::flow_sched::FlowSched;
use rust_hdl::prelude::*;
use sim::flow_sched::Outputs;
use std::sync::{Arc, Mutex};
use std::time::Instant;

type Dut = FlowSched<10>;

fn wide<const N: usize>(v: u128) -> Bits<N> {
    (Bits::<N>::from((v >> 64) as u64) << 64) | Bits::<N>::from(v as u64)
}

/// Runs `cycles` cycles; returns the wall time of `Simulation::run` and the checksum.
pub fn run(cycles: u64) -> std::result::Result<(f64, Check), String> {
    let done = Arc::new(Mutex::new(None));
    let out = done.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Dut>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Dut>| {
        let mut x = sim.init()?;
        let mut st = Stimulus::default();
        for _ in 0..cycles {
            let i = st.inputs();
            x.reset.next = i.reset;
            x.cfg_pkt_shift.next = (i.pkt_shift as u64).into();
            x.cfg_max_burst.next = (i.max_burst as u64).into();
            x.s_axis_ctrl_tvalid.next = i.ctrl.is_some();
            x.s_axis_ctrl_tdata.next = wide(i.ctrl.map_or(0, |c| c.tdata()));
            x.s_axis_update_tvalid.next = false;
            x.s_axis_update_tdata.next = 0u64.into();
            x.s_axis_notify_tvalid.next = i.notify.is_some();
            x.s_axis_notify_tdata.next = i.notify.map_or(0, |n| n.tdata()).into();
            x.s_axis_sleep_tvalid.next = false;
            x.s_axis_sleep_tdata.next = 0u64.into();
            x.m_axis_pktsend_tready.next = i.pktsend_ready;
            // The scheduler's outputs depend on its registers only (update_tready also on
            // ctrl_tvalid, and nothing offers an update), so what the simulator settled after
            // the last edge is what it shows during this cycle.
            let o = Outputs {
                ctrl_ready: x.s_axis_ctrl_tready.val(),
                update_ready: x.s_axis_update_tready.val(),
                notify_ready: x.s_axis_notify_tready.val(),
                sleep_ready: x.s_axis_sleep_tready.val(),
                pktsend_valid: x.m_axis_pktsend_tvalid.val(),
                pktsend_flow: x.m_axis_pktsend_tdata.val().to_u16(),
            };
            st.observe(&i, &o);
            wait_clock_cycle!(sim, clock, x);
        }
        *out.lock().unwrap() = Some(st.check);
        sim.done(x)
    });
    let start = Instant::now();
    sim.run(Box::new(Dut::default()), 10 * (cycles + 10)).map_err(|e| format!("rust-hdl simulation: {e:?}"))?;
    let secs = start.elapsed().as_secs_f64();
    let check = done.lock().unwrap().take().ok_or("rust-hdl testbench did not finish")?;
    Ok((secs, check))
}

extern "C" {
    // glibc; `mask` is a cpu_set_t (1024 bits).
    fn sched_getaffinity(pid: i32, size: usize, mask: *mut u64) -> i32;
    fn sched_setaffinity(pid: i32, size: usize, mask: *const u64) -> i32;
}

/// `run` on a thread pinned to one CPU: rust-hdl's testbench and clock are threads that
/// hand the circuit to the simulator through rendezvous channels every half cycle, and
/// waking a thread on the other core costs more than the simulation itself. Threads inherit
/// the affinity of the thread that spawns them.
pub fn run_pinned(cycles: u64) -> std::result::Result<(f64, Check), String> {
    std::thread::spawn(move || {
        let mut mask = [0u64; 16];
        // SAFETY: pid 0 is the calling thread; `mask` is 128 bytes, a whole cpu_set_t.
        if unsafe { sched_getaffinity(0, 128, mask.as_mut_ptr()) } != 0 {
            return Err("sched_getaffinity failed".to_string());
        }
        let cpu = (0..1024).find(|&c| mask[c / 64] >> (c % 64) & 1 == 1).ok_or("no CPU in the affinity mask")?;
        let mut one = [0u64; 16];
        one[cpu / 64] = 1 << (cpu % 64);
        // SAFETY: as above.
        if unsafe { sched_setaffinity(0, 128, one.as_ptr()) } != 0 {
            return Err("sched_setaffinity failed".to_string());
        }
        run(cycles)
    })
    .join()
    .map_err(|_| "the pinned rust-hdl run panicked".to_string())?
}
