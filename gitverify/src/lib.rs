//! Verifies every object of a git pack, bundle, loose-object store or
//! whole repository with SHA-1 collision detection (this workspace's
//! engine), and reports each collision block found: the object, the
//! block's offset in its content, the disturbance vector it matched.
//!
//! Two checks: every object hashed as git hashes it (`<type> <len>\0` and
//! the content), where a collision is an attack on git itself; and, with
//! [`Options::content`], every blob's content hashed as a file, where the
//! public collisions (SHAttered, SHA-mbles) committed as files show.
//!
//! ```no_run
//! let summary = gitverify::verify_path(".".as_ref(), &gitverify::Options::default())?;
//! println!("{} objects, {} collisions", summary.counts.total(), summary.findings.len());
//! # Ok::<(), gitverify::SourceError>(())
//! ```
#![deny(missing_docs)]

mod bundle;
pub mod command;
mod delta;
pub mod entry;
mod error;
pub mod files;
mod hashing;
mod idx;
pub mod inflate;
mod layout;
mod loose;
pub mod output;
mod pack;
mod processor;
mod report;
mod sources;
pub mod threads;
mod verify;
mod walk;

use std::path::Path;
use std::sync::mpsc::channel;

pub use delta::DeltaError;
pub use error::{
    BundleError, EntryError, IndexError, IoError, LooseError, Mismatch, PackHeaderError, Problem,
    SourceError,
};
pub use files::{FileKind, Files, SystemFiles};
pub use pack::ByteSource;
pub use report::{Check, Counts, Damage, Event, Finding, Order, Sink, Summary, Verified};
pub use sources::{
    Source, alternates, alternates_in, current_sources, current_sources_in, sources, sources_in,
};

use report::{Outlet, OwnedEvent};

// The README's Rust example compiles as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// How to verify.
#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads (at least one, at most [`Options::MAX_THREADS`]);
    /// the default is every core.
    pub threads: usize,
    /// Also hash every blob's content as a file (the content check).
    pub content: bool,
    /// The most bytes of delta bases (and, index-less, of inflated deltas)
    /// a worker keeps; the peak memory grows with this, not the pack.
    pub cache: usize,
    /// Where each read costs much whatever its size (a browser's
    /// `FileReaderSync`), the most bytes of a walk's entries read ahead of
    /// it in pack order, in a few large reads; 0 reads each entry when the
    /// walk reaches it (files and memory, where a read is cheap).
    pub gather: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            content: false,
            cache: 48 << 20,
            gather: 0,
        }
    }
}

impl Options {
    /// The most worker threads started, whatever `threads` asks: past
    /// the cores they only cost memory, and past the system's limits a
    /// thread that starts may still abort the process.
    pub const MAX_THREADS: usize = 1024;

    /// The worker threads to start.
    fn workers(&self) -> usize {
        self.threads.clamp(1, Self::MAX_THREADS)
    }
}

/// Verifies `sources` on worker threads (as many as [`Options::threads`]
/// says), calling `on_event` on this thread for each object verified,
/// collision found and damage found, as they are.
pub fn verify(sources: &[Source], options: &Options, on_event: &mut dyn FnMut(&Event)) {
    with_threads(on_event, |out| {
        for source in sources {
            verify::verify_source(&SystemFiles, source, options, verify::Part::WHOLE, out);
        }
    });
}

/// Verifies `sources` on this thread alone, starting no thread at all
/// (for a WebAssembly instance without threads): `sink` takes each event
/// as it happens, the same events [`verify`] reports. [`Options::threads`]
/// is not used.
pub fn verify_without_threads(sources: &[Source], options: &Options, sink: &mut dyn Sink) {
    verify_without_threads_in(&SystemFiles, sources, options, sink);
}

/// [`verify_without_threads`], the sources read from `files` (a
/// WebAssembly front end's, whose JavaScript reads the files).
pub fn verify_without_threads_in(
    files: &dyn Files,
    sources: &[Source],
    options: &Options,
    sink: &mut dyn Sink,
) {
    let options = Options {
        threads: 1,
        ..options.clone()
    };
    let sink = std::sync::Mutex::new(sink);
    let deliver = |event| report::deliver_to(&sink, event);
    let out = Outlet::Direct(&deliver);
    for source in sources {
        verify::verify_source(files, source, &options, verify::Part::WHOLE, &out);
    }
}

/// Part `part` (from 0) of `parts` of [`verify_without_threads_in`], for
/// several verifications that share the work without sharing memory (one
/// WebAssembly instance each, on workers): each walks every `parts`-th
/// delta tree of the packs that have an index; source `i` as a whole (its
/// object count, trailer and index, or all of it where it cannot be
/// shared: a pack without an index, a bundle, loose objects) falls to part
/// `i % parts`. Together the parts report exactly the events one
/// verification of all of it reports (in another order).
pub fn verify_part_without_threads_in(
    files: &dyn Files,
    sources: &[Source],
    options: &Options,
    (part, parts): (usize, usize),
    sink: &mut dyn Sink,
) {
    let options = Options {
        threads: 1,
        ..options.clone()
    };
    let parts = parts.max(1);
    let sink = std::sync::Mutex::new(sink);
    let deliver = |event| report::deliver_to(&sink, event);
    let out = Outlet::Direct(&deliver);
    for (i, source) in sources.iter().enumerate() {
        let share = verify::Part {
            index: part % parts,
            of: parts,
            leads: i % parts == part % parts,
        };
        verify::verify_source(files, source, &options, share, &out);
    }
}

/// `produce` run on a thread of its own, its events passed to `on_event`
/// on this thread as they come.
fn with_threads(on_event: &mut dyn FnMut(&Event), produce: impl FnOnce(&Outlet) + Send) {
    let (tx, rx) = channel::<OwnedEvent>();
    let out = Outlet::Channel(tx);
    std::thread::scope(|scope| {
        // Where the system refuses a thread, the sources are verified
        // first and the events follow.
        let producer = threads::spawn_or_run(scope, move || produce(&out));
        for event in rx {
            on_event(&event.event());
        }
        producer.join();
    });
}

/// Verifies what `path` names (see [`sources`]) in one call.
pub fn verify_path(path: &Path, options: &Options) -> Result<Summary, SourceError> {
    let sources = sources(path)?;
    let mut summary = Summary::default();
    verify(&sources, options, &mut |e| summary.add(e));
    summary.sort();
    Ok(summary)
}

/// Verifies a pack read from `pack` (a file, bytes in memory), with no
/// index, named `name` in the reports.
pub fn verify_pack_from(
    pack: impl ByteSource,
    name: &Path,
    options: &Options,
    on_event: &mut dyn FnMut(&Event),
) {
    let data = pack::PackData::new(pack);
    with_threads(on_event, |out| {
        verify::verify_pack(&data, name, None, options, verify::Part::WHOLE, out);
    });
}

/// Verifies a pack held in memory, with no index (the fuzz target's entry).
pub fn verify_pack_bytes(pack: &[u8], options: &Options, on_event: &mut dyn FnMut(&Event)) {
    verify_pack_from(pack, Path::new("<memory>"), options, on_event);
}
