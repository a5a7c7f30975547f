//! Requester side of a queue pair: the Tx pipe's answer to PktSend, and the Rx pipe's handling
//! of ACKs, NAKs and READ responses (go-back-N, the retransmission timeout, fatal errors).

use super::super::psn::*;
use super::super::{CcEvent, Completion, Effects, HostMemory, Status};
use super::{Op, QpState, QueuePair};
use crate::packet::*;

impl QueuePair {
    fn wqe_at(&self, psn: u32) -> Option<usize> {
        self.wq
            .iter()
            .position(|w| psn_in(psn, w.first_psn, w.end_psn()))
    }

    /// How far an ACK or NAK may acknowledge: not into a READ whose responses have not all
    /// arrived, since an ACK says the requests were executed, not that the data came back.
    fn ack_barrier(&self) -> Option<u32> {
        let read = self.wq.iter().find(|w| w.wr.op == Op::Read)?;
        Some(psn_max(read.first_psn, self.snd_una))
    }

    /// Payload bytes of the packets in `[from, to)`.
    fn payload_bytes(&self, from: u32, to: u32) -> u64 {
        let mtu = self.cfg.mtu as u64;
        self.wq
            .iter()
            .map(|w| {
                let lo = psn_max(from, w.first_psn);
                let hi = psn_min(to, w.end_psn());
                if psn_diff(hi, lo) <= 0 {
                    return 0;
                }
                let a = psn_diff(lo, w.first_psn) as u64 * mtu;
                let b = (psn_diff(hi, w.first_psn) as u64 * mtu).min(w.wr.len as u64);
                b.saturating_sub(a)
            })
            .sum()
    }

    /// Gives `n` packets back to the scheduler's window.
    fn release(&self, fx: &mut Effects, n: u32) {
        if n > 0 {
            fx.notify(self.cfg.flow, n);
        }
    }

    /// Transmits (or retransmits) `n` PSNs from `psn`: bookkeeping shared by data and READ
    /// requests.
    fn note_sent(&mut self, fx: &mut Effects, psn: u32, n: u32) {
        let end = psn_add(psn, n);
        let fresh = psn_diff(end, self.sent_hi).max(0) as u32;
        fx.stats.retransmitted_packets += (n - fresh.min(n)) as u64;
        self.sent_hi = psn_max(self.sent_hi, end);
        self.timer.get_or_insert(fx.now);
    }

    /// A PktSend for this QP's flow: send the next packet, reserve one READ response, or (nothing
    /// to send) return the grant. Returns whether the grant was used.
    pub(crate) fn on_grant(&mut self, fx: &mut Effects, mem: &HostMemory) -> bool {
        let Some(i) = self
            .wqe_at(self.next_psn)
            .filter(|_| self.state == QpState::Ready)
        else {
            return false;
        };
        let w = self.wq[i];
        // Fence: nothing after a READ starts until the READ has completed, so an ACK never
        // covers PSNs past an unanswered READ.
        if self.next_psn == w.first_psn && self.wq.iter().take(i).any(|w| w.wr.op == Op::Read) {
            return false;
        }
        let psn = self.next_psn;
        self.next_psn = psn_add(psn, 1);
        match w.wr.op {
            Op::Write => {
                let k = psn_diff(psn, w.first_psn) as u32;
                let mtu = self.cfg.mtu as u64;
                let off = k as u64 * mtu;
                let n = mtu.min(w.wr.len as u64 - off.min(w.wr.len as u64));
                // Local memory was checked at post time and is never unmapped.
                let payload = mem
                    .read(w.wr.local_addr + off, n)
                    .unwrap_or_else(|_| vec![0; n as usize]);
                let reth = Reth {
                    va: w.wr.remote_addr,
                    rkey: 0,
                    dma_len: w.wr.len,
                };
                let body = match (k == 0, k + 1 == w.npkts) {
                    (true, true) => Body::WriteOnly { reth, payload },
                    (true, false) => Body::WriteFirst { reth, payload },
                    (false, true) => Body::WriteLast { payload },
                    (false, false) => Body::WriteMiddle { payload },
                };
                let p = self.packet(psn, body);
                fx.out.push(p);
                fx.stats.data_packets_sent += 1;
                self.note_sent(fx, psn, 1);
            }
            Op::Read => {
                self.reserved = match self.reserved {
                    Some((first, n)) => Some((first, n + 1)),
                    None => Some((psn, 1)),
                };
                if self.next_psn == w.end_psn() {
                    self.flush_read(fx);
                }
            }
        }
        true
    }

    /// Sends one READ request for the reserved response packets. Called when the READ is fully
    /// reserved and at the end of every cycle without a grant for this QP, so a window smaller
    /// than the READ never deadlocks: the READ goes out in pieces.
    pub(crate) fn flush_read(&mut self, fx: &mut Effects) {
        let Some((psn, n)) = self.reserved.take() else {
            return;
        };
        let Some(i) = self.wqe_at(psn) else { return };
        let w = self.wq[i];
        let off = psn_diff(psn, w.first_psn) as u64 * self.cfg.mtu as u64;
        let len = (n as u64 * self.cfg.mtu as u64).min(w.wr.len as u64 - off.min(w.wr.len as u64));
        let reth = Reth {
            va: w.wr.remote_addr + off,
            rkey: 0,
            dma_len: len as u32,
        };
        let p = self.packet(psn, Body::ReadRequest { reth });
        fx.out.push(p);
        fx.stats.read_requests_sent += 1;
        self.note_sent(fx, psn, n);
    }

    /// Everything before `target` is acknowledged: release the window, report to CC, complete
    /// messages.
    fn advance_una(&mut self, fx: &mut Effects, target: u32) {
        if psn_diff(target, self.snd_una) <= 0 {
            return;
        }
        // PSNs at or past next_psn were already released by a go-back-N.
        let still_inflight = psn_diff(psn_min(target, self.next_psn), self.snd_una).max(0) as u32;
        self.release(fx, still_inflight);
        fx.events.push(CcEvent::Ack {
            cycle: fx.now,
            flow: self.cfg.flow,
            qpn: self.cfg.qpn,
            psn: psn_add(target, PSN_MASK),
            packets: psn_diff(target, self.snd_una) as u32,
            bytes: self.payload_bytes(self.snd_una, target),
        });
        self.snd_una = target;
        if psn_diff(target, self.next_psn) > 0 {
            self.next_psn = target;
        }
        self.reserved = self.reserved.and_then(|(first, n)| {
            let gone = psn_diff(target, first).clamp(0, n as i32) as u32;
            (gone < n).then(|| (psn_add(first, gone), n - gone))
        });
        while let Some(w) = self.wq.front() {
            if psn_diff(self.snd_una, w.end_psn()) < 0 {
                break;
            }
            fx.completions.push(Completion {
                qpn: self.cfg.qpn,
                id: w.wr.id,
                op: w.wr.op,
                status: Status::Success,
            });
            self.wq.pop_front();
        }
        self.timer = (self.inflight_packets() > 0).then_some(fx.now);
    }

    /// Go-back-N: transmit again from `psn`. Packets from there on leave flight now (they are
    /// lost or will be dropped as out of sequence), so the window gets them back at once.
    fn rewind(&mut self, fx: &mut Effects, psn: u32) {
        let n = psn_diff(self.next_psn, psn);
        if n <= 0 {
            return;
        }
        self.release(fx, n as u32);
        self.next_psn = psn;
        self.reserved = None;
        self.timer = None;
        fx.stats.rewinds += 1;
    }

    /// An Acknowledge (ACK or NAK) for this QP's requests.
    pub(crate) fn on_ack(&mut self, fx: &mut Effects, psn: u32, syndrome: Syndrome) {
        if self.state == QpState::Error {
            fx.stats.stale_acks += 1;
            return;
        }
        // Only PSNs in [snd_una, sent_hi] mean anything; the rest are stale or invented.
        let upto = match syndrome {
            Syndrome::Ack { .. } => psn_add(psn, 1),
            _ => psn,
        };
        let stale = match syndrome {
            Syndrome::Ack { .. } => psn_diff(upto, self.snd_una) <= 0,
            _ => psn_diff(upto, self.snd_una) < 0,
        };
        if stale || psn_diff(upto, self.sent_hi) > 0 {
            fx.stats.stale_acks += 1;
            return;
        }
        let barrier = self.ack_barrier().unwrap_or(self.sent_hi);
        let upto = psn_min(upto, barrier);
        match syndrome {
            Syndrome::Ack { .. } => self.advance_una(fx, upto),
            Syndrome::Nak(NakCode::PsnSequenceError) => {
                fx.stats.naks_received += 1;
                self.advance_una(fx, upto);
                self.rewind(fx, upto);
                self.read_gap = false;
                fx.events.push(CcEvent::Nak {
                    cycle: fx.now,
                    flow: self.cfg.flow,
                    qpn: self.cfg.qpn,
                    psn,
                });
            }
            Syndrome::Nak(code) => {
                fx.stats.naks_received += 1;
                self.advance_una(fx, upto);
                self.fail(fx, Status::RemoteNak(code));
            }
            Syndrome::RnrNak { .. } => fx.stats.stale_acks += 1,
        }
    }

    /// A READ response packet for this QP's requests.
    pub(crate) fn on_read_response(
        &mut self,
        fx: &mut Effects,
        mem: &mut HostMemory,
        psn: u32,
        payload: &[u8],
    ) {
        // wq is empty in the error state, so nothing is accepted then.
        let Some(i) = self.wqe_at(psn).filter(|&i| self.wq[i].wr.op == Op::Read) else {
            fx.stats.dropped_responses += 1;
            return;
        };
        let w = self.wq[i];
        let first_read = self.wq.iter().position(|w| w.wr.op == Op::Read) == Some(i);
        // In order, or the first response of the oldest READ right after unacknowledged
        // WRITEs: the responder executes in order, so that response acknowledges them. Never
        // for a PSN not yet asked for.
        let asked = psn_diff(psn, self.sent_hi) < 0;
        let in_order = asked
            && (psn == self.snd_una
                || (first_read && psn == w.first_psn && psn_diff(self.snd_una, psn) < 0));
        if !in_order {
            if psn_in(psn, self.snd_una, self.next_psn) && !self.read_gap {
                // A gap: ask again from the first missing response.
                self.read_gap = true;
                let from = self.snd_una;
                self.rewind(fx, from);
                fx.events.push(CcEvent::Nak {
                    cycle: fx.now,
                    flow: self.cfg.flow,
                    qpn: self.cfg.qpn,
                    psn: from,
                });
            } else {
                fx.stats.dropped_responses += 1;
            }
            return;
        }
        let mtu = self.cfg.mtu as u64;
        let off = psn_diff(psn, w.first_psn) as u64 * mtu;
        let expect = mtu.min(w.wr.len as u64 - off.min(w.wr.len as u64));
        if payload.len() as u64 != expect || mem.write(w.wr.local_addr + off, payload).is_err() {
            fx.stats.dropped_responses += 1;
            return;
        }
        self.read_gap = false;
        self.advance_una(fx, psn_add(psn, 1));
    }

    /// No progress for `rto` cycles with packets in flight: go back to `snd_una`.
    pub(crate) fn check_timeout(&mut self, fx: &mut Effects, rto: u64) {
        if let Some(t) = self.timer {
            if fx.now.saturating_sub(t) >= rto && self.inflight_packets() > 0 {
                fx.stats.timeouts += 1;
                let from = self.snd_una;
                self.rewind(fx, from);
                self.read_gap = false;
                fx.events.push(CcEvent::Timeout {
                    cycle: fx.now,
                    flow: self.cfg.flow,
                    qpn: self.cfg.qpn,
                    psn: from,
                });
            }
        }
    }

    /// Fatal error (a NAK other than a sequence error, or the QP destroyed): the oldest message
    /// completes with `status`, the rest are flushed, the window gets every in-flight packet back.
    pub(crate) fn fail(&mut self, fx: &mut Effects, status: Status) {
        self.release(fx, self.inflight_packets());
        for (k, w) in self.wq.drain(..).enumerate() {
            let status = if k == 0 { status } else { Status::Flushed };
            fx.completions.push(Completion {
                qpn: self.cfg.qpn,
                id: w.wr.id,
                op: w.wr.op,
                status,
            });
        }
        self.next_psn = self.snd_una;
        self.post_psn = self.snd_una;
        self.reserved = None;
        self.timer = None;
        self.state = QpState::Error;
    }
}
