//! A [`Read`] on two threads: the second thread reads each chunk into a
//! buffer of a small ring and filters it, the calling thread hashes it.

use std::collections::VecDeque;
use std::io::{self, ErrorKind, Read};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::ChunkCounts;
use crate::block::Partial;
use crate::engine::Engine;
use crate::halves::BlockFilter;
use crate::record::Reporter;

/// The bytes read per chunk.
pub(crate) const CHUNK: usize = 256 << 10;

/// Buffers in the ring: the reading thread is woken when half of them are
/// free again (one wake-up per half, not per chunk).
const BUFFERS: usize = 4;

/// A read buffer that starts on a page boundary: the kernel copies from
/// the page cache faster into it than into one a few bytes off.
struct Buffer {
    storage: Vec<u8>,
    start: usize,
    /// The masks of its chunk's blocks.
    masks: Vec<u32>,
}

impl Buffer {
    const PAGE: usize = 4096;

    fn new(len: usize) -> Self {
        let storage = vec![0; len + Self::PAGE];
        let start = storage.as_ptr().align_offset(Self::PAGE).min(Self::PAGE);
        Buffer {
            storage,
            start,
            masks: Vec::new(),
        }
    }

    fn bytes(&mut self) -> &mut [u8] {
        let len = self.storage.len() - Self::PAGE;
        &mut self.storage[self.start..self.start + len]
    }
}

/// Fills `buf` from `reader` unless the input ends first: the bytes read.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match reader.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// What the reading thread hands over: chunks (a buffer, its length, and
/// whether its masks are filled), then the end or an error.
enum FromReader {
    Chunk(Buffer, usize, bool),
    End,
    Failed(io::Error),
}

/// What the two threads share.
struct Ring {
    /// The size of a chunk, and of each buffer.
    chunk: usize,
    state: Mutex<RingState>,
    /// Something was handed over.
    handed: Condvar,
    /// Buffers came back.
    freed: Condvar,
}

struct RingState {
    queue: VecDeque<FromReader>,
    /// Buffers the hashing thread is done with.
    spare: Vec<Buffer>,
    /// Buffers made so far.
    made: usize,
    reader_waits: bool,
    hasher_waits: bool,
    /// The hashing thread is gone: read nothing more.
    stop: bool,
}

impl Ring {
    fn new(chunk: usize) -> Self {
        let state = RingState {
            queue: VecDeque::new(),
            spare: Vec::new(),
            made: 0,
            reader_waits: false,
            hasher_waits: false,
            stop: false,
        };
        Ring {
            chunk,
            state: Mutex::new(state),
            handed: Condvar::new(),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, RingState> {
        // Every change to the state is whole under the lock: a panic on
        // the other thread leaves it consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A free buffer, new or given back; `None` once the hashing thread is
    /// gone.
    fn free(&self) -> Option<Buffer> {
        let mut s = self.lock();
        loop {
            if s.stop {
                return None;
            }
            if let Some(b) = s.spare.pop() {
                return Some(b);
            }
            // The hashing thread's first buffer counts as one.
            if s.made + 1 < BUFFERS {
                s.made += 1;
                return Some(Buffer::new(self.chunk));
            }
            s.reader_waits = true;
            s = self.freed.wait(s).unwrap_or_else(|e| e.into_inner());
            s.reader_waits = false;
        }
    }

    fn hand(&self, what: FromReader) {
        let mut s = self.lock();
        s.queue.push_back(what);
        if s.hasher_waits {
            self.handed.notify_one();
        }
    }

    /// The next thing handed over, for the hashing thread, which gives back
    /// the buffer it is done with.
    fn next(&self, done: Option<Buffer>) -> FromReader {
        let mut s = self.lock();
        if let Some(b) = done {
            s.spare.push(b);
            if s.reader_waits && s.spare.len() >= BUFFERS / 2 {
                self.freed.notify_one();
            }
        }
        loop {
            if let Some(what) = s.queue.pop_front() {
                return what;
            }
            s.hasher_waits = true;
            s = self.handed.wait(s).unwrap_or_else(|e| e.into_inner());
            s.hasher_waits = false;
        }
    }
}

/// Stops the reading thread when the hashing thread leaves, however it
/// leaves, so that the scope's join never waits for it.
struct StopOnDrop<'a>(&'a Ring);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.freed.notify_one();
    }
}

/// Hands the end over when the reading thread leaves, or an error when it
/// leaves by a panic (in the caller's `Read`), so that the hashing thread
/// never waits for a thread that is gone.
struct EndOnDrop<'a>(&'a Ring);

impl EndOnDrop<'_> {
    fn fail(self, e: io::Error) {
        self.0.hand(FromReader::Failed(e));
        std::mem::forget(self);
    }
}

impl Drop for EndOnDrop<'_> {
    fn drop(&mut self) {
        self.0.hand(if std::thread::panicking() {
            FromReader::Failed(io::Error::new(
                ErrorKind::Other,
                "the reading thread panicked",
            ))
        } else {
            FromReader::End
        });
    }
}

/// The reading thread: reads `reader` a chunk at a time into the ring's
/// buffers and filters each chunk with `filter` (none unless
/// [`filter_apart`](super::filter_apart)), until the end or an error.
fn read_ahead(ring: &Ring, mut reader: impl Read, mut filter: Option<BlockFilter>) {
    let end = EndOnDrop(ring);
    while let Some(mut buf) = ring.free() {
        let len = match read_full(&mut reader, &mut buf.bytes()[..ring.chunk]) {
            Ok(0) => break,
            Ok(len) => len,
            Err(e) => return end.fail(e),
        };
        if let Some(f) = &mut filter {
            buf.masks.resize(f.masks_for(len), 0);
            let Buffer {
                storage,
                start,
                masks,
            } = &mut buf;
            f.filter(&storage[*start..*start + len], masks)
                .expect("room for every mask");
        }
        ring.hand(FromReader::Chunk(buf, len, filter.is_some()));
        if len < ring.chunk {
            break;
        }
    }
}

/// Reads `reader` to its end into `engine` (as [`Engine::update`]), the
/// reading and the filter on a second thread, a `chunk` of bytes at a time,
/// once the input proves at least `min` bytes long (64 or more). Returns
/// the bytes read, or the first read error (part of what was read before
/// it is hashed).
pub(crate) fn update_reader<R: Read + Send>(
    engine: &mut Engine,
    mut reader: R,
    min: usize,
    chunk: usize,
) -> io::Result<(u64, ChunkCounts)> {
    debug_assert!(min >= 64);
    // A short input ends in a small buffer: no ring is allocated for it.
    let mut small = [0u8; 4096];
    let small = &mut small[..min.min(4096)];
    let k = read_full(&mut reader, small)?;
    if k < small.len() {
        engine.update(&small[..k], &mut Reporter::none());
        return Ok((k as u64, ChunkCounts::default()));
    }
    // The first buffer of the ring, if the input proves long enough.
    let mut head = Buffer::new(min.max(chunk));
    head.bytes()[..k].copy_from_slice(small);
    let n = k + read_full(&mut reader, &mut head.bytes()[k..min])?;
    if n < min {
        engine.update(&head.bytes()[..n], &mut Reporter::none());
        return Ok((n as u64, ChunkCounts::default()));
    }
    let filter = if super::filter_apart(engine) {
        let carried = ((engine.len() + n as u64) % 64) as usize;
        Some(BlockFilter::new(
            engine.platform(),
            Partial::new(&head.bytes()[n - carried..n]),
        ))
    } else {
        None
    };
    let ring = Ring::new(chunk);
    // The reader goes to the second thread, or stays if none starts.
    let slot = Mutex::new(Some(reader));
    let take = |slot: &Mutex<Option<R>>| slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    std::thread::scope(|scope| {
        let (ring, slot) = (&ring, &slot);
        let reading = move || {
            if let Some(reader) = take(slot) {
                read_ahead(ring, reader, filter);
            }
        };
        let started = std::thread::Builder::new().spawn_scoped(scope, reading);
        engine.update_keeping_none(&head.bytes()[..n], &mut Reporter::none());
        let (read, handed) = match started {
            Ok(_) => {
                let _stop = StopOnDrop(ring);
                hash_handed(engine, ring, Some(head))?
            }
            // No thread here (wasm32 without threads, a process out of them).
            Err(_) => {
                let reader = take(slot).expect("no thread took it");
                (hash_alone(engine, reader, head, chunk)?, 0)
            }
        };
        Ok((n as u64 + read, ChunkCounts { handed, alone: 1 }))
    })
}

/// The rest of `reader` read and hashed on this thread, through `buf`, a
/// `chunk` at a time: the bytes read.
fn hash_alone(
    engine: &mut Engine,
    mut reader: impl Read,
    mut buf: Buffer,
    chunk: usize,
) -> io::Result<u64> {
    let mut read = 0;
    loop {
        let n = read_full(&mut reader, &mut buf.bytes()[..chunk])?;
        if n == 0 {
            return Ok(read);
        }
        engine.update_keeping_none(&buf.bytes()[..n], &mut Reporter::none());
        read += n as u64;
    }
}

/// The hashing thread's part: hashes every chunk handed over, giving
/// `done` back to the ring first, then each buffer it is done with.
/// Returns the bytes and the chunks hashed, or the reading thread's error.
fn hash_handed(
    engine: &mut Engine,
    ring: &Ring,
    mut done: Option<Buffer>,
) -> io::Result<(u64, usize)> {
    let (mut read, mut chunks) = (0, 0);
    loop {
        let (mut buf, len, filtered) = match ring.next(done.take()) {
            FromReader::Chunk(buf, len, filtered) => (buf, len, filtered),
            FromReader::End => return Ok((read, chunks)),
            FromReader::Failed(e) => return Err(e),
        };
        let Buffer {
            storage,
            start,
            masks,
        } = &mut buf;
        let data = &storage[*start..*start + len];
        let none = &mut Reporter::none();
        if filtered {
            engine
                .update_with_masks(data, masks, none)
                .expect("a mask per block of the chunk");
        } else {
            engine.update_keeping_none(data, none);
        }
        read += len as u64;
        chunks += 1;
        done = Some(buf);
    }
}
