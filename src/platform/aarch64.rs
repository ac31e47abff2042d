//! The aarch64 backends, fastest first, and the `#[target_feature]` entries
//! of their platforms' operations.
//!
//! The ARMv8 SHA-1 instructions with the NEON filter, then the portable
//! compressor with the NEON filter, which detects one block at a time (the
//! portable rounds store the schedule the per-block filter reads). NEON is
//! part of aarch64 (the vector code assumes little-endian lanes, so
//! big-endian aarch64 runs portable: this file is `sha1dc_neon`'s).
//!
//! The ARMv8 backend exists in builds by a compiler that has the SHA-1
//! intrinsics (`sha1dc_armv8`, set by build.rs).

use super::{Backend, Platform};

// cpufeatures' "sha2" is Linux's HWCAP_SHA2, Rust's `sha2` target
// feature, which covers the SHA-1 instructions too; no CPU has SHA-256
// without SHA-1.
#[cfg(sha1dc_armv8)]
cpufeatures::new!(has_sha, "sha2");

pub(super) static BACKENDS: &[Backend] = &[
    #[cfg(sha1dc_armv8)]
    Backend {
        supported: has_sha::get,
        amd: Platform::Armv8Neon,
        other: Platform::Armv8Neon,
    },
    Backend {
        supported: || true,
        amd: Platform::Neon,
        other: Platform::Neon,
    },
];

#[cfg(sha1dc_armv8)]
pub(super) use armv8::{compress, compress_candidate};

#[cfg(sha1dc_armv8)]
#[clippy::msrv = "1.72"]
mod armv8 {
    use crate::block::Block;
    use crate::compress::aarch64_sha;
    use crate::detect::{self, Candidates};

    /// [`Platform::compress`](super::Platform::compress) with the ARMv8
    /// SHA-1 instructions.
    ///
    /// # Safety
    /// The CPU must support them (Rust's `sha2` feature).
    #[target_feature(enable = "neon,sha2")]
    pub(crate) unsafe fn compress(chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY: the caller checked the CPU.
        unsafe { aarch64_sha::rounds(chain, blocks) }
    }

    /// [`Platform::compress_candidate`](super::Platform::compress_candidate)
    /// with the ARMv8 rounds.
    ///
    /// # Safety
    /// As [`compress`].
    #[target_feature(enable = "neon,sha2")]
    pub(crate) unsafe fn compress_candidate(
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<usize> {
        // SAFETY: the caller checked the CPU.
        unsafe { detect::compress_and_test::<detect::aarch64_sha::Armv8>(chain, block, c) }
    }
}
