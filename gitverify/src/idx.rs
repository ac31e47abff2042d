//! A pack index (`.idx`, version 2, or the original version 1): for each
//! object of the pack its id, its entry's offset and (version 2) the
//! CRC32 of the entry's bytes. Checked here for its own consistency; the
//! pack is then checked against it (src/pack.rs).

use sha1dc_wasm::{Digest, Hasher};

use crate::error::IndexError;

/// One object the index lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The object id.
    pub id: Digest,
    /// Where its entry starts in the pack.
    pub offset: u64,
    /// The CRC32 of the entry's bytes, header included (version 2 only).
    pub crc: Option<u32>,
}

/// A parsed, self-consistent pack index.
#[derive(Clone, Debug)]
pub struct Index {
    /// In id order, as in the file.
    pub entries: Vec<IndexEntry>,
    /// The checksum of the pack this index is for (its trailer).
    pub pack_checksum: Digest,
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn id_at(b: &[u8], at: usize) -> Digest {
    Digest::try_from(&b[at..at + 20]).expect("20 bytes")
}

/// The plain SHA-1 of `data` (a file's checksum: no collision detection,
/// which would only slow it).
pub fn checksum(data: &[u8]) -> Digest {
    let mut hasher = Hasher::builder().detect_collisions(false).build();
    hasher.update(data);
    hasher.finalize().sha1()
}

/// An index's bytes, with where its fan-out table starts (after the
/// version 2 header) and how many objects the table counts.
struct Raw<'b> {
    b: &'b [u8],
    fanout_at: usize,
    count: usize,
}

impl<'b> Raw<'b> {
    /// The version, the size, the checksum and the fan-out table's order
    /// checked.
    fn new(b: &'b [u8]) -> Result<Self, IndexError> {
        let too_short = IndexError::TooShort { len: b.len() };
        if b.len() < 8 {
            return Err(too_short);
        }
        let fanout_at = if b[..4] == [0xff, b't', b'O', b'c'] {
            match be32(b, 4) {
                2 => 8,
                v => return Err(IndexError::Version(v)),
            }
        } else {
            0
        };
        if b.len() < fanout_at + 1024 + 40 {
            return Err(too_short);
        }
        let body = b.len() - 20;
        if checksum(&b[..body]).as_ref() != &b[body..] {
            return Err(IndexError::Checksum);
        }
        let mut last = 0;
        for i in 0..256 {
            let n = be32(b, fanout_at + 4 * i);
            if n < last {
                return Err(IndexError::FanoutDecreases(i));
            }
            last = n;
        }
        Ok(Raw {
            b,
            fanout_at,
            count: last as usize,
        })
    }

    /// The objects with ids below first byte `first`, by the fan-out table.
    fn below(&self, first: usize) -> usize {
        match first {
            0 => 0,
            _ => be32(self.b, self.fanout_at + 4 * (first - 1)) as usize,
        }
    }

    fn tables(&self) -> usize {
        self.fanout_at + 1024
    }

    /// Version 2: ids, CRC32s, offsets, large offsets, each a table.
    fn entries_v2(&self) -> Result<Vec<IndexEntry>, IndexError> {
        let (b, n) = (self.b, self.count);
        let (ids, crcs, offs) = (
            self.tables(),
            self.tables() + 20 * n,
            self.tables() + 24 * n,
        );
        let large = offs + 4 * n;
        if large + 40 > b.len() {
            return Err(IndexError::TooShortFor(n));
        }
        let large_count = (b.len() - 40 - large) / 8;
        let mut entries = Vec::with_capacity(n);
        for i in 0..n {
            let raw = be32(b, offs + 4 * i);
            let offset = if raw & 0x8000_0000 == 0 {
                u64::from(raw)
            } else {
                let k = (raw & 0x7fff_ffff) as usize;
                if k >= large_count {
                    return Err(IndexError::LargeOffset { entry: i, large: k });
                }
                let at = large + 8 * k;
                u64::from_be_bytes(b[at..at + 8].try_into().expect("8 bytes"))
            };
            entries.push(IndexEntry {
                id: id_at(b, ids + 20 * i),
                offset,
                crc: Some(be32(b, crcs + 4 * i)),
            });
        }
        Ok(entries)
    }

    /// Version 1: (offset, id) pairs.
    fn entries_v1(&self) -> Result<Vec<IndexEntry>, IndexError> {
        let (b, n) = (self.b, self.count);
        if self.tables() + 24 * n + 40 != b.len() {
            return Err(IndexError::WrongSize(n));
        }
        let entry = |i: usize| {
            let at = self.tables() + 24 * i;
            IndexEntry {
                id: id_at(b, at + 4),
                offset: u64::from(be32(b, at)),
                crc: None,
            }
        };
        Ok((0..n).map(entry).collect())
    }
}

impl Index {
    /// Parses the bytes of an `.idx` file.
    pub fn parse(b: &[u8]) -> Result<Index, IndexError> {
        let raw = Raw::new(b)?;
        let entries = if raw.fanout_at == 8 {
            raw.entries_v2()?
        } else {
            raw.entries_v1()?
        };
        if let Some(i) = entries.windows(2).position(|w| w[0].id >= w[1].id) {
            return Err(IndexError::Order(i + 1));
        }
        for (i, e) in entries.iter().enumerate() {
            let first = usize::from(e.id.as_ref()[0]);
            if i < raw.below(first) || i >= raw.below(first + 1) {
                return Err(IndexError::Fanout(i));
            }
        }
        let body = b.len() - 20;
        Ok(Index {
            entries,
            pack_checksum: id_at(b, body - 20),
        })
    }

    /// The entry for `id`, by binary search.
    pub fn find(&self, id: &Digest) -> Option<&IndexEntry> {
        self.entries
            .binary_search_by(|e| e.id.cmp(id))
            .ok()
            .map(|i| &self.entries[i])
    }
}
