//! Checksum lines: writing them as GNU `sha1sum` and sha1dcsum do, and
//! reading them back for `--check`. Plain `std`, no crate of this package:
//! the fuzz target (fuzz/fuzz_targets/checkfile.rs) includes this file.
//!
//! The formats, one line each (`\n`-terminated, or NUL with `-z`):
//!
//! - GNU: `<hex>  <name>` (text) or `<hex> *<name>` (binary);
//! - BSD (`--tag`): `SHA1 (<name>) = <hex>`;
//! - sha1dcsum's flagged lines: `<hex> *coll* <name>` as the original C
//!   tool prints them, and `SHA1 (<name>) = <hex> *coll*` in the BSD form.
//!
//! A name holding a newline, a carriage return or a backslash is written
//! escaped (`\n`, `\r`, `\\`) and the line starts with a `\`, as GNU
//! coreutils 9 does, so one entry is always one line; `-z` lines are never
//! escaped (NUL cannot occur in a name).

/// How a line was (or is to be) written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `<hex>  <name>`.
    Text,
    /// `<hex> *<name>`.
    Binary,
    /// `SHA1 (<name>) = <hex>`.
    Tag,
}

/// One parsed checksum line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name, unescaped.
    pub name: Vec<u8>,
    /// The 20 bytes the line records.
    pub digest: [u8; 20],
    /// True for sha1dcsum's `*coll*` lines: the file was flagged when the
    /// list was made.
    pub flagged: bool,
    pub style: Style,
}

/// The marker of a flagged line between digest and name.
const COLL: &[u8] = b" *coll* ";
/// The BSD form's algorithm name and its flagged suffix.
const TAG: &[u8] = b"SHA1 (";
const TAG_COLL: &[u8] = b" *coll*";

/// True when `name` must be escaped to stay on one line.
pub fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|&b| matches!(b, b'\n' | b'\r' | b'\\'))
}

/// `name` with `\`, newline and carriage return escaped.
pub fn escape(name: &[u8], out: &mut Vec<u8>) {
    for &b in name {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
}

/// The inverse of [`escape`]; `None` on a `\` followed by anything else (or
/// nothing), as GNU rejects such a line.
pub fn unescape(escaped: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(escaped.len());
    let mut bytes = escaped.iter();
    while let Some(&b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        out.push(match bytes.next()? {
            b'\\' => b'\\',
            b'n' => b'\n',
            b'r' => b'\r',
            _ => return None,
        });
    }
    Some(out)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends one line, terminator included: `zero` ends it with NUL and
/// writes the name raw, otherwise a name that needs it is escaped.
pub fn write_line(
    out: &mut Vec<u8>,
    digest: &[u8; 20],
    name: &[u8],
    flagged: bool,
    style: Style,
    zero: bool,
) {
    let escaped = !zero && needs_escape(name);
    if escaped {
        out.push(b'\\');
    }
    let push_name = |out: &mut Vec<u8>| {
        if escaped {
            escape(name, out);
        } else {
            out.extend_from_slice(name);
        }
    };
    let push_hex = |out: &mut Vec<u8>| {
        for b in digest {
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 15)]);
        }
    };
    match style {
        Style::Tag => {
            out.extend_from_slice(TAG);
            push_name(out);
            out.extend_from_slice(b") = ");
            push_hex(out);
            if flagged {
                out.extend_from_slice(TAG_COLL);
            }
        }
        Style::Text | Style::Binary => {
            push_hex(out);
            out.extend_from_slice(match (flagged, style) {
                (true, _) => COLL,
                (false, Style::Binary) => b" *",
                _ => b"  ",
            });
            push_name(out);
        }
    }
    out.push(if zero { 0 } else { b'\n' });
}

fn parse_hex(hex: &[u8]) -> Option<[u8; 20]> {
    if hex.len() != 40 {
        return None;
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let mut out = [0u8; 20];
    for (i, b) in out.iter_mut().enumerate() {
        *b = (nibble(hex[2 * i])? << 4) | nibble(hex[2 * i + 1])?;
    }
    Some(out)
}

/// Parses one line (its terminator removed). `None` for a line that is not
/// a SHA-1 checksum line in any of the formats ("improperly formatted").
///
/// Leading blanks are skipped and a final carriage return dropped, as GNU
/// does; a line starting with `\` has an escaped name. `<hex> *coll* <name>`
/// is always read as a flagged line (a file whose name starts with `coll* `,
/// listed in binary mode, reads as flagged: list it in text mode).
pub fn parse_line(line: &[u8]) -> Option<Entry> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let start = line.iter().position(|&b| b != b' ' && b != b'\t')?;
    let mut line = &line[start..];
    let escaped = line.first() == Some(&b'\\');
    if escaped {
        line = &line[1..];
    }
    let unescape_name = |name: &[u8]| -> Option<Vec<u8>> {
        if name.is_empty() {
            return None;
        }
        if escaped {
            unescape(name)
        } else {
            Some(name.to_vec())
        }
    };

    if let Some(rest) = line.strip_prefix(TAG) {
        let (rest, flagged) = match rest.strip_suffix(TAG_COLL) {
            Some(r) => (r, true),
            None => (rest, false),
        };
        if rest.len() < 44 {
            return None;
        }
        let (name, tail) = rest.split_at(rest.len() - 44);
        let hex = tail.strip_prefix(b") = ")?;
        return Some(Entry {
            name: unescape_name(name)?,
            digest: parse_hex(hex)?,
            flagged,
            style: Style::Tag,
        });
    }

    if line.len() < 42 {
        return None;
    }
    let (hex, rest) = line.split_at(40);
    let digest = parse_hex(hex)?;
    if let Some(name) = rest.strip_prefix(COLL) {
        return Some(Entry {
            name: unescape_name(name)?,
            digest,
            flagged: true,
            style: Style::Binary,
        });
    }
    let rest = rest.strip_prefix(b" ")?;
    let (style, name) = match rest.first() {
        Some(b'*') => (Style::Binary, &rest[1..]),
        Some(b' ') => (Style::Text, &rest[1..]),
        _ => (Style::Text, rest),
    };
    Some(Entry {
        name: unescape_name(name)?,
        digest,
        flagged: false,
        style,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: [u8; 20] = [
        0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e, 0x25, 0x71, 0x78, 0x50, 0xc2,
        0x6c, 0x9c, 0xd0, 0xd8, 0x9d,
    ];
    const H: &str = "a9993e364706816aba3e25717850c26c9cd0d89d";

    fn line(name: &[u8], flagged: bool, style: Style, zero: bool) -> Vec<u8> {
        let mut out = Vec::new();
        write_line(&mut out, &D, name, flagged, style, zero);
        out
    }

    #[test]
    fn writes_gnu_lines() {
        assert_eq!(
            line(b"a b", false, Style::Text, false),
            format!("{H}  a b\n").as_bytes()
        );
        assert_eq!(
            line(b"a", false, Style::Binary, false),
            format!("{H} *a\n").as_bytes()
        );
        assert_eq!(
            line(b"a", true, Style::Text, false),
            format!("{H} *coll* a\n").as_bytes()
        );
        assert_eq!(
            line(b"a\nb", false, Style::Text, false),
            format!("\\{H}  a\\nb\n").as_bytes()
        );
        assert_eq!(
            line(b"c\\d", false, Style::Text, false),
            format!("\\{H}  c\\\\d\n").as_bytes()
        );
        assert_eq!(
            line(b"e\rf", true, Style::Text, false),
            format!("\\{H} *coll* e\\rf\n").as_bytes()
        );
        assert_eq!(
            line(b"a\nb", false, Style::Text, true),
            format!("{H}  a\nb\0").as_bytes()
        );
        assert_eq!(
            line(b"x)", false, Style::Tag, false),
            format!("SHA1 (x)) = {H}\n").as_bytes()
        );
        assert_eq!(
            line(b"a\\", true, Style::Tag, false),
            format!("\\SHA1 (a\\\\) = {H} *coll*\n").as_bytes()
        );
    }

    #[test]
    fn reads_back_what_it_writes() {
        for name in [
            &b"a"[..],
            b"a b",
            b" lead",
            b"a\nb\r\\",
            b"\\",
            b"x) = y",
            b"*star",
            b"coll",
            b"\xff\xfe",
        ] {
            for style in [Style::Text, Style::Binary, Style::Tag] {
                for flagged in [false, true] {
                    let l = line(name, flagged, style, false);
                    let e = parse_line(&l[..l.len() - 1]).unwrap_or_else(|| panic!("{l:?}"));
                    assert_eq!(e.name, name, "{l:?}");
                    assert_eq!((e.digest, e.flagged), (D, flagged), "{l:?}");
                    let want = if flagged && style != Style::Tag {
                        Style::Binary
                    } else {
                        style
                    };
                    assert_eq!(e.style, want, "{l:?}");
                }
            }
        }
    }

    #[test]
    fn reads_gnu_variants_and_rejects_the_rest() {
        let e = parse_line(format!("  {}  name\r", H.to_uppercase()).as_bytes()).unwrap();
        assert_eq!((e.name.as_slice(), e.digest), (&b"name"[..], D));
        let e = parse_line(format!("{H} name").as_bytes()).unwrap();
        assert_eq!(e.name, b"name");
        for bad in [
            String::new(),
            "   ".into(),
            H.to_string(),
            format!("{H}  "),
            format!("{H}x name"),
            format!("{}  name", &H[1..]),
            format!("g{}  name", &H[1..]),
            format!("\\{H}  bad\\escape"),
            format!("\\{H}  trailing\\"),
            format!("MD5 (a) = {H}"),
            format!("SHA1 () = {H}"),
            format!("SHA1 (a) = {H} *col"),
            "SHA1 (a) = short".into(),
        ] {
            assert_eq!(parse_line(bad.as_bytes()), None, "{bad:?}");
        }
    }
}
