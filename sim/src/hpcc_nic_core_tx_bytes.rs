//! hpcc_nic_core_tx_bytes cycle by cycle (hdl/src/top/hpcc_nic_core_tx_bytes.rs): DCQCN's
//! tx-byte events. T1 takes a DMA read request and reads the flow's DCQCN bit and sum; TW adds
//! the length (the sum written last cycle forwarded if it was this flow's) and either writes
//! it back or, at the threshold with the event register free, offers it as a tx event and
//! writes 0.

use crate::ram::Ram;

/// A flow's algorithm written by the sequencer: (flow, DCQCN create) — any other create or a
/// remove clears the bit.
pub type AlgWrite = (usize, bool);

/// Everything driven into the block during one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    /// A DMA read request taken: (flow, length).
    pub rd: Option<(u16, u16)>,
    /// Bytes per event (`TX_EVENT_BYTES`; 0: none).
    pub thr: u32,
    pub alg: Option<AlgWrite>,
    pub sweep: Option<usize>,
    pub ev_take: bool,
}

/// hpcc_nic_core_tx_bytes, cycle by cycle.
pub struct HpccNicCoreTxBytes {
    dcq: Ram<bool>,
    txb: Ram<u32>,
    t1: Option<(usize, u32)>,
    tw: Option<(usize, u32)>,
    /// The event register: (flow, bytes).
    pub ev: Option<(usize, u32)>,
    /// `stat_events`.
    pub count: u32,
}

impl HpccNicCoreTxBytes {
    pub fn new(flow_bits: usize) -> HpccNicCoreTxBytes {
        HpccNicCoreTxBytes { dcq: Ram::new(flow_bits), txb: Ram::new(flow_bits), t1: None, tw: None, ev: None, count: 0 }
    }

    pub fn idle(&self) -> bool {
        self.t1.is_none() && self.ev.is_none()
    }

    /// One clock cycle (the outputs are `ev` and `count`, registers, read before it).
    pub fn step(&mut self, i: &Inputs) {
        let m = self.txb.mask();
        let (mut sum, mut emit, mut txb_w) = (0, false, None);
        if let Some((f, len)) = self.t1 {
            let base = match self.tw {
                Some((wf, ws)) if wf == f => ws,
                _ => self.txb.data(),
            };
            sum = base.wrapping_add(len);
            let dcq = self.dcq.data();
            emit = dcq && i.thr != 0 && sum >= i.thr && self.ev.is_none();
            txb_w = Some((f, if dcq && !emit { sum } else { 0 }));
        }
        let mut dcq_w = i.alg.map(|(f, dcqcn)| (f, dcqcn));
        if let Some(a) = i.sweep {
            dcq_w = Some((a, false));
            txb_w = Some((a, 0));
        }
        let tw = self.t1.map(|(f, _)| (f, txb_w.map_or(0, |w| w.1)));
        if self.ev.is_some() && i.ev_take {
            self.ev = None;
        }
        if emit {
            self.ev = Some((self.t1.unwrap().0, sum));
            self.count = self.count.wrapping_add(1);
        }
        let read = i.rd.map_or(0, |r| r.0 as usize);
        self.dcq.clock(read, dcq_w);
        self.txb.clock(read, txb_w);
        self.tw = tw;
        self.t1 = i.rd.map(|(f, l)| (f as usize & m, l as u32 & 0x3FFF));
        if i.reset {
            self.t1 = None;
            self.tw = None;
            self.ev = None;
            self.count = 0;
        }
    }
}
