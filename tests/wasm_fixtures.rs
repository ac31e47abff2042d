//! The native build's answers for the inputs tests/wasm.rs hashes in wasm:
//! tests/data/wasm_fixtures.tsv. Each row names an input the wasm test
//! regenerates (an optional public-collision prefix, then `len` bytes of
//! SplitMix64 output from `seed`) and the options, with the native result.
//!
//! This test checks the committed file against the native build; after a
//! change to the row list, rewrite it with
//! `SHA1DC_WRITE_FIXTURES=1 cargo test --test wasm_fixtures`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::SplitMix64;
use common::kat::{Mode, collision_field, fixture_input};

/// Prefixes a row may start with (files of tests/data, or none).
const PREFIXES: [&str; 5] = [
    "-",
    "shattered-1.prefix320.bin",
    "-",
    "sha-mbles-2.bin",
    "sha1_reducedsha_coll.bin",
];

/// Lengths at block and padding boundaries, then random ones.
const LENGTHS: [usize; 20] = [
    0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 191, 4095, 4096, 4097, 65535, 65537,
];

fn fixture() -> String {
    let mut out = String::from(
        "# Native results for tests/wasm.rs (written by tests/wasm_fixtures.rs; do not edit)\n\
         prefix\tseed\tlen\tsafe_hash\treduced_round\tdigest\tsha1\tcollision\n",
    );
    let mut rng = SplitMix64(0x5EED_F1C7_0000_0001);
    for i in 0..100 {
        let prefix = PREFIXES[i % PREFIXES.len()];
        let len = LENGTHS
            .get(i)
            .copied()
            .unwrap_or_else(|| rng.below(70_000) as usize);
        let seed = rng.next_u64();
        let (safe, rr) = ((i / 5) % 2 == 0, (i / 10) % 2 == 1);
        let data = fixture_input(prefix, seed, len, &common::input);
        let mode = Mode {
            safe_hash: safe,
            reduced_round: rr,
            ..Mode::DEFAULT
        };
        let o = mode.run(&data);
        out += &format!(
            "{prefix}\t{seed:016x}\t{len}\t{}\t{}\t{}\t{}\t{}\n",
            u8::from(safe),
            u8::from(rr),
            o.digest(),
            o.sha1(),
            collision_field(&o)
        );
    }
    out
}

#[test]
fn wasm_fixtures_match_the_native_build() {
    let path = common::data_dir().join("wasm_fixtures.tsv");
    let want = fixture();
    if std::env::var_os("SHA1DC_WRITE_FIXTURES").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is stale: rewrite it with SHA1DC_WRITE_FIXTURES=1 cargo test --test wasm_fixtures",
        path.display()
    );
    // Public-collision prefixes are detected, so the fixture tests the report too.
    assert!(want.lines().any(|l| l.ends_with(",II(52,0),1")));
}
