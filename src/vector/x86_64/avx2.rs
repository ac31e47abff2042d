//! [`Vector`] on AVX2: eight lanes.
//!
//! SAFETY (every `unsafe` block here): the caller checked AVX2 (the
//! [`Vector`] contract); every load and store is of a slice cut to its length
//! first, and the unaligned forms take any address.

use core::arch::x86_64::*;

use crate::block::Block;
use crate::vector::Vector;

impl Vector for __m256i {
    crate::vector::top_bit_conditions!();
    const LANES: usize = 8;
    type Narrow = Self;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        unsafe { _mm256_set1_epi32(x as i32) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm256_xor_si256(self, o) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        unsafe { _mm256_or_si256(self, o) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        unsafe { _mm256_andnot_si256(o, self) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        unsafe { _mm256_and_si256(self, o) }
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        unsafe { _mm256_slli_epi32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        unsafe { _mm256_srli_epi32::<N>(self) }
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        unsafe { _mm256_srai_epi32::<31>(self) }
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        let blocks: &[Block; 8] = blocks[..8].try_into().unwrap();
        let mut w = [unsafe { _mm256_setzero_si256() }; 16];
        // bounds-checked 32-byte slice, unaligned loads take any address.
        unsafe {
            // Big-endian words: reverse the bytes of every lane.
            let bswap = _mm256_set_epi8(
                12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, //
                12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
            );
            for h in 0..2 {
                // Row j: words 8h..8h+8 of block j. Transposed 8x8: lane j
                // of column i is word 8h+i of block j.
                let row = |j: usize| {
                    _mm256_shuffle_epi8(
                        _mm256_loadu_si256(blocks[j][32 * h..32 * h + 32].as_ptr().cast()),
                        bswap,
                    )
                };
                let r = [
                    row(0),
                    row(1),
                    row(2),
                    row(3),
                    row(4),
                    row(5),
                    row(6),
                    row(7),
                ];
                // Per 128-bit half: 32-bit then 64-bit interleaves (4x4).
                let a0 = _mm256_unpacklo_epi32(r[0], r[1]);
                let a1 = _mm256_unpackhi_epi32(r[0], r[1]);
                let a2 = _mm256_unpacklo_epi32(r[2], r[3]);
                let a3 = _mm256_unpackhi_epi32(r[2], r[3]);
                let a4 = _mm256_unpacklo_epi32(r[4], r[5]);
                let a5 = _mm256_unpackhi_epi32(r[4], r[5]);
                let a6 = _mm256_unpacklo_epi32(r[6], r[7]);
                let a7 = _mm256_unpackhi_epi32(r[6], r[7]);
                let b0 = _mm256_unpacklo_epi64(a0, a2); // word 0 | word 4 of blocks 0..4
                let b1 = _mm256_unpackhi_epi64(a0, a2); // word 1 | 5
                let b2 = _mm256_unpacklo_epi64(a1, a3); // word 2 | 6
                let b3 = _mm256_unpackhi_epi64(a1, a3); // word 3 | 7
                let b4 = _mm256_unpacklo_epi64(a4, a6); // the same for blocks 4..8
                let b5 = _mm256_unpackhi_epi64(a4, a6);
                let b6 = _mm256_unpacklo_epi64(a5, a7);
                let b7 = _mm256_unpackhi_epi64(a5, a7);
                // Low halves hold words 0..4, high halves words 4..8.
                w[8 * h] = _mm256_permute2x128_si256::<0x20>(b0, b4);
                w[8 * h + 1] = _mm256_permute2x128_si256::<0x20>(b1, b5);
                w[8 * h + 2] = _mm256_permute2x128_si256::<0x20>(b2, b6);
                w[8 * h + 3] = _mm256_permute2x128_si256::<0x20>(b3, b7);
                w[8 * h + 4] = _mm256_permute2x128_si256::<0x31>(b0, b4);
                w[8 * h + 5] = _mm256_permute2x128_si256::<0x31>(b1, b5);
                w[8 * h + 6] = _mm256_permute2x128_si256::<0x31>(b2, b6);
                w[8 * h + 7] = _mm256_permute2x128_si256::<0x31>(b3, b7);
            }
        }
        w
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        let out = &mut out[..8];
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), self) }
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        let src = &src[..8];
        unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        unsafe { _mm256_add_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        unsafe { _mm256_cmpeq_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        unsafe {
            let x = _mm_or_si128(
                _mm256_castsi256_si128(self),
                _mm256_extracti128_si256::<1>(self),
            );
            let x = _mm_or_si128(x, _mm_shuffle_epi32::<0x4e>(x));
            _mm_cvtsi128_si32(_mm_or_si128(x, _mm_shuffle_epi32::<0xb1>(x))) as u32
        }
    }
}
