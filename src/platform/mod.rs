//! The platform: how this CPU hashes, decided once per hasher and held as
//! one value ([`Platform`]), vendor included.
//!
//! Each operation the hashing needs (compress blocks, detect one block at
//! a time, test a candidate, filter ahead, run work on vectors) is one
//! `match` here into a self-contained kernel: the portable one, or this
//! architecture's ([`Kernels`], one file per architecture: x86_64/,
//! aarch64.rs, wasm32/, other.rs), whose `#[target_feature]` entries,
//! one per operation, call only down. Which platform a CPU gets is
//! choice.rs: each architecture's backends, fastest first, each the
//! platform it is on each vendor's CPUs.

pub(crate) mod choice;

// This architecture's platforms: the one place a target chooses its file.
#[cfg_attr(target_arch = "x86_64", path = "x86_64/mod.rs")]
#[cfg_attr(sha1dc_neon, path = "aarch64.rs")]
#[cfg_attr(sha1dc_simd128, path = "wasm32/mod.rs")]
#[cfg_attr(
    not(any(target_arch = "x86_64", sha1dc_neon, sha1dc_simd128)),
    path = "other.rs"
)]
mod arch;

use crate::dv::DisturbanceVector;
use core::fmt;

pub(crate) use choice::Backend;
pub use choice::{BackendError, available_backends};

use crate::block::Block;
use crate::detect::{self, Candidates, Compressed, Found};
use crate::vector::OnVectors;

/// The operations of an architecture's platforms: one implementation per
/// architecture file, each method one `match` into the kernels.
trait Kernels: Copy {
    /// The name of its backend.
    fn name(self) -> &'static str;

    /// Compresses `blocks` into `chain`.
    fn compress(self, chain: &mut [u32; 5], blocks: &[Block]);

    /// Whether it detects one block at a time.
    fn detects_per_block(self) -> bool;

    /// With detection one block at a time, stopping after the first block
    /// found to be half of a collision; `None` (nothing compressed) for a
    /// platform without a per-block filter.
    fn detect_per_block(
        self,
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Option<Found>>;

    /// Whether the rounds of a long call run the whole filter beside them
    /// (none but one AVX-512 form does).
    fn hides_filter(self) -> bool {
        false
    }

    /// Compresses a candidate block into `chain` and tests its candidate
    /// DVs: with the portable rounds unless the platform has its own.
    fn compress_candidate(
        self,
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        compress_candidate_portable(chain, block, c)
    }

    /// Tests the candidate DVs of a block compressed elsewhere: the scalar
    /// test unless the platform has its own.
    fn test_candidate(
        self,
        compressed: &Compressed,
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        test_scalar(compressed, block, c)
    }

    /// Runs `work` on its vectors, under their target features.
    fn run_on_vectors<W: OnVectors>(self, work: W) -> W::Output;

    /// Runs `work` on the portable platform's vectors: `u64` lanes, but
    /// simd128 in a WebAssembly build with it (wasm32/).
    fn run_portable<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: u64 lanes are plain integer arithmetic.
        unsafe { work.run::<u64>() }
    }
}

/// How blocks are compressed, filtered and tested on this CPU. A value
/// names instructions this CPU runs: only the backend table makes one, for
/// a backend whose `supported` checked them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    /// Plain Rust rounds, the filter ahead on `u64` lanes (simd128 in a
    /// WebAssembly build with it): on every target, the reference the
    /// others are tested against.
    Portable,
    /// One of this architecture's ([`Kernels`]).
    Arch(arch::Platform),
}

impl Platform {
    /// The name of its backend.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Platform::Portable => "portable",
            Platform::Arch(p) => p.name(),
        }
    }

    /// Compresses `blocks` into `chain`.
    #[inline]
    pub(crate) fn compress(self, chain: &mut [u32; 5], blocks: &[Block]) {
        match self {
            Platform::Portable => crate::compress::portable::compress_blocks(chain, blocks),
            Platform::Arch(p) => p.compress(chain, blocks),
        }
    }

    /// Whether it detects one block at a time (the per-block filter on the
    /// schedule the rounds store, [`detect_per_block`](Self::detect_per_block));
    /// otherwise blocks are filtered ahead, one block per vector lane
    /// ([`filter_masks`](Self::filter_masks)).
    #[inline]
    pub(crate) fn detects_per_block(self) -> bool {
        matches!(self, Platform::Arch(p) if p.detects_per_block())
    }

    /// Whether the rounds of a long call run the whole filter beside them
    /// (the AVX-512 backend on AMD), so that a second thread has no filter
    /// to take from this one (src/parallel): handing chunks over costs more
    /// than the little the filter adds to the rounds.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn hides_filter(self) -> bool {
        matches!(self, Platform::Arch(p) if p.hides_filter())
    }

    /// Compresses `blocks` into `chain` with detection one block at a time,
    /// stopping after the first block found to be half of a collision (its
    /// index and DV); `chain` is then the plain output chain after it. A
    /// platform that [`detects_per_block`](Self::detects_per_block) runs its
    /// per-block filter; any other tests every DV of every block.
    #[inline]
    pub(crate) fn detect_per_block(
        self,
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        let per_block = match self {
            Platform::Portable => None,
            Platform::Arch(p) => p.detect_per_block(chain, blocks, reduced_round),
        };
        match per_block {
            Some(found) => found,
            None => self.detect_unfiltered(chain, blocks, reduced_round),
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
    #[inline]
    pub(crate) fn compress_candidate(
        self,
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        match self {
            Platform::Portable => compress_candidate_portable(chain, block, c),
            Platform::Arch(p) => p.compress_candidate(chain, block, c),
        }
    }

    /// Tests the candidate DVs of a block compressed elsewhere (the batch's
    /// lanes), with this platform's own test.
    #[inline]
    pub(crate) fn test_candidate(
        self,
        compressed: &Compressed,
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        match self {
            Platform::Portable => test_scalar(compressed, block, c),
            Platform::Arch(p) => p.test_candidate(compressed, block, c),
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
        match self {
            Platform::Portable => <arch::Platform as Kernels>::run_portable(work),
            Platform::Arch(p) => p.run_on_vectors(work),
        }
    }
}

/// A candidate block compressed with the portable rounds and its DVs
/// tested (the portable platform's, and every one's without rounds of its
/// own that keep the schedule).
fn compress_candidate_portable(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<DisturbanceVector> {
    // SAFETY: the portable rounds need no CPU feature.
    unsafe { detect::compress_and_test::<detect::portable::Portable>(chain, block, c) }
}

/// The scalar test of a candidate's DVs (the portable rounds' and every
/// platform's whose rounds keep nothing for a test of their own).
fn test_scalar(compressed: &Compressed, block: &Block, c: Candidates) -> Option<DisturbanceVector> {
    detect::recompress::test(compressed, &crate::block::expand(block), c)
}

/// Its backend's name, as the backend's own `Debug` showed it.
impl fmt::Debug for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
