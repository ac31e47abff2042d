//! The git object header, `<type> <len>\0`, and the four kinds of object:
//! a leaf, shared by the batch form (src/batch.rs) and the public
//! [`git`](crate::git) module.

use core::fmt;

/// The four kinds of git object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    /// File content.
    Blob,
    /// A directory listing.
    Tree,
    /// A commit.
    Commit,
    /// An annotated tag.
    Tag,
}

impl ObjectKind {
    /// The name git writes in the header: `blob`, `tree`, `commit` or `tag`.
    pub const fn name(self) -> &'static str {
        match self {
            ObjectKind::Blob => "blob",
            ObjectKind::Tree => "tree",
            ObjectKind::Commit => "commit",
            ObjectKind::Tag => "tag",
        }
    }
}

impl fmt::Display for ObjectKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// `<type> <len>\0` in a stack buffer (at most `commit ` + 20 digits + NUL).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub(crate) bytes: [u8; 28],
    pub(crate) len: u8,
}

impl Header {
    /// No header (a plain message in a batch, src/batch.rs).
    pub(crate) const EMPTY: Header = Header {
        bytes: [0; 28],
        len: 0,
    };

    pub(crate) fn new(kind: ObjectKind, content_len: u64) -> Header {
        let mut bytes = [0u8; 28];
        let name = kind.name().as_bytes();
        bytes[..name.len()].copy_from_slice(name);
        let mut at = name.len();
        bytes[at] = b' ';
        at += 1;
        let mut digits = [0u8; 20];
        let mut n = content_len;
        let mut count = 0;
        loop {
            digits[count] = b'0' + (n % 10) as u8;
            count += 1;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for d in digits[..count].iter().rev() {
            bytes[at] = *d;
            at += 1;
        }
        bytes[at] = 0;
        Header {
            bytes,
            len: (at + 1) as u8,
        }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        for (kind, len, want) in [
            (ObjectKind::Blob, 0, &b"blob 0\0"[..]),
            (ObjectKind::Tree, 10, b"tree 10\0"),
            (
                ObjectKind::Commit,
                u64::MAX,
                b"commit 18446744073709551615\0",
            ),
            (ObjectKind::Tag, 1234567, b"tag 1234567\0"),
        ] {
            assert_eq!(Header::new(kind, len).as_bytes(), want);
        }
    }
}
