//! The two-thread paths against the one-thread path, on every backend and
//! in every mode, with small chunks so that the public collisions fall on
//! chunk boundaries and inside chunks; the second thread's part; a `Read`
//! that fails or panics.

use std::io::{self, Read};
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use super::*;
use crate::config::Config;
use crate::engine::Engine;
use crate::outcome::Outcome;
use crate::platform::{Backend, Platform, available_backends};
use crate::record::Reporter;
use crate::splitmix::SplitMix64;

fn backends() -> impl Iterator<Item = Platform> {
    available_backends().map(|name| Backend::by_name(name).expect("available"))
}

/// Every mode: detection on with each combination of the other switches,
/// then off.
fn configs() -> Vec<Config> {
    let mut all = Vec::new();
    for bits in 0..8 {
        all.push(Config {
            detect: true,
            safe_hash: bits & 1 != 0,
            reduced_round: bits & 2 != 0,
            use_filter: bits & 4 != 0,
            ..Config::DEFAULT
        });
    }
    all.push(Config {
        detect: false,
        ..Config::DEFAULT
    });
    all
}

fn data_file(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A message for `rng`: random bytes, or a public collision (the smallest
/// colliding pieces, and the reduced-round block) followed by random
/// bytes, up to `most` bytes in all.
fn message(rng: &mut SplitMix64, collisions: &[Vec<u8>], most: usize) -> Vec<u8> {
    let pick = rng.below(collisions.len() as u64 + 1) as usize;
    let mut m = collisions.get(pick).cloned().unwrap_or_default();
    let len = m.len() + rng.below((most - m.len()) as u64) as usize;
    let start = m.len();
    m.resize(len, 0);
    rng.fill(&mut m[start..]);
    m
}

fn collisions() -> Vec<Vec<u8>> {
    [
        "shattered-1.prefix320.bin",
        "shattered-2.prefix320.bin",
        "sha-mbles-1.bin",
        "sha-mbles-2.bin",
        "sha1_reducedsha_coll.bin",
    ]
    .iter()
    .map(|n| data_file(n))
    .collect()
}

/// `message` on the one-thread path.
fn one_thread(config: Config, backend: Platform, message: &[u8]) -> Outcome {
    let mut engine = Engine::new(config, backend);
    engine.update(message, &mut Reporter::none());
    engine.finalize(&mut Reporter::none())
}

/// Small chunks: a first of 1 to 4 blocks, the largest up to 8 times that.
fn small_chunks(rng: &mut SplitMix64) -> Chunks {
    let first = 1 << rng.below(3);
    Chunks {
        first,
        max: first << rng.below(4),
    }
}

#[test]
fn slices_on_two_threads_equal_one_thread() {
    let collisions = collisions();
    let mut rng = SplitMix64(0x7c0e);
    for backend in backends() {
        for config in configs() {
            for round in 0..40 {
                let m = message(&mut rng, &collisions, 6000);
                let want = one_thread(config, backend, &m);
                // Part of the message before, on the one-thread path.
                let before = rng.below(m.len() as u64 + 1) as usize % 200;
                let (chunks, min) = (small_chunks(&mut rng), rng.below(1500) as usize);
                let mut engine = Engine::new(config, backend);
                engine.update(&m[..before], &mut Reporter::none());
                update_slice(&mut engine, &m[before..], chunks, min);
                let got = engine.finalize(&mut Reporter::none());
                let at = (backend.name(), round, m.len(), before, chunks, min);
                assert_eq!(got, want, "{config:?} {at:?}");
            }
        }
    }
}

/// Yields its bytes in pieces of 1 to 1000 bytes.
struct Pieces<'a> {
    data: &'a [u8],
    rng: SplitMix64,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (1 + self.rng.below(1000) as usize)
            .min(buf.len())
            .min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn readers_on_two_threads_equal_one_thread() {
    let collisions = collisions();
    let mut rng = SplitMix64(0x4ead);
    for backend in backends() {
        for config in configs() {
            for round in 0..25 {
                let m = message(&mut rng, &collisions, 6000);
                let want = one_thread(config, backend, &m);
                let before = rng.below(m.len() as u64 + 1) as usize % 200;
                let min = 64 + rng.below(1000) as usize;
                let chunk = 64 * (1 + rng.below(8) as usize) + rng.below(3) as usize;
                let mut engine = Engine::new(config, backend);
                engine.update(&m[..before], &mut Reporter::none());
                let reader = Pieces {
                    data: &m[before..],
                    rng: SplitMix64(round),
                };
                let (read, _) = update_reader(&mut engine, reader, min, chunk).unwrap();
                assert_eq!(read, (m.len() - before) as u64);
                let got = engine.finalize(&mut Reporter::none());
                let at = (backend.name(), round, m.len(), before, min, chunk);
                assert_eq!(got, want, "{config:?} {at:?}");
            }
        }
    }
}

/// With the real sizes, around the cut-over and the chunk size: the same
/// outcome, one thread below the cut-over, and the second thread's
/// handiwork above it (tried a few times over a slice: a loaded machine
/// may not run the second thread in time).
#[test]
fn the_second_thread_works_from_the_cut_over_on() {
    let config = Config::DEFAULT;
    // The fastest backend whose filter goes to the second thread (the
    // portable one's always does).
    let backend = backends()
        .find(|&b| filter_apart(&Engine::new(config, b)))
        .expect("a backend that filters apart");
    let data = crate::splitmix::splitmix64_bytes(7, 4 << 20);
    for len in [
        PARALLEL_MIN - 1,
        PARALLEL_MIN,
        PARALLEL_MIN + 65,
        CHUNK * 3 + 17,
        4 << 20,
    ] {
        let want = one_thread(config, backend, &data[..len]);
        let mut handed = 0;
        for _ in 0..20 {
            let mut engine = Engine::new(config, backend);
            let counts = update_slice(&mut engine, &data[..len], Chunks::DEFAULT, PARALLEL_MIN);
            assert_eq!(engine.finalize(&mut Reporter::none()), want, "{len}");
            assert_eq!(
                counts == ChunkCounts::default(),
                len < PARALLEL_MIN,
                "{len}"
            );
            handed += counts.handed;
            if handed > 0 || len < PARALLEL_MIN {
                break;
            }
        }
        if len == 4 << 20 {
            assert!(handed > 0, "the second thread never filtered a chunk");
        }
        let mut engine = Engine::new(config, backend);
        let (_, counts) = update_reader(&mut engine, &data[..len], PARALLEL_MIN, CHUNK).unwrap();
        assert_eq!(engine.finalize(&mut Reporter::none()), want, "{len}");
        assert_eq!(counts.handed > 0, len > PARALLEL_MIN, "{len}");
    }
}

/// Where the one-thread path hides the filter beside the rounds, a slice
/// is hashed on one thread (no chunk claimed) and a `Read` still read on
/// the second; elsewhere the filter goes apart whenever detection and the
/// filter are on. The same outcome either way.
#[test]
fn the_filter_stays_where_the_rounds_hide_it() {
    let data = crate::splitmix::splitmix64_bytes(11, 2 << 20);
    for backend in backends() {
        let hidden = backend.hides_filter();
        for config in configs() {
            let apart = filter_apart(&Engine::new(config, backend));
            assert_eq!(
                apart,
                config.detect && config.use_filter && !hidden,
                "{} {config:?}",
                backend.name()
            );
        }
        let config = Config::DEFAULT;
        let want = one_thread(config, backend, &data);
        let mut engine = Engine::new(config, backend);
        let counts = update_slice(&mut engine, &data, Chunks::DEFAULT, PARALLEL_MIN);
        assert_eq!(
            engine.finalize(&mut Reporter::none()),
            want,
            "{}",
            backend.name()
        );
        if hidden {
            assert_eq!(counts, ChunkCounts::default(), "{}", backend.name());
        }
        let mut engine = Engine::new(config, backend);
        let (_, counts) = update_reader(&mut engine, &data[..], PARALLEL_MIN, CHUNK).unwrap();
        assert_eq!(
            engine.finalize(&mut Reporter::none()),
            want,
            "{}",
            backend.name()
        );
        assert!(
            counts.handed > 0,
            "{}: read on the second thread",
            backend.name()
        );
    }
    // On AMD the AVX-512 backend hides it; on other vendors none does.
    #[cfg(sha1dc_avx512)]
    if let Ok(b) = Backend::by_name("sha-ni+avx512") {
        use crate::platform::choice::Vendor;
        let amd = Vendor::this_cpu() == Vendor::Amd;
        assert_eq!(b.hides_filter(), amd);
    }
}

/// What a [`Failing`] saw: the threads that read from it, and whether it
/// was dropped.
#[derive(Default)]
struct Seen {
    readers: Vec<ThreadId>,
    dropped: bool,
}

/// Reads `good` bytes of zeros, then fails (or panics).
struct Failing {
    good: usize,
    panics: bool,
    seen: Arc<Mutex<Seen>>,
}

impl Failing {
    fn new(good: usize, panics: bool) -> (Self, Arc<Mutex<Seen>>) {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let failing = Failing {
            good,
            panics,
            seen: seen.clone(),
        };
        (failing, seen)
    }
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let me = std::thread::current().id();
        self.seen.lock().unwrap().readers.push(me);
        if self.good == 0 {
            assert!(!self.panics, "a Read that panics");
            return Err(io::Error::new(io::ErrorKind::Other, "fails half way"));
        }
        let n = buf.len().min(self.good).min(5000);
        buf[..n].fill(0);
        self.good -= n;
        Ok(n)
    }
}

impl Drop for Failing {
    fn drop(&mut self) {
        if let Ok(mut seen) = self.seen.lock() {
            seen.dropped = true;
        }
    }
}

#[test]
fn a_read_that_fails_returns_its_error_and_ends_its_thread() {
    let here = std::thread::current().id();
    for good in [0, 100, 4095, 4096, 10_000, 100_000] {
        let (reader, seen) = Failing::new(good, false);
        let mut engine = Engine::new(Config::DEFAULT, Backend::fastest());
        let err = update_reader(&mut engine, reader, 4096, 1000).unwrap_err();
        assert_eq!(err.to_string(), "fails half way", "{good}");
        let seen = seen.lock().unwrap();
        // Dropped where it was read, by a thread that has ended.
        assert!(seen.dropped, "{good}");
        // Past the first 4096 bytes, read on the second thread.
        let last = seen.readers.last().copied();
        assert_eq!(last == Some(here), good < 4096, "{good}");
    }
}

#[test]
fn a_read_that_panics_panics_the_call_and_ends_its_thread() {
    let (reader, seen) = Failing::new(10_000, true);
    let mut engine = Engine::new(Config::DEFAULT, Backend::fastest());
    let call = std::panic::AssertUnwindSafe(|| update_reader(&mut engine, reader, 4096, 1000));
    assert!(std::panic::catch_unwind(call).is_err());
    assert!(seen.lock().unwrap_or_else(|e| e.into_inner()).dropped);
}
