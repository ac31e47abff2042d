//! The filter on plain `u32`s: one block per "vector", for every target.

use crate::block::{Block, load_words};
use crate::lanes::Lanes;

impl Lanes for u32 {
    const LANES: usize = 1;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        x
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        self & !o
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        self << N
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        self >> N
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        ((self as i32) >> 31) as u32
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        load_words(&blocks[0])
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        out[0] = self;
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        src[0]
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        u32::from(self == o).wrapping_neg()
    }
}

/// DV masks of `blocks`, one block at a time: the plainest form, kept as a
/// reference for the tests (the portable backend runs two blocks per `u64`,
/// filter/swar.rs; every form uses this one for a last odd block).
#[cfg(test)]
pub(crate) fn masks(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: u32 lanes need no CPU feature.
    unsafe { super::masks::<u32>(blocks, out) }
}
