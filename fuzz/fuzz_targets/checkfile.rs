//! The checksum-line parser of `sha1dcsum --check` on any input: no panic,
//! no hang (it is linear: one pass per line), and every line it accepts is
//! written back and read back to the same entry; a line it cannot read
//! names a file or is improper; escaping round-trips for any name.
//!
//! cargo +nightly fuzz run checkfile
#![no_main]

use libfuzzer_sys::fuzz_target;

use sha1dcsum::lines::{self, Line};

fuzz_target!(|data: &[u8]| {
    for line in data.split(|&b| b == b'\n') {
        match lines::parse_line(line) {
            Line::Entry(entry) => {
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
                let Line::Entry(again) = lines::parse_line(&out) else {
                    panic!("our own line parses: {out:?}");
                };
                assert_eq!(again.name, entry.name);
                assert_eq!(again.digest, entry.digest);
                assert_eq!(again.flagged, entry.flagged);
            }
            Line::Unreadable(name) => assert!(!name.is_empty()),
            Line::Improper | Line::Ignored => {}
        }
    }
    let mut escaped = Vec::new();
    lines::escape(data, &mut escaped);
    assert_eq!(lines::unescape(&escaped).as_deref(), Some(data));
});
