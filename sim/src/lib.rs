//! Golden models of the hpcc-nic modules: simple, readable, bit-exact with the RTL.

pub mod cc_dcqcn;
pub mod cc_float;
pub mod cc_hpcc;
pub mod cc_ldcp;
pub mod cc_hop_util;
pub mod cc_fixed;
pub mod cc_module;
pub mod div_pipe;
pub mod flow_park;
pub mod flow_sched;
/// Bit layouts shared by hdl, sim and the harnesses (one definition each).
pub mod layout;
pub mod mul_pipe;
pub mod net;
pub mod nic_datapath;
pub mod nic_datapath_gate;
pub mod nic_model;
pub mod packet;
pub mod pipe;
pub mod read_split;
pub mod replay;
pub mod result_fifo;
pub mod tx_ctx;
pub mod tx_pipe;
pub mod rx_ctx;
pub mod rx_dma;
pub mod rx_pipe;
pub mod switch;
pub mod wide;
