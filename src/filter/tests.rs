//! The filter against the reference's known answers.

use crate::block::{Block, InOrder, Mirrored, end_blocks};
use crate::platform::{Backend, Platform};

use crate::splitmix::splitmix64_bytes;

// Each test runs natively and, in the wasm build, under wasm-bindgen-test
// (Node, Chromium and a worker: scripts/test-wasm.sh).
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn control_blocks() -> Vec<Block> {
    let data = splitmix64_bytes(0x0123_4567_89AB_CDEF, 1 << 20);
    let (blocks, tail) = crate::block::split_blocks(&data);
    let mut all = blocks.to_vec();
    let mut pad = [[0; 64]; 3];
    let n = end_blocks(&mut pad, None, tail, data.len() as u64);
    all.extend_from_slice(&pad[..n]);
    all
}

fn expected_masks(n: usize) -> Vec<u32> {
    let text = include_str!("../../tests/data/UBC_MASKS_splitmix64.tsv");
    let mut masks = vec![0u32; n];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("block"))
    {
        let (block, mask) = line.split_once('\t').expect("two columns");
        masks[block.parse::<usize>().unwrap()] = u32::from_str_radix(mask, 16).unwrap();
    }
    masks
}

/// Every backend's filter on every block of the 1 MiB control: the exact
/// masks of the reference, zero rows included.
pub(crate) fn check_filter(platform: Platform) {
    let blocks = control_blocks();
    assert_eq!(blocks.len(), 16385);
    let want = expected_masks(blocks.len());
    assert_eq!(want.iter().filter(|&&m| m != 0).count(), 781);
    // Odd batch sizes exercise each remainder form of the vectors: one
    // block, one narrow vector, one padded vector of the platform's width.
    for size in [37, 19, 2] {
        let mut got = vec![0u32; blocks.len()];
        for (chunk, out) in blocks.chunks(size).zip(got.chunks_mut(size)) {
            platform.filter_masks(chunk, out);
        }
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(
                g,
                w,
                "{} in calls of {size}: block {i}: got {g:08x}, reference {w:08x}",
                platform.name()
            );
        }
    }
}

#[test]
fn portable_filter_matches_reference_masks() {
    check_filter(Backend::by_name("portable").unwrap());
}

#[test]
fn every_available_filter_matches_reference_masks() {
    for name in crate::available_backends() {
        check_filter(Backend::by_name(name).unwrap());
    }
}

/// The public collisions' blocks: the reference's per-file statistics
/// (TRACE.txt): blocks with a non-zero mask and total mask bits.
#[test]
fn filter_statistics_match_trace() {
    let cases: [(&[u8], usize, u32); 4] = [
        (include_bytes!("../../tests/data/shattered-1.pdf"), 337, 354),
        (include_bytes!("../../tests/data/shattered-2.pdf"), 337, 354),
        (include_bytes!("../../tests/data/sha-mbles-1.bin"), 9, 9),
        (include_bytes!("../../tests/data/sha-mbles-2.bin"), 9, 10),
    ];
    for (data, nonzero, bits) in cases {
        let (blocks, tail) = crate::block::split_blocks(data);
        let mut all = blocks.to_vec();
        let mut pad = [[0; 64]; 3];
        let n = end_blocks(&mut pad, None, tail, data.len() as u64);
        all.extend_from_slice(&pad[..n]);
        let mut masks = vec![0u32; all.len()];
        super::scalar_masks(&all, &mut masks);
        assert_eq!(masks.iter().filter(|&&m| m != 0).count(), nonzero);
        assert_eq!(masks.iter().map(|m| m.count_ones()).sum::<u32>(), bits);
    }
}

/// A per-block filter form: a block's DV mask from its schedule.
type ScheduleMask = fn(&[u32; 80]) -> u32;

/// The 4-lane table as the forms that run it beside the rounds do: the
/// first entries one at a time, then the rest from what they ruled out.
///
/// # Safety
/// The CPU must support `V`'s instruction set.
unsafe fn beside_rounds<V: crate::vector::Vector, S: crate::block::Schedule>(s: &S) -> u32 {
    use super::per_block::{INTERLEAVED, Windows4};
    // SAFETY: the caller guarantees V's instruction set.
    unsafe {
        let mut killed = V::splat(0);
        for g in 0..INTERLEAVED {
            killed = Windows4::entry::<V, S>(g, s, killed);
        }
        if killed.or_lanes() == u32::MAX {
            return 0;
        }
        Windows4::finish::<V, S, INTERLEAVED>(s, killed)
    }
}

/// The per-block forms this CPU can run, by name (the others it skips, or
/// fails under CI: `skip_or_fail`).
// SAFETY (each form): plain integers need no CPU feature; the vector forms
// are listed only where the CPU (or the build, for wasm) has them.
fn per_block_forms() -> Vec<(&'static str, ScheduleMask)> {
    use super::per_block::{Windows4, Windows8};
    // Extended below on targets with vectors.
    #[allow(unused_mut)]
    let mut forms: Vec<(&'static str, ScheduleMask)> = vec![
        ("u32", |w| unsafe { Windows4::mask::<u32, _>(&InOrder(*w)) }),
        ("u32 mirrored", |w| unsafe {
            Windows4::mask::<u32, _>(&Mirrored::from_words(w))
        }),
        ("u64", |w| unsafe { Windows4::mask::<u64, _>(&InOrder(*w)) }),
        ("u32, 8 lanes", |w| unsafe {
            Windows8::mask::<u32, _>(&InOrder(*w))
        }),
        ("u64, 8 lanes, mirrored", |w| unsafe {
            Windows8::mask::<u64, _>(&Mirrored::from_words(w))
        }),
        ("u32 beside the rounds", |w| unsafe {
            beside_rounds::<u32, _>(&InOrder(*w))
        }),
        ("u64 beside the rounds, mirrored", |w| unsafe {
            beside_rounds::<u64, _>(&Mirrored::from_words(w))
        }),
    ];
    #[cfg(target_arch = "x86_64")]
    forms.extend(x86_per_block_forms());
    #[cfg(sha1dc_neon)]
    forms.push(("neon", |w| unsafe {
        Windows4::mask::<core::arch::aarch64::uint32x4_t, _>(&InOrder(*w))
    }));
    #[cfg(sha1dc_simd128)]
    forms.push(("simd128", |w| unsafe {
        Windows4::mask::<core::arch::wasm32::v128, _>(&InOrder(*w))
    }));
    forms
}

/// [`per_block_forms`] of x86-64.
#[cfg(target_arch = "x86_64")]
fn x86_per_block_forms() -> Vec<(&'static str, ScheduleMask)> {
    use super::per_block::{Windows4, Windows8};
    use core::arch::x86_64::{__m128i, __m256i};
    let mut forms: Vec<(&'static str, ScheduleMask)> = vec![
        ("sse2", |w| unsafe {
            Windows4::mask::<__m128i, _>(&InOrder(*w))
        }),
        ("sse2 mirrored", |w| unsafe {
            Windows4::mask::<__m128i, _>(&Mirrored::from_words(w))
        }),
        ("sse2, 8 lanes", |w| unsafe {
            Windows8::mask::<__m128i, _>(&InOrder(*w))
        }),
    ];
    if std::arch::is_x86_feature_detected!("avx2") {
        forms.push(("avx2", |w| unsafe {
            Windows8::mask::<__m256i, _>(&InOrder(*w))
        }));
        forms.push(("avx2 mirrored", |w| unsafe {
            Windows8::mask::<__m256i, _>(&Mirrored::from_words(w))
        }));
    } else {
        crate::skip::skip_or_fail(
            "this CPU lacks AVX2: the per-block filter's avx2 forms are not tested",
        );
    }
    #[cfg(sha1dc_avx512)]
    if std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
    {
        forms.push(("avx512vl", |w| unsafe {
            Windows4::mask::<crate::vector::x86_64::avx512::Vl128, _>(&InOrder(*w))
        }));
        forms.push(("avx512vl beside the rounds, mirrored", |w| unsafe {
            beside_rounds::<crate::vector::x86_64::avx512::Vl128, _>(&Mirrored::from_words(w))
        }));
    } else {
        crate::skip::skip_or_fail(
            "this CPU lacks AVX-512BW/VL: the per-block filter's avx512vl forms are not tested",
        );
    }
    // A compiler older than Rust 1.89 builds no AVX-512 form: none to test.
    forms
}

/// The per-block layout gives the reference's exact masks on every block of
/// the 1 MiB control, in every form.
#[test]
fn per_block_filter_matches_reference_masks() {
    let blocks = control_blocks();
    let want = expected_masks(blocks.len());
    for (name, mask) in per_block_forms() {
        for (i, (block, w)) in blocks.iter().zip(&want).enumerate() {
            let got = mask(&crate::block::expand(block));
            assert_eq!(
                got, *w,
                "{name}: block {i}: got {got:08x}, reference {w:08x}"
            );
        }
    }
}

/// ... and on the blocks of the public collisions, where masks are dense
/// (each near-collision block keeps its DV), and on random blocks against
/// the one-block-per-lane filter.
#[test]
fn per_block_filter_matches_lane_filter() {
    let mut blocks: Vec<Block> = Vec::new();
    for data in [
        &include_bytes!("../../tests/data/shattered-1.pdf")[..],
        include_bytes!("../../tests/data/sha-mbles-2.bin"),
    ] {
        blocks.extend_from_slice(crate::block::split_blocks(data).0);
    }
    let random = splitmix64_bytes(0x9e7b_10c5, 64 * 4096);
    blocks.extend_from_slice(crate::block::split_blocks(&random).0);
    let mut want = vec![0u32; blocks.len()];
    super::scalar_masks(&blocks, &mut want);
    assert!(want.iter().filter(|&&m| m != 0).count() > 300);
    for (name, mask) in per_block_forms() {
        for (i, (block, w)) in blocks.iter().zip(&want).enumerate() {
            let got = mask(&crate::block::expand(block));
            assert_eq!(got, *w, "{name}: block {i}: got {got:08x}, want {w:08x}");
        }
    }
}
