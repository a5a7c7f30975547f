//! The Tx pipe (figure 4, "Tx pipe"): per-flow context, READ responses split into packets,
//! and the RoCEv2 frame builder.

pub mod tx_ctx;
pub mod tx_ctx_ack;
pub mod tx_ctx_ctrl;
pub mod tx_ctx_pick;
pub mod tx_ctx_pkt;
pub mod tx_ctx_rewind;
pub mod read_split;
pub mod tx_pipe;
pub mod tx_pipe_desc;
pub mod tx_pipe_hdr;
pub mod tx_pipe_out;
