//! rx_ctx, stage S2: what a verdict record does to its QP. From the record and the flow's QP
//! word: the QP word after it, what to send (a PktRecv for tx_ctx, a CC event, a Notify, a
//! DMA write) with the fields rx_ctx_words packs, and which counter it counts in.
//! Combinational. The golden model is `sim::rx_ctx::RxCtx`'s `request`, `read_request`,
//! `acknowledge`, `read_response` and `back_to_una`.
//!
//! The record and the QP word are decoded, and every difference and next value the rules
//! choose from computed, in rx_ctx_rules_calc.
//!
//! A timeout (control op 4) with packets in flight goes back to snd_una like a READ gap; the
//! record S2 holds then is a stale one, and the go-back-N sets every output it sends.

use crate::cc_codes::*;
use crate::layout::RxQpFields;
use crate::rx_ctx::QP_BITS;
use crate::rx_ctx_rules_calc::RxCtxRulesCalc;
use crate::tx_ctx::{RECV_ACK, RECV_READ, RECV_RESPONSE, RECV_REWIND};
use rust_hdl::prelude::*;

codes! {
    /// AETH syndromes rx_ctx answers with or acts on (`sim::packet`): ACK with no credit
    /// count, NAK PSN sequence error, NAK invalid request.
    AETH_SYNDROMES;
    SYN_ACK = sim::packet::SYN_ACK,
    SYN_NAK_SEQ = sim::packet::SYN_NAK_SEQ,
    SYN_NAK_INVALID = sim::packet::SYN_NAK_INVALID,
}

/// The decision's fields that rx_ctx_words packs into the words, rx_ctx_rules' side (its
/// mirror `RxCtxDecisionIn` is rx_ctx_words'; `join` connects them port to port, and the
/// compiler checks that the two agree in names and widths).
#[derive(LogicInterface, Default)]
#[join = "RxCtxDecisionIn"]
pub struct RxCtxDecision {
    /// The PktRecv's kind (`RECV_*`): a go-back-N from `rw_psn`, an ACK / NAK (`r_syn`,
    /// `r_psn`, `r_msn`), a telemetry response or a READ to answer.
    pub r_kind: Signal<Out, Bits<3>>,
    pub r_syn: Signal<Out, Bits<8>>,
    pub r_psn: Signal<Out, Bits<24>>,
    pub r_msn: Signal<Out, Bits<24>>,
    pub rw_psn: Signal<Out, Bits<24>>,
    /// The CC event's kind and fields; `e_tele`: it carries the record's telemetry.
    pub e_kind: Signal<Out, Bits<4>>,
    pub e_ece: Signal<Out, Bits<1>>,
    pub e_seq: Signal<Out, Bits<32>>,
    pub e_nxt: Signal<Out, Bits<32>>,
    pub e_acked: Signal<Out, Bits<16>>,
    pub e_tele: Signal<Out, bool>,
    /// The payload is written to host memory at `dma_addr`.
    pub write: Signal<Out, bool>,
    pub dma_addr: Signal<Out, Bits<64>>,
    /// The RETH's VA and DMA length as numbers (a READ request's, for its answer).
    pub va: Signal<Out, Bits<64>>,
    pub rlen: Signal<Out, Bits<32>>,
}

/// `RxCtxDecision` as rx_ctx_words takes it.
#[derive(LogicInterface, Default)]
#[join = "RxCtxDecision"]
pub struct RxCtxDecisionIn {
    pub r_kind: Signal<In, Bits<3>>,
    pub r_syn: Signal<In, Bits<8>>,
    pub r_psn: Signal<In, Bits<24>>,
    pub r_msn: Signal<In, Bits<24>>,
    pub rw_psn: Signal<In, Bits<24>>,
    pub e_kind: Signal<In, Bits<4>>,
    pub e_ece: Signal<In, Bits<1>>,
    pub e_seq: Signal<In, Bits<32>>,
    pub e_nxt: Signal<In, Bits<32>>,
    pub e_acked: Signal<In, Bits<16>>,
    pub e_tele: Signal<In, bool>,
    pub write: Signal<In, bool>,
    pub dma_addr: Signal<In, Bits<64>>,
    pub va: Signal<In, Bits<64>>,
    pub rlen: Signal<In, Bits<32>>,
}

/// Record, QP word and S1's decode in; the decision out.
#[derive(LogicBlock, Default)]
pub struct RxCtxRules {
    /// The verdict record S2 holds (`sim::layout::VERDICT`), for rx_ctx_rules_calc.
    pub vd: Signal<In, Bits<640>>,
    /// The flow's QP word (`sim::layout::RX_QP`), from rx_ctx_fwd.
    pub w: Signal<In, Bits<QP_BITS>>,
    /// Decoded in S1 (they headed S2's longest path): the record is a NAK PSN sequence error;
    /// it is another NAK; the PSN it acknowledges up to (its PSN for a sequence NAK, else the
    /// next one).
    pub seq: Signal<In, bool>,
    pub nko: Signal<In, bool>,
    pub upto: Signal<In, Bits<24>>,
    /// S2 holds a timeout (control op 4), not a verdict.
    pub tmo_op: Signal<In, bool>,

    /// The timeout finds packets in flight: back to snd_una (else it does nothing).
    pub tmo: Signal<Out, bool>,
    /// rx_pipe accepted the frame (code 0).
    pub ok: Signal<Out, bool>,
    /// Accepted and for the flow's QP: the QP word is written with `new_w`.
    pub hit: Signal<Out, bool>,
    /// The QP word after the record.
    pub new_w: Signal<Out, Bits<QP_BITS>>,
    /// A PktRecv to send (its fields in `dec`).
    pub r_send: Signal<Out, bool>,
    /// A CC event to send (its fields in `dec`).
    pub e_send: Signal<Out, bool>,
    /// A Notify to send: `n_pkts` packets leave the window.
    pub n_send: Signal<Out, bool>,
    pub n_pkts: Signal<Out, Bits<32>>,
    /// The words' fields, joined to rx_ctx_words' `dec`.
    pub dec: RxCtxDecision,
    /// What the record counts as (`sim::rx_ctx::stat`): unknown QP, out of sequence dropped,
    /// duplicate, bad request, stale ACK, other NAK, unsupported, NAK sent, bad READ response,
    /// READ gap.
    pub unk: Signal<Out, bool>,
    pub oos: Signal<Out, bool>,
    pub dup: Signal<Out, bool>,
    pub bad: Signal<Out, bool>,
    pub stale: Signal<Out, bool>,
    pub nakoth: Signal<Out, bool>,
    pub unsup: Signal<Out, bool>,
    pub naks: Signal<Out, bool>,
    pub badresp: Signal<Out, bool>,
    pub gap: Signal<Out, bool>,

    calc: RxCtxRulesCalc,
    // The QP word: the fields rx_ctx_rules_calc does not decode for its own use.
    q_nak: Signal<Local, bool>,
    q_gap: Signal<Local, Bits<1>>,
    q_ract: Signal<Local, Bits<1>>,
    to_una: Signal<Local, bool>,
    // The QP word's new fields.
    n_epsn: Signal<Local, Bits<24>>,
    n_nak: Signal<Local, Bits<1>>,
    n_act: Signal<Local, Bits<1>>,
    n_addr: Signal<Local, Bits<64>>,
    n_left: Signal<Local, Bits<32>>,
    n_msn: Signal<Local, Bits<24>>,
    n_una: Signal<Local, Bits<32>>,
    n_sent: Signal<Local, Bits<32>>,
    n_rd: Signal<Local, Bits<64>>,
    n_gap: Signal<Local, Bits<1>>,
    n_ract: Signal<Local, Bits<1>>,
}

impl Logic for RxCtxRules {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The QP word: rx_ctx_rules_calc decodes it (and the record) and computes the
        // differences and next values; the three flags only the rules read are decoded here.
        self.q_nak.next = self.w.val().get_value_nak();
        self.q_gap.next = self.w.val().get_value_gap().into();
        self.q_ract.next = self.w.val().get_value_ract().into();
        self.calc.vd.next = self.vd.val();
        self.calc.w.next = self.w.val();
        self.calc.seq.next = self.seq.val();
        self.calc.upto.next = self.upto.val();
        self.calc.tmo_op.next = self.tmo_op.val();
        self.ok.next = self.calc.ok.val();
        self.hit.next = self.calc.hit.val();
        self.tmo.next = self.calc.tmo.val();
        self.dec.va.next = self.calc.va.val();
        self.dec.rlen.next = self.calc.rlen.val();
        self.dec.e_tele.next = self.calc.e_tele.val();

        // ---- What the record does: defaults, then by opcode.
        self.n_epsn.next = self.calc.q_epsn.val();
        self.n_nak.next = self.q_nak.val().into();
        self.n_act.next = self.calc.q_act.val().into();
        self.n_addr.next = self.calc.q_addr.val();
        self.n_left.next = self.calc.q_left.val();
        self.n_msn.next = self.calc.q_msn.val();
        self.n_una.next = self.calc.q_una.val();
        self.n_sent.next = self.calc.q_sent.val();
        self.n_rd.next = self.calc.q_rd.val();
        self.n_gap.next = self.q_gap.val();
        self.n_ract.next = self.q_ract.val();
        self.r_send.next = false;
        self.dec.r_kind.next = RECV_ACK.into();
        self.dec.rw_psn.next = self.upto.val();
        self.dec.r_syn.next = SYN_ACK.into();
        self.dec.r_psn.next = self.calc.v_psn.val();
        self.dec.r_msn.next = self.calc.q_msn.val();
        self.to_una.next = false;
        self.e_send.next = false;
        self.dec.e_kind.next = EV_ACK.into();
        self.dec.e_ece.next = 0.into();
        self.dec.e_seq.next = self.calc.q_una.val();
        self.dec.e_nxt.next = self.calc.q_sent.val();
        self.dec.e_acked.next = 0.into();
        self.n_send.next = false;
        self.n_pkts.next = 0.into();
        self.dec.write.next = false;
        self.unk.next = self.ok.val() & !self.hit.val();
        self.oos.next = false;
        self.dup.next = false;
        self.bad.next = false;
        self.stale.next = false;
        self.nakoth.next = false;
        self.unsup.next = false;
        self.naks.next = false;
        self.badresp.next = false;
        self.gap.next = false;
        if self.hit.val() {
            // Requests, WRITE or READ: receiver telemetry, and the same rule ahead of the
            // expected PSN (sim::rx_ctx::RxCtx::ahead).
            if self.calc.is_req.val() | self.calc.is_rreq.val() {
                if self.calc.v_coll.val() {
                    self.e_send.next = true;
                    self.dec.e_kind.next = EV_RX.into();
                }
                if self.calc.ahead.val() {
                    if self.q_nak.val() {
                        self.oos.next = true;
                    } else {
                        self.naks.next = true;
                        self.n_nak.next = 1.into();
                        self.r_send.next = true;
                        self.dec.r_syn.next = SYN_NAK_SEQ.into();
                        self.dec.r_psn.next = self.calc.q_epsn.val();
                    }
                } else if self.calc.is_rreq.val() & self.calc.rr_bad.val() {
                    self.bad.next = true;
                    if !self.calc.behind.val() {
                        self.n_act.next = 0.into();
                    }
                    self.r_send.next = true;
                    self.dec.r_syn.next = SYN_NAK_INVALID.into();
                } else if self.calc.is_rreq.val() {
                    // The whole READ to answer (PktRecv kind 4, for read_split); a duplicate is
                    // executed again.
                    self.r_send.next = true;
                    self.dec.r_kind.next = RECV_READ.into();
                    if self.calc.behind.val() {
                        self.dup.next = true;
                    } else {
                        self.n_msn.next = self.calc.msn1.val();
                        self.dec.r_msn.next = self.calc.msn1.val();
                        self.n_epsn.next = self.calc.rr_epsn.val();
                        self.n_nak.next = 0.into();
                    }
                } else if self.calc.behind.val() {
                    self.dup.next = true;
                    self.r_send.next = true;
                } else if !self.calc.req_ok.val() {
                    self.bad.next = true;
                    self.n_act.next = 0.into();
                    self.r_send.next = true;
                    self.dec.r_syn.next = SYN_NAK_INVALID.into();
                } else {
                    self.r_send.next = true;
                    self.n_addr.next = self.calc.wa_n.val();
                    self.n_left.next = self.calc.wl_n.val();
                    self.n_act.next = self.calc.act_n.val();
                    if self.calc.act_n.val() == 0 {
                        self.n_msn.next = self.calc.msn1.val();
                        self.dec.r_msn.next = self.calc.msn1.val();
                    }
                    self.n_epsn.next = self.calc.epsn1.val();
                    self.n_nak.next = 0.into();
                    self.dec.write.next = self.calc.v_n.val() != 0;
                }
            } else if self.calc.is_ack.val() {
                if self.nko.val() {
                    self.nakoth.next = true;
                } else if self.calc.ack_stale.val() {
                    self.stale.next = true;
                } else if self.seq.val() & (self.q_ract.val() == 1) {
                    // A READ is out: the NAK acknowledges no response (the NIC model's
                    // ack_barrier); back to snd_una.
                    self.to_una.next = true;
                } else if self.seq.val() {
                    self.n_send.next = self.calc.released.val() != 0;
                    self.n_pkts.next = self.calc.released.val();
                    self.r_send.next = self.calc.ea.val() != 0;
                    self.dec.r_kind.next = RECV_REWIND.into();
                    self.n_una.next = self.calc.upto32.val();
                    self.n_sent.next = self.calc.upto32.val();
                    self.e_send.next = true;
                    self.dec.e_kind.next = EV_LOSS.into();
                    self.dec.e_seq.next = self.calc.upto32.val();
                    self.dec.e_nxt.next = self.calc.upto32.val();
                } else {
                    self.n_ract.next = 0.into();
                    self.n_send.next = true;
                    self.n_pkts.next = bit_cast::<32, 24>(self.calc.da.val());
                    self.n_una.next = self.calc.upto32.val();
                    self.e_send.next = true;
                    self.dec.e_seq.next = self.calc.upto32.val();
                    self.dec.e_acked.next = self.calc.acked16.val();
                    self.dec.e_ece.next = self.calc.becn.val().into();
                }
            } else if self.calc.is_cnp.val() {
                self.e_send.next = true;
                self.dec.e_kind.next = EV_CNP.into();
            } else if self.calc.is_tresp.val() {
                self.e_send.next = true;
            } else if self.calc.is_rresp.val() {
                if self.calc.dr.val().get_bit(23) | !self.calc.er_neg.val() {
                    self.stale.next = true;
                } else if (self.calc.dr.val() != 0) & (self.q_gap.val() == 1) {
                    self.oos.next = true;
                } else if self.calc.dr.val() != 0 {
                    // A response was lost: everything in flight (at least this one's PSN) is
                    // released and resent from snd_una.
                    self.gap.next = true;
                    self.n_gap.next = 1.into();
                    self.to_una.next = true;
                } else if self.calc.rs_bad.val() {
                    self.badresp.next = true;
                } else {
                    self.dec.write.next = self.calc.v_n.val() != 0;
                    self.n_rd.next = self.calc.rd_n.val();
                    self.n_gap.next = 0.into();
                    self.n_una.next = self.calc.una1.val();
                    self.n_send.next = true;
                    self.n_pkts.next = 1.into();
                    self.e_send.next = true;
                    self.dec.e_seq.next = self.calc.una1.val();
                    self.dec.e_acked.next = 1.into();
                    // A response's own CE mark (responses carry no ECN-Echo).
                    if self.calc.v_ce.val() {
                        self.dec.e_ece.next = 1.into();
                    }
                }
            } else if self.calc.is_probe.val() {
                // Telemetry response (PktRecv kind 2): the probe's PSN and hops, AETH 0.
                self.r_send.next = true;
                self.dec.r_kind.next = RECV_RESPONSE.into();
                self.dec.r_syn.next = 0.into();
                self.dec.r_msn.next = 0.into();
            } else {
                self.unsup.next = true;
            }
        }
        // Back to snd_una (sim::rx_ctx's back_to_una): a READ gap, a sequence NAK during a
        // READ, or a timeout with packets in flight. Everything in flight is released (Notify)
        // and, if anything was, sent again from snd_una (go-back-N); sent = snd_una; a loss
        // event. The PktRecv and event fields are all set here, so a timeout ignores whatever
        // the stale record made of them above.
        if self.tmo.val() {
            self.to_una.next = true;
        }
        if self.to_una.val() {
            self.n_send.next = self.calc.released.val() != 0;
            self.n_pkts.next = self.calc.released.val();
            self.r_send.next = self.calc.released.val() != 0;
            self.dec.r_kind.next = RECV_REWIND.into();
            self.dec.rw_psn.next = self.calc.q_una.val().get_bits::<24>(0);
            self.n_sent.next = self.calc.q_una.val();
            self.e_send.next = true;
            self.dec.e_kind.next = EV_LOSS.into();
            self.dec.e_ece.next = 0.into();
            self.dec.e_acked.next = 0.into();
            self.dec.e_seq.next = self.calc.q_una.val();
            self.dec.e_nxt.next = self.calc.q_una.val();
        }
        self.dec.dma_addr.next = self.calc.wa.val();
        if self.calc.is_rresp.val() {
            self.dec.dma_addr.next = self.calc.q_rd.val();
        }

        // ---- The QP word after the record: valid, QPN, MTU and its log stay.
        self.new_w.next = self.w.val();
        self.new_w.next.set_value_epsn(self.n_epsn.val());
        self.new_w.next.set_value_nak(self.n_nak.val().into());
        self.new_w.next.set_value_act(self.n_act.val().into());
        self.new_w.next.set_value_addr(self.n_addr.val());
        self.new_w.next.set_value_left(self.n_left.val());
        self.new_w.next.set_value_msn(self.n_msn.val());
        self.new_w.next.set_value_una(self.n_una.val());
        self.new_w.next.set_value_sent(self.n_sent.val());
        self.new_w.next.set_value_rd(self.n_rd.val());
        self.new_w.next.set_value_gap(self.n_gap.val().into());
        self.new_w.next.set_value_ract(self.n_ract.val().into());
    }
}
