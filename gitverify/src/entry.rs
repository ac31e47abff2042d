//! A pack entry's header: its type, its declared (inflated) size and, for a
//! delta, where its base is. Parsed from the bytes at the entry's offset.

use sha1dc_wasm::Digest;
use sha1dc_wasm::git::ObjectKind;

/// What an entry stores: a whole object, or a delta against a base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// A whole object of this kind.
    Whole(ObjectKind),
    /// OFS_DELTA: a delta against the entry at this (earlier) offset.
    OfsDelta(u64),
    /// REF_DELTA: a delta against the object with this id.
    RefDelta(Digest),
}

impl Stored {
    /// What is stored, without where the base is.
    pub fn kind(&self) -> EntryKind {
        match self {
            Stored::Whole(kind) => EntryKind::Whole(*kind),
            Stored::OfsDelta(_) => EntryKind::OfsDelta,
            Stored::RefDelta(_) => EntryKind::RefDelta,
        }
    }
}

/// What an entry stores, as the layout keeps it for every entry (one
/// byte; where a delta's base is, the layout links separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A whole object of this kind.
    Whole(ObjectKind),
    /// A delta against an earlier entry.
    OfsDelta,
    /// A delta against an object named by id.
    RefDelta,
    /// An entry whose header parsed but whose base could not be placed
    /// (its damage is reported): nothing is made of it.
    Damaged,
}

impl EntryKind {
    /// The kind of a whole object.
    pub fn whole(self) -> Option<ObjectKind> {
        match self {
            EntryKind::Whole(kind) => Some(kind),
            _ => None,
        }
    }
}

/// A parsed entry header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryHeader {
    /// What the entry stores.
    pub stored: Stored,
    /// The inflated size of its data: the object's, or the delta's.
    pub size: u64,
    /// Bytes of the header (the zlib stream starts after them).
    pub len: usize,
}

/// Why an entry header could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// The pack ends within the header.
    Truncated,
    /// Type 0 or 5 (reserved), or a type this reader does not know.
    UnknownType(u8),
    /// A size that does not fit in 64 bits.
    SizeOverflow,
    /// An OFS_DELTA whose base would be at or before the pack's start.
    BadBaseOffset(u64),
}

impl std::fmt::Display for HeaderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderError::Truncated => f.write_str("the pack ends within the entry's header"),
            HeaderError::UnknownType(t) => write!(f, "unknown object type {t}"),
            HeaderError::SizeOverflow => f.write_str("the entry's size does not fit in 64 bits"),
            HeaderError::BadBaseOffset(d) => {
                write!(f, "OFS_DELTA base {d} bytes back is outside the pack")
            }
        }
    }
}

/// Parses the entry header at `offset`; `bytes` starts there.
pub fn parse(bytes: &[u8], offset: u64) -> Result<EntryHeader, HeaderError> {
    let mut at = 0;
    let mut next = || {
        let b = *bytes.get(at).ok_or(HeaderError::Truncated)?;
        at += 1;
        Ok::<u8, HeaderError>(b)
    };
    let first = next()?;
    let type_id = (first >> 4) & 7;
    let mut size = u64::from(first & 15);
    let mut shift = 4;
    let mut b = first;
    while b & 0x80 != 0 {
        b = next()?;
        if shift > 63 || (shift > 57 && u64::from(b & 0x7f) >> (64 - shift) != 0) {
            return Err(HeaderError::SizeOverflow);
        }
        size |= u64::from(b & 0x7f) << shift;
        shift += 7;
    }
    let stored = match type_id {
        1 => Stored::Whole(ObjectKind::Commit),
        2 => Stored::Whole(ObjectKind::Tree),
        3 => Stored::Whole(ObjectKind::Blob),
        4 => Stored::Whole(ObjectKind::Tag),
        6 => {
            // Big-endian base-128 with a bias of one per continuation byte,
            // so that every distance has one encoding.
            let mut b = next()?;
            let mut back = u64::from(b & 0x7f);
            while b & 0x80 != 0 {
                b = next()?;
                if back >= 1 << 56 {
                    return Err(HeaderError::BadBaseOffset(u64::MAX));
                }
                back = ((back + 1) << 7) | u64::from(b & 0x7f);
            }
            if back == 0 || back > offset.saturating_sub(12) {
                return Err(HeaderError::BadBaseOffset(back));
            }
            Stored::OfsDelta(offset - back)
        }
        7 => {
            let id = bytes.get(at..at + 20).ok_or(HeaderError::Truncated)?;
            at += 20;
            Stored::RefDelta(Digest::try_from(id).expect("20 bytes"))
        }
        t => return Err(HeaderError::UnknownType(t)),
    };
    Ok(EntryHeader {
        stored,
        size,
        len: at,
    })
}

/// The kind named in a loose object's header.
pub fn kind_by_name(name: &[u8]) -> Option<ObjectKind> {
    match name {
        b"commit" => Some(ObjectKind::Commit),
        b"tree" => Some(ObjectKind::Tree),
        b"blob" => Some(ObjectKind::Blob),
        b"tag" => Some(ObjectKind::Tag),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers() {
        // blob of 5 bytes
        let h = parse(&[0x35], 12).unwrap();
        assert_eq!(
            (h.stored, h.size, h.len),
            (Stored::Whole(ObjectKind::Blob), 5, 1)
        );
        // commit of 0x123 bytes: low nibble 3, then 0x12
        let h = parse(&[0x93, 0x12], 12).unwrap();
        assert_eq!(
            (h.stored, h.size),
            (Stored::Whole(ObjectKind::Commit), 0x123)
        );
        // OFS_DELTA of 7 bytes, base 0x80 + 1 bytes back (two-byte form)
        let h = parse(&[0x67, 0x80, 0x01], 1000).unwrap();
        assert_eq!(h.stored, Stored::OfsDelta(1000 - 129));
        assert_eq!(parse(&[0x67, 0x05], 14), Err(HeaderError::BadBaseOffset(5)));
        assert_eq!(parse(&[0x05], 12), Err(HeaderError::UnknownType(0)));
        assert_eq!(parse(&[0x55], 12), Err(HeaderError::UnknownType(5)));
        assert_eq!(parse(&[0xb5], 12), Err(HeaderError::Truncated));
        let huge = [
            0xbf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
        ];
        assert_eq!(parse(&huge, 12), Err(HeaderError::SizeOverflow));
    }
}
