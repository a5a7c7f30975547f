//! hpcc_nic_core_notify cycle by cycle (hdl/src/top/hpcc_nic_core_notify.rs): one register
//! between rx_ctx's Notifies (packets) and flow_sched's (bytes), the count shifted by the
//! flow's log2 MTU from a per-flow RAM that reads the flow as the register takes it and keeps
//! reading it while the register holds (no forwarding: the flow table is written long before
//! its flow's first Notify).

use crate::ram::Ram;

/// Everything driven into the block during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    /// `s_axis_notify` valid with (flow, packets).
    pub notify: Option<(u16, u32)>,
    pub ready: bool,
    /// The flow table's write: (flow, log2 MTU).
    pub mtu: Option<(usize, u8)>,
    /// The sweep after reset clears this flow.
    pub sweep: Option<usize>,
}

/// What the block shows during a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    pub s_ready: bool,
    /// `m_axis_notify` valid with (flow, bytes).
    pub notify: Option<(u16, u32)>,
}

/// hpcc_nic_core_notify, cycle by cycle.
pub struct HpccNicCoreNotify {
    shifts: Ram<u8>,
    nt: Option<(u16, u32)>,
    /// The register's flow and count stay after it empties (the RAM keeps reading the flow).
    flow: u16,
}

impl HpccNicCoreNotify {
    /// For 2^`flow_bits` flows, before its reset.
    pub fn new(flow_bits: usize) -> HpccNicCoreNotify {
        HpccNicCoreNotify { shifts: Ram::new(flow_bits), nt: None, flow: 0 }
    }

    pub fn idle(&self) -> bool {
        self.nt.is_none()
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        Outputs {
            s_ready: self.nt.is_none() || i.ready,
            notify: self.nt.map(|(f, p)| (f, p << (self.shifts.data() & 15))),
        }
    }

    /// One clock cycle; returns the outputs shown during it.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let out = self.outputs(i);
        let take = i.notify.filter(|_| out.s_ready);
        let read = take.map_or(self.flow, |t| t.0) as usize;
        let write = match i.sweep {
            Some(a) => Some((a, 0)),
            None => i.mtu,
        };
        self.shifts.clock(read, write);
        if let Some(t) = take {
            self.nt = Some(t);
            self.flow = t.0;
        } else if i.ready {
            self.nt = None;
        }
        if i.reset {
            self.nt = None;
        }
        out
    }
}
