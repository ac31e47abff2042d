//! The filters between the SHA-NI rounds' groups that AVX-512VL encodings
//! give (built by a compiler that has the intrinsics, `sha1dc_avx512`).

use core::arch::x86_64::*;

use super::INTERLEAVED;
use crate::block::Mirrored;
use crate::detect::interleaved::InterleavedFilter;
use crate::filter::per_block::{Windows4, Windows8};

/// The 8-lane filter beside the SHA-NI rounds: all 31 entries of its
/// table, two after each group of four steps, 256-bit code next to the
/// legacy-SSE SHA instructions, for the CPUs where that costs nothing (the
/// backend table chooses). Compiled with AVX-512VL: 32 vector registers
/// and three-input logic, so that it spills nothing next to the rounds (in
/// AVX2's 16 registers it measured slower than the 4-lane filter).
pub(crate) struct Lanes8Filter;

impl InterleavedFilter<Mirrored> for Lanes8Filter {
    type V = __m256i;
    const INTERLEAVED: usize = Windows8::ENTRIES;

    #[inline(always)]
    unsafe fn entry(k: usize, schedule: &Mirrored, killed: __m256i) -> __m256i {
        // SAFETY: the caller checked AVX2.
        unsafe { Windows8::entry::<__m256i, Mirrored>(k, schedule, killed) }
    }

    #[inline(always)]
    unsafe fn finish(schedule: &Mirrored, killed: __m256i) -> u32 {
        // SAFETY: the caller checked AVX2 (every entry ran: the lanes or-ed).
        unsafe { Windows8::finish::<__m256i, Mirrored, { Windows8::ENTRIES }>(schedule, killed) }
    }

    #[inline(always)]
    unsafe fn alone(schedule: &Mirrored) -> u32 {
        // SAFETY: the caller checked AVX2.
        unsafe { Windows8::mask::<__m256i, Mirrored>(schedule) }
    }
}

/// The 4-lane AVX-512VL filter beside the SHA-NI rounds: 128-bit, so no
/// dirty upper state next to the SHA instructions.
pub(crate) struct Avx512Filter;

impl InterleavedFilter<Mirrored> for Avx512Filter {
    type V = crate::vector::x86_64::avx512::Vl128;
    const INTERLEAVED: usize = INTERLEAVED;

    #[inline(always)]
    unsafe fn entry(k: usize, schedule: &Mirrored, killed: Self::V) -> Self::V {
        // SAFETY: the caller checked the CPU.
        unsafe { Windows4::entry::<Self::V, Mirrored>(k, schedule, killed) }
    }

    #[inline(always)]
    unsafe fn finish(schedule: &Mirrored, killed: Self::V) -> u32 {
        // SAFETY: the caller checked the CPU.
        unsafe { finish_avx512(schedule, killed) }
    }

    #[inline(always)]
    unsafe fn alone(schedule: &Mirrored) -> u32 {
        // SAFETY: the caller checked the CPU.
        unsafe { Windows4::mask::<Self::V, Mirrored>(schedule) }
    }
}

/// The rest of the 4-lane table for the blocks its first entries left a
/// DV (one in five), out of the loop.
#[cold]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn finish_avx512(s: &Mirrored, killed: crate::vector::x86_64::avx512::Vl128) -> u32 {
    // SAFETY: the caller checked AVX-512F and VL.
    unsafe { Windows4::finish::<_, Mirrored, INTERLEAVED>(s, killed) }
}
