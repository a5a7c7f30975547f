//! A host driver's post queue: the application hands it WRITE posts at any time, and it writes
//! them to the core one command at a time, as software must. The core runs one register
//! command at a time and drops one written while another runs (`ERR_OVERRUN`), so after a
//! post's register writes the queue reads `STATUS` until the command bit clears, checks the
//! error code, and only then writes the next post. It never blocks the clock: `step` is called
//! once per cycle beside the network's step.

use super::hpcc_nic_core::{post, Core, CoreDut};
use hdl::hpcc_nic_core::csr;
use std::collections::VecDeque;

/// A post the core refused or a register access it answered with an error response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The caller's id of the post.
    pub id: usize,
    /// `STATUS`'s error code (`csr::ERR_*`), or 0x100 + the AXI response of a failed access.
    pub err: u32,
}

/// One core's queue of posts not yet accepted.
#[derive(Default)]
pub struct Poster {
    queue: VecDeque<(usize, u16, [u8; 64], u16)>,
    /// The post whose register writes or `STATUS` polls are in flight.
    running: Option<usize>,
    /// Posts the core accepted (`ERR_NONE`).
    pub accepted: u64,
}

impl Poster {
    /// Queues post `id`: tx_ctx's post word `tx` for `flow`, completion tag `tag`.
    pub fn push(&mut self, id: usize, flow: u16, tx: [u8; 64], tag: u16) {
        self.queue.push_back((id, flow, tx, tag));
    }

    /// Nothing queued and nothing in flight.
    pub fn idle(&self) -> bool {
        self.queue.is_empty() && self.running.is_none()
    }

    /// After a cycle of `c`: takes the answers of its register accesses, polls again while the
    /// command runs, and starts the next post once the last is accepted. `c`'s register port
    /// must be this queue's alone.
    pub fn step<M: CoreDut>(&mut self, c: &mut Core<M>) -> Result<(), Refused> {
        if let Some(id) = self.running {
            while let Some((word, data, resp)) = c.results.pop_front() {
                if resp != 0 {
                    return Err(Refused { id, err: 0x100 + resp as u32 });
                }
                if word != csr::STATUS {
                    continue;
                }
                if data & csr::STATUS_BUSY != 0 {
                    c.read(csr::STATUS);
                    continue;
                }
                let err = csr::status_err(data);
                if err != csr::ERR_NONE {
                    return Err(Refused { id, err });
                }
                self.accepted += 1;
                self.running = None;
            }
        }
        if self.running.is_none() {
            if let Some((id, flow, tx, tag)) = self.queue.pop_front() {
                post(c, flow, &tx, None, tag);
                c.read(csr::STATUS);
                self.running = Some(id);
            }
        }
        Ok(())
    }
}
