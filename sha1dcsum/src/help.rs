//! The text of `--help`: its prose here, the options from the table in
//! options.rs, laid out for an 80-column terminal, for sha1dcsum and for the
//! npm package's command, which says where Node makes it differ. The
//! command's man page (its man.rs) is made from the same text.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::exit;
use crate::options::{OPTIONS, Opt, Section};

/// Which command a text is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Program {
    /// sha1dcsum, this crate's command.
    Native,
    /// `npx sha1dc-wasm`, the npm package's: the same command, on
    /// WebAssembly under Node.
    Node,
    /// `python -m sha1dc`, the Python package's: the same command on the
    /// package's hashers.
    Python,
}

const SUMMARY: &str = "Print or check SHA-1 checksums, with collision detection (Stevens-Shumow).";

const NODE_SUMMARY: &str = "Print or check SHA-1 checksums, with collision detection \
     (Stevens-Shumow): sha1dcsum, the command of the Rust crate, in WebAssembly under Node.";

const PYTHON_SUMMARY: &str = "Print or check SHA-1 checksums, with collision detection \
     (Stevens-Shumow): sha1dcsum, the command of the Rust crate, on the Python package sha1dc.";

/// Paragraphs after the summary.
const DESCRIPTION: &str = "With no FILE, or when FILE is -, read standard input (printed as -). \
     Each line is `<hex>  <name>`, or `<hex> *coll* <name>` when a collision \
     attack was detected in that input; then <hex> is the \"safe hash\", which \
     differs for the two files of a collision, unless --no-safe-hash is given. \
     A name with a newline, carriage return or backslash is escaped (\\n, \\r, \\\\) \
     and its line starts with a backslash, as GNU sha1sum does.";

/// What the npm package's command says of Node, after [`DESCRIPTION`].
const NODE_DESCRIPTION: &str = "The options, output bytes, messages and exit statuses are those \
     of sha1dcsum, but for --generate (sha1dcsum's alone), the backends (WebAssembly has one), \
     and what Node cannot do: it hashes one input at a time (a large file on two threads, as \
     sha1dcsum does: -j 1 keeps it on one), and Node hands a program its arguments decoded as \
     UTF-8: a file name given as an argument that is not UTF-8 is read from /proc/self/cmdline \
     where there is one (Linux), but not through npx (npm's own Node decodes it first: run \
     node_modules/.bin/sha1dc-wasm) nor on macOS or Windows (names read from a list with \
     --check always work).";

/// What `python -m sha1dc` says of itself, after [`DESCRIPTION`].
const PYTHON_DESCRIPTION: &str = "The options, output bytes, messages and exit statuses are those \
     of sha1dcsum, but for --recursive and --generate (sha1dcsum's alone) and the backend, which \
     $SHA1DC_BACKEND does not choose; it hashes one input at a time (a large one on two threads, \
     as sha1dcsum does: -j 1 keeps it on one).";

/// Paragraphs after the options.
const NOTES: &[&str] = &[
    "A line `<hex> *coll* <name>` is read as the line of a flagged <name>, \
     unless no file <name> exists and one named `coll* <name>` does: then it \
     is GNU sha1sum's binary-mode line for that file. This command never \
     writes a line that could be either: --binary writes a name starting \
     with `coll* ` in text mode (`<hex>  coll* <name>`), which GNU reads the \
     same.",
    "A line `SHA1 (<name>) = ...` whose checksum cannot be read still has its \
     file checked for a collision, and is reported as improperly formatted.",
    "Short options bundle (-cz, -j4); a long option may be shortened to any \
     prefix no other option starts with (--sta for --status). To hash a file \
     named -, write ./-.",
];

/// Each exit status and what it means; the second text of bad usage is the
/// npm package's command's.
const EXIT_STATUS: &[(u8, &str)] = &[
    (
        exit::OK,
        "every input was read (and, checking, every listed file matched) and no \
         collision was detected",
    ),
    (
        exit::IO_ERROR,
        "some input could not be read, or standard output could not be written \
         (the other inputs are still hashed); checking: a file did not match, \
         could not be read, or a list had no valid line (with --strict, any \
         invalid line); takes precedence over 3",
    ),
    (
        exit::USAGE,
        "bad usage (unknown option; missing, unknown or unsupported backend)",
    ),
    (
        exit::COLLISION,
        "a collision was detected in some input (and every input was read)",
    ),
    (
        exit::BROKEN_PIPE,
        "standard output was closed by its reader (as if killed by SIGPIPE)",
    ),
];

/// Bad usage for the npm package's command and Python's, which refuse
/// options of sha1dcsum's alone.
const NODE_USAGE_STATUS: &str =
    "bad usage (unknown option; missing or unknown backend; --generate)";
const PYTHON_USAGE_STATUS: &str =
    "bad usage (unknown option; missing or unknown backend; -r, --generate)";

impl Program {
    /// Its name, which its messages start with.
    pub fn name(self) -> &'static str {
        match self {
            Program::Native => "sha1dcsum",
            Program::Node => "sha1dc-wasm",
            Program::Python => "sha1dc",
        }
    }

    /// The first line of `--help` and of a usage error.
    pub fn usage(self) -> String {
        format!("Usage: {} [OPTIONS] [FILE|-]...", self.name())
    }

    /// The line after it: what the command does.
    pub fn summary(self) -> &'static str {
        match self {
            Program::Native => SUMMARY,
            Program::Node => NODE_SUMMARY,
            Program::Python => PYTHON_SUMMARY,
        }
    }

    /// The paragraphs after the summary.
    pub fn description(self) -> &'static [&'static str] {
        match self {
            Program::Native => &[DESCRIPTION],
            Program::Node => &[DESCRIPTION, NODE_DESCRIPTION],
            Program::Python => &[DESCRIPTION, PYTHON_DESCRIPTION],
        }
    }

    /// The paragraphs after the options.
    pub fn notes(self) -> &'static [&'static str] {
        NOTES
    }

    /// Each exit status and what it means.
    pub fn exit_statuses(self) -> Vec<(u8, &'static str)> {
        let usage = match self {
            Program::Native => return EXIT_STATUS.to_vec(),
            Program::Node => NODE_USAGE_STATUS,
            Program::Python => PYTHON_USAGE_STATUS,
        };
        let own = |(code, text): (u8, &'static str)| match code {
            exit::USAGE => (code, usage),
            _ => (code, text),
        };
        EXIT_STATUS.iter().copied().map(own).collect()
    }

    /// What `opt` does in this command.
    pub fn option_help(self, opt: &Opt) -> &'static str {
        let own = match self {
            Program::Native => None,
            Program::Node => opt.node_help,
            Program::Python => opt.python_help,
        };
        own.unwrap_or(opt.help)
    }
}

/// What a command line the command cannot run gets, on standard error:
/// the reason, as GNU getopt and sha1sum word it, then how to get help.
pub fn usage_error(program: Program, reason: &str) -> String {
    let name = program.name();
    format!(
        "{name}: {reason}\n{}\nTry '{name} --help' for more information.\n",
        program.usage()
    )
}

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
        None => "    ".to_owned(),
    };
    let value = opt
        .value()
        .map(|v| format!(" {}", v.name))
        .unwrap_or_default();
    format!("{short}--{}{value}", opt.long)
}

fn push_options(out: &mut String, program: Program, section: Section) {
    for opt in OPTIONS.iter().filter(|o| o.section == section) {
        let names = format!("  {}", option_names(opt));
        out.push_str(&names);
        if names.len() < HELP_COLUMN {
            out.push_str(&" ".repeat(HELP_COLUMN - names.len()));
        } else {
            out.push('\n');
            out.push_str(&" ".repeat(HELP_COLUMN));
        }
        wrap(out, program.option_help(opt), HELP_COLUMN, HELP_COLUMN);
    }
}

/// What `--help` prints.
pub fn help_text(program: Program) -> String {
    let mut out = program.usage();
    out.push('\n');
    wrap(&mut out, program.summary(), 0, 0);
    for paragraph in program.description() {
        out.push('\n');
        wrap(&mut out, paragraph, 0, 0);
    }
    for (section, title) in SECTIONS {
        out.push_str(&format!("\n{title}:\n"));
        push_options(&mut out, program, section);
    }
    for paragraph in program.notes() {
        out.push('\n');
        wrap(&mut out, paragraph, 0, 0);
    }
    out.push_str("\nExit status:\n");
    for (code, meaning) in program.exit_statuses() {
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
        for program in [Program::Native, Program::Node, Program::Python] {
            for line in help_text(program).lines() {
                assert!(line.chars().count() <= WIDTH, "{line:?}");
                assert_eq!(line.trim_end(), line, "trailing blank: {line:?}");
            }
        }
    }

    /// Node's and Python's commands say where they differ, and list the
    /// same options.
    #[test]
    fn node_and_python_help_say_where_they_differ() {
        let native = help_text(Program::Native);
        assert!(!native.contains("Node") && !native.contains("Python"));
        let names = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| l.starts_with("  -") || l.starts_with("      --"))
                .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(names(&native).len(), OPTIONS.len());
        let says: [(Program, &[&str]); 2] = [
            (
                Program::Node,
                &[
                    "one input at a time",
                    "not UTF-8",
                    "--generate WHAT",
                    "simd128",
                ],
            ),
            (
                Program::Python,
                &[
                    "one input at a time",
                    "sha1dcsum -r",
                    "--generate WHAT",
                    "Python",
                ],
            ),
        ];
        for (program, says) in says {
            let text = help_text(program);
            let usage = format!("Usage: {} [OPTIONS] [FILE|-]...\n", program.name());
            assert!(text.starts_with(&usage), "{program:?}");
            for said in says {
                assert!(text.contains(said), "{program:?}: {said}");
            }
            assert_eq!(names(&text), names(&native), "{program:?}");
        }
    }
}
