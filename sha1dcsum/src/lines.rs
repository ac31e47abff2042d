//! Checksum lines: writing them as GNU `sha1sum` and sha1dcsum do, and
//! reading them back for `--check` as GNU reads them ([`parse_line`]).
//!
//! The formats, one line each (`\n`-terminated, or NUL with `-z`):
//!
//! - GNU: `<hex>  <name>` (text) or `<hex> *<name>` (binary);
//! - BSD (`--tag`): `SHA1 (<name>) = <hex>`;
//! - flagged lines: `<hex> *coll* <name>` as the original C tool prints
//!   them, and in the BSD form `SHA1 (<name>) = <hex> *coll*` (sha1dcsum)
//!   or `SHA1 (<name>) = *coll* <hex>` (Debian's `sha1cdsum`).
//!
//! `<hex> *coll* <name>` is also GNU's binary line for a file named
//! `coll* <name>`: [`resolve`] reads it by which of the two files exists,
//! and sha1dcsum never writes that binary line (it writes such a name in
//! text mode, which reads the same to GNU).
//!
//! A name holding a newline, a carriage return or a backslash is written
//! escaped (`\n`, `\r`, `\\`) and the line starts with a `\`, as GNU
//! coreutils 9 does, so one entry is always one line; `-z` lines are never
//! escaped (NUL cannot occur in a name).
//!
//! As GNU `sha1sum -c` does, a list may hold comments (lines whose first
//! byte is `#`) and empty lines, which are passed over in silence.

use alloc::vec::Vec;

use sha1dc_wasm::Digest;

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
/// What GNU reads as the start of the name in a line with [`COLL`].
const GNU_COLL: &[u8] = b"coll* ";
/// The BSD form's algorithm name, and what sha1dcsum writes between name
/// and digest (GNU reads any blanks around the `=`).
const TAG: &[u8] = b"SHA1";
const TAG_OPEN: &[u8] = b" (";
const TAG_EQUALS: &[u8] = b") = ";
/// The BSD form's flagged checksums: `<hex> *coll*` and `*coll* <hex>`.
const TAG_COLL_AFTER: &[u8] = b" *coll*";
const TAG_COLL_BEFORE: &[u8] = b"*coll* ";

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

/// A name as `--check`'s status lines show it: escaped after a `\\` when it
/// has a newline or carriage return, so one file is one line (as GNU
/// does: a backslash alone stays as it is).
pub fn shown(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 1);
    if name.iter().any(|&b| b == b'\n' || b == b'\r') {
        out.push(b'\\');
        escape(name, &mut out);
    } else {
        out.extend_from_slice(name);
    }
    out
}

/// The 40 lowercase hex digits of `digest`.
pub fn push_hex(out: &mut Vec<u8>, digest: &[u8; 20]) {
    out.extend_from_slice(&Digest::from(*digest).to_hex());
}

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
    match style {
        Style::Tag => {
            out.extend_from_slice(TAG);
            out.extend_from_slice(TAG_OPEN);
            push_name(out);
            out.extend_from_slice(TAG_EQUALS);
            push_hex(out, digest);
            if flagged {
                out.extend_from_slice(TAG_COLL_AFTER);
            }
        }
        Style::Text | Style::Binary => {
            push_hex(out, digest);
            out.extend_from_slice(match (flagged, style) {
                (true, _) => COLL,
                // Its binary line would read as a flagged file: text mode
                // means the same to GNU without the doubt.
                (false, Style::Binary) if !name.starts_with(GNU_COLL) => b" *",
                _ => b"  ",
            });
            push_name(out);
        }
    }
    out.push(if zero { 0 } else { b'\n' });
}

/// 40 hex digits (either case) as the 20 bytes they spell: the library's
/// parser ([`Digest`]'s `FromStr`), for the bytes of a line.
pub fn parse_hex(hex: &[u8]) -> Option<[u8; 20]> {
    let digest: Digest = core::str::from_utf8(hex).ok()?.parse().ok()?;
    Some(digest.to_bytes())
}

/// What one line of a checksum list is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Entry(Entry),
    /// `SHA1 (<name>) = ` and a checksum in no form known here: it names a
    /// file all the same, which `--check` must not pass over in silence.
    Unreadable(Vec<u8>),
    /// Not a checksum line at all ("improperly formatted").
    Improper,
    /// A comment (`#` first) or an empty line: not counted, never reported.
    Ignored,
}

/// A line taken apart, its name still escaped; `sum` is the digest, whether
/// the line is flagged, and its style, or `None` when unreadable.
struct Parts<'a> {
    name: &'a [u8],
    sum: Option<([u8; 20], bool, Style)>,
}

/// GNU's blanks: where a line may have any number of them.
fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn skip_blanks(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| !is_blank(b));
    &bytes[start.unwrap_or(bytes.len())..]
}

/// Parses one line (its terminator removed), by GNU `sha1sum -c`'s rules:
///
/// - a line whose very first byte is `#` is a comment; a final carriage
///   return is dropped, and what is then empty is ignored;
/// - leading blanks (spaces and tabs) are skipped, so blanks before a `#`
///   make an improper line; a `\` next means an escaped name;
/// - `SHA1`, at most one space, `(`, the name up to the last `)`, then `=`
///   with any blanks around it, then the checksum (so OpenSSL's
///   `SHA1(<name>)= <hex>` too);
/// - otherwise 40 hex digits, a blank, then ` <name>` (text), `*<name>`
///   (binary), or the name alone (BSD's `md5 -r` form).
///
/// `<hex> *coll* <name>` comes back flagged: see [`resolve`]. The BSD form
/// takes sha1dcsum's and Debian's flagged checksums too, and a checksum in
/// no form known here still names its file ([`Line::Unreadable`]).
pub fn parse_line(line: &[u8]) -> Line {
    if line.first() == Some(&b'#') {
        return Line::Ignored;
    }
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.is_empty() {
        return Line::Ignored;
    }
    let mut line = skip_blanks(line);
    if line.is_empty() {
        return Line::Improper;
    }
    let escaped = line.first() == Some(&b'\\');
    if escaped {
        line = &line[1..];
    }
    let parts = match line.strip_prefix(TAG) {
        Some(rest) => {
            let rest = rest.strip_prefix(b" ").unwrap_or(rest);
            rest.strip_prefix(b"(").and_then(parse_tag)
        }
        None => parse_gnu(line),
    };
    let parts = match parts.filter(|p| !p.name.is_empty()) {
        Some(parts) => parts,
        None => return Line::Improper,
    };
    let name = if escaped {
        match unescape(parts.name) {
            Some(name) => name,
            None => return Line::Improper,
        }
    } else {
        parts.name.to_vec()
    };
    match parts.sum {
        Some((digest, flagged, style)) => Line::Entry(Entry {
            name,
            digest,
            flagged,
            style,
        }),
        None => Line::Unreadable(name),
    }
}

/// The BSD form after `SHA1 (`: the name up to the last `)`, blanks, `=`,
/// blanks, and one of the checksum forms; any other checksum names the
/// file only.
fn parse_tag(rest: &[u8]) -> Option<Parts<'_>> {
    let end = rest.iter().rposition(|&b| b == b')')?;
    let name = &rest[..end];
    let sum = skip_blanks(skip_blanks(&rest[end + 1..]).strip_prefix(b"=")?);
    let forms: [(&[u8], &[u8], bool); 3] = [
        (b"", b"", false),
        (b"", TAG_COLL_AFTER, true),
        (TAG_COLL_BEFORE, b"", true),
    ];
    let digest = forms.iter().find_map(|&(before, after, flagged)| {
        let hex = sum.strip_prefix(before)?.strip_suffix(after)?;
        parse_hex(hex).map(|digest| (digest, flagged, Style::Tag))
    });
    Some(Parts { name, sum: digest })
}

/// GNU's form: `<hex>`, a blank, then ` <name>`, `*<name>` or the name
/// alone; and the flagged `<hex> *coll* <name>`.
fn parse_gnu(line: &[u8]) -> Option<Parts<'_>> {
    if line.len() < 42 {
        return None;
    }
    let (hex, rest) = line.split_at(40);
    let digest = parse_hex(hex)?;
    if let Some(name) = rest.strip_prefix(COLL) {
        return Some(Parts {
            name,
            sum: Some((digest, true, Style::Binary)),
        });
    }
    if !is_blank(rest[0]) {
        return None;
    }
    let rest = &rest[1..];
    // As GNU: a one-byte name is itself, whatever it is.
    let (style, name) = match rest.first() {
        Some(b'*') if rest.len() > 1 => (Style::Binary, &rest[1..]),
        Some(b' ') if rest.len() > 1 => (Style::Text, &rest[1..]),
        _ => (Style::Text, rest),
    };
    Some(Parts {
        name,
        sum: Some((digest, false, style)),
    })
}

/// Reads `<hex> *coll* <name>` as it was meant: the original tool's and
/// sha1dcsum's line for a flagged `<name>`, unless no file `<name>` exists
/// and one named `coll* <name>` does: then GNU's binary line for that file.
/// (sha1dcsum never writes GNU's line for such a name, see [`write_line`].)
pub fn resolve(entry: Entry, exists: impl Fn(&[u8]) -> bool) -> Entry {
    if !entry.flagged || entry.style == Style::Tag || exists(&entry.name) {
        return entry;
    }
    let gnu_name = [GNU_COLL, &entry.name].concat();
    if !exists(&gnu_name) {
        return entry;
    }
    Entry {
        name: gnu_name,
        flagged: false,
        ..entry
    }
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

    fn entry(line: &[u8]) -> Entry {
        match parse_line(line) {
            Line::Entry(e) => e,
            other => panic!("{line:?}: {other:?}"),
        }
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
            b"coll* x",
            b"\xff\xfe",
        ] {
            for style in [Style::Text, Style::Binary, Style::Tag] {
                for flagged in [false, true] {
                    let l = line(name, flagged, style, false);
                    let e = entry(&l[..l.len() - 1]);
                    assert_eq!(e.name, name, "{l:?}");
                    assert_eq!((e.digest, e.flagged), (D, flagged), "{l:?}");
                    let want = match (flagged, style) {
                        (_, Style::Tag) => Style::Tag,
                        (true, _) => Style::Binary,
                        (false, Style::Binary) if name.starts_with(b"coll* ") => Style::Text,
                        _ => style,
                    };
                    assert_eq!(e.style, want, "{l:?}");
                }
            }
        }
    }

    /// A binary line for a name starting with `coll* ` would read as a
    /// flagged line: it is written in text mode, as GNU reads it.
    #[test]
    fn never_writes_a_binary_line_that_reads_as_flagged() {
        assert_eq!(
            line(b"coll* x", false, Style::Binary, false),
            format!("{H}  coll* x\n").as_bytes()
        );
        assert_eq!(
            line(b"coll*x", false, Style::Binary, false),
            format!("{H} *coll*x\n").as_bytes()
        );
    }

    #[test]
    fn reads_both_flagged_tag_forms() {
        for form in [
            format!("SHA1 (f) = {H} *coll*"),
            format!("SHA1 (f) = *coll* {H}"),
        ] {
            let e = entry(form.as_bytes());
            assert_eq!((e.name.as_slice(), e.digest), (&b"f"[..], D), "{form}");
            assert!(e.flagged, "{form}");
        }
        let e = entry(format!("\\SHA1 (a\\nb) = *coll* {H}").as_bytes());
        assert_eq!((e.name.as_slice(), e.flagged), (&b"a\nb"[..], true));
        // A name that looks like a checksum form is still a name.
        let e = entry(format!("SHA1 (x) = *coll*) = {H}").as_bytes());
        assert_eq!((e.name.as_slice(), e.flagged), (&b"x) = *coll*"[..], false));
    }

    /// A SHA1 tag line whose checksum is in no known form still names its
    /// file.
    #[test]
    fn unreadable_tag_lines_name_their_file() {
        for (text, name) in [
            (format!("SHA1 (f) = *COLL* {H}"), &b"f"[..]),
            (format!("SHA1 (f) = {}", &H[1..]), b"f"),
            ("SHA1 (a) = b) = junk".into(), b"a) = b"),
            ("\\SHA1 (a\\\\b) = ?".into(), b"a\\b"),
            (format!("SHA1 (a) = {H} *col"), b"a"),
            ("SHA1 (a) = short".into(), b"a"),
            // GNU's blanks around the `=`, any or none.
            ("SHA1 (a)= junk".into(), b"a"),
            ("SHA1(a)=".into(), b"a"),
            // The name ends at the last `)`.
            ("SHA1 (a)) = x".into(), b"a)"),
        ] {
            assert_eq!(
                parse_line(text.as_bytes()),
                Line::Unreadable(name.to_vec()),
                "{text}"
            );
        }
        for improper in [
            "SHA1 () = junk",
            "SHA1 (a) junk",
            "SHA1 (a) = (junk)",
            "SHA1  (a) = junk",
            "SHA1 a) = junk",
            "\\SHA1 (a\\b) = ?",
        ] {
            assert_eq!(
                parse_line(improper.as_bytes()),
                Line::Improper,
                "{improper}"
            );
        }
    }

    /// `<hex> *coll* x` is a flagged `x` unless only `coll* x` exists.
    #[test]
    fn resolves_flagged_lines_by_the_file_that_exists() {
        let flagged = entry(format!("{H} *coll* x").as_bytes());
        let gnu = Entry {
            name: b"coll* x".to_vec(),
            digest: D,
            flagged: false,
            style: Style::Binary,
        };
        let files = |present: &'static [&'static [u8]]| move |n: &[u8]| present.contains(&n);
        assert_eq!(resolve(flagged.clone(), files(&[b"x"])), flagged);
        assert_eq!(resolve(flagged.clone(), files(&[])), flagged);
        assert_eq!(
            resolve(flagged.clone(), files(&[b"x", b"coll* x"])),
            flagged
        );
        assert_eq!(resolve(flagged.clone(), files(&[b"coll* x"])), gnu);
        // Tag lines and unflagged lines are what they say.
        let tag = entry(format!("SHA1 (x) = {H} *coll*").as_bytes());
        assert_eq!(resolve(tag.clone(), files(&[b"coll* x"])), tag);
        let plain = entry(format!("{H} *x").as_bytes());
        assert_eq!(resolve(plain.clone(), files(&[b"coll* x"])), plain);
    }

    /// GNU's comments: `#` as the very first byte, whatever follows; and
    /// lines empty once their carriage return is dropped.
    #[test]
    fn ignores_comments_and_empty_lines() {
        for ignored in [
            String::new(),
            "\r".into(),
            "#".into(),
            "#\r".into(),
            "# git blob ids".into(),
            format!("#{H}  name"),
            format!("#SHA1 (name) = {H}"),
        ] {
            assert_eq!(parse_line(ignored.as_bytes()), Line::Ignored, "{ignored:?}");
        }
        // A `#` anywhere else is part of the line.
        let e = entry(format!("{H}  #name # not a comment").as_bytes());
        assert_eq!(e.name, b"#name # not a comment");
    }

    /// What GNU `sha1sum -c` (coreutils 9.1) reads, each line with the name
    /// and style it reads.
    #[test]
    fn reads_gnu_variants_and_rejects_the_rest() {
        let e = entry(format!("  {}  name\r", H.to_uppercase()).as_bytes());
        assert_eq!((e.name.as_slice(), e.digest), (&b"name"[..], D));
        for (text, name, style) in [
            (format!("{H} name"), &b"name"[..], Style::Text),
            (format!("{H}\tname"), b"name", Style::Text),
            (format!("{H}\t*name"), b"name", Style::Binary),
            (format!("{H}\t name"), b"name", Style::Text),
            (format!("{H}  *name"), b"*name", Style::Text),
            (format!("{H}  "), b" ", Style::Text),
            (format!("{H} *"), b"*", Style::Text),
            (format!("SHA1(name)= {H}"), b"name", Style::Tag),
            (format!("SHA1 (name)={H}"), b"name", Style::Tag),
            (format!("SHA1 (name) \t=\t {H}"), b"name", Style::Tag),
            (format!("SHA1 (a (b)) = {H}"), b"a (b)", Style::Tag),
        ] {
            let e = entry(text.as_bytes());
            assert_eq!((e.name.as_slice(), e.style), (name, style), "{text:?}");
        }
        for bad in [
            "   ".into(),
            "\r\r".into(),
            " # blanks before a comment".into(),
            format!("\\#{H}  name"),
            H.to_string(),
            format!("{H} "),
            format!("{H}x name"),
            format!("{}  name", &H[1..]),
            format!("g{}  name", &H[1..]),
            format!("\\{H}  bad\\escape"),
            format!("\\{H}  trailing\\"),
            format!("MD5 (a) = {H}"),
            format!("SHA1 () = {H}"),
            "SHA1 (a) short".into(),
        ] {
            assert_eq!(parse_line(bad.as_bytes()), Line::Improper, "{bad:?}");
        }
    }
}
