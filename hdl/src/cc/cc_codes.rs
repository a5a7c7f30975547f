//! The CC event types and algorithm codes for the RTL, from `sim::cc_module` (the one list of
//! them; `layout::CC_EVENT`'s `kind` and `alg` fields carry them), and the LDCP and DCQCN
//! engines' own event kinds, from their block models.
//!
//! As with the opcodes (`roce_op`), hdl compares and writes these by name
//! (`self.s1_type.val() == EV_CREATE`), rust-hdl writes the name into the Verilog, and the
//! export declares each one a module names as a `localparam` of the field's width
//! (`export_fold::declare_constants`).

use sim::cc_module as m;

/// Type 0: an ACK (HPCC++ sender, LDCP).
pub const EV_ACK: u64 = m::ACK as u64;
/// Type 1: data-packet telemetry at the receiver (Rx-HPCC).
pub const EV_RX: u64 = m::RX as u64;
/// Type 2: a loss / NAK (LDCP).
pub const EV_LOSS: u64 = m::LOSS as u64;
/// Type 3: a timer tick (LDCP, DCQCN).
pub const EV_TIMER: u64 = m::TIMER as u64;
/// Type 4: a CNP (DCQCN).
pub const EV_CNP: u64 = m::CNP as u64;
/// Type 5: bytes sent (DCQCN's byte counter).
pub const EV_TX: u64 = m::TX as u64;
/// Type 6: create a flow (every algorithm).
pub const EV_CREATE: u64 = m::CREATE as u64;

/// Algorithm 0: HPCC++ sender.
pub const ALG_HPCC: u64 = m::HPCC as u64;
/// Algorithm 1: Rx-HPCC (receiver-driven HPCC++).
pub const ALG_RX_HPCC: u64 = m::RX_HPCC as u64;
/// Algorithm 2: LDCP.
pub const ALG_LDCP: u64 = m::LDCP as u64;
/// Algorithm 3: DCQCN.
pub const ALG_DCQCN: u64 = m::DCQCN as u64;

/// cc_ldcp's own event kinds (its `ldcp_event` word), from `sim::cc_ldcp::block::Kind`.
pub const LDCP_ACK: u64 = sim::cc_ldcp::block::Kind::Ack as u64;
/// LDCP: a loss.
pub const LDCP_LOSS: u64 = sim::cc_ldcp::block::Kind::Loss as u64;
/// LDCP: the sub-packet window timer.
pub const LDCP_TIMER: u64 = sim::cc_ldcp::block::Kind::Timer as u64;
/// LDCP: (re)initialize the flow.
pub const LDCP_INIT: u64 = sim::cc_ldcp::block::Kind::Init as u64;

/// cc_dcqcn's own event kinds (its `dcqcn_event` word), from `sim::cc_dcqcn::block`.
pub const DCQCN_CNP: u64 = sim::cc_dcqcn::block::CNP as u64;
/// DCQCN: a timer tick (alpha and rate-increase timers).
pub const DCQCN_TIMER: u64 = sim::cc_dcqcn::block::TIMER as u64;
/// DCQCN: bytes sent (the byte counter).
pub const DCQCN_TX: u64 = sim::cc_dcqcn::block::TX as u64;
/// DCQCN: (re)initialize the flow.
pub const DCQCN_INIT: u64 = sim::cc_dcqcn::block::INIT as u64;

/// Every event type constant: its name in hdl and Verilog, and its value.
pub const EVENT_TYPES: &[(&str, u64)] = &[
    ("EV_ACK", EV_ACK),
    ("EV_RX", EV_RX),
    ("EV_LOSS", EV_LOSS),
    ("EV_TIMER", EV_TIMER),
    ("EV_CNP", EV_CNP),
    ("EV_TX", EV_TX),
    ("EV_CREATE", EV_CREATE),
];

/// Every algorithm constant: its name in hdl and Verilog, and its value.
pub const ALGORITHMS: &[(&str, u64)] = &[
    ("ALG_HPCC", ALG_HPCC),
    ("ALG_RX_HPCC", ALG_RX_HPCC),
    ("ALG_LDCP", ALG_LDCP),
    ("ALG_DCQCN", ALG_DCQCN),
];

/// Every engine event kind constant (LDCP's and DCQCN's, both 2 bits).
pub const ENGINE_KINDS: &[(&str, u64)] = &[
    ("LDCP_ACK", LDCP_ACK),
    ("LDCP_LOSS", LDCP_LOSS),
    ("LDCP_TIMER", LDCP_TIMER),
    ("LDCP_INIT", LDCP_INIT),
    ("DCQCN_CNP", DCQCN_CNP),
    ("DCQCN_TIMER", DCQCN_TIMER),
    ("DCQCN_TX", DCQCN_TX),
    ("DCQCN_INIT", DCQCN_INIT),
];

#[cfg(test)]
mod tests {
    use super::*;
    use sim::layout::{CC_EVENT, DCQCN_EVENT, LDCP_EVENT};

    #[test]
    fn every_code_fits_its_field() {
        for (name, v) in EVENT_TYPES {
            assert!(*v < 1 << CC_EVENT.kind.width, "{name}");
        }
        for (name, v) in ALGORITHMS {
            assert!(*v < 1 << CC_EVENT.alg.width, "{name}");
        }
        for (name, v) in ENGINE_KINDS {
            let w = if name.starts_with("LDCP") { LDCP_EVENT.kind.width } else { DCQCN_EVENT.kind.width };
            assert!(*v < 1 << w, "{name}");
        }
    }

    #[test]
    fn names_and_values_are_distinct() {
        for list in [EVENT_TYPES, ALGORITHMS, &ENGINE_KINDS[..4], &ENGINE_KINDS[4..]] {
            for (i, a) in list.iter().enumerate() {
                for b in &list[i + 1..] {
                    assert!(a.0 != b.0 && a.1 != b.1, "{a:?} {b:?}");
                }
            }
        }
    }
}
