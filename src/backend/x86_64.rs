//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX2 or SSE2 filter, then the portable
//! compressor with either filter (CPUs without SHA-NI). SSE2 is part of
//! x86-64, so the portable backend is only ever chosen when forced.

use super::Backend;
use crate::compress::{Block, portable, x86_sha};
use crate::ubc::{avx2, sse2};

cpufeatures::new!(has_sha_ni, "sha", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(has_avx2, "avx2");

fn sha_ni(ihv: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: only reached through a backend whose `supported` checked SHA-NI.
    unsafe { x86_sha::compress_blocks(ihv, blocks) }
}

fn avx2_filter(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: only reached through a backend whose `supported` checked AVX2.
    unsafe { avx2::masks(blocks, out) }
}

pub(super) static BACKENDS: &[Backend] = &[
    Backend {
        name: "sha-ni+avx2",
        compress: sha_ni,
        filter: avx2_filter,
        supported: || has_sha_ni::get() && has_avx2::get(),
    },
    Backend {
        name: "sha-ni+sse2",
        compress: sha_ni,
        filter: sse2::masks,
        supported: has_sha_ni::get,
    },
    Backend {
        name: "avx2",
        compress: portable::compress_blocks,
        filter: avx2_filter,
        supported: has_avx2::get,
    },
    Backend {
        name: "sse2",
        compress: portable::compress_blocks,
        filter: sse2::masks,
        supported: || true,
    },
];
