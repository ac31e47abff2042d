//! The engine's two halves, to run apart: the filter ([`BlockFilter`]),
//! which reads only the message, and the hashing half
//! ([`Hasher::update_with_masks`](crate::Hasher::update_with_masks)), which
//! compresses the blocks without a candidate with plain rounds and tests
//! the candidates the masks name. Nothing here starts a thread: the two
//! halves run wherever the caller puts them (two threads: src/parallel;
//! two Web Workers).

use core::fmt;

use crate::block::{Partial, split_blocks};
use crate::platform::Platform;

/// The filter half of collision detection, fed the message in chunks of
/// any length: for each chunk, the candidate mask of every block the chunk
/// completes (bit i set: disturbance vector i, in the table order of
/// [`DisturbanceVector::index`](crate::DisturbanceVector::index), is a
/// candidate; 0 for most blocks). It carries the start of a block a chunk
/// leaves unfinished into the next chunk.
///
/// The masks of a chunk go, with the same chunk, to
/// [`Hasher::update_with_masks`](crate::Hasher::update_with_masks) of the
/// hasher this filter was made from ([`Hasher::block_filter`](crate::Hasher::block_filter)):
/// the filter depends only on the message, never on the chaining value, so
/// it can run ahead of the hashing, elsewhere.
///
/// ```
/// use sha1dc_wasm::Hasher;
///
/// let pdf = include_bytes!("../tests/data/shattered-1.prefix320.bin");
/// let mut hasher = Hasher::new();
/// let mut filter = hasher.block_filter();
/// for chunk in pdf.chunks(100) {
///     let mut masks = [0u32; 2];
///     let n = filter.filter(chunk, &mut masks)?;
///     hasher.update_with_masks(chunk, &masks[..n])?;
/// }
/// assert_eq!(hasher.finalize(), sha1dc_wasm::hash(pdf));
/// # Ok::<(), sha1dc_wasm::MaskCountError>(())
/// ```
#[derive(Clone)]
pub struct BlockFilter {
    platform: Platform,
    /// The start of the block the chunks so far left unfinished.
    partial: Partial,
}

impl BlockFilter {
    /// A filter on `platform`'s vectors whose next chunk continues the
    /// unfinished block `partial`.
    pub(crate) fn new(platform: Platform, partial: Partial) -> Self {
        BlockFilter { platform, partial }
    }

    /// How many masks a chunk of `len` bytes gives: the blocks it completes.
    ///
    /// ```
    /// let mut filter = sha1dc_wasm::Hasher::new().block_filter();
    /// assert_eq!(filter.masks_for(100), 1);
    /// filter.filter(&[0; 100], &mut [0; 1])?;
    /// // 36 bytes are carried: 28 more complete the second block.
    /// assert_eq!(filter.masks_for(28), 1);
    /// # Ok::<(), sha1dc_wasm::MaskCountError>(())
    /// ```
    pub fn masks_for(&self, len: usize) -> usize {
        self.partial.completes(len)
    }

    /// Filters `data`, the next bytes of the message: writes the mask of
    /// each block it completes to `masks`, in order, and returns how many
    /// ([`masks_for`](Self::masks_for)). A `masks` too short for them is an
    /// error, and nothing is filtered.
    pub fn filter(&mut self, data: &[u8], masks: &mut [u32]) -> Result<usize, MaskCountError> {
        let count = self.masks_for(data.len());
        let given = masks.len();
        let mut out = masks.get_mut(..count).ok_or(MaskCountError {
            expected: count,
            given,
        })?;
        let (filled, data) = self.partial.fill(data);
        if let Some(block) = filled {
            self.platform.filter_masks(&[block], &mut out[..1]);
            out = &mut out[1..];
        }
        let (blocks, rest) = split_blocks(data);
        self.platform.filter_masks(blocks, out);
        self.partial.keep(rest);
        Ok(count)
    }
}

/// The backend and how many bytes of an unfinished block it carries; never
/// the bytes.
impl fmt::Debug for BlockFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockFilter")
            .field("backend", &self.platform.name())
            .field("carried", &self.partial.bytes().len())
            .finish_non_exhaustive()
    }
}

/// A chunk and its masks disagree: one mask is needed for each block the
/// chunk completes ([`BlockFilter::masks_for`]), and this many were given,
/// or there was room for this many ([`BlockFilter::filter`]). Nothing was
/// hashed or filtered.
///
/// ```
/// let mut hasher = sha1dc_wasm::Hasher::new();
/// let err = hasher.update_with_masks(&[0; 128], &[0]).unwrap_err();
/// assert_eq!((err.expected(), err.given()), (2, 1));
/// assert_eq!(hasher.len(), 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskCountError {
    pub(crate) expected: usize,
    pub(crate) given: usize,
}

impl MaskCountError {
    /// The blocks the chunk completes: the masks it needs.
    pub fn expected(&self) -> usize {
        self.expected
    }

    /// The masks given, or the room for them.
    pub fn given(&self) -> usize {
        self.given
    }
}

impl fmt::Display for MaskCountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a chunk that completes {} blocks needs as many masks, not {}",
            self.expected, self.given
        )
    }
}
