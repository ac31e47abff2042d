//! What a hashing run prints for each input: its checksum line (lines.rs)
//! or its `--json` line, from the result of hashing it.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use sha1dc_wasm::{Digest, Outcome};

use crate::lines::write_line;
use crate::options::Options;

/// What hashing one input found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hashed<'a> {
    /// The plain SHA-1.
    pub sha1: [u8; 20],
    /// The printed hash: the safe hash of a flagged input, unless
    /// `--no-safe-hash`.
    pub output: [u8; 20],
    pub collision: Option<Collision<'a>>,
}

/// Where the first collision was detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Collision<'a> {
    /// The first flagged block's offset in the input's own bytes (for a git
    /// blob, in the file, after the header).
    pub offset: u64,
    /// Its index in what was hashed.
    pub block: u64,
    /// Its disturbance vector's name, like `II(52,0)`.
    pub dv: &'a str,
    /// How many blocks were flagged.
    pub count: u64,
}

/// Appends `s` to `out` as a JSON string, quotes included.
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One `--json` line, newline included. A name that is not valid UTF-8 also
/// gets `file_bytes`, its exact bytes in hex (`file` then has U+FFFD where
/// bytes were not UTF-8).
pub fn json_line(name: &[u8], hashed: &Hashed<'_>) -> String {
    let mut line = String::with_capacity(160);
    line.push_str("{\"file\":");
    push_json_string(&mut line, &String::from_utf8_lossy(name));
    if core::str::from_utf8(name).is_err() {
        line.push_str(",\"file_bytes\":\"");
        for b in name {
            line.push_str(&format!("{b:02x}"));
        }
        line.push('"');
    }
    line.push_str(&format!(
        ",\"sha1\":\"{}\",\"output\":\"{}\",\"collision\":",
        Digest::from(hashed.sha1),
        Digest::from(hashed.output)
    ));
    match hashed.collision {
        Some(c) => line.push_str(&format!(
            "{{\"offset\":{},\"block\":{},\"dv\":\"{}\",\"count\":{}}}",
            c.offset, c.block, c.dv, c.count
        )),
        None => line.push_str("null"),
    }
    line.push_str("}\n");
    line
}

/// Appends what a hashing run prints for the input `name`: its `--json`
/// line, or its checksum line in the style the options ask for.
pub fn push_result(out: &mut Vec<u8>, options: &Options, name: &[u8], hashed: &Hashed<'_>) {
    if options.json {
        out.extend_from_slice(json_line(name, hashed).as_bytes());
    } else {
        let flagged = hashed.collision.is_some();
        write_line(
            out,
            &hashed.output,
            name,
            flagged,
            options.style(),
            options.zero,
        );
    }
}

/// Appends what a hashing run prints for the input `name` that hashed to
/// `outcome`; `offset` is where its first flagged block starts in the
/// input's own bytes (for a git blob, in the content), if one was flagged.
pub fn push_outcome(
    out: &mut Vec<u8>,
    options: &Options,
    name: &[u8],
    outcome: &Outcome,
    offset: u64,
) {
    let dv = outcome.collision().map(|c| c.dv().to_string());
    let collision = outcome.collision().zip(dv.as_deref());
    let hashed = Hashed {
        sha1: outcome.sha1().to_bytes(),
        output: outcome.digest().to_bytes(),
        collision: collision.map(|(c, dv)| Collision {
            offset,
            block: c.block(),
            dv,
            count: c.count(),
        }),
    };
    push_result(out, options, name, &hashed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        let mut s = String::new();
        push_json_string(&mut s, "a\"b\\c\nd\te\u{1}f\u{7f}é\r\u{8}\u{c}");
        assert_eq!(
            s,
            r#""a\"b\\c\nd\te\u0001f"#.to_owned() + "\u{7f}é\\r\\b\\f\""
        );
    }

    #[test]
    fn json_lines_name_the_bytes_of_a_name_that_is_not_utf8() {
        let hashed = Hashed {
            sha1: [0xab; 20],
            output: [0xcd; 20],
            collision: Some(Collision {
                offset: 192,
                block: 3,
                dv: "II(52,0)",
                count: 1,
            }),
        };
        let line = json_line(b"f\xe9", &hashed);
        assert_eq!(
            line,
            format!(
                "{{\"file\":\"f\u{fffd}\",\"file_bytes\":\"66e9\",\"sha1\":\"{}\",\
                 \"output\":\"{}\",\"collision\":{{\"offset\":192,\"block\":3,\
                 \"dv\":\"II(52,0)\",\"count\":1}}}}\n",
                "ab".repeat(20),
                "cd".repeat(20)
            )
        );
    }
}
