//! A block RAM as the RTL's (rust-hdl's `RAM`) behaves, for the cycle models of blocks that
//! have no model but their timing: the read data is a register loaded on each clock with the
//! word at the read address as it was before that clock's write.

/// `2^bits` words of `T`.
#[derive(Clone, Debug)]
pub struct Ram<T> {
    mem: Vec<T>,
    rd: T,
}

impl<T: Copy + Default> Ram<T> {
    /// 2^`bits` words, all `T::default()` (the RTL's are swept to 0 after reset).
    pub fn new(bits: usize) -> Ram<T> {
        Ram { mem: vec![T::default(); 1 << bits], rd: T::default() }
    }

    /// `read_data` this cycle.
    pub fn data(&self) -> T {
        self.rd
    }

    /// The address mask (the RTL's address is the low bits of whatever drives it).
    pub fn mask(&self) -> usize {
        self.mem.len() - 1
    }

    /// One clock: `read_data` becomes the word at `read`, then `write` lands.
    pub fn clock(&mut self, read: usize, write: Option<(usize, T)>) {
        let m = self.mask();
        self.rd = self.mem[read & m];
        if let Some((a, v)) = write {
            self.mem[a & m] = v;
        }
    }
}
