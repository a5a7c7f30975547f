//! The tops: the datapath between the shims (nic_datapath), the NIC core with the CC loop
//! closed (hpcc_nic_core) and its register port (axil_slave).

pub mod nic_datapath;
pub mod hpcc_nic_core;
pub mod axil_slave;
