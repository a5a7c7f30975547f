//! The CC module's routing table: which engine takes an event of a given type for a flow of a
//! given algorithm, and as which of the engine's own kinds. Combinational; cc_module reads it
//! for the event held in S1. An event its flow's algorithm does not use goes to no engine
//! (cc_module takes it and counts it in `stat_unused`). Model: `sim::cc_module::used_types`; the
//! module-random regression checks every type against it, counting the unused ones.
//!
//! | algorithm | event types taken | engine |
//! |---|---|---|
//! | HPCC++ (0) | ACK, create | cc_hpcc |
//! | Rx-HPCC (1) | receiver telemetry, create | cc_hpcc (`rx`) |
//! | LDCP (2) | ACK, loss, timer, create | cc_ldcp |
//! | DCQCN (3) | CNP, timer, tx bytes, create | cc_dcqcn |

use crate::cc_codes::*;
use rust_hdl::prelude::*;

/// Event type and algorithm in, engine and kind out.
#[derive(LogicBlock, Default)]
pub struct CcModuleRoute {
    /// The event's type (`cc_event`'s `kind`, EV_*).
    pub kind: Signal<In, Bits<4>>,
    /// The flow's algorithm (ALG_*; a create's own).
    pub alg: Signal<In, Bits<2>>,
    /// To cc_hpcc.
    pub to_h: Signal<Out, bool>,
    /// To cc_ldcp.
    pub to_l: Signal<Out, bool>,
    /// To cc_dcqcn.
    pub to_d: Signal<Out, bool>,
    /// cc_hpcc's `rx` (an Rx-HPCC flow's event).
    pub h_rx: Signal<Out, bool>,
    /// cc_hpcc's `init` (a create).
    pub h_init: Signal<Out, bool>,
    /// cc_ldcp's event kind (LDCP_*).
    pub l_kind: Signal<Out, Bits<2>>,
    /// cc_dcqcn's event kind (DCQCN_*).
    pub d_kind: Signal<Out, Bits<2>>,
}

impl Logic for CcModuleRoute {
    #[hdl_gen]
    fn update(&mut self) {
        self.to_h.next = false;
        self.to_l.next = false;
        self.to_d.next = false;
        self.h_rx.next = false;
        self.h_init.next = false;
        self.l_kind.next = LDCP_ACK.into();
        self.d_kind.next = DCQCN_CNP.into();
        if self.alg.val() == ALG_HPCC {
            if self.kind.val() == EV_ACK {
                self.to_h.next = true;
            }
            if self.kind.val() == EV_CREATE {
                self.to_h.next = true;
                self.h_init.next = true;
            }
        }
        if self.alg.val() == ALG_RX_HPCC {
            if self.kind.val() == EV_RX {
                self.to_h.next = true;
                self.h_rx.next = true;
            }
            if self.kind.val() == EV_CREATE {
                self.to_h.next = true;
                self.h_rx.next = true;
                self.h_init.next = true;
            }
        }
        if self.alg.val() == ALG_LDCP {
            if self.kind.val() == EV_ACK {
                self.to_l.next = true;
            }
            if self.kind.val() == EV_LOSS {
                self.to_l.next = true;
                self.l_kind.next = LDCP_LOSS.into();
            }
            if self.kind.val() == EV_TIMER {
                self.to_l.next = true;
                self.l_kind.next = LDCP_TIMER.into();
            }
            if self.kind.val() == EV_CREATE {
                self.to_l.next = true;
                self.l_kind.next = LDCP_INIT.into();
            }
        }
        if self.alg.val() == ALG_DCQCN {
            if self.kind.val() == EV_CNP {
                self.to_d.next = true;
            }
            if self.kind.val() == EV_TIMER {
                self.to_d.next = true;
                self.d_kind.next = DCQCN_TIMER.into();
            }
            if self.kind.val() == EV_TX {
                self.to_d.next = true;
                self.d_kind.next = DCQCN_TX.into();
            }
            if self.kind.val() == EV_CREATE {
                self.to_d.next = true;
                self.d_kind.next = DCQCN_INIT.into();
            }
        }
    }
}
