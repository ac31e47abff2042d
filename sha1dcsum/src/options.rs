//! The command line: one table of options ([`OPTIONS`]) that the parser,
//! `--help` (help.rs), the command's man page and shell completions, and
//! the npm package's command all read, so none of them can forget an
//! option.
//!
//! Parsing follows GNU getopt, messages included: short options bundle
//! (`-cz`, `-j4`), a long option may be shortened to any prefix no other
//! option starts with (`--sta` for `--status`), its value follows `=` or
//! comes as the next argument, `--` ends the options, and options may come
//! after file names. Arguments are bytes: a file name that is not UTF-8 is
//! passed through as it is (as the index of its argument).
//!
//! Written here rather than taken from a crate: GNU's abbreviations and
//! exact messages (which the tests compare with sha1sum's), arguments as
//! bytes, and Rust 1.63 and wasm32 (the npm package's command parses with
//! this code) are more than the argument parsers of crates.io give together.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::lines::Style;

/// What the command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub reduced_round: bool,
    pub no_safe_hash: bool,
    pub git_blob: bool,
    pub json: bool,
    /// `--backend`'s value, as given.
    pub backend: Option<Vec<u8>>,
    pub list_backends: bool,
    /// `-b` (true) or `-t` (false), the last one given.
    pub binary: Option<bool>,
    pub tag: bool,
    pub zero: bool,
    pub jobs: Option<usize>,
    pub check: bool,
    pub ignore_missing: bool,
    pub quiet: bool,
    pub status: bool,
    pub strict: bool,
    pub warn: bool,
    pub recursive: bool,
    /// `--generate`: print this instead of running.
    pub generate: Option<Generated>,
    /// The FILE arguments, as indices into the arguments parsed.
    pub files: Vec<usize>,
}

impl Options {
    /// How the checksum lines are written: `--tag`, `-b` or `-t`.
    pub fn style(&self) -> Style {
        if self.tag {
            Style::Tag
        } else if self.binary == Some(true) {
            Style::Binary
        } else {
            Style::Text
        }
    }
}

/// What `--generate` prints: the man page or a shell's completions, all
/// made from [`OPTIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generated {
    Man,
    Bash,
    Zsh,
    Fish,
}

impl Generated {
    pub const ALL: [Generated; 4] = [
        Generated::Man,
        Generated::Bash,
        Generated::Zsh,
        Generated::Fish,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Generated::Man => "man",
            Generated::Bash => "complete-bash",
            Generated::Zsh => "complete-zsh",
            Generated::Fish => "complete-fish",
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Run(Options),
    Help,
    Version,
    /// Bad usage, with the reason.
    Usage(String),
}

/// Where an option is listed in `--help` and the man page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Hashing,
    Checking,
}

/// The values an option takes, as completions offer them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choices {
    /// Nothing to offer (a number).
    Any,
    /// The names `--backends` prints.
    Backends,
    /// The names of [`Generated`].
    Generated,
}

/// An option's value: its name in `--help`, what completions offer, and
/// what it does.
#[derive(Clone, Copy)]
pub struct Value {
    pub name: &'static str,
    pub choices: Choices,
    set: fn(&mut Options, &[u8]) -> Result<(), String>,
}

/// What an option does when it is given.
#[derive(Clone, Copy)]
pub enum Action {
    Set(fn(&mut Options)),
    Take(Value),
    /// Ends parsing: print the help, or the version.
    Help,
    Version,
}

/// One option: its names, its help text and what it does.
pub struct Opt {
    /// The long name, without `--`.
    pub long: &'static str,
    pub short: Option<u8>,
    /// One paragraph; help.rs wraps it. Up to the first ` (`, `: ` or `; `,
    /// it is also the summary the completions show.
    pub help: &'static str,
    /// The npm package's command's own text, where it differs
    /// ([`crate::help::Program::Node`]).
    pub node_help: Option<&'static str>,
    /// And `python -m sha1dc`'s ([`crate::help::Program::Python`]).
    pub python_help: Option<&'static str>,
    pub section: Section,
    pub action: Action,
}

impl Opt {
    /// The value it takes, if any.
    pub fn value(&self) -> Option<Value> {
        match self.action {
            Action::Take(value) => Some(value),
            _ => None,
        }
    }
}

/// What `--generate` is in the commands other than sha1dcsum.
const GENERATE_ELSEWHERE: &str = "sha1dcsum's man page and shell completions (WHAT: man, \
     complete-bash, complete-zsh or complete-fish) are not in this command: `sha1dcsum \
     --generate WHAT` from the Rust crate prints them";

/// Every option, in the order `--help` lists them.
pub const OPTIONS: &[Opt] = &[
    Opt {
        long: "binary",
        short: Some(b'b'),
        help: "print ` *` before the name (the input is read the same), \
               except before a name starting with `coll* ` (see below)",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.binary = Some(true)),
    },
    Opt {
        long: "text",
        short: Some(b't'),
        help: "print two spaces before the name (the default)",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.binary = Some(false)),
    },
    Opt {
        long: "tag",
        short: None,
        help: "print BSD-style lines: SHA1 (<name>) = <hex> \
               (flagged: SHA1 (<name>) = <hex> *coll*)",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        // As GNU: --tag implies -b, so `-t --tag` is tag lines, `--tag -t` an error.
        action: Action::Set(|o| (o.tag, o.binary) = (true, Some(true))),
    },
    Opt {
        long: "zero",
        short: Some(b'z'),
        help: "end each line with NUL, not newline, and do not escape names; \
               with --check, read NUL-terminated lines",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.zero = true),
    },
    Opt {
        long: "jobs",
        short: Some(b'j'),
        help: "hash N inputs at a time (default: the number of CPUs); \
               the output stays in argument order; a large input takes a \
               second thread once a thread of the N is free (-j 1: never)",
        node_help: Some(
            "accepted as sha1dcsum takes it (a whole number, 1 or more); this command hashes one input at a time, a file of 16 MiB or more with the filter half of collision detection on a second thread, unless N is 1",
        ),
        python_help: Some(
            "accepted as sha1dcsum takes it (a whole number, 1 or more); this command hashes one input at a time, a large one with the filter half of collision detection on a second thread, unless N is 1",
        ),
        section: Section::Hashing,
        action: Action::Take(Value {
            name: "N",
            choices: Choices::Any,
            set: |o, v| {
                o.jobs = Some(parse_jobs(v)?);
                Ok(())
            },
        }),
    },
    Opt {
        long: "recursive",
        short: Some(b'r'),
        help: "hash the regular files below each directory FILE names, \
               each directory's entries in the byte order of their names, \
               printed as paths joined to the FILE; symbolic links found \
               inside are skipped, not followed (a FILE that is one is \
               followed), and so are FIFOs, sockets and devices; a \
               directory that cannot be listed is an input that cannot \
               be read",
        node_help: None,
        python_help: Some(
            "sha1dcsum's alone: this command hashes the files it is given (`sha1dcsum -r` from the Rust crate walks directories)",
        ),
        section: Section::Hashing,
        action: Action::Set(|o| o.recursive = true),
    },
    Opt {
        long: "reduced-round",
        short: None,
        help: "also detect reduced-round collisions",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.reduced_round = true),
    },
    Opt {
        long: "no-safe-hash",
        short: None,
        help: "print the plain SHA-1 even when a collision is detected",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.no_safe_hash = true),
    },
    Opt {
        long: "git-blob",
        short: None,
        help: "hash each input as a git blob object (`blob <len>\\0` then \
               the content), as `git hash-object` does; standard input \
               (and any input that is not a regular file) is read whole \
               into memory first, since its length must come first",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.git_blob = true),
    },
    Opt {
        long: "json",
        short: None,
        help: "print one JSON object per line instead: \
               {\"file\":..,\"sha1\":..,\"output\":..,\"collision\":..}, \
               where sha1 is the plain SHA-1, output the printed hash, \
               and collision null or {\"offset\",\"block\",\"dv\",\"count\"}; \
               offset is in the input's bytes (for --git-blob, in the \
               file, after the header), block counts what was hashed; \
               a name that is not UTF-8 is in file with U+FFFD \
               replacements and, exactly, in file_bytes (hex)",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.json = true),
    },
    Opt {
        long: "backend",
        short: None,
        help: "use the named backend (see --backends) \
               (default: $SHA1DC_BACKEND if set, else the fastest)",
        node_help: Some(
            "use the named backend (see --backends) (default: $SHA1DC_BACKEND if set, else simd128)",
        ),
        python_help: Some("use the named backend (see --backends) (default: the fastest)"),
        section: Section::Hashing,
        action: Action::Take(Value {
            name: "NAME",
            choices: Choices::Backends,
            set: |o, v| {
                o.backend = Some(v.to_vec());
                Ok(())
            },
        }),
    },
    Opt {
        long: "backends",
        short: None,
        help: "list the backends this CPU can run, fastest first",
        node_help: Some("list the backends: simd128, the only one in WebAssembly"),
        python_help: None,
        section: Section::Hashing,
        action: Action::Set(|o| o.list_backends = true),
    },
    Opt {
        long: "help",
        short: Some(b'h'),
        help: "print this help and exit",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Help,
    },
    Opt {
        long: "version",
        short: Some(b'V'),
        help: "print the version and exit",
        node_help: None,
        python_help: None,
        section: Section::Hashing,
        action: Action::Version,
    },
    Opt {
        long: "generate",
        short: None,
        help: "print the man page or a shell's completions (WHAT: man, \
               complete-bash, complete-zsh or complete-fish) and exit; \
               both are made from the same text as this help",
        node_help: Some(GENERATE_ELSEWHERE),
        python_help: Some(GENERATE_ELSEWHERE),
        section: Section::Hashing,
        action: Action::Take(Value {
            name: "WHAT",
            choices: Choices::Generated,
            set: |o, v| {
                let what = Generated::ALL
                    .into_iter()
                    .find(|g| v == g.name().as_bytes());
                o.generate = Some(what.ok_or_else(|| {
                    let names: Vec<&str> = Generated::ALL.iter().map(|g| g.name()).collect();
                    format!(
                        "invalid argument '{}' for '--generate' (one of: {})",
                        String::from_utf8_lossy(v),
                        names.join(", ")
                    )
                })?);
                Ok(())
            },
        }),
    },
    Opt {
        long: "check",
        short: Some(b'c'),
        help: "read checksum lines from the FILEs and check them: lines \
               of sha1sum (text or binary), of --tag, and the *coll* lines \
               of sha1dcsum, of the original C tool and of Debian's \
               sha1cdsum (`SHA1 (<name>) = *coll* <hex>`); prints \
               `<name>: OK`, `<name>: FAILED`, `<name>: FAILED open or read`, \
               or `<name>: COLLISION` for a file in which a collision is \
               detected (never OK, whatever its line says)",
        node_help: None,
        python_help: None,
        section: Section::Checking,
        action: Action::Set(|o| o.check = true),
    },
    Opt {
        long: "ignore-missing",
        short: None,
        help: "don't fail or report status for missing files",
        node_help: None,
        python_help: None,
        section: Section::Checking,
        action: Action::Set(|o| o.ignore_missing = true),
    },
    Opt {
        long: "quiet",
        short: None,
        help: "don't print OK for each successfully verified file",
        node_help: None,
        python_help: None,
        section: Section::Checking,
        // The last of --status, --warn and --quiet wins, as with GNU.
        action: Action::Set(|o| (o.status, o.warn, o.quiet) = (false, false, true)),
    },
    Opt {
        long: "status",
        short: None,
        help: "don't output anything, status code shows success",
        node_help: None,
        python_help: None,
        section: Section::Checking,
        action: Action::Set(|o| (o.status, o.warn, o.quiet) = (true, false, false)),
    },
    Opt {
        long: "strict",
        short: None,
        help: "exit non-zero for improperly formatted checksum lines",
        node_help: None,
        python_help: None,
        section: Section::Checking,
        action: Action::Set(|o| o.strict = true),
    },
    Opt {
        long: "warn",
        short: Some(b'w'),
        help: "warn about improperly formatted checksum lines",
        node_help: None,
        python_help: None,
        section: Section::Checking,
        action: Action::Set(|o| (o.status, o.warn, o.quiet) = (false, true, false)),
    },
];

fn parse_jobs(value: &[u8]) -> Result<usize, String> {
    let number = core::str::from_utf8(value).ok();
    match number.and_then(|v| v.parse::<usize>().ok()) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "invalid number of jobs: '{}' (a whole number, 1 or more)",
            String::from_utf8_lossy(value)
        )),
    }
}

/// Parses the arguments (without the program name). `--help` and `--version`
/// win as soon as they are seen; the first bad option is reported.
pub fn parse_args<A: AsRef<[u8]>>(args: &[A]) -> Command {
    let mut o = Options::default();
    let mut args = args.iter().map(|a| a.as_ref()).enumerate();
    while let Some((i, bytes)) = args.next() {
        let parsed = if bytes == b"--" {
            o.files.extend(args.by_ref().map(|(i, _)| i));
            Ok(())
        } else if bytes.len() < 2 || bytes[0] != b'-' {
            // A file name, or `-` for standard input.
            o.files.push(i);
            Ok(())
        } else if let Some(long) = bytes.strip_prefix(b"--") {
            long_option(&mut o, long, &mut args.by_ref().map(|(_, a)| a))
        } else {
            short_options(&mut o, &bytes[1..], &mut args.by_ref().map(|(_, a)| a))
        };
        if let Err(stop) = parsed {
            return stop;
        }
    }
    match conflicts(&o) {
        Some(reason) => Command::Usage(reason),
        None => Command::Run(o),
    }
}

/// A value given inside an argument (`--jobs=4`, `-j4`), read as UTF-8,
/// lossily, as getopt's caller would. Backend names and numbers are ASCII:
/// a value that is not UTF-8 is rejected by its parser all the same.
fn inline_value(bytes: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(bytes).as_bytes().to_vec()
}

/// The option a long name means: its own, or the only one it is a prefix
/// of. Else the reason, as GNU getopt gives it, for the argument as typed
/// (`typed`, without its dashes).
fn find_long(name: &[u8], typed: &[u8]) -> Result<&'static Opt, String> {
    if let Some(opt) = OPTIONS.iter().find(|opt| opt.long.as_bytes() == name) {
        return Ok(opt);
    }
    let candidates: Vec<&'static Opt> = OPTIONS
        .iter()
        .filter(|opt| !name.is_empty() && opt.long.as_bytes().starts_with(name))
        .collect();
    let typed = String::from_utf8_lossy(typed);
    match candidates[..] {
        [opt] => Ok(opt),
        [] => Err(format!("unrecognized option '--{typed}'")),
        _ => {
            let possible: String = candidates
                .iter()
                .map(|opt| format!(" '--{}'", opt.long))
                .collect();
            Err(format!(
                "option '--{typed}' is ambiguous; possibilities:{possible}"
            ))
        }
    }
}

/// One `--name` or `--name=value` argument (`long` without the dashes).
fn long_option<'a>(
    o: &mut Options,
    long: &[u8],
    rest: &mut impl Iterator<Item = &'a [u8]>,
) -> Result<(), Command> {
    let (name, inline) = match long.iter().position(|&b| b == b'=') {
        Some(eq) => (&long[..eq], Some(&long[eq + 1..])),
        None => (long, None),
    };
    let opt = find_long(name, long).map_err(usage)?;
    let value = match (opt.value(), inline) {
        (None, Some(_)) => {
            return Err(usage(format!(
                "option '--{}' doesn't allow an argument",
                opt.long
            )));
        }
        (None, None) => None,
        (Some(_), Some(v)) => Some(inline_value(v)),
        (Some(_), None) => Some(
            rest.next()
                .ok_or_else(|| usage(format!("option '--{}' requires an argument", opt.long)))?
                .to_vec(),
        ),
    };
    apply(o, opt, value)
}

/// A bundle of short options, the `-` removed: each is a flag, except one
/// that takes a value, which takes the rest of the bundle or the next
/// argument.
fn short_options<'a>(
    o: &mut Options,
    bundle: &[u8],
    rest: &mut impl Iterator<Item = &'a [u8]>,
) -> Result<(), Command> {
    for (i, &letter) in bundle.iter().enumerate() {
        let opt = match OPTIONS.iter().find(|opt| opt.short == Some(letter)) {
            Some(opt) => opt,
            None => {
                let shown = if letter.is_ascii_graphic() {
                    String::from(char::from(letter))
                } else {
                    format!("\\x{letter:02x}")
                };
                return Err(usage(format!("invalid option -- '{shown}'")));
            }
        };
        if opt.value().is_none() {
            apply(o, opt, None)?;
            continue;
        }
        let value = match &bundle[i + 1..] {
            [] => rest
                .next()
                .ok_or_else(|| {
                    usage(format!(
                        "option requires an argument -- '{}'",
                        char::from(letter)
                    ))
                })?
                .to_vec(),
            inline => inline_value(inline),
        };
        return apply(o, opt, Some(value));
    }
    Ok(())
}

fn usage(reason: String) -> Command {
    Command::Usage(reason)
}

/// Does what `opt` does; `value` is given exactly when it takes one.
fn apply(o: &mut Options, opt: &Opt, value: Option<Vec<u8>>) -> Result<(), Command> {
    match opt.action {
        Action::Set(set) => set(o),
        Action::Take(take) => (take.set)(o, value.as_deref().unwrap_or_default()).map_err(usage)?,
        Action::Help => return Err(Command::Help),
        Action::Version => return Err(Command::Version),
    }
    Ok(())
}

/// Options that make no sense together, as GNU sha1sum reports them.
fn conflicts(o: &Options) -> Option<String> {
    if o.check {
        let hashing_only = [
            (o.tag, "the --tag option is"),
            (o.binary.is_some(), "the --binary and --text options are"),
            (o.json, "the --json option is"),
            (o.recursive, "the --recursive option is"),
        ];
        if let Some((_, what)) = hashing_only.iter().find(|(on, _)| *on) {
            return Some(format!("{what} meaningless when verifying checksums"));
        }
    } else {
        let checking_only = [
            (o.ignore_missing, "--ignore-missing"),
            (o.status, "--status"),
            (o.warn, "--warn"),
            (o.quiet, "--quiet"),
            (o.strict, "--strict"),
        ];
        if let Some((_, name)) = checking_only.iter().find(|(on, _)| *on) {
            return Some(format!(
                "the {name} option is meaningful only when verifying checksums"
            ));
        }
    }
    if o.tag && o.binary == Some(false) {
        return Some("--tag does not support --text mode".into());
    }
    if o.json && (o.tag || o.zero) {
        return Some("the --json option prints its own lines: not with --tag or --zero".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Command {
        parse_args(args)
    }

    /// The FILE arguments of `args`.
    fn files<'a>(args: &[&'a str]) -> Vec<&'a str> {
        options(args).files.iter().map(|&i| args[i]).collect()
    }

    fn options(args: &[&str]) -> Options {
        match parse(args) {
            Command::Run(o) => o,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn parses_options_anywhere_and_dash_dash() {
        let args = ["a", "--json", "-", "--", "--git-blob", "-h"];
        let o = options(&args);
        assert!(o.json && !o.git_blob);
        assert_eq!(files(&args), ["a", "-", "--git-blob", "-h"]);
    }

    #[test]
    fn parses_backend_and_jobs_forms() {
        for args in [&["--backend", "portable"][..], &["--backend=portable"]] {
            assert_eq!(options(args).backend.as_deref(), Some(&b"portable"[..]));
        }
        for args in [
            &["-j", "3"][..],
            &["-j3"],
            &["--jobs", "3"],
            &["--jobs=3"],
            &["-bj3"],
        ] {
            assert_eq!(options(args).jobs, Some(3), "{args:?}");
        }
        assert!(matches!(parse(&["--backend"]), Command::Usage(_)));
        for bad in [&["-j", "0"][..], &["-j"], &["-jx"], &["--jobs=-1"]] {
            assert!(matches!(parse(bad), Command::Usage(_)), "{bad:?}");
        }
    }

    #[test]
    fn parses_bundled_short_options() {
        let o = options(&["-cwz", "sums"]);
        assert!(o.check && o.warn && o.zero);
        assert_eq!(files(&["-cwz", "sums"]), ["sums"]);
        assert_eq!(files(&["-j", "2", "a", "-j3", "--", "-z"]), ["a", "-z"]);
        assert_eq!(options(&["-b", "-t"]).binary, Some(false));
        assert_eq!(options(&["-tb"]).binary, Some(true));
        // The last of --status, -w and --quiet wins; --tag after -t too.
        for (args, want) in [
            (&["-c", "--status", "-w"][..], (false, true, false)),
            (&["-c", "--status", "--quiet"], (false, false, true)),
            (&["-c", "--quiet", "-w", "--status"], (true, false, false)),
        ] {
            let o = options(args);
            assert_eq!((o.status, o.warn, o.quiet), want, "{args:?}");
        }
        assert_eq!(options(&["-t", "--tag"]).style(), Style::Tag);
    }

    #[test]
    fn rejects_unknown_options_and_conflicts() {
        assert_eq!(
            parse(&["--bogus"]),
            Command::Usage("unrecognized option '--bogus'".into())
        );
        assert_eq!(
            parse(&["-x"]),
            Command::Usage("invalid option -- 'x'".into())
        );
        assert_eq!(parse(&["x", "-h", "--bogus"]), Command::Help);
        assert_eq!(parse(&["--version"]), Command::Version);
        assert!(matches!(parse(&["--json=1"]), Command::Usage(_)));
        for bad in [
            &["--quiet"][..],
            &["--status"],
            &["-w"],
            &["--strict"],
            &["--ignore-missing"],
            &["-c", "--tag"],
            &["-c", "-b"],
            &["-c", "--json"],
            &["--tag", "-t"],
            &["--json", "-z"],
        ] {
            assert!(matches!(parse(bad), Command::Usage(_)), "{bad:?}");
        }
    }

    #[test]
    fn abbreviated_long_options() {
        let o = options(&["-c", "--sta", "--stri", "--ig", "--q"]);
        assert!(o.quiet && o.strict && o.ignore_missing && !o.status);
        assert!(matches!(parse(&["--back=avx2"]), Command::Usage(_)));
        assert_eq!(
            options(&["--backend=avx2"]).backend.as_deref(),
            Some(&b"avx2"[..])
        );
        assert!(options(&["--backends"]).list_backends);
        assert_eq!(options(&["--gen", "man"]).generate, Some(Generated::Man));
        assert_eq!(parse(&["--vers"]), Command::Version);
        assert_eq!(parse(&["-V"]), Command::Version);
        assert_eq!(
            parse(&["--s"]),
            Command::Usage(
                "option '--s' is ambiguous; possibilities: '--status' '--strict'".into()
            )
        );
        assert_eq!(
            parse(&["--red=1"]),
            Command::Usage("option '--reduced-round' doesn't allow an argument".into())
        );
        assert_eq!(
            parse(&["--=x"]),
            Command::Usage("unrecognized option '--=x'".into())
        );
        assert!(matches!(parse(&["--generate", "html"]), Command::Usage(_)));
    }

    /// Every long and short name is given once.
    #[test]
    fn option_names_are_unique() {
        for (i, a) in OPTIONS.iter().enumerate() {
            for b in &OPTIONS[i + 1..] {
                assert_ne!(a.long, b.long);
                assert!(a.short.is_none() || a.short != b.short, "{}", a.long);
            }
        }
    }
}
