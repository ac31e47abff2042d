//! The RustCrypto traits (feature `digest`), so [`Hasher`] drops into code
//! written for the `sha1` crate or generic over [`digest::Digest`].
//!
//! Through the traits the output is [`Outcome::digest`](crate::Outcome::digest):
//! the safe hash when a collision is detected (safe hashing is on by
//! default), the plain SHA-1 otherwise, so generic code never stores the
//! shared SHA-1 of a colliding pair as if it identified one file. The
//! traits cannot report the collision itself: call the inherent
//! [`Hasher::finalize`], which returns the whole [`Outcome`](crate::Outcome)
//! and takes precedence in method-call syntax.
//!
//! ```
//! use sha1dc_wasm::Hasher;
//! use sha1dc_wasm::digest::Digest as _;
//!
//! let out = <Hasher as sha1dc_wasm::digest::Digest>::digest(b"abc");
//! assert_eq!(out[..], sha1dc_wasm::hash(b"abc").digest().as_bytes()[..]);
//!
//! // Generic code over any RustCrypto hash.
//! fn id<D: sha1dc_wasm::digest::Digest>(data: &[u8]) -> Vec<u8> {
//!     D::new().chain_update(data).finalize().to_vec()
//! }
//! let pdf = include_bytes!("../tests/data/shattered-1.prefix320.bin");
//! let outcome = sha1dc_wasm::hash(pdf);
//! assert_eq!(id::<Hasher>(pdf), outcome.digest().as_ref());
//! assert_ne!(id::<Hasher>(pdf), outcome.sha1().as_ref());
//!
//! // The same hasher, with the trait in scope: `finalize` is still the
//! // inherent one, with the report.
//! let mut hasher = Hasher::new();
//! hasher.update(pdf);
//! assert!(hasher.finalize().collision().is_some());
//! ```

use digest::consts::U20;
use digest::{FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};

use crate::{Digest, Hasher};

impl OutputSizeUser for Hasher {
    type OutputSize = U20;
}

impl Update for Hasher {
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }
}

impl FixedOutput for Hasher {
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize(self).digest().as_bytes());
    }
}

impl FixedOutputReset for Hasher {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize_reset(self).digest().as_bytes());
    }
}

impl Reset for Hasher {
    fn reset(&mut self) {
        Hasher::reset(self);
    }
}

impl HashMarker for Hasher {}

/// A [`Digest`] as the traits' output array.
impl From<Digest> for Output<Hasher> {
    fn from(d: Digest) -> Self {
        d.to_bytes().into()
    }
}
