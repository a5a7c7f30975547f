//! The benchmark stimulus every simulator is driven with, and the checksum each reports.

use sim::flow_sched::{Ctrl, Inputs, Notify, Outputs};

/// log2 packet bytes and packets per visit used by the stimulus.
const PKT_SHIFT: u8 = 10;
const MAX_BURST: u16 = 64;
/// Flows 0..FLOWS are created, one after the other, once the RAMs are clear.
const FLOWS: u16 = 64;
/// xorshift32 seed; the Verilog testbench has the same.
const SEED: u32 = 0x2545_f491;

/// What every simulator reports: PktSend handshakes over the first `cycles` cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Cycles driven, the reset cycle included.
    pub cycles: u64,
    /// PktSend handshakes (tvalid and tready).
    pub pktsends: u64,
    /// Sum over handshakes of `cycle * 31 + flow`, modulo 2^32 (cycles counted from 0).
    pub sum: u32,
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pktsends={} sum={:08x}", self.pktsends, self.sum)
    }
}

/// The benchmark stimulus. testbench/bench/flow_sched_bench_tb.v does exactly the same, step
/// for step (its header describes it); keep the two in sync.
pub struct Stimulus {
    x: u32,
    next_flow: u16,
    ctrl: Option<Ctrl>,
    notify: Option<Notify>,
    /// Checksum of what `observe` saw so far.
    pub check: Check,
}

impl Default for Stimulus {
    fn default() -> Self {
        Stimulus { x: SEED, next_flow: 0, ctrl: None, notify: None, check: Check::default() }
    }
}

impl Stimulus {
    /// Inputs of the next cycle: steps the PRNG once.
    pub fn inputs(&mut self) -> Inputs {
        let mut x = self.x;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.x = x;
        let reset = self.check.cycles == 0;
        if !reset && self.ctrl.is_none() && self.next_flow < FLOWS {
            let window = (((x >> 21) & 0x3f) + 1) << 12;
            self.ctrl = Some(Ctrl { create: true, flow: self.next_flow, window, rate: x & 0x1f_ffff, pkt_shift: 0, reserved: 0 });
            self.next_flow += 1;
        }
        if !reset && self.notify.is_none() && (x >> 28) & 3 == 0 {
            self.notify = Some(Notify { flow: ((x >> 22) & 0x3f) as u16, bytes: (((x >> 20) & 3) + 1) << 10 });
        }
        Inputs {
            reset,
            pkt_shift: PKT_SHIFT,
            max_burst: MAX_BURST,
            ctrl: self.ctrl,
            update: None,
            notify: self.notify,
            sleep: None,
            pktsend_ready: x >> 30 != 0,
        }
    }

    /// What the scheduler showed during the cycle driven with `i` (the last `inputs()`).
    pub fn observe(&mut self, i: &Inputs, o: &Outputs) {
        if i.ctrl.is_some() && o.ctrl_ready {
            self.ctrl = None;
        }
        if i.notify.is_some() && o.notify_ready {
            self.notify = None;
        }
        if o.pktsend_valid && i.pktsend_ready {
            self.check.pktsends += 1;
            let term = (self.check.cycles as u32).wrapping_mul(31).wrapping_add(o.pktsend_flow as u32);
            self.check.sum = self.check.sum.wrapping_add(term);
        }
        self.check.cycles += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd_bench::TB;
    use std::path::PathBuf;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn tb_text() -> String {
        std::fs::read_to_string(root().join(TB)).unwrap()
    }

    /// The first cycles, computed by hand (xorshift32 from 0x2545f491: e124b63a, 8b9a74ab,
    /// 64e1b3ac, 00174626, f2adbbaf), with a scheduler that is clearing its RAMs (treadys low).
    #[test]
    fn stimulus_first_cycles() {
        let mut st = Stimulus::default();
        let busy = Outputs::default();
        let i = st.inputs(); // x = e124b63a
        assert!(i.reset && i.ctrl.is_none() && i.notify.is_none() && i.update.is_none() && i.pktsend_ready);
        assert_eq!((i.pkt_shift, i.max_burst), (10, 64));
        st.observe(&i, &busy);
        let f0 = Ctrl { create: true, flow: 0, window: 29 << 12, rate: 0x1a_74ab, pkt_shift: 0, reserved: 0 };
        let n0 = Notify { flow: 46, bytes: 2048 };
        let i = st.inputs(); // x = 8b9a74ab: flow 0 created, notify offered
        assert!(!i.reset && i.pktsend_ready);
        assert_eq!((i.ctrl, i.notify), (Some(f0), Some(n0)));
        st.observe(&i, &busy);
        let i = st.inputs(); // x = 64e1b3ac: both held
        assert_eq!((i.ctrl, i.notify, i.pktsend_ready), (Some(f0), Some(n0), true));
        // Taken now, with a PktSend of flow 7 (cycle 2: 2 * 31 + 7 = 69).
        st.observe(&i, &Outputs { ctrl_ready: true, notify_ready: true, pktsend_valid: true, pktsend_flow: 7, ..busy });
        assert_eq!(st.check, Check { cycles: 3, pktsends: 1, sum: 69 });
        let i = st.inputs(); // x = 00174626: flow 1, notify of flow 0, tready low
        let f1 = Ctrl { create: true, flow: 1, window: 1 << 12, rate: 0x17_4626, pkt_shift: 0, reserved: 0 };
        assert_eq!((i.ctrl, i.notify, i.pktsend_ready), (Some(f1), Some(Notify { flow: 0, bytes: 2048 }), false));
        st.observe(&i, &Outputs { pktsend_valid: true, pktsend_flow: 3, ..busy });
        assert_eq!(st.check, Check { cycles: 4, pktsends: 1, sum: 69 }, "no handshake while tready is low");
        let i = st.inputs(); // x = f2adbbaf: flow 1 still offered, no new notify
        assert_eq!((i.ctrl, i.notify, i.pktsend_ready), (Some(f1), Some(Notify { flow: 0, bytes: 2048 }), true));
        assert_eq!(i.ctrl.unwrap().tdata(), 1 << 80 | 1 << 64 | 4096 << 32 | 0x17_4626);
    }

    /// The constants the Verilog testbench must share with `Stimulus`.
    #[test]
    fn testbench_uses_the_same_constants() {
        let tb = tb_text();
        for s in [
            "SEED = 32'h2545_f491",
            "FLOWS = 16'd64",
            ".cfg_pkt_shift(4'd10)",
            ".cfg_max_burst(12'd64)",
            "x = x ^ (x << 13);",
            "x = x ^ (x >> 17);",
            "x = x ^ (x << 5);",
            "c_rate = x & 32'h001f_ffff;",
            "c_window = (((x >> 21) & 32'h3f) + 32'd1) << 12;",
            "((x >> 28) & 32'h3) == 32'd0",
            "n_flow = (x >> 22) & 32'h3f;",
            "n_bytes = (((x >> 20) & 32'h3) + 32'd1) << 10;",
            "rdy = (x >> 30) != 32'd0;",
            "sum = sum + cyc * 32'd31 + {16'd0, m_axis_pktsend_tdata};",
            "$dumpvars",
        ] {
            if s == "$dumpvars" {
                assert!(!tb.contains(s), "the benchmark testbench must not dump waves");
            } else {
                assert!(tb.contains(s), "{TB} lost `{s}`: keep it in sync with Stimulus");
            }
        }
        assert_eq!((SEED, FLOWS, PKT_SHIFT, MAX_BURST), (0x2545_f491, 64, 10, 64));
    }
}
