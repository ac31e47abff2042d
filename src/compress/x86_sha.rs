//! SHA-1 compression with the x86 SHA extensions (SHA-NI).
//!
//! The chaining value stays in two registers across all the blocks of a
//! call: `abcd` (a in the highest lane, as `sha1rnds4` wants it) and `e` (in
//! the highest lane of its own register). Message words four at a time, the
//! first in the highest lane.

use core::arch::x86_64::*;

use super::Block;
use crate::filter::{Filter, Lanes};

/// Reverses the 16 bytes: big-endian words, first word in the top lane.
#[inline(always)]
unsafe fn reverse() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f) }
}

/// The registers' chaining value as five words.
#[inline(always)]
unsafe fn store(abcd: __m128i, e: __m128i, ihv: &mut [u32; 5]) {
    // SAFETY: SSE4.1 (the caller's); `ihv` has 16 writable bytes first and
    // storeu takes any alignment.
    unsafe {
        _mm_storeu_si128(ihv.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(abcd));
        ihv[4] = _mm_extract_epi32::<3>(e) as u32;
    }
}

/// Five words as the registers' chaining value.
#[inline(always)]
unsafe fn load(ihv: &[u32; 5]) -> (__m128i, __m128i) {
    // SAFETY: SSE2; `ihv` has 16 readable bytes first, loadu takes any alignment.
    unsafe {
        let abcd = _mm_shuffle_epi32::<0x1b>(_mm_loadu_si128(ihv.as_ptr().cast()));
        (abcd, _mm_set_epi32(ihv[4] as i32, 0, 0, 0))
    }
}

/// One block's 80 rounds, the chaining value in `abcd` and `e`; calls
/// `between(q)` after each quarter `q` (0..4) of the rounds, so other work
/// can sit between them in program order.
#[inline(always)]
unsafe fn block(
    abcd: &mut __m128i,
    e: &mut __m128i,
    block: &Block,
    mut between: impl FnMut(usize),
) {
    // SAFETY (whole body): the caller guarantees SHA, SSSE3 and SSE4.1; a
    // block is 64 readable bytes and loadu takes any alignment.
    unsafe {
        let words = |i: usize| {
            _mm_shuffle_epi8(
                _mm_loadu_si128(block.as_ptr().add(16 * i).cast()),
                reverse(),
            )
        };
        let (abcd0, e0) = (*abcd, *e);
        let mut m = [words(0), words(1), words(2), words(3)];
        // Before rounds 4i..4i+4: the previous `abcd` gives the e of these
        // rounds (its a rotated by 30), plus the message words.
        let mut prev = *abcd;
        let mut x = _mm_add_epi32(*e, m[0]);
        *abcd = _mm_sha1rnds4_epu32::<0>(*abcd, x);
        macro_rules! group {
            ($i:literal, $f:literal) => {
                if $i >= 4 {
                    m[$i % 4] = _mm_sha1msg2_epu32(
                        _mm_xor_si128(
                            _mm_sha1msg1_epu32(m[$i % 4], m[($i + 1) % 4]),
                            m[($i + 2) % 4],
                        ),
                        m[($i + 3) % 4],
                    );
                }
                x = _mm_sha1nexte_epu32(prev, m[$i % 4]);
                prev = *abcd;
                *abcd = _mm_sha1rnds4_epu32::<$f>(*abcd, x);
            };
        }
        group!(1, 0);
        group!(2, 0);
        group!(3, 0);
        group!(4, 0);
        between(0);
        group!(5, 1);
        group!(6, 1);
        group!(7, 1);
        group!(8, 1);
        group!(9, 1);
        between(1);
        group!(10, 2);
        group!(11, 2);
        group!(12, 2);
        group!(13, 2);
        group!(14, 2);
        between(2);
        group!(15, 3);
        group!(16, 3);
        group!(17, 3);
        group!(18, 3);
        group!(19, 3);
        *e = _mm_sha1nexte_epu32(prev, e0);
        *abcd = _mm_add_epi32(*abcd, abcd0);
        between(3);
    }
}

/// Compresses `blocks` into `ihv`.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) unsafe fn compress_blocks(ihv: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller checked the CPU.
    unsafe {
        let (mut abcd, mut e) = load(ihv);
        for b in blocks {
            block(&mut abcd, &mut e, b, |_| {});
        }
        store(abcd, e, ihv);
    }
}

/// Compresses the `N` blocks of `blocks` into `ihv`, writing the chaining
/// value before each to `ins`, and meanwhile filters the `N` blocks of
/// `ahead` (if not empty) into `ahead_masks`: one part of the filter after
/// each block's rounds, so the filter's vector work fills the ports the
/// SHA-NI chain leaves idle. `V` holds `N` blocks.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3, SSE4.1 and `V`'s instructions.
#[inline(always)]
pub(crate) unsafe fn compress_filter<V: Lanes, const N: usize>(
    ihv: &mut [u32; 5],
    blocks: &[Block],
    ins: &mut [[u32; 5]],
    ahead: &[Block],
    ahead_masks: &mut [u32],
) {
    debug_assert_eq!(V::LANES, N);
    let blocks: &[Block; N] = blocks.try_into().expect("N blocks");
    let ins: &mut [[u32; 5]; N] = ins.try_into().expect("N states");
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let mut filter = (!ahead.is_empty()).then(|| Filter::<V>::new(ahead));
        let (mut abcd, mut e) = load(ihv);
        macro_rules! one {
            ($($j:literal)*) => {$(
                if $j < N {
                    store(abcd, e, &mut ins[$j]);
                    block(&mut abcd, &mut e, &blocks[$j], |q| {
                        if let Some(f) = &mut filter {
                            f.part(4 * $j + q, 4 * N);
                        }
                    });
                }
            )*};
        }
        one!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        const { assert!(N <= 16) };
        store(abcd, e, ihv);
        if let Some(f) = &filter {
            f.finish(ahead_masks);
        }
    }
}
