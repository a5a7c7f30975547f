//! axil_slave cycle by cycle (hdl/src/top/axil_slave.rs): AXI4-Lite to a register bus. A
//! write is taken when AW and W are both valid and no B response is owed (one `wr_en` cycle,
//! its response from the next); a read when no R response is owed, its data and error
//! registered. Word address = byte address >> 2.

/// The AXI4-Lite inputs of one cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Inputs {
    pub reset: bool,
    /// AW and W valid together: (byte address, data, strobes).
    pub aw_w: Option<(u32, u32, u8)>,
    pub bready: bool,
    /// AR valid: byte address.
    pub ar: Option<u32>,
    pub rready: bool,
}

/// What the slave shows during a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// awready = wready = wr_en.
    pub aw_ready: bool,
    /// B valid: SLVERR?
    pub b: Option<bool>,
    pub ar_ready: bool,
    /// R valid: (data, SLVERR?).
    pub r: Option<(u32, bool)>,
}

/// axil_slave, cycle by cycle.
#[derive(Clone, Copy, Debug, Default)]
pub struct AxilSlave {
    b: Option<bool>,
    r: Option<(u32, bool)>,
}

impl AxilSlave {
    pub fn new() -> AxilSlave {
        AxilSlave::default()
    }

    /// No response waiting.
    pub fn idle(&self) -> bool {
        self.b.is_none() && self.r.is_none()
    }

    /// The register write this cycle: (word address, data, strobes).
    pub fn wr(&self, i: &Inputs) -> Option<(u32, u32, u8)> {
        i.aw_w.filter(|_| self.b.is_none()).map(|(a, d, s)| (a >> 2, d, s))
    }

    /// The register read this cycle: word address.
    pub fn rd(&self, i: &Inputs) -> Option<u32> {
        i.ar.filter(|_| self.r.is_none()).map(|a| a >> 2)
    }

    pub fn outputs(&self, i: &Inputs) -> Outputs {
        Outputs { aw_ready: self.wr(i).is_some(), b: self.b, ar_ready: self.rd(i).is_some(), r: self.r }
    }

    /// One clock: `wr_err` for this cycle's write, `rd` the data and error of this cycle's
    /// read (the register block's answers); returns the outputs shown.
    pub fn step(&mut self, i: &Inputs, wr_err: bool, rd: (u32, bool)) -> Outputs {
        let out = self.outputs(i);
        if i.bready {
            self.b = None;
        }
        if out.aw_ready {
            self.b = Some(wr_err);
        }
        if i.rready {
            self.r = None;
        }
        if out.ar_ready {
            self.r = Some(rd);
        }
        if i.reset {
            *self = AxilSlave::new();
        }
        out
    }
}
