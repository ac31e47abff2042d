//! Detection over the SHA-NI rounds: the rounds keep the state before step
//! 60 and store the schedule mirrored as they expand it (observers between
//! their quarters), and a candidate's DVs are tested with the SHA-NI rounds
//! themselves ([`partner_matches`]). A wide per-block filter never runs
//! inside the legacy-SSE SHA rounds: 256- or 512-bit code next to them
//! without a call boundary leaves the upper state dirty and costs several
//! times the rounds.

use core::arch::x86_64::*;

use super::recompress::{TestStates, dvs_of, first_match};
use super::{Candidates, Compressed, KeepingRounds, Rounds};
use crate::block::{Block, Mirrored};
use crate::compress::x86_sha::{Observer, block_rounds, load, schedule, state_of, store};
use crate::compress::{State, step, unstep};
use crate::dv::DVS;
use crate::filter::per_block::{mask4, mask8};

/// Keeps the working state before step 60.
struct Before60<'a>(&'a mut State);

impl Observer for Before60<'_> {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, abcd: __m128i, prev: __m128i) {
        if Q == 2 {
            // SAFETY: the caller's features (SSE4.1).
            *self.0 = unsafe { state_of(abcd, prev) };
        }
    }
}

/// Keeps the state before step 60 and stores each group of schedule words
/// as the rounds expand it. (Expanding the whole schedule first, so the
/// filter's loads need not wait for the rounds, measured slower.)
struct Record<'a> {
    schedule: &'a mut Mirrored,
    before_60: State,
}

impl Observer for Record<'_> {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, abcd: __m128i, prev: __m128i) {
        if Q == 2 {
            // SAFETY: the caller's features (SSE4.1).
            self.before_60 = unsafe { state_of(abcd, prev) };
        }
    }

    #[inline(always)]
    unsafe fn words(&mut self, i: usize, v: __m128i) {
        let at = self.schedule.group_mut(i);
        // SAFETY: SSE2 (the caller's); `at` is four writable words and
        // storeu takes any alignment.
        unsafe { _mm_storeu_si128(at.as_mut_ptr().cast(), v) }
    }
}

/// The SHA-NI rounds (src/compress/x86_sha.rs).
pub(super) struct ShaNi;

impl Rounds for ShaNi {
    #[inline(always)]
    unsafe fn compress(chain: &mut [u32; 5], block: &Block) -> (Compressed, [u32; 80]) {
        let chain_in = *chain;
        let mut before_60 = [0u32; 5];
        // SAFETY (whole body): the caller checked the CPU.
        unsafe {
            let (mut abcd, mut e) = load(chain);
            block_rounds(&mut abcd, &mut e, block, &mut Before60(&mut before_60));
            store(abcd, e, chain);
            let compressed = Compressed {
                chain_in,
                chain_out: *chain,
                before_60,
            };
            (compressed, schedule(block))
        }
    }

    #[inline(always)]
    unsafe fn test(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<usize> {
        // SAFETY: the caller checked the CPU.
        unsafe { test_schedule(block, w, c) }
    }
}

impl KeepingRounds for ShaNi {
    /// `abcd` and `e` (src/compress/x86_sha.rs).
    type Chain = (__m128i, __m128i);
    type Schedule = Mirrored;

    #[inline(always)]
    unsafe fn load(chain: &[u32; 5]) -> Self::Chain {
        // SAFETY: the caller checked the CPU.
        unsafe { load(chain) }
    }

    #[inline(always)]
    unsafe fn store((abcd, e): Self::Chain) -> [u32; 5] {
        let mut chain = [0u32; 5];
        // SAFETY: the caller checked the CPU.
        unsafe { store(abcd, e, &mut chain) };
        chain
    }

    #[inline(always)]
    unsafe fn block(chain: &mut Self::Chain, block: &Block, schedule: &mut Mirrored) -> State {
        let mut record = Record {
            schedule,
            before_60: [0; 5],
        };
        // SAFETY: the caller checked the CPU.
        unsafe { block_rounds(&mut chain.0, &mut chain.1, block, &mut record) };
        record.before_60
    }

    #[inline(always)]
    unsafe fn test_stored(block: &Compressed, schedule: &Mirrored, c: Candidates) -> Option<usize> {
        // SAFETY: the caller checked the CPU.
        unsafe { test_mirrored(block, schedule, c) }
    }
}

/// [`test_schedule`] of a schedule the rounds stored mirrored, put in order
/// here, out of the loop that stored it (inline, the loop kept every
/// schedule vector in registers for it and spilled them all).
#[cold]
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn test_mirrored(block: &Compressed, schedule: &Mirrored, c: Candidates) -> Option<usize> {
    // SAFETY: the caller checked the CPU.
    unsafe { test_schedule(block, &schedule.words(), c) }
}

/// [`super::compress_candidate`] with the SHA-NI rounds.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn compress_candidate(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<usize> {
    // SAFETY: the caller checked the CPU.
    unsafe { super::compress_and_test::<ShaNi>(chain, block, c) }
}

/// [`super::test_candidate`] with the SHA-NI rounds: the schedule by their
/// vector recurrence.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn test_candidate(
    compressed: &Compressed,
    block: &Block,
    c: Candidates,
) -> Option<usize> {
    // SAFETY: the caller checked the CPU.
    unsafe { test_schedule(compressed, &schedule(block), c) }
}

/// Detection one block at a time with the 4-lane SSE2 per-block filter,
/// inline: 128-bit, it runs beside the legacy-SSE rounds of the next block
/// (nothing waits for it but a branch).
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn detect_sse2(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
) -> Option<(usize, usize)> {
    // SAFETY: the caller checked the CPU.
    unsafe {
        super::detect_blocks::<ShaNi>(chain, blocks, reduced_round, |s| {
            mask4::<__m128i, Mirrored>(s)
        })
    }
}

/// Detection one block at a time with the 8-lane AVX2 per-block filter
/// behind a call (its `vzeroupper` on return keeps the SHA instructions
/// clean).
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3, SSE4.1 and AVX2.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(super) unsafe fn detect_avx2(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
) -> Option<(usize, usize)> {
    // SAFETY: the caller checked the CPU.
    unsafe { super::detect_blocks::<ShaNi>(chain, blocks, reduced_round, |s| mask8_avx2(s)) }
}

#[inline(never)]
#[target_feature(enable = "avx2")]
unsafe fn mask8_avx2(s: &Mirrored) -> u32 {
    // SAFETY: the caller checked AVX2.
    unsafe { mask8::<__m256i, Mirrored>(s) }
}

/// The test of a compressed candidate whose schedule is `w`: the test
/// states a few scalar steps from the state before step 60, each candidate
/// DV with the SHA-NI rounds ([`partner_matches`]); reduced-round detection
/// needs the partner's input chaining value, so it takes the scalar
/// recompression. Out of line: about one block in twenty comes here, and
/// the loops that call it keep their registers.
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn test_schedule(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<usize> {
    let states = TestStates::from_before_60(block.before_60, w);
    if c.reduced_round {
        return first_match(w, &block.chain_in, &block.chain_out, &states, c);
    }
    // SAFETY: the caller checked the CPU.
    dvs_of(c.mask).find(|&i| unsafe { partner_matches(i, w, &states, &block.chain_out) })
}

/// Whether the partner of DV `i` collides: from the shared state at the
/// DV's test step, the partner is stepped in scalar to the nearest group
/// boundary B (60 or 64), run forward with the SHA-NI rounds to step 80,
/// which fixes the only input chaining value that could give this block's
/// output; the rounds from that input must arrive at the same state at B.
/// (The steps are a bijection, so this is the reference's test, run
/// forward: SHA-NI has no inverse rounds.)
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn partner_matches(
    i: usize,
    w: &[u32; 80],
    states: &TestStates,
    chain_out: &[u32; 5],
) -> bool {
    let dv = &DVS[i];
    let word = |t: usize| w[t] ^ dv.dm[t];
    // The partner's state at the boundary, and the boundary's group.
    let (at, first_group) = if dv.test_step == 58 {
        let mut s = states.before_58;
        step(58, &mut s, word(58));
        step(59, &mut s, word(59));
        (s, 15)
    } else {
        let mut s = states.before_65;
        unstep(64, &mut s, word(64));
        (s, 16)
    };
    let partner = Partner { w, dm: &dv.dm };
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let abcd_of =
            |s: &[u32; 5]| _mm_set_epi32(s[0] as i32, s[1] as i32, s[2] as i32, s[3] as i32);
        let e_after = |held: __m128i| {
            _mm_extract_epi32::<3>(_mm_sha1nexte_epu32(held, _mm_setzero_si128())) as u32
        };
        // Out to step 80: the input chaining value is the output less that state.
        let (abcd80, held) = partner.groups(abcd_of(&at), at[4], first_group, 20);
        let abcd_in = _mm_sub_epi32(abcd_of(chain_out), abcd80);
        let e_in = chain_out[4].wrapping_sub(e_after(held));
        // In from there, to the boundary.
        let (abcd_b, held) = partner.groups(abcd_in, e_in, 0, first_group);
        let same = _mm_movemask_epi8(_mm_cmpeq_epi32(abcd_b, abcd_of(&at))) == 0xffff;
        same && e_after(held) == at[4]
    }
}

/// The partner block's message: the block's words xor the DV's difference.
struct Partner<'a> {
    w: &'a [u32; 80],
    dm: &'a [u32; 80],
}

impl Partner<'_> {
    /// Words `4g..4g + 4`, the first in the top lane.
    #[inline(always)]
    unsafe fn words(&self, g: usize) -> __m128i {
        let (w, dm) = (&self.w[4 * g..4 * g + 4], &self.dm[4 * g..4 * g + 4]);
        // SAFETY: SSE2 (the caller's); each load reads four words of a
        // slice of four, and loadu takes any alignment.
        unsafe {
            let x = _mm_xor_si128(
                _mm_loadu_si128(w.as_ptr().cast()),
                _mm_loadu_si128(dm.as_ptr().cast()),
            );
            _mm_shuffle_epi32::<0x1b>(x)
        }
    }

    /// Groups `from..to` of rounds from `abcd` and `e`: returns `abcd` and
    /// the `abcd` before the last group.
    #[inline(always)]
    unsafe fn groups(
        &self,
        mut abcd: __m128i,
        e: u32,
        from: usize,
        to: usize,
    ) -> (__m128i, __m128i) {
        // SAFETY (whole body): the caller's features (SHA, SSE4.1).
        unsafe {
            let mut held = abcd;
            let mut live = _mm_add_epi32(_mm_set_epi32(e as i32, 0, 0, 0), self.words(from));
            for g in from..to {
                if g > from {
                    live = _mm_sha1nexte_epu32(held, self.words(g));
                }
                held = abcd;
                abcd = match g / 5 {
                    0 => _mm_sha1rnds4_epu32::<0>(abcd, live),
                    1 => _mm_sha1rnds4_epu32::<1>(abcd, live),
                    2 => _mm_sha1rnds4_epu32::<2>(abcd, live),
                    _ => _mm_sha1rnds4_epu32::<3>(abcd, live),
                };
            }
            (abcd, held)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::expand;
    use crate::compress::steps_forward;
    use crate::compress::x86_sha::{block_rounds, load, schedule, store};
    use crate::detect::recompress::recompress;
    use crate::splitmix::SplitMix64;

    fn has_sha_ni() -> bool {
        let yes = std::arch::is_x86_feature_detected!("sha")
            && std::arch::is_x86_feature_detected!("sse4.1")
            && std::arch::is_x86_feature_detected!("ssse3");
        if !yes {
            println!("skipped: this CPU lacks SHA-NI");
        }
        yes
    }

    /// For every DV, on random blocks and chaining values: the vector
    /// schedule and the state kept from the SHA-NI rounds are the scalar
    /// ones, and the SHA-NI partner test
    /// accepts exactly the output the scalar recompression computes, and
    /// not one a bit away from it.
    #[test]
    fn partner_test_agrees_with_scalar_recompression() {
        if !has_sha_ni() {
            return;
        }
        let mut rng = SplitMix64(0x5ba1);
        for round in 0..300 {
            let mut block = [0u8; 64];
            rng.fill(&mut block);
            let chain_in: [u32; 5] = core::array::from_fn(|_| rng.next_u64() as u32);
            let w = expand(&block);
            // SAFETY: SHA-NI checked above.
            assert_eq!(unsafe { schedule(&block) }, w, "round {round}");
            let mut want_60 = chain_in;
            steps_forward(&mut want_60, 0, 60, |t| w[t]);
            let mut before_60 = [0u32; 5];
            let mut chain = chain_in;
            // SAFETY: SHA-NI checked above.
            unsafe {
                let (mut abcd, mut e) = load(&chain);
                block_rounds(&mut abcd, &mut e, &block, &mut Before60(&mut before_60));
                store(abcd, e, &mut chain);
            }
            assert_eq!(before_60, want_60, "round {round}");
            let states = TestStates::from_before_60(before_60, &w);
            for (i, dv) in DVS.iter().enumerate() {
                let at = if dv.test_step == 58 {
                    states.before_58
                } else {
                    states.before_65
                };
                let (_, out2) = recompress(dv, &w, at);
                let mut off = out2;
                off[round % 5] ^= 1 << (round % 32);
                // SAFETY: SHA-NI checked above.
                unsafe {
                    assert!(
                        partner_matches(i, &w, &states, &out2),
                        "DV {i}, round {round}"
                    );
                    assert!(
                        !partner_matches(i, &w, &states, &off),
                        "DV {i}, round {round}"
                    );
                }
            }
        }
    }
}
