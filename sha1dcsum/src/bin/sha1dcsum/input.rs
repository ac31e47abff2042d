//! Reading and hashing one input (a file, or standard input for `-`), with
//! one reusable page-aligned buffer per thread.

use std::ffi::OsStr;
use std::fmt;
use std::fs::File;
use std::io::{self, ErrorKind, Read};

use sha1dc_wasm::git::{ObjectHasher, ObjectKind, ObjectOutcome};
use sha1dc_wasm::{Builder, Hasher, Outcome};

use crate::jobs::Cores;

/// Read size: large enough that the per-read overhead vanishes next to
/// hashing, small enough that what the kernel copied is still in the CPU's
/// cache when it is hashed.
const BUFFER_SIZE: usize = 256 << 10;

/// The read buffer starts on a page boundary: the kernel copies from the page
/// cache several times faster into an aligned buffer than into one 16 bytes
/// off (which is where the allocator puts a large `Vec`), measured on x86-64.
const PAGE: usize = 4096;

/// What hashing an input found: its outcome and where a collision starts in
/// its own bytes (of which the library's `result::Hashed` is what is printed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputOutcome {
    pub outcome: Outcome,
    /// The first flagged block's offset in the input's own bytes: the
    /// block's offset, or for a git blob its offset in the content.
    pub offset: Option<u64>,
}

impl InputOutcome {
    pub fn plain(outcome: Outcome) -> InputOutcome {
        InputOutcome {
            offset: outcome.collision().map(|c| c.offset()),
            outcome,
        }
    }

    pub fn object(o: ObjectOutcome) -> InputOutcome {
        InputOutcome {
            outcome: *o.outcome(),
            offset: o.collision_offset(),
        }
    }
}

/// Why an input produced no line.
#[derive(Debug)]
pub enum Failure {
    Io(io::Error),
    /// `--git-blob` on a regular file whose length changed under us: the
    /// header already hashed would be wrong.
    SizeChanged {
        expected: u64,
        actual: u64,
    },
}

impl Failure {
    /// The input does not exist (what `--ignore-missing` skips).
    pub fn is_missing(&self) -> bool {
        matches!(self, Failure::Io(e) if e.kind() == ErrorKind::NotFound)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Io(e) => f.write_str(&describe(e)),
            Failure::SizeChanged { expected, actual } => write!(
                f,
                "file size changed while reading (expected {expected} bytes, read {actual})"
            ),
        }
    }
}

/// The OS's reason, without Rust's " (os error N)" suffix, as C tools print it.
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    if let Some(code) = e.raw_os_error() {
        let suffix = format!(" (os error {code})");
        if let Some(reason) = text.strip_suffix(&suffix) {
            return reason.to_owned();
        }
    }
    text
}

/// One thread's tools: the options, a hasher to reuse and the read buffer.
pub struct Reader {
    builder: Builder,
    git_blob: bool,
    hasher: Hasher,
    storage: Vec<u8>,
    start: usize,
}

impl Reader {
    pub fn new(builder: Builder, git_blob: bool) -> Reader {
        let storage = vec![0u8; BUFFER_SIZE + PAGE];
        let start = match storage.as_ptr().align_offset(PAGE) {
            offset if offset < PAGE => offset,
            _ => 0,
        };
        Reader {
            builder,
            git_blob,
            hasher: builder.build(),
            storage,
            start,
        }
    }

    fn buffer(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + BUFFER_SIZE]
    }

    /// Hashes the named input (`-` is standard input), on a second thread
    /// too from when `cores` has one free.
    pub fn hash_input(&mut self, name: &OsStr, cores: &Cores) -> Result<InputOutcome, Failure> {
        if name == "-" {
            // Locked per read (a lock cannot go to a second thread).
            return self.hash_reader(&mut io::stdin(), None, cores);
        }
        let mut file = File::open(name)?;
        // The length matters only for --git-blob, and is trusted only for a
        // regular file (a pipe or device has none; a directory fails on read).
        let known_len = if self.git_blob {
            let meta = file.metadata()?;
            meta.is_file().then_some(meta.len())
        } else {
            None
        };
        self.hash_reader(&mut file, known_len, cores)
    }

    /// Hashes one opened input; `known_len` is its length when it is a
    /// regular file and `--git-blob` needs it.
    pub fn hash_reader(
        &mut self,
        reader: &mut (impl Read + Send),
        known_len: Option<u64>,
        cores: &Cores,
    ) -> Result<InputOutcome, Failure> {
        if !self.git_blob {
            let hasher = &mut self.hasher;
            hasher.reset();
            let buf = &mut self.storage[self.start..self.start + BUFFER_SIZE];
            stream(reader, buf, hasher, cores)?;
            return Ok(InputOutcome::plain(hasher.finalize_reset()));
        }
        match known_len {
            Some(expected) => {
                let mut object = self.builder.build_object(ObjectKind::Blob, expected);
                stream(reader, self.buffer(), &mut object, cores)?;
                let outcome = object.finalize().map_err(|e| Failure::SizeChanged {
                    expected: e.expected(),
                    actual: e.actual(),
                })?;
                Ok(InputOutcome::object(outcome))
            }
            None => {
                // The length comes first in the header: read it all.
                let mut content = Vec::new();
                reader.read_to_end(&mut content)?;
                let mut object = self
                    .builder
                    .build_object(ObjectKind::Blob, content.len() as u64);
                match cores.second() {
                    Some(_second) => object.update_parallel(&content),
                    None => object.update(&content),
                }
                let outcome = object.finalize().map_err(|e| Failure::SizeChanged {
                    expected: e.expected(),
                    actual: e.actual(),
                })?;
                Ok(InputOutcome::object(outcome))
            }
        }
    }
}

/// What an input streams into: a hasher, or a git object's.
trait Sink {
    fn update(&mut self, data: &[u8]);

    /// The rest of `reader`, read and filtered on a second thread.
    fn update_reader_parallel(&mut self, reader: impl Read + Send) -> io::Result<u64>;
}

impl Sink for Hasher {
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }

    fn update_reader_parallel(&mut self, reader: impl Read + Send) -> io::Result<u64> {
        Hasher::update_reader_parallel(self, reader)
    }
}

impl Sink for ObjectHasher {
    fn update(&mut self, data: &[u8]) {
        ObjectHasher::update(self, data);
    }

    fn update_reader_parallel(&mut self, reader: impl Read + Send) -> io::Result<u64> {
        ObjectHasher::update_reader_parallel(self, reader)
    }
}

/// Feeds everything `reader` yields to `sink` through `buf`, and the rest
/// of it on two threads from when `cores` has a second one free. A read
/// error aborts (the caller prints nothing for the input).
fn stream(
    reader: &mut (impl Read + Send),
    buf: &mut [u8],
    sink: &mut impl Sink,
    cores: &Cores,
) -> io::Result<()> {
    loop {
        if let Some(_second) = cores.second() {
            return sink.update_reader_parallel(&mut *reader).map(drop);
        }
        match reader.read(buf) {
            Ok(0) => return Ok(()),
            Ok(n) => sink.update(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Yields `good` bytes, then fails: a read error half-way through a file.
    struct FailsHalfway {
        good: usize,
    }

    impl Read for FailsHalfway {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good == 0 {
                return Err(io::Error::from_raw_os_error(5));
            }
            let n = buf.len().min(self.good).min(1000);
            buf[..n].fill(b'x');
            self.good -= n;
            Ok(n)
        }
    }

    #[test]
    fn read_error_half_way_is_reported_and_the_reader_reusable() {
        let one = Cores::new(1);
        for git_blob in [false, true] {
            let mut reader = Reader::new(Builder::default(), git_blob);
            for known in [None, Some(20_000)] {
                let err = reader
                    .hash_reader(&mut FailsHalfway { good: 10_000 }, known, &one)
                    .unwrap_err();
                assert_eq!(err.to_string(), "Input/output error");
            }
        }
        // Nothing of the failed input leaks into the next one.
        let mut reader = Reader::new(Builder::default(), false);
        let _ = reader.hash_reader(&mut FailsHalfway { good: 10_000 }, None, &one);
        let hashed = reader.hash_reader(&mut &b"abc"[..], None, &one).unwrap();
        assert_eq!(
            hashed.outcome.digest().to_string(),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
    }

    #[test]
    fn git_blob_length_mismatch_is_an_error() {
        let one = Cores::new(1);
        let mut reader = Reader::new(Builder::default(), true);
        let err = reader
            .hash_reader(&mut &b"abc"[..], Some(4), &one)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "file size changed while reading (expected 4 bytes, read 3)"
        );
        // `git hash-object` of "abc": blob 3\0abc.
        let ok = reader.hash_reader(&mut &b"abc"[..], Some(3), &one).unwrap();
        let whole = reader.hash_reader(&mut &b"abc"[..], None, &one).unwrap();
        assert_eq!(ok, whole);
        assert_eq!(
            ok.outcome.digest().to_string(),
            "f2ba8f84ab5c1bce84a7b441cb1959cfc7093b7f"
        );
    }

    /// Yields `data` in pieces, noting the threads that read it.
    struct Noting<'a> {
        data: &'a [u8],
        readers: Vec<std::thread::ThreadId>,
    }

    impl Read for Noting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.readers.push(std::thread::current().id());
            let n = buf.len().min(self.data.len()).min(100_000);
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// A large input goes on two threads once a core is free (its rest
    /// read on the second), and stays on one thread otherwise (`-j 1`),
    /// with the same result, plain or as a git blob.
    #[test]
    fn a_large_input_takes_a_second_thread_when_a_core_is_free() {
        let data: Vec<u8> = (0..3_000_000u32).map(|i| ((i * 7) >> 3) as u8).collect();
        let here = std::thread::current().id();
        for git_blob in [false, true] {
            let mut results = Vec::new();
            for free in [false, true] {
                // This thread at work on the last unit.
                let cores = Cores::new(if free { 2 } else { 1 });
                cores.start(true);
                let mut reader = Reader::new(Builder::default(), git_blob);
                let mut input = Noting {
                    data: &data,
                    readers: Vec::new(),
                };
                let known = Some(data.len() as u64);
                results.push(reader.hash_reader(&mut input, known, &cores).unwrap());
                let elsewhere = input.readers.iter().any(|&t| t != here);
                assert_eq!(elsewhere, free, "git_blob {git_blob}");
            }
            assert_eq!(results[0], results[1], "git_blob {git_blob}");
        }
    }

    #[test]
    fn os_error_suffix_is_dropped() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(describe(&e), "No such file or directory");
    }
}
