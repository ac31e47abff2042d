//! The x86_64 backends, fastest first.
//!
//! SHA-NI compression with the AVX-512, AVX2 or SSE2 filter, then the
//! portable compressor with each filter (CPUs without SHA-NI). SSE2 is part
//! of x86-64, so the portable backend is only ever chosen when forced.
//!
//! The SHA-NI backends detect one block at a time (the per-block filter on
//! the schedule the rounds store: src/detect/x86_sha.rs); with AVX-512 and
//! SSE2 each block's filter runs beside the rounds of the next, 128-bit,
//! and the AVX2 one behind a call: a wide filter never runs inside the
//! legacy-SSE SHA rounds (the dirty upper state).
//!
//! The AVX-512 backends exist in builds by a compiler that has the
//! intrinsics (`sha1dc_avx512`, set by build.rs).

use super::Backend;
use crate::compress::Compressor::{Portable, ShaNi};
use crate::detect::PerBlock::{ShaNiAvx2, ShaNiSse2};
use crate::vector::Simd;

cpufeatures::new!(has_sha_ni, "sha", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(has_avx2, "avx2");
#[cfg(sha1dc_avx512)]
cpufeatures::new!(has_avx512, "avx512f", "avx512bw", "avx512vl");

pub(super) static BACKENDS: &[Backend] = &[
    #[cfg(sha1dc_avx512)]
    Backend {
        name: "sha-ni+avx512",
        supported: || has_sha_ni::get() && has_avx512::get(),
        compressor: crate::compress::Compressor::ShaNiAvx512,
        simd: Simd::Avx512,
        per_block: Some(crate::detect::PerBlock::ShaNiAvx512),
    },
    Backend {
        name: "sha-ni+avx2",
        supported: || has_sha_ni::get() && has_avx2::get(),
        compressor: ShaNi,
        simd: Simd::Avx2,
        per_block: Some(ShaNiAvx2),
    },
    Backend {
        name: "sha-ni+sse2",
        supported: has_sha_ni::get,
        compressor: ShaNi,
        simd: Simd::Sse2,
        per_block: Some(ShaNiSse2),
    },
    #[cfg(sha1dc_avx512)]
    Backend {
        name: "avx512",
        supported: has_avx512::get,
        compressor: Portable,
        simd: Simd::Avx512,
        per_block: None,
    },
    Backend {
        name: "avx2",
        supported: has_avx2::get,
        compressor: Portable,
        simd: Simd::Avx2,
        per_block: None,
    },
    Backend {
        name: "sse2",
        supported: || true,
        compressor: Portable,
        simd: Simd::Sse2,
        per_block: None,
    },
];
