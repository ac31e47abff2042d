//! The ARMv8 SHA-1 platform (`armv8-sha+neon`): the ARMv8 rounds, the
//! filter ahead on NEON, the candidate's test in scalar. Built by a
//! compiler that has the SHA-1 intrinsics (`sha1dc_armv8`).

use crate::block::Block;
use crate::compress::aarch64_sha;
use crate::detect::{self, Candidates};
use crate::dv::DisturbanceVector;
use crate::platform::choice::Backend;
use crate::platform::{Arch, Kernels, OnKernels};
use crate::vector::OnVectors;

// cpufeatures' "sha2" is Linux's HWCAP_SHA2, Rust's `sha2` target
// feature, which covers the SHA-1 instructions too; no CPU has SHA-256
// without SHA-1.
cpufeatures::new!(has_sha, "sha2");

/// The ARMv8 SHA-1 platform.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    Armv8,
}

/// The `armv8-sha+neon` backend, first on aarch64.
pub(super) const BACKEND: Backend = Backend {
    supported: has_sha::get,
    amd: crate::platform::Platform::Arch(super::Platform::Armv8(Platform::Armv8)),
    other: crate::platform::Platform::Arch(super::Platform::Armv8(Platform::Armv8)),
};

impl Arch for Platform {
    #[inline(always)]
    fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output {
        // SAFETY: this platform names a CPU with the SHA-1 instructions.
        unsafe { work.run::<Armv8>() }
    }
}

/// [`Platform::Armv8`]'s kernels.
struct Armv8;

impl Kernels for Armv8 {
    const NAME: &'static str = "armv8-sha+neon";
    const PER_BLOCK: bool = false;

    #[inline(always)]
    unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY (each): the caller checked the CPU.
        unsafe { compress_blocks(chain, blocks) }
    }

    #[inline(always)]
    unsafe fn compress_candidate(
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        unsafe { compress_candidate(chain, block, c) }
    }

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: NEON is part of aarch64.
        unsafe { work.run::<core::arch::aarch64::uint32x4_t>() }
    }
}

/// [`Kernels::compress_blocks`] with the ARMv8 SHA-1 instructions.
///
/// # Safety
/// The CPU must support them (Rust's `sha2` feature).
#[clippy::msrv = "1.72"]
#[target_feature(enable = "neon,sha2")]
unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller checked the CPU.
    unsafe { aarch64_sha::rounds(chain, blocks) }
}

/// [`Kernels::compress_candidate`] with the ARMv8 rounds.
///
/// # Safety
/// As [`compress_blocks`].
#[clippy::msrv = "1.72"]
#[target_feature(enable = "neon,sha2")]
unsafe fn compress_candidate(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<DisturbanceVector> {
    // SAFETY: the caller checked the CPU.
    unsafe { detect::compress_and_test::<detect::aarch64_sha::Armv8>(chain, block, c) }
}
