//! What leaves the process: standard output with its flushing policy, the
//! messages on standard error, and the exit statuses (the library's
//! sha1dcsum::exit).

use std::io::{self, BufWriter, ErrorKind, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use sha1dcsum::check::Said;
use sha1dcsum::exit;

use crate::input::describe;

pub const PROGRAM: &str = "sha1dcsum";

/// Reports a failed write to standard output: for a closed pipe, quietly
/// with the SIGPIPE status, as coreutils ends.
pub fn output_error(e: &io::Error) -> ExitCode {
    if e.kind() == ErrorKind::BrokenPipe {
        return ExitCode::from(exit::BROKEN_PIPE);
    }
    eprintln!("{PROGRAM}: standard output: {}", describe(e));
    ExitCode::from(exit::IO_ERROR)
}

/// Writes `text` to standard output.
pub fn print_and_exit(text: &str) -> ExitCode {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::from(exit::OK),
        Err(e) => output_error(&e),
    }
}

/// The exit status of a run (hashing or `-c`): an unreadable or failed
/// input (1) before a detected collision (3) before success (0).
pub fn exit_status(failed: bool, collided: bool) -> ExitCode {
    ExitCode::from(exit::status(failed, collided))
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

    /// Prints what a check said, each on its stream.
    pub fn say(&mut self, said: impl Iterator<Item = Said>) -> io::Result<()> {
        for said in said {
            match said {
                Said::Error(message) => self.error(format_args!("{message}"))?,
                Said::Out(bytes) => self.write(&bytes)?,
            }
        }
        Ok(())
    }
}
