//! [`Vector`] on AVX-512: sixteen lanes, with three-input logic
//! (`vpternlogd`) and rotates (`vprold`) for the compound operations and a
//! mask register for the filter's broken lanes; and [`Vl128`], four lanes
//! with the same instructions (the filter's conditions in top bits), for
//! short remainders.
//!
//! SAFETY (every `unsafe` block here): the caller checked AVX-512 F, BW and
//! VL (the [`Vector`] contract); every load and store is of a slice cut to
//! its length first, and the unaligned forms take any address.

use core::arch::x86_64::*;

use crate::block::Block;
use crate::vector::Vector;

impl Vector for __m512i {
    /// The lanes some condition broke, one bit each.
    type Broken = __mmask16;
    #[inline(always)]
    unsafe fn none_broken() -> __mmask16 {
        0
    }
    #[inline(always)]
    unsafe fn break_unless<const SA: i32, const SB: i32, const ROT: i32, const DIFFER: bool>(
        broken: __mmask16,
        a: Self,
        b: Self,
    ) -> __mmask16 {
        unsafe {
            let x = _mm512_xor_si512(a, _mm512_rol_epi32::<ROT>(b));
            let bit = _mm512_set1_epi32(1 << (31 - SA));
            let k = if DIFFER {
                _mm512_testn_epi32_mask(x, bit)
            } else {
                _mm512_test_epi32_mask(x, bit)
            };
            broken | k
        }
    }
    #[inline(always)]
    unsafe fn drop_broken(self, broken: __mmask16, dvs: u32) -> Self {
        unsafe { _mm512_mask_and_epi32(self, broken, self, _mm512_set1_epi32(!dvs as i32)) }
    }
    const LANES: usize = 16;
    type Narrow = Vl128;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        unsafe { _mm512_set1_epi32(x as i32) }
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        unsafe { _mm512_xor_si512(self, o) }
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        unsafe { _mm512_or_si512(self, o) }
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        unsafe { _mm512_andnot_si512(o, self) }
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        unsafe { _mm512_and_si512(self, o) }
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        unsafe { _mm512_sll_epi32(self, _mm_cvtsi32_si128(N)) }
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        unsafe { _mm512_srl_epi32(self, _mm_cvtsi32_si128(N)) }
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        unsafe { _mm512_srai_epi32::<31>(self) }
    }
    #[inline(always)]
    unsafe fn expand_word(a: Self, b: Self, c: Self, d: Self) -> Self {
        unsafe {
            _mm512_rol_epi32::<1>(_mm512_xor_si512(
                _mm512_ternarylogic_epi32::<0x96>(a, b, c),
                d,
            ))
        }
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        let blocks: &[Block; 16] = blocks[..16].try_into().unwrap();
        // the array just checked, and loadu takes any alignment.
        unsafe {
            let bswap = _mm512_set4_epi32(0x0c0d_0e0f, 0x0809_0a0b, 0x0405_0607, 0x0001_0203);
            // Row j: the 16 big-endian words of block j.
            let r: [__m512i; 16] = core::array::from_fn(|j| {
                _mm512_shuffle_epi8(_mm512_loadu_si512(blocks[j].as_ptr().cast()), bswap)
            });
            // A 16x16 transpose. First 4x4 within each 128-bit lane: u[4q+c]
            // holds, in lane L, word 4L+c of rows 4q..4q+4.
            let mut u = [_mm512_setzero_si512(); 16];
            for q in 0..4 {
                let t0 = _mm512_unpacklo_epi32(r[4 * q], r[4 * q + 1]);
                let t1 = _mm512_unpackhi_epi32(r[4 * q], r[4 * q + 1]);
                let t2 = _mm512_unpacklo_epi32(r[4 * q + 2], r[4 * q + 3]);
                let t3 = _mm512_unpackhi_epi32(r[4 * q + 2], r[4 * q + 3]);
                u[4 * q] = _mm512_unpacklo_epi64(t0, t2);
                u[4 * q + 1] = _mm512_unpackhi_epi64(t0, t2);
                u[4 * q + 2] = _mm512_unpacklo_epi64(t1, t3);
                u[4 * q + 3] = _mm512_unpackhi_epi64(t1, t3);
            }
            // Then the 128-bit lanes: word 4L+c of every row is lane L of
            // u[c], u[4+c], u[8+c], u[12+c].
            let mut w = [_mm512_setzero_si512(); 16];
            for c in 0..4 {
                // Lanes L0, L2 (even) or L1, L3 (odd) of two sources.
                let even = |a, b| _mm512_shuffle_i32x4::<0x88>(a, b);
                let odd = |a, b| _mm512_shuffle_i32x4::<0xdd>(a, b);
                let (x0, x1) = (even(u[c], u[4 + c]), odd(u[c], u[4 + c]));
                let (y0, y1) = (even(u[8 + c], u[12 + c]), odd(u[8 + c], u[12 + c]));
                w[c] = even(x0, y0);
                w[8 + c] = odd(x0, y0);
                w[4 + c] = even(x1, y1);
                w[12 + c] = odd(x1, y1);
            }
            w
        }
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        let out = &mut out[..16];
        // first and the store takes any alignment.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), self) }
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        let src = &src[..16];
        // first and the load takes any alignment.
        unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        unsafe { _mm512_add_epi32(self, o) }
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        unsafe { _mm512_maskz_set1_epi32(_mm512_cmpeq_epi32_mask(self, o), -1) }
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        unsafe { _mm512_reduce_or_epi32(self) as u32 }
    }
    #[inline(always)]
    unsafe fn rotl5(self) -> Self {
        unsafe { _mm512_rol_epi32::<5>(self) }
    }
    #[inline(always)]
    unsafe fn rotl30(self) -> Self {
        unsafe { _mm512_rol_epi32::<30>(self) }
    }
    #[inline(always)]
    unsafe fn choose(b: Self, c: Self, d: Self) -> Self {
        // b ? c : d.
        unsafe { _mm512_ternarylogic_epi32::<0xca>(b, c, d) }
    }
    #[inline(always)]
    unsafe fn parity(b: Self, c: Self, d: Self) -> Self {
        unsafe { _mm512_ternarylogic_epi32::<0x96>(b, c, d) }
    }
    #[inline(always)]
    unsafe fn majority(b: Self, c: Self, d: Self) -> Self {
        unsafe { _mm512_ternarylogic_epi32::<0xe8>(b, c, d) }
    }
}

/// Four blocks in a 128-bit vector with AVX-512VL's three-input logic and
/// rotates: a remainder of a few blocks costs less than a padded 16-lane
/// pass.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct Vl128(__m128i);

impl Vector for Vl128 {
    crate::vector::top_bit_conditions!();
    #[inline(always)]
    fn hold(&mut self) {
        self.0.hold();
    }

    const LANES: usize = 4;
    type Narrow = Self;
    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        Vl128(unsafe { _mm_set1_epi32(x as i32) })
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        Vl128(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        Vl128(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        Vl128(unsafe { _mm_andnot_si128(o.0, self.0) })
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        Vl128(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        Vl128(unsafe { _mm_slli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        Vl128(unsafe { _mm_srli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    unsafe fn sign(self) -> Self {
        Vl128(unsafe { _mm_srai_epi32::<31>(self.0) })
    }
    #[inline(always)]
    unsafe fn expand_word(a: Self, b: Self, c: Self, d: Self) -> Self {
        Vl128(unsafe {
            _mm_rol_epi32::<1>(_mm_xor_si128(
                _mm_ternarylogic_epi32::<0x96>(a.0, b.0, c.0),
                d.0,
            ))
        })
    }
    #[inline(always)]
    unsafe fn or_xor(self, a: Self, b: Self) -> Self {
        Vl128(unsafe { _mm_ternarylogic_epi32::<0xf6>(self.0, a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn and_xor(self, a: Self, b: Self) -> Self {
        Vl128(unsafe { _mm_ternarylogic_epi32::<0x60>(self.0, a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn drop_dvs(self, same: Self, differ: Self, dvs: u32) -> Self {
        Vl128(unsafe {
            let broke =
                _mm_srai_epi32::<31>(_mm_ternarylogic_epi32::<0xf3>(same.0, differ.0, same.0));
            _mm_ternarylogic_epi32::<0x70>(self.0, broke, _mm_set1_epi32(dvs as i32))
        })
    }
    #[inline(always)]
    unsafe fn load16(blocks: &[Block]) -> [Self; 16] {
        unsafe { <__m128i as Vector>::load16(blocks) }.map(Vl128)
    }
    #[inline(always)]
    unsafe fn store(self, out: &mut [u32]) {
        unsafe { self.0.store(out) }
    }
    #[inline(always)]
    unsafe fn load(src: &[u32]) -> Self {
        Vl128(unsafe { <__m128i as Vector>::load(src) })
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        Vl128(unsafe { _mm_add_epi32(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn eq(self, o: Self) -> Self {
        Vl128(unsafe { _mm_cmpeq_epi32(self.0, o.0) })
    }
    #[inline(always)]
    unsafe fn or_lanes(self) -> u32 {
        unsafe { self.0.or_lanes() }
    }
    #[inline(always)]
    unsafe fn kill_unless(self, near: Self, far: Self, m: Self, e: Self, k: Self) -> Self {
        unsafe {
            // (A ^ B) & C, then A | (B & ~C): three instructions, no mask
            // register (a compare into one takes the port of the SHA
            // instructions beside it).
            let x = _mm_ternarylogic_epi32::<0x28>(near.0, far.0, m.0);
            let ok = _mm_cmpeq_epi32(x, e.0);
            Vl128(_mm_ternarylogic_epi32::<0xf4>(self.0, k.0, ok))
        }
    }
}
