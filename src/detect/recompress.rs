//! The recompression in plain Rust: the test of a candidate block's DVs
//! from the states its compression kept, and the report of a flagged block.

use crate::block::{Block, expand};
use crate::compress::{State, steps_backward, steps_forward};
use crate::dv::{DisturbanceVector, Dv};
use crate::outcome::CollisionBlock;

/// The DVs to test for a candidate block (one the filter let through),
/// and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidates {
    /// Bit i: DV i passed the filter.
    pub mask: u32,
    /// Also flag a partner that starts from the same input chaining value.
    pub reduced_round: bool,
}

/// The working states before the two test steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TestStates {
    pub before_58: State,
    pub before_65: State,
}

impl TestStates {
    /// The state before the DV's test step.
    fn of(&self, dv: &Dv) -> State {
        if dv.test_step == 58 {
            self.before_58
        } else {
            debug_assert_eq!(dv.test_step, 65);
            self.before_65
        }
    }

    /// From the state before step 60, where hardware that runs four steps
    /// at a time exposes it: two steps back and five forward.
    pub(crate) fn from_before_60(before_60: State, w: &[u32; 80]) -> Self {
        let mut before_58 = before_60;
        steps_backward(&mut before_58, 58, 60, |t| w[t]);
        let mut before_65 = before_60;
        steps_forward(&mut before_65, 60, 65, |t| w[t]);
        TestStates {
            before_58,
            before_65,
        }
    }
}

/// The partner of DV `dv`'s state at the group boundary nearest its test
/// step (before step 60 for test step 58, before step 64 for 65), and that
/// step, from this block's state before step 60 and its schedule words
/// `word(t)`. The two blocks share the state before the test step, so the
/// partner's differs only where the steps between use the differing
/// words: from 58, in `a` and `b` after two steps; from 65, in the `e` one
/// step back. (The same states as stepping the partner from
/// [`TestStates`], in a few additions.)
pub(crate) fn partner_at_boundary(
    dv: &Dv,
    before_60: &State,
    word: impl Fn(usize) -> u32,
) -> (State, usize) {
    // The partner's word less this block's.
    let delta = |t: usize| (word(t) ^ dv.dm[t]).wrapping_sub(word(t));
    if dv.test_step == 58 {
        // a after step 58 moves by the word's difference; a after step 59
        // by that and the change of rotl(a, 5) it reads; b, c, d, e are the
        // shared state's.
        let [a60, a59, b, c, d] = *before_60;
        let a59p = a59.wrapping_add(delta(58));
        let a60p = a60
            .wrapping_add(a59p.rotate_left(5))
            .wrapping_sub(a59.rotate_left(5))
            .wrapping_add(delta(59));
        ([a60p, a59p, b, c, d], 60)
    } else {
        debug_assert_eq!(dv.test_step, 65);
        // One step back from the shared state: only e depends on the word.
        let mut s = *before_60;
        steps_forward(&mut s, 60, 64, &word);
        s[4] = s[4].wrapping_sub(delta(64));
        (s, 64)
    }
}

/// The partner of DV `dv`'s state before step 64, whatever its test step:
/// [`partner_at_boundary`], then for test step 58 four steps of the
/// partner's own, so that a test from there has one shape.
pub(crate) fn partner_before_64(dv: &Dv, before_60: &State, word: impl Fn(usize) -> u32) -> State {
    let (mut at, step) = partner_at_boundary(dv, before_60, &word);
    if step == 60 {
        steps_forward(&mut at, 60, 64, |t| word(t) ^ dv.dm[t]);
    }
    at
}

/// A candidate block after its compression: what the test of its DVs
/// starts from (the test states are a few scalar steps from the state
/// before step 60, where hardware that runs four steps at a time exposes
/// one).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compressed {
    pub chain_in: [u32; 5],
    pub chain_out: [u32; 5],
    pub before_60: State,
}

/// The scalar test of a compressed candidate block whose schedule is `w`:
/// the first candidate DV (in table order, as the reference) for which it
/// is half of a collision.
pub(crate) fn test(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<DisturbanceVector> {
    let states = TestStates::from_before_60(block.before_60, w);
    first_match(w, &block.chain_in, &block.chain_out, &states, c)
}

/// The first DV of the candidates for which the block with expanded words
/// `w`, compressed from `chain_in` to `chain_out` through `states`, has a
/// colliding partner (scalar recompression).
pub(crate) fn first_match(
    w: &[u32; 80],
    chain_in: &[u32; 5],
    chain_out: &[u32; 5],
    states: &TestStates,
    c: Candidates,
) -> Option<DisturbanceVector> {
    dvs_of(c.mask).find(|&dv| {
        let (in2, out2) = recompress(dv.row(), w, states.of(dv.row()));
        out2 == *chain_out || (c.reduced_round && in2 == *chain_in)
    })
}

/// The report of block `block` at byte `offset`, found to be half of a
/// collision on DV `dv` from the chaining value `chain`: recomputed in
/// scalar from the block, as it is built only for a detected collision.
pub(crate) fn collision_block(
    offset: u64,
    dv: DisturbanceVector,
    chain: [u32; 5],
    block: &Block,
) -> CollisionBlock {
    let words = expand(block);
    let d = dv.row();
    let mut shared = chain;
    steps_forward(&mut shared, 0, d.test_step, |t| words[t]);
    let (partner_chain, _) = recompress(d, &words, shared);
    CollisionBlock {
        offset,
        dv,
        chain,
        partner_chain,
        words,
        partner_words: core::array::from_fn(|t| words[t] ^ d.dm[t]),
    }
}

/// The DVs of `mask` (bit i: DV i), lowest (first in table order) first.
pub(crate) fn dvs_of(mask: u32) -> impl Iterator<Item = DisturbanceVector> {
    let mut rest = mask;
    core::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            DisturbanceVector::from_index(i)
        })
    })
}

/// The partner's input and output chaining values: from the state before
/// the DV's test step, steps back to the start and forward to the end with
/// the partner's message words.
pub(crate) fn recompress(dv: &Dv, w: &[u32; 80], state: State) -> ([u32; 5], [u32; 5]) {
    // Each test step its own copy: constant loop bounds, unrolled, no
    // bounds checks on the message words.
    match dv.test_step {
        58 => recompress_from(58, dv, w, state),
        65 => recompress_from(65, dv, w, state),
        t0 => recompress_from(t0, dv, w, state),
    }
}

#[inline(always)]
fn recompress_from(t0: usize, dv: &Dv, w: &[u32; 80], state: State) -> ([u32; 5], [u32; 5]) {
    let word = |t: usize| w[t] ^ dv.dm[t];
    let mut back = state;
    steps_backward(&mut back, 0, t0, word);
    let mut fwd = state;
    steps_forward(&mut fwd, t0, 80, word);
    let mut out = back;
    for (o, x) in out.iter_mut().zip(fwd) {
        *o = o.wrapping_add(x);
    }
    (back, out)
}
