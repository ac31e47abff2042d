//! A packfile's bytes and its layout: where each entry starts and ends,
//! what it stores, and which entry each delta's base is. The layout comes
//! from the `.idx` when one is given (no inflating), or from one pass that
//! inflates every entry in order to find where the next one starts
//! (index-less, as git index-pack does).

use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha1dc_wasm::git::ObjectKind;

use crate::entry::{self, Stored};

/// Bytes of the pack read between two drops of its mapped pages: the
/// pages the walk has read are handed back to the page cache after every
/// so many, so the peak memory stays this much above the rest.
const WINDOW: usize = 96 << 20;

/// What one read of a few bytes may map: the kernel maps this much around
/// a faulting page (its default fault-around).
const FAULT_AROUND: usize = 64 << 10;

/// Where a pack's bytes are.
enum Backing {
    /// A file, mapped read-only.
    Map(memmap2::Mmap),
    /// Bytes in memory (tests, the fuzz target, a bundle read whole).
    Bytes(Vec<u8>),
}

/// A pack's bytes: a mapped file (or part of one, for a bundle) or bytes
/// in memory.
pub struct PackData {
    backing: Backing,
    start: usize,
    touched: AtomicUsize,
}

impl PackData {
    /// Maps `path` from byte `start` on (a bundle's pack follows its header).
    pub fn map(path: &Path, start: usize) -> std::io::Result<PackData> {
        let file = File::open(path)?;
        // SAFETY: a read-only private mapping. Another process truncating
        // the pack while it is verified would make a read fault (SIGBUS),
        // as it would for git and gitoxide, which map packs the same way;
        // the bytes are otherwise only read, never written.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        if map.len() < start {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "the file ends before its pack starts",
            ));
        }
        Ok(PackData {
            backing: Backing::Map(map),
            start,
            touched: AtomicUsize::new(0),
        })
    }

    /// A pack held in memory.
    pub fn bytes(bytes: Vec<u8>) -> PackData {
        PackData {
            backing: Backing::Bytes(bytes),
            start: 0,
            touched: AtomicUsize::new(0),
        }
    }

    /// The whole pack.
    pub fn all(&self) -> &[u8] {
        match &self.backing {
            Backing::Map(m) => &m[self.start..],
            Backing::Bytes(b) => &b[self.start..],
        }
    }

    /// Bytes `from..to` of the pack (clamped to its end), counted towards
    /// the next drop of the mapped pages.
    pub fn read(&self, from: u64, to: u64) -> &[u8] {
        let all = self.all();
        let to = (to.min(all.len() as u64)) as usize;
        let from = (from as usize).min(to);
        // A read fault maps the pages around the one read too (the
        // kernel's fault-around, 64 KiB by default): counted as such.
        self.touch(to - from + FAULT_AROUND);
        &all[from..to]
    }

    /// The pack from `from` to its trailer, not counted: the caller counts
    /// what it used with [`touch`](Self::touch).
    pub fn rest(&self, from: u64) -> &[u8] {
        let all = self.all();
        let end = all.len().saturating_sub(20);
        &all[(from as usize).min(end)..end]
    }

    /// Counts `len` bytes read towards the next drop of the mapped pages.
    pub fn touch(&self, len: usize) {
        if self.touched.fetch_add(len, Ordering::Relaxed) + len < WINDOW {
            return;
        }
        self.touched.store(0, Ordering::Relaxed);
        if let Backing::Map(map) = &self.backing {
            // SAFETY: the mapping is private and read-only: dropping its
            // pages loses nothing (the next read faults them in again from
            // the page cache, with the same bytes), even while another
            // thread reads them.
            let _ = unsafe { map.unchecked_advise(memmap2::UncheckedAdvice::DontNeed) };
        }
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
    /// 1-4 a whole object (commit, tree, blob, tag), 6 OFS_DELTA, 7 REF_DELTA.
    pub type_id: u8,
}

impl Slot {
    /// The kind of a whole object.
    pub fn whole(&self) -> Option<ObjectKind> {
        match self.type_id {
            1 => Some(ObjectKind::Commit),
            2 => Some(ObjectKind::Tree),
            3 => Some(ObjectKind::Blob),
            4 => Some(ObjectKind::Tag),
            _ => None,
        }
    }

    /// Where the zlib stream starts.
    pub fn data(&self) -> u64 {
        self.offset + u64::from(self.header)
    }
}

/// The entries of a pack, in offset order, with the REF_DELTA bases' ids.
#[derive(Default)]
pub struct Layout {
    /// Every entry, by offset.
    pub slots: Vec<Slot>,
    /// (entry, base id) of each REF_DELTA, by entry.
    pub ref_bases: Vec<(u32, [u8; 20])>,
}

impl Layout {
    /// The entry starting at `offset`.
    pub fn at(&self, offset: u64) -> Option<u32> {
        self.slots
            .binary_search_by(|s| s.offset.cmp(&offset))
            .ok()
            .map(|i| i as u32)
    }

    /// Adds the entry at `offset` whose header is `h`; its end is set later.
    pub fn push(&mut self, offset: u64, h: &entry::EntryHeader) -> Result<(), String> {
        let index = self.slots.len() as u32;
        let (type_id, base) = match h.stored {
            Stored::Whole(kind) => (entry::type_number(kind), NONE),
            Stored::OfsDelta(base) => match self.at(base) {
                Some(b) => (6, b),
                None => return Err(format!("its OFS_DELTA base offset {base} is not where an entry starts")),
            },
            Stored::RefDelta(id) => {
                self.ref_bases.push((index, id));
                (7, NONE)
            }
        };
        self.slots.push(Slot {
            offset,
            end: 0,
            size: h.size,
            base,
            header: h.len as u8,
            type_id,
        });
        Ok(())
    }
}

/// The pack's header: its version is 2 or 3, and how many objects it holds.
pub fn header(pack: &[u8]) -> Result<u32, String> {
    if pack.len() < 12 + 20 {
        return Err(format!("truncated: {} bytes is too short for a pack", pack.len()));
    }
    if &pack[..4] != b"PACK" {
        return Err("not a pack (no PACK signature)".into());
    }
    let version = u32::from_be_bytes(pack[4..8].try_into().expect("4 bytes"));
    if version != 2 && version != 3 {
        return Err(format!("pack version {version} is not supported (only 2 and 3)"));
    }
    Ok(u32::from_be_bytes(pack[8..12].try_into().expect("4 bytes")))
}
