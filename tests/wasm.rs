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

use common::{SplitMix64, splitmix64_bytes};
use sha1dc_wasm::{Hasher, Outcome, available_backends, hash};
use wasm_bindgen_test::wasm_bindgen_test;

const MANIFEST: &str = include_str!("data/MANIFEST.tsv");
const TRACE: &str = include_str!("data/TRACE.txt");
const DERIVED: &str = include_str!("data/DERIVED.tsv");
const LENGTHS: &str = include_str!("data/LENGTHS.tsv");
const FIXTURES: &str = include_str!("data/wasm_fixtures.tsv");

/// The named input, as tests/common's `input` but without a file system.
fn input(name: &str) -> Vec<u8> {
    let file: &[u8] = match name {
        "shattered-1.pdf" => include_bytes!("data/shattered-1.pdf"),
        "shattered-2.pdf" => include_bytes!("data/shattered-2.pdf"),
        "shattered-1.prefix320.bin" => include_bytes!("data/shattered-1.prefix320.bin"),
        "shattered-2.prefix320.bin" => include_bytes!("data/shattered-2.prefix320.bin"),
        "sha-mbles-1.bin" => include_bytes!("data/sha-mbles-1.bin"),
        "sha-mbles-2.bin" => include_bytes!("data/sha-mbles-2.bin"),
        "sha1_reducedsha_coll.bin" => include_bytes!("data/sha1_reducedsha_coll.bin"),
        "ctrl-empty.bin" => b"",
        "ctrl-abc.bin" => b"abc",
        "ctrl-nist-448bit.bin" => b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "ctrl-million-a.bin" => return vec![b'a'; 1_000_000],
        "ctrl-splitmix64-1MiB.bin" => return splitmix64_bytes(0x0123_4567_89AB_CDEF, 1 << 20),
        _ => panic!("no embedded input {name}"),
    };
    file.to_vec()
}

/// Rows of a tab-separated text, header and comments skipped.
fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect()
}

/// A seed from the platform's random source (crypto.getRandomValues), so
/// each run tries other chunkings and inputs; failures print it.
fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("getrandom in wasm (wasm_js)");
    u64::from_le_bytes(bytes)
}

fn builder(safe: bool, ubc: bool, rr: bool, detect: bool) -> sha1dc_wasm::Builder {
    Hasher::builder()
        .safe_hash(safe)
        .use_filter(ubc)
        .reduced_round(rr)
        .detect_collisions(detect)
}

fn run(data: &[u8], safe: bool, ubc: bool, rr: bool, detect: bool) -> Outcome {
    let mut h = builder(safe, ubc, rr, detect).build();
    h.update(data);
    h.finalize()
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
    for row in rows(MANIFEST) {
        let (name, bytes, sha1, coll, out, rr_coll, rr_out) =
            (row[0], row[1], row[2], row[3], row[4], row[7], row[8]);
        let data = input(name);
        assert_eq!(data.len().to_string(), bytes, "{name}");
        let d = hash(&data);
        assert_eq!(d.sha1().to_string(), sha1, "{name}");
        assert_eq!(d.digest().to_string(), out, "{name}");
        assert_eq!(d.collision().is_some(), coll == "yes", "{name}");
        let r = run(&data, true, true, true, true);
        assert_eq!(r.sha1().to_string(), sha1, "{name} rr");
        assert_eq!(r.digest().to_string(), rr_out, "{name} rr");
        assert_eq!(r.collision().is_some(), rr_coll == "yes", "{name} rr");
    }
}

/// (safe, ubc, rr, detect), the output hex, and whether it was flagged.
type Mode<'a> = ((bool, bool, bool, bool), &'a str, bool);
/// (reduced-round mode, block, DV name) of the first block that fires.
type First<'a> = (bool, u64, &'a str);

/// TRACE.txt: for every input, every mode's output and flag, and the block
/// and DV of the first detection; each also with a random chunking.
#[wasm_bindgen_test]
fn trace_every_mode_block_and_dv() {
    let seed = random_seed();
    let mut rng = SplitMix64(seed);
    let mut name = "";
    let mut data = Vec::new();
    let mut firsts: Vec<First> = Vec::new();
    let mut modes: Vec<Mode> = Vec::new();
    let mut check = |name: &str, data: &[u8], modes: &[Mode], firsts: &[First]| {
        for &((safe, ubc, rr, detect), hex, coll) in modes {
            // The unfiltered mode recompresses every block for all 32 DVs:
            // the native tests cover it for the large inputs.
            if !ubc && data.len() > 1 << 16 {
                continue;
            }
            let what =
                format!("{name} safe={safe} ubc={ubc} rr={rr} detect={detect} (seed {seed:#x})");
            let o = run(data, safe, ubc, rr, detect);
            assert_eq!(o.digest().to_string(), hex, "{what}");
            assert_eq!(o.collision().is_some(), coll, "{what}");
            let c = chunked(builder(safe, ubc, rr, detect).build(), data, &mut rng);
            assert_eq!(c, o, "{what} chunked");
            if let Some(c) = o.collision() {
                let first = firsts.iter().find(|f| f.0 == rr).expect("a traced block");
                assert_eq!((c.block(), c.offset()), (first.1, first.1 * 64), "{what}");
                assert_eq!(c.dv().to_string(), first.2, "{what}");
            }
        }
    };
    let mut files = 0;
    for line in TRACE.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("file=") {
            if !name.is_empty() {
                check(name, &data, &modes, &firsts);
            }
            name = rest.split_whitespace().next().unwrap();
            data = input(name);
            modes.clear();
            firsts.clear();
            files += 1;
        } else if line.contains(" coll=") {
            let (mode, result) = line.split_once(": ").unwrap();
            let (hex, coll) = result.split_once(" coll=").unwrap();
            let flag = |k: &str| mode.contains(&format!("{k}=1"));
            let key = if mode.contains("detect=off") {
                (true, true, false, false)
            } else {
                (flag("safe"), flag("ubc"), flag("rr"), true)
            };
            modes.push((key, hex.trim(), coll.trim() == "1"));
        } else if line.starts_with("[full] block") || line.starts_with("[rr] block") {
            let rr = line.starts_with("[rr]");
            let block = line.split_whitespace().nth(2).unwrap().parse().unwrap();
            let dv = line
                .split("DV ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            if !firsts.iter().any(|f| f.0 == rr) {
                firsts.push((rr, block, dv));
            }
        }
    }
    check(name, &data, &modes, &firsts);
    assert_eq!(files, 12, "TRACE.txt lists 12 inputs");
}

#[wasm_bindgen_test]
fn derived_git_blob_ids() {
    for row in rows(DERIVED) {
        let name = row[0].split("+ ").nth(1).unwrap();
        let data = input(name);
        let mut h = Hasher::new();
        h.update(format!("blob {}\0", data.len()).as_bytes());
        h.update(&data);
        let o = h.finalize();
        assert_eq!(o.sha1().to_string(), row[2], "{name}");
        assert_eq!(o.digest().to_string(), row[4], "{name}");
        assert_eq!(o.collision().is_some(), row[3] == "yes", "{name}");
    }
}

#[wasm_bindgen_test]
fn prefix_lengths_of_the_control() {
    let data = input("ctrl-splitmix64-1MiB.bin");
    for row in rows(LENGTHS) {
        let len: usize = row[0].parse().unwrap();
        assert_eq!(
            hash(&data[..len]).digest().to_string(),
            row[1],
            "prefix {len}"
        );
    }
}

/// tests/data/wasm_fixtures.tsv: the native build's results for generated
/// inputs, each fed in one piece and in a random chunking.
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
        let mut data = if prefix == "-" {
            Vec::new()
        } else {
            input(prefix)
        };
        let data_seed = u64::from_str_radix(seed_hex, 16).unwrap();
        data.extend_from_slice(&splitmix64_bytes(data_seed, len.parse().unwrap()));
        let (safe, rr) = (safe == "1", rr == "1");
        let what = format!(
            "{prefix} + {len} bytes of seed {seed_hex} safe={safe} rr={rr} (chunking seed {seed:#x})"
        );
        let o = run(&data, safe, true, rr, true);
        assert_eq!(o.digest().to_string(), digest, "{what}");
        assert_eq!(o.sha1().to_string(), sha1, "{what}");
        let got = o.collision().map_or("-".to_owned(), |c| {
            format!("{},{},{}", c.block(), c.dv(), c.count())
        });
        assert_eq!(got, collision, "{what}");
        let c = chunked(builder(safe, true, rr, true).build(), &data, &mut rng);
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
        let (safe, rr) = (rng.below(2) == 1, rng.below(2) == 1);
        let what = format!(
            "case {case}: {} bytes safe={safe} rr={rr} (seed {seed:#x})",
            data.len()
        );
        let reference = {
            let mut h = builder(safe, true, rr, true)
                .backend("portable")
                .unwrap()
                .build();
            h.update(&data);
            h.finalize()
        };
        assert_eq!(run(&data, safe, true, rr, true), reference, "{what}");
        let c = chunked(builder(safe, true, rr, true).build(), &data, &mut rng);
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
