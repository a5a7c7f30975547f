//! The tops: the datapath between the shims (nic_datapath, with its PktRecv gate), the NIC core with the CC loop
//! closed (hpcc_nic_core, with its blocks: registers, command sequencer, timer scan, tx-byte events, Rx-HPCC
//! feedback, completion queue) and its register port (axil_slave); the NIC (hpcc_nic: shims, host queues, core), with
//! BAR0's split (axil_split) and the counters' registers (nic_stats).

pub mod nic_datapath;
pub mod nic_datapath_gate;
pub mod hpcc_nic_core;
pub mod hpcc_nic_core_cpl;
pub mod hpcc_nic_core_events;
pub mod hpcc_nic_core_feedback;
pub mod hpcc_nic_core_notify;
pub mod hpcc_nic_core_regs;
pub mod hpcc_nic_core_seq;
pub mod hpcc_nic_core_seq_words;
pub mod hpcc_nic_core_timer;
pub mod hpcc_nic_core_tracker;
pub mod hpcc_nic_core_tx_bytes;
pub mod axil_slave;
pub mod axil_split;
pub mod hpcc_nic;
pub mod nic_stats;
