//! The MAC shim (draft-00 figure 4, "MAC shim"; issue 16, item 1): between the core's 250 MHz
//! frame streams and the UltraScale+ CMAC's 322 MHz AXI-Stream interface: its
//! top, `mac_shim`; its clock crossing, `cdc_frame_fifo`, a two-clock store-and-forward frame
//! FIFO; and `cdc_word`, a word carried across clocks by a handshake.

pub mod cdc_frame_fifo;
pub mod cdc_word;
pub mod mac_shim;
