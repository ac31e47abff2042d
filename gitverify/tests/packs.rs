//! Packs git writes, verified: every object type, OFS_DELTA and
//! REF_DELTA, deep delta chains, with and without the index, one and two
//! workers; the ids must be those of `git index-pack`'s index and
//! `git cat-file --batch-check`.

mod common;

use std::path::Path;

use common::*;
use gitverify::entry::{self, Stored};

/// A repository with commits, nested trees, blobs, an annotated tag and
/// a file of 100 random lines of which one is replaced a commit, 200
/// times: each version is nearest its neighbours, so git chains them.
/// Written by one `git fast-import`, then packed by git with long chains
/// allowed.
fn history(dir: &Path) {
    init(dir);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random_line = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        format!("{:016x}{:016x}\n", seed, seed.rotate_left(29)).repeat(2)
    };
    let mut lines: Vec<String> = (0..100).map(|_| random_line()).collect();
    let mut stream = Vec::new();
    let data = |stream: &mut Vec<u8>, bytes: &[u8]| {
        stream.extend_from_slice(format!("data {}\n", bytes.len()).as_bytes());
        stream.extend_from_slice(bytes);
        stream.push(b'\n');
    };
    for i in 0..200 {
        lines[(i * 37) % 100] = random_line();
        stream.extend_from_slice(b"commit refs/heads/main\n");
        stream.extend_from_slice(format!("mark :{}\n", i + 1).as_bytes());
        stream.extend_from_slice(
            format!("committer t <t@example.com> {} +0000\n", 1_577_836_800 + i).as_bytes(),
        );
        data(&mut stream, format!("commit {i}").as_bytes());
        stream.extend_from_slice(b"M 100644 inline notes.txt\n");
        data(&mut stream, lines.concat().as_bytes());
        stream.extend_from_slice(b"M 100644 inline sub/dir/n.txt\n");
        data(&mut stream, format!("{i}\n").as_bytes());
    }
    stream.extend_from_slice(b"tag v1\nfrom :61\ntagger t <t@example.com> 1577836800 +0000\n");
    data(&mut stream, b"a tag");
    git_in(dir, &["fast-import", "--quiet"], Some(&stream));
    git(
        dir,
        &[
            "repack",
            "-a",
            "-d",
            "-f",
            "-q",
            "--depth=100",
            "--window=250",
        ],
    );
}

/// The longest delta chain in a pack, from `git verify-pack -v`.
fn longest_chain(idx: &Path) -> u32 {
    let out = text(git(
        Path::new("."),
        &["verify-pack", "-v", idx.to_str().unwrap()],
    ));
    out.lines()
        .filter_map(|l| l.strip_prefix("chain length = "))
        .filter_map(|l| l.split(':').next()?.parse().ok())
        .max()
        .unwrap_or(0)
}

/// How many entries of each stored kind (whole, OFS, REF) a pack holds,
/// read at the offsets git's index gives.
fn stored_kinds(pack: &Path, idx: &Path) -> [usize; 3] {
    let bytes = std::fs::read(pack).unwrap();
    let mut n = [0; 3];
    for offset in show_index(idx).values() {
        match entry::parse(&bytes[*offset as usize..], *offset)
            .unwrap()
            .stored
        {
            Stored::Whole(_) => n[0] += 1,
            Stored::OfsDelta(_) => n[1] += 1,
            Stored::RefDelta(_) => n[2] += 1,
        }
    }
    n
}

fn assert_matches_git(run: &Run, repo: &Path, idx: &Path) {
    assert_eq!(run.summary.damage, [], "{:#?}", run.damage());
    assert_eq!(run.summary.findings, []);
    assert_eq!(
        run.objects(),
        git_objects(repo),
        "types and sizes as git cat-file lists them"
    );
    assert_eq!(
        run.offsets(),
        show_index(idx),
        "ids and offsets as git's index lists them"
    );
}

#[test]
fn every_type_ofs_deltas_and_deep_chains_match_git() {
    let s = Scratch::new("history");
    let repo = s.path("repo");
    history(&repo);
    let pack = only_pack(&repo);
    let idx = pack.with_extension("idx");
    let chain = longest_chain(&idx);
    assert!(chain >= 20, "the test needs deep chains; git made {chain}");
    let [whole, ofs, refs] = stored_kinds(&pack, &idx);
    assert!(whole > 0 && ofs > 100 && refs == 0, "{whole} {ofs} {refs}");
    let kinds: Vec<String> = git_objects(&repo).values().map(|v| v.0.clone()).collect();
    for kind in ["commit", "tree", "blob", "tag"] {
        assert!(
            kinds.iter().any(|k| k == kind),
            "no {kind} in the test repository"
        );
    }
    // With the index, index-less, then the repository itself: one and two workers.
    for threads in [1, 2] {
        assert_matches_git(&verify(&idx, threads, false), &repo, &idx);
        assert_matches_git(&verify_pack_alone(&pack, threads), &repo, &idx);
        assert_matches_git(&verify(&repo, threads, true), &repo, &idx);
    }
    // A small delta-base cache: bases are dropped and made again; and
    // entries read ahead of the walk in batches, with and without the index.
    for (cache, gather) in [(1, 0), (48 << 20, 4096), (1, 64 << 10)] {
        let options = gitverify::Options {
            threads: 2,
            cache,
            gather,
            ..Default::default()
        };
        for path in [&idx, &pack] {
            let summary = gitverify::verify_path(path, &options).unwrap();
            assert_eq!(
                (summary.counts.total(), summary.damage.len()),
                (show_index(&idx).len() as u64, 0)
            );
        }
        let sources = gitverify::sources(&idx).unwrap();
        assert_matches_git(&verify_with(&sources, &options), &repo, &idx);
    }
}

#[test]
fn ref_deltas_match_git() {
    let s = Scratch::new("refdelta");
    let repo = s.path("repo");
    history(&repo);
    let list = git(&repo, &["rev-list", "--objects", "--all"]);
    let name = text(git_in(
        &repo,
        &["pack-objects", "--no-delta-base-offset", "-q", "../refs"],
        Some(&list),
    ));
    let pack = s.path(&format!("refs-{}.pack", name.trim()));
    let idx = pack.with_extension("idx");
    // git's own index of it, made from the pack alone.
    std::fs::remove_file(&idx).unwrap();
    index_pack(&pack, &idx);
    let [_, ofs, refs] = stored_kinds(&pack, &idx);
    assert!(ofs == 0 && refs > 100, "{ofs} {refs}");
    for threads in [1, 2] {
        assert_matches_git(&verify(&pack, threads, false), &repo, &idx);
        assert_matches_git(&verify_pack_alone(&pack, threads), &repo, &idx);
    }
    // The original index format (version 1: no CRC32s), as git still writes it.
    let v1 = s.path("v1.idx");
    git(
        &s.0,
        &[
            "index-pack",
            "--index-version=1",
            "-o",
            v1.to_str().unwrap(),
            pack.to_str().unwrap(),
        ],
    );
    let sources = [gitverify::Source::Pack {
        pack: pack.clone(),
        index: Some(v1),
    }];
    assert_matches_git(&verify_sources(&sources, 2, false), &repo, &idx);
}

#[test]
fn bundles_and_loose_objects_match_git() {
    let s = Scratch::new("bundle");
    let repo = s.path("repo");
    init(&repo);
    for i in 0..5 {
        commit(
            &repo,
            &[("a.txt", format!("{i}\n").repeat(50).as_bytes())],
            &format!("c{i}"),
        );
    }
    // Loose objects only (no repack yet).
    let loose = verify(&repo, 2, false);
    assert_eq!(loose.summary.damage, []);
    assert_eq!(loose.objects(), git_objects(&repo));
    assert!(loose.objects.iter().all(|o| o.pack_offset.is_none()));
    let bundle = s.path("all.bundle");
    git(
        &repo,
        &["bundle", "create", "-q", bundle.to_str().unwrap(), "--all"],
    );
    let run = verify(&bundle, 2, false);
    assert_eq!(run.summary.damage, []);
    assert_eq!(run.objects(), git_objects(&repo));
}

/// This repository's own history (a fresh clone in CI has it): every
/// object, packed or loose, as `git cat-file --batch-check` lists it.
#[test]
fn this_repository_matches_git() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let inside = std::process::Command::new("git")
        .args(["-C", root.to_str().unwrap(), "rev-parse", "--git-dir"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !inside {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI runs in a clone: its history must be there"
        );
        eprintln!("not a git checkout: skipped");
        return;
    }
    let run = verify(&root, 2, false);
    assert_eq!(run.summary.damage, [], "{:#?}", run.damage());
    let git_sees = git_objects(&root);
    assert!(
        git_sees.len() > 100,
        "a history of {} objects",
        git_sees.len()
    );
    // Every object git lists is verified (an object both packed and loose
    // is verified twice, with one id).
    assert_eq!(run.objects(), git_sees);
}
