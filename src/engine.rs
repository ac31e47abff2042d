//! The engine: the streaming state machine behind [`Hasher`](crate::Hasher)
//! (buffering, the output chain, the record of what was flagged). It
//! decides what to do with blocks; the platform does the work (src/platform).
//!
//! A block's path is compress, filter, test, record. [`Engine::update`]
//! and [`Engine::finalize`] (or [`Engine::hash_all`], the whole message at
//! once) hand whole blocks to [`Engine::process`]. With a platform that
//! detects one block at a time (SHA-NI, ARMv8, NEON, simd128: the filter
//! reads the schedule the rounds store, src/detect) it runs them all
//! through that and stops only after a collision; otherwise it filters them
//! ahead of their compression (src/filter) and compresses the runs between
//! candidates in one call each, a candidate compressed and tested alone
//! ([`Engine::detect_masked`]). Blocks whose masks were filtered elsewhere
//! ([`Engine::update_with_masks`], the hashing half of src/halves.rs) take
//! that last path with their masks. A flagged block goes to
//! [`Record::flag`], the one rare path (src/record.rs).

use crate::block::{self, Block, Partial};
use crate::compress::IV;
use crate::config::Config;
use crate::detect::{Candidates, Found};
use crate::dv::DisturbanceVector;
use crate::halves::{BlockFilter, MaskCountError};
use crate::outcome::Outcome;
use crate::platform::Platform;
use crate::record::{Record, Reporter};

/// Blocks filtered per platform call: 4 KiB of input, 256 bytes of masks.
const FILTER_CALL: usize = 64;

#[derive(Clone, Debug)]
pub(crate) struct Engine {
    config: Config,
    /// How this CPU hashes, chosen once.
    platform: Platform,
    /// The output chain: the safe chain once a collision changed it.
    chain: [u32; 5],
    record: Record,
    /// The unfinished block after the whole ones.
    partial: Partial,
    /// The last whole block added by a plain update, not processed yet: it
    /// goes with the next blocks, or with the padding at the end, so a
    /// short message is filtered in one call (two blocks cost the vector
    /// forms about as much as one).
    kept_back: Option<Block>,
    /// Bytes added so far.
    len: u64,
    /// Whole blocks processed so far.
    blocks: u64,
}

impl Engine {
    pub(crate) fn new(config: Config, platform: Platform) -> Self {
        Engine {
            config,
            platform,
            chain: IV,
            record: Record::default(),
            partial: Partial::EMPTY,
            kept_back: None,
            len: 0,
            blocks: 0,
        }
    }

    /// An engine that continues a message whose first `blocks` whole
    /// blocks are already compressed into `chain` with `record` (the
    /// batch path hands its last few lanes over: src/batch.rs).
    pub(crate) fn resume(
        config: Config,
        platform: Platform,
        chain: [u32; 5],
        record: Record,
        blocks: u64,
    ) -> Self {
        Engine {
            chain,
            record,
            len: blocks * 64,
            blocks,
            ..Engine::new(config, platform)
        }
    }

    pub(crate) fn reset(&mut self) {
        *self = Engine::new(self.config, self.platform);
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    pub(crate) fn backend_name(&self) -> &'static str {
        self.platform.name()
    }

    pub(crate) fn config(&self) -> Config {
        self.config
    }

    /// New options for every block not compressed yet; a block held back
    /// is compressed with the former ones first, as it was whole before.
    pub(crate) fn change_config(&mut self, change: impl FnOnce(&mut Config)) {
        let mut config = self.config;
        change(&mut config);
        if config == self.config {
            return;
        }
        if let Some(h) = self.kept_back.take() {
            self.process(&[h], &mut Reporter::none());
        }
        self.config = config;
    }

    pub(crate) fn update(&mut self, data: &[u8], report: &mut Reporter<'_>) {
        if report.wants() || !self.keeps_last_block() {
            return self.update_keeping_none(data, report);
        }
        self.len = self.len.wrapping_add(data.len() as u64);
        if self.kept_back.is_none() && self.partial.bytes().is_empty() {
            // Nothing before `data`'s blocks (a first update, or one after
            // whole blocks): the common short message, without the copies
            // below.
            let (blocks, rest) = block::split_blocks(data);
            if let Some((last, before)) = blocks.split_last() {
                if !before.is_empty() {
                    self.process(before, report);
                }
                self.kept_back = Some(*last);
            }
            self.partial.keep(rest);
            return;
        }
        // Up to two whole blocks before `data`'s: the held one and the
        // buffer once `data` completes it.
        let mut small: [Block; 2] = [[0; 64]; 2];
        let mut n = 0;
        if let Some(h) = self.kept_back.take() {
            small[n] = h;
            n += 1;
        }
        let (filled, data) = self.partial.fill(data);
        if let Some(block) = filled {
            small[n] = block;
            n += 1;
        }
        let (blocks, rest) = block::split_blocks(data);
        // Everything but the last whole block now; that one is held.
        if let Some((last, before)) = blocks.split_last() {
            if n > 0 {
                self.process(&small[..n], report);
            }
            if !before.is_empty() {
                self.process(before, report);
            }
            self.kept_back = Some(*last);
        } else if n > 0 {
            self.process(&small[..n - 1], report);
            self.kept_back = Some(small[n - 1]);
        }
        self.partial.keep(rest);
    }

    /// Whether the last whole block is held back for the next call: where
    /// the filter runs, so that a short message's blocks and its padding
    /// go to the platform in one call (filtered in one batch, or a block's
    /// filter beside the rounds of the next).
    fn keeps_last_block(&self) -> bool {
        self.config.detect && self.config.use_filter
    }

    /// [`Engine::update`] that holds no block back: a block held by an
    /// earlier call first, then whole blocks straight from `data`, the
    /// rest buffered.
    pub(crate) fn update_keeping_none(&mut self, data: &[u8], report: &mut Reporter<'_>) {
        self.len = self.len.wrapping_add(data.len() as u64);
        if let Some(h) = self.kept_back.take() {
            self.process(&[h], report);
        }
        let (filled, data) = self.partial.fill(data);
        if let Some(block) = filled {
            self.process(&[block], report);
        }
        let (blocks, rest) = block::split_blocks(data);
        if !blocks.is_empty() {
            self.process(blocks, report);
        }
        self.partial.keep(rest);
    }

    /// [`Engine::update_keeping_none`] with the candidate masks of the blocks
    /// `data` completes, filtered elsewhere (src/halves.rs); a block held
    /// by an earlier call is filtered here. A wrong number of masks is an
    /// error, and nothing is hashed.
    pub(crate) fn update_with_masks(
        &mut self,
        data: &[u8],
        masks: &[u32],
        report: &mut Reporter<'_>,
    ) -> Result<(), MaskCountError> {
        let expected = self.partial.completes(data.len());
        if masks.len() != expected {
            return Err(MaskCountError {
                expected,
                given: masks.len(),
            });
        }
        self.len = self.len.wrapping_add(data.len() as u64);
        if let Some(h) = self.kept_back.take() {
            self.process(&[h], report);
        }
        let (filled, data) = self.partial.fill(data);
        let mut masks = masks;
        if let Some(block) = filled {
            self.process_masked(&[block], &masks[..1], report);
            masks = &masks[1..];
        }
        let (blocks, rest) = block::split_blocks(data);
        if !blocks.is_empty() {
            self.process_masked(blocks, masks, report);
        }
        self.partial.keep(rest);
        Ok(())
    }

    /// The filter half at this engine's place in the message: it carries
    /// the unfinished block.
    pub(crate) fn block_filter(&self) -> BlockFilter {
        BlockFilter::new(self.platform, self.partial)
    }

    /// The platform (the two-thread paths filter on its vectors).
    #[cfg(feature = "std")]
    pub(crate) fn platform(&self) -> Platform {
        self.platform
    }

    /// The whole message at once: its blocks straight from `data` (no
    /// buffer, nothing held back), then the padding.
    pub(crate) fn hash_all(mut self, data: &[u8]) -> Outcome {
        debug_assert_eq!(self.len, 0);
        let (blocks, tail) = block::split_blocks(data);
        self.len = data.len() as u64;
        let none = &mut Reporter::none();
        // The last whole block goes with the padding, as a held one would.
        let last = match blocks.split_last() {
            Some((last, before)) if self.keeps_last_block() => {
                if !before.is_empty() {
                    self.process(before, none);
                }
                Some(last)
            }
            _ => {
                self.process(blocks, none);
                None
            }
        };
        let mut end = [[0; 64]; 3];
        let count = block::end_blocks(&mut end, last, tail, self.len);
        self.process(&end[..count], none);
        self.record.outcome(&self.chain)
    }

    /// The message's outcome; the engine is then spent (dropped, or reset
    /// by the caller).
    pub(crate) fn finalize(&mut self, report: &mut Reporter<'_>) -> Outcome {
        let held = self.kept_back.take();
        let mut end = [[0; 64]; 3];
        let count = block::end_blocks(&mut end, held.as_ref(), self.partial.bytes(), self.len);
        self.process(&end[..count], report);
        self.record.outcome(&self.chain)
    }

    /// [`finalize`](Self::finalize) leaving this engine as it is, for a
    /// caller that goes on with the message (the C library's `SHA1DCFinal`):
    /// only the chain, the record and the counts are copied, not the bytes
    /// buffered, which the padding reads in place.
    pub(crate) fn outcome_so_far(&self, report: &mut Reporter<'_>) -> Outcome {
        let mut blocks = [[0; 64]; 3];
        let count = block::end_blocks(
            &mut blocks,
            self.kept_back.as_ref(),
            self.partial.bytes(),
            self.len,
        );
        let mut end = Engine {
            partial: Partial::EMPTY,
            kept_back: None,
            ..*self
        };
        end.process(&blocks[..count], report);
        end.record.outcome(&end.chain)
    }

    /// Compresses whole blocks into the chain(s), detecting collisions.
    fn process(&mut self, blocks: &[Block], report: &mut Reporter<'_>) {
        if !self.config.detect {
            self.platform.compress(&mut self.chain, blocks);
            if let Some(sha1_chain) = &mut self.record.sha1_chain {
                self.platform.compress(sha1_chain, blocks);
            }
            self.blocks += blocks.len() as u64;
            return;
        }
        // Runs at most twice: a second time only when a collision made the
        // chains part in this call, for the blocks after it.
        let mut rest = blocks;
        while !rest.is_empty() {
            if let Some(sha1_chain) = &mut self.record.sha1_chain {
                self.platform.compress(sha1_chain, rest);
            }
            rest = if self.config.use_filter && self.platform.detects_per_block() {
                self.detect_per_block(rest, report)
            } else {
                self.detect_filtered_ahead(rest, report)
            };
        }
    }

    /// [`Engine::process`] of blocks whose candidate masks `masks` were
    /// filtered elsewhere (with the filter off, they are not used).
    fn process_masked(&mut self, blocks: &[Block], masks: &[u32], report: &mut Reporter<'_>) {
        if !(self.config.detect && self.config.use_filter) {
            return self.process(blocks, report);
        }
        // As in `process`: a second time only after the chains part.
        let mut rest = blocks;
        while !rest.is_empty() {
            if let Some(sha1_chain) = &mut self.record.sha1_chain {
                self.platform.compress(sha1_chain, rest);
            }
            let masks = &masks[blocks.len() - rest.len()..];
            rest = self.detect_masked(rest, masks, report);
        }
    }

    /// The output chain over `blocks`, filtered ahead of their compression
    /// (every block a candidate for every DV with the filter off),
    /// [`FILTER_CALL`] blocks a call, each call's then hashed by
    /// [`Engine::detect_masked`]. Returns the blocks after one whose
    /// collision just made the chains part, or none.
    fn detect_filtered_ahead<'a>(
        &mut self,
        blocks: &'a [Block],
        report: &mut Reporter<'_>,
    ) -> &'a [Block] {
        let mut masks = [u32::MAX; FILTER_CALL];
        let mut done = 0;
        for chunk in blocks.chunks(FILTER_CALL) {
            let masks = &mut masks[..chunk.len()];
            if self.config.use_filter {
                self.platform.filter_masks(chunk, masks);
            }
            let left = self.detect_masked(chunk, masks, report).len();
            done += chunk.len();
            if left > 0 {
                return &blocks[done - left..];
            }
        }
        &[]
    }

    /// The output chain over `blocks` whose candidate masks are `masks`:
    /// the runs between candidates in one compression call each, each
    /// candidate compressed and tested alone. Returns the blocks after one
    /// whose collision just made the chains part, or none.
    fn detect_masked<'a>(
        &mut self,
        blocks: &'a [Block],
        masks: &[u32],
        report: &mut Reporter<'_>,
    ) -> &'a [Block] {
        debug_assert_eq!(masks.len(), blocks.len());
        let mut run = 0;
        for (i, &mask) in masks.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            self.platform.compress(&mut self.chain, &blocks[run..i]);
            run = i + 1;
            if self.check_candidate(&blocks[i], mask, self.blocks + i as u64, report) {
                self.blocks += run as u64;
                return &blocks[run..];
            }
        }
        self.platform.compress(&mut self.chain, &blocks[run..]);
        self.blocks += blocks.len() as u64;
        &[]
    }

    /// [`Engine::detect_filtered_ahead`] one block at a time, with the
    /// platform's per-block filter.
    fn detect_per_block<'a>(
        &mut self,
        blocks: &'a [Block],
        report: &mut Reporter<'_>,
    ) -> &'a [Block] {
        let mut rest = blocks;
        loop {
            let start = self.chain;
            let found =
                self.platform
                    .detect_per_block(&mut self.chain, rest, self.config.reduced_round);
            let Found { index: i, dv } = match found {
                Some(found) => found,
                None => break,
            };
            // The chain into the flagged block, only for a report: the
            // blocks before it compressed again from the call's start.
            let mut chain_in = start;
            if report.wants() {
                self.platform.compress(&mut chain_in, &rest[..i]);
            }
            let parted = self.on_collision(&rest[i], self.blocks + i as u64, dv, chain_in, report);
            self.blocks += i as u64 + 1;
            rest = &rest[i + 1..];
            if parted {
                return rest;
            }
        }
        self.blocks += rest.len() as u64;
        &[]
    }

    /// Compresses a candidate block into the output chain and tests its
    /// candidate DVs; on a collision, takes the rare path. True when that
    /// made the chains part.
    fn check_candidate(
        &mut self,
        block: &Block,
        mask: u32,
        index: u64,
        report: &mut Reporter<'_>,
    ) -> bool {
        let chain_in = self.chain;
        let c = Candidates {
            mask,
            reduced_round: self.config.reduced_round,
        };
        let found = self.platform.compress_candidate(&mut self.chain, block, c);
        match found {
            Some(dv) => self.on_collision(block, index, dv, chain_in, report),
            None => false,
        }
    }

    /// The rare path: the block is reported, counted and given the safe
    /// hash (src/record.rs). True when that made the chains part.
    fn on_collision(
        &mut self,
        block: &Block,
        index: u64,
        dv: DisturbanceVector,
        chain_in: [u32; 5],
        report: &mut Reporter<'_>,
    ) -> bool {
        self.record.flag(
            &self.config,
            &mut self.chain,
            chain_in,
            block,
            index,
            dv,
            report,
        )
    }
}
