//! The command line: backends, bad usage, `--`, --help and --version.

use std::process::Command;

use crate::common::data_dir;
use crate::support::*;
use crate::tempdir::TempDir;

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
            "-V, --version",
            "--generate WHAT",
            "complete-fish",
            "file_bytes",
            "COLLISION",
            "sha1cdsum",
            "`coll* <name>` does",
            "checked for a collision",
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
    for flag in ["--version", "-V", "--vers", "-bV"] {
        let o = run([flag]);
        assert_eq!(code(&o), 0, "{flag}");
        assert_eq!(
            stdout(&o),
            format!("sha1dcsum {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
    }
}

/// Long options may be shortened to any prefix no other option starts
/// with, as GNU getopt allows; an exact name wins over a longer one.
#[test]
fn long_options_abbreviated_as_gnu_allows() {
    let o = run(["--js", "--no-s", "--red", "shattered-1.pdf"]);
    let want = run([
        "--json",
        "--no-safe-hash",
        "--reduced-round",
        "shattered-1.pdf",
    ]);
    assert_eq!((stdout(&o), code(&o)), (stdout(&want), 3));
    assert!(stdout(&o).starts_with(r#"{"file":"shattered-1.pdf""#));
    let o = run(["--jo=1", "--backend", "portable", "sha-mbles-1.bin"]);
    assert_eq!(code(&o), 3, "{}", stderr(&o));
    let o = run(["--backends"]);
    assert_eq!(stdout(&o).lines().last(), Some("portable"));
    // Checking: --sta is --status.
    let tmp = TempDir::new("abbrev");
    tmp.write("a", b"abc");
    let sums = b"0000000000000000000000000000000000000000  a\n";
    let o = run_in(&tmp.0, ["-c", "--sta", "-"], Some(sums));
    assert_eq!(
        (stdout(&o).as_str(), stderr(&o).as_str(), code(&o)),
        ("", "", 1)
    );
}

/// An ambiguous prefix is an error naming the candidates, worded as GNU
/// sha1sum words it; so is a value given to an option that takes none.
#[test]
fn ambiguous_long_options_name_the_candidates() {
    for (typed, says) in [
        (
            "--s",
            "option '--s' is ambiguous; possibilities: '--status' '--strict'",
        ),
        (
            "--back",
            "option '--back' is ambiguous; possibilities: '--backend' '--backends'",
        ),
        (
            "--t",
            "option '--t' is ambiguous; possibilities: '--text' '--tag'",
        ),
        ("--js=1", "option '--json' doesn't allow an argument"),
        ("--bogus", "unrecognized option '--bogus'"),
    ] {
        let o = run(["-c", typed, "-"]);
        assert_eq!(code(&o), 2, "{typed}");
        assert_eq!(
            stderr(&o),
            format!(
                "sha1dcsum: {says}\nUsage: sha1dcsum [OPTIONS] [FILE|-]...\n\
                 Try 'sha1dcsum --help' for more information.\n"
            )
        );
    }
}

/// The first line of those messages is GNU sha1sum's, word for word.
#[test]
#[cfg_attr(missing = "gnu-sha1sum", ignore = "no GNU sha1sum to compare with")]
fn ambiguous_long_options_are_reported_as_gnu_does() {
    for typed in ["--s", "--ta=1"] {
        let gnu = gnu_sha1sum(&data_dir(), ["-c", typed]);
        let ours = run(["-c", typed]);
        let first = |o: &std::process::Output| stderr(o).lines().next().map(str::to_owned);
        let gnu_first = first(&gnu).map(|l| l.replace("sha1sum:", "sha1dcsum:"));
        assert_eq!(first(&ours), gnu_first, "{typed}");
    }
}
