//! [`Vector`] on plain `u64`s, two lanes per word ("SIMD within a
//! register"), for the portable backend: the conditions and most of the
//! expansion are bitwise, so two 32-bit lanes share each operation; only the
//! shifts need masks to keep the lanes apart.

use super::Vector;
use crate::block::{Block, load_words};

/// `x` in both lanes.
const fn both(x: u32) -> u64 {
    (x as u64) * 0x1_0000_0001
}

impl Vector for u64 {
    super::top_bit_conditions!();
    const LANES: usize = 2;
    type Narrow = Self;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        both(x)
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
        (self << N) & both(u32::MAX << N)
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        (self >> N) & both(u32::MAX >> N)
    }
    #[inline(always)]
    unsafe fn shl_top<const N: i32>(self) -> Self {
        // The low lane's bits spill into the high lane's bits 0..N only.
        self << N
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        // Each lane's top bit, moved to bit 0 and spread over the lane.
        ((self >> 31) & both(1)) * u64::from(u32::MAX)
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        let (lo, hi) = (load_words(&blocks[0]), load_words(&blocks[1]));
        core::array::from_fn(|t| u64::from(lo[t]) | (u64::from(hi[t]) << 32))
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        out[0] = self as u32;
        out[1] = (self >> 32) as u32;
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        u64::from(src[0]) | (u64::from(src[1]) << 32)
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        // The low 31 bits of each lane add without crossing; the top bits
        // are added without carry (xor).
        let top = both(0x8000_0000);
        ((self & !top) + (o & !top)) ^ ((self ^ o) & top)
    }
}
