//! The benchmark's peers in wasm: one-shot digests over wasm-bindgen.

use sha1::Digest as _;
use wasm_bindgen::prelude::*;

/// The `sha1dc` crate's digest of `data` (plain SHA-1, detection on; a
/// detected collision still gives its digest).
#[wasm_bindgen]
pub fn sha1dc_crate(data: &[u8]) -> Vec<u8> {
    let digest = match sha1dc::digest(data) {
        Ok(d) => d,
        Err(collision) => collision.digest(),
    };
    digest.as_bytes().to_vec()
}

/// The `sha1` crate's digest of `data` (soft backend, no detection).
#[wasm_bindgen]
pub fn sha1_crate(data: &[u8]) -> Vec<u8> {
    sha1::Sha1::digest(data).to_vec()
}
