//! The platform: how this CPU hashes, decided once per hasher and held as
//! one value ([`Platform`]), vendor included.
//!
//! Each operation the hashing needs (compress blocks, detect one block at
//! a time, filter blocks ahead, test a candidate, run work on vectors) is
//! one `match` here into a self-contained kernel, entered through one
//! `#[target_feature]` function per operation in this architecture's file
//! (x86_64.rs, aarch64.rs), so that nothing below calls back up. Which
//! platform a CPU gets is choice.rs: each architecture's backends, fastest
//! first, each the platform it is on each vendor's CPUs.

#[cfg(sha1dc_neon)]
mod aarch64;
pub(crate) mod choice;
#[cfg(target_arch = "x86_64")]
mod x86_64;

use core::fmt;

pub(crate) use choice::Backend;
pub use choice::{BackendError, available_backends};

use crate::block::Block;
use crate::detect::{self, Candidates, Compressed, Found};
use crate::vector::OnVectors;

#[cfg(target_arch = "x86_64")]
use crate::compress::x86_sha::{Expansion, with_expansion};
#[cfg(target_arch = "x86_64")]
use x86_64::{
    sha_ni_compress, sha_ni_compress_candidate, sha_ni_detect_avx2, sha_ni_test_candidate,
};

/// How blocks are compressed, filtered and tested on this CPU. A value
/// names instructions this CPU runs: only the backend table makes one, for
/// a backend whose `supported` checked them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    /// Plain Rust rounds, the filter ahead on `u64` lanes (simd128 in a
    /// WebAssembly build with it).
    Portable,
    /// Plain Rust rounds, the filter ahead on SSE2, AVX2 or AVX-512.
    #[cfg(target_arch = "x86_64")]
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(sha1dc_avx512)]
    Avx512,
    /// SHA-NI rounds, the 4-lane SSE2 filter of each block beside the
    /// rounds of the next; the filter ahead (batch) on SSE2.
    #[cfg(target_arch = "x86_64")]
    ShaNiSse2(Expansion),
    /// SHA-NI rounds, the 8-lane AVX2 filter behind a call (its
    /// `vzeroupper` on return keeps the SHA instructions clean).
    #[cfg(target_arch = "x86_64")]
    ShaNiAvx2(Expansion),
    /// SHA-NI rounds compiled with AVX-512VL, the schedule by the rol-2
    /// recurrence, the 4-lane AVX-512VL filter beside the rounds of the
    /// next block (128-bit: no dirty upper state next to the SHA
    /// instructions). Intel's arrangement.
    #[cfg(sha1dc_avx512)]
    ShaNiAvx512,
    /// SHA-NI rounds compiled with AVX-512VL, the schedule by the SHA
    /// message instructions, the 8-lane filter beside the rounds of the
    /// next block in AVX-512VL encodings (32 registers), 256-bit code next
    /// to the legacy-SSE SHA instructions: AMD's arrangement (Zen 4 on,
    /// where that costs nothing). A call of at most [`SHORT_CALL`] blocks
    /// takes the filter behind the rounds, as `ShaNiAvx2` does.
    #[cfg(sha1dc_avx512)]
    ShaNiAvx512Lanes8,
    /// The ARMv8 SHA-1 instructions, the filter ahead on NEON.
    #[cfg(sha1dc_armv8)]
    Armv8Neon,
    /// Plain Rust rounds, the 4-lane NEON per-block filter.
    #[cfg(sha1dc_neon)]
    Neon,
    /// Plain Rust rounds, the 4-lane simd128 per-block filter.
    #[cfg(sha1dc_simd128)]
    Simd128,
}

/// The most blocks a call of the `ShaNiAvx512Lanes8` platform filters
/// behind the rounds instead, chosen by timing one-shot messages of 64
/// bytes to 1 KiB: there the last block's filter, which has no next block
/// to hide in, costs more than the filter behind every block.
#[cfg(sha1dc_avx512)]
const SHORT_CALL: usize = 3;

impl Platform {
    /// The name of its backend.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Platform::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Platform::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Platform::Avx2 => "avx2",
            #[cfg(sha1dc_avx512)]
            Platform::Avx512 => "avx512",
            #[cfg(target_arch = "x86_64")]
            Platform::ShaNiSse2(_) => "sha-ni+sse2",
            #[cfg(target_arch = "x86_64")]
            Platform::ShaNiAvx2(_) => "sha-ni+avx2",
            #[cfg(sha1dc_avx512)]
            Platform::ShaNiAvx512 | Platform::ShaNiAvx512Lanes8 => "sha-ni+avx512",
            #[cfg(sha1dc_armv8)]
            Platform::Armv8Neon => "armv8-sha+neon",
            #[cfg(sha1dc_neon)]
            Platform::Neon => "neon",
            #[cfg(sha1dc_simd128)]
            Platform::Simd128 => "simd128",
        }
    }

    /// Compresses `blocks` into `chain`.
    #[inline]
    pub(crate) fn compress(self, chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY (every arm): a `Platform` names instructions this CPU runs.
        #[allow(unused_unsafe)]
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Platform::ShaNiSse2(e) | Platform::ShaNiAvx2(e) => {
                    with_expansion!(e, sha_ni_compress(chain, blocks))
                }
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512 => x86_64::compress_avx512::<Rol2>(chain, blocks),
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512Lanes8 => x86_64::compress_avx512::<ShaMsg>(chain, blocks),
                #[cfg(sha1dc_armv8)]
                Platform::Armv8Neon => aarch64::compress(chain, blocks),
                _ => crate::compress::portable::compress_blocks(chain, blocks),
            }
        }
    }

    /// Whether it detects one block at a time (the per-block filter on the
    /// schedule the rounds store, [`detect_per_block`](Self::detect_per_block));
    /// otherwise blocks are filtered ahead, one block per vector lane
    /// ([`filter_masks`](Self::filter_masks)).
    pub(crate) fn detects_per_block(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Platform::ShaNiSse2(_) | Platform::ShaNiAvx2(_) => true,
            #[cfg(sha1dc_avx512)]
            Platform::ShaNiAvx512 | Platform::ShaNiAvx512Lanes8 => true,
            #[cfg(sha1dc_neon)]
            Platform::Neon => true,
            #[cfg(sha1dc_simd128)]
            Platform::Simd128 => true,
            _ => false,
        }
    }

    /// Whether the rounds of a long call run the whole filter beside them
    /// (`ShaNiAvx512Lanes8`), so that a second thread has no filter to take
    /// from this one (src/parallel): handing chunks over costs more than
    /// the little the filter adds to the rounds.
    #[cfg(feature = "std")]
    pub(crate) fn hides_filter(self) -> bool {
        #[cfg(sha1dc_avx512)]
        if self == Platform::ShaNiAvx512Lanes8 {
            return true;
        }
        false
    }

    /// Compresses `blocks` into `chain` with detection one block at a time,
    /// stopping after the first block found to be half of a collision (its
    /// index and DV); `chain` is then the plain output chain after it. A
    /// platform that [`detects_per_block`](Self::detects_per_block) runs its
    /// per-block filter; any other tests every DV of every block.
    pub(crate) fn detect_per_block(
        self,
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        // SAFETY (every arm): a `Platform` names instructions this CPU runs.
        #[allow(unused_unsafe)]
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Platform::ShaNiSse2(e) => x86_64::detect_sse2(e, chain, blocks, reduced_round),
                #[cfg(target_arch = "x86_64")]
                Platform::ShaNiAvx2(e) => {
                    with_expansion!(e, sha_ni_detect_avx2(chain, blocks, reduced_round))
                }
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512 => x86_64::detect_avx512(chain, blocks, reduced_round),
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512Lanes8 if blocks.len() <= SHORT_CALL => {
                    sha_ni_detect_avx2::<ShaMsg>(chain, blocks, reduced_round)
                }
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512Lanes8 => x86_64::detect_lanes8(chain, blocks, reduced_round),
                #[cfg(sha1dc_neon)]
                Platform::Neon => {
                    use core::arch::aarch64::uint32x4_t;
                    detect::portable::detect::<uint32x4_t>(chain, blocks, reduced_round)
                }
                #[cfg(sha1dc_simd128)]
                Platform::Simd128 => {
                    use core::arch::wasm32::v128;
                    detect::portable::detect::<v128>(chain, blocks, reduced_round)
                }
                _ => self.detect_unfiltered(chain, blocks, reduced_round),
            }
        }
    }

    /// [`detect_per_block`](Self::detect_per_block) without a filter:
    /// every block a candidate for every DV (the engine filters ahead on
    /// these platforms instead).
    fn detect_unfiltered(
        self,
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        let c = Candidates {
            mask: u32::MAX,
            reduced_round,
        };
        blocks.iter().enumerate().find_map(|(i, block)| {
            let dv = self.compress_candidate(chain, block, c)?;
            Some(Found { index: i, dv })
        })
    }

    /// Compresses a candidate block into `chain` and tests its candidate
    /// DVs: the first for which it is half of a collision.
    pub(crate) fn compress_candidate(
        self,
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<usize> {
        // SAFETY (every arm): a `Platform` names instructions this CPU runs.
        #[allow(unused_unsafe)]
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Platform::ShaNiSse2(e) | Platform::ShaNiAvx2(e) => {
                    with_expansion!(e, sha_ni_compress_candidate(chain, block, c))
                }
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512 => sha_ni_compress_candidate::<Rol2>(chain, block, c),
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512Lanes8 => sha_ni_compress_candidate::<ShaMsg>(chain, block, c),
                #[cfg(sha1dc_armv8)]
                Platform::Armv8Neon => aarch64::compress_candidate(chain, block, c),
                _ => detect::compress_and_test::<detect::portable::Portable>(chain, block, c),
            }
        }
    }

    /// Tests the candidate DVs of a block compressed elsewhere (the batch's
    /// lanes), with this platform's own test.
    pub(crate) fn test_candidate(
        self,
        compressed: &Compressed,
        block: &Block,
        c: Candidates,
    ) -> Option<usize> {
        // SAFETY (every arm): a `Platform` names instructions this CPU runs.
        #[allow(unused_unsafe)]
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Platform::ShaNiSse2(e) | Platform::ShaNiAvx2(e) => {
                    with_expansion!(e, sha_ni_test_candidate(compressed, block, c))
                }
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512 => sha_ni_test_candidate::<Rol2>(compressed, block, c),
                #[cfg(sha1dc_avx512)]
                Platform::ShaNiAvx512Lanes8 => {
                    sha_ni_test_candidate::<ShaMsg>(compressed, block, c)
                }
                _ => detect::recompress::test(compressed, &crate::block::expand(block), c),
            }
        }
    }

    /// The DV masks of `blocks`, one block per vector lane: `out[i]` is
    /// block i's.
    pub(crate) fn filter_masks(self, blocks: &[Block], out: &mut [u32]) {
        self.run_on_vectors(crate::filter::Masks { blocks, out })
    }

    /// Runs `work` on this platform's vectors (the filter ahead and the
    /// batch's lanes), under their instruction set's target features: the
    /// one place that maps a platform to its vector type.
    #[inline(always)]
    pub(crate) fn run_on_vectors<W: OnVectors>(self, work: W) -> W::Output {
        // SAFETY (every arm): a `Platform` names instructions this CPU runs;
        // SSE2 is part of x86-64, NEON of aarch64, and simd128 is compiled
        // in.
        unsafe {
            match self {
                #[cfg(target_arch = "x86_64")]
                Platform::Sse2 | Platform::ShaNiSse2(_) => {
                    work.run::<core::arch::x86_64::__m128i>()
                }
                #[cfg(target_arch = "x86_64")]
                Platform::Avx2 | Platform::ShaNiAvx2(_) => x86_64::run_avx2(work),
                #[cfg(sha1dc_avx512)]
                Platform::Avx512 | Platform::ShaNiAvx512 | Platform::ShaNiAvx512Lanes8 => {
                    x86_64::run_avx512(work)
                }
                #[cfg(sha1dc_neon)]
                Platform::Neon => work.run::<core::arch::aarch64::uint32x4_t>(),
                #[cfg(sha1dc_armv8)]
                Platform::Armv8Neon => work.run::<core::arch::aarch64::uint32x4_t>(),
                // The portable backend's vectors: `u64` lanes, but simd128
                // in a WebAssembly build with it, which fixes simd128 when
                // the module is compiled, as x86-64 fixes SSE2: the `u64`
                // forms of the filter and the batch would take as much of
                // the module as all the rest, for a backend only a caller
                // naming it runs.
                #[cfg(sha1dc_simd128)]
                _ => work.run::<core::arch::wasm32::v128>(),
                #[cfg(not(sha1dc_simd128))]
                Platform::Portable => work.run::<u64>(),
            }
        }
    }
}

#[cfg(sha1dc_avx512)]
use crate::compress::x86_sha::{Rol2, ShaMsg};

/// Its backend's name, as the backend's own `Debug` showed it.
impl fmt::Debug for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
