//! The public API's conveniences: `Digest` conversions and formatting,
//! what `Hasher`'s `Debug` shows (and never shows), git objects.

mod common;

use common::skip::skip_or_fail;
use sha1dc_wasm::git::{ObjectHasher, ObjectKind, hash_object};
use sha1dc_wasm::{Digest, Hasher};

const ABC: &str = "a9993e364706816aba3e25717850c26c9cd0d89d";

fn abc() -> Digest {
    sha1dc_wasm::hash(b"abc").digest()
}

#[test]
fn digest_formatting_honours_width_fill_and_precision() {
    let d = abc();
    assert_eq!(format!("[{d:>44}]"), format!("[    {ABC}]"));
    assert_eq!(format!("[{d:<44}]"), format!("[{ABC}    ]"));
    assert_eq!(format!("[{d:*^44}]"), format!("[**{ABC}**]"));
    assert_eq!(
        format!("[{d:10}]"),
        format!("[{ABC}]"),
        "never truncated by width"
    );
    assert_eq!(format!("{d:.7}"), "a9993e3", "precision: git's short id");
    assert_eq!(format!("{d:x}"), ABC);
    assert_eq!(format!("[{d:>44x}]"), format!("[    {ABC}]"));
    assert_eq!(format!("{d:X}"), ABC.to_uppercase());
    assert_eq!(
        format!("[{d:-<42X}]"),
        format!("[{}--]", ABC.to_uppercase())
    );
    assert_eq!(format!("{d:#x}"), format!("0x{ABC}"));
    assert_eq!(format!("{d:#}"), ABC, "no prefix on Display");
    assert_eq!(format!("{d:?}"), format!("Digest({ABC})"));
    assert_eq!(format!("{d:#?}"), format!("Digest(\n    {ABC},\n)"));
}

#[test]
fn digest_conversions() {
    let d = abc();
    let bytes: [u8; 20] = d.into();
    assert_eq!(Digest::from(bytes), d);
    assert_eq!(Digest::from_bytes(bytes), d);
    assert_eq!(d, bytes);
    assert_eq!(bytes, d);
    assert!(d != [0u8; 20]);
    let slice: &[u8] = d.as_ref();
    assert_eq!(slice, &bytes[..]);
    assert_eq!(Digest::try_from(slice).unwrap(), d);
    for len in [0, 19, 21, 40] {
        let v = vec![0u8; len];
        assert!(Digest::try_from(&v[..]).is_err(), "{len} bytes");
    }
    let parsed: Digest = ABC.parse().unwrap();
    assert_eq!(parsed, d);
}

#[test]
fn hasher_debug_shows_the_mode_never_the_message() {
    let secret = b"password=hunter2; card=4111111111111111";
    let mut hasher = Hasher::builder()
        .reduced_round(true)
        .backend("portable")
        .unwrap()
        .build();
    hasher.update(secret);
    let shown = format!("{hasher:?}");
    assert_eq!(
        shown,
        format!(
            "Hasher {{ backend: \"portable\", detect_collisions: true, safe_hash: true, \
             reduced_round: true, use_filter: true, len: {}, .. }}",
            secret.len()
        )
    );
    // Not as text, not as the numbers a derived Debug prints for bytes.
    let pretty = format!("{hasher:#?}");
    for shown in [&shown, &pretty] {
        assert!(
            !shown.contains("hunter2") && !shown.contains("4111"),
            "{shown}"
        );
        assert!(!shown.contains("112, 97, 115, 115"), "{shown}");
        assert!(!shown.contains("buf"), "{shown}");
    }
    // An object hasher wraps one: the same.
    let mut object = Hasher::builder().build_object(ObjectKind::Blob, 7);
    object.update(b"hunter2");
    let shown = format!("{object:?}");
    assert!(!shown.contains("104, 117, 110"), "{shown}");
    assert!(shown.contains("kind: Blob"), "{shown}");
}

/// Ids `git hash-object` gives (checked with git 2.x): the empty blob and
/// tree, a blob, and a commit and a tag written out by hand.
#[test]
fn git_objects_match_git_hash_object() {
    let cases: [(ObjectKind, &[u8], &str); 4] = [
        (
            ObjectKind::Blob,
            b"",
            "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
        ),
        (
            ObjectKind::Tree,
            b"",
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        ),
        (
            ObjectKind::Blob,
            b"hello\n",
            "ce013625030ba8dba906f756967f9e9ca394464a",
        ),
        (
            ObjectKind::Blob,
            b"abc",
            "f2ba8f84ab5c1bce84a7b441cb1959cfc7093b7f",
        ),
    ];
    for (kind, content, id) in cases {
        assert_eq!(hash_object(kind, content).id().to_string(), id, "{kind}");
        let mut h = ObjectHasher::new(kind, content.len() as u64);
        for b in content {
            h.update(&[*b]);
        }
        assert_eq!(h.finalize().unwrap().id().to_string(), id, "{kind}");
    }
    // Every kind is its header and the content, nothing else.
    let content = b"tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nmsg\n";
    for (kind, name) in [
        (ObjectKind::Blob, "blob"),
        (ObjectKind::Tree, "tree"),
        (ObjectKind::Commit, "commit"),
        (ObjectKind::Tag, "tag"),
    ] {
        let mut whole = format!("{name} {}\0", content.len()).into_bytes();
        whole.extend_from_slice(content);
        let object = hash_object(kind, content);
        assert_eq!(object.id(), sha1dc_wasm::hash(&whole).digest(), "{name}");
        assert_eq!(object.header_len(), (whole.len() - content.len()) as u64);
        assert_eq!(kind.to_string(), name);
    }
}

#[test]
fn git_object_with_git_if_available() {
    let run = std::process::Command::new("git")
        .args(["hash-object", "-t", "commit", "--literally", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(b"any content\n")?;
            drop(stdin);
            child.wait_with_output()
        });
    let o = match run {
        Ok(o) => o,
        Err(e) => {
            skip_or_fail(&format!(
                "no git ({e}): git hash-object is not compared with"
            ));
            return;
        }
    };
    assert!(o.status.success(), "git hash-object: {o:?}");
    let want = String::from_utf8(o.stdout).unwrap();
    let got = hash_object(ObjectKind::Commit, b"any content\n").id();
    assert_eq!(format!("{got}\n"), want);
}

#[test]
fn git_object_length_must_match() {
    let mut h = ObjectHasher::new(ObjectKind::Blob, 3);
    h.update(b"abcd");
    assert_eq!(h.content_len(), 4);
    let err = h.finalize().unwrap_err();
    assert_eq!((err.expected(), err.actual()), (3, 4));
    assert_eq!(
        err.to_string(),
        "the git object's content was announced as 3 bytes, but 4 bytes were hashed"
    );
}

#[test]
fn git_object_options_and_report() {
    // SHA-mbles as it is, hashed as the content of a blob: the header moves
    // the collision off the block boundaries, so nothing is flagged and
    // the id is the one git computes (tests/data/DERIVED.tsv).
    let file = include_bytes!("data/sha-mbles-1.bin");
    let object = Hasher::builder()
        .safe_hash(false)
        .build_object(ObjectKind::Blob, file.len() as u64);
    let mut object = object;
    object.update(file);
    let outcome = object.finalize().unwrap();
    assert_eq!(
        outcome.id().to_string(),
        "5a7c30e97646c66422abe0a9793a5fcb9f1cf8d6"
    );
    assert_eq!(outcome.collision_offset(), None);
    assert_eq!(outcome.outcome().digest(), outcome.id());
    let plain: sha1dc_wasm::Outcome = outcome.into();
    assert_eq!(plain.sha1(), outcome.sha1());
}

/// A hasher is a plain value that fits in the reference's 2,400-byte C
/// context and is copied with memcpy: small, 8-byte aligned at most, nothing
/// to drop (no heap, no handle), and shareable between threads.
#[test]
fn a_hasher_is_a_small_plain_value() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Hasher>();
    assert!(
        std::mem::size_of::<Hasher>() <= 2048,
        "{}",
        std::mem::size_of::<Hasher>()
    );
    assert!(std::mem::align_of::<Hasher>() <= 8);
    assert!(!std::mem::needs_drop::<Hasher>());
}

/// The options' setters show in `Debug` at once, and `reset` keeps them.
#[test]
fn setters_change_the_options_and_reset_keeps_them() {
    let mut h = Hasher::new();
    h.set_detect_collisions(false);
    h.set_safe_hash(false);
    h.set_reduced_round(true);
    h.set_use_filter(false);
    h.update(b"abc");
    h.reset();
    let shown = format!("{h:?}");
    assert!(
        shown.contains(
            "detect_collisions: false, safe_hash: false, reduced_round: true, use_filter: false, len: 0"
        ),
        "{shown}"
    );
}

/// `{:?}` of an outcome shows what a person debugging needs: the digests
/// in hex, and for a collision the block, its offset and the DV's name.
#[test]
fn outcome_debug_names_the_dv_and_the_offset() {
    let outcome = sha1dc_wasm::hash(include_bytes!("data/shattered-1.prefix320.bin"));
    let shown = format!("{outcome:?}");
    assert!(
        shown.contains("Collision { block: 4, offset: 256, dv: II(52,0), count: 1 }"),
        "{shown}"
    );
    assert!(
        shown.contains("sha1: Digest(f92d74e3874587aaf443d1db961d4e26dde13e9c)"),
        "{shown}"
    );
    assert!(!shown.contains("index"), "{shown}");
}

/// A backend asked for by a wrong name: the error names it and the
/// backends this CPU runs.
#[test]
fn backend_error_names_the_name_and_the_choices() {
    let err = Hasher::builder().backend("sha-ni+avx1024").unwrap_err();
    assert_eq!(err.name(), "sha-ni+avx1024");
    let shown = err.to_string();
    let choices: Vec<&str> = sha1dc_wasm::available_backends().collect();
    assert_eq!(
        shown,
        format!(
            "no backend named \"sha-ni+avx1024\"; this CPU runs: {}",
            choices.join(", ")
        )
    );
    let long = "x".repeat(100);
    assert_eq!(
        Hasher::builder().backend(&long).unwrap_err().name().len(),
        40
    );
    assert!(format!("{err:?}").contains("\"sha-ni+avx1024\""));
}
