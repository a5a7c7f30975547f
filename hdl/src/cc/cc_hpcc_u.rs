//! cc_hpcc, stage U (docs/modules/cc_module.md): the flow's new U, line 9. The U multiplier
//! gives |u' - U| x weight with 32 fraction bits; U moves by that >> 16, down rounded towards the floor
//! (a step with a fraction takes one more), up truncated. U stays when no hop was chosen or
//! the event does not measure; an init sets the initial U. Combinational; cc_hpcc writes the
//! U RAM with it and registers it for R.

use crate::cc_hpcc::CTX;
use crate::layout::{HpccCtxFields, HpccUTagFields};
use rust_hdl::prelude::*;
use sim::layout::HpccUTagLayout;

const U_TAG: usize = HpccUTagLayout::WIDTH;

/// Line 9's update of U on one event.
#[derive(LogicBlock, Default)]
pub struct CcHpccU {
    /// Initial U, UQ8.16 (cc_hpcc's `cfg_u_init_q16`).
    pub cfg_u_init_q16: Signal<In, Bits<24>>,
    /// The U multiplier's tag (`HPCC_U_TAG`): context, update, sign, U as read.
    pub tag: Signal<In, Bits<U_TAG>>,
    /// |u' - U| x weight, UQ8.16 x UQ1.16 = UQ9.32 (the U multiplier's product, the same
    /// event's).
    pub prod: Signal<In, Bits<41>>,
    /// U after the event, UQ8.16.
    pub u_new: Signal<Out, Bits<24>>,
    /// The U RAM is written: U is updated, or the event is an init.
    pub write: Signal<Out, bool>,
    ctx: Signal<Local, Bits<CTX>>,
    u_old: Signal<Local, Bits<24>>,
    step: Signal<Local, Bits<25>>,
    u_up: Signal<Local, Bits<25>>,
    u_dn: Signal<Local, Bits<25>>,
}

impl Logic for CcHpccU {
    #[hdl_gen]
    fn update(&mut self) {
        self.ctx.next = self.tag.val().get_value_ctx();
        self.u_old.next = self.tag.val().get_value_u_old();
        self.step.next = self.prod.val().get_bits::<25>(16);
        self.u_up.next = bit_cast::<25, 24>(self.u_old.val()) + self.step.val();
        self.u_dn.next = bit_cast::<25, 24>(self.u_old.val()) - self.step.val();
        if self.prod.val().get_bits::<16>(0) != 0 {
            self.u_dn.next = bit_cast::<25, 24>(self.u_old.val()) - self.step.val() - 1;
        }
        self.u_new.next = self.u_old.val();
        if self.tag.val().get_value_update() {
            self.u_new.next = self.u_up.val().get_bits::<24>(0);
            if self.tag.val().get_value_neg() {
                self.u_new.next = self.u_dn.val().get_bits::<24>(0);
            }
        }
        if self.ctx.val().get_value_init() {
            self.u_new.next = self.cfg_u_init_q16.val();
        }
        self.write.next = self.tag.val().get_value_update() | self.ctx.val().get_value_init();
    }
}
