//! nic_datapath's cycle model (`sim::nic_datapath`) beside the Verilated block: on every cycle
//! it takes the inputs the harness drives into the RTL and every output port must equal the
//! RTL's (readies, each stream's valid and data, the counters). The first cycle that differs
//! is kept with both sides and the model stops there.

use super::{Rtl, FLOW_BITS, NOTIFY_SHIFT, SWEEP};
use crate::harness::{get_wide, hex};
use sim::cc_module::Feedback;
use sim::flow_sched::Notify;
use sim::nic_datapath::{Inputs, NicDatapath, Outputs};
use sim::rx_ctx::Ctrl as RxCtrl;
use sim::rx_dma::wr_cmd_bytes;
use sim::rx_pipe::Beat;
use sim::tx_ctx::Ctrl as TxCtrl;

/// What the harness holds on the inputs it drives from queues of typed items.
#[derive(Clone, Copy, Default)]
pub struct Offered<'a> {
    pub tx_ctrl: Option<&'a TxCtrl>,
    pub rx_ctrl: Option<&'a RxCtrl>,
    pub pktsend: Option<u16>,
    pub probe: Option<u16>,
    pub feedback: Option<Feedback>,
}

/// The model and the first difference.
pub struct Lockstep {
    model: NicDatapath,
    pub cycles: u64,
    pub differs: Option<String>,
}

/// A frame beat on a 512-bit input port, if tvalid.
pub(crate) fn beat_in(valid: u8, data: &[u32], keep: u64, last: u8, user: u8) -> Option<Beat> {
    (valid == 1).then(|| Beat { data: get_wide(data).try_into().unwrap(), keep, last: last == 1, user: user == 1 })
}

/// An output beat's kept bytes, keep, last, user.
type Shown = (Vec<u8>, u64, bool, bool);

pub(crate) fn kept(data: &[u8], keep: u64, last: bool, user: bool) -> Shown {
    let d = data.iter().enumerate().map(|(i, &b)| if keep >> i & 1 == 1 { b } else { 0 }).collect();
    (d, keep, last, user)
}

/// Every output port the RTL shows, as the model's are compared: (name, value) in port order.
fn rtl_shown(d: &Rtl) -> Vec<(&'static str, String)> {
    let v = |valid: u8, s: String| if valid == 1 { s } else { "-".into() };
    vec![
        ("readies tx_ctrl rx_ctrl pktsend probe feedback dma_rd_data rx", format!("{:?}", [
            d.s_axis_tx_ctrl_tready(), d.s_axis_rx_ctrl_tready(), d.s_axis_pktsend_tready(), d.s_axis_probe_tready(),
            d.s_axis_feedback_tready(), d.s_axis_dma_rd_data_tready(), d.s_axis_rx_tready(),
        ].map(|b| b == 1))),
        ("m_axis_sleep", v(d.m_axis_sleep_tvalid(), format!("{:05x}", d.m_axis_sleep_tdata()))),
        ("m_axis_dma_rd", v(d.m_axis_dma_rd_tvalid(), hex(&get_wide(d.m_axis_dma_rd_tdata())))),
        ("m_axis_tx", v(d.m_axis_tx_tvalid(), format!("{:?}", kept(&get_wide(d.m_axis_tx_tdata()), d.m_axis_tx_tkeep(), d.m_axis_tx_tlast() == 1, d.m_axis_tx_tuser() == 1)))),
        ("m_axis_event", v(d.m_axis_event_tvalid(), hex(&get_wide(d.m_axis_event_tdata())))),
        ("m_axis_notify", v(d.m_axis_notify_tvalid(), format!("{:012x}", d.m_axis_notify_tdata()))),
        ("m_axis_dma_wr_cmd", v(d.m_axis_dma_wr_cmd_tvalid(), hex(&get_wide(d.m_axis_dma_wr_cmd_tdata())))),
        ("m_axis_dma_wr", v(d.m_axis_dma_wr_tvalid(), format!("{:?}", kept(&get_wide(d.m_axis_dma_wr_tdata()), d.m_axis_dma_wr_tkeep(), d.m_axis_dma_wr_tlast() == 1, false)))),
        ("stat_rx_cmds", d.stat_rx_cmds().to_string()),
        ("counters", format!("{:?}", [
            d.stat_tx_drop(), d.stat_tx_recv_drop(), d.stat_tx_nak_ignored(), d.stat_tx_ctrl_bad(), d.stat_tx_len_err(),
            d.stat_rx_written(), d.stat_rx_discarded(), d.stat_rx_short(), d.stat_rx_jobs(), d.stat_rx_payloads(),
            d.stat_cnps(), d.stat_fb_acks(),
        ])),
    ]
}

/// The model's outputs in `rtl_shown`'s form.
fn model_shown(o: &Outputs, counters: [u32; 12]) -> Vec<(&'static str, String)> {
    let v = |s: Option<String>| s.unwrap_or_else(|| "-".into());
    vec![
        ("readies tx_ctrl rx_ctrl pktsend probe feedback dma_rd_data rx", format!("{:?}", [
            o.tx_ctrl_ready, o.rx_ctrl_ready, o.pktsend_ready, o.probe_ready, o.feedback_ready, o.dma_rd_data_ready, o.rx_ready,
        ])),
        ("m_axis_sleep", v(o.sleep.map(|s| format!("{:05x}", s.tdata())))),
        ("m_axis_dma_rd", v(o.dma_rd.map(|r| hex(&r.to_bytes())))),
        ("m_axis_tx", v(o.tx.as_ref().map(|b| format!("{:?}", kept(&b.data, b.keep, b.last, b.user))))),
        ("m_axis_event", v(o.event.as_ref().map(|e| hex(&e.to_bytes())))),
        ("m_axis_notify", v(o.notify.map(|(flow, bytes)| format!("{:012x}", Notify { flow, bytes }.tdata())))),
        ("m_axis_dma_wr_cmd", v(o.wr_cmd.map(|(a, l, f)| hex(&wr_cmd_bytes(a, l, f))))),
        ("m_axis_dma_wr", v(o.wr.as_ref().map(|b| format!("{:?}", kept(&b.data, b.keep, b.last, false))))),
        ("stat_rx_cmds", o.rx_cmds.to_string()),
        ("counters", format!("{counters:?}")),
    ]
}

impl Lockstep {
    /// The model through the reset and RAM sweep `Pair` gives each RTL NIC (inputs idle).
    pub fn new() -> Lockstep {
        let mut model = NicDatapath::new(FLOW_BITS, NOTIFY_SHIFT);
        let idle = Inputs { cnp_interval_ns: super::CNP_INTERVAL_NS, ..Inputs::default() };
        model.step(&Inputs { reset: true, ..idle });
        for _ in 0..SWEEP {
            model.step(&idle);
        }
        Lockstep { model, cycles: 0, differs: None }
    }

    /// One cycle, after the RTL's eval and before its clock: the model on the inputs the RTL
    /// sees (the queued items from `o`, the rest read from its input ports).
    pub fn step(&mut self, d: &Rtl, now: u64, o: Offered) {
        if self.differs.is_some() {
            return;
        }
        let rd = beat_in(d.s_axis_dma_rd_data_tvalid(), d.s_axis_dma_rd_data_tdata(), d.s_axis_dma_rd_data_tkeep(), d.s_axis_dma_rd_data_tlast(), 0);
        let rx = beat_in(d.s_axis_rx_tvalid(), d.s_axis_rx_tdata(), d.s_axis_rx_tkeep(), d.s_axis_rx_tlast(), d.s_axis_rx_tuser());
        let i = Inputs {
            reset: false,
            now_ns: d.now_ns(),
            cnp_interval_ns: d.cfg_cnp_interval_ns(),
            tx_ctrl: o.tx_ctrl,
            rx_ctrl: o.rx_ctrl,
            pktsend: o.pktsend,
            probe: o.probe,
            feedback: o.feedback,
            dma_rd_ready: d.m_axis_dma_rd_tready() == 1,
            dma_rd_data: rd.as_ref(),
            tx_ready: d.m_axis_tx_tready() == 1,
            rx: rx.as_ref(),
            event_ready: d.m_axis_event_tready() == 1,
            notify_ready: d.m_axis_notify_tready() == 1,
            sleep_ready: d.m_axis_sleep_tready() == 1,
            wr_cmd_ready: d.m_axis_dma_wr_cmd_tready() == 1,
            wr_ready: d.m_axis_dma_wr_tready() == 1,
        };
        // The counters the ports show this cycle are the registers before this clock.
        let counters = self.model.counters();
        let want = self.model.step(&i);
        let (got, want) = (rtl_shown(d), model_shown(&want, counters));
        if let Some(k) = (0..got.len()).find(|&k| got[k] != want[k]) {
            self.differs = Some(format!("cycle {now}: {}: RTL {}, cycle model {}", got[k].0, got[k].1, want[k].1));
        }
        self.cycles += 1;
    }
}
