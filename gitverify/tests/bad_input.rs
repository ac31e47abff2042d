//! Every kind of bad input: a clear damage report naming the object or
//! offset, never a panic or a hang, no allocation of a declared size, and
//! the other objects still verified.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use sha1dc_wasm::git::ObjectKind::{self, Blob};

fn text_blob(seed: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| b'a' + ((i * 7 + usize::from(seed)) % 26) as u8)
        .collect()
}

/// Four blobs: A whole, B an OFS_DELTA on A, C whole, D an OFS_DELTA on C.
fn good_entries() -> (Vec<Entry>, Vec<Vec<u8>>) {
    let a = text_blob(1, 300);
    let mut b = a.clone();
    b[100..110].copy_from_slice(b"0123456789");
    let c = text_blob(2, 500);
    let mut d = c.clone();
    d.extend_from_slice(b"appended");
    let entries = vec![
        Entry::Whole(Blob, a.clone()),
        Entry::Ofs(1, make_delta(&a, &b)),
        Entry::Whole(Blob, c.clone()),
        Entry::Ofs(1, make_delta(&c, &d)),
    ];
    (entries, vec![a, b, c, d])
}

fn ids(contents: &[Vec<u8>]) -> Vec<[u8; 20]> {
    contents.iter().map(|c| object_id(Blob, c)).collect()
}

/// Writes `bytes` as `name` in the scratch directory; with `index`, an
/// index of `objects` beside it.
fn write(
    s: &Scratch,
    name: &str,
    bytes: &[u8],
    index: Option<Vec<([u8; 20], u64, u32)>>,
) -> PathBuf {
    let pack = s.path(name);
    std::fs::write(&pack, bytes).unwrap();
    if let Some(objects) = index {
        let trailer = &bytes[bytes.len().saturating_sub(20)..];
        std::fs::write(pack.with_extension("idx"), build_index(objects, trailer)).unwrap();
    }
    pack
}

fn index_of(built: &Built, ids: &[[u8; 20]]) -> Vec<([u8; 20], u64, u32)> {
    ids.iter()
        .zip(&built.entries)
        .map(|(id, (o, c))| (*id, *o, *c))
        .collect()
}

/// Verifies a pack (with its index when one is beside it), both worker counts.
fn check(pack: &Path) -> Run {
    let one = verify(pack, 1, false);
    let two = verify(pack, 2, false);
    assert_eq!(one.summary, two.summary, "-j 1 and -j 2 report the same");
    // Entries read ahead of the walk: a budget smaller than most entries
    // (left out, read one by one) and one that holds them all.
    for gather in [300, 1 << 20] {
        let options = gitverify::Options {
            threads: 2,
            gather,
            ..Default::default()
        };
        let gathered = verify_with(&gitverify::sources(pack).unwrap(), &options);
        assert_eq!(one.summary, gathered.summary, "read ahead ({gather} bytes)");
    }
    one
}

/// Re-seals a pack whose bytes were changed, so only the change is damage.
fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 20;
    let sum = sha1(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum);
}

#[test]
fn the_good_pack_verifies() {
    let s = Scratch::new("good");
    let (entries, contents) = good_entries();
    let built = build_pack(&entries);
    let pack = write(
        &s,
        "good.pack",
        &built.bytes,
        Some(index_of(&built, &ids(&contents))),
    );
    let run = check(&pack);
    assert_eq!(run.summary.damage, []);
    assert_eq!(run.objects.len(), 4);
    index_pack(&pack, &s.path("git.idx"));
    assert_eq!(run.offsets(), show_index(&s.path("git.idx")));
}

#[test]
fn truncated_packs_at_every_length() {
    let s = Scratch::new("truncated");
    let (entries, contents) = good_entries();
    let built = build_pack(&entries);
    for len in 0..built.bytes.len() {
        for with_index in [false, true] {
            let index = with_index.then(|| index_of(&built, &ids(&contents)));
            let pack = write(
                &s,
                &format!("cut{len}-{with_index}.pack"),
                &built.bytes[..len],
                index,
            );
            let run = verify(&pack, 2, false);
            assert!(
                !run.summary.damage.is_empty(),
                "a pack cut at {len} bytes passed"
            );
            if len > 40 && !with_index {
                let d = run.damage().join("\n");
                assert!(
                    d.contains("truncated") || d.contains("trailer") || d.contains("zlib"),
                    "cut at {len}: {d}"
                );
            }
        }
    }
    // Cut 5 bytes into the last entry's stream (and the last 20 bytes
    // taken for the trailer).
    let pack = write(
        &s,
        "cut.pack",
        &built.bytes[..built.entries[3].0 as usize + 25],
        None,
    );
    let run = check(&pack);
    run.assert_damage(&format!(
        "offset {}: its zlib stream: damaged or truncated",
        built.entries[3].0
    ));
    assert_eq!(
        run.objects.len(),
        3,
        "the entries before the cut are verified"
    );
}

/// A header declaring four billion objects: no room is made for them (the
/// fuzz target found that it once was), the one entry there is verified.
#[test]
fn a_header_declaring_billions_of_objects() {
    let s = Scratch::new("count");
    let mut bytes = build_pack(&[Entry::Whole(Blob, b"one".to_vec())]).bytes;
    bytes[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
    reseal(&mut bytes);
    let run = check(&write(&s, "n.pack", &bytes, None));
    run.assert_damage(&format!(
        "truncated: the header says {} objects, the pack holds 1",
        u32::MAX
    ));
    assert_eq!(run.objects.len(), 1);
}

#[test]
fn a_wrong_trailer() {
    let s = Scratch::new("trailer");
    let (entries, _) = good_entries();
    let mut bytes = build_pack(&entries).bytes;
    *bytes.last_mut().unwrap() ^= 1;
    let run = check(&write(&s, "t.pack", &bytes, None));
    run.assert_damage("wrong trailer: the pack's checksum does not match its content");
    assert_eq!(run.objects.len(), 4);
}

#[test]
fn a_damaged_zlib_stream_with_and_without_index() {
    let s = Scratch::new("zlib");
    let (entries, contents) = good_entries();
    let built = build_pack(&entries);
    let mut bytes = built.bytes.clone();
    let c = built.entries[2].0 as usize;
    bytes[c + 10] ^= 0x55;
    reseal(&mut bytes);
    // Index-less: C is lost, and so is D (its delta); A and B are verified.
    let run = check(&write(&s, "z.pack", &bytes, None));
    run.assert_damage(&format!(
        "offset {c}: its zlib stream: damaged or truncated zlib stream"
    ));
    // With the index: the CRC32 says so, C and D are lost, A and B verified.
    let run = check(&write(
        &s,
        "zi.pack",
        &bytes,
        Some(index_of(&built, &ids(&contents))),
    ));
    run.assert_damage(&format!(
        "object {}: the entry's CRC32",
        sha1dc_wasm::Digest::from(ids(&contents)[2])
    ));
    run.assert_damage("1 objects stored as deltas on it cannot be verified");
    assert_eq!(run.objects.len(), 2);
    // A damaged first blob, index-less: its delta B is lost with it, C and
    // D (found after it) are verified.
    let mut bytes = built.bytes.clone();
    bytes[built.entries[1].0 as usize - 3] ^= 0x55;
    reseal(&mut bytes);
    let run = check(&write(&s, "za.pack", &bytes, None));
    run.assert_damage("offset 12: its zlib stream");
    run.assert_damage("its OFS_DELTA base offset 12 is not where an entry starts");
    assert_eq!(run.objects.len(), 2);
}

#[test]
fn a_damaged_entry_does_not_stop_the_next_ones_index_less() {
    let s = Scratch::new("resync");
    let blobs: Vec<Vec<u8>> = (0..6).map(|i| text_blob(i, 200 + usize::from(i))).collect();
    let entries: Vec<Entry> = blobs
        .iter()
        .map(|b| Entry::Whole(Blob, b.clone()))
        .collect();
    let built = build_pack(&entries);
    let mut bytes = built.bytes.clone();
    let second = built.entries[1].0 as usize;
    bytes[second + 6] ^= 0xff;
    reseal(&mut bytes);
    let run = check(&write(&s, "r.pack", &bytes, None));
    run.assert_damage(&format!("offset {second}: its zlib stream"));
    run.assert_damage(&format!(
        "the next entry found starts at offset {}",
        built.entries[2].0
    ));
    let want: Vec<String> = [0, 2, 3, 4, 5]
        .iter()
        .map(|&i| sha1dc_wasm::Digest::from(object_id(Blob, &blobs[i])).to_string())
        .collect();
    let mut got: Vec<String> = run.objects.iter().map(|o| o.id.to_string()).collect();
    let mut want = want;
    want.sort();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn declared_sizes_that_lie() {
    let s = Scratch::new("sizes");
    let blob = text_blob(3, 300);
    for (declared, what) in [
        (
            299u64,
            "inflates to more than its declared 299 bytes".to_string(),
        ),
        (
            301,
            "inflates to 300 bytes, not its declared 301".to_string(),
        ),
        (
            1 << 42,
            format!("declares {} bytes, more than its", 1u64 << 42),
        ),
    ] {
        let mut raw = entry_header(3, declared);
        raw.extend(zlib(&blob));
        let built = build_pack(&[
            Entry::Raw(raw.clone()),
            Entry::Whole(Blob, b"next".to_vec()),
        ]);
        let run = check(&write(&s, "s.pack", &built.bytes, None));
        run.assert_damage(&format!("offset 12: its zlib stream: {what}"));
        // With an index too (the entry's extent known).
        let objects = vec![
            (object_id(Blob, &blob), 12, built.entries[0].1),
            (
                object_id(Blob, b"next"),
                built.entries[1].0,
                built.entries[1].1,
            ),
        ];
        let run = check(&write(&s, "si.pack", &built.bytes, Some(objects)));
        run.assert_damage("offset 12");
        assert!(
            run.objects.iter().any(|o| o.size == 4),
            "the other entry is verified"
        );
    }
    // A delta declaring terabytes of result.
    let base = text_blob(4, 100);
    let built = build_pack(&[
        Entry::Whole(Blob, base.clone()),
        Entry::Ofs(1, delta(100, 1 << 40, &copy_op(0, 100))),
    ]);
    let run = check(&write(&s, "d.pack", &built.bytes, None));
    run.assert_damage(&format!(
        "offset {}: the delta declares a result of {} bytes",
        built.entries[1].0,
        1u64 << 40
    ));
}

#[test]
fn a_delta_copying_beyond_its_base() {
    let s = Scratch::new("copy");
    let base = text_blob(5, 300);
    let built = build_pack(&[
        Entry::Whole(Blob, base),
        Entry::Ofs(1, delta(300, 100, &copy_op(290, 100))),
    ]);
    let run = check(&write(&s, "c.pack", &built.bytes, None));
    run.assert_damage(&format!(
        "offset {}: the delta copies 100 bytes at offset 290, beyond its base of 300 bytes",
        built.entries[1].0
    ));
    assert_eq!(run.objects.len(), 1);
}

#[test]
fn a_delta_chain_that_loops() {
    let s = Scratch::new("loop");
    let (x, y) = ([0x11u8; 20], [0x22u8; 20]);
    let d = delta(4, 4, &copy_op(0, 4));
    let built = build_pack(&[
        Entry::Ref(y, d.clone()),
        Entry::Ref(x, d),
        Entry::Whole(Blob, b"ok".to_vec()),
    ]);
    let ok = object_id(Blob, b"ok");
    let objects = vec![
        (x, built.entries[0].0, built.entries[0].1),
        (y, built.entries[1].0, built.entries[1].1),
        (ok, built.entries[2].0, built.entries[2].1),
    ];
    let run = check(&write(&s, "l.pack", &built.bytes, Some(objects)));
    run.assert_damage(&format!(
        "the delta chain loops through the entries at offsets {}, {}",
        built.entries[0].0, built.entries[1].0
    ));
    assert_eq!(run.objects.len(), 1);
    // Without the index the bases' ids are never found.
    let run = check(&write(&s, "l2.pack", &built.bytes, None));
    run.assert_damage("is not in the pack (a thin pack?)");
}

#[test]
fn thin_packs() {
    let s = Scratch::new("thin");
    let repo = s.path("repo");
    init(&repo);
    let big = text_blob(6, 4000);
    commit(&repo, &[("f.txt", &big)], "one");
    let mut changed = big.clone();
    changed[2000..2010].copy_from_slice(b"0123456789");
    commit(&repo, &[("f.txt", &changed)], "two");
    // The delta's base is in HEAD~1, not in the pack.
    let out = git_in(
        &repo,
        &["pack-objects", "--revs", "--thin", "--stdout", "-q"],
        Some(b"HEAD\n^HEAD~1\n"),
    );
    let pack = write(&s, "thin.pack", &out, None);
    let run = check(&pack);
    let base = text(git(&repo, &["rev-parse", "HEAD~1:f.txt"]))
        .trim()
        .to_string();
    run.assert_damage(&format!(
        "REF_DELTA base {base} is not in the pack (a thin pack?); 1 objects depend on it"
    ));
    assert!(!run.objects.is_empty(), "the commit and tree are verified");
    // A base after its delta in the same pack: resolved, ids as git's.
    let a = text_blob(7, 500);
    let mut b = a.clone();
    b.extend_from_slice(b"more");
    let built = build_pack(&[
        Entry::Ref(object_id(Blob, &a), make_delta(&a, &b)),
        Entry::Whole(Blob, a),
    ]);
    let pack = write(&s, "after.pack", &built.bytes, None);
    let run = check(&pack);
    assert_eq!(run.summary.damage, []);
    index_pack(&pack, &s.path("after-git.idx"));
    assert_eq!(run.offsets(), show_index(&s.path("after-git.idx")));
}

#[test]
fn an_index_that_disagrees() {
    let s = Scratch::new("index");
    let (entries, contents) = good_entries();
    let built = build_pack(&entries);
    let good = index_of(&built, &ids(&contents));
    let hex = |i: usize| sha1dc_wasm::Digest::from(ids(&contents)[i]).to_string();
    // A missing id: reported, and the pack verified without the index.
    let mut missing = good.clone();
    missing.remove(1);
    let run = check(&write(&s, "m.pack", &built.bytes, Some(missing)));
    run.assert_damage("the index lists 3 objects, the pack's header 4");
    run.assert_damage(&format!("object {}: missing from the index", hex(1)));
    assert_eq!(run.objects.len(), 4);
    // A wrong offset.
    let mut moved = good.clone();
    moved[2].1 += 1;
    let run = check(&write(&s, "o.pack", &built.bytes, Some(moved)));
    run.assert_damage(&hex(2));
    run.assert_damage(&format!(
        "the index gives offset {} for it",
        built.entries[2].0 + 1
    ));
    assert_eq!(run.objects.len(), 4);
    // A wrong CRC32: damage in the pack or the index; every object still verified.
    let mut crc = good.clone();
    crc[3].2 ^= 1;
    let run = check(&write(&s, "c.pack", &built.bytes, Some(crc)));
    run.assert_damage(&format!("object {}: the entry's CRC32 is", hex(3)));
    assert_eq!(run.objects.len(), 4);
    // Two ids swapped: each object hashes to the other's id.
    let mut swapped = good;
    let (i0, i2) = (swapped[0].0, swapped[2].0);
    swapped[0].0 = i2;
    swapped[2].0 = i0;
    swapped[0].2 = built.entries[0].1;
    swapped[2].2 = built.entries[2].1;
    let run = check(&write(&s, "w.pack", &built.bytes, Some(swapped)));
    run.assert_damage(&format!(
        "hashes to {}, but the index names it {}",
        hex(0),
        hex(2)
    ));
    // An index that is not one.
    let pack = write(&s, "x.pack", &built.bytes, None);
    std::fs::write(pack.with_extension("idx"), b"not an index at all").unwrap();
    let run = check(&pack);
    run.assert_damage("too short");
    assert_eq!(run.objects.len(), 4);
}

#[test]
fn unknown_types_and_bad_files() {
    let s = Scratch::new("types");
    let mut raw = entry_header(5, 3);
    raw.extend(zlib(b"abc"));
    let built = build_pack(&[Entry::Raw(raw), Entry::Whole(Blob, b"fine".to_vec())]);
    let run = check(&write(&s, "u.pack", &built.bytes, None));
    run.assert_damage("offset 12: unknown object type 5");
    assert_eq!(
        run.objects.len(),
        1,
        "the entry after it is found and verified"
    );
    // Not a pack, a missing file.
    std::fs::write(s.path("junk"), b"hello").unwrap();
    assert!(
        gitverify::sources(&s.path("junk"))
            .unwrap_err()
            .to_string()
            .contains("not a pack, pack index or bundle")
    );
    assert!(
        gitverify::sources(&s.path("nothing"))
            .unwrap_err()
            .to_string()
            .contains("nothing")
    );
    let mut bad = b"PACK\0\0\0\x09\0\0\0\x01".to_vec();
    bad.extend([0; 20]);
    let run = check(&write(&s, "v.pack", &bad, None));
    run.assert_damage("pack version 9 is not supported");
}

#[test]
fn corrupt_loose_objects() {
    let s = Scratch::new("loose");
    let repo = s.path("repo");
    init(&repo);
    commit(&repo, &[("a.txt", b"hello\n")], "one");
    let objects = repo.join(".git/objects");
    let put = |id: &str, bytes: &[u8]| {
        std::fs::create_dir_all(objects.join(&id[..2])).unwrap();
        std::fs::write(objects.join(&id[..2]).join(&id[2..]), bytes).unwrap();
    };
    put("1111111111111111111111111111111111111111", b"not zlib");
    put(
        "2222222222222222222222222222222222222222",
        &zlib(b"blub 3\0abc"),
    );
    put(
        "3333333333333333333333333333333333333333",
        &zlib(b"blob 3\0abcd"),
    );
    put(
        "4444444444444444444444444444444444444444",
        &zlib(b"blob 3\0abc"),
    );
    let mut trailing = zlib(b"blob 3\0abc");
    trailing.extend_from_slice(b"garbage");
    put("5555555555555555555555555555555555555555", &trailing);
    put(&"6".repeat(64), &zlib(b"blob 3\0abc"));
    // A FIFO where an object should be: damage, not a read that waits.
    let fifo = objects.join("77").join("7".repeat(38));
    std::fs::create_dir_all(fifo.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo");
    let run = check(&repo);
    run.assert_damage("55/55555555555555555555555555555555555555: corrupt loose object: 7 bytes after its zlib stream");
    run.assert_damage("1 loose objects named by SHA-256 ids");
    run.assert_damage(
        "77/77777777777777777777777777777777777777: cannot be read: not a regular file",
    );
    run.assert_damage("11/11111111111111111111111111111111111111: corrupt loose object: damaged or truncated zlib stream");
    run.assert_damage("22/22222222222222222222222222222222222222: corrupt loose object: unknown object type \"blub\"");
    run.assert_damage("33/33333333333333333333333333333333333333: corrupt loose object: its header says 3 bytes, it holds 4");
    let abc = sha1dc_wasm::Digest::from(object_id(ObjectKind::Blob, b"abc")).to_string();
    run.assert_damage(&format!(
        "the file is named 4444444444444444444444444444444444444444 but its content hashes to {abc}"
    ));
    assert_eq!(
        run.objects.len(),
        4,
        "the commit, tree and blob, and the misnamed one"
    );
}
