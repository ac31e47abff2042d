//! The filter against the reference's known answers.

use crate::backend::Backend;
use crate::block::Block;
use crate::compress::padding;

use crate::splitmix::splitmix64_bytes;

// Each test runs natively and, in the wasm build, under wasm-bindgen-test
// (Node, Chromium and a worker: scripts/test-wasm.sh).
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

fn control_blocks() -> Vec<Block> {
    let data = splitmix64_bytes(0x0123_4567_89AB_CDEF, 1 << 20);
    let (blocks, tail) = data.as_chunks::<64>();
    let mut all = blocks.to_vec();
    let (pad, n) = padding(tail, data.len() as u64);
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
pub(crate) fn check_filter(backend: &Backend) {
    let blocks = control_blocks();
    assert_eq!(blocks.len(), 16385);
    let want = expected_masks(blocks.len());
    assert_eq!(want.iter().filter(|&&m| m != 0).count(), 781);
    let mut got = vec![0u32; blocks.len()];
    // Odd batch sizes exercise the remainder path of vector forms.
    for (chunk, out) in blocks.chunks(37).zip(got.chunks_mut(37)) {
        (backend.filter)(chunk, out);
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g, w,
            "{}: block {i}: got {g:08x}, reference {w:08x}",
            backend.name
        );
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
        let (blocks, tail) = data.as_chunks::<64>();
        let mut all = blocks.to_vec();
        let (pad, n) = padding(tail, data.len() as u64);
        all.extend_from_slice(&pad[..n]);
        let mut masks = vec![0u32; all.len()];
        super::scalar::masks(&all, &mut masks);
        assert_eq!(masks.iter().filter(|&&m| m != 0).count(), nonzero);
        assert_eq!(masks.iter().map(|m| m.count_ones()).sum::<u32>(), bits);
    }
}
