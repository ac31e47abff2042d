//! The known-answer checks, written once for the native tests
//! (tests/vectors.rs, inputs read from disk) and the wasm tests
//! (tests/wasm.rs, inputs embedded): the caller passes the texts of
//! tests/data and a function that yields a named input. Also the hasher's
//! modes, as every test names them.

use std::fmt;

use sha1dc_wasm::{Builder, Hasher, Outcome, hash};

/// A mode of the hasher: the four switches of its builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    pub safe_hash: bool,
    /// The unavoidable-bit-condition filter (the reference's "UBC").
    pub filter: bool,
    pub reduced_round: bool,
    pub detect: bool,
}

impl Mode {
    /// The default: safe hash, filter, full-round detection.
    pub const DEFAULT: Mode = Mode::new(true, true, false, true);
    /// The default with reduced-round detection (MANIFEST.tsv's rr columns).
    pub const REDUCED_ROUND: Mode = Mode::new(true, true, true, true);

    pub const fn new(safe_hash: bool, filter: bool, reduced_round: bool, detect: bool) -> Mode {
        Mode {
            safe_hash,
            filter,
            reduced_round,
            detect,
        }
    }

    /// A builder with these switches (default backend).
    pub fn builder(self) -> Builder {
        Hasher::builder()
            .safe_hash(self.safe_hash)
            .use_filter(self.filter)
            .reduced_round(self.reduced_round)
            .detect_collisions(self.detect)
    }

    /// A builder with these switches and the backend `name` (which this
    /// CPU must run).
    pub fn on(self, name: &str) -> Builder {
        self.builder()
            .backend(name)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// A hasher with these switches and the backend `name`.
    pub fn hasher_on(self, name: &str) -> Hasher {
        let h = self.on(name).build();
        assert_eq!(h.backend(), name);
        h
    }

    /// `data` hashed in one call.
    pub fn run(self, data: &[u8]) -> Outcome {
        let mut h = self.builder().build();
        h.update(data);
        h.finalize()
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let b = u8::from;
        write!(
            f,
            "safe_hash={} filter={} reduced_round={} detect={}",
            b(self.safe_hash),
            b(self.filter),
            b(self.reduced_round),
            b(self.detect)
        )
    }
}

/// Every mode the tests run: detection on in all eight combinations of the
/// other switches, then off (without detection the other switches change
/// nothing). The unfiltered ones (index 2, 3, 6, 7) recompress every block
/// for all 32 DVs, 20 times slower than filtered; the tests run them on
/// shorter inputs or a sample.
pub const MODES: [Mode; 9] = [
    Mode::DEFAULT,
    Mode::REDUCED_ROUND,
    Mode::new(true, false, false, true),
    Mode::new(true, false, true, true),
    Mode::new(false, true, false, true),
    Mode::new(false, true, true, true),
    Mode::new(false, false, false, true),
    Mode::new(false, false, true, true),
    Mode::new(true, true, false, false),
];

/// The filtered modes that detect: safe hash and reduced round, both ways.
pub const FILTERED: [Mode; 4] = [MODES[0], MODES[1], MODES[4], MODES[5]];

/// Rows of a tab-separated text, header and comments skipped.
pub fn rows(text: &str) -> Vec<Vec<&str>> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect()
}

/// MANIFEST.tsv: every file's SHA-1, default output and flag, and the same
/// with reduced-round detection.
pub fn check_manifest(manifest: &str, input: &dyn Fn(&str) -> Vec<u8>) {
    for row in rows(manifest) {
        let (name, bytes, sha1, coll, out, rr_coll, rr_out) =
            (row[0], row[1], row[2], row[3], row[4], row[7], row[8]);
        let data = input(name);
        assert_eq!(data.len().to_string(), bytes, "{name}");
        let d = hash(&data);
        assert_eq!(d.sha1().to_string(), sha1, "{name}");
        assert_eq!(d.digest().to_string(), out, "{name}");
        assert_eq!(d.collision().is_some(), coll == "yes", "{name}");
        let r = Mode::REDUCED_ROUND.run(&data);
        assert_eq!(r.sha1().to_string(), sha1, "{name} rr");
        assert_eq!(r.digest().to_string(), rr_out, "{name} rr");
        assert_eq!(r.collision().is_some(), rr_coll == "yes", "{name} rr");
    }
}

/// One input's section of TRACE.txt.
pub struct Trace<'a> {
    pub name: &'a str,
    /// Every mode: its output hex and whether it was flagged.
    pub modes: Vec<(Mode, &'a str, bool)>,
    /// Blocks where the full check fires, with the DV's name.
    pub full: Vec<(u64, &'a str)>,
    /// Blocks where a check fires with reduced-round detection.
    pub rr: Vec<(u64, &'a str)>,
}

impl Trace<'_> {
    /// The output hex listed for `mode`.
    pub fn output(&self, mode: Mode) -> &str {
        let found = self.modes.iter().find(|m| m.0 == mode);
        found
            .unwrap_or_else(|| panic!("TRACE.txt: no {mode} for {}", self.name))
            .1
    }
}

/// TRACE.txt's sections, in order.
pub fn traces(text: &str) -> Vec<Trace<'_>> {
    let mut out: Vec<Trace> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("file=") {
            let name = rest.split_whitespace().next().unwrap();
            out.push(Trace {
                name,
                modes: vec![],
                full: vec![],
                rr: vec![],
            });
        } else if line.contains(" coll=") {
            let (mode, result) = line.split_once(": ").unwrap();
            let (hex, coll) = result.split_once(" coll=").unwrap();
            let flag = |k: &str| mode.contains(&format!("{k}=1"));
            // TRACE.txt's columns: safe (hash), ubc (the filter), rr (reduced round).
            let key = if mode.contains("detect=off") {
                Mode::new(true, true, false, false)
            } else {
                Mode::new(flag("safe"), flag("ubc"), flag("rr"), true)
            };
            out.last_mut()
                .unwrap()
                .modes
                .push((key, hex.trim(), coll.trim() == "1"));
        } else if line.starts_with("[full] block") || line.starts_with("[rr] block") {
            let t = out.last_mut().unwrap();
            let block: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
            let dv = line
                .split("DV ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            if line.starts_with("[full]") {
                t.full.push((block, dv))
            } else {
                t.rr.push((block, dv))
            }
        }
    }
    assert_eq!(out.len(), 12, "TRACE.txt lists 12 inputs");
    out
}

/// TRACE.txt: every input in every mode, the flagged block and DV, and the
/// same result through `chunked` (which feeds a hasher in chunks of its
/// choosing). The unfiltered mode, which recompresses every block for all 32
/// DVs, is skipped for inputs longer than `unfiltered_max` bytes.
pub fn check_trace(
    text: &str,
    input: &dyn Fn(&str) -> Vec<u8>,
    unfiltered_max: usize,
    chunked: &mut dyn FnMut(Hasher, &[u8]) -> Outcome,
    context: &str,
) {
    for t in traces(text) {
        let data = input(t.name);
        assert_eq!(t.modes.len(), 8, "{}", t.name);
        for &(mode, hex, coll) in &t.modes {
            if !mode.filter && data.len() > unfiltered_max {
                continue;
            }
            let what = format!("{} {mode} {context}", t.name);
            let o = mode.run(&data);
            assert_eq!(o.digest().to_string(), hex, "{what}");
            assert_eq!(o.collision().is_some(), coll, "{what}");
            assert_eq!(chunked(mode.builder().build(), &data), o, "{what} chunked");
            if !mode.detect {
                continue;
            }
            let fired = if mode.reduced_round { &t.rr } else { &t.full };
            match o.collision() {
                None => assert!(fired.is_empty(), "{what}"),
                Some(c) => {
                    assert_eq!(
                        (c.block(), c.offset()),
                        (fired[0].0, fired[0].0 * 64),
                        "{what}"
                    );
                    assert_eq!(c.dv().to_string(), fired[0].1, "{what}");
                    if !mode.safe_hash {
                        // The chain stays the plain one: every listed block fires.
                        assert_eq!(c.count(), fired.len() as u64, "{what}");
                    }
                }
            }
        }
    }
}

/// DERIVED.tsv: git blob ids (`blob <len>\0` + content).
pub fn check_derived(derived: &str, input: &dyn Fn(&str) -> Vec<u8>) {
    for row in rows(derived) {
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

/// LENGTHS.tsv: prefixes of the 1 MiB control at block and buffer boundaries.
pub fn check_lengths(lengths: &str, control: &[u8]) {
    for row in rows(lengths) {
        let len: usize = row[0].parse().unwrap();
        assert_eq!(
            hash(&control[..len]).digest().to_string(),
            row[1],
            "prefix {len}"
        );
    }
}

/// One row's input of tests/data/wasm_fixtures.tsv: the named prefix (`-`
/// for none), then `len` bytes of SplitMix64 output from `seed`.
pub fn fixture_input(
    prefix: &str,
    seed: u64,
    len: usize,
    input: &dyn Fn(&str) -> Vec<u8>,
) -> Vec<u8> {
    let mut data = match prefix {
        "-" => Vec::new(),
        name => input(name),
    };
    data.extend_from_slice(&super::splitmix64_bytes(seed, len));
    data
}

/// wasm_fixtures.tsv's collision column: `block,dv,count`, or `-`.
pub fn collision_field(o: &Outcome) -> String {
    match o.collision() {
        None => "-".to_owned(),
        Some(c) => format!("{},{},{}", c.block(), c.dv(), c.count()),
    }
}
