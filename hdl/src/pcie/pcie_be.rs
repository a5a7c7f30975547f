//! A request's dword count and first / last dword byte enables from its address's low two bits
//! and its length in bytes, by PCIe's rules (the last byte enables are 0 for a one-dword
//! request). Combinational; the read engine's and the write engine's TLPs both use it.

use rust_hdl::prelude::*;

/// See the module doc.
#[derive(LogicBlock, Default)]
pub struct PcieBe {
    /// The address's low two bits: the first byte's place in its dword.
    pub lo2: Signal<In, Bits<2>>,
    /// Bytes, at least 1.
    pub len: Signal<In, Bits<14>>,
    /// Dwords holding the bytes.
    pub dwords: Signal<Out, Bits<11>>,
    pub first_be: Signal<Out, Bits<4>>,
    pub last_be: Signal<Out, Bits<4>>,
    lead: Signal<Local, Bits<14>>,
    lead3: Signal<Local, Bits<14>>,
    end_b: Signal<Local, Bits<2>>,
    fifteen: Signal<Local, Bits<4>>,
    lbe: Signal<Local, Bits<4>>,
}

impl Logic for PcieBe {
    #[hdl_gen]
    fn update(&mut self) {
        self.lead.next = bit_cast::<14, 2>(self.lo2.val()) + self.len.val();
        self.lead3.next = self.lead.val() + 3;
        self.dwords.next = self.lead3.val().get_bits::<11>(2);
        self.fifteen.next = 15.into();
        self.first_be.next = self.fifteen.val() << self.lo2.val();
        // The last byte's lane + 1, mod 4: 0 is a whole dword.
        self.end_b.next = self.lead.val().get_bits::<2>(0);
        self.lbe.next = 15.into();
        if self.end_b.val() == 1 {
            self.lbe.next = 1.into();
        }
        if self.end_b.val() == 2 {
            self.lbe.next = 3.into();
        }
        if self.end_b.val() == 3 {
            self.lbe.next = 7.into();
        }
        self.last_be.next = self.lbe.val();
        if self.lead.val() <= 4 {
            self.first_be.next = (self.fifteen.val() << self.lo2.val()) & self.lbe.val();
            self.last_be.next = 0.into();
        }
    }
}
