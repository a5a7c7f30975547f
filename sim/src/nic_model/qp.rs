//! A reliable-connected queue pair: configuration, work queue and state. The requester's
//! behaviour is in `qp/requester.rs`, the responder's in `responder.rs`.

mod requester;

use super::psn::*;
use crate::packet::*;
use std::collections::VecDeque;

/// Largest message, and the most PSNs a QP may have posted but not completed: a quarter of the
/// PSN space, so that `psn_diff` never confuses old with new.
pub const MAX_OUTSTANDING_PSNS: u32 = 1 << 22;

/// RDMA operation of a work request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Local memory -> remote memory.
    Write,
    /// Remote memory -> local memory.
    Read,
}

/// One message posted to a QP's send queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkRequest {
    /// Caller's id, returned in the completion.
    pub id: u64,
    pub op: Op,
    /// Source (WRITE) or destination (READ) in the local host memory.
    pub local_addr: u64,
    /// RETH virtual address in the peer's host memory.
    pub remote_addr: u64,
    /// Message bytes (0 allowed: one packet without payload).
    pub len: u32,
}

/// Everything needed to create one end of a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QpConfig {
    /// Local QP number (24 bits).
    pub qpn: u32,
    /// The peer's QP number (24 bits).
    pub dest_qpn: u32,
    /// Scheduler flow that paces this QP's requests.
    pub flow: u16,
    /// Path MTU: payload bytes per packet, a power of two in 64..=4096, at most the NIC's
    /// scheduler packet size.
    pub mtu: u32,
    /// First PSN this QP sends.
    pub send_psn: u32,
    /// First PSN this QP expects from the peer (the peer's `send_psn`).
    pub recv_psn: u32,
    pub peer_mac: [u8; 6],
    pub peer_ip: [u8; 4],
    /// Initial scheduler window (bytes) and rate (bytes/cycle, UQ16.16), sent with the create.
    pub window: u32,
    pub rate: u32,
}

/// Requester state: usable, or failed by a fatal NAK (every later request is refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QpState {
    Ready,
    Error,
}

#[derive(Clone, Copy, Debug)]
struct Wqe {
    wr: WorkRequest,
    first_psn: u32,
    npkts: u32,
}

impl Wqe {
    fn end_psn(&self) -> u32 {
        psn_add(self.first_psn, self.npkts)
    }
}

/// Packets a message takes: at least one, even when empty.
pub(crate) fn packets_for(len: u64, mtu: u32) -> u64 {
    len.div_ceil(mtu as u64).max(1)
}

/// One queue pair: requester (this file) and responder (responder.rs) state.
#[derive(Clone, Debug)]
pub struct QueuePair {
    pub(crate) cfg: QpConfig,
    pub(crate) header: (Ethernet, Ipv4),
    state: QpState,
    /// Posted, not completed, oldest first. PSNs are assigned at post time, contiguously.
    wq: VecDeque<Wqe>,
    /// PSN the next posted message starts at.
    post_psn: u32,
    /// Next PSN to transmit (moves back on go-back-N).
    next_psn: u32,
    /// Oldest PSN not yet acknowledged (or, for a READ, not yet answered).
    snd_una: u32,
    /// One past the highest PSN ever transmitted: below it, a transmission is a retransmission.
    sent_hi: u32,
    /// READ response PSNs granted but not yet asked for: (first PSN, count).
    reserved: Option<(u32, u32)>,
    /// A READ response gap was seen and answered with go-back-N; later out-of-order responses
    /// are dropped until the missing one arrives (the requester's "NAK once").
    read_gap: bool,
    /// Cycle the retransmission timer was (re)started, while packets are in flight.
    timer: Option<u64>,
    // Responder side (responder.rs).
    pub(crate) epsn: u32,
    pub(crate) nak_sent: bool,
    pub(crate) write: Option<super::responder::WriteState>,
    pub(crate) msn: u32,
}

impl QueuePair {
    pub(crate) fn new(cfg: QpConfig, local: (Ethernet, Ipv4)) -> Self {
        let (mut eth, mut ip) = local;
        eth.dst = cfg.peer_mac;
        ip.dst = cfg.peer_ip;
        QueuePair {
            cfg,
            header: (eth, ip),
            state: QpState::Ready,
            wq: VecDeque::new(),
            post_psn: cfg.send_psn,
            next_psn: cfg.send_psn,
            snd_una: cfg.send_psn,
            sent_hi: cfg.send_psn,
            reserved: None,
            read_gap: false,
            timer: None,
            epsn: cfg.recv_psn,
            nak_sent: false,
            write: None,
            msn: 0,
        }
    }

    /// Configuration the QP was created with.
    pub fn config(&self) -> &QpConfig {
        &self.cfg
    }
    pub fn state(&self) -> QpState {
        self.state
    }
    /// Next PSN the requester will transmit.
    pub fn next_psn(&self) -> u32 {
        self.next_psn
    }
    /// Oldest unacknowledged PSN.
    pub fn snd_una(&self) -> u32 {
        self.snd_una
    }
    /// PSN the responder expects next.
    pub fn expected_psn(&self) -> u32 {
        self.epsn
    }
    /// Packets transmitted (or READ responses asked for) and not yet acknowledged: what the
    /// scheduler's window bounds.
    pub fn inflight_packets(&self) -> u32 {
        psn_diff(self.next_psn, self.snd_una) as u32
    }
    /// Posted messages not yet completed.
    pub fn pending_work(&self) -> usize {
        self.wq.len()
    }

    /// Adds a message to the send queue (the caller has checked the local memory).
    pub(crate) fn post(&mut self, wr: WorkRequest) -> Result<(), super::QpError> {
        if self.state == QpState::Error {
            return Err(super::QpError::QpInError);
        }
        let npkts = packets_for(wr.len as u64, self.cfg.mtu);
        let outstanding = psn_diff(self.post_psn, self.snd_una) as u64;
        if outstanding + npkts > MAX_OUTSTANDING_PSNS as u64 {
            return Err(super::QpError::TooMuchOutstanding);
        }
        let npkts = npkts as u32;
        self.wq.push_back(Wqe {
            wr,
            first_psn: self.post_psn,
            npkts,
        });
        self.post_psn = psn_add(self.post_psn, npkts);
        Ok(())
    }

    pub(crate) fn packet(&self, psn: u32, body: Body) -> RocePacket {
        // Requests ask for the per-packet ACK; responses and ACKs do not.
        let ack_req = matches!(
            body,
            Body::WriteFirst { .. }
                | Body::WriteMiddle { .. }
                | Body::WriteLast { .. }
                | Body::WriteOnly { .. }
                | Body::ReadRequest { .. }
        );
        RocePacket {
            eth: self.header.0,
            ip: self.header.1,
            udp_src_port: 0xC000 | (self.cfg.qpn & 0x3FFF) as u16,
            bth: Bth {
                solicited: false,
                mig_req: true,
                pkey: 0xFFFF,
                fecn: false,
                becn: false,
                dest_qp: self.cfg.dest_qpn,
                ack_req,
                psn,
            },
            body,
            telemetry: None,
        }
    }
}
