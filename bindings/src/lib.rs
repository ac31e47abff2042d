//! The wasm-bindgen bindings under the npm package's JavaScript wrapper.
//!
//! A crate of its own, so the `sha1dc-wasm` library stays plain Rust: a
//! program that depends on the library and targets wasm32 gets none of these
//! exports in its module, and may use any wasm-bindgen version. Only the
//! public API of the library is used here.
//!
//! These are the raw entry points; the wrapper (`npm/core.mjs`)
//! checks the JavaScript arguments, splits large inputs and builds the result
//! objects. Every fallible entry returns `Result<_, JsError>`, so an error
//! reaches JavaScript as a thrown `Error`, never as an `unreachable` trap.
//!
//! A result is the output digest alone (20 bytes) when no collision was
//! detected, otherwise 72 bytes: the output digest (0..20), the plain SHA-1
//! (20..40), 1 at byte 40 when a collision was detected, the first flagged
//! block's disturbance vector index at byte 41, then the first flagged block
//! index (48..56), the number of flagged blocks (56..64) and the first
//! flagged block's offset in the content (64..72), all little-endian `u64`.
//! The block index counts from the start of what was hashed (for a git blob,
//! the header); the offset is the library's: for a git blob, in the file's
//! own bytes (see `sha1dc_wasm::git::ObjectOutcome::collision_offset`).
//!
//! One-call hashing (`sha1dc`, `sha1dcMany`) crosses through `RawCalls`:
//! JavaScript writes the message, or a batch end to end with its lengths,
//! into buffers in wasm memory and reads the results there, 72 bytes each;
//! the library's batch API hashes a batch one message per vector lane.
//!
//! Git blobs go through the library's `git` module, the code `sha1dcsum
//! --git-blob` runs too.
//!
//! sha1dcsum's checksum lines (lines.rs: the package's `parseChecksumLine`
//! and `formatChecksumLine`) come from the sha1dcsum crate, as do the rest
//! of its library the package's command needs, in a module of their own
//! (cli/, so that this one stays small): one implementation of the line
//! format and of the option table.
//!
//! The hasher's two halves, for two workers: `RawFilter` gives the
//! candidate masks of the blocks each chunk completes, and
//! `RawHasher::updateWithMasks` hashes the same chunk with them. Both start
//! at the start of a message built from the same option bits and size (a
//! git blob's header included), so a worker that only filters needs nothing
//! from the one that hashes.
// Native builds of the workspace compile this crate to nothing.
#![cfg(target_arch = "wasm32")]

extern crate alloc;

mod lines;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

use sha1dc_wasm::git::{ObjectHasher, ObjectKind, ObjectOutcome};
use sha1dc_wasm::{
    BlockFilter, Builder, Digest, DisturbanceVector, Hasher, MaskCountError, Outcome,
};

/// Option bit: output the safe hash when a collision is detected.
const SAFE_HASH: u32 = 1;
/// Option bit: also detect reduced-round collisions.
const REDUCED_ROUND: u32 = 2;
/// Option bit: hash as a git blob object (`blob <size>\0` before the data).
const GIT_BLOB: u32 = 4;
/// Bytes of one encoded result.
const RESULT_LEN: usize = 72;
/// Bytes of a digest in hex.
const HEX_LEN: usize = 40;
/// The largest exact integer a JavaScript number holds.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn builder(flags: u32) -> Builder {
    Hasher::builder()
        .safe_hash(flags & SAFE_HASH != 0)
        .reduced_round(flags & REDUCED_ROUND != 0)
}

/// `outcome` encoded; `content_offset` is the first flagged block's offset
/// in the content when that differs from the block's own (a git blob).
/// Without a collision, only the digest (the first 20 bytes; the plain
/// SHA-1 is the same): V8 allocates a typed array of at most 64 bytes in
/// its heap and a larger one off-heap, which costs more than hashing a
/// short message (bench-wasm/README.md has the figures).
fn encode(outcome: &Outcome, content_offset: Option<u64>) -> Vec<u8> {
    if outcome.collision().is_none() {
        return outcome.digest().as_bytes().to_vec();
    }
    let mut out = Vec::with_capacity(RESULT_LEN);
    encode_into(&mut out, outcome, content_offset);
    out
}

/// `outcome` in the long form (RESULT_LEN bytes), appended to `out`.
fn encode_into(out: &mut Vec<u8>, outcome: &Outcome, content_offset: Option<u64>) {
    out.extend_from_slice(outcome.digest().as_bytes());
    out.extend_from_slice(outcome.sha1().as_bytes());
    let (flag, dv, block, count, offset) = match outcome.collision() {
        Some(c) => (
            1,
            c.dv().index() as u8,
            c.block(),
            c.count(),
            content_offset.unwrap_or(c.offset()),
        ),
        None => (0, 0, 0, 0, 0),
    };
    out.extend_from_slice(&[flag, dv, 0, 0, 0, 0, 0, 0]);
    out.extend_from_slice(&block.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&offset.to_le_bytes());
}

fn encode_object(outcome: &ObjectOutcome) -> Vec<u8> {
    encode(outcome.outcome(), outcome.collision_offset())
}

/// `data` cut into messages of the sizes `lengths`, which must add up to
/// its length.
fn split<'a>(data: &'a [u8], lengths: &[u32]) -> Result<Vec<&'a [u8]>, JsError> {
    let mut messages = Vec::with_capacity(lengths.len());
    let mut at = 0usize;
    for &len in lengths {
        let end = at
            .checked_add(len as usize)
            .filter(|&end| end <= data.len())
            .ok_or_else(|| {
                JsError::new(&format!(
                    "sha1dc: sha1dcMany: the lengths add up to more than the {} bytes of data",
                    data.len()
                ))
            })?;
        messages.push(&data[at..end]);
        at = end;
    }
    if at != data.len() {
        return Err(JsError::new(&format!(
            "sha1dc: sha1dcMany: the lengths add up to {at} bytes, but the data has {}",
            data.len()
        )));
    }
    Ok(messages)
}

/// The one-call crossing of the wrapper's `sha1dc` and `sha1dcMany`: buffers
/// in wasm memory, kept from call to call, that JavaScript writes the
/// messages into (at the addresses `input` and `lengths` give) and reads the
/// results from (at the address `hash` and `hashMany` return), RESULT_LEN
/// bytes each, always in the long form. A call then copies its message in
/// once and allocates nothing on either side: wasm-bindgen's own slices and
/// vectors cost an allocation and a copy each way.
#[wasm_bindgen]
pub struct RawCalls {
    /// The messages of the next call, end to end.
    input: Vec<u8>,
    /// The sizes of the next batch's messages, in order.
    lengths: Vec<u32>,
    /// The results of the last call.
    results: Vec<u8>,
}

/// A length the buffer given does not hold, as the wrapper's callers see it.
fn beyond(what: &str, len: usize, held: usize) -> JsError {
    JsError::new(&format!(
        "sha1dc: RawCalls: {len} {what} asked for, but only {held} were written"
    ))
}

#[wasm_bindgen]
impl RawCalls {
    #[wasm_bindgen(constructor)]
    pub fn new() -> RawCalls {
        RawCalls {
            input: Vec::new(),
            lengths: Vec::new(),
            results: Vec::with_capacity(RESULT_LEN),
        }
    }

    /// The address of room for `len` bytes of input, valid until the next
    /// call of this method (which may move it) or of `lengths` (which may
    /// grow the memory).
    pub fn input(&mut self, len: u32) -> u32 {
        if self.input.len() < len as usize {
            self.input.resize(len as usize, 0);
        }
        self.input.as_mut_ptr() as u32
    }

    /// The address of room for `count` message sizes (`u32`, little-endian).
    pub fn lengths(&mut self, count: u32) -> u32 {
        if self.lengths.len() < count as usize {
            self.lengths.resize(count as usize, 0);
        }
        self.lengths.as_mut_ptr() as u32
    }

    /// Hashes the first `len` bytes of the input as a [`RawHasher`] does;
    /// the address of the result, or 0 when fewer than `len` bytes were
    /// asked for (no `Result`: its return would cost every call a
    /// JavaScript array).
    pub fn hash(&mut self, len: u32, flags: u32) -> u32 {
        let Some(data) = self.input.get(..len as usize) else {
            return 0;
        };
        self.results.clear();
        if flags & GIT_BLOB != 0 {
            let mut h = builder(flags).build_object(ObjectKind::Blob, data.len() as u64);
            h.update(data);
            let outcome = h.finalize().expect("the length announced is the data's");
            encode_into(
                &mut self.results,
                outcome.outcome(),
                outcome.collision_offset(),
            );
        } else {
            encode_into(&mut self.results, &builder(flags).hash(data), None);
        }
        self.results.as_ptr() as u32
    }

    /// Hashes the `count` messages whose sizes are at `lengths`, end to end
    /// in the first `len` bytes of the input, one per simd128 lane (the library's batch API): each result exactly what
    /// [`hash`](Self::hash) gives for that message with the same `flags`; the
    /// address of their results, in order, followed by each one's output
    /// digest in hex (40 ASCII digits each: JavaScript decodes them all in
    /// one call, cheaper than building each string from its codes).
    #[wasm_bindgen(js_name = hashMany)]
    pub fn hash_many(&mut self, count: u32, len: u32, flags: u32) -> Result<u32, JsError> {
        let data = self
            .input
            .get(..len as usize)
            .ok_or_else(|| beyond("bytes", len as usize, self.input.len()))?;
        let lengths = self
            .lengths
            .get(..count as usize)
            .ok_or_else(|| beyond("lengths", count as usize, self.lengths.len()))?;
        let messages = split(data, lengths)?;
        self.results.clear();
        self.results
            .reserve(messages.len() * (RESULT_LEN + HEX_LEN));
        if flags & GIT_BLOB != 0 {
            for outcome in builder(flags).hash_objects(ObjectKind::Blob, &messages) {
                encode_into(
                    &mut self.results,
                    outcome.outcome(),
                    outcome.collision_offset(),
                );
            }
        } else {
            for outcome in builder(flags).hash_many(&messages) {
                encode_into(&mut self.results, &outcome, None);
            }
        }
        // Each output digest (a result's first 20 bytes) in hex, after them all.
        for k in 0..messages.len() {
            let mut digest = [0u8; 20];
            digest.copy_from_slice(&self.results[k * RESULT_LEN..][..20]);
            self.results
                .extend_from_slice(&Digest::from(digest).to_hex());
        }
        Ok(self.results.as_ptr() as u32)
    }
}

impl Default for RawCalls {
    fn default() -> Self {
        Self::new()
    }
}

/// The module's memory, where [`RawCalls`]'s addresses point.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// The name of the backend that runs (`"simd128"` in the SIMD build).
#[wasm_bindgen(js_name = backendName)]
pub fn backend_name() -> String {
    Hasher::new().backend().to_string()
}

/// The name of disturbance vector `index` (0..32), like `"II(52,0)"`; empty
/// for an index out of range.
#[wasm_bindgen(js_name = dvName)]
pub fn dv_name(index: u32) -> String {
    DisturbanceVector::by_index(index as usize).map_or_else(String::new, |dv| dv.to_string())
}

/// A streaming hasher for the wrapper's `createHasher` and `hashStream`.
#[wasm_bindgen]
pub struct RawHasher {
    /// `None` once finished.
    inner: Option<Inner>,
    /// The message size the caller announced, checked when finishing.
    size: Option<u64>,
}

/// A plain message, or a git blob (its header hashed at creation).
enum Inner {
    Plain(Hasher),
    Blob(ObjectHasher),
}

impl Inner {
    fn update(&mut self, data: &[u8]) {
        match self {
            Inner::Plain(h) => h.update(data),
            Inner::Blob(h) => h.update(data),
        }
    }

    fn update_with_masks(&mut self, data: &[u8], masks: &[u32]) -> Result<(), MaskCountError> {
        match self {
            Inner::Plain(h) => h.update_with_masks(data, masks),
            Inner::Blob(h) => h.update_with_masks(data, masks),
        }
    }

    fn block_filter(&self) -> BlockFilter {
        match self {
            Inner::Plain(h) => h.block_filter(),
            Inner::Blob(h) => h.block_filter(),
        }
    }

    /// Bytes of data so far (a blob's header not counted).
    fn len(&self) -> u64 {
        match self {
            Inner::Plain(h) => h.len(),
            Inner::Blob(h) => h.content_len(),
        }
    }
}

/// `size` as a byte count: a non-negative safe integer.
fn checked_size(size: f64) -> Result<u64, JsError> {
    if size.is_finite() && size >= 0.0 && size.fract() == 0.0 && size <= MAX_SAFE_INTEGER {
        Ok(size as u64)
    } else {
        // Not formatted: float formatting would add kilobytes of code.
        Err(JsError::new(
            "sha1dc: size must be a non-negative safe integer",
        ))
    }
}

impl Inner {
    /// At the start of a message with the option bits `flags`: a git blob's
    /// header hashed (it needs the size).
    fn new(flags: u32, size: Option<u64>) -> Result<Inner, JsError> {
        if flags & GIT_BLOB == 0 {
            return Ok(Inner::Plain(builder(flags).build()));
        }
        let Some(size) = size else {
            return Err(JsError::new(
                "sha1dc: gitBlob needs the message size (options.size) before the data",
            ));
        };
        Ok(Inner::Blob(
            builder(flags).build_object(ObjectKind::Blob, size),
        ))
    }
}

/// [`BlockFilter::masks_for`] of a length JavaScript can hold, which may
/// exceed wasm32's `usize`: a whole number of blocks completes as many.
fn masks_for(filter: &BlockFilter, len: u64) -> f64 {
    (len / 64 + filter.masks_for((len % 64) as usize) as u64) as f64
}

/// A wrong number of masks, as the wrapper's callers see it.
fn mask_count_error(e: MaskCountError) -> JsError {
    JsError::new(&format!(
        "sha1dc: updateWithMasks: the chunk completes {} blocks and needs one mask for each (from a filter fed the same chunks), but {} were given",
        e.expected(),
        e.given()
    ))
}

const SPENT: &str = "sha1dc: this hasher has already been digested; create a new one";

#[wasm_bindgen]
impl RawHasher {
    /// A hasher with the option bits `flags`; `size`, when given, is the
    /// message size to expect (required for a git blob: it is in the header).
    #[wasm_bindgen(constructor)]
    pub fn new(flags: u32, size: Option<f64>) -> Result<RawHasher, JsError> {
        let size = size.map(checked_size).transpose()?;
        Ok(RawHasher {
            inner: Some(Inner::new(flags, size)?),
            size,
        })
    }

    fn live(&mut self) -> Result<&mut Inner, JsError> {
        self.inner.as_mut().ok_or_else(|| JsError::new(SPENT))
    }

    /// Adds bytes to the message.
    pub fn update(&mut self, data: &[u8]) -> Result<(), JsError> {
        self.live()?.update(data);
        Ok(())
    }

    /// Adds bytes to the message with their candidate masks: one for each
    /// block `data` completes, from a [`RawFilter`] fed the same bytes. A
    /// wrong number is an error, and nothing is hashed.
    #[wasm_bindgen(js_name = updateWithMasks)]
    pub fn update_with_masks(&mut self, data: &[u8], masks: &[u32]) -> Result<(), JsError> {
        self.live()?
            .update_with_masks(data, masks)
            .map_err(mask_count_error)
    }

    /// How many masks [`update_with_masks`](Self::update_with_masks) needs
    /// for `len` more bytes here: the blocks they complete.
    #[wasm_bindgen(js_name = masksFor)]
    pub fn masks_for(&mut self, len: f64) -> Result<f64, JsError> {
        Ok(masks_for(&self.live()?.block_filter(), checked_size(len)?))
    }

    /// Adds the UTF-8 encoding of `text` to the message.
    #[wasm_bindgen(js_name = updateString)]
    pub fn update_string(&mut self, text: &str) -> Result<(), JsError> {
        self.update(text.as_bytes())
    }

    /// Bytes of data added so far (the git header not counted).
    pub fn length(&self) -> f64 {
        self.inner.as_ref().map_or(0.0, |h| h.len() as f64)
    }

    /// Finishes the message: the encoded result. The hasher is spent after
    /// this, whether it succeeds or fails.
    pub fn finish(&mut self) -> Result<Vec<u8>, JsError> {
        let inner = self.inner.take().ok_or_else(|| JsError::new(SPENT))?;
        let got = inner.len();
        if let Some(want) = self.size
            && want != got
        {
            return Err(JsError::new(&format!(
                "sha1dc: the size given was {want} bytes, but {got} bytes were hashed"
            )));
        }
        Ok(match inner {
            Inner::Plain(h) => encode(&h.finalize(), None),
            Inner::Blob(h) => {
                encode_object(&h.finalize().map_err(|e| JsError::new(&e.to_string()))?)
            }
        })
    }
}

/// The filter half of detection for the wrapper's `createFilter` and the
/// two-worker `hashStream`: the masks a [`RawHasher`] built with the same
/// option bits and size needs for the same chunks.
#[wasm_bindgen]
pub struct RawFilter {
    inner: BlockFilter,
}

#[wasm_bindgen]
impl RawFilter {
    /// A filter at the start of a message with the option bits `flags`
    /// (only a git blob's matters: its header) and `size` (required for a
    /// git blob).
    #[wasm_bindgen(constructor)]
    pub fn new(flags: u32, size: Option<f64>) -> Result<RawFilter, JsError> {
        let size = size.map(checked_size).transpose()?;
        Ok(RawFilter {
            inner: Inner::new(flags, size)?.block_filter(),
        })
    }

    /// How many masks `len` more bytes give here: the blocks they complete.
    #[wasm_bindgen(js_name = masksFor)]
    pub fn masks_for(&self, len: f64) -> Result<f64, JsError> {
        Ok(masks_for(&self.inner, checked_size(len)?))
    }

    /// Filters the next bytes of the message: the mask of each block they
    /// complete, in order.
    pub fn filter(&mut self, data: &[u8]) -> Vec<u32> {
        let mut masks = alloc::vec![0; self.inner.masks_for(data.len())];
        // Room for exactly the blocks `data` completes: never an error.
        let _ = self.inner.filter(data, &mut masks);
        masks
    }
}
