//! What the tests of the command share: running it, reading its output,
//! the reference results of tests/data, and sets of input files.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::kat::{self, Mode};
use crate::common::{SplitMix64, data_dir, text};
use crate::tempdir::TempDir;
use crate::tools::SETPRIV_NOBODY;
pub use crate::tools::require;

pub const BIN: &str = env!("CARGO_BIN_EXE_sha1dcsum");

/// The collision files shipped in tests/data.
pub const COLLIDING: [&str; 6] = [
    "shattered-1.pdf",
    "shattered-2.pdf",
    "shattered-1.prefix320.bin",
    "shattered-2.prefix320.bin",
    "sha-mbles-1.bin",
    "sha-mbles-2.bin",
];

/// Runs the command in tests/data with `args` and, when given, `stdin`.
pub fn run_in<I, S>(dir: &Path, args: I, stdin: Option<&[u8]>) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    let mut child = cmd.spawn().expect("spawn sha1dcsum");
    if let Some(input) = stdin {
        let mut pipe = child.stdin.take().unwrap();
        let input = input.to_vec();
        // Write from a thread so a large input cannot deadlock against stdout.
        let writer = std::thread::spawn(move || pipe.write_all(&input));
        let output = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        return output;
    }
    child.wait_with_output().unwrap()
}

pub fn run<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_in(&data_dir(), args, None)
}

/// Runs the command in `dir` with `flags`, then `names`.
pub fn run_with(dir: &Path, flags: &[&str], names: &[impl AsRef<OsStr>]) -> Output {
    let names = names.iter().map(AsRef::as_ref);
    run_in(dir, flags.iter().map(OsStr::new).chain(names), None)
}

/// Runs the command in `dir` where what has no permission is refused: as
/// this user when it is (`refused`), else (root, which reads anything) as
/// the user `nobody`, by setpriv (util-linux).
pub fn run_refused(dir: &Path, args: &[&str], refused: bool) -> Output {
    if refused {
        return run_in(dir, args, None);
    }
    require("setpriv");
    Command::new("setpriv")
        .args(SETPRIV_NOBODY)
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("setpriv runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally, not by a signal")
}

pub fn code_of(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// MANIFEST.tsv as file name -> row, by column name.
pub fn manifest() -> HashMap<String, HashMap<String, String>> {
    let text = text("MANIFEST.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let row: HashMap<String, String> = header
                .iter()
                .zip(l.split('\t'))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            (row["file"].clone(), row)
        })
        .collect()
}

pub fn field(file: &str, column: &str) -> String {
    let m = manifest();
    let row = m
        .get(file)
        .unwrap_or_else(|| panic!("{file} not in MANIFEST.tsv"));
    row[column].clone()
}

/// TRACE.txt's output for `file` in `mode`.
pub fn trace(file: &str, mode: Mode) -> String {
    let text = text("TRACE.txt");
    let traces = kat::traces(&text);
    let t = traces.iter().find(|t| t.name == file);
    let t = t.unwrap_or_else(|| panic!("{file} not in TRACE.txt"));
    t.output(mode).to_owned()
}

/// The default without the safe hash (`--no-safe-hash`).
pub const PLAIN: Mode = Mode {
    safe_hash: false,
    ..Mode::DEFAULT
};

/// The line the C tool prints.
pub fn line(hex: &str, flagged: bool, name: &str) -> String {
    if flagged {
        format!("{hex} *coll* {name}\n")
    } else {
        format!("{hex}  {name}\n")
    }
}

/// Writes the generated controls of MANIFEST.tsv (`ctrl-*.bin`) to `dir`.
pub fn write_controls(dir: &TempDir) -> Vec<String> {
    let names: Vec<String> = manifest()
        .into_keys()
        .filter(|n| n.starts_with("ctrl-"))
        .collect();
    assert!(names.len() >= 5, "MANIFEST.tsv lists the controls");
    for name in &names {
        dir.write(name, &crate::common::input(name));
    }
    names
}

/// A directory with clean files whose names GNU escapes, one flagged file,
/// and one plain; returns their names.
#[cfg(unix)]
pub fn odd_names(tmp: &TempDir) -> Vec<OsString> {
    use std::os::unix::ffi::OsStringExt;
    let names: Vec<OsString> = [
        &b"plain.txt"[..],
        b"new\nline",
        b"back\\slash",
        b"carriage\rreturn",
        b"both\\n\n",
        b" lead space",
        b"caf\xe9",
    ]
    .iter()
    .map(|n| OsString::from_vec(n.to_vec()))
    .collect();
    for (i, name) in names.iter().enumerate() {
        tmp.write(name, format!("content {i}\n").as_bytes());
    }
    names
}

/// GNU sha1sum run in `dir` with `args`; the test fails without it (see
/// tools.rs).
pub fn gnu_sha1sum<I, S>(dir: &Path, args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    require("gnu-sha1sum");
    Command::new("sha1sum")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sha1sum runs")
}

/// Runs the command in `dir` with the batch of small files on or off
/// (`SHA1DCSUM_BATCH=0`: every file on the streaming path).
pub fn run_batch<I, S>(dir: &Path, args: I, batch: bool) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(BIN);
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    if batch {
        cmd.env_remove("SHA1DCSUM_BATCH");
    } else {
        cmd.env("SHA1DCSUM_BATCH", "0");
    }
    cmd.output().expect("spawn sha1dcsum")
}

/// Many small files of random sizes (empty, around block boundaries, a few
/// KiB), some large ones (past the 256 KiB a group takes, one past the 4 MiB
/// a group holds), and every collision file of tests/data at a random place.
pub fn many_files(tmp: &TempDir, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64(seed);
    let mut names = Vec::new();
    for i in 0..400 {
        let len = match rng.below(20) {
            0 => 0,
            1 => 50 + rng.below(30) as usize,
            2 => 300_000 + rng.below(100_000) as usize,
            _ => rng.below(12_000) as usize,
        };
        let mut data = vec![0u8; if i == 200 { 5 << 20 } else { len }];
        rng.fill(&mut data);
        let name = format!("f{i:03}");
        tmp.write(&name, &data);
        names.push(name);
    }
    for file in COLLIDING.iter().chain(&["sha1_reducedsha_coll.bin"]) {
        fs::copy(data_dir().join(file), tmp.0.join(file)).unwrap();
        let at = rng.below(names.len() as u64 + 1) as usize;
        names.insert(at, file.to_string());
    }
    names
}

pub fn with<'a>(options: &[&'a str], names: &'a [String]) -> Vec<&'a str> {
    options
        .iter()
        .copied()
        .chain(names.iter().map(String::as_str))
        .collect()
}
