//! SHA-1 with collision detection: the counter-cryptanalysis of Stevens and
//! Shumow (the "sha1dc" used by git), from one Rust engine for native code and
//! WebAssembly.
//!
//! SHA-1 is broken (SHAttered, 2017; SHA-mbles, 2020). For every message block
//! this crate asks, cheaply, whether the block could be one half of a
//! near-collision built on any of the 32 known disturbance vectors, and for the
//! rare block that might be, recompresses it with the disturbance vector's
//! message difference. A block that is part of a collision is flagged, and the
//! output becomes a "safe hash" that differs for the two colliding messages,
//! while [`Outcome::sha1`] still gives the true SHA-1.
//!
//! ```
//! use sha1dc_wasm::{hash, Hasher};
//!
//! let outcome = hash(b"abc");
//! assert_eq!(outcome.digest().to_string(), "a9993e364706816aba3e25717850c26c9cd0d89d");
//! assert!(outcome.collision().is_none());
//!
//! // Streaming gives the same answer, whatever the chunking.
//! let mut hasher = Hasher::new();
//! hasher.update(b"a");
//! hasher.update(b"bc");
//! assert_eq!(hasher.finalize(), outcome);
//! ```
//!
//! The core is `no_std` and never allocates. Cargo features:
//!
//! - `std` (default): [`std::io::Write`] for [`Hasher`],
//!   [`std::error::Error`] for the error types, and one large input hashed
//!   on two threads ([`Hasher::update_parallel`],
//!   [`Hasher::update_reader_parallel`]);
//! - `digest`: the RustCrypto traits (`digest` 0.11, which needs Rust 1.85
//!   where the rest of the crate builds with 1.63; re-exported as
//!   `sha1dc_wasm::digest`) for [`Hasher`], so it drops into
//!   code generic over [`digest::Digest`](https://docs.rs/digest/0.11), or
//!   boxed as a `DynDigest` (its boxed methods need `std` too); see
//!   [`Hasher`] for what the traits return.
//!
//! Git object ids (`<type> <len>\0` before the content) are in [`git`].
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
// As edition 2024 has it: an `unsafe fn` body is no unsafe block, so each
// unsafe operation sits in a block of its own with its SAFETY reason.
#![deny(unsafe_op_in_unsafe_fn)]
// The x86-64 build uses every item (its clippy and tests check it); the
// others compile the helpers only the SHA-NI kernels call, unused, and
// targets without the vector instructions the platforms use run only the
// portable backend: the per-block detection is compiled there, unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

mod batch;
mod block;
mod builder;
mod chains;
mod compress;
mod config;
mod detect;
mod dv;
mod engine;
mod filter;
pub mod git;
mod halves;
mod hasher;
mod hex;
mod object;
mod outcome;
#[cfg(feature = "std")]
mod parallel;
mod platform;
/// For the C library: the reference's exported internals (DV table,
/// filter, compression with its states). Not part of the API.
#[doc(hidden)]
pub mod raw;
mod record;
#[cfg(feature = "digest")]
mod rustcrypto;
/// The tests' checks this machine cannot run: fail under CI, skip elsewhere.
#[cfg(test)]
#[path = "../tests/common/skip.rs"]
mod skip;
/// The tests' one seeded generator, shared with the integration tests.
#[cfg(test)]
#[path = "../tests/common/splitmix.rs"]
mod splitmix;
mod vector;

/// The RustCrypto traits crate (`digest` 0.11) that [`Hasher`] implements,
/// re-exported (feature `digest`) so callers name the same version.
#[cfg(feature = "digest")]
pub use ::digest;
#[cfg(feature = "std")]
pub use builder::hash_many;
pub use builder::{Builder, SliceLengthError};
pub use dv::{DisturbanceVector, DvKind};
pub use halves::{BlockFilter, MaskCountError};
pub use hasher::Hasher;
pub use hex::{Digest, ParseDigestError};
pub use outcome::{Collision, CollisionBlock, Outcome};
pub use platform::{BackendError, available_backends};

/// The error types are std's errors where std is (core's `Error` needs a
/// later Rust than the 1.63 the library builds with).
#[cfg(feature = "std")]
mod std_errors {
    impl std::error::Error for crate::BackendError {}
    impl std::error::Error for crate::MaskCountError {}
    impl std::error::Error for crate::ParseDigestError {}
    impl std::error::Error for crate::SliceLengthError {}
    impl std::error::Error for crate::git::LengthMismatch {}
}

// The Rust examples of the README and of the guide run as doctests.
#[cfg(doctest)]
mod doctests {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/rust.md")]
    struct Guide;
}

/// Hashes `data` in one call with the default options.
///
/// ```
/// let outcome = sha1dc_wasm::hash(include_bytes!("../tests/data/shattered-1.prefix320.bin"));
/// assert_eq!(outcome.digest().to_string(), "7117b3cb9225aaf0d8ef1a40e493957b0bf8693d");
/// assert_eq!(outcome.collision().unwrap().offset(), 256);
/// ```
pub fn hash(data: &[u8]) -> Outcome {
    Builder::default().hash(data)
}
