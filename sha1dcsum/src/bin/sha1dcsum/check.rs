//! `--check`: reads each list, hashes the files it names, and prints what
//! the library's [`ListCheck`] says of them (GNU `sha1sum -c`'s lines, with
//! COLLISION for a file in which a collision is detected).

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::process::ExitCode;

use sha1dc_wasm::Builder;
use sha1dcsum::check::{Found, ListCheck};
use sha1dcsum::options::Options;

use crate::dispatch;
use crate::input::describe;
use crate::os::{os_bytes, os_name};
use crate::output::{Output, exit_status, output_error};

/// Whether a list's name is there to read: standard input, or a directory
/// entry (a dangling symbolic link is one).
fn exists(name: &[u8]) -> bool {
    name == b"-" || std::fs::symlink_metadata(os_name(name)).is_ok()
}

/// Checks every list; the exit status.
pub fn run(options: &Options, builder: Builder, lists: &[OsString]) -> ExitCode {
    let mut out = Output::new();
    let mut failed = false;
    let mut collided = false;
    for list in lists {
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

/// Feeds `check` the lines of a list (`-` is standard input; NUL-terminated
/// with `-z`), printing what it says of them as they come.
fn read_list(list: &OsStr, zero: bool, check: &mut ListCheck, out: &mut Output) -> io::Result<()> {
    let reader: Box<dyn Read> = if list == "-" {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(list)?)
    };
    let delimiter = if zero { 0 } else { b'\n' };
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    while reader.read_until(delimiter, &mut line)? > 0 {
        let text = line.strip_suffix(&[delimiter]).unwrap_or(&line);
        check.line(text, exists);
        out.say(check.said())?;
        line.clear();
    }
    Ok(())
}

/// Checks one list: (something failed, a collision was detected). An error
/// is a failed write to standard output.
fn check_list(
    options: &Options,
    builder: Builder,
    list: &OsStr,
    out: &mut Output,
) -> io::Result<(bool, bool)> {
    let mut check = ListCheck::new(options, os_bytes(list));
    match read_list(list, options.zero, &mut check, out) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(e),
        Err(e) => {
            let message = ListCheck::unreadable(os_bytes(list), &describe(&e));
            out.error(format_args!("{message}"))?;
            return Ok((true, false));
        }
    }
    // Even with no checksum to compare, the files named get their collision check.
    let names: Vec<OsString> = check.listed().iter().map(|l| os_name(&l.name)).collect();
    // Standard input named in a list read from standard input is empty by
    // then; named twice, it is read once, in order.
    let names: Vec<&OsStr> = names.iter().map(OsString::as_os_str).collect();
    let mut write_error = None;
    dispatch::hash_all(
        &names,
        options.jobs,
        builder,
        options.git_blob,
        |i, result| {
            let reason;
            let found = match &result {
                Ok(hashed) => Found::hashed(&hashed.outcome),
                Err(failure) => {
                    reason = failure.to_string();
                    Found::Failed {
                        reason: &reason,
                        missing: failure.is_missing(),
                    }
                }
            };
            check.found(i, found);
            // A failed write stops the run: nobody reads the rest.
            let written = out.say(check.said());
            written.map_err(|e| write_error = Some(e)).is_ok()
        },
    );
    if let Some(e) = write_error {
        return Err(e);
    }
    let done = check.finish();
    out.say(check.said())?;
    Ok(done)
}
