//! Detection over the portable rounds: the candidate's test in scalar, and
//! detection one block at a time with a 4-lane per-block filter on the
//! schedule the rounds store in order.

use core::marker::PhantomData;

use super::{Candidates, Compressed, KeepingRounds, Rounds, recompress};
use crate::block::{Block, InOrder};
use crate::compress::portable::{Scalar, StoringRounds};
use crate::compress::{BetweenGroups, State};
use crate::dv::DisturbanceVector;

/// The portable rounds (src/compress/portable.rs), their schedule expanded
/// as `S` does.
pub(crate) struct Portable<S = Scalar>(PhantomData<S>);

impl<S: StoringRounds> Rounds for Portable<S> {
    #[inline(always)]
    unsafe fn compress(chain: &mut [u32; 5], block: &Block) -> (Compressed, [u32; 80]) {
        let chain_in = *chain;
        let mut w = [0u32; 80];
        // SAFETY: nothing beside.
        let before_60 = unsafe { S::compress_keeping(chain, block, &mut w, &mut ()) };
        let compressed = Compressed {
            chain_in,
            chain_out: *chain,
            before_60,
        };
        (compressed, w)
    }

    #[inline(always)]
    unsafe fn test(
        block: &Compressed,
        w: &[u32; 80],
        c: super::Candidates,
    ) -> Option<DisturbanceVector> {
        recompress::test(block, w, c)
    }
}

impl<S: StoringRounds> KeepingRounds for Portable<S> {
    type Chain = [u32; 5];
    type Schedule = InOrder;

    #[inline(always)]
    unsafe fn load(chain: &[u32; 5]) -> [u32; 5] {
        *chain
    }

    #[inline(always)]
    unsafe fn store(chain: [u32; 5]) -> [u32; 5] {
        chain
    }

    #[inline(always)]
    unsafe fn block(
        chain: &mut [u32; 5],
        block: &Block,
        schedule: &mut InOrder,
        beside: &mut impl BetweenGroups,
    ) -> State {
        // SAFETY: the caller guarantees what `beside` needs.
        unsafe { S::compress_keeping(chain, block, &mut schedule.0, beside) }
    }

    #[inline(always)]
    unsafe fn test_stored(
        block: &Compressed,
        schedule: &InOrder,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        recompress::test(block, &schedule.0, c)
    }
}

/// Detection one block at a time with the 4-lane per-block filter on
/// vectors `V` (NEON, simd128: four consecutive steps per vector, few live
/// vectors, no transposition), the rounds' schedule expanded as `S` does.
///
/// # Safety
/// The CPU must support `V`'s and `S`'s instruction sets.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) unsafe fn detect<V: crate::vector::Vector, S: StoringRounds>(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
) -> Option<super::Found> {
    use crate::filter::per_block::Windows4;
    // SAFETY: the caller checked V's and S's instruction sets.
    unsafe {
        super::detect_blocks::<Portable<S>>(chain, blocks, reduced_round, |s| {
            Windows4::mask::<V, _>(s)
        })
    }
}
