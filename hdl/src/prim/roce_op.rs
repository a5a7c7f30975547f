//! RoCE BTH opcodes for the RTL, from `sim::packet::Opcode` (the one list of them).
//!
//! hdl code compares with these by name (`self.op.val() == OP_ACKNOWLEDGE`). rust-hdl writes
//! the name into the Verilog as it is, and the export declares each name a module uses as a
//! `localparam [7:0]` at the top of that module (`export_fold::declare_constants`), so the
//! Verilog names them too.

use sim::packet::Opcode;

macro_rules! opcodes {
    ($($name:ident = $op:ident,)*) => {
        $(
            #[doc = concat!("`Opcode::", stringify!($op), "`.")]
            pub const $name: u64 = Opcode::$op as u64;
        )*
        /// Every opcode constant: its name in hdl and Verilog, and its value.
        pub const ALL: &[(&str, u64)] = &[$((stringify!($name), $name),)*];
    };
}

opcodes! {
    OP_RDMA_WRITE_FIRST = RdmaWriteFirst,
    OP_RDMA_WRITE_MIDDLE = RdmaWriteMiddle,
    OP_RDMA_WRITE_LAST = RdmaWriteLast,
    OP_RDMA_WRITE_ONLY = RdmaWriteOnly,
    OP_RDMA_READ_REQUEST = RdmaReadRequest,
    OP_RDMA_READ_RESPONSE_FIRST = RdmaReadResponseFirst,
    OP_RDMA_READ_RESPONSE_MIDDLE = RdmaReadResponseMiddle,
    OP_RDMA_READ_RESPONSE_LAST = RdmaReadResponseLast,
    OP_RDMA_READ_RESPONSE_ONLY = RdmaReadResponseOnly,
    OP_ACKNOWLEDGE = Acknowledge,
    OP_CNP = Cnp,
    OP_HPCC_PROBE = HpccProbe,
    OP_HPCC_TELEMETRY_RESPONSE = HpccTelemetryResponse,
}

// tx_ctx writes a READ response's opcode as READ request + its position (1 First, 2 Middle,
// 3 Last).
const _: () = assert!(
    OP_RDMA_READ_RESPONSE_FIRST == OP_RDMA_READ_REQUEST + 1
        && OP_RDMA_READ_RESPONSE_MIDDLE == OP_RDMA_READ_REQUEST + 2
        && OP_RDMA_READ_RESPONSE_LAST == OP_RDMA_READ_REQUEST + 3
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
