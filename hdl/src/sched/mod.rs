//! The flow scheduler (figure 4, "flow scheduler"): round-robin credit pacing and windows.

pub mod flow_sched;
pub mod flow_sched_burst;
pub mod flow_sched_credit;
pub mod flow_sched_grant;
pub mod flow_sched_notify;
