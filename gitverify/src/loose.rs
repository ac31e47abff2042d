//! Loose objects: `objects/xx/yyyy...`, each a zlib stream of
//! `<type> <len>\0` and the content, named by its id.

use std::path::{Path, PathBuf};
use std::rc::Rc;

use sha1dc_wasm::Digest;
use sha1dc_wasm::git::ObjectKind;

use crate::Options;
use crate::entry;
use crate::error::{LooseError, Problem};
use crate::files::Files;
use crate::hashing::Batcher;
use crate::inflate::Inflater;
use crate::processor::Processor;
use crate::report::{FileDamage, Outlet, OwnedEvent};

/// Every loose object under `objects` (the `xx/` directories), in name
/// order, and how many files there are named by 64-digit (SHA-256) ids.
fn list(files: &dyn Files, objects: &Path) -> (Vec<(PathBuf, Digest)>, u64) {
    let (mut out, mut sha256) = (Vec::new(), 0);
    let Ok(mut dirs) = files.list(objects) else {
        return (out, sha256);
    };
    dirs.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for d in dirs {
        let name = d.file_name().unwrap_or_default();
        let Some(prefix) = name.to_str().filter(|n| is_hex(n, 2)) else {
            continue;
        };
        let Ok(mut list) = files.list(&d) else {
            continue;
        };
        list.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        for f in list {
            let name = f.file_name().unwrap_or_default();
            if let Some(rest) = name.to_str().filter(|n| is_hex(n, 38)) {
                let hex = format!("{prefix}{rest}");
                if let Ok(id) = hex.parse::<Digest>() {
                    out.push((f.clone(), id));
                }
            }
            sha256 += u64::from(name.to_str().is_some_and(|n| is_hex(n, 62)));
        }
    }
    (out, sha256)
}

fn is_hex(name: &str, len: usize) -> bool {
    name.len() == len && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Parses an inflated loose object: its kind and content.
fn parse(raw: &[u8]) -> Result<(ObjectKind, &[u8]), LooseError> {
    let nul = raw
        .iter()
        .take(32)
        .position(|&b| b == 0)
        .ok_or(LooseError::NoHeader)?;
    let header = &raw[..nul];
    let space = header
        .iter()
        .position(|&b| b == b' ')
        .ok_or(LooseError::NoHeader)?;
    let name = &header[..space];
    let kind = entry::kind_by_name(name)
        .ok_or_else(|| LooseError::UnknownType(String::from_utf8_lossy(name).into_owned()))?;
    let declared: u64 = std::str::from_utf8(&header[space + 1..])
        .ok()
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .ok_or(LooseError::BadLength)?;
    let content = &raw[nul + 1..];
    if content.len() as u64 != declared {
        let actual = content.len() as u64;
        return Err(LooseError::Length { declared, actual });
    }
    Ok((kind, content))
}

/// Reads and inflates one loose object's file into `raw`.
fn read(
    files: &dyn Files,
    path: &Path,
    inflater: &mut Inflater,
    raw: &mut Vec<u8>,
) -> Result<(), Problem> {
    let bytes = crate::files::read(files, path).map_err(|e| Problem::Unreadable(e.into()))?;
    let corrupt = Problem::CorruptLoose;
    match inflater.inflate_any(&bytes, raw) {
        Err(e) => Err(corrupt(LooseError::Inflate(e))),
        // As `git fsck`: git writes nothing after the stream.
        Ok(used) if used < bytes.len() => {
            Err(corrupt(LooseError::TrailingBytes(bytes.len() - used)))
        }
        Ok(_) => Ok(()),
    }
}

/// Verifies every loose object under `objects`; its id must be its name.
pub fn verify_loose(files: &dyn Files, objects: &Path, options: &Options, out: &Outlet<'_>) {
    let (objects_list, sha256) = list(files, objects);
    if sha256 > 0 {
        FileDamage::new(out.clone(), objects).report(None, None, Problem::Sha256Loose(sha256));
    }
    if objects_list.is_empty() {
        return;
    }
    out.send(OwnedEvent::Source(
        objects.to_path_buf(),
        objects_list.len() as u64,
    ));
    let mut inflater = Inflater::new();
    let mut batcher = Batcher::new(options.content, out.clone(), objects);
    let mut raw = Vec::new();
    for (i, (path, _)) in objects_list.iter().enumerate() {
        let report = FileDamage::new(out.clone(), path);
        let made = read(files, path, &mut inflater, &mut raw)
            .and_then(|()| parse(&raw).map_err(Problem::CorruptLoose));
        match made {
            Ok((kind, content)) => batcher.object(i as u32, None, kind, Rc::new(content.to_vec())),
            Err(problem) => report.report(None, None, problem),
        }
    }
    batcher.finish();
    for (i, hashed) in std::mem::take(&mut batcher.done) {
        let (path, named) = &objects_list[i as usize];
        if hashed != *named {
            let problem = Problem::MisnamedLoose {
                named: *named,
                hashed,
            };
            FileDamage::new(out.clone(), path).report(None, Some(hashed), problem);
        }
    }
}
