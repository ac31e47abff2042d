//! What leaves the process: standard output with its flushing policy, the
//! messages on standard error, and the exit statuses.

use std::io::{self, BufWriter, ErrorKind, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::help::USAGE;
use crate::input::describe;

pub const PROGRAM: &str = "sha1dcsum";

/// Every input read, no collision.
const EXIT_OK: u8 = 0;
/// Some input could not be read, or the output could not be written.
const EXIT_IO_ERROR: u8 = 1;
/// Bad usage.
pub const EXIT_USAGE: u8 = 2;
/// A collision was detected (and every input was read).
const EXIT_COLLISION: u8 = 3;
/// Standard output was closed by its reader: the status a shell shows for a
/// process killed by SIGPIPE (128 + 13), which is what coreutils gets.
const EXIT_BROKEN_PIPE: u8 = 141;

pub fn usage_error(reason: &str) -> ExitCode {
    eprintln!("{PROGRAM}: {reason}\n{USAGE}\nTry '{PROGRAM} --help' for more information.");
    ExitCode::from(EXIT_USAGE)
}

/// Reports a failed write to standard output: for a closed pipe, quietly
/// with the SIGPIPE status, as coreutils ends.
pub fn output_error(e: &io::Error) -> ExitCode {
    if e.kind() == ErrorKind::BrokenPipe {
        return ExitCode::from(EXIT_BROKEN_PIPE);
    }
    eprintln!("{PROGRAM}: standard output: {}", describe(e));
    ExitCode::from(EXIT_IO_ERROR)
}

/// Writes `text` to standard output.
pub fn print_and_exit(text: &str) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(e) => output_error(&e),
    }
}

/// The exit status of a run (hashing or `-c`): an unreadable or failed
/// input (1) before a detected collision (3) before success (0).
pub fn exit_status(failed: bool, collided: bool) -> ExitCode {
    ExitCode::from(if failed {
        EXIT_IO_ERROR
    } else if collided {
        EXIT_COLLISION
    } else {
        EXIT_OK
    })
}

/// Standard output with the flushing policy of a long run: buffered, but
/// flushed at least every 50 ms of work so lines show up as inputs finish,
/// and before anything goes to standard error so the two stay in order.
pub struct Output {
    out: BufWriter<io::StdoutLock<'static>>,
    flushed: Instant,
}

impl Output {
    pub fn new() -> Output {
        Output {
            out: BufWriter::with_capacity(64 << 10, io::stdout().lock()),
            flushed: Instant::now(),
        }
    }

    pub fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        if self.flushed.elapsed() > Duration::from_millis(50) {
            self.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.flushed = Instant::now();
        self.out.flush()
    }

    /// Prints `message` on standard error after what is pending on output.
    pub fn error(&mut self, message: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.flush()?;
        eprintln!("{PROGRAM}: {message}");
        Ok(())
    }
}
