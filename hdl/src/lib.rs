//! hpcc-nic RTL modules, written with rust-hdl, and their export to Verilog.

pub mod byte_mask;
pub mod byte_swap;
pub mod cc_hop_util;
pub mod cc_dcqcn;
pub mod cc_hpcc;
pub mod cc_intake;
pub mod cc_ldcp;
pub mod cc_module;
pub mod delay_line;
pub mod dist_ram;
pub mod div_pipe;
pub mod export;
pub mod export_once;
pub mod flow_park;
pub mod flow_sched;
pub mod icrc_pipe;
pub mod nic_datapath;
pub mod mul_pipe;
pub mod ones_sum;
pub mod rx_ctx;
pub mod rx_dma;
pub mod rx_pipe;
pub mod result_fifo;
pub mod tx_ctx;
pub mod tx_pipe;
