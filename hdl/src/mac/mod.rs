//! The MAC shim (draft-00 figure 4, "MAC shim"; issue 16, item 1): between the core's 250 MHz
//! frame streams and the UltraScale+ CMAC's 322 MHz AXI-Stream interface. So far its clock
//! crossing, `cdc_frame_fifo`, a two-clock store-and-forward frame FIFO.

pub mod cdc_frame_fifo;
