//! The engine: the streaming state machine behind [`Hasher`](crate::Hasher):
//! the buffer, the block held back, the length, the padding. What the
//! blocks make (the chains, the record of what was flagged) is the driver's
//! (src/chains.rs), which runs them on the platform's kernels.
//!
//! [`Engine::update`] and [`Engine::finalize`] (or [`Engine::hash_all`],
//! the whole message at once) split the input into whole blocks, hold the
//! unfinished one, and hand each run of whole blocks to the driver, once
//! (src/chains.rs): compress, filter, test and record, on the platform's
//! kernels. Blocks whose masks were filtered elsewhere
//! ([`Engine::update_with_masks`], the hashing half of src/halves.rs) go
//! with their masks.

use crate::block::{self, Block, Partial};
use crate::chains::Chains;
use crate::compress::IV;
use crate::config::Config;
use crate::halves::{BlockFilter, MaskCountError};
use crate::outcome::Outcome;
use crate::platform::Platform;
use crate::record::{Record, Reporter};

#[derive(Clone, Debug)]
pub(crate) struct Engine {
    /// How this CPU hashes, chosen once.
    platform: Platform,
    /// What the whole blocks have made so far, and the options.
    chains: Chains,
    /// The unfinished block after the whole ones.
    partial: Partial,
    /// The last whole block added by a plain update, not processed yet: it
    /// goes with the next blocks, or with the padding at the end, so a
    /// short message is filtered in one call (two blocks cost the vector
    /// forms about as much as one).
    kept_back: Option<Block>,
    /// Bytes added so far.
    len: u64,
}

impl Engine {
    pub(crate) fn new(config: Config, platform: Platform) -> Self {
        Engine::resume(config, platform, IV, Record::default(), 0)
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
            platform,
            chains: Chains {
                config,
                chain,
                record,
                blocks,
            },
            partial: Partial::EMPTY,
            kept_back: None,
            len: blocks * 64,
        }
    }

    pub(crate) fn reset(&mut self) {
        *self = Engine::new(self.chains.config, self.platform);
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    pub(crate) fn backend_name(&self) -> &'static str {
        self.platform.name()
    }

    pub(crate) fn config(&self) -> Config {
        self.chains.config
    }

    /// New options for every block not compressed yet; a block held back
    /// is compressed with the former ones first, as it was whole before.
    pub(crate) fn change_config(&mut self, change: impl FnOnce(&mut Config)) {
        let mut config = self.chains.config;
        change(&mut config);
        if config == self.chains.config {
            return;
        }
        if let Some(h) = self.kept_back.take() {
            self.process(&[h], &mut Reporter::none());
        }
        self.chains.config = config;
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
        self.chains.config.detect && self.chains.config.use_filter
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
        self.chains.outcome()
    }

    /// The message's outcome; the engine is then spent (dropped, or reset
    /// by the caller).
    pub(crate) fn finalize(&mut self, report: &mut Reporter<'_>) -> Outcome {
        let held = self.kept_back.take();
        let mut end = [[0; 64]; 3];
        let count = block::end_blocks(&mut end, held.as_ref(), self.partial.bytes(), self.len);
        self.process(&end[..count], report);
        self.chains.outcome()
    }

    /// [`finalize`](Self::finalize) leaving this engine as it is, for a
    /// caller that goes on with the message (the C library's `SHA1DCFinal`):
    /// only the chains are copied, not the bytes buffered, which the
    /// padding reads in place.
    pub(crate) fn outcome_so_far(&self, report: &mut Reporter<'_>) -> Outcome {
        let mut blocks = [[0; 64]; 3];
        let count = block::end_blocks(
            &mut blocks,
            self.kept_back.as_ref(),
            self.partial.bytes(),
            self.len,
        );
        let mut chains = self.chains;
        chains.process(self.platform, &blocks[..count], None, report);
        chains.outcome()
    }

    /// Compresses whole blocks into the chain(s), detecting collisions
    /// (src/chains.rs).
    fn process(&mut self, blocks: &[Block], report: &mut Reporter<'_>) {
        self.chains.process(self.platform, blocks, None, report);
    }

    /// [`Engine::process`] of blocks whose candidate masks `masks` were
    /// filtered elsewhere.
    fn process_masked(&mut self, blocks: &[Block], masks: &[u32], report: &mut Reporter<'_>) {
        self.chains
            .process(self.platform, blocks, Some(masks), report);
    }
}
