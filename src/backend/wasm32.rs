//! The wasm32 backends, fastest first.
//!
//! simd128 is chosen when the module is compiled, not detected at run time:
//! a build with `+simd128` (the project's `.cargo/config.toml`) lists the
//! simd128 backend; a build without it has only the portable one.

use super::Backend;

/// Scalar compression (wasm has no SHA instructions) beside the filter on
/// four blocks per vector, and detection one block at a time with the
/// per-block filter on the schedule the scalar rounds store.
#[cfg(target_feature = "simd128")]
pub(super) static BACKENDS: &[Backend] = &[Backend {
    name: "simd128",
    supported: || true,
    compressor_for: |_| crate::compress::Compressor::Portable,
    simd: crate::vector::Simd::Simd128,
    per_block_for: Some(|_| crate::detect::PerBlock::PortableSimd128),
}];

#[cfg(not(target_feature = "simd128"))]
pub(super) static BACKENDS: &[Backend] = &[];
