//! One large input on two threads (`Hasher::update_parallel`,
//! `Hasher::update_reader_parallel`) as users call it: on every backend, in
//! the modes that filter and with detection off, random inputs of sizes
//! around the cut-over (256 KiB) and the chunk boundaries, after a start of
//! the message of any length, give exactly the one-thread outcome; so do
//! the whole public collision files. (The chunk sizes are the library's
//! own: its unit tests, src/parallel/tests.rs, run small chunks past the
//! collisions, every mode, and a `Read` that fails or panics.)

mod common;

use std::io::{self, Read};

use common::kat::{MODES, Mode};
use common::{SplitMix64, input, light, splitmix64_bytes};
use sha1dc_wasm::{Hasher, Outcome, available_backends};

const KIB: usize = 1024;

/// The one-thread outcome and the two two-thread ones for `data`, after
/// the first `before` bytes given to `update`.
fn three_ways(mode: Mode, backend: &str, data: &[u8], before: usize) -> [Outcome; 3] {
    let start = |h: &mut Hasher| h.update(&data[..before]);
    let mut one = mode.hasher_on(backend);
    start(&mut one);
    one.update(&data[before..]);
    let mut slice = mode.hasher_on(backend);
    start(&mut slice);
    slice.update_parallel(&data[before..]);
    let mut read = mode.hasher_on(backend);
    start(&mut read);
    let n = read.update_reader_parallel(&data[before..]).unwrap();
    assert_eq!(n, (data.len() - before) as u64);
    [one.finalize(), slice.finalize(), read.finalize()]
}

#[test]
fn two_threads_give_the_one_thread_outcome_around_the_cut_over_and_the_chunks() {
    let data = splitmix64_bytes(0x2c0e, 1200 * KIB);
    // 4 KiB: where a short input's small buffer ends and the ring's starts.
    let mut sizes = vec![0, 1, 4095, 4096, 4097, 100 * KIB];
    for edge in [256 * KIB, 512 * KIB, 1024 * KIB] {
        sizes.extend([edge - 64, edge - 1, edge, edge + 1, edge + 63, edge + 64]);
    }
    let modes = [MODES[0], MODES[1], MODES[4], MODES[8]];
    let mut rng = SplitMix64(0x9e11);
    for backend in available_backends() {
        for &size in &sizes {
            if light() && size > 300 * KIB {
                continue;
            }
            let mode = modes[rng.below(modes.len() as u64) as usize];
            let before = [0, 1, 63, 64, 100][rng.below(5) as usize];
            let data = &data[..size + before];
            let [one, slice, read] = three_ways(mode, backend, data, before);
            let what = format!("{backend} {mode}: {size} bytes after {before}");
            assert_eq!(slice, one, "update_parallel, {what}");
            assert_eq!(read, one, "update_reader_parallel, {what}");
        }
    }
}

/// The whole collision files (larger than the cut-over), and one with
/// random bytes after it: the first flagged block, the count and the DV
/// of the one-thread path, in every mode (unfiltered ones run on one
/// thread, and are checked on the shorter file only).
#[test]
fn two_threads_report_the_collisions_as_one_thread() {
    let mut long = input("shattered-2.pdf");
    long.extend_from_slice(&splitmix64_bytes(3, 700 * KIB));
    for (name, data) in [
        ("shattered-1.pdf", input("shattered-1.pdf")),
        ("long", long),
    ] {
        for mode in MODES {
            if !mode.filter && name == "long" {
                continue;
            }
            for backend in available_backends() {
                let [one, slice, read] = three_ways(mode, backend, &data, 0);
                assert_eq!(slice, one, "update_parallel, {name} {mode} {backend}");
                assert_eq!(read, one, "update_reader_parallel, {name} {mode} {backend}");
                assert_eq!(one.collision().is_some(), mode.detect, "{name} {mode}");
            }
        }
    }
}

/// Fails after `good` bytes.
struct Fails {
    good: usize,
}

impl Read for Fails {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.good == 0 {
            return Err(io::Error::new(io::ErrorKind::Other, "disk on fire"));
        }
        let n = buf.len().min(self.good);
        buf[..n].fill(1);
        self.good -= n;
        Ok(n)
    }
}

#[test]
fn a_read_error_is_returned_and_the_hasher_can_start_over() {
    for good in [0, 10, 256 * KIB, 300 * KIB, 2000 * KIB] {
        let mut h = Hasher::new();
        let err = h.update_reader_parallel(Fails { good }).unwrap_err();
        assert_eq!(err.to_string(), "disk on fire", "{good}");
        h.reset();
        h.update_reader_parallel(&b"abc"[..]).unwrap();
        assert_eq!(h.finalize(), sha1dc_wasm::hash(b"abc"));
    }
}

/// A git object's content on two threads: the id `hash_object` gives.
#[test]
fn git_objects_on_two_threads_give_their_ids() {
    use sha1dc_wasm::git::{ObjectHasher, ObjectKind, hash_object};
    let content = splitmix64_bytes(11, 700 * KIB + 5);
    let want = hash_object(ObjectKind::Blob, &content);
    let mut slice = ObjectHasher::new(ObjectKind::Blob, content.len() as u64);
    slice.update(&content[..100]);
    slice.update_parallel(&content[100..]);
    assert_eq!(slice.finalize().unwrap(), want);
    let mut read = ObjectHasher::new(ObjectKind::Blob, content.len() as u64);
    read.update_reader_parallel(&content[..]).unwrap();
    assert_eq!(read.finalize().unwrap(), want);
}
