//! Targets without the vector instructions the platforms use (wasm32
//! without simd128, big-endian aarch64, any other architecture): the
//! portable backend alone. The per-block detection is compiled there but
//! unused.

pub(crate) use self::none::Platform;
use super::choice::{Backend, Vendor};

#[path = "none.rs"]
mod none;

pub(super) static BACKENDS: &[Backend] = &[];

/// Only x86-64 tells the vendor.
pub(super) fn vendor() -> Vendor {
    Vendor::Other
}
