//! -c: every list format and every verdict, and the options of checking.

use std::ffi::OsStr;
use std::fs;

use crate::common::data_dir;
use crate::common::tempdir::TempDir;
use crate::support::*;

/// The files of odd_names and two collision files, copied to `tmp`.
#[cfg(unix)]
fn odd_names_and_collisions(tmp: &TempDir) -> Vec<std::ffi::OsString> {
    let mut names = odd_names(tmp);
    for f in ["shattered-1.pdf", "sha-mbles-2.bin"] {
        fs::copy(data_dir().join(f), tmp.0.join(f)).unwrap();
        names.push(f.into());
    }
    names
}

/// -c reads sha1dcsum's own lines, flagged ones included, GNU's, and BSD
/// tags: OK and COLLISION, with GNU's warnings.
#[cfg(unix)]
#[test]
fn check_reads_every_format_and_never_says_ok_to_a_collision() {
    let tmp = TempDir::new("check");
    let all = odd_names_and_collisions(&tmp);
    let names = &all[..all.len() - 2];
    let all: Vec<&OsStr> = all.iter().map(|n| n.as_os_str()).collect();
    for flags in [&[][..], &["-b"], &["--tag"], &["--no-safe-hash"], &["-j1"]] {
        let made = run_with(&tmp.0, flags, &all);
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
}

/// -c's verdicts FAILED, COLLISION and FAILED open or read, bad lines, and
/// GNU's warnings.
#[cfg(unix)]
#[test]
fn check_verdicts_and_warnings() {
    let tmp = TempDir::new("check-verdicts");
    odd_names_and_collisions(&tmp);
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

/// Runs -c in a directory holding a file `a` ("abc"), on the list `sums`
/// given on standard input.
#[cfg(unix)]
fn check_abc(tmp: &TempDir, flags: &[&str], sums: &str) -> std::process::Output {
    tmp.write("a", b"abc");
    run_in(
        &tmp.0,
        flags.iter().copied().chain(["-c", "-"]),
        Some(sums.as_bytes()),
    )
}

const GOOD: &str = "a9993e364706816aba3e25717850c26c9cd0d89d  a\n";

#[cfg(unix)]
#[test]
fn check_flags_quiet_status_warn_strict() {
    let tmp = TempDir::new("check-flags");
    let check = |flags: &[&str], sums: &str| check_abc(&tmp, flags, sums);
    let good = GOOD;

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
}

#[cfg(unix)]
#[test]
fn check_ignore_missing_empty_lists_and_nul_lines() {
    let tmp = TempDir::new("check-missing");
    let check = |flags: &[&str], sums: &str| check_abc(&tmp, flags, sums);
    let good = GOOD;

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
