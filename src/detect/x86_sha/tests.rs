//! The SHA-NI detection against the scalar reference: the filters that run
//! between the rounds' groups, the rounds' kept states and the partner test.

use super::*;
use crate::block::expand;
use crate::compress::steps_forward;
use crate::compress::x86_sha::{Rol2, ShaMsg, block_rounds, load, schedule, store};
use crate::detect::recompress::recompress;
use crate::dv::DVS;
use crate::splitmix::SplitMix64;

fn has_sha_ni() -> bool {
    let yes = std::arch::is_x86_feature_detected!("sha")
        && std::arch::is_x86_feature_detected!("sse4.1")
        && std::arch::is_x86_feature_detected!("ssse3");
    if !yes {
        crate::skip::skip_or_fail("this CPU lacks SHA-NI: the SHA-NI partner test does not run");
    }
    yes
}

/// Each filter that runs beside the rounds, its entries in the order
/// the rounds run them and then its finish (or alone, as a call's last
/// block), gives the reference filter's mask, on random blocks: a
/// filter that let more through would pass every outcome test.
#[test]
fn filters_beside_give_the_reference_masks() {
    use crate::compress::BetweenGroups;
    use crate::detect::interleaved::FilterInFlight;
    use crate::detect::interleaved::InterleavedFilter;

    /// The mask `F` gives beside the rounds, and alone.
    unsafe fn masks<F: InterleavedFilter<Mirrored>>(s: &Mirrored) -> (u32, u32) {
        // SAFETY (whole body): the caller checked what F needs.
        unsafe {
            let mut entries = FilterInFlight::<F, _> {
                schedule: s,
                killed: F::V::splat(0),
            };
            for g in 0..20 {
                entries.group(g);
            }
            (entries.mask(), F::alone(s))
        }
    }
    #[cfg(sha1dc_avx512)]
    let avx512 = std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl");
    #[cfg(sha1dc_avx512)]
    if !avx512 {
        crate::skip::skip_or_fail(
            "this CPU lacks AVX-512: its filters beside the rounds are not tested",
        );
    }
    let mut rng = SplitMix64(0xbe51de);
    let mut candidates = 0;
    for round in 0..65536 {
        let mut block = [0u8; 64];
        rng.fill(&mut block);
        let mut want = [0u32];
        crate::filter::scalar_masks(core::slice::from_ref(&block), &mut want);
        candidates += usize::from(want[0] != 0);
        let s = Mirrored::from_words(&expand(&block));
        // SAFETY: SSE2 is part of x86-64; AVX-512 checked.
        unsafe {
            assert_eq!(masks::<Sse2Filter>(&s), (want[0], want[0]), "SSE2, {round}");
            #[cfg(sha1dc_avx512)]
            if avx512 {
                let got = masks::<super::avx512::Avx512Filter>(&s);
                assert_eq!(got, (want[0], want[0]), "4 lanes, AVX-512, {round}");
                let got = masks::<super::avx512::Lanes8Filter>(&s);
                assert_eq!(got, (want[0], want[0]), "8 lanes, {round}");
            }
        }
    }
    assert!(
        candidates > 100,
        "the blocks exercise the finishing entries"
    );
}

/// The SHA-NI rounds with either expansion give the scalar output and
/// keep the scalar state before step 60, which they return.
fn rounds_keep_the_scalar_states(block: &Block, chain_in: [u32; 5], round: usize) -> State {
    let w = expand(block);
    let mut want_60 = chain_in;
    steps_forward(&mut want_60, 0, 60, |t| w[t]);
    let mut before_60 = [0u32; 5];
    let mut chain = chain_in;
    // SAFETY: SHA-NI checked above.
    unsafe {
        let (mut abcd, mut e) = load(&chain);
        block_rounds::<Rol2>(&mut abcd, &mut e, block, &mut Before60(&mut before_60));
        store(abcd, e, &mut chain);
    }
    assert_eq!(before_60, want_60, "round {round}");
    let (mut before_60_msg, mut chain_msg) = ([0u32; 5], chain_in);
    // SAFETY: SHA-NI checked above.
    unsafe {
        let (mut abcd, mut e) = load(&chain_msg);
        let keep = &mut Before60(&mut before_60_msg);
        block_rounds::<ShaMsg>(&mut abcd, &mut e, block, keep);
        store(abcd, e, &mut chain_msg);
    }
    let mut want_out = chain_in;
    crate::compress::compress_expanded(&mut want_out, &w);
    assert_eq!(chain, want_out, "round {round}");
    assert_eq!(
        (before_60_msg, chain_msg),
        (want_60, want_out),
        "round {round}"
    );
    before_60
}

/// For every DV, on random blocks and chaining values: the vector
/// schedule and the state kept from the SHA-NI rounds are the scalar
/// ones, and the SHA-NI partner test, alone and beside other rounds
/// (from step 64), accepts exactly the output the scalar recompression
/// computes, and not one a bit away from it.
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
        // SAFETY (both): SHA-NI checked above.
        assert_eq!(unsafe { schedule::<ShaMsg>(&block) }, w, "round {round}");
        assert_eq!(unsafe { schedule::<Rol2>(&block) }, w, "round {round}");
        let before_60 = rounds_keep_the_scalar_states(&block, chain_in, round);
        let states = TestStates::from_before_60(before_60, &w);
        let (in_order, mirrored) = (InOrder(w), Mirrored::from_words(&w));
        for (index, dv) in DVS.iter().enumerate() {
            let i = DisturbanceVector::from_index(index);
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
                    partner_matches(i, &in_order, &before_60, &out2),
                    "DV {i}, round {round}"
                );
                assert!(
                    partner_matches(i, &mirrored, &before_60, &out2),
                    "DV {i}, round {round}"
                );
                assert!(
                    !partner_matches(i, &in_order, &before_60, &off),
                    "DV {i}, round {round}"
                );
                assert!(
                    !partner_matches(i, &mirrored, &before_60, &off),
                    "DV {i}, round {round}"
                );
                for (out, want) in [(out2, true), (off, false)] {
                    let block = Compressed {
                        chain_in,
                        chain_out: out,
                        before_60,
                    };
                    let mut test = PartnerTest::new(&block, &mirrored, i);
                    for m in 0..20 {
                        test.group(m);
                    }
                    assert_eq!(test.matched, want, "beside: DV {i}, round {round}");
                }
            }
        }
    }
}
