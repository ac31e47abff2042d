//! Where one stream's time goes, per 64-byte block: the engine's two halves
//! timed apart through the public API (the filter, `BlockFilter`; the
//! hashing fed the masks, `update_with_masks`, with the real masks and with
//! none, which is the plain rounds), against `update` on one thread and
//! `update_parallel` on two. Rounds interleave the parts; it prints the
//! least time of each over the rounds, in ns per block.
//!
//! ```text
//! cargo bench --bench halves                 # 4 MiB, 30 rounds
//! cargo bench --bench halves -- --mib 1 --rounds 50
//! ```
// Built with the dev-dependencies, whose peers need Rust 1.87: not with
// the library's rust-version.
#![allow(clippy::incompatible_msrv)]

use std::hint::black_box;
use std::time::Instant;

use sha1dc_wasm::Hasher;

#[path = "../tests/common/splitmix.rs"]
mod splitmix;

mod common;

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

/// The candidate masks of `data`, one per block.
fn masks_of(data: &[u8]) -> Vec<u32> {
    let mut filter = Hasher::new().block_filter();
    let mut masks = vec![0; filter.masks_for(data.len())];
    filter
        .filter(data, &mut masks)
        .expect("room for every mask");
    masks
}

fn main() {
    let (mib, rounds) = (arg("--mib", 4), arg("--rounds", 30));
    let data = splitmix::splitmix64_bytes(0x4a1f, mib << 20);
    let masks = masks_of(&data);
    let none = vec![0; masks.len()];
    let candidates = masks.iter().filter(|&&m| m != 0).count();
    let hashed = |masks: &[u32]| {
        let mut h = Hasher::new();
        h.update_with_masks(&data, masks)
            .expect("one mask per block");
        h.finalize()
    };
    let parts: [(&str, &dyn Fn()); 5] = [
        ("update, one thread", &|| {
            let mut h = Hasher::new();
            h.update(&data);
            black_box(h.finalize());
        }),
        ("the filter half (BlockFilter)", &|| {
            black_box(masks_of(&data));
        }),
        ("the hashing half, its masks", &|| {
            black_box(hashed(&masks));
        }),
        ("the hashing half, no candidate", &|| {
            black_box(hashed(&none));
        }),
        ("update_parallel, two threads", &|| {
            let mut h = Hasher::new();
            h.update_parallel(&data);
            black_box(h.finalize());
        }),
    ];
    let mut best = [f64::MAX; 5];
    for _ in 0..rounds {
        for (i, (_, run)) in parts.iter().enumerate() {
            let t = Instant::now();
            run();
            best[i] = best[i].min(t.elapsed().as_secs_f64());
        }
    }
    let blocks = (data.len() / 64) as f64;
    println!("CPU: {}", common::cpu());
    println!(
        "{mib} MiB, least of {rounds} rounds; backend {}; {candidates} candidates in {} blocks",
        Hasher::new().backend(),
        masks.len()
    );
    for ((name, _), t) in parts.iter().zip(best) {
        println!("{name:32} {:6.1} ns/block", t * 1e9 / blocks);
    }
}
