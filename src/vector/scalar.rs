//! [`Vector`] on plain `u32`s: one lane, for every target (the portable
//! compressor, the filter of a last odd block, the tests' reference).

use super::Vector;
use crate::block::{Block, load_words};

impl Vector for u32 {
    super::top_bit_conditions!();
    const LANES: usize = 1;
    type Narrow = Self;
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
