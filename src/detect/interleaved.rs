//! Detection one block at a time with work beside the rounds (SHA-NI):
//! each block's filter runs between the groups of the next block's rounds,
//! and a candidate with one DV is tested beside the rounds of the block
//! after ([`detect_interleaved`]), in the issue slots the rounds' latency leaves
//! idle. Written once over the rounds ([`TestsBetweenGroups`]) and the filter
//! ([`InterleavedFilter`]); each platform's entry (src/platform) chooses both.

use super::{Candidates, Compressed, Found, KeepingRounds};
use crate::block::{Block, Schedule};
use crate::compress::{BetweenGroups, State};
use crate::dv::DisturbanceVector;
use crate::vector::Vector;

/// Rounds whose test of a candidate DV can run beside the rounds of the
/// next block ([`detect_interleaved`]): the two chains are independent, so the
/// test's rounds run in the latency the block's leave.
pub(crate) trait TestsBetweenGroups: KeepingRounds {
    /// The test of one DV in flight: work beside the rounds, which holds
    /// what it reads of the block.
    type Test: BetweenGroups;

    /// The test of DV `dv` for `block`, whose schedule the rounds stored
    /// in `schedule`.
    ///
    /// # Safety
    /// As [`Rounds::compress`](super::Rounds::compress) (so for the next).
    unsafe fn test_between_groups(
        block: &Compressed,
        schedule: &Self::Schedule,
        dv: DisturbanceVector,
    ) -> Self::Test;

    /// Whether the test, run beside the 20 groups of a block, found the
    /// block half of a collision.
    ///
    /// # Safety
    unsafe fn matched(test: &Self::Test) -> bool;
}

/// The block whose filter runs beside the rounds of the next: what the test
/// of its candidate DVs reads.
#[derive(Clone, Copy)]
struct PreviousBlock<C> {
    chain_in: C,
    chain_out: C,
    before_60: State,
}

impl<C: Copy> PreviousBlock<C> {
    /// The first of the candidate DVs `mask` for which the block, whose
    /// schedule the rounds `R` stored in `schedule`, is half of a
    /// collision.
    ///
    /// # Safety
    /// As [`Rounds::compress`](super::Rounds::compress).
    #[inline(always)]
    unsafe fn test<R: KeepingRounds<Chain = C>>(
        &self,
        schedule: &R::Schedule,
        mask: u32,
        reduced_round: bool,
    ) -> Option<DisturbanceVector> {
        if mask == 0 {
            return None;
        }
        let c = Candidates {
            mask,
            reduced_round,
        };
        // SAFETY (both): the caller checked the CPU.
        unsafe { R::test_stored(&self.compressed::<R>(), schedule, c) }
    }

    /// The block as [`Rounds::test`](super::Rounds::test) reads it.
    ///
    /// # Safety
    /// As [`Rounds::compress`](super::Rounds::compress).
    #[inline(always)]
    unsafe fn compressed<R: KeepingRounds<Chain = C>>(&self) -> Compressed {
        // SAFETY (both): the caller checked the CPU.
        unsafe {
            Compressed {
                chain_in: R::store(self.chain_in),
                chain_out: R::store(self.chain_out),
                before_60: self.before_60,
            }
        }
    }
}

/// A per-block filter that runs beside the rounds ([`detect_interleaved`]): a
/// table of the per-block layout on vectors `V`, its first
/// [`INTERLEAVED`](Self::INTERLEAVED) entries between the groups of the next block's
/// rounds, the rest out of the loop.
pub(crate) trait InterleavedFilter<S> {
    /// The vectors of the entries run beside the rounds.
    type V: Vector;

    /// How many of the table's entries run beside the rounds: entries `g`
    /// and `g + 20` after group `g`, so at most 40.
    const INTERLEAVED: usize;

    /// Entry `k` of the table on `killed` (the DVs ruled out so far, by
    /// lane), for the schedule `schedule`.
    ///
    /// # Safety
    /// The CPU must support what the form needs.
    unsafe fn entry(k: usize, schedule: &S, killed: Self::V) -> Self::V;

    /// The DV mask of a block whose first [`INTERLEAVED`](Self::INTERLEAVED) entries
    /// ruled out `killed` (by lane) but not every DV.
    ///
    /// # Safety
    /// As [`entry`](Self::entry).
    unsafe fn finish(schedule: &S, killed: Self::V) -> u32;

    /// The DV mask of a block with no next block to run beside.
    ///
    /// # Safety
    /// As [`entry`](Self::entry).
    unsafe fn alone(schedule: &S) -> u32;
}

/// The entries filter `F` runs beside the rounds, on a schedule stored a
/// block earlier: the DVs they rule out, by lane.
pub(super) struct FilterInFlight<'a, F: InterleavedFilter<S>, S> {
    pub(super) schedule: &'a S,
    pub(super) killed: F::V,
}

impl<F: InterleavedFilter<S>, S: Schedule> FilterInFlight<'_, F, S> {
    /// Fails to compile for a filter that asks for more entries beside the
    /// rounds than two a group give.
    const AT_MOST_40: () = assert!(F::INTERLEAVED <= 40);

    /// Entry `k` of the table, if it runs beside the rounds, held in place.
    ///
    /// # Safety
    /// The CPU must support what `F` needs.
    #[inline(always)]
    unsafe fn entry(&mut self, k: usize) {
        let () = Self::AT_MOST_40;
        if k < F::INTERLEAVED {
            // SAFETY: the caller guarantees what F needs.
            self.killed = unsafe { F::entry(k, self.schedule, self.killed) };
            self.killed.hold();
        }
    }

    /// The block's DV mask once every group has run: none left when the
    /// entries beside the rounds ruled out every DV in every lane (most
    /// blocks), else what the filter's other entries leave.
    ///
    /// # Safety
    /// As [`entry`](Self::entry).
    #[inline(always)]
    pub(super) unsafe fn mask(&self) -> u32 {
        // SAFETY (both): the caller guarantees what F needs.
        unsafe {
            if self.killed.or_lanes() == u32::MAX {
                0
            } else {
                F::finish(self.schedule, self.killed)
            }
        }
    }
}

impl<F: InterleavedFilter<S>, S: Schedule> BetweenGroups for FilterInFlight<'_, F, S> {
    #[inline(always)]
    unsafe fn group(&mut self, g: usize) {
        // SAFETY (both): the caller guarantees what F needs.
        unsafe {
            self.entry(g);
            self.entry(g + 20);
        }
    }
}

/// [`detect_blocks`](super::detect_blocks) with work beside each block's rounds: the filter of
/// the block before (filter `F`; see [`InterleavedFilter`]) and, where that
/// block's filter left one candidate DV, the test of the block before
/// that: their vector operations and the test's rounds fill the issue
/// slots the rounds' latency leaves idle, and the filter's loads read the
/// schedule stored a block earlier (`schedules`, two in turn). A block left
/// more than one candidate, the last block of the call, and every
/// candidate with reduced-round detection (which needs the partner's input,
/// from the scalar recompression) are tested on their own. Stops as
/// [`detect_blocks`](super::detect_blocks) does, a block or two after the flagged one.
///
/// # Safety
/// The CPU must support `R`'s instructions and what `F` needs.
#[inline(always)]
pub(crate) unsafe fn detect_interleaved<
    R: TestsBetweenGroups,
    F: InterleavedFilter<R::Schedule>,
>(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
    schedules: &mut [R::Schedule; 2],
) -> Option<Found> {
    let first = blocks.first()?;
    // Each schedule at a fixed place: the loop below is unrolled by two.
    let [even, odd] = schedules;
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let mut rounds = R::load(chain);
        let chain_in = rounds;
        let before_60 = R::block(&mut rounds, first, even, &mut ());
        let mut behind = PreviousBlock {
            chain_in,
            chain_out: rounds,
            before_60,
        };
        // Block i - 2's test of its one candidate DV, and its output chain.
        let mut pending: Option<Pending<R>> = None;
        let mut i = 1;
        // Block i into `$cur`, beside it the filter of block i - 1 (in
        // `$old`) and a pending test; or, past the last block, those alone.
        macro_rules! step {
            ($cur:ident, $old:ident) => {
                if i == blocks.len() {
                    let last = (&behind, &*$old);
                    return end_of_call::<R, F>(chain, rounds, last, pending, i, reduced_round);
                }
                let chain_in = rounds;
                let mut entries = FilterInFlight::<F, _> {
                    schedule: &*$old,
                    killed: F::V::splat(0),
                };
                let before_60 = match &mut pending {
                    None => R::block(&mut rounds, &blocks[i], $cur, &mut entries),
                    Some((test, _, _)) => {
                        R::block(&mut rounds, &blocks[i], $cur, &mut (&mut entries, test))
                    }
                };
                if let Some((test, out, dv)) = pending.take() {
                    if R::matched(&test) {
                        *chain = R::store(out);
                        return Some(Found { index: i - 2, dv });
                    }
                }
                let mask = entries.mask();
                if mask & mask.wrapping_sub(1) == 0 && mask != 0 && !reduced_round {
                    let dv = DisturbanceVector::from_index(mask.trailing_zeros() as usize);
                    let test = R::test_between_groups(&behind.compressed::<R>(), $old, dv);
                    pending = Some((test, behind.chain_out, dv));
                } else if let Some(dv) = behind.test::<R>($old, mask, reduced_round) {
                    *chain = R::store(behind.chain_out);
                    return Some(Found { index: i - 1, dv });
                }
                behind = PreviousBlock {
                    chain_in,
                    chain_out: rounds,
                    before_60,
                };
                i += 1;
            };
        }
        loop {
            step!(odd, even);
            step!(even, odd);
        }
    }
}

/// A test of one candidate DV in flight between the groups of the next
/// block's rounds, with the output chain of the block it tests and the DV.
type Pending<R> = (
    <R as TestsBetweenGroups>::Test,
    <R as KeepingRounds>::Chain,
    DisturbanceVector,
);

/// The end of a call of [`detect_interleaved`], after its `len` blocks: a
/// test still pending runs alone, then the last block (`last`: what its
/// test reads and its schedule) takes its filter and test alone, with no
/// next block's rounds to run beside; `rounds` is the chain after it.
///
/// # Safety
/// As [`detect_interleaved`].
#[inline(always)]
unsafe fn end_of_call<R: TestsBetweenGroups, F: InterleavedFilter<R::Schedule>>(
    chain: &mut [u32; 5],
    rounds: R::Chain,
    (block, schedule): (&PreviousBlock<R::Chain>, &R::Schedule),
    pending: Option<Pending<R>>,
    len: usize,
    reduced_round: bool,
) -> Option<Found> {
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        if let Some((mut test, out, dv)) = pending {
            for g in 0..20 {
                test.group(g);
            }
            if R::matched(&test) {
                *chain = R::store(out);
                return Some(Found { index: len - 2, dv });
            }
        }
        let found = block.test::<R>(schedule, F::alone(schedule), reduced_round);
        *chain = R::store(if found.is_some() {
            block.chain_out
        } else {
            rounds
        });
        found.map(|dv| Found { index: len - 1, dv })
    }
}
