//! The CC module (draft-00 figure 4, "CC module"): its top (cc_module), the three engines
//! (cc_hpcc: HPCC++ and Rx-HPCC; cc_ldcp; cc_dcqcn) and their input stages.

pub mod cc_codes;
pub mod cc_module;
pub mod cc_module_route;
pub mod cc_hpcc;
pub mod cc_hpcc_admit;
pub mod cc_hpcc_intake;
pub mod cc_hpcc_pick;
pub mod cc_hpcc_u;
pub mod cc_hpcc_window;
pub mod cc_ldcp;
pub mod cc_ldcp_fast;
pub mod cc_ldcp_write;
pub mod cc_dcqcn;
pub mod cc_dcqcn_decay;
pub mod cc_dcqcn_stage;
pub mod cc_dcqcn_timers;
pub mod cc_hop_util;
pub mod cc_intake;
pub mod flow_park;
