//! sha1dcsum's checksum lines, for the wrapper's `parseChecksumLine` and
//! `formatChecksumLine` (pkg's lines.mjs), which the checker page uses too.

use alloc::vec::Vec;
use wasm_bindgen::prelude::*;

use sha1dcsum::lines::{self, Line, Style};

/// What [`parse_checksum_line`] found: byte 0.
const IGNORED: u8 = 0;
const IMPROPER: u8 = 1;
const CHECKSUM: u8 = 2;
const UNREADABLE: u8 = 3;

fn style_code(style: Style) -> u8 {
    match style {
        Style::Text => 0,
        Style::Binary => 1,
        Style::Tag => 2,
    }
}

/// One line of a checksum list (its terminator removed), as `sha1dcsum -c`
/// reads it, encoded: the kind (0 ignored, 1 improper, 2 a checksum, 3 a
/// `SHA1 (<name>) = ` line whose checksum is in no known form), whether it
/// is flagged, its style (0 text, 1 binary, 2 tag), a zero byte, then for a
/// checksum its 20 bytes, then the name (unescaped).
#[wasm_bindgen(js_name = parseChecksumLine)]
pub fn parse_checksum_line(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(24 + line.len());
    match lines::parse_line(line) {
        Line::Ignored => out.push(IGNORED),
        Line::Improper => out.push(IMPROPER),
        Line::Entry(entry) => {
            out.extend_from_slice(&[
                CHECKSUM,
                u8::from(entry.flagged),
                style_code(entry.style),
                0,
            ]);
            out.extend_from_slice(&entry.digest);
            out.extend_from_slice(&entry.name);
        }
        Line::Unreadable(name) => {
            out.extend_from_slice(&[UNREADABLE, 0, 0, 0]);
            out.extend_from_slice(&name);
        }
    }
    out
}

/// The line sha1dcsum writes for `name` (terminator included): `digest` is
/// 40 hex digits, `style` as above, `zero` ends it with NUL and leaves the
/// name unescaped.
#[wasm_bindgen(js_name = formatChecksumLine)]
pub fn format_checksum_line(
    digest: &str,
    name: &[u8],
    flagged: bool,
    style: u8,
    zero: bool,
) -> Result<Vec<u8>, JsError> {
    let digest = lines::parse_hex(digest.as_bytes())
        .ok_or_else(|| JsError::new("sha1dc: the digest must be 40 hex digits"))?;
    let style = match style {
        0 => Style::Text,
        1 => Style::Binary,
        2 => Style::Tag,
        _ => return Err(JsError::new("sha1dc: unknown checksum line style")),
    };
    let mut out = Vec::with_capacity(48 + name.len());
    lines::write_line(&mut out, &digest, name, flagged, style, zero);
    Ok(out)
}
