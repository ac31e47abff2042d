//! One source verified: a pack's layout (from the `.idx`, or index-less),
//! its trailer, every object made and hashed by the delta-tree walks on
//! the workers, then every id checked against the index and every entry
//! that could not be resolved explained; a bundle's pack; loose objects.

use std::path::Path;
use std::sync::atomic::AtomicUsize;

use sha1dc_wasm::Digest;

use crate::entry::EntryKind;
use crate::error::{BundleError, IndexError, Mismatch, Problem};
use crate::files::{self, Files};
use crate::hashing::Batcher;
use crate::idx::Index;
use crate::pack::{self, EntryTable, NONE, PackData, PackSum};
use crate::report::{FileDamage, Outlet, OwnedEvent};
use crate::walk::{self, Children, Round, Walker};
use crate::{Options, Source, bundle, layout, loose, threads};

/// Which part of the work on one source a verification does: several
/// verifications (WebAssembly instances, each its own memory and no
/// threads) share a pack with its index, each walking every `of`-th delta
/// tree; the one that `leads` also reports the source as a whole (its
/// objects, trailer, index and what no tree explains), and alone verifies
/// what cannot be shared (a pack without an index, a bundle, loose objects).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Part {
    pub(crate) index: usize,
    pub(crate) of: usize,
    pub(crate) leads: bool,
}

impl Part {
    /// All of the work.
    pub(crate) const WHOLE: Part = Part {
        index: 0,
        of: 1,
        leads: true,
    };
}

/// Verifies `source` (`part` of it), reporting on `out`.
pub(crate) fn verify_source(
    files: &dyn Files,
    source: &Source,
    options: &Options,
    part: Part,
    out: &Outlet<'_>,
) {
    let unreadable = |e: std::io::Error| Problem::Unreadable(e.into());
    let shared = matches!(source, Source::Pack { index: Some(_), .. });
    if !part.leads && !shared {
        return;
    }
    match source {
        Source::Pack { pack, index } => {
            match files::open_regular(files, pack).and_then(|f| PackData::open(f, 0)) {
                Ok(data) => {
                    let quiet = Outlet::Direct(&|_| {});
                    let index_out = if part.leads { out } else { &quiet };
                    let index = index
                        .as_deref()
                        .and_then(|p| read_index(files, p, index_out));
                    if index.is_none() && !part.leads {
                        return;
                    }
                    verify_pack(&data, pack, index, options, part, out);
                }
                Err(e) if part.leads => {
                    FileDamage::new(out.clone(), pack).report(None, None, unreadable(e))
                }
                Err(_) => {}
            }
        }
        Source::Bundle(path) => {
            let opened = files::open_regular(files, path)
                .map_err(|e| Problem::Bundle(BundleError::Unreadable(e.into())))
                .and_then(|file| {
                    let start = bundle::read_header(&*file).map_err(Problem::Bundle)?;
                    PackData::open(file, start).map_err(unreadable)
                });
            match opened {
                Ok(data) => verify_pack(&data, path, None, options, Part::WHOLE, out),
                Err(problem) => FileDamage::new(out.clone(), path).report(None, None, problem),
            }
        }
        Source::Loose(dir) => loose::verify_loose(files, dir, options, out),
        Source::Bytes(bytes) => {
            let data = PackData::new(bytes.as_slice());
            verify_pack(
                &data,
                Path::new("<memory>"),
                None,
                options,
                Part::WHOLE,
                out,
            );
        }
    }
}

/// The index at `path`, or none (its damage reported: the pack is then
/// verified without it).
fn read_index(files: &dyn Files, path: &Path, out: &Outlet<'_>) -> Option<Index> {
    let parsed = files::read(files, path)
        .map_err(|e| IndexError::Unreadable(e.into()))
        .and_then(|b| Index::parse(&b));
    parsed
        .map_err(|e| FileDamage::new(out.clone(), path).report(None, None, Problem::Index(e)))
        .ok()
}

/// What the workers learnt: each entry's id, once resolved.
struct Resolved {
    ids: Vec<Digest>,
    done: Vec<bool>,
}

impl Resolved {
    fn new(entries: usize) -> Self {
        Resolved {
            ids: vec![Digest::default(); entries],
            done: vec![false; entries],
        }
    }

    /// Takes in the (entry, id) the workers hashed; returns how many are new.
    fn take(&mut self, done: &[(u32, Digest)]) -> usize {
        let mut new = 0;
        for &(e, id) in done {
            let e = e as usize;
            new += usize::from(!self.done[e]);
            self.ids[e] = id;
            self.done[e] = true;
        }
        new
    }
}

/// The pack's trailer: the SHA-1 of everything before it, summed by
/// `sum` (from the layout pass's reads) or read whole now.
fn check_trailer(data: &PackData, sum: Option<PackSum>, report: &FileDamage) {
    let sum = sum.unwrap_or_else(|| PackSum::new(data));
    match sum.finish(data) {
        Ok(true) => {}
        Ok(false) => report.report(None, None, Problem::WrongTrailer),
        Err((at, e)) => report.report(Some(at), None, Problem::Unreadable(e.into())),
    }
}

/// The trailer checked on a thread of its own when there are workers to
/// spare, else on this one with what `sum` summed.
fn spawn_trailer<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    data: &'s PackData,
    sum: Option<PackSum>,
    report: FileDamage<'s>,
    threads: usize,
) {
    if threads > 1 {
        // Joined with the scope.
        let _ = threads::spawn_or_run(scope, move || check_trailer(data, sum, &report));
    } else {
        check_trailer(data, sum, &report);
    }
}

/// The pack's header: how many objects it declares.
fn read_header(data: &PackData) -> Result<u32, Problem> {
    let mut head = Vec::new();
    data.read(0, 12, &mut head)
        .map_err(|e| Problem::Unreadable(e.into()))?;
    pack::header(&head, data.len()).map_err(Problem::PackHeader)
}

/// Verifies one pack (`part` of its delta trees: a part that does not
/// lead needs the index, and reports only what its trees find): every
/// object hashed and reported on `out`.
pub(crate) fn verify_pack(
    data: &PackData,
    file: &Path,
    index: Option<Index>,
    options: &Options,
    part: Part,
    out: &Outlet<'_>,
) {
    let report = FileDamage::new(out.clone(), file);
    let count = match read_header(data) {
        Ok(n) => n,
        Err(_) if !part.leads => return,
        Err(problem) => {
            out.send(OwnedEvent::Source(file.to_path_buf(), 0));
            return report.report(None, None, problem);
        }
    };
    if part.leads {
        out.send(OwnedEvent::Source(file.to_path_buf(), u64::from(count)));
    }
    let mut kept: Vec<Option<Box<[u8]>>> = Vec::new();
    std::thread::scope(|scope| {
        let trailer = FileDamage::new(out.clone(), file);
        // With no thread to spare for the trailer, the layout pass sums it
        // as it reads (a pass fewer over the pack).
        let one = options.workers() == 1;
        let mut sum = (one && part.leads).then(|| PackSum::new(data));
        let laid_out = index
            .as_ref()
            .map(|i| layout::from_index(data, i, count, &mut sum));
        let (mut table, indexed, done) = match laid_out {
            Some(Ok((table, crc_problems))) => {
                if part.leads {
                    report.report_all(crc_problems);
                    spawn_trailer(scope, data, sum.take(), trailer, options.workers());
                }
                (table, true, Vec::new())
            }
            _ if !part.leads => return,
            other => {
                if let Some(Err(problems)) = other {
                    report.report_all(problems);
                    report.report(None, None, Problem::IndexSetAside);
                }
                let (table, done) = if one {
                    let pass = layout::scan(data, file, count, options, out, &mut kept, &mut sum);
                    check_trailer(data, sum.take(), &trailer);
                    pass
                } else {
                    spawn_trailer(scope, data, None, trailer, options.workers());
                    layout::scan(data, file, count, options, out, &mut kept, &mut None)
                };
                (table, false, done)
            }
        };
        let mut resolved = Resolved::new(table.slots.len());
        resolved.take(&done);
        if let Some(index) = index.as_ref().filter(|_| indexed) {
            link_by_index(&mut table, index);
        }
        let walks = Walks {
            data,
            file,
            kept: &kept,
            options,
            out,
        };
        // Laid out without the index, the pack is the leader's alone.
        let share = if indexed { part } else { Part::WHOLE };
        walks.rounds(&mut table, &mut resolved, !indexed, share);
        drop(kept);
        if part.leads {
            explain_unresolved(&table, &resolved, &report);
        }
        if let Some(index) = &index {
            compare_ids(&table, &resolved, index, indexed, &report);
        }
    });
}

/// Every REF_DELTA's base, found by its id in the index.
fn link_by_index(table: &mut EntryTable, index: &Index) {
    for &(e, id) in &table.ref_bases {
        if let Some(base) = index.find(&id).and_then(|b| table.at(b.offset)) {
            table.slots[e as usize].base = base;
        }
    }
}

/// Every REF_DELTA whose base is not linked yet, linked to the entry
/// whose id the walks found to be its base's.
fn link_by_id(table: &mut EntryTable, resolved: &Resolved) {
    let unlinked = |&(e, _): &(u32, Digest)| table.slots[e as usize].base == NONE;
    if !table.ref_bases.iter().any(unlinked) {
        return;
    }
    let mut known: Vec<(Digest, u32)> = (0..table.slots.len())
        .filter(|&i| resolved.done[i])
        .map(|i| (resolved.ids[i], i as u32))
        .collect();
    known.sort_unstable();
    for &(e, id) in &table.ref_bases {
        let slot = &mut table.slots[e as usize];
        if slot.base == NONE {
            if let Ok(k) = known.binary_search_by(|(k, _)| k.cmp(&id)) {
                slot.base = known[k].1;
            }
        }
    }
}

/// What every round of walks over one pack shares.
struct Walks<'a> {
    data: &'a PackData<'a>,
    file: &'a Path,
    /// Inflated deltas kept from the index-less pass, by entry.
    kept: &'a [Option<Box<[u8]>>],
    options: &'a Options,
    out: &'a Outlet<'a>,
}

impl Walks<'_> {
    /// Walks the delta trees in rounds: a REF_DELTA whose base is itself
    /// a delta (found index-less only once that base is hashed) waits for
    /// the next round, after the ids found link it (`link_ids`).
    ///
    /// Shared between parts, each walks every `of`-th tree of the first
    /// round; all of that round's trees then count as tried, so that no
    /// later round walks another part's.
    fn rounds(&self, table: &mut EntryTable, resolved: &mut Resolved, link_ids: bool, part: Part) {
        let mut first = true;
        // Entries a round has walked to (or from) and could not resolve: a
        // later round (after ids linked more bases) skips them, so that
        // each damage is reported once.
        let mut tried = vec![false; table.slots.len()];
        loop {
            if link_ids {
                link_by_id(table, resolved);
            }
            let children = Children::new(&table.slots, |i| !resolved.done[i] && !tried[i]);
            let roots = roots(table, &children, resolved, &tried);
            if roots.is_empty() {
                return;
            }
            let mine: Vec<(u32, bool)> = if first && part.of > 1 {
                walk::share(table, &children, &roots, (part.index, part.of))
            } else {
                roots.clone()
            };
            first = false;
            let done = self.round(table, &children, &mine);
            for &(root, _) in &roots {
                tried[root as usize] = true;
                children.each_below(root, |e| tried[e as usize] = true);
            }
            if resolved.take(&done) == 0 {
                return;
            }
        }
    }

    /// One round: the workers walk from `roots`; returns the (entry, id)
    /// of every object hashed.
    fn round(
        &self,
        table: &EntryTable,
        children: &Children,
        roots: &[(u32, bool)],
    ) -> Vec<(u32, Digest)> {
        let gather = self.options.gather;
        let round = Round {
            pack: self.data,
            table,
            children,
            roots,
            kept: self.kept,
            cache: self.options.cache,
            batches: walk::batches(table, children, roots, gather),
            gather,
            next: AtomicUsize::new(0),
        };
        let (round, options, file) = (&round, self.options, self.file);
        let walk = move |out: Outlet<'_>| {
            let batcher = Batcher::new(options.content, out, file);
            let mut walker = Walker::new(round, batcher);
            walker.run();
            walker.processor.done
        };
        if options.workers() == 1 {
            // One worker: this thread (no thread started at all).
            return walk(self.out.clone());
        }
        std::thread::scope(|scope| {
            let started: Vec<_> = (0..options.workers())
                .map(|_| {
                    let out = self.out.clone();
                    threads::spawn_or_run(scope, move || walk(out))
                })
                .collect();
            started
                .into_iter()
                .flat_map(threads::Started::join)
                .collect()
        })
    }
}

/// The entries a round starts from, and whether each must be hashed
/// itself: whole objects not yet hashed nor tried, and hashed entries
/// with children left to make.
fn roots(
    table: &EntryTable,
    children: &Children,
    resolved: &Resolved,
    tried: &[bool],
) -> Vec<(u32, bool)> {
    let slots = &table.slots;
    (0..slots.len() as u32)
        .filter_map(|e| {
            let (done, tried) = (resolved.done[e as usize], tried[e as usize]);
            let whole = slots[e as usize].whole().is_some();
            if whole && !done && !tried {
                Some((e, true))
            } else if done && children.any(e) {
                Some((e, false))
            } else {
                None
            }
        })
        .collect()
}

/// Where the search for an unresolved entry's cause stands at an entry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    /// Not looked at yet.
    New,
    /// On the chain being followed now.
    OnPath,
    /// Explained (or found to need no explaining).
    Explained,
}

/// Every entry the walks did not reach: a REF_DELTA whose base is in no
/// pack given, or a delta chain that loops (a delta below damage was
/// counted where the damage was reported).
fn explain_unresolved(table: &EntryTable, resolved: &Resolved, report: &FileDamage) {
    let slots = &table.slots;
    let children = Children::new(slots, |_| true);
    let mut state = vec![Visit::New; slots.len()];
    for start in 0..slots.len() {
        if resolved.done[start] || state[start] != Visit::New {
            continue;
        }
        let mut path = Vec::new();
        let mut at = start;
        let cycle_start = loop {
            if resolved.done[at] || slots[at].whole().is_some() || state[at] == Visit::Explained {
                break None;
            }
            if state[at] == Visit::OnPath {
                break Some(at);
            }
            state[at] = Visit::OnPath;
            path.push(at);
            if slots[at].base == NONE {
                if slots[at].kind == EntryKind::RefDelta {
                    report_missing_base(table, &children, at as u32, report);
                }
                break None;
            }
            at = slots[at].base as usize;
        };
        if let Some(cycle_start) = cycle_start {
            let k = path.iter().position(|&p| p == cycle_start);
            let looped = &path[k.expect("on the path")..];
            let offsets = looped.iter().map(|&p| slots[p].offset).collect();
            let offset = Some(slots[cycle_start].offset);
            report.report(offset, None, Problem::DeltaLoop { offsets });
        }
        for p in path {
            state[p] = Visit::Explained;
        }
    }
}

/// REF_DELTA `entry`, whose base is in no pack given.
fn report_missing_base(table: &EntryTable, children: &Children, entry: u32, report: &FileDamage) {
    let base = table
        .ref_bases
        .iter()
        .find(|(e, _)| *e == entry)
        .map(|(_, id)| *id)
        .unwrap_or_default();
    let dependents = children.descendants(entry) + 1;
    let offset = Some(table.slots[entry as usize].offset);
    report.report(offset, None, Problem::RefBaseMissing { base, dependents });
}

/// Every id hashed equals the index's; with `trusted` false (the index
/// disagreed with the pack and the pack was walked without it), the sets
/// of ids and offsets are compared instead.
fn compare_ids(
    table: &EntryTable,
    resolved: &Resolved,
    index: &Index,
    trusted: bool,
    report: &FileDamage,
) {
    let mismatch = |offset, id, m| report.report(Some(offset), Some(id), Problem::Mismatch(m));
    if trusted {
        for (i, (slot, &indexed)) in table.slots.iter().zip(&table.expected).enumerate() {
            let hashed = resolved.ids[i];
            if resolved.done[i] && hashed != indexed {
                mismatch(slot.offset, hashed, Mismatch::Id { hashed, indexed });
            }
        }
        return;
    }
    for (i, slot) in table.slots.iter().enumerate() {
        if !resolved.done[i] {
            continue;
        }
        let id = resolved.ids[i];
        match index.find(&id) {
            None => mismatch(slot.offset, id, Mismatch::Missing),
            Some(e) if e.offset != slot.offset => {
                mismatch(slot.offset, id, Mismatch::Offset { indexed: e.offset })
            }
            Some(_) => {}
        }
    }
    for e in &index.entries {
        if table.at(e.offset).is_none() {
            mismatch(e.offset, e.id, Mismatch::Nowhere { offset: e.offset });
        }
    }
}
