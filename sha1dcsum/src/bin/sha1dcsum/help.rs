//! The text of `--help`: its prose here, the options from the table in
//! args.rs, laid out for an 80-column terminal. The man page (man.rs) is
//! made from the same text.

use crate::args::{OPTIONS, Opt, Section};

pub const USAGE: &str = "Usage: sha1dcsum [OPTIONS] [FILE|-]...";

pub const SUMMARY: &str =
    "Print or check SHA-1 checksums, with collision detection (Stevens-Shumow).";

/// Paragraphs after the summary.
pub const DESCRIPTION: &[&str] = &[
    "With no FILE, or when FILE is -, read standard input (printed as -). \
     Each line is `<hex>  <name>`, or `<hex> *coll* <name>` when a collision \
     attack was detected in that input; then <hex> is the \"safe hash\", which \
     differs for the two files of a collision, unless --no-safe-hash is given. \
     A name with a newline, carriage return or backslash is escaped (\\n, \\r, \\\\) \
     and its line starts with a backslash, as GNU sha1sum does.",
];

/// Paragraphs after the options.
pub const NOTES: &[&str] = &[
    "A line `<hex> *coll* <name>` is read as the line of a flagged <name>, \
     unless no file <name> exists and one named `coll* <name>` does: then it \
     is GNU sha1sum's binary-mode line for that file. sha1dcsum never writes \
     a line that could be either: --binary writes a name starting with \
     `coll* ` in text mode (`<hex>  coll* <name>`), which GNU reads the same.",
    "A line `SHA1 (<name>) = ...` whose checksum cannot be read still has its \
     file checked for a collision, and is reported as improperly formatted.",
    "Short options bundle (-cz, -j4); a long option may be shortened to any \
     prefix no other option starts with (--sta for --status). To hash a file \
     named -, write ./-.",
];

/// Each exit status and what it means.
pub const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "every input was read (and, checking, every listed file matched) and no \
         collision was detected",
    ),
    (
        "1",
        "some input could not be read, or standard output could not be written \
         (the other inputs are still hashed); checking: a file did not match, \
         could not be read, or a list had no valid line (with --strict, any \
         invalid line); takes precedence over 3",
    ),
    (
        "2",
        "bad usage (unknown option; missing, unknown or unsupported backend)",
    ),
    (
        "3",
        "a collision was detected in some input (and every input was read)",
    ),
    (
        "141",
        "standard output was closed by its reader (as if killed by SIGPIPE)",
    ),
];

/// The sections options are listed in, and their titles.
pub const SECTIONS: [(Section, &str); 2] = [
    (Section::Hashing, "Options"),
    (Section::Checking, "Checking"),
];

/// The width `--help` fills.
const WIDTH: usize = 79;
/// Where an option's description starts.
const HELP_COLUMN: usize = 23;

/// `text` split at its spaces, except those between backquotes: a quoted
/// line such as `<hex>  <name>` stays whole.
fn words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '`' => quoted = !quoted,
            ' ' if !quoted => {
                words.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    words.push(&text[start..]);
    words
}

/// Appends `text` word by word, starting on a line that already holds
/// `column` characters, breaking before `WIDTH` and indenting each new
/// line by `indent`; ends with a newline.
fn wrap(out: &mut String, text: &str, mut column: usize, indent: usize) {
    let mut first = true;
    for word in words(text) {
        if !first && column + 1 + word.len() > WIDTH {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
        } else if !first {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += word.len();
        first = false;
    }
    out.push('\n');
}

/// `-b, --binary` or `    --tag`, with the value's name.
fn option_names(opt: &Opt) -> String {
    let short = match opt.short {
        Some(letter) => format!("-{}, ", char::from(letter)),
        None => "    ".into(),
    };
    let value = opt
        .value()
        .map(|v| format!(" {}", v.name))
        .unwrap_or_default();
    format!("{short}--{}{value}", opt.long)
}

fn push_options(out: &mut String, section: Section) {
    for opt in OPTIONS.iter().filter(|o| o.section == section) {
        let names = format!("  {}", option_names(opt));
        out.push_str(&names);
        if names.len() < HELP_COLUMN {
            out.push_str(&" ".repeat(HELP_COLUMN - names.len()));
        } else {
            out.push('\n');
            out.push_str(&" ".repeat(HELP_COLUMN));
        }
        wrap(out, opt.help, HELP_COLUMN, HELP_COLUMN);
    }
}

pub fn help_text() -> String {
    let mut out = format!("{USAGE}\n{SUMMARY}\n");
    for paragraph in DESCRIPTION {
        out.push('\n');
        wrap(&mut out, paragraph, 0, 0);
    }
    for (section, title) in SECTIONS {
        out.push_str(&format!("\n{title}:\n"));
        push_options(&mut out, section);
    }
    for paragraph in NOTES {
        out.push('\n');
        wrap(&mut out, paragraph, 0, 0);
    }
    out.push_str("\nExit status:\n");
    for (code, meaning) in EXIT_STATUS {
        let head = format!("  {code:<3} ");
        out.push_str(&head);
        wrap(&mut out, meaning, head.len(), head.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_fits_80_columns() {
        for line in help_text().lines() {
            assert!(line.len() <= WIDTH, "{line:?}");
            assert_eq!(line.trim_end(), line, "trailing blank: {line:?}");
        }
    }
}
