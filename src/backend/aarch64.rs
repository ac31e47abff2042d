//! The aarch64 backends, fastest first.
//!
//! The ARMv8 SHA-1 instructions with the NEON filter, then the portable
//! compressor with the NEON filter. NEON is part of aarch64 (the vector
//! code assumes little-endian lanes, so big-endian aarch64 runs portable).

use super::Backend;

#[cfg(target_endian = "little")]
mod little {
    use super::Backend;
    use crate::block::Block;
    use crate::compress::{aarch64_sha, portable};
    use crate::recompress::{self, Candidates};
    use crate::vector::Simd;

    // cpufeatures' "sha2" is Linux's HWCAP_SHA2, Rust's `sha2` target
    // feature, which covers the SHA-1 instructions too; no CPU has SHA-256
    // without SHA-1.
    cpufeatures::new!(has_sha, "sha2");

    fn armv8_sha(chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY: only reached through a backend whose `supported` checked it.
        unsafe { aarch64_sha::compress_blocks(chain, blocks) }
    }

    fn detect_neon(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced: bool,
    ) -> Option<(usize, usize)> {
        recompress::detect_blocks(chain, blocks, reduced, |w| {
            // SAFETY: NEON is part of aarch64.
            unsafe { crate::filter::per_block::mask4::<core::arch::aarch64::uint32x4_t, false>(w) }
        })
    }

    fn armv8_sha_flagged(chain: &mut [u32; 5], block: &Block, c: Candidates) -> Option<usize> {
        // SAFETY: only reached through a backend whose `supported` checked it.
        unsafe { aarch64_sha::compress_flagged(chain, block, c) }
    }

    pub(crate) static BACKENDS: &[Backend] = &[
        Backend {
            name: "armv8-sha+neon",
            supported: has_sha::get,
            compress: armv8_sha,
            simd: Simd::Neon,
            compress_flagged: armv8_sha_flagged,
            test_flagged: recompress::test_flagged,
            per_block: None,
        },
        Backend {
            name: "neon",
            supported: || true,
            compress: portable::compress_blocks,
            simd: Simd::Neon,
            compress_flagged: recompress::compress_flagged,
            test_flagged: recompress::test_flagged,
            // The portable rounds read the schedule the filter reads.
            per_block: Some(super::super::PerBlock {
                below: usize::MAX,
                run: detect_neon,
            }),
        },
    ];
}

#[cfg(target_endian = "little")]
pub(super) use little::BACKENDS;

#[cfg(target_endian = "big")]
pub(super) static BACKENDS: &[Backend] = &[];
