//! SHA-1 compression with the x86 SHA extensions (SHA-NI).
//!
//! The chaining value stays in two registers across all the blocks of a
//! call: `abcd` (a in the highest lane, as `sha1rnds4` wants it) and `e` (in
//! the highest lane of its own register). Message words four at a time, the
//! first in the highest lane.

use core::arch::x86_64::*;

use super::{Block, State, step, unstep};
use crate::dv::DVS;
use crate::recompress::{Candidates, Kept, TestStates, dvs_of, first_match};

/// Reverses the 16 bytes: big-endian words, first word in the top lane.
#[inline(always)]
unsafe fn reverse() -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f) }
}

/// The registers' chaining value as five words.
#[inline(always)]
pub(crate) unsafe fn store(abcd: __m128i, e: __m128i, ihv: &mut [u32; 5]) {
    // SAFETY: SSE4.1 (the caller's); `ihv` has 16 writable bytes first and
    // storeu takes any alignment.
    unsafe {
        _mm_storeu_si128(ihv.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(abcd));
        ihv[4] = _mm_extract_epi32::<3>(e) as u32;
    }
}

/// Five words as the registers' chaining value.
#[inline(always)]
pub(crate) unsafe fn load(ihv: &[u32; 5]) -> (__m128i, __m128i) {
    // SAFETY: SSE2; `ihv` has 16 readable bytes first, loadu takes any alignment.
    unsafe {
        let abcd = _mm_shuffle_epi32::<0x1b>(_mm_loadu_si128(ihv.as_ptr().cast()));
        (abcd, _mm_set_epi32(ihv[4] as i32, 0, 0, 0))
    }
}

/// Work that runs between the quarters of a block's rounds, so that it
/// sits between them in program order (the detecting compression keeps
/// the state before step 60 and stores the schedule this way).
pub(crate) trait Between {
    /// After quarter `Q` (0..4) of the rounds. For `Q` < 3, `abcd` and
    /// `prev` (the `abcd` four steps earlier) give the working state there
    /// (see [`state_of`]).
    unsafe fn after_quarter<const Q: usize>(&mut self, abcd: __m128i, prev: __m128i);

    /// Schedule words `4i..4i+4` (the first in the top lane), as they are
    /// expanded.
    #[inline(always)]
    unsafe fn words(&mut self, _i: usize, _v: __m128i) {}
}

/// Nothing between the quarters.
impl Between for () {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, _: __m128i, _: __m128i) {}
}

/// Keeps the working state before step 60.
struct Before60<'a>(&'a mut State);

impl Between for Before60<'_> {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, abcd: __m128i, prev: __m128i) {
        if Q == 2 {
            // SAFETY: the caller's features (SSE4.1).
            *self.0 = unsafe { state_of(abcd, prev) };
        }
    }
}

/// Schedule words `4i..4i+4` (the first in the top lane), `i` >= 4, from
/// the vectors before: words 16..32 with the SHA message instructions,
/// words 32..80 by the equivalent recurrence
/// W[t] = (W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) <<< 2 in plain SSE, four
/// words at a time: `sha1msg2` is microcoded on some CPUs (Sapphire
/// Rapids) and stalls the front end, so it runs four times a block, not 16.
/// Inlined with a constant `i`.
#[inline(always)]
unsafe fn schedule_words(i: usize, v: &[__m128i; 20]) -> __m128i {
    // SAFETY: the caller's features (SHA, SSSE3).
    unsafe {
        if i < 8 {
            _mm_sha1msg2_epu32(
                _mm_xor_si128(_mm_sha1msg1_epu32(v[i - 4], v[i - 3]), v[i - 2]),
                v[i - 1],
            )
        } else {
            let y = _mm_xor_si128(
                _mm_xor_si128(_mm_alignr_epi8::<8>(v[i - 2], v[i - 1]), v[i - 4]),
                _mm_xor_si128(v[i - 7], v[i - 8]),
            );
            _mm_or_si128(_mm_slli_epi32::<2>(y), _mm_srli_epi32::<30>(y))
        }
    }
}

/// The 80 schedule words of `block`, by the rounds' own vector recurrence.
#[inline(always)]
unsafe fn schedule(block: &Block) -> [u32; 80] {
    // SAFETY: the caller's features; a block is 64 readable bytes, and each
    // store writes four words inside the 80.
    unsafe {
        let mut v = [_mm_setzero_si128(); 20];
        for (k, x) in v.iter_mut().take(4).enumerate() {
            *x = _mm_shuffle_epi8(
                _mm_loadu_si128(block.as_ptr().add(16 * k).cast()),
                reverse(),
            );
        }
        for i in 4..20 {
            v[i] = schedule_words(i, &v);
        }
        let mut w = [0u32; 80];
        for (k, x) in v.iter().enumerate() {
            _mm_storeu_si128(
                w[4 * k..4 * k + 4].as_mut_ptr().cast(),
                _mm_shuffle_epi32::<0x1b>(*x),
            );
        }
        w
    }
}

/// One block's 80 rounds, the chaining value in `abcd` and `e`, with
/// `between` after each quarter.
#[inline(always)]
pub(crate) unsafe fn block_rounds(
    abcd: &mut __m128i,
    e: &mut __m128i,
    block: &Block,
    between: &mut impl Between,
) {
    // SAFETY (whole body): the caller guarantees SHA, SSSE3 and SSE4.1; a
    // block is 64 readable bytes and loadu takes any alignment.
    unsafe {
        let words = |i: usize| {
            _mm_shuffle_epi8(
                _mm_loadu_si128(block.as_ptr().add(16 * i).cast()),
                reverse(),
            )
        };
        let (abcd0, e0) = (*abcd, *e);
        // v[k]: words 4k..4k+4, the first in the top lane.
        let mut v = [_mm_setzero_si128(); 20];
        v[..4].copy_from_slice(&[words(0), words(1), words(2), words(3)]);
        between.words(0, v[0]);
        // Before rounds 4i..4i+4: the previous `abcd` gives the e of these
        // rounds (its a rotated by 30), plus the message words.
        let mut prev = *abcd;
        let mut x = _mm_add_epi32(*e, v[0]);
        *abcd = _mm_sha1rnds4_epu32::<0>(*abcd, x);
        macro_rules! group {
            ($i:literal, $f:literal) => {
                if $i >= 4 {
                    v[$i] = schedule_words($i, &v);
                }
                between.words($i, v[$i]);
                x = _mm_sha1nexte_epu32(prev, v[$i]);
                prev = *abcd;
                *abcd = _mm_sha1rnds4_epu32::<$f>(*abcd, x);
            };
        }
        group!(1, 0);
        group!(2, 0);
        group!(3, 0);
        group!(4, 0);
        between.after_quarter::<0>(*abcd, prev);
        group!(5, 1);
        group!(6, 1);
        group!(7, 1);
        group!(8, 1);
        group!(9, 1);
        between.after_quarter::<1>(*abcd, prev);
        group!(10, 2);
        group!(11, 2);
        group!(12, 2);
        group!(13, 2);
        group!(14, 2);
        between.after_quarter::<2>(*abcd, prev);
        group!(15, 3);
        group!(16, 3);
        group!(17, 3);
        group!(18, 3);
        group!(19, 3);
        *e = _mm_sha1nexte_epu32(prev, e0);
        *abcd = _mm_add_epi32(*abcd, abcd0);
        between.after_quarter::<3>(*abcd, prev);
    }
}

/// Compresses `blocks` into `ihv`.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) unsafe fn compress_blocks(ihv: &mut [u32; 5], blocks: &[Block]) {
    // SAFETY: the caller checked the CPU.
    unsafe {
        let (mut abcd, mut e) = load(ihv);
        for b in blocks {
            block_rounds(&mut abcd, &mut e, b, &mut ());
        }
        store(abcd, e, ihv);
    }
}

/// The working state `[a, b, c, d, e]` between two groups of four rounds:
/// `abcd` as the rounds hold it, and `prev`, the `abcd` of four steps
/// earlier, whose a rotated by 30 is this e.
#[inline(always)]
unsafe fn state_of(abcd: __m128i, prev: __m128i) -> State {
    // SAFETY: SSE2 and SSE4.1 (the caller's).
    unsafe {
        let mut s = [0u32; 5];
        _mm_storeu_si128(s.as_mut_ptr().cast(), _mm_shuffle_epi32::<0x1b>(abcd));
        s[4] = (_mm_extract_epi32::<3>(prev) as u32).rotate_left(30);
        s
    }
}

/// What the detecting compression keeps of each block: its 80 schedule
/// words, mirrored (word t at 79 - t: the rounds' vectors stored as they
/// are, first word in the top lane), which the filter and a flagged block's
/// test read, and the working state before step 60.
///
/// Each group of words is stored as the rounds expand it. (Expanding the
/// whole schedule first, so the filter's loads need not wait for the
/// rounds, measured slower: 0.54x plain SHA-1 against 0.76x.)
struct Keep {
    w: [u32; 80],
    before_60: State,
}

impl Between for Keep {
    #[inline(always)]
    unsafe fn after_quarter<const Q: usize>(&mut self, abcd: __m128i, prev: __m128i) {
        if Q == 2 {
            // SAFETY: the caller's features (SSE4.1).
            self.before_60 = unsafe { state_of(abcd, prev) };
        }
    }

    #[inline(always)]
    unsafe fn words(&mut self, i: usize, v: __m128i) {
        // SAFETY: SSE2 (the caller's); words 76 - 4i..80 - 4i lie inside
        // the 80.
        unsafe {
            let at: &mut [u32; 4] = (&mut self.w[76 - 4 * i..80 - 4 * i]).try_into().unwrap();
            _mm_storeu_si128(at.as_mut_ptr().cast(), v);
        }
    }
}

/// Compresses `blocks` into `chain` with collision detection, one block at
/// a time: the SHA-NI rounds store the schedule as they expand it, the
/// per-block filter reads it (128-bit, so it can run beside the legacy-SSE
/// rounds of the next block: nothing waits for it but a branch), and a
/// block the filter lets through is tested from the states the rounds kept.
/// Stops after the first block found to be half of a collision: returns
/// its index and DV, `chain` then being the plain output chain after it.
///
/// `mask` is the per-block filter (src/filter/per_block.rs), inline for the
/// 128-bit form, behind a call for a wider one.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1 (the caller's target
/// features, this being inlined), and whatever `mask` needs.
#[inline(always)]
pub(crate) unsafe fn compress_detect(
    chain: &mut [u32; 5],
    blocks: &[Block],
    reduced_round: bool,
    mask: impl Fn(&[u32; 80]) -> u32,
) -> Option<(usize, usize)> {
    let mut keep = Keep {
        w: [0; 80],
        before_60: [0; 5],
    };
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let (mut abcd, mut e) = load(chain);
        for (i, block) in blocks.iter().enumerate() {
            let (abcd_in, e_in) = (abcd, e);
            block_rounds(&mut abcd, &mut e, block, &mut keep);
            let mask = mask(&keep.w);
            if mask != 0 {
                let mut kept = Kept {
                    chain_in: [0; 5],
                    chain_out: [0; 5],
                    before_60: keep.before_60,
                };
                store(abcd_in, e_in, &mut kept.chain_in);
                store(abcd, e, &mut kept.chain_out);
                let c = Candidates {
                    mask,
                    reduced_round,
                };
                let w = core::array::from_fn(|t| keep.w[79 - t]);
                if let Some(dv) = test_schedule(&kept, &w, c) {
                    *chain = kept.chain_out;
                    return Some((i, dv));
                }
            }
        }
        store(abcd, e, chain);
    }
    None
}

/// Compresses one block the filter let through and tests its candidates:
/// the state before step 60 is kept from the rounds (a quarter boundary),
/// the test states before 58 and 65 are two steps back and five forward
/// from it, and each candidate is tested with the SHA-NI rounds
/// ([`partner_matches`]). Reduced-round detection needs the partner's input
/// chaining value, so it takes the scalar recompression.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) unsafe fn compress_flagged(
    chain: &mut [u32; 5],
    block: &Block,
    c: Candidates,
) -> Option<usize> {
    let chain_in = *chain;
    let mut before_60 = [0u32; 5];
    // SAFETY (whole body): the caller checked the CPU.
    unsafe {
        let (mut abcd, mut e) = load(chain);
        block_rounds(&mut abcd, &mut e, block, &mut Before60(&mut before_60));
        store(abcd, e, chain);
    }
    let kept = Kept {
        chain_in,
        chain_out: *chain,
        before_60,
    };
    // SAFETY: the caller checked the CPU.
    unsafe { test_flagged(&kept, block, c) }
}

/// Tests the candidates of a block already compressed (a
/// [`TestFlagged`](crate::recompress::TestFlagged)): the schedule by the
/// rounds' vector recurrence, the test states a few scalar steps from the
/// state before step 60, each candidate with the SHA-NI rounds
/// ([`partner_matches`]); reduced-round detection needs the partner's input
/// chaining value, so it takes the scalar recompression.
///
/// # Safety
/// The CPU must support SHA, SSE2, SSSE3 and SSE4.1.
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
pub(crate) unsafe fn test_flagged(kept: &Kept, block: &Block, c: Candidates) -> Option<usize> {
    // SAFETY: the caller checked the CPU.
    unsafe { test_schedule(kept, &schedule(block), c) }
}

/// [`test_flagged`] with the block's schedule `w` at hand. Out of line:
/// about one block in twenty comes here, and the loops that call it keep
/// their registers.
#[inline(never)]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
unsafe fn test_schedule(kept: &Kept, w: &[u32; 80], c: Candidates) -> Option<usize> {
    let states = TestStates::from_before_60(kept.before_60, w);
    if c.reduced_round {
        return first_match(w, &kept.chain_in, &kept.chain_out, &states, c);
    }
    // SAFETY: the caller checked the CPU.
    dvs_of(c.mask).find(|&i| unsafe { partner_matches(i, w, &states, &kept.chain_out) })
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
    // SAFETY (whole body): the caller checked the CPU; every load reads
    // four words of `w` or `dm` inside their 80.
    unsafe {
        // Words 4g..4g+4 of the partner, the first in the top lane.
        let words = |g: usize| {
            let x = _mm_xor_si128(
                _mm_loadu_si128(w[4 * g..4 * g + 4].as_ptr().cast()),
                _mm_loadu_si128(dv.dm[4 * g..4 * g + 4].as_ptr().cast()),
            );
            _mm_shuffle_epi32::<0x1b>(x)
        };
        let top = |x: u32| _mm_set_epi32(x as i32, 0, 0, 0);
        let abcd_of =
            |s: &[u32; 5]| _mm_set_epi32(s[0] as i32, s[1] as i32, s[2] as i32, s[3] as i32);
        // Groups `from..to` of rounds from `abcd` and `e`: returns `abcd`
        // and the `abcd` before the last group.
        let run = |mut abcd: __m128i, e: u32, from: usize, to: usize| {
            let mut held = abcd;
            let mut live = _mm_add_epi32(top(e), words(from));
            for g in from..to {
                if g > from {
                    live = _mm_sha1nexte_epu32(held, words(g));
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
        };
        let e_after = |held: __m128i| {
            _mm_extract_epi32::<3>(_mm_sha1nexte_epu32(held, _mm_setzero_si128())) as u32
        };

        // Out to step 80: the input chaining value is the output less that state.
        let (abcd80, held) = run(abcd_of(&at), at[4], first_group, 20);
        let abcd_in = _mm_sub_epi32(abcd_of(chain_out), abcd80);
        let e_in = chain_out[4].wrapping_sub(e_after(held));
        // In from there, to the boundary.
        let (abcd_b, held) = run(abcd_in, e_in, 0, first_group);
        let same = _mm_movemask_epi8(_mm_cmpeq_epi32(abcd_b, abcd_of(&at))) == 0xffff;
        same && e_after(held) == at[4]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::expand;
    use crate::compress::steps_forward;
    use crate::recompress::recompress;
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
