//! cc_hpcc, stage W (docs/modules/cc_module.md): the flow's new W word (`HPCC_W`) from the
//! word it read and the W multiplier's product, lines 12-19. On line 13's branch (U >= eta
//! or incStage >= maxStage) W = Wc x r + W_AI, else W = Wc + W_AI, clamped to [W_min, W_max];
//! a committed update (`ACT_WC`) also sets Wc := W and moves incStage (0 on the branch, + 1
//! otherwise); an event that does not measure keeps W; an init sets W = Wc = W_max and
//! incStage 0. Combinational; cc_hpcc registers the word into its RAM and the rate multiplier.

use crate::cc_codes::{ACT_W, ACT_WC};
use crate::cc_hpcc::CTX;
use crate::layout::{HpccCtxFields, HpccWFields, HpccWbFields};
use rust_hdl::prelude::*;
use sim::layout::{HpccWLayout, HpccWbLayout};

const W_WORD: usize = HpccWLayout::WIDTH;
const WB: usize = HpccWbLayout::WIDTH;

/// Lines 12-19 on one event.
#[derive(LogicBlock, Default)]
pub struct CcHpccWindow {
    /// W_ai, UQ24.8 bytes (cc_hpcc's `cfg_w_ai_q8`).
    pub cfg_w_ai_q8: Signal<In, Bits<32>>,
    /// W_min, UQ24.8 bytes.
    pub cfg_w_min_q8: Signal<In, Bits<32>>,
    /// W_max, UQ24.8 bytes.
    pub cfg_w_max_q8: Signal<In, Bits<32>>,
    /// The W stage's word (`HPCC_WB`) two cycles after the read: context, branch, U, the
    /// W word as read.
    pub wb: Signal<In, Bits<WB>>,
    /// Wc x r, UQ24.8 x UQ16.24 (the W multiplier's product, the same event's).
    pub prod: Signal<In, Bits<72>>,
    /// The W word after the event (`HPCC_W`).
    pub word: Signal<Out, Bits<W_WORD>>,
    w_old: Signal<Local, Bits<W_WORD>>,
    ctx: Signal<Local, Bits<CTX>>,
    action: Signal<Local, Bits<2>>,
    wsum: Signal<Local, Bits<49>>,
    w_new: Signal<Local, Bits<32>>,
    wc_new: Signal<Local, Bits<32>>,
    inc_new: Signal<Local, Bits<8>>,
}

impl Logic for CcHpccWindow {
    #[hdl_gen]
    fn update(&mut self) {
        self.w_old.next = self.wb.val().get_value_w_old();
        self.ctx.next = self.wb.val().get_value_ctx();
        self.action.next = self.ctx.val().get_value_action();
        self.wsum.next = bit_cast::<49, 32>(self.w_old.val().get_value_wc())
            + bit_cast::<49, 32>(self.cfg_w_ai_q8.val());
        if self.wb.val().get_value_branch() {
            self.wsum.next = bit_cast::<49, 48>(self.prod.val().get_bits::<48>(24))
                + bit_cast::<49, 32>(self.cfg_w_ai_q8.val());
        }
        self.w_new.next = self.wsum.val().get_bits::<32>(0);
        if self.wsum.val() < bit_cast::<49, 32>(self.cfg_w_min_q8.val()) {
            self.w_new.next = self.cfg_w_min_q8.val();
        }
        if self.wsum.val() > bit_cast::<49, 32>(self.cfg_w_max_q8.val()) {
            self.w_new.next = self.cfg_w_max_q8.val();
        }
        self.wc_new.next = self.w_old.val().get_value_wc();
        self.inc_new.next = self.w_old.val().get_value_inc_stage();
        if self.action.val() == ACT_WC {
            self.wc_new.next = self.w_new.val();
            self.inc_new.next = self.w_old.val().get_value_inc_stage() + 1;
            if self.wb.val().get_value_branch() {
                self.inc_new.next = 0.into();
            }
        }
        if self.action.val() < ACT_W {
            self.w_new.next = self.w_old.val().get_value_w();
        }
        if self.ctx.val().get_value_init() {
            self.w_new.next = self.cfg_w_max_q8.val();
            self.wc_new.next = self.cfg_w_max_q8.val();
            self.inc_new.next = 0.into();
        }
        self.word.next = 0.into();
        self.word.next.set_value_w(self.w_new.val());
        self.word.next.set_value_wc(self.wc_new.val());
        self.word.next.set_value_inc_stage(self.inc_new.val());
    }
}
