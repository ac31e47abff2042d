//! The wasm32 platform's rounds for detection one block at a time: the
//! portable steps, their schedule expanded on simd128 four words at a time
//! ahead of the steps that read it and stored in order, where the per-block
//! filter reads it too.
//!
//! V8 keeps a scalar schedule's 16-word window on the stack, a spill and
//! reloads every step; here each step reads its word with one load, and the
//! vectors run on units the steps leave idle.
//! Each vector is computed two vectors ahead of the step that first reads
//! it, beside the steps (all at once before the steps is a dependent chain
//! the steps wait for), from vectors held in registers (a vector load of
//! words just stored as other vectors waits for the stores to complete).
//!
//! The stores and loads go through a pointer that every eighth step
//! recomputes from its working variable and a zero the compilers cannot see
//! through: Chromium's V8 otherwise moves every load up to the store it
//! reads, so the whole expansion runs before the steps again and the words
//! wait on the stack (docs/performance.md has both runtimes' figures).

use core::arch::wasm32::{
    i32x4_replace_lane, i32x4_shuffle, u32x4, u32x4_shl, u32x4_shr, u32x4_splat, v128, v128_and,
    v128_load, v128_or, v128_store, v128_xor,
};

use crate::block::Block;
use crate::compress::lanes::{compress_words, step_constants};
use crate::compress::portable::StoringRounds;
use crate::compress::{BetweenGroups, State};
use crate::vector::Vector;
use crate::vector::simd128::bswap;

/// The portable steps on a schedule simd128 expands (the module's doc).
pub(crate) struct Simd128;

/// `x <<< N` in each lane.
#[inline(always)]
fn rotl<const N: u32>(x: v128) -> v128 {
    v128_or(u32x4_shl(x, N), u32x4_shr(x, 32 - N))
}

/// Schedule words `4i..4i + 4` from the vectors of the words before them
/// (`v[j]` holds words `4j..4j + 4`; `i` in 4..20).
#[inline(always)]
fn expand4(v: &[v128; 20], i: usize) -> v128 {
    if i < 8 {
        // w[t] = (w[t-3] ^ w[t-8] ^ w[t-14] ^ w[t-16]) <<< 1: the fourth
        // word reads the first, so it is taken as 0 and mended after.
        let w3 = i32x4_replace_lane::<3>(i32x4_shuffle::<1, 2, 3, 3>(v[i - 1], v[i - 1]), 0);
        let w14 = i32x4_shuffle::<2, 3, 4, 5>(v[i - 4], v[i - 3]);
        let x = rotl::<1>(v128_xor(v128_xor(w3, v[i - 2]), v128_xor(w14, v[i - 4])));
        let first = rotl::<1>(i32x4_shuffle::<0, 0, 0, 0>(x, x));
        v128_xor(x, v128_and(first, u32x4(0, 0, 0, u32::MAX)))
    } else {
        // From word 32 on, the same recurrence unrolled once:
        // w[t] = (w[t-6] ^ w[t-16] ^ w[t-28] ^ w[t-32]) <<< 2, whose four
        // words of a vector read none of each other.
        let w6 = i32x4_shuffle::<2, 3, 4, 5>(v[i - 2], v[i - 1]);
        rotl::<2>(v128_xor(
            v128_xor(w6, v[i - 4]),
            v128_xor(v[i - 7], v[i - 8]),
        ))
    }
}

impl StoringRounds for Simd128 {
    #[inline(always)]
    unsafe fn compress_keeping(
        chain: &mut [u32; 5],
        block: &Block,
        w: &mut [u32; 80],
        beside: &mut impl BetweenGroups,
    ) -> State {
        let out = w.as_mut_ptr();
        // Zero, read where the compilers cannot tell (the tie above).
        let zero = <v128 as Vector>::opaque_zero() as u32;
        let mut v = [u32x4_splat(0); 20];
        for (i, x) in v.iter_mut().take(4).enumerate() {
            // SAFETY: bytes 16i..16i + 16 of the block; v128.load takes any
            // alignment.
            let bytes = unsafe { v128_load(block.as_ptr().add(16 * i).cast()) };
            *x = bswap(bytes);
            // SAFETY: words 4i..4i + 4 of `w`; v128.store takes any alignment.
            unsafe { v128_store(out.add(4 * i).cast(), *x) };
        }
        let mut tied = out;
        let mut before_60 = *chain;
        // SAFETY: u32 lanes are plain integer arithmetic; `tied` is `out`
        // and every index is below 80; the caller guarantees what `beside`
        // needs.
        unsafe {
            let keys = step_constants::<u32>(zero as usize);
            compress_words::<u32>(chain, &mut before_60, keys, |t, e| {
                if t % 8 == 0 {
                    tied = out.wrapping_add((zero & e) as usize);
                }
                let ahead = t / 4 + 2;
                if t % 4 == 0 && (4..20).contains(&ahead) {
                    v[ahead] = expand4(&v, ahead);
                    v128_store(tied.add(4 * ahead).cast(), v[ahead]);
                }
                let word = *tied.add(t);
                if t % 4 == 3 {
                    beside.group(t / 4);
                }
                word
            });
        }
        before_60
    }
}
