//! Recompression: the check that decides whether a block the filter let
//! through really is part of a collision.
//!
//! For a candidate DV, the partner block is this block's expanded message
//! xor the DV's message difference; both blocks share the working state
//! before the DV's test step (58 or 65). From that state the partner is run
//! back to its input chaining value and forward to its output: the block is
//! half of a collision when the partner's output equals this block's (or,
//! for reduced-round detection, when its input does).
//!
//! Every backend brings its own `compress_flagged` (a [`CompressFlagged`])
//! and `test_flagged` (a [`TestFlagged`], for a block already compressed):
//! each compressor keeps the working state before step 60 ([`Kept`]), from
//! which the two test states are a few scalar steps away; the scalar test
//! is here, and SHA-NI tests candidates with its own rounds
//! (compress/x86_sha.rs).

use crate::block::{Block, expand};
use crate::compress::{State, steps_backward, steps_forward};
use crate::dv::{DVS, DisturbanceVector, Dv};
use crate::outcome::CollisionBlock;

/// The DVs to test for one block, and how.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidates {
    /// Bit i: DV i passed the filter.
    pub mask: u32,
    /// Also flag a partner that starts from the same input chaining value.
    pub reduced_round: bool,
}

/// Compresses `block` into `chain` and returns the first DV of the
/// candidates (in table order, as the reference) for which the block is
/// half of a collision.
pub(crate) type CompressFlagged = fn(&mut [u32; 5], &Block, Candidates) -> Option<usize>;

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

/// What a compression keeps of a block the filter let through: its input
/// and output chaining values and the working state before step 60.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kept {
    pub chain_in: [u32; 5],
    pub chain_out: [u32; 5],
    pub before_60: State,
}

/// Tests the candidates of a block already compressed (see [`Kept`]):
/// the first DV for which it is half of a collision.
pub(crate) type TestFlagged = fn(&Kept, &Block, Candidates) -> Option<usize>;

/// The scalar [`CompressFlagged`], for every target: the compression keeps
/// the state before step 60 on its way through the 80 steps.
pub(crate) fn compress_flagged(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<usize> {
    let w = expand(block);
    let chain_in = *chain;
    let mut s = chain_in;
    steps_forward(&mut s, 0, 60, |t| w[t]);
    let before_60 = s;
    steps_forward(&mut s, 60, 80, |t| w[t]);
    for (h, x) in chain.iter_mut().zip(s) {
        *h = h.wrapping_add(x);
    }
    let kept = Kept {
        chain_in,
        chain_out: *chain,
        before_60,
    };
    test_with_schedule(&kept, &w, c)
}

/// Compresses `blocks` into `chain` with detection one block at a time, in
/// plain Rust: the schedule expanded once, read by the 80 steps and by the
/// per-block filter `mask` (src/filter/per_block.rs), and a block it lets
/// through tested from the states kept on the way. Stops after the first
/// block found to be half of a collision: returns its index and DV, `chain`
/// then being the plain output chain after it (see
/// [`PerBlock`](crate::backend::PerBlock)).
#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn detect_blocks(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
    mask: impl Fn(&[u32; 80]) -> u32,
) -> Option<(usize, usize)> {
    let mut w = [0u32; 80];
    for (i, block) in blocks.iter().enumerate() {
        let chain_in = *chain;
        let before_60 = crate::compress::portable::compress_keeping(chain, block, &mut w);
        let mask = mask(&w);
        if mask != 0 {
            let kept = Kept {
                chain_in,
                chain_out: *chain,
                before_60,
            };
            let c = Candidates {
                mask,
                reduced_round,
            };
            if let Some(dv) = test_with_schedule(&kept, &w, c) {
                return Some((i, dv));
            }
        }
    }
    None
}

/// The scalar [`TestFlagged`].
pub(crate) fn test_flagged(kept: &Kept, block: &Block, c: Candidates) -> Option<usize> {
    test_with_schedule(kept, &expand(block), c)
}

fn test_with_schedule(kept: &Kept, w: &[u32; 80], c: Candidates) -> Option<usize> {
    let states = TestStates::from_before_60(kept.before_60, w);
    first_match(w, &kept.chain_in, &kept.chain_out, &states, c)
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
) -> Option<usize> {
    dvs_of(c.mask).find(|&i| {
        let (in2, out2) = recompress(&DVS[i], w, states.of(&DVS[i]));
        out2 == *chain_out || (c.reduced_round && in2 == *chain_in)
    })
}

/// The report of block `block` at byte `offset`, found to be half of a
/// collision on DV `dv` from the chaining value `chain`: recomputed in
/// scalar from the block, as it is built only for a detected collision.
pub(crate) fn collision_block(
    offset: u64,
    dv: usize,
    chain: [u32; 5],
    block: &Block,
) -> CollisionBlock {
    let words = expand(block);
    let d = &DVS[dv];
    let mut shared = chain;
    steps_forward(&mut shared, 0, d.test_step, |t| words[t]);
    let (partner_chain, _) = recompress(d, &words, shared);
    CollisionBlock {
        offset,
        dv: DisturbanceVector::from_index(dv),
        chain,
        partner_chain,
        words,
        partner_words: core::array::from_fn(|t| words[t] ^ d.dm[t]),
    }
}

/// The DV indices of `mask`, lowest (first in table order) first.
pub(crate) fn dvs_of(mask: u32) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    core::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::{IV, compress_expanded};

    fn words(s: &str) -> Vec<u32> {
        s.split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).unwrap())
            .collect()
    }

    fn five(s: &str) -> [u32; 5] {
        words(s).try_into().expect("five words")
    }

    /// Each entry of RECOMPRESSION_KAT.txt: the block's expanded message,
    /// compression, derived states, filter mask, and the partner's values.
    #[test]
    fn recompression_known_answers() {
        let text = include_str!("../tests/data/RECOMPRESSION_KAT.txt");
        let mut checked = 0;
        for entry in text.split("\n\n").filter(|e| e.starts_with("file=")) {
            let field = |key: &str| -> &str {
                let line = entry
                    .lines()
                    .find(|l| l.starts_with(key))
                    .unwrap_or_else(|| panic!("{key}"));
                line.split_once("= ")
                    .unwrap()
                    .1
                    .split("   (")
                    .next()
                    .unwrap()
            };
            let header = entry.lines().next().unwrap();
            let file = header
                .split_whitespace()
                .next()
                .unwrap()
                .trim_start_matches("file=");
            let block_index: usize = header
                .split("block=")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let data =
                std::fs::read(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let block: Block = data[block_index * 64..block_index * 64 + 64]
                .try_into()
                .unwrap();

            // The chaining value before the block, by plain SHA-1 of the prefix.
            let mut ihv_in = IV;
            for b in data[..block_index * 64].chunks_exact(64) {
                compress_expanded(&mut ihv_in, &expand(b.try_into().unwrap()));
            }
            assert_eq!(ihv_in, five(field("ihv_in")), "{file}");
            let w = expand(&block);
            let w_text: String = entry.lines().skip(4).take(10).collect::<Vec<_>>().join(" ");
            assert_eq!(w.to_vec(), words(&w_text), "{file}: expanded message");
            let mut ihv_out = ihv_in;
            compress_expanded(&mut ihv_out, &w);
            assert_eq!(ihv_out, five(field("ihv_out")), "{file}");

            // The reference names its registers a..e by a scheme that rotates
            // one place per step, so its tuple before step t is ours rotated
            // by t mod 5.
            let mut before_60 = ihv_in;
            steps_forward(&mut before_60, 0, 60, |t| w[t]);
            let states = TestStates::from_before_60(before_60, &w);
            for (t, key) in [(58, "state_before_step58"), (65, "state_before_step65")] {
                let mut s = if t == 58 {
                    states.before_58
                } else {
                    states.before_65
                };
                s.rotate_left(t % 5);
                assert_eq!(s, five(field(key)), "{file}: {key}");
            }

            let mut mask = [0u32];
            crate::filter::scalar_masks(core::slice::from_ref(&block), &mut mask);
            assert_eq!(
                mask[0],
                u32::from_str_radix(field("ubc_dvmask"), 16).unwrap(),
                "{file}"
            );

            let dv = DVS
                .iter()
                .position(|d| d.k == 52 && d.b == 0 && d.kind == crate::dv::DvKind::II)
                .unwrap();
            let (in2, out2) = recompress(&DVS[dv], &w, states.before_65);
            assert_eq!(in2, five(field("recompressed ihv2_in")), "{file}");
            assert_eq!(out2, five(field("recompressed ihv2_out")), "{file}");

            let full = entry.contains("full_collision(ihv2_out==ihv_out)=1");
            let reduced = entry.contains("reduced_round(ihv2_in==ihv_in)=1");
            assert_eq!(out2 == ihv_out, full, "{file}");
            assert_eq!(in2 == ihv_in, reduced, "{file}");
            for reduced_round in [false, true] {
                let c = Candidates {
                    mask: mask[0],
                    reduced_round,
                };
                let want = (full || reduced_round).then_some(dv);
                assert_eq!(
                    first_match(&w, &ihv_in, &ihv_out, &states, c),
                    want,
                    "{file}"
                );
                // Every backend's own compress-and-check agrees, and
                // compresses as plain SHA-1 does.
                for name in crate::available_backends() {
                    let backend = crate::backend::Backend::by_name(name).unwrap();
                    let mut chain = ihv_in;
                    let got = (backend.compress_flagged)(&mut chain, &block, c);
                    assert_eq!(
                        (got, chain),
                        (want, ihv_out),
                        "{file}: {name} rr={reduced_round}"
                    );
                }
            }
            checked += 1;
        }
        assert_eq!(checked, 5, "entries in RECOMPRESSION_KAT.txt");
    }
}
