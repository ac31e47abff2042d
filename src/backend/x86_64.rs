//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX-512, AVX2 or SSE2 filter, then the
//! portable compressor with each filter (CPUs without SHA-NI). SSE2 is part
//! of x86-64, so the portable backend is only ever chosen when forced.

use core::arch::x86_64::{__m128i, __m256i, __m512i};

use super::{Backend, Fused, FusedGroup};
use crate::Outcome;
use crate::block::Block;
use crate::compress::{portable, x86_sha};
use crate::engine::Config;
use crate::filter::{avx2, avx512, sse2};
use crate::many::{self, Messages};
use crate::recompress::{self, Candidates, Kept};

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

fn avx512_filter(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: the backend checked AVX-512F and BW.
    unsafe { avx512::masks(blocks, out) }
}

fn avx2_filter(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: the backend checked AVX2.
    unsafe { avx2::masks(blocks, out) }
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn sha_ni_sse2_group(g: FusedGroup<'_>) {
    // SAFETY: the caller checked SHA-NI.
    unsafe { crate::fused::x86_sha::compress_filter::<__m128i, 4>(g) }
}

/// The batch form of each vector width (src/many), under its features.
macro_rules! hash_many {
    ($name:ident, $inner:ident, $v:ty, $features:literal) => {
        #[target_feature(enable = $features)]
        unsafe fn $inner(b: &'static Backend, c: Config, m: Messages<'_, '_>, o: &mut [Outcome]) {
            // SAFETY: the caller checked the features.
            unsafe { many::hash_lanes::<$v>(b, c, m, o) }
        }

        fn $name(b: &'static Backend, c: Config, m: Messages<'_, '_>, o: &mut [Outcome]) {
            // SAFETY: the backend checked the features.
            unsafe { $inner(b, c, m, o) }
        }
    };
}
hash_many!(many_avx512, many_avx512_inner, __m512i, "avx512f,avx512bw");
hash_many!(many_avx2, many_avx2_inner, __m256i, "avx2");
hash_many!(many_sse2, many_sse2_inner, __m128i, "sse2");

fn sha_ni_sse2_fused(g: FusedGroup<'_>) {
    // SAFETY: the backend checked SHA-NI.
    unsafe { sha_ni_sse2_group(g) }
}

/// The AVX-512 and AVX2 backends filter a batch, then compress it, with a
/// call boundary between the wide filter and the legacy-SSE SHA rounds (see
/// crate::fused::x86_sha for why they are never interleaved).
pub(super) static BACKENDS: &[Backend] = &[
    Backend {
        name: "sha-ni+avx512",
        supported: || has_sha_ni::get() && has_avx512::get(),
        compress: sha_ni,
        filter: avx512_filter,
        compress_flagged: sha_ni_flagged,
        test_flagged: sha_ni_test,
        fused: None,
        hash_many: many_avx512,
    },
    Backend {
        name: "sha-ni+avx2",
        supported: || has_sha_ni::get() && has_avx2::get(),
        compress: sha_ni,
        filter: avx2_filter,
        compress_flagged: sha_ni_flagged,
        test_flagged: sha_ni_test,
        fused: None,
        hash_many: many_avx2,
    },
    Backend {
        name: "sha-ni+sse2",
        supported: has_sha_ni::get,
        compress: sha_ni,
        filter: sse2::masks,
        compress_flagged: sha_ni_flagged,
        test_flagged: sha_ni_test,
        fused: Some(Fused {
            lanes: 4,
            run: sha_ni_sse2_fused,
        }),
        hash_many: many_sse2,
    },
    Backend {
        name: "avx512",
        supported: has_avx512::get,
        compress: portable::compress_blocks,
        filter: avx512_filter,
        compress_flagged: recompress::compress_flagged,
        test_flagged: recompress::test_flagged,
        fused: None,
        hash_many: many_avx512,
    },
    Backend {
        name: "avx2",
        supported: has_avx2::get,
        compress: portable::compress_blocks,
        filter: avx2_filter,
        compress_flagged: recompress::compress_flagged,
        test_flagged: recompress::test_flagged,
        fused: None,
        hash_many: many_avx2,
    },
    Backend {
        name: "sse2",
        supported: || true,
        compress: portable::compress_blocks,
        filter: sse2::masks,
        compress_flagged: recompress::compress_flagged,
        test_flagged: recompress::test_flagged,
        fused: None,
        hash_many: many_sse2,
    },
];
