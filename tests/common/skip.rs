//! A check this machine cannot run (a CPU without an instruction set the
//! check needs, a program that is not installed): under CI (`CI` set, not
//! empty) it fails, naming what is missing, since a check that cannot run
//! there is no check; elsewhere the run says `SKIPPED: ...` and the check
//! returns. Plain std: the library's unit tests include this file too.
//!
//! A runtime check, not an `#[ignore]` from the build script as the
//! sha1dcsum crate's programs are (its tests/cli/tools.rs): the CPU is the
//! one the test binary runs on (an emulator's, another machine's), which a
//! build script cannot see.
#![allow(dead_code)]

use std::io::Write;

/// Whether CI runs the tests (`CI` set and not empty).
pub fn in_ci() -> bool {
    std::env::var_os("CI").map_or(false, |v| !v.is_empty())
}

/// Fails under CI with `reason` (what this machine lacks and what is left
/// untested); elsewhere writes `SKIPPED: reason` to the terminal and
/// returns, for the caller to skip the check.
///
/// The line goes to stderr itself, past libtest's capture of `print!`
/// (which would show it only for a failing test), so a passing run shows
/// each skip between the test names.
pub fn skip_or_fail(reason: &str) {
    assert!(!in_ci(), "{reason} (CI is set: every check must run here)");
    let _ = writeln!(std::io::stderr(), "SKIPPED: {reason}");
}
