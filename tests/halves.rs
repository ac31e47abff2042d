//! The engine's two halves run apart (`BlockFilter` and
//! `Hasher::update_with_masks`), as two threads or two Web Workers run
//! them: with random chunkings, on every backend and in every mode, the
//! outcome and the reports of the one-thread path; the masks are the
//! reference's; a wrong number of masks is an error that changes nothing.

mod common;

use common::kat::{MODES, Mode};
use common::{SplitMix64, input, light, splitmix64_bytes, tsv};
use sha1dc_wasm::{BlockFilter, CollisionBlock, Hasher, Outcome, available_backends};

/// The smallest colliding pieces of the public collisions, and the
/// reduced-round block.
const COLLISIONS: [&str; 5] = [
    "shattered-1.prefix320.bin",
    "shattered-2.prefix320.bin",
    "sha-mbles-1.bin",
    "sha-mbles-2.bin",
    "sha1_reducedsha_coll.bin",
];

/// `data` on the one-thread path, with every report.
fn one_thread(h: Hasher, data: &[u8]) -> (Outcome, Vec<CollisionBlock>) {
    let mut h = h;
    let mut seen = Vec::new();
    h.update_reporting(data, &mut |b| seen.push(b.clone()));
    let outcome = h.finalize_reporting(&mut |b| seen.push(b.clone()));
    (outcome, seen)
}

/// `data` through the two halves: its first `before` bytes on the
/// one-thread path, the rest in chunks of random sizes, each filtered by a
/// `BlockFilter` made then, its masks handed to the hasher with the chunk.
fn halves(
    h: Hasher,
    data: &[u8],
    before: usize,
    rng: &mut SplitMix64,
) -> (Outcome, Vec<CollisionBlock>) {
    let mut h = h;
    let mut seen = Vec::new();
    h.update_reporting(&data[..before], &mut |b| seen.push(b.clone()));
    let mut filter = h.block_filter();
    let mut rest = &data[before..];
    let mut masks = Vec::new();
    while !rest.is_empty() {
        let most = [3, 70, 300, 5000][rng.below(4) as usize];
        let n = (1 + rng.below(most) as usize).min(rest.len());
        masks.resize(filter.masks_for(n), u32::MAX);
        let count = filter.filter(&rest[..n], &mut masks).unwrap();
        assert_eq!(count, masks.len());
        h.update_with_masks_reporting(&rest[..n], &masks, &mut |b| seen.push(b.clone()))
            .unwrap();
        rest = &rest[n..];
    }
    let outcome = h.finalize_reporting(&mut |b| seen.push(b.clone()));
    (outcome, seen)
}

/// A message for `rng`: a public collision (or nothing) followed by up to
/// `most` random bytes.
fn message(rng: &mut SplitMix64, most: u64) -> Vec<u8> {
    let pick = rng.below(COLLISIONS.len() as u64 + 1) as usize;
    let mut m = COLLISIONS.get(pick).map(|n| input(n)).unwrap_or_default();
    let start = m.len();
    m.resize(start + rng.below(most) as usize, 0);
    rng.fill(&mut m[start..]);
    m
}

#[test]
fn the_halves_with_random_chunkings_equal_the_one_thread_path() {
    let mut rng = SplitMix64(0x4a1f);
    let rounds = if light() { 4 } else { 30 };
    for backend in available_backends() {
        for mode in MODES {
            let most = if mode.filter { 20_000 } else { 1_500 };
            for round in 0..rounds {
                let m = message(&mut rng, most);
                let want = one_thread(mode.hasher_on(backend), &m);
                let before = rng.below(m.len() as u64 + 1) as usize % 300;
                let got = halves(mode.hasher_on(backend), &m, before, &mut rng);
                let what = format!("{backend} {mode} round {round}, {} bytes", m.len());
                assert_eq!(got.0, want.0, "{what}, {before} before");
                assert_eq!(got.1, want.1, "{what}, {before} before: reports");
            }
        }
    }
}

/// Whole public collision files, the first flagged block reported as the
/// one-thread path reports it.
#[test]
fn the_halves_report_the_first_flagged_block_of_each_collision() {
    let mut rng = SplitMix64(0x51de);
    for name in ["shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin"] {
        let data = input(name);
        for mode in [Mode::DEFAULT, Mode::REDUCED_ROUND] {
            for backend in available_backends() {
                let want = one_thread(mode.hasher_on(backend), &data);
                let got = halves(mode.hasher_on(backend), &data, 0, &mut rng);
                assert_eq!(got, want, "{name} {mode} {backend}");
                assert!(got.0.collision().is_some(), "{name}");
            }
        }
    }
}

/// The masks of the 1 MiB control, in any chunking, from any backend's
/// filter: the reference's non-zero masks, and zero for every other block.
#[test]
fn the_masks_are_the_reference_masks() {
    let data = splitmix64_bytes(0x0123_4567_89AB_CDEF, 1 << 20);
    let mut want = vec![0u32; data.len() / 64];
    for row in tsv("UBC_MASKS_splitmix64.tsv") {
        if let Ok(block) = row[0].parse::<usize>() {
            if block < want.len() {
                want[block] = u32::from_str_radix(&row[1], 16).unwrap();
            }
        }
    }
    assert_eq!(want.iter().filter(|&&m| m != 0).count(), 781);
    let mut rng = SplitMix64(0x3a5c);
    for backend in available_backends() {
        let mut filter = Hasher::builder()
            .backend(backend)
            .unwrap()
            .build()
            .block_filter();
        let mut got = Vec::new();
        let mut rest = &data[..];
        while !rest.is_empty() {
            let n = (1 + rng.below(100_000) as usize).min(rest.len());
            let mut masks = vec![0; filter.masks_for(n) + 3];
            let count = filter.filter(&rest[..n], &mut masks).unwrap();
            got.extend_from_slice(&masks[..count]);
            rest = &rest[n..];
        }
        assert_eq!(got, want, "{backend}");
    }
}

#[test]
fn a_wrong_number_of_masks_is_an_error_and_changes_nothing() {
    let data = input("shattered-1.prefix320.bin");
    let mut h = Hasher::new();
    h.update(&data[..10]);
    let mut filter: BlockFilter = h.block_filter();
    // 200 bytes after 10 complete 3 blocks.
    assert_eq!(filter.masks_for(200), 3);
    let mut short = [0u32; 2];
    let err = filter.filter(&data[10..210], &mut short).unwrap_err();
    assert_eq!((err.expected(), err.given()), (3, 2));
    assert_eq!(
        err.to_string(),
        "a chunk that completes 3 blocks needs as many masks, not 2"
    );
    let mut masks = [u32::MAX; 3];
    assert_eq!(filter.filter(&data[10..210], &mut masks), Ok(3));
    for wrong in [&masks[..2], &[0; 4][..], &[]] {
        let err = h.update_with_masks(&data[10..210], wrong).unwrap_err();
        assert_eq!((err.expected(), err.given()), (3, wrong.len()));
        assert_eq!(h.len(), 10);
    }
    h.update_with_masks(&data[10..210], &masks).unwrap();
    let mut masks = vec![0; filter.masks_for(110)];
    filter.filter(&data[210..], &mut masks).unwrap();
    h.update_with_masks(&data[210..], &masks).unwrap();
    assert_eq!(h.finalize(), sha1dc_wasm::hash(&data));
}

/// The masks name the candidates; the hasher tests exactly those. A block
/// whose mask is all ones is tested for every DV (as with the filter off),
/// which never changes a result.
#[test]
fn masks_only_choose_what_is_tested() {
    let data = input("sha-mbles-1.bin");
    let want = sha1dc_wasm::hash(&data);
    let mut h = Hasher::new();
    h.update_with_masks(&data, &[u32::MAX; 10]).unwrap();
    assert_eq!(h.finalize(), want);
    // No candidate: the collision goes unseen, the SHA-1 stays.
    let mut h = Hasher::new();
    h.update_with_masks(&data, &[0; 10]).unwrap();
    let blind = h.finalize();
    assert_eq!(blind.collision(), None);
    assert_eq!(blind.sha1(), want.sha1());
}
