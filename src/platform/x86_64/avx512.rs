//! The AVX-512 platforms: the `avx512` backend (plain Rust rounds, the
//! filter ahead on AVX-512) and the `sha-ni+avx512` backend, whose two
//! arrangements are a platform each: Intel's (`ShaNiAvx512`) and AMD's
//! (`ShaNiAvx512Lanes8`), src/platform/x86_64/mod.rs says why. Built by a
//! compiler that has the intrinsics (`sha1dc_avx512`).

use super::kernels::{Arrangement, ShaNiKernels, sha_ni_detect_avx2};
use super::{has_sha_ni, x86};
use crate::block::{Block, Mirrored};
use crate::compress::x86_sha::{self, Expand, Rol2, ShaMsg};
use crate::detect::interleaved::InterleavedFilter;
use crate::detect::x86_sha::ShaNi;
use crate::detect::x86_sha::avx512::{Avx512Filter, Lanes8Filter};
use crate::detect::{self, Found};
use crate::platform::choice::Backend;
use crate::platform::{Ahead, Arch, Lanes, OnKernels};
use crate::vector::OnVectors;
use core::marker::PhantomData;

cpufeatures::new!(has_avx512, "avx512f", "avx512bw", "avx512vl");

/// The AVX-512 platforms. Both SHA-NI ones take the filter behind the
/// rounds, as `ShaNiAvx2` does, for a call of a few blocks
/// ([`SHORT_CALL_INTEL`], [`SHORT_CALL_AMD`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    /// Plain Rust rounds, the filter ahead on AVX-512.
    Avx512,
    /// SHA-NI rounds compiled with AVX-512VL, the schedule by the rol-2
    /// recurrence, the 4-lane AVX-512VL filter beside the rounds of the
    /// next block (128-bit: no dirty upper state next to the SHA
    /// instructions). Intel's arrangement.
    ShaNiAvx512,
    /// SHA-NI rounds compiled with AVX-512VL, the schedule by the SHA
    /// message instructions, the 8-lane filter beside the rounds of the
    /// next block in AVX-512VL encodings (32 registers), 256-bit code next
    /// to the legacy-SSE SHA instructions: AMD's arrangement (Zen 4 on,
    /// where that costs nothing).
    ShaNiAvx512Lanes8,
}

/// The most blocks a call of Intel's arrangement filters behind the rounds
/// (8 lanes, AVX2) instead of beside them, chosen by timing one-shot
/// messages of 64 bytes to 1 KiB: there the last block's filter, which has
/// no next block to hide in, costs more than the filter behind every block.
const SHORT_CALL_INTEL: usize = 2;
/// As [`SHORT_CALL_INTEL`], for AMD's arrangement (8 lanes beside).
const SHORT_CALL_AMD: usize = 3;

/// An AVX-512 platform as the platform a hasher holds.
const fn avx512(p: Platform) -> crate::platform::Platform {
    x86(super::Platform::Avx512(p))
}

/// The `sha-ni+avx512` backend, first on x86-64.
pub(super) const SHA_NI: Backend = Backend {
    supported: || has_sha_ni::get() && has_avx512::get(),
    amd: avx512(Platform::ShaNiAvx512Lanes8),
    other: avx512(Platform::ShaNiAvx512),
};

/// The `avx512` backend, first of those without SHA-NI.
pub(super) const LANES: Backend = Backend {
    supported: has_avx512::get,
    amd: avx512(Platform::Avx512),
    other: avx512(Platform::Avx512),
};

impl Arch for Platform {
    #[inline(always)]
    fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output {
        // SAFETY (every arm): the backend table made this value for a CPU
        // with the kernels' instructions.
        match self {
            Platform::Avx512 => unsafe { work.run::<Ahead<Lanes512>>() },
            Platform::ShaNiAvx512 => unsafe {
                work.run::<ShaNiKernels<Rol2, Beside<Avx512Filter>>>()
            },
            Platform::ShaNiAvx512Lanes8 => unsafe {
                work.run::<ShaNiKernels<ShaMsg, Beside<Lanes8Filter>>>()
            },
        }
    }
}

/// [`Platform::Avx512`]'s vectors (with the portable rounds).
struct Lanes512;

impl Lanes for Lanes512 {
    const NAME: &'static str = "avx512";

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: the caller checked the CPU.
        unsafe { run(work) }
    }
}

/// An AVX-512 filter beside the SHA-NI rounds of the next block: the
/// arrangement of [`Platform::ShaNiAvx512`] (`Beside<Avx512Filter>`, with
/// the rol-2 expansion) and of [`Platform::ShaNiAvx512Lanes8`]
/// (`Beside<Lanes8Filter>`, with the SHA message instructions); the rounds
/// compiled with AVX-512VL, a short call's filter behind them.
struct Beside<F>(PhantomData<F>);

/// What differs between the two filters beside the rounds.
trait BesideFilter: InterleavedFilter<Mirrored> {
    /// The most blocks a call filters behind the rounds.
    const SHORT_CALL: usize;
    /// Whether it hides the filter from a second thread.
    const HIDES_FILTER: bool;
}

impl BesideFilter for Avx512Filter {
    const SHORT_CALL: usize = SHORT_CALL_INTEL;
    const HIDES_FILTER: bool = false;
}

impl BesideFilter for Lanes8Filter {
    const SHORT_CALL: usize = SHORT_CALL_AMD;
    const HIDES_FILTER: bool = true;
}

impl<F: BesideFilter> Arrangement for Beside<F> {
    const NAME: &'static str = "sha-ni+avx512";
    const HIDES_FILTER: bool = F::HIDES_FILTER;
    type Vectors = Lanes512;

    #[inline(always)]
    unsafe fn compress_blocks<E: Expand>(chain: &mut [u32; 5], blocks: &[Block]) {
        // SAFETY (each): the caller checked the CPU.
        unsafe { compress::<E>(chain, blocks) }
    }

    #[inline(always)]
    unsafe fn detect<E: Expand>(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        if blocks.len() <= F::SHORT_CALL {
            unsafe { sha_ni_detect_avx2::<E>(chain, blocks, reduced_round) }
        } else {
            unsafe { interleaved::<F, E>(chain, blocks, reduced_round, &mut schedules()) }
        }
    }
}

/// Two zeroed schedules for [`interleaved`], zeroed here, outside the
/// AVX-512 code, where LLVM would zero them with 512-bit stores (and only
/// for the calls that use them).
#[inline(always)]
fn schedules() -> [Mirrored; 2] {
    [Mirrored::default(), Mirrored::default()]
}

/// [`Kernels::compress_blocks`](crate::platform::Kernels::compress_blocks) with SHA-NI, compiled with AVX-512VL: the
/// schedule's rotates and three-input xors take one instruction each
/// (128-bit: no dirty upper state next to the SHA instructions).
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3, SSE4.1, AVX-512F and AVX-512VL.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx512f,avx512vl")]
unsafe fn compress<E: Expand>(chain: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller checked the CPU.
    unsafe { x86_sha::rounds::<E>(chain, blocks) }
}

/// [`Kernels::detect_per_block`](crate::platform::Kernels::detect_per_block) with the rounds compiled with AVX-512VL
/// and the filter `F` of each block beside the rounds of the next, on
/// zeroed schedules.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3, SSE4.1, AVX2, AVX-512F and
/// AVX-512VL.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1,avx2,avx512f,avx512vl")]
unsafe fn interleaved<F: InterleavedFilter<Mirrored>, E: Expand>(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
    schedules: &mut [Mirrored; 2],
) -> Option<Found> {
    // SAFETY: the caller checked the CPU.
    unsafe {
        detect::interleaved::detect_interleaved::<ShaNi<E>, F>(
            chain,
            blocks,
            reduced_round,
            schedules,
        )
    }
}

/// [`Kernels::run_on_vectors`](crate::platform::Kernels::run_on_vectors) on AVX-512.
///
/// # Safety
/// The CPU must support AVX-512 F, BW and VL.
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
unsafe fn run<W: OnVectors>(work: W) -> W::Output {
    // SAFETY: the caller checked AVX-512 F, BW and VL.
    unsafe { work.run::<core::arch::x86_64::__m512i>() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::choice::Vendor;

    /// Only the AVX-512 backend on AMD filters beside the rounds with
    /// 256-bit code (and expands with the SHA message instructions), and
    /// only it hides the filter from a second thread.
    #[test]
    fn lanes8_is_amd_s_sha_ni_avx512() {
        for backend in [SHA_NI, LANES] {
            for vendor in Vendor::ALL {
                let lanes8 = backend.on(vendor) == avx512(Platform::ShaNiAvx512Lanes8);
                let amd_sha_ni = vendor == Vendor::Amd && backend.name() == "sha-ni+avx512";
                assert_eq!(lanes8, amd_sha_ni);
                assert_eq!(backend.on(vendor).hides_filter(), amd_sha_ni);
            }
        }
    }
}
