//! The inputs of a hashing run, in order: the arguments, and with
//! `--recursive` the regular files below each directory argument.
//!
//! A directory's entries come in the byte order of their names (a stable
//! order whatever the file system lists first), a subdirectory's files
//! where its name sorts, each named by its path joined to the argument.
//! Symbolic links met inside a directory are skipped, as are other files
//! that are not regular (a FIFO would block the run): only a link named on
//! the command line is followed, as `grep -r` does. Directories are listed
//! one at a time, so memory grows with the depth of the tree, not its size.

use std::ffi::OsString;
use std::fs::{self, FileType};
use std::io;
use std::path::PathBuf;

use crate::os::os_bytes;

/// One input: a name to hash, or a directory that could not be listed.
pub enum Input {
    Name(OsString),
    Unlisted(OsString, io::Error),
}

/// A directory being listed: its path and the entries not yet visited,
/// last first.
struct Listing {
    dir: PathBuf,
    entries: Vec<(OsString, FileType)>,
}

pub struct Walk<'a> {
    args: std::slice::Iter<'a, OsString>,
    recursive: bool,
    /// The directories being listed, outermost first.
    stack: Vec<Listing>,
}

impl Walk<'_> {
    pub fn new(args: &[OsString], recursive: bool) -> Walk<'_> {
        Walk {
            args: args.iter(),
            recursive,
            stack: Vec::new(),
        }
    }

    /// Lists `dir` to visit its entries next.
    fn enter(&mut self, dir: PathBuf) -> io::Result<()> {
        let mut entries = Vec::new();
        for entry in fs::read_dir(&dir)? {
            let entry = entry?;
            // The entry's own type: a symbolic link is not followed.
            entries.push((entry.file_name(), entry.file_type()?));
        }
        entries.sort_by(|(a, _), (b, _)| os_bytes(b).cmp(os_bytes(a)));
        self.stack.push(Listing { dir, entries });
        Ok(())
    }

    /// The next entry of the innermost directory that has one, skipping
    /// what is not hashed; `None` when the directories are done.
    fn next_entry(&mut self) -> Option<Input> {
        while let Some(listing) = self.stack.last_mut() {
            let (name, kind) = match listing.entries.pop() {
                Some(entry) => entry,
                None => {
                    self.stack.pop();
                    continue;
                }
            };
            let path = listing.dir.join(name);
            if kind.is_dir() {
                if let Err(e) = self.enter(path.clone()) {
                    return Some(Input::Unlisted(path.into_os_string(), e));
                }
            } else if kind.is_file() {
                return Some(Input::Name(path.into_os_string()));
            }
        }
        None
    }
}

impl Iterator for Walk<'_> {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            if let Some(input) = self.next_entry() {
                return Some(input);
            }
            let arg = self.args.next()?;
            // `-` is standard input, never a directory. Without -r, no
            // `stat` here: dispatch.rs's own is enough.
            let is_dir = || arg != "-" && fs::metadata(arg).map_or(false, |m| m.is_dir());
            if !(self.recursive && is_dir()) {
                return Some(Input::Name(arg.clone()));
            }
            if let Err(e) = self.enter(arg.into()) {
                return Some(Input::Unlisted(arg.clone(), e));
            }
        }
    }
}
