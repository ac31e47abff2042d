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
//! candidate ([`compress_candidate`], [`test_candidate`]) and the loop that
//! detects one block at a time with the per-block filter ([`PerBlock`]).

#[cfg(sha1dc_armv8)]
#[clippy::msrv = "1.72"]
pub(crate) mod aarch64_sha;
pub(crate) mod portable;
pub(crate) mod recompress;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_sha;

pub(crate) use recompress::{Candidates, Compressed, collision_block};

use crate::block::{Block, Schedule};
use crate::compress::{Beside, State};
#[cfg(target_arch = "x86_64")]
use crate::vector::Vector;

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
    unsafe fn test(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<usize>;
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
        beside: &mut impl Beside,
    ) -> State;

    /// [`Rounds::test`] of a block whose schedule the rounds stored.
    ///
    /// # Safety
    unsafe fn test_stored(
        block: &Compressed,
        schedule: &Self::Schedule,
        c: Candidates,
    ) -> Option<usize>;
}

/// Rounds whose test of a candidate DV can run beside the rounds of the
/// next block ([`detect_beside`]): the two chains are independent, so the
/// test's rounds run in the latency the block's leave.
#[cfg(target_arch = "x86_64")]
pub(crate) trait TestsBeside: KeepingRounds {
    /// The test of one DV in flight: work beside the rounds, which holds
    /// what it reads of the block.
    type Test: Beside;

    /// The test of DV `dv` for `block`, whose schedule the rounds stored
    /// in `schedule`.
    ///
    /// # Safety
    /// As [`Rounds::compress`] (so for the next).
    unsafe fn test_beside(block: &Compressed, schedule: &Self::Schedule, dv: usize) -> Self::Test;

    /// Whether the test, run beside the 20 groups of a block, found the
    /// block half of a collision.
    ///
    /// # Safety
    unsafe fn matched(test: &Self::Test) -> bool;
}

/// A block found to be half of a collision: its index in the call's
/// blocks, and the DV it was found for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub index: usize,
    pub dv: usize,
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
) -> Option<usize> {
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

#[cfg(target_arch = "x86_64")]
/// The block whose filter runs beside the rounds of the next: what the test
/// of its candidate DVs reads.
#[derive(Clone, Copy)]
struct Behind<C> {
    chain_in: C,
    chain_out: C,
    before_60: State,
}

#[cfg(target_arch = "x86_64")]
impl<C: Copy> Behind<C> {
    /// The first of the candidate DVs `mask` for which the block, whose
    /// schedule the rounds `R` stored in `schedule`, is half of a
    /// collision.
    ///
    /// # Safety
    /// As [`Rounds::compress`].
    #[inline(always)]
    unsafe fn test<R: KeepingRounds<Chain = C>>(
        &self,
        schedule: &R::Schedule,
        mask: u32,
        reduced_round: bool,
    ) -> Option<usize> {
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

    /// The block as [`Rounds::test`] reads it.
    ///
    /// # Safety
    /// As [`Rounds::compress`].
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

#[cfg(target_arch = "x86_64")]
/// A per-block filter that runs beside the rounds ([`detect_beside`]): a
/// table of the per-block layout on vectors `V`, its first
/// [`BESIDE`](Self::BESIDE) entries between the groups of the next block's
/// rounds, the rest out of the loop.
pub(crate) trait FilterBeside<S> {
    /// The vectors of the entries run beside the rounds.
    type V: Vector;

    /// How many of the table's entries run beside the rounds: entries `g`
    /// and `g + 20` after group `g`, so at most 40.
    const BESIDE: usize;

    /// Entry `k` of the table on `killed` (the DVs ruled out so far, by
    /// lane), for the schedule `schedule`.
    ///
    /// # Safety
    /// The CPU must support what the form needs.
    unsafe fn entry(k: usize, schedule: &S, killed: Self::V) -> Self::V;

    /// The DV mask of a block whose first [`BESIDE`](Self::BESIDE) entries
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

#[cfg(target_arch = "x86_64")]
/// The entries filter `F` runs beside the rounds, on a schedule stored a
/// block earlier: the DVs they rule out, by lane.
struct Entries<'a, F: FilterBeside<S>, S> {
    schedule: &'a S,
    killed: F::V,
}

#[cfg(target_arch = "x86_64")]
impl<F: FilterBeside<S>, S: Schedule> Entries<'_, F, S> {
    /// Fails to compile for a filter that asks for more entries beside the
    /// rounds than two a group give.
    const AT_MOST_40: () = assert!(F::BESIDE <= 40);

    /// Entry `k` of the table, if it runs beside the rounds, held in place.
    ///
    /// # Safety
    /// The CPU must support what `F` needs.
    #[inline(always)]
    unsafe fn entry(&mut self, k: usize) {
        let () = Self::AT_MOST_40;
        if k < F::BESIDE {
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
    unsafe fn mask(&self) -> u32 {
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

#[cfg(target_arch = "x86_64")]
impl<F: FilterBeside<S>, S: Schedule> Beside for Entries<'_, F, S> {
    #[inline(always)]
    unsafe fn group(&mut self, g: usize) {
        // SAFETY (both): the caller guarantees what F needs.
        unsafe {
            self.entry(g);
            self.entry(g + 20);
        }
    }
}

#[cfg(target_arch = "x86_64")]
/// [`detect_blocks`] with work beside each block's rounds: the filter of
/// the block before (filter `F`; see [`FilterBeside`]) and, where that
/// block's filter left one candidate DV, the test of the block before
/// that: their vector operations and the test's rounds fill the issue
/// slots the rounds' latency leaves idle, and the filter's loads read the
/// schedule stored a block earlier (`schedules`, two in turn). A block left
/// more than one candidate, the last block of the call, and every
/// candidate with reduced-round detection (which needs the partner's input,
/// from the scalar recompression) are tested on their own. Stops as
/// [`detect_blocks`] does, a block or two after the flagged one.
///
/// # Safety
/// The CPU must support `R`'s instructions and what `F` needs.
#[inline(always)]
pub(crate) unsafe fn detect_beside<R: TestsBeside, F: FilterBeside<R::Schedule>>(
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
        let mut behind = Behind {
            chain_in,
            chain_out: rounds,
            before_60,
        };
        // Block i - 2's test of its one candidate DV, and its output chain.
        let mut pending: Option<(R::Test, R::Chain, usize)> = None;
        let mut i = 1;
        // Block i into `$cur`, beside it the filter of block i - 1 (in
        // `$old`) and a pending test; or, past the last block, those alone.
        macro_rules! step {
            ($cur:ident, $old:ident) => {
                if i == blocks.len() {
                    if let Some((mut test, out, dv)) = pending.take() {
                        for g in 0..20 {
                            test.group(g);
                        }
                        if R::matched(&test) {
                            *chain = R::store(out);
                            return Some(Found { index: i - 2, dv });
                        }
                    }
                    let found = behind.test::<R>($old, F::alone($old), reduced_round);
                    *chain = R::store(if found.is_some() {
                        behind.chain_out
                    } else {
                        rounds
                    });
                    return found.map(|dv| Found { index: i - 1, dv });
                }
                let chain_in = rounds;
                let mut entries = Entries::<F, _> {
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
                    let dv = mask.trailing_zeros() as usize;
                    let test = R::test_beside(&behind.compressed::<R>(), $old, dv);
                    pending = Some((test, behind.chain_out, dv));
                } else if let Some(dv) = behind.test::<R>($old, mask, reduced_round) {
                    *chain = R::store(behind.chain_out);
                    return Some(Found { index: i - 1, dv });
                }
                behind = Behind {
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
