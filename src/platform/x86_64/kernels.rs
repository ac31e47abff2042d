//! The x86-64 platforms' kernels, one type each ([`Kernels`]), and their
//! `#[target_feature]` entries, one per operation, each over the kernel's
//! generic body (src/compress/x86_sha.rs, src/detect/), the expansion a
//! type so that the rounds are compiled for each. The AVX-512 ones are in
//! avx512.rs.

use crate::block::{Block, Mirrored};
use crate::compress::x86_sha::{self, Expand};
use crate::detect::x86_sha::{ShaNi, Sse2Filter, mask8_avx2, test_schedule};
use crate::detect::{self, Candidates, Compressed, Found};
use crate::dv::DisturbanceVector;
use crate::platform::{Kernels, Lanes};
use crate::vector::OnVectors;
use core::marker::PhantomData;

/// The filter ahead on SSE2 (with the portable rounds:
/// [`Ahead`](crate::platform::Ahead)).
pub(crate) struct Sse2;

impl Lanes for Sse2 {
    const NAME: &'static str = "sse2";

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        run_sse2(work)
    }
}

/// The filter ahead on AVX2 (with the portable rounds:
/// [`Ahead`](crate::platform::Ahead)).
pub(crate) struct Avx2;

impl Lanes for Avx2 {
    const NAME: &'static str = "avx2";

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: the caller checked the CPU.
        unsafe { run_avx2(work) }
    }
}

/// The SHA-NI platforms' kernels: the rounds with the expansion `E`, the
/// candidate's compression and test with them, and the filter arranged as
/// `A` says.
pub(crate) struct ShaNiKernels<E, A>(PhantomData<(E, A)>);

/// How a SHA-NI platform arranges its filter: beside the rounds of the
/// next block or behind a call, on which vectors, and the rounds compiled
/// with which features.
pub(crate) trait Arrangement {
    /// The name of its backend.
    const NAME: &'static str;
    /// [`Kernels::HIDES_FILTER`].
    const HIDES_FILTER: bool = false;

    /// [`Kernels::compress_blocks`].
    ///
    /// # Safety
    /// The CPU must have the platform's instructions.
    unsafe fn compress_blocks<E: Expand>(chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY: as this function's.
        unsafe { sha_ni_compress::<E>(chain, blocks) }
    }

    /// [`Kernels::detect_per_block`].
    ///
    /// # Safety
    /// As [`Arrangement::compress_blocks`].
    unsafe fn detect<E: Expand>(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found>;

    /// The vectors of the filter ahead (the batch's, a second thread's).
    type Vectors: Lanes;
}

impl<E: Expand, A: Arrangement> Kernels for ShaNiKernels<E, A> {
    const NAME: &'static str = A::NAME;
    const PER_BLOCK: bool = true;
    const HIDES_FILTER: bool = A::HIDES_FILTER;

    #[inline(always)]
    unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY (each): the caller checked the CPU.
        unsafe { A::compress_blocks::<E>(chain, blocks) }
    }

    #[inline(always)]
    unsafe fn detect_per_block(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        unsafe { A::detect::<E>(chain, blocks, reduced_round) }
    }

    #[inline(always)]
    unsafe fn compress_candidate(
        chain: &mut [u32; 5],
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        unsafe { sha_ni_compress_candidate::<E>(chain, block, c) }
    }

    #[inline(always)]
    unsafe fn test_candidate(
        compressed: &Compressed,
        block: &Block,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        unsafe { sha_ni_test_candidate::<E>(compressed, block, c) }
    }

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        unsafe { A::Vectors::run_on_vectors(work) }
    }
}

/// The 4-lane SSE2 filter of each block beside the rounds of the next; the
/// filter ahead (batch) on SSE2 (`sha-ni+sse2`, with the rol-2 expansion).
pub(crate) struct Sse2Beside;

impl Arrangement for Sse2Beside {
    const NAME: &'static str = "sha-ni+sse2";
    type Vectors = Sse2;

    #[inline(always)]
    unsafe fn detect<E: Expand>(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        let mut schedules = [Mirrored::default(), Mirrored::default()];
        // SAFETY: the caller checked the CPU.
        unsafe { interleaved_sse2::<E>(chain, blocks, reduced_round, &mut schedules) }
    }
}

/// The 8-lane AVX2 filter behind a call (its `vzeroupper` on return keeps
/// the SHA instructions clean); the filter ahead on AVX2 (`sha-ni+avx2`).
pub(crate) struct Avx2Behind;

impl Arrangement for Avx2Behind {
    const NAME: &'static str = "sha-ni+avx2";
    type Vectors = Avx2;

    #[inline(always)]
    unsafe fn detect<E: Expand>(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        // SAFETY: the caller checked the CPU.
        unsafe { sha_ni_detect_avx2::<E>(chain, blocks, reduced_round) }
    }
}

/// [`Kernels::compress_blocks`] with SHA-NI.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn sha_ni_compress<E: Expand>(chain: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller checked the CPU.
    unsafe { x86_sha::rounds::<E>(chain, blocks) }
}

/// [`Kernels::compress_candidate`] with SHA-NI.
///
/// # Safety
/// As [`sha_ni_compress`].
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn sha_ni_compress_candidate<E: Expand>(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<DisturbanceVector> {
    // SAFETY: the caller checked the CPU.
    unsafe { detect::compress_and_test::<ShaNi<E>>(chain, block, c) }
}

/// [`Kernels::test_candidate`] with SHA-NI: the schedule by their vector
/// recurrence.
///
/// # Safety
/// As [`sha_ni_compress`].
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn sha_ni_test_candidate<E: Expand>(
    compressed: &Compressed,
    block: &Block,
    c: Candidates,
) -> Option<DisturbanceVector> {
    // SAFETY: the caller checked the CPU.
    unsafe {
        test_schedule(
            compressed,
            &crate::block::InOrder(x86_sha::schedule::<E>(block)),
            c,
        )
    }
}

/// [`Kernels::detect_per_block`] with the 4-lane SSE2 filter of each block
/// beside the rounds of the next, on schedules zeroed by the caller.
///
/// # Safety
/// As [`sha_ni_compress`].
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn interleaved_sse2<E: Expand>(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
    schedules: &mut [Mirrored; 2],
) -> Option<Found> {
    // SAFETY: the caller checked the CPU.
    unsafe {
        detect::interleaved::detect_interleaved::<ShaNi<E>, Sse2Filter>(
            chain,
            blocks,
            reduced_round,
            schedules,
        )
    }
}

/// [`Kernels::detect_per_block`] with the 8-lane AVX2 per-block filter
/// behind a call (its `vzeroupper` on return keeps the SHA instructions
/// clean).
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3, SSE4.1 and AVX2.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn sha_ni_detect_avx2<E: Expand>(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
) -> Option<Found> {
    // SAFETY: the caller checked the CPU.
    unsafe { detect::detect_blocks::<ShaNi<E>>(chain, blocks, reduced_round, |s| mask8_avx2(s)) }
}

/// [`Kernels::run_on_vectors`] on SSE2, the portable platform's too: one
/// form, not one inlined in each.
#[inline(never)]
pub(super) fn run_sse2<W: OnVectors>(work: W) -> W::Output {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { work.run::<core::arch::x86_64::__m128i>() }
}

/// [`Kernels::run_on_vectors`] on AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<W: OnVectors>(work: W) -> W::Output {
    // SAFETY: the caller checked AVX2.
    unsafe { work.run::<core::arch::x86_64::__m256i>() }
}
