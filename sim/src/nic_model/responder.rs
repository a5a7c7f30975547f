//! Responder side of a queue pair: the Rx pipe's handling of WRITE and READ requests, which
//! raises PktRecv (ACK, NAK or READ responses) towards the Tx pipe.

use super::psn::*;
use super::qp::{packets_for, QueuePair, MAX_OUTSTANDING_PSNS};
use super::{Effects, HostMemory, PktRecv};
use crate::packet::*;

/// A multi-packet WRITE being received: where the next payload byte lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteState {
    va: u64,
    received: u64,
    len: u64,
}

/// The NAK code a request earns, if any.
type Verdict = Result<(), NakCode>;

impl QueuePair {
    /// A request packet (WRITE or READ request) addressed to this QP.
    pub(crate) fn on_request(
        &mut self,
        fx: &mut Effects,
        mem: &mut HostMemory,
        psn: u32,
        body: &Body,
    ) {
        let d = psn_diff(psn, self.epsn);
        if d > 0 {
            // Out of sequence: NAK once, then drop silently until the expected PSN arrives (the
            // InfiniBand responder rule), so one loss costs one NAK and one go-back-N.
            if !self.nak_sent {
                self.nak_sent = true;
                let code = NakCode::PsnSequenceError;
                fx.recv(
                    self.cfg.qpn,
                    PktRecv::Nak {
                        psn: self.epsn,
                        code,
                    },
                );
            } else {
                fx.stats.out_of_sequence_dropped += 1;
            }
            return;
        }
        if d < 0 {
            // Duplicate: its effect has happened already. A WRITE is re-ACKed with its own PSN
            // (true and harmless, never acknowledging more than was received) and not written
            // again; a READ is executed again, since its responses may be what was lost.
            fx.stats.duplicates_received += 1;
            match body {
                Body::ReadRequest { reth } => {
                    if let Err(code) = self.respond_read(fx, mem, psn, reth, false) {
                        fx.recv(self.cfg.qpn, PktRecv::Nak { psn, code });
                        return;
                    }
                    // A retried READ may end past the expected PSN: the requester asks again
                    // for everything missing in one request, whatever the original requests
                    // were. Its tail is new, so it moves the expected PSN on; otherwise the
                    // requester would hold responses the responder thinks it never asked for.
                    let n = packets_for(reth.dma_len as u64, self.cfg.mtu) as u32;
                    let end = psn_add(psn, n);
                    if psn_diff(end, self.epsn) > 0 {
                        self.epsn = end;
                        self.nak_sent = false;
                    }
                }
                _ => fx.recv(self.cfg.qpn, PktRecv::Ack { psn }),
            }
            return;
        }
        let verdict = match body {
            Body::ReadRequest { reth } => self.respond_read(fx, mem, psn, reth, true),
            _ => self.accept_write(mem, body),
        };
        match verdict {
            Ok(()) => {
                let consumed = match body {
                    Body::ReadRequest { reth } => {
                        packets_for(reth.dma_len as u64, self.cfg.mtu) as u32
                    }
                    _ => {
                        fx.recv(self.cfg.qpn, PktRecv::Ack { psn });
                        1
                    }
                };
                self.epsn = psn_add(self.epsn, consumed);
                self.nak_sent = false;
            }
            Err(code) => {
                // A fatal NAK: the requester fails the QP. The PSN is not consumed and any
                // message in progress is abandoned.
                fx.stats.bad_requests += 1;
                self.write = None;
                fx.recv(self.cfg.qpn, PktRecv::Nak { psn, code });
            }
        }
    }

    /// An in-order WRITE packet: checks the opcode sequence and lengths, then stores the payload.
    fn accept_write(&mut self, mem: &mut HostMemory, body: &Body) -> Verdict {
        use NakCode::*;
        let mtu = self.cfg.mtu as u64;
        let payload = body.payload();
        let n = payload.len() as u64;
        let (va, next) = match (body, self.write) {
            (Body::WriteFirst { reth, .. }, None) if n == mtu && (reth.dma_len as u64) > mtu => {
                check_range(mem, reth)?;
                let s = WriteState {
                    va: reth.va,
                    received: n,
                    len: reth.dma_len as u64,
                };
                (reth.va, Some(s))
            }
            (Body::WriteOnly { reth, .. }, None) if n == reth.dma_len as u64 && n <= mtu => {
                check_range(mem, reth)?;
                (reth.va, None)
            }
            (Body::WriteMiddle { .. }, Some(s)) if n == mtu && s.received + n < s.len => (
                s.va + s.received,
                Some(WriteState {
                    received: s.received + n,
                    ..s
                }),
            ),
            (Body::WriteLast { .. }, Some(s)) if n >= 1 && n <= mtu && s.received + n == s.len => {
                (s.va + s.received, None)
            }
            _ => return Err(InvalidRequest),
        };
        mem.write(va, payload).map_err(|_| RemoteAccessError)?;
        self.write = next;
        if next.is_none() {
            self.msn = psn_add(self.msn, 1);
        }
        Ok(())
    }

    /// Executes a READ request (again, for a duplicate): queues its responses on PktRecv.
    fn respond_read(
        &mut self,
        fx: &mut Effects,
        mem: &HostMemory,
        psn: u32,
        reth: &Reth,
        in_order: bool,
    ) -> Verdict {
        let len = reth.dma_len as u64;
        // A new READ in the middle of a WRITE message breaks the opcode sequence; a duplicate
        // belongs to the past and cannot.
        let mid_write = in_order && self.write.is_some();
        if mid_write || packets_for(len, self.cfg.mtu) >= MAX_OUTSTANDING_PSNS as u64 {
            return Err(NakCode::InvalidRequest);
        }
        check_range(mem, reth)?;
        if in_order {
            self.msn = psn_add(self.msn, 1);
        }
        fx.recv(
            self.cfg.qpn,
            PktRecv::ReadResponse {
                psn,
                va: reth.va,
                len: reth.dma_len,
                msn: self.msn,
            },
        );
        Ok(())
    }

    /// Builds the packets of one PktRecv (the Tx pipe's half of it).
    pub(crate) fn build_response(&self, fx: &mut Effects, mem: &HostMemory, r: PktRecv) {
        let ack = |msn| Aeth {
            syndrome: Syndrome::Ack {
                credits: ACK_CREDITS_INVALID,
            },
            msn,
        };
        match r {
            PktRecv::Ack { psn } => {
                fx.stats.acks_sent += 1;
                fx.out.push(self.packet(
                    psn,
                    Body::Ack {
                        aeth: ack(self.msn),
                    },
                ));
            }
            PktRecv::Nak { psn, code } => {
                fx.stats.naks_sent += 1;
                let aeth = Aeth {
                    syndrome: Syndrome::Nak(code),
                    msn: self.msn,
                };
                fx.out.push(self.packet(psn, Body::Ack { aeth }));
            }
            PktRecv::ReadResponse { psn, va, len, msn } => {
                let mtu = self.cfg.mtu as u64;
                let len = len as u64;
                let npkts = packets_for(len, self.cfg.mtu);
                for k in 0..npkts {
                    let off = k * mtu;
                    let n = mtu.min(len - off.min(len));
                    // Checked when the request was accepted; memory is never unmapped.
                    let payload = mem
                        .read(va + off, n)
                        .unwrap_or_else(|_| vec![0; n as usize]);
                    let aeth = ack(msn);
                    let body = match (k == 0, k + 1 == npkts) {
                        (true, true) => Body::ReadResponseOnly { aeth, payload },
                        (true, false) => Body::ReadResponseFirst { aeth, payload },
                        (false, true) => Body::ReadResponseLast { aeth, payload },
                        (false, false) => Body::ReadResponseMiddle { payload },
                    };
                    fx.stats.read_responses_sent += 1;
                    fx.out.push(self.packet(psn_add(psn, k as u32), body));
                }
            }
        }
    }
}

/// The RETH's whole range must be mapped: an unmapped byte is a remote access error (R_Keys
/// are not modelled, so this is the only protection check).
fn check_range(mem: &HostMemory, reth: &Reth) -> Verdict {
    if mem.is_mapped(reth.va, reth.dma_len as u64) {
        Ok(())
    } else {
        Err(NakCode::RemoteAccessError)
    }
}
