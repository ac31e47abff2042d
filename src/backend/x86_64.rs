//! The x86_64 backends, fastest first.

use super::Backend;

pub(super) static BACKENDS: &[Backend] = &[];
