//! Known answers: FIPS 180, the public collisions in every mode of the
//! reference (MANIFEST.tsv, TRACE.txt), git blob ids, prefix lengths.

mod common;

use common::{SplitMix64, input, tsv, update_chunked};
use sha1dc_wasm::{Hasher, Outcome, hash};

fn run(data: &[u8], safe: bool, ubc: bool, rr: bool, detect: bool) -> Outcome {
    let mut h = Hasher::builder()
        .safe_hash(safe)
        .use_filter(ubc)
        .reduced_round(rr)
        .detect_collisions(detect)
        .build();
    h.update(data);
    h.finalize()
}

#[test]
fn fips_180_known_answers() {
    let cases: [(&[u8], &str); 3] = [
        (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
        ),
    ];
    for (msg, want) in cases {
        assert_eq!(hash(msg).digest().to_string(), want);
        assert_eq!(hash(msg).sha1().to_string(), want);
    }
    let million = vec![b'a'; 1_000_000];
    assert_eq!(
        hash(&million).digest().to_string(),
        "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
    );
}

#[test]
fn every_length_to_1100_matches_plain_sha1() {
    use sha1::Digest as _;
    let mut rng = SplitMix64(7);
    let mut data = vec![0u8; 1100];
    rng.fill(&mut data);
    for len in 0..=1100 {
        let want: [u8; 20] = sha1::Sha1::digest(&data[..len]).into();
        let got = hash(&data[..len]);
        assert_eq!(got.digest().as_bytes(), &want, "len {len}");
        assert_eq!(got.sha1().as_bytes(), &want, "len {len}");
        assert!(got.collision().is_none());
    }
}

#[test]
fn manifest_default_and_reduced_round() {
    for row in tsv("MANIFEST.tsv") {
        let (name, bytes, sha1, coll, out, rr_coll, rr_out) = (
            &row[0], &row[1], &row[2], &row[3], &row[4], &row[7], &row[8],
        );
        let data = input(name);
        assert_eq!(data.len().to_string(), *bytes, "{name}");
        let d = hash(&data);
        assert_eq!(d.sha1().to_string(), *sha1, "{name}");
        assert_eq!(d.digest().to_string(), *out, "{name}");
        assert_eq!(d.collision().is_some(), coll == "yes", "{name}");
        let r = run(&data, true, true, true, true);
        assert_eq!(r.sha1().to_string(), *sha1, "{name} rr");
        assert_eq!(r.digest().to_string(), *rr_out, "{name} rr");
        assert_eq!(r.collision().is_some(), rr_coll == "yes", "{name} rr");
    }
}

/// (safe, ubc, rr, detect), the output hex, and whether it was flagged.
type Mode = ((bool, bool, bool, bool), String, bool);

/// One file's section of TRACE.txt.
struct Trace {
    name: String,
    /// (safe, ubc, rr, detect) -> (output hex, flagged)
    modes: Vec<Mode>,
    /// Blocks where the full check fires, with the DV name.
    full: Vec<(u64, String)>,
    /// Blocks where a check fires with reduced-round detection.
    rr: Vec<(u64, String)>,
}

fn traces() -> Vec<Trace> {
    let text = std::fs::read_to_string(common::data_dir().join("TRACE.txt")).unwrap();
    let mut out: Vec<Trace> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("file=") {
            let name = rest.split_whitespace().next().unwrap().to_owned();
            out.push(Trace {
                name,
                modes: vec![],
                full: vec![],
                rr: vec![],
            });
        } else if line.contains(" coll=") {
            let t = out.last_mut().unwrap();
            let (mode, result) = line.split_once(": ").unwrap();
            let (hex, coll) = result.split_once(" coll=").unwrap();
            let flag = |k: &str| mode.contains(&format!("{k}=1"));
            let key = if mode.contains("detect=off") {
                (true, true, false, false)
            } else {
                (flag("safe"), flag("ubc"), flag("rr"), true)
            };
            t.modes
                .push((key, hex.trim().to_owned(), coll.trim() == "1"));
        } else if line.starts_with("[full] block") || line.starts_with("[rr] block") {
            let t = out.last_mut().unwrap();
            let mut words = line.split_whitespace();
            let kind = words.next().unwrap();
            words.next();
            let block: u64 = words.next().unwrap().parse().unwrap();
            let dv = line
                .split("DV ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap()
                .to_owned();
            if kind == "[full]" {
                t.full.push((block, dv))
            } else {
                t.rr.push((block, dv))
            }
        }
    }
    assert_eq!(out.len(), 12, "TRACE.txt lists 12 inputs");
    out
}

#[test]
fn trace_every_mode_block_and_dv() {
    let mut rng = SplitMix64(1);
    for t in traces() {
        let data = input(&t.name);
        assert_eq!(t.modes.len(), 8, "{}", t.name);
        for &((safe, ubc, rr, detect), ref hex, coll) in &t.modes {
            // The unfiltered mode recompresses all 32 DVs for every block:
            // skip it only for inputs so large it would dominate the run time.
            if !ubc && data.len() > 1 << 19 {
                continue;
            }
            let what = format!("{} safe={safe} ubc={ubc} rr={rr} detect={detect}", t.name);
            let o = run(&data, safe, ubc, rr, detect);
            assert_eq!(o.digest().to_string(), *hex, "{what}");
            assert_eq!(o.collision().is_some(), coll, "{what}");
            // Chunking never changes a result.
            let mut h = Hasher::builder()
                .safe_hash(safe)
                .use_filter(ubc)
                .reduced_round(rr)
                .detect_collisions(detect)
                .build();
            update_chunked(&mut h, &data, &mut rng);
            assert_eq!(h.finalize(), o, "{what} chunked");
            if !detect {
                continue;
            }
            let fired = if rr { &t.rr } else { &t.full };
            match o.collision() {
                None => assert!(fired.is_empty(), "{what}"),
                Some(c) => {
                    assert_eq!(c.block(), fired[0].0, "{what}");
                    assert_eq!(c.offset(), fired[0].0 * 64, "{what}");
                    assert_eq!(c.dv().to_string(), fired[0].1, "{what}");
                    if !safe {
                        // The chain is the plain one throughout: every listed block fires.
                        assert_eq!(c.count(), fired.len() as u64, "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_unfiltered_mode_on_a_large_file() {
    // TRACE.txt's ubc=0 rows for the 1 MiB control, skipped above for speed
    // in the loop, checked once here.
    let data = input("ctrl-splitmix64-1MiB.bin");
    let o = run(&data, true, false, false, true);
    assert_eq!(
        o.digest().to_string(),
        "ae05eec7f9d86602b8610fd208de905e6afaa691"
    );
    assert!(o.collision().is_none());
}

#[test]
fn derived_git_blob_ids() {
    for row in tsv("DERIVED.tsv") {
        let name = row[0].split("+ ").nth(1).unwrap();
        let data = input(name);
        let mut h = Hasher::new();
        h.update(format!("blob {}\0", data.len()).as_bytes());
        h.update(&data);
        let o = h.finalize();
        assert_eq!(o.sha1().to_string(), row[2], "{name}");
        assert_eq!(o.digest().to_string(), row[4], "{name}");
        assert_eq!(o.collision().is_some(), row[3] == "yes", "{name}");
    }
}

#[test]
fn prefix_lengths_of_the_control() {
    let data = input("ctrl-splitmix64-1MiB.bin");
    for row in tsv("LENGTHS.tsv") {
        let len: usize = row[0].parse().unwrap();
        assert_eq!(
            hash(&data[..len]).digest().to_string(),
            row[1],
            "prefix {len}"
        );
    }
}

#[test]
fn colliding_pairs_get_equal_sha1_and_different_outputs() {
    for (a, b) in [
        ("shattered-1.pdf", "shattered-2.pdf"),
        ("sha-mbles-1.bin", "sha-mbles-2.bin"),
    ] {
        let (x, y) = (hash(&input(a)), hash(&input(b)));
        assert_eq!(x.sha1(), y.sha1());
        assert_ne!(x.digest(), y.digest());
    }
}
