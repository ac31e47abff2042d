//! The batch form (many messages at once, one per vector lane) against the
//! streaming hasher, for every backend this CPU runs: random lengths around
//! block boundaries and up to the single-stream cut-over, the public
//! collisions in random places of a batch (so in random lanes), every mode,
//! and git objects.

mod common;

use common::kat::{MODES, Mode};
use common::{SplitMix64, input, light};
use sha1dc_wasm::git::{ObjectKind, hash_object};
use sha1dc_wasm::{Builder, Outcome, available_backends};

/// `messages` through the batch form of `backend` in `mode`, each checked
/// against the streaming hasher of the same backend and mode.
fn check(backend: &str, mode: Mode, messages: &[Vec<u8>], context: &str) -> Vec<Outcome> {
    let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
    let b = mode.on(backend);
    let got = b.hash_many(&refs);
    assert_eq!(got.len(), messages.len());
    for (i, (m, g)) in messages.iter().zip(&got).enumerate() {
        let mut h = b.build();
        h.update(m);
        assert_eq!(
            *g,
            h.finalize(),
            "{backend} {mode} {context}: message {i} of {} bytes",
            m.len()
        );
    }
    got
}

fn random_messages(rng: &mut SplitMix64, count: usize, max: u64) -> Vec<Vec<u8>> {
    (0..count)
        .map(|_| {
            // Mostly short, some long: lanes end at different times.
            let len = match rng.below(4) {
                0 => rng.below(130),
                1 => 64 * rng.below(5) + 55 + rng.below(3),
                _ => rng.below(max),
            };
            let mut m = vec![0u8; len as usize];
            rng.fill(&mut m);
            m
        })
        .collect()
}

#[test]
fn random_lengths_every_backend_every_mode() {
    let mut rng = SplitMix64(0x3a7c);
    let rounds = if light() { 2 } else { 6 };
    for backend in available_backends() {
        for mode in MODES {
            for round in 0..rounds {
                let count = rng.below(70) as usize;
                // Unfiltered modes recompress every block: keep them small.
                let max = if mode.filter { 9000 } else { 300 };
                let messages = random_messages(&mut rng, count, max);
                check(backend, mode, &messages, &format!("round {round}"));
            }
        }
    }
}

/// Every length from 0 to 200 bytes in one batch, and the empty batch.
#[test]
fn every_short_length() {
    let messages: Vec<Vec<u8>> = (0..=200)
        .map(|n| (0..n).map(|i| i as u8).collect())
        .collect();
    for backend in available_backends() {
        check(backend, Mode::DEFAULT, &messages, "lengths 0..=200");
        assert!(Mode::DEFAULT.on(backend).hash_many::<&[u8]>(&[]).is_empty());
    }
}

/// The public collisions at random places among random messages, so the
/// flagged block lands in a random lane at a random step; long messages
/// (over the single-stream cut-over) among them.
#[test]
fn collisions_in_random_lanes() {
    let files = [
        "shattered-1.pdf",
        "shattered-2.pdf",
        "sha-mbles-1.bin",
        "sha-mbles-2.bin",
    ];
    let collisions: Vec<Vec<u8>> = files.iter().map(|f| input(f)).collect();
    let mut rng = SplitMix64(0xc011);
    let rounds = if light() { 1 } else { 4 };
    for backend in available_backends() {
        for mode in MODES.iter().copied().filter(|m| m.filter) {
            for round in 0..rounds {
                let mut messages = random_messages(&mut rng, 30, 5000);
                for c in &collisions {
                    let at = rng.below(messages.len() as u64 + 1) as usize;
                    messages.insert(at, c.clone());
                }
                let mut long = vec![0u8; 300_000];
                rng.fill(&mut long);
                messages.insert(rng.below(messages.len() as u64) as usize, long);
                let got = check(backend, mode, &messages, &format!("round {round}"));
                let flagged = got.iter().filter(|o| o.collision().is_some()).count();
                if mode.detect {
                    assert!(
                        flagged >= collisions.len(),
                        "{backend} {mode}: {flagged} flagged"
                    );
                }
            }
        }
    }
}

/// Git objects: each equals `hash_object`, across the internal chunks.
#[test]
fn git_objects() {
    let mut rng = SplitMix64(0x61f);
    let contents = random_messages(&mut rng, 600, 3000);
    let refs: Vec<&[u8]> = contents.iter().map(Vec::as_slice).collect();
    for backend in available_backends() {
        for kind in [
            ObjectKind::Blob,
            ObjectKind::Tree,
            ObjectKind::Commit,
            ObjectKind::Tag,
        ] {
            let got = Mode::DEFAULT.on(backend).hash_objects(kind, &refs);
            for (c, g) in refs.iter().zip(&got) {
                assert_eq!(*g, hash_object(kind, c), "{backend} {kind}");
            }
        }
    }
}

#[test]
fn no_alloc_form_and_length_mismatch() {
    let messages: [&[u8]; 2] = [b"abc", b"def"];
    let mut out = [Outcome::default(); 2];
    Builder::default()
        .hash_many_into(&messages, &mut out)
        .unwrap();
    assert_eq!(out[1], sha1dc_wasm::hash(b"def"));
    // A mismatch is an error that names both lengths, and nothing is
    // written (the library never panics on what it is given).
    let mut short = [Outcome::default(); 1];
    let err = Builder::default()
        .hash_many_into(&messages, &mut short)
        .unwrap_err();
    assert_eq!((err.inputs(), err.outputs()), (2, 1));
    assert_eq!(short, [Outcome::default()]);
    assert!(err.to_string().contains("2 inputs but room for 1"), "{err}");
    let mut objects = [hash_object(ObjectKind::Blob, b""); 3];
    let err = Builder::default()
        .hash_objects_into(ObjectKind::Blob, &messages, &mut objects)
        .unwrap_err();
    assert_eq!((err.inputs(), err.outputs()), (2, 3));
}

/// Messages as users hold them: any slice of byte containers.
#[test]
fn messages_in_any_container() {
    let owned: Vec<Vec<u8>> = vec![b"abc".to_vec(), vec![7; 300], Vec::new()];
    let want: Vec<Outcome> = owned.iter().map(|m| sha1dc_wasm::hash(m)).collect();
    assert_eq!(sha1dc_wasm::hash_many(&owned), want);
    assert_eq!(Builder::default().hash_many(&owned), want);
    let strings = ["abc".to_string(), "hello\n".to_string()];
    assert_eq!(sha1dc_wasm::hash_many(&strings)[0], want[0]);
    let ids = Builder::default().hash_objects(ObjectKind::Blob, &owned);
    assert_eq!(ids[1], hash_object(ObjectKind::Blob, &owned[1]));
    let mut out = vec![Outcome::default(); owned.len()];
    Builder::default().hash_many_into(&owned, &mut out).unwrap();
    assert_eq!(out, want);
}
