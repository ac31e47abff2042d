//! The wasm32 backends, fastest first.
//!
//! simd128 is chosen when the module is compiled, not detected at run time:
//! a build with `+simd128` (the project's `.cargo/config.toml`) lists the
//! simd128 filter; a build without it has only the portable backend.

use super::Backend;

#[cfg(target_feature = "simd128")]
pub(super) static BACKENDS: &[Backend] = &[Backend {
    name: "simd128",
    supported: || true,
    // Scalar compression (wasm has no SHA instructions) beside the filter
    // on four blocks per vector.
    compress: crate::compress::portable::compress_blocks,
    simd: crate::vector::Simd::Simd128,
    compress_flagged: crate::recompress::compress_flagged,
    test_flagged: crate::recompress::test_flagged,
    per_block: Some(super::PerBlock {
        below: usize::MAX,
        run: detect_simd128,
    }),
}];

/// Detection one block at a time: the per-block filter on the schedule the
/// scalar rounds read (four consecutive steps per vector: few live vectors,
/// no transposition).
#[cfg(target_feature = "simd128")]
fn detect_simd128(
    chain: &mut [u32; 5],
    blocks: &[crate::block::Block],
    reduced: bool,
) -> Option<(usize, usize)> {
    crate::recompress::detect_blocks(chain, blocks, reduced, |w| {
        // SAFETY: the module is built with simd128 (this item's cfg).
        unsafe { crate::filter::per_block::mask4::<core::arch::wasm32::v128, false>(w) }
    })
}

#[cfg(not(target_feature = "simd128"))]
pub(super) static BACKENDS: &[Backend] = &[];
