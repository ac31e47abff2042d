//! One pack verified: its layout (from the `.idx`, or index-less), its
//! trailer, every object made and hashed by the delta-tree walks on the
//! workers, then every id checked against the index and every entry that
//! could not be resolved explained.

use std::path::Path;
use std::sync::atomic::AtomicUsize;
use std::sync::mpsc::Sender;

use crate::Options;
use crate::hashing::{Batcher, Message, Reporter};
use crate::idx::Index;
use crate::layout;
use crate::pack::{self, Layout, NONE, PackData};
use crate::report::hex;
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
    let spawned = threads > 1
        && std::thread::Builder::new()
            .spawn_scoped(scope, move || check_trailer(data, &report))
            .is_ok();
    if !spawned {
        check_trailer(data, &Reporter::new(out.clone(), file));
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
    let threads = options.workers();
    let mut kept: Vec<Option<Box<[u8]>>> = Vec::new();
    std::thread::scope(|scope| {
        let (mut layout, expected, done) =
            match index.as_ref().map(|i| layout::from_index(data, i, count)) {
                Some(Ok((layout, crc_problems))) => {
                    for (offset, message) in crc_problems {
                        report.damage(offset, None, message);
                    }
                    spawn_trailer(scope, data, file, out, threads);
                    (layout, true, Vec::new())
                }
                other => {
                    if let Some(Err(problems)) = other {
                        for (offset, message) in problems {
                            report.damage(offset, None, message);
                        }
                        report.damage(
                            None,
                            None,
                            "the index disagrees with the pack: the pack is verified without it"
                                .into(),
                        );
                    }
                    spawn_trailer(scope, data, file, out, threads);
                    let (layout, done) = layout::scan(data, file, count, options, out, &mut kept);
                    (layout, false, done)
                }
            };
        let mut resolved = Resolved {
            ids: vec![[0; 20]; layout.slots.len()],
            done: vec![false; layout.slots.len()],
        };
        resolved.take(&done);
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
    // Entries a round has walked to (or from) and could not resolve: a
    // later round (after ids linked more bases) skips them, so that each
    // damage is reported once.
    let mut tried = vec![false; layout.slots.len()];
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
        let children = Children::new(slots, |i| !resolved.done[i] && !tried[i]);
        let roots: Vec<(u32, bool)> = (0..slots.len() as u32)
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
            let walk = |out: Sender<Message>| {
                let mut w = Walker::new(&round, Batcher::new(options.content, out, file));
                w.run();
                w.batcher.done
            };
            // A thread the system refuses (too many asked for) is not
            // started; with none, this thread walks.
            let workers: Vec<_> = (0..options.workers())
                .filter_map(|_| {
                    let out = out.clone();
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || walk(out))
                        .ok()
                })
                .collect();
            if workers.is_empty() {
                done.extend(walk(out.clone()));
            }
            for w in workers {
                done.extend(w.join().expect("no worker panics"));
            }
        });
        for &(root, _) in &roots {
            tried[root as usize] = true;
            children.each_below(root, |e| tried[e as usize] = true);
        }
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
                        "REF_DELTA base {} is not in the pack (a thin pack?); {} objects depend on it",
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
