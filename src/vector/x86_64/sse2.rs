//! [`Vector`] on SSE2: four lanes.
//!
//! SAFETY (every `unsafe` block here): SSE2 is part of x86-64; every load
//! and store is of a slice cut to its length first, and the unaligned forms
//! take any address.

use core::arch::x86_64::*;

use crate::block::Block;
use crate::vector::Vector;

/// Byte order of every 32-bit lane reversed, in SSE2 (no `pshufb`).
#[inline(always)]
unsafe fn bswap32(x: __m128i) -> __m128i {
    unsafe {
        let halves = _mm_or_si128(_mm_slli_epi32::<16>(x), _mm_srli_epi32::<16>(x));
        _mm_or_si128(_mm_slli_epi16::<8>(halves), _mm_srli_epi16::<8>(halves))
    }
}

impl Vector for __m128i {
    crate::vector::top_bit_conditions!();
    #[inline(always)]
    fn hold(&mut self) {
        // SAFETY: the template is empty: it reads and writes only this
        // register and touches no memory, the stack or the flags.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(xmm_reg) * self,
                options(nomem, nostack, preserves_flags)
            )
        }
    }

    const LANES: usize = 4;
    type Narrow = Self;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        unsafe { _mm_set1_epi32(x as i32) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm_xor_si128(self, o) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        unsafe { _mm_or_si128(self, o) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        unsafe { _mm_andnot_si128(o, self) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        unsafe { _mm_and_si128(self, o) }
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        unsafe { _mm_slli_epi32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        unsafe { _mm_srli_epi32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        unsafe { _mm_srai_epi32::<31>(self) }
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        let blocks: &[Block; 4] = blocks[..4].try_into().unwrap();
        let mut w = [unsafe { _mm_setzero_si128() }; 16];
        for q in 0..4 {
            // Row j: words 4q..4q+4 of block j; transposed, lane j of column i
            // is word 4q+i of block j.
            let row = |j: usize| unsafe {
                bswap32(_mm_loadu_si128(
                    blocks[j][16 * q..16 * q + 16].as_ptr().cast(),
                ))
            };
            let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
            unsafe {
                let t0 = _mm_unpacklo_epi32(r0, r1); // r0[0] r1[0] r0[1] r1[1]
                let t1 = _mm_unpackhi_epi32(r0, r1); // r0[2] r1[2] r0[3] r1[3]
                let t2 = _mm_unpacklo_epi32(r2, r3);
                let t3 = _mm_unpackhi_epi32(r2, r3);
                w[4 * q] = _mm_unpacklo_epi64(t0, t2);
                w[4 * q + 1] = _mm_unpackhi_epi64(t0, t2);
                w[4 * q + 2] = _mm_unpacklo_epi64(t1, t3);
                w[4 * q + 3] = _mm_unpackhi_epi64(t1, t3);
            }
        }
        w
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        let out = &mut out[..4];
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), self) }
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        let src = &src[..4];
        unsafe { _mm_loadu_si128(src.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        unsafe { _mm_add_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        unsafe { _mm_cmpeq_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        unsafe {
            let x = _mm_or_si128(self, _mm_shuffle_epi32::<0x4e>(self));
            _mm_cvtsi128_si32(_mm_or_si128(x, _mm_shuffle_epi32::<0xb1>(x))) as u32
        }
    }
}
