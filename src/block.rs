//! The 64-byte message block and its big-endian words: the leaf every
//! other module may import.

/// A message block: 64 bytes.
pub(crate) type Block = [u8; 64];

/// The 16 big-endian message words of a block.
#[inline(always)]
pub(crate) fn load_words(block: &Block) -> [u32; 16] {
    let mut m = [0u32; 16];
    for (word, bytes) in m.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    m
}

/// The 80 expanded message words of a block.
#[inline(always)]
pub(crate) fn expand(block: &Block) -> [u32; 80] {
    let mut w = [0u32; 80];
    w[..16].copy_from_slice(&load_words(block));
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    w
}
