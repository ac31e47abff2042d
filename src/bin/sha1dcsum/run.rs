//! A run: the hasher the options ask for, the number of threads, and the
//! loop that hashes every input and prints its line in argument order.

use std::ffi::{OsStr, OsString};
use std::process::ExitCode;

use sha1dc_wasm::{Builder, available_backends};

use crate::args::Options;
use crate::json::json_line;
use crate::lines::{self, Style};
use crate::output::{EXIT_USAGE, Output, PROGRAM, exit_status, output_error, print_and_exit};
use crate::{batch, check};

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
        (Some(name), _) => ("backend", name),
        (None, Some(name)) => (BACKEND_VARIABLE, name),
        (None, None) => return Ok(builder),
    };
    // Backend names are ASCII: a name that is not UTF-8 is simply unknown.
    let why = match name.to_str().map(|n| builder.backend(n)) {
        Some(Ok(chosen)) => return Ok(chosen),
        Some(Err(e)) if e.is_unsupported() => "is not supported by this CPU",
        _ => "is unknown",
    };
    eprintln!(
        "{PROGRAM}: {source} '{}' {why}; available backends: {}",
        name.to_string_lossy(),
        available_backends().collect::<Vec<_>>().join(", ")
    );
    Err(ExitCode::from(EXIT_USAGE))
}

/// Threads to hash on: `-j`, else one per CPU. Standard input named twice
/// or more is read by one thread, in order (the first `-` gets the data).
pub fn jobs(options: &Options, names: &[&OsStr]) -> usize {
    if names.iter().filter(|n| **n == "-").count() > 1 {
        return 1;
    }
    options.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(1)
    })
}

pub fn run(options: Options) -> ExitCode {
    if options.list_backends {
        let names: String = available_backends()
            .map(|name| format!("{name}\n"))
            .collect();
        return print_and_exit(&names);
    }
    let builder = match builder(&options) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let stdin_name = OsString::from("-");
    let names: Vec<&OsStr> = if options.files.is_empty() {
        vec![stdin_name.as_os_str()]
    } else {
        options.files.iter().map(OsString::as_os_str).collect()
    };
    if options.check {
        check::run(&options, builder, &names)
    } else {
        hash(&options, builder, &names)
    }
}

/// Hashes every input and prints its line, or its failure on standard
/// error, in order; the exit status.
fn hash(options: &Options, builder: Builder, names: &[&OsStr]) -> ExitCode {
    let style = if options.tag {
        Style::Tag
    } else if options.binary == Some(true) {
        Style::Binary
    } else {
        Style::Text
    };
    let mut out = Output::new();
    let (mut failed, mut collided) = (false, false);
    let mut write_error = None;
    let mut line = Vec::with_capacity(256);
    let jobs = jobs(options, names);
    batch::hash_all(names, jobs, builder, options.git_blob, |i, result| {
        let name = names[i];
        let written = match result {
            Ok(hashed) => {
                let flagged = hashed.outcome.collision().is_some();
                collided |= flagged;
                line.clear();
                if options.json {
                    line.extend_from_slice(json_line(name, &hashed).as_bytes());
                } else {
                    let digest = hashed.outcome.digest();
                    let name = name.as_encoded_bytes();
                    lines::write_line(
                        &mut line,
                        digest.as_bytes(),
                        name,
                        flagged,
                        style,
                        options.zero,
                    );
                }
                out.write(&line)
            }
            Err(failure) => {
                failed = true;
                out.error(format_args!("{}: {failure}", name.to_string_lossy()))
            }
        };
        // A failed write stops the run: nobody reads the rest.
        written.map_err(|e| write_error = Some(e)).is_ok()
    });
    if let Some(e) = write_error.or_else(|| out.flush().err()) {
        return output_error(&e);
    }
    exit_status(failed, collided)
}
