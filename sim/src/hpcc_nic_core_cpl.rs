//! hpcc_nic_core_cpl cycle by cycle (hdl/src/top/hpcc_nic_core_cpl.rs): the completion queue.
//! A WRITE's completion and an error completion go in at once; a READ's waits (one, plus one
//! behind it) until rx_dma has decoded as many commands as rx_ctx had made when it completed,
//! then until as many payloads as jobs were queued by then have left. A head and a skid
//! register; `blocked` while the head is full or a READ waits.

use crate::layout::CPL;

/// A completion word (`layout::CPL`): the flow, the message's tag, its status (`csr::CPL_*`)
/// and, with `CPL_REFUSED`, the error (`csr::ERR_*`; else 0).
pub fn word(flow: u16, tag: u16, status: u32, error: u32) -> u64 {
    let w = CPL.flow.with(CPL.tag.with(0, tag as u64), flow as u64);
    CPL.error.with(CPL.status.with(w, status as u64), error as u64) as u64
}

/// Everything driven into the block during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    /// The tracker completes a message: (READ, completion word, rx_ctx's DMA commands then).
    pub done: Option<(bool, u64, u32)>,
    /// The sequencer's error completion.
    pub fail: Option<u64>,
    /// rx_dma's counters: written, discarded, short, payloads out, jobs queued.
    pub rx: [u32; 5],
    pub ready: bool,
}

/// What the block shows during a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub cpl: Option<u64>,
    pub blocked: bool,
}

/// The waiting READ: (stage: its command decoded, word, count).
#[derive(Clone, Copy, Debug)]
struct Wait {
    decoded: bool,
    data: u64,
    count: u32,
}

/// hpcc_nic_core_cpl, cycle by cycle.
#[derive(Default)]
pub struct HpccNicCoreCpl {
    head: Option<u64>,
    skid: Option<u64>,
    rw: Option<Wait>,
    rw2: Option<(u64, u32)>,
}

impl HpccNicCoreCpl {
    pub fn new() -> HpccNicCoreCpl {
        HpccNicCoreCpl::default()
    }

    pub fn idle(&self) -> bool {
        self.head.is_none() && self.skid.is_none() && self.rw.is_none()
    }

    pub fn outputs(&self) -> Outputs {
        Outputs { cpl: self.head, blocked: self.head.is_some() || self.rw.is_some() }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs();
        let [written, discarded, short, payloads, jobs] = i.rx;
        let decoded = written.wrapping_add(discarded).wrapping_add(short);
        // Each register's next value, assigned in the RTL's order (a later one wins).
        let (mut rw, mut rw2) = (self.rw, self.rw2);
        let mut rw_done = false;
        if let Some(w) = self.rw {
            if !w.decoded {
                if decoded.wrapping_sub(w.count) >> 31 == 0 {
                    rw = Some(Wait { decoded: true, count: jobs, ..w });
                }
            } else {
                rw_done = payloads.wrapping_sub(w.count) >> 31 == 0;
            }
        }
        if let Some((true, data, cmds)) = i.done {
            if self.rw.is_some() {
                rw2 = Some((data, cmds));
            } else {
                rw = Some(Wait { decoded: false, data, count: cmds });
            }
        }
        let push = matches!(i.done, Some((false, ..))) || rw_done || i.fail.is_some();
        let mut push_data = i.done.map_or(0, |d| d.1);
        if let Some(f) = i.fail {
            push_data = f;
        }
        if rw_done {
            push_data = self.rw.unwrap().data;
            rw = self.rw2.map(|(data, count)| Wait { decoded: false, data, count });
            rw2 = None;
        }
        let pop = self.head.is_some() && i.ready;
        if pop || self.head.is_none() {
            let head = self.skid.or(push.then_some(push_data));
            self.skid = self.skid.filter(|_| push).map(|_| push_data);
            self.head = head;
        } else if push {
            self.skid = Some(push_data);
        }
        self.rw = rw;
        self.rw2 = rw2;
        if i.reset {
            *self = HpccNicCoreCpl::new();
        }
        out
    }
}
