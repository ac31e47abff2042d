//! A packfile's bytes and its layout: where each entry starts and ends,
//! what it stores, and which entry each delta's base is. The layout comes
//! from the `.idx` when one is given (no inflating), or from one pass that
//! inflates every entry in order to find where the next one starts
//! (index-less, as git index-pack does).

use std::fs::File;

use sha1dc_wasm::git::ObjectKind;

use sha1dc_wasm::Digest;

use crate::entry::{self, EntryKind, Stored};
use crate::error::{EntryError, PackHeaderError};

/// Bytes read by position: what a pack is read from. A [`File`] reads
/// with positional reads (no mapping: the pages a verification reads
/// stay in the page cache, not in its memory); bytes in memory (a
/// `Vec<u8>`, a `&[u8]`: the fuzz target, a page's dropped file) are
/// copied from.
pub trait ByteSource: Send + Sync {
    /// Its length in bytes.
    fn len(&self) -> u64;
    /// Whether it holds no bytes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Fills `buf` with the bytes from `at` on; an error if there are
    /// fewer.
    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()>;
}

impl ByteSource for File {
    fn len(&self) -> u64 {
        self.metadata().map_or(0, |m| m.len())
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        read_file_at(self, buf, at)
    }
}

impl ByteSource for [u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let from = usize::try_from(at).unwrap_or(usize::MAX);
        let bytes = from
            .checked_add(buf.len())
            .and_then(|to| self.get(from..to))
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(bytes);
        Ok(())
    }
}

impl<T: ByteSource + ?Sized> ByteSource for &T {
    fn len(&self) -> u64 {
        (**self).len()
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        (**self).read_at(at, buf)
    }
}

impl ByteSource for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> std::io::Result<()> {
        self.as_slice().read_at(at, buf)
    }
}

/// A pack's bytes: a file (or the part of one after a bundle's header),
/// or bytes in memory. Shared by the workers: every read is positional.
pub struct PackData<'a> {
    source: Box<dyn ByteSource + 'a>,
    start: u64,
    len: u64,
}

impl PackData<'static> {
    /// The pack in `file` from byte `start` on (a bundle's pack follows
    /// its header).
    pub fn open(file: Box<dyn ByteSource>, start: u64) -> std::io::Result<Self> {
        let size = file.len();
        if size < start {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the file ends before its pack starts",
            ));
        }
        Ok(PackData {
            source: file,
            start,
            len: size - start,
        })
    }
}

impl<'a> PackData<'a> {
    /// A pack read whole from `source`.
    pub fn new(source: impl ByteSource + 'a) -> Self {
        let len = source.len();
        PackData {
            source: Box::new(source),
            start: 0,
            len,
        }
    }

    /// The pack's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Bytes `from..to` of the pack (clamped to its end) into `buf`.
    pub fn read(&self, from: u64, to: u64, buf: &mut Vec<u8>) -> std::io::Result<()> {
        let to = to.min(self.len);
        let from = from.min(to);
        buf.clear();
        // Where memory is short (a WebAssembly instance's 4 GiB), an entry
        // too large for it is an error that names its size, not an abort.
        let len = usize::try_from(to - from).ok();
        let room = len.filter(|&len| buf.try_reserve_exact(len).is_ok());
        let Some(len) = room else {
            let message = format!("{} bytes do not fit in memory", to - from);
            return Err(std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                message,
            ));
        };
        buf.resize(len, 0);
        self.source.read_at(self.start + from, buf)
    }
}

#[cfg(unix)]
fn read_file_at(f: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, at)
}

/// Where there are no files (WebAssembly without WASI) none is ever opened.
#[cfg(not(any(unix, windows)))]
fn read_file_at(_: &File, _: &mut [u8], _: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(windows)]
fn read_file_at(f: &File, mut buf: &mut [u8], mut at: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(f, buf, at)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                at += n as u64;
            }
        }
    }
    Ok(())
}

/// A forward reader over the pack: a window of it in memory, moved on
/// (and grown when an entry needs more) as the reads go forward; what it
/// reads is added to `sum` when it has one.
pub struct Window<'a> {
    data: &'a PackData<'a>,
    buf: Vec<u8>,
    at: u64,
    pub sum: Option<PackSum>,
}

/// The pack's checksum (the plain SHA-1 of every byte before its trailer)
/// summed from bytes as they are read elsewhere, each once and in order,
/// so that a pass over the pack need not be followed by another.
pub struct PackSum {
    hasher: sha1dc_wasm::Hasher,
    /// Summed up to here.
    at: u64,
    /// Where the trailer starts.
    end: u64,
    /// A read of a gap failed: nothing more is added (`finish` reads on).
    stopped: bool,
}

impl PackSum {
    pub fn new(data: &PackData) -> Self {
        PackSum {
            hasher: sha1dc_wasm::Hasher::builder()
                .detect_collisions(false)
                .build(),
            at: 0,
            end: data.len().saturating_sub(20),
            stopped: false,
        }
    }

    /// Adds `bytes`, read at `from`, past what is summed (a gap before
    /// them read first).
    fn add(&mut self, data: &PackData, from: u64, bytes: &[u8]) {
        let to = (from + bytes.len() as u64).min(self.end);
        if self.stopped || to <= self.at {
            return;
        }
        if from > self.at && self.read_to(data, from).is_err() {
            self.stopped = true;
            return;
        }
        self.hasher
            .update(&bytes[(self.at - from) as usize..(to - from) as usize]);
        self.at = to;
    }

    /// Reads and sums up to `to`; an error names where the read failed.
    fn read_to(&mut self, data: &PackData, to: u64) -> Result<(), (u64, std::io::Error)> {
        let mut buf = Vec::new();
        while self.at < to {
            let next = (self.at + (4 << 20)).min(to);
            data.read(self.at, next, &mut buf)
                .map_err(|e| (self.at, e))?;
            self.hasher.update(&buf);
            self.at = next;
        }
        Ok(())
    }

    /// The sum finished (what is left read now) and held against the
    /// trailer: `Ok(true)` if they match; an error names where a read failed.
    pub fn finish(mut self, data: &PackData) -> Result<bool, (u64, std::io::Error)> {
        self.read_to(data, self.end)?;
        let mut trailer = Vec::new();
        let end = self.end;
        data.read(end, end + 20, &mut trailer)
            .map_err(|e| (end, e))?;
        Ok(self.hasher.finalize().sha1().as_ref() == trailer.as_slice())
    }
}

/// What a window reads at least at a time.
const WINDOW: u64 = 4 << 20;

impl<'a> Window<'a> {
    pub fn new(data: &'a PackData<'a>) -> Self {
        Window {
            data,
            buf: Vec::new(),
            at: 0,
            sum: None,
        }
    }

    /// Bytes `from..to` (clamped to the pack's end); `from` at or after
    /// the last call's.
    pub fn get(&mut self, from: u64, to: u64) -> std::io::Result<&[u8]> {
        let to = to.min(self.data.len());
        let from = from.min(to);
        if from < self.at || to > self.at + self.buf.len() as u64 {
            let until = to.max(from + WINDOW);
            let mut buf = std::mem::take(&mut self.buf);
            self.data.read(from, until, &mut buf)?;
            if let Some(sum) = &mut self.sum {
                sum.add(self.data, from, &buf);
            }
            self.buf = buf;
            self.at = from;
        }
        Ok(&self.buf[(from - self.at) as usize..(to - self.at) as usize])
    }
}

/// No entry (a base not found yet).
pub const NONE: u32 = u32::MAX;

/// One entry of the pack.
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    /// Where the entry starts.
    pub offset: u64,
    /// Where its zlib stream ends (the next entry starts).
    pub end: u64,
    /// The declared inflated size of its data.
    pub size: u64,
    /// The entry its delta applies to (`NONE` for a whole object, or a
    /// REF_DELTA whose base is not found yet).
    pub base: u32,
    /// Bytes of its header.
    pub header: u8,
    /// What it stores.
    pub kind: EntryKind,
}

impl Slot {
    /// The kind of a whole object.
    pub fn whole(&self) -> Option<ObjectKind> {
        self.kind.whole()
    }

    /// Where the zlib stream starts.
    pub fn data(&self) -> u64 {
        self.offset + u64::from(self.header)
    }

    /// How many bytes it stores after its header.
    pub fn stored_len(&self) -> u64 {
        self.end.saturating_sub(self.data())
    }
}

/// The entries of a pack, in offset order, with the REF_DELTA bases' ids.
#[derive(Default)]
pub struct EntryTable {
    /// Every entry, by offset.
    pub slots: Vec<Slot>,
    /// (entry, base id) of each REF_DELTA, by entry.
    pub ref_bases: Vec<(u32, Digest)>,
    /// The id the index gives each entry (empty without an index).
    pub expected: Vec<Digest>,
}

impl EntryTable {
    /// The entry starting at `offset`.
    pub fn at(&self, offset: u64) -> Option<u32> {
        self.slots
            .binary_search_by(|s| s.offset.cmp(&offset))
            .ok()
            .map(|i| i as u32)
    }

    /// The entry starting at `offset`, searched from the last one back
    /// (an OFS_DELTA's base is most often a recent entry).
    fn at_near(&self, offset: u64) -> Option<u32> {
        let n = self.slots.len();
        let mut step = 1;
        while step < n && self.slots[n - step].offset > offset {
            step *= 2;
        }
        let from = n.saturating_sub(step);
        let to = n - step / 2;
        self.slots[from..to]
            .binary_search_by(|s| s.offset.cmp(&offset))
            .ok()
            .map(|i| (from + i) as u32)
    }

    /// Adds the entry at `offset` whose header is `h`; its end is set later.
    pub fn push(&mut self, offset: u64, h: &entry::EntryHeader) -> Result<(), EntryError> {
        let index = self.slots.len() as u32;
        let base = match h.stored {
            Stored::Whole(_) => NONE,
            Stored::OfsDelta(base) => self
                .at_near(base)
                .ok_or(EntryError::OfsBaseNotAnEntry { base })?,
            Stored::RefDelta(id) => {
                self.ref_bases.push((index, id));
                NONE
            }
        };
        self.push_slot(offset, h, h.stored.kind(), base);
        Ok(())
    }

    /// Adds the entry at `offset` whose base could not be placed: kept
    /// so that the entries stay in order, made into nothing.
    pub fn push_damaged(&mut self, offset: u64, h: &entry::EntryHeader) {
        self.push_slot(offset, h, EntryKind::Damaged, NONE);
    }

    fn push_slot(&mut self, offset: u64, h: &entry::EntryHeader, kind: EntryKind, base: u32) {
        self.slots.push(Slot {
            offset,
            end: 0,
            size: h.size,
            base,
            header: h.len as u8,
            kind,
        });
    }
}

/// The pack's header (its first 12 bytes of `len`): its version is 2 or
/// 3, and how many objects it holds.
pub fn header(pack: &[u8], len: u64) -> Result<u32, PackHeaderError> {
    if len < 12 + 20 || pack.len() < 12 {
        return Err(PackHeaderError::Truncated { len });
    }
    if &pack[..4] != b"PACK" {
        return Err(PackHeaderError::NotAPack);
    }
    let version = u32::from_be_bytes(pack[4..8].try_into().expect("4 bytes"));
    if version != 2 && version != 3 {
        return Err(PackHeaderError::Version(version));
    }
    Ok(u32::from_be_bytes(pack[8..12].try_into().expect("4 bytes")))
}
