//! A run: the hasher the options ask for, the number of threads, and the
//! loop that hashes every input and prints its line in argument order.

use std::ffi::{OsStr, OsString};
use std::io;
use std::process::ExitCode;

use sha1dc_wasm::{Builder, available_backends};
use sha1dcsum::exit;
use sha1dcsum::options::Options;
use sha1dcsum::result::push_outcome;

use crate::input::describe;
use crate::os::os_bytes;
use crate::output::{Output, PROGRAM, exit_status, output_error};
use crate::walk::{Input, Walk};
use crate::{check, dispatch};

/// The environment variable that picks the default backend (read here only:
/// the library never reads the environment).
const BACKEND_VARIABLE: &str = "SHA1DC_BACKEND";

/// The hasher options the command line gives, backend included.
fn builder(options: &Options) -> Result<Builder, ExitCode> {
    let builder = Builder::default()
        .reduced_round(options.reduced_round)
        .safe_hash(!options.no_safe_hash);
    let env_backend = std::env::var_os(BACKEND_VARIABLE).filter(|v| !v.is_empty());
    let (source, name) = match (&options.backend, &env_backend) {
        (Some(name), _) => ("backend", &name[..]),
        (None, Some(name)) => (BACKEND_VARIABLE, os_bytes(name)),
        (None, None) => return Ok(builder),
    };
    // Backend names are ASCII: a name that is not UTF-8 is simply unknown.
    let why = match std::str::from_utf8(name).map(|n| builder.backend(n)) {
        Ok(Ok(chosen)) => return Ok(chosen),
        Ok(Err(e)) if e.is_unsupported() => "is not supported by this CPU",
        _ => "is unknown",
    };
    eprintln!(
        "{PROGRAM}: {source} '{}' {why}; available backends: {}",
        String::from_utf8_lossy(name),
        available_backends().collect::<Vec<_>>().join(", ")
    );
    Err(ExitCode::from(exit::USAGE))
}

/// The most inputs of a walked tree hashed in one go: a tree is walked
/// while it is hashed, a part at a time, so its names never pile up in
/// memory. (The arguments, in memory already, are one part: each part's
/// end waits for its slowest input.)
const TREE_PART: usize = 4096;

/// Runs the command: `files` are the FILE arguments.
pub fn run(options: Options, mut files: Vec<OsString>) -> ExitCode {
    let builder = match builder(&options) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if files.is_empty() {
        files.push("-".into());
    }
    if options.check {
        return check::run(&options, builder, &files);
    }
    let mut printer = Printer::new(&options);
    let part = if options.recursive {
        TREE_PART
    } else {
        usize::MAX
    };
    let inputs = Walk::new(&files, options.recursive);
    let hashed = hash_inputs(&mut printer, builder, inputs, part);
    if let Err(e) = hashed.and_then(|()| printer.out.flush()) {
        return output_error(&e);
    }
    exit_status(printer.failed, printer.collided)
}

/// Hashes the inputs `part` at a time, printing each line in order, and a
/// directory that could not be listed in its place. An error is a failed
/// write to standard output.
fn hash_inputs(
    printer: &mut Printer,
    builder: Builder,
    inputs: Walk,
    part_size: usize,
) -> io::Result<()> {
    let mut part: Vec<OsString> = Vec::new();
    for input in inputs {
        match input {
            Input::Name(name) => part.push(name),
            Input::Unlisted(dir, e) => {
                printer.hash_part(builder, &part)?;
                part.clear();
                printer.failed = true;
                let (dir, why) = (dir.to_string_lossy(), describe(&e));
                printer.out.error(format_args!("{dir}: {why}"))?;
            }
        }
        if part.len() == part_size {
            printer.hash_part(builder, &part)?;
            part.clear();
        }
    }
    printer.hash_part(builder, &part)
}

/// The printing side of a hashing run: each input's line, in order, and
/// what the exit status will say.
struct Printer<'a> {
    options: &'a Options,
    out: Output,
    failed: bool,
    collided: bool,
    line: Vec<u8>,
}

impl Printer<'_> {
    fn new(options: &Options) -> Printer<'_> {
        Printer {
            options,
            out: Output::new(),
            failed: false,
            collided: false,
            line: Vec::with_capacity(256),
        }
    }

    /// Hashes `names` on the run's threads and prints each result. An error
    /// is a failed write, which stops the run: nobody reads the rest.
    fn hash_part(&mut self, builder: Builder, names: &[OsString]) -> io::Result<()> {
        let names: Vec<&OsStr> = names.iter().map(OsString::as_os_str).collect();
        let (jobs, git_blob) = (self.options.jobs, self.options.git_blob);
        let mut written = Ok(());
        dispatch::hash_all(&names, jobs, builder, git_blob, |i, result| {
            written = self.print(names[i], result);
            written.is_ok()
        });
        written
    }

    /// Prints an input's line, or its failure on standard error.
    fn print(&mut self, name: &OsStr, result: dispatch::Result) -> io::Result<()> {
        let hashed = match result {
            Ok(hashed) => hashed,
            Err(failure) => {
                self.failed = true;
                return self
                    .out
                    .error(format_args!("{}: {failure}", name.to_string_lossy()));
            }
        };
        self.collided |= hashed.outcome.collision().is_some();
        let offset = hashed.offset.unwrap_or_default();
        self.line.clear();
        push_outcome(
            &mut self.line,
            self.options,
            os_bytes(name),
            &hashed.outcome,
            offset,
        );
        self.out.write(&self.line)
    }
}
