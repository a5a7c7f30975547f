//! A BTH opcode's class: which transport header follows the BTH, whether the packet carries
//! payload or telemetry, and where what follows the transport headers starts.
//!
//! tx_pipe (building a frame), rx_pipe (placing the ICRC mask on the first beat) and
//! rx_pipe_decode (checking a frame) all need these sets. They are the methods of
//! `sim::packet::Opcode` (`has_reth`, `has_aeth`, ...); this block is their one RTL copy, and
//! its test compares it with them for all 256 opcode values. Combinational.

use crate::roce_op::*;
use rust_hdl::prelude::*;
use sim::packet::{AETH_LEN, BTH_LEN, BTH_OFFSET, RETH_LEN};

codes! {
    /// Frame offset of what follows the opcode's transport headers (the telemetry header, or
    /// the payload when there is none): after the BTH, after an AETH, after a RETH.
    AFTER_HEADERS;
    AFTER_BTH = BTH_OFFSET + BTH_LEN,
    AFTER_AETH = BTH_OFFSET + BTH_LEN + AETH_LEN,
    AFTER_RETH = BTH_OFFSET + BTH_LEN + RETH_LEN,
}

/// Width of `after`: the offsets above are below 128.
pub const AFTER_BITS: usize = 7;
const _: () = assert!(AFTER_RETH < 1 << AFTER_BITS);

codes! {
    /// The same offsets in bits, where a 1024-bit header word (`sim::layout::TX_HDR`) holds
    /// what follows the transport headers (`hdr[AFTER_AETH_BIT +: 352]`).
    AFTER_HEADERS_BIT: usize;
    AFTER_BTH_BIT = 8 * AFTER_BTH,
    AFTER_AETH_BIT = 8 * AFTER_AETH,
    AFTER_RETH_BIT = 8 * AFTER_RETH,
}

/// Width of a bit offset in the 1024-bit header word.
pub const AFTER_BIT_BITS: usize = 10;

/// Opcode in, its class out. Every output is false for an opcode sim does not know.
#[derive(LogicBlock, Default)]
pub struct RoceOpClass {
    /// BTH OpCode.
    pub op: Signal<In, Bits<8>>,
    /// A RETH follows the BTH (`Opcode::has_reth`: WRITE First / Only, READ request).
    pub reth: Signal<Out, bool>,
    /// An AETH follows the BTH (`has_aeth`: READ response First / Last / Only, ACK).
    pub aeth: Signal<Out, bool>,
    /// The packet carries data (`has_payload`: every WRITE and READ response).
    pub payload: Signal<Out, bool>,
    /// A CNP (16 reserved bytes, never telemetry).
    pub cnp: Signal<Out, bool>,
    /// A telemetry header is required (`must_carry_telemetry`: probe, telemetry response).
    pub must_tel: Signal<Out, bool>,
    /// Telemetry on this opcode is an echo (`telemetry_echoes`: ACK, telemetry response).
    pub echo: Signal<Out, bool>,
    /// sim knows the opcode (`Opcode::from_u8` is `Some`).
    pub known: Signal<Out, bool>,
    /// Frame offset after the transport headers: `AFTER_RETH`, `AFTER_AETH` or `AFTER_BTH`.
    pub after: Signal<Out, Bits<AFTER_BITS>>,
}

impl Logic for RoceOpClass {
    #[hdl_gen]
    fn update(&mut self) {
        self.reth.next = (self.op.val() == OP_RDMA_WRITE_FIRST)
            | (self.op.val() == OP_RDMA_WRITE_ONLY)
            | (self.op.val() == OP_RDMA_READ_REQUEST);
        self.aeth.next = (self.op.val() == OP_RDMA_READ_RESPONSE_FIRST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_LAST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_ONLY)
            | (self.op.val() == OP_ACKNOWLEDGE);
        self.payload.next = (self.op.val() == OP_RDMA_WRITE_FIRST)
            | (self.op.val() == OP_RDMA_WRITE_MIDDLE)
            | (self.op.val() == OP_RDMA_WRITE_LAST)
            | (self.op.val() == OP_RDMA_WRITE_ONLY)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_FIRST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_MIDDLE)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_LAST)
            | (self.op.val() == OP_RDMA_READ_RESPONSE_ONLY);
        self.cnp.next = self.op.val() == OP_CNP;
        self.must_tel.next = (self.op.val() == OP_HPCC_PROBE) | (self.op.val() == OP_HPCC_TELEMETRY_RESPONSE);
        self.echo.next = (self.op.val() == OP_ACKNOWLEDGE) | (self.op.val() == OP_HPCC_TELEMETRY_RESPONSE);
        // Every opcode is in one of these sets (the test checks it against sim's list).
        self.known.next = self.reth.val()
            | self.aeth.val()
            | self.payload.val()
            | self.cnp.val()
            | self.must_tel.val();
        self.after.next = AFTER_BTH.into();
        if self.aeth.val() {
            self.after.next = AFTER_AETH.into();
        }
        if self.reth.val() {
            self.after.next = AFTER_RETH.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim::packet::Opcode;

    /// Every opcode value through the block (settled as rust-hdl's simulator settles a
    /// combinational block: update until nothing changes) against `sim::packet::Opcode`.
    #[test]
    fn every_opcode_is_classed_as_sim_classes_it() {
        let mut b = RoceOpClass::default();
        b.connect_all();
        for v in 0..=255u8 {
            b.op.next = (v as u64).into();
            for _ in 0..8 {
                b.update_all();
                if !b.has_changed() {
                    break;
                }
            }
            assert!(!b.has_changed(), "opcode {v:#x}: the block did not settle");
            let o = Opcode::from_u8(v);
            let is = |f: fn(Opcode) -> bool| o.is_some_and(f);
            let after = if is(Opcode::has_reth) {
                AFTER_RETH
            } else if is(Opcode::has_aeth) {
                AFTER_AETH
            } else {
                AFTER_BTH
            };
            let got = (
                b.reth.val(),
                b.aeth.val(),
                b.payload.val(),
                b.cnp.val(),
                b.must_tel.val(),
                b.echo.val(),
                b.known.val(),
                b.after.val().to_u64(),
            );
            let want = (
                is(Opcode::has_reth),
                is(Opcode::has_aeth),
                is(Opcode::has_payload),
                o == Some(Opcode::Cnp),
                is(Opcode::must_carry_telemetry),
                is(Opcode::telemetry_echoes),
                o.is_some(),
                after,
            );
            assert_eq!(got, want, "opcode {v:#x}");
        }
    }

    #[test]
    fn offsets_are_the_packet_formats() {
        assert_eq!((AFTER_BTH, AFTER_AETH, AFTER_RETH), (54, 58, 70));
    }
}
