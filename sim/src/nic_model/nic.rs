//! One NIC: the glue between the flow scheduler, the queue pairs and the wire, cycle by cycle.

use super::*;
use crate::flow_sched::{Ctrl, FlowSched, Inputs, Notify, Update};
use crate::packet::{Body, Ecn, Ethernet, Ipv4, RocePacket};
use std::collections::{BTreeMap, VecDeque};

/// One NIC: queue pairs, a flow scheduler and host memory, stepped one clock at a time.
pub struct Nic {
    cfg: NicConfig,
    sched: FlowSched,
    qps: BTreeMap<u32, QueuePair>,
    flow_qp: Vec<Option<u32>>,
    /// Host memory behind the NIC.
    pub mem: HostMemory,
    fx: Effects,
    // The scheduler takes one of each per cycle; these wait their turn.
    ctrl_q: VecDeque<Ctrl>,
    update_q: VecDeque<Update>,
    notify_q: VecDeque<Notify>,
    charged: Vec<u64>,
    notified: Vec<u64>,
}

impl Nic {
    /// A NIC right after reset (its scheduler clears its RAMs for the first 2^flow_bits cycles;
    /// control waits meanwhile).
    pub fn new(cfg: NicConfig) -> Self {
        let mut sched = FlowSched::new(cfg.flow_bits);
        sched.step(&Inputs {
            reset: true,
            ..Inputs::default()
        });
        let flows = sched.flows();
        Nic {
            cfg,
            sched,
            qps: BTreeMap::new(),
            flow_qp: vec![None; flows],
            mem: HostMemory::new(),
            fx: Effects::default(),
            ctrl_q: VecDeque::new(),
            update_q: VecDeque::new(),
            notify_q: VecDeque::new(),
            charged: vec![0; flows],
            notified: vec![0; flows],
        }
    }

    pub fn config(&self) -> &NicConfig {
        &self.cfg
    }

    /// Bytes the scheduler charges per packet.
    pub fn packet_unit(&self) -> u32 {
        1 << self.cfg.pkt_shift
    }

    /// Creates a QP and its scheduler flow (Ctrl create with the QP's window and rate).
    pub fn create_qp(&mut self, c: QpConfig) -> Result<(), QpError> {
        if c.qpn > PSN_MASK
            || c.dest_qpn > PSN_MASK
            || c.send_psn > PSN_MASK
            || c.recv_psn > PSN_MASK
        {
            return Err(QpError::OutOfRange);
        }
        if self.qps.contains_key(&c.qpn) {
            return Err(QpError::QpnInUse);
        }
        match self.flow_qp.get(c.flow as usize) {
            None => return Err(QpError::FlowOutOfRange),
            Some(Some(_)) => return Err(QpError::FlowInUse),
            Some(None) => {}
        }
        if !c.mtu.is_power_of_two() || !(64..=4096).contains(&c.mtu) || c.mtu > self.packet_unit() {
            return Err(QpError::BadMtu);
        }
        let local = (
            Ethernet {
                dst: [0; 6],
                src: self.cfg.mac,
            },
            Ipv4 {
                dscp: 26,
                ecn: Ecn::Ect0,
                identification: 0,
                dont_fragment: true,
                ttl: 64,
                src: self.cfg.ip,
                dst: [0; 4],
            },
        );
        self.qps.insert(c.qpn, QueuePair::new(c, local));
        self.flow_qp[c.flow as usize] = Some(c.qpn);
        self.ctrl_q.push_back(Ctrl {
            create: true,
            flow: c.flow,
            window: c.window,
            rate: c.rate,
            pkt_shift: 0,
            reserved: 0,
        });
        Ok(())
    }

    /// Destroys a QP and removes its flow. Outstanding work completes as `Flushed` (whether or
    /// not the peer executed it), its in-flight packets go back to the window, and packets still
    /// arriving for it are dropped as `unknown_qp`. Grants already queued in the scheduler come
    /// back as idle grants.
    pub fn destroy_qp(&mut self, qpn: u32) -> Result<(), QpError> {
        let mut qp = self.qps.remove(&qpn).ok_or(QpError::UnknownQp)?;
        self.fx.now = self.sched.cycle();
        qp.fail(&mut self.fx, Status::Flushed);
        let flow = qp.cfg.flow;
        self.flow_qp[flow as usize] = None;
        self.ctrl_q.push_back(Ctrl {
            create: false,
            flow,
            window: 0,
            rate: 0,
            pkt_shift: 0,
            reserved: 0,
        });
        self.queue_notifies();
        Ok(())
    }

    /// Posts a message on a QP's send queue.
    pub fn post(&mut self, qpn: u32, wr: WorkRequest) -> Result<(), QpError> {
        let qp = self.qps.get_mut(&qpn).ok_or(QpError::UnknownQp)?;
        if !self.mem.is_mapped(wr.local_addr, wr.len as u64) {
            return Err(QpError::LocalUnmapped);
        }
        qp.post(wr)
    }

    /// Update from the CC module: new window and rate for a flow (an out-of-range flow is
    /// passed on and ignored by the scheduler, as in the RTL).
    pub fn update(&mut self, u: Update) {
        self.update_q.push_back(u);
    }

    /// One clock: receive `rx`, step the scheduler, transmit. Returns the frames sent.
    pub fn step(&mut self, rx: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        self.fx.now = self.sched.cycle();
        for frame in rx {
            self.receive(&frame);
        }
        // Tx pipe, PktRecv first: ACKs, NAKs and READ responses are not paced by the scheduler.
        for (qpn, r) in std::mem::take(&mut self.fx.recv) {
            if let Some(qp) = self.qps.get(&qpn) {
                qp.build_response(&mut self.fx, &self.mem, r);
            }
        }

        let inputs = Inputs {
            reset: false,
            pkt_shift: self.cfg.pkt_shift,
            max_burst: self.cfg.max_burst,
            ctrl: self.ctrl_q.front().copied(),
            update: self.update_q.front().copied(),
            notify: self.notify_q.front().copied(),
            sleep: None,
            pktsend_ready: true,
        };
        let out = self.sched.step(&inputs);
        if inputs.ctrl.is_some() && out.ctrl_ready {
            self.ctrl_q.pop_front();
        }
        if inputs.update.is_some() && out.update_ready {
            self.update_q.pop_front();
        }
        if let Some(n) = inputs.notify.filter(|_| out.notify_ready) {
            self.notify_q.pop_front();
            if let Some(total) = self.notified.get_mut(n.flow as usize) {
                *total += n.bytes as u64;
            }
        }
        for g in self.sched.grants.drain(..) {
            self.charged[g.flow] += (g.pkts as u64) << self.cfg.pkt_shift;
        }

        let granted = out.pktsend_valid.then_some(out.pktsend_flow);
        if let Some(flow) = granted {
            let qp = self
                .flow_qp
                .get(flow as usize)
                .copied()
                .flatten()
                .and_then(|q| self.qps.get_mut(&q));
            let used = qp.is_some_and(|qp| qp.on_grant(&mut self.fx, &self.mem));
            if !used {
                // The scheduler has no demand input: a flow with nothing to send is still
                // granted, and the grant is returned at once so the window does not leak.
                self.fx.stats.idle_grants += 1;
                self.fx.notify(flow, 1);
            }
        }
        for qp in self.qps.values_mut() {
            if Some(qp.cfg.flow) != granted {
                qp.flush_read(&mut self.fx);
            }
            qp.check_timeout(&mut self.fx, self.cfg.rto_cycles);
        }
        self.queue_notifies();
        self.fx.out.drain(..).map(|p| p.build()).collect()
    }

    /// Moves released packets to the Notify queue, in bytes, merging with the last entry of
    /// the same flow.
    fn queue_notifies(&mut self) {
        for (flow, packets) in std::mem::take(&mut self.fx.notify) {
            let mut bytes = (packets as u64) << self.cfg.pkt_shift;
            while bytes > 0 {
                let chunk = bytes.min(1 << 31);
                match self.notify_q.back_mut() {
                    Some(n) if n.flow == flow && n.bytes as u64 + chunk <= u32::MAX as u64 => {
                        n.bytes += chunk as u32
                    }
                    _ => self.notify_q.push_back(Notify {
                        flow,
                        bytes: chunk as u32,
                    }),
                }
                bytes -= chunk;
            }
        }
    }

    /// The Rx pipe for one frame.
    fn receive(&mut self, frame: &[u8]) {
        let fx = &mut self.fx;
        let Ok(p) = RocePacket::parse(frame) else {
            fx.stats.parse_errors += 1;
            return;
        };
        if p.ip.dst != self.cfg.ip {
            fx.stats.misaddressed += 1;
            return;
        }
        let Some(qp) = self.qps.get_mut(&p.bth.dest_qp) else {
            fx.stats.unknown_qp += 1;
            return;
        };
        let psn = p.bth.psn;
        match &p.body {
            Body::WriteFirst { .. }
            | Body::WriteMiddle { .. }
            | Body::WriteLast { .. }
            | Body::WriteOnly { .. }
            | Body::ReadRequest { .. } => qp.on_request(fx, &mut self.mem, psn, &p.body),
            Body::Ack { aeth } => qp.on_ack(fx, psn, aeth.syndrome),
            Body::ReadResponseFirst { .. }
            | Body::ReadResponseMiddle { .. }
            | Body::ReadResponseLast { .. }
            | Body::ReadResponseOnly { .. } => {
                qp.on_read_response(fx, &mut self.mem, psn, p.body.payload())
            }
            Body::Cnp | Body::Probe | Body::TelemetryResponse => fx.stats.ignored_opcodes += 1,
        }
    }

    /// A QP, for inspection.
    pub fn qp(&self, qpn: u32) -> Option<&QueuePair> {
        self.qps.get(&qpn)
    }

    pub fn stats(&self) -> &NicStats {
        &self.fx.stats
    }

    /// Completions since the last call.
    pub fn take_completions(&mut self) -> Vec<Completion> {
        std::mem::take(&mut self.fx.completions)
    }

    /// CC events since the last call.
    pub fn take_cc_events(&mut self) -> Vec<CcEvent> {
        std::mem::take(&mut self.fx.events)
    }

    /// Bytes the scheduler has charged to a flow's window (packets granted x packet size).
    pub fn charged_bytes(&self, flow: u16) -> u64 {
        self.charged.get(flow as usize).copied().unwrap_or(0)
    }

    /// Bytes given back to a flow's window through accepted Notify events.
    pub fn notified_bytes(&self, flow: u16) -> u64 {
        self.notified.get(flow as usize).copied().unwrap_or(0)
    }

    /// No posted work left, and no control, update or notify waiting for the scheduler.
    pub fn is_idle(&self) -> bool {
        self.qps.values().all(|q| q.pending_work() == 0)
            && self.ctrl_q.is_empty()
            && self.update_q.is_empty()
            && self.notify_q.is_empty()
    }

    /// The flow scheduler, for inspection.
    pub fn scheduler(&self) -> &FlowSched {
        &self.sched
    }
}
