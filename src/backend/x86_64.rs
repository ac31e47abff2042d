//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX-512, AVX2 or SSE2 filter, then the
//! portable compressor with each filter (CPUs without SHA-NI). SSE2 is part
//! of x86-64, so the portable backend is only ever chosen when forced.

use core::arch::x86_64::{__m128i, __m256i};

use super::{Backend, PerBlock};
use crate::block::Block;
use crate::compress::{portable, x86_sha};
use crate::filter::per_block;
use crate::recompress::{self, Candidates, Kept};
use crate::vector::Simd;

cpufeatures::new!(has_sha_ni, "sha", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(has_avx2, "avx2");
cpufeatures::new!(has_avx512, "avx512f", "avx512bw", "avx512vl");

// Safe wrappers: each is reachable only through a backend whose `supported`
// checked the instructions it needs.

fn sha_ni(chain: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the backend checked SHA-NI.
    unsafe { x86_sha::compress_blocks(chain, blocks) }
}

fn sha_ni_flagged(chain: &mut [u32; 5], block: &Block, c: Candidates) -> Option<usize> {
    // SAFETY: the backend checked SHA-NI.
    unsafe { x86_sha::compress_flagged(chain, block, c) }
}

fn sha_ni_test(kept: &Kept, block: &Block, c: Candidates) -> Option<usize> {
    // SAFETY: the backend checked SHA-NI.
    unsafe { x86_sha::test_flagged(kept, block, c) }
}

/// SHA-NI detection one block at a time with a per-block filter: the
/// 128-bit one inline, the AVX2 one behind a call (its `vzeroupper` on
/// return keeps the legacy-SSE SHA instructions clean).
macro_rules! sha_ni_detect {
    ($name:ident, $inner:ident, $features:literal, $mask:expr) => {
        #[target_feature(enable = $features)]
        unsafe fn $inner(
            chain: &mut [u32; 5],
            blocks: &[Block],
            reduced: bool,
        ) -> Option<(usize, usize)> {
            // SAFETY: the caller checked SHA-NI and the filter's features.
            unsafe { x86_sha::compress_detect(chain, blocks, reduced, $mask) }
        }

        fn $name(chain: &mut [u32; 5], blocks: &[Block], reduced: bool) -> Option<(usize, usize)> {
            // SAFETY: the backend checked SHA-NI and the filter's features.
            unsafe { $inner(chain, blocks, reduced) }
        }
    };
}
sha_ni_detect!(
    detect_sse2,
    detect_sse2_inner,
    "sha,sse2,ssse3,sse4.1",
    |w| per_block::mask4::<__m128i, true>(w)
);
sha_ni_detect!(
    detect_avx2,
    detect_avx2_inner,
    "sha,sse2,ssse3,sse4.1",
    |w| mask8_avx2(w)
);

#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn mask8_avx2(w: &[u32; 80]) -> u32 {
    // SAFETY: the caller checked AVX2.
    unsafe { per_block::mask8::<__m256i, true>(w) }
}

/// Per-block detection for calls of fewer than `below` blocks.
const fn one_block_at_a_time(below: usize, run: super::DetectBlocks) -> Option<PerBlock> {
    Some(PerBlock { below, run })
}

/// The SHA-NI backends detect one block at a time (the per-block filter on
/// the schedule the rounds store: src/compress/x86_sha.rs), except that
/// with AVX-512 a call of 512 blocks (32 KiB) or more filters them 16 at a
/// time, one block per lane, then compresses them: from there on that
/// measured as fast or faster. A wide filter never runs inside the
/// legacy-SSE SHA rounds: 256- or 512-bit code next to them without a call
/// boundary costs 5x or more (the dirty upper state).
pub(super) static BACKENDS: &[Backend] = &[
    Backend {
        name: "sha-ni+avx512",
        supported: || has_sha_ni::get() && has_avx512::get(),
        compress: sha_ni,
        simd: Simd::Avx512,
        compress_flagged: sha_ni_flagged,
        test_flagged: sha_ni_test,
        per_block: one_block_at_a_time(512, detect_avx2),
    },
    Backend {
        name: "sha-ni+avx2",
        supported: || has_sha_ni::get() && has_avx2::get(),
        compress: sha_ni,
        simd: Simd::Avx2,
        compress_flagged: sha_ni_flagged,
        test_flagged: sha_ni_test,
        per_block: one_block_at_a_time(usize::MAX, detect_avx2),
    },
    Backend {
        name: "sha-ni+sse2",
        supported: has_sha_ni::get,
        compress: sha_ni,
        simd: Simd::Sse2,
        compress_flagged: sha_ni_flagged,
        test_flagged: sha_ni_test,
        per_block: one_block_at_a_time(usize::MAX, detect_sse2),
    },
    Backend {
        name: "avx512",
        supported: has_avx512::get,
        compress: portable::compress_blocks,
        simd: Simd::Avx512,
        compress_flagged: recompress::compress_flagged,
        test_flagged: recompress::test_flagged,
        per_block: None,
    },
    Backend {
        name: "avx2",
        supported: has_avx2::get,
        compress: portable::compress_blocks,
        simd: Simd::Avx2,
        compress_flagged: recompress::compress_flagged,
        test_flagged: recompress::test_flagged,
        per_block: None,
    },
    Backend {
        name: "sse2",
        supported: || true,
        compress: portable::compress_blocks,
        simd: Simd::Sse2,
        compress_flagged: recompress::compress_flagged,
        test_flagged: recompress::test_flagged,
        per_block: None,
    },
];
