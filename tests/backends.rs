//! Every backend this CPU runs against the portable one, on the same inputs:
//! random messages with random chunking, the public vectors in every mode,
//! and near-collisions (the public collisions with single bits flipped).
//!
//! The whole suite also runs once per backend with `SHA1DC_BACKEND=NAME`
//! (scripts/cross-test.sh); under an emulator, `SHA1DC_TEST_LIGHT=1` scales
//! the heavier loops here down.

mod common;

use common::kat::{FILTERED, MODES, Mode};
use common::skip::skip_or_fail;
use common::{SplitMix64, hash_chunked, input, light, tsv};
use sha1dc_wasm::{Hasher, Outcome, available_backends};

fn run(backend: &str, mode: Mode, data: &[u8]) -> Outcome {
    let mut h = mode.hasher_on(backend);
    h.update(data);
    h.finalize()
}

/// The backends to compare with the portable one.
fn natives() -> Vec<&'static str> {
    available_backends().filter(|&b| b != "portable").collect()
}

/// Every backend the library may have on this architecture, fastest first.
const NAMES: &[&str] = if cfg!(target_arch = "x86_64") {
    &[
        "sha-ni+avx512",
        "sha-ni+avx2",
        "sha-ni+sse2",
        "avx512",
        "avx2",
        "sse2",
        "portable",
    ]
} else if cfg!(target_arch = "aarch64") {
    &["armv8-sha+neon", "neon", "portable"]
} else if cfg!(target_arch = "wasm32") {
    &["simd128", "portable"]
} else {
    &["portable"]
};

/// The backends of [`NAMES`] this build has (those this CPU runs and those
/// it lacks the instructions of), in their order.
fn built() -> Vec<&'static str> {
    let knows = |name: &&str| match Hasher::builder().backend(name) {
        Ok(_) => true,
        Err(e) => e.is_unsupported(),
    };
    NAMES.iter().copied().filter(knows).collect()
}

#[test]
fn the_expected_backends_exist() {
    let all: Vec<_> = available_backends().collect();
    assert_eq!(all.last(), Some(&"portable"));
    let built = built();
    // The CPU runs a subset of the built ones, in the same order.
    let runs: Vec<_> = built.iter().copied().filter(|b| all.contains(b)).collect();
    assert_eq!(runs, all, "built: {built:?}");
    #[cfg(target_arch = "x86_64")]
    {
        let has = |b| built.contains(&b);
        assert!(has("sse2") && has("avx2") && has("sha-ni+sse2") && has("sha-ni+avx2"));
        // Not built by a compiler older than Rust 1.89 (the MSRV stage):
        // then nothing of AVX-512 exists to test.
        assert_eq!(has("avx512"), cfg!(sha1dc_avx512), "{built:?}");
        assert_eq!(has("sha-ni+avx512"), cfg!(sha1dc_avx512), "{built:?}");
        assert!(all.contains(&"sse2"), "{all:?}");
        if std::arch::is_x86_feature_detected!("avx2") {
            assert!(all.contains(&"avx2"), "{all:?}");
        }
        if std::arch::is_x86_feature_detected!("sha") {
            assert!(all.contains(&"sha-ni+sse2"), "{all:?}");
        }
        let avx512 = std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl");
        assert_eq!(all.contains(&"avx512"), avx512 && cfg!(sha1dc_avx512));
    }
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    {
        assert!(all.contains(&"neon"), "{all:?}");
        assert_eq!(built.contains(&"armv8-sha+neon"), cfg!(sha1dc_armv8));
        let sha = cfg!(sha1dc_armv8) && std::arch::is_aarch64_feature_detected!("sha2");
        assert_eq!(all.contains(&"armv8-sha+neon"), sha, "{all:?}");
    }
    println!("backends tested against portable: {all:?}");
    let cannot: Vec<_> = built.iter().filter(|b| !all.contains(b)).collect();
    if !cannot.is_empty() {
        skip_or_fail(&format!(
            "this CPU cannot run the backends {cannot:?} of this build: they are not tested here"
        ));
    }
}

/// The backends whose intrinsics came after Rust 1.63 are built by every
/// compiler that has them (build.rs), so a new compiler loses no speed.
#[test]
fn every_backend_this_compiler_can_build_is_built() {
    let minor: u32 = env!("SHA1DC_RUSTC_MINOR").parse().unwrap();
    let x86_64 = cfg!(target_arch = "x86_64");
    let aarch64 = cfg!(all(target_arch = "aarch64", target_endian = "little"));
    assert_eq!(cfg!(sha1dc_avx512), x86_64 && minor >= 89, "Rust 1.{minor}");
    assert_eq!(cfg!(sha1dc_armv8), aarch64 && minor >= 72, "Rust 1.{minor}");
    assert_eq!(cfg!(sha1dc_neon), aarch64);
}

/// The default choice is the first available backend, or the forced one:
/// under `qemu-aarch64 -cpu max` this proves the ARMv8 SHA-1 and NEON code
/// is what the rest of the suite runs.
#[test]
fn the_default_is_the_fastest_or_the_forced_backend() {
    let chosen = Hasher::new().backend();
    match std::env::var("SHA1DC_BACKEND") {
        Ok(name) if !name.is_empty() => assert_eq!(chosen, name),
        _ => {
            assert_eq!(Some(chosen), available_backends().next());
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            if cfg!(sha1dc_armv8) && std::arch::is_aarch64_feature_detected!("sha2") {
                assert_eq!(chosen, "armv8-sha+neon");
            }
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("sha") {
                let avx512 = cfg!(sha1dc_avx512)
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw");
                let avx2 = std::arch::is_x86_feature_detected!("avx2");
                let want = match (avx512, avx2) {
                    (true, _) => "sha-ni+avx512",
                    (false, true) => "sha-ni+avx2",
                    (false, false) => "sha-ni+sse2",
                };
                assert_eq!(chosen, want);
            }
        }
    }
}

#[test]
fn random_messages_with_random_chunking() {
    let mut rng = SplitMix64(0x5eed_ba5e);
    let rounds = if light() { 60 } else { 600 };
    let mut data = vec![0u8; 40_000];
    for round in 0..rounds {
        // Mostly short messages, some longer than a filter batch (4 KiB).
        let len = match rng.below(4) {
            0 => rng.below(40_000),
            _ => rng.below(1_000),
        } as usize;
        rng.fill(&mut data[..len]);
        let msg = &data[..len];
        let mode = MODES[rng.below(MODES.len() as u64) as usize];
        // The unfiltered mode recompresses every block 32 times: keep it short.
        if !mode.filter && len > 2_000 {
            continue;
        }
        let want = run("portable", mode, msg);
        for backend in natives() {
            assert_eq!(
                run(backend, mode, msg),
                want,
                "{backend} round {round} len {len}"
            );
            let h = mode.hasher_on(backend);
            assert_eq!(
                hash_chunked(h, msg, &mut rng),
                want,
                "{backend} round {round} chunked"
            );
        }
    }
}

#[test]
fn public_vectors_in_every_mode() {
    let mut rng = SplitMix64(3);
    for row in tsv("MANIFEST.tsv") {
        let (name, out, rr_out) = (&row[0], &row[4], &row[8]);
        let data = input(name);
        for mode in MODES {
            if !mode.filter && data.len() > 1 << 12 {
                continue;
            }
            let want = run("portable", mode, &data);
            for backend in natives() {
                let what = format!("{backend} {name} {mode}");
                let got = run(backend, mode, &data);
                assert_eq!(got, want, "{what}");
                if mode == Mode::DEFAULT {
                    assert_eq!(got.digest().to_string(), *out, "{what}");
                }
                if mode == Mode::REDUCED_ROUND {
                    assert_eq!(got.digest().to_string(), *rr_out, "{what}");
                }
                if light() && data.len() > 1 << 12 {
                    continue;
                }
                let h = mode.hasher_on(backend);
                assert_eq!(hash_chunked(h, &data, &mut rng), want, "{what} chunked");
            }
        }
    }
}

/// The collision files with one bit flipped: before, in and after the
/// colliding blocks, alone and inside longer messages (so the flagged
/// block sits at different places of a filter batch). Every backend must
/// find and miss exactly what the portable one does.
#[test]
fn near_collisions() {
    let files = [
        "shattered-1.prefix320.bin",
        "shattered-2.prefix320.bin",
        "sha-mbles-1.bin",
        "sha-mbles-2.bin",
    ];
    let step = if light() { 13 } else { 1 };
    let mut rng = SplitMix64(99);
    let mut flagged = 0;
    for name in files {
        let original = input(name);
        // One extra block after the collision, so flips there count too.
        let mut data = original.clone();
        data.extend_from_slice(&[0x5a; 64]);
        for bit in (0..data.len() * 8).step_by(step) {
            let mut msg = data.clone();
            msg[bit / 8] ^= 1 << (bit % 8);
            let mode = FILTERED[bit % FILTERED.len()];
            let want = run("portable", mode, &msg);
            flagged += usize::from(want.collision().is_some());
            for backend in natives() {
                assert_eq!(run(backend, mode, &msg), want, "{backend} {name} bit {bit}");
            }
        }
        // The collision followed by more data, fed in two pieces split at a
        // random point, so the flagged block sits anywhere in a filter batch
        // and the plain chain runs apart over the rest.
        for _ in 0..8 {
            let mut msg = original.clone();
            let extra = rng.below(64 * 100) as usize;
            msg.resize(original.len() + extra, 0);
            rng.fill(&mut msg[original.len()..]);
            let split = rng.below(msg.len() as u64) as usize;
            for mode in FILTERED {
                let want = run("portable", mode, &msg);
                assert!(want.collision().is_some(), "{name} {mode}");
                for backend in natives() {
                    let mut h = mode.hasher_on(backend);
                    h.update(&msg[..split]);
                    h.update(&msg[split..]);
                    assert_eq!(h.finalize(), want, "{backend} {name} split {split}");
                }
            }
        }
    }
    // Flips after the colliding blocks leave the collision in place.
    assert!(flagged > 0);
}

/// A collision fed in two pieces split at every block before it, so the
/// flagged block sits at every position of a per-block call (a call starts
/// where a piece does) and of a filter batch, with random data after it:
/// every backend reports what the portable one does, in every filtered mode,
/// and so does the one-shot `Builder::hash`.
#[test]
fn collision_at_every_position_of_a_group() {
    let mut msg = input("sha-mbles-1.bin");
    let mut rng = SplitMix64(0x9a0);
    let mut tail = vec![0u8; 64 * 37 + 11];
    rng.fill(&mut tail);
    msg.extend_from_slice(&tail);
    for mode in FILTERED {
        let want = run("portable", mode, &msg);
        assert_eq!(want.collision().expect("SHA-mbles is detected").block(), 9);
        for backend in natives() {
            let builder = mode.on(backend);
            assert_eq!(builder.hash(&msg), want, "{backend} one-shot {mode}");
            for split in 0..=10 {
                let mut h = mode.hasher_on(backend);
                h.update(&msg[..64 * split]);
                h.update(&msg[64 * split..]);
                assert_eq!(
                    h.finalize(),
                    want,
                    "{backend} split at block {split} {mode}"
                );
            }
        }
    }
}
