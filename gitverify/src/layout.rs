//! The layout of a pack: from its index (no inflating), or index-less from
//! one pass that inflates every entry in order to find where the next
//! starts, handing the whole objects on the way to a processor.

use std::path::Path;
use std::rc::Rc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::Builder;

use sha1dc_wasm::Digest;
use sha1dc_wasm::git::ObjectKind;

use crate::Options;
use crate::entry::{self, EntryHeader, Stored};
use crate::error::{EntryError, Mismatch, Problem};
use crate::hashing::Batcher;
use crate::idx::{Index, IndexEntry};
use crate::inflate::Inflater;
use crate::pack::{EntryTable, PackData, PackSum, Window};
use crate::processor::Processor;
use crate::report::{FileDamage, Outlet};
use crate::threads;

/// The largest zlib stream any encoder makes of `size` bytes (zlib's own
/// bound is about size / 3300 over the size, stored blocks size / 13000):
/// how much of the pack an entry is read with.
fn max_stream(size: u64) -> u64 {
    size.saturating_add(size >> 10).saturating_add(1024)
}

/// Reads and inflates the entry at `pos` (index-less): its header, its
/// data, and the compressed bytes it took.
fn read_entry(
    window: &mut Window,
    inflater: &mut Inflater,
    pos: u64,
    end: u64,
    out: &mut Vec<u8>,
) -> Result<(EntryHeader, u64), EntryError> {
    let io = |e: std::io::Error| EntryError::Unreadable(e.into());
    let h = entry::parse(window.get(pos, (pos + 32).min(end)).map_err(io)?, pos)
        .map_err(EntryError::Header)?;
    let data_at = pos + h.len as u64;
    let rest = end.saturating_sub(data_at);
    let input = window
        .get(
            data_at,
            data_at.saturating_add(max_stream(h.size).min(rest)),
        )
        .map_err(io)?;
    let used = inflater
        .inflate(input, h.size, out)
        .map_err(EntryError::Inflate)?;
    Ok((h, used as u64))
}

/// Problems found, each at its offset in the pack where there is one.
pub(crate) type Problems = Vec<(Option<u64>, Problem)>;

/// The layout from the index: no inflating, every entry's CRC32 checked.
/// A CRC32 that differs is damage (in the pack or the index) reported
/// with the layout; any other disagreement is returned alone, and the
/// pack is then walked without the index. `sum`, if given, sums the
/// pack's checksum from the reads.
pub(crate) fn from_index(
    data: &PackData,
    index: &Index,
    count: u32,
    sum: &mut Option<PackSum>,
) -> Result<(EntryTable, Problems), Problems> {
    let end = data.len() - 20;
    let mut problems = whole_index_mismatches(data, index, count);
    let mut crc_problems = Vec::new();
    let mut window = Window::new(data);
    window.sum = sum.take();
    let mut by_offset: Vec<(u64, u32)> = index
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.offset, i as u32))
        .collect();
    by_offset.sort_unstable();
    let mut table = EntryTable::default();
    table.slots.reserve(by_offset.len());
    table.expected.reserve(by_offset.len());
    for (k, &(_, i)) in by_offset.iter().enumerate() {
        let e = &index.entries[i as usize];
        let next = by_offset.get(k + 1).map_or(end, |&(o, _)| o);
        match place_indexed(&mut window, &mut table, e, next) {
            Ok(crc) => crc_problems.extend(crc.map(|p| (Some(e.offset), p))),
            Err(problem) => {
                let unreadable = matches!(problem, Problem::Unreadable(_));
                problems.push((Some(e.offset), problem));
                if unreadable {
                    break;
                }
            }
        }
    }
    *sum = window.sum.take();
    if problems.is_empty() {
        Ok((table, crc_problems))
    } else {
        Err(problems)
    }
}

/// Where the index as a whole is not this pack's: another pack's
/// checksum, another count.
fn whole_index_mismatches(data: &PackData, index: &Index, count: u32) -> Problems {
    let end = data.len() - 20;
    let mut problems = Vec::new();
    let mut trailer = Vec::new();
    let _ = data.read(end, end + 20, &mut trailer);
    if index.pack_checksum.as_ref() != trailer.as_slice() {
        problems.push((None, Problem::Mismatch(Mismatch::OtherPack)));
    }
    if index.entries.len() as u64 != u64::from(count) {
        let index = index.entries.len() as u64;
        let pack = count;
        problems.push((None, Problem::Mismatch(Mismatch::Count { index, pack })));
    }
    problems
}

/// Index entry `e`, whose bytes end where the next indexed entry starts
/// (`next`), parsed into the table: a CRC32 that differs is returned as
/// damage beside it, anything else as the index's disagreement.
fn place_indexed(
    window: &mut Window,
    table: &mut EntryTable,
    e: &IndexEntry,
    next: u64,
) -> Result<Option<Problem>, Problem> {
    let id = e.id;
    let entry = |error| Problem::Mismatch(Mismatch::Entry { id, error });
    if e.offset < 12 || e.offset >= next {
        let offset = e.offset;
        return Err(Problem::Mismatch(Mismatch::NoEntryThere { id, offset }));
    }
    let bytes = window
        .get(e.offset, next)
        .map_err(|err| Problem::Unreadable(err.into()))?;
    let h = entry::parse(bytes, e.offset).map_err(|err| entry(EntryError::Header(err)))?;
    if e.offset + h.len as u64 >= next {
        return Err(Problem::Mismatch(Mismatch::HeaderOverlap { id }));
    }
    let crc = e.crc.and_then(|indexed| {
        let actual = crc32fast::hash(bytes);
        let crc = Mismatch::Crc {
            id,
            actual,
            indexed,
        };
        (actual != indexed).then_some(Problem::Mismatch(crc))
    });
    table.push(e.offset, &h).map_err(entry)?;
    table.slots.last_mut().expect("pushed").end = next;
    table.expected.push(id);
    Ok(crc)
}

/// The whole objects the index-less pass sends the hashers, about a
/// megabyte at a time: (entry, pack offset, kind, content).
type Bundle = Vec<(u32, u64, ObjectKind, Vec<u8>)>;

/// Index-less: every entry inflated in order, to find where the next one
/// starts. Whole objects are hashed on the way (on the other workers when
/// there are some); small deltas are kept inflated for the walk. Returns
/// the table and the (entry, id) of every object hashed.
pub(crate) fn scan(
    data: &PackData,
    file: &Path,
    count: u32,
    options: &Options,
    out: &Outlet<'_>,
    kept: &mut Vec<Option<Box<[u8]>>>,
    sum: &mut Option<PackSum>,
) -> (EntryTable, Vec<(u32, Digest)>) {
    let threads = options.workers();
    let mut pass = Scan::new(data, count, options.cache / 2);
    pass.window.sum = sum.take();
    let mut done = Vec::new();
    std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Bundle>(2 * threads);
        let rx = Arc::new(Mutex::new(rx));
        // A thread the system refuses (too many asked for) is not
        // started; with none, this thread hashes too.
        let hashers: Vec<_> = (1..threads)
            .filter_map(|_| {
                let (rx, out) = (Arc::clone(&rx), out.clone());
                let hash = move || hash_bundles(&rx, Batcher::new(options.content, out, file));
                threads::try_spawn(Builder::new(), scope, hash).ok()
            })
            .collect();
        if hashers.is_empty() {
            let mut batcher = Batcher::new(options.content, out.clone(), file);
            pass.run(&mut batcher, kept);
            batcher.finish();
            done.extend(batcher.done);
        } else {
            let damage = FileDamage::new(out.clone(), file);
            let mut to_hashers = ToHashers::new(tx, damage);
            pass.run(&mut to_hashers, kept);
            to_hashers.finish();
        }
        for hasher in hashers {
            done.extend(hasher.join().expect("no worker panics"));
        }
    });
    *sum = pass.window.sum.take();
    (pass.table, done)
}

/// A hasher of the index-less pass: the bundles it takes, hashed.
fn hash_bundles(rx: &Mutex<Receiver<Bundle>>, mut batcher: Batcher) -> Vec<(u32, Digest)> {
    loop {
        let bundle = match rx.lock().expect("no worker panics").recv() {
            Ok(b) => b,
            Err(_) => break,
        };
        for (e, offset, kind, content) in bundle {
            batcher.object(e, Some(offset), kind, Rc::new(content));
        }
    }
    batcher.finish();
    batcher.done
}

/// The index-less pass's processor where hashers run: whole objects
/// bundled and sent to them.
struct ToHashers<'a> {
    tx: SyncSender<Bundle>,
    bundle: Bundle,
    bytes: usize,
    damage: FileDamage<'a>,
}

impl<'a> ToHashers<'a> {
    fn new(tx: SyncSender<Bundle>, damage: FileDamage<'a>) -> Self {
        ToHashers {
            tx,
            bundle: Vec::new(),
            bytes: 0,
            damage,
        }
    }
}

impl Processor for ToHashers<'_> {
    fn object(&mut self, entry: u32, offset: Option<u64>, kind: ObjectKind, content: Rc<Vec<u8>>) {
        let content = Rc::try_unwrap(content).unwrap_or_else(|shared| (*shared).clone());
        self.bytes += content.len();
        let offset = offset.expect("a pack's entry");
        self.bundle.push((entry, offset, kind, content));
        if self.bytes >= 1 << 20 {
            self.bytes = 0;
            let _ = self.tx.send(std::mem::take(&mut self.bundle));
        }
    }

    fn damage(&mut self, offset: Option<u64>, id: Option<Digest>, problem: Problem) {
        self.damage.report(offset, id, problem);
    }

    fn finish(&mut self) {
        if !self.bundle.is_empty() {
            let _ = self.tx.send(std::mem::take(&mut self.bundle));
        }
    }
}

/// The index-less pass over one pack.
struct Scan<'a> {
    window: Window<'a>,
    inflater: Inflater,
    table: EntryTable,
    /// Objects the pack's header declares.
    count: u32,
    /// Where the trailer starts.
    end: u64,
    /// Bytes of inflated deltas it may still keep for the walk.
    keep_budget: usize,
}

impl<'a> Scan<'a> {
    fn new(data: &'a PackData<'a>, count: u32, keep_budget: usize) -> Self {
        let mut table = EntryTable::default();
        // As many entries as the header says, but no more than the pack
        // can hold (an entry takes at least 9 bytes): the count is not
        // trusted.
        (table.slots).reserve((count as usize).min(data.len() as usize / 9));
        Scan {
            window: Window::new(data),
            inflater: Inflater::new(),
            table,
            count,
            end: data.len() - 20,
            keep_budget,
        }
    }

    /// Every entry, in order; whole objects to `processor`, small deltas
    /// kept inflated in `kept` (by entry).
    fn run(&mut self, processor: &mut impl Processor, kept: &mut Vec<Option<Box<[u8]>>>) {
        let mut pos = 12u64;
        let mut resynced = false;
        while (self.table.slots.len() as u64) < u64::from(self.count) {
            let i = self.table.slots.len() as u32;
            if pos >= self.end {
                if !resynced {
                    let (declared, found) = (self.count, i);
                    processor.damage(Some(pos), None, Problem::FewerObjects { declared, found });
                }
                break;
            }
            let mut content = Vec::new();
            let (window, inflater) = (&mut self.window, &mut self.inflater);
            match read_entry(window, inflater, pos, self.end, &mut content) {
                Ok((h, used)) => pos = self.place(processor, kept, pos, &h, used, content),
                Err(error) => {
                    // Without an index the next entry's start is unknown:
                    // look for the next bytes that parse and inflate as one.
                    resynced = true;
                    let Some(next) = resync(window, pos + 1, self.end, inflater) else {
                        processor.damage(Some(pos), None, Problem::NothingAfter(error));
                        break;
                    };
                    let skipped = next - pos;
                    let problem = Problem::Skipped {
                        error,
                        next,
                        skipped,
                    };
                    processor.damage(Some(pos), None, problem);
                    pos = next;
                }
            }
        }
        if self.table.slots.len() == self.count as usize && pos != self.end && !resynced {
            let problem = Problem::BytesBeforeTrailer(self.end - pos);
            processor.damage(Some(pos), None, problem);
        }
    }

    /// The entry at `pos` (header `h`, `used` compressed bytes, inflated
    /// to `content`) into the table: a whole object to `processor`, a
    /// small delta kept. Returns where the next entry starts.
    fn place(
        &mut self,
        processor: &mut impl Processor,
        kept: &mut Vec<Option<Box<[u8]>>>,
        pos: u64,
        h: &EntryHeader,
        used: u64,
        content: Vec<u8>,
    ) -> u64 {
        let i = self.table.slots.len() as u32;
        if let Err(error) = self.table.push(pos, h) {
            processor.damage(Some(pos), None, Problem::Entry { error, lost: 0 });
            self.table.push_damaged(pos, h);
        }
        let next = pos + h.len as u64 + used;
        self.table.slots.last_mut().expect("pushed").end = next;
        match h.stored {
            Stored::Whole(kind) => processor.object(i, Some(pos), kind, Rc::new(content)),
            _ if content.len() <= self.keep_budget => {
                self.keep_budget -= content.len();
                kept.resize_with(i as usize, || None);
                kept.push(Some(content.into_boxed_slice()));
            }
            _ => {}
        }
        next
    }
}

/// The first offset from `from` on where an entry header and a zlib
/// stream of exactly its declared size parse (after damage, index-less).
fn resync(window: &mut Window, from: u64, end: u64, inflater: &mut Inflater) -> Option<u64> {
    let mut scratch = Vec::new();
    (from..end).find(|&p| {
        let Ok(Ok(h)) = window.get(p, (p + 32).min(end)).map(|b| entry::parse(b, p)) else {
            return false;
        };
        let z = p + h.len as u64;
        // A zlib header: deflate with a 32 KiB window, and its check bits.
        let zlib = match window.get(z, (z + 2).min(end)) {
            Ok(&[cmf, flg]) => cmf == 0x78 && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0,
            _ => false,
        };
        zlib && read_entry(window, inflater, p, end, &mut scratch).is_ok()
    })
}
