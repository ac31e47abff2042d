//! Integration tests of the `sha1dcsum` command: output format, options and
//! exit statuses, against the reference results in tests/data.
// The command is native only.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::kat::{self, Mode};
use common::{SplitMix64, data_dir, text, tsv};
use sha1dc_wasm::Hasher;

const BIN: &str = env!("CARGO_BIN_EXE_sha1dcsum");

/// The collision files shipped in tests/data.
const COLLIDING: [&str; 6] = [
    "shattered-1.pdf",
    "shattered-2.pdf",
    "shattered-1.prefix320.bin",
    "shattered-2.prefix320.bin",
    "sha-mbles-1.bin",
    "sha-mbles-2.bin",
];

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("sha1dcsum-cli-{}-{tag}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    fn write(&self, name: impl AsRef<Path>, content: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        fs::write(&path, content).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Runs the command in tests/data with `args` and, when given, `stdin`.
fn run_in<I, S>(dir: &Path, args: I, stdin: Option<&[u8]>) -> Output
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

fn run<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_in(&data_dir(), args, None)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally, not by a signal")
}

/// MANIFEST.tsv as file name -> row, by column name.
fn manifest() -> HashMap<String, HashMap<String, String>> {
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

fn field(file: &str, column: &str) -> String {
    let m = manifest();
    let row = m
        .get(file)
        .unwrap_or_else(|| panic!("{file} not in MANIFEST.tsv"));
    row[column].clone()
}

/// TRACE.txt's output for `file` in `mode`.
fn trace(file: &str, mode: Mode) -> String {
    let text = text("TRACE.txt");
    let traces = kat::traces(&text);
    let t = traces.iter().find(|t| t.name == file);
    let t = t.unwrap_or_else(|| panic!("{file} not in TRACE.txt"));
    t.output(mode).to_owned()
}

/// The default without the safe hash (`--no-safe-hash`).
const PLAIN: Mode = Mode {
    safe_hash: false,
    ..Mode::DEFAULT
};

/// The line the C tool prints.
fn line(hex: &str, flagged: bool, name: &str) -> String {
    if flagged {
        format!("{hex} *coll* {name}\n")
    } else {
        format!("{hex}  {name}\n")
    }
}

/// Writes the generated controls of MANIFEST.tsv (`ctrl-*.bin`) to `dir`.
fn write_controls(dir: &TempDir) -> Vec<String> {
    let names: Vec<String> = manifest()
        .into_keys()
        .filter(|n| n.starts_with("ctrl-"))
        .collect();
    assert!(names.len() >= 5, "MANIFEST.tsv lists the controls");
    for name in &names {
        dir.write(name, &common::input(name));
    }
    names
}

#[test]
fn every_manifest_file_default_mode() {
    let tmp = TempDir::new("manifest");
    let mut names: Vec<String> = manifest().into_keys().collect();
    names.sort();
    for name in &names {
        if !name.starts_with("ctrl-") {
            fs::copy(data_dir().join(name), tmp.0.join(name)).unwrap();
        }
    }
    write_controls(&tmp);
    let o = run_in(&tmp.0, &names, None);
    let mut expected = String::new();
    for name in &names {
        let flagged = field(name, "collision_detected") == "yes";
        expected += &line(&field(name, "sha1dc_output_hex"), flagged, name);
    }
    assert_eq!(stdout(&o), expected);
    assert_eq!(stderr(&o), "");
    assert_eq!(code(&o), 3, "collisions among the inputs");
}

#[test]
fn clean_files_exit_0_with_two_spaces() {
    let tmp = TempDir::new("clean");
    let names = write_controls(&tmp);
    let o = run_in(&tmp.0, &names, None);
    let expected: String = names
        .iter()
        .map(|n| line(&field(n, "sha1dc_output_hex"), false, n))
        .collect();
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 0);
    // The reduced-round example is not flagged in the default mode.
    let o = run(["sha1_reducedsha_coll.bin"]);
    assert_eq!(
        stdout(&o),
        "a56374e1cf4c3746499bc7c0acb39498ad2ee185  sha1_reducedsha_coll.bin\n"
    );
    assert_eq!(code(&o), 0);
}

#[test]
fn collisions_are_marked_and_exit_3() {
    for name in COLLIDING {
        let o = run([name]);
        let hex = field(name, "sha1dc_output_hex");
        assert_eq!(stdout(&o), format!("{hex} *coll* {name}\n"));
        assert_eq!(stderr(&o), "");
        assert_eq!(code(&o), 3, "{name}");
    }
    // Known values, not only the TSV: the SHAttered pair differ once flagged.
    let o = run(["shattered-1.pdf", "shattered-2.pdf"]);
    assert_eq!(
        stdout(&o),
        "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* shattered-1.pdf\n\
         e1761773e6a35916d99f891b77663e6405313587 *coll* shattered-2.pdf\n"
    );
}

#[test]
fn path_is_printed_as_given() {
    let path = data_dir().join("sha-mbles-2.bin");
    let o = run([&path]);
    assert_eq!(
        stdout(&o),
        format!(
            "9ed5d77a4f48be1dbf3e9e15650733eb850897f2 *coll* {}\n",
            path.display()
        )
    );
}

#[test]
fn no_safe_hash_prints_plain_sha1_still_marked() {
    let names: Vec<&str> = COLLIDING.to_vec();
    let o = run(std::iter::once("--no-safe-hash").chain(names.iter().copied()));
    let expected: String = names
        .iter()
        .map(|n| {
            let hex = trace(n, PLAIN);
            assert_eq!(hex, field(n, "sha1_plain_hex"));
            line(&hex, true, n)
        })
        .collect();
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 3);
}

#[test]
fn reduced_round_matches_manifest_and_trace() {
    let mut names: Vec<&str> = COLLIDING.to_vec();
    names.push("sha1_reducedsha_coll.bin");
    let o = run(std::iter::once("--reduced-round").chain(names.iter().copied()));
    let expected: String = names
        .iter()
        .map(|n| {
            let hex = field(n, "sha1dc_partialcoll_output_hex");
            assert_eq!(hex, trace(n, Mode::REDUCED_ROUND));
            line(
                &hex,
                field(n, "reduced_round_collision_detected") == "yes",
                n,
            )
        })
        .collect();
    assert_eq!(stdout(&o), expected);
    assert!(stdout(&o).starts_with("d3a1d09969c3b57113fd17b23e01dd3de74a99bb *coll* "));
    assert_eq!(code(&o), 3);

    // Both options: the plain SHA-1, flagged.
    let o = run([
        "--reduced-round",
        "--no-safe-hash",
        "sha1_reducedsha_coll.bin",
    ]);
    let plain_rr = Mode {
        reduced_round: true,
        ..PLAIN
    };
    let hex = trace("sha1_reducedsha_coll.bin", plain_rr);
    assert_eq!(hex, "a56374e1cf4c3746499bc7c0acb39498ad2ee185");
    assert_eq!(stdout(&o), line(&hex, true, "sha1_reducedsha_coll.bin"));
    assert_eq!(code(&o), 3);
}

#[test]
fn stdin_without_arguments_and_with_dash() {
    let pdf = fs::read(data_dir().join("shattered-1.pdf")).unwrap();
    let expected = "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* -\n";
    let none: [&str; 0] = [];
    let o = run_in(&data_dir(), none, Some(&pdf));
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 3);
    let o = run_in(&data_dir(), ["-"], Some(&pdf));
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 3);

    // Mixed with files, in order.
    let o = run_in(&data_dir(), ["sha-mbles-1.bin", "-"], Some(b"abc"));
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\n\
         a9993e364706816aba3e25717850c26c9cd0d89d  -\n"
    );
    assert_eq!(code(&o), 3);
}

#[test]
fn empty_inputs() {
    let tmp = TempDir::new("empty");
    tmp.write("empty", b"");
    let o = run_in(&tmp.0, ["empty"], None);
    assert_eq!(
        stdout(&o),
        "da39a3ee5e6b4b0d3255bfef95601890afd80709  empty\n"
    );
    assert_eq!(code(&o), 0);
    let o = run_in(&tmp.0, ["-"], Some(b""));
    assert_eq!(stdout(&o), "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n");
    assert_eq!(code(&o), 0);
    // stdin at end of file from the start (/dev/null).
    let o = run([] as [&str; 0]);
    assert_eq!(stdout(&o), "da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n");
    assert_eq!(code(&o), 0);
}

#[test]
fn missing_file_exit_1() {
    let o = run(["no-such-file.bin"]);
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: no-such-file.bin: No such file or directory\n"
    );
    assert_eq!(code(&o), 1);
}

#[test]
fn directory_exit_1() {
    let o = run(["."]);
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "sha1dcsum: .: Is a directory\n");
    assert_eq!(code(&o), 1);
}

/// An input that opens but cannot be read. The tests run as root, where
/// `chmod 000` does not stop reading, so it cannot be the only test; a FIFO
/// would block rather than fail. /proc/self/mem is a file any process may
/// open for itself, whose first read (at offset 0, never mapped) fails with
/// EIO: a real read error from the kernel, for root as for anyone.
#[cfg(target_os = "linux")]
#[test]
fn read_error_exit_1() {
    let o = run(["/proc/self/mem"]);
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: /proc/self/mem: Input/output error\n"
    );
    assert_eq!(code(&o), 1);
}

/// "Permission denied" with `chmod 000`: directly when not root; as root only
/// by dropping to `nobody` with setpriv (util-linux), when it is installed.
#[cfg(target_os = "linux")]
#[test]
fn unreadable_file_permission_denied() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("perm");
    fs::set_permissions(&tmp.0, fs::Permissions::from_mode(0o755)).unwrap();
    let path = tmp.write("secret", b"abc");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap();
    let o = if fs::read(&path).is_err() {
        run_in(&tmp.0, ["secret"], None)
    } else {
        // Privileged: only another user is refused.
        let dropped = Command::new("setpriv")
            .args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                BIN,
                "secret",
            ])
            .current_dir(&tmp.0)
            .output();
        match dropped {
            Ok(o) if !String::from_utf8_lossy(&o.stderr).starts_with("setpriv") => o,
            _ => {
                eprintln!("skipped: root without a usable setpriv (see read_error_exit_1)");
                return;
            }
        }
    };
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "sha1dcsum: secret: Permission denied\n");
    assert_eq!(code(&o), 1);
}

#[test]
fn one_failing_among_several_others_still_printed_and_1_wins_over_3() {
    let o = run([
        "sha-mbles-1.bin",
        "missing",
        ".",
        "sha1_reducedsha_coll.bin",
    ]);
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\n\
         a56374e1cf4c3746499bc7c0acb39498ad2ee185  sha1_reducedsha_coll.bin\n"
    );
    assert_eq!(
        stderr(&o),
        "sha1dcsum: missing: No such file or directory\nsha1dcsum: .: Is a directory\n"
    );
    assert_eq!(code(&o), 1);
}

/// DERIVED.tsv rows as (file, expected git blob id).
fn derived() -> Vec<(String, String)> {
    tsv("DERIVED.tsv")
        .into_iter()
        .map(|row| {
            let file = row[0].rsplit("+ ").next().unwrap().to_string();
            assert_eq!(row[3], "no", "the blob header misaligns the collision");
            (file, row[4].clone())
        })
        .collect()
}

fn git_available() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn git_hash_object(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> String {
    let mut child = Command::new("git")
        .arg("hash-object")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or_default()).unwrap();
    drop(pipe);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn git_blob_matches_derived_tsv() {
    let rows = derived();
    assert_eq!(rows.len(), 5);
    let names: Vec<&str> = rows.iter().map(|(f, _)| f.as_str()).collect();
    let o = run(std::iter::once("--git-blob").chain(names.iter().copied()));
    let expected: String = rows.iter().map(|(f, id)| line(id, false, f)).collect();
    assert_eq!(stdout(&o), expected);
    assert_eq!(code(&o), 0);
    // From standard input (read whole first) the same ids.
    for (file, id) in &rows {
        let content = fs::read(data_dir().join(file)).unwrap();
        let o = run_in(&data_dir(), ["--git-blob"], Some(&content));
        assert_eq!(stdout(&o), line(id, false, "-"));
    }
}

#[test]
fn git_blob_matches_git_hash_object() {
    if !git_available() {
        eprintln!("skipped: git is not on PATH");
        return;
    }
    let tmp = TempDir::new("git");
    let mut rng = SplitMix64(7);
    let mut random = vec![0u8; 300_001];
    rng.fill(&mut random);
    let files: [(&str, &[u8]); 4] = [
        ("empty", b""),
        ("abc", b"abc"),
        ("text", b"hello\nworld\n"),
        ("random", &random),
    ];
    for (name, content) in files {
        tmp.write(name, content);
        let o = run_in(&tmp.0, ["--git-blob", name], None);
        let git = git_hash_object(&tmp.0, &[name], None);
        assert_eq!(stdout(&o), format!("{git}  {name}\n"));
        let o = run_in(&tmp.0, ["--git-blob", "-"], Some(content));
        let git_stdin = git_hash_object(&tmp.0, &["--stdin"], Some(content));
        assert_eq!(git_stdin, git);
        assert_eq!(stdout(&o), format!("{git}  -\n"));
    }
    for file in COLLIDING {
        let o = run(["--git-blob", file]);
        let git = git_hash_object(&data_dir(), &["--no-filters", file], None);
        assert_eq!(stdout(&o), format!("{git}  {file}\n"));
        assert_eq!(code(&o), 0);
    }
}

#[test]
fn json_lines_exact() {
    let o = run_in(
        &data_dir(),
        ["--json", "shattered-1.pdf", "-", "sha1_reducedsha_coll.bin"],
        Some(b"abc"),
    );
    assert_eq!(
        stdout(&o),
        concat!(
            r#"{"file":"shattered-1.pdf","sha1":"38762cf7f55934b34d179ae6a4c80cadccbb7f0a","#,
            r#""output":"16e96b70000dd1e7c85b8368ee197754400e58ec","#,
            r#""collision":{"offset":256,"block":4,"dv":"II(52,0)","count":1}}"#,
            "\n",
            r#"{"file":"-","sha1":"a9993e364706816aba3e25717850c26c9cd0d89d","#,
            r#""output":"a9993e364706816aba3e25717850c26c9cd0d89d","collision":null}"#,
            "\n",
            r#"{"file":"sha1_reducedsha_coll.bin","sha1":"a56374e1cf4c3746499bc7c0acb39498ad2ee185","#,
            r#""output":"a56374e1cf4c3746499bc7c0acb39498ad2ee185","collision":null}"#,
            "\n",
        )
    );
    assert_eq!(code(&o), 3);

    let o = run([
        "--json",
        "--reduced-round",
        "sha-mbles-2.bin",
        "sha1_reducedsha_coll.bin",
    ]);
    assert_eq!(
        stdout(&o),
        concat!(
            r#"{"file":"sha-mbles-2.bin","sha1":"8ac60ba76f1999a1ab70223f225aefdc78d4ddc0","#,
            r#""output":"9ed5d77a4f48be1dbf3e9e15650733eb850897f2","#,
            r#""collision":{"offset":576,"block":9,"dv":"II(52,0)","count":1}}"#,
            "\n",
            r#"{"file":"sha1_reducedsha_coll.bin","sha1":"a56374e1cf4c3746499bc7c0acb39498ad2ee185","#,
            r#""output":"dd39885a2a5d8f59030b451e00cb45da9f9d3828","#,
            r#""collision":{"offset":64,"block":1,"dv":"II(52,0)","count":1}}"#,
            "\n",
        )
    );
}

#[test]
fn json_failed_input_prints_nothing() {
    let o = run(["--json", "missing", "sha-mbles-1.bin"]);
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(stdout(&o).starts_with(r#"{"file":"sha-mbles-1.bin","#));
    assert_eq!(code(&o), 1);
}

#[cfg(unix)]
#[test]
fn odd_file_names_json_escaped_and_exact() {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let tmp = TempDir::new("names");
    let tricky = "q\"b\\s\nn\tt\u{1}é";
    tmp.write(tricky, b"abc");
    let latin1 = OsString::from_vec(b"caf\xe9".to_vec());
    tmp.write(&latin1, b"abc");

    let o = run_in(
        &tmp.0,
        [OsStr::new("--json"), OsStr::new(tricky), &latin1],
        None,
    );
    let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"file\":\"q\\\"b\\\\s\\nn\\tt\\u0001é\",\"sha1\":\"{abc}\",\"output\":\"{abc}\",\"collision\":null}}\n\
             {{\"file\":\"caf\u{fffd}\",\"file_bytes\":\"636166e9\",\"sha1\":\"{abc}\",\"output\":\"{abc}\",\"collision\":null}}\n"
        )
    );
    assert_eq!(code(&o), 0);

    // Text mode prints the name's bytes as they are (nothing to escape).
    let o = run_in(&tmp.0, [&latin1], None);
    let mut expected = format!("{abc}  ").into_bytes();
    expected.extend_from_slice(latin1.as_bytes());
    expected.push(b'\n');
    assert_eq!(o.stdout, expected);
}

#[test]
fn backends_list_and_forcing() {
    let o = run(["--backends"]);
    assert_eq!(code(&o), 0);
    let listed: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let library: Vec<&str> = sha1dc_wasm::available_backends().collect();
    assert_eq!(listed, library, "fastest first, as the library lists them");
    assert_eq!(listed.last().map(String::as_str), Some("portable"));

    // Every listed backend gives the reference results.
    let expected = "16e96b70000dd1e7c85b8368ee197754400e58ec *coll* shattered-1.pdf\n\
                    a56374e1cf4c3746499bc7c0acb39498ad2ee185  sha1_reducedsha_coll.bin\n";
    for name in &listed {
        let o = run([
            "--backend",
            name,
            "shattered-1.pdf",
            "sha1_reducedsha_coll.bin",
        ]);
        assert_eq!(stdout(&o), expected, "backend {name}");
        assert_eq!(code(&o), 3);
    }
    let o = run(["--backend=portable", "sha-mbles-1.bin"]);
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\n"
    );
}

#[test]
fn unknown_backend_exit_2_names_the_available_ones() {
    let available: Vec<&str> = sha1dc_wasm::available_backends().collect();
    let o = run(["--backend", "bogus", "sha-mbles-1.bin"]);
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "", "nothing hashed");
    assert_eq!(
        stderr(&o),
        format!(
            "sha1dcsum: backend 'bogus' is unknown; available backends: {}\n",
            available.join(", ")
        )
    );
    let o = run(["sha-mbles-1.bin", "--backend"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("option '--backend' requires an argument"),
        "{}",
        stderr(&o)
    );

    // The library's own override variable fails the same way, without a panic.
    let o = Command::new(BIN)
        .arg("sha-mbles-1.bin")
        .current_dir(data_dir())
        .env("SHA1DC_BACKEND", "bogus")
        .output()
        .unwrap();
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).starts_with("sha1dcsum: SHA1DC_BACKEND 'bogus' is unknown"));
}

/// A backend of another architecture exists in the library but not here: on
/// x86-64 an aarch64 name is unknown, never a crash.
#[cfg(target_arch = "x86_64")]
#[test]
fn foreign_backend_exit_2() {
    let o = run(["--backend", "neon", "sha-mbles-1.bin"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("available backends: "));
    assert!(stderr(&o).trim_end().ends_with("portable"));
}

#[test]
fn unknown_option_exit_2_with_usage() {
    for (bad, says) in [
        ("--bogus", "unrecognized option '--bogus'"),
        ("-x", "invalid option -- 'x'"),
        ("--json=1", "option '--json' doesn't allow an argument"),
        (
            "--quiet",
            "the --quiet option is meaningful only when verifying checksums",
        ),
        ("-j0", "invalid number of jobs: '0'"),
    ] {
        let o = run([bad, "sha-mbles-1.bin"]);
        assert_eq!(code(&o), 2, "{bad}");
        assert_eq!(stdout(&o), "");
        let err = stderr(&o);
        assert!(err.starts_with("sha1dcsum: "), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(
            err.contains("Usage: sha1dcsum [OPTIONS] [FILE|-]..."),
            "{err}"
        );
    }
}

#[test]
fn double_dash_ends_options() {
    let o = run(["--", "--json"]);
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "sha1dcsum: --json: No such file or directory\n");
    assert_eq!(code(&o), 1);

    let tmp = TempDir::new("dashdash");
    tmp.write("--json", b"abc");
    let o = run_in(&tmp.0, ["--", "--json", "-"], Some(b""));
    assert_eq!(
        stdout(&o),
        "a9993e364706816aba3e25717850c26c9cd0d89d  --json\n\
         da39a3ee5e6b4b0d3255bfef95601890afd80709  -\n"
    );
    assert_eq!(code(&o), 0);
}

#[test]
fn help_and_version() {
    for flag in ["-h", "--help"] {
        let o = run([flag, "--bogus"]);
        assert_eq!(code(&o), 0);
        let help = stdout(&o);
        assert!(help.starts_with("Usage: sha1dcsum [OPTIONS] [FILE|-]...\n"));
        for needle in [
            "--reduced-round",
            "--no-safe-hash",
            "--git-blob",
            "into memory",
            "--json",
            "--backend NAME",
            "--backends",
            "--version",
            "--check",
            "--ignore-missing",
            "--quiet",
            "--status",
            "--strict",
            "--warn",
            "--tag",
            "--zero",
            "--binary",
            "--text",
            "--jobs N",
            "file_bytes",
            "COLLISION",
            "141",
            "Exit status",
            "  0 ",
            "  1 ",
            "  2 ",
            "  3 ",
        ] {
            assert!(help.contains(needle), "help lacks {needle:?}");
        }
    }
    let o = run(["--version"]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        format!("sha1dcsum {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// A file larger than any buffer: a SHAttered prefix (so the big file is
/// flagged at byte 256), then 72 MiB + 13 bytes of SplitMix64 output. The
/// expected result is the library's, fed in odd-sized chunks as it is written.
#[test]
fn large_file_streams_like_the_library() {
    let tmp = TempDir::new("large");
    let path = tmp.0.join("large.bin");
    let mut file = std::io::BufWriter::new(fs::File::create(&path).unwrap());
    let mut hasher = Hasher::new();
    let prefix = fs::read(data_dir().join("shattered-1.prefix320.bin")).unwrap();
    file.write_all(&prefix).unwrap();
    hasher.update(&prefix);
    let mut rng = SplitMix64(0x5eed);
    let mut chunk = vec![0u8; (1 << 20) + 13];
    let mut len = prefix.len() as u64;
    for _ in 0..72 {
        rng.fill(&mut chunk);
        file.write_all(&chunk).unwrap();
        hasher.update(&chunk);
        len += chunk.len() as u64;
    }
    drop(file);
    assert_eq!(fs::metadata(&path).unwrap().len(), len);
    let outcome = hasher.finalize();
    let c = outcome
        .collision()
        .expect("the SHAttered prefix is detected");
    assert_eq!(c.offset(), 256);

    let o = run_in(&tmp.0, ["large.bin", "--json"], None);
    assert_eq!(
        stdout(&o),
        format!(
            "{{\"file\":\"large.bin\",\"sha1\":\"{}\",\"output\":\"{}\",\"collision\":{{\"offset\":256,\"block\":4,\"dv\":\"II(52,0)\",\"count\":{}}}}}\n",
            outcome.sha1(),
            outcome.digest(),
            c.count()
        )
    );
    assert_eq!(code(&o), 3);
}

/// Memory stays constant on a long stream: feed 96 MiB through a pipe and
/// look at the process's peak resident size while it still runs.
#[cfg(target_os = "linux")]
#[test]
fn stdin_stream_in_constant_memory() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let mut hasher = Hasher::new();
    let mut rng = SplitMix64(99);
    let mut chunk = vec![0u8; 1 << 20];
    for _ in 0..96 {
        rng.fill(&mut chunk);
        pipe.write_all(&chunk).unwrap();
        hasher.update(&chunk);
    }
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    drop(pipe);
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    let o = child.wait_with_output().unwrap();
    assert_eq!(stdout(&o), format!("{}  -\n", hasher.finalize().digest()));
    assert_eq!(code(&o), 0);
    assert!(peak_kib < 24 * 1024, "peak RSS {peak_kib} KiB after 96 MiB");
}

/// The reader of our output goes away: end quietly with the status of a
/// process killed by SIGPIPE (141), as `sha1sum a b | head -1` does, with
/// nothing on standard error; whatever the number of threads.
#[cfg(unix)]
#[test]
fn broken_pipe_exits_quietly_like_sigpipe() {
    let args = vec!["sha-mbles-1.bin"; 20_000];
    for jobs in ["-j1", "-j4"] {
        let mut child = Command::new(BIN)
            .arg(jobs)
            .args(&args)
            .current_dir(data_dir())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        out.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"4f3d9be4a4");
        drop(out);
        let o = child.wait_with_output().unwrap();
        assert_eq!(stderr(&o), "", "{jobs}");
        assert_eq!(code(&o), 141, "{jobs}");
    }
}

/// The same through a shell pipeline, the way users meet it: with
/// `pipefail`, the status is SIGPIPE's, as for `sha1sum`, and nothing is
/// printed.
#[cfg(unix)]
#[test]
fn head_of_many_files_in_a_shell_pipeline() {
    if Command::new("bash").arg("-c").arg("true").status().is_err() {
        eprintln!("SKIPPED: no bash");
        return;
    }
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{BIN}' $(yes sha-mbles-1.bin | head -n 20000) | head -1; echo \"status $?\""
        ))
        .current_dir(data_dir())
        .output()
        .unwrap();
    assert_eq!(
        stdout(&o),
        "4f3d9be4a472c4dae83c6314aa6c36a064c1fd14 *coll* sha-mbles-1.bin\nstatus 141\n"
    );
    assert_eq!(stderr(&o), "");
}

/// Any other write error is reported.
#[cfg(target_os = "linux")]
#[test]
fn full_disk_on_stdout_exit_1() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = Command::new(BIN)
        .arg("sha-mbles-1.bin")
        .current_dir(data_dir())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(
        stderr(&o),
        "sha1dcsum: standard output: No space left on device\n"
    );
    assert_eq!(code(&o), 1);
}

/// A directory with clean files whose names GNU escapes, one flagged file,
/// and one plain; returns their names.
#[cfg(unix)]
fn odd_names(tmp: &TempDir) -> Vec<OsString> {
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

fn gnu_sha1sum() -> bool {
    let ok = Command::new("sha1sum")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success() && stdout(&o).contains("GNU coreutils"));
    if !ok {
        eprintln!("SKIPPED: no GNU sha1sum to compare with");
    }
    ok
}

/// For files nothing flags, the output is GNU sha1sum's byte for byte, in
/// every style: escaped names, -b, --tag, -z.
#[cfg(unix)]
#[test]
fn unflagged_output_is_gnu_sha1sums() {
    let tmp = TempDir::new("gnu");
    let names = odd_names(&tmp);
    // What GNU coreutils 9 prints (independent of an installed sha1sum).
    let o = run_in(&tmp.0, ["plain.txt", "back\\slash"], None);
    assert_eq!(
        stdout(&o),
        format!(
            "{}  plain.txt\n\\{}  back\\\\slash\n",
            sha1dc_wasm::hash(b"content 0\n").digest(),
            sha1dc_wasm::hash(b"content 2\n").digest()
        )
    );
    let o = run_in(&tmp.0, ["new\nline", "carriage\rreturn"], None);
    assert_eq!(stdout(&o).lines().count(), 2, "one line per file");
    assert!(stdout(&o).starts_with('\\'));
    assert!(stdout(&o).ends_with("  carriage\\rreturn\n"));

    if !gnu_sha1sum() {
        return;
    }
    for flags in [
        &[][..],
        &["-b"],
        &["--tag"],
        &["-z"],
        &["--tag", "-z"],
        &["-t"],
    ] {
        let ours = run_in(
            &tmp.0,
            flags
                .iter()
                .map(OsStr::new)
                .chain(names.iter().map(|n| n.as_os_str())),
            None,
        );
        let gnu = Command::new("sha1sum")
            .args(flags)
            .args(&names)
            .current_dir(&tmp.0)
            .output()
            .unwrap();
        assert_eq!(ours.stdout, gnu.stdout, "{flags:?}");
        assert_eq!(code(&ours), 0);
    }
}

/// `sha1sum -c` accepts every line printed for unflagged files.
#[cfg(unix)]
#[test]
fn gnu_sha1sum_checks_our_lines() {
    if !gnu_sha1sum() {
        return;
    }
    let tmp = TempDir::new("gnu-check");
    let names = odd_names(&tmp);
    for flags in [&[][..], &["-b"], &["--tag"]] {
        let ours = run_in(
            &tmp.0,
            flags
                .iter()
                .map(OsStr::new)
                .chain(names.iter().map(|n| n.as_os_str())),
            None,
        );
        tmp.write("SUMS", &ours.stdout);
        let gnu = Command::new("sha1sum")
            .args(["-c", "--strict", "SUMS"])
            .current_dir(&tmp.0)
            .output()
            .unwrap();
        assert_eq!(code_of(&gnu), 0, "{flags:?}: {}", stderr(&gnu));
        assert_eq!(
            String::from_utf8_lossy(&gnu.stdout).matches(": OK").count(),
            names.len()
        );
    }
}

fn code_of(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// -c reads sha1dcsum's own lines, flagged ones included, GNU's, and BSD
/// tags: OK, FAILED, COLLISION, FAILED open or read, with GNU's warnings.
#[cfg(unix)]
#[test]
fn check_reads_every_format_and_never_says_ok_to_a_collision() {
    let tmp = TempDir::new("check");
    let names = odd_names(&tmp);
    for f in ["shattered-1.pdf", "sha-mbles-2.bin"] {
        fs::copy(data_dir().join(f), tmp.0.join(f)).unwrap();
    }
    let mut all: Vec<&OsStr> = names.iter().map(|n| n.as_os_str()).collect();
    all.push(OsStr::new("shattered-1.pdf"));
    all.push(OsStr::new("sha-mbles-2.bin"));
    for flags in [&[][..], &["-b"], &["--tag"], &["--no-safe-hash"], &["-j1"]] {
        let made = run_in(
            &tmp.0,
            flags.iter().map(OsStr::new).chain(all.iter().copied()),
            None,
        );
        assert_eq!(code(&made), 3);
        tmp.write("SUMS", &made.stdout);
        let check_flags: Vec<&str> = flags
            .iter()
            .copied()
            .filter(|f| *f != "-b" && *f != "--tag")
            .collect();
        let o = run_in(
            &tmp.0,
            check_flags.iter().copied().chain(["-c", "SUMS"]),
            None,
        );
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(
            out.matches(": OK\n").count(),
            names.len(),
            "{flags:?}: {out}"
        );
        assert!(
            out.ends_with("shattered-1.pdf: COLLISION\nsha-mbles-2.bin: COLLISION\n"),
            "{out}"
        );
        assert!(out.contains("\\new\\nline: OK\n"), "{out}");
        assert_eq!(
            stderr(&o),
            "sha1dcsum: WARNING: 2 listed files are halves of SHA-1 collisions\n"
        );
        assert_eq!(code(&o), 3, "{flags:?}");
    }

    // A flagged file never passes, even when its line holds its plain SHA-1.
    let o = run_in(
        &tmp.0,
        ["-c", "-"],
        Some(b"38762cf7f55934b34d179ae6a4c80cadccbb7f0a  shattered-1.pdf\n"),
    );
    assert_eq!(stdout(&o), "shattered-1.pdf: COLLISION\n");
    assert_eq!(code(&o), 3);

    // Mismatch, missing file, bad lines; 1 wins over 3.
    let sums = format!(
        "{}  plain.txt\n{}  gone\nnot a line\n{} *coll* sha-mbles-2.bin\n",
        "0".repeat(40),
        "1".repeat(40),
        "2".repeat(40)
    );
    let o = run_in(&tmp.0, ["--check", "-"], Some(sums.as_bytes()));
    assert_eq!(
        stdout(&o),
        "plain.txt: FAILED\ngone: FAILED open or read\nsha-mbles-2.bin: COLLISION\n"
    );
    assert_eq!(
        stderr(&o),
        "sha1dcsum: gone: No such file or directory\n\
         sha1dcsum: WARNING: 1 line is improperly formatted\n\
         sha1dcsum: WARNING: 1 listed file could not be read\n\
         sha1dcsum: WARNING: 1 computed checksum did NOT match\n\
         sha1dcsum: WARNING: 1 listed file is half of a SHA-1 collision\n"
    );
    assert_eq!(code(&o), 1);
}

#[cfg(unix)]
#[test]
fn check_flags_quiet_status_warn_strict_ignore_missing() {
    let tmp = TempDir::new("check-flags");
    tmp.write("a", b"abc");
    let good = "a9993e364706816aba3e25717850c26c9cd0d89d  a\n";
    let check = |flags: &[&str], sums: &str| {
        run_in(
            &tmp.0,
            flags.iter().copied().chain(["-c", "-"]),
            Some(sums.as_bytes()),
        )
    };

    let o = check(&["--quiet"], good);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 0));
    let o = check(&["--status"], &format!("{good}{}  a\n", "0".repeat(40)));
    assert_eq!(
        (stdout(&o).as_str(), stderr(&o).as_str(), code(&o)),
        ("", "", 1)
    );

    let with_bad = format!("{good}junk\n");
    let o = check(&[], &with_bad);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("a: OK\n", 0));
    assert_eq!(
        stderr(&o),
        "sha1dcsum: WARNING: 1 line is improperly formatted\n"
    );
    let o = check(&["-w"], &with_bad);
    assert!(
        stderr(&o).starts_with("sha1dcsum: -: 2: improperly formatted SHA1 checksum line\n"),
        "{}",
        stderr(&o)
    );
    let o = check(&["--strict"], &with_bad);
    assert_eq!(code(&o), 1);

    let o = check(
        &["--ignore-missing"],
        &format!("{good}{}  missing\n", "1".repeat(40)),
    );
    assert_eq!(
        (stdout(&o).as_str(), stderr(&o).as_str(), code(&o)),
        ("a: OK\n", "", 0)
    );
    let o = check(
        &["--ignore-missing"],
        &format!("{}  missing\n", "1".repeat(40)),
    );
    assert_eq!(
        stderr(&o),
        "sha1dcsum: standard input: no file was verified\n"
    );
    assert_eq!(code(&o), 1);

    let o = check(&[], "nothing here\n");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: standard input: no properly formatted SHA1 checksum lines found\n"
    );
    assert_eq!(code(&o), 1);
    let o = run_in(&tmp.0, ["-c", "no-such-list"], None);
    assert_eq!(
        stderr(&o),
        "sha1dcsum: no-such-list: No such file or directory\n"
    );
    assert_eq!(code(&o), 1);

    // -z: NUL-terminated lists, as made by -z.
    tmp.write("new\nline", b"abc");
    let made = run_in(&tmp.0, ["-z", "a", "new\nline"], None);
    tmp.write("ZSUMS", &made.stdout);
    let o = run_in(&tmp.0, ["-c", "-z", "ZSUMS"], None);
    assert_eq!(stdout(&o), "a: OK\n\\new\\nline: OK\n");
    assert_eq!(code(&o), 0);
}

/// -j hashes in parallel and prints in argument order, failures in place;
/// every job count prints the same bytes.
#[test]
fn jobs_keep_argument_order() {
    let tmp = TempDir::new("jobs");
    let mut names = Vec::new();
    let mut rng = SplitMix64(7);
    for i in 0..300 {
        let name = format!("f{i:03}");
        if i % 97 == 5 {
            names.push(format!("missing{i}"));
        }
        // Sizes from empty to a few hundred KiB, so later files often finish first.
        let mut data = vec![0u8; (rng.below(4) * rng.below(100_000)) as usize];
        rng.fill(&mut data);
        tmp.write(&name, &data);
        names.push(name);
    }
    fs::copy(
        data_dir().join("sha-mbles-1.bin"),
        tmp.0.join("sha-mbles-1.bin"),
    )
    .unwrap();
    names.insert(150, "sha-mbles-1.bin".into());
    let reference = run_in(
        &tmp.0,
        std::iter::once("-j1".to_string()).chain(names.iter().cloned()),
        None,
    );
    assert_eq!(code(&reference), 1);
    assert_eq!(stdout(&reference).lines().count(), 301);
    for (i, line) in stdout(&reference).lines().enumerate().take(3) {
        let data = fs::read(tmp.0.join(format!("f{i:03}"))).unwrap();
        assert_eq!(
            line,
            format!("{}  f{i:03}", sha1dc_wasm::hash(&data).digest())
        );
    }
    for jobs in ["-j2", "-j7", "--jobs=64"] {
        let o = run_in(
            &tmp.0,
            std::iter::once(jobs.to_string()).chain(names.iter().cloned()),
            None,
        );
        assert_eq!(o.stdout, reference.stdout, "{jobs}");
        assert_eq!(o.stderr, reference.stderr, "{jobs}");
        assert_eq!(code(&o), 1);
    }
    // The default (one per CPU) too.
    let o = run_in(&tmp.0, &names, None);
    assert_eq!(o.stdout, reference.stdout);
}

/// Runs the command in `dir` with the batch of small files on or off
/// (`SHA1DCSUM_BATCH=0`: every file on the streaming path).
fn run_batch<I, S>(dir: &Path, args: I, batch: bool) -> Output
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
fn many_files(tmp: &TempDir, seed: u64) -> Vec<String> {
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

fn with<'a>(options: &[&'a str], names: &'a [String]) -> Vec<&'a str> {
    options
        .iter()
        .copied()
        .chain(names.iter().map(String::as_str))
        .collect()
}

/// Small files are hashed in groups through the batch API: in every output
/// mode, with and without -j, the output is that of the streaming path
/// (itself what the library gives for each file alone), byte for byte.
#[test]
fn many_small_files_batch_equals_each_file_alone() {
    let tmp = TempDir::new("batch");
    let names = many_files(&tmp, 0xba7c4);
    // Checked against the library directly, file by file.
    let o = run_batch(&tmp.0, &names, true);
    let mut want = String::new();
    for name in &names {
        let outcome = sha1dc_wasm::hash(&fs::read(tmp.0.join(name)).unwrap());
        want += &line(
            &outcome.digest().to_string(),
            outcome.collision().is_some(),
            name,
        );
    }
    assert_eq!(stdout(&o), want);
    assert_eq!(code(&o), 3);
    let o = run_batch(&tmp.0, with(&["--git-blob"], &names), true);
    let mut want = String::new();
    for name in &names {
        let content = fs::read(tmp.0.join(name)).unwrap();
        let outcome = sha1dc_wasm::git::hash_object(sha1dc_wasm::git::ObjectKind::Blob, &content);
        want += &line(
            &outcome.id().to_string(),
            outcome.collision().is_some(),
            name,
        );
    }
    assert_eq!(stdout(&o), want);
    // Every mode, against the streaming path on one thread.
    for mode in [
        &[][..],
        &["-b"],
        &["--tag"],
        &["-z"],
        &["--json"],
        &["--no-safe-hash"],
        &["--reduced-round"],
        &["--git-blob"],
        &["--git-blob", "--json"],
        &["--backend", "portable", "--tag"],
    ] {
        let reference = run_batch(&tmp.0, with(&[mode, &["-j1"]].concat(), &names), false);
        // A git blob's header moves the collision blocks: no collision.
        let status = if mode.contains(&"--git-blob") { 0 } else { 3 };
        assert_eq!(code(&reference), status, "{mode:?}");
        assert_eq!(reference.stderr, b"", "{mode:?}");
        for jobs in [&["-j1"][..], &["-j3"], &[]] {
            let o = run_batch(&tmp.0, with(&[mode, jobs].concat(), &names), true);
            assert_eq!(o.stdout, reference.stdout, "{mode:?} {jobs:?}");
            assert_eq!(o.stderr, reference.stderr, "{mode:?} {jobs:?}");
            assert_eq!(code(&o), status, "{mode:?} {jobs:?}");
        }
    }
    // And one file per invocation, for the collision files and a few others.
    let all = run_batch(&tmp.0, with(&["--json"], &names), true);
    let text = stdout(&all);
    let lines: Vec<&str> = text.lines().collect();
    for (i, name) in names.iter().enumerate() {
        if i % 37 == 0 || !name.starts_with('f') {
            let alone = run_batch(&tmp.0, ["--json", name.as_str()], true);
            assert_eq!(stdout(&alone), format!("{}\n", lines[i]), "{name}");
        }
    }
}

/// Inputs that fail in the middle of a group (a read error, a dangling
/// symlink, a missing file, a directory, a file that is not readable, a
/// file whose size changes under --git-blob) get the streaming path's error,
/// in their place; the other files of the group still get their lines.
#[cfg(target_os = "linux")]
#[test]
fn failures_in_a_group_lose_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = TempDir::new("batch-fail");
    let mut names = Vec::new();
    let mut rng = SplitMix64(0xfa11);
    for i in 0..100 {
        let mut data = vec![0u8; rng.below(5000) as usize];
        rng.fill(&mut data);
        let name = format!("f{i:03}");
        tmp.write(&name, &data);
        names.push(name);
    }
    std::os::unix::fs::symlink("nowhere", tmp.0.join("dangling")).unwrap();
    fs::create_dir(tmp.0.join("subdir")).unwrap();
    let secret = tmp.write("secret", b"abc");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).unwrap();
    let denied = fs::read(&secret).is_err();
    names.insert(10, "/proc/self/mem".into());
    names.insert(20, "dangling".into());
    names.insert(30, "missing".into());
    names.insert(40, "subdir".into());
    names.insert(50, "secret".into());
    // A regular file that says 0 bytes and has some: --git-blob fails.
    names.insert(60, "/proc/self/cmdline".into());
    names.insert(70, "sha-mbles-1.bin".into());
    fs::copy(
        data_dir().join("sha-mbles-1.bin"),
        tmp.0.join("sha-mbles-1.bin"),
    )
    .unwrap();
    for mode in [&[][..], &["--git-blob"], &["--json"]] {
        // The same arguments for both: /proc/self/cmdline holds them.
        for jobs in [&["-j1"][..], &["-j2"]] {
            let args = with(&[mode, jobs].concat(), &names);
            let reference = run_batch(&tmp.0, &args, false);
            let errors = stderr(&reference);
            let mut want = vec![
                "sha1dcsum: /proc/self/mem: Input/output error",
                "sha1dcsum: dangling: No such file or directory",
                "sha1dcsum: missing: No such file or directory",
                "sha1dcsum: subdir: Is a directory",
            ];
            if denied {
                want.push("sha1dcsum: secret: Permission denied");
            }
            if mode == ["--git-blob"] {
                want.push(
                    "sha1dcsum: /proc/self/cmdline: file size changed while reading \
                     (expected 0 bytes, read ",
                );
            }
            let got: Vec<&str> = errors.lines().collect();
            assert_eq!(got.len(), want.len(), "{mode:?}: {errors}");
            for (got, want) in got.iter().zip(&want) {
                assert!(got.starts_with(want), "{mode:?}: {got} is not {want}");
            }
            let printed = names.len() - want.len();
            assert_eq!(stdout(&reference).lines().count(), printed, "{mode:?}");
            assert_eq!(code(&reference), 1);
            let o = run_batch(&tmp.0, &args, true);
            assert_eq!(stdout(&o), stdout(&reference), "{mode:?} {jobs:?}");
            assert_eq!(stderr(&o), errors, "{mode:?} {jobs:?}");
            assert_eq!(code(&o), 1, "{mode:?} {jobs:?}");
        }
    }
}

/// -c hashes the listed files through the batch too: the same verdicts,
/// warnings and status as on the streaming path.
#[test]
fn check_many_small_files_batch_equals_streaming() {
    let tmp = TempDir::new("batch-check");
    let names = many_files(&tmp, 0xc4ec);
    let sums = run_batch(&tmp.0, &names, false);
    let mut list = stdout(&sums);
    // A missing file and a changed one.
    list += "0000000000000000000000000000000000000000  gone\n";
    list += &format!("{}  f001\n", "1".repeat(40));
    tmp.write("SUMS", list.as_bytes());
    for options in [&[][..], &["--ignore-missing"], &["--quiet"]] {
        let reference = run_batch(&tmp.0, [options, &["-c", "-j1", "SUMS"]].concat(), false);
        assert_eq!(code(&reference), 1, "{options:?}");
        let out = stdout(&reference);
        assert_eq!(out.matches(": COLLISION\n").count(), 6, "{options:?}");
        assert!(out.contains("f001: FAILED\n"), "{options:?}");
        for jobs in ["-j1", "-j3"] {
            let o = run_batch(&tmp.0, [options, &["-c", jobs, "SUMS"]].concat(), true);
            assert_eq!(o.stdout, reference.stdout, "{options:?} {jobs}");
            assert_eq!(o.stderr, reference.stderr, "{options:?} {jobs}");
            assert_eq!(code(&o), 1, "{options:?} {jobs}");
        }
    }
}
