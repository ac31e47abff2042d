//! Known answers: FIPS 180, the public collisions in every mode of the
//! reference (MANIFEST.tsv, TRACE.txt), git blob ids, prefix lengths.

mod common;

use common::kat::{self, Mode};
use common::{SplitMix64, hash_chunked, input, text};
use sha1dc_wasm::{Hasher, hash};

#[test]
fn fips_180_known_answers() {
    let cases: [(&[u8], &str); 3] = [
        (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
        ),
    ];
    for (msg, want) in cases {
        assert_eq!(hash(msg).digest().to_string(), want);
        assert_eq!(hash(msg).sha1().to_string(), want);
    }
    let million = vec![b'a'; 1_000_000];
    assert_eq!(
        hash(&million).digest().to_string(),
        "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
    );
}

#[test]
fn every_length_to_1100_matches_plain_sha1() {
    use sha1::Digest as _;
    let mut rng = SplitMix64(7);
    let mut data = vec![0u8; 1100];
    rng.fill(&mut data);
    for len in 0..=1100 {
        let want: [u8; 20] = sha1::Sha1::digest(&data[..len]).into();
        let got = hash(&data[..len]);
        assert_eq!(got.digest().as_bytes(), &want, "len {len}");
        assert_eq!(got.sha1().as_bytes(), &want, "len {len}");
        assert!(got.collision().is_none());
    }
}

#[test]
fn manifest_default_and_reduced_round() {
    kat::check_manifest(&text("MANIFEST.tsv"), &input);
}

#[test]
fn trace_every_mode_block_and_dv() {
    let mut rng = SplitMix64(1);
    let mut chunked = |h: Hasher, data: &[u8]| hash_chunked(h, data, &mut rng);
    // The unfiltered mode is 20 times slower: the 1 MiB inputs get it below.
    kat::check_trace(&text("TRACE.txt"), &input, 1 << 19, &mut chunked, "");
}

#[test]
fn the_unfiltered_mode_on_a_large_file() {
    // TRACE.txt's ubc=0 rows for the 1 MiB control, skipped above for speed
    // in the loop, checked once here.
    let data = input("ctrl-splitmix64-1MiB.bin");
    let unfiltered = Mode {
        filter: false,
        ..Mode::DEFAULT
    };
    let o = unfiltered.run(&data);
    assert_eq!(
        o.digest().to_string(),
        "ae05eec7f9d86602b8610fd208de905e6afaa691"
    );
    assert!(o.collision().is_none());
}

#[test]
fn derived_git_blob_ids() {
    kat::check_derived(&text("DERIVED.tsv"), &input);
}

#[test]
fn prefix_lengths_of_the_control() {
    kat::check_lengths(&text("LENGTHS.tsv"), &input("ctrl-splitmix64-1MiB.bin"));
}

#[test]
fn colliding_pairs_get_equal_sha1_and_different_outputs() {
    for (a, b) in [
        ("shattered-1.pdf", "shattered-2.pdf"),
        ("sha-mbles-1.bin", "sha-mbles-2.bin"),
    ] {
        let (x, y) = (hash(&input(a)), hash(&input(b)));
        assert_eq!(x.sha1(), y.sha1());
        assert_ne!(x.digest(), y.digest());
    }
}
