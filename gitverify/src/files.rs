//! The files a verification reads: the system's ([`SystemFiles`]), or a
//! front end's own where there is no file system to call (a WebAssembly
//! instance, whose JavaScript reads the files). Which paths name what,
//! and how each is verified, is decided once, above this.

use std::io;
use std::path::{Path, PathBuf};

use crate::pack::ByteSource;

/// What a path names, links followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// Anything else: a FIFO, a device, a socket.
    Other,
}

/// A file system to read from.
pub trait Files: Sync {
    /// What `path` names (links followed); an error where nothing is.
    fn kind(&self, path: &Path) -> io::Result<FileKind>;
    /// The paths of the entries of directory `path`, in any order.
    fn list(&self, path: &Path) -> io::Result<Vec<PathBuf>>;
    /// Regular file `path`, read by position.
    fn open(&self, path: &Path) -> io::Result<Box<dyn ByteSource>>;
    /// `path` absolute, links resolved.
    fn canonical(&self, path: &Path) -> io::Result<PathBuf>;

    /// Whether `path` is a regular file.
    fn is_file(&self, path: &Path) -> bool {
        matches!(self.kind(path), Ok(FileKind::File))
    }
    /// Whether `path` is a directory.
    fn is_dir(&self, path: &Path) -> bool {
        matches!(self.kind(path), Ok(FileKind::Dir))
    }
    /// Whether `path` names anything.
    fn exists(&self, path: &Path) -> bool {
        self.kind(path).is_ok()
    }
}

/// Regular file `path` read whole from `files`: a FIFO or device where a
/// pack or object should be is an error, not a read that never ends.
pub(crate) fn read(files: &dyn Files, path: &Path) -> io::Result<Vec<u8>> {
    let source = open_regular(files, path)?;
    let len = usize::try_from(source.len()).map_err(|_| io::ErrorKind::OutOfMemory)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len)
        .map_err(|_| io::ErrorKind::OutOfMemory)?;
    bytes.resize(len, 0);
    source.read_at(0, &mut bytes)?;
    Ok(bytes)
}

/// [`read`] as text.
pub(crate) fn read_to_string(files: &dyn Files, path: &Path) -> io::Result<String> {
    String::from_utf8(read(files, path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Regular file `path` opened (not a FIFO or device).
pub(crate) fn open_regular(files: &dyn Files, path: &Path) -> io::Result<Box<dyn ByteSource>> {
    if files.kind(path)? != FileKind::File {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    files.open(path)
}

/// The system's files.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemFiles;

impl Files for SystemFiles {
    fn kind(&self, path: &Path) -> io::Result<FileKind> {
        let meta = std::fs::metadata(path)?;
        Ok(if meta.is_file() {
            FileKind::File
        } else if meta.is_dir() {
            FileKind::Dir
        } else {
            FileKind::Other
        })
    }

    fn list(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn ByteSource>> {
        Ok(Box::new(std::fs::File::open(path)?))
    }

    fn canonical(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
}
