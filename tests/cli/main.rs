//! Integration tests of the `sha1dcsum` command: output format, options and
//! exit statuses, against the reference results in tests/data. One test
//! binary (one link of the library) with a module for each concern.
// The command is native only.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/mod.rs"]
mod common;
mod support;

mod batch;
mod check;
mod docs;
mod failures;
mod formats;
mod hashing;
mod options;
#[cfg(unix)]
mod recursive;
