//! Many messages at once (multi-buffer): one message per vector lane.
//!
//! One stream of SHA-1 is bound by the latency of its chain, even with
//! SHA-NI; independent messages are not. Each lane of a [`Vector`]
//! holds one message's chaining value, and every step of the loop takes the
//! next block of every lane: the filter already works one block per lane,
//! and so does the compression written over the same trait
//! (compress/lanes.rs; the portable compressor is its one-lane form). A
//! lane whose message ends takes the next message at once, so no lane waits
//! for the longest one, and the last few lanes of a batch finish on the
//! single stream. A block the filter lets through (about 5% of random
//! blocks) is tested by the platform's own test of a candidate from the
//! states the lane compression kept, and a collision is recorded exactly as the
//! streaming engine records it ([`Record`]), so every result equals
//! what [`crate::hash`] gives.

use crate::Outcome;
use crate::block::Block;
use crate::compress::IV;
use crate::compress::lanes::{compress_lanes, compress_lanes_scheduled};
use crate::config::Config;
use crate::detect::{Candidates, Compressed};
use crate::engine::Engine;
use crate::filter::Filter;
use crate::object::{Header, ObjectKind};
use crate::platform::Platform;
use crate::record::{Record, Reporter};
use crate::vector::{OnVectors, Vector};

/// The most lanes a form has (AVX-512: 16).
const MAX_LANES: usize = 16;

/// Once no message waits and at most `LANES / DRAIN` lanes are busy, they
/// finish on the single stream: a vector step costs the same for one busy
/// lane as for all of them. Half measured best on git-object-like sizes,
/// where a few long messages are left at the end (benches/many.rs).
const DRAIN: usize = 2;

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

    /// Bytes of the header.
    pub(crate) fn header_len(&self) -> u64 {
        self.header.as_bytes().len() as u64
    }

    fn len(&self) -> u64 {
        self.header_len() + self.content.len() as u64
    }

    /// Blocks with the padding: the 0x80 byte and the 8-byte bit length.
    fn blocks(&self) -> u64 {
        (self.len() + 9 + 63) / 64
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

/// How far ahead of its block a lane asks for its content: each lane reads a
/// stream of its own, more streams at once than the hardware prefetcher
/// follows.
const PREFETCH: usize = 4 * 64;

/// Asks the CPU to bring `p`'s cache line in (a hint: it never faults, and
/// `p` need not point into anything).
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing architecturally and cannot fault;
    // SSE is part of x86-64.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
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
    /// The blocks that lie whole in the content (`direct.0..direct.1`),
    /// read from it in place rather than assembled.
    direct: (u64, u64),
    record: Record,
}

impl<'a> Lane<'a> {
    fn new(slot: usize, message: Message<'a>) -> Self {
        let header = message.header.as_bytes().len() as u64;
        let end = header + message.content.len() as u64;
        Lane {
            slot,
            message,
            next: 0,
            blocks: message.blocks(),
            direct: ((header + 63) / 64, end / 64),
            record: Record::default(),
        }
    }

    /// Copies the lane's next block to `out`: straight from the content
    /// when the block lies whole in it (a fixed 64-byte copy, no call),
    /// assembled otherwise.
    #[inline(always)]
    fn next_block(&self, out: &mut Block) {
        let i = self.next;
        if self.direct.0 <= i && i < self.direct.1 {
            let at = (i * 64 - self.message.header.as_bytes().len() as u64) as usize;
            prefetch(self.message.content.as_ptr().wrapping_add(at + PREFETCH));
            if let Some(Ok(block)) = self
                .message
                .content
                .get(at..at + 64)
                .map(<&Block>::try_from)
            {
                *out = *block;
                return;
            }
        }
        *out = self.message.block(i);
    }
}

/// Message `i` of a batch, for `i` in `0..out.len()`.
pub(crate) type Messages<'a, 'b> = &'b dyn Fn(usize) -> Message<'a>;

/// Hashes message `i` (of [`Messages`]) into `out[i]`, one message per
/// lane of the vectors `platform` names.
pub(crate) fn hash(
    platform: Platform,
    config: Config,
    messages: Messages<'_, '_>,
    out: &mut [Outcome],
) {
    platform.run_on_vectors(HashBatch {
        platform,
        config,
        messages,
        out,
    })
}

/// [`hash`] as work for `Platform::run_on_vectors`.
struct HashBatch<'a, 'b, 'c> {
    platform: Platform,
    config: Config,
    messages: Messages<'a, 'b>,
    out: &'c mut [Outcome],
}

impl OnVectors for HashBatch<'_, '_, '_> {
    type Output = ();

    /// Arrays of the vector's own width: those of the widest form would be
    /// zeroed and copied every step (memory.fill and memory.copy calls in
    /// wasm).
    #[inline(always)]
    unsafe fn run<V: Vector>(self) {
        debug_assert!(V::LANES <= MAX_LANES);
        let HashBatch {
            platform,
            config,
            messages,
            out,
        } = self;
        // SAFETY: the caller's guarantees, passed on; N is V::LANES.
        unsafe {
            match V::LANES {
                1 => hash_n::<V, 1>(platform, config, messages, out),
                2 => hash_n::<V, 2>(platform, config, messages, out),
                4 => hash_n::<V, 4>(platform, config, messages, out),
                8 => hash_n::<V, 8>(platform, config, messages, out),
                _ => hash_n::<V, MAX_LANES>(platform, config, messages, out),
            }
        }
    }
}

/// [`hash`] with `N == V::LANES`: refill the idle lanes, compress every
/// lane's next block at once, after_step each lane's candidate and end; the
/// last few lanes finish on the single stream. (The refill stays in this
/// loop: as a function of its own, even inlined, the batch of short
/// messages ran slower in benches/many.rs.)
///
/// # Safety
/// The CPU must support `V`'s instruction set.
#[inline(always)]
unsafe fn hash_n<V: Vector, const N: usize>(
    platform: Platform,
    config: Config,
    messages: Messages<'_, '_>,
    out: &mut [Outcome],
) {
    debug_assert_eq!(N, V::LANES);
    let mut lanes: [Option<Lane<'_>>; N] = [None; N];
    // Each lane's current block; an idle lane's is stale (its results are
    // not read).
    let mut blocks = [[0u8; 64]; N];
    let mut chains = Chains::<N>::new();
    let mut queue = (0..out.len()).map(|i| (i, messages(i)));
    loop {
        let (mut waiting, mut refilled) = (true, false);
        for (j, lane) in lanes.iter_mut().enumerate() {
            if lane.is_none() {
                let (slot, message) = match queue.next() {
                    Some(next) => next,
                    None => {
                        waiting = false;
                        continue;
                    }
                };
                *lane = Some(Lane::new(slot, message));
                chains.out.set_lane(j, &IV);
                refilled = true;
            }
        }
        if !waiting && finish_few_alone(&lanes, &chains.out, platform, config, out) {
            return;
        }
        // Just after a refill (every other step with short messages) a run
        // is unlikely: not looked for.
        let steps = if refilled { 0 } else { in_place_steps(&lanes) };
        if V::LANES >= BESIDE_FROM && steps >= IN_PLACE_RUN {
            // The wide forms' run in place has its own copy of `step`:
            // through the loop below, AVX2's batch measured 8 % slower.
            let mut busy = lanes.map(|lane| lane.unwrap_or_else(|| unreachable!()));
            // SAFETY: the caller guarantees V's instruction set.
            unsafe {
                run_in_place::<V, N>(steps, &mut busy, &mut blocks, &mut chains, platform, config)
            };
            lanes = busy.map(Some);
            continue;
        }
        // A run of steps in place, or one step with its lanes' ends: one
        // `step` in the code for both (it is most of the batch's code).
        let run = if steps >= IN_PLACE_RUN { steps } else { 1 };
        for _ in 0..run {
            for (block, lane) in blocks.iter_mut().zip(&lanes) {
                if let Some(lane) = lane {
                    lane.next_block(block);
                }
            }
            // SAFETY: the caller guarantees V's instruction set.
            let masks = unsafe { step::<V, N>(&blocks, &mut chains, config) };
            if run == 1 {
                after_step(
                    &mut lanes,
                    &blocks,
                    &mut chains,
                    &masks,
                    (platform, config),
                    out,
                );
            } else if after_step_in_place(
                &mut lanes,
                &blocks,
                &mut chains,
                &masks,
                (platform, config),
            ) {
                break;
            }
        }
    }
}

/// Five words of every lane, word k of lane j at `[k][j]`: one row per
/// vector, as the compression loads and stores them.
#[derive(Clone, Copy)]
struct Rows<const N: usize>([[u32; N]; 5]);

impl<const N: usize> Rows<N> {
    const ZERO: Self = Rows([[0; N]; 5]);

    fn lane(&self, j: usize) -> [u32; 5] {
        core::array::from_fn(|k| self.0[k][j])
    }

    fn set_lane(&mut self, j: usize, words: &[u32; 5]) {
        for (row, word) in self.0.iter_mut().zip(words) {
            row[j] = *word;
        }
    }

    /// # Safety
    /// The CPU must support `V`'s instruction set, of `N` lanes.
    #[inline(always)]
    unsafe fn load<V: Vector>(&self) -> [V; 5] {
        // SAFETY: the caller's guarantees; each row holds N words.
        core::array::from_fn(|k| unsafe { V::load(&self.0[k]) })
    }

    /// # Safety
    /// As [`Rows::load`].
    #[inline(always)]
    unsafe fn store<V: Vector>(&mut self, vectors: &[V; 5]) {
        for (row, v) in self.0.iter_mut().zip(vectors) {
            // SAFETY: the caller's guarantees; each row holds N words.
            unsafe { v.store(row) };
        }
    }
}

/// Every lane's output chain, and what a candidate's test reads: the chain
/// before the step's block and the state before step 60 (written only in
/// the steps with a candidate).
struct Chains<const N: usize> {
    out: Rows<N>,
    input: Rows<N>,
    before_60: Rows<N>,
}

impl<const N: usize> Chains<N> {
    fn new() -> Self {
        Chains {
            out: Rows::ZERO,
            input: Rows::ZERO,
            before_60: Rows::ZERO,
        }
    }

    /// Lane `j`'s block as the step compressed it.
    fn compressed(&self, j: usize) -> Compressed {
        Compressed {
            chain_in: self.input.lane(j),
            chain_out: self.out.lane(j),
            before_60: self.before_60.lane(j),
        }
    }
}

/// The fewest lanes of a form whose filter runs beside its rounds: AVX2's
/// and AVX-512's batch measured faster so, SSE2's slower (its 16 registers
/// hold little of the whole schedule expanded first) and wasm simd128's no
/// faster; NEON and the narrow forms keep the filter before the rounds too.
const BESIDE_FROM: usize = 8;

/// Compresses every lane's block into its chain and filters it: the rounds
/// read the schedule the filter expanded, and on forms of [`BESIDE_FROM`]
/// lanes or more run its condition groups between their steps, where the
/// groups fill the latency of the rounds' chain (run before the rounds,
/// they mostly waited on it): the lanes' DV masks.
///
/// # Safety
/// The CPU must support `V`'s instruction set, of `N` lanes.
#[inline(always)]
unsafe fn step<V: Vector, const N: usize>(
    blocks: &[Block; N],
    chains: &mut Chains<N>,
    config: Config,
) -> [u32; N] {
    let mut masks = [0u32; N];
    // SAFETY (whole body): the caller guarantees V's instruction set.
    unsafe {
        let first = V::load16(blocks);
        let mut out = chains.out.load::<V>();
        let input = out;
        let mut before_60 = out;
        let filtered = config.detect && config.use_filter;
        if !filtered && config.detect {
            masks = [u32::MAX; N];
        }
        if V::LANES >= BESIDE_FROM {
            if filtered {
                let mut f = Filter::<V>::from_words(&first);
                f.expand();
                let mut conditions = f.parts();
                compress_lanes_scheduled::<V>(
                    &mut out,
                    f.schedule(),
                    &mut before_60,
                    &mut conditions,
                );
                conditions.finish(&mut masks);
            } else {
                let zero = V::opaque_zero();
                compress_lanes::<V>(&mut out, &first, &mut before_60, zero, |_, _| {});
            }
        } else {
            // One form of the rounds, filtered or not: the narrow vectors'
            // schedule costs no more expanded ahead and stored.
            let mut f = Filter::<V>::from_words(&first);
            if filtered {
                f.run();
                f.finish(&mut masks);
            } else {
                f.expand();
            }
            compress_lanes_scheduled::<V>(&mut out, f.schedule(), &mut before_60, ());
        }
        chains.out.store(&out);
        if masks.iter().any(|&m| m != 0) {
            chains.before_60.store(&before_60);
            chains.input.store(&input);
        }
    }
    masks
}

/// After a step, each busy lane: its plain chain if it keeps one, the test
/// of a candidate block (the rare path on a collision), and its outcome
/// when its message ends.
#[inline(always)]
fn after_step<const N: usize>(
    lanes: &mut [Option<Lane<'_>>; N],
    blocks: &[Block; N],
    chains: &mut Chains<N>,
    masks: &[u32; N],
    (platform, config): (Platform, Config),
    out: &mut [Outcome],
) {
    for (j, slot) in lanes.iter_mut().enumerate() {
        let lane = match slot {
            Some(lane) => lane,
            None => continue,
        };
        let block = &blocks[j];
        if let Some(sha1_chain) = &mut lane.record.sha1_chain {
            platform.compress(sha1_chain, core::slice::from_ref(block));
        }
        if masks[j] != 0 {
            test_lane(lane, j, block, masks[j], chains, (platform, config));
        }
        lane.next += 1;
        if lane.next == lane.blocks {
            out[lane.slot] = lane.record.outcome(&chains.out.lane(j));
            *slot = None;
        }
    }
}

/// The test of lane `j`'s candidate block, compressed in the last step
/// with the DV mask `mask`; a collision is recorded as the engine records
/// it, and the lane's chain becomes the safe one: true then.
fn test_lane<const N: usize>(
    lane: &mut Lane<'_>,
    j: usize,
    block: &Block,
    mask: u32,
    chains: &mut Chains<N>,
    (platform, config): (Platform, Config),
) -> bool {
    let compressed = chains.compressed(j);
    let c = Candidates {
        mask,
        reduced_round: config.reduced_round,
    };
    match platform.test_candidate(&compressed, block, c) {
        Some(dv) => {
            let (mut chain, none) = (compressed.chain_out, &mut Reporter::none());
            let chain_in = compressed.chain_in;
            lane.record
                .flag(&config, &mut chain, chain_in, block, lane.next, dv, none);
            chains.out.set_lane(j, &chain);
            true
        }
        None => false,
    }
}

/// The fewest steps of a run in place worth taking out of the main loop:
/// at a message's start or end the lanes' checks cost more than they save.
const IN_PLACE_RUN: u64 = 4;

/// How many steps every lane can take with its block read in place (none
/// ends, none keeps a plain chain): 0 when a lane is idle or cannot.
#[inline(always)]
fn in_place_steps<const N: usize>(lanes: &[Option<Lane<'_>>; N]) -> u64 {
    let mut steps = u64::MAX;
    for lane in lanes {
        match lane {
            Some(l) if l.record.sha1_chain.is_none() && l.direct.0 <= l.next => {
                steps = steps.min(l.direct.1.saturating_sub(l.next));
                if steps == 0 {
                    return 0;
                }
            }
            _ => return 0,
        }
    }
    steps
}

/// After a step of a run in place ([`in_place_steps`]: every lane busy,
/// none ends, none keeps a plain chain): the candidates tested, none of the
/// refilling, assembling and ending around the other steps. True after a
/// collision (its lane may keep a plain chain from then on: the run stops).
#[inline(always)]
fn after_step_in_place<const N: usize>(
    lanes: &mut [Option<Lane<'_>>; N],
    blocks: &[Block; N],
    chains: &mut Chains<N>,
    masks: &[u32; N],
    with: (Platform, Config),
) -> bool {
    let busy = lanes.iter_mut().enumerate();
    test_in_place(
        busy.filter_map(|(j, lane)| Some((j, lane.as_mut()?))),
        blocks,
        chains,
        masks,
        with,
    )
}

/// The candidates of a step in place, lane `j` each, every lane on to its
/// next block: true after a collision.
#[inline(always)]
fn test_in_place<'l, 'm: 'l, const N: usize>(
    lanes: impl Iterator<Item = (usize, &'l mut Lane<'m>)>,
    blocks: &[Block; N],
    chains: &mut Chains<N>,
    masks: &[u32; N],
    with: (Platform, Config),
) -> bool {
    let mut flagged = false;
    for (j, lane) in lanes {
        if masks[j] != 0 {
            flagged |= test_lane(lane, j, &blocks[j], masks[j], chains, with);
        }
        lane.next += 1;
    }
    flagged
}

/// `steps` steps of every lane, each block lying whole in its content:
/// copied straight from it, the candidates tested, none of the refilling,
/// assembling and ending around the main loop's steps. Stops after a
/// collision (its lane may keep a plain chain from then on).
///
/// # Safety
/// The CPU must support `V`'s instruction set, of `N` lanes.
#[inline(always)]
unsafe fn run_in_place<V: Vector, const N: usize>(
    steps: u64,
    lanes: &mut [Lane<'_>; N],
    blocks: &mut [Block; N],
    chains: &mut Chains<N>,
    platform: Platform,
    config: Config,
) {
    for _ in 0..steps {
        for (block, lane) in blocks.iter_mut().zip(lanes.iter()) {
            lane.next_block(block);
        }
        // SAFETY: the caller's guarantee.
        let masks = unsafe { step::<V, N>(blocks, chains, config) };
        let with = (platform, config);
        if test_in_place(lanes.iter_mut().enumerate(), blocks, chains, &masks, with) {
            return;
        }
    }
}

/// Once no message waits and at most `N / DRAIN` lanes are busy, each busy
/// lane's message finishes on the single stream from the lane's chain: true
/// when that ended the batch.
fn finish_few_alone<const N: usize>(
    lanes: &[Option<Lane<'_>>; N],
    chains: &Rows<N>,
    platform: Platform,
    config: Config,
    out: &mut [Outcome],
) -> bool {
    let busy = lanes.iter().flatten();
    // A lane into its padding is at most one step from its end, and the
    // engine cannot resume there.
    let resumable = busy.clone().all(|l| l.next * 64 <= l.message.len());
    if busy.count() * DRAIN > N || !resumable {
        return false;
    }
    for (j, lane) in lanes.iter().enumerate() {
        if let Some(lane) = lane {
            out[lane.slot] = finish_alone(platform, config, lane, chains.lane(j));
        }
    }
    true
}

/// The rest of a lane's message through the streaming engine.
fn finish_alone(platform: Platform, config: Config, lane: &Lane<'_>, chain: [u32; 5]) -> Outcome {
    let mut engine = Engine::resume(config, platform, chain, lane.record, lane.next);
    let header = lane.message.header.as_bytes();
    let done = (lane.next * 64) as usize;
    let none = &mut Reporter::none();
    engine.update(header.get(done..).unwrap_or(&[]), none);
    engine.update(
        &lane.message.content[done.saturating_sub(header.len())..],
        none,
    );
    engine.finalize(none)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix64;

    /// The DV masks of `blocks` as the batch's steps give them, `N` lanes a
    /// step (the filter beside the lanes' rounds on forms of [`BESIDE_FROM`]
    /// lanes or more, before them on the others).
    struct StepMasks<'a>(&'a [Block]);

    /// The name of the vector type a platform runs on.
    struct VectorType;

    impl OnVectors for VectorType {
        type Output = &'static str;

        unsafe fn run<V: Vector>(self) -> &'static str {
            core::any::type_name::<V>()
        }
    }

    impl OnVectors for StepMasks<'_> {
        type Output = Vec<u32>;

        unsafe fn run<V: Vector>(self) -> Vec<u32> {
            // SAFETY: the caller's guarantee; N is V::LANES.
            unsafe {
                match V::LANES {
                    1 => step_masks::<V, 1>(self.0),
                    2 => step_masks::<V, 2>(self.0),
                    4 => step_masks::<V, 4>(self.0),
                    8 => step_masks::<V, 8>(self.0),
                    _ => step_masks::<V, MAX_LANES>(self.0),
                }
            }
        }
    }

    /// # Safety
    /// The CPU must support `V`'s instruction set; `N` is `V::LANES`.
    unsafe fn step_masks<V: Vector, const N: usize>(blocks: &[Block]) -> Vec<u32> {
        debug_assert_eq!(N, V::LANES);
        let config = Config::DEFAULT;
        let mut chains = Chains::<N>::new();
        let mut masks = Vec::new();
        for chunk in blocks.chunks_exact(N) {
            let step_blocks: [Block; N] = core::array::from_fn(|j| chunk[j]);
            // SAFETY: the caller's guarantee.
            masks.extend(unsafe { step::<V, N>(&step_blocks, &mut chains, config) });
        }
        masks
    }

    /// Every lane form's steps give the reference filter's masks, beside the
    /// rounds (8, 16 lanes) or before them (2, 4): an outcome cannot show a
    /// filter that lets too much through.
    #[test]
    fn step_masks_are_the_filters() {
        let mut rng = SplitMix64(0x5e9);
        let mut blocks = vec![[0u8; 64]; 16 * 64];
        for b in &mut blocks {
            rng.fill(b);
        }
        let mut want = vec![0u32; blocks.len()];
        crate::filter::scalar_masks(&blocks, &mut want);
        assert!(want.iter().filter(|&&m| m != 0).count() > 20);
        let mut seen = Vec::new();
        for name in crate::available_backends() {
            let platform = crate::platform::Backend::by_name(name).unwrap();
            let vectors = platform.run_on_vectors(VectorType);
            if seen.contains(&vectors) {
                continue;
            }
            seen.push(vectors);
            let got = platform.run_on_vectors(StepMasks(&blocks));
            assert_eq!(got, want, "{name}");
        }
    }

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
                let (full, tail) = crate::block::split_blocks(whole);
                let mut pad = [[0; 64]; 3];
                let count = crate::block::end_blocks(&mut pad, None, tail, len as u64);
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
