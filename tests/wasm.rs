//! The crate in WebAssembly: every public vector in every mode, chunking,
//! the native build's answers for generated inputs, random inputs, and the
//! simd128 backend being the one that runs.
//!
//! Runs in Node (`wasm-pack test --node`) and in a browser
//! (`WASM_BINDGEN_USE_BROWSER=1 wasm-pack test --headless --chrome`, also
//! with `WASM_BINDGEN_USE_DEDICATED_WORKER=1`): scripts/test-wasm.sh does
//! all three. Inputs are embedded (include_bytes!): there is no file system.
#![cfg(target_arch = "wasm32")]

mod common;

use common::kat::{self, Mode, collision_field, fixture_input, rows};
use common::{SplitMix64, control, splitmix64_bytes};
use sha1dc_wasm::{Hasher, Outcome, available_backends, hash};
use wasm_bindgen_test::wasm_bindgen_test;

const MANIFEST: &str = include_str!("data/MANIFEST.tsv");
const TRACE: &str = include_str!("data/TRACE.txt");
const DERIVED: &str = include_str!("data/DERIVED.tsv");
const LENGTHS: &str = include_str!("data/LENGTHS.tsv");
const FIXTURES: &str = include_str!("data/wasm_fixtures.tsv");

/// The named input, as tests/common's `input` but without a file system.
fn input(name: &str) -> Vec<u8> {
    if let Some(data) = control(name) {
        return data;
    }
    let file: &[u8] = match name {
        "shattered-1.pdf" => include_bytes!("data/shattered-1.pdf"),
        "shattered-2.pdf" => include_bytes!("data/shattered-2.pdf"),
        "shattered-1.prefix320.bin" => include_bytes!("data/shattered-1.prefix320.bin"),
        "shattered-2.prefix320.bin" => include_bytes!("data/shattered-2.prefix320.bin"),
        "sha-mbles-1.bin" => include_bytes!("data/sha-mbles-1.bin"),
        "sha-mbles-2.bin" => include_bytes!("data/sha-mbles-2.bin"),
        "sha1_reducedsha_coll.bin" => include_bytes!("data/sha1_reducedsha_coll.bin"),
        _ => panic!("no embedded input {name}"),
    };
    file.to_vec()
}

/// A seed from the platform's random source (crypto.getRandomValues), so
/// each run tries other chunkings and inputs; failures print it.
fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("getrandom in wasm (wasm_js)");
    u64::from_le_bytes(bytes)
}

/// Feeds `data` in chunks of random sizes: mostly small, some of many blocks.
fn chunked(mut h: Hasher, data: &[u8], rng: &mut SplitMix64) -> Outcome {
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.below(4) {
            0 => 1 + rng.below(8),
            1 => 1 + rng.below(130),
            2 => 64 * (1 + rng.below(80)),
            _ => 1 + rng.below(20_000),
        } as usize;
        let n = n.min(rest.len());
        h.update(&rest[..n]);
        rest = &rest[n..];
    }
    h.finalize()
}

#[wasm_bindgen_test]
fn the_simd128_backend_runs() {
    assert_eq!(Hasher::new().backend(), "simd128");
    assert_eq!(available_backends().next(), Some("simd128"));
    assert!(available_backends().any(|b| b == "portable"));
    assert_eq!(
        Hasher::builder()
            .backend("portable")
            .unwrap()
            .build()
            .backend(),
        "portable"
    );
}

#[wasm_bindgen_test]
fn manifest_default_and_reduced_round() {
    kat::check_manifest(MANIFEST, &input);
}

/// TRACE.txt: every input in every mode with the flagged block and DV, each
/// also through a random chunking.
#[wasm_bindgen_test]
fn trace_every_mode_block_and_dv() {
    let seed = random_seed();
    let mut rng = SplitMix64(seed);
    let mut chunks = |h: Hasher, data: &[u8]| chunked(h, data, &mut rng);
    // The unfiltered mode recompresses every block for all 32 DVs: the
    // native tests cover it for the large inputs.
    kat::check_trace(
        TRACE,
        &input,
        1 << 16,
        &mut chunks,
        &format!("(seed {seed:#x})"),
    );
}

#[wasm_bindgen_test]
fn derived_git_blob_ids() {
    kat::check_derived(DERIVED, &input);
}

#[wasm_bindgen_test]
fn prefix_lengths_of_the_control() {
    kat::check_lengths(LENGTHS, &input("ctrl-splitmix64-1MiB.bin"));
}

#[wasm_bindgen_test]
fn generated_inputs_match_the_native_build() {
    let seed = random_seed();
    let mut rng = SplitMix64(seed);
    let fixtures = rows(FIXTURES);
    assert_eq!(fixtures.len(), 100);
    for row in fixtures {
        let [prefix, seed_hex, len, safe, rr, digest, sha1, collision] = row[..] else {
            panic!("bad fixture row {row:?}");
        };
        let data_seed = u64::from_str_radix(seed_hex, 16).unwrap();
        let data = fixture_input(prefix, data_seed, len.parse().unwrap(), &input);
        let mode = Mode {
            safe_hash: safe == "1",
            reduced_round: rr == "1",
            ..Mode::DEFAULT
        };
        let what =
            format!("{prefix} + {len} bytes of seed {seed_hex} {mode} (chunking seed {seed:#x})");
        let o = mode.run(&data);
        assert_eq!(o.digest().to_string(), digest, "{what}");
        assert_eq!(o.sha1().to_string(), sha1, "{what}");
        assert_eq!(collision_field(&o), collision, "{what}");
        let c = chunked(mode.builder().build(), &data, &mut rng);
        assert_eq!(c, o, "{what} chunked");
    }
}

/// Random inputs from a getrandom seed: the simd128 backend against the
/// portable one (the reference the native tests check), in every mode,
/// with random chunkings; some carry a public collision at a random place.
#[wasm_bindgen_test]
fn random_inputs_simd128_against_portable() {
    let seed = random_seed();
    let mut rng = SplitMix64(seed);
    let prefixes = [
        "shattered-2.prefix320.bin",
        "sha-mbles-1.bin",
        "sha1_reducedsha_coll.bin",
    ];
    for case in 0..40 {
        let len = match case % 3 {
            0 => rng.below(200),
            1 => rng.below(5000),
            _ => rng.below(300_000),
        } as usize;
        let mut data = if case % 4 == 3 {
            input(prefixes[rng.below(3) as usize])
        } else {
            Vec::new()
        };
        let start = data.len();
        data.resize(start + len, 0);
        rng.fill(&mut data[start..]);
        let mode = Mode {
            safe_hash: rng.below(2) == 1,
            reduced_round: rng.below(2) == 1,
            ..Mode::DEFAULT
        };
        let what = format!("case {case}: {} bytes {mode} (seed {seed:#x})", data.len());
        let reference = {
            let mut h = mode.builder().backend("portable").unwrap().build();
            h.update(&data);
            h.finalize()
        };
        assert_eq!(mode.run(&data), reference, "{what}");
        let c = chunked(mode.builder().build(), &data, &mut rng);
        assert_eq!(c, reference, "{what} chunked");
    }
}

/// Every length around the block and padding boundaries, against the
/// portable backend, and the streaming hasher's reset and reuse.
#[wasm_bindgen_test]
fn every_length_to_600_and_reuse() {
    let data = splitmix64_bytes(random_seed(), 600);
    let mut reused = Hasher::new();
    for len in 0..=600 {
        let mut portable = Hasher::builder().backend("portable").unwrap().build();
        portable.update(&data[..len]);
        let want = portable.finalize();
        assert_eq!(hash(&data[..len]), want, "len {len}");
        reused.update(&data[..len]);
        assert_eq!(reused.finalize_reset(), want, "len {len} reused");
    }
}

/// One input "on two threads" where no thread starts (wasm32 has none):
/// the calls hash on the calling thread alone, with the one-thread
/// outcome, and never panic; the collision of the whole SHAttered file too.
#[wasm_bindgen_test]
fn two_thread_calls_run_alone_without_threads() {
    let mut inputs = vec![input("shattered-1.pdf")];
    inputs.push(splitmix64_bytes(random_seed(), (1 << 20) + 77));
    for data in &inputs {
        let want = hash(data);
        let mut slice = Hasher::new();
        slice.update(&data[..5]);
        slice.update_parallel(&data[5..]);
        assert_eq!(slice.finalize(), want);
        let mut read = Hasher::new();
        let n = read
            .update_reader_parallel(&data[..])
            .expect("a slice reads");
        assert_eq!(n, data.len() as u64);
        assert_eq!(read.finalize(), want);
    }
    assert!(hash(&inputs[0]).collision().is_some());
}
