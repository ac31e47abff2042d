//! SHA-1 compression with the x86 SHA extensions (SHA-NI).
//!
//! The chaining value stays in two registers across all the blocks of a
//! call: `abcd` (a in the highest lane, as `sha1rnds4` wants it) and `e` (in
//! the highest lane of its own register). Message words four at a time, the
//! first in the highest lane.

use core::arch::x86_64::*;

use super::State;
use crate::block::Block;

/// Reverses the 16 bytes: big-endian words, first word in the top lane.
#[inline(always)]
unsafe fn reverse() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f) }
}

/// The registers' chaining value as five words.
#[inline(always)]
pub(crate) unsafe fn store(abcd: __m128i, e: __m128i, chain: &mut [u32; 5]) {
    // SAFETY: SSE4.1 (the caller's); `chain` has 16 writable bytes first and
    // storeu takes any alignment.
    unsafe {
        _mm_storeu_si128(chain.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(abcd));
        chain[4] = _mm_extract_epi32::<3>(e) as u32;
    }
}

/// Five words as the registers' chaining value.
#[inline(always)]
pub(crate) unsafe fn load(chain: &[u32; 5]) -> (__m128i, __m128i) {
    // SAFETY: SSE2; `chain` has 16 readable bytes first, loadu takes any
    // alignment.
    unsafe {
        let abcd = _mm_shuffle_epi32::<0x1b>(_mm_loadu_si128(chain.as_ptr().cast()));
        (abcd, _mm_set_epi32(chain[4] as i32, 0, 0, 0))
    }
}

/// What watches a block's rounds as they run: called between the quarters
/// of the rounds, so that its work sits between them in program order
/// (detection keeps the state before step 60 and stores the schedule this
/// way: src/detect/x86_sha/).
pub(crate) trait Observer {
    /// After quarter `Q` (0..4) of the rounds. For `Q` < 3, `abcd` and
    /// `prev` (the `abcd` four steps earlier) give the working state there
    /// (see [`state_of`]).
    unsafe fn after_quarter<const Q: usize>(&mut self, abcd: __m128i, prev: __m128i);

    /// Schedule words `4i..4i+4` (the first in the top lane), as they are
    /// expanded.
    #[inline(always)]
    unsafe fn words(&mut self, _i: usize, _v: __m128i) {}

    /// After the rounds of group `i`, whose result is `abcd`: where an
    /// observer with work of its own between the groups keeps that work in
    /// place ([`Vector::hold`](crate::vector::Vector::hold)).
    #[inline(always)]
    unsafe fn after_group(&mut self, _i: usize, _abcd: &mut __m128i) {}
}

/// Plain compression: nothing watches.
impl Observer for () {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, _: __m128i, _: __m128i) {}
}

/// How the rounds expand schedule words 32..80 (words 16..32 always take
/// the SHA message instructions). The backend table chooses by vendor
/// (src/platform/x86_64/mod.rs); both give the same words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    /// `sha1msg1` and `sha1msg2` throughout: the fewest instructions where
    /// both are single operations (AMD).
    ShaMsg,
    /// The equivalent recurrence
    /// `W[t] = (W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) <<< 2` in plain SSE,
    /// four words at a time: `sha1msg2` is microcoded on some CPUs
    /// (Sapphire Rapids) and stalls the front end, so it runs four times a
    /// block, not 16.
    Rol2,
}

/// An [`Expansion`] as a type, so that the rounds are compiled for each.
pub(crate) trait Expand {
    /// Schedule words `4i..4i+4` (the first in the top lane), `i` >= 4,
    /// from the vectors before. Inlined with a constant `i`.
    ///
    /// # Safety
    /// The CPU must support SHA and SSSE3.
    unsafe fn words(i: usize, v: &[__m128i; 20]) -> __m128i;
}

/// [`Expansion::ShaMsg`].
pub(crate) struct ShaMsg;

/// [`Expansion::Rol2`].
pub(crate) struct Rol2;

/// Words `4i..4i+4` by the SHA message instructions.
#[inline(always)]
unsafe fn sha_msg(i: usize, v: &[__m128i; 20]) -> __m128i {
    // SAFETY: the caller's features (SHA, SSE2).
    unsafe {
        _mm_sha1msg2_epu32(
            _mm_xor_si128(_mm_sha1msg1_epu32(v[i - 4], v[i - 3]), v[i - 2]),
            v[i - 1],
        )
    }
}

impl Expand for ShaMsg {
    #[inline(always)]
    unsafe fn words(i: usize, v: &[__m128i; 20]) -> __m128i {
        // SAFETY: the caller's features.
        unsafe { sha_msg(i, v) }
    }
}

impl Expand for Rol2 {
    #[inline(always)]
    unsafe fn words(i: usize, v: &[__m128i; 20]) -> __m128i {
        // SAFETY (whole body): the caller's features (SHA, SSSE3).
        unsafe {
            if i < 8 {
                return sha_msg(i, v);
            }
            let y = _mm_xor_si128(
                _mm_xor_si128(_mm_alignr_epi8::<8>(v[i - 2], v[i - 1]), v[i - 4]),
                _mm_xor_si128(v[i - 7], v[i - 8]),
            );
            _mm_or_si128(_mm_slli_epi32::<2>(y), _mm_srli_epi32::<30>(y))
        }
    }
}

/// Message words `4i..4i + 4` of `block`, the first in the top lane.
#[inline(always)]
unsafe fn words(block: &Block, i: usize) -> __m128i {
    let bytes: &[u8; 16] = block[16 * i..16 * i + 16].try_into().unwrap();
    // SAFETY: SSSE3 (the caller's); 16 readable bytes, and loadu takes any
    // alignment.
    unsafe { _mm_shuffle_epi8(_mm_loadu_si128(bytes.as_ptr().cast()), reverse()) }
}

/// The 80 schedule words of `block`, by the rounds' own vector recurrence.
#[inline(always)]
pub(crate) unsafe fn schedule<E: Expand>(block: &Block) -> [u32; 80] {
    // SAFETY: the caller's features; each store writes four words inside
    // the 80.
    unsafe {
        let mut v = [_mm_setzero_si128(); 20];
        for (k, x) in v.iter_mut().take(4).enumerate() {
            *x = words(block, k);
        }
        for i in 4..20 {
            v[i] = E::words(i, &v);
        }
        let mut w = [0u32; 80];
        for (k, x) in v.iter().enumerate() {
            _mm_storeu_si128(
                w[4 * k..4 * k + 4].as_mut_ptr().cast(),
                _mm_shuffle_epi32::<0x1b>(*x),
            );
        }
        w
    }
}

/// One block's 80 rounds, the chaining value in `abcd` and `e`, watched by
/// `observer`.
#[inline(always)]
pub(crate) unsafe fn block_rounds<E: Expand>(
    abcd: &mut __m128i,
    e: &mut __m128i,
    block: &Block,
    observer: &mut impl Observer,
) {
    // SAFETY (whole body): the caller guarantees SHA, SSSE3 and SSE4.1.
    unsafe {
        let (abcd0, e0) = (*abcd, *e);
        // v[k]: words 4k..4k+4, the first in the top lane.
        let mut v = [_mm_setzero_si128(); 20];
        for (k, x) in v.iter_mut().take(4).enumerate() {
            *x = words(block, k);
        }
        observer.words(0, v[0]);
        // Before rounds 4i..4i+4: the previous `abcd` gives the e of these
        // rounds (its a rotated by 30), plus the message words.
        let mut prev = *abcd;
        let mut x = _mm_add_epi32(*e, v[0]);
        *abcd = _mm_sha1rnds4_epu32::<0>(*abcd, x);
        observer.after_group(0, abcd);
        // Groups `$i` of rounds with boolean function `$f`.
        macro_rules! groups {
            ($f:literal: $($i:literal)*) => {$(
                if $i >= 4 {
                    v[$i] = E::words($i, &v);
                }
                observer.words($i, v[$i]);
                x = _mm_sha1nexte_epu32(prev, v[$i]);
                prev = *abcd;
                *abcd = _mm_sha1rnds4_epu32::<$f>(*abcd, x);
                observer.after_group($i, abcd);
            )*};
        }
        groups!(0: 1 2 3 4);
        observer.after_quarter::<0>(*abcd, prev);
        groups!(1: 5 6 7 8 9);
        observer.after_quarter::<1>(*abcd, prev);
        groups!(2: 10 11 12 13 14);
        observer.after_quarter::<2>(*abcd, prev);
        groups!(3: 15 16 17 18 19);
        *e = _mm_sha1nexte_epu32(prev, e0);
        *abcd = _mm_add_epi32(*abcd, abcd0);
        observer.after_quarter::<3>(*abcd, prev);
    }
}

/// The rounds of every block of `blocks`, the chaining value in registers
/// (entered from src/platform/x86_64.rs).
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[inline(always)]
pub(crate) unsafe fn rounds<E: Expand>(chain: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller's features (SHA, SSSE3, SSE4.1).
    unsafe {
        let (mut abcd, mut e) = load(chain);
        for b in blocks {
            block_rounds::<E>(&mut abcd, &mut e, b, &mut ());
        }
        store(abcd, e, chain);
    }
}

/// The working state `[a, b, c, d, e]` between two groups of four rounds:
/// `abcd` as the rounds hold it, and `prev`, the `abcd` of four steps
/// earlier, whose a rotated by 30 is this e.
#[inline(always)]
pub(crate) unsafe fn state_of(abcd: __m128i, prev: __m128i) -> State {
    // SAFETY: SSE2 and SSE4.1 (the caller's).
    unsafe {
        let mut s = [0u32; 5];
        _mm_storeu_si128(s.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(abcd));
        s[4] = (_mm_extract_epi32::<3>(prev) as u32).rotate_left(30);
        s
    }
}
