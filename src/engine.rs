//! The streaming state machine: buffering, the two chaining values, the
//! report. It decides what to do with blocks; the backend does the work.

use crate::backend::{Backend, Fused};
use crate::compress::{self, Block, IV, compress_expanded, expand};
use crate::digest::Digest;
use crate::dv::DisturbanceVector;
use crate::recompress::first_match;
use crate::{Collision, Outcome};

/// Blocks filtered per backend call: 4 KiB of input, 256 bytes of masks.
const BATCH: usize = 64;

/// The modes; see [`crate::Builder`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Config {
    pub detect: bool,
    pub safe_hash: bool,
    pub reduced_round: bool,
    pub filter: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Engine {
    config: Config,
    backend: &'static Backend,
    /// The backend's fused compress-and-filter pass, if it has one.
    fused: Option<&'static Fused>,
    /// The output chain: the safe chain once a flagged block changed it.
    ihv: [u32; 5],
    /// The plain SHA-1 chain, kept apart only after the chains diverged.
    plain: Option<[u32; 5]>,
    buf: Block,
    buf_len: usize,
    /// The last whole block added, not processed yet: it goes with the
    /// next blocks, or with the padding at the end, so a short message is
    /// filtered in one call (two blocks cost the vector forms about as much
    /// as one).
    held: Option<Block>,
    /// Bytes added so far.
    len: u64,
    /// Whole blocks processed so far.
    blocks: u64,
    /// First flagged block and its DV.
    first: Option<(u64, usize)>,
    flagged: u64,
}

impl Engine {
    pub(crate) fn new(config: Config, backend: &'static Backend) -> Self {
        Engine {
            config,
            backend,
            fused: backend.fused(),
            ihv: IV,
            plain: None,
            buf: [0; 64],
            buf_len: 0,
            held: None,
            len: 0,
            blocks: 0,
            first: None,
            flagged: 0,
        }
    }

    pub(crate) fn reset(&mut self) {
        *self = Engine::new(self.config, self.backend);
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    pub(crate) fn backend_name(&self) -> &'static str {
        self.backend.name
    }

    pub(crate) fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u64);
        // Up to two whole blocks before `data`'s: the held one and the
        // buffer once `data` completes it.
        let mut small: [Block; 2] = [[0; 64]; 2];
        let mut n = 0;
        if let Some(h) = self.held.take() {
            small[n] = h;
            n += 1;
        }
        if self.buf_len > 0 {
            let take = data.len().min(64 - self.buf_len);
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len == 64 {
                small[n] = self.buf;
                n += 1;
                self.buf_len = 0;
            }
        }
        let (blocks, rest) = data.as_chunks::<64>();
        // Everything but the last whole block now; that one is held.
        if let Some((last, before)) = blocks.split_last() {
            self.process(&small[..n]);
            self.process(before);
            self.held = Some(*last);
        } else if n > 0 {
            self.process(&small[..n - 1]);
            self.held = Some(small[n - 1]);
        }
        if !rest.is_empty() {
            self.buf[..rest.len()].copy_from_slice(rest);
            self.buf_len = rest.len();
        }
    }

    pub(crate) fn finalize(&mut self) -> Outcome {
        let (pad, count) = compress::padding(&self.buf[..self.buf_len], self.len);
        let mut last = [[0u8; 64]; 3];
        let mut n = 0;
        if let Some(h) = self.held.take() {
            last[0] = h;
            n = 1;
        }
        last[n..n + count].copy_from_slice(&pad[..count]);
        self.process(&last[..n + count]);
        self.buf_len = 0;
        Outcome {
            digest: Digest::from_state(&self.ihv),
            sha1: Digest::from_state(self.plain.as_ref().unwrap_or(&self.ihv)),
            collision: self.first.map(|(block, dv)| Collision {
                block,
                dv: DisturbanceVector::from_index(dv),
                count: self.flagged,
            }),
        }
    }

    fn process(&mut self, mut blocks: &[Block]) {
        let compress = self.backend.compress;
        if !self.config.detect {
            compress(&mut self.ihv, blocks);
            self.blocks += blocks.len() as u64;
            return;
        }
        if let Some(fused) = self.fused
            && self.config.filter
            && self.plain.is_none()
        {
            blocks = self.process_fused(fused, blocks);
        }
        let mut masks = [u32::MAX; BATCH];
        for chunk in blocks.chunks(BATCH) {
            if let Some(plain) = &mut self.plain {
                compress(plain, chunk);
            }
            let masks = &mut masks[..chunk.len()];
            if self.config.filter {
                (self.backend.filter)(chunk, masks);
            }
            // Compress runs of unflagged blocks in one call; stop at each
            // flagged block to check it against its input chaining value.
            let mut done = 0;
            for (i, &mask) in masks.iter().enumerate() {
                if mask == 0 {
                    continue;
                }
                compress(&mut self.ihv, &chunk[done..i]);
                let ihv_in = self.ihv;
                compress(&mut self.ihv, &chunk[i..=i]);
                if self.check(&chunk[i], &ihv_in, self.blocks + i as u64, mask) {
                    compress(self.plain.as_mut().expect("just diverged"), &chunk[i + 1..]);
                }
                done = i + 1;
            }
            compress(&mut self.ihv, &chunk[done..]);
            self.blocks += chunk.len() as u64;
        }
    }

    /// The fast path while the chains agree: whole groups of `fused.lanes`
    /// blocks, each compressed while the next is filtered, the chaining
    /// values before each block kept so a flagged block is checked without
    /// compressing anything again. Returns the blocks left to the general
    /// path: the last partial group, or all after a detected collision.
    fn process_fused<'a>(&mut self, fused: &Fused, blocks: &'a [Block]) -> &'a [Block] {
        const MAX: usize = 16;
        let n = fused.lanes;
        debug_assert!(n <= MAX);
        if blocks.len() < n {
            return blocks;
        }
        let mut masks = [0u32; MAX];
        let mut ahead_masks = [0u32; MAX];
        let mut ins = [[0u32; 5]; MAX];
        (self.backend.filter)(&blocks[..n], &mut masks[..n]);
        let mut done = 0;
        while done + n <= blocks.len() {
            let group = &blocks[done..done + n];
            let ahead = blocks.get(done + n..done + 2 * n).unwrap_or(&[]);
            (fused.run)(
                &mut self.ihv,
                group,
                &mut ins[..n],
                ahead,
                &mut ahead_masks[..n],
            );
            for (j, &mask) in masks[..n].iter().enumerate() {
                if mask == 0 {
                    continue;
                }
                let out = if j + 1 < n { ins[j + 1] } else { self.ihv };
                let w = expand(&group[j]);
                if first_match(&w, &ins[j], &out, mask, self.config.reduced_round).is_some() {
                    // A collision (rare): back to the state after this
                    // block, which `check` records and the general path
                    // continues from.
                    self.ihv = out;
                    let index = self.blocks + j as u64;
                    let ihv_in = ins[j];
                    self.check(&group[j], &ihv_in, index, mask);
                    self.blocks += j as u64 + 1;
                    return &blocks[done + j + 1..];
                }
            }
            self.blocks += n as u64;
            done += n;
            masks = ahead_masks;
        }
        &blocks[done..]
    }

    /// Recompresses a block the filter let through; on a collision, records
    /// it and applies the safe hash. True when this made the chains diverge,
    /// so the caller must bring the plain chain over the rest of its batch.
    fn check(&mut self, block: &Block, ihv_in: &[u32; 5], index: u64, mask: u32) -> bool {
        let w = expand(block);
        let Some(dv) = first_match(&w, ihv_in, &self.ihv, mask, self.config.reduced_round) else {
            return false;
        };
        self.flagged += 1;
        self.first.get_or_insert((index, dv));
        if !self.config.safe_hash {
            return false;
        }
        let diverged = self.plain.is_none();
        if diverged {
            self.plain = Some(self.ihv);
        }
        compress_expanded(&mut self.ihv, &w);
        compress_expanded(&mut self.ihv, &w);
        diverged
    }
}
