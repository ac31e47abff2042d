//! What hashing reports: the [`Outcome`] of a message, the [`Collision`]
//! it summarises, and the [`CollisionBlock`] a reporting call hands over
//! for each flagged block (src/record.rs builds them).

use crate::dv::DisturbanceVector;
use crate::hex::Digest;

/// What hashing a message found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub(crate) digest: Digest,
    pub(crate) sha1: Digest,
    pub(crate) collision: Option<Collision>,
}

impl Outcome {
    /// The output: the safe hash when a collision was detected and safe hashing
    /// is on (the default), otherwise the plain SHA-1.
    ///
    /// ```
    /// let shattered_prefix = include_bytes!("../tests/data/shattered-1.prefix320.bin");
    /// let outcome = sha1dc_wasm::hash(shattered_prefix);
    /// assert_ne!(outcome.digest(), outcome.sha1());
    /// ```
    pub fn digest(&self) -> Digest {
        self.digest
    }

    /// The plain SHA-1 of the message, whatever was detected.
    ///
    /// ```
    /// let outcome = sha1dc_wasm::hash(include_bytes!("../tests/data/shattered-2.prefix320.bin"));
    /// assert_eq!(outcome.sha1().to_string(), "f92d74e3874587aaf443d1db961d4e26dde13e9c");
    /// ```
    pub fn sha1(&self) -> Digest {
        self.sha1
    }

    /// The first block detected as part of a collision, if any.
    ///
    /// ```
    /// let outcome = sha1dc_wasm::hash(include_bytes!("../tests/data/sha-mbles-1.bin"));
    /// let collision = outcome.collision().expect("SHA-mbles is detected");
    /// assert_eq!((collision.block(), collision.offset()), (9, 576));
    /// assert_eq!(collision.dv().to_string(), "II(52,0)");
    /// ```
    pub fn collision(&self) -> Option<Collision> {
        self.collision
    }
}

/// Where a collision was detected: the first flagged block, and how many were.
///
/// `{:?}` shows what a person debugging needs: the block, its offset, the
/// DV's name and the count.
///
/// ```
/// let outcome = sha1dc_wasm::hash(include_bytes!("../tests/data/sha-mbles-1.bin"));
/// assert_eq!(
///     format!("{:?}", outcome.collision().unwrap()),
///     "Collision { block: 9, offset: 576, dv: II(52,0), count: 1 }"
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Collision {
    pub(crate) block: u64,
    pub(crate) dv: DisturbanceVector,
    pub(crate) count: u64,
}

impl Collision {
    /// Index of the first flagged 64-byte block (0 is the first block).
    pub fn block(&self) -> u64 {
        self.block
    }

    /// Byte offset of the first flagged block in the message.
    pub fn offset(&self) -> u64 {
        self.block * 64
    }

    /// The disturbance vector whose recompression matched in the first flagged block.
    pub fn dv(&self) -> DisturbanceVector {
        self.dv
    }

    /// How many blocks were flagged in all (1 for each public collision).
    pub fn count(&self) -> u64 {
        self.count
    }
}

impl core::fmt::Debug for Collision {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Collision")
            .field("block", &self.block)
            .field("offset", &self.offset())
            .field("dv", &self.dv)
            .field("count", &self.count)
            .finish()
    }
}

/// A placeholder for the slices [`Builder::hash_many_into`](crate::Builder::hash_many_into)
/// fills: zero digests, no collision (no message hashes to it).
impl Default for Outcome {
    fn default() -> Self {
        Outcome {
            digest: Digest::from([0u8; 20]),
            sha1: Digest::from([0u8; 20]),
            collision: None,
        }
    }
}

/// One block found to be half of a collision, as
/// [`Hasher::update_reporting`](crate::Hasher::update_reporting) reports it:
/// the values the reference library's collision callback receives
/// (`byteoffset`, `ihvin1`, `ihvin2`, `m1`, `m2`).
///
/// The partner block is the one that, from the chaining value
/// [`partner_chain`](Self::partner_chain) and with the expanded message
/// [`partner_words`](Self::partner_words), gives the same output chaining
/// value as this block (or, for a reduced-round collision, starts from the
/// same input).
///
/// ```
/// use sha1dc_wasm::Hasher;
///
/// let pdf = include_bytes!("../tests/data/shattered-1.prefix320.bin");
/// let mut flagged = Vec::new();
/// let mut hasher = Hasher::new();
/// hasher.update_reporting(pdf, &mut |b| flagged.push(b.clone()));
/// let outcome = hasher.finalize();
/// assert_eq!(flagged.len(), 1);
/// assert_eq!(flagged[0].offset(), 256);
/// assert_eq!(flagged[0].dv(), outcome.collision().unwrap().dv());
/// // The partner's message differs by the DV's message difference only.
/// assert_ne!(flagged[0].words(), flagged[0].partner_words());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CollisionBlock {
    pub(crate) offset: u64,
    pub(crate) dv: DisturbanceVector,
    pub(crate) chain: [u32; 5],
    pub(crate) partner_chain: [u32; 5],
    pub(crate) words: [u32; 80],
    pub(crate) partner_words: [u32; 80],
}

impl CollisionBlock {
    /// Byte offset of the block's first byte in the message (a multiple of
    /// 64; a block of the padding counts from the message's start too).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The disturbance vector whose test matched: the first in table order,
    /// as the reference stops at the first.
    pub fn dv(&self) -> DisturbanceVector {
        self.dv
    }

    /// The chaining value into the block (the reference's `ihvin1`): the
    /// safe chain when an earlier collision already changed it.
    pub fn chain(&self) -> [u32; 5] {
        self.chain
    }

    /// The partner block's input chaining value, recomputed from the working
    /// state the two blocks share (the reference's `ihvin2`).
    pub fn partner_chain(&self) -> [u32; 5] {
        self.partner_chain
    }

    /// The block's 80 expanded message words (the reference's `m1`).
    pub fn words(&self) -> &[u32; 80] {
        &self.words
    }

    /// The partner's expanded message: [`words`](Self::words) xor the DV's
    /// message difference (the reference's `m2`).
    pub fn partner_words(&self) -> &[u32; 80] {
        &self.partner_words
    }
}

/// The offset, the DV's name and the two chaining values in hex; the
/// message words are left out (160 numbers).
impl core::fmt::Debug for CollisionBlock {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let hex = |c: &[u32; 5]| Hex5(*c);
        f.debug_struct("CollisionBlock")
            .field("offset", &self.offset)
            .field("dv", &format_args!("{}", self.dv))
            .field("chain", &hex(&self.chain))
            .field("partner_chain", &hex(&self.partner_chain))
            .finish_non_exhaustive()
    }
}

/// Five words as hex, for `Debug`.
struct Hex5([u32; 5]);

impl core::fmt::Debug for Hex5 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let [a, b, c, d, e] = self.0;
        write!(f, "[{a:08x} {b:08x} {c:08x} {d:08x} {e:08x}]")
    }
}
