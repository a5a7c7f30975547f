//! hpcc_nic_core_seq_words (hdl/src/top/hpcc_nic_core_seq_words.rs), combinational: the
//! sequencer's command decoded (the host's, or the internal one while it runs), the fields it
//! checks, and the words it offers with op and flow filled in.

use crate::cc_module::{Event, CREATE, DCQCN};
use crate::flow_sched::Ctrl as SchedCtrl;
use crate::layout::{RX_CREATE, TX_CREATE, TX_POST};
use crate::rx_ctx::{OP_REMOVE as RX_OP_REMOVE, OP_TIMEOUT as RX_OP_TIMEOUT};
use crate::tx_ctx::OP_REMOVE as TX_OP_REMOVE;

/// The internal ops after the host's `csr::OP_*`: a retransmission timeout, and a failure past
/// the retry limit (hdl's `CMD_RTO`, `CMD_RTO_FAIL` are these).
pub const CMD_RTO: u8 = 5;
pub const CMD_RTO_FAIL: u8 = 6;

/// What the words are made from.
#[derive(Clone, Copy, Debug)]
pub struct From<'a> {
    /// The host's command: op ([2:0]), flow ([31:16]).
    pub host: (u8, u16),
    /// The internal command while one runs: (op, flow, rx_ctx's QPN).
    pub ic: Option<(u8, u16, u32)>,
    pub tx_word: &'a [u8; 64],
    pub rx_word: &'a [u8; 16],
    pub rate: u32,
    pub window: u32,
    pub alg: u8,
    pub now_ns: u64,
    /// The flow's log2 MTU from its entry.
    pub mtu_log: u8,
}

/// The command decoded and its words.
#[derive(Clone, Debug)]
pub struct Words {
    pub op: u8,
    pub flow: u16,
    pub mtu: u16,
    pub shift: u8,
    pub mtu_ok: bool,
    pub rx_mtu: u16,
    pub rx_qpn: u32,
    pub is_read: bool,
    pub end_psn: u32,
    pub cr: Event,
    pub sched: SchedCtrl,
    pub tx_ctrl: [u8; 64],
    pub rx_ctrl: [u8; 16],
}

pub fn words(f: &From) -> Words {
    let (op, flow) = f.ic.map_or(f.host, |(op, flow, _)| (op, flow));
    let mtu = TX_CREATE.mtu.get_le(f.tx_word) as u16;
    let shift = match mtu {
        256 => 8,
        512 => 9,
        1024 => 10,
        2048 => 11,
        4096 => 12,
        _ => 0,
    };
    let reth = &f.tx_word[TX_POST.reth.bytes()];
    let len = u32::from_be_bytes(reth[12..16].try_into().unwrap()) as u64;
    let npkts = ((len + (1 << f.mtu_log) - 1) >> f.mtu_log).max(1);
    let end_psn = (TX_POST.first_psn.get_le(f.tx_word) + npkts) as u32 & 0xFF_FFFF;
    let create = op as u32 == crate::csr::OP_CREATE;
    let sched = SchedCtrl { create, flow, window: f.window, rate: f.rate, pkt_shift: if create { shift } else { 0 }, reserved: 0 };
    let mut tx_ctrl = *f.tx_word;
    tx_ctrl[..4].fill(0);
    TX_CREATE.op.set_le(&mut tx_ctrl, op as u64 & 3);
    TX_CREATE.flow.set_le(&mut tx_ctrl, flow as u64);
    if create {
        TX_CREATE.cnp.set_le(&mut tx_ctrl, (f.alg == DCQCN) as u64);
    }
    let mut rx_ctrl = *f.rx_word;
    RX_CREATE.op.set_le(&mut rx_ctrl, op as u64);
    if let Some((_, _, qpn)) = f.ic {
        tx_ctrl = [0; 64];
        TX_CREATE.op.set_le(&mut tx_ctrl, TX_OP_REMOVE as u64);
        TX_CREATE.flow.set_le(&mut tx_ctrl, flow as u64);
        rx_ctrl = [0; 16];
        RX_CREATE.op.set_le(&mut rx_ctrl, RX_OP_REMOVE as u64);
        RX_CREATE.qpn.set_le(&mut rx_ctrl, qpn as u64);
        if op == CMD_RTO {
            RX_CREATE.op.set_le(&mut rx_ctrl, RX_OP_TIMEOUT as u64);
            RX_CREATE.qpn.set_le(&mut rx_ctrl, flow as u64);
        }
    }
    Words {
        op,
        flow,
        mtu,
        shift,
        mtu_ok: shift != 0,
        rx_mtu: RX_CREATE.mtu.get_le(f.rx_word) as u16,
        rx_qpn: RX_CREATE.qpn.get_le(f.rx_word) as u32,
        is_read: TX_POST.read.get_le(f.tx_word) == 1,
        end_psn,
        cr: Event { flow, ty: CREATE, now: f.now_ns, alg: f.alg, ..Event::default() },
        sched,
        tx_ctrl,
        rx_ctrl,
    }
}
