//! One pack verified: its layout (from the `.idx`, or index-less), its
//! trailer, every object made and hashed by the delta-tree walks on the
//! workers, then every id checked against the index and every entry that
//! could not be resolved explained.

use std::path::Path;
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::{Sender, sync_channel};

use crate::Options;
use crate::entry::{self, Stored};
use crate::hashing::{Batcher, Message, Reporter};
use crate::idx::Index;
use crate::inflate::Inflater;
use crate::pack::{self, Layout, NONE, PackData, Window};
use crate::walk::{Children, Round, Walker};

/// What the workers learnt: each entry's id, once resolved.
struct Resolved {
    ids: Vec<[u8; 20]>,
    done: Vec<bool>,
}

impl Resolved {
    fn take(&mut self, done: &[(u32, [u8; 20])]) -> usize {
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

/// The pack's trailer: the SHA-1 of everything before it.
fn check_trailer(data: &PackData, report: &Reporter) {
    let end = data.len() - 20;
    let mut hasher = sha1dc_wasm::Hasher::builder()
        .detect_collisions(false)
        .build();
    let mut buf = Vec::new();
    let mut at = 0;
    while at < end {
        let next = (at + (4 << 20)).min(end);
        if let Err(e) = data.read(at, next, &mut buf) {
            return report.damage(Some(at), None, format!("cannot be read: {e}"));
        }
        hasher.update(&buf);
        at = next;
    }
    let sum = hasher.finalize().sha1();
    match data.read(end, end + 20, &mut buf) {
        Ok(()) if sum.as_ref() == buf.as_slice() => {}
        Ok(()) => report.damage(
            None,
            None,
            "wrong trailer: the pack's checksum does not match its content".into(),
        ),
        Err(e) => report.damage(Some(end), None, format!("cannot be read: {e}")),
    }
}

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
) -> Result<(entry::EntryHeader, u64), String> {
    let io = |e: std::io::Error| format!("cannot be read: {e}");
    let h = entry::parse(window.get(pos, (pos + 32).min(end)).map_err(io)?, pos)
        .map_err(|e| e.to_string())?;
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
        .map_err(|e| format!("its zlib stream: {e}"))?;
    Ok((h, used as u64))
}

/// The trailer checked on a thread of its own when there are workers to
/// spare, else on this one.
fn spawn_trailer<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    data: &'s PackData,
    file: &'s Path,
    out: &Sender<Message>,
    threads: usize,
) {
    let report = Reporter::new(out.clone(), file);
    if threads > 1 {
        scope.spawn(move || check_trailer(data, &report));
    } else {
        check_trailer(data, &report);
    }
}

/// Verifies one pack: every object hashed and reported on `out`.
pub(crate) fn verify_pack(
    data: &PackData,
    file: &Path,
    index: Option<Index>,
    options: &Options,
    out: &Sender<Message>,
) {
    let report = Reporter::new(out.clone(), file);
    let mut head = Vec::new();
    let count = match data
        .read(0, 12, &mut head)
        .map_err(|e| format!("cannot be read: {e}"))
        .and_then(|()| pack::header(&head, data.len()))
    {
        Ok(n) => n,
        Err(e) => {
            let _ = out.send(Message::Source(file.to_path_buf(), 0));
            return report.damage(None, None, e);
        }
    };
    let _ = out.send(Message::Source(file.to_path_buf(), u64::from(count)));
    let threads = options.threads.max(1);
    let mut resolved = Resolved {
        ids: Vec::new(),
        done: Vec::new(),
    };
    let mut kept: Vec<Option<Box<[u8]>>> = Vec::new();
    std::thread::scope(|scope| {
        let (layout, expected) = match index.as_ref().map(|i| from_index(data, i, count)) {
            Some(Ok((layout, crc_problems))) => {
                for (offset, message) in crc_problems {
                    report.damage(offset, None, message);
                }
                spawn_trailer(scope, data, file, out, threads);
                (layout, true)
            }
            other => {
                if let Some(Err(problems)) = other {
                    for (offset, message) in problems {
                        report.damage(offset, None, message);
                    }
                    report.damage(
                        None,
                        None,
                        "the index disagrees with the pack: the pack is verified without it".into(),
                    );
                }
                spawn_trailer(scope, data, file, out, threads);
                let layout = scan(data, file, count, options, out, &mut resolved, &mut kept);
                (layout, false)
            }
        };
        if resolved.done.is_empty() {
            resolved = Resolved {
                ids: vec![[0; 20]; layout.slots.len()],
                done: vec![false; layout.slots.len()],
            };
        }
        let mut layout = layout;
        if expected {
            let index = index.as_ref().expect("an index");
            for &(e, id) in &layout.ref_bases {
                if let Some(base) = index.find(&id).and_then(|b| layout.at(b.offset)) {
                    layout.slots[e as usize].base = base;
                }
            }
        }
        walk_rounds(
            data,
            file,
            &mut layout,
            &kept,
            options,
            out,
            &mut resolved,
            !expected,
        );
        drop(kept);
        explain_unresolved(&layout, &resolved, &report);
        if let Some(index) = &index {
            compare_ids(&layout, &resolved, index, expected, &report);
        }
    });
}

type Problems = Vec<(Option<u64>, String)>;

/// The layout from the index: no inflating, every entry's CRC32 checked.
/// A CRC32 that differs is damage (in the pack or the index) reported
/// with the layout; any other disagreement is returned alone, and the
/// pack is then walked without the index.
fn from_index(data: &PackData, index: &Index, count: u32) -> Result<(Layout, Problems), Problems> {
    let end = data.len() - 20;
    let mut problems = Vec::new();
    let mut crc_problems = Vec::new();
    let mut window = Window::new(data);
    let mut trailer = Vec::new();
    let _ = data.read(end, end + 20, &mut trailer);
    if index.pack_checksum[..] != trailer[..] {
        problems.push((
            None,
            "the index is for another pack (its pack checksum is not this pack's trailer)"
                .to_string(),
        ));
    }
    if index.entries.len() as u64 != u64::from(count) {
        problems.push((
            None,
            format!(
                "the index lists {} objects, the pack's header {count}",
                index.entries.len()
            ),
        ));
    }
    let mut by_offset: Vec<(u64, u32)> = index
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.offset, i as u32))
        .collect();
    by_offset.sort_unstable();
    let mut layout = Layout::default();
    layout.slots.reserve(by_offset.len());
    layout.expected.reserve(by_offset.len());
    for (k, &(_, i)) in by_offset.iter().enumerate() {
        let i = i as usize;
        let e = &index.entries[i];
        let next = by_offset.get(k + 1).map_or(end, |&(o, _)| o);
        if e.offset < 12 || e.offset >= next {
            problems.push((
                Some(e.offset),
                format!(
                    "the index places {} at offset {}, where no entry can start",
                    hex(&e.id),
                    e.offset
                ),
            ));
            continue;
        }
        let bytes = match window.get(e.offset, next) {
            Ok(b) => b,
            Err(err) => {
                problems.push((Some(e.offset), format!("cannot be read: {err}")));
                break;
            }
        };
        let h = match entry::parse(bytes, e.offset) {
            Ok(h) => h,
            Err(err) => {
                problems.push((Some(e.offset), format!("object {}: {err}", hex(&e.id))));
                continue;
            }
        };
        if e.offset + h.len as u64 >= next {
            problems.push((
                Some(e.offset),
                format!(
                    "object {}: the next indexed entry starts within its header",
                    hex(&e.id)
                ),
            ));
            continue;
        }
        if let Some(crc) = e.crc {
            let actual = crc32fast::hash(bytes);
            if actual != crc {
                crc_problems.push((Some(e.offset), format!("object {}: the entry's CRC32 is {actual:08x}, the index says {crc:08x} (the pack or its index is damaged)", hex(&e.id))));
            }
        }
        if let Err(err) = layout.push(e.offset, &h) {
            problems.push((Some(e.offset), format!("object {}: {err}", hex(&e.id))));
            continue;
        }
        layout.slots.last_mut().expect("pushed").end = next;
        layout.expected.push(e.id);
    }
    if problems.is_empty() {
        Ok((layout, crc_problems))
    } else {
        Err(problems)
    }
}

pub(crate) fn hex(id: &[u8; 20]) -> String {
    sha1dc_wasm::Digest::from(*id).to_string()
}

/// Index-less: every entry inflated in order, to find where the next one
/// starts. Whole objects are hashed on the way (on the other workers when
/// there are some); small deltas are kept inflated for the walk.
fn scan(
    data: &PackData,
    file: &Path,
    count: u32,
    options: &Options,
    out: &Sender<Message>,
    resolved: &mut Resolved,
    kept: &mut Vec<Option<Box<[u8]>>>,
) -> Layout {
    let end = data.len() - 20;
    let mut window = Window::new(data);
    let mut layout = Layout::default();
    layout.slots.reserve(count as usize);
    let threads = options.threads.max(1);
    let mut inflater = Inflater::new();
    let mut keep_budget = options.cache / 2;
    let mut done = Vec::new();
    let report = Reporter::new(out.clone(), file);
    std::thread::scope(|scope| {
        // The whole objects, in bundles of about a megabyte, to the hashers.
        let (tx, rx) =
            sync_channel::<Vec<(u32, u64, sha1dc_wasm::git::ObjectKind, Vec<u8>)>>(2 * threads);
        let rx = std::sync::Arc::new(std::sync::Mutex::new(rx));
        let mut hashers = Vec::new();
        for _ in 1..threads {
            let rx = std::sync::Arc::clone(&rx);
            let out = out.clone();
            hashers.push(scope.spawn(move || {
                let mut batcher = Batcher::new(options.content, out, file);
                loop {
                    let bundle = match rx.lock().expect("no worker panics").recv() {
                        Ok(b) => b,
                        Err(_) => break,
                    };
                    for (e, offset, kind, content) in bundle {
                        batcher.add(e, Some(offset), kind, std::rc::Rc::new(content));
                    }
                }
                batcher.flush();
                batcher.done
            }));
        }
        let mut inline = (threads == 1).then(|| Batcher::new(options.content, out.clone(), file));
        let mut bundle = Vec::new();
        let mut bundle_bytes = 0;
        let mut pos = 12u64;
        let mut resynced = false;
        while (layout.slots.len() as u64) < u64::from(count) {
            let i = layout.slots.len() as u32;
            if pos >= end {
                if !resynced {
                    report.damage(
                        Some(pos),
                        None,
                        format!("truncated: the header says {count} objects, the pack holds {i}"),
                    );
                }
                break;
            }
            let mut content = Vec::new();
            let (h, used) = match read_entry(&mut window, &mut inflater, pos, end, &mut content) {
                Ok(p) => p,
                Err(e) => {
                    // Without an index the next entry's start is unknown:
                    // look for the next bytes that parse and inflate as one.
                    resynced = true;
                    match resync(&mut window, pos + 1, end, &mut inflater) {
                        Some(next) => {
                            report.damage(Some(pos), None, format!("{e}; the next entry found starts at offset {next} ({} bytes skipped)", next - pos));
                            pos = next;
                            continue;
                        }
                        None => {
                            report.damage(Some(pos), None, format!("{e}; no entry found after it"));
                            break;
                        }
                    }
                }
            };
            let data_at = pos + h.len as u64;
            if let Err(e) = layout.push(pos, &h) {
                report.damage(Some(pos), None, e);
                layout.slots.push(pack::Slot {
                    offset: pos,
                    end: 0,
                    size: h.size,
                    base: NONE,
                    header: h.len as u8,
                    type_id: 0,
                });
            }
            let slot = layout.slots.last_mut().expect("pushed");
            slot.end = data_at + used;
            match h.stored {
                Stored::Whole(kind) => {
                    if let Some(b) = inline.as_mut() {
                        b.add(i, Some(pos), kind, std::rc::Rc::new(content));
                    } else {
                        bundle_bytes += content.len();
                        bundle.push((i, pos, kind, content));
                        if bundle_bytes >= 1 << 20 {
                            bundle_bytes = 0;
                            let _ = tx.send(std::mem::take(&mut bundle));
                        }
                    }
                }
                _ if content.len() <= keep_budget => {
                    keep_budget -= content.len();
                    kept.resize_with(i as usize, || None);
                    kept.push(Some(content.into_boxed_slice()));
                }
                _ => {}
            }
            pos = data_at + used;
        }
        if layout.slots.len() == count as usize && pos != end && !resynced {
            report.damage(
                Some(pos),
                None,
                format!("{} bytes between the last entry and the trailer", end - pos),
            );
        }
        if !bundle.is_empty() {
            let _ = tx.send(bundle);
        }
        drop(tx);
        if let Some(mut b) = inline {
            b.flush();
            done.extend(b.done);
        }
        for h in hashers {
            done.extend(h.join().expect("no worker panics"));
        }
    });
    *resolved = Resolved {
        ids: vec![[0; 20]; layout.slots.len()],
        done: vec![false; layout.slots.len()],
    };
    resolved.take(&done);
    layout
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

/// Walks the delta trees in rounds: a REF_DELTA whose base is itself a
/// delta (found index-less only once that base is hashed) waits for the
/// next round.
#[allow(clippy::too_many_arguments)]
fn walk_rounds(
    data: &PackData,
    file: &Path,
    layout: &mut Layout,
    kept: &[Option<Box<[u8]>>],
    options: &Options,
    out: &Sender<Message>,
    resolved: &mut Resolved,
    link_by_id: bool,
) {
    loop {
        if link_by_id
            && layout
                .ref_bases
                .iter()
                .any(|&(e, _)| layout.slots[e as usize].base == NONE)
        {
            let mut known: Vec<([u8; 20], u32)> = (0..layout.slots.len())
                .filter(|&i| resolved.done[i])
                .map(|i| (resolved.ids[i], i as u32))
                .collect();
            known.sort_unstable();
            for &(e, id) in &layout.ref_bases {
                let slot = &mut layout.slots[e as usize];
                if slot.base == NONE {
                    if let Ok(k) = known.binary_search_by(|(k, _)| k.cmp(&id)) {
                        slot.base = known[k].1;
                    }
                }
            }
        }
        let slots = &layout.slots;
        let children = Children::new(slots, |i| !resolved.done[i]);
        let roots: Vec<(u32, bool)> = (0..slots.len() as u32)
            .filter_map(|e| {
                let done = resolved.done[e as usize];
                let whole = slots[e as usize].whole().is_some();
                if whole && !done {
                    Some((e, true))
                } else if done && children.any(e) {
                    Some((e, false))
                } else {
                    None
                }
            })
            .collect();
        if roots.is_empty() {
            return;
        }
        let round = Round {
            pack: data,
            layout,
            children: &children,
            roots: &roots,
            kept,
            cache: options.cache,
            next: AtomicUsize::new(0),
        };
        let mut done = Vec::new();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..options.threads.max(1))
                .map(|_| {
                    let round = &round;
                    let out = out.clone();
                    scope.spawn(move || {
                        let mut w = Walker::new(round, Batcher::new(options.content, out, file));
                        w.run();
                        w.batcher.done
                    })
                })
                .collect();
            for w in workers {
                done.extend(w.join().expect("no worker panics"));
            }
        });
        if resolved.take(&done) == 0 {
            return;
        }
    }
}

/// Every entry the walks did not reach: a REF_DELTA whose base is in no
/// pack given, or a delta chain that loops (a delta below damage was
/// counted where the damage was reported).
fn explain_unresolved(layout: &Layout, resolved: &Resolved, report: &Reporter) {
    let slots = &layout.slots;
    let children = Children::new(slots, |_| true);
    // 0 not looked at, 1 on the current path, 2 explained.
    let mut state = vec![0u8; slots.len()];
    for start in 0..slots.len() {
        if resolved.done[start] || state[start] != 0 {
            continue;
        }
        let mut path = Vec::new();
        let mut at = start;
        let outcome = loop {
            if resolved.done[at] || slots[at].whole().is_some() || state[at] == 2 {
                break None;
            }
            if state[at] == 1 {
                break Some(at);
            }
            state[at] = 1;
            path.push(at);
            if slots[at].base == NONE {
                if slots[at].type_id == 7 {
                    let id = layout
                        .ref_bases
                        .iter()
                        .find(|(e, _)| *e as usize == at)
                        .map(|(_, id)| *id)
                        .unwrap_or([0; 20]);
                    let below = children.descendants(at as u32);
                    report.damage(Some(slots[at].offset), None, format!(
                        "REF_DELTA base {} is in no pack given (a thin pack?); {} objects depend on it",
                        hex(&id), below + 1
                    ));
                }
                break None;
            }
            at = slots[at].base as usize;
        };
        if let Some(cycle_start) = outcome {
            let k = path
                .iter()
                .position(|&p| p == cycle_start)
                .expect("on the path");
            let offsets: Vec<String> = path[k..]
                .iter()
                .map(|&p| slots[p].offset.to_string())
                .collect();
            report.damage(
                Some(slots[cycle_start].offset),
                None,
                format!(
                    "the delta chain loops through the entries at offsets {}",
                    offsets.join(", ")
                ),
            );
        }
        for p in path {
            state[p] = 2;
        }
    }
}

/// Every id hashed equals the index's; with `trusted` false (the index
/// disagreed with the pack and the pack was walked without it), the sets
/// of ids and offsets are compared instead.
fn compare_ids(
    layout: &Layout,
    resolved: &Resolved,
    index: &Index,
    trusted: bool,
    report: &Reporter,
) {
    if trusted {
        for (i, (slot, id)) in layout.slots.iter().zip(&layout.expected).enumerate() {
            if resolved.done[i] && resolved.ids[i] != *id {
                report.damage(
                    Some(slot.offset),
                    Some(resolved.ids[i]),
                    format!(
                        "hashes to {}, but the index names it {}",
                        hex(&resolved.ids[i]),
                        hex(id)
                    ),
                );
            }
        }
        return;
    }
    for (i, slot) in layout.slots.iter().enumerate() {
        if !resolved.done[i] {
            continue;
        }
        match index.find(&resolved.ids[i]) {
            None => report.damage(
                Some(slot.offset),
                Some(resolved.ids[i]),
                "missing from the index".into(),
            ),
            Some(e) if e.offset != slot.offset => report.damage(
                Some(slot.offset),
                Some(resolved.ids[i]),
                format!("the index gives offset {} for it", e.offset),
            ),
            Some(_) => {}
        }
    }
    for e in &index.entries {
        if layout.at(e.offset).is_none() {
            report.damage(
                Some(e.offset),
                Some(e.id),
                format!(
                    "the index lists it at offset {}, where no entry of the pack starts",
                    e.offset
                ),
            );
        }
    }
}
