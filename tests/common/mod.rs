//! Shared by the integration tests: the test data, the seeded PRNG
//! (splitmix.rs), the hasher's modes and the known-answer checks (kat.rs),
//! a model of detection written from its description (model.rs) and the
//! checks this machine cannot run (skip.rs). The
//! sha1dcsum crate's tests include this module too.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub mod kat;
pub mod model;
pub mod skip;
mod splitmix;

pub use splitmix::{SplitMix64, splitmix64_bytes};

/// Under an emulator (`SHA1DC_TEST_LIGHT=1`, scripts/cross-test.sh) the
/// heavier loops are scaled down.
pub fn light() -> bool {
    matches!(std::env::var_os("SHA1DC_TEST_LIGHT"), Some(v) if !v.is_empty() && v != "0")
}

/// The repository's tests/data: below the manifest's directory of the crate
/// under test, or of the nearest one above it that has it (the workspace's,
/// for the sha1dcsum crate).
pub fn data_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = manifest
        .ancestors()
        .map(|dir| dir.join("tests/data"))
        .find(|data| data.join("MANIFEST.tsv").is_file());
    found.unwrap_or_else(|| panic!("no tests/data at or above {}", manifest.display()))
}

/// The generated controls of MANIFEST.tsv (`ctrl-*.bin`, not stored in
/// tests/data) by name; None for any other name.
pub fn control(name: &str) -> Option<Vec<u8>> {
    Some(match name {
        "ctrl-empty.bin" => Vec::new(),
        "ctrl-abc.bin" => b"abc".to_vec(),
        "ctrl-nist-448bit.bin" => {
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".to_vec()
        }
        "ctrl-million-a.bin" => vec![b'a'; 1_000_000],
        "ctrl-splitmix64-1MiB.bin" => splitmix64_bytes(0x0123_4567_89AB_CDEF, 1 << 20),
        _ => return None,
    })
}

/// The named input: a file of tests/data, or a generated control.
pub fn input(name: &str) -> Vec<u8> {
    control(name).unwrap_or_else(|| {
        std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    })
}

/// A text file of tests/data.
pub fn text(name: &str) -> String {
    std::fs::read_to_string(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Rows of a tab-separated file of tests/data, header skipped.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    text(name)
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// Feeds `data` to `h` in chunks whose sizes `rng` picks (1 byte to 3
/// blocks), then finalizes.
pub fn hash_chunked(
    mut h: sha1dc_wasm::Hasher,
    data: &[u8],
    rng: &mut SplitMix64,
) -> sha1dc_wasm::Outcome {
    let mut rest = data;
    while !rest.is_empty() {
        let n = (1 + rng.below(200) as usize).min(rest.len());
        h.update(&rest[..n]);
        rest = &rest[n..];
    }
    h.finalize()
}
