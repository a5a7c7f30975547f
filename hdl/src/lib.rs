//! hpcc-nic RTL modules, written with rust-hdl, and their export to Verilog.
//!
//! The folders follow the block diagram of draft-00 section 7.2 (figure 4): `sched` (flow
//! scheduler), `cc` (CC module), `tx` (Tx pipe), `rx` (Rx pipe), `top` (the datapath and the
//! NIC core that join them), `mac` and `pcie` (the MAC and PCIe shims), and `prim` (primitives
//! they share). The export to Verilog (`export*`) and the layouts' field access (`layout`)
//! stay at this level.
//! Every block is also re-exported here by its name (`hdl::rx_pipe`), its name in rtl-out/
//! and sim/.

/// Named codes for the RTL, each taken from its one definition in sim where sim has one (the
/// hdl-only ones, such as a sequencer's states, are numbers here): a `pub const NAME: u64` per
/// entry, and the list `LIST` of `(name, value)` pairs that the export declares as
/// `localparam`s (`export_fold::declare_constants`). Every name is written once.
///
/// `codes! { /// doc of the list
///           LIST; /// doc of NAME
///           NAME = sim::path::VALUE, ... }`
///
/// `LIST: usize;` makes the constants `usize` instead, for code that compares them with a
/// loop index or `.index()` (rust-hdl's generator has no casts).
macro_rules! codes {
    ($(#[$list_doc:meta])* $list:ident: $ty:ty; $($(#[$doc:meta])* $name:ident = $value:expr,)*) => {
        $(
            $(#[$doc])*
            #[doc = concat!("\n\nFrom `", stringify!($value), "`.")]
            pub const $name: $ty = $value as $ty;
        )*
        $(#[$list_doc])*
        pub const $list: &[(&str, u64)] = &[$((stringify!($name), $name as u64),)*];
    };
    ($(#[$list_doc:meta])* $list:ident; $($(#[$doc:meta])* $name:ident = $value:expr,)*) => {
        $(
            $(#[$doc])*
            #[doc = concat!("\n\nFrom `", stringify!($value), "`.")]
            pub const $name: u64 = $value as u64;
        )*
        $(#[$list_doc])*
        pub const $list: &[(&str, u64)] = &[$((stringify!($name), $name),)*];
    };
}

pub mod cc;
pub mod host;
pub mod mac;
pub mod pcie;
pub mod prim;
pub mod rx;
pub mod sched;
pub mod top;
pub mod tx;

pub mod export;
pub mod export_fold;
pub mod export_mask;
pub mod export_once;
pub mod export_ram;
pub mod export_source;
pub mod export_wire;
pub mod layout;

pub use prim::{axis, byte_mask, byte_swap, delay_line, dist_ram, frame, div_pipe, mul_pipe, ones_sum, ram_fwd, icrc_pipe, result_fifo, roce_op, roce_op_class};
pub use cc::{cc_codes, cc_module, cc_module_route, cc_hpcc, cc_hpcc_admit, cc_hpcc_intake, cc_hpcc_pick, cc_hpcc_u, cc_hpcc_window, cc_ldcp, cc_ldcp_fast, cc_ldcp_write, cc_dcqcn, cc_dcqcn_decay, cc_dcqcn_stage, cc_dcqcn_timers, cc_hop_util, cc_intake, flow_park};
pub use sched::{flow_sched, flow_sched_burst, flow_sched_credit, flow_sched_grant, flow_sched_notify};
pub use tx::{tx_ctx, tx_ctx_ack, tx_ctx_ctrl, tx_ctx_pick, tx_ctx_pkt, tx_ctx_rewind, read_split, tx_pipe, tx_pipe_desc, tx_pipe_hdr, tx_pipe_out};
pub use rx::{rx_pipe, rx_pipe_decode, rx_pipe_judge, rx_pipe_udp_sum, rx_ctx, rx_ctx_ctrl, rx_ctx_rules, rx_ctx_rules_calc, rx_ctx_words, rx_ctx_pick, rx_dma, rx_dma_combine, rx_dma_frame, rx_dma_out};
pub use mac::{cdc_frame_fifo, cdc_word, mac_shim};
pub use host::{dma_rd_mux, dma_wr_mux, host_queues};
pub use pcie::{pcie_axil, pcie_be, pcie_rd, pcie_rd_rc, pcie_ports, pcie_rq_mux, pcie_shim, pcie_wr, pcie_wr_tlp};
pub use top::{nic_datapath, nic_datapath_gate, hpcc_nic_core, hpcc_nic_core_cpl, hpcc_nic_core_events, hpcc_nic_core_feedback, hpcc_nic_core_notify, hpcc_nic_core_regs, hpcc_nic_core_seq, hpcc_nic_core_seq_words, hpcc_nic_core_timer, hpcc_nic_core_tracker, hpcc_nic_core_tx_bytes, axil_slave, axil_split, hpcc_nic, nic_stats};
