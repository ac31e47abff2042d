//! `sha1dcsum`: print or check SHA-1 checksums, with collision detection.
//!
//! Prints `<hex>  <name>` for each input, or `<hex> *coll* <name>` when a
//! collision attack was detected in it, like the original C tool; otherwise
//! it follows GNU `sha1sum` (escaped names, `-z`, `--tag`, `-b`/`-t`, and
//! `-c` to verify a list). Inputs are hashed on several threads (`-j`), each
//! streaming through one reusable buffer, or, for small files, reading a
//! group of them whole and hashing them at once (batch.rs), with the output
//! in argument order.
//!
//! The modules, in the order a run goes through them: args.rs (the option
//! table and the parser; help.rs prints it), run.rs (the run loop), batch.rs
//! and jobs.rs (what runs on which thread), input.rs (reading and hashing
//! one input), lines.rs and json.rs (the lines printed), check.rs (`-c`),
//! output.rs (standard output, errors, exit statuses).

mod args;
mod batch;
mod check;
mod help;
mod input;
mod jobs;
mod json;
mod lines;
mod output;
mod run;

// The tests' temporary directories, shared with the integration tests.
#[cfg(test)]
#[path = "../../../tests/common/tempdir.rs"]
mod tempdir;

use std::process::ExitCode;

use args::{Command, parse_args};
use output::{PROGRAM, print_and_exit, usage_error};

fn main() -> ExitCode {
    match parse_args(std::env::args_os().skip(1)) {
        Command::Run(options) => run::run(options),
        Command::Help => print_and_exit(&help::help_text()),
        Command::Version => print_and_exit(&format!("{PROGRAM} {}\n", env!("CARGO_PKG_VERSION"))),
        Command::Usage(reason) => usage_error(&reason),
    }
}
