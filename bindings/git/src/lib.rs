//! gitverify, the library of `git-sha1dc`, in WebAssembly: the module under
//! the npm package's `sha1dc-wasm/git` and its `git-sha1dc` command.
//!
//! The verification is gitverify's own, on this instance's one thread
//! ([`gitverify::verify_without_threads_in`]): its events reach JavaScript
//! as they happen. What a WebAssembly instance has no system call for,
//! JavaScript does: it answers [`RawFiles`] (what a path is, a directory's
//! entries, bytes of a file at an offset: Node's `fs`, or files held in
//! memory) and takes the events on a [`RawSink`]. The command line, the
//! sources a path names, the lines printed and the JSON document are the
//! Rust command's (gitverify's `command` and `output`).
// Native builds of the workspace compile this crate to nothing.
#![cfg(target_arch = "wasm32")]

use std::io;
use std::path::{Path, PathBuf};

use wasm_bindgen::prelude::*;

use gitverify::command::{self, Args, Parsed, Plan};
use gitverify::{ByteSource, Counts, Event, FileKind, Files, Options, Summary, output};
use sha1dc_wasm::Digest;

#[wasm_bindgen]
extern "C" {
    /// The files, as JavaScript reads them (npm/git-files.mjs). Each
    /// method throws the error's number (`errno`) where the call fails.
    pub type RawFiles;
    /// 0 a regular file, 1 a directory, 2 anything else.
    #[wasm_bindgen(method, catch)]
    fn kind(this: &RawFiles, path: &str) -> Result<u32, JsValue>;
    /// A directory's entry names, each followed by a NUL.
    #[wasm_bindgen(method, catch)]
    fn list(this: &RawFiles, path: &str) -> Result<String, JsValue>;
    /// A regular file's size.
    #[wasm_bindgen(method, catch)]
    fn size(this: &RawFiles, path: &str) -> Result<f64, JsValue>;
    /// Fills `into` with the file's bytes from `at` on (all of them, or it throws).
    #[wasm_bindgen(method, catch, js_name = readAt)]
    fn read_at(this: &RawFiles, path: &str, at: f64, into: &mut [u8]) -> Result<(), JsValue>;
    /// The path absolute, links resolved.
    #[wasm_bindgen(method, catch)]
    fn canonical(this: &RawFiles, path: &str) -> Result<String, JsValue>;

    /// Takes the events of a verification as they happen.
    pub type RawSink;
    /// A file is about to be verified, holding `objects` objects.
    #[wasm_bindgen(method)]
    fn source(this: &RawSink, file: &str, objects: f64);
    /// Objects verified, by kind, and their bytes.
    #[wasm_bindgen(method)]
    fn verified(this: &RawSink, commits: u32, trees: u32, blobs: u32, tags: u32, bytes: f64);
    /// A collision found: the line the command prints, and its JSON object.
    #[wasm_bindgen(method)]
    fn finding(this: &RawSink, line: &str, json: &str);
    /// Damage found: the line the command prints, and its JSON object.
    #[wasm_bindgen(method)]
    fn damage(this: &RawSink, line: &str, json: &str);
}

/// A JavaScript object used from this instance's one thread only.
///
/// gitverify asks `Send` and `Sync` of what it reads and reports to,
/// because natively its workers are threads. This module is built without
/// threads (no shared memory, no atomics) and the verification starts none
/// ([`gitverify::verify_without_threads_in`]), so the value never leaves
/// the thread that made it.
struct OneThread<T>(T);
// SAFETY: see the type's documentation: there is no other thread.
unsafe impl<T> Send for OneThread<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for OneThread<T> {}

/// The text Linux gives an error number (what the Rust command prints for
/// the same failure), for the errors reading a repository meets.
fn os_error(thrown: JsValue) -> io::Error {
    let errno = thrown.as_f64().map_or(0, |n| n as i32);
    let (kind, text) = match errno {
        2 => (io::ErrorKind::NotFound, "No such file or directory"),
        13 => (io::ErrorKind::PermissionDenied, "Permission denied"),
        20 => (io::ErrorKind::NotADirectory, "Not a directory"),
        21 => (io::ErrorKind::IsADirectory, "Is a directory"),
        5 => (io::ErrorKind::Other, "Input/output error"),
        _ => return io::Error::other(format!("error reading (error {errno})")),
    };
    io::Error::new(kind, format!("{text} (os error {errno})"))
}

fn utf8(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// [`RawFiles`] as gitverify's [`Files`].
struct JsFiles(OneThread<RawFiles>);

impl Files for JsFiles {
    fn kind(&self, path: &Path) -> io::Result<FileKind> {
        match self.0.0.kind(&utf8(path)).map_err(os_error)? {
            0 => Ok(FileKind::File),
            1 => Ok(FileKind::Dir),
            _ => Ok(FileKind::Other),
        }
    }

    fn list(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        let names = self.0.0.list(&utf8(path)).map_err(os_error)?;
        Ok(names
            .split_terminator('\0')
            .map(|name| path.join(name))
            .collect())
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn ByteSource>> {
        let name = utf8(path);
        let len = self.0.0.size(&name).map_err(os_error)? as u64;
        let files = OneThread(self.0.0.clone().unchecked_into::<RawFiles>());
        Ok(Box::new(JsFile { files, name, len }))
    }

    fn canonical(&self, path: &Path) -> io::Result<PathBuf> {
        let c = self.0.0.canonical(&utf8(path)).map_err(os_error)?;
        Ok(PathBuf::from(c))
    }
}

/// One file of [`RawFiles`], read by position.
struct JsFile {
    files: OneThread<RawFiles>,
    name: String,
    len: u64,
}

impl ByteSource for JsFile {
    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        let end = at.checked_add(buf.len() as u64);
        if end.is_none_or(|end| end > self.len) {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        self.files
            .0
            .read_at(&self.name, at as f64, buf)
            .map_err(os_error)
    }
}

/// A finding or damage as reported: the place it sorts by (gitverify's
/// `Order`, as `Summary::sort` orders them) and its JSON object.
struct Reported {
    order: gitverify::Order,
    json: String,
}

/// What a run found, from this instance and from the instances that
/// shared its work (their events passed on by JavaScript).
#[derive(Default)]
struct Tally {
    counts: Counts,
    files: u64,
    findings: Vec<Reported>,
    damage: Vec<Reported>,
}

impl Tally {
    fn sort(&mut self) {
        self.findings.sort_by(|a, b| a.order.cmp(&b.order));
        self.damage.sort_by(|a, b| a.order.cmp(&b.order));
    }
}

/// [`RawSink`] as gitverify's sink; keeps the tally too.
struct JsSink<'a> {
    sink: OneThread<&'a RawSink>,
    tally: &'a mut Tally,
}

impl gitverify::Sink for JsSink<'_> {
    fn event(&mut self, event: &Event) {
        let sink = self.sink.0;
        match event {
            Event::Source { file, objects } => {
                self.tally.files += 1;
                sink.source(&utf8(file), *objects as f64)
            }
            Event::Verified(v) => {
                let mut counts = Counts::default();
                v.iter().for_each(|o| counts.add(o.kind));
                let bytes: u64 = v.iter().map(|o| o.size).sum();
                self.tally.counts.add_all(&counts);
                let n = |k: u64| k as u32;
                let (c, t) = (n(counts.commits), n(counts.trees));
                sink.verified(c, t, n(counts.blobs), n(counts.tags), bytes as f64)
            }
            Event::Finding(f) => {
                let json = output::finding_json(f);
                sink.finding(&output::finding_line(f), &json);
                let order = f.order();
                self.tally.findings.push(Reported { order, json });
            }
            Event::Damage(d) => {
                let json = output::damage_json(d);
                sink.damage(&format!("damage: {d}"), &json);
                let order = d.order();
                self.tally.damage.push(Reported { order, json });
            }
        }
    }
}

fn offset(n: Option<f64>) -> Option<u64> {
    n.map(|n| n as u64)
}

fn digest(hex: &str) -> Option<Digest> {
    hex.parse().ok()
}

/// One run of `git-sha1dc`: its command line, the sources it names, what
/// it found.
#[wasm_bindgen]
pub struct RawGitRun {
    args: Args,
    /// For a command line that ends before verifying: its exit status and
    /// what to print (standard output for status 0, else standard error).
    ends: Option<(u8, String)>,
    plan: Plan,
    tally: Tally,
}

#[wasm_bindgen]
impl RawGitRun {
    /// Parses `git-sha1dc`'s arguments (without the program's name);
    /// `version` is the package's.
    #[wasm_bindgen(constructor)]
    pub fn new(args: Vec<String>, version: &str) -> RawGitRun {
        let (args, ends) = match command::parse(args.into_iter().map(Into::into)) {
            Ok(Parsed::Run(a)) => (a, None),
            Ok(Parsed::Help) => (Args::default(), Some((0, command::USAGE.to_string()))),
            Ok(Parsed::Version) => (
                Args::default(),
                Some((0, format!("git-sha1dc {version}\n"))),
            ),
            Err(e) => {
                let text = format!("git-sha1dc: {e}\n\n{}\n", command::USAGE);
                (Args::default(), Some((2, text)))
            }
        };
        RawGitRun {
            args,
            ends,
            plan: Plan::default(),
            tally: Tally::default(),
        }
    }

    /// The exit status of a command line that ends before verifying.
    #[wasm_bindgen(getter, js_name = endsWith)]
    pub fn ends_with(&self) -> Option<u8> {
        self.ends.as_ref().map(|(status, _)| *status)
    }

    /// What such a command line prints.
    #[wasm_bindgen(getter, js_name = endText)]
    pub fn end_text(&self) -> Option<String> {
        self.ends.as_ref().map(|(_, text)| text.clone())
    }

    /// `--json`.
    #[wasm_bindgen(getter)]
    pub fn json(&self) -> bool {
        self.args.json
    }

    /// `--quiet`.
    #[wasm_bindgen(getter)]
    pub fn quiet(&self) -> bool {
        self.args.quiet
    }

    /// `-j N`, or 0 where not given.
    #[wasm_bindgen(getter)]
    pub fn jobs(&self) -> u32 {
        self.args
            .jobs
            .map_or(0, |j| j.min(u32::MAX as usize) as u32)
    }

    /// Finds the sources the paths name (or, with none, the repository at
    /// `cwd`, with `$GIT_DIR` and `$GIT_OBJECT_DIRECTORY`). Returns the
    /// lines to print before verifying, each ended by a newline: why a
    /// path names nothing verifiable, and (unless quiet) the alternates
    /// not verified.
    pub fn plan(
        &mut self,
        files: RawFiles,
        cwd: &str,
        git_dir: Option<String>,
        object_directory: Option<String>,
    ) -> String {
        let files = JsFiles(OneThread(files));
        let plan = command::plan(
            &files,
            &self.args.paths,
            Path::new(cwd),
            git_dir.as_deref().map(std::ffi::OsStr::new),
            object_directory.as_deref().map(std::ffi::OsStr::new),
        );
        let mut lines = String::new();
        for d in &plan.unreadable {
            lines += &format!("git-sha1dc: {}\n", d.problem);
        }
        for alternate in plan.alternates.iter().filter(|_| !self.args.quiet) {
            lines += &format!("git-sha1dc: {}\n", output::alternate_note(alternate));
        }
        for d in &plan.unreadable {
            let order = d.order();
            let json = output::damage_json(d);
            self.tally.damage.push(Reported { order, json });
        }
        self.plan = plan;
        lines
    }

    /// How many sources the plan holds.
    #[wasm_bindgen(getter)]
    pub fn sources(&self) -> u32 {
        self.plan.sources.len() as u32
    }

    /// Verifies part `part` (from 0) of `parts` of the sources planned
    /// (gitverify's `verify_part_without_threads_in`: several instances,
    /// one a worker, share the work), reporting each event to `sink` as it
    /// happens. `gather`: gitverify's `Options::gather`, the bytes of
    /// entries read ahead of the walk where each read costs much (0: none).
    pub fn verify(&mut self, files: RawFiles, sink: &RawSink, part: u32, parts: u32, gather: u32) {
        let files = JsFiles(OneThread(files));
        let options = Options {
            threads: 1,
            content: self.args.content,
            gather: gather as usize,
            ..Options::default()
        };
        let mut sink = JsSink {
            sink: OneThread(sink),
            tally: &mut self.tally,
        };
        let share = (part as usize, parts.max(1) as usize);
        let sources = &self.plan.sources;
        gitverify::verify_part_without_threads_in(&files, sources, &options, share, &mut sink);
    }

    /// A file another instance began verifying (its `source` event).
    #[wasm_bindgen(js_name = addSource)]
    pub fn add_source(&mut self) {
        self.tally.files += 1;
    }

    /// Objects another instance verified (its `verified` event).
    #[wasm_bindgen(js_name = addVerified)]
    pub fn add_verified(&mut self, commits: u32, trees: u32, blobs: u32, tags: u32) {
        let more = Counts {
            commits: commits.into(),
            trees: trees.into(),
            blobs: blobs.into(),
            tags: tags.into(),
        };
        self.tally.counts.add_all(&more);
    }

    /// A finding another instance reported: its JSON object and the
    /// object's fields it sorts by.
    #[wasm_bindgen(js_name = addFinding)]
    pub fn add_finding(
        &mut self,
        json: String,
        file: &str,
        pack_offset: Option<f64>,
        id: &str,
        check: &str,
    ) {
        let order = (
            PathBuf::from(file),
            offset(pack_offset),
            digest(id),
            check.into(),
        );
        self.tally.findings.push(Reported { order, json });
    }

    /// Damage another instance reported: its JSON object and the fields
    /// it sorts by.
    #[wasm_bindgen(js_name = addDamage)]
    pub fn add_damage(
        &mut self,
        json: String,
        file: &str,
        at: Option<f64>,
        id: Option<String>,
        message: &str,
    ) {
        let id = id.as_deref().and_then(digest);
        let order = (PathBuf::from(file), offset(at), id, message.into());
        self.tally.damage.push(Reported { order, json });
    }

    /// The summary line the command prints last.
    #[wasm_bindgen(js_name = summaryLine)]
    pub fn summary_line(&self) -> String {
        let t = &self.tally;
        output::summary_line_of(&t.counts, t.files, t.findings.len(), t.damage.len())
    }

    /// The hint printed after the summary when there are findings.
    #[wasm_bindgen(js_name = findObjectHint)]
    pub fn find_object_hint() -> String {
        output::FIND_OBJECT_HINT.to_string()
    }

    /// The JSON document of `--json`.
    #[wasm_bindgen(js_name = jsonDocument)]
    pub fn json_document(&mut self) -> String {
        self.tally.sort();
        let t = &self.tally;
        let findings: Vec<String> = t.findings.iter().map(|r| r.json.clone()).collect();
        let damage: Vec<String> = t.damage.iter().map(|r| r.json.clone()).collect();
        let (alternates, content) = (&self.plan.alternates, self.args.content);
        output::json_document(&t.counts, t.files, &findings, &damage, alternates, content)
    }

    /// Collisions found so far.
    #[wasm_bindgen(getter)]
    pub fn findings(&self) -> u32 {
        self.tally.findings.len() as u32
    }

    /// The exit status: 3 a collision, 1 damage alone, 0 clean.
    #[wasm_bindgen(js_name = exitCode)]
    pub fn exit_code(&self) -> i32 {
        Summary::exit_code_of(self.tally.findings.len(), self.tally.damage.len())
    }
}
