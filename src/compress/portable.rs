//! SHA-1 compression in plain Rust, for every target.

use super::{Block, compress_expanded, expand};

/// Compresses `blocks` into the chaining value `ihv`.
pub(crate) fn compress_blocks(ihv: &mut [u32; 5], blocks: &[Block]) {
    for block in blocks {
        compress_expanded(ihv, &expand(block));
    }
}
