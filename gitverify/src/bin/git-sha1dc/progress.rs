//! The progress bar on a terminal: objects verified, objects per second
//! and the time remaining, redrawn at most ten times a second on stderr.

use std::io::Write;
use std::time::{Duration, Instant};

pub struct Progress {
    on: bool,
    total: u64,
    done: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    pub fn new(on: bool) -> Self {
        let now = Instant::now();
        Progress {
            on,
            total: 0,
            done: 0,
            start: now,
            last: now,
        }
    }

    /// More objects to come (a new pack).
    pub fn expect(&mut self, objects: u64) {
        self.total += objects;
    }

    pub fn advance(&mut self, objects: u64) {
        self.done += objects;
        if self.on && self.last.elapsed() >= Duration::from_millis(100) {
            self.last = Instant::now();
            self.draw();
        }
    }

    fn draw(&self) {
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let rate = self.done as f64 / secs;
        let total = self.total.max(self.done);
        let left = if rate > 0.0 {
            (total - self.done) as f64 / rate
        } else {
            0.0
        };
        let width = 30;
        let filled = (self.done * width / total.max(1)) as usize;
        let bar: String = "#".repeat(filled) + &"-".repeat(width as usize - filled);
        eprint!(
            "\r[{bar}] {}/{} objects, {:.0} objects/s, {:.0} s left  ",
            self.done, total, rate, left
        );
        let _ = std::io::stderr().flush();
    }

    /// Clears the bar before other output.
    pub fn clear(&self) {
        if self.on {
            eprint!("\r{:width$}\r", "", width = 90);
        }
    }
}
