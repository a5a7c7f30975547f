//! One host's NIC in a `netsim --nic mix:K` run: the Verilated core or the model NIC
//! (`model_nic::ModelNic`), behind one type, so a network holds both kinds. Every port method
//! and stream handle passes to the one inside.

use super::host::HostPorts;
use super::hpcc_nic_core::{Checks, CoreDut};
use super::model_nic::ModelNic;
use crate::verilated::models::HpccNicCore as Rtl;
use crate::verilated::{MAxis, SAxis};

/// The Verilated core or the model NIC.
pub enum AnyNic {
    Rtl(Box<Rtl>),
    Model(Box<ModelNic>),
}

/// An output stream handle that calls `$r`'s or `$m`'s.
macro_rules! m_axis {
    ($r:expr, $m:expr) => {
        MAxis {
            name: $r.name,
            bits: $r.bits,
            tvalid: |n| match n {
                AnyNic::Rtl(x) => ($r.tvalid)(x),
                AnyNic::Model(x) => ($m.tvalid)(x),
            },
            set_tready: |n, v| match n {
                AnyNic::Rtl(x) => ($r.set_tready)(x, v),
                AnyNic::Model(x) => ($m.set_tready)(x, v),
            },
            tdata: |n, w| match n {
                AnyNic::Rtl(x) => ($r.tdata)(x, w),
                AnyNic::Model(x) => ($m.tdata)(x, w),
            },
            tlast: if $r.tlast.is_some() {
                Some(|n| match n {
                    AnyNic::Rtl(x) => ($r.tlast.unwrap())(x),
                    AnyNic::Model(x) => ($m.tlast.unwrap())(x),
                })
            } else {
                None
            },
            tkeep: if $r.tkeep.is_some() {
                Some(|n| match n {
                    AnyNic::Rtl(x) => ($r.tkeep.unwrap())(x),
                    AnyNic::Model(x) => ($m.tkeep.unwrap())(x),
                })
            } else {
                None
            },
            tuser: if $r.tuser.is_some() {
                Some(|n| match n {
                    AnyNic::Rtl(x) => ($r.tuser.unwrap())(x),
                    AnyNic::Model(x) => ($m.tuser.unwrap())(x),
                })
            } else {
                None
            },
        }
    };
}

/// An input stream handle that calls `$r`'s or `$m`'s.
macro_rules! s_axis {
    ($r:expr, $m:expr) => {
        SAxis {
            name: $r.name,
            bits: $r.bits,
            set_tvalid: |n, v| match n {
                AnyNic::Rtl(x) => ($r.set_tvalid)(x, v),
                AnyNic::Model(x) => ($m.set_tvalid)(x, v),
            },
            tready: |n| match n {
                AnyNic::Rtl(x) => ($r.tready)(x),
                AnyNic::Model(x) => ($m.tready)(x),
            },
            set_tdata: |n, w| match n {
                AnyNic::Rtl(x) => ($r.set_tdata)(x, w),
                AnyNic::Model(x) => ($m.set_tdata)(x, w),
            },
            set_tlast: if $r.set_tlast.is_some() {
                Some(|n, v| match n {
                    AnyNic::Rtl(x) => ($r.set_tlast.unwrap())(x, v),
                    AnyNic::Model(x) => ($m.set_tlast.unwrap())(x, v),
                })
            } else {
                None
            },
            set_tkeep: if $r.set_tkeep.is_some() {
                Some(|n, v| match n {
                    AnyNic::Rtl(x) => ($r.set_tkeep.unwrap())(x, v),
                    AnyNic::Model(x) => ($m.set_tkeep.unwrap())(x, v),
                })
            } else {
                None
            },
            set_tuser: if $r.set_tuser.is_some() {
                Some(|n, v| match n {
                    AnyNic::Rtl(x) => ($r.set_tuser.unwrap())(x, v),
                    AnyNic::Model(x) => ($m.set_tuser.unwrap())(x, v),
                })
            } else {
                None
            },
        }
    };
}

impl HostPorts for AnyNic {
    const DMA_RD: MAxis<Self> = m_axis!(<Rtl as HostPorts>::DMA_RD, <ModelNic as HostPorts>::DMA_RD);
    const DMA_RD_DATA: SAxis<Self> = s_axis!(<Rtl as HostPorts>::DMA_RD_DATA, <ModelNic as HostPorts>::DMA_RD_DATA);
    const TX: MAxis<Self> = m_axis!(<Rtl as HostPorts>::TX, <ModelNic as HostPorts>::TX);
    const RX: SAxis<Self> = s_axis!(<Rtl as HostPorts>::RX, <ModelNic as HostPorts>::RX);
    const DMA_WR_CMD: MAxis<Self> = m_axis!(<Rtl as HostPorts>::DMA_WR_CMD, <ModelNic as HostPorts>::DMA_WR_CMD);
    const DMA_WR: MAxis<Self> = m_axis!(<Rtl as HostPorts>::DMA_WR, <ModelNic as HostPorts>::DMA_WR);
}

/// Calls `$f` on the NIC inside.
macro_rules! pass {
    ($s:expr, $x:ident => $e:expr) => {
        match $s {
            AnyNic::Rtl($x) => $e,
            AnyNic::Model($x) => $e,
        }
    };
}

impl CoreDut for AnyNic {
    const CPL: MAxis<Self> = m_axis!(<Rtl as CoreDut>::CPL, <ModelNic as CoreDut>::CPL);
    fn set_reset(&mut self, v: u8) {
        pass!(self, x => CoreDut::set_reset(&mut **x, v))
    }
    fn eval(&mut self) {
        pass!(self, x => CoreDut::eval(&mut **x))
    }
    fn tick(&mut self) {
        pass!(self, x => CoreDut::tick(&mut **x))
    }
    fn cycles(&self) -> u64 {
        pass!(self, x => CoreDut::cycles(&**x))
    }
    fn axil(&mut self, w: Option<(u16, u32, u8)>, r: Option<u16>, bready: bool, rready: bool) {
        pass!(self, x => CoreDut::axil(&mut **x, w, r, bready, rready))
    }
    fn axil_out(&self) -> (bool, bool, u8, bool, bool, u32, u8) {
        pass!(self, x => CoreDut::axil_out(&**x))
    }
    fn check(&self, c: &mut Checks) {
        pass!(self, x => CoreDut::check(&**x, c))
    }
    fn cc_config(&mut self, m: &super::cc_module::Model) {
        pass!(self, x => CoreDut::cc_config(&mut **x, m))
    }
    fn post(&mut self, w: Option<&[u8; 54]>) {
        pass!(self, x => CoreDut::post(&mut **x, w))
    }
    fn post_ready(&self) -> bool {
        pass!(self, x => CoreDut::post_ready(&**x))
    }
}
