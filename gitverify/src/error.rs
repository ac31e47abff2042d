//! What can be wrong, as types: each error names the stage it comes from
//! and carries the offset and object it concerns where there is one
//! (in its fields, or in the [`Damage`](crate::Damage) reporting it). Its
//! `Display` is the sentence the command prints.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use sha1dc_wasm::Digest;

use crate::delta::DeltaError;
use crate::entry::HeaderError;
use crate::inflate::InflateError;

/// An I/O error, shared so that a report holding it stays `Clone` and
/// comparable (two are equal when their kind and text are).
#[derive(Clone, Debug)]
pub struct IoError(Arc<std::io::Error>);

impl IoError {
    /// The error the system gave.
    pub fn get(&self) -> &std::io::Error {
        &self.0
    }
}

impl From<std::io::Error> for IoError {
    fn from(e: std::io::Error) -> Self {
        IoError(Arc::new(e))
    }
}

impl PartialEq for IoError {
    fn eq(&self, other: &Self) -> bool {
        self.0.kind() == other.0.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoError {}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoError {}

/// Why one entry of a pack could not be read, parsed or made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryError {
    /// Its bytes could not be read.
    Unreadable(IoError),
    /// Its header does not parse.
    Header(HeaderError),
    /// Its zlib stream (a whole object's) does not inflate as declared.
    Inflate(InflateError),
    /// Its delta's zlib stream does not inflate as declared.
    DeltaInflate(InflateError),
    /// Its delta does not apply to its base.
    Delta(DeltaError),
    /// An OFS_DELTA whose base offset is not where an entry starts.
    OfsBaseNotAnEntry {
        /// The base offset it names.
        base: u64,
    },
    /// Following its bases reaches no whole object.
    NoWholeRoot,
    /// Its base, dropped from the cache, could not be made again.
    BaseNotMadeAgain(Box<EntryError>),
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::Unreadable(e) => write!(f, "cannot be read: {e}"),
            EntryError::Header(e) => e.fmt(f),
            EntryError::Inflate(e) => write!(f, "its zlib stream: {e}"),
            EntryError::DeltaInflate(e) => write!(f, "its delta's zlib stream: {e}"),
            EntryError::Delta(e) => e.fmt(f),
            EntryError::OfsBaseNotAnEntry { base } => write!(
                f,
                "its OFS_DELTA base offset {base} is not where an entry starts"
            ),
            EntryError::NoWholeRoot => {
                f.write_str("its delta chain has no whole object at its root")
            }
            EntryError::BaseNotMadeAgain(e) => write!(f, "its base could not be made again: {e}"),
        }
    }
}

/// Why a pack's first 12 bytes are not a pack this reader verifies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackHeaderError {
    /// The pack is too short for a header and a trailer.
    Truncated {
        /// Its length in bytes.
        len: u64,
    },
    /// No `PACK` signature.
    NotAPack,
    /// A version other than 2 or 3.
    Version(u32),
}

impl fmt::Display for PackHeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackHeaderError::Truncated { len } => {
                write!(f, "truncated: {len} bytes is too short for a pack")
            }
            PackHeaderError::NotAPack => f.write_str("not a pack (no PACK signature)"),
            PackHeaderError::Version(v) => {
                write!(f, "pack version {v} is not supported (only 2 and 3)")
            }
        }
    }
}

/// Why an `.idx` file cannot be used; entries are counted from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// The file could not be read.
    Unreadable(IoError),
    /// Shorter than any index.
    TooShort {
        /// Its length in bytes.
        len: usize,
    },
    /// An index version other than 1 and 2.
    Version(u32),
    /// Its trailing checksum is not that of its content.
    Checksum,
    /// Its fan-out table decreases at this entry of the table.
    FanoutDecreases(usize),
    /// Too short for the objects its fan-out table counts.
    TooShortFor(usize),
    /// A version 1 index whose size is not that of the objects it counts.
    WrongSize(usize),
    /// An entry naming a large offset the table does not hold.
    LargeOffset {
        /// The entry.
        entry: usize,
        /// The large offset's number.
        large: usize,
    },
    /// This entry's id is not after the one before.
    Order(usize),
    /// The fan-out table does not count this entry under its first byte.
    Fanout(usize),
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Unreadable(e) => e.fmt(f),
            IndexError::TooShort { len } => {
                write!(f, "the index is {len} bytes, too short to be one")
            }
            IndexError::Version(v) => {
                write!(f, "index version {v} is not supported (only 1 and 2)")
            }
            IndexError::Checksum => {
                f.write_str("the index's own checksum does not match its content")
            }
            IndexError::FanoutDecreases(i) => {
                write!(f, "the index's fan-out table decreases at entry {i}")
            }
            IndexError::TooShortFor(n) => {
                write!(f, "the index lists {n} objects but is too short for them")
            }
            IndexError::WrongSize(n) => {
                write!(
                    f,
                    "the index lists {n} objects but is not the size for them"
                )
            }
            IndexError::LargeOffset { entry, large } => write!(
                f,
                "the index's entry {entry} names large offset {large}, which is not in it"
            ),
            IndexError::Order(i) => write!(f, "the index's ids are not in order at entry {i}"),
            IndexError::Fanout(i) => {
                write!(f, "the index's fan-out table disagrees with its entry {i}")
            }
        }
    }
}

/// Where a pack and its (self-consistent) index disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// The index's pack checksum is not this pack's trailer.
    OtherPack,
    /// The index and the pack's header count different objects.
    Count {
        /// Objects the index lists.
        index: u64,
        /// Objects the pack's header declares.
        pack: u32,
    },
    /// The index places an object where no entry can start.
    NoEntryThere {
        /// The object.
        id: Digest,
        /// The offset the index gives.
        offset: u64,
    },
    /// The entry the index places an object at cannot be parsed.
    Entry {
        /// The object.
        id: Digest,
        /// What is wrong with its entry.
        error: EntryError,
    },
    /// The next indexed entry starts within this object's entry header.
    HeaderOverlap {
        /// The object.
        id: Digest,
    },
    /// The entry's CRC32 is not the one the index gives.
    Crc {
        /// The object.
        id: Digest,
        /// The entry's CRC32.
        actual: u32,
        /// The index's.
        indexed: u32,
    },
    /// An entry hashes to another id than the index gives it.
    Id {
        /// What it hashes to.
        hashed: Digest,
        /// What the index names it.
        indexed: Digest,
    },
    /// An object of the pack is not in the index.
    Missing,
    /// The index gives an object of the pack another offset.
    Offset {
        /// The offset the index gives.
        indexed: u64,
    },
    /// The index lists an object where no entry of the pack starts.
    Nowhere {
        /// The offset the index gives.
        offset: u64,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::OtherPack => f.write_str(
                "the index is for another pack (its pack checksum is not this pack's trailer)",
            ),
            Mismatch::Count { index, pack } => {
                write!(
                    f,
                    "the index lists {index} objects, the pack's header {pack}"
                )
            }
            Mismatch::NoEntryThere { id, offset } => write!(
                f,
                "the index places {id} at offset {offset}, where no entry can start"
            ),
            Mismatch::Entry { id, error } => write!(f, "object {id}: {error}"),
            Mismatch::HeaderOverlap { id } => write!(
                f,
                "object {id}: the next indexed entry starts within its header"
            ),
            Mismatch::Crc {
                id,
                actual,
                indexed,
            } => write!(
                f,
                "object {id}: the entry's CRC32 is {actual:08x}, the index says {indexed:08x} (the pack or its index is damaged)"
            ),
            Mismatch::Id { hashed, indexed } => {
                write!(f, "hashes to {hashed}, but the index names it {indexed}")
            }
            Mismatch::Missing => f.write_str("missing from the index"),
            Mismatch::Offset { indexed } => write!(f, "the index gives offset {indexed} for it"),
            Mismatch::Nowhere { offset } => write!(
                f,
                "the index lists it at offset {offset}, where no entry of the pack starts"
            ),
        }
    }
}

/// Why a bundle's header cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleError {
    /// The file could not be read.
    Unreadable(IoError),
    /// No v2 or v3 signature.
    NotABundle,
    /// A bundle of objects named by another hash (`@object-format`).
    ObjectFormat(String),
    /// No empty line ends the header.
    Unterminated,
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleError::Unreadable(e) => write!(f, "cannot be read: {e}"),
            BundleError::NotABundle => f.write_str("not a git bundle (no v2 or v3 signature)"),
            BundleError::ObjectFormat(format) => write!(
                f,
                "a bundle of {format} objects (@object-format): not named by SHA-1, nothing for SHA-1 collision detection to check"
            ),
            BundleError::Unterminated => {
                f.write_str("the bundle's header does not end (no empty line before its pack)")
            }
        }
    }
}

/// Why a loose object's file is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LooseError {
    /// Its zlib stream does not inflate.
    Inflate(InflateError),
    /// Bytes after its zlib stream.
    TrailingBytes(usize),
    /// No `<type> <len>` header.
    NoHeader,
    /// A type git does not know.
    UnknownType(String),
    /// The header's length is not a number.
    BadLength,
    /// The content is not the length the header says.
    Length {
        /// What the header says.
        declared: u64,
        /// What the content holds.
        actual: u64,
    },
}

impl fmt::Display for LooseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LooseError::Inflate(e) => e.fmt(f),
            LooseError::TrailingBytes(n) => write!(f, "{n} bytes after its zlib stream"),
            LooseError::NoHeader => f.write_str("no `<type> <len>` header"),
            LooseError::UnknownType(t) => write!(f, "unknown object type {t:?}"),
            LooseError::BadLength => f.write_str("its header's length is not a number"),
            LooseError::Length { declared, actual } => {
                write!(f, "its header says {declared} bytes, it holds {actual}")
            }
        }
    }
}

/// Why a path names nothing to verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// The path (or a file it leads to) could not be read.
    Io {
        /// The path.
        path: PathBuf,
        /// The system's error.
        error: IoError,
    },
    /// A file that is not a pack, an index or a bundle.
    NotAnObjectFile(PathBuf),
    /// An index whose pack is not beside it.
    IndexWithoutPack {
        /// The index.
        index: PathBuf,
        /// Where its pack should be.
        pack: PathBuf,
    },
    /// A directory that is no repository and no objects directory.
    NotARepository(PathBuf),
    /// A git directory without its `objects`.
    NoObjectsDir(PathBuf),
    /// A repository whose objects are named by another hash.
    ObjectFormat {
        /// Its git directory.
        git_dir: PathBuf,
        /// The hash (`extensions.objectFormat`), lower case.
        format: String,
    },
    /// `$GIT_OBJECT_DIRECTORY` is not a directory.
    ObjectDirectoryVariable(PathBuf),
    /// No path given and no repository up from the current directory.
    NotInRepository,
}

impl SourceError {
    pub(crate) fn io(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> SourceError + '_ {
        move |e| SourceError::Io {
            path: path.to_path_buf(),
            error: e.into(),
        }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            SourceError::NotAnObjectFile(p) => {
                write!(f, "{}: not a pack, pack index or bundle", p.display())
            }
            SourceError::IndexWithoutPack { index, pack } => write!(
                f,
                "{}: an index without its pack {}",
                index.display(),
                pack.display()
            ),
            SourceError::NotARepository(p) => write!(
                f,
                "{}: not a git repository, .git directory or objects directory",
                p.display()
            ),
            SourceError::NoObjectsDir(p) => write!(
                f,
                "{}: a git directory without its objects directory",
                p.display()
            ),
            SourceError::ObjectFormat { git_dir, format } => write!(
                f,
                "{}: a {} repository (extensions.objectFormat): its objects are not named by SHA-1, there is nothing for SHA-1 collision detection to check",
                git_dir.display(),
                format.to_ascii_uppercase().replace("SHA", "SHA-"),
            ),
            SourceError::ObjectDirectoryVariable(p) => write!(
                f,
                "{} ($GIT_OBJECT_DIRECTORY): not a directory",
                p.display()
            ),
            SourceError::NotInRepository => f.write_str("not in a git repository (give a PATH)"),
        }
    }
}

/// What is wrong with a damaged or unreadable part of the input (a
/// [`Damage`](crate::Damage)'s problem).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The file could not be read (here).
    Unreadable(IoError),
    /// The pack's header.
    PackHeader(PackHeaderError),
    /// The pack ends before the objects its header declares.
    FewerObjects {
        /// Objects the header declares.
        declared: u32,
        /// Entries found.
        found: u32,
    },
    /// An entry that could not be made, and the objects stored as deltas
    /// on it that are lost with it.
    Entry {
        /// What is wrong.
        error: EntryError,
        /// Objects below it that cannot be verified.
        lost: u64,
    },
    /// Index-less: an entry that does not parse, and the next one found.
    Skipped {
        /// What is wrong.
        error: EntryError,
        /// Where the next entry found starts.
        next: u64,
        /// The bytes skipped to it.
        skipped: u64,
    },
    /// Index-less: an entry that does not parse, with none found after it.
    NothingAfter(EntryError),
    /// Bytes between the last entry and the trailer.
    BytesBeforeTrailer(u64),
    /// The trailer is not the SHA-1 of the pack.
    WrongTrailer,
    /// A REF_DELTA whose base is in no pack given.
    RefBaseMissing {
        /// The base's id.
        base: Digest,
        /// Objects that depend on it (the delta itself included).
        dependents: u64,
    },
    /// A delta chain that loops through these entries.
    DeltaLoop {
        /// The entries' offsets, along the loop.
        offsets: Vec<u64>,
    },
    /// The index cannot be used: the pack is verified without it.
    Index(IndexError),
    /// The index disagrees with the pack.
    Mismatch(Mismatch),
    /// The index disagreed with the pack: the pack is verified without it.
    IndexSetAside,
    /// A bundle's header.
    Bundle(BundleError),
    /// Loose objects named by SHA-256 ids, not verified.
    Sha256Loose(u64),
    /// A loose object's file is not one.
    CorruptLoose(LooseError),
    /// A loose object whose content does not hash to its file's name.
    MisnamedLoose {
        /// The id its file name gives.
        named: Digest,
        /// The id its content hashes to.
        hashed: Digest,
    },
    /// A path that names nothing to verify.
    Source(SourceError),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable(e) => write!(f, "cannot be read: {e}"),
            Problem::PackHeader(e) => e.fmt(f),
            Problem::FewerObjects { declared, found } => write!(
                f,
                "truncated: the header says {declared} objects, the pack holds {found}"
            ),
            Problem::Entry { error, lost: 0 } => error.fmt(f),
            Problem::Entry { error, lost } => write!(
                f,
                "{error}; {lost} objects stored as deltas on it cannot be verified"
            ),
            Problem::Skipped {
                error,
                next,
                skipped,
            } => write!(
                f,
                "{error}; the next entry found starts at offset {next} ({skipped} bytes skipped)"
            ),
            Problem::NothingAfter(error) => write!(f, "{error}; no entry found after it"),
            Problem::BytesBeforeTrailer(n) => {
                write!(f, "{n} bytes between the last entry and the trailer")
            }
            Problem::WrongTrailer => {
                f.write_str("wrong trailer: the pack's checksum does not match its content")
            }
            Problem::RefBaseMissing { base, dependents } => write!(
                f,
                "REF_DELTA base {base} is not in the pack (a thin pack?); {dependents} objects depend on it"
            ),
            Problem::DeltaLoop { offsets } => {
                f.write_str("the delta chain loops through the entries at offsets ")?;
                for (i, o) in offsets.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    write!(f, "{comma}{o}")?;
                }
                Ok(())
            }
            Problem::Index(e) => write!(f, "{e}; the pack is verified without it"),
            Problem::Mismatch(e) => e.fmt(f),
            Problem::IndexSetAside => {
                f.write_str("the index disagrees with the pack: the pack is verified without it")
            }
            Problem::Bundle(e) => e.fmt(f),
            Problem::Sha256Loose(n) => write!(
                f,
                "{n} loose objects named by SHA-256 ids (a SHA-256 repository's): not verified"
            ),
            Problem::CorruptLoose(e) => write!(f, "corrupt loose object: {e}"),
            Problem::MisnamedLoose { named, hashed } => write!(
                f,
                "the file is named {named} but its content hashes to {hashed}"
            ),
            Problem::Source(e) => e.fmt(f),
        }
    }
}

macro_rules! errors {
    ($($t:ty),*) => { $(impl std::error::Error for $t {})* };
}
errors!(
    HeaderError,
    DeltaError,
    InflateError,
    EntryError,
    PackHeaderError,
    IndexError,
    Mismatch,
    BundleError,
    LooseError,
    SourceError,
    Problem
);
