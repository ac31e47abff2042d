//! SplitMix64, the seeded generator of every test input and of the 1 MiB
//! control (tests/data/gen_controls.py writes the same bytes).
//!
//! Standalone (std only, nothing of the crate), so that each user includes
//! this one file: the integration tests through tests/common, the library's
//! unit tests and benches/throughput.rs with
//! `#[path = "…/tests/common/splitmix.rs"] mod splitmix;`.
#![allow(dead_code)]

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

    /// Fills `buf` with the output, little-endian (the last word cut short).
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let x = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&x[..chunk.len()]);
        }
    }
}

/// `n` bytes of SplitMix64 output from `seed`, little-endian, as
/// tests/data/gen_controls.py writes them.
pub fn splitmix64_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut out = vec![0; n];
    SplitMix64(seed).fill(&mut out);
    out
}
