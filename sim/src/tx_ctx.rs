//! Golden model of the Tx pipe's flow context (hdl/src/tx/tx_ctx.rs, docs/modules/tx_ctx.md):
//! control words create and remove flows and post one RDMA WRITE message per flow; each
//! PktSend(flow) gives the flow's next WRITE packet as a `TxDesc` for tx_pipe plus the DMA read
//! of its payload.
//!
//! The packet follows the NIC model's requester (`nic_model/qp/requester.rs`, `on_grant`,
//! `Op::Write`): packet index k, payload min(MTU, len - k x MTU) at local address + k x MTU,
//! opcode from (k = 0, last), RETH {remote address, R_Key, message length} on First / Only,
//! AckReq set, PSN = next PSN (24-bit wrap); header fields from the flow's template as
//! `QueuePair::packet` takes them from the QP's configuration. Added here: ECN per packet (LDCP
//! fast start) and the telemetry header on data frames when the flow asks for it.
//! Go-back-N (`TxCtx::rewind`, the requester's `rewind` on a PSN sequence error NAK): the
//! flow sends again from the NAK's PSN if it lies in the posted message's sent range.
//! RDMA READ (`Ctrl::Read`): each PktSend sends one READ request for the next MTU of the
//! message (RETH {remote address + k x MTU, R_Key, min(MTU, rest)}, no payload), so every
//! request asks for exactly one READ Response Only and one PktSend (one packet of flow_sched's
//! window) pays for one response packet. A READ request the Rx pipe received is answered with a
//! READ Response Only (`ReadResp`, PktRecv kind 4) whose payload is read from host memory.
//! HPCC++ probes (draft 004 sections 6.2 and 7.1, docs/packet-formats.md): a probe request from
//! the CC module gives a probe frame (0xC0) for a flow in probe mode, and a probe received by the
//! Rx pipe gives a telemetry response (0xC1) echoing its hops; neither consumes a PSN.

pub mod cycle;

use crate::layout::{DMA_RD, PKT_RECV, READ_RESP, TX_CREATE, TX_POST};
use crate::packet::*;
use crate::tx_pipe::TxDesc;
use crate::flow_sched::Sleep;

/// Control word length in bytes (`s_axis_ctrl_tdata` is 512 bits).
pub const CTRL_LEN: usize = 64;
/// Descriptor bytes 0..TEMPLATE_LEN come from the flow's template (`TX_CREATE`'s `template`).
pub const TEMPLATE_LEN: usize = TX_CREATE.template.width / 8;
/// Largest MTU: the largest value of `TX_CREATE`'s 14-bit `mtu` (tx_pipe uses 14 of its 16-bit
/// payload length).
pub const MAX_MTU: u16 = (1 << TX_CREATE.mtu.width) - 1;

/// Control word ops (`layout::TX_CREATE.op`): create a flow; 0 is bad.
pub const OP_CREATE: u8 = 1;
/// Remove a flow.
pub const OP_REMOVE: u8 = 2;
/// Post a message (`layout::TX_POST`).
pub const OP_POST: u8 = 3;

/// PktRecv kinds (`layout::PKT_RECV.kind`; 6 and 7 are dropped): an ACK / NAK to send.
pub const RECV_ACK: u8 = 0;
/// PktRecv kind: go-back-N (a NAK received for the flow's requests).
pub const RECV_REWIND: u8 = 1;
/// PktRecv kind: a telemetry response to send.
pub const RECV_RESPONSE: u8 = 2;
/// PktRecv kind: a probe to send (from the CC module).
pub const RECV_PROBE: u8 = 3;
/// PktRecv kind: a READ response to send.
pub const RECV_READ: u8 = 4;
/// PktRecv kind: a CNP to send (from nic_datapath).
pub const RECV_CNP: u8 = 5;

/// What `create` writes: the flow's header template and its per-flow settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowConfig {
    /// MACs, IPs, DSCP, TTL, identification, DF, UDP source port, BTH SE/M, P_Key, FECN/BECN,
    /// DestQP; its opcode, PSN, AckReq, ECN, RETH, AETH, telemetry and length are not used.
    pub header: TxDesc,
    /// Payload bytes per packet, 1..16383 (0 is rejected).
    pub mtu: u16,
    /// Telemetry header (collecting) on every data frame.
    pub telemetry: bool,
    /// Probe mode: probe requests for the flow give probe frames (opcode 0xC0); without it they
    /// are dropped, so a misconfigured CC module cannot inject probes into a flow.
    pub probe: bool,
    /// LDCP fast start: the first `fast_start` packets after create are sent Not-ECT except
    /// the last of them (0 or 1: every packet ECT(0)).
    pub fast_start: u16,
    /// Not used by tx_ctx: the create word's `cnp` bit, nic_datapath's CNP enable for the
    /// flow (DCQCN's notification point answers its CE-marked requests with CNPs).
    pub cnp: bool,
}

/// One posted RDMA WRITE message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Post {
    pub local_addr: u64,
    pub remote_addr: u64,
    pub rkey: u32,
    pub len: u32,
    pub first_psn: u32,
}

/// A control word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ctrl {
    /// Op 0: not an operation (bad input).
    Nop { flow: u16 },
    /// Op 1: (re)create the flow: template and settings written, no message, packet count 0.
    Create { flow: u16, cfg: FlowConfig },
    /// Op 2: the flow no longer exists.
    Remove { flow: u16 },
    /// Op 3: the flow's message (replaces one in progress; keeps the packet count).
    Post { flow: u16, post: Post },
    /// Op 3 with the READ bit (bit 280): the flow's message is an RDMA READ of `len` bytes at
    /// the remote address (the local address is where rx_ctx writes the responses).
    Read { flow: u16, post: Post },
}

impl Ctrl {
    /// The 64 bytes of `s_axis_ctrl_tdata` (byte i at [8i+7:8i]; `layout::TX_CREATE` and
    /// `TX_POST`, which share `op` and `flow`).
    pub fn to_bytes(&self) -> [u8; CTRL_LEN] {
        let mut w = [0u8; CTRL_LEN];
        let (op, flow) = match self {
            Ctrl::Nop { flow } => (0, flow),
            Ctrl::Create { flow, .. } => (OP_CREATE, flow),
            Ctrl::Remove { flow } => (OP_REMOVE, flow),
            Ctrl::Post { flow, .. } | Ctrl::Read { flow, .. } => (OP_POST, flow),
        };
        TX_CREATE.op.set_le(&mut w, op as u64);
        TX_CREATE.flow.set_le(&mut w, *flow as u64);
        match self {
            Ctrl::Create { cfg, .. } => {
                w[TX_CREATE.template.bytes()].copy_from_slice(&cfg.header.to_bytes()[..TEMPLATE_LEN]);
                TX_CREATE.mtu.set_le(&mut w, cfg.mtu as u64);
                TX_CREATE.telemetry.set_le(&mut w, cfg.telemetry as u64);
                TX_CREATE.probe.set_le(&mut w, cfg.probe as u64);
                TX_CREATE.fast_start.set_le(&mut w, cfg.fast_start as u64);
                TX_CREATE.cnp.set_le(&mut w, cfg.cnp as u64);
            }
            Ctrl::Post { post, .. } | Ctrl::Read { post, .. } => {
                w[TX_POST.reth.bytes()].copy_from_slice(&reth(post).build());
                TX_POST.local.set_le(&mut w, post.local_addr);
                TX_POST.first_psn.set_le(&mut w, post.first_psn as u64);
                TX_POST.read.set_le(&mut w, matches!(self, Ctrl::Read { .. }) as u64);
            }
            _ => {}
        }
        w
    }
}

impl Ctrl {
    /// The control word `w` holds (`to_bytes`'s inverse for every word it writes; a create's
    /// template as `TxDesc::of_template` reads it).
    pub fn of(w: &[u8; CTRL_LEN]) -> Ctrl {
        let flow = TX_CREATE.flow.get_le(w) as u16;
        match TX_CREATE.op.get_le(w) as u8 {
            OP_CREATE => Ctrl::Create {
                flow,
                cfg: FlowConfig {
                    header: TxDesc::of_template(&w[TX_CREATE.template.bytes()]),
                    mtu: TX_CREATE.mtu.get_le(w) as u16,
                    telemetry: TX_CREATE.telemetry.get_le(w) == 1,
                    probe: TX_CREATE.probe.get_le(w) == 1,
                    fast_start: TX_CREATE.fast_start.get_le(w) as u16,
                    cnp: TX_CREATE.cnp.get_le(w) == 1,
                },
            },
            OP_REMOVE => Ctrl::Remove { flow },
            OP_POST => {
                let r = Reth::parse(&w[TX_POST.reth.bytes()]);
                let post = Post {
                    local_addr: TX_POST.local.get_le(w),
                    remote_addr: r.va,
                    rkey: r.rkey,
                    len: r.dma_len,
                    first_psn: TX_POST.first_psn.get_le(w) as u32,
                };
                if TX_POST.read.get_le(w) == 1 {
                    Ctrl::Read { flow, post }
                } else {
                    Ctrl::Post { flow, post }
                }
            }
            _ => Ctrl::Nop { flow },
        }
    }
}

fn reth(p: &Post) -> Reth {
    Reth { va: p.remote_addr, rkey: p.rkey, dma_len: p.len }
}

/// A DMA read request on `m_axis_dma_rd`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaRead {
    pub addr: u64,
    /// 1..16383 bytes.
    pub len: u16,
    pub flow: u16,
}

impl DmaRead {
    /// The 16 bytes of `m_axis_dma_rd_tdata` (`layout::DMA_RD`).
    pub fn to_bytes(&self) -> [u8; 16] {
        let mut b = [0u8; 16];
        DMA_RD.addr.set_le(&mut b, self.addr);
        DMA_RD.len.set_le(&mut b, self.len as u64);
        DMA_RD.flow.set_le(&mut b, self.flow as u64);
        b
    }

    /// The request in `m_axis_dma_rd_tdata`'s bytes.
    pub fn of(b: &[u8]) -> DmaRead {
        DmaRead {
            addr: DMA_RD.addr.get_le(b),
            len: DMA_RD.len.get_le(b) as u16,
            flow: DMA_RD.flow.get_le(b) as u16,
        }
    }
}

/// A PktRecv from the Rx pipe: answer a received request of `flow` with an ACK or NAK.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PktRecv {
    pub flow: u16,
    pub psn: u32,
    /// ACK (credits), RNR NAK or NAK code, and the MSN.
    pub aeth: Aeth,
    /// Hops of the request's telemetry header, echoed (None: no telemetry header).
    pub echo: Option<Vec<IntHop>>,
    /// ECN-Echo: the request arrived CE-marked, so the ACK / NAK sets BTH BECN.
    pub ece: bool,
    /// Rx-HPCC feedback W (UQ24.8 bytes) the ACK carries back to the sender (with `echo` =
    /// Some of no hops; nic_datapath's gate attaches it).
    pub feedback: Option<u32>,
}

impl PktRecv {
    /// The 64 bytes of `s_axis_pktrecv_tdata` (`layout::PKT_RECV`, kind 0; with feedback, hop
    /// slot 0 carries W as the telemetry header does).
    pub fn to_bytes(&self) -> [u8; CTRL_LEN] {
        let mut w = [0u8; CTRL_LEN];
        PKT_RECV.flow.set_le(&mut w, self.flow as u64);
        put_psn(&mut w, self.psn);
        w[PKT_RECV.aeth.bytes()].copy_from_slice(&self.aeth.build());
        PKT_RECV.ece.set_le(&mut w, self.ece as u64);
        PKT_RECV.feedback.set_le(&mut w, self.feedback.is_some() as u64);
        if let Some(t) = self.telemetry() {
            PKT_RECV.echo.set_le(&mut w, 1);
            let t = t.build();
            PKT_RECV.nhop.set_le(&mut w, t[1] as u64);
            w[PKT_RECV.hops.bytes()].copy_from_slice(&t[TELEMETRY_FIXED_LEN..]);
        }
        w
    }

    /// The echo telemetry header the ACK carries (None: no telemetry header).
    pub fn telemetry(&self) -> Option<Telemetry> {
        self.echo.as_ref().map(|hops| Telemetry { echo: true, hops: hops.clone(), feedback: self.feedback })
    }
}

/// Go-back-N (a requester-side event on the PktRecv input, bit 17 set): the Rx pipe received a
/// NAK (PSN sequence error) for `flow`'s requests; the flow sends again from `psn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rewind {
    pub flow: u16,
    pub psn: u32,
}

impl Rewind {
    /// The 64 bytes of `s_axis_pktrecv_tdata`: flow, kind 1, PSN (`layout::PKT_RECV`); the
    /// rest 0 (ignored).
    pub fn to_bytes(&self) -> [u8; CTRL_LEN] {
        let mut w = kind_word(self.flow, RECV_REWIND);
        put_psn(&mut w, self.psn);
        w
    }
}

/// A probe the Rx pipe received for `flow` (kind 2 on the PktRecv input): answer with a
/// telemetry response carrying the probe's PSN and its hops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub flow: u16,
    pub psn: u32,
    pub hops: Vec<IntHop>,
}

impl Response {
    /// The 64 bytes of `s_axis_pktrecv_tdata`: as an ACK's with the echo flag set, kind 2 and
    /// the AETH bytes 0.
    pub fn to_bytes(&self) -> [u8; CTRL_LEN] {
        let echo = Some(self.hops.clone());
        let aeth = Aeth { syndrome: Syndrome::Ack { credits: 0 }, msn: 0 };
        let mut w = PktRecv { flow: self.flow, psn: self.psn, aeth, echo, ece: false, feedback: None }.to_bytes();
        PKT_RECV.kind.set_le(&mut w, RECV_RESPONSE as u64);
        w[PKT_RECV.aeth.bytes()].fill(0);
        w
    }
}

/// Which packet of a READ's responses a kind-4 PktRecv asks for (`pos`), and so its
/// opcode: Only 0x10, First 0x0D, Middle 0x0E (no AETH), Last 0x0F.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadPos {
    #[default]
    Only = 0,
    First = 1,
    Middle = 2,
    Last = 3,
}

impl ReadPos {
    /// From the low two bits of `b` (`layout::READ_RESP`'s `pos`).
    pub fn from_bits(b: u8) -> ReadPos {
        match b & 3 {
            0 => ReadPos::Only,
            1 => ReadPos::First,
            2 => ReadPos::Middle,
            _ => ReadPos::Last,
        }
    }

    /// The response opcode.
    pub fn opcode(self) -> Opcode {
        match self {
            ReadPos::Only => Opcode::RdmaReadResponseOnly,
            ReadPos::First => Opcode::RdmaReadResponseFirst,
            ReadPos::Middle => Opcode::RdmaReadResponseMiddle,
            ReadPos::Last => Opcode::RdmaReadResponseLast,
        }
    }
}

/// A READ response to send for `flow` (kind 4). Two forms share the layout:
/// - rx_ctx's, a whole READ to answer: `total` bytes at `va` from `psn` on, in packets of
///   2^`mtu_log` bytes (15: the QP's MTU is not a power of two, so `total` fits one packet);
///   `pos` Only, `len` 0. `sim::read_split` (nic_datapath) makes it one PktRecv per packet.
/// - read_split's, one packet, which tx_ctx sends: `pos`, this packet's PSN, `len` bytes (14
///   bits used) at `va`; `total` and `mtu_log` as they came (ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadResp {
    pub flow: u16,
    pub psn: u32,
    pub aeth: Aeth,
    pub va: u64,
    pub len: u16,
    pub pos: ReadPos,
    pub total: u32,
    pub mtu_log: u8,
}

impl ReadResp {
    /// The 64 bytes of `s_axis_pktrecv_tdata` (`layout::READ_RESP`).
    pub fn to_bytes(&self) -> [u8; CTRL_LEN] {
        let mut w = kind_word(self.flow, RECV_READ);
        w[READ_RESP.aeth.bytes()].copy_from_slice(&self.aeth.build());
        READ_RESP.mtu_log.set_le(&mut w, self.mtu_log as u64);
        READ_RESP.total.set_le(&mut w, self.total as u64);
        ReadPacket { pos: self.pos, psn: self.psn, va: self.va, len: self.len }.put(&mut w);
        w
    }

    /// The whole READ's length and MTU log2 of a kind-4 word.
    pub fn whole_of(w: &[u8; CTRL_LEN]) -> (u32, u8) {
        (READ_RESP.total.get_le(w) as u32, READ_RESP.mtu_log.get_le(w) as u8)
    }
}

/// The fields of a kind-4 word that read_split writes for each response packet (the rest of
/// the word stays as rx_ctx made it): position, PSN, host address, length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadPacket {
    pub pos: ReadPos,
    pub psn: u32,
    pub va: u64,
    pub len: u16,
}

impl ReadPacket {
    /// Read from a kind-4 word (`layout::READ_RESP`).
    pub fn of(w: &[u8; CTRL_LEN]) -> ReadPacket {
        ReadPacket {
            pos: ReadPos::from_bits(READ_RESP.pos.get_le(w) as u8),
            psn: psn_of(w),
            va: READ_RESP.va.get_le(w),
            len: READ_RESP.len.get_le(w) as u16,
        }
    }

    /// Written into `w`, every other bit kept.
    pub fn put(&self, w: &mut [u8; CTRL_LEN]) {
        READ_RESP.pos.set_le(w, self.pos as u64);
        put_psn(w, self.psn);
        READ_RESP.len.set_le(w, self.len as u64);
        READ_RESP.va.set_le(w, self.va);
    }
}

/// A PktRecv word of `kind` for `flow`, every other bit 0.
fn kind_word(flow: u16, kind: u8) -> [u8; CTRL_LEN] {
    let mut w = [0u8; CTRL_LEN];
    PKT_RECV.flow.set_le(&mut w, flow as u64);
    PKT_RECV.kind.set_le(&mut w, kind as u64);
    w
}

/// A PktRecv word's PSN field holds the PSN big-endian, as the descriptor does.
fn put_psn(w: &mut [u8; CTRL_LEN], psn: u32) {
    w[PKT_RECV.psn.bytes()].copy_from_slice(&psn.to_be_bytes()[1..]);
}

/// The PSN of a PktRecv word (`put_psn`'s inverse).
pub fn psn_of(w: &[u8; CTRL_LEN]) -> u32 {
    let b = &w[PKT_RECV.psn.bytes()];
    u32::from_be_bytes([0, b[0], b[1], b[2]])
}

/// The kind of a PktRecv word (`layout::PKT_RECV`).
pub fn kind_of(w: &[u8; CTRL_LEN]) -> u8 {
    PKT_RECV.kind.get_le(w) as u8
}

/// One item on the PktRecv input, by its kind (`layout::PKT_RECV`): 0 an ACK / NAK to send, 1 a
/// go-back-N, 2 a telemetry response to send, 3 a probe request (from the CC module), 4 a READ
/// response to send, 5 a CNP to send (DCQCN's notification point, from nic_datapath); 6 and 7
/// are dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recv {
    Ack(PktRecv),
    Rewind(Rewind),
    Response(Response),
    /// Send a probe for this flow: flow in bytes 0-1, kind 3, the rest 0 (ignored).
    Probe(u16),
    ReadResp(ReadResp),
    /// Send a CNP to this flow's peer: flow in bytes 0-1, kind 5, the rest 0 (ignored).
    Cnp(u16),
}

impl Recv {
    /// The 64 bytes of `s_axis_pktrecv_tdata`.
    pub fn to_bytes(&self) -> [u8; CTRL_LEN] {
        match self {
            Recv::Ack(r) => r.to_bytes(),
            Recv::Rewind(r) => r.to_bytes(),
            Recv::Response(r) => r.to_bytes(),
            Recv::ReadResp(r) => r.to_bytes(),
            Recv::Probe(flow) => kind_word(*flow, RECV_PROBE),
            Recv::Cnp(flow) => kind_word(*flow, RECV_CNP),
        }
    }

    /// The item a 64-byte word holds (`to_bytes`'s inverse); None for kinds 6 and 7 (tx_ctx
    /// drops them) and for a word whose AETH syndrome or hop records no packet can carry. A
    /// word with `feedback` set is read as an echo without hops carrying W, as the gate makes it.
    pub fn of(w: &[u8; CTRL_LEN]) -> Option<Recv> {
        let flow = PKT_RECV.flow.get_le(w) as u16;
        let psn = psn_of(w);
        let aeth = || Aeth::parse(&w[PKT_RECV.aeth.bytes()]).ok();
        let hops = || -> Option<Vec<IntHop>> {
            let slots = &w[PKT_RECV.hops.bytes()];
            let n = (PKT_RECV.nhop.get_le(w) as usize).min(MAX_HOPS);
            slots.chunks(HOP_LEN).take(n).map(|h| IntHop::from_word(u64::from_be_bytes(h.try_into().unwrap())).ok()).collect()
        };
        Some(match kind_of(w) {
            RECV_ACK => {
                let fb = PKT_RECV.feedback.get_le(w) == 1;
                let at = PKT_RECV.hops.bytes().start + FEEDBACK_AT - TELEMETRY_FIXED_LEN;
                let feedback = fb.then(|| u32::from_be_bytes(w[at..at + 4].try_into().unwrap()));
                let echo = match (PKT_RECV.echo.get_le(w) == 1, fb) {
                    (false, _) => None,
                    (true, true) => Some(vec![]),
                    (true, false) => Some(hops()?),
                };
                Recv::Ack(PktRecv { flow, psn, aeth: aeth()?, echo, ece: PKT_RECV.ece.get_le(w) == 1, feedback })
            }
            RECV_REWIND => Recv::Rewind(Rewind { flow, psn }),
            RECV_RESPONSE => Recv::Response(Response { flow, psn, hops: hops()? }),
            RECV_PROBE => Recv::Probe(flow),
            RECV_READ => {
                let (total, mtu_log) = ReadResp::whole_of(w);
                let p = ReadPacket::of(w);
                Recv::ReadResp(ReadResp { flow, psn, aeth: aeth()?, va: p.va, len: p.len, pos: p.pos, total, mtu_log })
            }
            RECV_CNP => Recv::Cnp(flow),
            _ => return None,
        })
    }

    /// The flow the item is for.
    pub fn flow(&self) -> u16 {
        match self {
            Recv::Ack(r) => r.flow,
            Recv::Rewind(r) => r.flow,
            Recv::Response(r) => r.flow,
            Recv::ReadResp(r) => r.flow,
            Recv::Probe(flow) => *flow,
            Recv::Cnp(flow) => *flow,
        }
    }
}

#[derive(Clone, Debug)]
struct Flow {
    cfg: FlowConfig,
    msg: Option<Message>,
    /// Packets sent since create (saturating at 0xFFFF).
    sent: u16,
}

#[derive(Clone, Copy, Debug)]
struct Message {
    post: Post,
    /// Payload bytes already sent (k x MTU).
    offset: u32,
    next_psn: u32,
    /// Packets left to send (false after the last one until a go-back-N or a post).
    pending: bool,
    /// An RDMA READ: requests instead of WRITE packets.
    read: bool,
}

/// The flow context of 2^F flows.
pub struct TxCtx {
    flows: Vec<Option<Flow>>,
    /// PktSends dropped (no such flow, no context, nothing to send).
    pub drops: u32,
    /// Control words ignored.
    pub ctrl_bad: u32,
    /// ACK / NAK, telemetry response and probe items dropped (no such flow, no context; a probe
    /// for a flow not in probe mode).
    pub recv_drops: u32,
    /// Go-back-N events ignored (no such flow, no context, PSN outside the sent range).
    pub nak_ignored: u32,
    /// Reports for flow_sched (`m_axis_sleep`), oldest first; the caller drains them: an idle
    /// for every PktSend that sent nothing, a wake for every post and every go-back-N that
    /// rewound.
    pub sleeps: Vec<Sleep>,
}

impl TxCtx {
    /// 2^`flow_bits` flows, none created.
    pub fn new(flow_bits: usize) -> Self {
        TxCtx { flows: vec![None; 1 << flow_bits], drops: 0, ctrl_bad: 0, recv_drops: 0, nak_ignored: 0, sleeps: vec![] }
    }

    /// The MTU of a created flow (None: no context).
    pub fn mtu(&self, flow: u16) -> Option<u16> {
        self.flows.get(flow as usize)?.as_ref().map(|f| f.cfg.mtu)
    }

    /// Whether a PktSend for `flow` would send a packet.
    pub fn pending(&self, flow: u16) -> bool {
        matches!(self.flows.get(flow as usize), Some(Some(Flow { msg: Some(Message { pending: true, .. }), .. })))
    }

    /// The posted message's first PSN and the number of its packets sent so far (the range a
    /// go-back-N may rewind into); None without context or message.
    pub fn sent_range(&self, flow: u16) -> Option<(u32, u32)> {
        let m = self.flows.get(flow as usize)?.as_ref()?.msg.as_ref()?;
        let first = m.post.first_psn & 0xFF_FFFF;
        Some((first, m.next_psn.wrapping_sub(first) & 0xFF_FFFF))
    }

    /// Applies a control word; false if it was ignored (bad input).
    pub fn ctrl(&mut self, c: &Ctrl) -> bool {
        let ok = self.apply(c);
        if !ok {
            self.ctrl_bad = self.ctrl_bad.wrapping_add(1);
        }
        if let (true, Ctrl::Post { flow, .. } | Ctrl::Read { flow, .. }) = (ok, c) {
            self.sleeps.push(Sleep { flow: *flow, wake: true });
        }
        ok
    }

    fn apply(&mut self, c: &Ctrl) -> bool {
        match c {
            Ctrl::Nop { .. } => false,
            Ctrl::Create { flow, cfg } => {
                let Some(slot) = self.flows.get_mut(*flow as usize) else { return false };
                if cfg.mtu & MAX_MTU == 0 {
                    return false;
                }
                let cfg = FlowConfig { mtu: cfg.mtu & MAX_MTU, ..cfg.clone() };
                *slot = Some(Flow { cfg, msg: None, sent: 0 });
                true
            }
            Ctrl::Remove { flow } => match self.flows.get_mut(*flow as usize) {
                Some(slot @ Some(_)) => {
                    *slot = None;
                    true
                }
                _ => false,
            },
            Ctrl::Post { flow, post } | Ctrl::Read { flow, post } => match self.flows.get_mut(*flow as usize) {
                Some(Some(f)) => {
                    let next_psn = post.first_psn & 0xFF_FFFF;
                    let read = matches!(c, Ctrl::Read { .. });
                    f.msg = Some(Message { post: *post, offset: 0, next_psn, pending: true, read });
                    true
                }
                _ => false,
            },
        }
    }

    /// PktSend(flow): the flow's next packet's descriptor and, if it has payload, its DMA
    /// read; None (counted in `drops`) if the flow has nothing to send.
    pub fn pkt_send(&mut self, flow: u16) -> Option<(TxDesc, Option<DmaRead>)> {
        let out = self.next_packet(flow);
        if out.is_none() {
            self.drops = self.drops.wrapping_add(1);
            self.sleeps.push(Sleep { flow, wake: false });
        }
        out
    }

    /// PktRecv: the ACK / NAK descriptor (opcode 0x11, the flow's header, ECT(0), no AckReq,
    /// the given PSN and AETH, the telemetry echo); None (counted in `recv_drops`) for a flow
    /// without context. Data state is untouched.
    pub fn pkt_recv(&mut self, r: &PktRecv) -> Option<TxDesc> {
        let Some(Some(f)) = self.flows.get(r.flow as usize) else {
            self.recv_drops = self.recv_drops.wrapping_add(1);
            return None;
        };
        let h = &f.cfg.header;
        Some(TxDesc {
            ip: Ipv4 { ecn: Ecn::Ect0, ..h.ip },
            opcode: Opcode::Acknowledge,
            // BECN is ECN-Echo here: set when the request arrived CE-marked (the LDCP receiver),
            // never copied from the template (whose BECN is for data frames).
            bth: Bth { ack_req: false, psn: r.psn & 0xFF_FFFF, becn: r.ece, ..h.bth },
            aeth: r.aeth,
            telemetry: r.telemetry(),
            payload_len: 0,
            ..h.clone()
        })
    }

    /// A telemetry response (opcode 0xC1): as an ACK (the flow's header, ECT(0), no AckReq) with
    /// the probe's PSN and its hops echoed, always T = 1; None (counted in `recv_drops`) for a
    /// flow without context.
    pub fn response(&mut self, r: &Response) -> Option<TxDesc> {
        let ack = PktRecv {
            flow: r.flow,
            psn: r.psn,
            aeth: Aeth { syndrome: Syndrome::Ack { credits: 0 }, msn: 0 },
            echo: Some(r.hops.clone()),
            ece: false,
            feedback: None,
        };
        let d = self.pkt_recv(&ack)?;
        Some(TxDesc { opcode: Opcode::HpccTelemetryResponse, ..d })
    }

    /// A probe request: the probe frame (opcode 0xC0, the flow's header, ECT(0), no AckReq, PSN
    /// = the flow's next PSN, 0 before a post, which the probe does not consume, a collecting
    /// telemetry header, no payload); None (counted in `recv_drops`) for a flow without context
    /// or not in probe mode. Data state is untouched (a probe is not a packet for fast start).
    pub fn probe(&mut self, flow: u16) -> Option<TxDesc> {
        let f = match self.flows.get(flow as usize) {
            Some(Some(f)) if f.cfg.probe => f,
            _ => {
                self.recv_drops = self.recv_drops.wrapping_add(1);
                return None;
            }
        };
        let h = &f.cfg.header;
        let psn = f.msg.map_or(0, |m| m.next_psn);
        Some(TxDesc {
            ip: Ipv4 { ecn: Ecn::Ect0, ..h.ip },
            opcode: Opcode::HpccProbe,
            bth: Bth { ack_req: false, psn, becn: false, ..h.bth },
            telemetry: Some(Telemetry::collecting()),
            payload_len: 0,
            ..h.clone()
        })
    }

    /// A CNP (opcode 0x81, RoCEv2 Annex A17: docs/packet-formats.md) to the flow's peer: the
    /// flow's header (MACs, IPs, DSCP, DestQP: the QP being notified), ECT(0), BTH SE / M /
    /// pad / version 0, P_Key 0xFFFF, FECN 0, BECN 1, AckReq 0, PSN 0, no telemetry; None
    /// (counted in `recv_drops`) for a flow without context. Data state is untouched.
    pub fn cnp(&mut self, flow: u16) -> Option<TxDesc> {
        let Some(Some(f)) = self.flows.get(flow as usize) else {
            self.recv_drops = self.recv_drops.wrapping_add(1);
            return None;
        };
        let h = &f.cfg.header;
        let bth = Bth { solicited: false, mig_req: false, pkey: 0xFFFF, fecn: false, becn: true, ack_req: false, psn: 0, ..h.bth };
        Some(TxDesc {
            ip: Ipv4 { ecn: Ecn::Ect0, ..h.ip },
            opcode: Opcode::Cnp,
            bth,
            // The descriptor's RETH / AETH bytes are 0: tx_pipe sends the CNP's 16 reserved
            // bytes as 0 whatever they hold.
            reth: Reth { va: 0, rkey: 0, dma_len: 0 },
            aeth: Aeth { syndrome: Syndrome::Ack { credits: 0 }, msn: 0 },
            telemetry: None,
            payload_len: 0,
            ..h.clone()
        })
    }

    /// A READ response (opcode by `pos`: Only 0x10, First 0x0D, Middle 0x0E, Last 0x0F): as an
    /// ACK (the flow's header, ECT(0), no AckReq) with the PSN and AETH given (tx_pipe leaves
    /// the AETH out of a Middle), no telemetry, payload `len & 0x3FFF`
    /// bytes read from `va` (a DMA read if nonzero); None (counted in `recv_drops`) for a flow
    /// without context.
    pub fn read_response(&mut self, r: &ReadResp) -> Option<(TxDesc, Option<DmaRead>)> {
        let ack = PktRecv { flow: r.flow, psn: r.psn, aeth: r.aeth, echo: None, ece: false, feedback: None };
        let d = self.pkt_recv(&ack)?;
        let len = r.len & MAX_MTU;
        let desc = TxDesc { opcode: r.pos.opcode(), payload_len: len, ..d };
        Some((desc, (len > 0).then_some(DmaRead { addr: r.va, len, flow: r.flow })))
    }

    /// A PktRecv that asks for a frame (every kind but go-back-N, which is `rewind`): its
    /// descriptor and DMA read, as the one `s_axis_pktrecv` port takes them.
    pub fn recv(&mut self, r: &Recv) -> Option<(TxDesc, Option<DmaRead>)> {
        match r {
            Recv::Ack(a) => self.pkt_recv(a).map(|d| (d, None)),
            Recv::Response(t) => self.response(t).map(|d| (d, None)),
            Recv::Probe(flow) => self.probe(*flow).map(|d| (d, None)),
            Recv::ReadResp(x) => self.read_response(x),
            Recv::Cnp(flow) => self.cnp(*flow).map(|d| (d, None)),
            Recv::Rewind(_) => panic!("go-back-N gives no frame: TxCtx::rewind"),
        }
    }

    /// Go-back-N (the requester's `rewind` on a PSN sequence error NAK): if `psn` lies in the
    /// posted message's sent range, k = psn - first PSN < packets sent (24-bit serial
    /// arithmetic), the flow's next PSN becomes `psn`, its byte offset k x MTU, and it has
    /// something to send again (also after its last packet). Otherwise ignored and counted in
    /// `nak_ignored` (as are go-back-Ns for flows without context or message). True if rewound.
    pub fn rewind(&mut self, r: &Rewind) -> bool {
        let done = self.try_rewind(r);
        if done {
            self.sleeps.push(Sleep { flow: r.flow, wake: true });
        } else {
            self.nak_ignored = self.nak_ignored.wrapping_add(1);
        }
        done
    }

    fn try_rewind(&mut self, r: &Rewind) -> bool {
        let Some(Some(f)) = self.flows.get_mut(r.flow as usize) else { return false };
        let mtu = f.cfg.mtu as u32;
        let Some(m) = f.msg.as_mut() else { return false };
        let psn = r.psn & 0xFF_FFFF;
        let first = m.post.first_psn & 0xFF_FFFF;
        let k = psn.wrapping_sub(first) & 0xFF_FFFF;
        let sent = m.next_psn.wrapping_sub(first) & 0xFF_FFFF;
        if k >= sent {
            return false;
        }
        m.offset = k.wrapping_mul(mtu);
        m.next_psn = psn;
        m.pending = true;
        true
    }

    fn next_packet(&mut self, flow: u16) -> Option<(TxDesc, Option<DmaRead>)> {
        let f = self.flows.get_mut(flow as usize)?.as_mut()?;
        let m = f.msg.as_mut().filter(|m| m.pending)?;
        let mtu = f.cfg.mtu as u32;
        let rest = m.post.len.wrapping_sub(m.offset);
        let (first, last) = (m.offset == 0, rest <= mtu);
        let n = rest.min(mtu);
        let opcode = match (m.read, first, last) {
            (true, _, _) => Opcode::RdmaReadRequest,
            (false, true, true) => Opcode::RdmaWriteOnly,
            (false, true, false) => Opcode::RdmaWriteFirst,
            (false, false, true) => Opcode::RdmaWriteLast,
            (false, false, false) => Opcode::RdmaWriteMiddle,
        };
        // A READ request asks for this packet's bytes: RETH at the remote address + offset.
        let reth = match m.read {
            true => Reth { va: m.post.remote_addr.wrapping_add(m.offset as u64), rkey: m.post.rkey, dma_len: n },
            false => reth(&m.post),
        };
        let fast = (f.sent as u32) + 1 < f.cfg.fast_start as u32;
        let h = &f.cfg.header;
        let desc = TxDesc {
            ip: Ipv4 { ecn: if fast { Ecn::NotEct } else { Ecn::Ect0 }, ..h.ip },
            opcode,
            bth: Bth { ack_req: true, psn: m.next_psn, ..h.bth },
            reth,
            telemetry: f.cfg.telemetry.then(Telemetry::collecting),
            payload_len: if m.read { 0 } else { n as u16 },
            ..h.clone()
        };
        let dma = (n > 0 && !m.read).then(|| DmaRead {
            addr: m.post.local_addr.wrapping_add(m.offset as u64),
            len: n as u16,
            flow,
        });
        m.offset = m.offset.wrapping_add(n);
        m.next_psn = (m.next_psn + 1) & 0xFF_FFFF;
        f.sent = f.sent.saturating_add(1);
        if last {
            m.pending = false;
        }
        Some((desc, dma))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> TxDesc {
        let (d, _) = TxDesc::from_packet(&RocePacket {
            eth: Ethernet { dst: [2, 0, 0, 0, 0, 1], src: [2, 0, 0, 0, 0, 2] },
            ip: Ipv4 {
                dscp: 26,
                ecn: Ecn::Ce,
                identification: 0,
                dont_fragment: true,
                ttl: 64,
                src: [10, 0, 0, 1],
                dst: [10, 0, 0, 2],
            },
            udp_src_port: 0xC001,
            bth: Bth {
                solicited: false,
                mig_req: true,
                pkey: 0xFFFF,
                fecn: false,
                becn: false,
                dest_qp: 0x12,
                ack_req: false,
                psn: 0,
            },
            body: Body::Ack { aeth: Aeth { syndrome: Syndrome::Ack { credits: 0 }, msn: 0 } },
            telemetry: None,
        });
        d
    }

    #[test]
    fn a_message_in_mtu_packets_with_fast_start_ecn() {
        let mut c = TxCtx::new(4);
        let cfg = FlowConfig { header: header(), mtu: 1024, telemetry: true, probe: false, fast_start: 3, cnp: false };
        assert!(c.ctrl(&Ctrl::Create { flow: 5, cfg }));
        let post = Post { local_addr: 0x1000, remote_addr: 0x9000, rkey: 7, len: 2500, first_psn: 0xFF_FFFF };
        assert!(c.ctrl(&Ctrl::Post { flow: 5, post }));
        let p: Vec<_> = (0..3).map(|_| c.pkt_send(5).unwrap()).collect();
        let ops: Vec<_> = p.iter().map(|(d, _)| d.opcode).collect();
        assert_eq!(ops, [Opcode::RdmaWriteFirst, Opcode::RdmaWriteMiddle, Opcode::RdmaWriteLast]);
        let psns: Vec<_> = p.iter().map(|(d, _)| d.bth.psn).collect();
        assert_eq!(psns, [0xFF_FFFF, 0, 1]);
        let ecn: Vec<_> = p.iter().map(|(d, _)| d.ip.ecn).collect();
        assert_eq!(ecn, [Ecn::NotEct, Ecn::NotEct, Ecn::Ect0]);
        let dma: Vec<_> = p.iter().map(|(_, r)| r.unwrap()).map(|r| (r.addr, r.len)).collect();
        assert_eq!(dma, [(0x1000, 1024), (0x1400, 1024), (0x1800, 452)]);
        assert!(p.iter().all(|(d, _)| d.bth.ack_req && d.telemetry.is_some()));
        assert!(c.pkt_send(5).is_none());
        assert!(c.pkt_send(6).is_none());
        assert_eq!(c.drops, 2);
    }

    #[test]
    fn go_back_n_resends_from_the_nak_psn() {
        let mut c = TxCtx::new(4);
        let cfg = FlowConfig { header: header(), mtu: 1000, telemetry: false, probe: false, fast_start: 0, cnp: false };
        c.ctrl(&Ctrl::Create { flow: 3, cfg });
        let post = Post { local_addr: 0x1000, remote_addr: 0x9000, rkey: 7, len: 4500, first_psn: 0xFF_FFFE };
        c.ctrl(&Ctrl::Post { flow: 3, post });
        assert!(!c.rewind(&Rewind { flow: 3, psn: 0xFF_FFFE }), "nothing sent yet");
        for _ in 0..5 {
            c.pkt_send(3).unwrap();
        }
        assert!(!c.pending(3));
        // PSN 0xFF_FFFE + 5 = 3 (not sent), 0xFF_FFFD (before the message): ignored.
        assert!(!c.rewind(&Rewind { flow: 3, psn: 3 }));
        assert!(!c.rewind(&Rewind { flow: 3, psn: 0xFF_FFFD }));
        assert!(!c.rewind(&Rewind { flow: 4, psn: 0 }));
        assert_eq!(c.nak_ignored, 4);
        assert!(c.rewind(&Rewind { flow: 3, psn: 0 }));
        let p: Vec<_> = std::iter::from_fn(|| c.pkt_send(3)).collect();
        let got: Vec<_> = p.iter().map(|(d, r)| (d.bth.psn, d.opcode, r.unwrap().addr, r.unwrap().len)).collect();
        assert_eq!(got, [
            (0, Opcode::RdmaWriteMiddle, 0x1000 + 2000, 1000),
            (1, Opcode::RdmaWriteMiddle, 0x1000 + 3000, 1000),
            (2, Opcode::RdmaWriteLast, 0x1000 + 4000, 500),
        ]);
        assert!(c.rewind(&Rewind { flow: 3, psn: 0xFF_FFFE }));
        let (d, r) = c.pkt_send(3).unwrap();
        assert_eq!((d.bth.psn, d.opcode, d.reth.dma_len, r.unwrap().addr), (0xFF_FFFE, Opcode::RdmaWriteFirst, 4500, 0x1000));
    }

    #[test]
    fn bad_control_words_are_ignored() {
        let mut c = TxCtx::new(4);
        let cfg = FlowConfig { header: header(), mtu: 0, telemetry: false, probe: false, fast_start: 0, cnp: false };
        assert!(!c.ctrl(&Ctrl::Create { flow: 1, cfg: cfg.clone() }));
        assert!(!c.ctrl(&Ctrl::Create { flow: 16, cfg: FlowConfig { mtu: 64, ..cfg.clone() } }));
        assert!(!c.ctrl(&Ctrl::Remove { flow: 1 }));
        assert!(!c.ctrl(&Ctrl::Nop { flow: 1 }));
        assert_eq!(c.ctrl_bad, 4);
    }

    #[test]
    fn an_empty_message_is_one_write_only_without_dma() {
        let mut c = TxCtx::new(2);
        let cfg = FlowConfig { header: header(), mtu: 256, telemetry: false, probe: false, fast_start: 0, cnp: false };
        c.ctrl(&Ctrl::Create { flow: 0, cfg });
        c.ctrl(&Ctrl::Post { flow: 0, post: Post { local_addr: 0, remote_addr: 0, rkey: 0, len: 0, first_psn: 9 } });
        let (d, r) = c.pkt_send(0).unwrap();
        assert_eq!((d.opcode, d.payload_len, d.ip.ecn, r), (Opcode::RdmaWriteOnly, 0, Ecn::Ect0, None));
    }

    /// Probes: PSN 0 before a post, then the next PSN, never consumed; dropped for a flow not in
    /// probe mode. A telemetry response echoes the hops with the probe's PSN.
    #[test]
    fn probes_and_telemetry_responses() {
        let mut c = TxCtx::new(3);
        let cfg = FlowConfig { header: header(), mtu: 100, telemetry: false, probe: true, fast_start: 2, cnp: false };
        c.ctrl(&Ctrl::Create { flow: 1, cfg: cfg.clone() });
        c.ctrl(&Ctrl::Create { flow: 2, cfg: FlowConfig { probe: false, ..cfg } });
        let d = c.probe(1).unwrap();
        assert_eq!((d.opcode, d.bth.psn, d.bth.ack_req, d.ip.ecn), (Opcode::HpccProbe, 0, false, Ecn::Ect0));
        assert_eq!(d.telemetry, Some(Telemetry::collecting()));
        c.ctrl(&Ctrl::Post { flow: 1, post: Post { local_addr: 0, remote_addr: 0, rkey: 0, len: 250, first_psn: 40 } });
        let (first, _) = c.pkt_send(1).unwrap();
        assert_eq!(first.ip.ecn, Ecn::NotEct);
        assert_eq!(c.probe(1).unwrap().bth.psn, 41);
        let (second, _) = c.pkt_send(1).unwrap();
        assert_eq!((second.bth.psn, second.ip.ecn), (41, Ecn::Ect0), "the probe took neither a PSN nor a fast-start slot");
        assert!(c.probe(2).is_none() && c.probe(5).is_none());
        assert_eq!(c.recv_drops, 2);
        let hops = vec![IntHop::from_word(0x41e8_a5da_ca00_0096).unwrap()];
        let r = c.response(&Response { flow: 2, psn: 7, hops: hops.clone() }).unwrap();
        assert_eq!((r.opcode, r.bth.psn), (Opcode::HpccTelemetryResponse, 7));
        assert_eq!(r.telemetry, Some(Telemetry { echo: true, hops, feedback: None }));
        let w = Recv::Probe(0x102).to_bytes();
        assert_eq!((w[0], w[1], w[2]), (2, 1, 6));
    }

    /// A READ of 2,500 bytes at MTU 1,000 is three READ requests (RETH at remote + 0 / 1000 /
    /// 2000 for 1000 / 1000 / 500 bytes), no payload, no DMA; a go-back-N asks again from the
    /// NAK's PSN; a READ response reads its payload from the given address.
    #[test]
    fn read_requests_and_responses() {
        let mut c = TxCtx::new(4);
        let cfg = FlowConfig { header: header(), mtu: 1000, telemetry: false, probe: false, fast_start: 0, cnp: false };
        c.ctrl(&Ctrl::Create { flow: 2, cfg });
        let post = Post { local_addr: 0x1000, remote_addr: 0x9000, rkey: 7, len: 2500, first_psn: 0xFF_FFFF };
        assert_eq!(Ctrl::Read { flow: 2, post }.to_bytes()[35], 1);
        assert!(c.ctrl(&Ctrl::Read { flow: 2, post }));
        let p: Vec<_> = std::iter::from_fn(|| c.pkt_send(2)).collect();
        let got: Vec<_> = p.iter().map(|(d, r)| (d.opcode, d.bth.psn, d.reth.va, d.reth.dma_len, d.payload_len, r.is_none())).collect();
        assert_eq!(got, [
            (Opcode::RdmaReadRequest, 0xFF_FFFF, 0x9000, 1000, 0, true),
            (Opcode::RdmaReadRequest, 0, 0x9000 + 1000, 1000, 0, true),
            (Opcode::RdmaReadRequest, 1, 0x9000 + 2000, 500, 0, true),
        ]);
        assert!(c.rewind(&Rewind { flow: 2, psn: 0 }));
        let (d, _) = c.pkt_send(2).unwrap();
        assert_eq!((d.bth.psn, d.reth.va, d.reth.dma_len), (0, 0x9000 + 1000, 1000));
        let aeth = Aeth { syndrome: Syndrome::Ack { credits: ACK_CREDITS_INVALID }, msn: 3 };
        let r = ReadResp { flow: 2, psn: 77, aeth, va: 0xABC0, len: 0x4000 | 300, pos: ReadPos::Only, total: 0, mtu_log: 0 };
        let (d, dma) = c.read_response(&r).unwrap();
        assert_eq!((d.opcode, d.bth.psn, d.aeth, d.payload_len, d.telemetry), (Opcode::RdmaReadResponseOnly, 77, aeth, 300, None));
        assert_eq!(dma, Some(DmaRead { addr: 0xABC0, len: 300, flow: 2 }));
        assert!(c.read_response(&ReadResp { flow: 9, ..r }).is_none());
        assert_eq!(Recv::ReadResp(r).to_bytes()[2], 8);
    }
    /// `Recv::of` reads back every kind `to_bytes` writes; kinds 6 and 7 are not items.
    #[test]
    fn recv_words_read_back() {
        let aeth = Aeth { syndrome: Syndrome::Nak(NakCode::PsnSequenceError), msn: 0x12_3456 };
        let hop = IntHop::from_counters(4_000, 1_000_000, 80_000, LineRate::G100);
        let ack = PktRecv { flow: 0x3FF, psn: 0xAB_CDEF, aeth, echo: Some(vec![hop, hop]), ece: true, feedback: None };
        let items = [
            Recv::Ack(ack.clone()),
            Recv::Ack(PktRecv { echo: None, ece: false, ..ack.clone() }),
            Recv::Ack(PktRecv { echo: Some(vec![]), feedback: Some(0xDEAD_BEEF), ..ack }),
            Recv::Rewind(Rewind { flow: 7, psn: 0xFF_FFFF }),
            Recv::Response(Response { flow: 8, psn: 1, hops: vec![hop; MAX_HOPS] }),
            Recv::Probe(9),
            Recv::ReadResp(ReadResp { flow: 10, psn: 2, aeth, va: 0x1234_5678_9ABC, len: 1500, pos: ReadPos::Last, total: 9000, mtu_log: 11 }),
            Recv::Cnp(11),
        ];
        for r in items {
            assert_eq!(Recv::of(&r.to_bytes()), Some(r.clone()), "{r:?}");
        }
        let mut w = Recv::Probe(9).to_bytes();
        PKT_RECV.kind.set_le(&mut w, 6);
        assert_eq!(Recv::of(&w), None);
    }
    /// A control word read back (`Ctrl::of`) gives the same word again.
    #[test]
    fn ctrl_words_read_back() {
        let cfg = FlowConfig { header: header(), mtu: 4096, telemetry: true, probe: true, fast_start: 7, cnp: true };
        let post = Post { local_addr: 0x1234_5678_9ABC, remote_addr: 0xFEDC_BA98_7654_3210, rkey: 0xA5A5, len: 123_456, first_psn: 0xFF_FFFE };
        for c in [
            Ctrl::Create { flow: 0x3FF, cfg: cfg.clone() },
            Ctrl::Create { flow: 1, cfg: FlowConfig { mtu: 0, telemetry: false, cnp: false, ..cfg } },
            Ctrl::Remove { flow: 2 },
            Ctrl::Post { flow: 3, post },
            Ctrl::Read { flow: 4, post },
            Ctrl::Nop { flow: 5 },
        ] {
            let w = c.to_bytes();
            assert_eq!(Ctrl::of(&w).to_bytes(), w, "{c:?}");
        }
    }
}
