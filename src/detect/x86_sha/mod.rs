//! Detection over the SHA-NI rounds: the rounds keep the state before step
//! 60 and store the schedule mirrored as they expand it (observers between
//! their quarters), and a candidate's DVs are tested with the SHA-NI rounds
//! themselves ([`partner_matches`]). A wide per-block filter never runs
//! inside the legacy-SSE SHA rounds: 256- or 512-bit code next to them
//! without a call boundary leaves the upper state dirty and costs several
//! times the rounds.

use core::arch::x86_64::*;

use super::interleaved::{InterleavedFilter, TestsBetweenGroups};
use super::recompress::{TestStates, dvs_of, first_match, partner_at_boundary, partner_before_64};
use super::{Candidates, Compressed, KeepingRounds, Rounds};
use crate::block::{Block, InOrder, Mirrored, Schedule};
use crate::compress::x86_sha::{Expand, Observer, block_rounds, load, schedule, state_of, store};
use crate::compress::{BetweenGroups, State};
use crate::dv::DisturbanceVector;
use crate::filter::per_block::INTERLEAVED;
use crate::filter::per_block::{Windows4, Windows8};
use crate::vector::Vector;

#[cfg(sha1dc_avx512)]
pub(crate) mod avx512;
#[cfg(test)]
mod tests;

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

/// Keeps the state before step 60, stores each group of schedule words
/// as the rounds expand it, and runs `beside` after storing each, held
/// between the groups of the rounds ([`Vector::hold`]). (Expanding the whole
/// schedule first, so the filter's loads need not wait for the rounds,
/// measured slower.)
struct KeepSchedule<'a, B> {
    schedule: &'a mut Mirrored,
    before_60: State,
    beside: &'a mut B,
}

impl<B: BetweenGroups> Observer for KeepSchedule<'_, B> {
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
        // SAFETY (both): SSE2 (the caller's); `at` is four writable words
        // and storeu takes any alignment; the caller guarantees what
        // `beside` needs.
        unsafe {
            _mm_storeu_si128(at.as_mut_ptr().cast(), v);
            self.beside.group(i);
        }
    }

    #[inline(always)]
    unsafe fn after_group(&mut self, _i: usize, abcd: &mut __m128i) {
        abcd.hold();
    }
}

/// The SHA-NI rounds (src/compress/x86_sha.rs), the schedule expanded by
/// `E`.
pub(crate) struct ShaNi<E>(core::marker::PhantomData<E>);

impl<E: Expand> Rounds for ShaNi<E> {
    #[inline(always)]
    unsafe fn compress(chain: &mut [u32; 5], block: &Block) -> (Compressed, [u32; 80]) {
        let chain_in = *chain;
        let mut before_60 = [0u32; 5];
        // SAFETY (whole body): the caller checked the CPU.
        unsafe {
            let (mut abcd, mut e) = load(chain);
            block_rounds::<E>(&mut abcd, &mut e, block, &mut Before60(&mut before_60));
            store(abcd, e, chain);
            let compressed = Compressed {
                chain_in,
                chain_out: *chain,
                before_60,
            };
            (compressed, schedule::<E>(block))
        }
    }

    #[inline(always)]
    unsafe fn test(block: &Compressed, w: &[u32; 80], c: Candidates) -> Option<DisturbanceVector> {
        // SAFETY: the caller checked the CPU.
        unsafe { test_schedule(block, &InOrder(*w), c) }
    }
}

impl<E: Expand> KeepingRounds for ShaNi<E> {
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
    unsafe fn block(
        chain: &mut Self::Chain,
        block: &Block,
        schedule: &mut Mirrored,
        beside: &mut impl BetweenGroups,
    ) -> State {
        let mut record = KeepSchedule {
            schedule,
            before_60: [0; 5],
            beside,
        };
        // SAFETY: the caller checked the CPU.
        unsafe { block_rounds::<E>(&mut chain.0, &mut chain.1, block, &mut record) };
        record.before_60
    }

    #[inline(always)]
    unsafe fn test_stored(
        block: &Compressed,
        schedule: &Mirrored,
        c: Candidates,
    ) -> Option<DisturbanceVector> {
        // SAFETY: the caller checked the CPU.
        unsafe { test_schedule(block, schedule, c) }
    }
}

impl<E: Expand> TestsBetweenGroups for ShaNi<E> {
    type Test = PartnerTest;

    #[inline(always)]
    unsafe fn test_between_groups(
        block: &Compressed,
        schedule: &Mirrored,
        dv: DisturbanceVector,
    ) -> PartnerTest {
        // SAFETY: the caller checked the CPU.
        unsafe { PartnerTest::new(block, schedule, dv) }
    }

    #[inline(always)]
    unsafe fn matched(test: &PartnerTest) -> bool {
        test.matched
    }
}

/// The 4-lane SSE2 filter beside the SHA-NI rounds.
pub(crate) struct Sse2Filter;

impl InterleavedFilter<Mirrored> for Sse2Filter {
    type V = __m128i;
    const INTERLEAVED: usize = INTERLEAVED;

    #[inline(always)]
    unsafe fn entry(k: usize, schedule: &Mirrored, killed: __m128i) -> __m128i {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { Windows4::entry::<__m128i, Mirrored>(k, schedule, killed) }
    }

    #[inline(always)]
    unsafe fn finish(schedule: &Mirrored, killed: __m128i) -> u32 {
        finish_sse2(schedule, killed)
    }

    #[inline(always)]
    unsafe fn alone(schedule: &Mirrored) -> u32 {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { Windows4::mask::<__m128i, Mirrored>(schedule) }
    }
}

/// The rest of the 4-lane table for the blocks its first entries left a
/// DV (one in five), out of the loop.
#[cold]
#[inline(never)]
fn finish_sse2(s: &Mirrored, killed: __m128i) -> u32 {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { Windows4::finish::<_, Mirrored, INTERLEAVED>(s, killed) }
}

/// The 8-lane per-block filter behind a call: its `vzeroupper` on return
/// keeps the SHA instructions clean.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn mask8_avx2(s: &Mirrored) -> u32 {
    // SAFETY: the caller checked AVX2.
    unsafe { Windows8::mask::<__m256i, Mirrored>(s) }
}

/// The test of a compressed candidate whose schedule is `s`: each
/// candidate DV with the SHA-NI rounds ([`partner_matches`]), from the
/// partner's state a few additions from the state before step 60;
/// reduced-round detection needs the partner's input chaining value, so
/// it takes the scalar recompression. Out of line: about one block in
/// twenty comes here, and the loops that call it keep their registers.
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) unsafe fn test_schedule<S: Schedule>(
    block: &Compressed,
    s: &S,
    c: Candidates,
) -> Option<DisturbanceVector> {
    if c.reduced_round {
        let w = s.words();
        let states = TestStates::from_before_60(block.before_60, &w);
        return first_match(&w, &block.chain_in, &block.chain_out, &states, c);
    }
    // SAFETY: the caller checked the CPU.
    dvs_of(c.mask).find(|&dv| unsafe { partner_matches(dv, s, &block.before_60, &block.chain_out) })
}

/// Whether the partner of DV `i` collides: from the partner's state at
/// the group boundary B (60 or 64) nearest the DV's test step, the SHA-NI
/// rounds run forward to step 80, which fixes the only input chaining
/// value that could give this block's output; the rounds from that input
/// must arrive at the same state at B ([`Partner::collides`]). (The steps
/// are a bijection, so this is the reference's test, run forward: SHA-NI
/// has no inverse rounds.)
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn partner_matches<S: Schedule>(
    dv: DisturbanceVector,
    s: &S,
    before_60: &State,
    chain_out: &[u32; 5],
) -> bool {
    let dv = dv.row();
    let (at, boundary) = partner_at_boundary(dv, before_60, |t| s.word(t));
    let partner = Partner { s, dm: &dv.dm };
    // SAFETY: the caller checked the CPU.
    unsafe {
        if boundary == 60 {
            partner.collides::<15>(&at, chain_out)
        } else {
            partner.collides::<16>(&at, chain_out)
        }
    }
}

/// The partner block's message: the block's words xor the DV's difference.
struct Partner<'a, S> {
    s: &'a S,
    dm: &'a [u32; 80],
}

impl<S: Schedule> Partner<'_, S> {
    /// Words `4g..4g + 4`, the first in the top lane: as a mirrored
    /// schedule stores them.
    #[inline(always)]
    unsafe fn words(&self, g: usize) -> __m128i {
        let at = S::index(4 * g, 4);
        let (w, dm) = (&self.s.stored()[at..at + 4], &self.dm[4 * g..4 * g + 4]);
        // SAFETY: SSE2 (the caller's); each load reads four words of a
        // slice of four, and loadu takes any alignment.
        unsafe {
            let (w, dm) = (
                _mm_loadu_si128(w.as_ptr().cast()),
                _mm_loadu_si128(dm.as_ptr().cast()),
            );
            if S::MIRRORED {
                _mm_xor_si128(w, _mm_shuffle_epi32::<0x1b>(dm))
            } else {
                _mm_shuffle_epi32::<0x1b>(_mm_xor_si128(w, dm))
            }
        }
    }

    /// Whether the partner, in state `at` before group `B`, gives the
    /// output `chain_out`: out to step 80, the input chaining value is the
    /// output less that state; in from there, the rounds must arrive at
    /// `at`. (A constant `B`, so both loops unroll.)
    #[inline(always)]
    unsafe fn collides<const B: usize>(&self, at: &State, chain_out: &[u32; 5]) -> bool {
        // SAFETY (whole body): the caller's features (SHA, SSE4.1).
        unsafe {
            let abcd_of =
                |s: &[u32; 5]| _mm_set_epi32(s[0] as i32, s[1] as i32, s[2] as i32, s[3] as i32);
            let e_after = |held: __m128i| {
                _mm_extract_epi32::<3>(_mm_sha1nexte_epu32(held, _mm_setzero_si128())) as u32
            };
            let (abcd80, held) = self.groups(abcd_of(at), at[4], B, 20);
            let abcd_in = _mm_sub_epi32(abcd_of(chain_out), abcd80);
            let e_in = chain_out[4].wrapping_sub(e_after(held));
            let (abcd_b, held) = self.groups(abcd_in, e_in, 0, B);
            let same = _mm_movemask_epi8(_mm_cmpeq_epi32(abcd_b, abcd_of(at))) == 0xffff;
            same && e_after(held) == at[4]
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

/// The test of one candidate DV beside the rounds of the next block
/// (src/detect/interleaved.rs): [`Partner::collides`] from the partner's state
/// before step 64, one group after each of the block's groups: out to step
/// 80 (the block's groups 0..4), then in from the input that fixes (4..20),
/// then the comparison. It holds the partner's message, so the schedule it
/// was read from can be written again, and its state stays in place
/// between the groups as the block's does.
pub(crate) struct PartnerTest {
    /// The partner's message words, four a group as [`Partner::words`]
    /// gives them.
    words: [__m128i; 20],
    /// The partner's state before step 64.
    at: State,
    chain_out: [u32; 5],
    abcd: __m128i,
    held: __m128i,
    /// Set by the last group.
    matched: bool,
}

impl PartnerTest {
    /// The test of DV `dv` for `block`, whose schedule is `s`.
    ///
    /// # Safety
    /// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
    #[inline(always)]
    unsafe fn new<S: Schedule>(block: &Compressed, s: &S, dv: DisturbanceVector) -> Self {
        let d = dv.row();
        let partner = Partner { s, dm: &d.dm };
        // SAFETY: the caller's features.
        unsafe {
            PartnerTest {
                words: core::array::from_fn(|g| partner.words(g)),
                at: partner_before_64(d, &block.before_60, |t| s.word(t)),
                chain_out: block.chain_out,
                abcd: _mm_setzero_si128(),
                held: _mm_setzero_si128(),
                matched: false,
            }
        }
    }
}

impl BetweenGroups for PartnerTest {
    #[inline(always)]
    unsafe fn group(&mut self, m: usize) {
        // SAFETY (whole body): the caller's features (SHA, SSE4.1).
        unsafe {
            let abcd_of =
                |s: &[u32; 5]| _mm_set_epi32(s[0] as i32, s[1] as i32, s[2] as i32, s[3] as i32);
            let e_after = |held: __m128i| {
                _mm_extract_epi32::<3>(_mm_sha1nexte_epu32(held, _mm_setzero_si128())) as u32
            };
            // The partner's group: 16..20, then 0..16.
            let g = (m + 16) % 20;
            let live = match m {
                0 => {
                    self.abcd = abcd_of(&self.at);
                    _mm_add_epi32(_mm_set_epi32(self.at[4] as i32, 0, 0, 0), self.words[g])
                }
                4 => {
                    // Out at step 80: the input that gives this output.
                    self.abcd = _mm_sub_epi32(abcd_of(&self.chain_out), self.abcd);
                    let e_in = self.chain_out[4].wrapping_sub(e_after(self.held));
                    _mm_add_epi32(_mm_set_epi32(e_in as i32, 0, 0, 0), self.words[g])
                }
                _ => _mm_sha1nexte_epu32(self.held, self.words[g]),
            };
            self.held = self.abcd;
            self.abcd = match g / 5 {
                0 => _mm_sha1rnds4_epu32::<0>(self.abcd, live),
                1 => _mm_sha1rnds4_epu32::<1>(self.abcd, live),
                2 => _mm_sha1rnds4_epu32::<2>(self.abcd, live),
                _ => _mm_sha1rnds4_epu32::<3>(self.abcd, live),
            };
            self.abcd.hold();
            if m == 19 {
                // In at step 64: the same state, or no collision.
                let same =
                    _mm_movemask_epi8(_mm_cmpeq_epi32(self.abcd, abcd_of(&self.at))) == 0xffff;
                self.matched = same && e_after(self.held) == self.at[4];
            }
        }
    }
}
