//! Floating-point references of the congestion-control algorithms, written straight from the
//! drafts (../shared/seeds/). They bound the error of the fixed-point golden models that the CC
//! module RTL must match bit for bit.

pub mod dcqcn;
pub mod hpcc;
pub mod ldcp;
