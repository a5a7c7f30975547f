//! Host memory behind one NIC: sparse, byte-addressed, mapped page by page.

use std::collections::BTreeMap;

/// Mapping granularity.
pub const PAGE_SIZE: u64 = 4096;

/// An access touched a page that was never mapped (or ran past the end of the address space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unmapped {
    /// First address of the access.
    pub addr: u64,
    /// Length of the access.
    pub len: u64,
}

/// Sparse host memory. Only mapped pages exist; they start zeroed. Accesses are all-or-nothing:
/// one unmapped byte fails the whole access, so a rejected WRITE leaves no partial data.
#[derive(Clone, Debug, Default)]
pub struct HostMemory {
    pages: BTreeMap<u64, Box<[u8]>>,
}

impl HostMemory {
    /// Empty memory: nothing mapped.
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps (zero-filled) every page touched by `[addr, addr + len)`; pages already mapped keep
    /// their contents.
    pub fn map(&mut self, addr: u64, len: u64) -> Result<(), Unmapped> {
        for page in Self::pages_of(addr, len)? {
            self.pages
                .entry(page)
                .or_insert_with(|| vec![0; PAGE_SIZE as usize].into_boxed_slice());
        }
        Ok(())
    }

    /// Whether every byte of `[addr, addr + len)` is mapped (an empty range always is).
    pub fn is_mapped(&self, addr: u64, len: u64) -> bool {
        match Self::pages_of(addr, len) {
            Ok(mut pages) => pages.all(|p| self.pages.contains_key(&p)),
            Err(_) => false,
        }
    }

    /// Copies `len` bytes out.
    pub fn read(&self, addr: u64, len: u64) -> Result<Vec<u8>, Unmapped> {
        if !self.is_mapped(addr, len) {
            return Err(Unmapped { addr, len });
        }
        let mut out = Vec::with_capacity(len as usize);
        let mut a = addr;
        while a < addr + len {
            let off = a % PAGE_SIZE;
            let n = (PAGE_SIZE - off).min(addr + len - a);
            let page = &self.pages[&(a - off)];
            out.extend_from_slice(&page[off as usize..(off + n) as usize]);
            a += n;
        }
        Ok(out)
    }

    /// Copies `data` in.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), Unmapped> {
        let len = data.len() as u64;
        if !self.is_mapped(addr, len) {
            return Err(Unmapped { addr, len });
        }
        let mut done = 0u64;
        while done < len {
            let a = addr + done;
            let off = a % PAGE_SIZE;
            let n = (PAGE_SIZE - off).min(len - done);
            let page = self.pages.get_mut(&(a - off)).expect("checked mapped");
            page[off as usize..(off + n) as usize]
                .copy_from_slice(&data[done as usize..(done + n) as usize]);
            done += n;
        }
        Ok(())
    }

    /// Maps `[addr, addr + len)` and fills it with `pattern(seed, len)`.
    pub fn fill(&mut self, addr: u64, len: u64, seed: u64) -> Result<(), Unmapped> {
        self.map(addr, len)?;
        self.write(addr, &Self::pattern(seed, len as usize))
    }

    /// Deterministic bytes (xorshift64* stream), different for every seed: what `fill` writes,
    /// so tests can compare against it.
    pub fn pattern(seed: u64, len: usize) -> Vec<u8> {
        let mut rng = super::XorShift::new(seed);
        let mut out = Vec::with_capacity(len + 8);
        while out.len() < len {
            out.extend_from_slice(&rng.next_u64().to_le_bytes());
        }
        out.truncate(len);
        out
    }

    /// Number of mapped pages.
    pub fn mapped_pages(&self) -> usize {
        self.pages.len()
    }

    /// Page base addresses of `[addr, addr + len)`; an error if the range wraps past 2^64.
    fn pages_of(addr: u64, len: u64) -> Result<impl Iterator<Item = u64>, Unmapped> {
        let end = addr.checked_add(len).ok_or(Unmapped { addr, len })?;
        let first = addr / PAGE_SIZE;
        let last = if len == 0 {
            first
        } else {
            (end - 1) / PAGE_SIZE + 1
        };
        Ok((first..last).map(|p| p * PAGE_SIZE))
    }
}
