//! Every input of a run, dispatched to the run's threads: small files many
//! at once, through the library's batch API ([`Builder::hash_many_into`]:
//! one file per vector lane, 16 with AVX-512), which hashes them faster than
//! one stream does one after another; every other input on its own.
//!
//! The inputs are cut, in order, into units a thread takes whole:
//!
//! - a *group*: consecutive small regular files (at most [`SMALL_MAX`] bytes
//!   each by `stat`, [`GROUP_FILES`] (fewer when that leaves a thread
//!   without a group) and [`GROUP_BYTES`] in all), read whole into one
//!   buffer and hashed together;
//! - *one* input on the streaming path ([`Reader`]): standard input, a large
//!   file, a directory, a pipe or device, or a small file with no small
//!   neighbour.
//!
//! Every result is what the streaming path gives for that input, failures
//! included, and the units are consumed in order, so the output is the same
//! byte for byte:
//!
//! - a name whose `stat` fails joins a group: opening it there fails with
//!   the error the streaming path would print;
//! - a file's size is only a hint: each is read to its end. One that grew
//!   past the room left in the buffer goes on along the streaming path from
//!   what was read (memory stays bounded, the bytes hashed are the same);
//! - with `--git-blob`, the length in the header comes from `fstat` after
//!   opening, as on the streaming path, and a file that gives a different
//!   number of bytes fails with the same "size changed" error.
//!
//! `SHA1DCSUM_BATCH=0` in the environment puts every input on the streaming
//! path (for comparisons: benchmarks, tests).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{ErrorKind, Read};
use std::ops::Range;

use sha1dc_wasm::Builder;
use sha1dc_wasm::git::ObjectKind;

use crate::input::{Failure, InputOutcome, Reader};
use crate::jobs::{self, Cores};

/// The largest file a group takes. The batch is as fast per byte for large
/// messages as for small ones, as long as there is one for every lane, so
/// the bound is [`GROUP_BYTES`] over the most lanes (16): a group of the
/// largest files still fills them.
pub const SMALL_MAX: u64 = (GROUP_BYTES / 16) as u64;

/// The most bytes a group holds (the buffer each thread keeps for groups).
pub const GROUP_BYTES: usize = 4 << 20;

/// The most files in a group: enough that the lanes seldom wait for the
/// last long message.
pub const GROUP_FILES: usize = 64;

/// The fewest files a group is cut to so that every thread gets one: one
/// for each lane of the widest form.
const GROUP_FILES_MIN: usize = 16;

/// Where each file of a group starts in the buffer: on a cache line, which
/// the kernel copies into faster.
const ALIGN: usize = 64;

/// The environment variable that turns groups off when it is `0`.
pub const BATCH_VARIABLE: &str = "SHA1DCSUM_BATCH";

/// What hashing one input gives.
pub type Result = std::result::Result<InputOutcome, Failure>;

/// A unit of work: indices into the names.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Unit {
    One(usize),
    Group(Range<usize>),
}

/// How the names are cut into units, looked up as the threads ask for them.
struct Plan<'a> {
    names: &'a [&'a OsStr],
    /// The first name not in a unit yet.
    next: usize,
    /// Groups at all (else every name is one unit).
    batch: bool,
    /// The most files in a group.
    group_files: usize,
    /// The class of a name past the end of the last group, already looked up.
    peeked: Option<(usize, Class)>,
}

/// Which unit an input goes to, by `stat`: each class is one path through
/// the workers ([`Worker::run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Into a group, counting this many bytes.
    Small(u64),
    /// On the streaming path, alone.
    Alone,
}

fn class(name: &OsStr) -> Class {
    if name == "-" {
        return Class::Alone;
    }
    match std::fs::metadata(name) {
        Ok(meta) if meta.is_file() && meta.len() <= SMALL_MAX => Class::Small(meta.len()),
        Ok(_) => Class::Alone,
        // Opening it fails too, in the group, with the streaming path's error.
        Err(_) => Class::Small(0),
    }
}

impl Plan<'_> {
    fn class(&mut self, i: usize) -> Class {
        match self.peeked.take() {
            Some((j, class)) if j == i => class,
            _ => class(self.names[i]),
        }
    }
}

impl Iterator for Plan<'_> {
    type Item = Unit;

    fn next(&mut self) -> Option<Unit> {
        let start = self.next;
        if start >= self.names.len() {
            return None;
        }
        if !self.batch {
            self.next += 1;
            return Some(Unit::One(start));
        }
        let mut end = start;
        let mut bytes = 0;
        while end < self.names.len() && end - start < self.group_files {
            match self.class(end) {
                Class::Small(size) if bytes + size <= GROUP_BYTES as u64 => {
                    bytes += size;
                    end += 1;
                }
                class => {
                    self.peeked = Some((end, class));
                    break;
                }
            }
        }
        if end - start <= 1 {
            self.next = start + 1;
            return Some(Unit::One(start));
        }
        self.next = end;
        Some(Unit::Group(start..end))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.names.len() - self.next;
        (left.min(1), Some(left))
    }
}

/// A unit's results: of input `i`, or of the inputs from `start` on.
enum Done {
    One(usize, Result),
    Group(usize, Vec<Result>),
}

/// One thread's tools: the streaming reader and the group buffer.
struct Worker {
    reader: Reader,
    builder: Builder,
    git_blob: bool,
    /// Allocated at the first group: [`GROUP_BYTES`], the alignment of each
    /// file, and one byte more to see that a file goes past the room left.
    buffer: Vec<u8>,
}

impl Worker {
    fn new(builder: Builder, git_blob: bool) -> Worker {
        Worker {
            reader: Reader::new(builder, git_blob),
            builder,
            git_blob,
            buffer: Vec::new(),
        }
    }

    fn run(&mut self, names: &[&OsStr], unit: Unit, cores: &Cores) -> Done {
        match unit {
            Unit::One(i) => Done::One(i, self.reader.hash_input(names[i], cores)),
            Unit::Group(range) => Done::Group(range.start, self.group(&names[range], cores)),
        }
    }

    /// Reads every file of a group, then hashes those read whole in one
    /// batch; the others already have their result.
    fn group(&mut self, names: &[&OsStr], cores: &Cores) -> Vec<Result> {
        if self.buffer.is_empty() {
            self.buffer = vec![0; ALIGN + GROUP_BYTES + GROUP_FILES * ALIGN + 1];
        }
        let base = self.buffer.as_ptr().align_offset(ALIGN).min(ALIGN);
        let mut results: Vec<Option<Result>> = Vec::with_capacity(names.len());
        let mut whole: Vec<(usize, Range<usize>)> = Vec::with_capacity(names.len());
        let mut used = base;
        for (k, name) in names.iter().enumerate() {
            match self.read(name, used, cores) {
                Ok(range) => {
                    used = (range.end + ALIGN - 1) / ALIGN * ALIGN;
                    whole.push((k, range));
                    results.push(None);
                }
                Err(done) => results.push(Some(done)),
            }
        }
        let contents: Vec<&[u8]> = whole
            .iter()
            .map(|(_, range)| &self.buffer[range.clone()])
            .collect();
        if self.git_blob {
            let outcomes = self.builder.hash_objects(ObjectKind::Blob, &contents);
            for ((k, _), outcome) in whole.iter().zip(outcomes) {
                results[*k] = Some(Ok(InputOutcome::object(outcome)));
            }
        } else {
            let outcomes = self.builder.hash_many(&contents);
            for ((k, _), outcome) in whole.iter().zip(outcomes) {
                results[*k] = Some(Ok(InputOutcome::plain(outcome)));
            }
        }
        results
            .into_iter()
            .map(|r| r.expect("every file of a group has a result"))
            .collect()
    }

    /// Reads the named file to its end into the buffer from `at`: where it
    /// is, or (`Err`) its result when it is done otherwise: it failed, or
    /// it went on along the streaming path.
    fn read(
        &mut self,
        name: &OsStr,
        at: usize,
        cores: &Cores,
    ) -> std::result::Result<Range<usize>, Result> {
        let mut file = File::open(name).map_err(|e| Err(e.into()))?;
        // As on the streaming path: the length a git blob's header needs,
        // trusted only for a regular file.
        let known_len = if self.git_blob {
            let meta = file.metadata().map_err(|e| Err(e.into()))?;
            if !meta.is_file() {
                return Err(self.reader.hash_reader(&mut file, None, cores));
            }
            Some(meta.len())
        } else {
            None
        };
        let limit = self.buffer.len();
        let mut end = at;
        loop {
            if end == limit {
                // Past the room left: the rest streams, after what was read.
                let mut rest = (&self.buffer[at..end]).chain(&mut file);
                return Err(self.reader.hash_reader(&mut rest, known_len, cores));
            }
            match file.read(&mut self.buffer[end..limit]) {
                Ok(0) => break,
                Ok(n) => end += n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(Err(e.into())),
            }
        }
        let actual = (end - at) as u64;
        match known_len {
            Some(expected) if expected != actual => {
                return Err(Err(Failure::SizeChanged { expected, actual }));
            }
            _ => {}
        }
        Ok(at..end)
    }
}

/// The most files in a group for `count` inputs on `jobs` threads: fewer
/// than [`GROUP_FILES`] when that leaves threads without a group.
fn group_files(count: usize, jobs: usize) -> usize {
    let jobs = jobs.max(1);
    ((count + jobs - 1) / jobs).clamp(GROUP_FILES_MIN, GROUP_FILES)
}

/// True unless `SHA1DCSUM_BATCH=0`.
fn enabled() -> bool {
    std::env::var_os(BATCH_VARIABLE).map_or(true, |v| v != "0")
}

/// Threads to hash on: `-j` (`requested`), else one per CPU. Standard input
/// named twice or more is read by one thread, in order (the first `-` gets
/// the data).
fn threads(requested: Option<usize>, names: &[&OsStr]) -> usize {
    if names.iter().filter(|n| **n == "-").count() > 1 {
        return 1;
    }
    requested.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(1)
    })
}

/// Hashes every named input (`-` is standard input) on the threads `-j`
/// asks for (`requested`), small files in groups, and calls `consume(i,
/// result)` for input `i`, in order. Stops early when `consume` returns
/// false.
pub fn hash_all(
    names: &[&OsStr],
    requested: Option<usize>,
    builder: Builder,
    git_blob: bool,
    mut consume: impl FnMut(usize, Result) -> bool,
) {
    let jobs = threads(requested, names);
    let plan = Plan {
        names,
        next: 0,
        batch: names.len() > 1 && enabled(),
        group_files: group_files(names.len(), jobs),
        peeked: None,
    };
    jobs::run(
        plan,
        jobs,
        || Worker::new(builder, git_blob),
        |worker, unit, cores| worker.run(names, unit, cores),
        |_, done| match done {
            Done::One(i, result) => consume(i, result),
            Done::Group(start, results) => results
                .into_iter()
                .enumerate()
                .all(|(k, result)| consume(start + k, result)),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tempdir::TempDir;
    use std::ffi::OsString;

    /// Whether /proc/self/cmdline, opened, claims 0 bytes and holds some, as
    /// on Linux (QEMU's user mode hands over a copy with its true size).
    fn cmdline_claims_0_bytes() -> bool {
        let mut f = match File::open("/proc/self/cmdline") {
            Ok(f) => f,
            Err(_) => return false,
        };
        let claimed = f.metadata().map_or(1, |m| m.len());
        let mut content = Vec::new();
        let _ = f.read_to_end(&mut content);
        claimed == 0 && !content.is_empty()
    }

    /// Writes `len` bytes that depend on `seed` to `name` in `dir`; its path.
    fn file(dir: &TempDir, name: &str, len: usize, seed: u8) -> OsString {
        let data: Vec<u8> = (0..len)
            .map(|i| (i as u8).wrapping_mul(31) ^ seed)
            .collect();
        dir.write(name, &data).into_os_string()
    }

    fn units(names: &[&OsStr]) -> Vec<Unit> {
        Plan {
            names,
            next: 0,
            batch: true,
            group_files: GROUP_FILES,
            peeked: None,
        }
        .collect()
    }

    /// A result as text, to compare (a failure has no `PartialEq`).
    fn shown(result: &Result) -> String {
        match result {
            Ok(hashed) => format!("{hashed:?}"),
            Err(failure) => format!("error: {failure}"),
        }
    }

    #[test]
    fn plan_groups_small_files_and_leaves_the_rest_alone() {
        let dir = TempDir::new("batch-plan");
        let small: Vec<OsString> = (0..5)
            .map(|i| file(&dir, &format!("s{i}"), 100 * i, i as u8))
            .collect();
        let large = file(&dir, "large", SMALL_MAX as usize + 1, 9);
        let edge = file(&dir, "edge", SMALL_MAX as usize, 9);
        let missing = dir.0.join("missing").into_os_string();
        let here = dir.0.clone().into_os_string();
        fn n(s: &OsString) -> &OsStr {
            s.as_os_str()
        }
        let names: Vec<&OsStr> = vec![
            n(&small[0]),
            n(&small[1]),
            n(&missing),
            n(&edge),
            n(&large),
            n(&small[2]),
            OsStr::new("-"),
            n(&small[3]),
            n(&here),
            n(&small[4]),
            n(&small[0]),
        ];
        assert_eq!(
            units(&names),
            [
                Unit::Group(0..4),
                Unit::One(4),
                Unit::One(5),
                Unit::One(6),
                Unit::One(7),
                Unit::One(8),
                Unit::Group(9..11),
            ]
        );
        // Off: one unit per name.
        let plan = Plan {
            names: &names,
            next: 0,
            batch: false,
            group_files: GROUP_FILES,
            peeked: None,
        };
        assert_eq!(
            plan.collect::<Vec<_>>(),
            (0..11).map(Unit::One).collect::<Vec<_>>()
        );
    }

    #[test]
    fn plan_bounds_groups_in_files_and_bytes() {
        let dir = TempDir::new("batch-bounds");
        let tiny = file(&dir, "tiny", 10, 1);
        let names = vec![tiny.as_os_str(); GROUP_FILES * 2 + 1];
        assert_eq!(
            units(&names),
            [
                Unit::Group(0..GROUP_FILES),
                Unit::Group(GROUP_FILES..2 * GROUP_FILES),
                Unit::One(2 * GROUP_FILES),
            ]
        );
        let edge = file(&dir, "edge", SMALL_MAX as usize, 2);
        let per_group = (GROUP_BYTES as u64 / SMALL_MAX) as usize;
        let mut names = vec![edge.as_os_str(); per_group * 2];
        names.insert(per_group, tiny.as_os_str());
        // The tiny file leaves no room for the last large one.
        assert_eq!(
            units(&names),
            [
                Unit::Group(0..per_group),
                Unit::Group(per_group..2 * per_group),
                Unit::One(2 * per_group),
            ]
        );
    }

    #[test]
    fn groups_are_cut_smaller_so_that_every_thread_gets_one() {
        assert_eq!(group_files(20_000, 2), GROUP_FILES);
        assert_eq!(group_files(100, 1), GROUP_FILES);
        assert_eq!(group_files(100, 2), 50);
        assert_eq!(group_files(200, 8), 25);
        assert_eq!(group_files(40, 4), GROUP_FILES_MIN);
        assert_eq!(group_files(3, 0), GROUP_FILES_MIN);
    }

    /// Every result of a group, read whole or not, failed or not, is what
    /// the streaming path gives for the same input.
    #[test]
    fn group_results_are_the_streaming_results() {
        let one = Cores::new(1);
        let dir = TempDir::new("batch-group");
        let mut names: Vec<OsString> = (0..40)
            .map(|i| file(&dir, &format!("f{i}"), (i * 997) % 9000, i as u8))
            .collect();
        names.insert(3, dir.0.join("missing").into_os_string());
        names.insert(7, dir.0.clone().into_os_string());
        // Past the room a group has: read in part, then streamed.
        names.insert(11, file(&dir, "huge", GROUP_BYTES + 12345, 7));
        names.insert(12, file(&dir, "after-huge", 5000, 8));
        // A regular file that says 0 bytes and has some: --git-blob fails.
        names.insert(20, "/proc/self/cmdline".into());
        names.insert(25, file(&dir, "empty", 0, 0));
        let names: Vec<&OsStr> = names.iter().map(OsString::as_os_str).collect();
        for git_blob in [false, true] {
            let builder = Builder::default();
            let mut reader = Reader::new(builder, git_blob);
            let want: Vec<String> = names
                .iter()
                .map(|n| shown(&reader.hash_input(n, &one)))
                .collect();
            let mut worker = Worker::new(builder, git_blob);
            // Twice: the buffer is reused.
            for _ in 0..2 {
                let got: Vec<String> = worker.group(&names, &one).iter().map(shown).collect();
                assert_eq!(got, want, "git_blob {git_blob}");
            }
            assert!(want[3].starts_with("error: No such file"));
            assert_eq!(want[7], "error: Is a directory");
            assert_eq!(
                want[20].starts_with("error: file size changed while reading (expected 0 bytes"),
                git_blob && cmdline_claims_0_bytes()
            );
        }
    }

    #[test]
    fn hash_all_keeps_the_order_whatever_the_units() {
        let one = Cores::new(1);
        let dir = TempDir::new("batch-all");
        let mut names: Vec<OsString> = (0..300)
            .map(|i| file(&dir, &format!("f{i}"), (i * 7919) % 20000, i as u8))
            .collect();
        for i in [5, 77, 150] {
            names.insert(i, file(&dir, &format!("big{i}"), SMALL_MAX as usize * 2, 3));
        }
        names.insert(100, dir.0.join("missing").into_os_string());
        let names: Vec<&OsStr> = names.iter().map(OsString::as_os_str).collect();
        let mut reader = Reader::new(Builder::default(), false);
        let want: Vec<String> = names
            .iter()
            .map(|n| shown(&reader.hash_input(n, &one)))
            .collect();
        for jobs in [1, 2, 5] {
            let mut got = Vec::new();
            hash_all(
                &names,
                Some(jobs),
                Builder::default(),
                false,
                |i, result| {
                    assert_eq!(i, got.len());
                    got.push(shown(&result));
                    true
                },
            );
            assert_eq!(got, want, "jobs {jobs}");
        }
    }
}
