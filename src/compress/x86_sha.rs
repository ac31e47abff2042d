//! SHA-1 compression with the x86 SHA extensions (SHA-NI).
//!
//! The chaining value stays in two registers across all the blocks of a
//! call: `abcd` (a in the highest lane, as `sha1rnds4` wants it) and `e` (in
//! the highest lane of its own register). Message words four at a time, the
//! first in the highest lane.

use core::arch::x86_64::*;

use super::Block;

/// Compresses `blocks` into `ihv`.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) unsafe fn compress_blocks(ihv: &mut [u32; 5], blocks: &[Block]) {
    // Reverses the 16 bytes: big-endian words, first word in the top lane.
    let reverse = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    // SAFETY: `ihv` has at least 16 readable bytes; loadu takes any alignment.
    let abcd_in = unsafe { _mm_loadu_si128(ihv.as_ptr().cast()) };
    let mut abcd = _mm_shuffle_epi32::<0x1b>(abcd_in);
    let mut e = _mm_set_epi32(ihv[4] as i32, 0, 0, 0);
    for block in blocks {
        // SAFETY: a block is 64 readable bytes; loadu takes any alignment.
        let load = |i: usize| unsafe {
            _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().add(16 * i).cast()), reverse)
        };
        let (abcd0, e0) = (abcd, e);
        let mut m = [load(0), load(1), load(2), load(3)];
        // Before rounds 4i..4i+4: the previous `abcd` gives the e of these
        // rounds (its a rotated by 30), plus the message words.
        let mut prev = abcd;
        let mut x = _mm_add_epi32(e, m[0]);
        abcd = _mm_sha1rnds4_epu32::<0>(abcd, x);
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
                prev = abcd;
                abcd = _mm_sha1rnds4_epu32::<$f>(abcd, x);
            };
        }
        group!(1, 0);
        group!(2, 0);
        group!(3, 0);
        group!(4, 0);
        group!(5, 1);
        group!(6, 1);
        group!(7, 1);
        group!(8, 1);
        group!(9, 1);
        group!(10, 2);
        group!(11, 2);
        group!(12, 2);
        group!(13, 2);
        group!(14, 2);
        group!(15, 3);
        group!(16, 3);
        group!(17, 3);
        group!(18, 3);
        group!(19, 3);
        e = _mm_sha1nexte_epu32(prev, e0);
        abcd = _mm_add_epi32(abcd, abcd0);
    }
    let out = _mm_shuffle_epi32::<0x1b>(abcd);
    // SAFETY: `ihv` has at least 16 writable bytes; storeu takes any alignment.
    unsafe { _mm_storeu_si128(ihv.as_mut_ptr().cast(), out) };
    ihv[4] = _mm_extract_epi32::<3>(e) as u32;
}
