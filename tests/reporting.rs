//! The report of each flagged block (`Hasher::update_reporting`) and the
//! options changed mid-message (`Hasher::set_*`), for every backend this
//! CPU runs, on both detection paths (one block at a time, and filtered a
//! batch at a time: the unfiltered modes, the backends without per-block
//! detection, long calls with AVX-512): against the reference's own values
//! (RECOMPRESSION_KAT.txt, TRACE.txt) and against a model written from the
//! algorithm's description (tests/common/model.rs).

mod common;

use common::kat::{FILTERED, MODES, Mode, traces};
use common::model::{self, Dv, Flagged, Found};
use common::{SplitMix64, input, light, text, tsv};
use sha1dc_wasm::{CollisionBlock, Hasher, Outcome, available_backends};

fn dvs() -> Vec<Dv> {
    model::dvs(&text("DV_TABLE.tsv"))
}

fn flagged(b: &CollisionBlock) -> Flagged {
    Flagged {
        offset: b.offset(),
        dv: b.dv().index(),
        chain: b.chain(),
        partner_chain: b.partner_chain(),
        words: *b.words(),
        partner_words: *b.partner_words(),
    }
}

/// `data` through `h` with every report: in one call, or in chunks of
/// 1 byte to 3 blocks that `rng` picks.
fn reporting(h: Hasher, data: &[u8], rng: Option<&mut SplitMix64>) -> (Outcome, Vec<Flagged>) {
    reporting_after(h, &[], data, rng)
}

/// [`reporting`], after the reports `earlier` of what `h` was given before.
fn reporting_after(
    mut h: Hasher,
    earlier: &[Flagged],
    data: &[u8],
    rng: Option<&mut SplitMix64>,
) -> (Outcome, Vec<Flagged>) {
    let mut seen = earlier.to_vec();
    let mut on_collision = |b: &CollisionBlock| seen.push(flagged(b));
    match rng {
        None => h.update_reporting(data, &mut on_collision),
        Some(rng) => {
            let mut rest = data;
            while !rest.is_empty() {
                let n = (1 + rng.below(192) as usize).min(rest.len());
                h.update_reporting(&rest[..n], &mut on_collision);
                rest = &rest[n..];
            }
        }
    }
    let outcome = h.finalize_reporting(&mut on_collision);
    (outcome, seen)
}

/// The hasher's outcome and reports are the model's.
fn assert_model(got: &(Outcome, Vec<Flagged>), want: &Found, what: &str) {
    assert_eq!(got.1, want.flagged, "{what}: reports");
    assert_outcome(&got.0, want, what);
}

/// The hasher's outcome is the model's.
fn assert_outcome(outcome: &Outcome, want: &Found, what: &str) {
    assert_eq!(outcome.digest().to_string(), want.digest, "{what}: digest");
    assert_eq!(outcome.sha1().to_string(), want.sha1, "{what}: sha1");
    let collision = outcome
        .collision()
        .map(|c| (c.offset(), c.dv().index(), c.count()));
    let first = want.flagged.first();
    let count = want.flagged.len() as u64;
    assert_eq!(
        collision,
        first.map(|f| (f.offset, f.dv, count)),
        "{what}: collision"
    );
}

/// Every file of MANIFEST.tsv in every mode, through every backend, whole
/// and in random chunks: the reports and the outcome are the model's.
#[test]
fn reports_match_the_model_for_every_file_mode_and_backend() {
    let dvs = dvs();
    let mut rng = SplitMix64(0x7e9b);
    for row in tsv("MANIFEST.tsv") {
        let name = &row[0];
        let data = input(name);
        if light() && data.len() > 1 << 12 {
            continue;
        }
        for mode in MODES {
            if !mode.filter && data.len() > 1 << 12 {
                continue;
            }
            let want = model::hash(&dvs, &data, &|_| mode);
            for backend in available_backends() {
                let what = format!("{backend} {name} {mode}");
                let whole = reporting(mode.hasher_on(backend), &data, None);
                assert_model(&whole, &want, &what);
                let chunked = reporting(mode.hasher_on(backend), &data, Some(&mut rng));
                assert_model(&chunked, &want, &format!("{what} chunked"));
            }
        }
    }
}

/// The words of a text of hex numbers.
fn words(s: &str) -> Vec<u32> {
    s.split_whitespace()
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect()
}

/// The value of `key = ...` in a RECOMPRESSION_KAT.txt entry.
fn field<'a>(entry: &'a str, key: &str) -> &'a str {
    let line = entry.lines().find(|l| l.starts_with(key)).unwrap();
    let value = line.split_once("= ").unwrap().1;
    value.split("   (").next().unwrap()
}

/// Each block of RECOMPRESSION_KAT.txt (the reference's chaining value into
/// it, its expanded message and the partner's recomputed input chaining
/// value) as every backend reports it, in every mode that flags it with the
/// plain chain into it.
#[test]
fn reports_match_the_reference_recompression() {
    let dvs = dvs();
    let kat = text("RECOMPRESSION_KAT.txt");
    let mut checked = 0;
    for entry in kat.split("\n\n").filter(|e| e.starts_with("file=")) {
        let header: Vec<&str> = entry.lines().next().unwrap().split_whitespace().collect();
        let value = |key: &str| {
            let f = header.iter().find(|h| h.starts_with(key)).unwrap();
            f.split_once('=').unwrap().1
        };
        let (name, offset, dv) = (value("file"), value("byte_offset"), value("DV"));
        let offset: u64 = offset.parse().unwrap();
        let data = input(name);
        let w: Vec<u32> = words(&entry.lines().skip(4).take(10).collect::<Vec<_>>().join(" "));
        let reduced_only = entry.contains("full_collision(ihv2_out==ihv_out)=0");
        let dv_index = dvs.iter().position(|d| d.name == dv).unwrap();
        let partner_words: Vec<u32> = (0..80).map(|t| w[t] ^ dvs[dv_index].dm[t]).collect();
        // Modes where no block before this one changes the chain: without
        // safe hash, or without reduced-round detection (which flags the
        // SHAttered block before it).
        let modes = MODES
            .iter()
            .filter(|m| m.detect && (m.reduced_round || !reduced_only))
            .filter(|m| !(m.safe_hash && m.reduced_round && !reduced_only))
            .filter(|m| m.filter || data.len() <= 1 << 12);
        for &mode in modes {
            for backend in available_backends() {
                let what = format!("{backend} {name} {mode}");
                let (_, seen) = reporting(mode.hasher_on(backend), &data, None);
                let b = seen.iter().find(|b| b.offset == offset);
                let b = b.unwrap_or_else(|| panic!("{what}: no report at {offset}"));
                assert_eq!(dvs[b.dv].name, dv, "{what}");
                assert_eq!(b.chain.to_vec(), words(field(entry, "ihv_in")), "{what}");
                assert_eq!(b.words.to_vec(), w, "{what}");
                let partner = words(field(entry, "recompressed ihv2_in"));
                assert_eq!(b.partner_chain.to_vec(), partner, "{what}");
                assert_eq!(b.partner_words.to_vec(), partner_words, "{what}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 5 * 3, "{checked} checks");
}

/// TRACE.txt: the blocks the reference flags, with the DV, [full] and [rr]
/// (reduced-round on): exactly those without safe hash (the chain stays
/// plain), the first of them with it.
#[test]
fn reported_blocks_are_the_traced_ones() {
    let trace = text("TRACE.txt");
    for t in traces(&trace) {
        let data = input(t.name);
        if light() && data.len() > 1 << 12 {
            continue;
        }
        for mode in MODES.iter().filter(|m| m.detect) {
            if !mode.filter && data.len() > 1 << 12 {
                continue;
            }
            let fired = if mode.reduced_round { &t.rr } else { &t.full };
            let want: Vec<(u64, String)> = fired
                .iter()
                .map(|&(block, dv)| (block * 64, dv.to_owned()))
                .take(if mode.safe_hash { 1 } else { usize::MAX })
                .collect();
            for backend in available_backends() {
                let mut seen = Vec::new();
                let mut h = mode.hasher_on(backend);
                h.update_reporting(&data, &mut |b| seen.push((b.offset(), b.dv().to_string())));
                h.finalize_reporting(&mut |b| seen.push((b.offset(), b.dv().to_string())));
                assert_eq!(seen, want, "{backend} {} {mode}", t.name);
            }
        }
    }
}

/// The collisions followed by random data: the colliding blocks
/// anywhere in a call (fed from random split points) and in a call of
/// more than 512 blocks (the AVX-512 backend filters those a batch at a
/// time).
#[test]
fn reports_in_long_calls_and_at_every_split() {
    let dvs = dvs();
    let mut rng = SplitMix64(0x51a1);
    for name in ["shattered-1.prefix320.bin", "sha-mbles-2.bin"] {
        let mut data = input(name);
        let mut tail = vec![0u8; 64 * 600 + 17];
        rng.fill(&mut tail);
        data.extend_from_slice(&tail);
        for mode in FILTERED {
            let want = model::hash(&dvs, &data, &|_| mode);
            assert!(!want.flagged.is_empty(), "{name}");
            for backend in available_backends() {
                let what = format!("{backend} {name} {mode}");
                assert_model(
                    &reporting(mode.hasher_on(backend), &data, None),
                    &want,
                    &what,
                );
                for split in 0..=11 {
                    let mut seen = Vec::new();
                    let mut h = mode.hasher_on(backend);
                    let mut on = |b: &CollisionBlock| seen.push(flagged(b));
                    h.update_reporting(&data[..64 * split + 5], &mut on);
                    h.update_reporting(&data[64 * split + 5..], &mut on);
                    let outcome = h.finalize_reporting(&mut on);
                    assert_model(&(outcome, seen), &want, &format!("{what} split {split}"));
                }
            }
        }
    }
}

/// A clone taken mid-message, and a bitwise copy (as C code copies a
/// context with memcpy), go on independently of the original.
#[test]
fn a_clone_taken_mid_message_goes_on_alone() {
    let dvs = dvs();
    let mut rng = SplitMix64(0xc10e);
    let pdf = input("shattered-1.prefix320.bin");
    for round in 0..40 {
        let mode = FILTERED[round % FILTERED.len()];
        let mut other = vec![0u8; rng.below(700) as usize];
        rng.fill(&mut other);
        let split = rng.below(pdf.len() as u64 + 1) as usize;
        for backend in available_backends() {
            let what = format!("{backend} {mode} round {round} split {split}");
            let mut original = mode.hasher_on(backend);
            let mut earlier = Vec::new();
            original.update_reporting(&pdf[..split], &mut |b| earlier.push(flagged(b)));
            let clone = original.clone();
            // SAFETY: a Hasher owns nothing (no drop glue, asserted in
            // tests/api.rs): a bitwise copy is a second, independent value.
            let copy: Hasher = unsafe { std::ptr::read(&original) };
            // The original goes elsewhere; the copies finish the PDF.
            original.update(&other);
            let mut whole = pdf[..split].to_vec();
            whole.extend_from_slice(&other);
            let want = model::hash(&dvs, &whole, &|_| mode);
            assert_model(
                &reporting_after(original, &earlier, &[], None),
                &want,
                &what,
            );
            let want = model::hash(&dvs, &pdf, &|_| mode);
            let rest = &pdf[split..];
            let clone = reporting_after(clone, &earlier, rest, Some(&mut rng));
            assert_model(&clone, &want, &what);
            assert_model(&reporting_after(copy, &earlier, rest, None), &want, &what);
        }
    }
}

/// An option's name, its setter, and the same change to a mode.
type Setter = (&'static str, fn(&mut Hasher, bool), fn(&mut Mode, bool));

/// The four options.
const SETTERS: [Setter; 4] = [
    ("safe_hash", Hasher::set_safe_hash, |m, on| m.safe_hash = on),
    ("detect", Hasher::set_detect_collisions, |m, on| {
        m.detect = on
    }),
    ("reduced_round", Hasher::set_reduced_round, |m, on| {
        m.reduced_round = on
    }),
    ("filter", Hasher::set_use_filter, |m, on| m.filter = on),
];

/// Set before the first byte, each option gives what the builder's option
/// gives, from every mode.
#[test]
fn a_switch_before_any_byte_is_the_builder_option() {
    let files = [
        "shattered-2.prefix320.bin",
        "sha-mbles-1.bin",
        "sha1_reducedsha_coll.bin",
    ];
    for name in files {
        let data = input(name);
        for start in MODES {
            for (option, set, set_mode) in SETTERS {
                for on in [false, true] {
                    let mut mode = start;
                    set_mode(&mut mode, on);
                    for backend in available_backends() {
                        let mut switched = start.hasher_on(backend);
                        set(&mut switched, on);
                        switched.update(&data);
                        let mut built = mode.hasher_on(backend);
                        built.update(&data);
                        let what = format!("{backend} {name} from {start}: {option}={on}");
                        assert_eq!(switched.finalize(), built.finalize(), "{what}");
                    }
                }
            }
        }
    }
}

/// Options switched at random points of a message, between calls of
/// random sizes: block k is compressed with the options in force when its
/// last byte was added (the model), with reports and without.
#[test]
fn switches_at_random_points_match_the_model() {
    let dvs = dvs();
    let mut rng = SplitMix64(0x5e7);
    let files = [
        "shattered-1.prefix320.bin",
        "sha-mbles-1.bin",
        "sha1_reducedsha_coll.bin",
    ];
    let rounds = if light() { 30 } else { 300 };
    for round in 0..rounds {
        let mut data = input(files[round % files.len()]);
        let mut tail = vec![0u8; rng.below(300) as usize];
        rng.fill(&mut tail);
        data.extend_from_slice(&tail);
        let start = MODES[rng.below(MODES.len() as u64) as usize];
        // Split points, each followed by a switch of one or two options.
        let mut cuts: Vec<usize> = (0..1 + rng.below(5))
            .map(|_| rng.below(data.len() as u64 + 1) as usize)
            .collect();
        cuts.sort_unstable();
        let switches: Vec<Vec<(usize, bool)>> = cuts
            .iter()
            .map(|_| {
                let n = 1 + rng.below(2);
                (0..n)
                    .map(|_| (rng.below(4) as usize, rng.below(2) == 1))
                    .collect()
            })
            .collect();
        // The mode after each cut.
        let mut modes = vec![start];
        for s in &switches {
            let mut m = *modes.last().unwrap();
            for &(i, on) in s {
                (SETTERS[i].2)(&mut m, on);
            }
            modes.push(m);
        }
        let mode_of = |k: usize| {
            let done = cuts.iter().filter(|&&cut| cut >= 64 * k + 64).count();
            modes[cuts.len() - done]
        };
        let want = model::hash(&dvs, &data, &mode_of);
        for backend in available_backends() {
            let what = format!("{backend} round {round} from {start} cuts {cuts:?} {switches:?}");
            for report in [true, false] {
                let mut h = start.hasher_on(backend);
                let mut seen = Vec::new();
                let mut on = |b: &CollisionBlock| seen.push(flagged(b));
                let mut at = 0;
                for (&cut, s) in cuts.iter().zip(&switches) {
                    if report {
                        h.update_reporting(&data[at..cut], &mut on);
                    } else {
                        h.update(&data[at..cut]);
                    }
                    at = cut;
                    for &(i, on) in s {
                        (SETTERS[i].1)(&mut h, on);
                    }
                }
                if report {
                    h.update_reporting(&data[at..], &mut on);
                    let outcome = h.finalize_reporting(&mut on);
                    assert_model(&(outcome, seen), &want, &what);
                } else {
                    h.update(&data[at..]);
                    assert_outcome(&h.finalize(), &want, &format!("{what} unreported"));
                }
            }
        }
    }
}
