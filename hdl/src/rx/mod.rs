//! The Rx pipe (figure 4, "Rx pipe"): frame parse and checks, per-QP context (ACK/NAK,
//! go-back-N, telemetry to CC), and the frame store in front of the DMA writes.

pub mod rx_pipe;
pub mod rx_pipe_decode;
pub mod rx_pipe_judge;
pub mod rx_pipe_udp_sum;
pub mod rx_ctx;
pub mod rx_ctx_rules_calc;
pub mod rx_ctx_ctrl;
pub mod rx_ctx_rules;
pub mod rx_ctx_words;
pub mod rx_ctx_pick;
pub mod rx_dma;
pub mod rx_dma_combine;
pub mod rx_dma_frame;
pub mod rx_dma_out;
