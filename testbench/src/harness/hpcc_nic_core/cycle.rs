//! hpcc_nic_core's cycle model (`sim::hpcc_nic_core`, the model NIC) beside the Verilated
//! core: on every cycle it takes the inputs the harness drives into the RTL, and every output
//! port and every probed inner stream must equal the RTL's. The first cycle that differs is
//! kept with both sides and the model stops there.

use super::Rtl;
use crate::harness::nic_datapath::cycle::{beat_in, kept};
use crate::harness::{get_wide, hex};
use sim::axil_slave;
use sim::cc_module::Model;
use sim::layout::{word_of, CC_EVENT};
use sim::hpcc_nic_core::{HpccNicCore, Inputs, Outputs};
use sim::rx_dma::wr_cmd_bytes;

/// The model and the first difference.
pub struct Lockstep {
    pub model: HpccNicCore,
    pub cycles: u64,
    pub differs: Option<String>,
}

/// A valid stream's data as text, "-" when not valid.
fn v(valid: bool, s: impl FnOnce() -> String) -> String {
    if valid {
        s()
    } else {
        "-".into()
    }
}

/// The RTL's outputs and probes, named, in the order `model_shown` gives the model's.
fn rtl_shown(d: &Rtl) -> Vec<(&'static str, String)> {
    let b = |x: u8| x == 1;
    vec![
        ("axil aw/w ready, B, AR ready, R", format!("{:?}", (
            b(d.s_axil_awready()) && b(d.s_axil_wready()),
            b(d.s_axil_bvalid()).then_some(d.s_axil_bresp() == 2),
            b(d.s_axil_arready()),
            b(d.s_axil_rvalid()).then_some((d.s_axil_rdata(), d.s_axil_rresp() == 2)),
        ))),
        ("m_axis_dma_rd", v(b(d.m_axis_dma_rd_tvalid()), || hex(&get_wide(d.m_axis_dma_rd_tdata())))),
        ("readies dma_rd_data rx", format!("{:?}", (b(d.s_axis_dma_rd_data_tready()), b(d.s_axis_rx_tready())))),
        ("m_axis_tx", v(b(d.m_axis_tx_tvalid()), || format!("{:?}", kept(&get_wide(d.m_axis_tx_tdata()), d.m_axis_tx_tkeep(), b(d.m_axis_tx_tlast()), b(d.m_axis_tx_tuser()))))),
        ("m_axis_dma_wr_cmd", v(b(d.m_axis_dma_wr_cmd_tvalid()), || hex(&get_wide(d.m_axis_dma_wr_cmd_tdata())))),
        ("m_axis_dma_wr", v(b(d.m_axis_dma_wr_tvalid()), || format!("{:?}", kept(&get_wide(d.m_axis_dma_wr_tdata()), d.m_axis_dma_wr_tkeep(), b(d.m_axis_dma_wr_tlast()), false)))),
        ("m_axis_cpl", v(b(d.m_axis_cpl_tvalid()), || format!("{:016x}", d.m_axis_cpl_tdata()))),
        ("s_axis_post_tready", format!("{}", b(d.s_axis_post_tready()))),
        ("cc_module event, ready", format!("{} {}", v(b(d.probe_events_m_axis_event_tvalid()), || format!("{:08x?}", d.probe_events_m_axis_event_tdata())), b(d.probe_cc_s_axis_event_tready()))),
        ("flow_sched ctrl, ready", format!("{} {}", v(b(d.probe_seq_sched_ctrl_tvalid()), || format!("{:022x}", word_of(d.probe_seq_sched_ctrl_tdata()))), b(d.probe_sched_s_axis_ctrl_tready()))),
        ("flow_sched update, ready", format!("{} {}", v(b(d.probe_sched_s_axis_update_tvalid()), || format!("{:020x}", word_of(d.probe_sched_s_axis_update_tdata()))), b(d.probe_sched_s_axis_update_tready()))),
        ("flow_sched notify, ready", format!("{} {}", v(b(d.probe_notify_m_axis_notify_tvalid()), || format!("{:012x}", d.probe_notify_m_axis_notify_tdata())), b(d.probe_sched_s_axis_notify_tready()))),
        ("flow_sched sleep, ready", format!("{} {}", v(b(d.probe_dp_m_axis_sleep_tvalid()), || format!("{:05x}", d.probe_dp_m_axis_sleep_tdata())), b(d.probe_sched_s_axis_sleep_tready()))),
        ("pktsend, ready", format!("{} {}", v(b(d.probe_sched_m_axis_pktsend_tvalid()), || format!("{:04x}", d.probe_sched_m_axis_pktsend_tdata())), b(d.probe_dp_s_axis_pktsend_tready()))),
        ("cc feedback, ready", format!("{} {}", v(b(d.probe_cc_m_axis_feedback_tvalid()), || format!("{:012x}", d.probe_cc_m_axis_feedback_tdata())), b(d.probe_dp_s_axis_feedback_tready()))),
    ]
}

fn model_shown(o: &Outputs) -> Vec<(&'static str, String)> {
    let a = &o.axil;
    let n = &o.inner;
    let opt = |s: Option<String>| s.unwrap_or_else(|| "-".into());
    vec![
        ("axil aw/w ready, B, AR ready, R", format!("{:?}", (a.aw_ready, a.b, a.ar_ready, a.r))),
        ("m_axis_dma_rd", opt(o.dma_rd.map(|r| hex(&r.to_bytes())))),
        ("readies dma_rd_data rx", format!("{:?}", (o.dma_rd_data_ready, o.rx_ready))),
        ("m_axis_tx", opt(o.tx.as_ref().map(|b| format!("{:?}", kept(&b.data, b.keep, b.last, b.user))))),
        ("m_axis_dma_wr_cmd", opt(o.wr_cmd.map(|(x, l, f)| hex(&wr_cmd_bytes(x, l, f))))),
        ("m_axis_dma_wr", opt(o.wr.as_ref().map(|b| format!("{:?}", kept(&b.data, b.keep, b.last, false))))),
        ("m_axis_cpl", opt(o.cpl.map(|c| format!("{c:016x}")))),
        ("s_axis_post_tready", format!("{}", o.post_ready)),
        ("cc_module event, ready", format!("{} {}", opt(n.cc_event.map(|e| {
            let mut w = e.words();
            CC_EVENT.feedback.set(&mut w, n.cc_event_feedback as u64);
            format!("{w:08x?}")
        })), n.cc_event_ready)),
        ("flow_sched ctrl, ready", format!("{} {}", opt(n.sched_ctrl.map(|c| format!("{:022x}", c.tdata()))), n.sched_ctrl_ready)),
        ("flow_sched update, ready", format!("{} {}", opt(n.update.map(|u| format!("{:020x}", u.tdata()))), n.update_ready)),
        ("flow_sched notify, ready", format!("{} {}", opt(n.notify.map(|x| format!("{:012x}", x.tdata()))), n.notify_ready)),
        ("flow_sched sleep, ready", format!("{} {}", opt(n.sleep.map(|s| format!("{:05x}", s.tdata()))), n.sleep_ready)),
        ("pktsend, ready", format!("{} {}", opt(n.pktsend.map(|f| format!("{f:04x}"))), n.pktsend_ready)),
        ("cc feedback, ready", format!("{} {}", opt(n.feedback.map(|f| format!("{:012x}", (f.flow as u64) << 32 | f.w as u64))), n.feedback_ready)),
    ]
}

/// The core's inputs this cycle as the RTL sees them.
fn inputs(d: &Rtl) -> (Inputs<'static>, Option<sim::rx_pipe::Beat>, Option<sim::rx_pipe::Beat>, Option<[u8; 54]>) {
    let b = |x: u8| x == 1;
    let axil = axil_slave::Inputs {
        reset: false,
        aw_w: (b(d.s_axil_awvalid()) && b(d.s_axil_wvalid())).then_some((d.s_axil_awaddr() as u32, d.s_axil_wdata(), d.s_axil_wstrb())),
        bready: b(d.s_axil_bready()),
        ar: b(d.s_axil_arvalid()).then_some(d.s_axil_araddr() as u32),
        rready: b(d.s_axil_rready()),
    };
    let rd = beat_in(d.s_axis_dma_rd_data_tvalid(), d.s_axis_dma_rd_data_tdata(), d.s_axis_dma_rd_data_tkeep(), d.s_axis_dma_rd_data_tlast(), 0);
    let rx = beat_in(d.s_axis_rx_tvalid(), d.s_axis_rx_tdata(), d.s_axis_rx_tkeep(), d.s_axis_rx_tlast(), d.s_axis_rx_tuser());
    let i = Inputs {
        reset: b(d.reset()),
        axil,
        dma_rd_ready: b(d.m_axis_dma_rd_tready()),
        dma_rd_data: None,
        tx_ready: b(d.m_axis_tx_tready()),
        rx: None,
        wr_cmd_ready: b(d.m_axis_dma_wr_cmd_tready()),
        wr_ready: b(d.m_axis_dma_wr_tready()),
        cpl_ready: b(d.m_axis_cpl_tready()),
        post: None,
    };
    let post = b(d.s_axis_post_tvalid()).then(|| get_wide(d.s_axis_post_tdata())[..54].try_into().unwrap());
    (i, rd, rx, post)
}

impl Lockstep {
    /// The model before its reset, cc_module on `model`'s configuration.
    pub fn new(model: Model) -> Lockstep {
        Lockstep { model: HpccNicCore::new(super::FLOW_BITS, model), cycles: 0, differs: None }
    }

    /// One cycle, after the RTL's eval and before its clock.
    pub fn step(&mut self, d: &Rtl) {
        if self.differs.is_some() {
            return;
        }
        let (i, rd, rx, post) = inputs(d);
        let i = Inputs { dma_rd_data: rd.as_ref(), rx: rx.as_ref(), post: post.as_ref(), ..i };
        let want = self.model.step(&i);
        self.cycles += 1;
        // In a reset cycle the RTL shows its state from before the reset, which the model
        // does not know.
        if i.reset {
            return;
        }
        let (got, want) = (rtl_shown(d), model_shown(&want));
        if let Some(k) = (0..got.len()).find(|&k| got[k] != want[k]) {
            self.differs = Some(format!("cycle {}: {}: RTL {}, cycle model {}", d.cycles(), got[k].0, got[k].1, want[k].1));
        }
    }
}
