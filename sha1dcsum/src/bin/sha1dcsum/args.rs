//! The command line: one table of options ([`OPTIONS`]) that the parser,
//! `--help` and the man page (help.rs) and the shell completions
//! (complete.rs) all read, so none of them can forget an option.
//!
//! Parsing follows GNU getopt: short options bundle (`-cz`, `-j4`), a long
//! option may be shortened to any prefix no other option starts with
//! (`--sta` for `--status`), its value follows `=` or comes as the next
//! argument, `--` ends the options, and options may come after file names.

use std::ffi::{OsStr, OsString};

/// What the command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub reduced_round: bool,
    pub no_safe_hash: bool,
    pub git_blob: bool,
    pub json: bool,
    pub backend: Option<OsString>,
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
    pub files: Vec<OsString>,
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
    set: fn(&mut Options, &OsStr) -> Result<(), String>,
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

/// Every option, in the order `--help` lists them.
pub const OPTIONS: &[Opt] = &[
    Opt {
        long: "binary",
        short: Some(b'b'),
        help: "print ` *` before the name (the input is read the same), \
               except before a name starting with `coll* ` (see below)",
        section: Section::Hashing,
        action: Action::Set(|o| o.binary = Some(true)),
    },
    Opt {
        long: "text",
        short: Some(b't'),
        help: "print two spaces before the name (the default)",
        section: Section::Hashing,
        action: Action::Set(|o| o.binary = Some(false)),
    },
    Opt {
        long: "tag",
        short: None,
        help: "print BSD-style lines: SHA1 (<name>) = <hex> \
               (flagged: SHA1 (<name>) = <hex> *coll*)",
        section: Section::Hashing,
        action: Action::Set(|o| o.tag = true),
    },
    Opt {
        long: "zero",
        short: Some(b'z'),
        help: "end each line with NUL, not newline, and do not escape names; \
               with --check, read NUL-terminated lines",
        section: Section::Hashing,
        action: Action::Set(|o| o.zero = true),
    },
    Opt {
        long: "jobs",
        short: Some(b'j'),
        help: "hash N inputs at a time (default: the number of CPUs); \
               the output stays in argument order; a large input takes a \
               second thread once a thread of the N is free (-j 1: never)",
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
        section: Section::Hashing,
        action: Action::Set(|o| o.recursive = true),
    },
    Opt {
        long: "reduced-round",
        short: None,
        help: "also detect reduced-round collisions",
        section: Section::Hashing,
        action: Action::Set(|o| o.reduced_round = true),
    },
    Opt {
        long: "no-safe-hash",
        short: None,
        help: "print the plain SHA-1 even when a collision is detected",
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
        section: Section::Hashing,
        action: Action::Set(|o| o.json = true),
    },
    Opt {
        long: "backend",
        short: None,
        help: "use the named backend (see --backends) \
               (default: $SHA1DC_BACKEND if set, else the fastest)",
        section: Section::Hashing,
        action: Action::Take(Value {
            name: "NAME",
            choices: Choices::Backends,
            set: |o, v| {
                o.backend = Some(v.to_owned());
                Ok(())
            },
        }),
    },
    Opt {
        long: "backends",
        short: None,
        help: "list the backends this CPU can run, fastest first",
        section: Section::Hashing,
        action: Action::Set(|o| o.list_backends = true),
    },
    Opt {
        long: "help",
        short: Some(b'h'),
        help: "print this help and exit",
        section: Section::Hashing,
        action: Action::Help,
    },
    Opt {
        long: "version",
        short: Some(b'V'),
        help: "print the version and exit",
        section: Section::Hashing,
        action: Action::Version,
    },
    Opt {
        long: "generate",
        short: None,
        help: "print the man page or a shell's completions (WHAT: man, \
               complete-bash, complete-zsh or complete-fish) and exit; \
               both are made from the same text as this help",
        section: Section::Hashing,
        action: Action::Take(Value {
            name: "WHAT",
            choices: Choices::Generated,
            set: |o, v| {
                let what = Generated::ALL.into_iter().find(|g| v == g.name());
                o.generate = Some(what.ok_or_else(|| {
                    let names: Vec<&str> = Generated::ALL.iter().map(|g| g.name()).collect();
                    format!(
                        "invalid argument '{}' for '--generate' (one of: {})",
                        v.to_string_lossy(),
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
        section: Section::Checking,
        action: Action::Set(|o| o.check = true),
    },
    Opt {
        long: "ignore-missing",
        short: None,
        help: "don't fail or report status for missing files",
        section: Section::Checking,
        action: Action::Set(|o| o.ignore_missing = true),
    },
    Opt {
        long: "quiet",
        short: None,
        help: "don't print OK for each successfully verified file",
        section: Section::Checking,
        action: Action::Set(|o| o.quiet = true),
    },
    Opt {
        long: "status",
        short: None,
        help: "don't output anything, status code shows success",
        section: Section::Checking,
        action: Action::Set(|o| o.status = true),
    },
    Opt {
        long: "strict",
        short: None,
        help: "exit non-zero for improperly formatted checksum lines",
        section: Section::Checking,
        action: Action::Set(|o| o.strict = true),
    },
    Opt {
        long: "warn",
        short: Some(b'w'),
        help: "warn about improperly formatted checksum lines",
        section: Section::Checking,
        action: Action::Set(|o| o.warn = true),
    },
];

fn parse_jobs(value: &OsStr) -> Result<usize, String> {
    match value.to_str().and_then(|v| v.parse::<usize>().ok()) {
        Some(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "invalid number of jobs: '{}' (a whole number, 1 or more)",
            value.to_string_lossy()
        )),
    }
}

/// Parses the arguments (without the program name). `--help` and `--version`
/// win as soon as they are seen; the first bad option is reported.
pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Command {
    let mut o = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = crate::os::os_bytes(&arg);
        let parsed = if bytes == b"--" {
            o.files.extend(args.by_ref());
            Ok(())
        } else if bytes.len() < 2 || bytes[0] != b'-' {
            // A file name, or `-` for standard input.
            o.files.push(arg);
            Ok(())
        } else if let Some(long) = bytes.strip_prefix(b"--") {
            long_option(&mut o, long, &mut args)
        } else {
            short_options(&mut o, &bytes[1..], &mut args)
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

/// A value given inside an argument (`--jobs=4`, `-j4`). Backend names and
/// numbers are ASCII: a value that is not UTF-8 is rejected by its parser
/// all the same.
fn inline_value(bytes: &[u8]) -> OsString {
    OsString::from(String::from_utf8_lossy(bytes).as_ref())
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
fn long_option(
    o: &mut Options,
    long: &[u8],
    rest: &mut impl Iterator<Item = OsString>,
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
                .ok_or_else(|| usage(format!("option '--{}' requires an argument", opt.long)))?,
        ),
    };
    apply(o, opt, value)
}

/// A bundle of short options, the `-` removed: each is a flag, except one
/// that takes a value, which takes the rest of the bundle or the next
/// argument.
fn short_options(
    o: &mut Options,
    bundle: &[u8],
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<(), Command> {
    for (i, &letter) in bundle.iter().enumerate() {
        let opt = match OPTIONS.iter().find(|opt| opt.short == Some(letter)) {
            Some(opt) => opt,
            None => {
                let shown = if letter.is_ascii_graphic() {
                    char::from(letter).to_string()
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
            [] => rest.next().ok_or_else(|| {
                usage(format!(
                    "option requires an argument -- '{}'",
                    char::from(letter)
                ))
            })?,
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
fn apply(o: &mut Options, opt: &Opt, value: Option<OsString>) -> Result<(), Command> {
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
            (o.quiet, "--quiet"),
            (o.status, "--status"),
            (o.strict, "--strict"),
            (o.warn, "--warn"),
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
        return Some("the --json option prints its own lines: not with --tag or --zero".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Command {
        parse_args(args.iter().map(OsString::from))
    }

    fn options(args: &[&str]) -> Options {
        match parse(args) {
            Command::Run(o) => o,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn parses_options_anywhere_and_dash_dash() {
        let o = options(&["a", "--json", "-", "--", "--git-blob", "-h"]);
        assert!(o.json && !o.git_blob);
        assert_eq!(o.files, ["a", "-", "--git-blob", "-h"]);
    }

    #[test]
    fn parses_backend_and_jobs_forms() {
        for args in [&["--backend", "portable"][..], &["--backend=portable"]] {
            assert_eq!(
                options(args).backend.as_deref(),
                Some(OsStr::new("portable"))
            );
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
        assert_eq!(o.files, ["sums"]);
        assert_eq!(options(&["-b", "-t"]).binary, Some(false));
        assert_eq!(options(&["-tb"]).binary, Some(true));
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
        assert!(o.status && o.strict && o.ignore_missing && o.quiet);
        assert!(matches!(parse(&["--back=avx2"]), Command::Usage(_)));
        assert_eq!(
            options(&["--backend=avx2"]).backend.as_deref(),
            Some(OsStr::new("avx2"))
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
