//! A slice on two threads: the second thread filters chunks ahead, the
//! calling thread hashes them, or hashes a chunk alone when its masks are
//! not ready in time.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use super::ChunkCounts;
use crate::block::{Block, split_blocks};
use crate::engine::Engine;
use crate::platform::Platform;
use crate::record::Reporter;

/// The chunks of a call, in blocks: the first, which the calling thread
/// hashes alone while the second thread starts, then each twice the one
/// before up to the largest (a power of two times the first).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunks {
    pub first: usize,
    pub max: usize,
}

impl Chunks {
    /// 16 KiB first, 256 KiB at most.
    pub(crate) const DEFAULT: Chunks = Chunks {
        first: 256,
        max: 4096,
    };

    /// The blocks of chunk `i`, before clipping to the input.
    fn range(self, i: usize) -> Range<usize> {
        let steps = (self.max / self.first).trailing_zeros() as usize;
        let (start, size) = if i <= steps {
            (self.first * ((1 << i) - 1), self.first << i)
        } else {
            let ramp = self.first * ((1 << steps) - 1);
            (ramp + (i - steps) * self.max, self.max)
        };
        start..start + size
    }
}

/// How many chunks of masks the filter thread may be ahead; it is woken
/// again when half of them are hashed (one wake-up per half, not per chunk).
const AHEAD: usize = 4;

/// How long the hashing thread waits for the masks of a chunk the filter
/// thread is on before it hashes the chunk alone: about the time the
/// filter takes for a chunk of the largest size.
const PATIENCE: Duration = Duration::from_micros(100);

/// What the two threads share.
struct Shared {
    state: Mutex<State>,
    /// The filter thread finished a chunk the hashing thread waits for.
    ready: Condvar,
    /// The hashing thread made room for the filter thread.
    room: Condvar,
}

struct State {
    chunks: usize,
    /// The next chunk the filter thread may claim (or a later one).
    next: usize,
    /// Chunks the hashing thread has begun: the filter thread skips them.
    begun: usize,
    /// Masks the filter thread finished, in chunk order (some may be of
    /// chunks the hashing thread hashed alone meanwhile).
    ready: VecDeque<(usize, Vec<u32>)>,
    /// Mask buffers the hashing thread is done with.
    spare: Vec<Vec<u32>>,
    hasher_waits: bool,
    filter_waits: bool,
    /// The hashing thread is gone: claim nothing more.
    stop: bool,
}

impl Shared {
    fn new(chunks: usize) -> Self {
        let state = State {
            chunks,
            next: 1,
            begun: 1,
            ready: VecDeque::new(),
            spare: Vec::new(),
            hasher_waits: false,
            filter_waits: false,
            stop: false,
        };
        Shared {
            state: Mutex::new(state),
            ready: Condvar::new(),
            room: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change to the state is whole under the lock: a panic on
        // the other thread leaves it consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The filter thread's next chunk and a buffer for its masks, once
    /// there is room; `None` when no chunk is left to claim.
    fn claim(&self) -> Option<(usize, Vec<u32>)> {
        let mut s = self.lock();
        loop {
            let i = s.next.max(s.begun);
            if s.stop || i >= s.chunks {
                return None;
            }
            if s.ready.len() < AHEAD {
                s.next = i + 1;
                let buf = s.spare.pop().unwrap_or_default();
                return Some((i, buf));
            }
            s.filter_waits = true;
            s = self.room.wait(s).unwrap_or_else(|e| e.into_inner());
            s.filter_waits = false;
        }
    }

    /// The filter thread finished chunk `i`.
    fn put(&self, i: usize, masks: Vec<u32>) {
        let mut s = self.lock();
        s.ready.push_back((i, masks));
        if s.hasher_waits {
            self.ready.notify_one();
        }
    }

    /// Chunk `i`'s masks for the hashing thread, which gives back the
    /// buffer it is done with; `None` when it hashes the chunk alone: the
    /// filter thread has not claimed it, or does not finish it in time.
    fn take(&self, i: usize, done: Option<Vec<u32>>) -> Option<Vec<u32>> {
        let mut s = self.lock();
        s.spare.extend(done);
        s.begun = i + 1;
        let mut waited = false;
        loop {
            // Masks of chunks hashed alone meanwhile are left over.
            while s.ready.front().map_or(false, |r| r.0 < i) {
                let (_, old) = s.ready.pop_front().expect("just seen");
                s.spare.push(old);
            }
            if s.ready.front().map(|r| r.0) == Some(i) {
                let (_, masks) = s.ready.pop_front().expect("just seen");
                if s.filter_waits && s.ready.len() <= AHEAD / 2 {
                    self.room.notify_one();
                }
                return Some(masks);
            }
            if s.next <= i || waited {
                return None;
            }
            // The filter thread is on chunk i.
            s.hasher_waits = true;
            s = self
                .ready
                .wait_timeout(s, PATIENCE)
                .map_or_else(|e| e.into_inner().0, |r| r.0);
            s.hasher_waits = false;
            waited = true;
        }
    }
}

/// Stops the filter thread when the hashing thread leaves, however it
/// leaves, so that the scope's join never waits for it.
struct StopOnDrop<'a>(&'a Shared);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.room.notify_one();
    }
}

/// The filter thread: the masks of every chunk it can claim.
fn filter_ahead(shared: &Shared, platform: Platform, blocks: &[Block], chunks: Chunks) {
    while let Some((i, mut masks)) = shared.claim() {
        let r = chunks.range(i);
        let r = r.start..r.end.min(blocks.len());
        masks.clear();
        masks.resize(r.len(), 0);
        platform.filter_masks(&blocks[r], &mut masks);
        shared.put(i, masks);
    }
}

/// [`Engine::update`] of `data`, with the filter on a second thread from
/// `min` bytes on (where [`filter_apart`](super::filter_apart)), in
/// `chunks`.
pub(crate) fn update_slice(
    engine: &mut Engine,
    data: &[u8],
    chunks: Chunks,
    min: usize,
) -> ChunkCounts {
    let none = &mut Reporter::none();
    if data.len() < min || !super::filter_apart(engine) {
        engine.update(data, none);
        return ChunkCounts::default();
    }
    // The bytes that finish the engine's unfinished block, then whole
    // blocks: the chunks after the first start on a block boundary.
    let pre = ((64 - engine.len() % 64) % 64) as usize;
    let (blocks, _) = split_blocks(&data[pre.min(data.len())..]);
    let count = (1..)
        .find(|&i| chunks.range(i).start >= blocks.len())
        .expect("the chunks cover any input");
    let bytes = |i: usize| {
        let r = chunks.range(i);
        let start = if i == 0 { 0 } else { pre + 64 * r.start };
        let end = if r.end >= blocks.len() {
            data.len()
        } else {
            pre + 64 * r.end
        };
        start..end
    };
    let shared = Shared::new(count);
    let mut counts = ChunkCounts::default();
    std::thread::scope(|scope| {
        let (shared, platform) = (&shared, engine.platform());
        let filter = move || filter_ahead(shared, platform, blocks, chunks);
        // Where no thread starts (wasm32 without threads, a process out of
        // them), no chunk is claimed and every one is hashed alone.
        let _ = std::thread::Builder::new().spawn_scoped(scope, filter);
        let _stop = StopOnDrop(shared);
        engine.update_keeping_none(&data[bytes(0)], none);
        counts.alone += 1;
        let mut done = None;
        for i in 1..count {
            match shared.take(i, done.take()) {
                Some(masks) => {
                    engine
                        .update_with_masks(&data[bytes(i)], &masks, none)
                        .expect("a mask per block of the chunk");
                    done = Some(masks);
                    counts.handed += 1;
                }
                None => {
                    engine.update_keeping_none(&data[bytes(i)], none);
                    counts.alone += 1;
                }
            }
        }
    });
    counts
}
