//! `--check`: verify the files a checksum list names, as GNU `sha1sum -c`
//! does, with one more verdict: COLLISION, for a file in which a collision
//! attack is detected now, whatever its line records (never OK). A line
//! that names a file but records no checksum read here still has its file
//! checked for a collision, and is reported.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::process::ExitCode;

use sha1dc_wasm::Builder;

use crate::args::Options;
use crate::dispatch;
use crate::input::{Failure, describe};
use crate::lines::{self, Line};
use crate::os::os_name;
use crate::output::{Output, exit_status, output_error};

/// A line of a list that names a file: the name, and the checksum the line
/// records, or `None` when it could not be read (the file is then checked
/// for a collision only).
struct Listed {
    name: Vec<u8>,
    digest: Option<[u8; 20]>,
}

/// What checking one listed file found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Ok,
    Failed,
    Unreadable,
    Collision,
}

impl Verdict {
    fn text(self) -> &'static [u8] {
        match self {
            Verdict::Ok => b"OK",
            Verdict::Failed => b"FAILED",
            Verdict::Unreadable => b"FAILED open or read",
            Verdict::Collision => b"COLLISION",
        }
    }
}

/// Counts over one list.
#[derive(Default)]
struct Tally {
    improper: u64,
    unreadable: u64,
    mismatched: u64,
    collisions: u64,
    verified: u64,
}

impl Tally {
    fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Ok => self.verified += 1,
            Verdict::Failed => {
                self.verified += 1;
                self.mismatched += 1;
            }
            Verdict::Unreadable => self.unreadable += 1,
            Verdict::Collision => {
                self.verified += 1;
                self.collisions += 1;
            }
        }
    }
}

/// Whether a list's name is there to read: standard input, or a directory
/// entry (a dangling symbolic link is one).
fn exists(name: &[u8]) -> bool {
    name == b"-" || std::fs::symlink_metadata(os_name(name)).is_ok()
}

/// A name as a status line shows it: escaped with a leading `\` when it has
/// a newline or carriage return, so one file is one line.
fn shown(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 1);
    if name.iter().any(|&b| b == b'\n' || b == b'\r') {
        out.push(b'\\');
        lines::escape(name, &mut out);
    } else {
        out.extend_from_slice(name);
    }
    out
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Reads a checksum list: the files its lines name, and how many lines
/// were improperly formatted (reported with `--warn`; those that name a
/// file, always).
fn read_list(
    list: &OsStr,
    reader: &mut dyn Read,
    options: &Options,
    out: &mut Output,
) -> io::Result<(Vec<Listed>, u64)> {
    let delimiter = if options.zero { 0 } else { b'\n' };
    let mut reader = BufReader::new(reader);
    let mut listed = Vec::new();
    let mut improper = 0;
    let mut line = Vec::new();
    let mut number = 0u64;
    let list = list.to_string_lossy();
    while reader.read_until(delimiter, &mut line)? > 0 {
        number += 1;
        let text = line.strip_suffix(&[delimiter]).unwrap_or(&line);
        match lines::parse_line(text) {
            Line::Entry(entry) => {
                let entry = lines::resolve(entry, exists);
                listed.push(Listed {
                    name: entry.name,
                    digest: Some(entry.digest),
                });
            }
            Line::Unreadable(name) => {
                improper += 1;
                if !options.status {
                    out.error(format_args!(
                        "{list}: {number}: improperly formatted SHA1 checksum line for {}; \
                         checked for a collision only",
                        String::from_utf8_lossy(&shown(&name))
                    ))?;
                }
                listed.push(Listed { name, digest: None });
            }
            Line::Ignored => {}
            Line::Improper => {
                improper += 1;
                if options.warn {
                    out.error(format_args!(
                        "{list}: {number}: improperly formatted SHA1 checksum line"
                    ))?;
                }
            }
        }
        line.clear();
    }
    Ok((listed, improper))
}

/// Checks every list; the exit status.
pub fn run(options: &Options, builder: Builder, lists: &[&OsStr]) -> ExitCode {
    let mut out = Output::new();
    let mut failed = false;
    let mut collided = false;
    for &list in lists {
        match check_list(options, builder, list, &mut out) {
            Ok((list_failed, list_collided)) => {
                failed |= list_failed;
                collided |= list_collided;
            }
            Err(e) => return output_error(&e),
        }
    }
    if let Err(e) = out.flush() {
        return output_error(&e);
    }
    exit_status(failed, collided)
}

/// Opens a list (`-` is standard input) and reads it.
fn read_named_list(
    list: &OsStr,
    options: &Options,
    out: &mut Output,
) -> io::Result<(Vec<Listed>, u64)> {
    let mut reader: Box<dyn Read> = if list == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(list)?)
    };
    read_list(list, &mut reader, options, out)
}

/// Checks one list: (something failed, a collision was detected). An error
/// is a failed write to standard output.
fn check_list(
    options: &Options,
    builder: Builder,
    list: &OsStr,
    out: &mut Output,
) -> io::Result<(bool, bool)> {
    let (listed, improper) = match read_named_list(list, options, out) {
        Ok(read) => read,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(e),
        Err(e) => {
            out.error(format_args!("{}: {}", list.to_string_lossy(), describe(&e)))?;
            return Ok((true, false));
        }
    };
    let list_name = if list == "-" {
        "standard input".into()
    } else {
        list.to_string_lossy()
    };
    // Even with no checksum to compare, the files named get their collision check.
    let mut tally = verify(options, builder, &listed, out)?;
    if listed.iter().all(|l| l.digest.is_none()) {
        out.error(format_args!(
            "{list_name}: no properly formatted SHA1 checksum lines found"
        ))?;
        return Ok((true, tally.collisions > 0));
    }
    tally.improper = improper;
    if !options.status {
        warn(&tally, out)?;
    }
    let mut failed =
        tally.unreadable > 0 || tally.mismatched > 0 || (options.strict && tally.improper > 0);
    if options.ignore_missing && tally.verified == 0 {
        out.error(format_args!("{list_name}: no file was verified"))?;
        failed = true;
    }
    Ok((failed, tally.collisions > 0))
}

/// Hashes the files a list names and prints a status line for each (as
/// the options allow); the counts. An error is a failed write.
fn verify(
    options: &Options,
    builder: Builder,
    listed: &[Listed],
    out: &mut Output,
) -> io::Result<Tally> {
    let names: Vec<OsString> = listed.iter().map(|l| os_name(&l.name)).collect();
    // Standard input named in a list read from standard input is empty by
    // then; named twice, it is read once, in order.
    let names: Vec<&OsStr> = names.iter().map(OsString::as_os_str).collect();
    let mut tally = Tally::default();
    let mut write_error = None;
    dispatch::hash_all(
        &names,
        options.jobs,
        builder,
        options.git_blob,
        |i, result| {
            let verdict = match verdict(options, &listed[i], &result) {
                Some(verdict) => verdict,
                None => return true,
            };
            tally.count(verdict);
            if options.status || (verdict == Verdict::Ok && options.quiet) {
                return true;
            }
            let written = print_verdict(out, &listed[i].name, verdict, result.err());
            // A failed write stops the run: nobody reads the rest.
            written.map_err(|e| write_error = Some(e)).is_ok()
        },
    );
    match write_error {
        Some(e) => Err(e),
        None => Ok(tally),
    }
}

/// What checking a listed file found; `None` when there is nothing to
/// say: a missing file with `--ignore-missing`, or a file without a
/// collision whose line records no checksum read here.
fn verdict(options: &Options, listed: &Listed, result: &dispatch::Result) -> Option<Verdict> {
    match (result, listed.digest) {
        (Ok(hashed), _) if hashed.outcome.collision().is_some() => Some(Verdict::Collision),
        (_, None) => None,
        (Err(failure), _) if options.ignore_missing && failure.is_missing() => None,
        (Err(_), _) => Some(Verdict::Unreadable),
        (Ok(hashed), Some(digest)) if *hashed.outcome.digest().as_bytes() == digest => {
            Some(Verdict::Ok)
        }
        (Ok(_), _) => Some(Verdict::Failed),
    }
}

/// `<name>: <verdict>`, after the reason on standard error for a file that
/// could not be read.
fn print_verdict(
    out: &mut Output,
    name: &[u8],
    verdict: Verdict,
    failure: Option<Failure>,
) -> io::Result<()> {
    let name = shown(name);
    if let Some(failure) = failure {
        out.error(format_args!(
            "{}: {failure}",
            String::from_utf8_lossy(&name)
        ))?;
    }
    let mut status = name;
    status.extend_from_slice(b": ");
    status.extend_from_slice(verdict.text());
    status.push(b'\n');
    out.write(&status)
}

/// GNU's warnings after a list, one for each count that is not zero.
fn warn(tally: &Tally, out: &mut Output) -> io::Result<()> {
    let warnings = [
        (
            tally.improper,
            "line is improperly formatted",
            "lines are improperly formatted",
        ),
        (
            tally.unreadable,
            "listed file could not be read",
            "listed files could not be read",
        ),
        (
            tally.mismatched,
            "computed checksum did NOT match",
            "computed checksums did NOT match",
        ),
        (
            tally.collisions,
            "listed file is half of a SHA-1 collision",
            "listed files are halves of SHA-1 collisions",
        ),
    ];
    for (count, one, many) in warnings {
        if count > 0 {
            out.error(format_args!("WARNING: {}", plural(count, one, many)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_names_stay_on_one_line() {
        assert_eq!(shown(b"a b"), b"a b");
        assert_eq!(shown(b"c\\d"), b"c\\d");
        assert_eq!(shown(b"a\nb\\"), b"\\a\\nb\\\\");
        assert_eq!(shown(b"e\rf"), b"\\e\\rf");
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "line is", "lines are"), "1 line is");
        assert_eq!(plural(3, "line is", "lines are"), "3 lines are");
    }
}
