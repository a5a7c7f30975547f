//! RoCE BTH opcodes for the RTL, from `sim::packet::Opcode` (the one list of them).
//!
//! hdl code compares with these by name (`self.op.val() == OP_ACKNOWLEDGE`). rust-hdl writes
//! the name into the Verilog as it is, and the export declares each name a module uses as a
//! `localparam [7:0]` at the top of that module (`export_fold::declare_constants`), so the
//! Verilog names them too.

use sim::packet::Opcode;

codes! {
    /// Every opcode constant: its name in hdl and Verilog, and its value.
    ALL;
    OP_RDMA_WRITE_FIRST = Opcode::RdmaWriteFirst,
    OP_RDMA_WRITE_MIDDLE = Opcode::RdmaWriteMiddle,
    OP_RDMA_WRITE_LAST = Opcode::RdmaWriteLast,
    OP_RDMA_WRITE_ONLY = Opcode::RdmaWriteOnly,
    OP_RDMA_READ_REQUEST = Opcode::RdmaReadRequest,
    OP_RDMA_READ_RESPONSE_FIRST = Opcode::RdmaReadResponseFirst,
    OP_RDMA_READ_RESPONSE_MIDDLE = Opcode::RdmaReadResponseMiddle,
    OP_RDMA_READ_RESPONSE_LAST = Opcode::RdmaReadResponseLast,
    OP_RDMA_READ_RESPONSE_ONLY = Opcode::RdmaReadResponseOnly,
    OP_ACKNOWLEDGE = Opcode::Acknowledge,
    OP_CNP = Opcode::Cnp,
    OP_HPCC_PROBE = Opcode::HpccProbe,
    OP_HPCC_TELEMETRY_RESPONSE = Opcode::HpccTelemetryResponse,
}

// tx_ctx writes a READ response's opcode as READ request + its position (First, Middle,
// Last: tx_ctx::READ_POSITIONS).
const _: () = assert!(
    OP_RDMA_READ_RESPONSE_FIRST == OP_RDMA_READ_REQUEST + crate::tx_ctx::POS_FIRST
        && OP_RDMA_READ_RESPONSE_MIDDLE == OP_RDMA_READ_REQUEST + crate::tx_ctx::POS_MIDDLE
        && OP_RDMA_READ_RESPONSE_LAST == OP_RDMA_READ_REQUEST + crate::tx_ctx::POS_LAST
);

#[cfg(test)]
mod tests {
    #[test]
    fn every_opcode_of_sim_has_a_constant() {
        let mut ours: Vec<u64> = super::ALL.iter().map(|(_, v)| *v).collect();
        let mut sims: Vec<u64> = sim::packet::Opcode::ALL.iter().map(|o| *o as u64).collect();
        ours.sort();
        sims.sort();
        assert_eq!(ours, sims);
    }
}
