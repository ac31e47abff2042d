//! Differential fuzzing against `sha1-checked`: the first byte picks the
//! mode, the next two the chunking, the rest is the message. Seeded with the
//! public collisions (see README), mutations stay near the recompression path.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sha1_checked::Digest as _;
use sha1dc_wasm::Hasher;

fuzz_target!(|input: &[u8]| {
    let [mode, c1, c2, data @ ..] = input else {
        return;
    };
    let (safe, rr, ubc, detect) = (mode & 1 != 0, mode & 2 != 0, mode & 4 == 0, mode & 8 == 0);
    let mut h = Hasher::builder()
        .safe_hash(safe)
        .reduced_round(rr)
        .use_filter(ubc)
        .detect_collisions(detect)
        .build();
    // Chunk sizes cycle through two fuzzer-chosen lengths (1..=256).
    let sizes = [usize::from(*c1) + 1, usize::from(*c2) + 1];
    let mut rest = data;
    let mut i = 0;
    while !rest.is_empty() {
        let n = sizes[i % 2].min(rest.len());
        h.update(&rest[..n]);
        rest = &rest[n..];
        i += 1;
    }
    let got = h.finalize();
    let mut o = sha1_checked::Sha1::builder()
        .safe_hash(safe)
        .reduced_round_collision(rr)
        .use_ubc(ubc)
        .detect_collision(detect)
        .build();
    o.update(data);
    let want = o.try_finalize();
    assert_eq!(got.digest().as_bytes()[..], want.hash()[..]);
    assert_eq!(got.collision().is_some(), want.has_collision());
});
