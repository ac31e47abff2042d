//! Every object of a real git repository through the batch API and through
//! the single stream: each object id must equal git's own (from
//! `git cat-file --batch-all-objects --batch`), none may be flagged, and the
//! two paths are timed against each other (median of interleaved rounds).
//!
//! ```text
//! scripts/git-corpus.sh                       # builds a corpus repository, runs this
//! cargo bench --bench git_corpus -- REPO      # any repository (default: this one)
//! ```
// Built with the dev-dependencies, whose peers need Rust 1.87: not with
// the library's rust-version.
#![allow(clippy::incompatible_msrv)]

mod common;
use common::median;

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::Instant;

use sha1dc_wasm::git::{ObjectKind, hash_object};

struct Object {
    id: String,
    kind: ObjectKind,
    content: Vec<u8>,
}

/// Every object of `repo`, as `git cat-file --batch-all-objects --batch` gives them.
fn objects(repo: &str) -> Vec<Object> {
    let mut child = Command::new("git")
        .args(["-C", repo, "cat-file", "--batch-all-objects", "--batch"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("git cat-file");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut all = vec![];
    let mut line = String::new();
    while out.read_line(&mut line).expect("read") > 0 {
        let mut fields = line.split_whitespace();
        let (id, kind, size) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let kind = match kind {
            "blob" => ObjectKind::Blob,
            "tree" => ObjectKind::Tree,
            "commit" => ObjectKind::Commit,
            "tag" => ObjectKind::Tag,
            other => panic!("object kind {other}"),
        };
        let mut content = vec![0u8; size.parse().unwrap()];
        out.read_exact(&mut content).expect("content");
        let mut newline = [0u8; 1];
        out.read_exact(&mut newline).expect("separator");
        all.push(Object {
            id: id.to_owned(),
            kind,
            content,
        });
        line.clear();
    }
    assert!(child.wait().expect("git").success());
    all
}

fn main() {
    let repo = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").to_owned());
    let all = objects(&repo);
    let bytes: usize = all.iter().map(|o| o.content.len()).sum();
    let kinds = [
        ObjectKind::Blob,
        ObjectKind::Tree,
        ObjectKind::Commit,
        ObjectKind::Tag,
    ];
    let by_kind: Vec<(ObjectKind, Vec<&Object>)> = kinds
        .iter()
        .map(|&k| (k, all.iter().filter(|o| o.kind == k).collect()))
        .collect();
    let builder = sha1dc_wasm::Hasher::builder();

    // Correctness: every id equal, nothing flagged, on both paths.
    let mut checked = 0;
    for (kind, objects) in &by_kind {
        let contents: Vec<&[u8]> = objects.iter().map(|o| o.content.as_slice()).collect();
        let batch = builder.hash_objects(*kind, &contents);
        for (o, b) in objects.iter().zip(&batch) {
            assert_eq!(b.id().to_string(), o.id, "batch: {kind} {}", o.id);
            assert!(b.collision().is_none(), "flagged: {}", o.id);
            assert_eq!(
                *b,
                hash_object(*kind, &o.content),
                "single stream: {}",
                o.id
            );
            checked += 1;
        }
    }
    println!("CPU: {}", common::cpu());
    println!(
        "{repo}: {checked} objects, {:.1} MiB: every id equal to git's, none flagged (backend {})",
        bytes as f64 / (1 << 20) as f64,
        sha1dc_wasm::Hasher::new().backend()
    );

    // Time: the batch per kind against hash_object one by one, interleaved.
    let (mut batch_s, mut single_s) = (vec![], vec![]);
    for _ in 0..7 {
        let start = Instant::now();
        for (kind, objects) in &by_kind {
            let contents: Vec<&[u8]> = objects.iter().map(|o| o.content.as_slice()).collect();
            std::hint::black_box(builder.hash_objects(*kind, &contents));
        }
        batch_s.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        for o in &all {
            std::hint::black_box(hash_object(o.kind, &o.content));
        }
        single_s.push(start.elapsed().as_secs_f64());
    }
    let (b, s) = (median(&mut batch_s), median(&mut single_s));
    let mib = bytes as f64 / (1 << 20) as f64;
    println!(
        "batch {:.1} ms ({:.0} MiB/s), single stream {:.1} ms ({:.0} MiB/s): batch {:.2}x",
        b * 1e3,
        mib / b,
        s * 1e3,
        mib / s,
        s / b
    );
}
