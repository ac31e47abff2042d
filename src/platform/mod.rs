//! The platform: how this CPU hashes, decided once per hasher and held as
//! one value ([`Platform`]), vendor included.
//!
//! A platform's kernels are one type ([`Kernels`]: the portable ones here,
//! the others in their architecture's file: x86_64/, aarch64.rs, wasm32/,
//! other.rs), whose functions are its `#[target_feature]` entries, one per
//! operation (compress blocks, detect one block at a time, test a
//! candidate, run work on vectors). One `match` per architecture
//! ([`Platform::run_on_kernels`]) maps a platform value to its kernels, and
//! the work it is handed (the driver of src/chains.rs, the batch) is
//! compiled for each, so a run of blocks resolves the platform once and
//! calls only down. Which platform a CPU gets is choice.rs: each
//! architecture's backends, fastest first, each the platform it is on each
//! vendor's CPUs.

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
use core::marker::PhantomData;

pub(crate) use choice::Backend;
pub use choice::{BackendError, available_backends};

use crate::block::Block;
use crate::detect::{self, Candidates, Compressed, Found};
use crate::vector::OnVectors;

/// A platform's kernels as one type: what the driver above them
/// (src/chains.rs) and the batch are compiled for, once per platform. Each
/// is a zero-sized type in its architecture's file, whose functions are
/// that platform's `#[target_feature]` entries.
///
/// # Safety
/// Every function needs the CPU to have the platform's instructions: call
/// them only from [`OnKernels::run`], which a platform value (made only for
/// a CPU that has them) calls.
pub(crate) trait Kernels {
    /// The name of its backend.
    const NAME: &'static str;

    /// Whether it detects one block at a time (the per-block filter on the
    /// schedule the rounds store, [`detect_per_block`](Self::detect_per_block));
    /// otherwise blocks are filtered ahead, one block per vector lane.
    const PER_BLOCK: bool;

    /// Whether the rounds of a long call run the whole filter beside them
    /// (the AVX-512 backend on AMD), so that a second thread has no filter
    /// to take from this one (src/parallel): handing chunks over costs more
    /// than the little the filter adds to the rounds.
    const HIDES_FILTER: bool = false;

    /// Compresses `blocks` into `chain`.
    unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]);

    /// Compresses `blocks` into `chain` with detection one block at a time,
    /// stopping after the first block found to be half of a collision (its
    /// index and DV); `chain` is then the plain output chain after it.
    /// Without a per-block filter, every DV of every block is tested.
    unsafe fn detect_per_block(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        let c = Candidates {
            mask: u32::MAX,
            reduced_round,
        };
        blocks.iter().enumerate().find_map(|(i, block)| {
            // SAFETY: as this function's.
            let dv = unsafe { Self::compress_candidate(chain, block, c) }?;
            Some(Found { index: i, dv })
        })
    }

    /// Compresses a candidate block into `chain` and tests its candidate
    /// DVs (the first for which it is half of a collision): with the
    /// portable rounds unless the platform has its own.
    unsafe fn compress_candidate(
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        compress_candidate_portable(chain, block, c)
    }

    /// Tests the candidate DVs of a block compressed elsewhere (the batch's
    /// lanes): the scalar test unless the platform has its own.
    unsafe fn test_candidate(
        compressed: &Compressed,
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        test_scalar(compressed, block, c)
    }

    /// Runs `work` on its vectors (the filter ahead and the batch's
    /// lanes), under their instruction set's target features.
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output;
}

/// Work compiled for each platform's [`Kernels`] and run on the one a
/// platform value names ([`Platform::run_on_kernels`]), as [`OnVectors`] is
/// for vector types.
pub(crate) trait OnKernels {
    type Output;

    /// # Safety
    /// The CPU must have `K`'s instructions.
    unsafe fn run<K: Kernels>(self) -> Self::Output;
}

/// An architecture's platforms: one implementation per architecture file,
/// the one `match` from a platform value to its kernels.
trait Arch: Copy {
    /// Runs `work` on this platform's kernels.
    fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output;

    /// Runs `work` on the portable platform's vectors: `u64` lanes, but
    /// SSE2 on x86-64 and simd128 in a WebAssembly build with it.
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
    /// Plain Rust rounds, the filter ahead on `u64` lanes (SSE2 on x86-64,
    /// simd128 in a WebAssembly build with it): on every target, the
    /// reference the others are tested against.
    Portable,
    /// One of this architecture's ([`Arch`]).
    Arch(arch::Platform),
}

/// The kernels of the platforms with the portable rounds and the filter
/// ahead on the vectors `L`: the portable platform's (`Ahead<Portable>`)
/// and, per architecture, one for each vector instruction set.
pub(crate) struct Ahead<L>(PhantomData<L>);

/// The vectors of an [`Ahead`] platform.
pub(crate) trait Lanes {
    /// The name of its backend.
    const NAME: &'static str;

    /// [`Kernels::run_on_vectors`].
    ///
    /// # Safety
    /// The CPU must have the vectors' instructions.
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output;
}

impl<L: Lanes> Kernels for Ahead<L> {
    const NAME: &'static str = L::NAME;
    const PER_BLOCK: bool = false;

    unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
        crate::compress::portable::compress_blocks(chain, blocks)
    }

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: as this function's.
        unsafe { L::run_on_vectors(work) }
    }
}

/// The portable platform's vectors.
pub(crate) struct Portable;

impl Lanes for Portable {
    const NAME: &'static str = "portable";

    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        <arch::Platform as Arch>::run_portable(work)
    }
}

impl Platform {
    /// Runs `work` on this platform's kernels: the one place that maps a
    /// platform to them.
    #[inline(always)]
    pub(crate) fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output {
        match self {
            // SAFETY: the portable kernels need no CPU feature.
            Platform::Portable => unsafe { work.run::<Ahead<Portable>>() },
            Platform::Arch(p) => p.run_on_kernels(work),
        }
    }

    /// The name of its backend.
    pub(crate) fn name(self) -> &'static str {
        self.run_on_kernels(Traits).0
    }

    /// [`Kernels::HIDES_FILTER`].
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn hides_filter(self) -> bool {
        self.run_on_kernels(Traits).2
    }

    /// Compresses `blocks` into `chain`.
    #[inline]
    pub(crate) fn compress(self, chain: &mut [u32; 5], blocks: &[Block]) {
        self.run_on_kernels(Compress(chain, blocks))
    }

    /// [`Kernels::test_candidate`].
    #[inline]
    pub(crate) fn test_candidate(
        self,
        compressed: &Compressed,
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        self.run_on_kernels(TestCandidate(compressed, block, c))
    }

    /// The DV masks of `blocks`, one block per vector lane: `out[i]` is
    /// block i's.
    pub(crate) fn filter_masks(self, blocks: &[Block], out: &mut [u32]) {
        self.run_on_vectors(crate::filter::Masks { blocks, out })
    }

    /// Runs `work` on this platform's vectors (the filter ahead and the
    /// batch's lanes), under their instruction set's target features.
    #[inline(always)]
    pub(crate) fn run_on_vectors<W: OnVectors>(self, work: W) -> W::Output {
        self.run_on_kernels(Vectors(work))
    }
}

/// A platform's constants as work: [`Kernels::NAME`],
/// [`Kernels::PER_BLOCK`], [`Kernels::HIDES_FILTER`].
pub(crate) struct Traits;

impl OnKernels for Traits {
    type Output = (&'static str, bool, bool);

    unsafe fn run<K: Kernels>(self) -> Self::Output {
        (K::NAME, K::PER_BLOCK, K::HIDES_FILTER)
    }
}

/// [`Platform::compress`] as work.
struct Compress<'a>(&'a mut [u32; 5], &'a [Block]);

impl OnKernels for Compress<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<K: Kernels>(self) {
        // SAFETY: as this function's.
        unsafe { K::compress_blocks(self.0, self.1) }
    }
}

/// [`Platform::test_candidate`] as work.
struct TestCandidate<'a>(&'a Compressed, &'a Block, Candidates);

impl OnKernels for TestCandidate<'_> {
    type Output = Option<DisturbanceVector>;

    #[inline(always)]
    unsafe fn run<K: Kernels>(self) -> Self::Output {
        // SAFETY: as this function's.
        unsafe { K::test_candidate(self.0, self.1, self.2) }
    }
}

/// [`Platform::run_on_vectors`] as work.
struct Vectors<W>(W);

impl<W: OnVectors> OnKernels for Vectors<W> {
    type Output = W::Output;

    #[inline(always)]
    unsafe fn run<K: Kernels>(self) -> Self::Output {
        // SAFETY: as this function's.
        unsafe { K::run_on_vectors(self.0) }
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
