//! The timer scan, a block of hpcc_nic_core (docs/modules/hpcc_nic_core.md, "Timers"): it
//! visits every flow id in turn and, at the end of each visit,
//!
//! - gives an LDCP or DCQCN flow a timer event, and waits until cc_module takes it;
//! - decides the retransmission timeout: a flow with a message out whose snd_una has not moved
//!   since the last visit counts a visit; after `RTO_CFG[7:0]` such visits it times out (the
//!   core's sequencer sends rx_ctx back to snd_una), and past `RTO_CFG[11:8]` timeouts without
//!   an acknowledgement the message fails. Any movement, or no message out, starts the count
//!   again. The scan waits at a flow while its last decision waits for the sequencer;
//! - sends a probe request for an HPCC++ flow in probe mode (draft 004 section 6.2.1) with a
//!   message out, if the last one has gone (else this visit's is skipped).
//!
//! A visit lasts `TIMER_GAP + 1` cycles (the per-flow RAMs read the id meanwhile); `TIMER_GAP`
//! 0 stops the scan, and it waits out the core's sweep. So each LDCP and DCQCN flow has a timer
//! event once per 2^F x (`TIMER_GAP` + 1) cycles, plus waits.

use crate::cc_codes::ALG_HPCC;
use crate::hpcc_nic_core::AlgWrite;
use rust_hdl::prelude::*;

/// The timer scan over `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreTimer<const F: usize> {
    /// Clock; everything is on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: the scan at flow 0, nothing offered, the counters 0 (the per-flow
    /// RAMs are cleared by the core's sweep).
    pub reset: Signal<In, bool>,
    /// `TIMER_GAP`: cycles at each flow id, less one; 0 stops the scan.
    pub gap: Signal<In, Bits<32>>,
    /// `RTO_CFG` [7:0]: visits without an acknowledgement before a timeout (0: none).
    pub rto_rounds: Signal<In, Bits<8>>,
    /// `RTO_CFG` [11:8]: timeouts without an acknowledgement before the message fails.
    pub rto_retries: Signal<In, Bits<4>>,
    /// The flow's algorithm, from the sequencer.
    pub alg_wr: AlgWrite<F>,
    /// The created flow is in probe mode (the tx create word's `probe`).
    pub alg_probe: Signal<In, bool>,
    /// The core writes a flow's entry (an ACK or loss event, or a command).
    pub ft_we: Signal<In, bool>,
    /// The entry's flow.
    pub ft_flow: Signal<In, Bits<F>>,
    /// A message is out.
    pub ft_out: Signal<In, Bits<1>>,
    /// snd_una as the last ACK or loss event said (the post's first PSN at a post).
    pub ft_una: Signal<In, Bits<24>>,
    /// The core clears its per-flow tables after reset: this cycle, flow `sweep_addr`.
    pub sweep: Signal<In, bool>,
    /// The flow cleared.
    pub sweep_addr: Signal<In, Bits<F>>,
    /// A timer event for flow `flow` is offered.
    pub tm_valid: Signal<Out, bool>,
    /// cc_module takes an event this cycle (the timer event, while offered).
    pub tm_take: Signal<In, bool>,
    /// The flow the scan is at.
    pub flow: Signal<Out, Bits<F>>,
    /// A timeout (or failure) waits for the sequencer.
    pub rq_valid: Signal<Out, bool>,
    /// It is a failure: the retry limit is reached.
    pub rq_fail: Signal<Out, bool>,
    /// Its flow.
    pub rq_flow: Signal<Out, Bits<F>>,
    /// The sequencer takes it.
    pub rq_take: Signal<In, bool>,
    /// A probe request is offered.
    pub pq_valid: Signal<Out, bool>,
    /// Its flow.
    pub pq_flow: Signal<Out, Bits<16>>,
    /// The datapath takes it.
    pub pq_take: Signal<In, bool>,
    /// Timer events taken by cc_module (wraps).
    pub stat_events: Signal<Out, Bits<32>>,
    /// Probe requests made (wraps).
    pub stat_probes: Signal<Out, Bits<32>>,
    /// Per flow: [0] created, [1] takes timer events (LDCP, DCQCN: the algorithm's bit 1),
    /// [2] HPCC++ in probe mode.
    algs: RAM<Bits<3>, F>,
    /// Per flow: [0] a message is out, [24:1] snd_una (a copy of the core's entry writes).
    rv: RAM<Bits<25>, F>,
    /// Per flow: [23:0] snd_una at the last visit, [31:24] visits since it moved, [35:32]
    /// timeouts since it moved (written by the scan only).
    rto: RAM<Bits<36>, F>,
    at: DFF<Bits<F>>,
    wait: DFF<Bits<32>>,
    tm: DFF<bool>,
    events: DFF<Bits<32>>,
    rq: DFF<bool>,
    rq_f: DFF<bool>,
    rq_at: DFF<Bits<F>>,
    pq: DFF<bool>,
    pq_at: DFF<Bits<16>>,
    probes: DFF<Bits<32>>,
    /// The visit ends: decide the timeout and the probe.
    decide: Signal<Local, bool>,
    /// On to the next flow id.
    next: Signal<Local, bool>,
    busy: Signal<Local, bool>,
    una: Signal<Local, Bits<24>>,
    last: Signal<Local, Bits<24>>,
    idle: Signal<Local, Bits<9>>,
    retr: Signal<Local, Bits<4>>,
    retr1: Signal<Local, Bits<4>>,
}

impl<const F: usize> Logic for HpccNicCoreTimer<F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, at, wait, tm, events, rq, rq_f, rq_at, pq, pq_at, probes);
        self.algs.read_clock.next = self.clock.val();
        self.algs.write_clock.next = self.clock.val();
        self.rv.read_clock.next = self.clock.val();
        self.rv.write_clock.next = self.clock.val();
        self.rto.read_clock.next = self.clock.val();
        self.rto.write_clock.next = self.clock.val();
        // ---- The flow's bits: created, timer events (the algorithm's bit 1), probe mode.
        self.algs.write_enable.next = self.alg_wr.we.val();
        self.algs.write_address.next = self.alg_wr.flow.val();
        self.algs.write_data.next = 0.into();
        if self.alg_wr.create.val() {
            self.algs.write_data.next = bits::<3>(1) | (bit_cast::<3, 1>(self.alg_wr.alg.val().get_bits::<1>(1)) << 1);
            if (self.alg_wr.alg.val() == ALG_HPCC) & self.alg_probe.val() {
                self.algs.write_data.next = bits::<3>(1) | (bits::<3>(1) << 2);
            }
        }
        self.rv.write_enable.next = self.ft_we.val();
        self.rv.write_address.next = self.ft_flow.val();
        self.rv.write_data.next = bit_cast::<25, 1>(self.ft_out.val()) | (bit_cast::<25, 24>(self.ft_una.val()) << 1);
        // ---- The visit: the RAMs read the flow the scan is at.
        self.algs.read_address.next = self.at.q.val();
        self.rv.read_address.next = self.at.q.val();
        self.rto.read_address.next = self.at.q.val();
        self.busy.next = self.rv.read_data.val().get_bit(0);
        self.una.next = self.rv.read_data.val().get_bits::<24>(1);
        self.last.next = self.rto.read_data.val().get_bits::<24>(0);
        self.idle.next = bit_cast::<9, 8>(self.rto.read_data.val().get_bits::<8>(24)) + 1;
        self.retr.next = self.rto.read_data.val().get_bits::<4>(32);
        self.retr1.next = self.retr.val() + 1;
        self.decide.next = false;
        self.next.next = false;
        if self.tm.q.val() {
            if self.tm_take.val() {
                self.tm.d.next = false;
                self.events.d.next = self.events.q.val() + 1;
                self.next.next = true;
            }
        } else if self.gap.val().any() & !self.sweep.val() {
            if self.wait.q.val().any() {
                self.wait.d.next = self.wait.q.val() - 1;
            } else if self.rq.q.val() {
                self.decide.next = false; // the last timeout has not reached the sequencer
            } else {
                self.decide.next = true;
                if self.algs.read_data.val().get_bit(0) & self.algs.read_data.val().get_bit(1) {
                    self.tm.d.next = true; // created, LDCP or DCQCN
                } else {
                    self.next.next = true;
                }
            }
        }
        // ---- Probe requests.
        if self.pq.q.val() & self.pq_take.val() {
            self.pq.d.next = false;
        }
        if self.decide.val() & self.algs.read_data.val().get_bit(2) & self.busy.val() & !self.pq.q.val() {
            self.pq.d.next = true;
            self.pq_at.d.next = bit_cast::<16, F>(self.at.q.val());
            self.probes.d.next = self.probes.q.val() + 1;
        }
        // ---- Retransmission timeout.
        if self.rq.q.val() & self.rq_take.val() {
            self.rq.d.next = false;
        }
        self.rto.write_enable.next = self.decide.val();
        self.rto.write_address.next = self.at.q.val();
        self.rto.write_data.next = bit_cast::<36, 24>(self.una.val());
        if self.decide.val()
            & self.busy.val()
            & (self.una.val() == self.last.val())
            & self.rto_rounds.val().any()
        {
            if self.idle.val() >= bit_cast::<9, 8>(self.rto_rounds.val()) {
                self.rq.d.next = true;
                self.rq_at.d.next = self.at.q.val();
                self.rq_f.d.next = self.retr.val() >= self.rto_retries.val();
                if self.retr.val() < self.rto_retries.val() {
                    self.rto.write_data.next =
                        bit_cast::<36, 24>(self.una.val()) | (bit_cast::<36, 4>(self.retr1.val()) << 32);
                }
            } else {
                self.rto.write_data.next = bit_cast::<36, 24>(self.una.val())
                    | (bit_cast::<36, 8>(self.idle.val().get_bits::<8>(0)) << 24)
                    | (bit_cast::<36, 4>(self.retr.val()) << 32);
            }
        }
        if self.next.val() {
            self.at.d.next = self.at.q.val() + 1;
            self.wait.d.next = self.gap.val();
        }
        self.tm_valid.next = self.tm.q.val();
        self.flow.next = self.at.q.val();
        self.rq_valid.next = self.rq.q.val();
        self.rq_fail.next = self.rq_f.q.val();
        self.rq_flow.next = self.rq_at.q.val();
        self.pq_valid.next = self.pq.q.val();
        self.pq_flow.next = self.pq_at.q.val();
        self.stat_events.next = self.events.q.val();
        self.stat_probes.next = self.probes.q.val();
        if self.sweep.val() {
            self.algs.write_enable.next = true;
            self.algs.write_address.next = self.sweep_addr.val();
            self.algs.write_data.next = 0.into();
            self.rv.write_enable.next = true;
            self.rv.write_address.next = self.sweep_addr.val();
            self.rv.write_data.next = 0.into();
            self.rto.write_enable.next = true;
            self.rto.write_address.next = self.sweep_addr.val();
            self.rto.write_data.next = 0.into();
        }
        if self.reset.val() {
            self.at.d.next = 0.into();
            self.wait.d.next = 0.into();
            self.tm.d.next = false;
            self.events.d.next = 0.into();
            self.rq.d.next = false;
            self.pq.d.next = false;
            self.probes.d.next = 0.into();
        }
    }
}
