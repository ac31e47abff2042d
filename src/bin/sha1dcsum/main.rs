//! `sha1dcsum`: print or check SHA-1 checksums, with collision detection.
//!
//! Prints `<hex>  <name>` for each input, or `<hex> *coll* <name>` when a
//! collision attack was detected in it, like the original C tool; otherwise
//! it follows GNU `sha1sum` (escaped names, `-z`, `--tag`, `-b`/`-t`, and
//! `-c` to verify a list). Inputs are hashed on several threads (`-j`), each
//! streaming through one reusable buffer, or, for small files, reading a
//! group of them whole and hashing them at once (batch.rs), with the output
//! in argument order.

mod batch;
mod check;
mod input;
mod jobs;
mod lines;

use std::ffi::{OsStr, OsString};
use std::io::{self, BufWriter, ErrorKind, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use input::Hashed;
use lines::Style;
use sha1dc_wasm::{Builder, available_backends};

const PROGRAM: &str = "sha1dcsum";

/// Every input read, no collision.
const EXIT_OK: u8 = 0;
/// Some input could not be read, or the output could not be written.
const EXIT_IO_ERROR: u8 = 1;
/// Bad usage.
const EXIT_USAGE: u8 = 2;
/// A collision was detected (and every input was read).
const EXIT_COLLISION: u8 = 3;
/// Standard output was closed by its reader: the status a shell shows for a
/// process killed by SIGPIPE (128 + 13), which is what coreutils gets.
const EXIT_BROKEN_PIPE: u8 = 141;

/// The environment variable that picks the default backend (read here only:
/// the library never reads the environment).
const BACKEND_VARIABLE: &str = "SHA1DC_BACKEND";

const USAGE: &str = "Usage: sha1dcsum [OPTIONS] [FILE|-]...";

fn help_text() -> String {
    format!(
        "\
{USAGE}
Print or check SHA-1 checksums, with SHA-1 collision detection (Stevens-Shumow).

With no FILE, or when FILE is -, read standard input (printed as -).
Each line is `<hex>  <name>`, or `<hex> *coll* <name>` when a collision
attack was detected in that input; then <hex> is the \"safe hash\", which
differs for the two files of a collision, unless --no-safe-hash is given.
A name with a newline, carriage return or backslash is escaped (\\n, \\r, \\\\)
and its line starts with a backslash, as GNU sha1sum does.

Options:
  -b, --binary         print ` *` before the name (the input is read the same)
  -t, --text           print two spaces before the name (the default)
      --tag            print BSD-style lines: SHA1 (<name>) = <hex>
                       (flagged: SHA1 (<name>) = <hex> *coll*)
  -z, --zero           end each line with NUL, not newline, and do not escape
                       names; with --check, read NUL-terminated lines
  -j, --jobs N         hash N inputs at a time (default: the number of CPUs);
                       the output stays in argument order
      --reduced-round  also detect reduced-round collisions
      --no-safe-hash   print the plain SHA-1 even when a collision is detected
      --git-blob       hash each input as a git blob object (`blob <len>\\0` then
                       the content), as `git hash-object` does; standard input
                       (and any input that is not a regular file) is read whole
                       into memory first, since its length must come first
      --json           print one JSON object per line instead:
                       {{\"file\":..,\"sha1\":..,\"output\":..,\"collision\":..}},
                       where sha1 is the plain SHA-1, output the printed hash,
                       and collision null or {{\"offset\",\"block\",\"dv\",\"count\"}};
                       offset is in the input's bytes (for --git-blob, in the
                       file, after the header), block counts what was hashed;
                       a name that is not UTF-8 is in file with U+FFFD
                       replacements and, exactly, in file_bytes (hex)
      --backend NAME   use the named backend (see --backends)
                       (default: ${BACKEND_VARIABLE} if set, else the fastest)
      --backends       list the backends this CPU can run, fastest first
  -h, --help           print this help and exit
      --version        print the version and exit
      --               end of options: every later argument is a FILE

Checking:
  -c, --check          read checksum lines from the FILEs and check them: lines
                       of sha1sum (text or binary), of --tag, and sha1dcsum's
                       own *coll* lines; prints `<name>: OK`, `<name>: FAILED`,
                       `<name>: FAILED open or read`, or `<name>: COLLISION`
                       for a file in which a collision is detected (never OK,
                       whatever its line says)
      --ignore-missing don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines

To hash a file named -, write ./-.

Exit status:
  0  every input was read (and, checking, every listed file matched) and no
     collision was detected
  1  some input could not be read, or standard output could not be written
     (the other inputs are still hashed); checking: a file did not match,
     could not be read, or a list had no valid line (with --strict, any
     invalid line); takes precedence over 3
  2  bad usage (unknown option; missing, unknown or unsupported backend)
  3  a collision was detected in some input (and every input was read)
  141 standard output was closed by its reader (as if killed by SIGPIPE)
"
    )
}

/// What the command line asks for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Options {
    reduced_round: bool,
    no_safe_hash: bool,
    git_blob: bool,
    json: bool,
    backend: Option<OsString>,
    list_backends: bool,
    /// `-b` (true) or `-t` (false), the last one given.
    binary: Option<bool>,
    tag: bool,
    zero: bool,
    jobs: Option<usize>,
    check: bool,
    ignore_missing: bool,
    quiet: bool,
    status: bool,
    strict: bool,
    warn: bool,
    files: Vec<OsString>,
}

#[derive(Debug, PartialEq, Eq)]
enum Command {
    Run(Options),
    Help,
    Version,
    /// Bad usage, with the reason.
    Usage(String),
}

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
/// win as soon as they are seen; the first bad option is reported. Short
/// options may be bundled (`-cz`, `-j4`), as with getopt.
fn parse_args(args: impl IntoIterator<Item = OsString>) -> Command {
    let mut o = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            o.files.extend(args);
            break;
        }
        if bytes.len() < 2 || bytes[0] != b'-' {
            // A file name, or `-` for standard input.
            o.files.push(arg);
            continue;
        }
        if bytes.starts_with(b"--") {
            let (flag, value) = match bytes.iter().position(|&b| b == b'=') {
                Some(eq) => (&bytes[..eq], Some(&bytes[eq + 1..])),
                None => (bytes, None),
            };
            let takes_value = matches!(flag, b"--backend" | b"--jobs");
            if value.is_some() && !takes_value {
                return Command::Usage(format!(
                    "option '{}' doesn't allow an argument",
                    String::from_utf8_lossy(flag)
                ));
            }
            let value = if takes_value {
                match value {
                    // Backend names and numbers are ASCII: a value that is
                    // not UTF-8 is rejected by its parser all the same.
                    Some(v) => Some(OsString::from(String::from_utf8_lossy(v).as_ref())),
                    None => match args.next() {
                        Some(v) => Some(v),
                        None => {
                            return Command::Usage(format!(
                                "option '{}' requires an argument",
                                String::from_utf8_lossy(flag)
                            ));
                        }
                    },
                }
            } else {
                None
            };
            match flag {
                b"--help" => return Command::Help,
                b"--version" => return Command::Version,
                b"--reduced-round" => o.reduced_round = true,
                b"--no-safe-hash" => o.no_safe_hash = true,
                b"--git-blob" => o.git_blob = true,
                b"--json" => o.json = true,
                b"--backends" => o.list_backends = true,
                b"--backend" => o.backend = value,
                b"--jobs" => match parse_jobs(value.as_deref().unwrap_or_default()) {
                    Ok(n) => o.jobs = Some(n),
                    Err(e) => return Command::Usage(e),
                },
                b"--binary" => o.binary = Some(true),
                b"--text" => o.binary = Some(false),
                b"--tag" => o.tag = true,
                b"--zero" => o.zero = true,
                b"--check" => o.check = true,
                b"--ignore-missing" => o.ignore_missing = true,
                b"--quiet" => o.quiet = true,
                b"--status" => o.status = true,
                b"--strict" => o.strict = true,
                b"--warn" => o.warn = true,
                _ => {
                    return Command::Usage(format!(
                        "unrecognized option '{}'",
                        arg.to_string_lossy()
                    ));
                }
            }
            continue;
        }
        // Bundled short options.
        let mut i = 1;
        while i < bytes.len() {
            match bytes[i] {
                b'h' => return Command::Help,
                b'b' => o.binary = Some(true),
                b't' => o.binary = Some(false),
                b'z' => o.zero = true,
                b'c' => o.check = true,
                b'w' => o.warn = true,
                b'j' => {
                    let rest = &bytes[i + 1..];
                    let value = if rest.is_empty() {
                        match args.next() {
                            Some(v) => v,
                            None => {
                                return Command::Usage("option requires an argument -- 'j'".into());
                            }
                        }
                    } else {
                        OsString::from(String::from_utf8_lossy(rest).as_ref())
                    };
                    match parse_jobs(&value) {
                        Ok(n) => o.jobs = Some(n),
                        Err(e) => return Command::Usage(e),
                    }
                    break;
                }
                other => {
                    let shown = if other.is_ascii_graphic() {
                        char::from(other).to_string()
                    } else {
                        format!("\\x{other:02x}")
                    };
                    return Command::Usage(format!("invalid option -- '{shown}'"));
                }
            }
            i += 1;
        }
    }
    if let Some(reason) = conflicts(&o) {
        return Command::Usage(reason);
    }
    Command::Run(o)
}

/// Options that make no sense together, as GNU sha1sum reports them.
fn conflicts(o: &Options) -> Option<String> {
    if o.check {
        if o.tag {
            return Some("the --tag option is meaningless when verifying checksums".into());
        }
        if o.binary.is_some() {
            return Some(
                "the --binary and --text options are meaningless when verifying checksums".into(),
            );
        }
        if o.json {
            return Some("the --json option is meaningless when verifying checksums".into());
        }
    } else {
        for (on, name) in [
            (o.ignore_missing, "--ignore-missing"),
            (o.quiet, "--quiet"),
            (o.status, "--status"),
            (o.strict, "--strict"),
            (o.warn, "--warn"),
        ] {
            if on {
                return Some(format!(
                    "the {name} option is meaningful only when verifying checksums"
                ));
            }
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
fn json_line(name: &OsStr, hashed: &Hashed) -> String {
    let outcome = &hashed.outcome;
    let mut line = String::with_capacity(160);
    line.push_str("{\"file\":");
    push_json_string(&mut line, &name.to_string_lossy());
    if name.to_str().is_none() {
        line.push_str(",\"file_bytes\":\"");
        for b in name.as_encoded_bytes() {
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

fn usage_error(reason: &str) -> ExitCode {
    eprintln!("{PROGRAM}: {reason}\n{USAGE}\nTry '{PROGRAM} --help' for more information.");
    ExitCode::from(EXIT_USAGE)
}

/// Reports a failed write to standard output: for a closed pipe, quietly
/// with the SIGPIPE status, as coreutils ends.
fn output_error(e: &io::Error) -> ExitCode {
    if e.kind() == ErrorKind::BrokenPipe {
        return ExitCode::from(EXIT_BROKEN_PIPE);
    }
    eprintln!("{PROGRAM}: standard output: {}", input::describe(e));
    ExitCode::from(EXIT_IO_ERROR)
}

fn available_list() -> String {
    available_backends().collect::<Vec<_>>().join(", ")
}

/// Writes `text` to standard output.
fn print_and_exit(text: &str) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(e) => output_error(&e),
    }
}

/// Standard output with the flushing policy of a long run: buffered, but
/// flushed at least every 50 ms of work so lines show up as inputs finish,
/// and before anything goes to standard error so the two stay in order.
struct Output {
    out: BufWriter<io::StdoutLock<'static>>,
    flushed: Instant,
}

impl Output {
    fn new() -> Output {
        Output {
            out: BufWriter::with_capacity(64 << 10, io::stdout().lock()),
            flushed: Instant::now(),
        }
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        if self.flushed.elapsed() > Duration::from_millis(50) {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushed = Instant::now();
        self.out.flush()
    }

    /// Prints `message` on standard error after what is pending on output.
    fn error(&mut self, message: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.flush()?;
        eprintln!("{PROGRAM}: {message}");
        Ok(())
    }
}

/// The hasher options the command line gives, backend included.
fn builder(options: &Options) -> Result<Builder, ExitCode> {
    let mut builder = Builder::default()
        .reduced_round(options.reduced_round)
        .safe_hash(!options.no_safe_hash);
    let env_backend = std::env::var_os(BACKEND_VARIABLE).filter(|v| !v.is_empty());
    let requested = match (&options.backend, &env_backend) {
        (Some(name), _) => Some(("backend", name)),
        (None, Some(name)) => Some((BACKEND_VARIABLE, name)),
        (None, None) => None,
    };
    if let Some((source, name)) = requested {
        // Backend names are ASCII: a name that is not UTF-8 is simply unknown.
        match name.to_str().map(|n| builder.backend(n)) {
            Some(Ok(chosen)) => builder = chosen,
            failed => {
                let why = match failed {
                    Some(Err(e)) if e.is_unsupported() => "is not supported by this CPU",
                    _ => "is unknown",
                };
                eprintln!(
                    "{PROGRAM}: {source} '{}' {why}; available backends: {}",
                    name.to_string_lossy(),
                    available_list()
                );
                return Err(ExitCode::from(EXIT_USAGE));
            }
        }
    }
    Ok(builder)
}

/// Threads to hash on: `-j`, else one per CPU. Standard input named twice
/// or more is read by one thread, in order (the first `-` gets the data).
fn jobs(options: &Options, names: &[&OsStr]) -> usize {
    if names.iter().filter(|n| **n == "-").count() > 1 {
        return 1;
    }
    options.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(usize::from)
            .unwrap_or(1)
    })
}

fn run(options: Options) -> ExitCode {
    if options.list_backends {
        let mut text = String::new();
        for name in available_backends() {
            text.push_str(name);
            text.push('\n');
        }
        return print_and_exit(&text);
    }
    let builder = match builder(&options) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let stdin_name = OsString::from("-");
    let names: Vec<&OsStr> = if options.files.is_empty() {
        vec![stdin_name.as_os_str()]
    } else {
        options.files.iter().map(OsString::as_os_str).collect()
    };
    if options.check {
        return check::run(&options, builder, &names);
    }

    let style = if options.tag {
        Style::Tag
    } else if options.binary == Some(true) {
        Style::Binary
    } else {
        Style::Text
    };
    let mut out = Output::new();
    let mut failed = false;
    let mut collided = false;
    let mut write_error = None;
    let mut line = Vec::with_capacity(256);
    batch::hash_all(
        &names,
        jobs(&options, &names),
        builder,
        options.git_blob,
        |i, result| {
            let name = names[i];
            let written = match result {
                Ok(hashed) => {
                    collided |= hashed.outcome.collision().is_some();
                    line.clear();
                    if options.json {
                        line.extend_from_slice(json_line(name, &hashed).as_bytes());
                    } else {
                        lines::write_line(
                            &mut line,
                            hashed.outcome.digest().as_bytes(),
                            name.as_encoded_bytes(),
                            hashed.outcome.collision().is_some(),
                            style,
                            options.zero,
                        );
                    }
                    out.write(&line)
                }
                Err(failure) => {
                    failed = true;
                    out.error(format_args!("{}: {failure}", name.to_string_lossy()))
                }
            };
            match written {
                Ok(()) => true,
                Err(e) => {
                    write_error = Some(e);
                    false
                }
            }
        },
    );
    if let Some(e) = write_error.or_else(|| out.flush().err()) {
        return output_error(&e);
    }
    exit_status(failed, collided)
}

/// The exit status of a run (hashing or `-c`): an unreadable or failed
/// input (1) before a detected collision (3) before success (0).
fn exit_status(failed: bool, collided: bool) -> ExitCode {
    ExitCode::from(if failed {
        EXIT_IO_ERROR
    } else if collided {
        EXIT_COLLISION
    } else {
        EXIT_OK
    })
}

fn main() -> ExitCode {
    match parse_args(std::env::args_os().skip(1)) {
        Command::Run(options) => run(options),
        Command::Help => print_and_exit(&help_text()),
        Command::Version => print_and_exit(&format!("{PROGRAM} {}\n", env!("CARGO_PKG_VERSION"))),
        Command::Usage(reason) => usage_error(&reason),
    }
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
    fn json_strings_are_escaped() {
        let mut s = String::new();
        push_json_string(&mut s, "a\"b\\c\nd\te\u{1}f\u{7f}é\r\u{8}\u{c}");
        assert_eq!(
            s,
            r#""a\"b\\c\nd\te\u0001f"#.to_owned() + "\u{7f}é\\r\\b\\f\""
        );
    }
}
