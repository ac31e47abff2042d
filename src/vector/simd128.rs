//! [`Vector`] on WebAssembly SIMD: four lanes per `v128`.
//!
//! simd128 is a compile-time feature on wasm32 (there is no run-time
//! detection: a module that uses it fails to load in an engine without it),
//! so this form exists only in builds made with `+simd128`, which
//! `.cargo/config.toml` turns on.

use core::arch::wasm32::{
    i8x16_shuffle, i32x4_shr, i32x4_shuffle, u32x4_add, u32x4_eq, u32x4_extract_lane, u32x4_shl,
    u32x4_shr, u32x4_splat, v128, v128_and, v128_andnot, v128_load, v128_or, v128_store, v128_xor,
};

use super::Vector;
use crate::block::Block;

/// Big-endian words: reverses the bytes of each 32-bit lane.
#[inline(always)]
pub(crate) fn bswap(x: v128) -> v128 {
    i8x16_shuffle::<3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12>(x, x)
}

/// Transposes four rows of four words: lane j of output i is lane i of row j.
#[inline(always)]
fn transpose([a, b, c, d]: [v128; 4]) -> [v128; 4] {
    let ab_lo = i32x4_shuffle::<0, 4, 1, 5>(a, b);
    let ab_hi = i32x4_shuffle::<2, 6, 3, 7>(a, b);
    let cd_lo = i32x4_shuffle::<0, 4, 1, 5>(c, d);
    let cd_hi = i32x4_shuffle::<2, 6, 3, 7>(c, d);
    [
        i32x4_shuffle::<0, 1, 4, 5>(ab_lo, cd_lo),
        i32x4_shuffle::<2, 3, 6, 7>(ab_lo, cd_lo),
        i32x4_shuffle::<0, 1, 4, 5>(ab_hi, cd_hi),
        i32x4_shuffle::<2, 3, 6, 7>(ab_hi, cd_hi),
    ]
}

/// Bytes `16 * row .. 16 * row + 16` of `block`.
#[inline(always)]
fn row(block: &Block, row: usize) -> v128 {
    let bytes: &[u8; 16] = block[16 * row..16 * row + 16]
        .try_into()
        .unwrap_or(&[0; 16]);
    // SAFETY: `bytes` is 16 readable bytes; v128.load has no alignment
    // requirement.
    unsafe { v128_load(bytes.as_ptr().cast()) }
}

impl Vector for v128 {
    super::top_bit_conditions!();
    const LANES: usize = 4;
    type Narrow = Self;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        u32x4_splat(x)
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        v128_xor(self, o)
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        v128_or(self, o)
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        v128_andnot(self, o)
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        v128_and(self, o)
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        u32x4_shl(self, N as u32)
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        u32x4_shr(self, N as u32)
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        i32x4_shr(self, 31)
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        let [b0, b1, b2, b3] = [0, 1, 2, 3].map(|i| &blocks[i]);
        let mut w = [u32x4_splat(0); 16];
        for r in 0..4 {
            let t = transpose([row(b0, r), row(b1, r), row(b2, r), row(b3, r)]);
            for (j, x) in t.into_iter().enumerate() {
                w[4 * r + j] = bswap(x);
            }
        }
        w
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        let out = &mut out[..4];
        // SAFETY: `out` was cut to the vector length first; v128_store takes
        // any alignment.
        unsafe { v128_store(out.as_mut_ptr().cast(), self) }
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        let src = &src[..4];
        // SAFETY: `src` was cut to the vector length first; v128_load takes
        // any alignment.
        unsafe { v128_load(src.as_ptr().cast()) }
    }
    /// A load at an address LLVM cannot see through, so that it stays a
    /// load: from a `v128.const`, V8 builds the vector with four
    /// instructions where it is used, or holds it in a register the filter
    /// needs.
    #[inline(always)]
    unsafe fn load_constant(src: &'static [u32], zero: usize) -> Self {
        let src = &src[..4];
        // SAFETY: four readable words (`zero` is 0); v128.load takes any
        // alignment.
        unsafe { v128_load(src.as_ptr().wrapping_add(zero).cast()) }
    }
    /// A volatile read, which neither LLVM nor V8 sees through (also the
    /// wasm32 rounds' tie).
    #[inline(always)]
    fn opaque_zero() -> usize {
        static ZERO: usize = 0;
        // SAFETY: a static's read.
        unsafe { core::ptr::read_volatile(&ZERO) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        u32x4_add(self, o)
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        u32x4_eq(self, o)
    }
    /// wasm has no and-not: V8 builds the complement of the compare with
    /// two instructions more.
    #[inline(always)]
    unsafe fn kill_unless_bit(self, near: Self, far: Self, m: Self, flip: Self, k: Self) -> Self {
        let differs = u32x4_eq(v128_and(v128_xor(near, far), m), flip);
        v128_or(self, v128_and(k, differs))
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        let x = v128_or(self, i32x4_shuffle::<2, 3, 0, 1>(self, self));
        let x = v128_or(x, i32x4_shuffle::<1, 0, 3, 2>(x, x));
        u32x4_extract_lane::<0>(x)
    }
}
