//! The CC event types and algorithm codes for the RTL, from `sim::cc_module` (the one list of
//! them; `layout::CC_EVENT`'s `kind` and `alg` fields carry them), and the LDCP and DCQCN
//! engines' own event kinds, from their block models.
//!
//! As with the opcodes (`roce_op`), hdl compares and writes these by name
//! (`self.s1_type.val() == EV_CREATE`), rust-hdl writes the name into the Verilog, and the
//! export declares each one a module names as a `localparam` of the field's width
//! (`export_fold::declare_constants`).

use sim::cc_dcqcn::block as dcqcn;
use sim::cc_hpcc::Action;
use sim::cc_ldcp::block::Kind as Ldcp;
use sim::cc_module as m;

codes! {
    /// Every CC event type (the `cc_event` word's `kind`): its name in hdl and Verilog, and its
    /// value.
    EVENT_TYPES;
    /// Type 0: an ACK (HPCC++ sender, LDCP).
    EV_ACK = m::ACK,
    /// Type 1: data-packet telemetry at the receiver (Rx-HPCC).
    EV_RX = m::RX,
    /// Type 2: a loss / NAK (LDCP).
    EV_LOSS = m::LOSS,
    /// Type 3: a timer tick (LDCP, DCQCN).
    EV_TIMER = m::TIMER,
    /// Type 4: a CNP (DCQCN).
    EV_CNP = m::CNP,
    /// Type 5: bytes sent (DCQCN's byte counter).
    EV_TX = m::TX,
    /// Type 6: create a flow (every algorithm).
    EV_CREATE = m::CREATE,
}

codes! {
    /// Every algorithm (the `cc_event` word's `alg`): its name in hdl and Verilog, and its value.
    ALGORITHMS;
    /// Algorithm 0: HPCC++ sender.
    ALG_HPCC = m::HPCC,
    /// Algorithm 1: Rx-HPCC (receiver-driven HPCC++).
    ALG_RX_HPCC = m::RX_HPCC,
    /// Algorithm 2: LDCP.
    ALG_LDCP = m::LDCP,
    /// Algorithm 3: DCQCN.
    ALG_DCQCN = m::DCQCN,
}

codes! {
    /// cc_hpcc's result actions (the `hpcc_result` word's `action`, carried in `hpcc_ctx`).
    HPCC_ACTIONS;
    /// Nothing changed (0 or more than 5 hops).
    ACT_IGNORED = Action::Ignored,
    /// Only L was recorded (first telemetry or a new hop count).
    ACT_RECORDED = Action::Recorded,
    /// W recomputed from the unchanged Wc: U and W are written.
    ACT_W = Action::UpdatedW,
    /// W recomputed and Wc, incStage committed.
    ACT_WC = Action::UpdatedWc,
}

codes! {
    /// cc_ldcp's own event kinds (its `ldcp_event` word's `kind`).
    LDCP_KINDS;
    /// LDCP: an ACK.
    LDCP_ACK = Ldcp::Ack,
    /// LDCP: a loss.
    LDCP_LOSS = Ldcp::Loss,
    /// LDCP: the sub-packet window timer.
    LDCP_TIMER = Ldcp::Timer,
    /// LDCP: (re)initialize the flow.
    LDCP_INIT = Ldcp::Init,
}

codes! {
    /// cc_dcqcn's own event kinds (its `dcqcn_event` word's `kind`).
    DCQCN_KINDS;
    /// DCQCN: a CNP.
    DCQCN_CNP = dcqcn::CNP,
    /// DCQCN: a timer tick (alpha and rate-increase timers).
    DCQCN_TIMER = dcqcn::TIMER,
    /// DCQCN: bytes sent (the byte counter).
    DCQCN_TX = dcqcn::TX,
    /// DCQCN: (re)initialize the flow.
    DCQCN_INIT = dcqcn::INIT,
}

codes! {
    /// cc_dcqcn's increase stages (its `dcqcn_state` word's `last_stage`; 0: none yet).
    DCQCN_STAGES;
    /// DCQCN: fast recovery (Rt stays, Rc moves halfway to it).
    DCQCN_FAST_RECOVERY = dcqcn::STAGE_FAST_RECOVERY,
    /// DCQCN: additive increase (Rt += R_AI).
    DCQCN_ADDITIVE = dcqcn::STAGE_ADDITIVE,
    /// DCQCN: hyper increase (Rt += R_HAI).
    DCQCN_HYPER = dcqcn::STAGE_HYPER,
}

// Checked with every other list of codes in export_fold (constant_names_are_unique_and_values_fit):
// each value fits the width of the field that carries it, names and values are distinct.
