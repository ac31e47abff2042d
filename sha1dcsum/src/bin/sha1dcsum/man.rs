//! `--generate man`: the man page, in roff, from the text of `--help` and
//! the table of options (the library's help.rs and options.rs).

use sha1dcsum::help::{Program, SECTIONS};
use sha1dcsum::options::{OPTIONS, Opt};

const PROGRAM: Program = Program::Native;

/// `text` as roff: backslashes and minus signs escaped, `quoted` spans in
/// bold, and a line that would start with a control character guarded.
fn roff(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    if text.starts_with(['.', '\'']) {
        out.push_str("\\&");
    }
    let mut bold = false;
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            '`' => {
                out.push_str(if bold { "\\fR" } else { "\\fB" });
                bold = !bold;
            }
            c => out.push(c),
        }
    }
    out
}

/// `\fB\-b\fR, \fB\-\-binary\fR \fIN\fR`.
fn option_names(opt: &Opt) -> String {
    let mut names = String::new();
    if let Some(letter) = opt.short {
        names.push_str(&format!("\\fB\\-{}\\fR, ", char::from(letter)));
    }
    names.push_str(&format!("\\fB\\-\\-{}\\fR", roff(opt.long)));
    if let Some(value) = opt.value() {
        names.push_str(&format!(" \\fI{}\\fR", value.name));
    }
    names
}

fn push_paragraphs(out: &mut String, paragraphs: &[&str]) {
    for (i, paragraph) in paragraphs.iter().enumerate() {
        if i > 0 {
            out.push_str(".PP\n");
        }
        out.push_str(&roff(paragraph));
        out.push('\n');
    }
}

pub fn man_page() -> String {
    let version = env!("CARGO_PKG_VERSION");
    let mut out = format!(".TH SHA1DCSUM 1 \"\" \"sha1dcsum {version}\" \"User Commands\"\n");
    // No hyphenation: option names and hashes stay whole when copied.
    out.push_str(".nh\n");
    // NAME's line is what apropos and whatis show: "name \- what it does".
    let what = PROGRAM.summary().trim_end_matches('.');
    let what = what[..1].to_lowercase() + &what[1..];
    out.push_str(&format!(".SH NAME\nsha1dcsum \\- {}\n", roff(&what)));
    let usage = PROGRAM.usage();
    let synopsis = usage.trim_start_matches("Usage: sha1dcsum ");
    out.push_str(&format!(".SH SYNOPSIS\n.B sha1dcsum\n{}\n", roff(synopsis)));
    out.push_str(".SH DESCRIPTION\n");
    push_paragraphs(
        &mut out,
        &[&[PROGRAM.summary()], PROGRAM.description()].concat(),
    );
    for (section, title) in SECTIONS {
        out.push_str(&format!(".SH {}\n", title.to_uppercase()));
        for opt in OPTIONS.iter().filter(|opt| opt.section == section) {
            out.push_str(&format!(".TP\n{}\n{}\n", option_names(opt), roff(opt.help)));
        }
    }
    out.push_str(".SH NOTES\n");
    push_paragraphs(&mut out, PROGRAM.notes());
    out.push_str(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in PROGRAM.exit_statuses() {
        out.push_str(&format!(".TP\n.B {code}\n{}\n", roff(meaning)));
    }
    out.push_str(".SH \"SEE ALSO\"\n.BR sha1sum (1),\n.BR git-hash-object (1)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roff_escapes() {
        assert_eq!(roff("a-b \\0 `x y`"), "a\\-b \\e0 \\fBx y\\fR");
        assert_eq!(roff(".dot"), "\\&.dot");
        assert_eq!(roff("'q"), "\\&'q");
    }
}
