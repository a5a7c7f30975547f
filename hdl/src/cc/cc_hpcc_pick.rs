//! cc_hpcc, stage SEL (docs/modules/cc_module.md): of two hop candidates (`HPCC_CAND`), the
//! one with the larger u', the first on a tie; a candidate that is not valid never wins over
//! one that is (lines 6-7 take the first hop with the largest u'). cc_hpcc ranks its five hops
//! with four of these, two levels of two and one of one, registered between the levels.
//! Combinational.

use crate::layout::HpccCandFields;
use rust_hdl::prelude::*;
use sim::layout::HpccCandLayout;

const CAND: usize = HpccCandLayout::WIDTH;

/// `first` unless `second` is valid and ahead of it.
#[derive(LogicBlock, Default)]
pub struct CcHpccPick {
    /// The earlier hop's candidate.
    pub first: Signal<In, Bits<CAND>>,
    /// The later hop's candidate.
    pub second: Signal<In, Bits<CAND>>,
    /// The winner.
    pub best: Signal<Out, Bits<CAND>>,
}

impl Logic for CcHpccPick {
    #[hdl_gen]
    fn update(&mut self) {
        self.best.next = self.first.val();
        if self.second.val().get_value_valid()
            & (!self.first.val().get_value_valid()
                | (self.second.val().get_value_u() > self.first.val().get_value_u()))
        {
            self.best.next = self.second.val();
        }
    }
}
