//! The command's words, a combinational block of hpcc_nic_core_seq: the command decoded (the
//! host's, or the internal one while it runs), the fields the sequencer checks, and every word
//! it offers, with op and flow filled in:
//!
//! - cc_module's create event (`sim::layout::CC_EVENT`, type 6, the flow's algorithm);
//! - flow_sched's control word (`SCHED_CTRL`): create with the flow's rate, window and packet
//!   size (log2 of its MTU), or remove;
//! - tx_ctx's (`TX_CREATE` / `TX_POST`): the host's tx word from bit 32 on; a create's CNP bit
//!   is set for DCQCN only. An internal command's is a remove;
//! - rx_ctx's (`RX_CREATE` / `RX_READ`): the host's rx word. An internal command's is a remove
//!   (with the QPN of the flow's create) or a timeout (the flow's id as the QPN's low bits).

use crate::cc_codes::*;
use crate::hpcc_nic_core::{CMD_CREATE, CMD_OP_BITS, CMD_RTO};
use crate::layout::{CcEventFields, RxCreateNamed, SchedCtrlFields, TxCreateNamed, TxPostNamed};
use crate::rx_ctx::{RX_OP_REMOVE, RX_OP_TIMEOUT};
use crate::tx_ctx::TX_OP_REMOVE;
use rust_hdl::prelude::*;

/// The command's words.
#[derive(LogicBlock, Default)]
pub struct HpccNicCoreSeqWords {
    /// The host's command (`CMD` as last written): its op ([2:0]).
    pub host_op: Signal<In, Bits<CMD_OP_BITS>>,
    /// Its flow ([31:16]).
    pub host_flow: Signal<In, Bits<16>>,
    /// An internal command runs.
    pub ic: Signal<In, bool>,
    /// Its op (`CMD_RTO`, `CMD_RTO_FAIL`).
    pub ic_op: Signal<In, Bits<CMD_OP_BITS>>,
    /// Its flow.
    pub ic_flow: Signal<In, Bits<16>>,
    /// rx_ctx's QPN of the flow, from its entry.
    pub ic_qpn: Signal<In, Bits<24>>,
    /// `ARG_TX`: tx_ctx's create or post word.
    pub tx_word: Signal<In, Bits<512>>,
    /// `ARG_RX`: rx_ctx's create or READ word.
    pub rx_word: Signal<In, Bits<128>>,
    /// `ARG_RATE`.
    pub rate: Signal<In, Bits<32>>,
    /// `ARG_WINDOW`.
    pub window: Signal<In, Bits<32>>,
    /// `ARG_ALG` [1:0].
    pub alg: Signal<In, Bits<2>>,
    /// The time base.
    pub now_ns: Signal<In, Bits<64>>,
    /// The flow's log2 MTU, from its entry (a post's packet count).
    pub mtu_log: Signal<In, Bits<4>>,
    /// The command's op (`CMD_*`).
    pub op: Signal<Out, Bits<CMD_OP_BITS>>,
    /// The command's flow.
    pub flow: Signal<Out, Bits<16>>,
    /// The tx word's MTU.
    pub mtu: Signal<Out, Bits<14>>,
    /// Its log2, if it is a RoCE path MTU (256..4096).
    pub shift: Signal<Out, Bits<4>>,
    /// It is.
    pub mtu_ok: Signal<Out, bool>,
    /// The rx word's MTU.
    pub rx_mtu: Signal<Out, Bits<14>>,
    /// The rx word's QPN.
    pub rx_qpn: Signal<Out, Bits<24>>,
    /// The post is a READ.
    pub is_read: Signal<Out, bool>,
    /// The post's end PSN: its first PSN + ceil(length / MTU) packets (at least one).
    pub end_psn: Signal<Out, Bits<24>>,
    /// cc_module's create event.
    pub cr_word: Signal<Out, Bits<512>>,
    /// flow_sched's control word.
    pub sched_word: Signal<Out, Bits<88>>,
    /// tx_ctx's control word.
    pub tx_ctrl: Signal<Out, Bits<512>>,
    /// rx_ctx's control word.
    pub rx_ctrl: Signal<Out, Bits<128>>,
    /// Fields copied to read a part of them (`_fld`).
    reth_fld: Signal<Local, Bits<128>>,
    msg_len: Signal<Local, Bits<33>>,
    mtu_mask: Signal<Local, Bits<33>>,
    npkts: Signal<Local, Bits<33>>,
}

impl Logic for HpccNicCoreSeqWords {
    #[hdl_gen]
    fn update(&mut self) {
        self.op.next = self.host_op.val();
        self.flow.next = self.host_flow.val();
        if self.ic.val() {
            self.op.next = self.ic_op.val();
            self.flow.next = self.ic_flow.val();
        }
        // ---- The create's MTU: a RoCE path MTU, 256..4096.
        self.mtu.next = self.tx_word.val().get_value_tx_create_mtu();
        self.shift.next = 0.into();
        self.mtu_ok.next = true;
        if self.mtu.val() == 256 {
            self.shift.next = 8.into();
        } else if self.mtu.val() == 512 {
            self.shift.next = 9.into();
        } else if self.mtu.val() == 1024 {
            self.shift.next = 10.into();
        } else if self.mtu.val() == 2048 {
            self.shift.next = 11.into();
        } else if self.mtu.val() == 4096 {
            self.shift.next = 12.into();
        } else {
            self.mtu_ok.next = false;
        }
        self.rx_mtu.next = self.rx_word.val().get_value_rx_create_mtu();
        self.rx_qpn.next = self.rx_word.val().get_value_rx_create_qpn();
        // ---- The post: its length (RETH bytes 12..15, big-endian), its packets with the
        // flow's MTU, its end PSN.
        self.is_read.next = self.tx_word.val().get_value_tx_post_read();
        self.reth_fld.next = self.tx_word.val().get_value_tx_post_reth();
        self.msg_len.next = (bit_cast::<33, 8>(self.reth_fld.val().get_bits::<8>(96)) << 24)
            | (bit_cast::<33, 8>(self.reth_fld.val().get_bits::<8>(104)) << 16)
            | (bit_cast::<33, 8>(self.reth_fld.val().get_bits::<8>(112)) << 8)
            | bit_cast::<33, 8>(self.reth_fld.val().get_bits::<8>(120));
        self.mtu_mask.next = (bits::<33>(1) << bit_cast::<33, 4>(self.mtu_log.val())) - 1;
        self.npkts.next = (self.msg_len.val() + self.mtu_mask.val()) >> bit_cast::<33, 4>(self.mtu_log.val());
        if !self.npkts.val().any() {
            self.npkts.next = 1.into();
        }
        self.end_psn.next = self.tx_word.val().get_value_tx_post_first_psn() + self.npkts.val().get_bits::<24>(0);
        // ---- The words.
        self.cr_word.next = 0.into();
        self.cr_word.next.set_value_flow(self.flow.val());
        self.cr_word.next.set_value_kind(EV_CREATE.into());
        self.cr_word.next.set_value_now(self.now_ns.val());
        self.cr_word.next.set_value_alg(self.alg.val());
        self.sched_word.next = 0.into();
        self.sched_word.next.set_value_rate(self.rate.val());
        self.sched_word.next.set_value_window(self.window.val());
        self.sched_word.next.set_value_flow(self.flow.val());
        if self.op.val() == CMD_CREATE {
            self.sched_word.next.set_value_create(true);
            self.sched_word.next.set_value_pkt_shift(self.shift.val());
        }
        self.tx_ctrl.next = (self.tx_word.val() >> 32) << 32;
        self.tx_ctrl.next.set_value_tx_create_op(self.op.val().get_bits::<2>(0));
        self.tx_ctrl.next.set_value_tx_create_flow(self.flow.val());
        if self.op.val() == CMD_CREATE {
            self.tx_ctrl.next.set_value_tx_create_cnp(self.alg.val() == ALG_DCQCN);
        }
        self.rx_ctrl.next = self.rx_word.val();
        self.rx_ctrl.next.set_value_rx_create_op(self.op.val());
        if self.ic.val() {
            self.tx_ctrl.next = 0.into();
            self.tx_ctrl.next.set_value_tx_create_op(TX_OP_REMOVE.into());
            self.tx_ctrl.next.set_value_tx_create_flow(self.flow.val());
            self.rx_ctrl.next = 0.into();
            self.rx_ctrl.next.set_value_rx_create_op(RX_OP_REMOVE.into());
            self.rx_ctrl.next.set_value_rx_create_qpn(self.ic_qpn.val());
            if self.op.val() == CMD_RTO {
                self.rx_ctrl.next.set_value_rx_create_op(RX_OP_TIMEOUT.into());
                self.rx_ctrl.next.set_value_rx_create_qpn(bit_cast::<24, 16>(self.flow.val()));
            }
        }
    }
}
