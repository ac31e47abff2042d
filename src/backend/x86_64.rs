//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX2 or SSE2 filter, then the portable
//! compressor with either filter (CPUs without SHA-NI). SSE2 is part of
//! x86-64, so the portable backend is only ever chosen when forced.

use core::arch::x86_64::__m128i;

use super::{Backend, Fused};
use crate::compress::{Block, portable, x86_sha};
use crate::filter::{avx2, sse2};

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

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn sha_ni_sse2_pass(
    ihv: &mut [u32; 5],
    blocks: &[Block],
    ins: &mut [[u32; 5]],
    ahead: &[Block],
    masks: &mut [u32],
) {
    // SAFETY: the caller checked SHA-NI.
    unsafe { x86_sha::compress_filter::<__m128i, 4>(ihv, blocks, ins, ahead, masks) }
}

static SHA_NI_SSE2: Fused = Fused {
    lanes: 4,
    // SAFETY: only reached through a backend whose `supported` checked it.
    run: |ihv, blocks, ins, ahead, masks| unsafe {
        sha_ni_sse2_pass(ihv, blocks, ins, ahead, masks)
    },
};

/// The fused pass of the backend called `name`, if it has one.
///
/// Only the 128-bit filter is interleaved with the SHA-NI rounds: the SHA
/// instructions exist only in legacy SSE encoding, and on this project's
/// AMD EPYC host running them between 256-bit AVX2 instructions (dirty upper
/// register halves) made the pass about 40 times slower, `vzeroupper` after
/// each part or not. The AVX2 backend filters a batch, then compresses it;
/// measured, that is as fast as the interleaved 128-bit pass.
pub(super) fn fused(name: &str) -> Option<&'static Fused> {
    match name {
        "sha-ni+sse2" => Some(&SHA_NI_SSE2),
        _ => None,
    }
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
