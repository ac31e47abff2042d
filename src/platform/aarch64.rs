//! The aarch64 platforms, fastest first, the one `match` from each to its
//! kernels, and the NEON platform's kernels.
//!
//! The ARMv8 SHA-1 instructions with the NEON filter, then the portable
//! compressor with the NEON filter, which detects one block at a time (the
//! portable rounds store the schedule the per-block filter reads). NEON is
//! part of aarch64 (the vector code assumes little-endian lanes, so
//! big-endian aarch64 runs portable: this file is `sha1dc_neon`'s).
//!
//! The ARMv8 platform exists in builds by a compiler that has the SHA-1
//! intrinsics (`sha1dc_armv8`, set by build.rs); an empty enum in others.

use super::choice::{Backend, Vendor};
use super::{Arch, Kernels, OnKernels};
use crate::block::Block;
use crate::detect::{self, Found};
use crate::vector::OnVectors;

#[cfg_attr(sha1dc_armv8, path = "armv8.rs")]
#[cfg_attr(not(sha1dc_armv8), path = "none.rs")]
mod armv8;

/// The aarch64 platforms.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    /// Plain Rust rounds, the 4-lane NEON per-block filter.
    Neon,
    /// The ARMv8 SHA-1 instructions, the filter ahead on NEON (armv8.rs;
    /// none without the intrinsics).
    #[cfg_attr(not(sha1dc_armv8), allow(dead_code))]
    Armv8(armv8::Platform),
}

pub(super) static BACKENDS: &[Backend] = &[
    #[cfg(sha1dc_armv8)]
    armv8::BACKEND,
    Backend {
        supported: || true,
        amd: super::Platform::Arch(Platform::Neon),
        other: super::Platform::Arch(Platform::Neon),
    },
];

/// Only x86-64 tells the vendor.
pub(super) fn vendor() -> Vendor {
    Vendor::Other
}

impl Arch for Platform {
    #[inline(always)]
    fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output {
        match self {
            // SAFETY: NEON is part of aarch64.
            Platform::Neon => unsafe { work.run::<Neon>() },
            Platform::Armv8(p) => p.run_on_kernels(work),
        }
    }
}

/// [`Platform::Neon`]'s kernels.
struct Neon;

impl Kernels for Neon {
    const NAME: &'static str = "neon";
    const PER_BLOCK: bool = true;

    unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
        crate::compress::portable::compress_blocks(chain, blocks)
    }

    unsafe fn detect_per_block(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        use core::arch::aarch64::uint32x4_t;
        // SAFETY: NEON is part of aarch64.
        unsafe {
            detect::portable::detect::<uint32x4_t, crate::compress::portable::Scalar>(
                chain,
                blocks,
                reduced_round,
            )
        }
    }

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: NEON is part of aarch64.
        unsafe { work.run::<core::arch::aarch64::uint32x4_t>() }
    }
}
