//! The native build's answers for the inputs tests/wasm.rs hashes in wasm:
//! tests/data/wasm_fixtures.tsv. Each row names an input the wasm test
//! regenerates (an optional public-collision prefix, then `len` bytes of
//! SplitMix64 output from `seed`) and the options, with the native result.
//!
//! One test checks the committed file against the native build; after a
//! change to the row list, rewrite it with
//! `SHA1DC_WRITE_FIXTURES=1 cargo test --test wasm_fixtures`. Another checks
//! every row against oracles that share no code with the library, so the
//! file the native build writes cannot carry the native build's mistakes
//! into the wasm test.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::SplitMix64;
use common::kat::{Mode, collision_field, fixture_input, rows, traces};

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

/// Every row against independent oracles:
///
/// - `sha1` against the `sha1` crate (plain SHA-1);
/// - `digest`, and whether `collision` is set, against `sha1-checked` in the
///   row's mode (it has the safe hash, the filter and reduced-round
///   detection: every mode of the file);
/// - sha1-checked reports no block or DV: the collision's block and DV
///   against the reference's trace of the prefix file (TRACE.txt, of the
///   shared vectors), since the random bytes come after the prefix's
///   colliding blocks and so the first flagged block is the trace's first;
///   the count only without the safe hash (the trace lists every block
///   that fires on the unchanged chain; the safe hash changes the chain
///   after the first), so with it the count is checked against native only.
#[test]
fn wasm_fixtures_match_independent_oracles() {
    use sha1::Digest as _;
    let text = common::text("wasm_fixtures.tsv");
    let trace_text = common::text("TRACE.txt");
    let traces = traces(&trace_text);
    let table = rows(&text);
    assert_eq!(table.len(), 100);
    let mut detailed = 0;
    for row in table {
        let [prefix, seed, len, safe, rr, digest, sha1, collision] = row[..] else {
            panic!("a row of 8 columns: {row:?}");
        };
        let what = format!("{prefix} {seed} {len} safe={safe} rr={rr}");
        let (safe, rr) = (safe == "1", rr == "1");
        let seed = u64::from_str_radix(seed, 16).unwrap();
        let data = fixture_input(prefix, seed, len.parse().unwrap(), &common::input);
        assert_eq!(sha1, hex(&sha1::Sha1::digest(&data)), "sha1: {what}");
        let mut oracle = sha1_checked::Sha1::builder()
            .safe_hash(safe)
            .reduced_round_collision(rr)
            .build();
        oracle.update(&data);
        let want = oracle.try_finalize();
        assert_eq!(digest, hex(want.hash()), "digest: {what}");
        assert_eq!(collision != "-", want.has_collision(), "collision: {what}");
        if collision == "-" {
            continue;
        }
        let trace = traces.iter().find(|t| t.name == prefix);
        let trace = trace.unwrap_or_else(|| panic!("a collision without a traced prefix: {what}"));
        let fired = if rr { &trace.rr } else { &trace.full };
        let (block, dv) = fired[0];
        let count = fired.len();
        // `block,DV,count`, the DV itself holding a comma: `4,II(52,0),1`.
        let (got_block, rest) = collision.split_once(',').unwrap();
        let (got_dv, got_count) = rest.rsplit_once(',').unwrap();
        assert_eq!(got_block, block.to_string(), "block: {what}");
        assert_eq!(got_dv, dv, "DV: {what}");
        if !safe {
            assert_eq!(got_count, count.to_string(), "count: {what}");
        }
        detailed += 1;
    }
    // Rows of every prefix with a collision, in every mode that flags one.
    assert_eq!(detailed, 50);
}

/// Lowercase hex, as the file writes digests.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
