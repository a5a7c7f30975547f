//! AXI-Stream port groups, for the streams a top passes through to a block unchanged
//! (hpcc_nic_core's DMA and MAC streams, nic_datapath's): one field per AXI-Stream signal, so a
//! group `m_axis_tx` exports as the ports `m_axis_tx_tdata`, `m_axis_tx_tvalid`, ..., and the
//! top links its group to the block's in one line, and joins one block's master stream to
//! another's slave stream (`AxisWordOut::join`) in one line. The meaning of `tdata` is the port's
//! (documented where the group is declared).

use rust_hdl::prelude::*;

/// A master stream of one `N`-bit word per transfer.
#[derive(LogicInterface, Default)]
#[join = "AxisWordIn"]
pub struct AxisWordOut<const N: usize> {
    /// The word.
    pub tdata: Signal<Out, Bits<N>>,
    /// A word is offered.
    pub tvalid: Signal<Out, bool>,
    /// The sink takes it.
    pub tready: Signal<In, bool>,
}

/// A slave stream of one `N`-bit word per transfer.
#[derive(LogicInterface, Default)]
pub struct AxisWordIn<const N: usize> {
    /// The word.
    pub tdata: Signal<In, Bits<N>>,
    /// A word is offered.
    pub tvalid: Signal<In, bool>,
    /// The block takes it.
    pub tready: Signal<Out, bool>,
}

/// A master stream of 512-bit beats, packets ended by `tlast`.
#[derive(LogicInterface, Default)]
#[join = "AxisBeatsIn"]
pub struct AxisBeatsOut {
    /// The beat, lane 0 first.
    pub tdata: Signal<Out, Bits<512>>,
    /// Valid bytes of the beat, contiguous from lane 0.
    pub tkeep: Signal<Out, Bits<64>>,
    /// A beat is offered.
    pub tvalid: Signal<Out, bool>,
    /// The sink takes it.
    pub tready: Signal<In, bool>,
    /// Last beat of a packet.
    pub tlast: Signal<Out, bool>,
}

/// A slave stream of 512-bit beats, packets ended by `tlast`.
#[derive(LogicInterface, Default)]
pub struct AxisBeatsIn {
    /// The beat, lane 0 first.
    pub tdata: Signal<In, Bits<512>>,
    /// Valid bytes of the beat, contiguous from lane 0.
    pub tkeep: Signal<In, Bits<64>>,
    /// A beat is offered.
    pub tvalid: Signal<In, bool>,
    /// The block takes it.
    pub tready: Signal<Out, bool>,
    /// Last beat of a packet.
    pub tlast: Signal<In, bool>,
}

/// A master stream of Ethernet frames in 512-bit beats, to the MAC.
#[derive(LogicInterface, Default)]
#[join = "AxisFramesIn"]
pub struct AxisFramesOut {
    /// The beat, lane 0 first.
    pub tdata: Signal<Out, Bits<512>>,
    /// Valid bytes of the beat, contiguous from lane 0.
    pub tkeep: Signal<Out, Bits<64>>,
    /// A beat is offered.
    pub tvalid: Signal<Out, bool>,
    /// The MAC takes it.
    pub tready: Signal<In, bool>,
    /// Last beat of a frame.
    pub tlast: Signal<Out, bool>,
    /// Bad frame, on the last beat: the MAC drops it.
    pub tuser: Signal<Out, bool>,
}

/// A slave stream of Ethernet frames in 512-bit beats, from the MAC.
#[derive(LogicInterface, Default)]
pub struct AxisFramesIn {
    /// The beat, lane 0 first.
    pub tdata: Signal<In, Bits<512>>,
    /// Valid bytes of the beat, contiguous from lane 0.
    pub tkeep: Signal<In, Bits<64>>,
    /// A beat is offered.
    pub tvalid: Signal<In, bool>,
    /// The block takes it.
    pub tready: Signal<Out, bool>,
    /// Last beat of a frame.
    pub tlast: Signal<In, bool>,
    /// The MAC marks the frame bad (FCS error...), on its last beat.
    pub tuser: Signal<In, bool>,
}
