//! SHA-1 compression with the ARMv8 cryptography extension.
//!
//! The chaining value stays in registers across all the blocks of a call:
//! `abcd` as one vector (a in lane 0) and `e` as a scalar. Message words
//! four at a time, the first in lane 0.

use core::arch::aarch64::*;

use super::{K, State};
use crate::block::Block;

/// Compresses `blocks` into `chain` (entered from src/platform/aarch64.rs).
///
/// # Safety
/// The CPU must support the SHA-1 instructions (Rust's `sha2` feature).
#[inline(always)]
pub(crate) unsafe fn rounds(chain: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller checked the CPU.
    unsafe { compress_keeping(chain, blocks, |_| {}) }
}

/// Message words `4i..4i + 4` of `block`, big-endian, the first in lane 0.
#[inline(always)]
unsafe fn words(block: &Block, i: usize) -> uint32x4_t {
    // SAFETY: a block is 64 readable bytes; ld1 takes any alignment.
    unsafe { vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block[16 * i..].as_ptr()))) }
}

/// Compresses `blocks` into `chain`, calling `before_60` with each block's
/// working state before step 60 (what detection tests from:
/// src/detect/aarch64_sha.rs).
///
/// # Safety
/// The CPU must support the SHA-1 instructions (Rust's `sha2` feature).
#[inline]
#[target_feature(enable = "neon,sha2")]
pub(crate) unsafe fn compress_keeping(
    chain: &mut [u32; 5],
    blocks: &[Block],
    mut before_60: impl FnMut(State),
) {
    // SAFETY: `chain` has at least four readable u32s.
    let mut abcd = unsafe { vld1q_u32(chain.as_ptr()) };
    let mut e = chain[4];
    let k = K.map(|k| vdupq_n_u32(k));
    for block in blocks {
        let (abcd0, e0) = (abcd, e);
        // SAFETY: the caller checked the CPU.
        let mut m = unsafe { [0, 1, 2, 3].map(|i| words(block, i)) };
        // Groups `$i` of four rounds with the instruction `$op`.
        macro_rules! groups {
            ($op:ident: $($i:literal)*) => {$(
                if $i >= 4 {
                    m[$i % 4] = vsha1su1q_u32(
                        vsha1su0q_u32(m[$i % 4], m[($i + 1) % 4], m[($i + 2) % 4]),
                        m[($i + 3) % 4],
                    );
                }
                let wk = vaddq_u32(m[$i % 4], k[$i / 5]);
                // The e of the next four rounds: this a rotated by 30.
                let next_e = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
                abcd = $op(abcd, e, wk);
                e = next_e;
            )*};
        }
        groups!(vsha1cq_u32: 0 1 2 3 4);
        groups!(vsha1pq_u32: 5 6 7 8 9);
        groups!(vsha1mq_u32: 10 11 12 13 14);
        let mut a = [0u32; 4];
        // SAFETY: `a` has four writable u32s.
        unsafe { vst1q_u32(a.as_mut_ptr(), abcd) };
        before_60([a[0], a[1], a[2], a[3], e]);
        groups!(vsha1pq_u32: 15 16 17 18 19);
        abcd = vaddq_u32(abcd, abcd0);
        e = e.wrapping_add(e0);
    }
    // SAFETY: `chain` has at least four writable u32s.
    unsafe { vst1q_u32(chain.as_mut_ptr(), abcd) };
    chain[4] = e;
}
