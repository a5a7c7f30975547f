//! rust-hdl's own simulation of the CC blocks (the `rust_hdl_simulation_matches_the_model`
//! tests of cc_hpcc, cc_ldcp, cc_dcqcn and cc_module): a model's configuration onto a block's
//! configuration port group (`hdl::cc_hpcc::HpccCfg`, `LdcpCfg`, `DcqcnCfg`, the engine's `cfg`
//! and cc_module's `cfg_hpcc` / `cfg_ldcp` / `cfg_dcqcn`), and 32-bit lanes as a wide `Bits`.
//! The Verilated harnesses set the same ports by name (`set_cfg_t_ns`, ...).

use crate::harness::cc_dcqcn::decay_words;
use hdl::cc_dcqcn::DcqcnCfg;
use hdl::cc_hpcc::HpccCfg;
use hdl::cc_ldcp::LdcpCfg;
use hdl::div_pipe::bits_from_u128;
use rust_hdl::prelude::*;
use sim::cc_dcqcn::DcqcnConfig;
use sim::cc_hpcc::HpccConfig;
use sim::cc_ldcp::LdcpConfig;

/// `words`, lane 0 the lowest, as `Bits<N>`.
pub fn wide<const N: usize>(words: &[u32]) -> Bits<N> {
    let mut b = Bits::<N>::default();
    for (k, chunk) in words.chunks(4).enumerate() {
        let v = chunk.iter().rev().fold(0u128, |a, &w| a << 32 | w as u128);
        b = b | (bits_from_u128::<N>(v) << (128 * k as u64));
    }
    b
}

/// HPCC++'s configuration onto cc_hpcc's port group.
pub fn set_hpcc(cfg: &mut HpccCfg, c: &HpccConfig) {
    cfg.t_ns.next = (c.t_ns as u64).into();
    cfg.eta_q16.next = (c.eta_q16 as u64).into();
    cfg.max_stage.next = (c.max_stage as u64).into();
    cfg.w_ai_q8.next = (c.w_ai_q8 as u64).into();
    cfg.w_min_q8.next = (c.w_min_q8 as u64).into();
    cfg.w_max_q8.next = (c.w_max_q8 as u64).into();
    cfg.u_init_q16.next = (c.u_init_q16 as u64).into();
    cfg.inv_bt.next = wide(&c.inv_bt);
    cfg.inv_b.next = wide(&c.inv_b);
    cfg.inv_t.next = (c.inv_t as u64).into();
    cfg.rate_mul.next = (c.rate_mul as u64).into();
    cfg.line_q16.next = (c.line_q16 as u64).into();
}

/// LDCP's configuration onto cc_ldcp's port group.
pub fn set_ldcp(cfg: &mut LdcpCfg, c: &LdcpConfig) {
    cfg.rtt_ns.next = (c.rtt_ns as u64).into();
    cfg.mss.next = (c.mss_bytes as u64).into();
    cfg.alpha_q16.next = (c.alpha_q16 as u64).into();
    cfg.beta_q16.next = (c.beta_q16 as u64).into();
    cfg.gamma_shift.next = (c.gamma_shift as u64).into();
    cfg.iw.next = (c.iw_pkts as u64).into();
    cfg.max_cw_q16.next = (c.max_cw_q16 as u64).into();
    cfg.fast_start.next = c.fast_start;
    cfg.rate_mul.next = (c.rate_mul as u64).into();
    cfg.line_q16.next = (c.line_q16 as u64).into();
}

/// DCQCN's configuration onto cc_dcqcn's port group.
pub fn set_dcqcn(cfg: &mut DcqcnCfg, c: &DcqcnConfig) {
    cfg.line_q24.next = c.line_q24.into();
    cfg.min_q24.next = c.min_q24.into();
    cfg.ai_q24.next = c.ai_q24.into();
    cfg.hai_q24.next = c.hai_q24.into();
    cfg.g_shift.next = (c.g_shift as u64).into();
    cfg.initial_alpha_q24.next = (c.initial_alpha_q24 as u64).into();
    cfg.alpha_timer_ns.next = (c.alpha_timer_ns as u64).into();
    cfg.decay.next = wide(&decay_words(c));
    cfg.min_cut_interval_ns.next = (c.min_cut_interval_ns as u64).into();
    cfg.rate_increase_timer_ns.next = (c.rate_increase_timer_ns as u64).into();
    cfg.byte_counter_bytes.next = (c.byte_counter_bytes as u64).into();
    cfg.fast_recovery_times.next = (c.fast_recovery_times as u64).into();
    cfg.win_mul.next = (c.win_mul as u64).into();
}
