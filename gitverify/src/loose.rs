//! Loose objects: `objects/xx/yyyy...`, each a zlib stream of
//! `<type> <len>\0` and the content, named by its id.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc::Sender;

use crate::Options;
use crate::entry;
use crate::hashing::{Batcher, Message, Reporter};
use crate::inflate::Inflater;

/// Every loose object under `objects` (the `xx/` directories), in name
/// order, and how many files there are named by 64-digit (SHA-256) ids.
fn list(objects: &Path) -> (Vec<(PathBuf, [u8; 20])>, usize) {
    let (mut out, mut sha256) = (Vec::new(), 0);
    let Ok(dirs) = std::fs::read_dir(objects) else {
        return (out, sha256);
    };
    let mut dirs: Vec<_> = dirs.filter_map(|e| e.ok()).collect();
    dirs.sort_by_key(|e| e.file_name());
    for d in dirs {
        let name = d.file_name();
        let Some(prefix) = name.to_str().filter(|n| is_hex(n, 2)) else {
            continue;
        };
        let Ok(files) = std::fs::read_dir(d.path()) else {
            continue;
        };
        let mut files: Vec<_> = files.filter_map(|e| e.ok()).collect();
        files.sort_by_key(|e| e.file_name());
        for f in files {
            let name = f.file_name();
            if let Some(rest) = name.to_str().filter(|n| is_hex(n, 38)) {
                let hex = format!("{prefix}{rest}");
                if let Ok(id) = hex.parse::<sha1dc_wasm::Digest>() {
                    out.push((f.path(), id.into()));
                }
            }
            sha256 += usize::from(name.to_str().is_some_and(|n| is_hex(n, 62)));
        }
    }
    (out, sha256)
}

fn is_hex(name: &str, len: usize) -> bool {
    name.len() == len && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Parses an inflated loose object: its kind and content.
fn parse(raw: &[u8]) -> Result<(sha1dc_wasm::git::ObjectKind, &[u8]), String> {
    let nul = raw
        .iter()
        .take(32)
        .position(|&b| b == 0)
        .ok_or("no `<type> <len>` header")?;
    let header = &raw[..nul];
    let space = header
        .iter()
        .position(|&b| b == b' ')
        .ok_or("no `<type> <len>` header")?;
    let kind = entry::kind_by_name(&header[..space]).ok_or_else(|| {
        format!(
            "unknown object type {:?}",
            String::from_utf8_lossy(&header[..space])
        )
    })?;
    let len: u64 = std::str::from_utf8(&header[space + 1..])
        .ok()
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .ok_or("its header's length is not a number")?;
    let content = &raw[nul + 1..];
    if content.len() as u64 != len {
        return Err(format!(
            "its header says {len} bytes, it holds {}",
            content.len()
        ));
    }
    Ok((kind, content))
}

/// Verifies every loose object under `objects`; its id must be its name.
pub fn verify_loose(objects: &Path, options: &Options, out: &Sender<Message>) {
    let (objects_list, sha256) = list(objects);
    if sha256 > 0 {
        let message = format!(
            "{sha256} loose objects named by SHA-256 ids (a SHA-256 repository's): not verified"
        );
        Reporter::new(out.clone(), objects).damage(None, None, message);
    }
    if objects_list.is_empty() {
        return;
    }
    let _ = out.send(Message::Source(
        objects.to_path_buf(),
        objects_list.len() as u64,
    ));
    let mut inflater = Inflater::new();
    let mut batcher = Batcher::new(options.content, out.clone(), objects);
    let mut raw = Vec::new();
    for (i, (path, _)) in objects_list.iter().enumerate() {
        let report = Reporter::new(out.clone(), path);
        let bytes = match crate::read_regular(path) {
            Ok(b) => b,
            Err(e) => {
                report.damage(None, None, format!("cannot be read: {e}"));
                continue;
            }
        };
        match inflater.inflate_any(&bytes, &mut raw) {
            Err(e) => {
                report.damage(None, None, format!("corrupt loose object: {e}"));
                continue;
            }
            // As `git fsck`: git writes nothing after the stream.
            Ok(used) if used < bytes.len() => {
                let extra = bytes.len() - used;
                let message = format!("corrupt loose object: {extra} bytes after its zlib stream");
                report.damage(None, None, message);
                continue;
            }
            Ok(_) => {}
        }
        match parse(&raw) {
            Ok((kind, content)) => batcher.add(i as u32, None, kind, Rc::new(content.to_vec())),
            Err(e) => report.damage(None, None, format!("corrupt loose object: {e}")),
        }
    }
    batcher.flush();
    for (i, id) in std::mem::take(&mut batcher.done) {
        let (path, named) = &objects_list[i as usize];
        if id != *named {
            let report = Reporter::new(out.clone(), path);
            report.damage(
                None,
                Some(id),
                format!(
                    "the file is named {} but its content hashes to {}",
                    crate::report::hex(named),
                    crate::report::hex(&id)
                ),
            );
        }
    }
}
