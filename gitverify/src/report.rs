//! What a verification reports: each object verified, each collision found
//! (a [`Finding`]), each damaged or unreadable part (a [`Damage`]), and the
//! [`Summary`] of a whole run.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;
use std::sync::{Mutex, PoisonError};

use sha1dc_wasm::git::ObjectKind;
use sha1dc_wasm::{Digest, DisturbanceVector};

use crate::error::Problem;

/// Which of the two checks flagged an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// The object as git hashes it (`<type> <len>\0` + content): a
    /// collision attack on git itself.
    Object,
    /// A blob's content hashed as a file (`--content`): collision material
    /// for any system that names files by the SHA-1 of their bytes.
    Content,
}

impl Check {
    /// `object` or `content`, as the command prints it.
    pub fn name(self) -> &'static str {
        match self {
            Check::Object => "object",
            Check::Content => "content",
        }
    }
}

/// A collision block found in an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Which check found it.
    pub check: Check,
    /// The object's id (the plain SHA-1 git names it by).
    pub id: Digest,
    /// The object's kind.
    pub kind: ObjectKind,
    /// The object's content size in bytes.
    pub size: u64,
    /// Where the first flagged 64-byte block starts in the content.
    pub offset: u64,
    /// The disturbance vector the block matched.
    pub dv: DisturbanceVector,
    /// The file the object is in.
    pub file: PathBuf,
    /// The object's entry offset in its pack (none for a loose object).
    pub pack_offset: Option<u64>,
}

/// A damaged or unreadable part of the input: it could not be verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The file it is in.
    pub file: PathBuf,
    /// The entry's offset in the pack, where one is known.
    pub offset: Option<u64>,
    /// The object's id, where one is known.
    pub id: Option<Digest>,
    /// What is wrong (its `Display` is the sentence the command prints).
    pub problem: Problem,
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(offset) = self.offset {
            write!(f, ": offset {offset}")?;
        }
        if let Some(id) = self.id {
            write!(f, ": object {id}")?;
        }
        write!(f, ": {}", self.problem)
    }
}

/// One object verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Its id (the plain SHA-1 of header and content).
    pub id: Digest,
    /// Its kind.
    pub kind: ObjectKind,
    /// Its content size.
    pub size: u64,
    /// Its entry offset in the pack (none for a loose object).
    pub pack_offset: Option<u64>,
}

/// Objects verified, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Commits.
    pub commits: u64,
    /// Trees.
    pub trees: u64,
    /// Blobs.
    pub blobs: u64,
    /// Annotated tags.
    pub tags: u64,
}

impl Counts {
    /// Counts one object of `kind`.
    pub fn add(&mut self, kind: ObjectKind) {
        match kind {
            ObjectKind::Commit => self.commits += 1,
            ObjectKind::Tree => self.trees += 1,
            ObjectKind::Blob => self.blobs += 1,
            ObjectKind::Tag => self.tags += 1,
        }
    }

    /// Adds the counts of another run (or part of one).
    pub fn add_all(&mut self, more: &Counts) {
        self.commits += more.commits;
        self.trees += more.trees;
        self.blobs += more.blobs;
        self.tags += more.tags;
    }

    /// All objects.
    pub fn total(&self) -> u64 {
        self.commits + self.trees + self.blobs + self.tags
    }
}

/// What a streaming verification reports, as it happens.
#[derive(Debug)]
pub enum Event<'a> {
    /// A file is about to be verified; `objects` is how many it holds
    /// (what its header says, for a pack).
    Source {
        /// The file.
        file: &'a std::path::Path,
        /// Objects it declares.
        objects: u64,
    },
    /// Objects verified (in no particular order).
    Verified(&'a [Verified]),
    /// A collision found.
    Finding(&'a Finding),
    /// Damage found.
    Damage(&'a Damage),
}

/// Takes what a verification reports, as it happens (any closure taking
/// an [`Event`] is one).
pub trait Sink: Send {
    /// One event.
    fn event(&mut self, event: &Event);
}

impl<F: FnMut(&Event) + Send> Sink for F {
    fn event(&mut self, event: &Event) {
        self(event)
    }
}

/// An [`Event`], owned: what a worker sends the thread that reports.
pub(crate) enum OwnedEvent {
    Source(PathBuf, u64),
    Verified(Vec<Verified>),
    Finding(Finding),
    Damage(Damage),
}

impl OwnedEvent {
    /// The event it is, borrowed.
    pub(crate) fn event(&self) -> Event<'_> {
        match self {
            OwnedEvent::Source(file, objects) => Event::Source {
                file,
                objects: *objects,
            },
            OwnedEvent::Verified(v) => Event::Verified(v),
            OwnedEvent::Finding(f) => Event::Finding(f),
            OwnedEvent::Damage(d) => Event::Damage(d),
        }
    }
}

/// Where the verifier's reports go: to the thread that reports (the
/// workers are threads), or straight to the sink (no threads).
#[derive(Clone)]
pub(crate) enum Outlet<'a> {
    /// To the thread that reports.
    Channel(Sender<OwnedEvent>),
    /// To the sink, on the thread that verifies.
    Direct(&'a (dyn Fn(OwnedEvent) + Sync + 'a)),
}

impl Outlet<'_> {
    /// Reports `event`.
    pub(crate) fn send(&self, event: OwnedEvent) {
        match self {
            // The reporting thread is gone only once the verification is.
            Outlet::Channel(tx) => drop(tx.send(event)),
            Outlet::Direct(deliver) => deliver(event),
        }
    }
}

/// `sink` as an outlet's delivery: shared by whatever reports, one event
/// at a time.
pub(crate) fn deliver_to(sink: &Mutex<&mut dyn Sink>, event: OwnedEvent) {
    let mut sink = sink.lock().unwrap_or_else(PoisonError::into_inner);
    sink.event(&event.event());
}

/// Damage reported for one file.
pub(crate) struct FileDamage<'a> {
    out: Outlet<'a>,
    file: &'a Path,
}

impl<'a> FileDamage<'a> {
    pub(crate) fn new(out: Outlet<'a>, file: &'a Path) -> Self {
        FileDamage { out, file }
    }

    /// Reports damage at `offset` (in a pack), of object `id`.
    pub(crate) fn report(&self, offset: Option<u64>, id: Option<Digest>, problem: Problem) {
        self.out.send(OwnedEvent::Damage(Damage {
            file: self.file.to_path_buf(),
            offset,
            id,
            problem,
        }));
    }

    /// Reports each of `problems`, found at their offsets in a pack.
    pub(crate) fn report_all(&self, problems: Vec<(Option<u64>, Problem)>) {
        for (offset, problem) in problems {
            self.report(offset, None, problem);
        }
    }
}

/// Where a finding or damage sorts in a run's report: file, offset, object,
/// then the check's name or the problem's words.
pub type Order = (PathBuf, Option<u64>, Option<Digest>, String);

impl Finding {
    /// Its place in the report's order ([`Summary::sort`]).
    pub fn order(&self) -> Order {
        let check = self.check.name().to_string();
        (self.file.clone(), self.pack_offset, Some(self.id), check)
    }
}

impl Damage {
    /// Its place in the report's order ([`Summary::sort`]).
    pub fn order(&self) -> Order {
        let problem = self.problem.to_string();
        (self.file.clone(), self.offset, self.id, problem)
    }
}

/// Everything a run found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Objects verified, by kind.
    pub counts: Counts,
    /// Collisions found (both checks).
    pub findings: Vec<Finding>,
    /// Damage found.
    pub damage: Vec<Damage>,
    /// Files read (packs, bundles, loose objects count as one each).
    pub files: u64,
}

impl Summary {
    /// Takes in one event.
    pub fn add(&mut self, event: &Event) {
        match event {
            Event::Source { .. } => self.files += 1,
            Event::Verified(objects) => objects.iter().for_each(|o| self.counts.add(o.kind)),
            Event::Finding(f) => self.findings.push((*f).clone()),
            Event::Damage(d) => self.damage.push((*d).clone()),
        }
    }

    /// Puts the findings and the damage in one order (file, offset, then
    /// the rest), whatever order the workers found them in.
    pub fn sort(&mut self) {
        self.findings.sort_by_cached_key(Finding::order);
        self.damage.sort_by_cached_key(Damage::order);
    }

    /// The command's exit status: 3 when a collision was found (whatever
    /// else was), 1 for damage alone, 0 when everything was verified clean.
    pub fn exit_code(&self) -> i32 {
        Self::exit_code_of(self.findings.len(), self.damage.len())
    }

    /// [`Summary::exit_code`] of a run with `findings` collisions and
    /// `damage` damaged parts.
    pub fn exit_code_of(findings: usize, damage: usize) -> i32 {
        if findings > 0 {
            3
        } else if damage > 0 {
            1
        } else {
            0
        }
    }
}
