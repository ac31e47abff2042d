//! [`Vector`] on NEON: four lanes (little-endian aarch64).
//!
//! SAFETY (every `unsafe` block here): NEON is part of aarch64; every load
//! and store is of a slice cut to its length first, and the loads take any
//! alignment.

use core::arch::aarch64::*;

use super::Vector;
use crate::block::Block;

impl Vector for uint32x4_t {
    super::top_bit_conditions!();
    const LANES: usize = 4;
    type Narrow = Self;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        unsafe { vdupq_n_u32(x) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { veorq_u32(self, o) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        unsafe { vorrq_u32(self, o) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        unsafe { vbicq_u32(self, o) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        unsafe { vandq_u32(self, o) }
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        unsafe { vshlq_n_u32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        unsafe { vshrq_n_u32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        unsafe { vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(self))) }
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        let blocks: &[Block; 4] = blocks[..4].try_into().unwrap();
        let mut w = [unsafe { vdupq_n_u32(0) }; 16];
        for q in 0..4 {
            // Row j: words 4q..4q+4 of block j, big-endian; transposed, lane
            // j of column i is word 4q+i of block j.
            let row = |j: usize| unsafe {
                vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks[j][16 * q..].as_ptr())))
            };
            let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
            unsafe {
                let t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1)); // r0[0] r1[0] r0[2] r1[2]
                let t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1)); // r0[1] r1[1] r0[3] r1[3]
                let t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
                let t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));
                w[4 * q] = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
                w[4 * q + 1] = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
                w[4 * q + 2] = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
                w[4 * q + 3] = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
            }
        }
        w
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        let out = &mut out[..4];
        unsafe { vst1q_u32(out.as_mut_ptr(), self) }
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        let src = &src[..4];
        unsafe { vld1q_u32(src.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        unsafe { vaddq_u32(self, o) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        unsafe { vceqq_u32(self, o) }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        unsafe {
            let x = vorr_u32(vget_low_u32(self), vget_high_u32(self));
            vget_lane_u32::<0>(x) | vget_lane_u32::<1>(x)
        }
    }
}
