//! One large input on two threads (feature `std`): the filter half runs
//! ahead on a second thread, a chunk at a time, and the calling thread
//! hashes each chunk with its masks (src/halves.rs), plain rounds for the
//! blocks without a candidate. The filter reads only the message, so it
//! never waits for the chaining value, and the hashing thread's work is
//! plain SHA-1 but for the rare candidate.
//!
//! - Over a slice (slice.rs), the chunks are fixed in advance and
//!   block-aligned, small at first, then larger. The calling thread hashes
//!   the first chunk itself while the second thread starts, and hashes
//!   alone (the one-thread path) any chunk whose masks are not ready when
//!   its turn comes (the second thread started late or was descheduled):
//!   the second thread can only help.
//! - Over a [`Read`](std::io::Read) (read.rs), the second thread reads
//!   each chunk into a buffer of a small ring and filters it, and the
//!   calling thread only hashes.
//!
//! Below [`PARALLEL_MIN`] bytes, a call runs on the calling thread alone,
//! and so does a call where no thread can start (wasm32 without threads).
//! Where the one-thread path hides the filter beside the rounds
//! ([`filter_apart`]), a slice is hashed on one thread and a `Read` only
//! read on the second.
//! The threads are scoped: when a call returns, by an error or not, its
//! second thread has ended.

mod read;
mod slice;
// Native only: the tests read files and start threads.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

pub(crate) use read::{CHUNK, update_reader};
pub(crate) use slice::{Chunks, update_slice};

use crate::engine::Engine;

/// Whether a second thread should run the filter of `engine`'s blocks:
/// with detection and the filter on, and unless this CPU's one-thread path
/// runs the whole filter beside the rounds (the AVX-512 backend on AMD:
/// [`Platform::hides_filter`]), where handing chunks over costs more than
/// the filter does. Without it, a slice is hashed on one thread, and a
/// `Read` is read on the second thread and hashed (filter included) on
/// this one.
///
/// [`Platform::hides_filter`]: crate::platform::Platform::hides_filter
pub(crate) fn filter_apart(engine: &Engine) -> bool {
    let config = engine.config();
    let hidden = engine.platform().hides_filter();
    config.detect && config.use_filter && !hidden
}

/// Below this many bytes a call runs on one thread: starting a thread and
/// handing chunks over would cost more than the second core saves
/// (benches/throughput.rs measures it).
pub(crate) const PARALLEL_MIN: usize = 256 << 10;

/// What a call did, for the tests: chunks hashed with what the second
/// thread handed over, and chunks the calling thread hashed alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ChunkCounts {
    pub handed: usize,
    pub alone: usize,
}
