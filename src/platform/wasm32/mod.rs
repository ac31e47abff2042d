//! The wasm32 platform with simd128 (`sha1dc_simd128`): scalar rounds (wasm
//! has no SHA instructions), detection one block at a time with the 4-lane
//! per-block filter on the schedule the rounds read, which simd128 expands
//! ahead of them (rounds.rs), and the filter ahead and the batch on four
//! blocks per vector.
//!
//! simd128 is chosen when the module is compiled, not detected at run
//! time: a build without it has only the portable backend (other.rs).

mod rounds;

use super::choice::{Backend, Vendor};
use super::{Arch, Kernels, OnKernels};
use crate::block::Block;
use crate::detect::{self, Found};
use crate::vector::OnVectors;
use core::arch::wasm32::v128;

/// The wasm32 platform.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Platform {
    Simd128,
}

pub(super) static BACKENDS: &[Backend] = &[Backend {
    supported: || true,
    amd: super::Platform::Arch(Platform::Simd128),
    other: super::Platform::Arch(Platform::Simd128),
}];

/// Only x86-64 tells the vendor.
pub(super) fn vendor() -> Vendor {
    Vendor::Other
}

impl Arch for Platform {
    #[inline(always)]
    fn run_on_kernels<W: OnKernels>(self, work: W) -> W::Output {
        // SAFETY: simd128 is compiled in.
        unsafe { work.run::<Simd128>() }
    }

    /// simd128, which the module fixes when it is compiled, as x86-64
    /// fixes SSE2: the `u64` forms of the filter and the batch would take
    /// as much of the module as all the rest, for a backend only a caller
    /// naming it runs.
    fn run_portable<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: simd128 is compiled in.
        unsafe { work.run::<v128>() }
    }
}

/// [`Platform::Simd128`]'s kernels.
struct Simd128;

impl Kernels for Simd128 {
    const NAME: &'static str = "simd128";
    const PER_BLOCK: bool = true;

    #[inline]
    unsafe fn compress_blocks(chain: &mut [u32; 5], blocks: &[Block]) {
        let zero = <v128 as crate::vector::Vector>::opaque_zero();
        crate::compress::portable::compress_blocks_from_zero(chain, blocks, zero)
    }

    unsafe fn detect_per_block(
        chain: &mut [u32; 5],
        blocks: &[Block],
        reduced_round: bool,
    ) -> Option<Found> {
        // SAFETY: simd128 is compiled in.
        unsafe { detect::portable::detect::<v128, rounds::Simd128>(chain, blocks, reduced_round) }
    }

    #[inline(always)]
    unsafe fn run_on_vectors<W: OnVectors>(work: W) -> W::Output {
        // SAFETY: simd128 is compiled in.
        unsafe { work.run::<v128>() }
    }
}
