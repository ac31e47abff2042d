//! The oracle of the C differential test (tests/c/differential.c): seeded
//! random messages, some starting with a public collision, each with random
//! options (sha1dc_ext.h's bits), and what the Rust API gives for them: the
//! digest, the flag and the offset of every block the Rust hasher reports.
//!   cargo run --release -p sha1dc-wasm-capi-bench --example c-oracle -- SEED COUNT DATA_DIR > FILE
//! FILE: COUNT, then per message the line `options len hex flag n offsets...`
//! followed by the message's bytes and a newline.

use std::io::{self, BufWriter, Write};

use sha1dc_wasm::{Builder, Hasher};

#[path = "../common/splitmix.rs"]
mod splitmix;
use splitmix::SplitMix64;

/// The builder for sha1dc_ext.h's option bits.
fn builder(options: u64) -> Builder {
    Hasher::builder()
        .safe_hash(options & 1 == 0)
        .use_filter(options & 2 == 0)
        .detect_collisions(options & 4 == 0)
        .reduced_round(options & 8 != 0)
}

/// A random message: a third start with one of `prefixes`, then up to
/// 70,000 random bytes (mostly far fewer).
fn message(rng: &mut SplitMix64, prefixes: &[Vec<u8>]) -> Vec<u8> {
    let mut msg = Vec::new();
    if rng.below(3) == 0 {
        msg.extend_from_slice(&prefixes[rng.below(prefixes.len() as u64) as usize]);
    }
    let max = [130, 1100, 9000, 70_000][rng.below(4) as usize];
    let start = msg.len();
    msg.resize(start + rng.below(max) as usize, 0);
    rng.fill(&mut msg[start..]);
    msg
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 4 {
        eprintln!("usage: c-oracle SEED COUNT DATA_DIR");
        std::process::exit(2);
    }
    let seed: u64 = args[1].parse().expect("SEED: a number");
    let count: usize = args[2].parse().expect("COUNT: a number");
    let prefixes: Vec<Vec<u8>> = [
        "shattered-1.prefix320.bin",
        "shattered-2.prefix320.bin",
        "sha-mbles-1.bin",
        "sha-mbles-2.bin",
        "sha1_reducedsha_coll.bin",
    ]
    .iter()
    .map(|name| std::fs::read(format!("{}/{}", args[3], name)))
    .collect::<io::Result<_>>()?;
    let mut rng = SplitMix64(seed);
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "{count}")?;
    for _ in 0..count {
        let options = rng.below(16);
        let msg = message(&mut rng, &prefixes);
        let mut offsets = Vec::new();
        let mut hasher = builder(options).build();
        hasher.update_reporting(&msg, &mut |b| offsets.push(b.offset()));
        let outcome = hasher.finalize_reporting(&mut |b| offsets.push(b.offset()));
        assert_eq!(
            outcome,
            builder(options).hash(&msg),
            "the oracle agrees with itself"
        );
        let flag = u8::from(outcome.collision().is_some());
        write!(
            out,
            "{options} {} {} {flag} {}",
            msg.len(),
            outcome.digest(),
            offsets.len()
        )?;
        for offset in offsets {
            write!(out, " {offset}")?;
        }
        writeln!(out)?;
        out.write_all(&msg)?;
        writeln!(out)?;
    }
    out.flush()
}
