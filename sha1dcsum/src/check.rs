//! `--check` without the I/O: what a list's lines name, and what is said as
//! each listed file's result comes in, as GNU `sha1sum -c` says it, with one
//! more verdict: COLLISION, for a file in which a collision attack is
//! detected now, whatever its line records (never OK). A line that names a
//! file but records no checksum read here still has its file checked for a
//! collision, and is reported.
//!
//! The command reads the list and hashes the files (its check.rs), feeding a
//! [`ListCheck`] the lines and the results, and prints what it says.

use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use sha1dc_wasm::Outcome;

use crate::lines::{self, Line};
use crate::options::Options;

/// A line of a list that names a file: the name, and the checksum the line
/// records, or `None` when it could not be read (the file is then checked
/// for a collision only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub name: Vec<u8>,
    pub digest: Option<[u8; 20]>,
}

/// What hashing a listed file gave.
#[derive(Clone, Copy, Debug)]
pub enum Found<'a> {
    Hashed {
        /// The printed hash (the safe hash of a flagged file, unless
        /// `--no-safe-hash`): what the list's checksum is compared with.
        output: [u8; 20],
        /// The file's SHA-1, which a list written by a tool without
        /// detection records for a flagged file.
        sha1: [u8; 20],
        collision: bool,
    },
    Failed {
        /// Why, in the words the command prints.
        reason: &'a str,
        /// The file does not exist (what `--ignore-missing` passes over).
        missing: bool,
    },
}

impl Found<'_> {
    /// A file that hashed to `outcome`.
    pub fn hashed(outcome: &Outcome) -> Found<'static> {
        Found::Hashed {
            output: outcome.digest().to_bytes(),
            sha1: outcome.sha1().to_bytes(),
            collision: outcome.collision().is_some(),
        }
    }
}

/// What the check says: a message for standard error (the command puts its
/// name before it), or bytes for standard output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    Error(String),
    Out(Vec<u8>),
}

/// What checking one listed file found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Ok,
    Failed,
    Unreadable,
    /// Flagged; `matched`: the line records its output or its SHA-1.
    Collision {
        matched: bool,
    },
}

impl Verdict {
    fn text(self) -> &'static [u8] {
        match self {
            Verdict::Ok => b"OK",
            Verdict::Failed => b"FAILED",
            Verdict::Unreadable => b"FAILED open or read",
            Verdict::Collision { .. } => b"COLLISION",
        }
    }
}

/// Counts over one list.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    unreadable: u64,
    mismatched: u64,
    collisions: u64,
    verified: u64,
}

impl Tally {
    fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Ok => self.verified += 1,
            Verdict::Failed => {
                self.verified += 1;
                self.mismatched += 1;
            }
            Verdict::Unreadable => self.unreadable += 1,
            Verdict::Collision { matched } => {
                self.verified += 1;
                self.collisions += 1;
                self.mismatched += u64::from(!matched);
            }
        }
    }
}

/// The options that change what a check says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Checking {
    warn: bool,
    status: bool,
    quiet: bool,
    strict: bool,
    ignore_missing: bool,
    /// `-z`: the list's lines end with NUL.
    zero: bool,
}

/// The check of one list: fed its lines ([`line`](Self::line)), then the
/// result of each file they name ([`found`](Self::found)), then
/// [`finish`](Self::finish)ed; what it says on the way is in
/// [`said`](Self::said).
#[derive(Debug)]
pub struct ListCheck {
    checking: Checking,
    /// The list's name as messages about its lines give it.
    list: String,
    /// And as messages about the whole list give it.
    title: String,
    /// Lines read so far.
    number: u64,
    listed: Vec<Listed>,
    improper: u64,
    tally: Tally,
    said: VecDeque<Said>,
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A name for a message (lossily UTF-8, escaped onto one line).
fn lossy(name: &[u8]) -> String {
    String::from_utf8_lossy(&lines::shown(name)).into_owned()
}

impl ListCheck {
    /// The check of the list named `list` (`-` is standard input).
    pub fn new(options: &Options, list: &[u8]) -> ListCheck {
        let list = String::from_utf8_lossy(list).into_owned();
        let title = if list == "-" {
            String::from("standard input")
        } else {
            list.clone()
        };
        ListCheck {
            checking: Checking {
                warn: options.warn,
                status: options.status,
                quiet: options.quiet,
                strict: options.strict,
                ignore_missing: options.ignore_missing,
                zero: options.zero,
            },
            list,
            title,
            number: 0,
            listed: Vec::new(),
            improper: 0,
            tally: Tally::default(),
            said: VecDeque::new(),
        }
    }

    /// The message for standard error of a list that cannot be opened or
    /// read (`reason`, in the command's words); the check has failed.
    pub fn unreadable(list: &[u8], reason: &str) -> String {
        format!("{}: {reason}", String::from_utf8_lossy(list))
    }

    /// Reads the list's next line (its terminator removed). `exists` says
    /// whether a file of that name is there (for the lines that mean one of
    /// two files: [`lines::resolve`]).
    pub fn line(&mut self, line: &[u8], exists: impl Fn(&[u8]) -> bool) {
        self.number += 1;
        match lines::parse_line(line) {
            Line::Entry(entry) => {
                let entry = lines::resolve(entry, exists);
                self.listed.push(Listed {
                    name: entry.name,
                    digest: Some(entry.digest),
                });
            }
            Line::Unreadable(name) => {
                self.improper += 1;
                if !self.checking.status {
                    let error = format!(
                        "{}: {}: improperly formatted SHA1 checksum line for {}; \
                         checked for a collision only",
                        self.list,
                        self.number,
                        lossy(&name)
                    );
                    self.said.push_back(Said::Error(error));
                }
                self.listed.push(Listed { name, digest: None });
            }
            Line::Ignored => {}
            Line::Improper => {
                self.improper += 1;
                if self.checking.warn {
                    let error = format!(
                        "{}: {}: improperly formatted SHA1 checksum line",
                        self.list, self.number
                    );
                    self.said.push_back(Said::Error(error));
                }
            }
        }
    }

    /// Reads a list read whole: each line ([`line`](Self::line)), split at
    /// the terminator (NUL with `-z`, else newline), which the last line may
    /// lack.
    pub fn lines(&mut self, list: &[u8], exists: impl Fn(&[u8]) -> bool) {
        let end = if self.checking.zero { 0 } else { b'\n' };
        if list.is_empty() {
            return;
        }
        let list = list.strip_suffix(&[end]).unwrap_or(list);
        for line in list.split(|&b| b == end) {
            self.line(line, &exists);
        }
    }

    /// The files the lines read so far name, in order: each gets its
    /// [`found`](Self::found).
    pub fn listed(&self) -> &[Listed] {
        &self.listed
    }

    /// What checking `listed()[i]` found; `None` when there is nothing to
    /// say: a missing file with `--ignore-missing`, or a file without a
    /// collision whose line records no checksum read here.
    fn verdict(&self, i: usize, found: Found<'_>) -> Option<Verdict> {
        match (found, self.listed[i].digest) {
            (
                Found::Hashed {
                    collision: true,
                    output,
                    sha1,
                },
                digest,
            ) => Some(Verdict::Collision {
                // A line without a checksum read here is reported apart.
                matched: digest.map_or(true, |d| d == output || d == sha1),
            }),
            (_, None) => None,
            (Found::Failed { missing: true, .. }, _) if self.checking.ignore_missing => None,
            (Found::Failed { .. }, _) => Some(Verdict::Unreadable),
            (Found::Hashed { output, .. }, Some(digest)) if output == digest => Some(Verdict::Ok),
            (Found::Hashed { .. }, _) => Some(Verdict::Failed),
        }
    }

    /// The result of `listed()[i]`: `<name>: <verdict>`, after the reason on
    /// standard error for a file that could not be read, as the options
    /// allow.
    pub fn found(&mut self, i: usize, found: Found<'_>) {
        let verdict = match self.verdict(i, found) {
            Some(verdict) => verdict,
            None => return,
        };
        self.tally.count(verdict);
        if self.checking.status || (verdict == Verdict::Ok && self.checking.quiet) {
            return;
        }
        let name = lines::shown(&self.listed[i].name);
        if let Found::Failed { reason, .. } = found {
            let error = format!("{}: {reason}", String::from_utf8_lossy(&name));
            self.said.push_back(Said::Error(error));
        }
        let mut status = name;
        status.extend_from_slice(b": ");
        status.extend_from_slice(verdict.text());
        status.push(b'\n');
        self.said.push_back(Said::Out(status));
    }

    /// After the last result: GNU's warnings, and whether the check failed
    /// and whether a collision was detected.
    pub fn finish(&mut self) -> (bool, bool) {
        let collided = self.tally.collisions > 0;
        if self.listed.iter().all(|l| l.digest.is_none()) {
            let error = format!(
                "{}: no properly formatted SHA1 checksum lines found",
                self.title
            );
            self.said.push_back(Said::Error(error));
            return (true, collided);
        }
        let tally = self.tally;
        if !self.checking.status {
            let warnings = [
                (
                    self.improper,
                    "line is improperly formatted",
                    "lines are improperly formatted",
                ),
                (
                    tally.unreadable,
                    "listed file could not be read",
                    "listed files could not be read",
                ),
                (
                    tally.mismatched,
                    "computed checksum did NOT match",
                    "computed checksums did NOT match",
                ),
                (
                    tally.collisions,
                    "listed file is half of a SHA-1 collision",
                    "listed files are halves of SHA-1 collisions",
                ),
            ];
            for (count, one, many) in warnings {
                if count > 0 {
                    let warning = format!("WARNING: {}", plural(count, one, many));
                    self.said.push_back(Said::Error(warning));
                }
            }
        }
        let mut failed = tally.unreadable > 0
            || tally.mismatched > 0
            || (self.checking.strict && self.improper > 0);
        if self.checking.ignore_missing && tally.verified == 0 {
            let error = format!("{}: no file was verified", self.title);
            self.said.push_back(Said::Error(error));
            failed = true;
        }
        (failed, collided)
    }

    /// What was said since last asked, in order.
    pub fn said(&mut self) -> impl Iterator<Item = Said> + '_ {
        core::iter::from_fn(move || self.next_said())
    }

    /// The first thing said not yet asked for.
    pub fn next_said(&mut self) -> Option<Said> {
        self.said.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: &str = "a9993e364706816aba3e25717850c26c9cd0d89d";

    /// The digest `H` spells.
    fn abc() -> [u8; 20] {
        lines::parse_hex(H.as_bytes()).unwrap()
    }

    fn hashed(output: [u8; 20], sha1: [u8; 20], collision: bool) -> Found<'static> {
        Found::Hashed {
            output,
            sha1,
            collision,
        }
    }

    fn said(check: &mut ListCheck) -> Vec<Said> {
        check.said().collect()
    }

    fn error(text: &str) -> Said {
        Said::Error(text.into())
    }

    /// A list read whole is split at its terminator, which the last line
    /// may lack.
    #[test]
    fn lists_read_whole_are_split_at_their_terminator() {
        let lists = [
            (false, format!("{H}  a\n\n{H}  b")),
            (true, format!("{H}  a\nb\0{H}  c\0")),
        ];
        for (zero, list) in lists {
            let options = Options {
                check: true,
                warn: true,
                zero,
                ..Options::default()
            };
            let mut check = ListCheck::new(&options, b"L");
            check.lines(list.as_bytes(), |_| true);
            check.lines(b"", |_| true);
            let names: Vec<&[u8]> = check.listed().iter().map(|l| &l.name[..]).collect();
            let want: [&[u8]; 2] = if zero { [b"a\nb", b"c"] } else { [b"a", b"b"] };
            assert_eq!(names, want);
            assert_eq!(said(&mut check), []);
        }
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "line is", "lines are"), "1 line is");
        assert_eq!(plural(3, "line is", "lines are"), "3 lines are");
    }

    #[test]
    fn verdicts_status_lines_and_warnings() {
        let options = Options {
            check: true,
            warn: true,
            ..Options::default()
        };
        let mut check = ListCheck::new(&options, b"SUMS");
        for line in [
            format!("{H}  a"),
            format!("{H}  b\\nc"),
            format!("\\{H}  new\\nline"),
            format!("{H} *coll* x"),
            "# comment".into(),
            "junk".into(),
            "SHA1 (t) = ?".into(),
            format!("{H}  gone"),
        ] {
            check.line(line.as_bytes(), |_| true);
        }
        assert_eq!(
            said(&mut check),
            [
                error("SUMS: 6: improperly formatted SHA1 checksum line"),
                error(
                    "SUMS: 7: improperly formatted SHA1 checksum line for t; \
                     checked for a collision only"
                ),
            ]
        );
        let names: Vec<&[u8]> = check.listed().iter().map(|l| &l.name[..]).collect();
        assert_eq!(
            names,
            [&b"a"[..], b"b\\nc", b"new\nline", b"x", b"t", b"gone"]
        );
        let (abc, other) = (abc(), [0; 20]);
        let found = [
            hashed(abc, abc, false),
            hashed(other, other, false),
            hashed(abc, abc, false),
            hashed(other, abc, true),
            hashed(abc, abc, false),
            Found::Failed {
                reason: "No such file or directory",
                missing: true,
            },
        ];
        for (i, found) in found.into_iter().enumerate() {
            check.found(i, found);
        }
        assert_eq!(check.finish(), (true, true));
        let out = |s: &str| Said::Out(s.as_bytes().to_vec());
        assert_eq!(
            said(&mut check),
            [
                out("a: OK\n"),
                out("b\\nc: FAILED\n"),
                out("\\new\\nline: OK\n"),
                out("x: COLLISION\n"),
                error("gone: No such file or directory"),
                out("gone: FAILED open or read\n"),
                error("WARNING: 2 lines are improperly formatted"),
                error("WARNING: 1 listed file could not be read"),
                error("WARNING: 1 computed checksum did NOT match"),
                error("WARNING: 1 listed file is half of a SHA-1 collision"),
            ]
        );
    }

    /// A flagged file is COLLISION whatever its line records; when the
    /// line records neither its output nor its SHA-1, it did not match
    /// either, and the check fails (1 takes precedence over 3).
    #[test]
    fn a_flagged_file_that_does_not_match_its_line_fails() {
        let (abc, safe, other) = (abc(), [7; 20], "1".repeat(40));
        let options = Options::default();
        let mut check = ListCheck::new(&options, b"SUMS");
        for line in [format!("{H}  sha1"), format!("{other}  neither")] {
            check.line(line.as_bytes(), |_| true);
        }
        for i in 0..2 {
            let flagged = hashed(safe, abc, true);
            check.found(i, flagged);
        }
        assert_eq!(check.finish(), (true, true));
        let out = |s: &str| Said::Out(s.as_bytes().to_vec());
        assert_eq!(
            said(&mut check),
            [
                out("sha1: COLLISION\n"),
                out("neither: COLLISION\n"),
                error("WARNING: 1 computed checksum did NOT match"),
                error("WARNING: 2 listed files are halves of SHA-1 collisions"),
            ]
        );
        // Its output recorded, or its SHA-1: a collision only.
        let mut check = ListCheck::new(&options, b"SUMS");
        check.line(format!("{H}  sha1").as_bytes(), |_| true);
        let flagged = hashed(safe, abc, true);
        check.found(0, flagged);
        assert_eq!(check.finish(), (false, true));
    }

    #[test]
    fn a_list_without_a_checksum_fails_and_still_checks_its_files() {
        let abc = abc();
        let options = Options::default();
        let mut check = ListCheck::new(&options, b"-");
        check.line(b"SHA1 (t) = ?", |_| true);
        check.line(b"junk", |_| true);
        check.found(0, hashed(abc, abc, true));
        assert_eq!(check.finish(), (true, true));
        let said = said(&mut check);
        assert_eq!(said[1], Said::Out(b"t: COLLISION\n".to_vec()));
        assert_eq!(
            said[2],
            error("standard input: no properly formatted SHA1 checksum lines found")
        );
    }

    #[test]
    fn quiet_status_strict_and_ignore_missing() {
        let run = |options: Options, found: Found<'_>| {
            let mut check = ListCheck::new(&options, b"L");
            check.line(format!("{H}  a").as_bytes(), |_| true);
            check.line(b"junk", |_| true);
            check.found(0, found);
            let result = check.finish();
            (result, said(&mut check))
        };
        let abc = abc();
        let ok = hashed(abc, abc, false);
        let missing = Found::Failed {
            reason: "No such file or directory",
            missing: true,
        };
        let quiet = Options {
            quiet: true,
            ..Options::default()
        };
        assert_eq!(
            run(quiet, ok),
            (
                (false, false),
                vec![error("WARNING: 1 line is improperly formatted")]
            )
        );
        let status = Options {
            status: true,
            strict: true,
            ..Options::default()
        };
        assert_eq!(run(status, ok), ((true, false), vec![]));
        let ignore = Options {
            ignore_missing: true,
            status: true,
            ..Options::default()
        };
        assert_eq!(
            run(ignore, missing),
            ((true, false), vec![error("L: no file was verified")])
        );
    }
}
