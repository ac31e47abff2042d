//! The pack reader (gitverify) on any bytes taken as a pack without an
//! index: no panic, no hang, no allocation of a declared size (the
//! reader bounds each by what the compressed bytes can hold), never more
//! objects verified than the pack declares, and the same report on one
//! worker and on two.
//!
//! cargo +nightly fuzz run pack -- -detect_leaks=0
//!
//! (The workers are threads: glibc's registration of their thread-local
//! destructors is a 32-byte allocation LeakSanitizer reports as a leak.)
#![no_main]

use gitverify::{Options, Summary};
use libfuzzer_sys::fuzz_target;

fn run(data: &[u8], threads: usize) -> Summary {
    let options = Options {
        threads,
        ..Options::default()
    };
    let mut summary = Summary::default();
    gitverify::verify_pack_bytes(data, &options, &mut |e| summary.add(e));
    summary.sort();
    summary
}

fuzz_target!(|data: &[u8]| {
    let one = run(data, 1);
    let declared = data
        .get(8..12)
        .map_or(0, |b| u32::from_be_bytes(b.try_into().unwrap()));
    assert!(one.counts.total() <= u64::from(declared));
    assert_eq!(one, run(data, 2));
});
