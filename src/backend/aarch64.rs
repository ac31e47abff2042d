//! The aarch64 backends, fastest first.

use super::Backend;

pub(super) static BACKENDS: &[Backend] = &[];
