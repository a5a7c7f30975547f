//! hpcc_nic_core_regs cycle by cycle (hdl/src/top/hpcc_nic_core_regs.rs): the core's registers
//! (`csr`), their write decode (whole words to the read-write registers, else SLVERR), the read
//! mux and the time base (now_ns += `NS_PER_CYCLE_Q16` each cycle, UQ16.16, the fraction
//! carried). The counters other blocks keep are read through a function of their address.

use crate::csr;
use crate::layout::{le_bytes, RTO_CFG, SCHED_CFG};

/// The registers the host writes and the time base.
#[derive(Clone, Debug)]
pub struct HpccNicCoreRegs {
    pub ns_q16: u32,
    pub sched_cfg: u32,
    pub stat_sel: u32,
    pub timer_gap: u32,
    pub rto_cfg: u32,
    pub cnp_interval: u32,
    pub tx_event_bytes: u32,
    pub event_merge: u32,
    /// `ARG_TX` .. `ARG_TAG`.
    pub args: [u32; csr::ARGS],
    /// The CC configuration words from `CC_CFG`.
    pub cc: [u32; csr::CC_WORDS],
    now_frac: u16,
    /// `now_ns`.
    pub now: u64,
}

/// The registers that show another block's counter or state (read through `Shown`).
pub const SHOWN: [u32; 28] = [
    csr::STATUS, csr::CMD, csr::CMD_ERRORS, csr::COMPLETIONS, csr::FEEDBACK_IN, csr::STAT_RX_PIPE, csr::STAT_RX_CTX,
    csr::STAT_TX_DROP, csr::STAT_TX_RECV_DROP, csr::STAT_TX_NAK_IGNORED, csr::STAT_TX_CTRL_BAD, csr::STAT_TX_LEN_ERR,
    csr::STAT_RX_WRITTEN, csr::STAT_RX_DISCARDED, csr::STAT_RX_SHORT, csr::STAT_CC_BAD_FLOW, csr::STAT_CC_UNUSED,
    csr::TIMER_EVENTS, csr::RTO_TIMEOUTS, csr::RTO_FAILED, csr::STAT_CNPS, csr::TX_EVENTS, csr::FB_ACKS,
    csr::FB_APPLIED, csr::FB_IGNORED, csr::MERGED, csr::EVENT_STALLS, csr::PROBES,
];

const ARGS_END: u32 = csr::ARG_TX + csr::ARGS as u32;
const CC_END: u32 = csr::CC_CFG + csr::CC_WORDS as u32;

impl Default for HpccNicCoreRegs {
    fn default() -> Self {
        HpccNicCoreRegs {
            ns_q16: csr::NS_PER_CYCLE_RESET,
            sched_cfg: csr::SCHED_CFG_RESET,
            stat_sel: 0,
            timer_gap: csr::TIMER_GAP_RESET,
            rto_cfg: csr::RTO_CFG_RESET,
            cnp_interval: csr::CNP_INTERVAL_RESET,
            tx_event_bytes: csr::TX_EVENT_BYTES_RESET,
            event_merge: csr::EVENT_MERGE_RESET,
            args: [0; csr::ARGS],
            cc: [0; csr::CC_WORDS],
            now_frac: 0,
            now: 0,
        }
    }
}

impl HpccNicCoreRegs {
    /// The registers after reset.
    /// `SCHED_CFG`'s fields as flow_sched takes them: (pkt_shift, max_burst).
    pub fn sched(&self) -> (u8, u16) {
        let w = [self.sched_cfg];
        (SCHED_CFG.pkt_shift.get(&w) as u8, SCHED_CFG.max_burst.get(&w) as u16)
    }

    /// `RTO_CFG`'s fields as the timer scan takes them: (rounds, retries).
    pub fn rto(&self) -> (u8, u8) {
        let w = [self.rto_cfg];
        (RTO_CFG.rounds.get(&w) as u8, RTO_CFG.retries.get(&w) as u8)
    }

    pub fn new() -> HpccNicCoreRegs {
        HpccNicCoreRegs::default()
    }

    /// A write of `strb` bytes at word `addr` is refused (SLVERR).
    pub fn wr_err(addr: u32, strb: u8) -> bool {
        let rw = [
            csr::CMD, csr::NS_PER_CYCLE_Q16, csr::SCHED_CFG, csr::STAT_SEL, csr::TIMER_GAP, csr::RTO_CFG,
            csr::CNP_INTERVAL_NS, csr::TX_EVENT_BYTES, csr::EVENT_MERGE,
        ];
        !(strb == 0xF && (rw.contains(&addr) || (csr::ARG_TX..ARGS_END).contains(&addr) || (csr::CC_CFG..CC_END).contains(&addr)))
    }

    /// The word read at `addr` and whether it is refused; `shown` gives the registers in `SHOWN`.
    pub fn read(&self, addr: u32, shown: impl Fn(u32) -> u32) -> (u32, bool) {
        let v = match addr {
            csr::ID => csr::ID_VALUE,
            csr::NS_PER_CYCLE_Q16 => self.ns_q16,
            csr::SCHED_CFG => self.sched_cfg,
            csr::NOW_NS_LO => self.now as u32,
            csr::NOW_NS_HI => (self.now >> 32) as u32,
            csr::STAT_SEL => self.stat_sel,
            csr::TIMER_GAP => self.timer_gap,
            csr::RTO_CFG => self.rto_cfg,
            csr::CNP_INTERVAL_NS => self.cnp_interval,
            csr::TX_EVENT_BYTES => self.tx_event_bytes,
            csr::EVENT_MERGE => self.event_merge,
            a if SHOWN.contains(&a) => shown(a),
            a if (csr::ARG_TX..ARGS_END).contains(&a) => self.args[(a - csr::ARG_TX) as usize],
            a if (csr::CC_CFG..CC_END).contains(&a) => self.cc[(a - csr::CC_CFG) as usize],
            _ => return (0, true),
        };
        (v, false)
    }

    /// `ARG_TX` as tx_ctx's 64 bytes, `ARG_RX` as rx_ctx's 16.
    pub fn tx_word(&self) -> [u8; 64] {
        le_bytes(&self.args[..16])
    }

    pub fn rx_word(&self) -> [u8; 16] {
        le_bytes(&self.args[16..20])
    }

    /// `ARG_RATE`, `ARG_WINDOW`, `ARG_ALG` [1:0], `ARG_TAG` [15:0].
    pub fn arg(&self, word: u32) -> u32 {
        self.args[(word - csr::ARG_TX) as usize]
    }

    /// One clock: the host's write (word address, data, byte enables), if any; the time base
    /// adds the increment as it was before this clock's write.
    pub fn step(&mut self, reset: bool, wr: Option<(u32, u32, u8)>) {
        let sum = self.now_frac as u32 + (self.ns_q16 & 0xFFFF);
        self.now_frac = sum as u16;
        self.now = self.now.wrapping_add((self.ns_q16 >> 16) as u64 + (sum >> 16) as u64);
        if let Some((a, v, 0xF)) = wr {
            match a {
                csr::NS_PER_CYCLE_Q16 => self.ns_q16 = v,
                csr::SCHED_CFG => self.sched_cfg = v,
                csr::STAT_SEL => self.stat_sel = v,
                csr::TIMER_GAP => self.timer_gap = v,
                csr::EVENT_MERGE => self.event_merge = v,
                csr::RTO_CFG => self.rto_cfg = v,
                csr::CNP_INTERVAL_NS => self.cnp_interval = v,
                csr::TX_EVENT_BYTES => self.tx_event_bytes = v,
                a if (csr::ARG_TX..ARGS_END).contains(&a) => self.args[(a - csr::ARG_TX) as usize] = v,
                a if (csr::CC_CFG..CC_END).contains(&a) => self.cc[(a - csr::CC_CFG) as usize] = v,
                _ => {}
            }
        }
        if reset {
            *self = HpccNicCoreRegs::new();
        }
    }
}
