//! WebAssembly-only unit tests of the internals (run by scripts/test-wasm.sh
//! under wasm-bindgen-test).

use wasm_bindgen_test::wasm_bindgen_test;

use crate::block::Block;
use crate::compress::padding;

/// The simd128 filter on every block of the 1 MiB control: the exact
/// masks of the reference (tests/data/UBC_MASKS_splitmix64.tsv), zero
/// rows included, in batches of odd sizes (the remainder path).
#[wasm_bindgen_test]
fn simd128_filter_matches_reference_masks() {
    let mut s = 0x0123_4567_89AB_CDEFu64;
    let mut data = Vec::with_capacity(1 << 20);
    while data.len() < 1 << 20 {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        data.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    let (blocks, tail) = data.as_chunks::<64>();
    let mut all: Vec<Block> = blocks.to_vec();
    let (pad, n) = padding(tail, data.len() as u64);
    all.extend_from_slice(&pad[..n]);
    assert_eq!(all.len(), 16385);

    let mut want = vec![0u32; all.len()];
    let text = include_str!("../tests/data/UBC_MASKS_splitmix64.tsv");
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("block"))
    {
        let (block, mask) = line.split_once('\t').expect("two columns");
        want[block.parse::<usize>().unwrap()] = u32::from_str_radix(mask, 16).unwrap();
    }
    assert_eq!(want.iter().filter(|&&m| m != 0).count(), 781);

    let mut got = vec![0u32; all.len()];
    for (chunk, out) in all.chunks(37).zip(got.chunks_mut(37)) {
        crate::filter::simd128::masks(chunk, out);
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "block {i}: got {g:08x}, reference {w:08x}");
    }
}
