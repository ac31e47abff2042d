//! Many messages at once (multi-buffer): one message per vector lane.
//!
//! One stream of SHA-1 is bound by the latency of its chain, even with
//! SHA-NI; independent messages are not. Each lane of a [`Lanes`] vector
//! holds one message's chaining value, and every step of the loop takes the
//! next block of every lane: the filter already works one block per lane,
//! and so does the compression written over the same trait
//! (compress/lanes.rs; the portable compressor is its one-lane form). A
//! lane whose message ends takes the next message at once, so no lane waits
//! for the longest one, and the last few lanes of a batch finish on the
//! single stream. A block the filter lets through (about 5% of random
//! blocks) is tested by the backend's own `test_flagged` from the states
//! the lane compression kept, and a collision is recorded exactly as the
//! streaming engine records it ([`Detection`]), so every result equals
//! what [`crate::hash`] gives.

use crate::backend::Backend;
use crate::block::Block;
use crate::compress::IV;
use crate::compress::lanes::compress_lanes;
use crate::engine::{Config, Detection, Engine};
use crate::filter::Filter;
use crate::git::{Header, ObjectKind, ObjectOutcome};
use crate::lanes::Lanes;
use crate::recompress::{Candidates, Kept};
use crate::{Digest, Outcome};

/// The most lanes a form has (AVX-512: 16).
const MAX_LANES: usize = 16;

/// Once no message waits and at most `LANES / DRAIN` lanes are busy, they
/// finish on the single stream: a vector step costs the same for one busy
/// lane as for all of them.
const DRAIN: usize = 4;

/// One message: a header (a git object's `<type> <len>\0`, or nothing) and
/// the content, hashed as one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Message<'a> {
    header: Header,
    content: &'a [u8],
}

impl<'a> Message<'a> {
    /// The content alone.
    pub(crate) fn plain(content: &'a [u8]) -> Self {
        Message {
            header: Header::EMPTY,
            content,
        }
    }

    /// A git object: its header, then the content.
    pub(crate) fn object(kind: ObjectKind, content: &'a [u8]) -> Self {
        Message {
            header: Header::new(kind, content.len() as u64),
            content,
        }
    }

    fn len(&self) -> u64 {
        (self.header.as_bytes().len() + self.content.len()) as u64
    }

    /// Blocks with the padding: the 0x80 byte and the 8-byte bit length.
    fn blocks(&self) -> u64 {
        (self.len() + 9).div_ceil(64)
    }

    /// Block `i` of the padded message.
    fn block(&self, i: u64) -> Block {
        let mut out = [0u8; 64];
        let start = i * 64;
        let len = self.len();
        // The part of `part`, which starts at message offset `at`, that
        // falls in this block.
        let mut copy = |part: &[u8], at: u64| {
            let from = start.max(at);
            let to = (start + 64).min(at + part.len() as u64);
            if from < to {
                out[(from - start) as usize..(to - start) as usize]
                    .copy_from_slice(&part[(from - at) as usize..(to - at) as usize]);
            }
        };
        let header = self.header.as_bytes();
        copy(header, 0);
        copy(self.content, header.len() as u64);
        if (start..start + 64).contains(&len) {
            out[(len - start) as usize] = 0x80;
        }
        if i + 1 == self.blocks() {
            out[56..].copy_from_slice(&len.wrapping_mul(8).to_be_bytes());
        }
        out
    }
}

/// A lane's message in flight.
#[derive(Clone, Copy)]
struct Lane<'a> {
    /// Where its outcome goes.
    slot: usize,
    message: Message<'a>,
    /// The next block to compress, and how many there are.
    next: u64,
    blocks: u64,
    detection: Detection,
}

/// Message `i` of a batch, for `i` in `0..out.len()`.
pub(crate) type Messages<'a, 'b> = &'b dyn Fn(usize) -> Message<'a>;

/// Hashes message `i` (of [`Messages`]) into `out[i]`, `V::LANES` at a
/// time, with `backend`'s flagged-block check.
///
/// # Safety
/// The CPU must support `V`'s instruction set and `backend`.
#[inline(always)]
pub(crate) unsafe fn hash_lanes<V: Lanes>(
    backend: &'static Backend,
    config: Config,
    messages: Messages<'_, '_>,
    out: &mut [Outcome],
) {
    let n = V::LANES;
    debug_assert!(n <= MAX_LANES);
    let mut lanes: [Option<Lane<'_>>; MAX_LANES] = [None; MAX_LANES];
    // Word k of every lane's output chain, lane j at [k][j].
    let mut chains = [[0u32; MAX_LANES]; 5];
    let mut queue = (0..out.len()).map(|i| (i, messages(i)));
    loop {
        // Refill the empty lanes.
        let mut waiting = true;
        for (j, lane) in lanes[..n].iter_mut().enumerate() {
            if lane.is_none() {
                let Some((slot, message)) = queue.next() else {
                    waiting = false;
                    continue;
                };
                *lane = Some(Lane {
                    slot,
                    message,
                    next: 0,
                    blocks: message.blocks(),
                    detection: Detection::default(),
                });
                for (k, word) in IV.iter().enumerate() {
                    chains[k][j] = *word;
                }
            }
        }
        let busy = lanes[..n].iter().flatten();
        // A lane into its padding is at most one step from its end, and the
        // engine cannot resume there.
        let resumable = busy.clone().all(|l| l.next * 64 <= l.message.len());
        if !waiting && busy.count() * DRAIN <= n && resumable {
            // The tail of the batch: what is left of each lane's message on
            // the single stream, from the lane's chain.
            for (j, lane) in lanes[..n].iter().enumerate() {
                if let Some(lane) = lane {
                    let chain = core::array::from_fn(|k| chains[k][j]);
                    out[lane.slot] = finish_alone(backend, config, lane, chain);
                }
            }
            return;
        }
        let mut blocks = [[0u8; 64]; MAX_LANES];
        for (block, lane) in blocks.iter_mut().zip(&lanes[..n]) {
            if let Some(lane) = lane {
                *block = lane.message.block(lane.next);
            }
        }
        let mut masks = [0u32; MAX_LANES];
        // Word k of every lane's state before step 60, lane j at [k][j].
        let mut at_60 = [[0u32; MAX_LANES]; 5];
        let chains_in = chains;
        // SAFETY: the caller guarantees V's instruction set; each row holds
        // at least `n` words.
        unsafe {
            let first = V::load16(&blocks[..n]);
            if config.detect {
                if config.filter {
                    let mut f = Filter::<V>::from_words(&first);
                    f.part(0, 1);
                    f.finish(&mut masks[..n]);
                } else {
                    masks = [u32::MAX; MAX_LANES];
                }
            }
            let mut state: [V; 5] = core::array::from_fn(|k| V::load(&chains[k]));
            let mut before_60 = state;
            compress_lanes::<V>(&mut state, &first, &mut before_60, |_, _| {});
            for k in 0..5 {
                state[k].store(&mut chains[k]);
                before_60[k].store(&mut at_60[k]);
            }
        }
        for (j, slot) in lanes[..n].iter_mut().enumerate() {
            let Some(lane) = slot else { continue };
            let block = &blocks[j];
            if let Some(sha1_chain) = &mut lane.detection.sha1_chain {
                (backend.compress)(sha1_chain, core::slice::from_ref(block));
            }
            if masks[j] != 0 {
                let lane_of = |rows: &[[u32; MAX_LANES]; 5]| core::array::from_fn(|k| rows[k][j]);
                let kept = Kept {
                    chain_in: lane_of(&chains_in),
                    chain_out: lane_of(&chains),
                    before_60: lane_of(&at_60),
                };
                let candidates = Candidates {
                    mask: masks[j],
                    reduced_round: config.reduced_round,
                };
                if let Some(dv) = (backend.test_flagged)(&kept, block, candidates) {
                    let mut chain = kept.chain_out;
                    lane.detection
                        .on_collision(&config, &mut chain, block, lane.next, dv);
                    for (k, word) in chain.iter().enumerate() {
                        chains[k][j] = *word;
                    }
                }
            }
            lane.next += 1;
            if lane.next == lane.blocks {
                let chain = core::array::from_fn(|k| chains[k][j]);
                out[lane.slot] = lane.detection.outcome(&chain);
                *slot = None;
            }
        }
    }
}

/// The rest of a lane's message through the streaming engine.
fn finish_alone(
    backend: &'static Backend,
    config: Config,
    lane: &Lane<'_>,
    chain: [u32; 5],
) -> Outcome {
    let mut engine = Engine::resume(config, backend, chain, lane.detection, lane.next);
    let header = lane.message.header.as_bytes();
    let done = (lane.next * 64) as usize;
    engine.update(header.get(done..).unwrap_or(&[]));
    engine.update(&lane.message.content[done.saturating_sub(header.len())..]);
    engine.finalize()
}

/// The portable form: two lanes per `u64` (no CPU feature needed).
pub(crate) fn hash_many_portable(
    backend: &'static Backend,
    config: Config,
    messages: Messages<'_, '_>,
    out: &mut [Outcome],
) {
    // SAFETY: u64 lanes are plain integer arithmetic.
    unsafe { hash_lanes::<u64>(backend, config, messages, out) }
}

impl crate::Builder {
    /// Hashes every message of `messages` with these options, several at a
    /// time (one per vector lane: 16 with AVX-512, 8 with AVX2, 4 with SSE2,
    /// NEON or simd128, 2 portable), into `out`: `out[i]` is exactly what a
    /// hasher from this builder gives for `messages[i]`, collisions
    /// included. Allocates nothing.
    ///
    /// Independent messages are not bound by the latency of one SHA-1
    /// chain, so this beats hashing them one by one when there are many;
    /// the last few messages of a batch finish on the single stream.
    ///
    /// # Panics
    /// When `out` and `messages` differ in length.
    ///
    /// ```
    /// use sha1dc_wasm::{Hasher, Outcome};
    ///
    /// let messages: [&[u8]; 3] = [b"abc", b"", include_bytes!("../../tests/data/sha-mbles-1.bin")];
    /// let mut out = [Outcome::default(); 3];
    /// Hasher::builder().hash_many_into(&messages, &mut out);
    /// assert_eq!(out[0], sha1dc_wasm::hash(b"abc"));
    /// assert!(out[2].collision().is_some());
    /// ```
    pub fn hash_many_into(&self, messages: &[&[u8]], out: &mut [Outcome]) {
        assert_eq!(messages.len(), out.len(), "one outcome per message");
        let backend = self.chosen_backend();
        (backend.hash_many)(backend, self.config, &|i| Message::plain(messages[i]), out);
    }

    /// [`hash_many_into`](Self::hash_many_into) into a new vector.
    ///
    /// ```
    /// let outcomes = sha1dc_wasm::Hasher::builder().hash_many(&[b"a", b"b"]);
    /// assert_eq!(outcomes[1], sha1dc_wasm::hash(b"b"));
    /// ```
    #[cfg(feature = "std")]
    pub fn hash_many(&self, messages: &[&[u8]]) -> Vec<Outcome> {
        let mut out = vec![Outcome::default(); messages.len()];
        self.hash_many_into(messages, &mut out);
        out
    }

    /// Hashes many git objects of one kind (each `<kind> <len>\0` then its
    /// content), as [`hash_many_into`](Self::hash_many_into) does messages:
    /// `out[i]` is what [`git::hash_object`](crate::git::hash_object) gives
    /// for `contents[i]` with these options.
    ///
    /// # Panics
    /// When `out` and `contents` differ in length.
    ///
    /// ```
    /// use sha1dc_wasm::git::{ObjectKind, hash_object};
    ///
    /// let contents: [&[u8]; 2] = [b"", b"hello\n"];
    /// let ids = sha1dc_wasm::Hasher::builder().hash_objects(ObjectKind::Blob, &contents);
    /// assert_eq!(ids[1].id().to_string(), "ce013625030ba8dba906f756967f9e9ca394464a");
    /// assert_eq!(ids[0], hash_object(ObjectKind::Blob, b""));
    /// ```
    pub fn hash_objects_into(
        &self,
        kind: ObjectKind,
        contents: &[&[u8]],
        out: &mut [ObjectOutcome],
    ) {
        assert_eq!(contents.len(), out.len(), "one outcome per object");
        // Hashed in chunks, so that the outcomes can be converted without
        // an allocation.
        const CHUNK: usize = 256;
        let backend = self.chosen_backend();
        for (contents, out) in contents.chunks(CHUNK).zip(out.chunks_mut(CHUNK)) {
            let mut outcomes = [Outcome::default(); CHUNK];
            let outcomes = &mut outcomes[..contents.len()];
            (backend.hash_many)(
                backend,
                self.config,
                &|i| Message::object(kind, contents[i]),
                outcomes,
            );
            for ((o, outcome), content) in out.iter_mut().zip(outcomes).zip(contents) {
                let header_len = Message::object(kind, content).header.as_bytes().len();
                *o = ObjectOutcome::from_parts(*outcome, header_len as u64);
            }
        }
    }

    /// [`hash_objects_into`](Self::hash_objects_into) into a new vector.
    #[cfg(feature = "std")]
    pub fn hash_objects(&self, kind: ObjectKind, contents: &[&[u8]]) -> Vec<ObjectOutcome> {
        let placeholder = ObjectOutcome::from_parts(Outcome::default(), 0);
        let mut out = vec![placeholder; contents.len()];
        self.hash_objects_into(kind, contents, &mut out);
        out
    }
}

/// Hashes many messages with the default options, several at a time; see
/// [`Builder::hash_many_into`](crate::Builder::hash_many_into).
///
/// ```
/// let outcomes = sha1dc_wasm::hash_many(&[b"abc", b"def"]);
/// assert_eq!(outcomes[0], sha1dc_wasm::hash(b"abc"));
/// ```
#[cfg(feature = "std")]
pub fn hash_many(messages: &[&[u8]]) -> Vec<Outcome> {
    crate::Builder::default().hash_many(messages)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix64;

    /// The padded blocks of a two-part message are those of the whole
    /// message padded as the engine pads it, for lengths around every
    /// block boundary and every header length a git object can have.
    #[test]
    fn blocks_are_the_padded_message() {
        let mut rng = SplitMix64(0xb10c);
        let mut data = vec![0u8; 300];
        rng.fill(&mut data);
        for len in 0..data.len() {
            for header_len in [0, 1, 7, 27] {
                let whole = &data[..len];
                let header_len = header_len.min(len);
                let mut header = Header::EMPTY;
                header.bytes[..header_len].copy_from_slice(&whole[..header_len]);
                header.len = header_len as u8;
                let m = Message {
                    header,
                    content: &whole[header_len..],
                };
                let (full, tail) = whole.as_chunks::<64>();
                let (pad, count) = crate::compress::padding(tail, len as u64);
                let want: Vec<Block> = full
                    .iter()
                    .copied()
                    .chain(pad[..count].iter().copied())
                    .collect();
                assert_eq!(m.blocks() as usize, want.len(), "len {len}");
                for (i, b) in want.iter().enumerate() {
                    assert_eq!(
                        &m.block(i as u64),
                        b,
                        "len {len} header {header_len} block {i}"
                    );
                }
            }
        }
    }
}
