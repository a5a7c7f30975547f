//! The flow scheduler (figure 4, "flow scheduler"): round-robin credit pacing and windows.

pub mod flow_sched;
