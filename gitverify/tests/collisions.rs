//! The public collisions (both SHAttered PDFs, both SHA-mbles files)
//! committed as files and packed whole and as deltas: their object ids are
//! git's and the object check does not flag them (git's header moves the
//! colliding blocks off their boundaries); the content check flags each
//! at the block and with the disturbance vector the C reference reports
//! (tests/data/TRACE.txt).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::*;
use gitverify::Check;

const FILES: [&str; 4] = [
    "shattered-1.pdf",
    "shattered-2.pdf",
    "sha-mbles-1.bin",
    "sha-mbles-2.bin",
];

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(name)
}

/// The reference's report for `file` in TRACE.txt: (offset, DV) of the
/// flagged block in the default mode.
fn reference(file: &str) -> (u64, String) {
    let trace = std::fs::read_to_string(data("TRACE.txt")).unwrap();
    let section = trace
        .split("\nfile=")
        .find(|s| s.starts_with(&format!("{file} ")))
        .unwrap_or_else(|| panic!("{file} is not in TRACE.txt"));
    let line = section
        .lines()
        .find(|l| l.trim_start().starts_with("[full]"))
        .unwrap();
    let offset = line
        .split("byte offset ")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let dv = line.split("DV ").nth(1).unwrap().split(' ').next().unwrap();
    (offset.parse().unwrap(), dv.to_string())
}

/// id -> depth (0 whole) of every blob in the pack, from `git verify-pack -v`.
fn depths(idx: &Path) -> BTreeMap<String, u32> {
    let out = text(git(
        Path::new("."),
        &["verify-pack", "-v", idx.to_str().unwrap()],
    ));
    out.lines()
        .filter(|l| l.contains(" blob "))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f.get(5).map_or(0, |d| d.parse().unwrap()))
        })
        .collect()
}

#[test]
fn public_collisions_as_blobs_whole_and_as_deltas() {
    let s = Scratch::new("collisions");
    let repo = s.path("repo");
    init(&repo);
    let mut ids = BTreeMap::new();
    for name in FILES {
        let bytes = std::fs::read(data(name)).unwrap();
        commit(&repo, &[(name, &bytes)], name);
        let id = text(git(&repo, &["hash-object", name])).trim().to_string();
        ids.insert(id, name);
    }
    for (window, want_deltas) in [("--window=250", true), ("--window=0", false)] {
        git(&repo, &["repack", "-a", "-d", "-f", "-q", window]);
        let idx = only_pack(&repo).with_extension("idx");
        let depths = depths(&idx);
        // git stores one SHAttered PDF as a delta on the other (the
        // SHA-mbles pair is too small to be worth one: see the hand-made
        // pack below).
        let deltas = ids.keys().filter(|id| depths[*id] > 0).count();
        assert_eq!(deltas > 0, want_deltas, "{window}: {depths:?}");
        check(&repo, &ids, |threads, content| {
            verify(&repo, threads, content)
        });
    }
}

/// Verifies with both checks on one and two workers: no object flagged,
/// every blob with the reference's block and DV in the content check.
fn check(repo: &Path, ids: &BTreeMap<String, &str>, run: impl Fn(usize, bool) -> Run) {
    {
        let mut reports = Vec::new();
        for threads in [1, 2] {
            let objects = run(threads, false);
            assert_eq!(objects.summary.findings, [], "the object check flags none");
            assert_eq!(objects.summary.damage, []);
            assert_eq!(objects.objects(), git_objects(repo));
            let content = run(threads, true);
            assert_eq!(content.summary.damage, []);
            let found: BTreeMap<String, (u64, String)> = content
                .summary
                .findings
                .iter()
                .map(|f| {
                    assert_eq!((f.check, f.kind.name()), (Check::Content, "blob"));
                    assert_eq!(
                        f.size,
                        std::fs::metadata(data(ids[&f.id.to_string()]))
                            .unwrap()
                            .len()
                    );
                    (f.id.to_string(), (f.offset, f.dv.to_string()))
                })
                .collect();
            let want: BTreeMap<String, (u64, String)> = ids
                .iter()
                .map(|(id, name)| (id.clone(), reference(name)))
                .collect();
            assert_eq!(found, want, "-j {threads}");
            reports.push(content.summary);
        }
        assert_eq!(reports[0], reports[1], "-j 1 and -j 2 report the same");
    }
}

/// Both pairs as deltas in a pack written by hand: SHAttered 2 as an
/// OFS_DELTA on 1, SHA-mbles 2 as a REF_DELTA on 1; git's `index-pack`
/// indexes it with the same ids.
#[test]
fn public_collisions_as_hand_made_deltas() {
    use sha1dc_wasm::git::ObjectKind::Blob;
    let s = Scratch::new("collision-deltas");
    let repo = s.path("repo");
    init(&repo);
    let read = |i: usize| std::fs::read(data(FILES[i])).unwrap();
    let entries = [
        Entry::Whole(Blob, read(0)),
        Entry::Ofs(1, make_delta(&read(0), &read(1))),
        Entry::Whole(Blob, read(2)),
        Entry::Ref(object_id(Blob, &read(2)), make_delta(&read(2), &read(3))),
    ];
    let pack = s.path("hand.pack");
    std::fs::write(&pack, build_pack(&entries).bytes).unwrap();
    let idx = s.path("git.idx");
    index_pack(&pack, &idx);
    let mut ids = BTreeMap::new();
    for (i, name) in FILES.iter().enumerate() {
        std::fs::write(repo.join(name), read(i)).unwrap();
        ids.insert(
            text(git(&repo, &["hash-object", "-w", name]))
                .trim()
                .to_string(),
            *name,
        );
    }
    let want: BTreeMap<String, u64> = show_index(&idx);
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        ids.keys().collect::<Vec<_>>()
    );
    check(&repo, &ids, |threads, content| {
        let sources = [gitverify::Source::Pack {
            pack: pack.clone(),
            index: None,
        }];
        let run = verify_sources(&sources, threads, content);
        assert_eq!(run.offsets(), want);
        run
    });
}
