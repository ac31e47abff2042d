//! The layout of a pack: from its index (no inflating), or index-less from
//! one pass that inflates every entry in order to find where the next
//! starts, hashing the whole objects on the way.

use std::path::Path;
use std::sync::mpsc::{Sender, sync_channel};

use crate::Options;
use crate::entry::{self, Stored};
use crate::hashing::{Batcher, Message, Reporter};
use crate::idx::Index;
use crate::inflate::Inflater;
use crate::pack::{self, Layout, NONE, PackData, Window};
use crate::report::hex;

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

pub(crate) type Problems = Vec<(Option<u64>, String)>;

/// The layout from the index: no inflating, every entry's CRC32 checked.
/// A CRC32 that differs is damage (in the pack or the index) reported
/// with the layout; any other disagreement is returned alone, and the
/// pack is then walked without the index.
pub(crate) fn from_index(
    data: &PackData,
    index: &Index,
    count: u32,
) -> Result<(Layout, Problems), Problems> {
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

/// Index-less: every entry inflated in order, to find where the next one
/// starts. Whole objects are hashed on the way (on the other workers when
/// there are some); small deltas are kept inflated for the walk.
pub(crate) fn scan(
    data: &PackData,
    file: &Path,
    count: u32,
    options: &Options,
    out: &Sender<Message>,
    kept: &mut Vec<Option<Box<[u8]>>>,
) -> (Layout, Vec<(u32, [u8; 20])>) {
    let end = data.len() - 20;
    let mut window = Window::new(data);
    let mut layout = Layout::default();
    // As many entries as the header says, but no more than the pack can
    // hold (an entry takes at least 9 bytes): the count is not trusted.
    layout
        .slots
        .reserve((count as usize).min(data.len() as usize / 9));
    let threads = options.workers();
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
            let hasher = std::thread::Builder::new().spawn_scoped(scope, move || {
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
            });
            // A thread the system refuses (too many asked for) is not
            // started; with none, this thread hashes too.
            hashers.extend(hasher.ok());
        }
        let mut inline = hashers
            .is_empty()
            .then(|| Batcher::new(options.content, out.clone(), file));
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
    (layout, done)
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
