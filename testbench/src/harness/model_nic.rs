//! The model NIC behind the ports of a Verilated `hpcc_nic_core`: `sim::hpcc_nic_core` with the
//! same port setters, getters and stream handles as the generated wrapper, so the core's
//! harness (`hpcc_nic_core::Core`, its host and MAC, its AXI4-Lite master) drives either the
//! same way, with the same random draws: what makes `netsim --nic model` give the RTL's
//! outputs. `eval` shows the outputs for the inputs as set and clocks the model on them at
//! once (the harness changes no input between `eval` and `tick`, and one evaluation is half
//! the cost of two); `tick` ends the cycle. A second `eval` before the `tick` is refused.

use super::hpcc_nic_core::FLOW_BITS;
use super::host::HostPorts;
use super::set_wide;
use crate::verilated::{MAxis, SAxis};
use sim::axil_slave;
use sim::cc_module::Model;
use sim::hpcc_nic_core::{HpccNicCore, Inputs, Outputs};
use sim::layout::le_bytes;
use sim::rx_dma::wr_cmd_bytes;
use sim::rx_pipe::Beat;

/// A 512-bit input stream as the harness drives it.
#[derive(Clone, Copy, Default)]
struct BeatIn {
    valid: bool,
    data: [u32; 16],
    keep: u64,
    last: bool,
    user: bool,
}

impl BeatIn {
    fn beat(&self) -> Option<Beat> {
        let data = le_bytes(&self.data);
        self.valid.then_some(Beat { data, keep: self.keep, last: self.last, user: self.user })
    }
}

/// The model NIC and its ports.
pub struct ModelNic {
    pub model: HpccNicCore,
    reset: bool,
    aw: (bool, u16),
    w: (bool, u32, u8),
    bready: bool,
    ar: (bool, u16),
    rready: bool,
    rd_ready: bool,
    rd_data: BeatIn,
    tx_ready: bool,
    rx: BeatIn,
    wr_cmd_ready: bool,
    wr_ready: bool,
    cpl_ready: bool,
    /// The post port's word while offered.
    post: Option<[u8; 54]>,
    out: Outputs,
    cycles: u64,
    /// `eval` has clocked the model for this cycle.
    clocked: bool,
}

impl ModelNic {
    /// The model before its reset, cc_module on `model`'s configuration.
    pub fn new(model: Model) -> ModelNic {
        ModelNic {
            model: HpccNicCore::new(FLOW_BITS, model),
            reset: false,
            aw: (false, 0),
            w: (false, 0, 0),
            bready: false,
            ar: (false, 0),
            rready: false,
            rd_ready: false,
            rd_data: BeatIn::default(),
            tx_ready: false,
            rx: BeatIn::default(),
            wr_cmd_ready: false,
            wr_ready: false,
            cpl_ready: false,
            post: None,
            out: Outputs::default(),
            cycles: 0,
            clocked: false,
        }
    }

    /// The outputs for the inputs as they are now; the model is clocked on them.
    pub fn eval(&mut self) {
        assert!(!self.clocked, "ModelNic: eval twice in one cycle (the model clocks at eval)");
        let (rd, rx) = (self.rd_data.beat(), self.rx.beat());
        let i = Inputs {
            reset: self.reset,
            axil: axil_slave::Inputs {
                reset: self.reset,
                aw_w: (self.aw.0 && self.w.0).then_some((self.aw.1 as u32, self.w.1, self.w.2)),
                bready: self.bready,
                ar: self.ar.0.then_some(self.ar.1 as u32),
                rready: self.rready,
            },
            dma_rd_ready: self.rd_ready,
            dma_rd_data: rd.as_ref(),
            tx_ready: self.tx_ready,
            rx: rx.as_ref(),
            wr_cmd_ready: self.wr_cmd_ready,
            wr_ready: self.wr_ready,
            cpl_ready: self.cpl_ready,
            post: self.post.as_ref(),
        };
        self.out = self.model.step(&i);
        self.clocked = true;
    }

    /// The end of the cycle (the model was clocked at `eval`; a cycle without one gets it now).
    pub fn tick(&mut self) {
        if !self.clocked {
            self.eval();
        }
        self.clocked = false;
        self.cycles += 1;
    }

    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    pub fn set_reset(&mut self, v: u8) {
        self.reset = v == 1;
    }

    /// The post port: its word while offered (`s_axis_post_tvalid`, `_tdata`).
    pub fn set_post(&mut self, w: Option<&[u8; 54]>) {
        self.post = w.copied();
    }

    /// `s_axis_post_tready`.
    pub fn post_ready(&self) -> bool {
        self.out.post_ready
    }
    pub fn set_s_axil_awaddr(&mut self, v: u16) {
        self.aw.1 = v;
    }
    pub fn set_s_axil_awvalid(&mut self, v: u8) {
        self.aw.0 = v == 1;
    }
    pub fn set_s_axil_wdata(&mut self, v: u32) {
        self.w.1 = v;
    }
    pub fn set_s_axil_wstrb(&mut self, v: u8) {
        self.w.2 = v;
    }
    pub fn set_s_axil_wvalid(&mut self, v: u8) {
        self.w.0 = v == 1;
    }
    pub fn set_s_axil_bready(&mut self, v: u8) {
        self.bready = v == 1;
    }
    pub fn set_s_axil_araddr(&mut self, v: u16) {
        self.ar.1 = v;
    }
    pub fn set_s_axil_arvalid(&mut self, v: u8) {
        self.ar.0 = v == 1;
    }
    pub fn set_s_axil_rready(&mut self, v: u8) {
        self.rready = v == 1;
    }
    pub fn s_axil_awready(&self) -> u8 {
        self.out.axil.aw_ready as u8
    }
    pub fn s_axil_wready(&self) -> u8 {
        self.out.axil.aw_ready as u8
    }
    pub fn s_axil_bvalid(&self) -> u8 {
        self.out.axil.b.is_some() as u8
    }
    pub fn s_axil_bresp(&self) -> u8 {
        if self.out.axil.b == Some(true) { 2 } else { 0 }
    }
    pub fn s_axil_arready(&self) -> u8 {
        self.out.axil.ar_ready as u8
    }
    pub fn s_axil_rvalid(&self) -> u8 {
        self.out.axil.r.is_some() as u8
    }
    pub fn s_axil_rdata(&self) -> u32 {
        self.out.axil.r.map_or(0, |r| r.0)
    }
    pub fn s_axil_rresp(&self) -> u8 {
        if self.out.axil.r.is_some_and(|r| r.1) { 2 } else { 0 }
    }
}

/// The completion stream's handle.
pub const M_AXIS_CPL: MAxis<ModelNic> = MAxis {
    name: "m_axis_cpl",
    bits: 64,
    tvalid: |m| m.out.cpl.is_some(),
    set_tready: |m, v| m.cpl_ready = v,
    tdata: |m, w| set_wide(w, &m.out.cpl.unwrap_or(0).to_le_bytes()),
    tlast: None,
    tkeep: None,
    tuser: None,
};

impl HostPorts for ModelNic {
    const DMA_RD: MAxis<Self> = MAxis {
        name: "m_axis_dma_rd",
        bits: 128,
        tvalid: |m| m.out.dma_rd.is_some(),
        set_tready: |m, v| m.rd_ready = v,
        tdata: |m, w| set_wide(w, &m.out.dma_rd.map_or([0; 16], |r| r.to_bytes())),
        tlast: None,
        tkeep: None,
        tuser: None,
    };
    const DMA_RD_DATA: SAxis<Self> = SAxis {
        name: "s_axis_dma_rd_data",
        bits: 512,
        set_tvalid: |m, v| m.rd_data.valid = v,
        tready: |m| m.out.dma_rd_data_ready,
        set_tdata: |m, w| m.rd_data.data.copy_from_slice(w),
        set_tlast: Some(|m, v| m.rd_data.last = v),
        set_tkeep: Some(|m, v| m.rd_data.keep = v),
        set_tuser: None,
    };
    const TX: MAxis<Self> = MAxis {
        name: "m_axis_tx",
        bits: 512,
        tvalid: |m| m.out.tx.is_some(),
        set_tready: |m, v| m.tx_ready = v,
        tdata: |m, w| set_wide(w, &m.out.tx.as_ref().map_or([0; 64], |b| b.data)),
        tlast: Some(|m| m.out.tx.as_ref().is_some_and(|b| b.last)),
        tkeep: Some(|m| m.out.tx.as_ref().map_or(0, |b| b.keep)),
        tuser: Some(|m| m.out.tx.as_ref().is_some_and(|b| b.user) as u64),
    };
    const RX: SAxis<Self> = SAxis {
        name: "s_axis_rx",
        bits: 512,
        set_tvalid: |m, v| m.rx.valid = v,
        tready: |m| m.out.rx_ready,
        set_tdata: |m, w| m.rx.data.copy_from_slice(w),
        set_tlast: Some(|m, v| m.rx.last = v),
        set_tkeep: Some(|m, v| m.rx.keep = v),
        set_tuser: Some(|m, v| m.rx.user = v != 0),
    };
    const DMA_WR_CMD: MAxis<Self> = MAxis {
        name: "m_axis_dma_wr_cmd",
        bits: 128,
        tvalid: |m| m.out.wr_cmd.is_some(),
        set_tready: |m, v| m.wr_cmd_ready = v,
        tdata: |m, w| set_wide(w, &m.out.wr_cmd.map_or([0; 16], |(a, l, f)| wr_cmd_bytes(a, l, f))),
        tlast: None,
        tkeep: None,
        tuser: None,
    };
    const DMA_WR: MAxis<Self> = MAxis {
        name: "m_axis_dma_wr",
        bits: 512,
        tvalid: |m| m.out.wr.is_some(),
        set_tready: |m, v| m.wr_ready = v,
        tdata: |m, w| set_wide(w, &m.out.wr.as_ref().map_or([0; 64], |b| b.data)),
        tlast: Some(|m| m.out.wr.as_ref().is_some_and(|b| b.last)),
        tkeep: Some(|m| m.out.wr.as_ref().map_or(0, |b| b.keep)),
        tuser: None,
    };
}
