//! The parts of sha1dcsum that are text, not I/O: its checksum lines
//! (lines.rs: written as GNU `sha1sum` writes them, read as it reads them,
//! with the `*coll*` lines of collision detection), its command line
//! (options.rs: the table of options and the GNU getopt parser), the help
//! made from that table (help.rs), what a hashing run prints for an input
//! (result.rs) and what `--check` says (check.rs), the exit statuses
//! (exit.rs), and what a command line makes each front end do first
//! (start.rs).
//!
//! The command (src/bin/sha1dcsum) reads, walks and hashes. The npm
//! package's command (`npx sha1dc-wasm`) and the checker page run this same
//! code through the package's WebAssembly module, and `python -m sha1dc`
//! through the Python package's extension module, so a line form or an
//! option is written once. `no_std` with `alloc`: it does no I/O.
#![cfg_attr(not(test), no_std)]

extern crate alloc;

pub mod check;
pub mod exit;
pub mod help;
pub mod lines;
pub mod options;
pub mod result;
pub mod start;
