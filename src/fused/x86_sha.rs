//! SHA-NI rounds with a 128-bit filter between them.
//!
//! Only a 128-bit filter sits here: the SHA instructions exist only in
//! legacy SSE encoding, and running them between 256-bit AVX instructions
//! (dirty upper register halves) was measured 5 to 80 times slower,
//! `vzeroupper` or not (LLVM moves SHA instructions into the dirty window).

use core::arch::x86_64::__m128i;

use crate::backend::FusedGroup;
use crate::compress::x86_sha::{Between, block_rounds, load, store};
use crate::filter::Filter;
use crate::lanes::Lanes;

/// Part `4 J + Q` of `4 N` of the filter, after quarter `Q` of block `J`'s
/// rounds: every index a constant, so each part is straight-line code.
struct FilterPart<'a, V, const J: usize, const N: usize>(&'a mut Option<Filter<V>>);

impl<V: Lanes, const J: usize, const N: usize> Between for FilterPart<'_, V, J, N> {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, _: __m128i, _: __m128i) {
        if let Some(f) = self.0 {
            // SAFETY: the caller's features include V's.
            unsafe { f.part(4 * J + Q, 4 * N) };
        }
    }
}

/// Runs one [`FusedGroup`] of `N` blocks: one part of the filter of `ahead`
/// after each quarter of each block's rounds. `V` holds `N` blocks.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3, SSE4.1 and `V`'s instructions.
#[inline(always)]
pub(crate) unsafe fn compress_filter<V: Lanes, const N: usize>(g: FusedGroup<'_>) {
    debug_assert_eq!(V::LANES, N);
    let blocks: &[_; N] = g.blocks.try_into().expect("N blocks");
    let chains_in: &mut [[u32; 5]; N] = g.chains_in.try_into().expect("N chaining values");
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let mut filter = (!g.ahead.is_empty()).then(|| Filter::<V>::new(g.ahead));
        let (mut abcd, mut e) = load(g.chain);
        macro_rules! one {
            ($($j:literal)*) => {$(
                if $j < N {
                    store(abcd, e, &mut chains_in[$j]);
                    block_rounds(&mut abcd, &mut e, &blocks[$j], &mut FilterPart::<V, $j, N>(&mut filter));
                }
            )*};
        }
        one!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        const { assert!(N <= 16) };
        store(abcd, e, g.chain);
        if let Some(f) = &filter {
            f.finish(g.ahead_masks);
        }
    }
}
