//! Integration tests of the `sha1dcsum` command: output format, options and
//! exit statuses, against the reference results in tests/data. One test
//! binary with a module for each concern. The repository's test data and
//! known answers (tests/data, tests/common) are the library's, shared.
// The command is native only.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../../tests/common/mod.rs"]
mod common;
mod support;
mod tempdir;
mod tools;

mod batch;
mod check;
mod docs;
mod failures;
mod formats;
mod hashing;
mod options;
#[cfg(unix)]
mod recursive;
