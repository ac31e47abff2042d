//! The unavoidable-bit-condition filter, written once over [`Vector`] and
//! run on the vectors a platform names ([`Masks`]; src/platform).
//!
//! A lane holds one block's message word, so a vector of N lanes filters N
//! blocks at once: the message expansion and the conditions depend only on
//! the message, never on the chaining value, so a batch of blocks can be
//! filtered ahead of (or beside) their compression.

mod conditions;
pub(crate) mod per_block;
#[cfg(test)]
mod tests;
mod windows;

use crate::block::Block;
use crate::compress::BetweenGroups;
use crate::vector::{OnVectors, Vector};
use conditions::for_each_condition_group;

/// The highest message word any condition reads.
pub(crate) const LAST_WORD: usize = 64;

/// How many masks the groups beside the lanes' rounds drop DVs from in
/// turn, ANDed at the end: one would chain every group's drop after the
/// last. (Alone, the filter keeps one: SSE2's measured slower with four.)
const MASKS: usize = 4;

/// The filter of one vector of blocks (`V::LANES` blocks, one per lane):
/// the expansion and the conditions depend only on the message, so a batch
/// of blocks is filtered ahead of its compression; the batch path's
/// compression reads the schedule expanded here and, on forms of 8 lanes
/// or more, runs the conditions between its steps ([`Parts`]).
pub(crate) struct Filter<V> {
    w: [V; LAST_WORD + 1],
    mask: V,
}

/// How many parts [`Parts`] cuts the condition groups into: the batch runs
/// one after each five of its steps, so the filter fills the latency of
/// the rounds' chain. It must be the 16 groups of five steps that
/// `eighty_steps!` (src/compress/lanes.rs) calls: more would leave parts unrun.
const PARTS: usize = 16;

/// The condition groups on an expanded schedule, in [`PARTS`] parts: work
/// for the lanes' rounds to run beside them (src/compress/lanes.rs).
pub(crate) struct Parts<'a, V> {
    w: &'a [V; LAST_WORD + 1],
    /// The DVs left to each lane, as masks to AND.
    masks: [V; MASKS],
}

impl<V: Vector> BetweenGroups for Parts<'_, V> {
    #[inline(always)]
    unsafe fn group(&mut self, k: usize) {
        // The rounds' k-th five steps run part k.
        // SAFETY: the caller guarantees V's instruction set.
        unsafe { self.part(k) }
    }
}

/// Expansion words `$t` of `$w`.
macro_rules! expand_words {
    ($w:ident; $($t:literal)*) => {$(
        $w[$t] = V::expand_word($w[$t - 3], $w[$t - 8], $w[$t - 14], $w[$t - 16]);
    )*};
}

/// A condition group (its DVs `$dvs`, its conditions) on the schedule
/// `$w`: lanes that break a condition lose the group's DVs from `$mask`.
macro_rules! group {
    ($w:ident, $mask:expr, $dvs:literal, [$(($t1:literal, $b1:literal, $t2:literal, $b2:literal, $differ:literal)),*]) => {{
        let mut broken = V::none_broken();
        $(
            broken = V::break_unless::<
                { 31 - $b1 },
                { 31 - $b2 },
                { ($b1 + 32 - $b2) % 32 },
                { $differ == 1 },
            >(broken, $w[$t1], $w[$t2]);
        )*
        $mask = $mask.drop_broken(broken, $dvs);
    }};
}

macro_rules! filter_impl {
    ($([$($word:literal)*] $dvs:literal => [$(($t1:literal, $b1:literal, $t2:literal, $b2:literal, $differ:literal)),*];)*) => {
        impl<V: Vector> Filter<V> {
            /// Loads the message words of `blocks[..V::LANES]`.
            #[inline(always)]
            pub(crate) unsafe fn new(blocks: &[Block]) -> Self {
                // SAFETY: the caller guarantees V's instruction set.
                unsafe { Self::from_words(&V::load16(blocks)) }
            }

            /// From the first 16 message words, already one block per lane
            /// (the batch path shares them with its compression).
            #[inline(always)]
            pub(crate) unsafe fn from_words(first: &[V; 16]) -> Self {
                // SAFETY: the caller guarantees V's instruction set.
                unsafe {
                    let mut w = [V::splat(0); LAST_WORD + 1];
                    w[..16].copy_from_slice(first);
                    Filter { w, mask: V::splat(u32::MAX) }
                }
            }

            /// Expands the schedule and tests every condition group: straight-
            /// line code, every index a constant.
            #[inline(always)]
            pub(crate) unsafe fn run(&mut self) {
                let w = &mut self.w;
                // SAFETY (whole body): the caller guarantees V's instruction set.
                unsafe {
                    // The expansion is written out word by word (a rolled loop
                    // cost as much as the conditions), each word just before
                    // the first group that reads it, so few words are alive at
                    // once (vector registers are few: SSE2's filter measured
                    // slower with the whole schedule expanded first, wasm's
                    // locals are few too).
                    $(
                        expand_words!(w; $($word)*);
                        group!(w, self.mask, $dvs, [$(($t1, $b1, $t2, $b2, $differ)),*]);
                    )*
                }
            }

            /// Expands the whole schedule up to word 64 at once, so any part of
            /// the groups can run beside any of the rounds' steps ([`run`](Self::run)
            /// expands each word just before its first group).
            #[inline(always)]
            pub(crate) unsafe fn expand(&mut self) {
                const _: () = assert!(LAST_WORD == 64);
                let w = &mut self.w;
                // SAFETY: the caller guarantees V's instruction set.
                unsafe { $(expand_words!(w; $($word)*);)* }
            }

            /// The schedule up to word 64 as [`run`](Self::run) or
            /// [`expand`](Self::expand) left it (the batch's rounds read it
            /// rather than expand the message again).
            #[inline(always)]
            pub(crate) fn schedule(&self) -> &[V; LAST_WORD + 1] {
                &self.w
            }

            /// The condition groups on the expanded schedule, as work beside
            /// the rounds that read it.
            #[inline(always)]
            pub(crate) unsafe fn parts(&self) -> Parts<'_, V> {
                // SAFETY: the caller guarantees V's instruction set.
                Parts { w: &self.w, masks: [unsafe { V::splat(u32::MAX) }; MASKS] }
            }

            /// Writes the `V::LANES` DV masks (bit i = DV i) to `out`.
            #[inline(always)]
            pub(crate) unsafe fn finish(&self, out: &mut [u32]) {
                // SAFETY: the caller guarantees V's instruction set.
                unsafe { self.mask.store(out) }
            }
        }

        impl<V: Vector> Parts<'_, V> {
            /// Part `part` (of [`PARTS`]): the groups `g` with
            /// `g * PARTS / GROUPS == part`, so parts `0..PARTS` take every group
            /// once, in order, in turn over the masks; a constant `part` folds
            /// the other groups away.
            #[inline(always)]
            unsafe fn part(&mut self, part: usize) {
                let (w, masks) = (self.w, &mut self.masks);
                const GROUPS: usize = [$(stringify!($dvs)),*].len();
                let mut g = 0;
                // SAFETY (every group): the caller guarantees V's instruction set.
                unsafe {
                    $(
                        if g * PARTS / GROUPS == part {
                            group!(w, masks[g % MASKS], $dvs, [$(($t1, $b1, $t2, $b2, $differ)),*]);
                        }
                        g += 1;
                    )*
                }
                let _ = g;
            }

            /// Writes the `V::LANES` DV masks (bit i = DV i) to `out`, once
            /// every part has run.
            #[inline(always)]
            pub(crate) unsafe fn finish(&self, out: &mut [u32]) {
                let m = &self.masks;
                // SAFETY: the caller guarantees V's instruction set.
                unsafe { m[1..].iter().fold(m[0], |acc, x| acc.and(*x)).store(out) }
            }
        }
    };
}
for_each_condition_group!(filter_impl);

/// The DV masks of `blocks` as work on vectors (`Platform::filter_masks`,
/// src/platform): `out[i]` is block i's.
pub(crate) struct Masks<'a> {
    pub blocks: &'a [Block],
    pub out: &'a mut [u32],
}

impl OnVectors for Masks<'_> {
    type Output = ();

    #[inline(always)]
    unsafe fn run<V: Vector>(self) {
        // SAFETY: the caller guarantees V's instruction set.
        unsafe { masks_on::<V>(self.blocks, self.out) }
    }
}

/// [`Masks`] one block per `u32`: the plainest form, the tests' reference.
#[cfg(test)]
pub(crate) fn scalar_masks(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: u32 lanes are plain integer arithmetic.
    unsafe { masks_on::<u32>(blocks, out) }
}

/// Filters exactly one vector of blocks (`blocks.len() == V::LANES`):
/// `out[i]` is block i's DV mask.
#[inline(always)]
unsafe fn vector_masks<V: Vector>(blocks: &[Block], out: &mut [u32]) {
    // SAFETY: the caller guarantees V's instruction set.
    unsafe {
        let mut f = Filter::<V>::new(blocks);
        f.run();
        f.finish(out);
    }
}

/// Filters any number of blocks, `V::LANES` at a time: `out[i]` is block
/// i's DV mask. A remainder of one block takes the `u32` form where `V`
/// has more than four lanes, one that fits a narrower `V::Narrow` that
/// vector, any other a vector of `V`, each padded with zero blocks.
#[inline(always)]
unsafe fn masks_on<V: Vector>(blocks: &[Block], out: &mut [u32]) {
    let (whole, rest) = blocks.split_at(blocks.len() - blocks.len() % V::LANES);
    for (vector, out) in whole
        .chunks_exact(V::LANES)
        .zip(out.chunks_exact_mut(V::LANES))
    {
        // SAFETY: the caller guarantees V's instruction set.
        unsafe { vector_masks::<V>(vector, out) };
    }
    let out = &mut out[whole.len()..blocks.len()];
    let narrow = V::Narrow::LANES;
    // SAFETY (all arms): the caller guarantees V's instruction set, which
    // includes V::Narrow's.
    unsafe {
        match rest.len() {
            0 => {}
            // Past four lanes only: a padded 8-lane pass on one block
            // measured slower than the `u32` form, SSE2's 4-lane pass
            // faster (in wasm the simd128 pass is slower, but there only
            // a backend a caller names filters ahead).
            1 if V::LANES > 4 => vector_masks::<u32>(rest, out),
            n if n <= narrow && narrow < V::LANES => padded::<V::Narrow>(rest, out),
            _ => padded::<V>(rest, out),
        }
    }
}

/// [`vector_masks`] of `blocks` (fewer than `V::LANES`) padded with zero
/// blocks, in a buffer of the vector's own width (zeroing a larger one cost
/// as much as the filter on a short message).
#[inline(always)]
unsafe fn padded<V: Vector>(blocks: &[Block], out: &mut [u32]) {
    // SAFETY (all arms): the caller guarantees V's instruction set; N is
    // V::LANES.
    unsafe {
        match V::LANES {
            2 => padded_n::<V, 2>(blocks, out),
            4 => padded_n::<V, 4>(blocks, out),
            8 => padded_n::<V, 8>(blocks, out),
            _ => padded_n::<V, 16>(blocks, out),
        }
    }
}

/// [`padded`] with `N == V::LANES`.
#[inline(always)]
unsafe fn padded_n<V: Vector, const N: usize>(blocks: &[Block], out: &mut [u32]) {
    debug_assert_eq!(N, V::LANES);
    let mut padded = [[0u8; 64]; N];
    padded[..blocks.len()].copy_from_slice(blocks);
    let mut m = [0u32; N];
    // SAFETY: the caller guarantees V's instruction set.
    unsafe { vector_masks::<V>(&padded, &mut m) };
    out.copy_from_slice(&m[..blocks.len()]);
}
