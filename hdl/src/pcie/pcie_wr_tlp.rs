//! pcie_wr's next memory write TLP, combinationally from the write's registers: its length (to
//! the next multiple of the max payload size, or the write's end), descriptor, byte enables,
//! beats on RQ and where its payload starts in the write's stored lines.

use crate::layout::PcieRqDescNamed;
use crate::pcie_be::PcieBe;
use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieWrTlp {
    /// The TLP's host address.
    pub addr: Signal<In, Bits<64>>,
    /// Bytes of the write still to send, from `addr` on.
    pub left: Signal<In, Bits<14>>,
    /// Bytes from `addr` to the next multiple of the max payload size (1..1024).
    pub room: Signal<In, Bits<11>>,
    /// The TLP's first byte's offset in the write.
    pub off: Signal<In, Bits<14>>,
    /// Payload bytes, 1..1024.
    pub len: Signal<Out, Bits<14>>,
    /// This TLP ends the write.
    pub is_last: Signal<Out, bool>,
    /// The descriptor (`sim::layout::PCIE_RQ_DESC`), a memory write.
    pub desc: Signal<Out, Bits<128>>,
    pub first_be: Signal<Out, Bits<4>>,
    pub last_be: Signal<Out, Bits<4>>,
    /// RQ beats: the 4 descriptor dwords and the payload dwords, 16 a beat.
    pub beats: Signal<Out, Bits<5>>,
    /// Dwords of the last beat (0: all 16).
    pub last_dwords: Signal<Out, Bits<4>>,
    /// The write offset of beat 0's byte 0: the payload's first dword starts at byte 16, its
    /// first byte at 16 + addr mod 4; negative (wrapping) for a write's first TLP.
    pub x0: Signal<Out, Bits<16>>,
    /// Dwords and byte enables.
    be: PcieBe,
    total: Signal<Local, Bits<11>>,
    total15: Signal<Local, Bits<11>>,
    lo2: Signal<Local, Bits<2>>,
}

impl Logic for PcieWrTlp {
    #[hdl_gen]
    fn update(&mut self) {
        self.is_last.next = self.left.val() <= bit_cast::<14, 11>(self.room.val());
        self.len.next = bit_cast::<14, 11>(self.room.val());
        if self.is_last.val() {
            self.len.next = self.left.val();
        }
        self.lo2.next = self.addr.val().get_bits::<2>(0);
        self.be.lo2.next = self.lo2.val();
        self.be.len.next = self.len.val();
        self.desc.next = 0.into();
        self.desc.next.set_value_pcie_rq_desc_addr(self.addr.val().get_bits::<62>(2));
        self.desc.next.set_value_pcie_rq_desc_dwords(self.be.dwords.val());
        self.desc.next.set_value_pcie_rq_desc_req_type(1.into());
        // 4 descriptor dwords + the payload's, 16 a beat.
        self.total.next = self.be.dwords.val() + 4;
        self.total15.next = self.total.val() + 15;
        self.beats.next = self.total15.val().get_bits::<5>(4);
        self.last_dwords.next = self.total.val().get_bits::<4>(0);
        self.x0.next = bit_cast::<16, 14>(self.off.val()) - 16 - bit_cast::<16, 2>(self.lo2.val());
        self.first_be.next = self.be.first_be.val();
        self.last_be.next = self.be.last_be.val();
    }
}
