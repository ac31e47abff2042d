//! The 64-byte message block, its words, its schedule in the two layouts
//! the compressors store it in, and the padding: the leaf every other module
//! may import.

/// A message block: 64 bytes.
pub(crate) type Block = [u8; 64];

/// `data` as its whole blocks and the bytes after them (what
/// `<[u8]>::as_chunks::<64>` gives from Rust 1.88).
#[inline(always)]
pub(crate) fn split_blocks(data: &[u8]) -> (&[Block], &[u8]) {
    let count = data.len() / 64;
    let (whole, rest) = data.split_at(count * 64);
    // SAFETY: `whole` is `count * 64` bytes, and a `Block` is 64 bytes with
    // alignment 1.
    let blocks = unsafe { core::slice::from_raw_parts(whole.as_ptr().cast::<Block>(), count) };
    (blocks, rest)
}

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

/// A block's 80 schedule words as a compressor stores them while its rounds
/// run, for the per-block filter (src/filter/per_block.rs) to read.
pub(crate) trait Schedule: Default {
    /// Word t is stored at `79 - t` rather than at `t`, so that a vector
    /// load of consecutive stored words holds the words in reverse lane
    /// order.
    const MIRRORED: bool;

    /// The words as stored.
    fn stored(&self) -> &[u32; 80];

    /// Where the first of `n` consecutive stored words that hold words
    /// `t..t + n` starts.
    #[inline(always)]
    fn index(t: usize, n: usize) -> usize {
        if Self::MIRRORED { 80 - t - n } else { t }
    }

    /// Word `t`.
    #[inline(always)]
    fn word(&self, t: usize) -> u32 {
        self.stored()[Self::index(t, 1)]
    }

    /// The words in order.
    fn words(&self) -> [u32; 80] {
        core::array::from_fn(|t| self.word(t))
    }
}

/// The schedule in order: word t at `t` (the portable rounds).
pub(crate) struct InOrder(pub [u32; 80]);

impl Default for InOrder {
    fn default() -> Self {
        InOrder([0; 80])
    }
}

impl Schedule for InOrder {
    const MIRRORED: bool = false;

    #[inline(always)]
    fn stored(&self) -> &[u32; 80] {
        &self.0
    }
}

/// The schedule mirrored: word t at `79 - t`, as the SHA-NI rounds hold
/// their words, four to a vector with the first in the top lane: such a
/// vector is stored as it is ([`group_mut`](Self::group_mut)).
pub(crate) struct Mirrored([u32; 80]);

impl Default for Mirrored {
    fn default() -> Self {
        Mirrored([0; 80])
    }
}

impl Mirrored {
    /// The words `w` (in order), mirrored.
    #[cfg(test)]
    pub(crate) fn from_words(w: &[u32; 80]) -> Self {
        Mirrored(core::array::from_fn(|i| w[79 - i]))
    }

    /// Where the vector of words `4i..4i + 4` (word 4i in its top lane) is
    /// stored.
    #[inline(always)]
    pub(crate) fn group_mut(&mut self, i: usize) -> &mut [u32; 4] {
        let at = Self::index(4 * i, 4);
        (&mut self.0[at..at + 4]).try_into().unwrap()
    }
}

impl Schedule for Mirrored {
    const MIRRORED: bool = true;

    #[inline(always)]
    fn stored(&self) -> &[u32; 80] {
        &self.0
    }
}

/// The start of a block the input so far left unfinished: fewer than 64
/// bytes, carried into the next input (the streaming engine's buffer, and
/// the filter half's).
#[derive(Clone, Copy)]
pub(crate) struct Partial {
    bytes: Block,
    len: usize,
}

impl Partial {
    /// Nothing carried.
    pub(crate) const EMPTY: Partial = Partial {
        bytes: [0; 64],
        len: 0,
    };

    /// `bytes` (shorter than a block) carried.
    #[cfg(feature = "std")]
    pub(crate) fn new(bytes: &[u8]) -> Self {
        let mut p = Partial::EMPTY;
        p.keep(bytes);
        p
    }

    /// The bytes carried.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// How many whole blocks `len` more bytes complete.
    pub(crate) fn completes(&self, len: usize) -> usize {
        len / 64 + (self.len + len % 64) / 64
    }

    /// Adds the start of `data`: the block that completes, if any, and the
    /// rest of `data`, which starts on a block boundary once anything was
    /// carried.
    #[inline]
    pub(crate) fn fill<'a>(&mut self, data: &'a [u8]) -> (Option<Block>, &'a [u8]) {
        if self.len == 0 {
            return (None, data);
        }
        let take = data.len().min(64 - self.len);
        self.bytes[self.len..self.len + take].copy_from_slice(&data[..take]);
        self.len += take;
        if self.len < 64 {
            return (None, &data[take..]);
        }
        self.len = 0;
        (Some(self.bytes), &data[take..])
    }

    /// Carries `rest`, the bytes after the whole blocks of an input whose
    /// start [`fill`](Self::fill) took: nothing when `fill` kept the whole
    /// input, else fewer than 64 bytes after a block boundary.
    #[inline]
    pub(crate) fn keep(&mut self, rest: &[u8]) {
        if rest.is_empty() {
            return;
        }
        debug_assert!(self.len == 0 && rest.len() < 64);
        self.bytes[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
    }
}

/// How many bytes are carried; never the bytes.
impl core::fmt::Debug for Partial {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Partial({} bytes)", self.len)
    }
}

/// Writes the blocks that end a message of `len` bytes whose last
/// `tail.len() == len % 64` bytes are `tail` into `blocks`, so that they
/// reach the backend in one call: its last whole block where the caller
/// held it back, then SHA-1's padding (one or two blocks). Returns how
/// many blocks that is. (Written in place: a block array returned by value
/// was moved with `memcpy`'s wide stores, which the rounds' 16-byte loads
/// could not read until they reached the cache.)
pub(crate) fn end_blocks(
    blocks: &mut [Block; 3],
    last: Option<&Block>,
    tail: &[u8],
    len: u64,
) -> usize {
    let n = tail.len();
    debug_assert!(n < 64);
    let at = match last {
        Some(block) => {
            blocks[0] = *block;
            1
        }
        None => 0,
    };
    let pad = &mut blocks[at..];
    pad[0] = [0; 64];
    // A message of whole blocks has no tail: no call to copy none.
    if n > 0 {
        pad[0][..n].copy_from_slice(tail);
    }
    pad[0][n] = 0x80;
    let count = if n < 56 {
        1
    } else {
        pad[1] = [0; 64];
        2
    };
    pad[count - 1][56..].copy_from_slice(&len.wrapping_mul(8).to_be_bytes());
    at + count
}
