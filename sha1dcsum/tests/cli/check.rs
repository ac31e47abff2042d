//! -c: every list format and every verdict, and the options of checking.

use std::ffi::OsStr;
use std::fs;

use crate::common::data_dir;
use crate::support::*;
use crate::tempdir::TempDir;

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
         sha1dcsum: WARNING: 2 computed checksums did NOT match\n\
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

/// SHAttered's first file, flagged: its safe hash and its plain SHA-1.
const SHATTERED_SAFE: &str = "16e96b70000dd1e7c85b8368ee197754400e58ec";

/// Both BSD forms of a flagged line are read and their file checked: ours,
/// `SHA1 (f) = <hex> *coll*`, and Debian's sha1cdsum's, `SHA1 (f) = *coll*
/// <hex>` (which was taken for an improperly formatted line, exit 0).
#[test]
fn check_reads_both_flagged_tag_forms() {
    let tmp = TempDir::new("check-tag-forms");
    fs::copy(data_dir().join("shattered-1.pdf"), tmp.0.join("s.pdf")).unwrap();
    for form in [
        format!("SHA1 (s.pdf) = {SHATTERED_SAFE} *coll*\n"),
        format!("SHA1 (s.pdf) = *coll* {SHATTERED_SAFE}\n"),
    ] {
        let o = check_abc(&tmp, &[], &format!("{GOOD}{form}"));
        assert_eq!(stdout(&o), "a: OK\ns.pdf: COLLISION\n", "{form}");
        assert_eq!(
            stderr(&o),
            "sha1dcsum: WARNING: 1 listed file is half of a SHA-1 collision\n"
        );
        assert_eq!(code(&o), 3, "{form}");
    }
}

/// A SHA1 line that names a file but whose checksum is in no known form:
/// the file is still checked for a collision, and the line is reported
/// whatever the options (GNU only counts it); --strict fails on it.
#[test]
fn check_lines_with_an_unreadable_checksum_still_check_their_file() {
    let tmp = TempDir::new("check-unreadable");
    fs::copy(data_dir().join("shattered-1.pdf"), tmp.0.join("s.pdf")).unwrap();
    let sums = format!("{GOOD}SHA1 (s.pdf) = *COLL* {SHATTERED_SAFE}\nSHA1 (a) = 42\n");
    let o = check_abc(&tmp, &[], &sums);
    assert_eq!(stdout(&o), "a: OK\ns.pdf: COLLISION\n");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: -: 2: improperly formatted SHA1 checksum line for s.pdf; \
         checked for a collision only\n\
         sha1dcsum: -: 3: improperly formatted SHA1 checksum line for a; \
         checked for a collision only\n\
         sha1dcsum: WARNING: 2 lines are improperly formatted\n\
         sha1dcsum: WARNING: 1 listed file is half of a SHA-1 collision\n"
    );
    assert_eq!(code(&o), 3);
    let o = check_abc(&tmp, &["--strict"], &sums);
    assert_eq!(code(&o), 1);
    // A clean file: nothing to say on standard output, status 0.
    let o = check_abc(&tmp, &[], &format!("{GOOD}SHA1 (a) = 42\n"));
    assert_eq!(stdout(&o), "a: OK\n");
    assert_eq!(code(&o), 0);
    // Alone in its list: the file is checked, then no valid line (1).
    let o = check_abc(&tmp, &["--status"], "SHA1 (s.pdf) = ?\n");
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "sha1dcsum: standard input: no properly formatted SHA1 checksum lines found\n"
    );
    assert_eq!(code(&o), 1);
    let o = check_abc(&tmp, &[], "SHA1 (s.pdf) = ?\n");
    assert_eq!(stdout(&o), "s.pdf: COLLISION\n");
}

/// `<hex> *coll* x` is both the line of a flagged `x` (the original tool's
/// and ours) and GNU's binary line for a file named `coll* x`. A list is
/// read back as its writer meant: GNU's when only `coll* x` exists, ours
/// otherwise; and sha1dcsum writes such a name in text mode, which reads
/// the same to GNU and to us whatever exists.
#[cfg(unix)]
#[test]
fn check_reads_coll_star_names_as_meant() {
    let tmp = TempDir::new("check-coll-name");
    tmp.write("coll* x", b"abc");
    let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    let gnu_line = format!("{abc} *coll* x\n");
    let check = |sums: &str| run_in(&tmp.0, ["-c", "-"], Some(sums.as_bytes()));
    let o = check(&gnu_line);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("coll* x: OK\n", 0));
    let ours = run_in(&tmp.0, ["-b", "coll* x"], None);
    assert_eq!(stdout(&ours), format!("{abc}  coll* x\n"));

    // With a flagged `x` beside it, both lines of a list we make.
    fs::copy(data_dir().join("shattered-1.pdf"), tmp.0.join("x")).unwrap();
    let made = run_in(&tmp.0, ["-b", "coll* x", "x"], None);
    let list = stdout(&made);
    assert_eq!(list, format!("{abc}  coll* x\n{SHATTERED_SAFE} *coll* x\n"));
    let o = check(&list);
    assert_eq!(stdout(&o), "coll* x: OK\nx: COLLISION\n");
    assert_eq!(code(&o), 3);
    // GNU's line, `x` present: read as ours, and `x` is checked (never an
    // OK for the wrong file); the checksum is not `x`'s: a mismatch too.
    let o = check(&gnu_line);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("x: COLLISION\n", 1));
}

/// GNU writes `<hex> *coll* x` for `coll* x` in binary mode, and reads the
/// line sha1dcsum writes for it as meant.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn gnu_sha1sum_reads_our_line_for_a_coll_star_name() {
    let tmp = TempDir::new("check-coll-name-gnu");
    tmp.write("coll* x", b"abc");
    let abc = "a9993e364706816aba3e25717850c26c9cd0d89d";
    let gnu = gnu_sha1sum(&tmp.0, ["-b", "coll* x"]);
    assert_eq!(stdout(&gnu), format!("{abc} *coll* x\n"), "what GNU writes");
    let ours = run_in(&tmp.0, ["-b", "coll* x"], None);
    tmp.write("SUMS", &ours.stdout);
    let o = gnu_sha1sum(&tmp.0, ["-c", "--strict", "SUMS"]);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("coll* x: OK\n", 0));
}

/// What GNU `sha1sum -c` (coreutils 9.1) passes over in silence, even with
/// `--strict`: a line whose first byte is `#`, and a line left empty once
/// its carriage return is dropped. Blanks before a `#`, or an escaped `#`
/// line, are improperly formatted; a `#` elsewhere belongs to the line.
/// Each case: the list, the `-c --strict` output and exit status (GNU's),
/// and the line `-w` reports as improper.
const COMMENT_CASES: &[(&str, &str, i32, Option<u32>)] = &[
    ("# c\n{GOOD}", "a: OK\n", 0, None),
    ("#\n#\r\n{GOOD}#", "a: OK\n", 0, None),
    ("\n\r\n{GOOD}\n\n", "a: OK\n", 0, None),
    (
        "#{HEX}  gone\n#SHA1 (gone) = {HEX}\n{GOOD}",
        "a: OK\n",
        0,
        None,
    ),
    ("  # c\n{GOOD}", "a: OK\n", 1, Some(1)),
    ("\t# c\n{GOOD}", "a: OK\n", 1, Some(1)),
    ("\\# c\n{GOOD}", "a: OK\n", 1, Some(1)),
    ("# c\n\n \n{GOOD}", "a: OK\n", 1, Some(3)),
    ("{GOOD}\r\r\n", "a: OK\n", 1, Some(2)),
    (
        "{HEX}  #a\n{HEX}  a#b # c\n",
        "#a: OK\na#b # c: OK\n",
        0,
        None,
    ),
    (
        "# git blob ids (what git hash-object prints), not SHA-1 checksums of the files:\n\
         # check them with sha1dcsum --git-blob -c or git hash-object, not with sha1sum -c.\n\
         {BLOB}  a\n",
        "a: FAILED\n",
        1,
        None,
    ),
];

const ABC_HEX: &str = "a9993e364706816aba3e25717850c26c9cd0d89d";
/// `git hash-object` of "abc".
const ABC_BLOB: &str = "f2ba8f84ab5c1bce84a7b441cb1959cfc7093b7f";

fn comment_case(template: &str) -> String {
    template
        .replace("{GOOD}", GOOD)
        .replace("{HEX}", ABC_HEX)
        .replace("{BLOB}", ABC_BLOB)
}

/// A directory with the files the comment cases name, all holding "abc".
fn comment_dir(tag: &str) -> TempDir {
    let tmp = TempDir::new(tag);
    for name in ["a", "#a", "a#b # c"] {
        tmp.write(name, b"abc");
    }
    tmp
}

#[cfg(unix)]
#[test]
fn check_skips_comments_and_empty_lines_as_gnu_does() {
    let tmp = comment_dir("check-comments");
    for &(template, want, status, improper_line) in COMMENT_CASES {
        tmp.write("SUMS", comment_case(template).as_bytes());
        let o = run_in(&tmp.0, ["-c", "--strict", "SUMS"], None);
        assert_eq!(
            (stdout(&o).as_str(), code(&o)),
            (want, status),
            "{template:?}"
        );
        let o = run_in(&tmp.0, ["-c", "-w", "SUMS"], None);
        let improper: Vec<String> = stderr(&o)
            .lines()
            .filter(|l| l.contains("improperly formatted"))
            .map(str::to_owned)
            .collect();
        let want_improper: Vec<String> = improper_line
            .map(|n| {
                vec![
                    format!("sha1dcsum: SUMS: {n}: improperly formatted SHA1 checksum line"),
                    "sha1dcsum: WARNING: 1 line is improperly formatted".to_owned(),
                ]
            })
            .unwrap_or_default();
        assert_eq!(improper, want_improper, "{template:?}");
    }
    // The page's git blob id list checks with --git-blob.
    let (blob_list, ..) = COMMENT_CASES[COMMENT_CASES.len() - 1];
    tmp.write("SUMS", comment_case(blob_list).as_bytes());
    let o = run_in(&tmp.0, ["--git-blob", "-c", "--strict", "SUMS"], None);
    assert_eq!(
        (stdout(&o).as_str(), stderr(&o).as_str(), code(&o)),
        ("a: OK\n", "", 0)
    );
    // -z (which GNU 9.1 refuses with -c): the same rule for each NUL-ended line.
    let list = format!("# c\0\0\r\0{}\0", GOOD.trim_end());
    tmp.write("ZSUMS", list.as_bytes());
    let o = run_in(&tmp.0, ["-c", "-z", "--strict", "ZSUMS"], None);
    assert_eq!(
        (stdout(&o).as_str(), stderr(&o).as_str(), code(&o)),
        ("a: OK\n", "", 0)
    );
    tmp.write("ZSUMS", format!(" # c\0{}\0", GOOD.trim_end()).as_bytes());
    let o = run_in(&tmp.0, ["-c", "-z", "--strict", "ZSUMS"], None);
    assert_eq!(code(&o), 1);
}

/// The comment cases side by side with GNU `sha1sum -c`: the same output,
/// warnings and exit status, with `--strict` and with `-w`.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn check_skips_the_lines_gnu_skips() {
    let tmp = comment_dir("check-comments-gnu");
    for &(template, ..) in COMMENT_CASES {
        for flags in [["-c", "--strict", "SUMS"], ["-c", "-w", "SUMS"]] {
            check_as_gnu_does(&tmp, template, &flags);
        }
    }
}

/// Checks the list `template` makes as `SUMS` with `args`, and GNU
/// `sha1sum` with the same: the same output, messages and exit status.
fn check_as_gnu_does(tmp: &TempDir, template: &str, args: &[&str]) {
    tmp.write("SUMS", comment_case(template).as_bytes());
    let ours = run_in(&tmp.0, args, None);
    let gnu = gnu_sha1sum(&tmp.0, args);
    assert_eq!(ours.stdout, gnu.stdout, "{template:?} {args:?}");
    assert_eq!(
        stderr(&ours),
        stderr(&gnu).replace("sha1sum: ", "sha1dcsum: "),
        "{template:?} {args:?}"
    );
    assert_eq!(code(&ours), code_of(&gnu), "{template:?} {args:?}");
}

/// The forms of a line GNU `sha1sum -c` reads besides the ones it writes:
/// OpenSSL's `SHA1(<name>)= <hex>`, any blanks around the `=`, a tab after
/// the hex, BSD's `<hex> <name>`, a one-byte name; and lines it does not
/// read. Each: the list, then what `-c --strict` prints and its status.
/// (A `SHA1 (<name>) = ` line whose checksum is in no known form is
/// reported where GNU is silent: lines.rs's tests.)
const FORM_CASES: &[(&str, &str, i32)] = &[
    ("SHA1(a)= {HEX}\n", "a: OK\n", 0),
    ("SHA1(a)={HEX}\n", "a: OK\n", 0),
    ("SHA1 (a)  = \t{HEX}\n", "a: OK\n", 0),
    ("SHA1 (a (1)) = {HEX}\n", "a (1): OK\n", 0),
    ("{HEX}\ta\n", "a: OK\n", 0),
    ("{HEX}\t*a\n", "a: OK\n", 0),
    ("{HEX}\t a\n", "a: OK\n", 0),
    ("{HEX} a\n", "a: OK\n", 0),
    ("{HEX}  \n", " : OK\n", 0),
    ("{HEX} *\n", "*: OK\n", 0),
    ("SHA1  (a) = {HEX}\n{GOOD}", "a: OK\n", 1),
    ("sha1 (a) = {HEX}\n{GOOD}", "a: OK\n", 1),
];

fn form_dir(tag: &str) -> TempDir {
    let tmp = TempDir::new(tag);
    for name in ["a", "a (1)", " ", "*"] {
        tmp.write(name, b"abc");
    }
    tmp
}

#[cfg(unix)]
#[test]
fn check_reads_the_forms_gnu_reads() {
    let tmp = form_dir("check-forms");
    for &(template, want, status) in FORM_CASES {
        tmp.write("SUMS", comment_case(template).as_bytes());
        let o = run_in(&tmp.0, ["-c", "--strict", "SUMS"], None);
        assert_eq!(
            (stdout(&o).as_str(), code(&o)),
            (want, status),
            "{template:?}: {}",
            stderr(&o)
        );
    }
}

/// The same cases side by side with GNU `sha1sum -c`.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn check_reads_the_forms_gnu_reads_as_gnu_does() {
    let tmp = form_dir("check-forms-gnu");
    for &(template, ..) in FORM_CASES {
        check_as_gnu_does(&tmp, template, &["-c", "--strict", "SUMS"]);
    }
}

/// Of `--status`, `-w` and `--quiet` the last one given wins, and `--tag`
/// after `-t` makes tag lines, as with GNU `sha1sum`: side by side.
#[cfg(unix)]
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn the_last_of_status_warn_and_quiet_wins_as_with_gnu() {
    let tmp = comment_dir("check-last-wins");
    let sums = "{GOOD}junk\n0000000000000000000000000000000000000000  a\n";
    for args in [
        &["-c", "--status", "-w", "SUMS"][..],
        &["-c", "--status", "--quiet", "SUMS"],
        &["-c", "--quiet", "-w", "SUMS"],
        &["-c", "-w", "--quiet", "--status", "SUMS"],
        &["-c", "--quiet", "--status", "-w", "SUMS"],
    ] {
        check_as_gnu_does(&tmp, sums, args);
    }
    for args in [&["-t", "--tag", "a"][..], &["--tag", "-t", "a"]] {
        let (ours, gnu) = (run_in(&tmp.0, args, None), gnu_sha1sum(&tmp.0, args));
        assert_eq!(ours.stdout, gnu.stdout, "{args:?}");
        assert_eq!(code(&ours).min(1), code_of(&gnu), "{args:?}");
    }
}
