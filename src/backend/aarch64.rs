//! The aarch64 backends, fastest first.
//!
//! The ARMv8 SHA-1 instructions with the NEON filter, then the portable
//! compressor with the NEON filter. NEON is part of aarch64 (the vector
//! code assumes little-endian lanes, so big-endian aarch64 runs portable).

use super::Backend;

#[cfg(target_endian = "little")]
mod little {
    use super::Backend;
    use crate::compress::{Block, aarch64_sha, portable};
    use crate::filter::neon;

    // cpufeatures' "sha2" is Linux's HWCAP_SHA2, Rust's `sha2` target
    // feature, which covers the SHA-1 instructions too; no CPU has SHA-256
    // without SHA-1.
    cpufeatures::new!(has_sha, "sha2");

    fn armv8_sha(ihv: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY: only reached through a backend whose `supported` checked it.
        unsafe { aarch64_sha::compress_blocks(ihv, blocks) }
    }

    pub(crate) static BACKENDS: &[Backend] = &[
        Backend {
            name: "armv8-sha+neon",
            compress: armv8_sha,
            filter: neon::masks,
            supported: has_sha::get,
        },
        Backend {
            name: "neon",
            compress: portable::compress_blocks,
            filter: neon::masks,
            supported: || true,
        },
    ];
}

#[cfg(target_endian = "little")]
pub(super) use little::BACKENDS;

#[cfg(target_endian = "big")]
pub(super) static BACKENDS: &[Backend] = &[];
