//! The aarch64 backends, fastest first.
//!
//! The ARMv8 SHA-1 instructions with the NEON filter, then the portable
//! compressor with the NEON filter, which detects one block at a time (the
//! portable rounds store the schedule the per-block filter reads). NEON is
//! part of aarch64 (the vector code assumes little-endian lanes, so
//! big-endian aarch64 runs portable).
//!
//! The ARMv8 backend exists in builds by a compiler that has the SHA-1
//! intrinsics (`sha1dc_armv8`, set by build.rs).

use super::Backend;

#[cfg(target_endian = "little")]
mod little {
    use super::Backend;
    #[cfg(sha1dc_armv8)]
    use crate::compress::Compressor::Armv8;
    use crate::compress::Compressor::Portable;
    use crate::detect::PerBlock::PortableNeon;
    use crate::vector::Simd;

    // cpufeatures' "sha2" is Linux's HWCAP_SHA2, Rust's `sha2` target
    // feature, which covers the SHA-1 instructions too; no CPU has SHA-256
    // without SHA-1.
    #[cfg(sha1dc_armv8)]
    cpufeatures::new!(has_sha, "sha2");

    pub(crate) static BACKENDS: &[Backend] = &[
        #[cfg(sha1dc_armv8)]
        Backend {
            name: "armv8-sha+neon",
            supported: has_sha::get,
            compressor_for: |_| Armv8,
            simd: Simd::Neon,
            per_block_for: None,
        },
        Backend {
            name: "neon",
            supported: || true,
            compressor_for: |_| Portable,
            simd: Simd::Neon,
            per_block_for: Some(|_| PortableNeon),
        },
    ];
}

#[cfg(target_endian = "little")]
pub(super) use little::BACKENDS;

#[cfg(target_endian = "big")]
pub(super) static BACKENDS: &[Backend] = &[];
