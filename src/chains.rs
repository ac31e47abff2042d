//! The driver of a run of whole blocks: compress, filter, test, record,
//! written once over a platform's [`Kernels`] and compiled for each, so
//! that a run resolves the platform once ([`Chains::process`]) and calls
//! only down: into the kernels, and into src/record.rs for a flagged
//! block. The engine (src/engine.rs) hands it a message's whole blocks.
//!
//! With a platform that detects one block at a time (SHA-NI, NEON,
//! simd128: the filter reads the schedule the rounds store, src/detect) it
//! runs them all through that and stops only after a collision; otherwise
//! it filters them ahead of their compression (src/filter) and compresses
//! the runs between candidates in one call each, a candidate compressed
//! and tested alone ([`Chains::detect_masked`]). Blocks whose masks were
//! filtered elsewhere (the hashing half of src/halves.rs) take that last
//! path with their masks.

use crate::block::Block;
use crate::config::Config;
use crate::detect::{Candidates, Found};
use crate::dv::DisturbanceVector;
use crate::filter::Masks;
use crate::outcome::Outcome;
use crate::platform::{Kernels, OnKernels, Platform};
use crate::record::{Record, Reporter};

/// Blocks filtered per call of the filter ahead: 4 KiB of input, 256
/// bytes of masks.
const FILTER_CALL: usize = 64;

/// What a message's whole blocks have made so far: the chains, the record
/// of what was flagged, the count; and the options they are processed with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chains {
    pub config: Config,
    /// The output chain: the safe chain once a collision changed it.
    pub chain: [u32; 5],
    pub record: Record,
    /// Whole blocks processed so far.
    pub blocks: u64,
}

impl Chains {
    /// Compresses whole blocks into the chain(s) on `platform`, detecting
    /// collisions; `masks`, where given, are the blocks' candidate masks,
    /// filtered elsewhere (with the filter off, they are not used).
    #[inline]
    pub(crate) fn process(
        &mut self,
        platform: Platform,
        blocks: &[Block],
        masks: Option<&[u32]>,
        report: &mut Reporter<'_>,
    ) {
        platform.run_on_kernels(Process {
            chains: self,
            blocks,
            masks,
            report,
        })
    }

    /// The message's outcome, once its padding is processed.
    pub(crate) fn outcome(&self) -> Outcome {
        self.record.outcome(&self.chain)
    }

    /// [`Chains::process`] on the kernels `K`.
    ///
    /// # Safety
    /// The CPU must have `K`'s instructions.
    #[inline(never)]
    unsafe fn run<K: Kernels>(
        &mut self,
        blocks: &[Block],
        masks: Option<&[u32]>,
        report: &mut Reporter<'_>,
    ) {
        if !self.config.detect {
            // SAFETY (each call of `K` below): as this function's.
            unsafe { K::compress_blocks(&mut self.chain, blocks) };
            if let Some(sha1_chain) = &mut self.record.sha1_chain {
                unsafe { K::compress_blocks(sha1_chain, blocks) };
            }
            self.blocks += blocks.len() as u64;
            return;
        }
        let masks = masks.filter(|_| self.config.use_filter);
        // Runs at most twice: a second time only when a collision made the
        // chains part in this call, for the blocks after it.
        let mut rest = blocks;
        while !rest.is_empty() {
            if let Some(sha1_chain) = &mut self.record.sha1_chain {
                unsafe { K::compress_blocks(sha1_chain, rest) };
            }
            let done = blocks.len() - rest.len();
            rest = unsafe {
                match masks {
                    Some(masks) => self.detect_masked::<K>(rest, &masks[done..], report),
                    None if self.config.use_filter && K::PER_BLOCK => {
                        self.detect_per_block::<K>(rest, report)
                    }
                    None => self.detect_filtered_ahead::<K>(rest, report),
                }
            };
        }
    }

    /// The output chain over `blocks`, filtered ahead of their compression
    /// (every block a candidate for every DV with the filter off),
    /// [`FILTER_CALL`] blocks a call, each call's then hashed by
    /// [`Chains::detect_masked`]. Returns the blocks after one whose
    /// collision just made the chains part, or none.
    ///
    /// # Safety
    /// As [`Chains::run`].
    unsafe fn detect_filtered_ahead<'a, K: Kernels>(
        &mut self,
        blocks: &'a [Block],
        report: &mut Reporter<'_>,
    ) -> &'a [Block] {
        let mut masks = [u32::MAX; FILTER_CALL];
        let mut done = 0;
        for chunk in blocks.chunks(FILTER_CALL) {
            let out = &mut masks[..chunk.len()];
            // (A platform with a per-block filter comes here only with the
            // filter off: its runs carry no filter ahead.)
            if self.config.use_filter && !K::PER_BLOCK {
                // SAFETY (both): as this function's.
                unsafe { K::run_on_vectors(Masks { blocks: chunk, out }) };
            }
            let left = unsafe { self.detect_masked::<K>(chunk, &masks[..chunk.len()], report) };
            done += chunk.len();
            if !left.is_empty() {
                return &blocks[done - left.len()..];
            }
        }
        &[]
    }

    /// The output chain over `blocks` whose candidate masks are `masks`:
    /// the runs between candidates in one compression call each, each
    /// candidate compressed and tested alone. Returns the blocks after one
    /// whose collision just made the chains part, or none.
    ///
    /// # Safety
    /// As [`Chains::run`].
    unsafe fn detect_masked<'a, K: Kernels>(
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
            // SAFETY (each): as this function's.
            unsafe { K::compress_blocks(&mut self.chain, &blocks[run..i]) };
            run = i + 1;
            let c = Candidates {
                mask,
                reduced_round: self.config.reduced_round,
            };
            let chain_in = self.chain;
            let found = unsafe { K::compress_candidate(&mut self.chain, &blocks[i], c) };
            if let Some(dv) = found {
                let index = self.blocks + i as u64;
                if self.on_collision(&blocks[i], index, dv, chain_in, report) {
                    self.blocks += run as u64;
                    return &blocks[run..];
                }
            }
        }
        unsafe { K::compress_blocks(&mut self.chain, &blocks[run..]) };
        self.blocks += blocks.len() as u64;
        &[]
    }

    /// [`Chains::detect_filtered_ahead`] one block at a time, with the
    /// platform's per-block filter.
    ///
    /// # Safety
    /// As [`Chains::run`].
    unsafe fn detect_per_block<'a, K: Kernels>(
        &mut self,
        blocks: &'a [Block],
        report: &mut Reporter<'_>,
    ) -> &'a [Block] {
        let mut rest = blocks;
        loop {
            let start = self.chain;
            let reduced_round = self.config.reduced_round;
            // SAFETY (both): as this function's.
            let found = unsafe { K::detect_per_block(&mut self.chain, rest, reduced_round) };
            let Found { index: i, dv } = match found {
                Some(found) => found,
                None => break,
            };
            // The chain into the flagged block, only for a report: the
            // blocks before it compressed again from the call's start.
            let mut chain_in = start;
            if report.wants() {
                unsafe { K::compress_blocks(&mut chain_in, &rest[..i]) };
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

/// [`Chains::process`] as work for the platform's kernels.
struct Process<'a, 'r, 'f> {
    chains: &'a mut Chains,
    blocks: &'a [Block],
    masks: Option<&'a [u32]>,
    report: &'r mut Reporter<'f>,
}

impl OnKernels for Process<'_, '_, '_> {
    type Output = ();

    unsafe fn run<K: Kernels>(self) {
        // SAFETY: as this function's.
        unsafe { self.chains.run::<K>(self.blocks, self.masks, self.report) }
    }
}
