//! cc_ldcp, stage F2 (docs/modules/cc_module.md): what an event leaves behind. The final cw
//! (eq. 2's increase added, saturating, clamped to [gamma, max]); the sub-packet timer armed,
//! disarmed or granting a packet; the flow's new state word; and the result's fields for the
//! O stage. Combinational; cc_ldcp writes `state` to the RAM and carries `o_word` in `d3`.

use crate::cc_ldcp::{CTX_E2, O_WORD, STATE};
use crate::layout::{LdcpCtxFields, LdcpOFields, LdcpStateFields};
use rust_hdl::prelude::*;

/// F1's registers in; the state word and the O stage's word out.
#[derive(LogicBlock, Default)]
pub struct CcLdcpWrite {
    /// Window clamp, UQ16.16 packets, cc_ldcp's `cfg_max_cw_q16`.
    pub cfg_max_cw_q16: Signal<In, Bits<32>>,
    /// gamma, UQ16.16 packets (cc_ldcp_fast's): the floor of cw.
    pub gamma: Signal<In, Bits<32>>,
    /// The context word (`sim::layout::LDCP_CTX`, all of it), registered at F1.
    pub ctx: Signal<In, Bits<CTX_E2>>,
    /// cw + eq. 2's increase, 33 bits (F1).
    pub sum: Signal<In, Bits<33>>,
    /// now + the sub-packet period, saturated (F1).
    pub tsum: Signal<In, Bits<64>>,
    /// The timer runs with the new cw: no eq. 2 increase, not in the fast start, cw below one
    /// packet (F1).
    pub per: Signal<In, bool>,
    /// The flow's new state word (`sim::layout::LDCP_STATE`).
    pub state: Signal<Out, Bits<STATE>>,
    /// The result's fields this event sets (`sim::layout::LDCP_O`).
    pub o_word: Signal<Out, Bits<O_WORD>>,
    cw_sum: Signal<Local, Bits<32>>,
    cw_new: Signal<Local, Bits<32>>,
    armed: Signal<Local, Bits<1>>,
    tick: Signal<Local, Bits<64>>,
    grant: Signal<Local, Bits<1>>,
}

impl Logic for CcLdcpWrite {
    #[hdl_gen]
    fn update(&mut self) {
        self.cw_sum.next = self.sum.val().get_bits::<32>(0);
        if self.sum.val().get_bit(32) {
            self.cw_sum.next = 0xFFFF_FFFF_u64.into();
        }
        self.cw_new.next = self.ctx.val().get_value_cw_s();
        if self.ctx.val().get_value_eq2() & !self.ctx.val().get_value_ece() {
            self.cw_new.next = self.cw_sum.val();
            if self.cw_sum.val() > self.cfg_max_cw_q16.val() {
                self.cw_new.next = self.cfg_max_cw_q16.val();
            }
            if self.cw_sum.val() < self.gamma.val() {
                self.cw_new.next = self.gamma.val();
            }
        }
        self.armed.next = self.ctx.val().get_value_armed_bits();
        self.tick.next = self.ctx.val().get_value_tick();
        self.grant.next = 0.into();
        if self.ctx.val().get_value_rearm() {
            if self.per.val() {
                if !self.ctx.val().get_value_armed() {
                    self.armed.next = 1.into();
                    self.tick.next = self.tsum.val();
                }
            } else {
                self.armed.next = 0.into();
            }
        }
        if self.ctx.val().get_value_timer() {
            if self.per.val() {
                if self.ctx.val().get_value_armed() & self.ctx.val().get_value_due() {
                    self.tick.next = self.tsum.val();
                    self.grant.next = 1.into();
                }
            } else {
                self.armed.next = 0.into();
            }
        }
        if !self.armed.val().any() {
            self.tick.next = 0.into();
        }
        self.state.next = 0.into();
        self.state.next.set_value_fast_start_bits(self.ctx.val().get_value_fast_start_bits());
        self.state.next.set_value_armed_bits(self.armed.val());
        self.state.next.set_value_cw(self.cw_new.val());
        self.state.next.set_value_fs_acked(self.ctx.val().get_value_fs_acked());
        self.state.next.set_value_now(self.ctx.val().get_value_now());
        self.state.next.set_value_tick(self.tick.val());

        // The result's fields, beside the window and rate products.
        self.o_word.next = 0.into();
        self.o_word.next.set_value_flow(self.ctx.val().get_value_flow());
        self.o_word.next.set_value_kind(self.ctx.val().get_value_kind());
        self.o_word.next.set_value_grant_bits(self.grant.val());
        self.o_word.next.set_value_fast_start_bits(self.ctx.val().get_value_fast_start_bits());
        self.o_word.next.set_value_armed_bits(self.armed.val());
        self.o_word.next.set_value_fs_acked(self.ctx.val().get_value_fs_acked());
        self.o_word.next.set_value_cw(self.cw_new.val());
        self.o_word.next.set_value_tick(self.tick.val());
    }
}
