//! The delta trees walked: each whole object is inflated, each delta
//! applied to its base as the walk goes down from it, and every object
//! hashed once. A walk holds the bases on its path down; when they exceed
//! the cache's limit the oldest are dropped and made again from the pack
//! if still needed, so memory is bounded by the limit, not the pack.

use std::ops::Range;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha1dc_wasm::git::ObjectKind;

use crate::delta;
use crate::error::{EntryError, Problem};
use crate::inflate::{InflateError, Inflater};
use crate::pack::{EntryTable, NONE, PackData, Slot};
use crate::processor::Processor;

/// Children of each entry (the deltas whose base it is), as one array.
pub(crate) struct Children {
    first: Vec<u32>,
    list: Vec<u32>,
}

impl Children {
    /// The edges base -> entry of every slot `wanted` keeps.
    pub(crate) fn new(slots: &[Slot], wanted: impl Fn(usize) -> bool) -> Children {
        let mut first = vec![0u32; slots.len() + 1];
        for (i, s) in slots.iter().enumerate() {
            if s.base != NONE && wanted(i) {
                first[s.base as usize + 1] += 1;
            }
        }
        for i in 0..slots.len() {
            first[i + 1] += first[i];
        }
        let mut fill = first.clone();
        let mut list = vec![0u32; first[slots.len()] as usize];
        for (i, s) in slots.iter().enumerate() {
            if s.base != NONE && wanted(i) {
                let at = &mut fill[s.base as usize];
                list[*at as usize] = i as u32;
                *at += 1;
            }
        }
        Children { first, list }
    }

    pub(crate) fn of(&self, entry: u32) -> (u32, u32) {
        (self.first[entry as usize], self.first[entry as usize + 1])
    }

    pub(crate) fn any(&self, entry: u32) -> bool {
        let (a, b) = self.of(entry);
        a < b
    }

    /// Entries below `entry`, itself not counted.
    pub(crate) fn descendants(&self, entry: u32) -> u64 {
        let mut n = 0;
        self.each_below(entry, |_| n += 1);
        n
    }

    /// Calls `visit` for every entry below `entry`, itself not included.
    pub(crate) fn each_below(&self, entry: u32, mut visit: impl FnMut(u32)) {
        let mut todo = vec![entry];
        while let Some(e) = todo.pop() {
            let (a, b) = self.of(e);
            let below = &self.list[a as usize..b as usize];
            below.iter().for_each(|&c| visit(c));
            todo.extend_from_slice(below);
        }
    }
}

/// One base on the walk's path down.
struct Frame {
    entry: u32,
    content: Option<Rc<Vec<u8>>>,
    next: u32,
    end: u32,
}

/// The bases a walk holds on its path down, and their bytes.
struct Bases {
    frames: Vec<Frame>,
    cached_bytes: usize,
}

impl Bases {
    /// Goes down to `entry`, made as `content`.
    fn push(&mut self, entry: u32, content: Rc<Vec<u8>>, (next, end): (u32, u32)) {
        self.cached_bytes += content.len();
        self.frames.push(Frame {
            entry,
            content: Some(content),
            next,
            end,
        });
    }

    /// Goes back up from the deepest base.
    fn pop(&mut self) {
        let frame = self.frames.pop().expect("a frame");
        self.cached_bytes -= frame.content.as_ref().map_or(0, |c| c.len());
    }

    /// Over `limit`: drops the bases furthest up the path, not the deepest
    /// (made again from the pack if one is needed later).
    fn trim(&mut self, limit: usize) {
        let deepest = self.frames.len().saturating_sub(1);
        for frame in &mut self.frames[..deepest] {
            if self.cached_bytes <= limit {
                break;
            }
            if let Some(c) = frame.content.take() {
                self.cached_bytes -= c.len();
            }
        }
    }
}

/// What the walks of one round share.
pub(crate) struct Round<'a> {
    pub(crate) pack: &'a PackData<'a>,
    pub(crate) table: &'a EntryTable,
    pub(crate) children: &'a Children,
    /// Entries to start from, and whether each must be hashed itself.
    pub(crate) roots: &'a [(u32, bool)],
    /// Inflated deltas kept from the index-less pass, by entry.
    pub(crate) kept: &'a [Option<Box<[u8]>>],
    /// The limit of the bases one walk holds.
    pub(crate) cache: usize,
    /// The roots a walker takes at a time, as ranges of `roots`.
    pub(crate) batches: Vec<Range<usize>>,
    /// The most bytes of a batch's entries read ahead of its walk
    /// ([`Gathered`]); 0: none.
    pub(crate) gather: usize,
    pub(crate) next: AtomicUsize,
}

/// Roots taken at a time from the shared list when entries are read one
/// by one.
const GRAB: usize = 16;

/// The batches of `roots` walkers take: [`GRAB`] roots each, or, where
/// entries are gathered, as many as fit in `gather` bytes of entries (at
/// least one root).
pub(crate) fn batches(
    table: &EntryTable,
    children: &Children,
    roots: &[(u32, bool)],
    gather: usize,
) -> Vec<Range<usize>> {
    if gather == 0 {
        let starts = (0..roots.len()).step_by(GRAB);
        return starts.map(|a| a..(a + GRAB).min(roots.len())).collect();
    }
    let mut batches = Vec::new();
    let (mut start, mut bytes) = (0, 0u64);
    for (i, &(root, _)) in roots.iter().enumerate() {
        let tree = tree_cost(table, children, root, 0);
        if i > start && bytes + tree > gather as u64 {
            batches.push(start..i);
            (start, bytes) = (i, 0);
        }
        bytes += tree;
    }
    if start < roots.len() {
        batches.push(start..roots.len());
    }
    batches
}

/// The stored bytes of `root`'s tree, and `per_entry` more for each of
/// its entries.
fn tree_cost(table: &EntryTable, children: &Children, root: u32, per_entry: u64) -> u64 {
    let cost = |e: u32| table.slots[e as usize].stored_len() + per_entry;
    let mut tree = cost(root);
    children.each_below(root, |e| tree += cost(e));
    tree
}

/// What walking one entry costs beside its stored bytes, in bytes.
const PER_ENTRY: u64 = 512;
/// Bytes of the pack summed for its checksum for the cost of a byte walked.
const CHECKSUM_COST: u64 = 16;

/// The roots of part `index` of `of` (parts that share a pack's trees,
/// each its own instance): each tree, in order, goes to the part with the
/// least work so far, its entries and stored bytes, so that the parts end
/// together; every part reckons the same from the same table. The first
/// part, which also sums the pack's checksum, starts with that work.
pub(crate) fn share(
    table: &EntryTable,
    children: &Children,
    roots: &[(u32, bool)],
    (index, of): (usize, usize),
) -> Vec<(u32, bool)> {
    let mut work = vec![0u64; of];
    work[0] = table.slots.last().map_or(0, |s| s.end) / CHECKSUM_COST;
    let mut mine = Vec::new();
    for &(root, hash) in roots {
        let tree = tree_cost(table, children, root, PER_ENTRY);
        let least = (0..of).min_by_key(|&p| work[p]).unwrap_or(0);
        work[least] += tree;
        if least == index {
            mine.push((root, hash));
        }
    }
    mine
}

/// A batch's entries, read ahead of its walk: sorted by offset and read in
/// few large reads (gaps under [`Gathered::GAP`] read through), each entry's
/// stored bytes copied out, as many as fit in the budget; an entry left out
/// (past the budget, or in a read that failed) is read when the walk
/// reaches it, which reports its damage as usual.
struct Gathered {
    /// Where each entry's bytes start in `bytes`, by entry; [`NONE`] if
    /// not gathered.
    at: Vec<u32>,
    /// The entries gathered, to clear `at` for the next batch.
    entries: Vec<u32>,
    bytes: Vec<u8>,
    window: Vec<u8>,
}

impl Gathered {
    /// Read through rather than read apart: about what one more read costs.
    const GAP: u64 = 512 << 10;
    /// The longest single read.
    const WINDOW: u64 = 4 << 20;

    fn new() -> Self {
        Gathered {
            at: Vec::new(),
            entries: Vec::new(),
            bytes: Vec::new(),
            window: Vec::new(),
        }
    }

    /// The stored bytes of `entry`, if gathered.
    fn get(&self, entry: u32, len: usize) -> Option<&[u8]> {
        let at = *self.at.get(entry as usize)?;
        (at != NONE).then(|| &self.bytes[at as usize..at as usize + len])
    }

    /// Reads the entries of the trees of `roots`, within `budget` bytes.
    fn read(&mut self, round: &Round<'_>, roots: &[(u32, bool)], budget: usize) {
        let slots = &round.table.slots;
        for &e in &self.entries {
            self.at[e as usize] = NONE;
        }
        self.at.resize(slots.len(), NONE);
        self.entries.clear();
        self.bytes.clear();
        // Deltas the index-less pass kept are not read again.
        let kept = |e: u32| matches!(round.kept.get(e as usize), Some(Some(_)));
        let mut wanted = Vec::new();
        for &(root, _) in roots {
            wanted.push(root);
            round.children.each_below(root, |e| wanted.push(e));
        }
        wanted.retain(|&e| !kept(e));
        wanted.sort_unstable_by_key(|&e| slots[e as usize].offset);
        let len = |e: u32| slots[e as usize].stored_len();
        // No more than the pack holds (a small pack reserves little).
        let mut room = (budget.min(NONE as usize) as u64).min(round.pack.len());
        // The room made once, whole (a Vec grown by doubling would hold up
        // to twice the budget, and leave its old blocks free beside it;
        // memory not written to costs nothing). Where it cannot be had,
        // nothing is gathered.
        if self.bytes.capacity() < room as usize {
            self.bytes = Vec::new();
            if self.bytes.try_reserve_exact(room as usize).is_err() {
                return;
            }
        }
        let mut first = 0;
        while first < wanted.len() {
            if len(wanted[first]) > room {
                first += 1;
                continue;
            }
            // One read: from this entry on, while the next is near and fits.
            let from = slots[wanted[first] as usize].data();
            let (mut last, mut taken) = (first, len(wanted[first]));
            while let Some(&next) = wanted.get(last + 1) {
                let next = &slots[next as usize];
                let near = next.data() <= slots[wanted[last] as usize].end + Self::GAP;
                let fits = taken + next.stored_len() <= room && next.end <= from + Self::WINDOW;
                if !(near && fits) {
                    break;
                }
                last += 1;
                taken += next.stored_len();
            }
            let to = slots[wanted[last] as usize].end;
            if round.pack.read(from, to, &mut self.window).is_ok() {
                for &e in &wanted[first..=last] {
                    let slot = &slots[e as usize];
                    let within = slot.data().checked_sub(from).map(|w| w as usize);
                    let bytes = within.and_then(|w| {
                        let len = slot.stored_len() as usize;
                        self.window.get(w..w.checked_add(len)?)
                    });
                    let Some(bytes) = bytes else {
                        continue;
                    };
                    self.at[e as usize] = self.bytes.len() as u32;
                    self.entries.push(e);
                    self.bytes.extend_from_slice(bytes);
                }
                room -= taken;
            }
            first = last + 1;
        }
        if self.window.capacity() > Self::WINDOW as usize {
            self.window = Vec::new();
        }
    }
}

/// One worker's walks: each object made is handed to its processor.
pub(crate) struct Walker<'a, P> {
    round: &'a Round<'a>,
    pub(crate) processor: P,
    inflater: Inflater,
    delta: Vec<u8>,
    /// An entry's compressed bytes, as read.
    raw: Vec<u8>,
    gathered: Gathered,
}

impl<'a, P: Processor> Walker<'a, P> {
    pub(crate) fn new(round: &'a Round<'a>, processor: P) -> Self {
        Walker {
            round,
            processor,
            inflater: Inflater::new(),
            delta: Vec::new(),
            raw: Vec::new(),
            gathered: Gathered::new(),
        }
    }

    /// Walks roots until none is left.
    pub(crate) fn run(&mut self) {
        let round = self.round;
        loop {
            let at = round.next.fetch_add(1, Ordering::Relaxed);
            let Some(batch) = round.batches.get(at) else {
                break;
            };
            let roots = &round.roots[batch.clone()];
            if round.gather > 0 {
                self.gathered.read(round, roots, round.gather);
            }
            for &(root, hash) in roots {
                self.walk(root, hash);
            }
        }
        self.processor.finish();
    }

    fn slot(&self, entry: u32) -> &Slot {
        &self.round.table.slots[entry as usize]
    }

    /// `entry` could not be made: reported with the objects lost below it.
    fn lost(&mut self, entry: u32, error: EntryError) {
        let lost = self.round.children.descendants(entry);
        let offset = self.slot(entry).offset;
        (self.processor).damage(Some(offset), None, Problem::Entry { error, lost });
    }

    /// Inflates `entry`'s stored bytes into `out`: the gathered ones, or
    /// read now; a failure to inflate is `failed`.
    fn inflate(
        &mut self,
        entry: u32,
        out: &mut Vec<u8>,
        failed: fn(InflateError) -> EntryError,
    ) -> Result<(), EntryError> {
        let s = *self.slot(entry);
        let stored = match self.gathered.get(entry, s.stored_len() as usize) {
            Some(bytes) => bytes,
            None => {
                (self.round.pack)
                    .read(s.data(), s.end, &mut self.raw)
                    .map_err(|e| EntryError::Unreadable(e.into()))?;
                &self.raw
            }
        };
        self.inflater.inflate(stored, s.size, out).map_err(failed)?;
        Ok(())
    }

    /// Inflates a whole object's entry.
    fn inflate_whole(&mut self, entry: u32) -> Result<Vec<u8>, EntryError> {
        let mut out = Vec::new();
        self.inflate(entry, &mut out, EntryError::Inflate)?;
        Ok(out)
    }

    /// Applies `entry`'s delta to `base`.
    fn apply(&mut self, entry: u32, base: &[u8]) -> Result<Vec<u8>, EntryError> {
        let delta: &[u8] = match self.round.kept.get(entry as usize) {
            Some(Some(kept)) => kept,
            _ => {
                let mut delta = std::mem::take(&mut self.delta);
                let inflated = self.inflate(entry, &mut delta, EntryError::DeltaInflate);
                self.delta = delta;
                inflated?;
                &self.delta
            }
        };
        let mut out = Vec::new();
        delta::apply(base, delta, &mut out).map_err(EntryError::Delta)?;
        Ok(out)
    }

    /// The content of a resolved entry, made again from its chain: the
    /// whole object at its root, then each delta down to it.
    fn materialize(&mut self, entry: u32) -> Result<(ObjectKind, Vec<u8>), EntryError> {
        let mut chain = vec![entry];
        let mut at = entry;
        while self.slot(at).whole().is_none() {
            at = self.slot(at).base;
            if at == NONE || chain.len() > self.round.table.slots.len() {
                return Err(EntryError::NoWholeRoot);
            }
            chain.push(at);
        }
        let kind = self.slot(at).whole().expect("the chain's root is whole");
        let mut content = self.inflate_whole(at)?;
        for &e in chain.iter().rev().skip(1) {
            content = self.apply(e, &content)?;
        }
        Ok((kind, content))
    }

    /// Hands object `entry` to the processor.
    fn hand(&mut self, entry: u32, kind: ObjectKind, content: &Rc<Vec<u8>>) {
        let offset = self.slot(entry).offset;
        (self.processor).object(entry, Some(offset), kind, Rc::clone(content));
    }

    /// One root and everything below it.
    fn walk(&mut self, root: u32, hash_root: bool) {
        let made = match self.slot(root).whole() {
            Some(kind) if hash_root => self.inflate_whole(root).map(|c| (kind, c)),
            _ => self.materialize(root),
        };
        let (kind, content) = match made {
            Ok(made) => made,
            Err(e) => return self.lost(root, e),
        };
        let content = Rc::new(content);
        if hash_root {
            self.hand(root, kind, &content);
        }
        let children = self.round.children.of(root);
        if children.0 == children.1 {
            return;
        }
        let mut path = Bases {
            frames: Vec::new(),
            cached_bytes: 0,
        };
        path.push(root, content, children);
        while let Some(top) = path.frames.last_mut() {
            if top.next == top.end {
                path.pop();
                continue;
            }
            let child = self.round.children.list[top.next as usize];
            top.next += 1;
            let last = top.next == top.end;
            if let Some(made) = self.make_child(&mut path, child) {
                if last {
                    // Its base has no other child left: drop it before going down.
                    path.pop();
                }
                self.hand(child, kind, &made);
                let below = self.round.children.of(child);
                if below.0 < below.1 {
                    path.push(child, made, below);
                    path.trim(self.round.cache);
                }
            }
        }
    }

    /// `child` made from the deepest base of `path` (made again first if
    /// the cache dropped it); its damage is reported.
    fn make_child(&mut self, path: &mut Bases, child: u32) -> Option<Rc<Vec<u8>>> {
        let top = path.frames.last().expect("a base");
        let base = match top.content.clone() {
            Some(base) => base,
            None => match self.materialize(top.entry) {
                Ok((_, c)) => {
                    let c = Rc::new(c);
                    path.cached_bytes += c.len();
                    path.frames.last_mut().expect("a base").content = Some(Rc::clone(&c));
                    c
                }
                Err(e) => {
                    self.lost(child, EntryError::BaseNotMadeAgain(Box::new(e)));
                    return None;
                }
            },
        };
        match self.apply(child, &base) {
            Ok(r) => Some(Rc::new(r)),
            Err(e) => {
                self.lost(child, e);
                None
            }
        }
    }
}
