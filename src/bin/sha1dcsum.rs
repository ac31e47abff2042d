//! `sha1dcsum`: print the SHA-1 of files, with collision detection.
//!
//! Prints `<hex>  <name>` for each input, or `<hex> *coll* <name>` when a
//! collision attack was detected in it, like the original C tool. Each input
//! is streamed through one reusable buffer, so memory stays constant whatever
//! the file size (except `--git-blob` on standard input or on a file whose size
//! is not known in advance, which must be read whole before hashing).

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, ErrorKind, Read, Write};
use std::process::ExitCode;

use sha1dc_wasm::{Builder, Hasher, Outcome, available_backends};

const PROGRAM: &str = "sha1dcsum";

/// Read size: large enough that the per-read overhead vanishes next to
/// hashing, small enough that what the kernel copied is still in the CPU's
/// cache when it is hashed.
const BUFFER_SIZE: usize = 256 << 10;

/// The read buffer starts on a page boundary: the kernel copies from the page
/// cache several times faster into an aligned buffer than into one 16 bytes
/// off (which is where the allocator puts a large `Vec`), measured on x86-64.
const PAGE: usize = 4096;

/// Every input read, no collision.
const EXIT_OK: u8 = 0;
/// Some input could not be read, or the output could not be written.
const EXIT_IO_ERROR: u8 = 1;
/// Bad usage.
const EXIT_USAGE: u8 = 2;
/// A collision was detected (and every input was read).
const EXIT_COLLISION: u8 = 3;

/// The environment variable the library reads to pick its default backend.
const BACKEND_VARIABLE: &str = "SHA1DC_BACKEND";

const USAGE: &str = "Usage: sha1dcsum [OPTIONS] [FILE|-]...";

fn help_text() -> String {
    format!(
        "\
{USAGE}
Print the SHA-1 of each FILE, with SHA-1 collision detection (Stevens-Shumow).

With no FILE, or when FILE is -, read standard input (printed as -).
Each line is `<hex>  <name>`, or `<hex> *coll* <name>` when a collision
attack was detected in that input; then <hex> is the \"safe hash\", which
differs for the two files of a collision, unless --no-safe-hash is given.

Options:
      --reduced-round  also detect reduced-round collisions
      --no-safe-hash   print the plain SHA-1 even when a collision is detected
      --git-blob       hash each input as a git blob object (`blob <len>\\0` then
                       the content), as `git hash-object` does; standard input
                       (and any input that is not a regular file) is read whole
                       into memory first, since its length must come first
      --json           print one JSON object per line instead:
                       {{\"file\":..,\"sha1\":..,\"output\":..,\"collision\":..}},
                       where sha1 is the plain SHA-1, output the printed hash,
                       and collision null or {{\"offset\",\"block\",\"dv\",\"count\"}}
      --backend NAME   use the named backend (see --backends)
                       (default: $SHA1DC_BACKEND if set, else the fastest)
      --backends       list the backends this CPU can run, fastest first
  -h, --help           print this help and exit
      --version        print the version and exit
      --               end of options: every later argument is a FILE

To hash a file named -, write ./-.

Exit status:
  0  every input was read and no collision was detected
  1  some input could not be read, or standard output could not be written
     (the other inputs are still hashed); takes precedence over 3
  2  bad usage (unknown option; missing, unknown or unsupported backend)
  3  a collision was detected in some input (and every input was read)
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

/// Parses the arguments (without the program name). `--help` and `--version`
/// win as soon as they are seen; the first bad option is reported.
fn parse_args(args: impl IntoIterator<Item = OsString>) -> Command {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            options.files.extend(args);
            break;
        }
        if bytes.len() < 2 || bytes[0] != b'-' {
            // A file name, or `-` for standard input.
            options.files.push(arg);
            continue;
        }
        match bytes {
            b"-h" | b"--help" => return Command::Help,
            b"--version" => return Command::Version,
            b"--reduced-round" => options.reduced_round = true,
            b"--no-safe-hash" => options.no_safe_hash = true,
            b"--git-blob" => options.git_blob = true,
            b"--json" => options.json = true,
            b"--backends" => options.list_backends = true,
            b"--backend" => match args.next() {
                Some(name) => options.backend = Some(name),
                None => return Command::Usage("option '--backend' requires a name".into()),
            },
            _ => {
                if let Some(name) = bytes.strip_prefix(b"--backend=") {
                    options.backend = Some(OsString::from(String::from_utf8_lossy(name).as_ref()));
                } else {
                    let kind = if bytes.starts_with(b"--") {
                        "unrecognized"
                    } else {
                        "invalid"
                    };
                    return Command::Usage(format!("{kind} option '{}'", arg.to_string_lossy()));
                }
            }
        }
    }
    Command::Run(options)
}

/// Why an input produced no line.
#[derive(Debug)]
enum Failure {
    Io(io::Error),
    /// `--git-blob` on a regular file whose length changed under us: the
    /// header already hashed would be wrong.
    SizeChanged {
        expected: u64,
        actual: u64,
    },
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Io(e) => f.write_str(&describe(e)),
            Failure::SizeChanged { expected, actual } => write!(
                f,
                "file size changed while reading (expected {expected} bytes, read {actual})"
            ),
        }
    }
}

/// The OS's reason, without Rust's " (os error N)" suffix, as C tools print it.
fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    if let Some(code) = e.raw_os_error() {
        let suffix = format!(" (os error {code})");
        if let Some(reason) = text.strip_suffix(&suffix) {
            return reason.to_owned();
        }
    }
    text
}

/// Feeds everything `reader` yields to `hasher` through `buf`; returns the
/// byte count. A read error aborts (the caller prints nothing for the input).
fn stream(reader: &mut impl Read, hasher: &mut Hasher, buf: &mut [u8]) -> io::Result<u64> {
    let mut total = 0u64;
    loop {
        match reader.read(buf) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                hasher.update(&buf[..n]);
                total += n as u64;
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn git_blob_header(hasher: &mut Hasher, len: u64) {
    hasher.update(b"blob ");
    hasher.update(len.to_string().as_bytes());
    hasher.update(b"\0");
}

/// Reads all of `reader`, then hashes it as a git blob (the length comes first).
fn git_blob_whole(reader: &mut impl Read, hasher: &mut Hasher) -> io::Result<()> {
    let mut content = Vec::new();
    reader.read_to_end(&mut content)?;
    git_blob_header(hasher, content.len() as u64);
    hasher.update(&content);
    Ok(())
}

/// Hashes one opened input; `known_len` is its length when it is a regular
/// file and `--git-blob` needs it.
fn hash_reader(
    reader: &mut impl Read,
    known_len: Option<u64>,
    git_blob: bool,
    hasher: &mut Hasher,
    buf: &mut [u8],
) -> Result<Outcome, Failure> {
    hasher.reset();
    match (git_blob, known_len) {
        (false, _) => {
            stream(reader, hasher, buf)?;
        }
        (true, Some(expected)) => {
            git_blob_header(hasher, expected);
            let actual = stream(reader, hasher, buf)?;
            if actual != expected {
                return Err(Failure::SizeChanged { expected, actual });
            }
        }
        (true, None) => git_blob_whole(reader, hasher)?,
    }
    Ok(hasher.finalize_reset())
}

fn hash_input(
    name: &OsStr,
    git_blob: bool,
    hasher: &mut Hasher,
    buf: &mut [u8],
) -> Result<Outcome, Failure> {
    if name == "-" {
        let mut stdin = io::stdin().lock();
        return hash_reader(&mut stdin, None, git_blob, hasher, buf);
    }
    let mut file = File::open(name)?;
    // The length matters only for --git-blob, and is trusted only for a
    // regular file (a pipe or device has none; a directory fails on read).
    let known_len = if git_blob {
        let meta = file.metadata()?;
        meta.is_file().then_some(meta.len())
    } else {
        None
    };
    hash_reader(&mut file, known_len, git_blob, hasher, buf)
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

/// One `--json` line, newline included.
fn json_line(name: &OsStr, outcome: &Outcome) -> String {
    let mut line = String::with_capacity(160);
    line.push_str("{\"file\":");
    push_json_string(&mut line, &name.to_string_lossy());
    line.push_str(&format!(
        ",\"sha1\":\"{}\",\"output\":\"{}\",\"collision\":",
        outcome.sha1(),
        outcome.digest()
    ));
    match outcome.collision() {
        Some(c) => line.push_str(&format!(
            "{{\"offset\":{},\"block\":{},\"dv\":\"{}\",\"count\":{}}}",
            c.offset(),
            c.block(),
            c.dv(),
            c.count()
        )),
        None => line.push_str("null"),
    }
    line.push_str("}\n");
    line
}

/// Writes the line for one input, in the C tool's format or as JSON.
fn write_line(out: &mut impl Write, name: &OsStr, outcome: &Outcome, json: bool) -> io::Result<()> {
    if json {
        return out.write_all(json_line(name, outcome).as_bytes());
    }
    out.write_all(&outcome.digest().to_hex())?;
    let marker: &[u8] = if outcome.collision().is_some() {
        b" *coll* "
    } else {
        b"  "
    };
    out.write_all(marker)?;
    // The name exactly as given: raw bytes on Unix, like the C tool.
    out.write_all(name.as_encoded_bytes())?;
    out.write_all(b"\n")
}

fn usage_error(reason: &str) -> ExitCode {
    eprintln!("{PROGRAM}: {reason}\n{USAGE}\nTry '{PROGRAM} --help' for more information.");
    ExitCode::from(EXIT_USAGE)
}

/// Reports a failed write to standard output: quietly for a closed pipe.
fn output_error(e: &io::Error) -> ExitCode {
    if e.kind() != ErrorKind::BrokenPipe {
        eprintln!("{PROGRAM}: standard output: {}", describe(e));
    }
    ExitCode::from(EXIT_IO_ERROR)
}

fn available_list() -> String {
    available_backends().collect::<Vec<_>>().join(", ")
}

/// Writes `text` to standard output; a closed pipe is not an error worth a panic.
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

fn run(options: Options) -> ExitCode {
    if options.list_backends {
        let mut text = String::new();
        for name in available_backends() {
            text.push_str(name);
            text.push('\n');
        }
        return print_and_exit(&text);
    }

    let mut builder = Builder::default()
        .reduced_round(options.reduced_round)
        .safe_hash(!options.no_safe_hash);
    // The library also honours SHA1DC_BACKEND when no backend is forced, and
    // panics on a bad name there: check it here to fail like --backend does.
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
                return ExitCode::from(EXIT_USAGE);
            }
        }
    }
    let mut hasher = builder.build();

    let stdin_name = OsString::from("-");
    let files: Vec<&OsStr> = if options.files.is_empty() {
        vec![stdin_name.as_os_str()]
    } else {
        options.files.iter().map(OsString::as_os_str).collect()
    };

    let mut storage = vec![0u8; BUFFER_SIZE + PAGE];
    let start = match storage.as_ptr().align_offset(PAGE) {
        offset if offset < PAGE => offset,
        _ => 0,
    };
    let buf = &mut storage[start..start + BUFFER_SIZE];
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = false;
    let mut collided = false;
    for name in files {
        match hash_input(name, options.git_blob, &mut hasher, buf) {
            Ok(outcome) => {
                collided |= outcome.collision().is_some();
                let written =
                    write_line(&mut out, name, &outcome, options.json).and_then(|()| out.flush());
                if let Err(e) = written {
                    return output_error(&e);
                }
            }
            Err(failure) => {
                failed = true;
                eprintln!("{PROGRAM}: {}: {failure}", name.to_string_lossy());
            }
        }
    }
    if let Err(e) = out.flush() {
        return output_error(&e);
    }
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

    #[test]
    fn parses_options_anywhere_and_dash_dash() {
        let Command::Run(o) = parse(&["a", "--json", "-", "--", "--git-blob", "-h"]) else {
            panic!("expected Run");
        };
        assert!(o.json && !o.git_blob);
        assert_eq!(o.files, ["a", "-", "--git-blob", "-h"]);
    }

    #[test]
    fn parses_backend_forms() {
        for args in [&["--backend", "portable"][..], &["--backend=portable"]] {
            let Command::Run(o) = parse(args) else {
                panic!("expected Run");
            };
            assert_eq!(o.backend.as_deref(), Some(OsStr::new("portable")));
        }
        assert!(matches!(parse(&["--backend"]), Command::Usage(_)));
    }

    #[test]
    fn rejects_unknown_options() {
        assert_eq!(
            parse(&["--bogus"]),
            Command::Usage("unrecognized option '--bogus'".into())
        );
        assert_eq!(parse(&["-x"]), Command::Usage("invalid option '-x'".into()));
        assert_eq!(parse(&["x", "-h", "--bogus"]), Command::Help);
        assert_eq!(parse(&["--version"]), Command::Version);
    }

    /// Yields `good` bytes, then fails: a read error half-way through a file.
    struct FailsHalfway {
        good: usize,
    }

    impl Read for FailsHalfway {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good == 0 {
                return Err(io::Error::from_raw_os_error(5));
            }
            let n = buf.len().min(self.good).min(1000);
            buf[..n].fill(b'x');
            self.good -= n;
            Ok(n)
        }
    }

    #[test]
    fn read_error_half_way_is_reported_and_the_hasher_reusable() {
        let mut hasher = Hasher::new();
        let mut buf = vec![0u8; 4096];
        for git_blob in [false, true] {
            let err = hash_reader(
                &mut FailsHalfway { good: 10_000 },
                None,
                git_blob,
                &mut hasher,
                &mut buf,
            )
            .unwrap_err();
            assert_eq!(err.to_string(), "Input/output error");
        }
        // Nothing of the failed input leaks into the next one.
        let outcome = hash_reader(&mut &b"abc"[..], None, false, &mut hasher, &mut buf).unwrap();
        assert_eq!(
            outcome.digest().to_string(),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
    }

    #[test]
    fn git_blob_length_mismatch_is_an_error() {
        let mut hasher = Hasher::new();
        let mut buf = vec![0u8; 64];
        let err = hash_reader(&mut &b"abc"[..], Some(4), true, &mut hasher, &mut buf).unwrap_err();
        assert_eq!(
            err.to_string(),
            "file size changed while reading (expected 4 bytes, read 3)"
        );
        // `git hash-object` of "abc": blob 3\0abc.
        let ok = hash_reader(&mut &b"abc"[..], Some(3), true, &mut hasher, &mut buf).unwrap();
        let whole = hash_reader(&mut &b"abc"[..], None, true, &mut hasher, &mut buf).unwrap();
        assert_eq!(ok, whole);
        assert_eq!(
            ok.digest().to_string(),
            sha1dc_wasm::hash(b"blob 3\0abc").digest().to_string()
        );
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

    #[test]
    fn os_error_suffix_is_dropped() {
        let e = io::Error::from_raw_os_error(2);
        assert_eq!(describe(&e), "No such file or directory");
    }
}
