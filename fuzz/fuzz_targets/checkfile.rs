//! The checksum-line parser of `sha1dcsum --check` on any input: no panic,
//! no hang (it is linear: one pass per line), and every line it accepts is
//! written back the same way and read back to the same entry; escaping
//! round-trips for any name.
//!
//! cargo +nightly fuzz run checkfile
#![no_main]

use libfuzzer_sys::fuzz_target;

// The module as the command compiles it (plain std, no crate of the package).
#[allow(dead_code)]
#[path = "../../src/bin/sha1dcsum/lines.rs"]
mod lines;

fuzz_target!(|data: &[u8]| {
    for line in data.split(|&b| b == b'\n') {
        if let Some(entry) = lines::parse_line(line) {
            assert!(!entry.name.is_empty());
            // Written back (never NUL-terminated here: a name from a line
            // has no newline unless it was escaped, and writing escapes it).
            let mut out = Vec::new();
            lines::write_line(
                &mut out,
                &entry.digest,
                &entry.name,
                entry.flagged,
                entry.style,
                false,
            );
            assert_eq!(out.pop(), Some(b'\n'));
            assert!(!out.contains(&b'\n'), "one entry, one line");
            let again = lines::parse_line(&out).expect("our own line parses");
            assert_eq!(again.name, entry.name);
            assert_eq!(again.digest, entry.digest);
            assert_eq!(again.flagged, entry.flagged);
        }
    }
    let mut escaped = Vec::new();
    lines::escape(data, &mut escaped);
    assert_eq!(lines::unescape(&escaped).as_deref(), Some(data));
});
