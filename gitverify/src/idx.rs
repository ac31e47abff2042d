//! A pack index (`.idx`, version 2, or the original version 1): for each
//! object of the pack its id, its entry's offset and (version 2) the
//! CRC32 of the entry's bytes. Checked here for its own consistency; the
//! pack is then checked against it (src/pack.rs).

use sha1dc_wasm::Hasher;

/// One object the index lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    /// The object id.
    pub id: [u8; 20],
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
    pub pack_checksum: [u8; 20],
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The plain SHA-1 of `data` (a file's checksum: no collision detection,
/// which would only slow it).
pub fn checksum(data: &[u8]) -> [u8; 20] {
    let mut hasher = Hasher::builder().detect_collisions(false).build();
    hasher.update(data);
    hasher.finalize().sha1().into()
}

impl Index {
    /// Parses the bytes of an `.idx` file.
    pub fn parse(b: &[u8]) -> Result<Index, String> {
        let too_short = || format!("the index is {} bytes, too short to be one", b.len());
        if b.len() < 8 {
            return Err(too_short());
        }
        let (v2, fanout_at) = if b[..4] == [0xff, b't', b'O', b'c'] {
            match be32(b, 4) {
                2 => (true, 8),
                v => return Err(format!("index version {v} is not supported (only 1 and 2)")),
            }
        } else {
            (false, 0)
        };
        if b.len() < fanout_at + 1024 + 40 {
            return Err(too_short());
        }
        let body = b.len() - 20;
        if checksum(&b[..body]) != b[body..] {
            return Err("the index's own checksum does not match its content".into());
        }
        let mut last = 0;
        for i in 0..256 {
            let n = be32(b, fanout_at + 4 * i);
            if n < last {
                return Err(format!("the index's fan-out table decreases at entry {i}"));
            }
            last = n;
        }
        let n = last as usize;
        let tables = fanout_at + 1024;
        let mut entries = Vec::with_capacity(n.min(b.len() / 24));
        if v2 {
            let (ids, crcs, offs) = (tables, tables + 20 * n, tables + 24 * n);
            let large = offs + 4 * n;
            if large + 40 > b.len() {
                return Err(format!(
                    "the index lists {n} objects but is too short for them"
                ));
            }
            let large_count = (b.len() - 40 - large) / 8;
            for i in 0..n {
                let raw = be32(b, offs + 4 * i);
                let offset = if raw & 0x8000_0000 == 0 {
                    u64::from(raw)
                } else {
                    let k = (raw & 0x7fff_ffff) as usize;
                    if k >= large_count {
                        return Err(format!(
                            "the index's entry {i} names large offset {k}, which is not in it"
                        ));
                    }
                    u64::from_be_bytes(
                        b[large + 8 * k..large + 8 * k + 8]
                            .try_into()
                            .expect("8 bytes"),
                    )
                };
                entries.push(IndexEntry {
                    id: b[ids + 20 * i..ids + 20 * i + 20]
                        .try_into()
                        .expect("20 bytes"),
                    offset,
                    crc: Some(be32(b, crcs + 4 * i)),
                });
            }
        } else {
            if tables + 24 * n + 40 != b.len() {
                return Err(format!(
                    "the index lists {n} objects but is not the size for them"
                ));
            }
            for i in 0..n {
                let at = tables + 24 * i;
                entries.push(IndexEntry {
                    id: b[at + 4..at + 24].try_into().expect("20 bytes"),
                    offset: u64::from(be32(b, at)),
                    crc: None,
                });
            }
        }
        for (i, w) in entries.windows(2).enumerate() {
            if w[0].id >= w[1].id {
                return Err(format!(
                    "the index's ids are not in order at entry {}",
                    i + 1
                ));
            }
        }
        for (i, e) in entries.iter().enumerate() {
            let first = usize::from(e.id[0]);
            let below = if first == 0 {
                0
            } else {
                be32(b, fanout_at + 4 * (first - 1)) as usize
            };
            let upto = be32(b, fanout_at + 4 * first) as usize;
            if i < below || i >= upto {
                return Err(format!(
                    "the index's fan-out table disagrees with its entry {i}"
                ));
            }
        }
        let pack_checksum = b[body - 20..body].try_into().expect("20 bytes");
        Ok(Index {
            entries,
            pack_checksum,
        })
    }

    /// The entry for `id`, by binary search.
    pub fn find(&self, id: &[u8; 20]) -> Option<&IndexEntry> {
        self.entries
            .binary_search_by(|e| e.id.cmp(id))
            .ok()
            .map(|i| &self.entries[i])
    }
}
