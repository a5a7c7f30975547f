//! cc_hpcc, stage F1 (docs/modules/cc_module.md): one event against its flow's front word
//! (`HPCC_FRONT`). Admission (0 or more than 5 hops: ignored; a new hop count: its hops are
//! only recorded as L), the commit decision (line 22 at the sender, 29 at the receiver), the
//! front word written back (L := hops, lines 26 and 34; lastUpdateSeq or lastUpdateTime moved
//! by a commit, lines 23 and 33) and the context the event carries down the pipeline
//! (`HPCC_CTX`). Combinational; cc_hpcc registers nothing here.

use crate::cc_codes::{ACT_IGNORED, ACT_RECORDED, ACT_W, ACT_WC};
use crate::cc_hpcc::CTX;
use crate::layout::{HpccCtxFields, HpccEventFields, HpccFrontFields};
use rust_hdl::prelude::*;

/// F1 for `2^F` flows.
#[derive(LogicBlock, Default)]
pub struct CcHpccAdmit<const F: usize> {
    /// T, ns (cc_hpcc's `cfg_t_ns`).
    pub cfg_t_ns: Signal<In, Bits<32>>,
    /// The event (`HPCC_EVENT`), registered at F0.
    pub evt: Signal<In, Bits<480>>,
    /// The flow's front word (`HPCC_FRONT`) as the front RAM reads it.
    pub front: Signal<In, Bits<420>>,
    /// The event measures: its hops go through lines 4-27 (action `ACT_W` or `ACT_WC`).
    pub measure: Signal<Out, bool>,
    /// The front RAM is written: the event is not ignored, or it is an init.
    pub write: Signal<Out, bool>,
    /// The front word to write (all zero for an init).
    pub new_front: Signal<Out, Bits<420>>,
    /// The event's context (`HPCC_CTX`): flow, action, init, kind.
    pub ctx: Signal<Out, Bits<CTX>>,
    count: Signal<Local, Bits<3>>,
    init: Signal<Local, bool>,
    ignore: Signal<Local, bool>,
    record: Signal<Local, bool>,
    commit: Signal<Local, bool>,
    lus: Signal<Local, Bits<32>>,
    lut: Signal<Local, Bits<64>>,
    seq_d: Signal<Local, Bits<32>>,
    now_d: Signal<Local, Bits<64>>,
    act: Signal<Local, Bits<2>>,
}

impl<const F: usize> Logic for CcHpccAdmit<F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.count.next = self.evt.val().get_value_count();
        // (Re)initialize the flow (on flow creation): nothing else happens.
        self.init.next = self.evt.val().get_value_init();
        self.ignore.next = (self.count.val() == 0) | (self.count.val() > 5) | self.init.val();
        self.record.next =
            !self.ignore.val() & (self.count.val() != self.front.val().get_value_count());
        self.measure.next = !self.ignore.val() & !self.record.val();
        self.lus.next = self.front.val().get_value_lus();
        self.lut.next = self.front.val().get_value_lut();
        self.seq_d.next = self.evt.val().get_value_seq() - self.lus.val();
        self.now_d.next = self.evt.val().get_value_now() - self.lut.val();
        if self.evt.val().get_value_rx() {
            // 29: now > lastUpdateTime + T, or never updated.
            self.commit.next = self.measure.val()
                & (!self.front.val().get_value_updated()
                    | ((self.evt.val().get_value_now() > self.lut.val())
                        & (self.now_d.val() > bit_cast::<64, 32>(self.cfg_t_ns.val()))));
        } else {
            // 22: seq after lastUpdateSeq (serial numbers).
            self.commit.next =
                self.measure.val() & (self.seq_d.val() != 0) & !self.seq_d.val().get_bit(31);
        }
        // L := hops (lines 26 and 34); a committed update moves lastUpdateSeq (23, sender) or
        // lastUpdateTime (33, receiver).
        self.new_front.next = 0.into();
        self.new_front.next.set_value_last(self.evt.val().get_value_hops());
        self.new_front.next.set_value_count(self.count.val());
        self.new_front.next.set_value_lus(self.lus.val());
        self.new_front.next.set_value_lut(self.lut.val());
        self.new_front.next.set_value_updated(self.front.val().get_value_updated());
        if self.commit.val() & !self.evt.val().get_value_rx() {
            self.new_front.next.set_value_lus(self.evt.val().get_value_snd_nxt());
        }
        if self.commit.val() & self.evt.val().get_value_rx() {
            self.new_front.next.set_value_lut(self.evt.val().get_value_now());
            self.new_front.next.set_value_updated(true);
        }
        if self.init.val() {
            self.new_front.next = 0.into();
        }
        self.write.next = !self.ignore.val() | self.init.val();
        // The context. (rust-hdl's simulator cannot settle `x.next = x.val() | ...`: every
        // value here is assigned whole, never built from its own previous value.)
        self.act.next = ACT_IGNORED.into();
        if self.record.val() {
            self.act.next = ACT_RECORDED.into();
        }
        if self.measure.val() {
            self.act.next = ACT_W.into();
        }
        if self.commit.val() {
            self.act.next = ACT_WC.into();
        }
        self.ctx.next = 0.into();
        self.ctx.next.set_value_flow(bit_cast::<12, F>(self.evt.val().get_bits::<F>(0)));
        self.ctx.next.set_value_action(self.act.val());
        self.ctx.next.set_value_init(self.init.val());
        self.ctx.next.set_value_rx(self.evt.val().get_value_rx());
    }
}
