//! Many messages at once: the batch API (`Builder::hash_many_into`, one
//! message per vector lane) against hashing the messages one by one with
//! this crate's `hash()`, `sha1` 0.11 (plain SHA-1, SHA-NI where the CPU has
//! it, no detection), `sha1dc` 0.1.5 and `sha1-checked` 0.10.
//!
//! Message sets (fixed seed): 10,000 messages with git-object-like sizes (a
//! log-normal around 10 KiB, cut to 0 B..1 MiB), 10,000 of 4 KiB, and
//! 10,000 of 64 B. Every round times every contender once on every set,
//! interleaved; it prints the median MiB/s over the rounds and the median
//! of the per-round ratios to `sha1`, and the batch's ratio to each peer.
//!
//! ```text
//! cargo bench --bench many                     # 7 rounds
//! cargo bench --bench many -- --rounds 11
//! cargo bench --bench many -- --breakdown      # the batch alone, ns a block
//! ```
//!
//! `--breakdown` times the batch alone on 4 KiB messages (the least of 20
//! rounds of about 20 ms, ns per block): 300 messages (in cache) and 10,000 (out of it),
//! with detection on and off, to see what detection and memory cost.
// Built with the dev-dependencies, whose peers need Rust 1.87: not with
// the library's rust-version.
#![allow(clippy::incompatible_msrv)]

mod common;
use common::median;

use std::hint::black_box;
use std::time::Instant;

use sha1_011::Digest as _;

#[path = "../tests/common/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix64;

type RunFn = Box<dyn Fn(&[&[u8]]) -> u8>;

fn contenders() -> Vec<(String, RunFn)> {
    let builder = sha1dc_wasm::Hasher::builder();
    let backend = sha1dc_wasm::Hasher::new().backend();
    vec![
        (
            "sha1 0.11 (plain) per message".into(),
            Box::new(|ms| ms.iter().fold(0, |x, m| x ^ sha1_011::Sha1::digest(m)[0])),
        ),
        (
            format!("sha1dc-wasm batch ({backend})"),
            Box::new(move |ms| {
                let out = builder.hash_many(ms);
                out.iter().fold(0, |x, o| x ^ o.digest().as_bytes()[0])
            }),
        ),
        (
            "sha1dc-wasm hash() per message".into(),
            Box::new(|ms| {
                ms.iter()
                    .fold(0, |x, m| x ^ sha1dc_wasm::hash(m).digest().as_bytes()[0])
            }),
        ),
        (
            "sha1dc 0.1.5 per message".into(),
            Box::new(|ms| {
                ms.iter().fold(0, |x, m| {
                    let d: [u8; 20] = sha1dc::digest(m).expect("no collision").into();
                    x ^ d[0]
                })
            }),
        ),
        (
            "sha1-checked 0.10 per message".into(),
            Box::new(|ms| {
                ms.iter()
                    .fold(0, |x, m| x ^ sha1_checked::Sha1::try_digest(m).hash()[0])
            }),
        ),
    ]
}

/// `count` messages of sizes from `size`, random bytes.
fn set(
    rng: &mut SplitMix64,
    count: usize,
    mut size: impl FnMut(&mut SplitMix64) -> usize,
) -> Vec<Vec<u8>> {
    (0..count)
        .map(|_| {
            let mut m = vec![0u8; size(rng)];
            rng.fill(&mut m);
            m
        })
        .collect()
}

/// A log-normal size with median `median` bytes and shape `sigma`, cut to
/// 0..=1 MiB (Box-Muller from two uniform draws).
fn log_normal(rng: &mut SplitMix64, median: f64, sigma: f64) -> usize {
    let u1 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let z = (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
    ((median * (sigma * z).exp()) as usize).min(1 << 20)
}

/// `--breakdown`: the batch's ns per block on 4 KiB messages.
fn breakdown(rng: &mut SplitMix64) {
    println!("CPU: {}", common::cpu());
    println!("the batch alone on 4 KiB messages, the least of 20 rounds, ns per block");
    let messages = set(rng, 10_000, |_| 4096);
    let blocks_per = (4096 + 9 + 63) / 64;
    for count in [300, 10_000] {
        let refs: Vec<&[u8]> = messages[..count].iter().map(Vec::as_slice).collect();
        for detect in [true, false] {
            let builder = sha1dc_wasm::Hasher::builder().detect_collisions(detect);
            // Each round hashes the set often enough to last about 20 ms.
            let repeat = 10_000 / count;
            let mut best = f64::MAX;
            for _ in 0..20 {
                let start = Instant::now();
                for _ in 0..repeat {
                    black_box(builder.hash_many(black_box(&refs)));
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            let ns = best * 1e9 / (repeat * count * blocks_per) as f64;
            println!("{count:>6} messages, detection {detect:<5}: {ns:6.1} ns a block");
        }
    }
}

fn main() {
    let mut rounds = 7;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--breakdown" {
            return breakdown(&mut SplitMix64(0x6a7e));
        }
        if a == "--rounds" {
            rounds = args
                .next()
                .and_then(|v| v.parse().ok())
                .expect("--rounds N");
        }
    }
    let mut rng = SplitMix64(0x6a7e);
    let sets = [
        (
            "git-like (log-normal, median 10 KiB)",
            set(&mut rng, 10_000, |r| log_normal(r, 10240.0, 1.2)),
        ),
        ("4 KiB", set(&mut rng, 10_000, |_| 4096)),
        ("64 B", set(&mut rng, 10_000, |_| 64)),
    ];
    let all = contenders();
    println!("CPU: {}", common::cpu());
    println!(
        "{rounds} rounds, interleaved; backend {}",
        sha1dc_wasm::Hasher::new().backend()
    );
    for (name, messages) in &sets {
        let refs: Vec<&[u8]> = messages.iter().map(Vec::as_slice).collect();
        let bytes: usize = refs.iter().map(|m| m.len()).sum();
        let mut speed = vec![vec![]; all.len()];
        for _ in 0..rounds {
            for (i, (_, run)) in all.iter().enumerate() {
                let start = Instant::now();
                black_box(run(black_box(&refs)));
                let secs = start.elapsed().as_secs_f64();
                speed[i].push(bytes as f64 / secs / (1024.0 * 1024.0));
            }
        }
        println!(
            "\n{name}: {} messages, {:.1} MiB",
            refs.len(),
            bytes as f64 / (1 << 20) as f64
        );
        println!(
            "{:<40} {:>9} {:>9} {:>12}",
            "", "MiB/s", "x sha1", "batch x it"
        );
        let ratios = |a: usize, b: usize| -> f64 {
            let mut r: Vec<f64> = (0..rounds).map(|k| speed[a][k] / speed[b][k]).collect();
            median(&mut r)
        };
        for (i, (label, _)) in all.iter().enumerate() {
            let mut s = speed[i].clone();
            println!(
                "{label:<40} {:>9.1} {:>8.3}x {:>11.3}x",
                median(&mut s),
                ratios(i, 0),
                ratios(1, i)
            );
        }
    }
}
