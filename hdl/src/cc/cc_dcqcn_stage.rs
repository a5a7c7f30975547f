//! cc_dcqcn, stage 5 (docs/modules/cc_module.md): which increase each expiry makes. With the
//! byte counter on, fast recovery while both counters are within F, hyper increase once both
//! are past it, additive otherwise; with it off, by the timer count alone (additive exactly at
//! F + 1). The timer's increase sees the counters after the timer's expiry and before the
//! byte counter's, the byte counter's increase both after. The step is 0 (fast recovery),
//! R_AI or R_HAI, and the flow's last stage is the later increase's. Combinational.

use crate::cc_codes::{DCQCN_ADDITIVE, DCQCN_FAST_RECOVERY, DCQCN_HYPER};
use rust_hdl::prelude::*;

/// Stage 5 of cc_dcqcn.
#[derive(LogicBlock, Default)]
pub struct CcDcqcnStage {
    /// F, fast-recovery steps (cc_dcqcn's `cfg_fast_recovery_times`).
    pub cfg_fast_recovery_times: Signal<In, Bits<8>>,
    /// B, bytes per byte-counter expiry; 0 disables the byte counter.
    pub cfg_byte_counter_bytes: Signal<In, Bits<32>>,
    /// R_AI, UQ16.24 bytes/cycle.
    pub cfg_ai_q24: Signal<In, Bits<40>>,
    /// R_HAI, UQ16.24 bytes/cycle.
    pub cfg_hai_q24: Signal<In, Bits<40>>,
    /// Timer expiries after the event's timer expiry (cc_dcqcn_timers' `out_t1`).
    pub t1: Signal<In, Bits<32>>,
    /// Byte-counter expiries before the event.
    pub bc: Signal<In, Bits<32>>,
    /// Byte-counter expiries after the event.
    pub bc1: Signal<In, Bits<32>>,
    /// The timer expired.
    pub fire: Signal<In, bool>,
    /// The byte counter expired.
    pub bcfire: Signal<In, bool>,
    /// The flow's last stage before the event.
    pub last_stage: Signal<In, Bits<2>>,
    /// The timer increase's step.
    pub step1: Signal<Out, Bits<40>>,
    /// The byte-counter increase's step.
    pub step2: Signal<Out, Bits<40>>,
    /// The flow's last stage after the event.
    pub new_stage: Signal<Out, Bits<2>>,
    f32: Signal<Local, Bits<32>>,
    f1_32: Signal<Local, Bits<32>>,
    tle: Signal<Local, bool>,
    teq: Signal<Local, bool>,
    ble: Signal<Local, bool>,
    b1le: Signal<Local, bool>,
    stage1: Signal<Local, Bits<2>>,
    stage2: Signal<Local, Bits<2>>,
}

impl Logic for CcDcqcnStage {
    #[hdl_gen]
    fn update(&mut self) {
        self.f32.next = bit_cast::<32, 8>(self.cfg_fast_recovery_times.val());
        self.f1_32.next = self.f32.val() + 1;
        self.tle.next = self.t1.val() <= self.f32.val();
        self.teq.next = self.t1.val() == self.f1_32.val();
        self.ble.next = self.bc.val() <= self.f32.val();
        self.b1le.next = self.bc1.val() <= self.f32.val();
        self.stage1.next = DCQCN_ADDITIVE.into();
        self.stage2.next = DCQCN_ADDITIVE.into();
        if self.cfg_byte_counter_bytes.val().any() {
            if self.tle.val() & self.ble.val() {
                self.stage1.next = DCQCN_FAST_RECOVERY.into();
            }
            if !self.tle.val() & !self.ble.val() {
                self.stage1.next = DCQCN_HYPER.into();
            }
            if self.tle.val() & self.b1le.val() {
                self.stage2.next = DCQCN_FAST_RECOVERY.into();
            }
            if !self.tle.val() & !self.b1le.val() {
                self.stage2.next = DCQCN_HYPER.into();
            }
        } else {
            self.stage1.next = DCQCN_HYPER.into();
            if self.teq.val() {
                self.stage1.next = DCQCN_ADDITIVE.into();
            }
            if self.tle.val() {
                self.stage1.next = DCQCN_FAST_RECOVERY.into();
            }
            self.stage2.next = self.stage1.val();
        }
        self.step1.next = self.cfg_hai_q24.val();
        if self.stage1.val() == DCQCN_ADDITIVE {
            self.step1.next = self.cfg_ai_q24.val();
        }
        if self.stage1.val() == DCQCN_FAST_RECOVERY {
            self.step1.next = 0.into();
        }
        self.step2.next = self.cfg_hai_q24.val();
        if self.stage2.val() == DCQCN_ADDITIVE {
            self.step2.next = self.cfg_ai_q24.val();
        }
        if self.stage2.val() == DCQCN_FAST_RECOVERY {
            self.step2.next = 0.into();
        }
        self.new_stage.next = self.last_stage.val();
        if self.fire.val() {
            self.new_stage.next = self.stage1.val();
        }
        if self.bcfire.val() {
            self.new_stage.next = self.stage2.val();
        }
    }
}
