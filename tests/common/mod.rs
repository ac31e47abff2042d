//! Shared by the integration tests: the test data and a seeded PRNG.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod kat;

pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// SplitMix64 output, little-endian, as tests/data/gen_controls.py writes it.
pub fn splitmix64_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::with_capacity(n + 8);
    while out.len() < n {
        out.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    out.truncate(n);
    out
}

/// The named input: a file of tests/data, or a generated control.
pub fn input(name: &str) -> Vec<u8> {
    match name {
        "ctrl-empty.bin" => Vec::new(),
        "ctrl-abc.bin" => b"abc".to_vec(),
        "ctrl-nist-448bit.bin" => {
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".to_vec()
        }
        "ctrl-million-a.bin" => vec![b'a'; 1_000_000],
        "ctrl-splitmix64-1MiB.bin" => splitmix64_bytes(0x0123_4567_89AB_CDEF, 1 << 20),
        _ => std::fs::read(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}")),
    }
}

/// Rows of a tab-separated file of tests/data, header skipped.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let x = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&x[..chunk.len()]);
        }
    }
}

/// Feeds `data` to `h` in chunks whose sizes `rng` picks (1 byte to 3 blocks).
pub fn update_chunked(h: &mut sha1dc_wasm::Hasher, data: &[u8], rng: &mut SplitMix64) {
    let mut rest = data;
    while !rest.is_empty() {
        let n = (1 + rng.below(200) as usize).min(rest.len());
        h.update(&rest[..n]);
        rest = &rest[n..];
    }
}
