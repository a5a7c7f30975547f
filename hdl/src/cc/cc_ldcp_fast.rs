//! cc_ldcp, stage B (docs/modules/cc_module.md): one event against its flow's state word.
//! The flow's clock moves to max(now, event time); an ACK counts packets in the zero-RTT fast
//! start until the whole initial window is acknowledged (transition 2: cw = IW, the rest of
//! the ACK counts in the stable phase); a loss in the fast start sets cw to the packets
//! acknowledged; an init event restores the initial state; the timer is due when the clock
//! reaches its tick. Combinational; cc_ldcp registers `ctx`.
//!
//! It also derives the configuration values the other stages share: gamma and the state a
//! flow starts in (`sim::cc_ldcp::LdcpState::new`).

use crate::cc_codes::*;
use crate::cc_ldcp::{CTX, STATE};
use crate::layout::{LdcpCtxFields218, LdcpEventFields, LdcpStateFields};
use rust_hdl::prelude::*;
use sim::layout::LDCP_EVENT;

// The event's `acked` is read as two 16-bit halves (`get_bits::<16>(32)` and `(48)`).
const _: () = assert!(LDCP_EVENT.acked.lo == 32 && LDCP_EVENT.acked.width == 32);

/// The event and the flow's state in; the context word, gamma and the initial state out.
#[derive(LogicBlock, Default)]
pub struct CcLdcpFast {
    /// gamma = 2^-gamma_shift (0 ..= 10), cc_ldcp's `cfg_gamma_shift`.
    pub cfg_gamma_shift: Signal<In, Bits<4>>,
    /// Initial window, packets (1 ..= 65535), cc_ldcp's `cfg_iw`.
    pub cfg_iw: Signal<In, Bits<16>>,
    /// Window clamp, UQ16.16 packets, cc_ldcp's `cfg_max_cw_q16`.
    pub cfg_max_cw_q16: Signal<In, Bits<32>>,
    /// Flows start in the fast start, cc_ldcp's `cfg_fast_start`.
    pub cfg_fast_start: Signal<In, bool>,
    /// The event (`sim::layout::LDCP_EVENT`), registered at A.
    pub evt: Signal<In, Bits<128>>,
    /// The flow's state word (`sim::layout::LDCP_STATE`) as the RAM reads it.
    pub state: Signal<In, Bits<STATE>>,
    /// The context word (`sim::layout::LDCP_CTX`, the bits B builds).
    pub ctx: Signal<Out, Bits<CTX>>,
    /// gamma, UQ16.16 packets: the floor of cw.
    pub gamma: Signal<Out, Bits<32>>,
    /// The state a flow starts in: fast start as configured, cw = IW clamped to [gamma, max].
    pub init_state: Signal<Out, Bits<STATE>>,
    g17: Signal<Local, Bits<17>>,
    fs_cfg: Signal<Local, Bits<1>>,
    cw_iw: Signal<Local, Bits<32>>,
    cw_loss: Signal<Local, Bits<32>>,
    now_m: Signal<Local, Bits<64>>,
    n0: Signal<Local, Bits<16>>,
    needed: Signal<Local, Bits<16>>,
    kind: Signal<Local, Bits<2>>,
    b_fs: Signal<Local, Bits<1>>,
    b_armed: Signal<Local, Bits<1>>,
    b_stable: Signal<Local, Bits<1>>,
    b_rearm: Signal<Local, Bits<1>>,
    b_n: Signal<Local, Bits<16>>,
    b_fsa: Signal<Local, Bits<16>>,
    b_cw: Signal<Local, Bits<32>>,
    b_now: Signal<Local, Bits<64>>,
    b_tick: Signal<Local, Bits<64>>,
    tmr: Signal<Local, Bits<1>>,
    due: Signal<Local, Bits<1>>,
}

impl Logic for CcLdcpFast {
    #[hdl_gen]
    fn update(&mut self) {
        // gamma and the window an init (or transition 2) sets: IW clamped to [gamma, max].
        self.g17.next = 65536.into();
        self.gamma.next = bit_cast::<32, 17>(self.g17.val() >> self.cfg_gamma_shift.val());
        self.fs_cfg.next = 0.into();
        if self.cfg_fast_start.val() {
            self.fs_cfg.next = 1.into();
        }
        self.cw_iw.next = bit_cast::<32, 16>(self.cfg_iw.val()) << 16;
        if self.cw_iw.val() > self.cfg_max_cw_q16.val() {
            self.cw_iw.next = self.cfg_max_cw_q16.val();
        }
        if (bit_cast::<32, 16>(self.cfg_iw.val()) << 16) < self.gamma.val() {
            self.cw_iw.next = self.gamma.val();
        }
        self.init_state.next = 0.into();
        self.init_state.next.set_value_fast_start_bits(self.fs_cfg.val());
        self.init_state.next.set_value_cw(self.cw_iw.val());

        // The flow's clock.
        self.now_m.next = self.state.val().get_value_now();
        if self.evt.val().get_value_now() > self.state.val().get_value_now() {
            self.now_m.next = self.evt.val().get_value_now();
        }
        // `acked` saturated to 16 bits: its low and high halves (offsets tied to the layout).
        self.n0.next = self.evt.val().get_bits::<16>(32);
        if self.evt.val().get_bits::<16>(48) != 0 {
            self.n0.next = 0xFFFF.into();
        }
        self.needed.next = self.cfg_iw.val() - self.state.val().get_value_fs_acked();
        self.cw_loss.next = bit_cast::<32, 16>(self.state.val().get_value_fs_acked()) << 16;
        if (bit_cast::<32, 16>(self.state.val().get_value_fs_acked()) << 16) > self.cfg_max_cw_q16.val() {
            self.cw_loss.next = self.cfg_max_cw_q16.val();
        }
        if (bit_cast::<32, 16>(self.state.val().get_value_fs_acked()) << 16) < self.gamma.val() {
            self.cw_loss.next = self.gamma.val();
        }
        self.kind.next = self.evt.val().get_value_kind();
        self.b_fs.next = self.state.val().get_value_fast_start_bits();
        self.b_armed.next = self.state.val().get_value_armed_bits();
        self.b_cw.next = self.state.val().get_value_cw();
        self.b_fsa.next = self.state.val().get_value_fs_acked();
        self.b_now.next = self.now_m.val();
        self.b_tick.next = self.state.val().get_value_tick();
        self.b_n.next = 0.into();
        self.b_stable.next = 0.into();
        self.b_rearm.next = 0.into();
        if (self.kind.val() == LDCP_ACK) & (self.n0.val() != 0) {
            if self.state.val().get_value_fast_start() {
                if self.n0.val() < self.needed.val() {
                    self.b_fsa.next = self.state.val().get_value_fs_acked() + self.n0.val();
                } else {
                    // Transition 2: the whole IW acknowledged, cw = IW.
                    self.b_fsa.next = self.cfg_iw.val();
                    self.b_fs.next = 0.into();
                    self.b_cw.next = self.cw_iw.val();
                    self.b_n.next = self.n0.val() - self.needed.val();
                    self.b_rearm.next = 1.into();
                    if self.n0.val() != self.needed.val() {
                        self.b_stable.next = 1.into();
                    }
                }
            } else {
                self.b_n.next = self.n0.val();
                self.b_rearm.next = 1.into();
                self.b_stable.next = 1.into();
            }
        }
        if (self.kind.val() == LDCP_LOSS) & self.state.val().get_value_fast_start() {
            // A loss in the fast start: cw = packets acknowledged; the timer restarts.
            self.b_fs.next = 0.into();
            self.b_cw.next = self.cw_loss.val();
            self.b_armed.next = 0.into();
            self.b_rearm.next = 1.into();
        }
        if self.kind.val() == LDCP_INIT {
            self.b_fs.next = self.fs_cfg.val();
            self.b_fsa.next = 0.into();
            self.b_cw.next = self.cw_iw.val();
            self.b_armed.next = 0.into();
            self.b_now.next = 0.into();
            self.b_tick.next = 0.into();
        }
        self.tmr.next = 0.into();
        if self.kind.val() == LDCP_TIMER {
            self.tmr.next = 1.into();
        }
        // max(a, b) >= t as two compares side by side, not one after the other.
        self.due.next = 0.into();
        if (self.evt.val().get_value_now() >= self.state.val().get_value_tick())
            | (self.state.val().get_value_now() >= self.state.val().get_value_tick())
        {
            self.due.next = 1.into();
        }
        self.ctx.next = 0.into();
        self.ctx.next.set_value_flow(self.evt.val().get_value_flow());
        self.ctx.next.set_value_kind(self.kind.val());
        self.ctx.next.set_value_ece(self.evt.val().get_value_ece());
        self.ctx.next.set_value_stable_bits(self.b_stable.val());
        self.ctx.next.set_value_rearm_bits(self.b_rearm.val());
        self.ctx.next.set_value_timer_bits(self.tmr.val());
        self.ctx.next.set_value_fast_start_bits(self.b_fs.val());
        self.ctx.next.set_value_armed_bits(self.b_armed.val());
        self.ctx.next.set_value_due_bits(self.due.val());
        self.ctx.next.set_value_n(self.b_n.val());
        self.ctx.next.set_value_fs_acked(self.b_fsa.val());
        self.ctx.next.set_value_cw(self.b_cw.val());
        self.ctx.next.set_value_now(self.b_now.val());
        self.ctx.next.set_value_tick(self.b_tick.val());
    }
}
