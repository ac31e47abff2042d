//! The wasm-bindgen bindings under the npm package's JavaScript wrapper.
//!
//! These are the raw entry points; the wrapper (`pkg-template/core.mjs`)
//! checks the JavaScript arguments, splits large inputs and builds the result
//! objects. Every fallible entry returns `Result<_, JsError>`, so an error
//! reaches JavaScript as a thrown `Error`, never as an `unreachable` trap.
//!
//! A result is 64 bytes: the output digest (0..20), the plain SHA-1
//! (20..40), 1 at byte 40 when a collision was detected, the first flagged
//! block's disturbance vector index at byte 41, then the first flagged block
//! index (48..56) and the number of flagged blocks (56..64), both
//! little-endian `u64`.

extern crate alloc;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

use crate::{Hasher, Outcome};

/// Option bit: output the safe hash when a collision is detected.
const SAFE_HASH: u32 = 1;
/// Option bit: also detect reduced-round collisions.
const REDUCED_ROUND: u32 = 2;
/// Option bit: hash as a git blob object (`blob <size>\0` before the data).
const GIT_BLOB: u32 = 4;
/// The largest exact integer a JavaScript number holds.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn hasher(flags: u32) -> Hasher {
    Hasher::builder()
        .safe_hash(flags & SAFE_HASH != 0)
        .reduced_round(flags & REDUCED_ROUND != 0)
        .build()
}

fn encode(outcome: &Outcome) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(outcome.digest().as_bytes());
    out.extend_from_slice(outcome.sha1().as_bytes());
    let (flag, dv, block, count) = match outcome.collision() {
        Some(c) => (1, c.dv().index() as u8, c.block(), c.count()),
        None => (0, 0, 0, 0),
    };
    out.extend_from_slice(&[flag, dv, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&block.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out
}

fn git_header(size: u64) -> String {
    format!("blob {size}\0")
}

/// Hashes `data` in one call; `flags` is a sum of the option bits.
#[wasm_bindgen(js_name = hashBytes)]
pub fn hash_bytes(data: &[u8], flags: u32) -> Vec<u8> {
    let mut h = hasher(flags);
    if flags & GIT_BLOB != 0 {
        h.update(git_header(data.len() as u64).as_bytes());
    }
    h.update(data);
    encode(&h.finalize())
}

/// Hashes the UTF-8 encoding of `text` in one call.
#[wasm_bindgen(js_name = hashString)]
pub fn hash_string(text: &str, flags: u32) -> Vec<u8> {
    hash_bytes(text.as_bytes(), flags)
}

/// The name of the backend that runs (`"simd128"` in the SIMD build).
#[wasm_bindgen(js_name = backendName)]
pub fn backend_name() -> String {
    Hasher::new().backend().to_string()
}

/// The name of disturbance vector `index` (0..32), like `"II(52,0)"`; empty
/// for an index out of range.
#[wasm_bindgen(js_name = dvName)]
pub fn dv_name(index: u32) -> String {
    let index = index as usize;
    if index < crate::dv::DVS.len() {
        crate::DisturbanceVector::from_index(index).to_string()
    } else {
        String::new()
    }
}

/// A streaming hasher for the wrapper's `createHasher` and `hashStream`.
#[wasm_bindgen]
pub struct RawHasher {
    /// `None` once finished.
    inner: Option<Hasher>,
    /// The message size the caller announced, checked when finishing.
    size: Option<u64>,
    /// Bytes of the git header hashed before the data.
    header: u64,
}

#[wasm_bindgen]
impl RawHasher {
    /// A hasher with the option bits `flags`; `size`, when given, is the
    /// message size to expect (required for a git blob: it is in the header).
    #[wasm_bindgen(constructor)]
    pub fn new(flags: u32, size: Option<f64>) -> Result<RawHasher, JsError> {
        let size = match size {
            None => None,
            Some(s) if s.is_finite() && s >= 0.0 && s.fract() == 0.0 && s <= MAX_SAFE_INTEGER => {
                Some(s as u64)
            }
            Some(_) => {
                // Not formatted: float formatting would add kilobytes of code.
                return Err(JsError::new(
                    "sha1dc: size must be a non-negative safe integer",
                ));
            }
        };
        let mut inner = hasher(flags);
        let mut header = 0;
        if flags & GIT_BLOB != 0 {
            let Some(size) = size else {
                return Err(JsError::new(
                    "sha1dc: gitBlob needs the message size (options.size) before the data",
                ));
            };
            let text = git_header(size);
            inner.update(text.as_bytes());
            header = text.len() as u64;
        }
        Ok(RawHasher {
            inner: Some(inner),
            size,
            header,
        })
    }

    fn live(&mut self) -> Result<&mut Hasher, JsError> {
        self.inner.as_mut().ok_or_else(|| {
            JsError::new("sha1dc: this hasher has already been digested; create a new one")
        })
    }

    /// Adds bytes to the message.
    pub fn update(&mut self, data: &[u8]) -> Result<(), JsError> {
        self.live()?.update(data);
        Ok(())
    }

    /// Adds the UTF-8 encoding of `text` to the message.
    #[wasm_bindgen(js_name = updateString)]
    pub fn update_string(&mut self, text: &str) -> Result<(), JsError> {
        self.update(text.as_bytes())
    }

    /// Bytes of data added so far (the git header not counted).
    pub fn length(&self) -> f64 {
        self.inner
            .as_ref()
            .map_or(0.0, |h| h.len().saturating_sub(self.header) as f64)
    }

    /// Finishes the message: the encoded result. The hasher is spent after
    /// this, whether it succeeds or fails.
    pub fn finish(&mut self) -> Result<Vec<u8>, JsError> {
        let header = self.header;
        let size = self.size;
        let h = self.inner.take().ok_or_else(|| {
            JsError::new("sha1dc: this hasher has already been digested; create a new one")
        })?;
        let got = h.len().saturating_sub(header);
        if let Some(want) = size
            && want != got
        {
            return Err(JsError::new(&format!(
                "sha1dc: the size given was {want} bytes, but {got} bytes were hashed"
            )));
        }
        Ok(encode(&h.finalize()))
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use crate::compress::{Block, padding};

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
}
