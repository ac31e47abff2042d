//! Detection: whether a block the filter let through (a *candidate*) really
//! is half of a collision (then it is *flagged*).
//!
//! For a candidate DV, the partner block is this block's expanded message
//! xor the DV's message difference; both blocks share the working state
//! before the DV's test step (58 or 65). From that state the partner is run
//! back to its input chaining value and forward to its output: the block is
//! half of a collision when the partner's output equals this block's (or,
//! for reduced-round detection, when its input does).
//!
//! Each compressor's rounds keep the working state before step 60 (a
//! [`Compressed`] block), from which the test states are a few scalar steps
//! away ([`Rounds`]): the scalar test is recompress.rs, SHA-NI tests with
//! its own rounds (x86_sha.rs). Written once over them: the test of one
//! candidate ([`compress_and_test`]), the loop that detects one block at a
//! time with the per-block filter behind each block's rounds
//! ([`detect_blocks`]), and with the filter beside the next block's
//! (interleaved.rs). Each platform (src/platform) enters them with its rounds
//! and its filter.

#[cfg(sha1dc_armv8)]
#[clippy::msrv = "1.72"]
pub(crate) mod aarch64_sha;
#[cfg(target_arch = "x86_64")]
pub(crate) mod interleaved;
pub(crate) mod portable;
pub(crate) mod recompress;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_sha;

pub(crate) use recompress::{Candidates, Compressed, collision_block};

use crate::block::{Block, Schedule};
use crate::compress::{BetweenGroups, State};
use crate::dv::DisturbanceVector;

/// A compressor's rounds as detection drives them.
pub(crate) trait Rounds {
    /// Compresses one block into `chain`, returning what the test of its
    /// candidates reads: the block compressed, and its schedule.
    ///
    /// # Safety
    /// The CPU must support the compressor's instructions.
    unsafe fn compress(chain: &mut [u32; 5], block: &Block) -> (Compressed, [u32; 80]);

    /// The first candidate DV (in table order, as the reference) for which
    /// the compressed block, whose schedule is `w`, is half of a collision.
    ///
    /// # Safety
    /// As [`compress`](Self::compress).
    unsafe fn test(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<DisturbanceVector>;
}

/// Rounds run block after block with the chaining value in their own
/// registers, storing each block's schedule where the per-block filter
/// reads it.
pub(crate) trait KeepingRounds: Rounds {
    /// The chaining value as the rounds hold it.
    type Chain: Copy;
    /// The schedule as the rounds store it.
    type Schedule: Schedule;

    /// # Safety
    /// As [`Rounds::compress`] (so for the next three).
    unsafe fn load(chain: &[u32; 5]) -> Self::Chain;

    /// # Safety
    unsafe fn store(chain: Self::Chain) -> [u32; 5];

    /// One block into `chain`, its schedule into `schedule`, with `beside`
    /// between its groups of four steps; returns the working state before
    /// step 60.
    ///
    /// # Safety
    /// Also what `beside` needs.
    unsafe fn block(
        chain: &mut Self::Chain,
        block: &Block,
        schedule: &mut Self::Schedule,
        beside: &mut impl BetweenGroups,
    ) -> State;

    /// [`Rounds::test`] of a block whose schedule the rounds stored.
    ///
    /// # Safety
    unsafe fn test_stored(
        block: &Compressed,
        schedule: &Self::Schedule,
        c: Candidates,
    ) -> Option<DisturbanceVector>;
}

/// A block found to be half of a collision: its index in the call's
/// blocks, and the DV it was found for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub index: usize,
    pub dv: DisturbanceVector,
}

/// Compresses a candidate block into `chain` with rounds `R` and tests its
/// candidate DVs: the first for which it is half of a collision.
///
/// # Safety
/// The CPU must support `R`'s instructions.
#[inline(always)]
pub(crate) unsafe fn compress_and_test<R: Rounds>(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<DisturbanceVector> {
    // SAFETY: the caller checked the CPU.
    unsafe {
        let (compressed, w) = R::compress(chain, block);
        R::test(&compressed, &w, c)
    }
}

/// Compresses `blocks` into `chain` with detection one block at a time: the
/// rounds store each block's schedule, the per-block filter `mask` reads it
/// (src/filter/per_block.rs), and a block it lets through is tested from
/// the states the rounds kept. Stops after the first block found to be half
/// of a collision: returns its index and DV, `chain` then being the plain
/// output chain after it.
///
/// # Safety
/// The CPU must support `R`'s instructions and whatever `mask` needs.
#[inline(always)]
pub(crate) unsafe fn detect_blocks<R: KeepingRounds>(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
    mask: impl Fn(&R::Schedule) -> u32,
) -> Option<Found> {
    let mut schedule = R::Schedule::default();
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let mut rounds = R::load(chain);
        for (i, block) in blocks.iter().enumerate() {
            let chain_in = rounds;
            let before_60 = R::block(&mut rounds, block, &mut schedule, &mut ());
            let mask = mask(&schedule);
            if mask != 0 {
                let compressed = Compressed {
                    chain_in: R::store(chain_in),
                    chain_out: R::store(rounds),
                    before_60,
                };
                let c = Candidates {
                    mask,
                    reduced_round,
                };
                if let Some(dv) = R::test_stored(&compressed, &schedule, c) {
                    *chain = compressed.chain_out;
                    return Some(Found { index: i, dv });
                }
            }
        }
        *chain = R::store(rounds);
    }
    None
}
