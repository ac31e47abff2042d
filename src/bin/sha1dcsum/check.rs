//! `--check`: verify the files a checksum list names, as GNU `sha1sum -c`
//! does, with one more verdict: COLLISION, for a file in which a collision
//! attack is detected now, whatever its line records (never OK).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::process::ExitCode;

use sha1dc_wasm::Builder;

use crate::args::Options;
use crate::batch;
use crate::input::{Failure, describe};
use crate::lines::{self, Entry};
use crate::output::{Output, exit_status, output_error};

/// Counts over one list.
#[derive(Default)]
struct Tally {
    improper: u64,
    unreadable: u64,
    mismatched: u64,
    collisions: u64,
    verified: u64,
}

/// The name from a checksum line as a path.
fn os_name(name: &[u8]) -> OsString {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        OsString::from_vec(name.to_vec())
    }
    #[cfg(not(unix))]
    {
        OsString::from(String::from_utf8_lossy(name).into_owned())
    }
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

/// Reads a checksum list: the entries, with the numbers of their lines, and
/// how many lines were improperly formatted (each reported with `--warn`).
fn read_list(
    list: &OsStr,
    reader: &mut dyn Read,
    options: &Options,
    out: &mut Output,
) -> io::Result<(Vec<Entry>, u64)> {
    let delimiter = if options.zero { 0 } else { b'\n' };
    let mut reader = BufReader::new(reader);
    let mut entries = Vec::new();
    let mut improper = 0;
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if reader.read_until(delimiter, &mut line)? == 0 {
            break;
        }
        number += 1;
        let text = line.strip_suffix(&[delimiter]).unwrap_or(&line);
        match lines::parse_line(text) {
            Some(entry) => entries.push(entry),
            None => {
                improper += 1;
                if options.warn {
                    out.error(format_args!(
                        "{}: {number}: improperly formatted SHA1 checksum line",
                        list.to_string_lossy()
                    ))?;
                }
            }
        }
    }
    Ok((entries, improper))
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

/// Opens a list (`-` is standard input) and reads its entries.
fn read_named_list(
    list: &OsStr,
    options: &Options,
    out: &mut Output,
) -> io::Result<(Vec<Entry>, u64)> {
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
    let (entries, improper) = match read_named_list(list, options, out) {
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
    if entries.is_empty() {
        out.error(format_args!(
            "{list_name}: no properly formatted SHA1 checksum lines found"
        ))?;
        return Ok((true, false));
    }
    let mut tally = verify(options, builder, &entries, out)?;
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

/// Hashes the files the entries name and prints a status line for each
/// (as the options allow); the counts. An error is a failed write.
fn verify(
    options: &Options,
    builder: Builder,
    entries: &[Entry],
    out: &mut Output,
) -> io::Result<Tally> {
    let names: Vec<OsString> = entries.iter().map(|e| os_name(&e.name)).collect();
    // Standard input named in a list read from standard input is empty by
    // then; named twice, it is read once, in order.
    let names: Vec<&OsStr> = names.iter().map(OsString::as_os_str).collect();
    let jobs = crate::run::jobs(options, &names);
    let mut tally = Tally::default();
    let mut write_error = None;
    let mut status = Vec::new();
    batch::hash_all(&names, jobs, builder, options.git_blob, |i, result| {
        let entry = &entries[i];
        if let Err(failure) = &result
            && !options.status
            && !(options.ignore_missing && failure.is_missing())
            && let Err(e) = report(out, &entry.name, failure)
        {
            write_error = Some(e);
            return false;
        }
        let Some(verdict) = verdict(options, entry, &result, &mut tally) else {
            return true;
        };
        status.clear();
        status.extend_from_slice(&shown(&entry.name));
        status.extend_from_slice(b": ");
        status.extend_from_slice(verdict);
        status.push(b'\n');
        // A failed write stops the run: nobody reads the rest.
        out.write(&status)
            .map_err(|e| write_error = Some(e))
            .is_ok()
    });
    match write_error {
        Some(e) => Err(e),
        None => Ok(tally),
    }
}

/// What the status line says of a listed file, counted in `tally`; `None`
/// when nothing is to be printed.
fn verdict(
    options: &Options,
    entry: &Entry,
    result: &batch::Result,
    tally: &mut Tally,
) -> Option<&'static [u8]> {
    let verdict: &[u8] = match result {
        Err(failure) if options.ignore_missing && failure.is_missing() => return None,
        Err(_) => {
            tally.unreadable += 1;
            b"FAILED open or read"
        }
        Ok(hashed) => {
            tally.verified += 1;
            if hashed.outcome.collision().is_some() {
                tally.collisions += 1;
                b"COLLISION"
            } else if *hashed.outcome.digest().as_bytes() == entry.digest {
                if options.quiet {
                    return None;
                }
                b"OK"
            } else {
                tally.mismatched += 1;
                b"FAILED"
            }
        }
    };
    (!options.status).then_some(verdict)
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

/// The reason a listed file could not be read, on standard error.
fn report(out: &mut Output, name: &[u8], failure: &Failure) -> io::Result<()> {
    out.error(format_args!(
        "{}: {failure}",
        String::from_utf8_lossy(&shown(name))
    ))
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
