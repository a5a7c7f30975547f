//! Transaction-level model of the NIC transport (`NicModel`): RC queue pairs with 24-bit PSNs,
//! RDMA WRITE and READ, per-packet ACK, NAK on out-of-sequence arrival and go-back-N, composed
//! with the cycle-accurate flow scheduler (`crate::flow_sched`) through the events the RTL uses.
//!
//! One `Nic` is the draft HPCC++ section 7.2 NIC: the scheduler's PktSend(flow) makes the Tx
//! pipe build that flow's next packet; the Rx pipe turns data into PktRecv (ACK, NAK or READ
//! responses, built by the Tx pipe) and ACKs into Notify(acked bytes) for the scheduler plus a
//! `CcEvent` for a congestion-control module; Update (window, rate) is injected by the caller.
//! `Link` joins two NICs through a wire with delay, loss, reordering and corruption.
//! docs/nic-model.md has the semantics.

mod link;
mod memory;
mod nic;
pub mod psn;
mod qp;
mod responder;

pub use link::{Connection, Link, Wire, WireConfig, WireStats, XorShift};
pub use memory::{HostMemory, Unmapped, PAGE_SIZE};
pub use nic::Nic;
pub use psn::{psn_add, psn_diff, PSN_MASK};
pub use qp::{Op, QpConfig, QpState, QueuePair, WorkRequest, MAX_OUTSTANDING_PSNS};

use crate::packet::{NakCode, RocePacket};

/// How a work request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Success,
    /// The responder refused it with this NAK (the QP is then in error).
    RemoteNak(NakCode),
    /// Not executed (or not known to be): the QP failed or was destroyed first.
    Flushed,
}

/// A finished work request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    pub qpn: u32,
    /// `WorkRequest::id`.
    pub id: u64,
    pub op: Op,
    pub status: Status,
}

/// What a congestion-control module would consume from the Rx pipe (not implemented here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcEvent {
    /// PSNs up to `psn` acknowledged: `packets` newly, carrying `bytes` of payload.
    Ack {
        cycle: u64,
        flow: u16,
        qpn: u32,
        psn: u32,
        packets: u32,
        bytes: u64,
    },
    /// Go-back-N to `psn` on a sequence-error NAK (or a READ response gap).
    Nak {
        cycle: u64,
        flow: u16,
        qpn: u32,
        psn: u32,
    },
    /// Go-back-N to `psn` after the retransmission timeout.
    Timeout {
        cycle: u64,
        flow: u16,
        qpn: u32,
        psn: u32,
    },
}

/// PktRecv: what the Rx pipe asks the Tx pipe to send for a received request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PktRecv {
    Ack {
        psn: u32,
    },
    Nak {
        psn: u32,
        code: NakCode,
    },
    /// Responses to a READ request for `len` bytes at `va`, PSNs from `psn`.
    ReadResponse {
        psn: u32,
        va: u64,
        len: u32,
        msn: u32,
    },
}

/// Counters of one NIC.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NicStats {
    /// WRITE packets sent, retransmissions included.
    pub data_packets_sent: u64,
    pub read_requests_sent: u64,
    /// PSNs sent again (WRITE packets and READ responses asked for again).
    pub retransmitted_packets: u64,
    /// Go-back-N events (NAK, READ gap or timeout).
    pub rewinds: u64,
    pub timeouts: u64,
    pub acks_sent: u64,
    pub naks_sent: u64,
    pub naks_received: u64,
    pub read_responses_sent: u64,
    pub duplicates_received: u64,
    /// Out-of-sequence requests dropped silently after the gap's one NAK.
    pub out_of_sequence_dropped: u64,
    /// In-order requests refused with a fatal NAK.
    pub bad_requests: u64,
    /// ACKs/NAKs outside `[snd_una, highest sent]`, and RNR NAKs (never sent by this model).
    pub stale_acks: u64,
    /// READ responses dropped: duplicate, out of order after a gap, or malformed.
    pub dropped_responses: u64,
    /// PktSends with nothing to send; the grant goes straight back through Notify.
    pub idle_grants: u64,
    pub parse_errors: u64,
    /// Packets addressed to another IP.
    pub misaddressed: u64,
    /// Packets for a QP number that does not exist here.
    pub unknown_qp: u64,
    /// CNPs, probes and telemetry responses: valid, but not transport.
    pub ignored_opcodes: u64,
}

/// Configuration of one NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NicConfig {
    pub mac: [u8; 6],
    pub ip: [u8; 4],
    /// The scheduler has 2^flow_bits flows.
    pub flow_bits: u32,
    /// Scheduler packet size, log2 bytes: every packet is charged this much against the
    /// window, whatever its payload.
    pub pkt_shift: u8,
    /// Scheduler packets per visit.
    pub max_burst: u16,
    /// Retransmission timeout: cycles without progress before going back to the oldest
    /// unacknowledged PSN.
    pub rto_cycles: u64,
}

impl NicConfig {
    /// NIC number `n`: MAC 02:00:00:00:00:n, IP 10.0.0.n, 16 flows, 1 KiB packets.
    pub fn numbered(n: u8) -> Self {
        NicConfig {
            mac: [2, 0, 0, 0, 0, n],
            ip: [10, 0, 0, n],
            flow_bits: 4,
            pkt_shift: 10,
            max_burst: 8,
            rto_cycles: 2000,
        }
    }
}

/// Refused requests to a NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QpError {
    UnknownQp,
    QpnInUse,
    /// A QP number or PSN that does not fit 24 bits.
    OutOfRange,
    FlowOutOfRange,
    FlowInUse,
    /// Not a power of two in 64..=4096, or above the scheduler packet size.
    BadMtu,
    QpInError,
    /// The local buffer is not mapped.
    LocalUnmapped,
    /// More than `MAX_OUTSTANDING_PSNS` PSNs would be posted and not completed.
    TooMuchOutstanding,
}

/// Side effects collected while one cycle is processed.
#[derive(Debug, Default)]
pub(crate) struct Effects {
    pub now: u64,
    pub out: Vec<RocePacket>,
    pub recv: Vec<(u32, PktRecv)>,
    /// (flow, packets) leaving the window.
    pub notify: Vec<(u16, u32)>,
    pub events: Vec<CcEvent>,
    pub completions: Vec<Completion>,
    pub stats: NicStats,
}

impl Effects {
    pub fn notify(&mut self, flow: u16, packets: u32) {
        self.notify.push((flow, packets));
    }
    pub fn recv(&mut self, qpn: u32, r: PktRecv) {
        self.recv.push((qpn, r));
    }
}
