//! Golden model of `rx_ctx` (Rx pipe step 2, docs/modules/rx_ctx.md): per-QP receive state
//! behind `rx_pipe`. Every verdict record becomes at most one PktRecv (ACK / NAK to send, or a
//! go-back-N for `tx_ctx`), one CC event (`cc_module`'s format), one Notify (`flow_sched`) and
//! exactly one DMA command (`rx_dma`: write the payload at an address, or discard the frame).
//!
//! The responder rules are the NIC model's (`nic_model::responder`): in-order WRITE packets are
//! checked for opcode sequence and length, ACKed and written; the first packet ahead of the
//! expected PSN earns one NAK (PSN sequence error) and later ones are dropped silently until
//! the expected PSN arrives; duplicates are re-ACKed with their own PSN and not written. The
//! requester rules are `nic_model::qp::requester::on_ack`'s: only PSNs in [snd_una, sent]
//! count; an ACK releases the newly acknowledged packets (Notify, in packets << pkt_shift
//! bytes, as flow_sched charges them), a sequence-error NAK releases everything in flight and
//! asks tx_ctx to go back to its PSN. A probe (0xC0) is answered with a telemetry response
//! (PktRecv kind 2); a telemetry response (0xC1) is a CC event like an ACK acknowledging nothing.
//! RDMA READ, one MTU per request (tx_ctx asks so): at the responder an in-order READ request
//! of at most one MTU is answered with a READ Response Only (PktRecv kind 4: tx_ctx reads the
//! bytes from host memory), a duplicate is answered again; at the requester a READ Response
//! Only at snd_una is an ACK of its PSN whose payload is written at the READ's next local
//! address (set by a control word, op 3), and one past snd_una means a response was lost:
//! go back to snd_una, as for a sequence NAK. A retransmission timeout (control op 4, from the
//! NIC core's timer scan) does the same for whatever is in flight.

pub mod cycle;

use crate::layout::{le_bytes, CC_EVENT, RX_CREATE, RX_READ, SENT};
use crate::nic_model::psn::{psn_add, psn_diff, PSN_MASK};
use crate::packet::{Aeth, IntHop, NakCode, Syndrome, ACK_CREDITS_INVALID, SYN_NAK_SEQ};
use crate::rx_pipe::Verdict;
use crate::rx_dma::Cmd;
use crate::tx_ctx::{PktRecv, ReadPos, ReadResp, Recv, Response, Rewind};

/// Control op codes (`s_axis_ctrl_tdata[2:0]`; 0, 5, 6 and 7 are bad).
pub const OP_CREATE: u8 = 1;
pub const OP_REMOVE: u8 = 2;
/// A READ was posted: its responses are written from this local address on.
pub const OP_READ: u8 = 3;
/// Retransmission timeout of the flow (the QPN's low F bits; its other bits are not checked):
/// everything in flight is released and resent from snd_una.
pub const OP_TIMEOUT: u8 = 4;

/// Counter indices (`stat_addr`).
pub mod stat {
    /// Verdict records taken.
    pub const RECORDS: usize = 0;
    /// Records of frames rx_pipe dropped (code != 0): discarded here too.
    pub const PIPE_DROPPED: usize = 1;
    /// Accepted frames whose DestQP has no context (or another QPN in its slot).
    pub const UNKNOWN_QP: usize = 2;
    /// Requests ahead of the expected PSN after the NAK was sent, and READ responses past
    /// snd_una after the go-back-N for a gap: dropped silently.
    pub const OOS_DROPPED: usize = 3;
    /// Requests behind the expected PSN: re-ACKed, not written.
    pub const DUPLICATE: usize = 4;
    /// In-order WRITEs breaking the opcode sequence or the lengths: NAK invalid request.
    pub const BAD_REQUEST: usize = 5;
    /// ACKs and sequence NAKs outside [snd_una, sent].
    pub const STALE_ACK: usize = 6;
    /// RNR NAKs and NAKs other than PSN sequence error (not acted on).
    pub const NAK_OTHER: usize = 7;
    /// Opcodes not handled: READ Response First / Middle / Last (this NIC asks for one MTU per
    /// READ request), SEND, atomics, anything else rx_pipe accepts.
    pub const UNSUPPORTED: usize = 8;
    /// Control words ignored.
    pub const CTRL_BAD: usize = 9;
    /// Sent events for a flow id >= 2^F or without context.
    pub const SENT_DROP: usize = 10;
    /// Sequence-error NAKs asked of tx_ctx.
    pub const NAK_SENT: usize = 11;
    /// In-order READ responses with more payload than the MTU: dropped.
    pub const BAD_RESPONSE: usize = 12;
    /// READ responses past snd_una (one was lost): go-back-N to snd_una.
    pub const READ_GAP: usize = 13;
    /// Sent events not for the flow's next PSN (sent before a go-back-N reached tx_ctx, or
    /// out of order): not counted as sent, their packet returned to the window at once.
    pub const SENT_STALE: usize = 14;
    /// Timeouts (control op 4) that found packets in flight: go-back-N to snd_una.
    pub const TIMEOUTS: usize = 15;
    pub const COUNT: usize = 16;
}

/// A control word (host side): create or remove the receive context of a QP. The flow is the
/// QPN's low F bits (the host numbers its QPs so), the same flow id tx_ctx, flow_sched and
/// cc_module use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ctrl {
    pub op: u8,
    pub qpn: u32,
    /// Responder: the first PSN expected from the peer.
    pub epsn: u32,
    /// Requester: the first PSN this QP sends (snd_una = sent = it).
    pub spsn: u32,
    /// Payload bytes per packet (1..16383): of the peer's WRITEs, of READ responses both ways.
    pub mtu: u16,
    /// Op 3: the local address the READ's responses are written from (in [127:64], instead of
    /// the PSNs).
    pub addr: u64,
}

impl Ctrl {
    /// The control word `w` holds (`to_bytes`'s inverse).
    pub fn of(w: &[u8; 16]) -> Ctrl {
        let op = RX_CREATE.op.get_le(w) as u8;
        let read = op & 7 == OP_READ;
        Ctrl {
            op,
            qpn: RX_CREATE.qpn.get_le(w) as u32,
            epsn: if read { 0 } else { RX_CREATE.epsn.get_le(w) as u32 },
            spsn: if read { 0 } else { RX_CREATE.spsn.get_le(w) as u32 },
            mtu: RX_CREATE.mtu.get_le(w) as u16,
            addr: if read { RX_READ.addr.get_le(w) } else { 0 },
        }
    }

    /// `s_axis_ctrl_tdata` (`layout::RX_CREATE`, or `RX_READ` for op 3).
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut w = [0u8; 16];
        RX_CREATE.op.set_le(&mut w, self.op as u64);
        RX_CREATE.mtu.set_le(&mut w, self.mtu as u64);
        RX_CREATE.qpn.set_le(&mut w, self.qpn as u64);
        if self.op & 7 == OP_READ {
            RX_READ.addr.set_le(&mut w, self.addr);
        } else {
            RX_CREATE.epsn.set_le(&mut w, self.epsn as u64);
            RX_CREATE.spsn.set_le(&mut w, self.spsn as u64);
        }
        w
    }
}

/// A data packet tx_ctx handed to tx_pipe: `psn` sent for `flow`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    pub flow: u16,
    pub psn: u32,
}

impl Sent {
    /// `s_axis_sent_tdata` (`layout::SENT`) in its 8 bytes.
    pub fn to_bytes(&self) -> [u8; 8] {
        let mut w = [0u8; 8];
        SENT.flow.set_le(&mut w, self.flow as u64);
        SENT.psn.set_le(&mut w, self.psn as u64);
        w
    }
}

/// cc_module's event types used here.
pub const EV_ACK: u8 = 0;
pub const EV_RX_TELEMETRY: u8 = 1;
pub const EV_LOSS: u8 = 2;
pub const EV_CNP: u8 = 4;

/// An event for cc_module (`s_axis_event_tdata`, docs/modules/cc_module.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CcEvent {
    pub flow: u16,
    pub kind: u8,
    pub ece: bool,
    /// Rx-HPCC feedback from the frame's echo: W is `hops[0]` (bit 21 of the event).
    pub feedback: bool,
    pub nhop: u8,
    /// 32-bit extended PSNs: acknowledged up to (exclusive), and sent up to.
    pub seq: u32,
    pub snd_nxt: u32,
    pub time: u64,
    /// Hop records as numbers (`FxHop::word`), unused slots 0.
    pub hops: [u64; 5],
    pub acked: u16,
}

impl CcEvent {
    /// ACK coalescing (hpcc_nic_core's event slot, EVENT_MERGE): `later`, arriving while
    /// `self` still waits for cc_module, merges into it when both are ACKs (type 0) of one flow
    /// with the same ECN-Echo and neither carries Rx-HPCC feedback. The merged event is
    /// `later` (its seq, snd_nxt, time and hops: HPCC++ takes the newest telemetry) with both
    /// events' packets acknowledged added, saturated at 16 bits (LDCP counts them).
    pub fn merge(&self, later: &CcEvent) -> Option<CcEvent> {
        let ok = self.flow == later.flow
            && self.kind == EV_ACK
            && later.kind == EV_ACK
            && self.ece == later.ece
            && !self.feedback
            && !later.feedback;
        ok.then(|| CcEvent { acked: self.acked.saturating_add(later.acked), ..*later })
    }

    /// The 512-bit `s_axis_event_tdata` (`layout::CC_EVENT`), little-endian bytes: cc_module's
    /// event words (`sim::cc_module::Event::words`) with this event's Rx-HPCC feedback bit.
    pub fn to_bytes(&self) -> [u8; 64] {
        let e = crate::cc_module::Event {
            flow: self.flow,
            ty: self.kind,
            ece: self.ece,
            count: self.nhop,
            seq: self.seq,
            snd_nxt: self.snd_nxt,
            now: self.time,
            hops: self.hops,
            acked: self.acked,
            alg: 0,
        };
        let mut w = e.words();
        CC_EVENT.feedback.set(&mut w, self.feedback as u64);
        le_bytes(&w)
    }
}

/// Everything one verdict record produces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub recv: Option<Recv>,
    pub event: Option<CcEvent>,
    /// (flow, bytes) for flow_sched's Notify.
    pub notify: Option<(u16, u32)>,
    pub dma: Cmd,
}

#[derive(Clone, Copy, Debug, Default)]
struct Qp {
    qpn: u32,
    mtu: u16,
    epsn: u32,
    nak_sent: bool,
    /// A multi-packet WRITE in progress: next address, bytes still to come.
    wr_active: bool,
    wr_addr: u64,
    wr_left: u32,
    msn: u32,
    /// 32-bit extended PSNs (the low 24 bits are wire PSNs).
    una: u32,
    sent: u32,
    /// Where the next READ response's payload goes.
    rd_addr: u64,
    /// A go-back-N for a READ gap is out: later responses past snd_una are dropped silently
    /// until the one at snd_una arrives.
    rd_gap: bool,
    /// A READ was posted and no ACK has come since (READ requests are never ACKed, so an ACK
    /// means the flow is sending WRITEs again): sequence NAKs acknowledge nothing.
    rd_act: bool,
}

/// The longest READ answered in several packets (1 GiB; RoCE allows 2^31 - 1).
pub const MAX_READ_LEN: u32 = 1 << 30;

/// The smallest MTU a READ is cut at (RoCE's smallest), as log2.
pub const MIN_CUT_MTU_LOG: u8 = 8;

/// What those two bounds give: a READ takes at most this many response packets (a quarter of
/// the 24-bit PSN space, the bound the NIC model puts on what may be outstanding).
pub const MAX_READ_PACKETS: u32 = MAX_READ_LEN >> MIN_CUT_MTU_LOG;

/// log2 of an MTU, 15 if it is not a power of two (what the RTL keeps in the QP word and sends
/// to read_split).
pub fn mtu_log(mtu: u16) -> u8 {
    if mtu.is_power_of_two() { mtu.trailing_zeros() as u8 } else { 15 }
}

/// How many response packets a READ of `len` bytes takes at this MTU: one if it fits a packet,
/// else ceil(len / MTU), where the MTU must be a power of two of 256..8192 bytes and `len` at
/// most `MAX_READ_LEN`; else None (NAK invalid request). The bounds let the RTL check without
/// its shift and cut with six constant shifts.
pub fn read_packets(len: u32, mtu: u16) -> Option<u32> {
    if len <= mtu as u32 {
        return Some(1);
    }
    let log = mtu_log(mtu);
    if !(MIN_CUT_MTU_LOG..=13).contains(&log) || len > MAX_READ_LEN {
        return None;
    }
    Some(((len - 1) >> log) + 1)
}

/// The receive context of 2^F flows.
pub struct RxCtx {
    flow_bits: usize,
    /// Notify bytes = packets << pkt_shift (flow_sched's `pkt_shift`, 0..15).
    pub pkt_shift: u8,
    qps: Vec<Option<Qp>>,
    pub stats: [u32; stat::COUNT],
}

impl RxCtx {
    pub fn new(flow_bits: usize) -> RxCtx {
        RxCtx {
            flow_bits,
            pkt_shift: 0,
            qps: vec![None; 1 << flow_bits],
            stats: [0; stat::COUNT],
        }
    }

    fn bump(&mut self, s: usize) {
        self.stats[s] = self.stats[s].wrapping_add(1);
    }

    /// Notify bytes of `packets`, wrapping at 32 bits as the RTL's shifter does.
    fn bytes(&self, packets: u32) -> u32 {
        ((packets as u64) << (self.pkt_shift & 15)) as u32
    }

    /// QP slots: 2^F.
    pub fn qp_slots(&self) -> usize {
        self.qps.len()
    }

    /// The flow of a QPN: its low F bits.
    pub fn flow_of(&self, qpn: u32) -> u16 {
        (qpn & ((1 << self.flow_bits) - 1)) as u16
    }

    /// (expected PSN, snd_una, sent) of a flow with context, for stimulus generators.
    pub fn psns(&self, flow: u16) -> Option<(u32, u32, u32)> {
        let q = self.qps.get(flow as usize)?.as_ref()?;
        Some((q.epsn, q.una & PSN_MASK, q.sent & PSN_MASK))
    }

    /// (expected PSN, WRITE in progress, its bytes left, MTU) of a flow with context.
    pub fn responder(&self, flow: u16) -> Option<(u32, bool, u32, u16)> {
        let q = self.qps.get(flow as usize)?.as_ref()?;
        Some((q.epsn, q.wr_active, q.wr_left, q.mtu))
    }

    /// The QPN bound to a flow.
    pub fn qpn(&self, flow: u16) -> Option<u32> {
        Some(self.qps.get(flow as usize)?.as_ref()?.qpn)
    }

    /// A control word; false (counted) when it is ignored. Only a timeout gives outputs: use
    /// `ctrl_at` for those.
    pub fn ctrl(&mut self, c: &Ctrl) -> bool {
        self.ctrl_at(c, 0).0
    }

    /// A control word taken at time `now` (ns): whether it was acted on (false: counted in
    /// `ctrl_bad`), and its outputs. A timeout (op 4) of a flow with packets in flight
    /// releases them (Notify), sends tx_ctx back to snd_una (go-back-N) and gives a loss event,
    /// as a READ gap does; with nothing in flight it does nothing. No control word gives a DMA
    /// command (`Out::dma` is unused).
    pub fn ctrl_at(&mut self, c: &Ctrl, now: u64) -> (bool, Out) {
        let flow = self.flow_of(c.qpn);
        let mut out = Out::default();
        if c.op == OP_TIMEOUT {
            let Some(mut q) = self.qps[flow as usize] else {
                self.bump(stat::CTRL_BAD);
                return (false, out);
            };
            if q.sent != q.una {
                self.back_to_una(&mut q, flow, &mut out, CcEvent { flow, kind: EV_LOSS, time: now, ..CcEvent::default() });
                self.qps[flow as usize] = Some(q);
                self.bump(stat::TIMEOUTS);
            }
            return (true, out);
        }
        (self.ctrl_plain(c), out)
    }

    /// Back to snd_una: everything in flight is released (Notify) and, if anything was, sent
    /// again from snd_una (go-back-N); sent = snd_una; a loss event (`loss` with seq = snd_nxt
    /// = snd_una). What a READ gap, a sequence NAK during a READ and a timeout all do.
    fn back_to_una(&self, q: &mut Qp, flow: u16, out: &mut Out, loss: CcEvent) {
        let released = q.sent.wrapping_sub(q.una);
        if released > 0 {
            out.notify = Some((flow, self.bytes(released)));
            out.recv = Some(Recv::Rewind(Rewind { flow, psn: q.una & PSN_MASK }));
        }
        q.sent = q.una;
        out.event = Some(CcEvent { seq: q.una, snd_nxt: q.una, ..loss });
    }

    /// Ops 1-3 (and the bad ones).
    fn ctrl_plain(&mut self, c: &Ctrl) -> bool {
        let flow = self.flow_of(c.qpn) as usize;
        let ok = match c.op {
            OP_CREATE if c.mtu & 0x3FFF != 0 => {
                let s = c.spsn & PSN_MASK;
                self.qps[flow] = Some(Qp {
                    qpn: c.qpn & PSN_MASK,
                    mtu: c.mtu & 0x3FFF,
                    epsn: c.epsn & PSN_MASK,
                    una: s,
                    sent: s,
                    ..Qp::default()
                });
                true
            }
            OP_REMOVE if self.qps[flow].is_some_and(|q| q.qpn == c.qpn & PSN_MASK) => {
                self.qps[flow] = None;
                true
            }
            OP_READ => match self.qps[flow].as_mut().filter(|q| q.qpn == c.qpn & PSN_MASK) {
                Some(q) => {
                    q.rd_addr = c.addr;
                    q.rd_act = true;
                    true
                }
                None => false,
            },
            _ => false,
        };
        if !ok {
            self.bump(stat::CTRL_BAD);
        }
        ok
    }

    /// tx_ctx sent `psn` for the flow: sent + 1 if it is the flow's next PSN (tx_ctx sends in
    /// PSN order from the first send PSN). Any other PSN is stale: in particular a packet
    /// tx_ctx sent after a go-back-N was decided here but before it reached tx_ctx, which
    /// tx_ctx will send again. It is not counted as sent; its grant goes straight back to the
    /// window (the Notify returned, one packet), so flow_sched gets back exactly what it gave.
    pub fn sent(&mut self, s: &Sent) -> Option<(u16, u32)> {
        match self.qps.get_mut(s.flow as usize).and_then(|q| q.as_mut()) {
            Some(q) if s.psn & PSN_MASK == q.sent & PSN_MASK => {
                q.sent = q.sent.wrapping_add(1);
                None
            }
            Some(_) => {
                self.bump(stat::SENT_STALE);
                Some((s.flow, self.bytes(1)))
            }
            None => {
                self.bump(stat::SENT_DROP);
                None
            }
        }
    }

    /// One verdict record from rx_pipe, taken at time `now` (ns).
    pub fn verdict(&mut self, v: &Verdict, now: u64) -> Out {
        self.bump(stat::RECORDS);
        let mut out = Out::default();
        if v.code != 0 {
            self.bump(stat::PIPE_DROPPED);
            return out;
        }
        let flow = self.flow_of(v.dest_qp);
        let Some(mut q) = self.qps[flow as usize].filter(|q| q.qpn == v.dest_qp) else {
            self.bump(stat::UNKNOWN_QP);
            return out;
        };
        let hops = |v: &Verdict| {
            let mut h = [0u64; 5];
            for (i, x) in h.iter_mut().enumerate().take(v.nhop as usize) {
                *x = v.hops[i];
            }
            if v.feedback {
                h[0] = v.hops[0];
            }
            h
        };
        let event = |kind, q: &Qp| CcEvent {
            flow,
            kind,
            ece: false,
            feedback: v.telemetry && v.feedback,
            nhop: if v.telemetry { v.nhop } else { 0 },
            seq: q.una,
            snd_nxt: q.sent,
            time: now,
            hops: if v.telemetry { hops(v) } else { [0; 5] },
            acked: 0,
        };
        match v.opcode {
            0x06..=0x08 | 0x0A => out = self.request(&mut q, flow, v),
            0x0C => out = self.read_request(&mut q, flow, v),
            0x0D..=0x10 => {
                let (ack, loss) = (event(EV_ACK, &q), event(EV_LOSS, &q));
                out = self.read_response(&mut q, flow, v, ack, loss);
            }
            0x11 => {
                let (ack, loss) = (event(EV_ACK, &q), event(EV_LOSS, &q));
                out = self.acknowledge(&mut q, flow, v, ack, loss);
            }
            0x81 => {
                out.event = Some(CcEvent {
                    nhop: 0,
                    hops: [0; 5],
                    feedback: false,
                    ..event(EV_CNP, &q)
                })
            }
            // A probe (which always carries a collecting header): a telemetry response.
            0xC0 => {
                let hops: Vec<IntHop> = (0..v.nhop as usize).map(|i| hop(v.hops[i])).collect();
                out.recv = Some(Recv::Response(Response { flow, psn: v.psn, hops }));
            }
            0xC1 => out.event = Some(event(EV_ACK, &q)),
            _ => self.bump(stat::UNSUPPORTED),
        }
        // Receiver-side telemetry of a request (Rx-HPCC, lines 28-34), whatever its PSN.
        if matches!(v.opcode, 0x06..=0x08 | 0x0A | 0x0C) && v.telemetry && !v.echo {
            out.event = Some(event(EV_RX_TELEMETRY, &q));
        }
        self.qps[flow as usize] = Some(q);
        out
    }

    /// A request (WRITE or READ) ahead of the expected PSN: the first earns one NAK (PSN
    /// sequence error, at the expected PSN), later ones are dropped silently until the expected
    /// PSN arrives.
    fn ahead(&mut self, q: &mut Qp, flow: u16, echo: Option<Vec<IntHop>>, ece: bool) -> Option<Recv> {
        if q.nak_sent {
            self.bump(stat::OOS_DROPPED);
            return None;
        }
        q.nak_sent = true;
        self.bump(stat::NAK_SENT);
        let aeth = Aeth { syndrome: Syndrome::Nak(NakCode::PsnSequenceError), msn: q.msn };
        Some(Recv::Ack(PktRecv { flow, psn: q.epsn, aeth, echo, ece, feedback: None }))
    }

    /// A WRITE request at the responder.
    fn request(&mut self, q: &mut Qp, flow: u16, v: &Verdict) -> Out {
        let mut out = Out::default();
        let echo = echo_of(v);
        let reply = |psn, syndrome, msn| {
            Some(Recv::Ack(PktRecv {
                flow,
                psn,
                aeth: Aeth { syndrome, msn },
                echo: echo.clone(),
                ece: ce(v),
                feedback: None,
            }))
        };
        let ack = Syndrome::Ack {
            credits: ACK_CREDITS_INVALID,
        };
        let d = psn_diff(v.psn, q.epsn);
        if d > 0 {
            out.recv = self.ahead(q, flow, echo, ce(v));
            return out;
        }
        if d < 0 {
            self.bump(stat::DUPLICATE);
            out.recv = reply(v.psn, ack, q.msn);
            return out;
        }
        let n = v.payload_len as u32;
        let mtu = q.mtu as u32;
        let first = matches!(v.opcode, 0x06 | 0x0A);
        let ok = match v.opcode {
            0x06 => !q.wr_active && n == mtu && v.reth_len > mtu,
            0x07 => q.wr_active && n == mtu && n < q.wr_left,
            0x08 => q.wr_active && n >= 1 && n <= mtu && n == q.wr_left,
            _ => !q.wr_active && n <= mtu && n == v.reth_len,
        };
        if !ok {
            self.bump(stat::BAD_REQUEST);
            q.wr_active = false;
            out.recv = reply(v.psn, Syndrome::Nak(NakCode::InvalidRequest), q.msn);
            return out;
        }
        let addr = if first { v.reth_va } else { q.wr_addr };
        let left = if first { v.reth_len } else { q.wr_left };
        q.wr_addr = addr.wrapping_add(n as u64);
        q.wr_left = left - n;
        q.wr_active = v.opcode == 0x06 || v.opcode == 0x07;
        if !q.wr_active {
            q.msn = psn_add(q.msn, 1);
        }
        q.epsn = psn_add(q.epsn, 1);
        q.nak_sent = false;
        out.recv = reply(v.psn, ack, q.msn);
        if n > 0 {
            out.dma = Cmd {
                addr,
                offset: v.payload_at,
                len: v.payload_len,
                write: true,
                flow,
            };
        }
        out
    }

    /// A READ request at the responder. Ahead of the expected PSN as for a WRITE; in order
    /// inside a WRITE message, or longer than the MTU where `read_packets` refuses it (MTU not
    /// a power of two of 256..8192 bytes, or longer than `MAX_READ_LEN`): NAK invalid request. A duplicate
    /// is executed again, whole (its responses may be what was lost), the expected PSN kept;
    /// in order: expected PSN + the READ's response packets, MSN + 1. Either way one PktRecv
    /// kind 4 carries the whole READ (`ReadResp`'s first form) for read_split to cut.
    fn read_request(&mut self, q: &mut Qp, flow: u16, v: &Verdict) -> Out {
        let mut out = Out::default();
        let ack = Syndrome::Ack { credits: ACK_CREDITS_INVALID };
        // NAKs echo a collecting header, as a WRITE's do; the response itself carries none.
        let echo = echo_of(v);
        let d = psn_diff(v.psn, q.epsn);
        if d > 0 {
            out.recv = self.ahead(q, flow, echo, ce(v));
            return out;
        }
        let packets = read_packets(v.reth_len, q.mtu);
        if packets.is_none() || (d == 0 && q.wr_active) {
            self.bump(stat::BAD_REQUEST);
            if d == 0 {
                q.wr_active = false;
            }
            let aeth = Aeth { syndrome: Syndrome::Nak(NakCode::InvalidRequest), msn: q.msn };
            out.recv = Some(Recv::Ack(PktRecv { flow, psn: v.psn, aeth, echo, ece: ce(v), feedback: None }));
            return out;
        }
        if d < 0 {
            self.bump(stat::DUPLICATE);
        } else {
            q.msn = psn_add(q.msn, 1);
            q.epsn = psn_add(q.epsn, packets.unwrap());
            q.nak_sent = false;
        }
        let aeth = Aeth { syndrome: ack, msn: q.msn };
        let r = ReadResp { flow, psn: v.psn, aeth, va: v.reth_va, len: 0, pos: ReadPos::Only, total: v.reth_len, mtu_log: mtu_log(q.mtu) };
        out.recv = Some(Recv::ReadResp(r));
        out
    }

    /// A READ response (Only, or First / Middle / Last of a READ asked for in several packets)
    /// at the requester: each is the answer for its own PSN. At snd_una (and below sent): an
    /// ACK of its PSN (Notify one packet, CC event type 0) whose payload (exactly one MTU for
    /// First and Middle, at most one for Last and Only; else `bad_response`) is written at the
    /// READ's next local address. Between snd_una and sent: a response was lost; go back to
    /// snd_una as for a sequence NAK. Anywhere else: stale.
    fn read_response(&mut self, q: &mut Qp, flow: u16, v: &Verdict, ack: CcEvent, loss: CcEvent) -> Out {
        let mut out = Out::default();
        let d = psn_diff(v.psn, q.una & PSN_MASK);
        let e = psn_diff(v.psn, q.sent & PSN_MASK);
        if d < 0 || e >= 0 {
            self.bump(stat::STALE_ACK);
            return out;
        }
        if d > 0 && q.rd_gap {
            self.bump(stat::OOS_DROPPED);
            return out;
        }
        if d > 0 {
            // In flight: this response's PSN lies in (snd_una, sent).
            q.rd_gap = true;
            self.bump(stat::READ_GAP);
            self.back_to_una(q, flow, &mut out, loss);
            return out;
        }
        let n = v.payload_len;
        // First and Middle are whole packets; Last and Only at most one.
        if n > q.mtu || (matches!(v.opcode, 0x0D | 0x0E) && n != q.mtu) {
            self.bump(stat::BAD_RESPONSE);
            return out;
        }
        if n > 0 {
            out.dma = Cmd { addr: q.rd_addr, offset: v.payload_at, len: n, write: true, flow };
        }
        q.rd_addr = q.rd_addr.wrapping_add(n as u64);
        q.una = q.una.wrapping_add(1);
        q.rd_gap = false;
        out.notify = Some((flow, self.bytes(1)));
        // The response is the data: its own CE mark is the congestion signal (responses
        // carry no ECN-Echo).
        out.event = Some(CcEvent { seq: q.una, acked: 1, ece: ce(v), ..ack });
        out
    }

    /// An Acknowledge at the requester: ACK, NAK or RNR NAK by its syndrome.
    fn acknowledge(
        &mut self,
        q: &mut Qp,
        flow: u16,
        v: &Verdict,
        ack: CcEvent,
        loss: CcEvent,
    ) -> Out {
        let mut out = Out::default();
        let s = v.aeth_syndrome;
        let seq_err = s == SYN_NAK_SEQ;
        if s >> 5 != 0 && !seq_err {
            self.bump(stat::NAK_OTHER);
            return out;
        }
        let upto = if seq_err { v.psn } else { psn_add(v.psn, 1) };
        let d = psn_diff(upto, q.una & PSN_MASK);
        let e = psn_diff(upto, q.sent & PSN_MASK);
        if d < 0 || (d == 0 && !seq_err) || e > 0 {
            self.bump(stat::STALE_ACK);
            return out;
        }
        if seq_err && q.rd_act {
            // A READ is out: a NAK says a request was lost, not that the responses before it
            // arrived (the NIC model's `ack_barrier`). Nothing is acknowledged; everything from
            // the oldest missing response is asked for again.
            self.back_to_una(q, flow, &mut out, loss);
            return out;
        }
        let upto32 = q.una.wrapping_add(d as u32);
        if seq_err {
            // Everything in flight leaves it: the acknowledged part and what will be resent.
            let released = q.sent.wrapping_sub(q.una);
            if released > 0 {
                out.notify = Some((flow, self.bytes(released)));
            }
            if e != 0 {
                out.recv = Some(Recv::Rewind(Rewind { flow, psn: upto }));
            }
            q.una = upto32;
            q.sent = upto32;
            out.event = Some(CcEvent {
                seq: q.una,
                snd_nxt: q.sent,
                ..loss
            });
        } else {
            q.rd_act = false;
            out.notify = Some((flow, self.bytes(d as u32)));
            q.una = upto32;
            out.event = Some(CcEvent {
                seq: q.una,
                acked: d.min(0xFFFF) as u16,
                ece: v.becn,
                ..ack
            });
        }
        out
    }
}

/// The hops of a request's collecting telemetry header, echoed in its reply.
/// The frame arrived CE-marked (IPv4 ECN 11): the ECN-Echo of its ACK / NAK.
fn ce(v: &Verdict) -> bool {
    v.ecn == 3
}

fn echo_of(v: &Verdict) -> Option<Vec<IntHop>> {
    (v.telemetry && !v.echo).then(|| (0..v.nhop as usize).map(|i| hop(v.hops[i])).collect())
}

/// A used hop of an accepted frame (rx_pipe drops frames whose used hops have an undefined
/// line-rate code).
fn hop(w: u64) -> IntHop {
    IntHop::from_word(w).expect("rx_pipe accepts only defined line-rate codes")
}

#[cfg(test)]
mod tests {
    use super::*;

    const QPN: u32 = 0xABC_005;

    fn ctx() -> RxCtx {
        let mut c = RxCtx::new(4);
        c.pkt_shift = 10;
        assert!(c.ctrl(&Ctrl { op: OP_CREATE, qpn: QPN, epsn: 0xFF_FFFE, spsn: 100, mtu: 1000, addr: 0 }));
        c
    }

    fn rec(opcode: u8, psn: u32, n: u16) -> Verdict {
        let mut v = Verdict::from_words(&[0; 20]);
        v.opcode = opcode;
        v.dest_qp = QPN;
        v.psn = psn;
        v.payload_len = n;
        v.payload_at = 58;
        v
    }

    fn ack_of(o: &Out) -> (u32, u8, u32) {
        match &o.recv {
            Some(Recv::Ack(p)) => (p.psn, p.aeth.syndrome.bits(), p.aeth.msn),
            r => panic!("no ACK/NAK: {r:?}"),
        }
    }

    /// A 2500-byte WRITE over the PSN wrap: First lost, Middle earns one NAK, Last is dropped
    /// silently, then the resent First, Middle, Last are written at va, va+1000, va+2000 and
    /// the MSN counts the message once; a duplicate is re-ACKed and not written.
    #[test]
    fn write_message_with_a_loss() {
        let mut c = ctx();
        let mut first = rec(0x06, 0xFF_FFFE, 1000);
        first.reth_va = 0x1_0000;
        first.reth_len = 2500;
        let o = c.verdict(&rec(0x07, 0xFF_FFFF, 1000), 0);
        assert_eq!(ack_of(&o), (0xFF_FFFE, 0x60, 0));
        assert!(!o.dma.write);
        let o = c.verdict(&rec(0x08, 0, 500), 0);
        assert!(o.recv.is_none() && c.stats[stat::OOS_DROPPED] == 1);
        let o = c.verdict(&first, 0);
        assert_eq!((ack_of(&o), o.dma.addr, o.dma.len), ((0xFF_FFFE, 0x1F, 0), 0x1_0000, 1000));
        let o = c.verdict(&rec(0x07, 0xFF_FFFF, 1000), 0);
        assert_eq!((ack_of(&o), o.dma.addr), ((0xFF_FFFF, 0x1F, 0), 0x1_03E8));
        let o = c.verdict(&rec(0x08, 0, 500), 0);
        assert_eq!((ack_of(&o), o.dma.addr, o.dma.len, o.dma.offset), ((0, 0x1F, 1), 0x1_07D0, 500, 58));
        let o = c.verdict(&rec(0x07, 0xFF_FFFF, 1000), 0);
        assert_eq!((ack_of(&o), o.dma.write), ((0xFF_FFFF, 0x1F, 1), false));
        assert_eq!(c.stats[stat::DUPLICATE], 1);
        assert_eq!(c.stats[stat::NAK_SENT], 1);
    }

    /// Opcode sequence and lengths: a Middle with no message, a First shorter than the MTU, a
    /// Last longer than what is left all earn NAK invalid request and leave the PSN expected.
    #[test]
    fn broken_sequences_are_nakked() {
        let mut c = ctx();
        let o = c.verdict(&rec(0x07, 0xFF_FFFE, 1000), 0);
        assert_eq!(ack_of(&o).1, 0x61);
        let mut f = rec(0x06, 0xFF_FFFE, 999);
        f.reth_len = 3000;
        assert_eq!(ack_of(&c.verdict(&f, 0)).1, 0x61);
        f.payload_len = 1000;
        assert_eq!(ack_of(&c.verdict(&f, 0)).1, 0x1F);
        assert_eq!(ack_of(&c.verdict(&rec(0x08, 0xFF_FFFF, 1001), 0)).1, 0x61);
        assert_eq!(c.stats[stat::BAD_REQUEST], 3);
        assert_eq!(c.responder(5).unwrap().0, 0xFF_FFFF);
    }

    /// Requester: packets 100..104 sent; ACK of 101 releases 2 packets (2 KiB at pkt_shift 10);
    /// a stale ACK and one past sent are dropped; a sequence NAK at 103 releases the 3 still in
    /// flight and rewinds tx_ctx to 103; the CC events carry the extended PSNs.
    #[test]
    fn acks_and_go_back_n() {
        let mut c = ctx();
        for p in 100..105 {
            c.sent(&Sent { flow: 5, psn: p });
        }
        let mut a = rec(0x11, 101, 0);
        a.aeth_syndrome = 0x1F;
        a.becn = true;
        let o = c.verdict(&a, 77);
        assert_eq!(o.notify, Some((5, 2048)));
        let e = o.event.unwrap();
        assert_eq!((e.kind, e.seq, e.snd_nxt, e.acked, e.ece, e.time), (EV_ACK, 102, 105, 2, true, 77));
        assert!(c.verdict(&a, 0).notify.is_none());
        a.psn = 105;
        assert!(c.verdict(&a, 0).notify.is_none());
        assert_eq!(c.stats[stat::STALE_ACK], 2);
        a.psn = 103;
        a.aeth_syndrome = 0x60;
        let o = c.verdict(&a, 0);
        assert_eq!(o.notify, Some((5, 3 << 10)));
        assert_eq!(o.recv, Some(Recv::Rewind(Rewind { flow: 5, psn: 103 })));
        let e = o.event.unwrap();
        assert_eq!((e.kind, e.seq, e.snd_nxt), (EV_LOSS, 103, 103));
        assert_eq!(c.psns(5), Some((0xFF_FFFE, 103, 103)));
    }

    /// Records of dropped frames, unknown QPNs and unsupported opcodes produce only a discard.
    #[test]
    fn everything_else_is_discarded_and_counted() {
        let mut c = ctx();
        let mut v = rec(0x06, 0xFF_FFFE, 1000);
        v.code = 11;
        assert_eq!(c.verdict(&v, 0), Out::default());
        v = rec(0x04, 0, 0);
        assert_eq!(c.verdict(&v, 0), Out::default());
        v.dest_qp = QPN ^ 0x100;
        assert_eq!(c.verdict(&v, 0), Out::default());
        assert_eq!(c.stats[..4], [3, 1, 1, 0]);
        assert_eq!(c.stats[stat::UNSUPPORTED], 1);
        assert!(!c.ctrl(&Ctrl { op: OP_REMOVE, qpn: QPN ^ 0x100, epsn: 0, spsn: 0, mtu: 1, addr: 0 }));
    }

    /// A probe earns a telemetry response with its PSN and hops, whatever the PSN state; the
    /// response coming back is an ACK event acknowledging nothing.
    #[test]
    fn probes_are_answered() {
        let mut c = ctx();
        let mut v = rec(0xC0, 0x1234, 0);
        v.telemetry = true;
        v.nhop = 2;
        v.hops[0] = 0x41e8_a5da_ca00_0096;
        v.hops[1] = 0x41e8_a5da_ca00_0097;
        let o = c.verdict(&v, 5);
        let want = Response { flow: 5, psn: 0x1234, hops: vec![hop(v.hops[0]), hop(v.hops[1])] };
        assert_eq!((o.recv, o.event, o.notify, o.dma.write), (Some(Recv::Response(want)), None, None, false));
        v.opcode = 0xC1;
        v.echo = true;
        let e = c.verdict(&v, 9).event.unwrap();
        assert_eq!((e.kind, e.acked, e.nhop, e.hops[1], e.time), (EV_ACK, 0, 2, 0x41e8_a5da_ca00_0097, 9));
        assert_eq!(c.responder(5).unwrap().0, 0xFF_FFFE);
    }

    /// Responder: an in-order READ request is answered (MSN + 1), a duplicate again, one longer
    /// than the MTU NAKed 0x61. Requester: READ responses at snd_una are written one after the
    /// other from the posted local address; one past snd_una rewinds to it; then stale.
    #[test]
    fn read_requests_and_responses() {
        let mut c = ctx();
        let mut r = rec(0x0C, 0xFF_FFFE, 0);
        (r.reth_va, r.reth_len) = (0x7000, 1000);
        let resp = |o: &Out| match &o.recv {
            Some(Recv::ReadResp(x)) => (x.psn, x.aeth.msn, x.va, x.total),
            x => panic!("no READ response: {x:?}"),
        };
        assert_eq!(resp(&c.verdict(&r, 0)), (0xFF_FFFE, 1, 0x7000, 1000));
        assert_eq!(resp(&c.verdict(&r, 0)), (0xFF_FFFE, 1, 0x7000, 1000), "a duplicate is executed again");
        r.psn = 0xFF_FFFF;
        r.reth_len = 1001;
        assert_eq!(ack_of(&c.verdict(&r, 0)).1, 0x61, "longer than an MTU that is not a power of two");
        assert_eq!((c.stats[stat::DUPLICATE], c.stats[stat::BAD_REQUEST]), (1, 1));

        assert!(c.ctrl(&Ctrl { op: OP_READ, qpn: QPN, epsn: 0, spsn: 0, mtu: 0, addr: 0x5_0000 }));
        for p in 100..103 {
            c.sent(&Sent { flow: 5, psn: p });
        }
        let o = c.verdict(&rec(0x10, 100, 1000), 3);
        assert_eq!((o.dma.addr, o.dma.len, o.notify), (0x5_0000, 1000, Some((5, 1024))));
        let e = o.event.unwrap();
        assert_eq!((e.kind, e.seq, e.acked), (EV_ACK, 101, 1));
        let o = c.verdict(&rec(0x10, 102, 500), 0);
        assert_eq!(o.recv, Some(Recv::Rewind(Rewind { flow: 5, psn: 101 })));
        assert_eq!((o.notify, o.event.unwrap().kind, o.dma.write), (Some((5, 2048)), EV_LOSS, false));
        assert!(c.verdict(&rec(0x10, 102, 500), 0).recv.is_none(), "not asked for any more");
        c.sent(&Sent { flow: 5, psn: 102 });
        assert_eq!(c.stats[stat::SENT_STALE], 1, "102 was released by the go-back-N");
        c.sent(&Sent { flow: 5, psn: 101 });
        assert_eq!(c.verdict(&rec(0x10, 101, 1001), 0).dma.write, false);
        let o = c.verdict(&rec(0x10, 101, 1000), 0);
        assert_eq!((o.dma.addr, o.dma.len), (0x5_0000 + 1000, 1000));
        assert_eq!((c.stats[stat::READ_GAP], c.stats[stat::STALE_ACK], c.stats[stat::BAD_RESPONSE]), (1, 1, 1));
        // A second gap while the first go-back-N is out is dropped silently.
        c.sent(&Sent { flow: 5, psn: 102 });
        c.sent(&Sent { flow: 5, psn: 103 });
        let o = c.verdict(&rec(0x10, 103, 10), 0);
        assert!(o.recv.is_some());
        c.sent(&Sent { flow: 5, psn: 102 });
        c.sent(&Sent { flow: 5, psn: 103 });
        assert!(c.verdict(&rec(0x10, 103, 10), 0).recv.is_none());
        assert_eq!((c.stats[stat::READ_GAP], c.stats[stat::OOS_DROPPED]), (2, 1));
        // A sequence NAK during the READ (request 103 lost) acknowledges no response: back to
        // snd_una = 102, not to the NAK's PSN.
        let mut nak = rec(0x11, 103, 0);
        nak.aeth_syndrome = 0x60;
        let o = c.verdict(&nak, 0);
        assert_eq!((o.recv, o.notify), (Some(Recv::Rewind(Rewind { flow: 5, psn: 102 })), Some((5, 2048))));
        assert_eq!(c.psns(5).map(|p| (p.1, p.2)), Some((102, 102)));
        assert!(!c.ctrl(&Ctrl { op: OP_READ, qpn: QPN ^ 0x400, epsn: 0, spsn: 0, mtu: 0, addr: 0 }));
    }

    /// Multi-packet READ (MTU 1024): the responder takes the READ's packet count of PSNs and
    /// hands the whole READ to read_split; a duplicate is answered whole without moving the
    /// expected PSN; too many packets is NAKed. The requester takes First / Middle / Last as
    /// the answers of their own PSNs, First and Middle only a whole MTU long.
    #[test]
    fn multi_packet_reads() {
        let mut c = RxCtx::new(4);
        c.pkt_shift = 10;
        assert!(c.ctrl(&Ctrl { op: OP_CREATE, qpn: QPN, epsn: 0xFF_FFFE, spsn: 100, mtu: 1024, addr: 0 }));
        let mut r = rec(0x0C, 0xFF_FFFE, 0);
        (r.reth_va, r.reth_len) = (0x7000, 2500);
        let whole = |o: &Out| match &o.recv {
            Some(Recv::ReadResp(x)) => (x.psn, x.aeth.msn, x.total, x.mtu_log, x.pos, x.len),
            x => panic!("no READ response: {x:?}"),
        };
        assert_eq!(whole(&c.verdict(&r, 0)), (0xFF_FFFE, 1, 2500, 10, ReadPos::Only, 0));
        assert_eq!(c.responder(5).unwrap().0, 1, "three PSNs across the wrap");
        r.psn = 0xFF_FFFF;
        (r.reth_va, r.reth_len) = (0x7400, 1476);
        assert_eq!(whole(&c.verdict(&r, 0)), (0xFF_FFFF, 1, 1476, 10, ReadPos::Only, 0), "a retry from its middle");
        assert_eq!((c.responder(5).unwrap().0, c.stats[stat::DUPLICATE]), (1, 1));
        // Past MAX_READ_LEN: NAKed, nothing consumed; the longest READ at MTU 1024 takes 2^20
        // PSNs; at MTU 256 it is MAX_READ_PACKETS packets; MTUs below 256 are not cut.
        r.psn = 1;
        r.reth_len = MAX_READ_LEN + 1;
        assert_eq!(ack_of(&c.verdict(&r, 0)).1, 0x61);
        r.reth_len = MAX_READ_LEN;
        assert_eq!(whole(&c.verdict(&r, 0)).2, MAX_READ_LEN);
        assert_eq!(c.responder(5).unwrap().0, 1 + (1 << 20));
        assert_eq!(read_packets(MAX_READ_LEN, 256), Some(MAX_READ_PACKETS));
        assert_eq!(read_packets(MAX_READ_LEN + 1, 256), None);
        assert_eq!(read_packets(1000, 128), None);
        assert_eq!(read_packets(0, 1024), Some(1));
        assert_eq!(read_packets(1025, 1000), None);
        assert_eq!((mtu_log(1024), mtu_log(1000)), (10, 15));

        assert!(c.ctrl(&Ctrl { op: OP_READ, qpn: QPN, epsn: 0, spsn: 0, mtu: 0, addr: 0x5_0000 }));
        for p in 100..103 {
            c.sent(&Sent { flow: 5, psn: p });
        }
        assert!(!c.verdict(&rec(0x0D, 100, 1000), 0).dma.write, "a short First");
        assert_eq!(c.stats[stat::BAD_RESPONSE], 1);
        let o = c.verdict(&rec(0x0D, 100, 1024), 0);
        assert_eq!((o.dma.addr, o.dma.len, o.notify), (0x5_0000, 1024, Some((5, 1024))));
        assert!(!c.verdict(&rec(0x0E, 101, 1023), 0).dma.write, "a short Middle");
        assert_eq!(c.verdict(&rec(0x0E, 101, 1024), 0).dma.addr, 0x5_0400);
        let o = c.verdict(&rec(0x0F, 102, 452), 0);
        assert_eq!((o.dma.addr, o.dma.len, o.event.unwrap().seq), (0x5_0800, 452, 103));
        assert_eq!(c.stats[stat::BAD_RESPONSE], 2);
    }

    #[test]
    fn timeout_releases_what_is_in_flight_and_goes_back_to_snd_una() {
        let mut c = RxCtx::new(10);
        c.pkt_shift = 10;
        let tmo = |qpn| Ctrl { op: OP_TIMEOUT, qpn, epsn: 0, spsn: 0, mtu: 0, addr: 0 };
        assert_eq!(c.ctrl_at(&tmo(5), 0), (false, Out::default()), "no context");
        assert!(c.ctrl(&Ctrl { op: OP_CREATE, qpn: QPN, epsn: 0, spsn: 0xFF_FFFE, mtu: 1000, addr: 0 }));
        assert_eq!(c.ctrl_at(&tmo(5), 0), (true, Out::default()), "nothing in flight: nothing to do");
        for p in [0xFF_FFFE, 0xFF_FFFF, 0, 1] {
            c.sent(&Sent { flow: 5, psn: p });
        }
        // Any QPN with the flow's low bits names it.
        let (ok, o) = c.ctrl_at(&tmo(0x0C05), 77);
        assert!(ok);
        assert_eq!(o.recv, Some(Recv::Rewind(Rewind { flow: 5, psn: 0xFF_FFFE })));
        assert_eq!(o.notify, Some((5, 4 << 10)));
        let e = o.event.unwrap();
        assert_eq!((e.kind, e.seq, e.snd_nxt, e.time, e.acked, e.nhop), (EV_LOSS, 0xFF_FFFE, 0xFF_FFFE, 77, 0, 0));
        assert_eq!(c.psns(5).map(|p| (p.1, p.2)), Some((0xFF_FFFE, 0xFF_FFFE)));
        assert_eq!(c.stats[stat::TIMEOUTS], 1);
        assert_eq!(c.ctrl_at(&tmo(5), 0).1, Out::default(), "released: nothing left in flight");
        assert!(!c.ctrl(&Ctrl { op: 5, ..tmo(5) }));
        assert_eq!((c.stats[stat::TIMEOUTS], c.stats[stat::CTRL_BAD]), (1, 2));
    }

    #[test]
    fn acks_of_one_flow_with_the_same_ece_merge() {
        let a = CcEvent { flow: 7, kind: EV_ACK, seq: 10, time: 5, acked: 3, nhop: 1, hops: [1, 0, 0, 0, 0], ..CcEvent::default() };
        let b = CcEvent { seq: 12, time: 9, acked: 2, hops: [2, 0, 0, 0, 0], ..a };
        assert_eq!(a.merge(&b), Some(CcEvent { acked: 5, ..b }));
        assert_eq!(a.merge(&CcEvent { acked: u16::MAX, ..b }).unwrap().acked, u16::MAX);
        assert_eq!(a.merge(&CcEvent { flow: 8, ..b }), None);
        assert_eq!(a.merge(&CcEvent { ece: true, ..b }), None);
        assert_eq!(a.merge(&CcEvent { kind: EV_LOSS, ..b }), None);
        assert_eq!(CcEvent { kind: EV_CNP, ..a }.merge(&b), None);
        assert_eq!(a.merge(&CcEvent { feedback: true, ..b }), None);
    }
}
