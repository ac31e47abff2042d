//! `--json` lines.

use std::ffi::OsStr;

use crate::input::Hashed;

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
pub fn json_line(name: &OsStr, hashed: &Hashed) -> String {
    let outcome = &hashed.outcome;
    let mut line = String::with_capacity(160);
    line.push_str("{\"file\":");
    push_json_string(&mut line, &name.to_string_lossy());
    if name.to_str().is_none() {
        line.push_str(",\"file_bytes\":\"");
        for b in crate::os::os_bytes(name) {
            line.push_str(&format!("{b:02x}"));
        }
        line.push('"');
    }
    line.push_str(&format!(
        ",\"sha1\":\"{}\",\"output\":\"{}\",\"collision\":",
        outcome.sha1(),
        outcome.digest()
    ));
    match (outcome.collision(), hashed.offset) {
        (Some(c), Some(offset)) => line.push_str(&format!(
            "{{\"offset\":{offset},\"block\":{},\"dv\":\"{}\",\"count\":{}}}",
            c.block(),
            c.dv(),
            c.count()
        )),
        _ => line.push_str("null"),
    }
    line.push_str("}\n");
    line
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
}
