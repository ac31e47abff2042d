//! Differential tests against `sha1-checked`, an independent implementation
//! of the same detection, and against the plain `sha1` crate.
//!
//! Sizes scale with environment variables so the same tests serve the normal
//! run, the slow runs under QEMU and the long run:
//! - `SHA1DC_DIFF_MESSAGES`: random messages (default 200000);
//! - `SHA1DC_DIFF_BLOCKS`: keep drawing messages until at least this many
//!   64-byte blocks were compared per mode (the long run uses 10000000);
//! - `SHA1DC_DIFF_SEED`: the PRNG seed (default: from the clock, printed).

mod common;

use common::kat::{FILTERED, MODES, Mode};
use common::{SplitMix64, hash_chunked, input};
use sha1_checked::CollisionResult;
use sha1dc_wasm::Outcome;

/// The modes compared, a subset of the one list (common::kat::MODES): the
/// four filtered modes that detect (`FILTERED`, all near_collision_inputs
/// compares), no detection, and one unfiltered mode, compared on a sample
/// (it is 20 times slower and only ever changes speed). sha1-checked runs
/// every mode; the other three unfiltered modes are left out for time
/// (tests/backends.rs and tests/vectors.rs run them against the portable
/// backend and TRACE.txt).
const COMPARED: [Mode; 6] = [
    FILTERED[0],
    FILTERED[1],
    FILTERED[2],
    FILTERED[3],
    MODES[8],
    MODES[2],
];

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}")),
        Err(_) => default,
    }
}

fn seed() -> u64 {
    let seed = env_u64(
        "SHA1DC_DIFF_SEED",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
    );
    eprintln!("differential seed: SHA1DC_DIFF_SEED={seed}");
    seed
}

fn oracle(data: &[u8], mode: Mode) -> CollisionResult {
    use sha1_checked::Digest as _;
    let mut o = sha1_checked::Sha1::builder()
        .safe_hash(mode.safe_hash)
        .use_ubc(mode.filter)
        .reduced_round_collision(mode.reduced_round)
        .detect_collision(mode.detect)
        .build();
    o.update(data);
    o.try_finalize()
}

fn ours(data: &[u8], mode: Mode, rng: &mut SplitMix64) -> Outcome {
    hash_chunked(mode.builder().build(), data, rng)
}

/// Compares one input in one mode; the message says how to reproduce.
fn compare(data: &[u8], mode: Mode, rng: &mut SplitMix64, what: &dyn Fn() -> String) {
    use sha1::Digest as _;
    let got = ours(data, mode, rng);
    let want = oracle(data, mode);
    let plain: [u8; 20] = sha1::Sha1::digest(data).into();
    assert_eq!(
        got.digest().as_bytes()[..],
        want.hash()[..],
        "output differs: {} mode {mode}",
        what()
    );
    assert_eq!(
        got.collision().is_some(),
        want.has_collision(),
        "flag differs: {} mode {mode}",
        what()
    );
    assert_eq!(
        got.sha1().as_bytes(),
        &plain,
        "sha1 differs: {} mode {mode}",
        what()
    );
}

/// A length: most messages short, some spanning many blocks.
fn random_len(rng: &mut SplitMix64) -> usize {
    match rng.below(100) {
        0..70 => rng.below(200) as usize,
        70..95 => 200 + rng.below(4096) as usize,
        _ => 4096 + rng.below(60_000) as usize,
    }
}

#[test]
fn random_messages_random_chunking_every_mode() {
    let messages = env_u64("SHA1DC_DIFF_MESSAGES", 200_000);
    let min_blocks = env_u64("SHA1DC_DIFF_BLOCKS", 0);
    let seed = seed();
    let mut rng = SplitMix64(seed);
    let mut buf = vec![0u8; 64 * 1024];
    let (mut count, mut blocks) = (0u64, 0u64);
    while count < messages || blocks < min_blocks {
        let len = random_len(&mut rng);
        let data = &mut buf[..len];
        rng.fill(data);
        let case = count;
        let what = || format!("message {case} (len {len}) of seed {seed}");
        for mode in COMPARED {
            // The unfiltered mode on every 16th message.
            if !mode.filter && case % 16 != 0 {
                continue;
            }
            compare(data, mode, &mut rng, &what);
        }
        count += 1;
        blocks += (len as u64 + 9).div_ceil(64);
    }
    eprintln!("differential: {count} messages, {blocks} blocks per mode, zero mismatches");
}

/// The public collisions with one bit flipped, before, inside and after the
/// flagged block: the filter lets the collision blocks through, so the
/// recompression runs on nearly-colliding inputs again and again.
#[test]
fn near_collision_inputs() {
    let mut rng = SplitMix64(seed());
    let files = [
        "shattered-1.prefix320.bin",
        "shattered-2.prefix320.bin",
        "sha-mbles-1.bin",
        "sha1_reducedsha_coll.bin",
    ];
    let mut compared = 0;
    for name in files {
        let original = input(name);
        for bit in 0..original.len() * 8 {
            // Every bit in the blocks around the collision, a sample elsewhere.
            let byte = bit / 8;
            if !(128..384).contains(&byte) && bit % 13 != 0 {
                continue;
            }
            let mut data = original.clone();
            data[byte] ^= 1 << (bit % 8);
            for mode in FILTERED {
                compare(&data, mode, &mut rng, &|| {
                    format!("{name} with bit {bit} flipped")
                });
            }
            compared += 1;
        }
        // The unmodified file, then with random tails: the chains diverge
        // after the flagged block and must stay right to the end.
        for tail in [0usize, 1, 55, 64, 1000, 70_000] {
            let mut data = original.clone();
            let start = data.len();
            data.resize(start + tail, 0);
            rng.fill(&mut data[start..]);
            for mode in COMPARED {
                compare(&data, mode, &mut rng, &|| {
                    format!("{name} + {tail} random bytes")
                });
            }
        }
    }
    eprintln!("near-collision inputs compared: {compared}");
}

/// Both halves of a collision back to back, and a collision inside a larger
/// message at a shifted offset (which must not be flagged).
#[test]
fn composed_inputs() {
    let mut rng = SplitMix64(seed());
    let a = input("shattered-1.prefix320.bin");
    let b = input("sha-mbles-2.bin");
    let cases: Vec<(String, Vec<u8>)> = vec![
        (
            "shattered + sha-mbles".into(),
            [a.clone(), b.clone()].concat(),
        ),
        (
            "sha-mbles + shattered".into(),
            [b.clone(), a.clone()].concat(),
        ),
        ("1 byte + shattered".into(), [vec![0u8], a.clone()].concat()),
        (
            "64 bytes + shattered".into(),
            [vec![0u8; 64], a.clone()].concat(),
        ),
    ];
    for (what, data) in cases {
        for mode in COMPARED {
            compare(&data, mode, &mut rng, &|| what.clone());
        }
    }
}
